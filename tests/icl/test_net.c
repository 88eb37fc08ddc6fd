/* The N-layer net: forward against an independent direct evaluation, the s-recursion gradient
 * against central finite differences in double for every activation, output activation on/off and
 * biases on/off (ReLU at points away from its kink), parameter counts, projected GD. */
#include <math.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_icl_net.h"
#include "nnt_test.h"

/* Direct evaluation with explicit matrices, written independently of net.c's layout helpers;
 * *minabs receives the smallest |pre-activation| seen (ReLU kink distance). */
static void ref_forward(const nnt_icl_net *s, const double *w, const double *x, double *out, double *minabs) {
  double a[64], b[64];
  int width = s->dx;
  for (int i = 0; i < s->dx; i++) a[i] = x[i];
  const double *v = w;
  for (int j = 1; j <= s->N; j++) {
    int nu = j == s->N ? s->dy : s->K;
    for (int k = 0; k < nu; k++) {
      double z = 0;
      for (int i = 0; i < width; i++) z += *v++ * a[i];
      if (s->bias) z += *v++;
      if (fabs(z) < *minabs) *minabs = fabs(z);
      b[k] = (j < s->N || s->out_act) ? nnt_icl_act_eval(s->act, z, NULL) : z;
    }
    for (int k = 0; k < nu; k++) a[k] = b[k];
    width = nu;
  }
  for (int k = 0; k < s->dy; k++) out[k] = a[k];
}

static void check_net(nnt_icl_net s, int n, unsigned long long seed) {
  const size_t D = nnt_icl_net_nparams(&s);
  double *w = malloc(D * sizeof *w), *g = malloc(D * sizeof *g), *X = malloc(sizeof(double) * n * s.dx),
         *Y = malloc(sizeof(double) * n * s.dy), *F = malloc(sizeof(double) * n * s.dy),
         *ws = malloc(nnt_icl_net_ws_size(&s, n) * sizeof(double));
  nnt_rng r;
  double minabs;
  for (unsigned long long t = 0;; t++) { /* ReLU: draw until no pre-activation is near the kink */
    nnt_rng_init(&r, seed, t);
    nnt_icl_net_init(&s, w, 0, 0.7, &r);
    if (s.bias)
      for (size_t q = 0; q < D; q++) w[q] += 0.1 * nnt_rng_normal(&r);
    nnt_rng_fill_normal_f64(&r, X, (size_t)n * s.dx, 0, 1);
    nnt_rng_fill_normal_f64(&r, Y, (size_t)n * s.dy, 0, 1);
    minabs = INFINITY;
    for (int i = 0; i < n; i++) ref_forward(&s, w, X + i * s.dx, F + i * s.dy, &minabs);
    int live = 0; /* a ReLU output unit dead at every point would make the check vacuous */
    for (int i = 0; i < n * s.dy; i++) live |= F[i] != 0;
    if (s.act != NNT_ICL_ACT_RELU || (minabs > 1e-3 && live)) break;
  }
  double *Fn = malloc(sizeof(double) * n * s.dy), ref_loss = 0;
  nnt_icl_net_forward(&s, w, X, n, Fn, ws);
  double fe = 0;
  for (int i = 0; i < n * s.dy; i++) fe = fmax(fe, fabs(Fn[i] - F[i])), ref_loss += (F[i] - Y[i]) * (F[i] - Y[i]);
  ref_loss /= 2.0 * n;
  CHECK_MSG(fe < 1e-13, "forward %s out_act=%d bias=%d: %g", nnt_icl_act_names[s.act], s.out_act, s.bias, fe);
  const double L = nnt_icl_net_loss_grad(&s, w, X, Y, n, g, ws);
  CHECK_CLOSE(L, ref_loss, 1e-13);
  const double h = 1e-5;
  double worst = 0, scale = 0;
  for (size_t q = 0; q < D; q++) {
    const double w0 = w[q];
    w[q] = w0 + h;
    const double lp = nnt_icl_net_loss_grad(&s, w, X, Y, n, NULL, ws);
    w[q] = w0 - h;
    const double lm = nnt_icl_net_loss_grad(&s, w, X, Y, n, NULL, ws);
    w[q] = w0;
    worst = fmax(worst, fabs((lp - lm) / (2 * h) - g[q]));
    scale = fmax(scale, fabs(g[q]));
  }
  CHECK_MSG(worst <= 1e-7 * (1 + scale) && scale > 1e-3, "gradient %s N=%d out_act=%d bias=%d: max fd error %g (max |g| %g)",
            nnt_icl_act_names[s.act], s.N, s.out_act, s.bias, worst, scale);
  free(w), free(g), free(X), free(Y), free(F), free(Fn), free(ws);
}

int main(void) {
  /* Parameter counts D_N = dx K + (N-2) K² + K dy (spec acceptance 1). */
  nnt_icl_net ref = {.N = 3, .K = 6, .dx = 4, .dy = 1, .act = NNT_ICL_ACT_SIGMOID, .out_act = 1};
  CHECK(nnt_icl_net_nparams(&ref) == 66);
  nnt_icl_net big = {.N = 6, .K = 200, .dx = 20, .dy = 1, .act = NNT_ICL_ACT_RELU};
  CHECK(nnt_icl_net_nparams(&big) == 164200);
  big.bias = 1;
  CHECK(nnt_icl_net_nparams(&big) == 164200 + 5 * 200 + 1);
  CHECK(nnt_icl_net_layer_offset(&ref, 2) == 24 && nnt_icl_net_layer_offset(&ref, 3) == 60);

  for (int a = 0; nnt_icl_act_names[a]; a++)
    for (int oa = 0; oa < 2; oa++)
      for (int b = 0; b < 2; b++) {
        check_net((nnt_icl_net){.N = 3, .K = 5, .dx = 4, .dy = 2, .act = a, .out_act = oa, .bias = b}, 7, 10 + a);
        check_net((nnt_icl_net){.N = 2, .K = 3, .dx = 2, .dy = 1, .act = a, .out_act = oa, .bias = b}, 5, 20 + a);
      }
  check_net((nnt_icl_net){.N = 5, .K = 4, .dx = 3, .dy = 3, .act = NNT_ICL_ACT_TANH, .out_act = 1}, 6, 3);

  /* Activation derivatives against central differences. */
  for (int a = 0; nnt_icl_act_names[a]; a++)
    for (double z = -3.1; z < 3.2; z += 0.7) {
      double d;
      nnt_icl_act_eval(a, z, &d);
      double fd = (nnt_icl_act_eval(a, z + 1e-6, NULL) - nnt_icl_act_eval(a, z - 1e-6, NULL)) / 2e-6;
      CHECK_MSG(fabs(fd - d) < 1e-8, "%s'(%g) = %g, fd %g", nnt_icl_act_names[a], z, d, fd);
    }
  CHECK(nnt_icl_act_eval(NNT_ICL_ACT_SOFTPLUS, 800, NULL) == 800 && nnt_icl_act_eval(NNT_ICL_ACT_SOFTPLUS, -800, NULL) == 0);

  /* Projected GD: w - eta g clipped to the box, coordinate by coordinate. */
  {
    const int n = 8;
    const size_t D = nnt_icl_net_nparams(&ref);
    double w[66], w1[66], g[66], X[32], Y[8], ws[64];
    nnt_rng r;
    nnt_rng_init(&r, 5, 0);
    nnt_icl_net_init(&ref, w, 0, 2.0, &r);
    nnt_rng_fill_normal_f64(&r, X, 32, 0, 1);
    nnt_rng_fill_normal_f64(&r, Y, 8, 0, 1);
    CHECK(nnt_icl_net_ws_size(&ref, n) <= 64);
    for (size_t q = 0; q < D; q++) w1[q] = w[q];
    double L = nnt_icl_net_gd_step(&ref, w1, X, Y, n, 0.5, 1.5, g, ws);
    CHECK(L == nnt_icl_net_loss_grad(&ref, w, X, Y, n, NULL, ws));
    int ok = 1, clipped = 0;
    for (size_t q = 0; q < D; q++) {
      double v = w[q] - 0.5 * g[q], c = fmin(1.5, fmax(-1.5, v));
      ok &= w1[q] == c;
      clipped += c != v;
    }
    CHECK(ok && clipped > 0);
  }
  /* Bad shapes. */
  CHECK(nnt_icl_net_check(&(nnt_icl_net){.N = 1, .K = 6, .dx = 4, .dy = 1}) == NNT_EINVAL);
  CHECK(nnt_icl_net_check(&(nnt_icl_net){.N = 3, .K = 0, .dx = 4, .dy = 1}) == NNT_EINVAL);
  CHECK(nnt_icl_net_check(&ref) == NNT_OK);
  TEST_MAIN_END();
}
