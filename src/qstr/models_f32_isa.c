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
#include "qstr_lanes.h"
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

#if NNT_ISA_LEVEL >= 1
/* yhat[r] = b0 + sum_c h[r][c] w[c] for whole groups of NNT_LANES rows, one row per lane (gathered
 * down a column): each row's multiplies and adds in column order, as in the scalar loop that
 * finishes the rest; returns the rows done */
static size_t readout_gather_f32(const float *h, size_t rows, int m, const float *w, float b0, float *yhat) {
#if NNT_ISA_LEVEL >= 2
  const __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                         _mm512_set1_epi32(m));
#define GATHER_COL(p) _mm512_i32gather_ps(idx, p, 4)
#else
  const __m256i idx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(m));
#define GATHER_COL(p) _mm256_i32gather_ps(p, idx, 4)
#endif
  size_t r = 0;
  for (; r + NNT_LANES <= rows && (r + NNT_LANES) * (size_t)m <= INT_MAX; r += NNT_LANES) {
    const float *hr = h + r * m;
    lv s = LV_SET1(b0);
    for (int c = 0; c < m; c++) s = LV_ADD(s, LV_MUL(GATHER_COL(hr + c), LV_SET1(w[c])));
    LV_STOREU(yhat + r, s);
  }
#undef GATHER_COL
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

#if NNT_ISA_LEVEL >= 1
static int attn_lanes_fwd(const nnt_qstr_model *mo, struct nnt_qstr_ws_f32 *ws, int B, float scale);
static int attn_lanes_bwd(const nnt_qstr_model *mo, struct nnt_qstr_ws_f32 *ws, int B, const float *dC, float *dqkv,
                          float scale);
#define ATTN_LANES_FWD attn_lanes_fwd
#define ATTN_LANES_BWD attn_lanes_bwd
#endif

#define NNT_REAL_BITS 32
#include "nnt_real.h"
#undef NNT_GEMM
#define NNT_GEMM(...) nnt_sgemm_min(nnt_qstr_blas_min, __VA_ARGS__)
#define ENTRY(name) NNT_ISA_FN(NNT_T(name))
#include "models.inc"

#if NNT_ISA_LEVEL >= 1
/* The tr attention of NNT_LANES prompts at once, one per lane (qstr_lanes.h: 16 at AVX-512, 8 at AVX2): every product of the
 * per-prompt path (scores, softmax, context; in the backward dA, dV, the softmax gradient, dQ, dK)
 * with each element's operations in the same order (an FMA chain over the inner index from zero,
 * then the scale; the softmax's row form, the gradient's sums), so the same bits, but whole vectors
 * of work instead of 12 x 34 products, each a call with its own packing. Used where those products
 * would run in the loop kernels (not OpenBLAS: --blas-min) and the attention fits the scratch. */
enum { AL = NNT_LANES };

/* out[r][c] = (scale *) sum_k a[r][k] b[k][c] over rows r0.., columns c0.. of a tile, vectors of
 * NNT_LANES lanes; a[r][k] at a + (r ar + k ak) AL, b[k][c] at b + (k bk + c bc) AL, out[r][c] at
 * out + (r orr + c oc) AL */
typedef struct {
  int K;
  const float *a, *b;
  size_t ar, ak, bk, bc;
  float *out;
  size_t orr, oc;
  float scale; /* 1: none (the loops' alpha 1 leaves the sum as it is) */
} lanes_prod;

static inline __attribute__((always_inline)) void lanes_tile(const lanes_prod *q, int r0, int c0, int NR, int NC) {
  lv acc[4][4];
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) acc[r][c] = LV_ZERO();
  for (int k = 0; k < q->K; k++) {
    lv av[4], bv[4];
    for (int r = 0; r < NR; r++) av[r] = nnt_lanes_reg(LV_LOAD(q->a + ((size_t)(r0 + r) * q->ar + (size_t)k * q->ak) * AL));
    for (int c = 0; c < NC; c++) bv[c] = nnt_lanes_reg(LV_LOAD(q->b + ((size_t)k * q->bk + (size_t)(c0 + c) * q->bc) * AL));
    for (int r = 0; r < NR; r++)
      for (int c = 0; c < NC; c++) acc[r][c] = LV_FMA(av[r], bv[c], acc[r][c]);
  }
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++)
      LV_STORE(q->out + ((size_t)(r0 + r) * q->orr + (size_t)(c0 + c) * q->oc) * AL,
                      q->scale == 1 ? acc[r][c] : LV_MUL(LV_SET1(q->scale), acc[r][c]));
}

static inline __attribute__((always_inline)) void lanes_rows(const lanes_prod *q, int r0, int NR, int C) {
  int c = 0;
  for (; c + 4 <= C; c += 4) lanes_tile(q, r0, c, NR, 4);
  if (c + 2 <= C) lanes_tile(q, r0, c, NR, 2), c += 2;
  if (c < C) lanes_tile(q, r0, c, NR, 1);
}

static void lanes_product(const lanes_prod *q, int R, int C) {
  int r = 0;
  for (; r + 4 <= R; r += 4) lanes_rows(q, r, 4, C);
  if (r + 2 <= R) lanes_rows(q, r, 2, C), r += 2;
  if (r < R) lanes_rows(q, r, 1, C);
}

static int lanes_ok(const nnt_qstr_model *mo, int B) {
  long n = (long)mo->N * mo->N * mo->D;
  return B >= AL && mo->N <= 64 && n < nnt_qstr_blas_min;
}

/* each prompt's N x N block of ws->att, row-major, from sl[j][i] (the API's attention maps) */
static void lanes_att_rows(const float *sl, int N, float *tmp, float *att) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) LV_STORE(tmp + ((size_t)i * N + j) * AL, LV_LOAD(sl + ((size_t)j * N + i) * AL));
  float *rows[AL];
  for (int l = 0; l < AL; l++) rows[l] = att + (size_t)l * N * N;
  nnt_lanes_to_rows(tmp, N * N, rows);
}

static int attn_lanes_fwd(const nnt_qstr_model *mo, struct nnt_qstr_ws_f32 *ws, int B, float scale) {
  if (!lanes_ok(mo, B)) return 0;
  int N = mo->N, D = mo->D, nb = B / AL;
  size_t blk = (size_t)(N * 3 * D + N * N) * AL;
  float *tmp = ws->lanes + (size_t)(ws->Bmax / AL) * blk; /* the block's context, then its attention rows */
  for (int bb = 0; bb < nb; bb++) {
    float *qkv = ws->lanes + bb * blk, *sl = qkv + (size_t)N * 3 * D * AL; /* qkv[i][c]; sl[j][i] = A[i][j] */
    const float *rows[AL];
    for (int i = 0; i < N; i++) {
      for (int l = 0; l < AL; l++) rows[l] = ws->qkv + ((size_t)(bb * AL + l) * N + i) * 3 * D;
      nnt_lanes_from_rows(rows, 3 * D, qkv + (size_t)i * 3 * D * AL);
    }
    /* scores transposed, s[j][i] = scale K_j . Q_i, then the softmax down each query's keys */
    lanes_prod s = {D, qkv + (size_t)D * AL, qkv, 3 * D, 1, 1, 3 * D, sl, N, 1, scale};
    lanes_product(&s, N, N);
    NNT_ISA_FN(nnt_softmax_cols_fast)(sl, N, N * AL, N * AL);
    /* context c[i][c] = sum_j A[i][j] V[j][c] */
    lanes_prod cx = {N, sl, qkv + (size_t)2 * D * AL, 1, N, 3 * D, 1, tmp, D, 1, 1};
    lanes_product(&cx, N, D);
    float *out[AL];
    for (int i = 0; i < N; i++) {
      for (int l = 0; l < AL; l++) out[l] = ws->ctx + ((size_t)(bb * AL + l) * N + i) * D;
      nnt_lanes_to_rows(tmp + (size_t)i * D * AL, D, out);
    }
    lanes_att_rows(sl, N, tmp, ws->att + (size_t)bb * AL * N * N);
  }
  nnt_gemm_macs_add(2.0 * nb * AL * N * N * D); /* the scores and the context, as the products count them */
  return nb * AL;
}

static int attn_lanes_bwd(const nnt_qstr_model *mo, struct nnt_qstr_ws_f32 *ws, int B, const float *dC, float *dqkv,
                          float scale) {
  if (!lanes_ok(mo, B)) return 0;
  int N = mo->N, D = mo->D, nb = B / AL;
  size_t blk = (size_t)(N * 3 * D + N * N) * AL;
  float *dcl = ws->lanes + (size_t)(ws->Bmax / AL) * blk, *da = dcl + (size_t)N * D * AL, *out = da + (size_t)N * N * AL;
  const lv vs = LV_SET1(scale);
  for (int bb = 0; bb < nb; bb++) {
    const float *qkv = ws->lanes + bb * blk, *sl = qkv + (size_t)N * 3 * D * AL;
    const float *rows[AL];
    for (int i = 0; i < N; i++) {
      for (int l = 0; l < AL; l++) rows[l] = dC + ((size_t)(bb * AL + l) * N + i) * D;
      nnt_lanes_from_rows(rows, D, dcl + (size_t)i * D * AL);
    }
    /* dA[i][j] = dC_i . V_j; dV[j][c] = sum_i A[i][j] dC[i][c] */
    lanes_prod pa = {D, dcl, qkv + (size_t)2 * D * AL, D, 1, 1, 3 * D, da, N, 1, 1};
    lanes_product(&pa, N, N);
    lanes_prod pv = {N, sl, dcl, N, 1, D, 1, out + (size_t)2 * D * AL, 3 * D, 1, 1};
    lanes_product(&pv, N, D);
    /* the softmax gradient, row i of dA: dot = sum_j dA[i][j] A[i][j] in order, then
     * A (dA - dot) scale (softmax_back's operations) */
    for (int i = 0; i < N; i++) {
      lv dot = LV_ZERO();
      for (int j = 0; j < N; j++)
        dot = LV_ADD(dot, LV_MUL(LV_LOAD(da + ((size_t)i * N + j) * AL),
                                               LV_LOAD(sl + ((size_t)j * N + i) * AL)));
      for (int j = 0; j < N; j++) {
        float *g = da + ((size_t)i * N + j) * AL;
        lv a = LV_LOAD(sl + ((size_t)j * N + i) * AL);
        LV_STORE(g, LV_MUL(LV_MUL(a, LV_SUB(LV_LOAD(g), dot)), vs));
      }
    }
    /* dQ[i][c] = sum_j dS[i][j] K[j][c]; dK[j][c] = sum_i dS[i][j] Q[i][c] */
    lanes_prod pq = {N, da, qkv + (size_t)D * AL, N, 1, 3 * D, 1, out, 3 * D, 1, 1};
    lanes_product(&pq, N, D);
    lanes_prod pk = {N, da, qkv, 1, N, 3 * D, 1, out + (size_t)D * AL, 3 * D, 1, 1};
    lanes_product(&pk, N, D);
    float *dst[AL];
    for (int i = 0; i < N; i++) {
      for (int l = 0; l < AL; l++) dst[l] = dqkv + ((size_t)(bb * AL + l) * N + i) * 3 * D;
      nnt_lanes_to_rows(out + (size_t)i * 3 * D * AL, 3 * D, dst);
    }
  }
  nnt_gemm_macs_add(4.0 * nb * AL * N * N * D); /* dA, dV, dQ, dK */
  return nb * AL;
}
#endif

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
