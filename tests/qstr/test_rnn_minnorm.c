/* Theorem 9 as a run (qstr rnn-minnorm): the incremental min-norm readout against LAPACK's minimum-
 * norm least squares (dgelsd, SVD) on every offset's design matrix, its interpolation of the task
 * generator's labels, its exact test MSE against Monte Carlo on fresh prompts, the growth check
 * passing on the RNN and failing on the retrieval control. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_qstr.h"
#include "nnt_test.h"

/* y^_i = sum_k <M[t_i - i][k], x_{i+k}> for prompt b of s */
static double predict(const nnt_qstr_minnorm_data *s, const double *M, const double *X, int i, int ti) {
  int N = s->N, d = s->d, p = (2 * N - 1) * d;
  const double *m = M + (size_t)(ti - i + N - 1) * p;
  double y = 0;
  for (int j = 0; j < N; j++)
    for (int l = 0; l < d; l++) y += m[(size_t)(j - i + N - 1) * d + l] * X[(size_t)j * d + l];
  return y;
}

static void against_lapack(int N, int d, int n, uint64_t seed) {
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  tc.d = d;
  nnt_qstr_task t;
  CHECK(nnt_qstr_task_init(&t, &tc, seed) == NNT_OK);
  nnt_rng g;
  nnt_rng_init(&g, seed, 1);
  nnt_qstr_minnorm_data s;
  CHECK(nnt_qstr_minnorm_data_draw(&t, &g, n, &s) == NNT_OK);
  int G = 2 * N - 1, p = G * d;
  double *risk = malloc(sizeof(double) * (n + 1)), *norm2 = malloc(sizeof(double) * (n + 1));
  double *M = malloc(sizeof(double) * (size_t)G * p);
  CHECK(nnt_qstr_minnorm_curve(&s, 0, risk, norm2, M) == NNT_OK);
  CHECK_CLOSE(risk[0], 1, 1e-12); /* the zero readout: E y^2 = |u|^2 = 1 */
  CHECK(norm2[0] == 0);
  for (int b = 1; b <= n; b++) CHECK(risk[b] <= risk[b - 1] + 1e-12 && norm2[b] >= norm2[b - 1] - 1e-12);
  /* every label interpolated */
  double worst = 0, n2 = 0;
  for (int b = 0; b < n; b++)
    for (int i = 0; i < N; i++)
      worst = fmax(worst, fabs(predict(&s, M, s.X + (size_t)b * N * d, i, s.t[b * N + i]) - s.y[b * N + i]));
  CHECK(worst < 1e-9);
  for (int k = 0; k < G * p; k++) n2 += M[k] * M[k];
  CHECK_CLOSE(n2, norm2[n], 1e-9 * (1 + n2));
  /* per offset: LAPACK's minimum-norm least-squares solution of the same samples */
  double *A = malloc(sizeof(double) * (size_t)n * N * p), *B = malloc(sizeof(double) * (size_t)(n * N > p ? n * N : p));
  double *sv = malloc(sizeof(double) * p), diff = 0, scale = 0;
  for (int delta = -(N - 1); delta <= N - 1; delta++) {
    int m = 0;
    for (int b = 0; b < n; b++)
      for (int i = 0; i < N; i++) {
        if (s.t[b * N + i] - i != delta) continue;
        memset(A + (size_t)m * p, 0, sizeof(double) * p);
        for (int j = 0; j < N; j++)
          for (int l = 0; l < d; l++) A[(size_t)m * p + (j - i + N - 1) * d + l] = s.X[((size_t)b * N + j) * d + l];
        B[m++] = s.y[b * N + i];
      }
    if (m == 0) {
      for (int k = 0; k < p; k++) diff = fmax(diff, fabs(M[(size_t)(delta + N - 1) * p + k]));
      continue;
    }
    for (int k = m; k < p; k++) B[k] = 0;
    lapack_int rank; /* singular values below 1e-10 of the largest are zero (structurally empty slots) */
    CHECK(LAPACKE_dgelsd(LAPACK_ROW_MAJOR, m, p, 1, A, p, B, 1, sv, 1e-10, &rank) == 0);
    for (int k = 0; k < p; k++) {
      diff = fmax(diff, fabs(M[(size_t)(delta + N - 1) * p + k] - B[k]));
      scale = fmax(scale, fabs(B[k]));
    }
  }
  CHECK_MSG(diff < 1e-8 * (1 + scale), "N=%d n=%d: min-norm readout off LAPACK's by %g", N, n, diff);
  /* the exact test MSE against Monte Carlo through the readout on fresh prompts of the generator */
  nnt_qstr_minnorm_data f;
  nnt_rng_init(&g, seed, 2);
  int nt = 4000;
  CHECK(nnt_qstr_minnorm_data_draw(&t, &g, nt, &f) == NNT_OK);
  double s1 = 0, s2 = 0;
  for (int b = 0; b < nt; b++) {
    double e = 0;
    for (int i = 0; i < N; i++) {
      double r = predict(&s, M, f.X + (size_t)b * N * d, i, f.t[b * N + i]) - f.y[b * N + i];
      e += r * r / N;
    }
    s1 += e, s2 += e * e;
  }
  double mc = s1 / nt, se = sqrt((s2 / nt - mc * mc) / (nt - 1));
  CHECK_MSG(fabs(mc - risk[n]) < 5 * se + 1e-12, "N=%d n=%d: exact %g, Monte Carlo %g +- %g", N, n, risk[n], mc, se);
  nnt_qstr_minnorm_data_free(&f);
  nnt_qstr_minnorm_data_free(&s);
  nnt_qstr_task_free(&t);
  free(risk), free(norm2), free(M), free(A), free(B), free(sv);
}

static void run_check(void) {
  nnt_qstr_rnn_minnorm_cfg c;
  nnt_qstr_rnn_minnorm_cfg_default(&c, NNT_PRESET_QUICK);
  nnt_qstr_rnn_minnorm_result r;
  CHECK(nnt_qstr_rnn_minnorm_run(&c, &r) == NNT_OK);
  CHECK(r.grows && r.ncensored == 0 && r.slope > 0.5 && r.slope < 1.2);
  for (int k = 0; k < r.nN; k++) {
    CHECK(r.risk_at[k] <= c.target && r.risk[k][r.nstar[k] - 1] > c.target);
    CHECK(r.norm_at[k] < r.norm_true[k]); /* the min-norm interpolant is the shorter one: Theorem 9's mechanism */
  }
  nnt_qstr_rnn_minnorm_result_free(&r);
  /* the control outside the theorem: with x_{t_i} in the readout one prompt is enough at every N */
  c.retrieve = 1;
  CHECK(nnt_qstr_rnn_minnorm_run(&c, &r) == NNT_ECHECK);
  CHECK(!r.grows && r.nstar[0] == 1 && r.nstar[2] == 1);
  nnt_qstr_rnn_minnorm_result_free(&r);
  c.retrieve = 0, c.nN = 2;
  CHECK(nnt_qstr_rnn_minnorm_run(&c, &r) == NNT_EINVAL);
  c.nN = 3, c.Ns[2] = c.Ns[1];
  CHECK(nnt_qstr_rnn_minnorm_run(&c, &r) == NNT_EINVAL);
}

int main(void) {
  against_lapack(4, 2, 3, 1);   /* every offset underdetermined */
  against_lapack(5, 1, 40, 2);  /* the central offsets overdetermined (consistent: the truth itself) */
  against_lapack(8, 3, 12, 3);
  run_check();
  TEST_MAIN_END();
}
