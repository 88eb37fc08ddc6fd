/* float32 instance of the qSTR model kernels (training and evaluation); compiled once per
 * instruction-set level (nnt_cpu.h). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_nn.h"
#include "nnt_qstr.h"
#include "nnt_simd.h"
#include "nnt_dmath.h"
#include "nnt_vmath.h"
#include "qstr_sparse.h"

/* Every float32 product runs in the core's loop kernels unless it has at least
 * nnt_qstr_blas_min multiply-adds: they are faster than OpenBLAS 0.3.21 at the qSTR shapes on
 * AVX2 and AVX-512 (nnt bench core) and, unlike OpenBLAS's own CPU dispatch, round alike on every
 * CPU, so a sweep's samples do not depend on the machine. --blas-min brings OpenBLAS back. */
extern long nnt_qstr_blas_min;
#if NNT_ISA_BASE_TU
long nnt_qstr_blas_min = LONG_MAX;
void nnt_qstr_set_blas_min(long macs) { nnt_qstr_blas_min = macs; }
#endif

/* biGRU gates in float: r = sigmoid(a_r + c_r), z = sigmoid(a_z + c_z), n = tanh(a_n + r c_n),
 * h = (1 - z) n + z h_prev, eight units at a time, with the core's fast exp and tanh
 * (nnt_vmath.h): glibc's double exp/tanh per unit were a quarter of a biGRU-500 evaluation. The
 * float64 instance (gradient checks) keeps libm. */
static void gru_gates_f32(int H, const float *a, const float *c, const float *hp, float *h, float *sg) {
  int k = 0;
  const __m256 one = _mm256_set1_ps(1);
  for (; k + 8 <= H; k += 8) {
    __m256 r = nnt_vmath_sigmf8(_mm256_add_ps(_mm256_loadu_ps(a + k), _mm256_loadu_ps(c + k)));
    __m256 z = nnt_vmath_sigmf8(_mm256_add_ps(_mm256_loadu_ps(a + H + k), _mm256_loadu_ps(c + H + k)));
    __m256 cn = _mm256_loadu_ps(c + 2 * H + k);
    __m256 n = nnt_vmath_tanhf8(_mm256_fmadd_ps(r, cn, _mm256_loadu_ps(a + 2 * H + k)));
    __m256 hv = _mm256_mul_ps(_mm256_sub_ps(one, z), n);
    if (hp) hv = _mm256_fmadd_ps(z, _mm256_loadu_ps(hp + k), hv);
    _mm256_storeu_ps(h + k, hv);
    _mm256_storeu_ps(sg + k, r), _mm256_storeu_ps(sg + H + k, z), _mm256_storeu_ps(sg + 2 * H + k, n);
    _mm256_storeu_ps(sg + 3 * H + k, cn);
  }
  for (; k < H; k++) {
    float r = nnt_vmath_sigmf(a[k] + c[k]), z = nnt_vmath_sigmf(a[H + k] + c[H + k]);
    float n = nnt_vmath_tanhf(a[2 * H + k] + r * c[2 * H + k]);
    h[k] = (1 - z) * n + z * (hp ? hp[k] : 0);
    sg[k] = r, sg[H + k] = z, sg[2 * H + k] = n, sg[3 * H + k] = c[2 * H + k];
  }
}
#define GRU_GATES gru_gates_f32

/* the FFN's hidden layers on ReLU outputs (qstr_sparse.h): W^T packed once per step */
static void ffn_sparse_f32(int B, int in, int out, const float *X, const float *W, const float *bias, float *Y,
                           struct nnt_qstr_ws_f32 *ws);
#define FFN_SPARSE ffn_sparse_f32
#define FFN_SPARSE_MIN NNT_QSTR_SPARSE_MIN
#define SOFTMAX_ROW NNT_ISA_FN(nnt_softmax_row_fast) /* this level's, without the dispatch per row */

/* gb[c] += sum_r G[r][c], each column's sum in row order as in the scalar loop, but 32 columns held
 * in registers down all the rows instead of a load and a store of gb per row */
static void colsum_regs_f32(const float *G, size_t rows, int cols, float *gb) {
  int c = 0;
  for (; c + 32 <= cols; c += 32) {
    __m256 a0 = _mm256_loadu_ps(gb + c), a1 = _mm256_loadu_ps(gb + c + 8), a2 = _mm256_loadu_ps(gb + c + 16),
           a3 = _mm256_loadu_ps(gb + c + 24);
    for (size_t r = 0; r < rows; r++) {
      const float *g = G + r * cols + c;
      a0 = _mm256_add_ps(a0, _mm256_loadu_ps(g)), a1 = _mm256_add_ps(a1, _mm256_loadu_ps(g + 8));
      a2 = _mm256_add_ps(a2, _mm256_loadu_ps(g + 16)), a3 = _mm256_add_ps(a3, _mm256_loadu_ps(g + 24));
    }
    _mm256_storeu_ps(gb + c, a0), _mm256_storeu_ps(gb + c + 8, a1), _mm256_storeu_ps(gb + c + 16, a2);
    _mm256_storeu_ps(gb + c + 24, a3);
  }
  for (; c + 8 <= cols; c += 8) {
    __m256 a0 = _mm256_loadu_ps(gb + c);
    for (size_t r = 0; r < rows; r++) a0 = _mm256_add_ps(a0, _mm256_loadu_ps(G + r * cols + c));
    _mm256_storeu_ps(gb + c, a0);
  }
  for (; c < cols; c++) {
    float s = gb[c];
    for (size_t r = 0; r < rows; r++) s += G[r * cols + c];
    gb[c] = s;
  }
}
#define COLSUM_ACC colsum_regs_f32

#if NNT_ISA_LEVEL >= 2
/* yhat[r] = b0 + sum_c h[r][c] w[c] for whole groups of 16 rows, one row per lane (gathered down a
 * column): each row's multiplies and adds in column order, as in the scalar loop that finishes
 * the rest; returns the rows done */
static size_t readout_gather_f32(const float *h, size_t rows, int m, const float *w, float b0, float *yhat) {
  const __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                         _mm512_set1_epi32(m));
  size_t r = 0;
  for (; r + 16 <= rows && (r + 16) * (size_t)m <= INT_MAX; r += 16) {
    const float *hr = h + r * m;
    __m512 s = _mm512_set1_ps(b0);
    for (int c = 0; c < m; c++) s = _mm512_add_ps(s, _mm512_mul_ps(_mm512_i32gather_ps(idx, hr + c, 4), _mm512_set1_ps(w[c])));
    _mm512_storeu_ps(yhat + r, s);
  }
  return r;
}
#define READOUT_ROWS readout_gather_f32
#endif

/* A = softmax_rows(scale Q K^T) for one prompt (rows of Q and K ld apart), as the product and
 * the row softmax give it: the scores computed transposed (S^T = scale K Q^T: the same products,
 * summed in the same order), the softmax run down the columns, every query at once
 * (nnt_softmax_cols_fast: the row form's bits), then A written row-major for the backward.
 * Twelve calls of the row softmax per prompt cost more than the product. */
static void attn_softmax_f32(const float *Q, const float *K, int ld, int N, int D, float scale, float *A) {
  enum { NMAX = 64 };
  if (N > NMAX) {
    nnt_sgemm_min(nnt_qstr_blas_min, 0, 1, N, N, D, scale, Q, ld, K, ld, 0, A, N);
    for (int i = 0; i < N; i++) SOFTMAX_ROW(A + (size_t)i * N, N);
    return;
  }
  int Np = (N + 7) / 8 * 8;
  float st[NMAX * NMAX];
  for (int j = 0; j < N; j++)
    for (int i = N; i < Np; i++) st[j * Np + i] = 0; /* the padding columns the softmax also runs */
  nnt_sgemm_min(nnt_qstr_blas_min, 0, 1, N, N, D, scale, K, ld, Q, ld, 0, st, Np);
  NNT_ISA_FN(nnt_softmax_cols_fast)(st, N, Np, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) A[i * N + j] = st[j * Np + i];
}
#define ATTN_SOFTMAX attn_softmax_f32

#define NNT_REAL_BITS 32
#include "nnt_real.h"
#undef NNT_GEMM
#define NNT_GEMM(...) nnt_sgemm_min(nnt_qstr_blas_min, __VA_ARGS__)
#define ENTRY(name) NNT_ISA_FN(NNT_T(name))
#include "models.inc"

static void ffn_sparse_f32(int B, int in, int out, const float *X, const float *W, const float *bias, float *Y,
                           struct nnt_qstr_ws_f32 *ws) {
  int outp = nnt_qstr_sparse_width(out);
  NNT_ISA_FN(nnt_qstr_pack_wt)(W, out, in, outp, ws->wt);
  NNT_ISA_FN(nnt_qstr_sparse_layer)(B, in, in, out, outp, X, ws->wt, bias, 1, Y, out, ws->nzi, ws->nzv, ws->nzc);
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_qstr_forward_f32, (const nnt_qstr_model *, nnt_qstr_ws_f32 *, const float *, const float *,
                                             int, float *));
NNT_ISA_DECLARE(void, nnt_qstr_backward_f32, (const nnt_qstr_model *, nnt_qstr_ws_f32 *, const float *, const float *,
                                              int, const float *, float *));

void nnt_qstr_forward_f32(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, const float *p, const float *X, int B,
                          float *yhat) {
  NNT_ISA_PICK(nnt_qstr_forward_f32)(mo, ws, p, X, B, yhat);
}

void nnt_qstr_backward_f32(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, const float *p, const float *X, int B,
                           const float *dy, float *grad) {
  NNT_ISA_PICK(nnt_qstr_backward_f32)(mo, ws, p, X, B, dy, grad);
}

const float *nnt_qstr_attention_f32(const nnt_qstr_model *mo, const nnt_qstr_ws_f32 *ws, int b, int h) {
  size_t NN = (size_t)mo->N * mo->N;
  return mo->arch == NNT_QSTR_TRP ? ws->att + ((size_t)b * mo->H + h) * NN : ws->att + (size_t)b * NN;
}
#endif
