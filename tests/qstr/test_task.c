/* qSTR generator (spec acceptance checks 1-5), the eq. (A.2) construction against its closed
 * form, Theorem 6's formula, and the fixed-seed determinism of a training run. */
#include <stdlib.h>
#include <string.h>

#include "nnt_qstr.h"
#include "nnt_test.h"

static void de_table(void) {
  static const int N[] = {2, 4, 6, 8, 10, 12, 25, 27, 29, 31, 33, 100};
  static const int de[] = {3, 6, 8, 10, 11, 12, 16, 16, 16, 17, 17, 23};
  static const int D[] = {16, 22, 26, 30, 32, 34, 42, 42, 42, 44, 44, 56};
  for (int k = 0; k < 12; k++) {
    CHECK(nnt_qstr_default_de(N[k]) == de[k]);
    nnt_qstr_task_cfg c;
    nnt_qstr_task_cfg_default(&c, N[k]);
    nnt_qstr_task t;
    CHECK(nnt_qstr_task_init(&t, &c, 1) == 0);
    CHECK(t.D == D[k]);
    nnt_qstr_task_free(&t);
  }
}

static void labels(int simple) {
  nnt_qstr_task_cfg c;
  nnt_qstr_task_cfg_default(&c, 6);
  c.simple = simple;
  nnt_qstr_task t;
  CHECK(nnt_qstr_task_init(&t, &c, 3) == 0);
  int N = 6, d = 10, de = t.c.de, D = t.D, B = 20000;
  double *X = malloc(sizeof(double) * B * N * D), *y = malloc(sizeof(double) * B * N);
  int *idx = malloc(sizeof(int) * B * N);
  nnt_rng r;
  nnt_rng_init(&r, 7, simple);
  nnt_qstr_sample_f64(&t, &r, B, -1, X, y, idx);
  int exact = 1, same = 1, codes = 1;
  double s1 = 0, s2 = 0;
  for (int b = 0; b < B; b++)
    for (int i = 0; i < N; i++) {
      const double *z = X + ((size_t)b * N + i) * D;
      int ti = idx[b * N + i];
      double v = 0;
      for (int k = 0; k < d; k++) v += t.u[k] * X[((size_t)b * N + ti) * D + k];
      exact &= fabs(v - y[b * N + i]) < 1e-12;
      same &= !simple || ti == idx[b * N];
      for (int k = 0; k < de; k++) codes &= z[d + k] == t.E[i * de + k] && z[d + de + k] == t.E[ti * de + k];
      s1 += y[b * N + i], s2 += y[b * N + i] * y[b * N + i];
    }
  CHECK(exact);
  CHECK(same);
  CHECK(codes);
  double var = s2 / (B * N) - (s1 / (B * N)) * (s1 / (B * N));
  CHECK_MSG(fabs(var - 1) < (simple ? 0.05 : 0.03), "Var(y) = %g", var); /* 5 std errors; simple: one label per prompt */
  for (int k = 0; k < N * de; k++) CHECK(fabs(fabs(t.E[k]) - 1 / sqrt((double)de)) < 1e-15);
  nnt_qstr_task_free(&t);
  free(X), free(y), free(idx);
}

static void sharing(void) {
  nnt_qstr_task_cfg c;
  nnt_qstr_task a, b, e;
  nnt_qstr_task_cfg_default(&c, 4);
  nnt_qstr_task_init(&a, &c, 9);
  nnt_qstr_task_init(&e, &c, 9);
  c.N = 12;
  nnt_qstr_task_init(&b, &c, 9);
  CHECK(memcmp(a.u, b.u, sizeof(double) * 10) == 0);                       /* u same for every N */
  CHECK(memcmp(a.E, e.E, sizeof(double) * 4 * a.c.de) == 0);               /* E fixed per N */
  nnt_qstr_task_free(&a), nnt_qstr_task_free(&b), nnt_qstr_task_free(&e);
}

static void duplicates(void) {
  /* P(duplicate code) ~ 12.5% at N = 2 (d_e = 3), 9.1% at N = 4, 1.6% at N = 12 */
  static const int N[] = {2, 4, 12};
  static const double p[] = {0.125, 0.091, 0.016};
  for (int k = 0; k < 3; k++) {
    int dup = 0, dup2 = 0, M = 3000;
    for (int s = 0; s < M; s++) {
      nnt_qstr_task_cfg c;
      nnt_qstr_task_cfg_default(&c, N[k]);
      nnt_qstr_task t;
      nnt_qstr_task_init(&t, &c, 1000 + s);
      int d1;
      nnt_qstr_code_coherence(&t, &d1);
      dup += d1;
      nnt_qstr_task_free(&t);
      c.no_dup_codes = 1;
      nnt_qstr_task_init(&t, &c, 1000 + s);
      nnt_qstr_code_coherence(&t, &d1);
      dup2 += d1;
      nnt_qstr_task_free(&t);
    }
    double f = (double)dup / M, se = sqrt(p[k] * (1 - p[k]) / M);
    CHECK_MSG(fabs(f - p[k]) < 4 * se, "N=%d duplicate rate %g, expected %g", N[k], f, p[k]);
    CHECK(dup2 == 0);
  }
}

static void bad_input(void) {
  nnt_qstr_task_cfg c;
  nnt_qstr_task t;
  nnt_qstr_task_cfg_default(&c, 1);
  CHECK(nnt_qstr_task_init(&t, &c, 1) != 0);
  nnt_qstr_task_cfg_default(&c, 4);
  c.q = 5;
  CHECK(nnt_qstr_task_init(&t, &c, 1) != 0);
  nnt_qstr_task_cfg_default(&c, 4);
  c.q = 3, c.law = NNT_QSTR_LAW_ADVERSARIAL;
  CHECK(nnt_qstr_task_init(&t, &c, 1) != 0);
}

static void construction(void) {
  for (int q = 1; q <= 2; q++) {
    nnt_qstr_task_cfg c;
    nnt_qstr_task_cfg_default(&c, 8);
    c.q = q, c.enc = NNT_QSTR_ENC_PAPER, c.no_dup_codes = 1;
    nnt_qstr_task t;
    CHECK(nnt_qstr_task_init(&t, &c, 2) == 0);
    double prev = 2;
    for (double a = 0; a <= 1.0; a += 0.25) {
      nnt_rng r;
      nnt_rng_init(&r, 5, (uint64_t)(a * 100));
      double cl, mc, se;
      nnt_qstr_construct_mse(&t, a, &r, 1500, &cl, &mc, &se);
      CHECK_MSG(fabs(mc - cl) < 5 * se + 1e-12, "q=%d alpha=%g: closed %g, MC %g +- %g", q, a, cl, mc, se);
      CHECK(cl <= prev + 1e-12);
      prev = cl;
    }
    CHECK(prev < 0.02);
    nnt_qstr_task_free(&t);
  }
}

static void theorem6(void) {
  nnt_rng r;
  nnt_rng_init(&r, 1, 1);
  int N = 3, d = 4;
  for (int n = 0; n <= 12; n += 4) {
    double se, m = nnt_qstr_ffn_minnorm_mse(N, d, n, 1000, 10, &r, &se);
    CHECK_MSG(fabs(m - (1 - n / 12.0)) < 5 * se + 0.01, "n=%d: %g vs %g", n, m, 1 - n / 12.0);
  }
  CHECK_CLOSE(nnt_qstr_heads_bound(1, 2, 10), 0.4, 1e-12);
  CHECK_CLOSE(nnt_qstr_heads_bound_exact(1, 2), 0.5, 1e-12);
}

static void determinism(void) {
  /* a short censored run is bit-identical across calls; every count is a multiple of batch*check */
  nnt_qstr_task_cfg c;
  nnt_qstr_task_cfg_default(&c, 4);
  nnt_qstr_task t;
  nnt_qstr_task_init(&t, &c, 1);
  nnt_qstr_model mo;
  nnt_qstr_model_setup(&mo, NNT_QSTR_TR, 4, t.D, 100, 1, 0, NULL);
  nnt_qstr_train_cfg tc;
  nnt_qstr_train_cfg_default(&tc);
  tc.n_test = 200, tc.threshold = 0.7, tc.test_simple = 1;
  nnt_qstr_result a, b;
  nnt_qstr_train_online(&t, &mo, &tc, 1, 5, &a);
  nnt_qstr_train_online(&t, &mo, &tc, 1, 5, &b);
  CHECK(a.samples == b.samples && a.final_mse == b.final_mse);
  CHECK(!a.censored && a.samples % 640 == 0 && a.final_mse < 0.7);
  tc.max_samples = 1280;
  nnt_qstr_train_online(&t, &mo, &tc, 1, 5, &a);
  CHECK(a.censored && a.samples == 1280);
  nnt_qstr_task_free(&t);
}

int main(void) {
  de_table();
  labels(0);
  labels(1);
  sharing();
  duplicates();
  bad_input();
  construction();
  theorem6();
  determinism();
  TEST_MAIN_END();
}
