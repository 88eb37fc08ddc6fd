/* LayerNorm rows for float32, eight lanes at a time (nnt_layernorm_fast_forward/_backward,
 * nnt_nn.h). The layer's scalar loops sum a row's mean and variance in one double accumulator, a
 * chain of dependent adds that made LayerNorm cost as much as GELU in a GPT training step. Here
 * the sums run in eight double lanes (two vectors of four), still double, reduced in a fixed order;
 * the backward's row sums in eight float lanes. Compiled once per instruction-set level with the
 * same operations in the same order at every level (nnt_simd.h), so the levels agree bit for bit;
 * scalar tails are plain C with explicit fmaf/fma, the same at every level. The weight and bias
 * gradients are each one multiply and one add per element, as in the scalar layer. */
#include <math.h>

#include "nnt_cpu.h"
#include "nnt_nn.h"
#include "nnt_simd.h"

/* l[0] + l[1] + l[2] + l[3] of a + b, in that order */
static inline double sum8d(__m256d a, __m256d b) {
  double l[4];
  _mm256_storeu_pd(l, _mm256_add_pd(a, b));
  return ((l[0] + l[1]) + l[2]) + l[3];
}
static inline float sum8(__m256 v) {
  float l[8], s = 0;
  _mm256_storeu_ps(l, v);
  for (int i = 0; i < 8; i++) s += l[i];
  return s;
}
static inline __m256d lo4(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
static inline __m256d hi4(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }

void NNT_ISA_FN(nnt_layernorm_fast_forward)(float *out, float *mean, float *rstd, const float *inp,
                                            const float *weight, const float *bias, int N, int C) {
  for (int n = 0; n < N; n++) {
    const float *x = inp + (size_t)n * C;
    float *y = out + (size_t)n * C;
    __m256d s0 = _mm256_setzero_pd(), s1 = s0;
    int c = 0;
    for (; c + 8 <= C; c += 8) {
      __m256 v = _mm256_loadu_ps(x + c);
      s0 = _mm256_add_pd(s0, lo4(v)), s1 = _mm256_add_pd(s1, hi4(v));
    }
    double m = sum8d(s0, s1);
    for (; c < C; c++) m += x[c];
    m /= C;
    __m256d vm = _mm256_set1_pd(m);
    s0 = s1 = _mm256_setzero_pd();
    for (c = 0; c + 8 <= C; c += 8) {
      __m256 v = _mm256_loadu_ps(x + c);
      __m256d d0 = _mm256_sub_pd(lo4(v), vm), d1 = _mm256_sub_pd(hi4(v), vm);
      s0 = _mm256_fmadd_pd(d0, d0, s0), s1 = _mm256_fmadd_pd(d1, d1, s1);
    }
    double var = sum8d(s0, s1);
    for (; c < C; c++) var = fma(x[c] - m, x[c] - m, var);
    var /= C;
    float rs = (float)(1 / sqrt(var + NNT_LN_EPS)), mf = (float)m;
    __m256 vmf = _mm256_set1_ps(mf), vrs = _mm256_set1_ps(rs), zero = _mm256_setzero_ps();
    for (c = 0; c + 8 <= C; c += 8) {
      __m256 z = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + c), vmf), vrs);
      __m256 b = bias ? _mm256_loadu_ps(bias + c) : zero;
      _mm256_storeu_ps(y + c, weight ? _mm256_fmadd_ps(z, _mm256_loadu_ps(weight + c), b) : _mm256_add_ps(z, b));
    }
    for (; c < C; c++) {
      float z = (x[c] - mf) * rs, b = bias ? bias[c] : 0;
      y[c] = weight ? fmaf(z, weight[c], b) : z + b;
    }
    mean[n] = mf, rstd[n] = rs;
  }
}

void NNT_ISA_FN(nnt_layernorm_fast_backward)(float *dinp, float *dweight, float *dbias, const float *dout,
                                             const float *inp, const float *weight, const float *mean,
                                             const float *rstd, int N, int C) {
  for (int n = 0; n < N; n++) {
    const float *x = inp + (size_t)n * C, *dy = dout + (size_t)n * C;
    float m = mean[n], rs = rstd[n];
    __m256 vm = _mm256_set1_ps(m), vrs = _mm256_set1_ps(rs), am = _mm256_setzero_ps(), az = am;
    int c = 0;
    for (; c + 8 <= C; c += 8) {
      __m256 z = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + c), vm), vrs), g = _mm256_loadu_ps(dy + c);
      __m256 dz = weight ? _mm256_mul_ps(g, _mm256_loadu_ps(weight + c)) : g;
      am = _mm256_add_ps(am, dz), az = _mm256_fmadd_ps(dz, z, az);
      if (dweight) _mm256_storeu_ps(dweight + c, _mm256_add_ps(_mm256_loadu_ps(dweight + c), _mm256_mul_ps(g, z)));
      if (dbias) _mm256_storeu_ps(dbias + c, _mm256_add_ps(_mm256_loadu_ps(dbias + c), g));
    }
    float dnm = sum8(am), dnz = sum8(az);
    for (int t = c; t < C; t++) {
      float z = (x[t] - m) * rs, dz = weight ? dy[t] * weight[t] : dy[t];
      dnm += dz, dnz = fmaf(dz, z, dnz);
      if (dweight) dweight[t] += dy[t] * z;
      if (dbias) dbias[t] += dy[t];
    }
    dnm /= C, dnz /= C;
    if (!dinp) continue;
    float *di = dinp + (size_t)n * C;
    __m256 vnm = _mm256_set1_ps(dnm), vnz = _mm256_set1_ps(dnz);
    for (c = 0; c + 8 <= C; c += 8) { /* dinp += (dz - dnm - z dnz) rs */
      __m256 z = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + c), vm), vrs), g = _mm256_loadu_ps(dy + c);
      __m256 dz = weight ? _mm256_mul_ps(g, _mm256_loadu_ps(weight + c)) : g;
      __m256 t = _mm256_fnmadd_ps(z, vnz, _mm256_sub_ps(dz, vnm));
      _mm256_storeu_ps(di + c, _mm256_fmadd_ps(t, vrs, _mm256_loadu_ps(di + c)));
    }
    for (; c < C; c++) {
      float z = (x[c] - m) * rs, dz = weight ? dy[c] * weight[c] : dy[c];
      di[c] = fmaf(fmaf(-z, dnz, dz - dnm), rs, di[c]);
    }
  }
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_layernorm_fast_forward,
                (float *, float *, float *, const float *, const float *, const float *, int, int));
NNT_ISA_DECLARE(void, nnt_layernorm_fast_backward, (float *, float *, float *, const float *, const float *,
                                                    const float *, const float *, const float *, int, int));

void nnt_layernorm_fast_forward(float *out, float *mean, float *rstd, const float *inp, const float *weight,
                                const float *bias, int N, int C) {
  NNT_ISA_PICK(nnt_layernorm_fast_forward)(out, mean, rstd, inp, weight, bias, N, C);
}
void nnt_layernorm_fast_backward(float *dinp, float *dweight, float *dbias, const float *dout, const float *inp,
                                 const float *weight, const float *mean, const float *rstd, int N, int C) {
  NNT_ISA_PICK(nnt_layernorm_fast_backward)(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
}
#endif
