/* float32 instance of the qSTR model kernels (training and evaluation); compiled once per
 * instruction-set level (nnt_cpu.h). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_qstr.h"
#include "nnt_simd.h"

/* Every float32 product runs in the core's loop kernels unless it has at least
 * nnt_qstr_blas_min multiply-adds: they are faster than OpenBLAS 0.3.21 at the qSTR shapes on
 * AVX2 and AVX-512 (nnt bench core) and, unlike OpenBLAS's own CPU dispatch, round alike on every
 * CPU, so a sweep's samples do not depend on the machine. --blas-min brings OpenBLAS back. */
extern long nnt_qstr_blas_min;
#if NNT_ISA_BASE_TU
long nnt_qstr_blas_min = LONG_MAX;
void nnt_qstr_set_blas_min(long macs) { nnt_qstr_blas_min = macs; }
#endif
#define QSTR_SGEMM(...) nnt_sgemm_min(nnt_qstr_blas_min, __VA_ARGS__)

/* biGRU gates in float: r = sigmoid(a_r + c_r), z = sigmoid(a_z + c_z), n = tanh(a_n + r c_n),
 * h = (1 - z) n + z h_prev, eight units at a time. exp is Cephes' expf (range reduction by ln 2 in
 * two parts, degree-5 polynomial, 2^k through the exponent bits; a few ulp), tanh Cephes' tanhf
 * (odd polynomial below |x| = 0.625, 1 - 2/(e^{2|x|} + 1) above), the same forms as the core's
 * float layers (src/core/nn_layers.inc). glibc's double exp/tanh per unit were a quarter of a
 * biGRU-500 evaluation. The float64 instance (gradient checks) keeps libm. */
static inline float gexpf(float x) {
  if (x != x) return x;
  x = x > 88.3762626647949f ? 88.3762626647949f : x < -87.3f ? -87.3f : x; /* 2^k stays a normal float */
  float k = floorf(1.44269504088896341f * x + 0.5f);
  float r = x - k * 0.693359375f + k * 2.12194440e-4f;
  float p = ((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r + 4.1665795894e-2f) * r +
             1.6666665459e-1f) * r + 5.0000001201e-1f;
  p = p * r * r + r + 1;
  union { float f; uint32_t i; } u = {p};
  u.i += (uint32_t)(int32_t)k << 23; /* adds k to the exponent; unsigned, since k may be negative */
  return u.f;
}
static inline float gsigmf(float x) { return 1 / (1 + gexpf(-x)); }
static inline float gtanhf(float x) {
  float a = fabsf(x);
  if (a < 0.625f) {
    float z = x * x;
    return ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z + 1.33314422036e-1f) * z -
            3.33332819422e-1f) * z * x + x;
  }
  float t = 1 - 2 / (gexpf(2 * a) + 1);
  return x < 0 ? -t : t;
}
static inline __m256 vexpf(__m256 x) {
  const __m256 hi = _mm256_set1_ps(88.3762626647949f), lo = _mm256_set1_ps(-87.3f);
  x = _mm256_max_ps(lo, _mm256_min_ps(hi, x)); /* operand order: a NaN x passes through */
  __m256 k = _mm256_floor_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504088896341f), _mm256_set1_ps(0.5f)));
  __m256 r = _mm256_fnmadd_ps(k, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(k, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(_mm256_mul_ps(p, r), r, _mm256_add_ps(r, _mm256_set1_ps(1)));
  __m256i e = _mm256_slli_epi32(_mm256_cvtps_epi32(k), 23);
  return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(p), e));
}
static inline __m256 vsigmf(__m256 x) {
  const __m256 one = _mm256_set1_ps(1);
  return _mm256_div_ps(one, _mm256_add_ps(one, vexpf(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}
static inline __m256 vtanhf(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1);
  __m256 a = _mm256_andnot_ps(sign, x), z = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(-5.70498872745e-3f);
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(2.06390887954e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-5.37397155531e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.33314422036e-1f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-3.33332819422e-1f));
  p = _mm256_fmadd_ps(_mm256_mul_ps(p, z), x, x);
  __m256 t = _mm256_sub_ps(one, _mm256_div_ps(_mm256_set1_ps(2), _mm256_add_ps(vexpf(_mm256_add_ps(a, a)), one)));
  t = _mm256_or_ps(t, _mm256_and_ps(x, sign));
  return _mm256_blendv_ps(t, p, _mm256_cmp_ps(a, _mm256_set1_ps(0.625f), _CMP_LT_OQ));
}
static void gru_gates_f32(int H, const float *a, const float *c, const float *hp, float *h, float *sg) {
  int k = 0;
  const __m256 one = _mm256_set1_ps(1);
  for (; k + 8 <= H; k += 8) {
    __m256 r = vsigmf(_mm256_add_ps(_mm256_loadu_ps(a + k), _mm256_loadu_ps(c + k)));
    __m256 z = vsigmf(_mm256_add_ps(_mm256_loadu_ps(a + H + k), _mm256_loadu_ps(c + H + k)));
    __m256 cn = _mm256_loadu_ps(c + 2 * H + k);
    __m256 n = vtanhf(_mm256_fmadd_ps(r, cn, _mm256_loadu_ps(a + 2 * H + k)));
    __m256 hv = _mm256_mul_ps(_mm256_sub_ps(one, z), n);
    if (hp) hv = _mm256_fmadd_ps(z, _mm256_loadu_ps(hp + k), hv);
    _mm256_storeu_ps(h + k, hv);
    _mm256_storeu_ps(sg + k, r), _mm256_storeu_ps(sg + H + k, z), _mm256_storeu_ps(sg + 2 * H + k, n);
    _mm256_storeu_ps(sg + 3 * H + k, cn);
  }
  for (; k < H; k++) {
    float r = gsigmf(a[k] + c[k]), z = gsigmf(a[H + k] + c[H + k]);
    float n = gtanhf(a[2 * H + k] + r * c[2 * H + k]);
    h[k] = (1 - z) * n + z * (hp ? hp[k] : 0);
    sg[k] = r, sg[H + k] = z, sg[2 * H + k] = n, sg[3 * H + k] = c[2 * H + k];
  }
}
#define GRU_GATES gru_gates_f32

#define REAL float
#define SFX f32
#define GEMM QSTR_SGEMM
#define ENTRY(name) NNT_ISA_FN(F(name))
#include "models.inc"

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
