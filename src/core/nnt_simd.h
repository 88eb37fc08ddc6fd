/* nnt_simd.h — 256-bit x86 intrinsics for the *_isa.c kernels at every level (nnt_cpu.h).
 * The AVX2 and AVX-512 levels use the instructions; the generic level compiles the same code
 * against SIMDe's portable implementations (SSE4 halves), with one change: SIMDe emulates fused
 * multiply-add as a multiply then an add (two roundings), so here the fused forms are fmaf per
 * lane — exact, like the instruction — and every level rounds alike. */
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

static inline __m256 nnt_simd_fma8(__m256 a, __m256 b, __m256 c, float sign) {
  float x[8], y[8], z[8];
  _mm256_storeu_ps(x, a), _mm256_storeu_ps(y, b), _mm256_storeu_ps(z, c);
  for (int i = 0; i < 8; i++) z[i] = fmaf(sign * x[i], y[i], z[i]);
  return _mm256_loadu_ps(z);
}
static inline __m256d nnt_simd_fma4d(__m256d a, __m256d b, __m256d c) {
  double x[4], y[4], z[4];
  _mm256_storeu_pd(x, a), _mm256_storeu_pd(y, b), _mm256_storeu_pd(z, c);
  for (int i = 0; i < 4; i++) z[i] = fma(x[i], y[i], z[i]);
  return _mm256_loadu_pd(z);
}
#undef _mm256_fmadd_ps
#undef _mm256_fnmadd_ps
#undef _mm256_fmadd_pd
#define _mm256_fmadd_ps(a, b, c) nnt_simd_fma8(a, b, c, 1.0f)
#define _mm256_fnmadd_ps(a, b, c) nnt_simd_fma8(a, b, c, -1.0f) /* c - a*b, negation exact */
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
