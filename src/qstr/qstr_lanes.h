/* qstr_lanes.h (internal) — sixteen prompts at once, one per lane of a 512-bit vector, for the
 * kernels of the AVX-512 level (the test evaluation of fast_eval_isa.c, the training attention of
 * models_f32_isa.c): moving rows of 16 prompts into lanes and back, and keeping a vector in a
 * register. Pure data moves: a lane computes what the row forms compute for its prompt. */
#ifndef QSTR_LANES_H
#define QSTR_LANES_H
#include "nnt_cpu.h"

#if NNT_ISA_LEVEL >= 2
#include <immintrin.h>

/* Keeps v in a register: without it the compiler folds a load used by several FMAs into each of
 * them, and the lane tiles would be bound by the loads instead of the FMAs. */
static inline __m512 nnt_lanes_reg(__m512 v) {
  __asm__("" : "+v"(v));
  return v;
}

/* r[j] <- lane j of every r[l]: a 16 x 16 transpose in registers */
static inline void nnt_lanes_transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int l = 0; l < 16; l += 2) t[l] = _mm512_unpacklo_ps(r[l], r[l + 1]), t[l + 1] = _mm512_unpackhi_ps(r[l], r[l + 1]);
  for (int l = 0; l < 16; l += 4) {
    r[l] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[l]), _mm512_castps_pd(t[l + 2])));
    r[l + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[l]), _mm512_castps_pd(t[l + 2])));
    r[l + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[l + 1]), _mm512_castps_pd(t[l + 3])));
    r[l + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[l + 1]), _mm512_castps_pd(t[l + 3])));
  }
  /* r[4g + q] now holds element q of rows 4g..4g+3 in each 128-bit lane; gather the lanes */
  for (int q = 0; q < 4; q++) {
    __m512 a = _mm512_shuffle_f32x4(r[q], r[4 + q], 0x88), b = _mm512_shuffle_f32x4(r[q], r[4 + q], 0xDD);
    __m512 c = _mm512_shuffle_f32x4(r[8 + q], r[12 + q], 0x88), d = _mm512_shuffle_f32x4(r[8 + q], r[12 + q], 0xDD);
    t[q] = _mm512_shuffle_f32x4(a, c, 0x88), t[8 + q] = _mm512_shuffle_f32x4(a, c, 0xDD);
    t[4 + q] = _mm512_shuffle_f32x4(b, d, 0x88), t[12 + q] = _mm512_shuffle_f32x4(b, d, 0xDD);
  }
  for (int l = 0; l < 16; l++) r[l] = t[l];
}

/* out[c][l] = rows[l][c] for c < n (16 rows of n floats into n vectors) */
static inline void nnt_lanes_from_rows(const float *const rows[16], int n, float *out) {
  for (int c0 = 0; c0 < n; c0 += 16) {
    __mmask16 w = (__mmask16)(n - c0 >= 16 ? 0xFFFF : (1u << (n - c0)) - 1);
    __m512 r[16];
    for (int l = 0; l < 16; l++) r[l] = _mm512_maskz_loadu_ps(w, rows[l] + c0);
    nnt_lanes_transpose16(r);
    for (int j = 0; j < 16 && c0 + j < n; j++) _mm512_storeu_ps(out + (size_t)(c0 + j) * 16, r[j]);
  }
}

/* rows[l][c] = in[c][l] for c < n (n vectors back into 16 rows of n floats) */
static inline void nnt_lanes_to_rows(const float *in, int n, float *const rows[16]) {
  for (int c0 = 0; c0 < n; c0 += 16) {
    __mmask16 w = (__mmask16)(n - c0 >= 16 ? 0xFFFF : (1u << (n - c0)) - 1);
    __m512 r[16];
    for (int j = 0; j < 16; j++) r[j] = c0 + j < n ? _mm512_loadu_ps(in + (size_t)(c0 + j) * 16) : _mm512_setzero_ps();
    nnt_lanes_transpose16(r);
    for (int l = 0; l < 16; l++) _mm512_mask_storeu_ps(rows[l] + c0, w, r[l]);
  }
}
#endif

#endif
