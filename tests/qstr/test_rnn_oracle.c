/* The RNN side of seed 001: the oracle RNN of Prop. 28 against the task generator's labels (linear
 * and ReLU-teacher links, q = 1 and 2), faults in its weights caught; the linear-state width bound against a direct count and against the
 * shift-register RNN; the log-log slope fit; the heads check with an injected bound; the Figure-1
 * protocols. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_qstr.h"
#include "nnt_test.h"

/* largest |yhat - y| of the oracle over n prompts of law `simple` */
static double oracle_worst(const nnt_qstr_task *t, const nnt_qstr_oracle *o, int simple, int n, uint64_t stream) {
  int N = t->c.N, D = t->D;
  double *X = malloc(sizeof(double) * N * D), *y = malloc(sizeof(double) * N), *yh = malloc(sizeof(double) * N);
  nnt_rng r;
  nnt_rng_init(&r, 7, stream);
  double worst = 0;
  for (int b = 0; b < n; b++) {
    nnt_qstr_sample_f64(t, &r, 1, simple, X, y, NULL);
    nnt_qstr_oracle_forward(o, X, yh);
    for (int i = 0; i < N; i++) worst = fmax(worst, fabs(yh[i] - y[i]));
  }
  free(X), free(y), free(yh);
  return worst;
}

static void oracle_exact(void) {
  static const struct { int N, d, q; nnt_qstr_link link; } cases[] = {
      {8, 3, 1, NNT_QSTR_LINK_LINEAR}, {12, 4, 2, NNT_QSTR_LINK_LINEAR}, {9, 2, 2, NNT_QSTR_LINK_RELU}, {33, 10, 1, NNT_QSTR_LINK_LINEAR}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    nnt_qstr_task_cfg tc;
    nnt_qstr_task_cfg_default(&tc, cases[c].N);
    tc.d = cases[c].d, tc.q = cases[c].q, tc.link = cases[c].link, tc.simple = 1, tc.no_dup_codes = 1;
    nnt_qstr_task t;
    CHECK(nnt_qstr_task_init(&t, &tc, 3) == NNT_OK);
    nnt_qstr_oracle o;
    CHECK(nnt_qstr_oracle_build(&t, 8, &o) == NNT_OK);
    CHECK(o.dh == cases[c].q * cases[c].d);
    double w = oracle_worst(&t, &o, 1, 300, 1);
    CHECK(w < 1e-9);
    /* the same network on general qSTR is not a solution */
    CHECK(oracle_worst(&t, &o, 0, 50, 2) > 0.1);
    /* faults: the gate's bias (every code looks like the target's), a read-out weight */
    double keep = o.b[1][2 * tc.d];
    o.b[1][2 * tc.d] += 3.0;
    CHECK(oracle_worst(&t, &o, 1, 50, 3) > 0.1);
    o.b[1][2 * tc.d] = keep;
    o.Wy[0] *= 1.01;
    CHECK(oracle_worst(&t, &o, 1, 50, 3) > 1e-5);
    nnt_qstr_oracle_free(&o);
    nnt_qstr_task_free(&t);
  }
  /* the oracle is for simple-qSTR with an exact two-layer link */
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, 6);
  nnt_qstr_task t;
  nnt_qstr_oracle o;
  CHECK(nnt_qstr_task_init(&t, &tc, 1) == NNT_OK);
  CHECK(nnt_qstr_oracle_build(&t, 8, &o) == NNT_EINVAL); /* not simple */
  nnt_qstr_task_free(&t);
  tc.simple = 1, tc.link = NNT_QSTR_LINK_NORMSQ;
  CHECK(nnt_qstr_task_init(&t, &tc, 1) == NNT_OK);
  CHECK(nnt_qstr_oracle_build(&t, 8, &o) == NNT_EINVAL);
  nnt_qstr_task_free(&t);
}

static void width_bound(void) {
  /* the formula against a direct count: position j (1-based) misses (j-1-r)+ forward and (N-j-r)+
   * backward targets of variance 1, t_j uniform over N */
  for (int N = 2; N <= 40; N += 7)
    for (int r = 0; r <= N; r++) {
      double s = 0;
      for (int j = 1; j <= N; j++) s += fmax(j - 1 - r, 0) + fmax(N - j - r, 0);
      CHECK_CLOSE(nnt_qstr_rnn_linear_bound(N, r), s / ((double)N * N), 1e-12);
    }
  CHECK_CLOSE(nnt_qstr_rnn_linear_bound(10, 0), 0.9, 1e-15);
  CHECK(nnt_qstr_rnn_linear_bound(10, 9) == 0);
  int r = nnt_qstr_rnn_min_width(64, 0.1);
  CHECK(nnt_qstr_rnn_linear_bound(64, r) <= 0.1 && nnt_qstr_rnn_linear_bound(64, r - 1) > 0.1);
  /* the shift register meets the bound (within sampling error), and one slot fewer is worse */
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, 16);
  tc.d = 3;
  nnt_qstr_task t;
  CHECK(nnt_qstr_task_init(&t, &tc, 2) == NNT_OK);
  nnt_rng g;
  nnt_rng_init(&g, 2, 9);
  for (int w = 0; w <= 15; w += 5) {
    double se, m = nnt_qstr_rnn_shift_mse(&t, w, &g, 3000, &se);
    CHECK(fabs(m - nnt_qstr_rnn_linear_bound(16, w)) < 5 * se + 1e-12);
    if (w < 15) CHECK(fabs(m - nnt_qstr_rnn_linear_bound(16, w + 1)) > 5 * se);
  }
  double se;
  CHECK(nnt_qstr_rnn_shift_mse(&t, 15, &g, 100, &se) < 1e-20);
  nnt_qstr_task_free(&t);
  /* the run: quick preset passes; the rmin grows linearly */
  nnt_qstr_rnn_oracle_cfg c;
  nnt_qstr_rnn_oracle_cfg_default(&c, NNT_PRESET_QUICK);
  nnt_qstr_rnn_oracle_result res;
  CHECK(nnt_qstr_rnn_oracle_run(&c, &res) == NNT_OK);
  CHECK(res.exact_fail == 0 && res.width_off == 0);
  CHECK(res.rmin_slope > 0.8 && res.rmin_slope < 1.2);
  for (int k = 1; k < res.nN; k++) CHECK(res.width[k] == res.width[0] && res.rmin[k] > res.rmin[k - 1]);
  /* the check is two-sided: a bound inflated x1.5 (the register would beat a lower bound) and one
   * deflated x0.5 (the register would not meet it) both fail, at every point where the bound is > 0 */
  for (int j = 0; j < 2; j++) {
    c.bound_scale = j ? 0.5 : 1.5;
    CHECK(nnt_qstr_rnn_oracle_run(&c, &res) == NNT_ECHECK);
    CHECK(res.exact_fail == 0 && res.width_off == 2 * res.nN - 1); /* N = 4 at r_min = 3: bound 0 */
  }
  c.bound_scale = 0;
  CHECK(nnt_qstr_rnn_oracle_run(&c, &res) == NNT_EINVAL);
  c.bound_scale = 1;
  c.link = NNT_QSTR_LINK_NORMSQ;
  CHECK(nnt_qstr_rnn_oracle_run(&c, &res) == NNT_EINVAL);
}

static void slope_fit(void) {
  double x[5] = {2, 4, 8, 16, 32}, y[5];
  for (int k = 0; k < 5; k++) y[k] = 3 * pow(x[k], 1.5);
  double r2;
  int used;
  CHECK_CLOSE(nnt_qstr_loglog_slope(5, x, y, &r2, NULL, &used), 1.5, 1e-12);
  CHECK_CLOSE(r2, 1, 1e-12);
  CHECK(used == 5);
  y[2] = 0; /* a point without a positive value is left out */
  CHECK_CLOSE(nnt_qstr_loglog_slope(5, x, y, NULL, NULL, &used), 1.5, 1e-12);
  CHECK(used == 4);
  CHECK(isnan(nnt_qstr_loglog_slope(1, x, y, NULL, NULL, NULL)));
  double same[2] = {4, 4};
  CHECK(isnan(nnt_qstr_loglog_slope(2, same, y, NULL, NULL, NULL)));
  /* the slope's standard error against numpy's lstsq covariance on noisy points: 1.04 +- 0.0648074 */
  double xn[4] = {1, exp(1), exp(2), exp(3)}, yn[4] = {1, exp(1.1), exp(1.9), exp(3.2)}, se;
  CHECK_CLOSE(nnt_qstr_loglog_slope(4, xn, yn, NULL, &se, NULL), 1.04, 1e-12);
  CHECK_CLOSE(se, 0.06480740698407862, 1e-12);
  CHECK(isnan((nnt_qstr_loglog_slope(2, x, y, NULL, &se, NULL), se))); /* two points: no residual */
}

static void heads_check(void) {
  nnt_qstr_heads_cfg h;
  nnt_qstr_heads_cfg_default(&h, NNT_PRESET_QUICK);
  CHECK(h.law == NNT_QSTR_LAW_ADVERSARIAL);
  h.nH = 2, h.Hs[0] = 1, h.Hs[1] = 3, h.samples = 6400, h.n_test = 300, h.cons_n = 50, h.threads = 1;
  nnt_qstr_heads_result r;
  CHECK(nnt_qstr_heads_run(&h, &r) == NNT_OK);
  CHECK(r.checked && r.violations == 0);
  CHECK(r.bound[0] > 0.5 && r.se[0] > 0 && r.mse[0] > r.bound[0]);
  /* a bound above what the model reaches must be reported as violated */
  r.bound[0] = r.mse[0] + 6 * r.se[0];
  CHECK(nnt_qstr_heads_judge(&r) == NNT_ECHECK && r.violations == 1 && r.below[0] == 1);
  r.bound[0] = r.mse[0] + 4 * r.se[0]; /* within 5 standard errors: sampling error, not a violation */
  CHECK(nnt_qstr_heads_judge(&r) == NNT_OK);
  /* under the uniform law nothing is proven, so nothing is checked */
  r.checked = 0, r.bound[0] = 10;
  CHECK(nnt_qstr_heads_judge(&r) == NNT_OK);
  /* the adversarial law needs q <= N/2 */
  h.q = 4;
  CHECK(nnt_qstr_heads_run(&h, &r) == NNT_EINVAL);
}

static void figure_presets(void) {
  nnt_qstr_sweep_cfg s;
  nnt_qstr_sweep_cfg_default(&s, NNT_PRESET_FULL);
  s.arch = NNT_QSTR_FFN;
  nnt_qstr_sweep_figure(&s, 2, NNT_PRESET_FULL);
  CHECK(s.arch == NNT_QSTR_FFN && s.figure == 2 && s.task.simple == 1 && s.train.threshold == 0.02);
  CHECK(s.train.check_every == 100 && s.train.n_test == 5000 && s.reps == 5 && s.nN == 5 && s.Ns[0] == 25 && s.Ns[4] == 33);
  CHECK(s.hidden_size == 500 && s.train.test_simple == 1 && s.train.max_samples == 1000000);
  nnt_qstr_sweep_figure(&s, 1, NNT_PRESET_FULL);
  CHECK(s.figure == 1 && s.task.simple == 0 && s.train.threshold == 0.7 && s.train.check_every == 10);
  CHECK(s.nN == 6 && s.Ns[5] == 12 && s.train.test_simple == 1);
  nnt_qstr_sweep_figure(&s, 2, NNT_PRESET_QUICK);
  CHECK(s.reps == 1 && s.hidden_size == 64 && s.task.simple == 1 && s.train.threshold == 0.02 && s.nN == 2);
  CHECK(nnt_qstr_sweep_check(&s) == NNT_OK);
}

int main(void) {
  oracle_exact();
  width_bound();
  slope_fit();
  heads_check();
  figure_presets();
  TEST_MAIN_END();
}
