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

#endif
