/* Exact PWL engine against the network's own forward pass and against closed forms. */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_rng.h"
#include "nnt_test.h"

/* Every piece agrees with nnt_mlp_forward at random interior points and at its ends. */
static void check_pieces_vs_forward(const nnt_mlp *m, double lo, double hi, nnt_rng *r) {
  long max = 1 << 16;
  nnt_approx_piece *p = malloc(sizeof *p * max);
  long n = nnt_approx_pwl_collect(m, NULL, lo, hi, p, max);
  CHECK(n > 0);
  double worst = 0;
  for (long k = 0; k < n; k++) {
    CHECK(k == 0 || p[k].x0 == p[k - 1].x1);
    for (int t = 0; t < 3; t++) {
      double x = p[k].x0 + (p[k].x1 - p[k].x0) * (t == 0 ? 0 : t == 1 ? 1 : nnt_rng_uniform(r)), y;
      nnt_mlp_forward(m, &x, &y);
      double e = fabs(p[k].a * x + p[k].c - y) / (1 + fabs(y));
      if (e > worst) worst = e;
    }
  }
  CHECK_MSG(worst < 1e-9, "piece vs forward %.3g", worst);
  /* no breakpoint is missed: dense off-grid sampling of the forward pass lies on the pieces */
  long k = 0;
  for (int s = 0; s < 20000; s++) {
    double x = lo + (hi - lo) * (s + nnt_rng_uniform(r)) / 20000, y;
    while (k + 1 < n && x > p[k].x1) k++;
    nnt_mlp_forward(m, &x, &y);
    double e = fabs(p[k].a * x + p[k].c - y) / (1 + fabs(y));
    if (e > worst) worst = e;
  }
  CHECK_MSG(worst < 1e-9, "dense samples vs pieces %.3g", worst);
  free(p);
}

/* A random 1-D ReLU net with hidden widths w[0..nh-1]. */
static void random_net(nnt_mlp *m, nnt_rng *r, const int *w, int nh) {
  nnt_mlp_init(m);
  int in = 1;
  for (int l = 0; l <= nh; l++) {
    int out = l < nh ? w[l] : 1;
    nnt_mlp_layer *L = nnt_mlp_add(m, in, out, l < nh ? NNT_ACT_RELU : NNT_ACT_IDENTITY);
    nnt_rng_fill_normal_f64(r, L->W, (size_t)in * out, 0, 1);
    nnt_rng_fill_normal_f64(r, L->b, out, 0, 1);
    in = out;
  }
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 7, 0);
  /* Delta^L: 2^L pieces on [0,1], 2^L + 2 on R, int = 1/2, int|D - 1/2| = 1/4 (via f - g with g = 1/2) */
  for (int L = 1; L <= 12; L++) {
    nnt_mlp d;
    nnt_approx_build_delta(&d, L);
    nnt_approx_pwl_summary s;
    CHECK(nnt_approx_pwl_summarize(&d, NULL, 0, 1, &s) == 0);
    CHECK(s.pieces == (1L << L));
    CHECK_CLOSE(s.integral, 0.5, 1e-14);
    CHECK_CLOSE(s.l2sq, 1.0 / 3, 1e-14); /* E U^2 for U uniform */
    CHECK(nnt_approx_pwl_summarize(&d, NULL, -INFINITY, INFINITY, &s) == 0);
    CHECK(s.pieces == (1L << L) + 2);
    nnt_mlp half;
    double zero = 0, h = 0.5;
    nnt_approx_net_affine(&half, 1, 1, &zero, &h);
    CHECK(nnt_approx_pwl_summarize(&d, &half, 0, 1, &s) == 0);
    CHECK_CLOSE(s.l1, 0.25, 1e-14);
    CHECK_CLOSE(s.l2sq, 1.0 / 12, 1e-14);
    if (L <= 8) check_pieces_vs_forward(&d, -0.5, 1.5, &r);
    nnt_mlp_free(&d), nnt_mlp_free(&half);
  }
  /* random nets: pieces vs forward pass, and Lemma 4.9's N_A <= 2^L prod m_j */
  for (int t = 0; t < 30; t++) {
    int w[3] = {1 + (int)nnt_rng_below(&r, 6), 1 + (int)nnt_rng_below(&r, 6), 1 + (int)nnt_rng_below(&r, 6)};
    int nh = 1 + t % 3;
    nnt_mlp m;
    random_net(&m, &r, w, nh);
    check_pieces_vs_forward(&m, -4, 4, &r);
    nnt_approx_pwl_summary s;
    nnt_approx_pwl_summarize(&m, NULL, -INFINITY, INFINITY, &s);
    long bound = 1L << nh;
    for (int l = 0; l < nh; l++) bound *= w[l];
    CHECK_MSG(s.pieces <= bound, "N_A %ld > %ld", s.pieces, bound);
    /* f - f is identically zero: one piece */
    nnt_approx_pwl_summarize(&m, &m, -3, 3, &s);
    CHECK(s.pieces == 1 && s.sup_abs == 0);
    nnt_mlp_free(&m);
  }
  /* Lemma 4.11 as property tests: N_A(f - g) <= N_A(f) + N_A(g) - 1, N_A(f o g) <= N_A(f) N_A(g) */
  for (int t = 0; t < 40; t++) {
    int w1[2] = {1 + (int)nnt_rng_below(&r, 5), 1 + (int)nnt_rng_below(&r, 5)}, w2[1] = {1 + (int)nnt_rng_below(&r, 6)};
    nnt_mlp f, g, fg;
    random_net(&f, &r, w1, 1 + t % 2);
    random_net(&g, &r, w2, 1);
    nnt_approx_pwl_summary sf, sg, sd, sc;
    nnt_approx_pwl_summarize(&f, NULL, -INFINITY, INFINITY, &sf);
    nnt_approx_pwl_summarize(&g, NULL, -INFINITY, INFINITY, &sg);
    nnt_approx_pwl_summarize(&f, &g, -INFINITY, INFINITY, &sd);
    CHECK(sd.pieces <= sf.pieces + sg.pieces - 1);
    nnt_approx_net_compose(&fg, &g, &f); /* f(g(x)) */
    nnt_approx_pwl_summarize(&fg, NULL, -INFINITY, INFINITY, &sc);
    CHECK(sc.pieces <= sf.pieces * sg.pieces);
    for (int s2 = 0; s2 < 50; s2++) { /* the composition really is f o g */
      double x = 6 * nnt_rng_uniform(&r) - 3, y1, y2, y3;
      nnt_mlp_forward(&g, &x, &y1);
      nnt_mlp_forward(&f, &y1, &y2);
      nnt_mlp_forward(&fg, &x, &y3);
      CHECK(fabs(y2 - y3) <= 1e-9 * (1 + fabs(y2)));
    }
    nnt_mlp_free(&f), nnt_mlp_free(&g), nnt_mlp_free(&fg);
  }
  /* exact integrals vs a fine midpoint rule on a random net */
  {
    int w[2] = {5, 4};
    nnt_mlp m;
    random_net(&m, &r, w, 2);
    nnt_approx_pwl_summary s;
    nnt_approx_pwl_summarize(&m, NULL, -2, 3, &s);
    int N = 2000000;
    double I = 0, I1 = 0, I2 = 0;
    for (int k = 0; k < N; k++) {
      double x = -2 + 5 * (k + 0.5) / N, y;
      nnt_mlp_forward(&m, &x, &y);
      I += y, I1 += fabs(y), I2 += y * y;
    }
    CHECK_CLOSE(s.integral, I * 5 / N, 1e-6);
    CHECK_CLOSE(s.l1, I1 * 5 / N, 1e-6);
    CHECK_CLOSE(s.l2sq, I2 * 5 / N, 1e-6);
    nnt_mlp_free(&m);
  }
  TEST_MAIN_END();
}
