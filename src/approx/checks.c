/* checks.c — `nnt approx check`: every checkable statement of the spec's table (Q1..Q37), each
 * measured against an independent reference (network forward pass vs exact PWL engine, closed forms
 * vs Monte Carlo). A row's PASS means the proven statement (in its corrected form) holds; rows
 * flagged erratum also measure the draft's form and require it to be wrong as the spec says. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_error.h"
#include "nnt_progress.h"

/* The larger / smaller of two measurements, NaN if either is NaN: fmax and fmin skip a NaN, so a
 * construction that outputs NaN would measure error 0 and pass. */
static double max_nan(double a, double b) { return a != a || b != b ? NAN : a > b ? a : b; }
static double min_nan(double a, double b) { return a != a || b != b ? NAN : a < b ? a : b; }

static nnt_approx_check_row *row(nnt_approx_check_result *t, const char *id, const char *ref, const char *claim) {
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 32;
    t->rows = nnt_xrealloc(t->rows, sizeof *t->rows * t->cap);
  }
  nnt_approx_check_row *r = &t->rows[t->n++];
  memset(r, 0, sizeof *r);
  snprintf(r->id, sizeof r->id, "%s", id);
  snprintf(r->ref, sizeof r->ref, "%s", ref);
  snprintf(r->claim, sizeof r->claim, "%s", claim);
  return r;
}

#define SET(field, ...) snprintf(r->field, sizeof r->field, __VA_ARGS__)

void nnt_approx_check_result_free(nnt_approx_check_result *t) {
  free(t->rows);
  t->rows = NULL, t->n = t->cap = t->fails = 0;
}

static double fwd1(const nnt_mlp *m, double x) {
  double y;
  nnt_mlp_forward(m, &x, &y);
  return y;
}

/* ------------------------------------------------------------------ chapter 2 */

static double g_q1(double x, void *ctx) {
  (void)ctx;
  return sin(7 * x) + 0.5 * fabs(x - 0.3);
}

static void q1(nnt_approx_check_result *t, nnt_rng *rg) {
  static const double eps[3] = {0.5, 0.05, 0.005};
  for (int e = 0; e < 3; e++) {
    nnt_mlp m;
    nnt_approx_build_steps(&m, g_q1, NULL, 7.5, eps[e]);
    int n = m.layers[0].out;
    double sup = 0, knot = 0;
    for (int s = 0; s < 200000; s++) { /* off-grid sweep */
      double x = (s + nnt_rng_uniform(rg)) / 200000;
      sup = max_nan(sup, fabs(fwd1(&m, x) - g_q1(x, NULL)));
    }
    for (int i = 0; i < n; i++) {
      double b = -m.layers[0].b[i];
      knot = max_nan(knot, fabs(fwd1(&m, b) - g_q1(b, NULL)));
      /* just left of the next knot: the worst case of the step approximation */
      double x = min_nan(1, b + eps[e] / 7.5) * (1 - 1e-12);
      sup = max_nan(sup, fabs(fwd1(&m, x) - g_q1(x, NULL)));
    }
    char id[24];
    snprintf(id, sizeof id, "Q1.%d", e + 1);
    nnt_approx_check_row *r = row(t, id, "Prop 2.1", "");
    SET(claim, "threshold net, rho=7.5, eps=%g: sup|f-g| <= eps, f=g at knots", eps[e]);
    SET(bound, "%g", eps[e]);
    SET(measured, "sup %.4f (m=%d), knots %.1e", sup, n, knot);
    r->pass = sup <= eps[e] && knot < 1e-12;
    nnt_mlp_free(&m);
  }
}

static double g_lin(const double *x, int d, void *ctx) {
  double rho = *(double *)ctx, s = 0;
  for (int i = 0; i < d; i++) s += x[i];
  return rho * s / sqrt(d);
}

/* sup over points 1.5 gamma inside the upper corner of their cell (where the net equals the
 * lower-corner value a_j), and Monte-Carlo L1; batched through the network's forward pass */
static void box_errors(const nnt_mlp *m, int d, int k, double gamma, nnt_approx_fnd g, void *ctx, nnt_rng *rg, int npts,
                       double *sup, double *l1) {
  double *X = nnt_xmalloc(sizeof(double) * 2 * npts * d), *Y = nnt_xmalloc(sizeof(double) * 2 * npts);
  for (int s = 0; s < npts; s++) {
    double *x = X + (size_t)s * d, *c = X + (size_t)(npts + s) * d;
    for (int i = 0; i < d; i++) {
      x[i] = nnt_rng_uniform(rg);
      c[i] = (floor(x[i] * k) + 1) / k - 1.5 * gamma;
    }
  }
  nnt_mlp_forward_batch(m, 2 * npts, X, Y);
  *sup = 0, *l1 = 0;
  for (int s = 0; s < npts; s++) {
    *l1 += fabs(Y[s] - g(X + (size_t)s * d, d, ctx)) / npts;
    *sup = max_nan(*sup, fabs(Y[npts + s] - g(X + (size_t)(npts + s) * d, d, ctx)));
  }
  free(X), free(Y);
}

static double g_sincos(const double *x, int d, void *ctx) {
  (void)d, (void)ctx;
  return sin(3 * x[0]) * cos(2 * x[1]);
}

static void q2(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  double rho = 1, eps = 0.05, sup_c, l1_c, sup_d, l1_d;
  int d = 2, kc = nnt_approx_box_k(rho, eps, d, 0), kd = nnt_approx_box_k(rho, eps, d, 1);
  nnt_mlp mc, md;
  double gc = nnt_approx_build_boxes(&mc, g_lin, &rho, d, kc, eps), gd = nnt_approx_build_boxes(&md, g_lin, &rho, d, kd, eps);
  box_errors(&mc, d, kc, gc, g_lin, &rho, rg, quick ? 2000 : 20000, &sup_c, &l1_c);
  box_errors(&md, d, kd, gd, g_lin, &rho, rg, quick ? 2000 : 20000, &sup_d, &l1_d);
  nnt_approx_check_row *r = row(t, "Q2.1", "Thm 2.3", "box net, g=<1,x>/sqrt(d), eps=0.05, d=2: error <= eps inside cells, L1 <= 2eps");
  SET(bound, "%g / %g", eps, 2 * eps);
  SET(measured, "k=%d: sup %.4f, L1 %.4f", kc, sup_c, l1_c);
  /* the draft's grid in d = 3, 4 (networks small enough to build densely): error ~ sqrt(d)/k_draft */
  double sup3, sup4, l1x;
  nnt_mlp m3, m4;
  int k3 = nnt_approx_box_k(rho, eps, 3, 1), k4 = nnt_approx_box_k(rho, eps, 4, 1);
  double g3 = nnt_approx_build_boxes(&m3, g_lin, &rho, 3, k3, eps);
  box_errors(&m3, 3, k3, g3, g_lin, &rho, rg, quick ? 500 : 2000, &sup3, &l1x);
  nnt_mlp_free(&m3);
  double g4 = nnt_approx_build_boxes(&m4, g_lin, &rho, 4, k4, eps);
  box_errors(&m4, 4, k4, g4, g_lin, &rho, rg, quick ? 300 : 1000, &sup4, &l1x);
  nnt_mlp_free(&m4);
  SET(note, "draft k=ceil(rho/(eps sqrt d)) (%d, %d, %d for d=2,3,4) gives %.3f, %.3f, %.3f > eps; fix k=ceil(rho sqrt(d)/eps)",
      kd, k3, k4, sup_d, sup3, sup4);
  r->erratum = 1;
  r->pass = sup_c <= eps && l1_c <= 2 * eps && sup_d > eps && sup3 > eps && sup4 > eps;
  nnt_mlp_free(&mc), nnt_mlp_free(&md);
  /* the spec's sin example: k = 51, 2601 cubes, 408 shared first-layer ReLUs */
  double eps2 = 0.1, r13 = sqrt(13);
  int k2 = nnt_approx_box_k(r13, eps2, 2, 0);
  nnt_mlp m2;
  double g2 = nnt_approx_build_boxes(&m2, g_sincos, NULL, 2, k2, eps2);
  double s2, L2;
  box_errors(&m2, 2, k2, g2, g_sincos, NULL, rg, quick ? 1000 : 10000, &s2, &L2);
  nnt_mlp_stats st = nnt_mlp_stats_of(&m2);
  r = row(t, "Q2.2", "Thm 2.3", "g=sin3x cos2y, rho=sqrt13, eps=0.1: L1 <= 2eps (MC, net forward)");
  SET(bound, "%g", 2 * eps2);
  SET(measured, "L1 %.4f; k=%d, %ld ReLUs (%d shared), gamma %.3g", L2, k2, st.hidden_units, m2.layers[0].out, g2);
  r->pass = L2 <= 2 * eps2;
  nnt_mlp_free(&m2);
  /* Q3: one box bump = 1 on its cube, 0 outside the gamma-box */
  r = row(t, "Q3", "Thm 2.3 bump", "f_gamma = 1 on R_j, 0 outside the gamma-box (net forward)");
  nnt_mlp one;
  double gm = nnt_approx_build_boxes(&one, g_lin, &rho, 2, 4, 0.05), worst = 0, x[2];
  /* keep only cube j = 5 (cell (1,1)): output weight 1 */
  for (int j = 0; j < 16; j++) one.layers[2].W[j] = j == 5;
  for (int s = 0; s < 20000; s++) {
    x[0] = nnt_rng_uniform(rg), x[1] = nnt_rng_uniform(rg);
    double y, want = -1;
    nnt_mlp_forward(&one, x, &y);
    int in = x[0] >= 0.25 && x[0] <= 0.5 && x[1] >= 0.25 && x[1] <= 0.5;
    int out = x[0] < 0.25 - gm || x[0] > 0.5 + gm || x[1] < 0.25 - gm || x[1] > 0.5 + gm;
    if (in) want = 1;
    if (out) want = 0;
    if (want >= 0) worst = max_nan(worst, fabs(y - want));
  }
  SET(bound, "0");
  SET(measured, "max deviation %.2e (gamma %.3g)", worst, gm);
  r->pass = worst < 1e-12;
  nnt_mlp_free(&one);
}

/* Thm 2.3 for d = 3, 4 as sparse nets (the dense box layer would be k^d x 4dk) */
static void q35(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  double rho = 1, eps[2] = {quick ? 0.05 : 0.03, 0.1};
  int ok = 1;
  char meas[160] = "";
  for (int q = 0; q < 2; q++) {
    int d = 3 + q, k = nnt_approx_box_k(rho, eps[q], d, 0);
    nnt_smlp m;
    double gamma = nnt_approx_build_boxes_sparse(&m, g_lin, &rho, d, k, eps[q]);
    nnt_approx_thm23_stats st;
    ok &= nnt_approx_thm23_measure(&m, d, k, gamma, eps[q], g_lin, &rho, rg, quick ? (d == 3 ? 512 : 128) : 512, &st);
    char b[80];
    snprintf(b, sizeof b, "%sd=%d eps=%g k=%d: sup %.4f, L1 %.4f, f-a_j %.0e, %ld ReLUs", q ? "; " : "", d, eps[q], k,
             st.sup, st.l1, st.dev, st.relus);
    strncat(meas, b, sizeof meas - strlen(meas) - 1);
    nnt_smlp_free(&m);
  }
  nnt_approx_check_row *r = row(t, "Q35", "Thm 2.3, d=3,4", "sparse box net, g=<1,x>/sqrt(d): sup <= eps inside cells, L1 <= 2eps, 4dk+k^d ReLUs <= (4d+1)k^d");
  SET(bound, "eps / 2eps; sizes exact");
  SET(measured, "%s", meas);
  SET(note, "sup at points 1.5 gamma inside the upper corner, where f must equal g(lower corner)");
  r->pass = ok;
}

static double g_sin2pi(const double *x, int d, void *ctx) {
  (void)d, (void)ctx;
  return sin(2 * M_PI * x[0]);
}

/* Lemma 2.7 is an existence proof; the least-squares exp network shows the widths it takes */
static void q34(nnt_approx_check_result *t) {
  static const double eps[3] = {1e-1, 1e-2, 1e-3};
  int need[2][3] = {{0}}, ok = 1;
  double a[121];
  for (int d = 1; d <= 2; d++)
    for (int K = 1; K <= (d == 1 ? 10 : 8); K++) {
      double sup = nnt_approx_exp_fit(d, K, 1, d == 1 ? g_sin2pi : g_sincos, NULL, a);
      for (int e = 0; e < 3; e++)
        if (!need[d - 1][e] && sup <= eps[e]) need[d - 1][e] = d == 1 ? K + 1 : (K + 1) * (K + 1);
    }
  for (int d = 0; d < 2; d++)
    for (int e = 0; e < 3; e++) ok &= need[d][e] > 0;
  nnt_approx_check_row *r = row(t, "Q34", "Lemma 2.7", "2-layer exp net sum_j a_j exp(v_j.x), v_j in {0..K}^d: sup|f-g| <= eps on [0,1]^d, eps = 1e-1..1e-3");
  SET(bound, "eps reached (m <= 11 / 81)");
  SET(measured, "units for eps 1e-1/1e-2/1e-3: sin 2pi x: %d/%d/%d; sin3x cos2y (d=2): %d/%d/%d", need[0][0], need[0][1],
      need[0][2], need[1][0], need[1][1], need[1][2]);
  SET(note, "the book proves existence (Stone-Weierstrass); least squares on a grid, error on a finer one");
  r->pass = ok;
}

/* Thm 2.5 end to end, two routes to the exp network h that step 2 turns into ReLUs: Lemma 2.7's
 * lattice v in {0..K} (least squares, Q34) and random features v ~ U[-2, 2]; each with the fewest
 * units for sup |h - g| <= eps/2 */
static void q37(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  double eps = 0.1, a[64], V[64], fit = INFINITY;
  int K = 0, m = 0, ok = 1;
  nnt_approx_thm25_stats st[2];
  long knots[2];
  double mass[2];
  int units[2];
  for (int route = 0; route < 2; route++) {
    fit = INFINITY;
    for (m = 2; m <= 32 && !(fit <= eps / 2); m++) {
      for (int j = 0; j < m; j++) V[j] = route == 0 ? j : 4 * nnt_rng_uniform(rg) - 2;
      fit = nnt_approx_exp_fit_v(1, m, V, 4 * m, g_sin2pi, NULL, a);
    }
    m--;
    if (route == 0) K = m - 1;
    nnt_mlp f;
    mass[route] = 0, units[route] = m, st[route] = (nnt_approx_thm25_stats){0, NAN, NAN};
    for (int j = 0; j < m; j++) mass[route] += fabs(a[j]);
    knots[route] = nnt_approx_thm25_relu(&f, 1, m, V, a, eps);
    if (knots[route] < 0) { /* more than 2^26 ReLUs: the row fails with NaN errors */
      ok = 0;
      continue;
    }
    ok &= fit <= eps / 2 && nnt_approx_thm25_measure(&f, 1, m, V, a, g_sin2pi, NULL, eps, quick ? 401 : 2001, &st[route]);
    nnt_mlp_free(&f);
  }
  nnt_approx_check_row *r = row(t, "Q37", "Thm 2.5", "sin 2pi x, eps=0.1: exp net h (sup|h-g| <= eps/2) -> ReLU net f, |f-h| <= eps/2, |f-g| <= eps; lattice vs random features");
  SET(bound, "eps/2, eps (%d points)", quick ? 401 : 2001);
  SET(measured, "lattice K=%d: %d exp units, sum|a| %.1e, %ld knots, %ld ReLUs, sup|f-g| %.4f (|f-h| %.1e); random: %d, %.1e, %ld, %ld, %.4f (%.1e)",
      K, units[0], mass[0], knots[0], st[0].relus, st[0].sup_g, st[0].sup_h, units[1], mass[1], knots[1], st[1].relus,
      st[1].sup_g, st[1].sup_h);
  SET(note, "knots ~ R sqrt(e^R sum|a|/eps): least squares makes sum|a| >> sup|g|, so 10^4-10^5 ReLUs where Prop 2.1 needs ~10");
  r->pass = ok;
}

static void q4(nnt_approx_check_result *t) {
  /* ReLU interpolant of e^r on n knots of [-R, R]: error <= (2R/n)^2 e^R / 8 */
  double R = 2, worst_ratio = 0;
  int ns[3] = {4, 16, 64};
  char meas[96] = "";
  for (int q = 0; q < 3; q++) {
    int n = ns[q];
    nnt_mlp m;
    nnt_mlp_init(&m);
    nnt_mlp_layer *A = nnt_mlp_add(&m, 1, n, NNT_ACT_RELU), *B = nnt_mlp_add(&m, n, 1, NNT_ACT_IDENTITY);
    double prev = 0;
    for (int i = 0; i < n; i++) {
      double t0 = -R + 2 * R * i / n, t1 = -R + 2 * R * (i + 1) / n, s = (exp(t1) - exp(t0)) / (t1 - t0);
      A->W[i] = 1, A->b[i] = -t0, B->W[i] = s - prev;
      prev = s;
    }
    B->b[0] = exp(-R);
    /* exact sup of (piece - e^r) on each piece: at r = ln a (convexity) */
    nnt_approx_piece p[80];
    long np = nnt_approx_pwl_collect(&m, NULL, -R, R, p, 80);
    double sup = 0;
    for (long i = 0; i < np; i++) {
      double rr = log(p[i].a);
      if (rr < p[i].x0) rr = p[i].x0;
      if (rr > p[i].x1) rr = p[i].x1;
      sup = max_nan(sup, fabs(p[i].a * rr + p[i].c - exp(rr)));
    }
    double bound = pow(2 * R / n, 2) * exp(R) / 8;
    worst_ratio = max_nan(worst_ratio, sup / bound);
    char b[32];
    snprintf(b, sizeof b, "%sn=%d %.2e", q ? ", " : "", n, sup);
    strcat(meas, b);
    nnt_mlp_free(&m);
  }
  nnt_approx_check_row *r = row(t, "Q4", "Thm 2.5 step 2", "PWL interpolant of e^r on [-2,2], n knots: err <= (2R/n)^2 e^R/8");
  SET(bound, "ratio <= 1");
  SET(measured, "%s (max ratio %.3f)", meas, worst_ratio);
  r->pass = worst_ratio <= 1;
}

static double abs_gp(double b, void *ctx) {
  (void)ctx;
  return fabs(2 * M_PI * cos(2 * M_PI * b));
}
static double gp_one_minus_b(double b, void *ctx) {
  (void)ctx;
  return 4 * fabs(2 * M_PI * cos(2 * M_PI * b)) * (1 - b);
}

static void q5_q6(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  double Z = nnt_approx_simpson(abs_gp, NULL, 0, 1, 100000);
  /* unbiasedness: mean of f(x) over trials at a few x vs sin 2 pi x, within 4 standard errors */
  int trials = quick ? 400 : 2000, m = 50;
  double b[1000], a[1000], worst_z = 0;
  static const double xs[4] = {0.1, 0.37, 0.5, 0.83};
  for (int q = 0; q < 4; q++) {
    double s = 0, s2 = 0;
    for (int tr = 0; tr < trials; tr++) {
      nnt_approx_sample_sin_thresholds(rg, m, b, a);
      double f = 0;
      for (int j = 0; j < m; j++) f += a[j] * (xs[q] >= b[j]);
      s += f, s2 += f * f;
    }
    double mean = s / trials, se = sqrt((s2 / trials - mean * mean) / trials);
    worst_z = max_nan(worst_z, fabs(mean - sin(2 * M_PI * xs[q])) / se);
  }
  nnt_approx_check_row *r = row(t, "Q5", "Prop 2.8", "sin 2pi x = int 1[x>=b] g'(b) db: Z = 4, sampler unbiased");
  SET(bound, "Z=4, |z| <= 4");
  SET(measured, "Z %.6f (quadrature), worst |mean-g|/se %.2f", Z, worst_z);
  r->pass = fabs(Z - 4) < 1e-6 && worst_z <= 4;
  /* Lemma 2.16: E||X - mean_k||^2 = (E||V||^2 - ||X||^2)/k exactly (E||V||^2 by quadrature) */
  double EV2 = nnt_approx_simpson(gp_one_minus_b, NULL, 0, 1, 100000), exact_c = EV2 - 0.5;
  int ks[3] = {10, 100, 1000}, T = quick ? 200 : 1000;
  double worst = 0, *bb = nnt_xmalloc(sizeof(double) * 1000), *aa = nnt_xmalloc(sizeof(double) * 1000);
  char meas[96] = "";
  for (int q = 0; q < 3; q++) {
    double s = 0, s2 = 0;
    for (int tr = 0; tr < T; tr++) {
      nnt_approx_sample_sin_thresholds(rg, ks[q], bb, aa);
      double e = nnt_approx_sin_threshold_l2sq(ks[q], bb, aa);
      s += e, s2 += e * e;
    }
    double mean = s / T, se = sqrt((s2 / T - mean * mean) / T), want = exact_c / ks[q];
    worst = max_nan(worst, fabs(mean - want) / se);
    char buf[40];
    snprintf(buf, sizeof buf, "%sk=%d %.3e/%.3e", q ? " " : "", ks[q], mean, want);
    strcat(meas, buf);
  }
  free(bb), free(aa);
  r = row(t, "Q6", "Lemma 2.16", "E||X-mean_k||^2 = (E||V||^2-||X||^2)/k = 7.5/k (exact L2 per trial)");
  SET(bound, "|z| <= 4");
  SET(measured, "%s; worst z %.2f", meas, worst);
  SET(note, "E||V||^2 = %.6f by quadrature; bound sup||U||^2/k = 16/k", EV2);
  r->pass = worst <= 4 && fabs(EV2 - 8) < 1e-6;
}

static double gauss1(double x, void *ctx) { /* real part of the FT integrand of the normalised density */
  double *p = ctx, s = p[0], w = p[1];
  return exp(-x * x / (2 * s * s)) / sqrt(2 * M_PI * s * s) * cos(2 * M_PI * w * x);
}

static void q7_q9(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  double M = nnt_approx_barron_gauss_mass(2), M2 = nnt_approx_barron_gauss_mass_2d_parts();
  nnt_approx_check_row *r = row(t, "Q7", "Thm 2.12", "Gaussian d=2: |mu|_1 = iint|q| <= 4 pi int|w| g~ = 2 pi");
  SET(bound, "%.4f", 2 * M_PI);
  SET(measured, "%.5f (polar quadrature), %.5f (by parts)", M, M2);
  SET(note, "representation needs ||x|| <= 1 and gives g(x)-g(0); q real-phase form (erratum P6)");
  r->erratum = 1;
  r->pass = M <= 2 * M_PI && fabs(M - M2) < 1e-6;
  /* Q8: g = (2 pi s^2)^{-d/2} e^{-|x|^2/(2 s^2)} => g~ = e^{-2 pi^2 s^2 w^2}; d = 1 by quadrature */
  double worst = 0, s = 0.7, draft_ratio = 0;
  for (int q = 0; q < 4; q++) {
    double p[2] = {s, 0.3 * q};
    double ft = nnt_approx_simpson(gauss1, p, -12 * s, 12 * s, 20000), want = exp(-2 * M_PI * M_PI * s * s * p[1] * p[1]);
    worst = max_nan(worst, fabs(ft - want));
    draft_ratio = 2 * M_PI * s * s; /* the draft's (2 pi s^2)^{+d/2} prefactor is off by (2 pi s^2)^d */
  }
  r = row(t, "Q8", "Gaussian example", "normalised Gaussian (prefactor (2pi s^2)^{-d/2}): g~ = e^{-2pi^2 s^2 |w|^2}");
  SET(bound, "1e-9");
  SET(measured, "max |FT - closed form| %.1e (d=1, s=0.7)", worst);
  SET(note, "draft's (2pi s^2)^{+d/2} makes g~ off by factor %.3f at d=1", draft_ratio);
  r->erratum = 1;
  r->pass = worst < 1e-9;
  /* Q9: Maurey sampling of the Gaussian on the unit disk; E err <= M^2/k, decays like 1/k */
  int ne = 400, T = quick ? 10 : 40;
  double X[800];
  for (int e = 0; e < ne; e++) {
    double rad = sqrt(nnt_rng_uniform(rg)), th = 2 * M_PI * nnt_rng_uniform(rg);
    X[2 * e] = rad * cos(th), X[2 * e + 1] = rad * sin(th);
  }
  int ks[3] = {10, 100, 1000};
  double errs[3], *W = nnt_xmalloc(sizeof(double) * 2 * 1000), bs[1000], ss[1000];
  char meas[96] = "";
  int ok = 1;
  for (int q = 0; q < 3; q++) {
    double acc = 0;
    for (int tr = 0; tr < T; tr++) {
      double e2 = nnt_approx_barron_gauss_sample_mse(rg, ks[q], M, ne, X, W, bs, ss);
      acc += e2 / T;
    }
    errs[q] = acc;
    ok &= acc <= M * M / ks[q];
    char buf[32];
    snprintf(buf, sizeof buf, "%sk=%d %.2e", q ? " " : "", ks[q], acc);
    strcat(meas, buf);
  }
  free(W);
  double slope = log(errs[2] / errs[0]) / log(100.0);
  r = row(t, "Q9", "Ex 2.18 / Lemma 2.17", "sampled Gaussian net: E||.||^2 <= |mu|_1^2/k, ~1/k decay (no plateau)");
  SET(bound, "M^2/k; slope in [-1.3,-0.7]");
  SET(measured, "%s; slope %.2f", meas, slope);
  r->pass = ok && slope > -1.3 && slope < -0.7;
}

/* Thm 2.12 + Maurey from a tabulated g~: a Cauchy and a sinc target (closed-form g~) in d = 1, a
 * shifted Gaussian in d = 2 whose g~ is tabulated by quadrature of g (complex: theta != 0) */
static double g_cauchy(const double *x, int d, void *ctx) {
  (void)d, (void)ctx;
  return 1 / (1 + x[0] * x[0]);
}
static void ft_cauchy(const double *w, int d, void *ctx, double *re, double *im) {
  (void)d, (void)ctx;
  *re = M_PI * exp(-2 * M_PI * fabs(w[0])), *im = 0;
}
static double g_sinc4(const double *x, int d, void *ctx) { /* sin(4 pi x)/(4 pi x) */
  (void)d, (void)ctx;
  return x[0] == 0 ? 1 : sin(4 * M_PI * x[0]) / (4 * M_PI * x[0]);
}
static void ft_sinc4(const double *w, int d, void *ctx, double *re, double *im) {
  (void)d, (void)ctx;
  *re = fabs(w[0]) <= 2 ? 0.25 : 0, *im = 0;
}
static const double gshift_c[2] = {0.3, -0.2};
static double g_gshift(const double *x, int d, void *ctx) {
  (void)d, (void)ctx;
  double a = x[0] - gshift_c[0], b = x[1] - gshift_c[1];
  return exp(-M_PI * (a * a + b * b));
}
/* int e^{-2 pi i w x} e^{-pi (x-c)^2} dx by the trapezoid rule on [c-5, c+5] (the tails are below 1e-30) */
static void ft_axis(double w, double c, double *re, double *im) {
  int N = 400;
  double h = 10.0 / N;
  *re = *im = 0;
  for (int i = 0; i <= N; i++) {
    double x = c - 5 + i * h, v = exp(-M_PI * (x - c) * (x - c)) * h * (i == 0 || i == N ? 0.5 : 1);
    *re += v * cos(2 * M_PI * w * x), *im -= v * sin(2 * M_PI * w * x);
  }
}
static void ft_gshift(const double *w, int d, void *ctx, double *re, double *im) {
  (void)d, (void)ctx;
  double r0, i0, r1, i1;
  ft_axis(w[0], gshift_c[0], &r0, &i0), ft_axis(w[1], gshift_c[1], &r1, &i1);
  *re = r0 * r1 - i0 * i1, *im = r0 * i1 + i0 * r1;
}

static void q36(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  static const char *name[3] = {"Q36.1", "Q36.2", "Q36.3"};
  static const char *what[3] = {"1/(1+x^2), g~ = pi e^{-2pi|w|} (d=1)", "sin(4 pi x)/(4 pi x), g~ = 1[|w|<=2]/4 (d=1)",
                                "e^{-pi|x-c|^2}, c=(0.3,-0.2), g~ by quadrature (d=2)"};
  nnt_approx_fnd g[3] = {g_cauchy, g_sinc4, g_gshift};
  nnt_approx_ft ft[3] = {ft_cauchy, ft_sinc4, ft_gshift};
  static const int dim[3] = {1, 1, 2}, cells[3] = {1536, 768, 80};
  static const double Wmax[3] = {6, 3, 2.5};
  static const int ns[4] = {10, 100, 1000, 10000};
  int nn = quick ? 3 : 4;
  for (int q = 0; q < 3; q++) {
    nnt_approx_barron_table T;
    nnt_approx_barron_table_build(&T, dim[q], cells[q], Wmax[q], ft[q], NULL);
    nnt_approx_barron_maurey_stats st;
    int ok = nnt_approx_barron_maurey_measure(&T, g[q], NULL, rg, ns, nn, quick ? 10 : 20, 200, &st);
    char claim[128];
    snprintf(claim, sizeof claim, "Barron net sampled from tabulated g~, %s: rms <= |mu|_1/sqrt(n), slope -1/2", what[q]);
    nnt_approx_check_row *r = row(t, name[q], "Thm 2.12 + Lemma 2.17", claim);
    char meas[sizeof r->measured - 24] = ""; /* leaves room for "; slope %.3f" */
    for (int k = 0; k < nn; k++) {
      char b[48];
      snprintf(b, sizeof b, "%sn=%d %.2e (%.2f/sqrt n)", k ? " " : "", ns[k], st.rms[k], st.rms[k] * sqrt((double)ns[k]));
      strncat(meas, b, sizeof meas - strlen(meas) - 1);
    }
    SET(bound, "%.2f/sqrt(n); [-0.6,-0.4]", T.mass);
    SET(measured, "%s; slope %.3f", meas, st.slope);
    SET(note, "|mu|_1 = %.3f <= 4pi int|w||g~| = %.3f; %ld cells; rms vs g - g(0) on the unit ball", T.mass, T.mass_bound, T.cells);
    r->pass = ok && T.mass <= T.mass_bound;
    nnt_approx_barron_table_free(&T);
  }
}

/* ------------------------------------------------------------------ chapter 3 */

/* Lemma 3.8 itself: the (1 - delta)-quantile of the count over many draws against its bound */
static void q12_bound(nnt_approx_check_result *t, uint64_t seed, int quick) {
  static const int ms[3] = {100, 1000, 10000};
  static const double taus[2] = {0.05, 0.2}, deltas[2] = {0.01, 0.1};
  int nm = quick ? 2 : 3, ok = 1, trials = 1000;
  double worst = 0, worst_draft = 0, zmax = 0;
  nnt_rng rg;
  nnt_rng_init(&rg, seed, 120);
  for (int q = 0; q < nm; q++)
    for (int k = 0; k < 2; k++) {
      nnt_approx_lemma38_stats st;
      ok &= nnt_approx_lemma38_measure(&rg, ms[q], 3, taus[k], deltas, 2, trials, 1, &st);
      worst = max_nan(worst, st.max_ratio), zmax = max_nan(zmax, fabs(st.mean_z));
      for (int e = 0; e < 2; e++) worst_draft = max_nan(worst_draft, st.quantile[e] / st.bound_draft[e]);
    }
  nnt_approx_check_row *r = row(t, "Q12.2", "Lemma 3.8", "#{j: |v_j.x| <= tau||x||} <= m tau + sqrt((m/2) ln(1/delta)) w.p. 1-delta: (1-delta)-quantile of 1000 draws");
  SET(bound, "quantile/bound <= 1");
  SET(measured, "m=1e2..1e%d, tau 0.05,0.2, delta 0.01,0.1: max ratio %.3f (draft form %.3f); mean |z| <= %.1f", nm + 1,
      worst, worst_draft, zmax);
  SET(note, "slack: P[|g|<=tau] <= 0.80 tau < tau; v_j ~ N(0, 0.25 I) fails it (test)");
  r->pass = ok;
}

/* Lemma 3.15: 39.6 sqrt(m) cannot be approached; the sqrt(m) growth of |F(x;w0)| can be tested */
static void q13_scaling(nnt_approx_check_result *t, uint64_t seed, int quick, double bound) {
  static const int ms[4] = {16, 64, 256, 1024};
  int nm = quick ? 3 : 4;
  double q99[4], slope;
  nnt_rng rg;
  nnt_rng_init(&rg, seed, 130);
  int ok = nnt_approx_lemma315_scaling(&rg, ms, nm, 5, quick ? 1000 : 2000, 0.5, q99, &slope);
  char meas[96] = "";
  for (int q = 0; q < nm; q++) {
    char b[32];
    snprintf(b, sizeof b, "%sm=%d %.2f", q ? " " : "", ms[q], q99[q]);
    strcat(meas, b);
  }
  nnt_approx_check_row *r = row(t, "Q13.2", "Lemma 3.15 scaling", "q99 |F(x;w0)| grows like sqrt(m): fitted log-log exponent over m = 16, 64, ..");
  SET(bound, "[0.4, 0.6]");
  SET(measured, "exponent %.3f; q99/sqrt(m): %s", slope, meas);
  SET(note, "the bound %.1f sqrt(m) (m=100) is ~20x the measured q99; unsigned a_j give exponent ~1", bound);
  r->pass = ok;
}

static void ch3(nnt_approx_check_result *t, nnt_rng *rg, int quick, uint64_t seed) {
  double worst = 0;
  static const double Bs[4] = {0.1, 1, 10, 100};
  for (int q = 0; q < 4; q++) worst = max_nan(worst, nnt_approx_prop34_worst_ratio(rg, 1000, 5, Bs[q], quick ? 10 : 25));
  nnt_approx_check_row *r = row(t, "Q10", "Prop 3.4", "softplus (beta=1/4), m=1000, d=5: |F-F0| <= beta|a|_inf ||V-V0||_F^2/2");
  SET(bound, "ratio <= 1");
  SET(measured, "max gap/bound %.4f over B=0.1..100", worst);
  r->pass = worst <= 1;

  long ms[5] = {100, 1000, 10000, 100000, 1000000};
  int nm = quick ? 4 : 5;
  double lo = INFINITY, hi = 0, direct_err = 0;
  int ok = 1;
  for (int q = 0; q < nm; q++) {
    double direct, gap = nnt_approx_relu_adversarial_gap(rg, ms[q], 1, &direct), c = gap / cbrt((double)ms[q]);
    lo = min_nan(lo, c), hi = max_nan(hi, c);
    direct_err = max_nan(direct_err, fabs(direct - gap));
    ok &= gap <= nnt_approx_prop37_bound(ms[q], 1, 0.1);
  }
  r = row(t, "Q11", "Prop 3.7", "ReLU gap <= |a|m^{1/3}(4B^{4/3}+2B ln(1/d)^{1/4}); adversarial attains m^{1/3}");
  SET(bound, "6.46 m^{1/3}; gap/m^{1/3} in [0.2,0.4]");
  SET(measured, "gap/m^{1/3} in [%.3f, %.3f] (m=1e2..1e%d)", lo, hi, nm + 1);
  r->pass = ok && lo >= 0.2 && hi <= 0.4 && direct_err < 1e-9;

  /* Lemma 3.8: P[|g| <= tau] <= 2 tau / sqrt(2 pi); exact value erf(tau/sqrt2), checked by Monte Carlo */
  long N = quick ? 200000 : 2000000;
  static const double taus[3] = {0.1, 0.5, 1.0};
  long cnt[3] = {0, 0, 0};
  for (long i = 0; i < N; i++) {
    double g = fabs(nnt_rng_normal(rg));
    for (int q = 0; q < 3; q++) cnt[q] += g <= taus[q];
  }
  int ok38 = 1;
  char m38[96] = "";
  for (int q = 0; q < 3; q++) {
    double ex = erf(taus[q] / sqrt(2)), mc = (double)cnt[q] / N, se = sqrt(ex * (1 - ex) / N);
    ok38 &= ex <= 2 * taus[q] / sqrt(2 * M_PI) && fabs(mc - ex) <= 4 * se;
    char b[40];
    snprintf(b, sizeof b, "%s%.4f (MC %.4f)", q ? ", " : "", ex, mc);
    strcat(m38, b);
  }
  r = row(t, "Q12.1", "Lemma 3.8 step", "P[|g| <= tau] <= 2 tau/sqrt(2 pi), tau = 0.1, 0.5, 1 (erf, Monte Carlo)");
  SET(bound, "%.4f, %.4f, %.4f", 0.2 / sqrt(2 * M_PI), 1.0 / sqrt(2 * M_PI), 2.0 / sqrt(2 * M_PI));
  SET(measured, "%s", m38);
  r->pass = ok38;
  q12_bound(t, seed, quick);

  double sd, q99;
  int m = 100;
  nnt_approx_lemma315_stats(rg, m, 5, quick ? 2000 : 10000, 0.5, &sd, &q99);
  double bound = 4 * log(2 * m / 0.01); /* 4 ||x|| sqrt(m) ln(2m/delta), divided by sqrt(m) */
  r = row(t, "Q13", "Lemma 3.15", "|F(x;w0)| <= 4||x|| sqrt(m) ln(2m/delta) (m=100, delta=0.01)");
  SET(bound, "%.1f sqrt(m)", bound);
  SET(measured, "std %.3f sqrt(m) (1/sqrt2 = 0.707), q99 %.2f sqrt(m)", sd, q99);
  SET(note, "three constants in the draft (P9); Lemma 3.15's is used");
  r->pass = q99 <= bound && fabs(sd - sqrt(0.5)) < 0.05;
  q13_scaling(t, seed, quick, bound);

  /* Thm 3.10 planting, d = 2, tau = 0.1, delta = 0.1 */
  double beta[6], alpha[3] = {1, -0.6, 0.5};
  for (int i = 0; i < 3; i++) beta[2 * i] = cos(2 * M_PI * i / 3), beta[2 * i + 1] = sin(2 * M_PI * i / 3);
  nnt_approx_plant_result pr;
  nnt_approx_plant(rg, 3, beta, alpha, 0.1, 0.1, quick ? 40 : 200, &pr, 0, NULL, NULL, NULL);
  r = row(t, "Q14", "Thm 3.10", "planting: F=F0, |S_i|>=floor(m tau_d), ||V-V0||_F = |a|_2/(tau sqrt tau_d), scale sqrt(m)/tau");
  SET(bound, "scale %.1f, fro %.2f", pr.c0, pr.fro_proof);
  SET(measured, "m=%ld |U|=%ld min|S|=%ld F-F0 %.0e fit %.1f fro %.2f", pr.m, pr.usz, pr.min_S, pr.max_F_F0_rel,
      pr.scale_fit, pr.fro);
  SET(note, "statement's constants: scale %.0f, fro %.1f (wrong); proof's hold", pr.scale_statement, pr.fro_statement);
  r->erratum = 1;
  r->pass = pr.max_F_F0_rel < 1e-9 && pr.min_S >= pr.usz && fabs(pr.fro / pr.fro_proof - 1) < 0.01 &&
            fabs(pr.rowmax / pr.rowmax_proof - 1) < 1e-9 && fabs(pr.scale_fit / pr.c0 - 1) < 0.05 &&
            pr.max_excess <= 0 && fabs(pr.scale_statement / pr.c0 - 1) > 0.5;

  double corr, draft;
  nnt_approx_transport(rg, quick ? 100000 : 1000000, &corr, &draft);
  r = row(t, "Q15", "Thm 3.14", "T = u: (rho/sqrt m) F0(x;V) -> u.x/2 = 0.5 with v = v0 + a T/(rho sqrt m)");
  SET(bound, "|.-0.5| <= 0.02");
  SET(measured, "corrected %.4f, draft scaling %.2e", corr, draft);
  SET(note, "eq. (3.13)'s rho a T/sqrt m gives a rho^2 factor that vanishes (P11)");
  r->erratum = 1;
  r->pass = fabs(corr - 0.5) <= 0.02 && fabs(draft) < 0.1;

  nnt_approx_transport_case tc[3];
  nnt_approx_check_transport_fields(rg, quick ? 100000 : 1000000, tc);
  r = row(t, "Q15.2", "Thm 3.14 fields", "bounded T: (rho/sqrt m) F0(x;V) -> E[T(v).x 1[v.x>0]] (Taylor model, corrected scaling)");
  SET(bound, "|MC-F| <= 4se+1e-3, draft < F/4");
  double dmax = fmax(fabs(tc[0].draft), fmax(fabs(tc[1].draft), fabs(tc[2].draft)));
  SET(measured, "MC/F (se): const u %.4f/%.4f (%.4f); sign(v1)e2 %.4f/%.4f (%.4f); tanh %.4f/%.4f (%.4f); draft max %.1e",
      tc[0].mc, tc[0].exact, tc[0].se, tc[1].mc, tc[1].exact, tc[1].se, tc[2].mc, tc[2].exact, tc[2].se, dmax);
  SET(note, "d=3, 3, 2; F by closed form (u, sign) and 1-D quadrature (tanh); m = %ld", quick ? 100000L : 1000000L);
  r->pass = 1;
  for (int i = 0; i < 3; i++) r->pass &= nnt_approx_transport_case_pass(&tc[i]);
}

/* Thm 3.14's fields for Q15.2: bounded, with F_inf known independently of the Monte Carlo. */
static void field_const(const double *v, int d, void *ctx, double *Tv) {
  (void)v;
  memcpy(Tv, ctx, sizeof(double) * d);
}
static void field_sign(const double *v, int d, void *ctx, double *Tv) { /* sign(v_1) e_2 */
  (void)ctx;
  for (int k = 0; k < d; k++) Tv[k] = k == 1 ? (v[0] > 0 ? 1 : -1) : 0;
}
static void field_tanh(const double *v, int d, void *ctx, double *Tv) {
  (void)ctx;
  for (int k = 0; k < d; k++) Tv[k] = tanh(v[k]);
}
/* E[tanh(g) Phi(c g)], g ~ N(0,1) (midpoint rule on [-12, 12]): E[tanh(v_1) 1[v.x > 0]] in d = 2
 * with c = x_1/x_2 (integrating v_2 out) */
static double tanh_phi(double c) {
  enum { K = 24000 };
  double h = 24.0 / K, s = 0;
  for (int i = 0; i < K; i++) {
    double g = -12 + (i + 0.5) * h;
    s += tanh(g) * 0.5 * erfc(-c * g / sqrt(2)) * exp(-g * g / 2);
  }
  return s * h / sqrt(2 * M_PI);
}

void nnt_approx_check_transport_fields(nnt_rng *rg, long m, nnt_approx_transport_case out[3]) {
  static double u[3] = {0.6, 0, 0.8};
  double phi = M_PI / 3, xc[3] = {0.48, 0.6, 0.64}, xs[3] = {cos(phi), sin(phi), 0}, xt[2] = {cos(phi), sin(phi)};
  out[0] = (nnt_approx_transport_case){.name = "T = u (d=3)", .exact = 0.5 * (u[0] * xc[0] + u[1] * xc[1] + u[2] * xc[2])};
  out[0].mc = nnt_approx_transport_field(rg, m, 3, field_const, u, xc, &out[0].se, &out[0].draft);
  /* P(v_1 > 0, v.x > 0) - P(v_1 < 0, v.x > 0) = (pi - 2 phi)/(2 pi): half-planes at angle phi */
  out[1] = (nnt_approx_transport_case){.name = "T = sign(v1) e2 (d=3)", .exact = xs[1] * (M_PI - 2 * phi) / (2 * M_PI)};
  out[1].mc = nnt_approx_transport_field(rg, m, 3, field_sign, NULL, xs, &out[1].se, &out[1].draft);
  out[2] = (nnt_approx_transport_case){.name = "T = tanh(v) (d=2)",
                                          .exact = xt[0] * tanh_phi(xt[0] / xt[1]) + xt[1] * tanh_phi(xt[1] / xt[0])};
  out[2].mc = nnt_approx_transport_field(rg, m, 2, field_tanh, NULL, xt, &out[2].se, &out[2].draft);
}

int nnt_approx_transport_case_pass(const nnt_approx_transport_case *c) {
  return fabs(c->mc - c->exact) <= 4 * c->se + 1e-3 && fabs(c->draft) < 0.25 * fabs(c->exact);
}

/* pad = 1: inputs (u, 1)/sqrt2 with u a unit vector of R^{d-1} (Remark 3.24) */
double nnt_approx_ntk_slope(nnt_rng *rg, const long *ms, int nm, int d, int npairs, int pad, double *mean_err) {
  double *X = nnt_xmalloc(sizeof(double) * npairs * d), *Y = nnt_xmalloc(sizeof(double) * npairs * d), *km = nnt_xmalloc(sizeof(double) * npairs);
  for (int p = 0; p < npairs; p++) {
    if (!pad) {
      nnt_approx_random_unit(rg, d, X + p * d), nnt_approx_random_unit(rg, d, Y + p * d);
      continue;
    }
    nnt_approx_random_unit(rg, d - 1, X + p * d), nnt_approx_random_unit(rg, d - 1, Y + p * d);
    X[p * d + d - 1] = Y[p * d + d - 1] = 1;
    for (int i = 0; i < d; i++) X[p * d + i] /= sqrt(2), Y[p * d + i] /= sqrt(2);
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int q = 0; q < nm; q++) {
    nnt_approx_ntk_km(rg, ms[q], d, npairs, X, Y, km);
    double e = 0;
    for (int p = 0; p < npairs; p++) e += fabs(km[p] - nnt_approx_ntk_kinf(X + p * d, Y + p * d, d)) / npairs;
    mean_err[q] = e;
    double lx = log((double)ms[q]), ly = log(e);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  free(X), free(Y), free(km);
  return (nm * sxy - sx * sy) / (nm * sxx - sx * sx);
}

static void q16_q17(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  /* closed form vs Monte Carlo probability, k(x,x) = 1/2, k(x,-x) = 0 */
  double x[5], mx[5];
  nnt_approx_random_unit(rg, 5, x);
  for (int i = 0; i < 5; i++) mx[i] = -x[i];
  double kxx = nnt_approx_ntk_kinf(x, x, 5), kxm = nnt_approx_ntk_kinf(x, mx, 5);
  long m = quick ? 100000 : 1000000;
  int np = 40;
  double *X = nnt_xmalloc(sizeof(double) * np * 5), *Y = nnt_xmalloc(sizeof(double) * np * 5), km[40], worst = 0;
  for (int p = 0; p < np; p++) nnt_approx_random_unit(rg, 5, X + p * 5), nnt_approx_random_unit(rg, 5, Y + p * 5);
  nnt_approx_ntk_km(rg, m, 5, np, X, Y, km);
  double hb = sqrt(log(2 / (0.01 / np)) / (2.0 * m)); /* Hoeffding, union over pairs, delta = 0.01 */
  int ok = 1;
  for (int p = 0; p < np; p++) {
    double xy = 0;
    for (int i = 0; i < 5; i++) xy += X[p * 5 + i] * Y[p * 5 + i];
    double e = fabs(km[p] - nnt_approx_ntk_kinf(X + p * 5, Y + p * 5, 5));
    worst = max_nan(worst, e);
    ok &= e <= fabs(xy) * hb;
  }
  free(X), free(Y);
  nnt_approx_check_row *r = row(t, "Q16.1", "Prop 3.23 / Thm 3.19", "k_m -> <x,x'>(pi - arccos<x,x'>)/(2pi); k(x,x)=1/2, k(x,-x)=0");
  SET(bound, "Hoeffding |<x,x'>| %.1e", hb);
  SET(measured, "m=%ld: max|k_m-k_inf| %.1e; k(x,x)=%.3g k(x,-x)=%.1g", m, worst, kxx, kxm);
  r->pass = ok && fabs(kxx - 0.5) < 1e-15 && fabs(kxm) < 1e-15;
  long ms[6] = {10, 100, 1000, 10000, 100000, 1000000};
  int nm = quick ? 5 : 6;
  double errs[6];
  double slope = nnt_approx_ntk_slope(rg, ms, nm, 5, 40, 0, errs);
  r = row(t, "Q16.2", "Thm 3.19 rate", "mean |k_m - k_inf| ~ m^{-1/2}: fitted log-log slope");
  SET(bound, "[-0.6, -0.4]");
  SET(measured, "slope %.3f; sqrt(m) err %.3f..%.3f", slope, errs[0] * sqrt(10.0), errs[nm - 1] * sqrt((double)ms[nm - 1]));
  r->pass = slope >= -0.6 && slope <= -0.4;

  /* Q17: Maclaurin coefficients of f(z) = (z+1/2)/2 - (z+1/2) arccos(z+1/2)/(2pi) by a Cauchy
   * integral (complex arccos, radius 0.4) vs the series t/4 + t arcsin(t)/(2pi), t = z + 1/2 */
  enum { NC = 256, NQ = 12 };
  double coefs[NQ], series[NQ] = {0};
  for (int q = 0; q < NQ; q++) {
    double re = 0, rad = 0.4;
    for (int k = 0; k < NC; k++) {
      double th = 2 * M_PI * k / NC;
      double complex_re = rad * cos(th), complex_im = rad * sin(th);
      /* f at z = rad e^{i th}: use C99 complex via double pair */
      _Complex double z = complex_re + complex_im * (_Complex double)1.0i;
      _Complex double tt = z + 0.5;
      _Complex double f = tt / 2 - tt * __builtin_cacos(tt) / (2 * M_PI);
      _Complex double term = f * __builtin_cexp(-(_Complex double)1.0i * q * th);
      re += __real__ term;
    }
    coefs[q] = re / NC / pow(0.4, q);
  }
  /* series: t arcsin t = sum_n c_n t^{2n+2}; expand (1/2 + z)^p binomially */
  for (int n = 0; n < 400; n++) {
    double cn = 1; /* (2n)!/(4^n n!^2 (2n+1)) */
    for (int j = 1; j <= n; j++) cn *= (2.0 * j - 1) / (2.0 * j);
    cn /= (2 * n + 1) * 2 * M_PI;
    int p = 2 * n + 2;
    double binom = 1;
    for (int q = 0; q < NQ && q <= p; q++) {
      series[q] += cn * binom * pow(0.5, p - q);
      binom = binom * (p - q) / (q + 1);
    }
  }
  series[0] += 0.125, series[1] += 0.25;
  double minc = INFINITY, diff = 0;
  for (int q = 0; q < NQ; q++) minc = min_nan(minc, coefs[q]), diff = max_nan(diff, fabs(coefs[q] - series[q]));
  r = row(t, "Q17", "Prop 3.25", "padded ReLU NTK f(z): Maclaurin coefficients > 0, f(0) = 1/6");
  SET(bound, "min coef > 0; f(0)=%.6f", 1.0 / 6);
  SET(measured, "min coef (q<%d) %.3e, f(0) %.9f, |Cauchy-series| %.1e", NQ, minc, coefs[0], diff);
  SET(note, "draft's kernel 'x.x'/pi' should be x.x'/2 (P14)");
  r->erratum = 1;
  r->pass = minc > 0 && fabs(coefs[0] - 1.0 / 6) < 1e-9 && diff < 1e-9;
}

/* ------------------------------------------------------------------ chapter 4 */

static void q18_q30(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  int Lmax = 22, ok = 1, bad_pieces = 0;
  double worst = 0, int_err = 0;
  for (int L = 1; L <= Lmax; L++) {
    nnt_mlp d, half;
    nnt_approx_build_delta(&d, L);
    if (L <= 20) /* closed form vs the network at random and dyadic points */
      for (int s = 0; s < (quick ? 2000 : 20000); s++) {
        double x = s % 2 ? nnt_rng_uniform(rg) : ldexp((double)nnt_rng_below(rg, 1u << 24), -24);
        worst = max_nan(worst, fabs(fwd1(&d, x) - nnt_approx_delta_pow_closed(L, x)));
      }
    nnt_approx_pwl_summary s, sr, sh;
    nnt_approx_pwl_summarize(&d, NULL, 0, 1, &s);
    bad_pieces += s.pieces != (1L << L);
    if (L <= 18) {
      nnt_approx_pwl_summarize(&d, NULL, -INFINITY, INFINITY, &sr);
      bad_pieces += sr.pieces != (1L << L) + 2;
      double z = 0, h = 0.5;
      nnt_approx_net_affine(&half, 1, 1, &z, &h);
      nnt_approx_pwl_summarize(&d, &half, 0, 1, &sh);
      int_err = max_nan(int_err, max_nan(fabs(s.integral - 0.5), max_nan(fabs(sh.l1 - 0.25), fabs(sh.l2sq - 1.0 / 12))));
      nnt_mlp_free(&half);
    }
    nnt_mlp_free(&d);
  }
  nnt_mlp d1;
  nnt_approx_build_delta(&d1, 1);
  double outside = fabs(fwd1(&d1, 1.25) - nnt_approx_delta_pow_closed(1, 1.25));
  nnt_mlp_free(&d1);
  nnt_approx_check_row *r = row(t, "Q18", "Prop 4.1", "Delta^L = Delta(<2^{L-1}x>) on [0,1]; 2^L pieces on [0,1], 2^L+2 on R");
  SET(bound, "err 0, exact counts");
  SET(measured, "max err %.1g (L<=20); count mismatches %d (L<=22); x=1.25: %.2f", worst, bad_pieces, outside);
  SET(note, "identity holds on [0,1] only (outside: 0 vs periodic), P16");
  ok = worst == 0 && bad_pieces == 0 && outside == 0.5;
  r->pass = ok;
  r = row(t, "Q30", "uniformity of Delta^L", "int Delta^L = 1/2, int|Delta^L - 1/2| = 1/4, int(.)^2 = 1/12 (exact, L<=18)");
  SET(bound, "1e-12");
  SET(measured, "max deviation %.1e", int_err);
  r->pass = int_err < 1e-12;
}

static void q19(nnt_approx_check_result *t) {
  int dr[4] = {2, 4, 8, 16}, err_fix[4], err_draft[4], errs_gen = 0, total_gen = 0;
  for (int q = 0; q < 4; q++) {
    int d = dr[q];
    nnt_mlp fix, dra;
    nnt_approx_build_parity(&fix, d, 0);
    nnt_approx_build_parity(&dra, d, 1);
    err_fix[q] = err_draft[q] = 0;
    double x[16], y;
    for (long mask = 0; mask < (1L << d); mask++) {
      int par = 1;
      for (int i = 0; i < d; i++) x[i] = (mask >> i) & 1 ? 1 : -1, par *= (int)x[i];
      nnt_mlp_forward(&fix, x, &y);
      err_fix[q] += y != par;
      nnt_mlp_forward(&dra, x, &y);
      err_draft[q] += y != par;
    }
    nnt_mlp_free(&fix), nnt_mlp_free(&dra);
  }
  for (int d = 1; d <= 12; d++) {
    nnt_mlp fix;
    nnt_approx_build_parity(&fix, d, 0);
    double x[12], y;
    for (long mask = 0; mask < (1L << d); mask++) {
      int par = 1;
      for (int i = 0; i < d; i++) x[i] = (mask >> i) & 1 ? 1 : -1, par *= (int)x[i];
      nnt_mlp_forward(&fix, x, &y);
      errs_gen += y != par, total_gen++;
    }
    nnt_mlp_free(&fix);
  }
  nnt_approx_check_row *r = row(t, "Q19", "Sec 4.1 parity", "prod x_i = 1 - 2 Delta^L((d+sum x)/(2d)), all 2^d inputs, d = 2,4,8,16");
  SET(bound, "0 errors");
  SET(measured, "errors %d/%d/%d/%d; general d<=12: %d/%d", err_fix[0], err_fix[1], err_fix[2], err_fix[3], errs_gen,
      total_gen);
  SET(note, "draft Delta^{L-1}((d+sum x)/(2d)) wrong on %d/4, %d/16, %d/256, %d/65536", err_draft[0], err_draft[1],
      err_draft[2], err_draft[3]);
  r->erratum = 1;
  r->pass = !err_fix[0] && !err_fix[1] && !err_fix[2] && !err_fix[3] && !errs_gen && err_draft[3] > 0;
}

static void q20_q21_q28(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  double worst_sup = 0, worst_l2 = 0, min_e = INFINITY, worst_mid = 0, worst_closed = 0, min_ratio = INFINITY;
  int size_ok = 1, imax = 20;
  for (int i = 0; i <= imax; i++) {
    nnt_mlp h;
    nnt_approx_build_square(&h, i);
    nnt_approx_square_error e;
    nnt_approx_square_error_of(&h, &e);
    double sup = e.sup, l2 = e.l2sq, mn = e.min;
    long P = e.pieces;
    double want = pow(4, -i - 1);
    worst_sup = max_nan(worst_sup, fabs(sup / want - 1));
    worst_l2 = max_nan(worst_l2, fabs(l2 / (pow(2, -4 * i) / 30) - 1));
    min_e = min_nan(min_e, mn);
    /* the network's own forward pass: midpoints attain 4^{-i-1}; off-grid points stay >= x^2 */
    for (int s = 0; s < (quick ? 500 : 5000); s++) {
      double k = (double)nnt_rng_below(rg, 1ull << i), x = (2 * k + 1) / ldexp(1, i + 1);
      worst_mid = max_nan(worst_mid, fabs((fwd1(&h, x) - x * x) / want - 1));
      double u = nnt_rng_uniform(rg), e = fwd1(&h, u) - u * u;
      min_e = min_nan(min_e, e); /* h_i >= x^2 up to rounding of u*u */
      worst_closed = max_nan(worst_closed, fabs(fwd1(&h, u) - nnt_approx_square_closed(i, u)));
    }
    nnt_mlp_stats st = nnt_mlp_stats_of(&h);
    if (i > 0) size_ok &= st.layers - 1 == i && st.hidden_units == 4L * i && P == (1L << i);
    min_ratio = min_nan(min_ratio, l2 / (1 / (5760 * pow((double)P, 4))));
    nnt_mlp_free(&h);
  }
  nnt_approx_check_row *r = row(t, "Q20", "Thm 4.2", "sup_{[0,1]}|h_i - x^2| = 4^{-i-1} exactly, at midpoints; h_i >= x^2 (i <= 20)");
  SET(bound, "rel 1e-12");
  SET(measured, "sup rel err %.1e, midpoints %.1e, min (h-x^2) %.1e", worst_sup, worst_mid, min_e);
  r->pass = worst_sup < 1e-12 && worst_mid < 1e-12 && min_e >= -4e-16;
  r = row(t, "Q20.2", "Thm 4.2 (L2)", "int_0^1 (h_i - x^2)^2 = 2^{-4i}/30 (exact piecewise integration)");
  SET(bound, "rel 1e-9");
  SET(measured, "max rel err %.1e", worst_l2);
  r->pass = worst_l2 < 1e-9;
  r = row(t, "Q21", "Thm 4.2 sizes", "h_i: i hidden layers x 4 ReLUs, 2^i pieces, = x - sum Delta^j/4^j");
  SET(bound, "exact");
  SET(measured, "sizes %s, max |net - closed form| %.1g", size_ok ? "match" : "MISMATCH", worst_closed);
  SET(note, "draft's '2i layers, 3i/5i nodes' count 2 layers per Delta (P19)");
  r->pass = size_ok && worst_closed == 0;
  r = row(t, "Q28", "Thm 4.6", "int(f - x^2)^2 >= 1/(5760 N_A^4): h_i vs its own piece count");
  SET(bound, ">= 1");
  SET(measured, "min ratio %.1f (192 expected)", min_ratio);
  r->pass = min_ratio >= 1 && fabs(min_ratio - 192) < 1e-6;
}

static void q22_q24(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  static const int is[4] = {1, 4, 7, 10};
  int ok = 1, G = quick ? 101 : 401;
  char meas[96] = "";
  double draft_axis = 0, worst_axis = 0;
  for (int q = 0; q < 4; q++) {
    nnt_mlp p, ps;
    nnt_approx_build_product(&p, is[q], 0);
    nnt_approx_build_product(&ps, is[q], 1);
    double err = 0, axis = 0, errs = 0, axs = 0, x[2], y;
    for (int a = 0; a < G; a++)
      for (int b = 0; b < G; b++) {
        x[0] = (double)a / (G - 1), x[1] = (double)b / (G - 1);
        nnt_mlp_forward(&p, x, &y);
        err = max_nan(err, fabs(y - x[0] * x[1]));
        if (a == 0 || b == 0) axis = max_nan(axis, fabs(y));
        x[0] = 2 * x[0] - 1, x[1] = 2 * x[1] - 1;
        nnt_mlp_forward(&ps, x, &y);
        errs = max_nan(errs, fabs(y - x[0] * x[1]));
        if (x[0] == 0 || x[1] == 0) axs = max_nan(axs, fabs(y));
      }
    double bound = pow(4, -is[q]);
    ok &= err <= bound && axis <= 1e-15 && errs <= bound && axs <= 1e-15;
    worst_axis = max_nan(worst_axis, max_nan(axis, axs));
    char buf[32];
    snprintf(buf, sizeof buf, "%si=%d %.3e", q ? " " : "", is[q], err);
    strcat(meas, buf);
    if (is[q] == 4) {
      nnt_mlp dr;
      nnt_approx_build_product_draft(&dr, 4);
      x[0] = 1.0 / 16, x[1] = 0;
      nnt_mlp_forward(&dr, x, &draft_axis);
      nnt_mlp_free(&dr);
    }
    nnt_mlp_free(&p), nnt_mlp_free(&ps);
  }
  nnt_approx_check_row *r = row(t, "Q22", "Cor 4.3 (fixed)", "prod = 2(h((x+y)/2)-h(x/2)-h(y/2)): |prod-xy| <= 4^{-i}, = 0 on axes; signed on [-1,1]^2");
  SET(bound, "4^{-i}; 0 on axes (1e-15)");
  SET(measured, "%s; |prod| on axes %.1g (rounding)", meas, worst_axis);
  SET(note, "draft g_i(2^-4, 0) = %.4e = 1/(2*4^4), not 0 (P21)", draft_axis);
  r->erratum = 1;
  r->pass = ok && fabs(draft_axis - 1.0 / 512) < 1e-15;

  int k = 6, nt = quick ? 2000 : 20000;
  double worst_ratio = 0;
  for (int l = 3; l <= 5; l++) {
    nnt_mlp p;
    nnt_approx_build_product_l(&p, k, l, 0);
    double x[5], y, err = 0;
    for (int s = 0; s < nt; s++) {
      double want = 1;
      for (int i = 0; i < l; i++) x[i] = nnt_rng_uniform(rg), want *= x[i];
      nnt_mlp_forward(&p, x, &y);
      err = max_nan(err, fabs(y - want));
    }
    worst_ratio = max_nan(worst_ratio, err / ((l - 1) * pow(4, -k)));
    nnt_mlp_free(&p);
  }
  r = row(t, "Q23", "Lemma 5.3", "prod_{k,l} with clipping: error <= (l-1) 4^{-k} (k=6, l=3..5)");
  SET(bound, "ratio <= 1");
  SET(measured, "max err/((l-1)4^-k) %.3f", worst_ratio);
  SET(note, "draft states l 4^{-k} and assumes products stay in [0,1] without clipping");
  r->pass = worst_ratio <= 1;

  /* partition of unity, d = 2, s = 4 */
  int d = 2, s = 4, kk = 8;
  nnt_mlp parts[25];
  int np = 0;
  for (int a = 0; a <= s; a++)
    for (int b = 0; b <= s; b++) {
      double v[2] = {(double)a / s, (double)b / s};
      nnt_approx_build_partition(&parts[np++], d, s, v, kk);
    }
  double worst = 0, x[2], y;
  int max_active = 0;
  for (int q = 0; q < nt; q++) {
    x[0] = nnt_rng_uniform(rg), x[1] = nnt_rng_uniform(rg);
    double sum = 0;
    int active = 0;
    for (int i = 0; i < np; i++) {
      nnt_mlp_forward(&parts[i], x, &y);
      sum += y;
      active += fabs(y) > 1e-12; /* exact zeros up to rounding of the merged hat layer */
    }
    worst = max_nan(worst, fabs(sum - 1));
    if (active > max_active) max_active = active;
  }
  for (int i = 0; i < np; i++) nnt_mlp_free(&parts[i]);
  double bound = pow(2, d) * (d - 1) * pow(4, -kk);
  r = row(t, "Q24", "Lemma 5.5", "partition of unity d=2, s=4, k=8: |sum_v phi_v - 1| <= 2^d(d-1)4^{-k}, <= 2^d active");
  SET(bound, "%.2e; 4 active", bound);
  SET(measured, "%.2e; max active %d", worst, max_active);
  r->pass = worst <= bound && max_active <= 4;
}

static void q26_q27_q29(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  int trials = quick ? 50 : 200, ok = 1;
  double min_slack = INFINITY;
  for (int k = 0; k < trials; k++) {
    int L = 1 + k % 4, w[4], m = 0;
    for (int l = 0; l < L; l++) w[l] = 1 + (int)nnt_rng_below(rg, 5), m += w[l];
    nnt_mlp g;
    nnt_approx_random_1d_net(&g, rg, w, L);
    nnt_approx_pwl_summary s;
    nnt_approx_pwl_summarize(&g, NULL, -INFINITY, INFINITY, &s);
    double amgm = pow(2.0 * m / L, L), prodb = ldexp(1, L);
    for (int l = 0; l < L; l++) prodb *= w[l];
    ok &= s.pieces <= prodb && prodb <= amgm + 1e-9;
    min_slack = min_nan(min_slack, prodb / s.pieces);
    nnt_mlp_free(&g);
  }
  nnt_approx_check_row *r = row(t, "Q26", "Lemma 4.9", "N_A(net) <= 2^L prod m_j <= (2m/L)^L (random nets, exact counts)");
  SET(bound, "holds");
  SET(measured, "%d nets, min bound/N_A %.2f", trials, min_slack);
  r->pass = ok;

  /* Thm 4.4: random nets within budget (<= 2^L nodes, <= L layers) vs Delta^{L^2+2} */
  double min_margin = INFINITY, min_l1 = INFINITY;
  int viol = 0, n_nets = 0;
  for (int L = 2; L <= 3; L++) {
    int n = L * L + 2;
    for (int k = 0; k < (quick ? 25 : 50); k++) {
      int w[3], left = 1 << L, nh = 1 + k % L;
      for (int l = 0; l < nh; l++) {
        w[l] = 1 + (int)nnt_rng_below(rg, left - (nh - l - 1));
        left -= w[l];
        if (left < nh - l - 1) left = nh - l - 1;
      }
      nnt_mlp g;
      nnt_approx_random_1d_net(&g, rg, w, nh);
      nnt_approx_sep_result sr;
      nnt_approx_sep_check(&g, n, &sr);
      viol += sr.l1 < sr.lb || sr.l1 < 1.0 / 32;
      min_margin = min_nan(min_margin, sr.l1 - sr.lb);
      min_l1 = min_nan(min_l1, sr.l1);
      n_nets++;
      nnt_mlp_free(&g);
    }
  }
  /* sharper test cases: g = Delta^j (j < n) and the best constant 1/2 */
  for (int j = 1; j <= 8; j++) {
    nnt_mlp g;
    nnt_approx_build_delta(&g, j);
    nnt_approx_sep_result sr;
    nnt_approx_sep_check(&g, 11, &sr);
    viol += sr.l1 < sr.lb;
    min_margin = min_nan(min_margin, sr.l1 - sr.lb);
    nnt_mlp_free(&g);
  }
  r = row(t, "Q27", "Thm 4.4", "int|Delta^n - g| >= lb(n,P) = (2^{n-1}-P-1)/2^{n+2} and >= 1/32 within budget");
  SET(bound, "lb(n,P); 1/32");
  SET(measured, "%d budget nets + Delta^1..8: violations %d, min L1 %.4f, min L1-lb %.4f", n_nets, viol, min_l1, min_margin);
  SET(note, "training collapsing to 1/2 is not evidence; this exact bound is");
  r->pass = viol == 0;

  /* capacity: one hidden layer needs 2^n - 1 kinks; the constructed shallow net equals Delta^n */
  int n = 10;
  nnt_mlp d, sh;
  nnt_approx_build_delta(&d, n);
  nnt_approx_shallow_from_pieces(&sh, &d);
  nnt_approx_pwl_summary s;
  nnt_approx_pwl_summarize(&sh, &d, 0, 1, &s);
  nnt_approx_pwl_summary sp;
  nnt_approx_pwl_summarize(&d, NULL, 0, 1, &sp);
  r = row(t, "Q26.2", "Sec 4.2 capacity", "shallow net for Delta^10 on [0,1]: 2^10 - 1 kinks (+1 ReLU) vs 30 deep");
  SET(bound, "sup diff 0");
  SET(measured, "%d ReLUs, interior breakpoints %ld, sup|shallow - deep| %.1g", sh.layers[0].out, sp.pieces - 1, s.sup_abs);
  r->pass = s.sup_abs < 1e-12 && sp.pieces - 1 == (1 << n) - 1;
  nnt_mlp_free(&d), nnt_mlp_free(&sh);

  /* Remark 2.2: Chebyshev interpolant of |x| of degree n vs 2 ReLUs */
  double worst_cheb[3];
  int degs[3] = {10, 40, 160};
  for (int q = 0; q < 3; q++) {
    int N = degs[q];
    double c[161] = {0};
    for (int j = 0; j <= N; j++) { /* interpolation at Chebyshev points via the discrete cosine sums */
      double s2 = 0;
      for (int k = 0; k <= N; k++) {
        double w = (k == 0 || k == N) ? 0.5 : 1;
        s2 += w * fabs(cos(M_PI * k / N)) * cos(M_PI * j * k / N);
      }
      c[j] = 2.0 / N * s2 * ((j == 0 || j == N) ? 0.5 : 1);
    }
    double e = 0;
    for (int s3 = 0; s3 <= 4000; s3++) {
      double x = -1 + 2.0 * s3 / 4000 + 1e-7, th = acos(max_nan(-1, min_nan(1, x))), p = 0;
      for (int j = 0; j <= N; j++) p += c[j] * cos(j * th);
      e = max_nan(e, fabs(p - fabs(x)));
    }
    worst_cheb[q] = e;
  }
  double absw[2] = {1, -1}, ones[2] = {1, 1};
  nnt_mlp ab;
  nnt_mlp_init(&ab);
  nnt_mlp_layer *A = nnt_mlp_add(&ab, 1, 2, NNT_ACT_RELU);
  A->W[0] = absw[0], A->W[1] = absw[1];
  nnt_mlp_layer *B = nnt_mlp_add(&ab, 2, 1, NNT_ACT_IDENTITY);
  B->W[0] = ones[0], B->W[1] = ones[1];
  nnt_approx_piece pc[4];
  long npc = nnt_approx_pwl_collect(&ab, NULL, -1, 1, pc, 4);
  r = row(t, "Q29", "Remark 2.2", "|x|: Chebyshev degree n error ~ c/n; 2 ReLUs exact");
  SET(bound, "n*err in [0.1,1]");
  SET(measured, "n*err %.3f %.3f %.3f; ReLU net %ld pieces, slopes %g %g", worst_cheb[0] * 10, worst_cheb[1] * 40,
      worst_cheb[2] * 160, npc, pc[0].a, npc > 1 ? pc[1].a : 0);
  r->pass = npc == 2 && pc[0].a == -1 && pc[1].a == 1 && pc[0].c == 0 && pc[1].c == 0 && worst_cheb[2] * 160 > 0.1 &&
            worst_cheb[2] * 160 < 1;
  nnt_mlp_free(&ab);
}

/* Thm 4.6 on networks other than h_i, Lemma 4.11 by an independent piece count, Thm 4.4's sizes */
static void ch4_counts(nnt_approx_check_result *t, uint64_t seed, int quick) {
  nnt_rng rg;
  nnt_rng_init(&rg, seed, 280);
  int ok = 1, nets = 0;
  double min_stated = INFINITY, min_na = INFINITY, worst32 = 0;
  nnt_approx_thm46_stats st;
  for (int i = 1; i <= 10; i++) { /* the L2-best fit on uniform pieces: exactly 32x the N_A form */
    nnt_mlp h;
    nnt_approx_build_square_shifted(&h, i);
    ok &= nnt_approx_thm46_measure(&h, 5760, &st) == 1, nets++;
    worst32 = max_nan(worst32, fabs(st.ratio_na / 32 - 1));
    min_stated = min_nan(min_stated, st.log10_ratio_stated), min_na = min_nan(min_na, st.ratio_na);
    nnt_mlp_free(&h);
  }
  for (int k = 1; k <= 8; k++) { /* Delta^k and the one-hidden-layer copies of h_i */
    nnt_mlp d, h, sh;
    nnt_approx_build_delta(&d, k);
    ok &= nnt_approx_thm46_measure(&d, 5760, &st) == 1, nets++;
    min_stated = min_nan(min_stated, st.log10_ratio_stated), min_na = min_nan(min_na, st.ratio_na);
    nnt_approx_build_square(&h, k);
    nnt_approx_shallow_from_pieces(&sh, &h);
    ok &= nnt_approx_thm46_measure(&sh, 5760, &st) == 1, nets++;
    min_stated = min_nan(min_stated, st.log10_ratio_stated), min_na = min_nan(min_na, st.ratio_na);
    nnt_mlp_free(&d), nnt_mlp_free(&h), nnt_mlp_free(&sh);
  }
  for (int k = 0; k < (quick ? 40 : 200); k++) { /* random nets, widths 1..8, 1..4 layers */
    int L = 1 + k % 4, w[4];
    for (int l = 0; l < L; l++) w[l] = 1 + (int)nnt_rng_below(&rg, 8);
    nnt_mlp g;
    nnt_approx_random_1d_net(&g, &rg, w, L);
    ok &= nnt_approx_thm46_measure(&g, 5760, &st) == 1, nets++;
    min_stated = min_nan(min_stated, st.log10_ratio_stated), min_na = min_nan(min_na, st.ratio_na);
    nnt_mlp_free(&g);
  }
  nnt_approx_check_row *r = row(t, "Q28.2", "Thm 4.6", "int(f-x^2)^2 >= 1/(5760(2N/L)^{4L}) and >= 1/(5760 N_A^4): shifted h_i, Delta^k, shallow h_i, random nets");
  SET(bound, ">= 1; shifted h_i = 32");
  SET(measured, "%d nets: min ratio N_A form %.2f, stated form 10^%.1f; shifted h_i |ratio/32-1| %.1e", nets, min_na,
      min_stated, worst32);
  SET(note, "the stated form is loose by >= 10^%.0f (N_A <= (2N/L)^L); the N_A form by 32 at best (proof's 1/2 and 1/(2N))",
      floor(min_stated));
  r->pass = ok && worst32 < 1e-9;

  /* Lemma 4.11: f o g and f + g of random nets, counted by the engine and by hand */
  int ok411 = 1, pairs = quick ? 40 : 200;
  long max_fg = 0, max_prod = 0;
  double tight = 0;
  for (int k = 0; k < pairs; k++) {
    int L = 1 + k % 2, wf[2], wg[2];
    for (int l = 0; l < L; l++) wf[l] = 1 + (int)nnt_rng_below(&rg, 6), wg[l] = 1 + (int)nnt_rng_below(&rg, 6);
    nnt_mlp f, g, fg, fpg;
    nnt_approx_random_1d_net(&f, &rg, wf, L);
    nnt_approx_random_1d_net(&g, &rg, wg, L);
    /* spread g's range over f's kinks so the cuts are exercised */
    g.layers[g.nlayers - 1].b[0] += 0.5;
    nnt_approx_net_compose(&fg, &g, &f);
    nnt_approx_net_sum(&fpg, &f, &g);
    nnt_approx_lemma411_stats ls;
    ok411 &= nnt_approx_lemma411_measure(&f, &g, &fg, &fpg, &ls);
    if (ls.na_fg > max_fg) max_fg = ls.na_fg, max_prod = ls.na_f * ls.na_g;
    nnt_mlp_free(&f), nnt_mlp_free(&g), nnt_mlp_free(&fg), nnt_mlp_free(&fpg);
  }
  /* Remark: Delta meets the composition rule on [0,1]: N_A(Delta o Delta^k) = 2 * 2^k */
  int tight_bad = 0;
  for (int k = 1; k <= 12; k++) {
    nnt_mlp d1, dk, c;
    nnt_approx_build_delta(&d1, 1), nnt_approx_build_delta(&dk, k);
    nnt_approx_net_compose(&c, &dk, &d1);
    nnt_approx_pwl_summary a, b, ab;
    nnt_approx_pwl_summarize(&d1, NULL, 0, 1, &a), nnt_approx_pwl_summarize(&dk, NULL, 0, 1, &b);
    nnt_approx_pwl_summarize(&c, NULL, 0, 1, &ab);
    tight_bad += ab.pieces != a.pieces * b.pieces;
    tight = (double)ab.pieces;
    nnt_mlp_free(&d1), nnt_mlp_free(&dk), nnt_mlp_free(&c);
  }
  r = row(t, "Q32", "Lemma 4.11", "N_A(f o g) <= N_A(f)N_A(g), N_A(f+g) <= N_A(f)+N_A(g): engine = independent count; Delta meets it");
  SET(bound, "rule; engine = by hand");
  SET(measured, "%d random pairs: all within and matching (largest f o g %ld <= %ld); Delta o Delta^k on [0,1]: %d off, k=12 %.0f",
      pairs, max_fg, max_prod, tight_bad, tight);
  r->pass = ok411 && tight_bad == 0;

  /* Thm 4.4 against the best fits: L = 2, n = 6, N_A <= (2 2^L/L)^L = 16 within the budget */
  enum { GN = 6, GP = 64 };
  double gl1[GP], min_budget = INFINITY, min_margin = INFINITY, dp_gap = 0;
  nnt_mlp fits[GP];
  int okfit = nnt_approx_sep_grid_fit(GN, GP, 9, gl1, fits) == NNT_OK, argmin = 0;
  for (int p = 1; okfit && p <= GP; p++) {
    nnt_approx_sep_result sr;
    nnt_approx_sep_check(&fits[p - 1], GN, &sr);
    dp_gap = max_nan(dp_gap, fabs(sr.l1 - gl1[p - 1]));
    okfit &= sr.pieces <= p && sr.l1 >= sr.lb && fabs(sr.l1 - gl1[p - 1]) < 1e-12; /* NaN fails */
    if (sr.l1 - sr.lb < min_margin) min_margin = sr.l1 - sr.lb, argmin = p;
    if (p <= 16) min_budget = min_nan(min_budget, sr.l1);
    nnt_mlp_free(&fits[p - 1]);
  }
  r = row(t, "Q27.2", "Thm 4.4 best fits", "L1-best continuous fits of Delta^6 with p = 1..64 pieces (grid DP): L1 >= lb(6,P); >= 1/32 for p <= 16");
  SET(bound, "lb(6,P); 1/32");
  SET(measured, "best L1, <= 16 pieces: %.4f = %.1fx 1/32, %.1fx lb(6,16); L1-lb >= %.4f (p=%d); p=64: %.1g; DP-engine %.0e",
      min_budget, min_budget * 32, min_budget / nnt_approx_sep_lb(GN, 16), min_margin, argmin, gl1[GP - 1], dp_gap);
  SET(note, "breakpoints on k/128, values on k/8: an upper bound on the unrestricted best fit");
  r->pass = okfit && dp_gap < 1e-12 && min_budget >= 1.0 / 32 && gl1[GP - 1] < 1e-15;

  /* Thm 4.4's construction of Delta^{L^2+2} */
  int ok44 = 1;
  char meas[96] = "";
  for (int L = 2; L <= 4; L++) {
    nnt_mlp f;
    nnt_approx_build_delta(&f, L * L + 2);
    nnt_approx_thm44_size_stats ss;
    ok44 &= nnt_approx_thm44_size_measure(&f, L, &ss);
    char b[40];
    snprintf(b, sizeof b, "%sL=%d: %ld/%d/%ld", L > 2 ? "; " : "", L, ss.nodes, ss.relu_layers, ss.pieces);
    strcat(meas, b);
    nnt_mlp_free(&f);
  }
  r = row(t, "Q33", "Thm 4.4 sizes", "Delta^{L^2+2} as a net: 3L^2+6 ReLUs, 2L^2+4 layers, = Delta^{L^2+2} on [0,1] (L=2..4)");
  SET(bound, "exact");
  SET(measured, "ReLUs/ReLU layers/pieces %s", meas);
  SET(note, "L^2+2 ReLU layers; 2L^2+4 counts each Delta's output combination as a layer (as P19)");
  r->pass = ok44;
}

static void q31(nnt_approx_check_result *t, int quick, uint64_t seed) {
  long ms[3] = {100, 1000, 10000};
  int nm = quick ? 2 : 3, ok = 1;
  nnt_approx_lazy_stats L[3];
  char meas[160] = "";
  for (int q = 0; q < nm; q++) {
    nnt_rng rg;
    nnt_rng_init(&rg, seed, 3100 + q);
    nnt_approx_lazy_train(&rg, ms[q], 500, &L[q]);
    char b[48];
    snprintf(b, sizeof b, "%sm=%ld: fro %.2f row %.3f gap %.3f", q ? "; " : "", ms[q], L[q].fro, L[q].rowmax, L[q].gap);
    strncat(meas, b, sizeof meas - strlen(meas) - 1);
    ok &= L[q].train_mse < 1e-6;
    if (q) ok &= L[q].gap < L[q - 1].gap && L[q].rowmax < L[q - 1].rowmax && fabs(L[q].fro / L[0].fro - 1) < 0.5;
  }
  nnt_approx_check_row *r = row(t, "Q31", "[ext] lazy training", "GD on the inner layer: ||V-V0||_F = O(1), max row move and |f_GD - f_lin| shrink with m");
  SET(bound, "decreasing in m");
  SET(measured, "%s", meas);
  SET(note, "beyond the book (ch. 5 is empty in the draft); illustration of ch. 3's picture");
  r->pass = ok;
}

static void q25(nnt_approx_check_result *t, nnt_rng *rg, int quick) {
  int ok = 1;
  char meas[96] = "";
  static const int rs[2] = {2, 3};
  for (int q = 0; q < 2; q++) {
    nnt_approx_sobolev_report rep;
    nnt_approx_sobolev_measure(2, rs[q], quick ? 4 : 8, 8, quick ? 500 : 2000, rg, &rep);
    ok &= rep.sup <= rep.bound;
    char buf[48];
    snprintf(buf, sizeof buf, "%sr=%d: %.2e <= %.2e", q ? ", " : "", rs[q], rep.sup, rep.bound);
    strcat(meas, buf);
  }
  nnt_approx_check_row *r = row(t, "Q25", "Thm 5.4 (fixed)", "Sobolev net d=2 (Taylor deg r-1, signed products, clipping): sup err <= bound");
  SET(bound, "2^d 4^-k + 2^d(d-1)4^-k + C4^-k + Md^r/(r!s^r)");
  SET(measured, "s=%d k=8 %s", quick ? 4 : 8, meas);
  SET(note, "draft's degree-r Taylor / unclipped products / draft product break the proof (P21, P22)");
  r->erratum = 1;
  r->pass = ok;
}

void nnt_approx_check_cfg_default(nnt_approx_check_cfg *cfg, nnt_preset preset) {
  cfg->quick = preset == NNT_PRESET_QUICK;
  cfg->seed = 1;
}

int nnt_approx_check_run(const nnt_approx_check_cfg *cfg, nnt_approx_check_result *t) {
  int quick = cfg->quick;
  uint64_t seed = cfg->seed;
  memset(t, 0, sizeof *t);
  nnt_rng rg;
  /* one stream per statement group so a group's numbers do not depend on the others */
  nnt_progress pr;
  nnt_progress_start(&pr, "approx check", 15);
  nnt_rng_init(&rg, seed, 1), q1(t, &rg);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 2), q2(t, &rg, quick);
  nnt_rng_init(&rg, seed, 35), q35(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  q4(t);
  q34(t);
  nnt_rng_init(&rg, seed, 37), q37(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 5), q5_q6(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 7), q7_q9(t, &rg, quick);
  nnt_rng_init(&rg, seed, 36), q36(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 10), ch3(t, &rg, quick, seed);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 16), q16_q17(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 18), q18_q30(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  q19(t);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 20), q20_q21_q28(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 22), q22_q24(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 25), q25(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  nnt_rng_init(&rg, seed, 26), q26_q27_q29(t, &rg, quick);
  nnt_progress_add(&pr, 1);
  ch4_counts(t, seed, quick);
  nnt_progress_add(&pr, 1);
  q31(t, quick, seed);
  nnt_progress_add(&pr, 1);
  nnt_progress_end(&pr);
  for (int i = 0; i < t->n; i++) t->fails += !t->rows[i].pass;
  return NNT_OK;
}
