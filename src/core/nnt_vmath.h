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
/* The vector forms, written once for 8 lanes (__m256, every level) and 16 (__m512, the AVX-512
 * kernels): P is the intrinsics' prefix, and the few operations whose names differ between the
 * widths are passed in. The same operations per lane, so both widths give the same bits. */
#define NNT_VMATH_VECTOR_FORMS(N, V, P, FLOOR, SI_TO_PS, PS_TO_SI, SELECT_LT)                                     \
  static inline V nnt_vmath_expf##N(V x) {                                                                       \
    const V hi = P##_set1_ps(88.3762626647949f), lo = P##_set1_ps(-87.3f);                                      \
    x = P##_max_ps(lo, P##_min_ps(hi, x)); /* operand order: a NaN x passes through */                          \
    V k = FLOOR(P##_fmadd_ps(x, P##_set1_ps(1.44269504088896341f), P##_set1_ps(0.5f)));                          \
    V r = P##_fnmadd_ps(k, P##_set1_ps(0.693359375f), x);                                                        \
    r = P##_fnmadd_ps(k, P##_set1_ps(-2.12194440e-4f), r);                                                      \
    V p = P##_set1_ps(1.9875691500e-4f);                                                                          \
    p = P##_fmadd_ps(p, r, P##_set1_ps(1.3981999507e-3f));                                                       \
    p = P##_fmadd_ps(p, r, P##_set1_ps(8.3334519073e-3f));                                                       \
    p = P##_fmadd_ps(p, r, P##_set1_ps(4.1665795894e-2f));                                                       \
    p = P##_fmadd_ps(p, r, P##_set1_ps(1.6666665459e-1f));                                                       \
    p = P##_fmadd_ps(p, r, P##_set1_ps(5.0000001201e-1f));                                                       \
    p = P##_fmadd_ps(P##_mul_ps(p, r), r, P##_add_ps(r, P##_set1_ps(1)));                                       \
    return SI_TO_PS(P##_add_epi32(PS_TO_SI(p), P##_slli_epi32(P##_cvtps_epi32(k), 23)));                        \
  }                                                                                                               \
  /* nnt_vmath_expf's own operations lane by lane (a multiply, then an add: no fused multiply-add), \
   * so the same bits as the scalar form: for a row's last few elements next to whole blocks */      \
  static inline V nnt_vmath_expf##N##_scalar_bits(V x) {                                                        \
    x = P##_max_ps(P##_set1_ps(-87.3f), P##_min_ps(P##_set1_ps(88.3762626647949f), x));                          \
    V k = FLOOR(P##_add_ps(P##_mul_ps(P##_set1_ps(1.44269504088896341f), x), P##_set1_ps(0.5f)));              \
    V r = P##_add_ps(P##_sub_ps(x, P##_mul_ps(k, P##_set1_ps(0.693359375f))),                                   \
                     P##_mul_ps(k, P##_set1_ps(2.12194440e-4f)));                                              \
    V p = P##_set1_ps(1.9875691500e-4f);                                                                          \
    p = P##_add_ps(P##_mul_ps(p, r), P##_set1_ps(1.3981999507e-3f));                                             \
    p = P##_add_ps(P##_mul_ps(p, r), P##_set1_ps(8.3334519073e-3f));                                             \
    p = P##_add_ps(P##_mul_ps(p, r), P##_set1_ps(4.1665795894e-2f));                                             \
    p = P##_add_ps(P##_mul_ps(p, r), P##_set1_ps(1.6666665459e-1f));                                             \
    p = P##_add_ps(P##_mul_ps(p, r), P##_set1_ps(5.0000001201e-1f));                                             \
    p = P##_add_ps(P##_add_ps(P##_mul_ps(P##_mul_ps(p, r), r), r), P##_set1_ps(1));                             \
    return SI_TO_PS(P##_add_epi32(PS_TO_SI(p), P##_slli_epi32(P##_cvtps_epi32(k), 23)));                        \
  }                                                                                                               \
  static inline V nnt_vmath_tanhf##N(V x) {                                                                      \
    const V sign = P##_set1_ps(-0.0f), one = P##_set1_ps(1);                                                    \
    V a = P##_andnot_ps(sign, x), z = P##_mul_ps(x, x);                                                          \
    V p = P##_set1_ps(-5.70498872745e-3f);                                                                        \
    p = P##_fmadd_ps(p, z, P##_set1_ps(2.06390887954e-2f));                                                      \
    p = P##_fmadd_ps(p, z, P##_set1_ps(-5.37397155531e-2f));                                                     \
    p = P##_fmadd_ps(p, z, P##_set1_ps(1.33314422036e-1f));                                                      \
    p = P##_fmadd_ps(p, z, P##_set1_ps(-3.33332819422e-1f));                                                     \
    p = P##_fmadd_ps(P##_mul_ps(p, z), x, x);                                                                    \
    V t = P##_sub_ps(one, P##_div_ps(P##_set1_ps(2), P##_add_ps(nnt_vmath_expf##N(P##_add_ps(a, a)), one)));     \
    t = P##_or_ps(t, P##_and_ps(x, sign));                                                                       \
    return SELECT_LT(a, P##_set1_ps(0.625f), p, t); /* |x| < 0.625: the polynomial */                           \
  }

#define NNT_VMATH_SELECT_LT8(a, b, yes, no) _mm256_blendv_ps(no, yes, _mm256_cmp_ps(a, b, _CMP_LT_OQ))
NNT_VMATH_VECTOR_FORMS(8, __m256, _mm256, _mm256_floor_ps, _mm256_castsi256_ps, _mm256_castps_si256,
                       NNT_VMATH_SELECT_LT8)
static inline __m256 nnt_vmath_sigmf8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1);
  return _mm256_div_ps(one, _mm256_add_ps(one, nnt_vmath_expf8(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}
#if NNT_ISA_LEVEL >= 2
#define NNT_VMATH_FLOOR16(v) _mm512_roundscale_ps(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define NNT_VMATH_SELECT_LT16(a, b, yes, no) _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ), no, yes)
NNT_VMATH_VECTOR_FORMS(16, __m512, _mm512, NNT_VMATH_FLOOR16, _mm512_castsi512_ps, _mm512_castps_si512,
                       NNT_VMATH_SELECT_LT16)
#endif
#endif

#endif
