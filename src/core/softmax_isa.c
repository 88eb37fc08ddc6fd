/* Attention rows for float32, eight lanes at a time (nnt_softmax_row_fast, nnt_softmax_cols_fast, nnt_softmax_row_grad_fast,
 * nnt_relu_row_grad_fast, nnt_nn.h). In a GPT training step the scalar softmax — a libm expf call per score — cost more than
 * the forward's two attention products together. Compiled once per instruction-set level with the
 * same operations in the same order at every level (nnt_simd.h, nnt_vmath's 8-lane expf), sums kept
 * in 8 lanes and reduced in a fixed order, so the levels agree bit for bit; scalar tails are plain C,
 * the same at every level. */
#include "nnt_cpu.h"
#include "nnt_nn.h"
#include "nnt_simd.h"
#include "nnt_vmath.h"

/* lanes[0] + ... + lanes[7], in that order */
static inline float sum8(__m256 v) {
  float l[8], s = 0;
  _mm256_storeu_ps(l, v);
  for (int i = 0; i < 8; i++) s += l[i];
  return s;
}

void NNT_ISA_FN(nnt_softmax_row_fast)(float *row, int n) {
  if (n <= 0) return;
  int i = 0;
  float mx = row[0];
  if (n >= 8) { /* the maximum is exact in any order */
    __m256 m = _mm256_loadu_ps(row);
    for (i = 8; i + 8 <= n; i += 8) m = _mm256_max_ps(m, _mm256_loadu_ps(row + i));
    float l[8];
    _mm256_storeu_ps(l, m);
    for (int k = 0; k < 8; k++) mx = l[k] > mx ? l[k] : mx;
  }
  for (; i < n; i++) mx = row[i] > mx ? row[i] : mx;
  __m256 vmx = _mm256_set1_ps(mx), acc = _mm256_setzero_ps();
  for (i = 0; i + 8 <= n; i += 8) {
    __m256 e = nnt_vmath_expf8(_mm256_sub_ps(_mm256_loadu_ps(row + i), vmx));
    _mm256_storeu_ps(row + i, e);
    acc = _mm256_add_ps(acc, e);
  }
  float s = sum8(acc);
  if (i < n) { /* the last n - i < 8: nnt_vmath_expf's bits, in one vector; summed in order */
    float e[8] = {0}; /* copied, not a masked load: SIMDe's (the generic level) reads all 8 lanes */
    for (int k = 0; k < n - i; k++) e[k] = row[i + k];
    _mm256_storeu_ps(e, nnt_vmath_expf8_scalar_bits(_mm256_sub_ps(_mm256_loadu_ps(e), vmx)));
    for (int k = 0; i < n; i++, k++) s += (row[i] = e[k]);
  }
  float inv = 1 / s;
  __m256 vinv = _mm256_set1_ps(inv);
  for (i = 0; i + 8 <= n; i += 8) _mm256_storeu_ps(row + i, _mm256_mul_ps(_mm256_loadu_ps(row + i), vinv));
  for (; i < n; i++) row[i] *= inv;
}

/* nnt_softmax_row_fast's operations on W columns at once, one column per lane: the exponentials of
 * rows below the last whole block of 8 through the fused form, the rest through the scalar form's;
 * per lane the eight block sums in lane order, then the remaining rows one by one. */
#define NNT_SOFTMAX_COLS(V, P, EXP, EXP_SCALAR_BITS)                                                    \
  {                                                                                                  \
    V mx = P##_loadu_ps(a + c);                                                                      \
    for (int j = 1; j < n; j++) mx = P##_max_ps(mx, P##_loadu_ps(a + (size_t)j * ld + c));            \
    V s = P##_setzero_ps();                                                                          \
    int full = n / 8 * 8;                                                                            \
    for (int k = 0; full && k < 8; k++) {                                                            \
      V part = P##_setzero_ps();                                                                     \
      for (int j = k; j < full; j += 8) {                                                            \
        float *r = a + (size_t)j * ld + c;                                                           \
        V e = EXP(P##_sub_ps(P##_loadu_ps(r), mx));                                                  \
        P##_storeu_ps(r, e);                                                                         \
        part = P##_add_ps(part, e);                                                                  \
      }                                                                                              \
      s = P##_add_ps(s, part);                                                                       \
    }                                                                                                \
    for (int j = full; j < n; j++) {                                                                 \
      float *r = a + (size_t)j * ld + c;                                                             \
      V e = EXP_SCALAR_BITS(P##_sub_ps(P##_loadu_ps(r), mx));                                        \
      P##_storeu_ps(r, e);                                                                           \
      s = P##_add_ps(s, e);                                                                          \
    }                                                                                                \
    V inv = P##_div_ps(P##_set1_ps(1), s);                                                           \
    for (int j = 0; j < n; j++) P##_storeu_ps(a + (size_t)j * ld + c, P##_mul_ps(P##_loadu_ps(a + (size_t)j * ld + c), inv)); \
  }

void NNT_ISA_FN(nnt_softmax_cols_fast)(float *a, int n, int ld, int ncols) {
  if (n <= 0) return;
  int c = 0, end = (ncols + 7) / 8 * 8;
#if NNT_ISA_LEVEL >= 2
  for (; c + 16 <= end; c += 16) NNT_SOFTMAX_COLS(__m512, _mm512, nnt_vmath_expf16, nnt_vmath_expf16_scalar_bits)
#endif
  for (; c < end; c += 8) NNT_SOFTMAX_COLS(__m256, _mm256, nnt_vmath_expf8, nnt_vmath_expf8_scalar_bits)
}

void NNT_ISA_FN(nnt_softmax_row_grad_fast)(const float *a, float *d, int n) {
  __m256 acc = _mm256_setzero_ps();
  int i = 0;
  for (; i + 8 <= n; i += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(d + i), acc);
  float s = sum8(acc);
  for (int k = i; k < n; k++) s += a[k] * d[k];
  __m256 vs = _mm256_set1_ps(s);
  for (i = 0; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_mul_ps(_mm256_loadu_ps(a + i), _mm256_sub_ps(_mm256_loadu_ps(d + i), vs)));
  for (; i < n; i++) d[i] = a[i] * (d[i] - s);
}

void NNT_ISA_FN(nnt_relu_row_grad_fast)(const float *a, float *d, int n, float inv) {
  const __m256 zero = _mm256_setzero_ps(), vinv = _mm256_set1_ps(inv);
  int i = 0;
  for (; i + 8 <= n; i += 8) { /* a compare and a mask where the scalar form branches on random signs */
    __m256 on = _mm256_cmp_ps(_mm256_loadu_ps(a + i), zero, _CMP_GT_OQ);
    _mm256_storeu_ps(d + i, _mm256_and_ps(on, _mm256_mul_ps(_mm256_loadu_ps(d + i), vinv)));
  }
  for (; i < n; i++) d[i] = a[i] > 0 ? d[i] * inv : 0;
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_softmax_row_grad_fast, (const float *, float *, int));
NNT_ISA_DECLARE(void, nnt_relu_row_grad_fast, (const float *, float *, int, float));

void nnt_softmax_row_fast(float *row, int n) { NNT_ISA_PICK(nnt_softmax_row_fast)(row, n); }
void nnt_softmax_cols_fast(float *a, int n, int ld, int ncols) { NNT_ISA_PICK(nnt_softmax_cols_fast)(a, n, ld, ncols); }
void nnt_softmax_row_grad_fast(const float *a, float *d, int n) { NNT_ISA_PICK(nnt_softmax_row_grad_fast)(a, d, n); }
void nnt_relu_row_grad_fast(const float *a, float *d, int n, float inv) {
  NNT_ISA_PICK(nnt_relu_row_grad_fast)(a, d, n, inv);
}
#endif
