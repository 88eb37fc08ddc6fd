/* Samplers and near-initialisation helpers against independent references: exact L2 vs a dense
 * midpoint rule, closed-form NTK vs Monte Carlo, the adversarial gap vs direct evaluation. */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_rng.h"
#include "nnt_test.h"

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 3, 0);
  /* exact ||f - sin 2 pi x||^2 vs a 10^6-point midpoint rule */
  for (int t = 0; t < 3; t++) {
    int k = 5 + 20 * t;
    double b[100], a[100];
    nnt_approx_sample_sin_thresholds(&r, k, b, a);
    double exact = nnt_approx_sin_threshold_l2sq(k, b, a), mid = 0;
    int N = 1000000;
    for (int i = 0; i < N; i++) {
      double x = (i + 0.5) / N, f = 0;
      for (int j = 0; j < k; j++) f += a[j] * (x >= b[j]);
      mid += (f - sin(2 * M_PI * x)) * (f - sin(2 * M_PI * x)) / N;
    }
    CHECK_CLOSE(exact, mid, 1e-4);
    for (int j = 0; j < k; j++) CHECK(b[j] >= 0 && b[j] <= 1 && fabs(fabs(a[j]) * k - 4) < 1e-12);
  }
  /* closed-form NTK vs Monte Carlo at m = 2e5 (5 standard errors) */
  {
    int d = 4, n = 6;
    double X[24], Y[24], km[6];
    for (int p = 0; p < n; p++) nnt_approx_random_unit(&r, d, X + p * d), nnt_approx_random_unit(&r, d, Y + p * d);
    long m = 200000;
    nnt_approx_ntk_km(&r, m, d, n, X, Y, km);
    for (int p = 0; p < n; p++) {
      double kinf = nnt_approx_ntk_kinf(X + p * d, Y + p * d, d), xy = 0;
      for (int i = 0; i < d; i++) xy += X[p * d + i] * Y[p * d + i];
      double prob = kinf / xy, se = fabs(xy) * sqrt(prob * (1 - prob) / m);
      CHECK_MSG(fabs(km[p] - kinf) <= 5 * se + 1e-12, "pair %d: %g vs %g (se %g)", p, km[p], kinf, se);
    }
    CHECK(fabs(nnt_approx_ntk_kinf(X, X, d) - 0.5) < 1e-15);
  }
  /* Prop 3.7 adversarial gap: formula (sum |z_j|) equals direct evaluation of F and its linearisation */
  {
    double direct, gap = nnt_approx_relu_adversarial_gap(&r, 5000, 1, &direct);
    CHECK_CLOSE(gap, direct, 1e-12);
    CHECK(gap <= nnt_approx_prop37_bound(5000, 1, 0.1));
  }
  /* Barron Gaussian mass: polar quadrature vs the integrated-by-parts form, below 2 pi */
  CHECK_CLOSE(nnt_approx_barron_gauss_mass(2), nnt_approx_barron_gauss_mass_2d_parts(), 1e-8);
  CHECK(nnt_approx_barron_gauss_mass(2) < 2 * M_PI);
  /* the Barron sampler is unbiased for g(x) - g(0) at a point (mean of 400 nets of 200 units) */
  {
    double x[2] = {0.3, -0.4}, M = nnt_approx_barron_gauss_mass(2), s = 0, s2 = 0, W[400], bb[200], sg[200];
    int T = 400;
    for (int t = 0; t < T; t++) {
      nnt_approx_sample_barron_gauss(&r, 2, 200, W, bb, sg);
      double f = 0;
      for (int k = 0; k < 200; k++) f += sg[k] * (W[2 * k] * x[0] + W[2 * k + 1] * x[1] >= bb[k]);
      f *= M / 200;
      s += f, s2 += f * f;
    }
    double mean = s / T, se = sqrt((s2 / T - mean * mean) / T), want = exp(-M_PI * 0.25) - 1;
    CHECK_MSG(fabs(mean - want) <= 5 * se, "%g vs %g (se %g)", mean, want, se);
  }
  /* planting: F(x;V) = F0(x;V), the proof's displacement, |U_i| = floor(m tau_d) */
  {
    double beta[4] = {1, 0, -1, 0}, alpha[2] = {1, -0.5};
    nnt_approx_plant_result p;
    nnt_approx_plant(&r, 2, beta, alpha, 0.3, 0.5, 20, &p, 0, NULL, NULL, NULL);
    CHECK(p.max_F_F0_rel < 1e-12);
    CHECK(p.min_S >= p.usz);
    CHECK_CLOSE(p.rowmax, p.rowmax_proof, 1e-12);
    CHECK(p.max_excess <= 0);
  }
  TEST_MAIN_END();
}
