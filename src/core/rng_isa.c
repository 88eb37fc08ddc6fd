/* Box-Muller over blocks of uniforms (nnt_rng_normals): nnt_dmath's vector forms, eight lanes at
 * AVX-512 and four elsewhere, the scalar forms' operations lane by lane, so every level and
 * nnt_rng_normal give the same bits. */
#include <math.h>

#include "nnt_cpu.h"
#include "nnt_rng.h"
#include "nnt_simd.h"
#include "nnt_dmath.h"

/* out[2k] = sqrt(-2 log u1[k]) cos(2 pi u2[k]), out[2k+1] the same with sin, for 0 < u1 < 1 */
void NNT_ISA_FN(nnt_rng_box_muller)(const double *u1, const double *u2, size_t n, double *out) {
  size_t k = 0;
#if NNT_ISA_LEVEL >= 2
  for (; k + 8 <= n; k += 8) {
    __m512d rad = _mm512_sqrt_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), nnt_dmath_log_normal8(_mm512_loadu_pd(u1 + k))));
    __m512d s, c;
    nnt_dmath_sincos2pi8(_mm512_loadu_pd(u2 + k), &s, &c);
    c = _mm512_mul_pd(rad, c), s = _mm512_mul_pd(rad, s);
    const __m512i lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    _mm512_storeu_pd(out + 2 * k, _mm512_permutex2var_pd(c, lo, s));
    _mm512_storeu_pd(out + 2 * k + 8, _mm512_permutex2var_pd(c, hi, s));
  }
#endif
  for (; k + 4 <= n; k += 4) {
    __m256d rad = _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), nnt_dmath_log_normal4(_mm256_loadu_pd(u1 + k))));
    __m256d s, c;
    nnt_dmath_sincos2pi4(_mm256_loadu_pd(u2 + k), &s, &c);
    double cv[4], sv[4];
    _mm256_storeu_pd(cv, _mm256_mul_pd(rad, c)), _mm256_storeu_pd(sv, _mm256_mul_pd(rad, s));
    for (int j = 0; j < 4; j++) out[2 * (k + j)] = cv[j], out[2 * (k + j) + 1] = sv[j];
  }
  for (; k < n; k++) {
    double s, c, rad = sqrt(-2.0 * nnt_dmath_log_normal(u1[k]));
    nnt_dmath_sincos2pi(u2[k], &s, &c);
    out[2 * k] = rad * c, out[2 * k + 1] = rad * s;
  }
}
