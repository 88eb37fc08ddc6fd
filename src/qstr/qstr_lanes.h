/* qstr_lanes.h (internal) — one prompt per lane of a vector (sixteen at AVX-512, eight at AVX2), for
 * the lane kernels of the vector levels (the test evaluation of fast_eval_isa.c, the training
 * attention of models_f32_isa.c): the vector type and its operations (lv, LV_*), moving rows of
 * NNT_LANES prompts into lanes and back, and keeping a vector in a register. Pure data moves and
 * per-lane arithmetic: a lane computes what the row forms compute for its prompt, so every level
 * gives the same bits. */
#ifndef QSTR_LANES_H
#define QSTR_LANES_H
#include "nnt_cpu.h"

#if NNT_ISA_LEVEL >= 1
#include <immintrin.h>

#if NNT_ISA_LEVEL >= 2
enum { NNT_LANES = 16 };
typedef __m512 lv;
typedef __m512i lvi;
#define LV_LOAD _mm512_load_ps /* aligned: lane vectors lie on whole vectors */
#define LV_LOADU _mm512_loadu_ps
#define LV_STORE _mm512_store_ps
#define LV_STOREU _mm512_storeu_ps
#define LV_SET1 _mm512_set1_ps
#define LV_ZERO _mm512_setzero_ps
#define LV_ADD _mm512_add_ps
#define LV_SUB _mm512_sub_ps
#define LV_MUL _mm512_mul_ps
#define LV_MAX _mm512_max_ps
#define LV_FMA _mm512_fmadd_ps
#define LVI_LOADU(p) _mm512_loadu_si512(p)
#define LVI_STOREU(p, v) _mm512_storeu_si512(p, v)
#define LVI_SET1 _mm512_set1_epi32
#define LVI_MULLO _mm512_mullo_epi32
#define LVI_GATHER(base, idx) _mm512_i32gather_epi32(idx, base, 4)
#define LVI_NE(a, b) (_mm512_cmpneq_epi32_mask(a, b) != 0)

/* Keeps v in a register: without it the compiler folds a load used by several FMAs into each of
 * them, and the lane tiles would be bound by the loads instead of the FMAs. */
static inline lv nnt_lanes_reg(lv v) {
  __asm__("" : "+v"(v));
  return v;
}

/* r[j] <- lane j of every r[l]: a 16 x 16 transpose in registers */
static inline void nnt_lanes_transpose(lv r[16]) {
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

/* the first w floats at p (the rest zero), and back */
static inline lv nnt_lanes_load_part(const float *p, int w) {
  return _mm512_maskz_loadu_ps((__mmask16)(w >= 16 ? 0xFFFF : (1u << w) - 1), p);
}
static inline void nnt_lanes_store_part(float *p, int w, lv v) {
  _mm512_mask_storeu_ps(p, (__mmask16)(w >= 16 ? 0xFFFF : (1u << w) - 1), v);
}

#else /* AVX2 */
enum { NNT_LANES = 8 };
typedef __m256 lv;
typedef __m256i lvi;
#define LV_LOAD _mm256_load_ps
#define LV_LOADU _mm256_loadu_ps
#define LV_STORE _mm256_store_ps
#define LV_STOREU _mm256_storeu_ps
#define LV_SET1 _mm256_set1_ps
#define LV_ZERO _mm256_setzero_ps
#define LV_ADD _mm256_add_ps
#define LV_SUB _mm256_sub_ps
#define LV_MUL _mm256_mul_ps
#define LV_MAX _mm256_max_ps
#define LV_FMA _mm256_fmadd_ps
#define LVI_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define LVI_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define LVI_SET1 _mm256_set1_epi32
#define LVI_MULLO _mm256_mullo_epi32
#define LVI_GATHER(base, idx) _mm256_i32gather_epi32(base, idx, 4)
#define LVI_NE(a, b) (_mm256_movemask_epi8(_mm256_cmpeq_epi32(a, b)) != -1)

static inline lv nnt_lanes_reg(lv v) {
  __asm__("" : "+x"(v));
  return v;
}

/* r[j] <- lane j of every r[l]: an 8 x 8 transpose in registers */
static inline void nnt_lanes_transpose(lv r[8]) {
  __m256 t[8], u[8];
  for (int l = 0; l < 8; l += 2) t[l] = _mm256_unpacklo_ps(r[l], r[l + 1]), t[l + 1] = _mm256_unpackhi_ps(r[l], r[l + 1]);
  for (int l = 0; l < 8; l += 4) {
    u[l] = _mm256_shuffle_ps(t[l], t[l + 2], 0x44), u[l + 1] = _mm256_shuffle_ps(t[l], t[l + 2], 0xEE);
    u[l + 2] = _mm256_shuffle_ps(t[l + 1], t[l + 3], 0x44), u[l + 3] = _mm256_shuffle_ps(t[l + 1], t[l + 3], 0xEE);
  }
  for (int q = 0; q < 4; q++)
    r[q] = _mm256_permute2f128_ps(u[q], u[4 + q], 0x20), r[4 + q] = _mm256_permute2f128_ps(u[q], u[4 + q], 0x31);
}

/* the first w floats at p (the rest zero), and back: masked moves touch nothing past w */
static inline __m256i nnt_lanes_mask(int w) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(w), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline lv nnt_lanes_load_part(const float *p, int w) { return _mm256_maskload_ps(p, nnt_lanes_mask(w)); }
static inline void nnt_lanes_store_part(float *p, int w, lv v) { _mm256_maskstore_ps(p, nnt_lanes_mask(w), v); }
#endif

/* out[c][l] = rows[l][c] for c < n (NNT_LANES rows of n floats into n vectors) */
static inline void nnt_lanes_from_rows(const float *const rows[NNT_LANES], int n, float *out) {
  for (int c0 = 0; c0 < n; c0 += NNT_LANES) {
    lv r[NNT_LANES];
    for (int l = 0; l < NNT_LANES; l++) r[l] = nnt_lanes_load_part(rows[l] + c0, n - c0);
    nnt_lanes_transpose(r);
    for (int j = 0; j < NNT_LANES && c0 + j < n; j++) LV_STOREU(out + (size_t)(c0 + j) * NNT_LANES, r[j]);
  }
}

/* rows[l][c] = in[c][l] for c < n (n vectors back into NNT_LANES rows of n floats) */
static inline void nnt_lanes_to_rows(const float *in, int n, float *const rows[NNT_LANES]) {
  for (int c0 = 0; c0 < n; c0 += NNT_LANES) {
    lv r[NNT_LANES];
    for (int j = 0; j < NNT_LANES; j++) r[j] = c0 + j < n ? LV_LOADU(in + (size_t)(c0 + j) * NNT_LANES) : LV_ZERO();
    nnt_lanes_transpose(r);
    for (int l = 0; l < NNT_LANES; l++) nnt_lanes_store_part(rows[l] + c0, n - c0, r[l]);
  }
}
#endif

#endif
