/* nnt_simd.h — 256-bit x86 intrinsics for the *_isa.c kernels at every level (nnt_cpu.h).
 * The AVX2 and AVX-512 levels use the instructions; the generic level compiles the same code
 * against SIMDe's portable implementations (SSE4 halves on x86-64, NEON on aarch64), with one
 * change: SIMDe emulates fused multiply-add as a multiply then an add (two roundings), so here the
 * fused forms round once, like the instruction, and every level rounds alike (nnt_simd_fma8). */
#ifndef NNT_SIMD_H
#define NNT_SIMD_H
#include "nnt_cpu.h"

#if NNT_ISA_LEVEL >= 1
#include <immintrin.h>
#else
#include <math.h>
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>
#ifndef _MM_FROUND_NO_EXC /* off x86 (aarch64: NEON), where SIMDe aliases the other rounding modes but not this one */
#define _MM_FROUND_NO_EXC SIMDE_MM_FROUND_NO_EXC
#endif

#if defined(__aarch64__)
#include <arm_neon.h>
/* ±a*b + c rounded once, per lane (= fmaf(±a, b, c)): NEON's fused FMLA / FMLS on the two halves. */
static inline __m256 nnt_simd_fma8(__m256 a, __m256 b, __m256 c, int negate) {
  float32x4_t a0 = simde__m128_to_neon_f32(_mm256_castps256_ps128(a)), a1 = simde__m128_to_neon_f32(_mm256_extractf128_ps(a, 1));
  float32x4_t b0 = simde__m128_to_neon_f32(_mm256_castps256_ps128(b)), b1 = simde__m128_to_neon_f32(_mm256_extractf128_ps(b, 1));
  float32x4_t c0 = simde__m128_to_neon_f32(_mm256_castps256_ps128(c)), c1 = simde__m128_to_neon_f32(_mm256_extractf128_ps(c, 1));
  float32x4_t r0 = negate ? vfmsq_f32(c0, a0, b0) : vfmaq_f32(c0, a0, b0);
  float32x4_t r1 = negate ? vfmsq_f32(c1, a1, b1) : vfmaq_f32(c1, a1, b1);
  return _mm256_set_m128(simde__m128_from_neon_f32(r1), simde__m128_from_neon_f32(r0));
}
static inline __m256d nnt_simd_fma4d(__m256d a, __m256d b, __m256d c) {
  float64x2_t a0 = simde__m128d_to_neon_f64(_mm256_castpd256_pd128(a)), a1 = simde__m128d_to_neon_f64(_mm256_extractf128_pd(a, 1));
  float64x2_t b0 = simde__m128d_to_neon_f64(_mm256_castpd256_pd128(b)), b1 = simde__m128d_to_neon_f64(_mm256_extractf128_pd(b, 1));
  float64x2_t c0 = simde__m128d_to_neon_f64(_mm256_castpd256_pd128(c)), c1 = simde__m128d_to_neon_f64(_mm256_extractf128_pd(c, 1));
  return _mm256_set_m128d(simde__m128d_from_neon_f64(vfmaq_f64(c1, a1, b1)), simde__m128d_from_neon_f64(vfmaq_f64(c0, a0, b0)));
}
#elif defined(__x86_64__)
#include <emmintrin.h>
/* x86-64 without FMA: the single-precision fused multiply-add from SSE2 double arithmetic, the
 * same bits as fmaf for every input (Boldo & Melquiond, "Emulation of FMA and correctly rounded
 * sums: proved algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008). For two
 * lanes widened to double: the product p = a*b is exact (24 + 24 bits <= 53, exponents in range);
 * s = RN(p + c) and its error e = p + c - s from Knuth's TwoSum, exact as nothing overflows or
 * underflows in double (|p + c| < 2^258; p and c are multiples of 2^-298, so is e); then s rounded
 * to odd (the neighbour toward zero of p + c, its last bit set when e != 0), which rounds to
 * nearest float as p + c itself does: double has 53 >= 24 + 2 bits (likewise for subnormal and
 * overflowing results, whose rounding is coarser). Returns that rounded-to-odd double.
 * Signed zeros: an exact zero sum is s's zero, as fmaf's; a non-finite s (an inf or NaN input)
 * has e = NaN and stays as it is. */
static inline __m128d nnt_simd_fma2_odd(__m128d a, __m128d b, __m128d c) {
  __m128d p = _mm_mul_pd(a, b), s = _mm_add_pd(p, c);
  __m128d cv = _mm_sub_pd(s, p), pv = _mm_sub_pd(s, cv);
  __m128d e = _mm_add_pd(_mm_sub_pd(p, pv), _mm_sub_pd(c, cv));
  __m128d zero = _mm_setzero_pd();
  __m128d inexact = _mm_or_pd(_mm_cmplt_pd(e, zero), _mm_cmpgt_pd(e, zero)); /* false for e = NaN */
  __m128d inward = _mm_cmplt_pd(_mm_mul_pd(e, s), zero); /* p + c lies between 0 and s: one ulp down */
  __m128i bits = _mm_add_epi64(_mm_castpd_si128(s), _mm_castpd_si128(inward)); /* the mask is -1 */
  bits = _mm_or_si128(bits, _mm_and_si128(_mm_castpd_si128(inexact), _mm_set1_epi64x(1)));
  return _mm_castsi128_pd(bits);
}
/* four lanes: ±a*b + c, rounded once to float */
static inline __m128 nnt_simd_fma4(__m128 a, __m128 b, __m128 c, int negate) {
  if (negate) a = _mm_xor_ps(a, _mm_set1_ps(-0.0f));
  __m128d lo = nnt_simd_fma2_odd(_mm_cvtps_pd(a), _mm_cvtps_pd(b), _mm_cvtps_pd(c));
  __m128d hi = nnt_simd_fma2_odd(_mm_cvtps_pd(_mm_movehl_ps(a, a)), _mm_cvtps_pd(_mm_movehl_ps(b, b)),
                                 _mm_cvtps_pd(_mm_movehl_ps(c, c)));
  return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}
static inline __m256 nnt_simd_fma8(__m256 a, __m256 b, __m256 c, int negate) {
  __m128 r0 = nnt_simd_fma4(_mm256_castps256_ps128(a), _mm256_castps256_ps128(b), _mm256_castps256_ps128(c), negate);
  __m128 r1 = nnt_simd_fma4(_mm256_extractf128_ps(a, 1), _mm256_extractf128_ps(b, 1), _mm256_extractf128_ps(c, 1), negate);
  return _mm256_set_m128(r1, r0);
}
/* double: libm's fma per lane (the generic level's few double FMAs, GEMM's f64 path and the
 * layer norm's variance, are not where its time goes) */
static inline __m256d nnt_simd_fma4d(__m256d a, __m256d b, __m256d c) {
  double x[4], y[4], z[4];
  _mm256_storeu_pd(x, a), _mm256_storeu_pd(y, b), _mm256_storeu_pd(z, c);
  for (int i = 0; i < 4; i++) z[i] = fma(x[i], y[i], z[i]);
  return _mm256_loadu_pd(z);
}
#else /* other architectures: libm per lane */
static inline __m256 nnt_simd_fma8(__m256 a, __m256 b, __m256 c, int negate) {
  float x[8], y[8], z[8];
  _mm256_storeu_ps(x, a), _mm256_storeu_ps(y, b), _mm256_storeu_ps(z, c);
  for (int i = 0; i < 8; i++) z[i] = fmaf(negate ? -x[i] : x[i], y[i], z[i]);
  return _mm256_loadu_ps(z);
}
static inline __m256d nnt_simd_fma4d(__m256d a, __m256d b, __m256d c) {
  double x[4], y[4], z[4];
  _mm256_storeu_pd(x, a), _mm256_storeu_pd(y, b), _mm256_storeu_pd(z, c);
  for (int i = 0; i < 4; i++) z[i] = fma(x[i], y[i], z[i]);
  return _mm256_loadu_pd(z);
}
#endif
#undef _mm256_fmadd_ps
#undef _mm256_fnmadd_ps
#undef _mm256_fmadd_pd
#define _mm256_fmadd_ps(a, b, c) nnt_simd_fma8(a, b, c, 0)
#define _mm256_fnmadd_ps(a, b, c) nnt_simd_fma8(a, b, c, 1) /* c - a*b, negation exact */
#define _mm256_fmadd_pd nnt_simd_fma4d
#endif

/* dst[c][j] = src[j][c] for an 8 x 8 block of floats (rows lds / ldd apart): a pure data move, the
 * same at every level */
static inline void nnt_simd_transpose8(const float *src, int lds, float *dst, int ldd) {
  __m256 r0 = _mm256_loadu_ps(src), r1 = _mm256_loadu_ps(src + lds), r2 = _mm256_loadu_ps(src + 2 * lds),
         r3 = _mm256_loadu_ps(src + 3 * lds), r4 = _mm256_loadu_ps(src + 4 * lds), r5 = _mm256_loadu_ps(src + 5 * lds),
         r6 = _mm256_loadu_ps(src + 6 * lds), r7 = _mm256_loadu_ps(src + 7 * lds);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
         t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
         t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE), u2 = _mm256_shuffle_ps(t1, t3, 0x44),
         u3 = _mm256_shuffle_ps(t1, t3, 0xEE), u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
         u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  _mm256_storeu_ps(dst, _mm256_permute2f128_ps(u0, u4, 0x20));
  _mm256_storeu_ps(dst + ldd, _mm256_permute2f128_ps(u1, u5, 0x20));
  _mm256_storeu_ps(dst + 2 * ldd, _mm256_permute2f128_ps(u2, u6, 0x20));
  _mm256_storeu_ps(dst + 3 * ldd, _mm256_permute2f128_ps(u3, u7, 0x20));
  _mm256_storeu_ps(dst + 4 * ldd, _mm256_permute2f128_ps(u0, u4, 0x31));
  _mm256_storeu_ps(dst + 5 * ldd, _mm256_permute2f128_ps(u1, u5, 0x31));
  _mm256_storeu_ps(dst + 6 * ldd, _mm256_permute2f128_ps(u2, u6, 0x31));
  _mm256_storeu_ps(dst + 7 * ldd, _mm256_permute2f128_ps(u3, u7, 0x31));
}

#endif
