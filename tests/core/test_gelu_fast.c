/* nnt_gelu_tanh_fast_forward/_backward (float32, 8 lanes) against the float64 GELU layer (itself
 * checked by finite differences in test_nn_grad): values and derivatives on a dense grid and on
 * random inputs, every tail length, and the backward's accumulation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_nn.h"
#include "nnt_rng.h"
#include "nnt_test.h"

/* Largest error relative to max(|reference|, 1) (float rounding of x alone moves GELU by ~1e-7). */
static double check(const float *x, size_t n) {
  float *y = malloc(sizeof(float) * n), *g = malloc(sizeof(float) * n), *dy = malloc(sizeof(float) * n);
  double *xd = malloc(sizeof(double) * n), *yd = malloc(sizeof(double) * n), *gd = calloc(n, sizeof(double));
  double *dyd = malloc(sizeof(double) * n);
  for (size_t i = 0; i < n; i++) xd[i] = x[i], dy[i] = (float)(0.5 + (i % 7) * 0.25), dyd[i] = dy[i], g[i] = 1, gd[i] = 1;
  nnt_gelu_tanh_fast_forward(y, x, n);
  nnt_gelu_tanh_fast_backward(g, dy, x, n);
  nnt_gelu_forward_f64(yd, xd, n, NNT_GELU_TANH);
  nnt_gelu_backward_f64(gd, dyd, xd, n, NNT_GELU_TANH);
  double err = 0;
  for (size_t i = 0; i < n; i++) {
    err = fmax(err, fabs(y[i] - yd[i]) / fmax(fabs(yd[i]), 1));
    err = fmax(err, fabs(g[i] - gd[i]) / fmax(fabs(gd[i]), 1)); /* g and gd both started at 1 */
    if (!isfinite(y[i]) || !isfinite(g[i])) err = INFINITY;
  }
  free(y), free(g), free(dy), free(xd), free(yd), free(gd), free(dyd);
  return err;
}

NNT_ISA_DECLARE(void, nnt_gelu_tanh_fast_forward, (float *, const float *, size_t));
NNT_ISA_DECLARE(void, nnt_gelu_tanh_fast_backward, (float *, const float *, const float *, size_t));
NNT_ISA_DECLARE(void, nnt_gelu_tanh_fast_forward_grad, (float *, float *, const float *, size_t));

/* Every level this CPU runs gives the generic level's bits. */
static void same_bits(const float *x, size_t n) {
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n), *ga = calloc(n, sizeof(float)),
        *gb = calloc(n, sizeof(float));
  nnt_gelu_tanh_fast_forward_generic(a, x, n), nnt_gelu_tanh_fast_backward_generic(ga, x, x, n);
#if NNT_ISA_LEVELS >= 2
  if (nnt_cpu_isa() >= NNT_ISA_AVX2) {
    nnt_gelu_tanh_fast_forward_avx2(b, x, n), nnt_gelu_tanh_fast_backward_avx2(gb, x, x, n);
    CHECK(!memcmp(a, b, sizeof(float) * n) && !memcmp(ga, gb, sizeof(float) * n));
  }
#endif
#if NNT_ISA_LEVELS >= 3
  if (nnt_cpu_isa() >= NNT_ISA_AVX512) {
    memset(gb, 0, sizeof(float) * n);
    nnt_gelu_tanh_fast_forward_avx512(b, x, n), nnt_gelu_tanh_fast_backward_avx512(gb, x, x, n);
    CHECK(!memcmp(a, b, sizeof(float) * n) && !memcmp(ga, gb, sizeof(float) * n));
  }
#endif
  free(a), free(b), free(ga), free(gb);
}

/* forward_grad: the forward's bits and the backward's factor (dinp += 1 * grad from 0), also in
 * place over its input, at every level this CPU runs */
static void forward_grad(const float *x, size_t n) {
  float *a = malloc(sizeof(float) * n), *g = calloc(n, sizeof(float)), *one = malloc(sizeof(float) * n);
  float *b = malloc(sizeof(float) * n), *h = malloc(sizeof(float) * n);
  for (size_t i = 0; i < n; i++) one[i] = 1;
  nnt_gelu_tanh_fast_forward(a, x, n), nnt_gelu_tanh_fast_backward(g, one, x, n);
  void (*fns[3])(float *, float *, const float *, size_t) = {nnt_gelu_tanh_fast_forward_grad_generic, NULL, NULL};
#if NNT_ISA_LEVELS >= 2
  if (nnt_cpu_isa() >= NNT_ISA_AVX2) fns[1] = nnt_gelu_tanh_fast_forward_grad_avx2;
#endif
#if NNT_ISA_LEVELS >= 3
  if (nnt_cpu_isa() >= NNT_ISA_AVX512) fns[2] = nnt_gelu_tanh_fast_forward_grad_avx512;
#endif
  for (int l = 0; l < 3; l++) {
    if (!fns[l]) continue;
    fns[l](b, h, x, n);
    CHECK_MSG(!memcmp(a, b, sizeof(float) * n) && !memcmp(g, h, sizeof(float) * n), "level %d, n = %zu", l, n);
    memcpy(h, x, sizeof(float) * n); /* in place: grad over the input */
    fns[l](b, h, h, n);
    CHECK_MSG(!memcmp(a, b, sizeof(float) * n) && !memcmp(g, h, sizeof(float) * n), "in place, level %d, n = %zu", l, n);
  }
  free(a), free(g), free(one), free(b), free(h);
}

int main(void) {
  enum { N = 200001 };
  float *x = malloc(sizeof(float) * N);
  for (int i = 0; i < N; i++) x[i] = -20 + 40.0f * i / (N - 1); /* through 0.625 / tanh saturation */
  double e = check(x, N);
  CHECK_MSG(e < 2e-6, "grid: error %.3g", e);
  nnt_rng r;
  nnt_rng_init(&r, 1, 0);
  nnt_rng_fill_normal_f32(&r, x, N, 0, 3);
  e = check(x, N);
  CHECK_MSG(e < 2e-6, "random: error %.3g", e);
  for (int n = 0; n <= 17; n++) { /* tails: the scalar loop alone, and after 1-2 vectors */
    e = check(x + 3, n);
    CHECK_MSG(e < 2e-6, "n = %d: error %.3g", n, e);
  }
  same_bits(x, 1003);
  for (size_t n = 0; n <= 40; n++) forward_grad(x + 5, n);
  forward_grad(x, 1003);
  /* a wrong constant is caught: GELU of 1 is 0.8411920 */
  float one = 1, y1;
  nnt_gelu_tanh_fast_forward(&y1, &one, 1);
  CHECK_CLOSE(y1, 0.841192, 1e-6);
  free(x);
  TEST_MAIN_END();
}
