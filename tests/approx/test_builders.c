/* Builders against independent references: closed forms, exhaustive inputs, exact PWL sweeps. */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_rng.h"
#include "nnt_test.h"

static double fwd1(const nnt_mlp *m, double x) {
  double y;
  nnt_mlp_forward(m, &x, &y);
  return y;
}

static double g_sin(double x, void *ctx) {
  (void)ctx;
  return sin(x);
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 11, 0);
  /* Delta^L: network == Delta(<2^{L-1} x>) bit for bit on [0,1]; 3L ReLUs; Delta^22 has 2^22 pieces */
  for (int L = 1; L <= 20; L++) {
    nnt_mlp d;
    nnt_approx_build_delta(&d, L);
    double worst = 0;
    for (int s = 0; s < 2000; s++) {
      double x = s % 2 ? nnt_rng_uniform(&r) : ldexp((double)nnt_rng_below(&r, 1u << 26), -26);
      worst = fmax(worst, fabs(fwd1(&d, x) - nnt_approx_delta_pow_closed(L, x)));
    }
    CHECK_MSG(worst == 0, "L=%d err %g", L, worst);
    CHECK(nnt_mlp_stats_of(&d).hidden_units == 3L * L);
    nnt_mlp_free(&d);
  }
  {
    nnt_mlp d;
    nnt_approx_build_delta(&d, 22);
    nnt_approx_pwl_summary s;
    CHECK(nnt_approx_pwl_summarize(&d, NULL, 0, 1, &s) == 0);
    CHECK(s.pieces == 1L << 22);
    CHECK_CLOSE(s.integral, 0.5, 1e-13);
    nnt_mlp_free(&d);
  }
  /* h_i: sup error exactly 4^{-i-1} at the midpoints, h_i >= x^2 off the dyadic grid, i <= 20 */
  for (int i = 0; i <= 20; i++) {
    nnt_mlp h;
    nnt_approx_build_square(&h, i);
    double want = pow(4, -i - 1), worst_mid = 0, min_gap = INFINITY, worst_cf = 0;
    for (int s = 0; s < 2000; s++) {
      double k = (double)nnt_rng_below(&r, 1ull << i), x = (2 * k + 1) / ldexp(1, i + 1);
      worst_mid = fmax(worst_mid, fabs((fwd1(&h, x) - x * x) / want - 1));
      double u = nnt_rng_uniform(&r);
      min_gap = fmin(min_gap, fwd1(&h, u) - u * u);
      worst_cf = fmax(worst_cf, fabs(fwd1(&h, u) - nnt_approx_square_closed(i, u)));
    }
    CHECK_MSG(worst_mid < 1e-12, "i=%d midpoint rel err %g", i, worst_mid);
    CHECK_MSG(min_gap >= -4e-16, "i=%d h - x^2 = %g", i, min_gap);
    CHECK(worst_cf == 0);
    if (i) CHECK(nnt_mlp_stats_of(&h).hidden_units == 4L * i && h.nlayers == i + 1);
    nnt_mlp_free(&h);
  }
  /* parity on all 2^16 inputs (corrected), and the draft formula's 49,280 failures */
  {
    nnt_mlp p, q;
    nnt_approx_build_parity(&p, 16, 0);
    nnt_approx_build_parity(&q, 16, 1);
    long bad = 0, bad_draft = 0;
    double x[16], y;
    for (long mask = 0; mask < 1L << 16; mask++) {
      int par = 1;
      for (int i = 0; i < 16; i++) x[i] = (mask >> i) & 1 ? 1 : -1, par *= (int)x[i];
      nnt_mlp_forward(&p, x, &y);
      bad += y != par;
      nnt_mlp_forward(&q, x, &y);
      bad_draft += y != par;
    }
    CHECK(bad == 0);
    CHECK(bad_draft == 49280);
    nnt_mlp_free(&p), nnt_mlp_free(&q);
  }
  /* products: |prod - xy| <= 4^{-i}, zero on the axes (up to rounding), signed variant */
  for (int i = 1; i <= 8; i += 3) {
    nnt_mlp p, ps, pd;
    nnt_approx_build_product(&p, i, 0);
    nnt_approx_build_product(&ps, i, 1);
    nnt_approx_build_product_draft(&pd, i);
    double worst = 0, worst_s = 0, axis = 0, x[2], y;
    for (int s = 0; s < 5000; s++) {
      x[0] = nnt_rng_uniform(&r), x[1] = s % 10 ? nnt_rng_uniform(&r) : 0;
      nnt_mlp_forward(&p, x, &y);
      worst = fmax(worst, fabs(y - x[0] * x[1]));
      if (x[1] == 0) axis = fmax(axis, fabs(y));
      x[0] = 2 * x[0] - 1, x[1] = 2 * nnt_rng_uniform(&r) - 1;
      nnt_mlp_forward(&ps, x, &y);
      worst_s = fmax(worst_s, fabs(y - x[0] * x[1]));
    }
    CHECK(worst <= pow(4, -i) && worst_s <= pow(4, -i) && axis <= 1e-15);
    x[0] = ldexp(1, -i), x[1] = 0;
    nnt_mlp_forward(&pd, x, &y);
    CHECK_CLOSE(y, 0.5 * pow(4, -i), 1e-12); /* the draft's product is not 0 on the axis */
    nnt_mlp_free(&p), nnt_mlp_free(&ps), nnt_mlp_free(&pd);
  }
  /* l-fold product with clipping, monomial of x - v */
  {
    nnt_mlp p, mono;
    nnt_approx_build_product_l(&p, 6, 4, 0);
    int alpha[2] = {2, 1};
    double v[2] = {0.3, 0.6};
    nnt_approx_build_monomial(&mono, 2, alpha, v, 8);
    double worst = 0, wm = 0, x[4], y;
    for (int s = 0; s < 3000; s++) {
      double want = 1;
      for (int i = 0; i < 4; i++) x[i] = nnt_rng_uniform(&r), want *= x[i];
      nnt_mlp_forward(&p, x, &y);
      worst = fmax(worst, fabs(y - want));
      nnt_mlp_forward(&mono, x, &y);
      wm = fmax(wm, fabs(y - (x[0] - v[0]) * (x[0] - v[0]) * (x[1] - v[1])));
    }
    CHECK(worst <= 3 * pow(4, -6));
    CHECK(wm <= 2 * pow(4, -8));
    nnt_mlp_free(&p), nnt_mlp_free(&mono);
  }
  /* Prop 2.1 threshold net: equality at the knots b_i, sup error <= eps off the grid */
  {
    nnt_mlp m;
    double eps = 0.01;
    nnt_approx_build_steps(&m, g_sin, NULL, 2 * M_PI, eps);
    double worst = 0, knot = 0;
    for (int i = 0; i < m.layers[0].out; i++) {
      double b = -m.layers[0].b[i];
      knot = fmax(knot, fabs(fwd1(&m, b) - g_sin(b, NULL)));
    }
    for (int s = 0; s < 20000; s++) {
      double x = nnt_rng_uniform(&r);
      worst = fmax(worst, fabs(fwd1(&m, x) - g_sin(x, NULL)));
    }
    CHECK(knot < 1e-12);
    CHECK(worst <= eps);
    nnt_mlp_free(&m);
  }
  /* composition merges affine layers: compose(affine, Delta^3) has the same hidden layers */
  {
    nnt_mlp a, d, c;
    double w = 0.5, b = 0.25;
    nnt_approx_net_affine(&a, 1, 1, &w, &b);
    nnt_approx_build_delta(&d, 3);
    nnt_approx_net_compose(&c, &a, &d);
    CHECK(c.nlayers == d.nlayers);
    for (int s = 0; s < 100; s++) {
      double x = nnt_rng_uniform(&r);
      CHECK(fabs(fwd1(&c, x) - nnt_approx_delta_pow_closed(3, 0.5 * x + 0.25)) < 1e-13);
    }
    nnt_mlp_free(&a), nnt_mlp_free(&d), nnt_mlp_free(&c);
  }
  TEST_MAIN_END();
}
