/* nnt_vmath.h — fast float exp, sigmoid and tanh, scalar and eight lanes, for the float kernels.
 *
 * exp is Cephes' expf (range reduction by ln 2 in two parts, degree-5 polynomial, 2^k through the
 * exponent bits; a few ulp), tanh Cephes' tanhf (odd polynomial below |x| = 0.625,
 * 1 - 2/(e^{2|x|} + 1) above; a few ulp, checked against double tanh in test_nn_forward). glibc's
 * tanhf goes through expm1 and was most of a float GRU step. The 8-lane forms fuse their
 * multiply-adds (explicit FMAs), the scalar forms do not (-ffp-contract=off), so the two may
 * differ in the last bit; each gives the same results at every instruction-set level. The 8-lane
 * forms exist where nnt_simd.h was included first (the *_isa.c kernels), the 16-lane forms in the
 * AVX-512 kernels.
 */
#ifndef NNT_VMATH_H
#define NNT_VMATH_H
#include <math.h>
#include <stdint.h>

static inline float nnt_vmath_expf(float x) {
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

static inline float nnt_vmath_sigmf(float x) { return 1 / (1 + nnt_vmath_expf(-x)); }

/* Cephes' tanhf with the exponential given: exp_fn = nnt_vmath_expf (nnt_vmath_tanhf) or libm's
 * expf (the core layers' tanh, as it always was). NaN stays NaN; large |x| gives exactly +-1. */
static inline float nnt_vmath_tanhf_with(float x, float (*exp_fn)(float)) {
  float a = fabsf(x);
  if (a < 0.625f) {
    float z = x * x;
    return ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z + 1.33314422036e-1f) * z -
            3.33332819422e-1f) * z * x + x;
  }
  float t = 1 - 2 / (exp_fn(2 * a) + 1);
  return x < 0 ? -t : t;
}
static inline float nnt_vmath_tanhf(float x) { return nnt_vmath_tanhf_with(x, nnt_vmath_expf); }

#ifdef NNT_SIMD_H
static inline __m256 nnt_vmath_expf8(__m256 x) {
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
static inline __m256 nnt_vmath_sigmf8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1);
  return _mm256_div_ps(one, _mm256_add_ps(one, nnt_vmath_expf8(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}
static inline __m256 nnt_vmath_tanhf8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1);
  __m256 a = _mm256_andnot_ps(sign, x), z = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(-5.70498872745e-3f);
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(2.06390887954e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-5.37397155531e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.33314422036e-1f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-3.33332819422e-1f));
  p = _mm256_fmadd_ps(_mm256_mul_ps(p, z), x, x);
  __m256 t = _mm256_sub_ps(one, _mm256_div_ps(_mm256_set1_ps(2), _mm256_add_ps(nnt_vmath_expf8(_mm256_add_ps(a, a)), one)));
  t = _mm256_or_ps(t, _mm256_and_ps(x, sign));
  return _mm256_blendv_ps(t, p, _mm256_cmp_ps(a, _mm256_set1_ps(0.625f), _CMP_LT_OQ));
}

#if NNT_ISA_LEVEL >= 2
/* The 8-lane forms in sixteen lanes (AVX-512 kernels): the same operations per lane, so the same
 * bits as the 8-lane forms. */
static inline __m512 nnt_vmath_expf16(__m512 x) {
  const __m512 hi = _mm512_set1_ps(88.3762626647949f), lo = _mm512_set1_ps(-87.3f);
  x = _mm512_max_ps(lo, _mm512_min_ps(hi, x));
  __m512 k = _mm512_roundscale_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(1.44269504088896341f), _mm512_set1_ps(0.5f)),
                                  _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(k, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1)));
  __m512i e = _mm512_slli_epi32(_mm512_cvtps_epi32(k), 23);
  return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(p), e));
}
static inline __m512 nnt_vmath_tanhf16(__m512 x) {
  const __m512 sign = _mm512_set1_ps(-0.0f), one = _mm512_set1_ps(1);
  __m512 a = _mm512_andnot_ps(sign, x), z = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(-5.70498872745e-3f);
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(2.06390887954e-2f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(-5.37397155531e-2f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(1.33314422036e-1f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(-3.33332819422e-1f));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, z), x, x);
  __m512 t = _mm512_sub_ps(one, _mm512_div_ps(_mm512_set1_ps(2), _mm512_add_ps(nnt_vmath_expf16(_mm512_add_ps(a, a)), one)));
  t = _mm512_or_ps(t, _mm512_and_ps(x, sign));
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, _mm512_set1_ps(0.625f), _CMP_LT_OQ), t, p);
}
#endif
#endif

#endif
