/* nnt_layernorm_fast_forward/_backward (float32, 8 lanes; what the float32 layer runs) against the
 * float64 layer (itself checked by finite differences in test_nn_grad): outputs, mean, rstd and
 * every gradient, with and without weight and bias, for every tail length; the same bits at every
 * level this CPU runs; rows with a large mean (where float sums lose digits). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_nn.h"
#include "nnt_rng.h"
#include "nnt_test.h"

enum { NMAX = 5, CMAX = 136 };

/* Largest error of every output relative to max(|reference|, 1). */
static double check(int N, int C, int affine, double offset, nnt_rng *r) {
  float x[NMAX * CMAX], w[CMAX], b[CMAX], dy[NMAX * CMAX], y[NMAX * CMAX], m[NMAX], rs[NMAX];
  float dx[NMAX * CMAX], dw[CMAX], db[CMAX];
  double xd[NMAX * CMAX], wd[CMAX], bd[CMAX], dyd[NMAX * CMAX], yd[NMAX * CMAX], md[NMAX], rsd[NMAX];
  double dxd[NMAX * CMAX], dwd[CMAX], dbd[CMAX];
  nnt_rng_fill_normal_f32(r, x, (size_t)N * C, 0, 1.5);
  nnt_rng_fill_normal_f32(r, dy, (size_t)N * C, 0, 1);
  nnt_rng_fill_normal_f32(r, w, C, 1, 0.3);
  nnt_rng_fill_normal_f32(r, b, C, 0, 0.3);
  for (int i = 0; i < N * C; i++) x[i] += (float)offset, xd[i] = x[i], dyd[i] = dy[i], dx[i] = 0.5f, dxd[i] = 0.5;
  for (int c = 0; c < C; c++) wd[c] = w[c], bd[c] = b[c], dw[c] = dwd[c] = 0.25f, db[c] = dbd[c] = -0.25f;
  nnt_layernorm_fast_forward(y, m, rs, x, affine ? w : NULL, affine ? b : NULL, N, C);
  nnt_layernorm_forward_f64(yd, md, rsd, xd, affine ? wd : NULL, affine ? bd : NULL, N, C);
  nnt_layernorm_fast_backward(dx, dw, db, dy, x, affine ? w : NULL, m, rs, N, C);
  nnt_layernorm_backward_f64(dxd, dwd, dbd, dyd, xd, affine ? wd : NULL, md, rsd, N, C);
  double e = 0;
#define ERR(a, ref) e = fmax(e, isfinite(a) ? fabs((a) - (ref)) / fmax(fabs(ref), 1) : INFINITY)
  for (int i = 0; i < N * C; i++) ERR(y[i], yd[i]), ERR(dx[i], dxd[i]);
  for (int n = 0; n < N; n++) ERR(m[n], md[n]), ERR(rs[n], rsd[n]);
  for (int c = 0; c < C; c++) ERR(dw[c], dwd[c]), ERR(db[c], dbd[c]);
#undef ERR
  return e;
}

NNT_ISA_DECLARE(void, nnt_layernorm_fast_forward,
                (float *, float *, float *, const float *, const float *, const float *, int, int));
NNT_ISA_DECLARE(void, nnt_layernorm_fast_backward, (float *, float *, float *, const float *, const float *,
                                                    const float *, const float *, const float *, int, int));

/* Every level this CPU runs gives the generic level's bits (forward, then backward into zeros). */
typedef void (*ln_fwd_fn)(float *, float *, float *, const float *, const float *, const float *, int, int);
typedef void (*ln_bwd_fn)(float *, float *, float *, const float *, const float *, const float *, const float *,
                          const float *, int, int);
static const struct { ln_fwd_fn fwd; ln_bwd_fn bwd; nnt_isa isa; } levels[] = {
    {nnt_layernorm_fast_forward_generic, nnt_layernorm_fast_backward_generic, NNT_ISA_GENERIC},
#if NNT_ISA_LEVELS >= 2
    {nnt_layernorm_fast_forward_avx2, nnt_layernorm_fast_backward_avx2, NNT_ISA_AVX2},
#endif
#if NNT_ISA_LEVELS >= 3
    {nnt_layernorm_fast_forward_avx512, nnt_layernorm_fast_backward_avx512, NNT_ISA_AVX512},
#endif
};
static void run_level(int level, const float *x, const float *w, const float *dy, int N, int C, float *out) {
  float *y = out, *m = y + N * C, *rs = m + N, *dx = rs + N, *dw = dx + N * C, *db = dw + C;
  memset(out, 0, sizeof(float) * (2 * N * C + 2 * N + 2 * C));
  levels[level].fwd(y, m, rs, x, w, w, N, C);
  levels[level].bwd(dx, dw, db, dy, x, w, m, rs, N, C);
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 7, 0);
  for (int affine = 0; affine <= 1; affine++)
    for (int C = 1; C <= CMAX; C += C < 20 ? 1 : 29) { /* every tail, then 49, 78, 107, 136 */
      double e = check(NMAX, C, affine, 0, &r);
      CHECK_MSG(e < 2e-5, "C = %d, affine %d: error %.3g", C, affine, e);
    }
  /* a large common offset: the variance of x = 1000 + N(0, 1.5^2) stays accurate (double sums) */
  double e = check(3, 128, 1, 1000, &r);
  CHECK_MSG(e < 1e-3, "offset 1000: error %.3g", e);
  enum { N = 3, C = 131 };
  float x[N * C], w[C], dy[N * C], a[2 * N * C + 2 * N + 2 * C], b[sizeof a / sizeof *a];
  nnt_rng_fill_normal_f32(&r, x, N * C, 0.5, 2), nnt_rng_fill_normal_f32(&r, dy, N * C, 0, 1);
  nnt_rng_fill_normal_f32(&r, w, C, 1, 0.3);
  run_level(0, x, w, dy, N, C, a);
  for (int level = 1; level < (int)(sizeof levels / sizeof *levels); level++)
    if (nnt_cpu_isa() >= levels[level].isa) {
      run_level(level, x, w, dy, N, C, b);
      CHECK_MSG(!memcmp(a, b, sizeof a), "level %d differs", level);
    }
  /* the row of [1, 2, 3]: mean 2, rstd 1/sqrt(2/3 + eps), outputs -1.2247, 0, 1.2247 */
  float t[3] = {1, 2, 3}, yt[3], mt, rt;
  nnt_layernorm_fast_forward(yt, &mt, &rt, t, NULL, NULL, 1, 3);
  CHECK_CLOSE(mt, 2, 1e-7);
  CHECK_CLOSE(yt[2], 1.2247357, 1e-6);
  TEST_MAIN_END();
}
