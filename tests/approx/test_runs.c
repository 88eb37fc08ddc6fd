/* The demos' runs (nnt_approx_<demo>_run) against closed forms and independent references: the exact
 * PWL error integral against polynomial integration, the Gram spectra against the DFT of a circulant
 * matrix, kernel ridge against the projection it must give, piece counts against 2^L. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "nnt_approx.h"
#include "nnt_error.h"
#include "nnt_test.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* f = a x + c: e = -x^2 + a x + c, int_0^1 e^2 = 1/5 - a/2 + (a^2 - 2c)/3 + a c + c^2. */
static void square_error_affine(void) {
  static const double ac[5][2] = {{0, 0}, {1, 0}, {1, -0.125}, {-0.5, 0.3}, {2.5, -1}};
  for (int q = 0; q < 5; q++) {
    double a = ac[q][0], c = ac[q][1];
    nnt_mlp f;
    nnt_approx_net_affine(&f, 1, 1, &a, &c);
    nnt_approx_square_error e;
    CHECK(nnt_approx_square_error_of(&f, &e) == NNT_OK);
    double e0 = c, e1 = a + c - 1, sup = fmax(fabs(e0), fabs(e1));
    if (a > 0 && a < 2) sup = fmax(sup, fabs(c + a * a / 4));
    CHECK(e.pieces == 1);
    CHECK_CLOSE(e.l2sq, 0.2 - a / 2 + (a * a - 2 * c) / 3 + a * c + c * c, 1e-14);
    CHECK_CLOSE(e.sup, sup, 1e-15);
    CHECK_CLOSE(e.min, fmin(e0, e1), 1e-15);
    nnt_mlp_free(&f);
  }
  /* Yarotsky's h_i interpolates x^2 at k/2^i: sup 4^{-i-1}, int 2^{-4i}/30, min 0 */
  for (int i = 0; i <= 12; i++) {
    nnt_mlp h;
    nnt_approx_build_square(&h, i);
    nnt_approx_square_error e;
    CHECK(nnt_approx_square_error_of(&h, &e) == NNT_OK);
    CHECK(e.pieces == 1L << i);
    CHECK_CLOSE(e.sup, pow(4, -i - 1), 1e-13);
    CHECK_CLOSE(e.l2sq, pow(2, -4 * i) / 30, 1e-10);
    CHECK(fabs(e.min) < 1e-15);
    nnt_mlp_free(&h);
  }
  double W[2] = {1, 1}, b = 0;
  nnt_mlp two;
  nnt_approx_net_affine(&two, 2, 1, W, &b);
  nnt_approx_square_error e;
  CHECK(nnt_approx_square_error_of(&two, &e) == NNT_EINVAL);
  nnt_mlp_free(&two);
}

static void square_and_triangle(void) {
  nnt_approx_square_cfg sc = {.i = {0, 3, 11}, .ni = 3};
  nnt_approx_square_result sr;
  CHECK(nnt_approx_square_run(&sc, &sr) == NNT_OK && sr.n == 3);
  for (int q = 0; q < sr.n; q++) {
    CHECK_CLOSE(sr.rows[q].err.sup, sr.rows[q].sup_claim, 1e-12);
    CHECK(sr.rows[q].hidden_layers == sc.i[q]);
  }
  const nnt_approx_curve *h3 = &sr.rows[1].h;
  CHECK(h3->n == 9); /* the knots k/8: h_3 = x^2 there */
  for (int k = 0; k < h3->n; k++) CHECK(h3->x[k] == k / 8.0 && fabs(h3->y[k] - h3->x[k] * h3->x[k]) < 1e-15);
  CHECK(sr.rows[2].h.n == 0 && sr.rows[2].diff.n == 0); /* i = 11: beyond the plotted depths */
  nnt_approx_square_result_free(&sr);
  sc.i[0] = NNT_APPROX_SQUARE_MAX_I + 1;
  CHECK(nnt_approx_square_run(&sc, &sr) == NNT_EINVAL);

  nnt_approx_triangle_cfg tc = {.L = {1, 5, 10}, .nL = 3};
  nnt_approx_triangle_result tr;
  CHECK(nnt_approx_triangle_run(&tc, &tr) == NNT_OK && tr.bad == 0);
  for (int q = 0; q < tr.n; q++)
    CHECK(tr.rows[q].pieces_01 == 1L << tc.L[q] && tr.rows[q].pieces_R == (1L << tc.L[q]) + 2 && tr.rows[q].ok);
  const nnt_approx_curve *d1 = &tr.delta[0];
  CHECK(d1->n == 3 && d1->x[1] == 0.5 && d1->y[0] == 0 && d1->y[1] == 1 && d1->y[2] == 0);
  CHECK(tr.delta[2].n == 9);
  nnt_approx_triangle_result_free(&tr);
  tc.nL = 0;
  CHECK(nnt_approx_triangle_run(&tc, &tr) == NNT_EINVAL);
}

static void separation(void) {
  nnt_approx_separation_cfg c;
  nnt_approx_separation_result r;
  nnt_approx_separation_cfg_default(&c, NNT_PRESET_QUICK);
  CHECK(nnt_approx_separation_run(&c, &r) == NNT_EINVAL); /* no n */
  c.n = 6;
  CHECK(nnt_approx_separation_run(&c, &r) == NNT_EINVAL); /* neither net nor training */
  char path[] = "/tmp/nnt_test_runs_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  nnt_mlp d6;
  nnt_approx_build_delta(&d6, 6);
  CHECK(nnt_mlp_save(&d6, path) == NNT_OK);
  nnt_mlp_free(&d6);
  c.net = path, c.ntrain = 1, c.train[0] = 4;
  CHECK(nnt_approx_separation_run(&c, &r) == NNT_EINVAL); /* both */
  c.ntrain = 0;
  CHECK(nnt_approx_separation_run(&c, &r) == NNT_OK);
  /* g = Delta^6 itself: no error, 2^6 pieces; the best fits with P < 64 pieces are the constant 1/2,
   * int |Delta^n - 1/2| = 1/4 and int (.)^2 = 1/12; Delta^k has 2^k - 1 interior breakpoints */
  CHECK(r.sep.pieces == 64 && r.sep.l1 == 0 && !r.violated && !isfinite(r.train_mse));
  CHECK(r.nfit == 7 && r.ncap == 6);
  for (int q = 0; q < r.nfit; q++) {
    const nnt_approx_sep_fit *f = &r.fit[q];
    CHECK(f->P == 1L << q);
    CHECK_CLOSE(f->l1, f->P < 64 ? 0.25 : 0, 1e-12);
    CHECK_CLOSE(f->l2sq, f->P < 64 ? 1.0 / 12 : 0, 1e-12);
    CHECK(f->P == 64 || f->dev < 1e-15);
  }
  for (int k = 1; k <= r.ncap; k++) CHECK(r.cap_breaks[k - 1] == (1L << k) - 1);
  nnt_approx_separation_result_free(&r);
  unlink(path);
  c.net = NULL, c.ntrain = 1, c.steps = 50;
  CHECK(nnt_approx_separation_run(&c, &r) == NNT_OK && isfinite(r.train_mse) && r.sep.relus == 4);
  nnt_approx_separation_result_free(&r);
}

/* 12 equally spaced circle points: k_inf depends on the angle only, so both Gram matrices are
 * circulant, with eigenvalues lambda_j = sum_k K[0][k] cos(2 pi j k / 12). */
static void ntk_padding(void) {
  enum { N = NNT_APPROX_NTK_NCIRCLE };
  nnt_approx_ntk_cfg c;
  nnt_approx_ntk_cfg_default(&c, NNT_PRESET_QUICK);
  c.nw = 3, c.pairs = 4;
  nnt_approx_ntk_result r;
  CHECK(nnt_approx_ntk_run(&c, &r) == NNT_OK && r.nw == 3 && r.m[2] == 1000);
  for (int pad = 0; pad < 2; pad++) {
    double dft[N], lmax = 0;
    for (int j = 0; j < N; j++) {
      dft[j] = 0;
      for (int k = 0; k < N; k++) dft[j] += r.gram[pad][k] * cos(2 * M_PI * j * k / N);
      lmax = fmax(lmax, dft[j]);
    }
    qsort(dft, N, sizeof *dft, cmp_double);
    for (int j = 0; j < N; j++) CHECK_MSG(fabs(r.eig[pad][j] - dft[j]) < 1e-13 * lmax, "pad %d: eig %d", pad, j);
  }
  CHECK(r.nzero[0] == 4 && r.nzero[1] == 0); /* frequencies 3, 5, 7, 9 vanish without padding */
  /* sin 3 theta is in the plain Gram's null space: the fit is 0 and the MSE is mean sin^2 = 1/2 */
  CHECK_CLOSE(r.ridge_mse[0], 0.5, 1e-6);
  CHECK(r.ridge_mse[1] < 1e-12);
  nnt_approx_ntk_result_free(&r);
  c.widths[1] = 0;
  CHECK(nnt_approx_ntk_run(&c, &r) == NNT_EINVAL);
}

static void sampled_demos(void) {
  nnt_approx_maurey_cfg mc, mq;
  nnt_approx_maurey_cfg_default(&mc, NNT_PRESET_FULL), nnt_approx_maurey_cfg_default(&mq, NNT_PRESET_QUICK);
  CHECK(mc.nk == 5 && mq.nk == 4);
  mq.nk = 3, mq.trials = 100;
  nnt_approx_maurey_result mr;
  CHECK(nnt_approx_maurey_run(&mq, &mr) == NNT_OK);
  /* E ||f_k - sin 2 pi x||^2 = 7.5/k exactly (Maurey's identity) */
  for (int q = 0; q < mr.nk; q++) CHECK(fabs(mr.sin[q].mse - 7.5 / mr.sin[q].k) <= 5 * mr.sin[q].se);
  CHECK(mr.gauss_over == 0 && mr.mass <= 2 * M_PI);
  nnt_approx_maurey_result_free(&mr);

  nnt_approx_planting_cfg pc;
  nnt_approx_planting_cfg_default(&pc, NNT_PRESET_QUICK);
  nnt_approx_planting_result pr;
  CHECK(nnt_approx_planting_run(&pc, &pr) == NNT_OK && !pr.violated);
  /* m = ceil(4^4 ln(1/delta) / tau^2), |U_i| = floor(m tau / 16) */
  CHECK(pr.plant.m == (long)ceil(256 * log(10) / 0.01) && pr.plant.usz == (long)floor(pr.plant.m * 0.1 / 16));
  nnt_approx_planting_result_free(&pr);
  pc.tau = 0.5;
  CHECK(nnt_approx_planting_run(&pc, &pr) == NNT_EINVAL);

  nnt_approx_sobolev_cfg sc;
  nnt_approx_sobolev_cfg_default(&sc, NNT_PRESET_QUICK);
  sc.d = 1;
  nnt_approx_sobolev_result sr;
  CHECK(nnt_approx_sobolev_run(&sc, &sr) == NNT_OK && sr.n == 2 * sc.ns[0] && sr.bad == 0);
  nnt_approx_sobolev_result_free(&sr);
  sc.d = 3;
  CHECK(nnt_approx_sobolev_run(&sc, &sr) == NNT_EINVAL);

  nnt_approx_lazy_cfg lc;
  nnt_approx_lazy_cfg_default(&lc, NNT_PRESET_QUICK);
  nnt_approx_lazy_result lr;
  CHECK(nnt_approx_lazy_run(&lc, &lr) == NNT_OK && lr.n == 2);
  CHECK(lr.rows[1].gap < lr.rows[0].gap && lr.rows[1].rowmax < lr.rows[0].rowmax); /* lazier as m grows */
  nnt_approx_lazy_result_free(&lr);
  lc.widths[0] = 1;
  CHECK(nnt_approx_lazy_run(&lc, &lr) == NNT_EINVAL);
}

int main(void) {
  square_error_affine();
  square_and_triangle();
  separation();
  ntk_padding();
  sampled_demos();
  TEST_MAIN_END();
}
