/* The FFN's sparse-input hidden layers (qstr_sparse.h), per instruction-set level: 16 lanes at
 * AVX-512, 8 elsewhere; the per-element operations are the same at every level. Columns run in
 * blocks of four vectors whose rows of WT stay in L1 while every row passes, two rows at a time
 * (eight independent FMA chains) where a block is whole. */
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
static inline __m256i sv_mask(int w) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(w), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline sv sv_load_part(const float *p, int w) { return _mm256_maskload_ps(p, sv_mask(w)); }
static inline void sv_store_part(float *p, int w, sv v) { _mm256_maskstore_ps(p, sv_mask(w), v); }
#endif

void NNT_ISA_FN(nnt_qstr_pack_wt)(const float *W, int out, int in, int outp, float *WT) {
  int c8 = out / 8 * 8, k8 = in / 8 * 8;
  for (int k = 0; k < in; k++) memset(WT + (size_t)k * outp + c8, 0, sizeof(float) * (size_t)(outp - c8));
  for (int c = 0; c < c8; c += 8)
    for (int k = 0; k < k8; k += 8) nnt_simd_transpose8(W + (size_t)c * in + k, in, WT + (size_t)k * outp + c, outp);
  for (int c = 0; c < out; c++)
    for (int k = c < c8 ? k8 : 0; k < in; k++) WT[(size_t)k * outp + c] = W[(size_t)c * in + k];
}

void NNT_ISA_FN(nnt_qstr_sparse_layer)(int B, int in, int ldx, int out, int outp, const float *X, const float *WT,
                                       const float *bias, int relu, float *Y, int ldy, int *nzi, float *nzv, int *nzc) {
  double macs = 0;
  for (int b = 0; b < B; b++) {
    const float *x = X + (size_t)b * ldx;
    int *ib = nzi + (size_t)b * in, n = 0;
    float *vb = nzv + (size_t)b * in;
    for (int k = 0; k < in; k++) ib[n] = k, vb[n] = x[k], n += x[k] != 0; /* no branch on random signs */
    nzc[b] = n, macs += (double)n * out;
  }
  nnt_gemm_macs_add(macs);
  const sv zero = SV_ZERO();
  for (int c0 = 0; c0 < out; c0 += 4 * SV_L) {
    int b = 0;
    if (c0 + 4 * SV_L <= out) /* a whole block: two rows at once */
      for (; b + 2 <= B; b += 2) {
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
        const float *bc = bias + c0;
        float *y = Y + (size_t)b * ldy + c0, *z = y + ldy;
        sv b0 = SV_LOAD(bc), b1 = SV_LOAD(bc + SV_L), b2 = SV_LOAD(bc + 2 * SV_L), b3 = SV_LOAD(bc + 3 * SV_L);
        a0 = SV_ADD(a0, b0), a1 = SV_ADD(a1, b1), a2 = SV_ADD(a2, b2), a3 = SV_ADD(a3, b3);
        e0 = SV_ADD(e0, b0), e1 = SV_ADD(e1, b1), e2 = SV_ADD(e2, b2), e3 = SV_ADD(e3, b3);
        if (relu) { /* max(v, +0): a negative, -0 or NaN v gives +0, as v > 0 ? v : 0 does */
          a0 = SV_MAX(a0, zero), a1 = SV_MAX(a1, zero), a2 = SV_MAX(a2, zero), a3 = SV_MAX(a3, zero);
          e0 = SV_MAX(e0, zero), e1 = SV_MAX(e1, zero), e2 = SV_MAX(e2, zero), e3 = SV_MAX(e3, zero);
        }
        SV_STORE(y, a0), SV_STORE(y + SV_L, a1), SV_STORE(y + 2 * SV_L, a2), SV_STORE(y + 3 * SV_L, a3);
        SV_STORE(z, e0), SV_STORE(z + SV_L, e1), SV_STORE(z + 2 * SV_L, e2), SV_STORE(z + 3 * SV_L, e3);
      }
    for (; b < B; b++) /* one row, a vector at a time; the last one partial where out ends */
      for (int c = c0; c < out && c < c0 + 4 * SV_L; c += SV_L) {
        const int *ix = nzi + (size_t)b * in;
        const float *vx = nzv + (size_t)b * in;
        int n = nzc[b], w = out - c < SV_L ? out - c : SV_L;
        sv a0 = zero;
        for (int j = 0; j < n; j++) a0 = SV_FMA(SV_SET1(vx[j]), SV_LOAD(WT + (size_t)ix[j] * outp + c), a0);
        a0 = SV_ADD(a0, w == SV_L ? SV_LOAD(bias + c) : sv_load_part(bias + c, w));
        if (relu) a0 = SV_MAX(a0, zero);
        if (w == SV_L) SV_STORE(Y + (size_t)b * ldy + c, a0);
        else sv_store_part(Y + (size_t)b * ldy + c, w, a0);
      }
  }
}
