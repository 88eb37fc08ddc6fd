/* nnt_softmax_row_fast / nnt_softmax_row_grad_fast (float32, 8 lanes) against softmax and its
 * gradient computed in double from the same inputs, and nnt_relu_row_grad_fast against its scalar
 * definition (exact: one product per entry): every length 1..40 (the scalar tail alone and
 * after 1-4 vectors) and a long row, scores from tiny to ±80 (the exp's clamp stays unreached after
 * the max is subtracted), and every level this CPU runs giving the generic level's bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_nn.h"
#include "nnt_rng.h"
#include "nnt_simd.h"
#include "nnt_test.h"
#include "nnt_vmath.h"

/* Largest error of the probabilities and of the score gradient, relative to max(|ref|, 1e-3). */
static double check(const float *x, const float *dp, int n) {
  float *p = malloc(sizeof(float) * n), *d = malloc(sizeof(float) * n);
  double *pd = malloc(sizeof(double) * n), mx = x[0], s = 0, sd = 0, err = 0;
  memcpy(p, x, sizeof(float) * n), memcpy(d, dp, sizeof(float) * n);
  nnt_softmax_row_fast(p, n);
  for (int i = 0; i < n; i++) mx = fmax(mx, x[i]);
  for (int i = 0; i < n; i++) s += (pd[i] = exp((double)x[i] - mx));
  for (int i = 0; i < n; i++) pd[i] /= s;
  for (int i = 0; i < n; i++) err = fmax(err, fabs(p[i] - pd[i]) / fmax(pd[i], 1e-3));
  nnt_softmax_row_grad_fast(p, d, n); /* the gradient from the float probabilities, checked in double */
  for (int i = 0; i < n; i++) sd += (double)p[i] * dp[i];
  for (int i = 0; i < n; i++) {
    double want = p[i] * (dp[i] - sd);
    err = fmax(err, fabs(d[i] - want) / fmax(fabs(want), 1e-3));
    if (!isfinite(p[i]) || !isfinite(d[i])) err = INFINITY;
  }
  free(p), free(d), free(pd);
  return err;
}

/* The ReLU score gradient: a > 0 ? d * inv : 0 for a mix of positive and zero a, bit for bit. */
static int relu_ok(const float *x, const float *dp, int n) {
  float *a = malloc(sizeof(float) * n), *d = malloc(sizeof(float) * n);
  int ok = 1;
  for (int i = 0; i < n; i++) a[i] = x[i] > 0 ? x[i] : 0;
  memcpy(d, dp, sizeof(float) * n);
  nnt_relu_row_grad_fast(a, d, n, 1 / 7.0f);
  for (int i = 0; i < n; i++) ok &= d[i] == (a[i] > 0 ? dp[i] * (1 / 7.0f) : 0);
  free(a), free(d);
  return ok;
}

NNT_ISA_DECLARE(void, nnt_softmax_row_fast, (float *, int));
NNT_ISA_DECLARE(void, nnt_softmax_row_grad_fast, (const float *, float *, int));

static void same_bits(const float *x, const float *dp, int n) {
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n), *ga = malloc(sizeof(float) * n),
        *gb = malloc(sizeof(float) * n);
  memcpy(a, x, sizeof(float) * n), memcpy(ga, dp, sizeof(float) * n);
  nnt_softmax_row_fast_generic(a, n), nnt_softmax_row_grad_fast_generic(a, ga, n);
#if NNT_ISA_LEVELS >= 2
  if (nnt_cpu_isa() >= NNT_ISA_AVX2) {
    memcpy(b, x, sizeof(float) * n), memcpy(gb, dp, sizeof(float) * n);
    nnt_softmax_row_fast_avx2(b, n), nnt_softmax_row_grad_fast_avx2(b, gb, n);
    CHECK(!memcmp(a, b, sizeof(float) * n) && !memcmp(ga, gb, sizeof(float) * n));
  }
#endif
#if NNT_ISA_LEVELS >= 3
  if (nnt_cpu_isa() >= NNT_ISA_AVX512) {
    memcpy(b, x, sizeof(float) * n), memcpy(gb, dp, sizeof(float) * n);
    nnt_softmax_row_fast_avx512(b, n), nnt_softmax_row_grad_fast_avx512(b, gb, n);
    CHECK(!memcmp(a, b, sizeof(float) * n) && !memcmp(ga, gb, sizeof(float) * n));
  }
#endif
  free(a), free(b), free(ga), free(gb);
}

/* the row tail's vector exp gives the scalar nnt_vmath_expf's bits (so any row length does) */
static void tail_exp_bits(void) {
  nnt_rng r;
  nnt_rng_init(&r, 3, 4);
  int same = 1;
  for (int t = 0; t < 20000; t++) {
    float x[8], e[8];
    for (int k = 0; k < 8; k++) x[k] = (float)((nnt_rng_uniform(&r) - 0.7) * (t % 3 ? 30 : 250));
    _mm256_storeu_ps(e, nnt_vmath_expf8_scalar_bits(_mm256_loadu_ps(x)));
    for (int k = 0; k < 8; k++) {
      float w = nnt_vmath_expf(x[k]);
      same &= memcmp(&w, &e[k], sizeof w) == 0;
    }
  }
  CHECK(same);
}

NNT_ISA_DECLARE(void, nnt_softmax_cols_fast, (float *, int, int, int));

/* nnt_softmax_cols_fast at every level this CPU runs: each column carries the bits the generic
 * level's row softmax gives it as a row (the fused block exponentials, the scalar-bits tail, the
 * order of the sums), for every height 1..40 and widths 1..37 (16-, 8-lane groups and padding). */
static void cols_same_bits(float sd, int level) {
  enum { H = 40, W = 37, LD = 48 };
  float x[H * LD], a[H * LD], row[H];
  nnt_rng r;
  nnt_rng_init(&r, 5, level);
  nnt_rng_fill_normal_f32(&r, x, H * LD, 0, sd);
  int same = 1;
  for (int n = 1; n <= H; n++)
    for (int w = 1; w <= W; w += (w < 18 ? 1 : 5)) {
      for (int k = 0; k < n * LD; k++) a[k] = x[k];
      if (level == 0) nnt_softmax_cols_fast_generic(a, n, LD, w);
#if NNT_ISA_LEVELS >= 2
      if (level == 1) nnt_softmax_cols_fast_avx2(a, n, LD, w);
#endif
#if NNT_ISA_LEVELS >= 3
      if (level == 2) nnt_softmax_cols_fast_avx512(a, n, LD, w);
#endif
      for (int c = 0; c < w; c++) {
        for (int j = 0; j < n; j++) row[j] = x[j * LD + c];
        nnt_softmax_row_fast_generic(row, n);
        for (int j = 0; j < n; j++) same &= memcmp(&row[j], &a[j * LD + c], sizeof(float)) == 0;
      }
    }
  CHECK_MSG(same, "column softmax at level %d differs from the row softmax", level);
}

int main(void) {
  tail_exp_bits();
  enum { N = 1000 };
  float x[N], dp[N];
  nnt_rng r;
  nnt_rng_init(&r, 2, 0);
  for (int scale = 0; scale < 3; scale++) {
    float sd = scale == 0 ? 1e-3f : scale == 1 ? 2 : 40; /* near-uniform, typical, nearly one-hot */
    nnt_rng_fill_normal_f32(&r, x, N, 0, sd);
    nnt_rng_fill_normal_f32(&r, dp, N, 0, 1);
    for (int n = 1; n <= 40; n++) {
      double e = check(x, dp, n);
      CHECK_MSG(e < 2e-5, "scale %g, n = %d: error %.3g", sd, n, e);
      CHECK_MSG(relu_ok(x, dp, n), "relu gradient, n = %d", n);
    }
    double e = check(x, dp, N);
    CHECK_MSG(e < 2e-5, "scale %g, n = %d: error %.3g", sd, N, e);
    same_bits(x, dp, 101);
    cols_same_bits(sd, 0);
    if (nnt_cpu_isa() >= NNT_ISA_AVX2) cols_same_bits(sd, 1);
    if (nnt_cpu_isa() >= NNT_ISA_AVX512) cols_same_bits(sd, 2);
  }
  float two[2] = {0, logf(3)}; /* a wrong constant is caught: softmax(0, ln 3) = (1/4, 3/4) */
  nnt_softmax_row_fast(two, 2);
  CHECK_CLOSE(two[1], 0.75, 1e-6);
  TEST_MAIN_END();
}
