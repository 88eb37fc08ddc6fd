/* The FFN's sparse-input hidden layers (qstr_sparse.h), per instruction-set level: 16 lanes at
 * AVX-512, 8 elsewhere; the per-element operations are the same at every level. Columns run in
 * blocks of four vectors whose rows of WT stay in L1 while every row passes, two rows at a time
 * (eight independent FMA chains); WT's zero padding makes every block whole, and the columns past
 * `out` are neither read from the bias or Y nor written. */
#include <string.h>

#include "nnt_blas.h"
#include "nnt_simd.h"
#include "qstr_sparse.h"

#if NNT_ISA_LEVEL >= 2
typedef __m512 sv;
#define SV_L 16
#define SV_LOAD _mm512_loadu_ps
#define SV_SET1 _mm512_set1_ps
#define SV_FMA _mm512_fmadd_ps
#define SV_ADD _mm512_add_ps
#define SV_MAX _mm512_max_ps
#define SV_STORE _mm512_storeu_ps
#define SV_ZERO _mm512_setzero_ps
static inline sv sv_load_part(const float *p, int w) { return _mm512_maskz_loadu_ps((__mmask16)((1u << w) - 1), p); }
static inline void sv_store_part(float *p, int w, sv v) { _mm512_mask_storeu_ps(p, (__mmask16)((1u << w) - 1), v); }
#else
typedef __m256 sv;
#define SV_L 8
#define SV_LOAD _mm256_loadu_ps
#define SV_SET1 _mm256_set1_ps
#define SV_FMA _mm256_fmadd_ps
#define SV_ADD _mm256_add_ps
#define SV_MAX _mm256_max_ps
#define SV_STORE _mm256_storeu_ps
#define SV_ZERO _mm256_setzero_ps
/* through a copy, not masked loads and stores: SIMDe's (the generic level) touch all 8 lanes */
static inline sv sv_load_part(const float *p, int w) {
  float t[8] = {0};
  for (int k = 0; k < w; k++) t[k] = p[k];
  return _mm256_loadu_ps(t);
}
static inline void sv_store_part(float *p, int w, sv v) {
  float t[8];
  _mm256_storeu_ps(t, v);
  for (int k = 0; k < w; k++) p[k] = t[k];
}
#endif

void NNT_ISA_FN(nnt_qstr_pack_wt)(const float *W, int out, int in, int outp, float *WT) {
  int c8 = out / 8 * 8, k8 = in / 8 * 8;
  for (int k = 0; k < in; k++) memset(WT + (size_t)k * outp + c8, 0, sizeof(float) * (size_t)(outp - c8));
  for (int c = 0; c < c8; c += 8)
    for (int k = 0; k < k8; k += 8) nnt_simd_transpose8(W + (size_t)c * in + k, in, WT + (size_t)k * outp + c, outp);
  for (int c = 0; c < out; c++)
    for (int k = c < c8 ? k8 : 0; k < in; k++) WT[(size_t)k * outp + c] = W[(size_t)c * in + k];
}

/* each row's nonzero inputs (index, value) in increasing order; counts the multiply-adds ahead */
static void list_nonzeros(int B, int in, int ldx, int out, const float *X, int *nzi, float *nzv, int *nzc) {
  double macs = 0;
  for (int b = 0; b < B; b++) {
    const float *x = X + (size_t)b * ldx;
    int *ib = nzi + (size_t)b * in, n = 0, k = 0;
    float *vb = nzv + (size_t)b * in;
#if NNT_ISA_LEVEL >= 2 /* 16 at a time: the nonzeros compressed to the front of a vector, stored whole
                        * (the lanes past them are overwritten next, and n + 16 <= k + 16 <= in) */
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; k + 16 <= in; k += 16) {
      __m512 v = _mm512_loadu_ps(x + k);
      __mmask16 nz = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NEQ_UQ);
      _mm512_storeu_ps(vb + n, _mm512_maskz_compress_ps(nz, v));
      _mm512_storeu_si512(ib + n, _mm512_maskz_compress_epi32(nz, _mm512_add_epi32(iota, _mm512_set1_epi32(k))));
      n += __builtin_popcount(nz);
    }
#endif
    for (; k < in; k++) ib[n] = k, vb[n] = x[k], n += x[k] != 0; /* no branch on random signs */
    nzc[b] = n, macs += (double)n * out;
  }
  nnt_gemm_macs_add(macs);
}

/* y[0..w) = act(bias[c] + sum[c]) for the block's four vectors (w: the columns left); only the
 * columns below w are read or written */
static inline void finish_one(float *y, const float *bias, int w, int relu, sv v) {
  if (w <= 0) return;
  v = SV_ADD(w >= SV_L ? SV_LOAD(bias) : sv_load_part(bias, w), v);
  if (relu) v = SV_MAX(v, SV_ZERO()); /* max(v, +0): a negative, -0 or NaN v gives +0, as v > 0 ? v : 0 */
  if (w >= SV_L) SV_STORE(y, v);
  else sv_store_part(y, w, v);
}
static inline void finish(float *y, const float *bias, int w, int relu, sv a0, sv a1, sv a2, sv a3) {
  finish_one(y, bias, w, relu, a0), finish_one(y + SV_L, bias + SV_L, w - SV_L, relu, a1);
  finish_one(y + 2 * SV_L, bias + 2 * SV_L, w - 2 * SV_L, relu, a2);
  finish_one(y + 3 * SV_L, bias + 3 * SV_L, w - 3 * SV_L, relu, a3);
}

void NNT_ISA_FN(nnt_qstr_sparse_layer)(int B, int in, int ldx, int out, int outp, const float *X, const float *WT,
                                       const float *bias, int relu, float *Y, int ldy, int *nzi, float *nzv, int *nzc) {
  list_nonzeros(B, in, ldx, out, X, nzi, nzv, nzc);
  const sv zero = SV_ZERO();
  for (int c0 = 0; c0 < out; c0 += 4 * SV_L) { /* WT's rows hold whole blocks (outp: 64 floats) */
    int b = 0;
    for (; b + 2 <= B; b += 2) { /* two rows at once: eight independent FMA chains */
      const int *ix = nzi + (size_t)b * in, *jx = ix + in;
      const float *vx = nzv + (size_t)b * in, *ux = vx + in;
      int n = nzc[b], m = nzc[b + 1], nm = n < m ? n : m, j = 0;
      sv a0 = zero, a1 = zero, a2 = zero, a3 = zero, e0 = zero, e1 = zero, e2 = zero, e3 = zero;
      for (; j < nm; j++) {
        const float *w = WT + (size_t)ix[j] * outp + c0, *u = WT + (size_t)jx[j] * outp + c0;
        sv v = SV_SET1(vx[j]), t = SV_SET1(ux[j]);
        a0 = SV_FMA(v, SV_LOAD(w), a0), a1 = SV_FMA(v, SV_LOAD(w + SV_L), a1);
        a2 = SV_FMA(v, SV_LOAD(w + 2 * SV_L), a2), a3 = SV_FMA(v, SV_LOAD(w + 3 * SV_L), a3);
        e0 = SV_FMA(t, SV_LOAD(u), e0), e1 = SV_FMA(t, SV_LOAD(u + SV_L), e1);
        e2 = SV_FMA(t, SV_LOAD(u + 2 * SV_L), e2), e3 = SV_FMA(t, SV_LOAD(u + 3 * SV_L), e3);
      }
      for (int k = j; k < n; k++) {
        const float *w = WT + (size_t)ix[k] * outp + c0;
        sv v = SV_SET1(vx[k]);
        a0 = SV_FMA(v, SV_LOAD(w), a0), a1 = SV_FMA(v, SV_LOAD(w + SV_L), a1);
        a2 = SV_FMA(v, SV_LOAD(w + 2 * SV_L), a2), a3 = SV_FMA(v, SV_LOAD(w + 3 * SV_L), a3);
      }
      for (int k = j; k < m; k++) {
        const float *u = WT + (size_t)jx[k] * outp + c0;
        sv t = SV_SET1(ux[k]);
        e0 = SV_FMA(t, SV_LOAD(u), e0), e1 = SV_FMA(t, SV_LOAD(u + SV_L), e1);
        e2 = SV_FMA(t, SV_LOAD(u + 2 * SV_L), e2), e3 = SV_FMA(t, SV_LOAD(u + 3 * SV_L), e3);
      }
      float *y = Y + (size_t)b * ldy + c0, *z = y + ldy;
      finish(y, bias + c0, out - c0, relu, a0, a1, a2, a3);
      finish(z, bias + c0, out - c0, relu, e0, e1, e2, e3);
    }
    if (b < B) { /* an odd last row */
      const int *ix = nzi + (size_t)b * in;
      const float *vx = nzv + (size_t)b * in;
      sv a0 = zero, a1 = zero, a2 = zero, a3 = zero;
      for (int j = 0; j < nzc[b]; j++) {
        const float *w = WT + (size_t)ix[j] * outp + c0;
        sv v = SV_SET1(vx[j]);
        a0 = SV_FMA(v, SV_LOAD(w), a0), a1 = SV_FMA(v, SV_LOAD(w + SV_L), a1);
        a2 = SV_FMA(v, SV_LOAD(w + 2 * SV_L), a2), a3 = SV_FMA(v, SV_LOAD(w + 3 * SV_L), a3);
      }
      float *y = Y + (size_t)b * ldy + c0;
      finish(y, bias + c0, out - c0, relu, a0, a1, a2, a3);
    }
  }
}
