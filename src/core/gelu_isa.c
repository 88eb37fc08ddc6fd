/* GELU in its tanh form for float32, eight lanes at a time (nnt_gelu_tanh_fast_*, nnt_nn.h).
 * The layer nnt_gelu_forward evaluates tanh per element through libm's expf, which made GELU a
 * fifth of a GPT training step; here tanh is nnt_vmath's 8-lane Cephes form. Compiled once per
 * instruction-set level with the same operations in the same order at every level (nnt_simd.h),
 * so the levels agree bit for bit (AVX-512 runs sixteen lanes, the same operations per lane); the
 * scalar tail is plain C, the same at every level. */
#include "nnt_cpu.h"
#include "nnt_nn.h"
#include "nnt_simd.h"
#include "nnt_vmath.h"

#define K0 0.79788456080286535588f /* sqrt(2/pi) */
#define K1 0.03567740813636141f    /* sqrt(2/pi) * 0.044715 */

static inline float tail_tanh_arg(float x) { return x * (K0 + K1 * x * x); }

/* GELU(x) = 0.5 x (1 + t), t = tanh(x (k0 + k1 x^2)), and, where g is not NULL, its derivative
 * *g = 0.5 (1 + t) + 0.5 x (1 - t^2) (k0 + 3 k1 x^2): the one sequence of operations of the forward,
 * the backward and forward_grad, in 16 lanes, 8 lanes, and the scalar tail (plain C, the same at
 * every level). */
#if NNT_ISA_LEVEL >= 2
static inline __m512 gelu16(__m512 x, __m512 *g) {
  const __m512 z0 = _mm512_set1_ps(K0), z1 = _mm512_set1_ps(K1), zh = _mm512_set1_ps(0.5f);
  __m512 x2 = _mm512_mul_ps(x, x), hx = _mm512_mul_ps(zh, x);
  __m512 t = nnt_vmath_tanhf16(_mm512_mul_ps(x, _mm512_fmadd_ps(z1, x2, z0)));
  if (g) {
    __m512 du = _mm512_fmadd_ps(_mm512_set1_ps(3 * K1), x2, z0), sech2 = _mm512_fnmadd_ps(t, t, _mm512_set1_ps(1));
    *g = _mm512_fmadd_ps(_mm512_mul_ps(hx, sech2), du, _mm512_fmadd_ps(zh, t, zh));
  }
  return _mm512_fmadd_ps(hx, t, hx);
}
#endif
static inline __m256 gelu8(__m256 x, __m256 *g) {
  const __m256 k0 = _mm256_set1_ps(K0), k1 = _mm256_set1_ps(K1), half = _mm256_set1_ps(0.5f);
  __m256 x2 = _mm256_mul_ps(x, x), hx = _mm256_mul_ps(half, x);
  __m256 t = nnt_vmath_tanhf8(_mm256_mul_ps(x, _mm256_fmadd_ps(k1, x2, k0)));
  if (g) {
    __m256 du = _mm256_fmadd_ps(_mm256_set1_ps(3 * K1), x2, k0), sech2 = _mm256_fnmadd_ps(t, t, _mm256_set1_ps(1));
    *g = _mm256_fmadd_ps(_mm256_mul_ps(hx, sech2), du, _mm256_fmadd_ps(half, t, half));
  }
  return _mm256_fmadd_ps(hx, t, hx);
}
static inline float gelu1(float x, float *g) {
  float t = nnt_vmath_tanhf(tail_tanh_arg(x));
  if (g) *g = 0.5f * (1 + t) + 0.5f * x * (1 - t * t) * (K0 + 3 * K1 * x * x);
  return 0.5f * x * (1 + t);
}

/* out = GELU(inp) (where out is not NULL), grad = GELU'(inp) (where grad is not NULL; with dinp,
 * dinp += dout grad instead): the three public forms below */
static inline void gelu_run(float *out, float *grad, float *dinp, const float *dout, const float *inp, size_t n) {
  size_t i = 0;
#if NNT_ISA_LEVEL >= 2 /* the 8-lane loop below in sixteen lanes */
  for (; i + 16 <= n; i += 16) {
    __m512 g, y = gelu16(_mm512_loadu_ps(inp + i), grad || dinp ? &g : NULL);
    if (out) _mm512_storeu_ps(out + i, y);
    if (grad) _mm512_storeu_ps(grad + i, g);
    if (dinp) _mm512_storeu_ps(dinp + i, _mm512_fmadd_ps(_mm512_loadu_ps(dout + i), g, _mm512_loadu_ps(dinp + i)));
  }
#endif
  for (; i + 8 <= n; i += 8) {
    __m256 g, y = gelu8(_mm256_loadu_ps(inp + i), grad || dinp ? &g : NULL);
    if (out) _mm256_storeu_ps(out + i, y);
    if (grad) _mm256_storeu_ps(grad + i, g);
    if (dinp) _mm256_storeu_ps(dinp + i, _mm256_fmadd_ps(_mm256_loadu_ps(dout + i), g, _mm256_loadu_ps(dinp + i)));
  }
  for (; i < n; i++) {
    float g, y = gelu1(inp[i], grad || dinp ? &g : NULL);
    if (out) out[i] = y;
    if (grad) grad[i] = g;
    if (dinp) dinp[i] += dout[i] * g;
  }
}

void NNT_ISA_FN(nnt_gelu_tanh_fast_forward)(float *out, const float *inp, size_t n) {
  gelu_run(out, NULL, NULL, NULL, inp, n);
}
void NNT_ISA_FN(nnt_gelu_tanh_fast_backward)(float *dinp, const float *dout, const float *inp, size_t n) {
  gelu_run(NULL, NULL, dinp, dout, inp, n);
}
void NNT_ISA_FN(nnt_gelu_tanh_fast_forward_grad)(float *out, float *grad, const float *inp, size_t n) {
  gelu_run(out, grad, NULL, NULL, inp, n);
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_gelu_tanh_fast_forward, (float *, const float *, size_t));
NNT_ISA_DECLARE(void, nnt_gelu_tanh_fast_backward, (float *, const float *, const float *, size_t));
NNT_ISA_DECLARE(void, nnt_gelu_tanh_fast_forward_grad, (float *, float *, const float *, size_t));

void nnt_gelu_tanh_fast_forward(float *out, const float *inp, size_t n) {
  NNT_ISA_PICK(nnt_gelu_tanh_fast_forward)(out, inp, n);
}
void nnt_gelu_tanh_fast_backward(float *dinp, const float *dout, const float *inp, size_t n) {
  NNT_ISA_PICK(nnt_gelu_tanh_fast_backward)(dinp, dout, inp, n);
}
void nnt_gelu_tanh_fast_forward_grad(float *out, float *grad, const float *inp, size_t n) {
  NNT_ISA_PICK(nnt_gelu_tanh_fast_forward_grad)(out, grad, inp, n);
}
#endif
