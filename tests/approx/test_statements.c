/* The bound-checking measurements of statements.c: each holds for the book's object and fails for a
 * faulty one (wrong init scale, biased signs, wrong depth or weight, wrong constant, broken
 * composition). */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_error.h"
#include "nnt_rng.h"
#include "nnt_test.h"

static double g_exp_target(const double *x, int d, void *ctx) {
  (void)ctx;
  return sin(2 * M_PI * x[0]) * (d == 2 ? cos(2 * x[1]) : 1);
}

static double g_lin(const double *x, int d, void *ctx) {
  double rho = *(double *)ctx, s = 0;
  for (int i = 0; i < d; i++) s += x[i];
  return rho * s / sqrt(d);
}

static void ft_gauss(const double *w, int d, void *ctx, double *re, double *im) {
  (void)d, (void)ctx;
  *re = exp(-M_PI * (w[0] * w[0] + w[1] * w[1])), *im = 0;
}
static double g_gshift(const double *x, int d, void *ctx) {
  (void)d, (void)ctx;
  return exp(-M_PI * ((x[0] - 0.3) * (x[0] - 0.3) + (x[1] + 0.2) * (x[1] + 0.2)));
}
/* closed form of its transform: e^{-pi |w|^2} e^{-2 pi i w.c} */
static void ft_gshift(const double *w, int d, void *ctx, double *re, double *im) {
  (void)d, (void)ctx;
  double m = exp(-M_PI * (w[0] * w[0] + w[1] * w[1])), ph = -2 * M_PI * (w[0] * 0.3 - w[1] * 0.2);
  *re = m * cos(ph), *im = m * sin(ph);
}
static void ft_gshift_nophase(const double *w, int d, void *ctx, double *re, double *im) {
  ft_gshift(w, d, ctx, re, im);
  *re = hypot(*re, *im), *im = 0;
}

static double fwd1(const nnt_mlp *m, double x) {
  double y;
  nnt_mlp_forward(m, &x, &y);
  return y;
}

/* faulty versions of Q15.2's field sign(v_1) e_2 */
static void field_minus_sign(const double *v, int d, void *ctx, double *Tv) {
  (void)ctx;
  for (int k = 0; k < d; k++) Tv[k] = k == 1 ? (v[0] > 0 ? -1 : 1) : 0;
}
static void field_half_sign(const double *v, int d, void *ctx, double *Tv) {
  (void)ctx;
  for (int k = 0; k < d; k++) Tv[k] = k == 1 ? (v[0] > 0 ? 0.5 : -0.5) : 0;
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 14, 0);
  /* Lemma 3.8: holds at sigma = 1; a 0.5x init scale breaks the bound, a 0.9x one the mean */
  {
    double deltas[2] = {0.01, 0.1};
    nnt_approx_lemma38_stats s;
    CHECK(nnt_approx_lemma38_measure(&r, 1000, 3, 0.2, deltas, 2, 400, 1, &s) == 1);
    CHECK(s.max_ratio < 1 && s.max_ratio > 0.5);
    CHECK_CLOSE(s.bound[0], 200 + sqrt(500 * log(100.0)), 1e-9);
    CHECK(nnt_approx_lemma38_measure(&r, 1000, 3, 0.2, deltas, 2, 400, 0.5, &s) == 0);
    CHECK_MSG(s.max_ratio > 1, "sigma 0.5: ratio %g", s.max_ratio);
    CHECK(nnt_approx_lemma38_measure(&r, 1000, 3, 0.2, deltas, 2, 400, 0.9, &s) == 0);
    CHECK_MSG(fabs(s.mean_z) > 5, "sigma 0.9: z %g", s.mean_z);
  }
  /* Lemma 3.15: exponent 1/2 with symmetric signs, about 1 with a_j = +1 */
  {
    int ms[3] = {16, 64, 256};
    double q99[3], slope;
    CHECK(nnt_approx_lemma315_scaling(&r, ms, 3, 5, 600, 0.5, q99, &slope) == 1);
    CHECK(nnt_approx_lemma315_scaling(&r, ms, 3, 5, 600, 1.0, q99, &slope) == 0);
    CHECK_MSG(slope > 0.7, "unsigned slope %g", slope);
  }
  /* Thm 4.4: Delta^{L^2+2} holds; one Delta short, or one weight off, fails */
  for (int L = 2; L <= 3; L++) {
    nnt_mlp f;
    nnt_approx_thm44_size_stats s;
    nnt_approx_build_delta(&f, L * L + 2);
    CHECK(nnt_approx_thm44_size_measure(&f, L, &s) == 1);
    CHECK(s.nodes == 3 * L * L + 6 && s.relu_layers == L * L + 2 && s.pieces == 1L << (L * L + 2));
    f.layers[1].W[0] *= 1.01; /* second Delta's first unit: extra pieces */
    CHECK(nnt_approx_thm44_size_measure(&f, L, &s) == 0);
    f.layers[1].W[0] /= 1.01;
    f.layers[f.nlayers - 1].W[0] *= 1.01; /* same breakpoints, wrong values */
    CHECK(nnt_approx_thm44_size_measure(&f, L, &s) == 0 && s.pieces == 1L << (L * L + 2) && s.bad_breaks > 0);
    nnt_mlp_free(&f);
    nnt_approx_build_delta(&f, L * L + 1);
    CHECK(nnt_approx_thm44_size_measure(&f, L, &s) == 0);
    nnt_mlp_free(&f);
  }
  /* Thm 4.6: the shifted h_i sits at exactly 32x the N_A form (l2 checked by midpoint quadrature
   * of the forward pass); a constant 40x too small makes it fail */
  for (int i = 1; i <= 6; i++) {
    nnt_mlp h;
    nnt_approx_build_square_shifted(&h, i);
    nnt_approx_thm46_stats s;
    CHECK(nnt_approx_thm46_measure(&h, 5760, &s) == 1);
    CHECK_CLOSE(s.ratio_na, 32, 1e-9);
    CHECK(s.pieces == 1L << i && s.L == i && s.N == 4 * i);
    double q = 0;
    int n = 200000;
    for (int k = 0; k < n; k++) {
      double x = (k + 0.5) / n, e = fwd1(&h, x) - x * x;
      q += e * e / n;
    }
    CHECK_MSG(fabs(q / s.l2sq - 1) < 1e-4, "i=%d quadrature %g exact %g", i, q, s.l2sq);
    CHECK(nnt_approx_thm46_measure(&h, 5760.0 / 40, &s) == 0);
    nnt_mlp_free(&h);
  }
  /* Lemma 4.11: the composed and summed nets match the counts by hand; a moved kink in either fails */
  int faulted = 0;
  for (int k = 0; k < 20; k++) {
    int L = 1 + k % 2, wf[2] = {1 + k % 5, 3}, wg[2] = {2 + k % 4, 2};
    nnt_mlp f, g, fg, fpg;
    nnt_approx_random_1d_net(&f, &r, wf, L);
    nnt_approx_random_1d_net(&g, &r, wg, L);
    nnt_approx_net_compose(&fg, &g, &f);
    nnt_approx_net_sum(&fpg, &f, &g);
    for (int s = 0; s < 50; s++) { /* the networks are what they claim to be */
      double x = 4 * nnt_rng_uniform(&r) - 2;
      CHECK(fabs(fwd1(&fg, x) - fwd1(&f, fwd1(&g, x))) < 1e-9 * (1 + fabs(fwd1(&fg, x))));
      CHECK(fabs(fwd1(&fpg, x) - fwd1(&f, x) - fwd1(&g, x)) < 1e-9 * (1 + fabs(fwd1(&fpg, x))));
    }
    nnt_approx_lemma411_stats s;
    CHECK(nnt_approx_lemma411_measure(&f, &g, &fg, &fpg, &s) == 1);
    CHECK(s.na_fg == s.na_fg_ref && s.na_sum == s.na_sum_ref && s.na_fg <= s.na_f * s.na_g);
    /* x -> 1.05 x in front of either: every kink but one at 0 moves (when there is a kink) */
    long kinks_fg = s.na_fg - 1, kinks_sum = s.na_sum - 1;
    if (kinks_fg) {
      for (int u = 0; u < fg.layers[0].out; u++) fg.layers[0].W[u] *= 1.05;
      CHECK(nnt_approx_lemma411_measure(&f, &g, &fg, &fpg, &s) == 0);
      for (int u = 0; u < fg.layers[0].out; u++) fg.layers[0].W[u] /= 1.05;
      faulted++;
    }
    if (kinks_sum) {
      for (int u = 0; u < fpg.layers[0].out; u++) fpg.layers[0].W[u] *= 1.05;
      CHECK(nnt_approx_lemma411_measure(&f, &g, &fg, &fpg, &s) == 0);
      faulted++;
    }
    nnt_mlp_free(&f), nnt_mlp_free(&g), nnt_mlp_free(&fg), nnt_mlp_free(&fpg);
  }
  CHECK_MSG(faulted >= 25, "only %d faulted pairs", faulted);
  /* grid DP for the best fits of Delta^2 (grid k/8, values k/4) against brute force over every
   * breakpoint set and value assignment, integrated by midpoint quadrature of the closed form */
  {
    enum { N = 2, G = 9, V = 5, P = 4 };
    double l1[P];
    nnt_mlp fits[P];
    CHECK(nnt_approx_sep_grid_fit(N, P, V, l1, fits) == 0);
    for (int p = 1; p <= P; p++) {
      double brute = INFINITY;
      for (int mask = 0; mask < 1 << (G - 2) && p < P; mask++) { /* interior breakpoints (p = 4: below) */
        if (__builtin_popcount(mask) != p - 1) continue;
        double xs[P + 1];
        int nk = 0;
        xs[nk++] = 0;
        for (int k = 1; k < G - 1; k++)
          if (mask >> (k - 1) & 1) xs[nk++] = k / 8.0;
        xs[nk++] = 1;
        int tot = 1;
        for (int k = 0; k < nk; k++) tot *= V;
        for (int code = 0; code < tot; code++) {
          double ys[P + 1];
          for (int k = 0, c = code; k < nk; k++, c /= V) ys[k] = (c % V) / (V - 1.0);
          double e = 0;
          int q = 1024, seg = 0;
          for (int i = 0; i < q; i++) {
            double x = (i + 0.5) / q;
            while (x > xs[seg + 1]) seg++;
            double y = ys[seg] + (ys[seg + 1] - ys[seg]) * (x - xs[seg]) / (xs[seg + 1] - xs[seg]);
            e += fabs(nnt_approx_delta_pow_closed(N, x) - y) / q;
          }
          brute = fmin(brute, e);
        }
      }
      if (p < P) CHECK_MSG(fabs(brute - l1[p - 1]) < 1e-5, "p=%d brute %g dp %g", p, brute, l1[p - 1]);
      nnt_approx_sep_result sr;
      CHECK(nnt_approx_sep_check(&fits[p - 1], N, &sr) == 0);
      CHECK_CLOSE(sr.l1, l1[p - 1], 1e-12);
      CHECK(sr.pieces <= p && sr.l1 >= sr.lb);
      nnt_mlp_free(&fits[p - 1]);
    }
    CHECK(l1[P - 1] < 1e-15); /* 2^N pieces: Delta^2 itself */
    CHECK(nnt_approx_sep_grid_fit(7, 4, 9, l1, NULL) == NNT_EINVAL);
  }
  /* Lemma 2.7: the exp fit reaches 1e-3 in d = 1, 2; its sup agrees with random points; with all
   * v_j = 0 (constants only) it cannot get below 0.9 */
  for (int d = 1; d <= 2; d++) {
    int K = d == 1 ? 8 : 10;
    double a[121];
    double sup = nnt_approx_exp_fit(d, K, 1, g_exp_target, NULL, a), rs = 0, x[2];
    CHECK_MSG(sup < 1e-3, "d=%d sup %g", d, sup);
    for (int s = 0; s < 2000; s++) {
      x[0] = nnt_rng_uniform(&r), x[1] = nnt_rng_uniform(&r);
      double f = 0;
      for (int j = 0; j < (d == 1 ? K + 1 : (K + 1) * (K + 1)); j++)
        f += a[j] * exp(j % (K + 1) * x[0] + (d == 2 ? j / (K + 1) * x[1] : 0));
      rs = fmax(rs, fabs(f - g_exp_target(x, d, NULL)));
    }
    CHECK_MSG(rs <= 1.5 * sup && rs > 0.2 * sup, "d=%d random %g grid %g", d, rs, sup);
    double s0 = nnt_approx_exp_fit(d, K, 0, g_exp_target, NULL, a);
    CHECK_MSG(s0 > 0.9, "d=%d constants only: %g", d, s0);
  }
  /* Thm 2.3 sparse, d = 3: holds; the draft's k, a shifted trapezoid and 2% output weights fail; the
   * dense builder is this net expanded, with the same outputs */
  {
    double rho = 1, eps = 0.1;
    int d = 3, k = nnt_approx_box_k(rho, eps, d, 0);
    nnt_smlp m;
    nnt_approx_thm23_stats s;
    double gamma = nnt_approx_build_boxes_sparse(&m, g_lin, &rho, d, k, eps);
    CHECK(nnt_approx_thm23_measure(&m, d, k, gamma, eps, g_lin, &rho, &r, 1000, &s) == 1);
    CHECK(k == 18 && s.relus == 12 * 18 + 18 * 18 * 18 && s.nnz_box == 12L * 18 * 18 * 18 && s.sup > 0.9 * eps);
    nnt_mlp dense;
    nnt_approx_build_boxes(&dense, g_lin, &rho, d, k, eps);
    double X[300], Ys[100], Yd[100];
    for (int i = 0; i < 300; i++) X[i] = nnt_rng_uniform(&r);
    nnt_smlp_forward_batch(&m, 100, X, Ys);
    for (int i = 0; i < 100; i++) nnt_mlp_forward(&dense, X + 3 * i, &Yd[i]); /* the unbatched pass: same order */
    for (int i = 0; i < 100; i++) CHECK(Ys[i] == Yd[i]);
    nnt_mlp_free(&dense);
    m.layers[0].b[1] += 0.5; /* axis 0, first interval: its cubes' indicator is wrong */
    CHECK(nnt_approx_thm23_measure(&m, d, k, gamma, eps, g_lin, &rho, &r, 1000, &s) == 0 && s.dev > 0.01);
    m.layers[0].b[1] -= 0.5;
    for (long e = 0; e < m.layers[2].nnz; e++) m.layers[2].val[e] *= 1.02;
    CHECK(nnt_approx_thm23_measure(&m, d, k, gamma, eps, g_lin, &rho, &r, 1000, &s) == 0);
    nnt_smlp_free(&m);
    int kd = nnt_approx_box_k(rho, eps, d, 1);
    gamma = nnt_approx_build_boxes_sparse(&m, g_lin, &rho, d, kd, eps);
    CHECK(nnt_approx_thm23_measure(&m, d, kd, gamma, eps, g_lin, &rho, &r, 1000, &s) == 0 && s.sup > eps);
    nnt_smlp_free(&m);
  }
  /* Barron sampler from a tabulated g~: the Gaussian's table has the exact sampler's mass; the shifted
   * Gaussian (complex g~) holds; a density without the |w| factor or a g~ without its phase fails */
  {
    nnt_approx_barron_table T;
    nnt_approx_barron_table_build(&T, 2, 80, 2.5, ft_gauss, NULL); /* h = 1/16 */
    CHECK_MSG(fabs(T.mass - nnt_approx_barron_gauss_mass(2)) < 5e-4, "table %g quadrature %g", T.mass,
              nnt_approx_barron_gauss_mass(2));
    CHECK_CLOSE(T.mass_bound, 2 * M_PI, 1e-4); /* midpoint rule over the kink of |w| at 0 */
    nnt_approx_barron_table_free(&T);
    static const int ns[3] = {10, 100, 1000};
    nnt_approx_barron_maurey_stats st;
    nnt_approx_barron_table_build(&T, 2, 80, 2.5, ft_gshift, NULL);
    CHECK(nnt_approx_barron_maurey_measure(&T, g_gshift, NULL, &r, ns, 3, 10, 200, &st) == 1);
    double acc = 0, w[2];
    for (long c = 0; c < T.cells; c++) acc += T.amp[c], T.cdf[c] = acc; /* density |g~| alone */
    for (long c = 0; c < T.cells; c++) T.cdf[c] /= acc;
    CHECK(nnt_approx_barron_maurey_measure(&T, g_gshift, NULL, &r, ns, 3, 10, 200, &st) == 0);
    CHECK_MSG(st.slope > -0.4, "wrong density: slope %g", st.slope);
    nnt_approx_barron_table_free(&T);
    nnt_approx_barron_table_build(&T, 2, 80, 2.5, ft_gshift_nophase, NULL);
    CHECK(nnt_approx_barron_maurey_measure(&T, g_gshift, NULL, &r, ns, 3, 10, 200, &st) == 0);
    CHECK_MSG(st.slope > -0.4, "no phase: slope %g", st.slope);
    nnt_approx_barron_table_free(&T);
    w[0] = 0.7, w[1] = -1.1; /* the quadrature g~ against the closed form e^{-pi|w|^2 - 2 pi i w.c} */
    double re, im, ph = -2 * M_PI * (w[0] * 0.3 - w[1] * 0.2), mod = exp(-M_PI * (w[0] * w[0] + w[1] * w[1]));
    ft_gshift(w, 2, NULL, &re, &im);
    CHECK(fabs(re - mod * cos(ph)) < 1e-12 && fabs(im - mod * sin(ph)) < 1e-12);
  }
  /* Thm 2.5: Lemma 2.7's lattice exp net (K = 7) through step 2 holds; one exp unit's ReLU weights 1%
   * off, an output bias 0.06 off, or the knots for an eps 10^4 too large fail (shifted or mis-sloped
   * knots would not: they change every p(v_j.x) alike and cancel in sum_j a_j p, |f - h| ~ 100x below
   * its bound) */
  {
    double V[8], a[8], eps = 0.1;
    for (int j = 0; j < 8; j++) V[j] = j;
    CHECK(nnt_approx_exp_fit_v(1, 8, V, 32, g_exp_target, NULL, a) <= eps / 2);
    nnt_mlp f;
    nnt_approx_thm25_stats s;
    long n = nnt_approx_thm25_relu(&f, 1, 8, V, a, eps);
    CHECK(f.layers[0].out == 7 * n && n > 1000);
    CHECK(nnt_approx_thm25_measure(&f, 1, 8, V, a, g_exp_target, NULL, eps, 401, &s) == 1 && s.relus == 7 * n);
    for (long u = 2 * n; u < 3 * n; u++) f.layers[1].W[u] *= 1.01; /* v = 3 */
    CHECK(nnt_approx_thm25_measure(&f, 1, 8, V, a, g_exp_target, NULL, eps, 401, &s) == 0 && s.sup_h > eps / 2);
    for (long u = 2 * n; u < 3 * n; u++) f.layers[1].W[u] /= 1.01;
    f.layers[1].b[0] += 0.06;
    CHECK(nnt_approx_thm25_measure(&f, 1, 8, V, a, g_exp_target, NULL, eps, 401, &s) == 0);
    nnt_mlp_free(&f);
    nnt_approx_thm25_relu(&f, 1, 8, V, a, 1e4 * eps);
    CHECK(nnt_approx_thm25_measure(&f, 1, 8, V, a, g_exp_target, NULL, eps, 401, &s) == 0);
    nnt_mlp_free(&f);
    CHECK(nnt_approx_thm25_relu(&f, 1, 8, V, a, 1e-9) == -1); /* 7 x 2.8e7 knots */
    a[3] = NAN;
    CHECK(nnt_approx_thm25_relu(&f, 1, 8, V, a, eps) == -1);
  }

  /* Q15.2, Thm 3.14 for bounded fields: each case passes; a field with the wrong sign, a field
   * half as large, and the draft's rho^2 scaling taken as the answer all fail */
  {
    nnt_rng r;
    nnt_rng_init(&r, 15, 2);
    nnt_approx_transport_case tc[3];
    nnt_approx_check_transport_fields(&r, 100000, tc);
    for (int i = 0; i < 3; i++) CHECK_MSG(nnt_approx_transport_case_pass(&tc[i]), "%s: %g vs %g", tc[i].name, tc[i].mc, tc[i].exact);
    double phi = M_PI / 3, xs[3] = {cos(phi), sin(phi), 0};
    nnt_approx_transport_case bad = tc[1];
    bad.mc = nnt_approx_transport_field(&r, 100000, 3, field_minus_sign, NULL, xs, &bad.se, &bad.draft);
    CHECK(!nnt_approx_transport_case_pass(&bad));
    bad.mc = nnt_approx_transport_field(&r, 100000, 3, field_half_sign, NULL, xs, &bad.se, &bad.draft);
    CHECK(!nnt_approx_transport_case_pass(&bad));
    for (int i = 0; i < 3; i++) {
      bad = tc[i], bad.mc = tc[i].draft;
      CHECK(!nnt_approx_transport_case_pass(&bad));
    }
  }
  TEST_MAIN_END();
}
