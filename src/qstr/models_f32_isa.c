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
