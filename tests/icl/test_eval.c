/* ICL baselines and R² evaluation: each against an independent computation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../nnt_test.h"
#include "nnt_error.h"
#include "nnt_icl_eval.h"
#include "nnt_icl_gpt.h"

/* Gaussian elimination with partial pivoting on an m×m system (A row-major, overwritten). */
static void gauss(double *A, double *b, int m) {
  for (int c = 0; c < m; c++) {
    int p = c;
    for (int r = c + 1; r < m; r++)
      if (fabs(A[r * m + c]) > fabs(A[p * m + c])) p = r;
    for (int j = 0; j < m; j++) {
      double t = A[c * m + j];
      A[c * m + j] = A[p * m + j], A[p * m + j] = t;
    }
    double t = b[c];
    b[c] = b[p], b[p] = t;
    for (int r = c + 1; r < m; r++) {
      double f = A[r * m + c] / A[c * m + c];
      for (int j = c; j < m; j++) A[r * m + j] -= f * A[c * m + j];
      b[r] -= f * b[c];
    }
  }
  for (int c = m - 1; c >= 0; c--) {
    for (int j = c + 1; j < m; j++) b[c] -= A[c * m + j] * b[j];
    b[c] /= A[c * m + c];
  }
}

static const double *dist_x, *dist_q;
static int dist_d;
static double dist(int i) {
  double s = 0;
  for (int p = 0; p < dist_d; p++) s += (dist_x[i * dist_d + p] - dist_q[p]) * (dist_x[i * dist_d + p] - dist_q[p]);
  return s;
}
static int by_dist(const void *a, const void *b) {
  double u = dist(*(const int *)a), v = dist(*(const int *)b);
  return u < v ? -1 : u > v ? 1 : *(const int *)a - *(const int *)b;
}

/* A fake in-context model: the prompt mean of the y's seen, in float. */
static int mean_model(void *ctx, const float *xs, const float *ys, int B, int n, float *pred) {
  (void)ctx, (void)xs;
  for (int b = 0; b < B; b++) {
    double s = 0;
    for (int k = 0; k < n; k++) {
      pred[b * n + k] = k ? (float)(s / k) : 0.0f;
      s += ys[b * n + k];
    }
  }
  return NNT_OK;
}

static int gpt_model(void *ctx, const float *xs, const float *ys, int B, int n, float *pred) {
  return nnt_icl_gpt_predict(ctx, xs, ys, B, n, pred);
}

static void small_cfg(nnt_icl_eval_cfg *c) {
  nnt_icl_eval_cfg_default(c, NNT_PRESET_QUICK);
  nnt_icl_task_default(&c->task, 4, 8, 3);
  c->task.width = 8;
  c->nmix = 2, c->mix[0] = 0, c->mix[1] = 0.5;
  c->prompts = 12, c->batch = 4;
  c->dc.width = 8, c->dc.steps = 20;
  c->nk = 2, c->ks[0] = 2, c->ks[1] = 5;
  c->threads = 1;
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 1, 0);
  /* R²: per batch against the direct formula; pooled (Chan merge) against all values at once */
  {
    enum { NB = 5, B = 7 };
    double y[NB][B], f[NB][B], all_m = 0, all_ss = 0, all_sse = 0;
    nnt_icl_r2_acc pooled = {0, 0, 0, 0};
    for (int b = 0; b < NB; b++) {
      double m = 0, m2 = 0, sse = 0;
      for (int i = 0; i < B; i++) y[b][i] = 3 + b + nnt_rng_normal(&r), f[b][i] = y[b][i] + 0.3 * nnt_rng_normal(&r);
      for (int i = 0; i < B; i++) m += y[b][i] / B;
      for (int i = 0; i < B; i++) m2 += (y[b][i] - m) * (y[b][i] - m), sse += (f[b][i] - y[b][i]) * (f[b][i] - y[b][i]);
      nnt_icl_r2_acc a = {B, m, m2, sse};
      double v;
      CHECK(nnt_icl_r2(&a, &v));
      CHECK_CLOSE(v, 1 - sse / m2, 1e-14);
      nnt_icl_r2_merge(&pooled, &a);
      all_sse += sse;
      for (int i = 0; i < B; i++) all_m += y[b][i] / (NB * B);
    }
    for (int b = 0; b < NB; b++)
      for (int i = 0; i < B; i++) all_ss += (y[b][i] - all_m) * (y[b][i] - all_m);
    double v;
    CHECK(nnt_icl_r2(&pooled, &v));
    CHECK_CLOSE(v, 1 - all_sse / all_ss, 1e-12);
    CHECK_CLOSE(pooled.mean, all_m, 1e-14);
    /* zero variance: undefined, never NaN */
    nnt_icl_r2_acc z = {B, 2.5, 0, 1}, z2 = {B, 1e8, 1e-12, 1}, one = {1, 2, 0, 0};
    CHECK(!nnt_icl_r2(&z, &v) && v == 0);
    CHECK(!nnt_icl_r2(&z2, &v) && v == 0);
    CHECK(!nnt_icl_r2(&one, &v));
  }
  /* ridge with intercept against the augmented normal equations solved by elimination; exact
   * recovery of an affine function (OLS limit); k = 0 predicts 0 */
  {
    enum { K = 12, D = 5 };
    double x[K * D], y[K], xq[D], A[(D + 1) * (D + 1)], b[D + 1], lam = 0.7;
    for (int i = 0; i < K * D; i++) x[i] = -2 + nnt_rng_normal(&r);
    for (int i = 0; i < K; i++) y[i] = nnt_rng_normal(&r) * 3;
    for (int p = 0; p < D; p++) xq[p] = -2 + nnt_rng_normal(&r);
    memset(A, 0, sizeof A), memset(b, 0, sizeof b);
    for (int i = 0; i < K; i++) {
      double z[D + 1] = {1};
      for (int p = 0; p < D; p++) z[p + 1] = x[i * D + p];
      for (int p = 0; p <= D; p++) {
        b[p] += z[p] * y[i];
        for (int q = 0; q <= D; q++) A[p * (D + 1) + q] += z[p] * z[q];
      }
    }
    for (int p = 1; p <= D; p++) A[p * (D + 1) + p] += lam;
    gauss(A, b, D + 1);
    double ref = b[0];
    for (int p = 0; p < D; p++) ref += b[p + 1] * xq[p];
    CHECK_CLOSE(nnt_icl_pred_ridge(x, y, K, D, lam, xq), ref, 1e-10);
    double w[D] = {0.5, -1, 2, 0.25, -0.75};
    for (int i = 0; i < K; i++) {
      y[i] = 1.5;
      for (int p = 0; p < D; p++) y[i] += w[p] * x[i * D + p];
    }
    double yq = 1.5;
    for (int p = 0; p < D; p++) yq += w[p] * xq[p];
    CHECK_CLOSE(nnt_icl_pred_ridge(x, y, K, D, 1e-10, xq), yq, 1e-7);
    CHECK(nnt_icl_pred_ridge(x, y, 0, D, 1, xq) == 0);
    CHECK_CLOSE(nnt_icl_pred_ridge(x, y, 1, D, 1, xq), y[0], 1e-15); /* one point: its y */
    /* 3-NN against a sort by distance; prompt mean */
    for (int k = 0; k <= K; k++) {
      int idx[K];
      for (int i = 0; i < k; i++) idx[i] = i;
      dist_x = x, dist_q = xq, dist_d = D;
      qsort(idx, (size_t)k, sizeof *idx, by_dist);
      double s = 0;
      int m = k < 3 ? k : 3;
      for (int i = 0; i < m; i++) s += y[idx[i]];
      CHECK_CLOSE(nnt_icl_pred_knn3(x, y, k, D, xq), m ? s / m : 0, 1e-15);
    }
    CHECK_CLOSE(nnt_icl_pred_mean(y, 3), (y[0] + y[1] + y[2]) / 3, 1e-15);
  }
  /* Adam: the first step moves every weight by lr·g/(|g| + eps); the second by hand */
  {
    double w[3] = {1, 2, 3}, g1[3] = {0.5, -2, 1e-3}, g2[3] = {1, 1, -1};
    nnt_icl_adam a;
    nnt_icl_adam_init(&a, 3, 0.01);
    nnt_icl_adam_step(&a, w, g1);
    for (int i = 0; i < 3; i++) CHECK_CLOSE(w[i], (i + 1) - 0.01 * g1[i] / (fabs(g1[i]) + 1e-8), 1e-14);
    double w1[3];
    memcpy(w1, w, sizeof w);
    nnt_icl_adam_step(&a, w, g2);
    for (int i = 0; i < 3; i++) {
      double m = 0.9 * 0.1 * g1[i] + 0.1 * g2[i], v = 0.999 * 0.001 * g1[i] * g1[i] + 0.001 * g2[i] * g2[i];
      CHECK_CLOSE(w[i], w1[i] - 0.01 * (m / (1 - 0.81)) / (sqrt(v / (1 - 0.999 * 0.999)) + 1e-8), 1e-12);
    }
    nnt_icl_adam_free(&a);
  }
  /* direct training fits the prompt: training MSE after 100 steps far below after 1 step */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 21, 3);
    double x[21 * 8], y[21], pred[100];
    CHECK(nnt_icl_task_prompt(&t, 3, 0, NULL, x, y) == NNT_OK);
    nnt_icl_direct_cfg dc = {.depth = 3, .width = 32, .steps = 1, .lr = 5e-3};
    nnt_rng r1, r2;
    nnt_rng_init(&r1, 9, 0), nnt_rng_init(&r2, 9, 0);
    double mse1 = nnt_icl_direct_train(&dc, x, y, 20, 8, x + 20 * 8, &r1, pred);
    dc.steps = 100;
    double mse100 = nnt_icl_direct_train(&dc, x, y, 20, 8, x + 20 * 8, &r2, pred);
    CHECK_MSG(mse100 < 0.05 * mse1, "MSE %g after 1 step, %g after 100", mse1, mse100);
    CHECK(isfinite(pred[99]));
    nnt_icl_direct_train(&dc, x, y, 0, 8, x, &r2, pred);
    CHECK(pred[0] == 0 && pred[99] == 0);
  }
  /* the run: a model predicting the prompt mean scores the mean baseline's R² (float rounding);
   * direct training only at its positions; 1 or 2 threads and a resumed run give the same bits */
  {
    nnt_icl_eval_cfg c;
    small_cfg(&c);
    c.model = mean_model, c.model_tag = "mean";
    nnt_icl_eval_result a, b;
    CHECK(nnt_icl_eval_run(&c, &a) == NNT_OK);
    CHECK(a.ncond == 2 && a.npos == 8 && a.nbatch == 3);
    for (int ci = 0; ci < 2; ci++)
      for (int k = 1; k < 8; k++) {
        int im = nnt_icl_eval_at(&a, ci, NNT_ICL_PRED_MEAN, k), io = nnt_icl_eval_at(&a, ci, NNT_ICL_PRED_MODEL, k);
        CHECK(a.pooled_ok[im] && a.batch_ok[im] == 3);
        CHECK_CLOSE(a.pooled[io], a.pooled[im], 1e-5);
        CHECK_CLOSE(a.batch_mean[io], a.batch_mean[im], 1e-5);
        int id = nnt_icl_eval_at(&a, ci, NNT_ICL_PRED_DIRECT_FINAL, k);
        CHECK((k == 2 || k == 5) == (a.batch_ok[id] == 3));
        CHECK((k == 2 || k == 5) == a.pooled_ok[id]);
        int ib = nnt_icl_eval_at(&a, ci, NNT_ICL_PRED_DIRECT_BEST, k);
        if (k == 2 || k == 5) CHECK(a.batch_mean[ib] >= a.batch_mean[id] && a.pooled[ib] >= a.pooled[id]);
      }
    /* k = 0: every baseline predicts 0, so R² = -mean²/var */
    int i0 = nnt_icl_eval_at(&a, 0, NNT_ICL_PRED_RIDGE, 0);
    CHECK_CLOSE(a.pooled[i0], -a.y_mean[0] * a.y_mean[0] / (a.y_sd[0] * a.y_sd[0]), 1e-9);
    c.threads = 2;
    CHECK(nnt_icl_eval_run(&c, &b) == NNT_OK);
    size_t m = (size_t)a.ncond * NNT_ICL_NPRED * a.npos;
    CHECK(!memcmp(a.pooled, b.pooled, m * sizeof(double)) && !memcmp(a.batch_sd, b.batch_sd, m * sizeof(double)));
    nnt_icl_eval_result_free(&b);
    char dir[] = "/tmp/nnt_icl_evalXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    c.dir = dir;
    CHECK(nnt_icl_eval_run(&c, &b) == NNT_OK);
    nnt_icl_eval_result_free(&b);
    c.resume = 1;
    CHECK(nnt_icl_eval_run(&c, &b) == NNT_OK);
    CHECK(b.stats.stored == 6 && b.stats.computed == 0);
    CHECK(!memcmp(a.pooled, b.pooled, m * sizeof(double)) && !memcmp(a.batch_mean, b.batch_mean, m * sizeof(double)));
    CHECK(!memcmp(a.pooled_ok, b.pooled_ok, m * sizeof(int)));
    nnt_icl_eval_result_free(&b);
    c.ridge = 0.5; /* another config in the same folder is refused */
    CHECK(nnt_icl_eval_run(&c, &b) == NNT_EINVAL);
    char path[256];
    snprintf(path, sizeof path, "%s/results.sqlite", dir);
    unlink(path);
    rmdir(dir);
    nnt_icl_eval_result_free(&a);
  }
  /* a trained model (micro, 3 steps) through load and predict, beyond its training length: the
   * run's pooled R² equals one computed here from the model's predictions on the same prompts */
  {
    nnt_icl_train_cfg tc;
    nnt_icl_train_cfg_default(&tc, NNT_ICL_PRESET_MICRO);
    tc.steps = 3, tc.ckpt_every = 3, tc.log_every = 1;
    char dir[] = "/tmp/nnt_icl_modelXXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    nnt_icl_train_result tr;
    CHECK(nnt_icl_train_run(&tc, dir, 0, &tr) == NNT_OK);
    nnt_icl_train_result_free(&tr);
    snprintf(path, sizeof path, "%s/model.ckpt", dir);
    nnt_icl_gpt *m = NULL;
    CHECK(nnt_icl_gpt_load(path, &m) == NNT_OK);
    if (m) {
      nnt_icl_eval_cfg c;
      small_cfg(&c);
      c.task = *nnt_icl_gpt_task(m);
      c.task.n = tc.task.n * 3 / 2; /* beyond the training length, within the slots */
      c.nmix = 1, c.mix[0] = 0.3, c.direct = 0, c.prompts = 8, c.batch = 4;
      c.model = gpt_model, c.model_ctx = m, c.model_tag = path;
      nnt_icl_eval_result res;
      CHECK(nnt_icl_eval_run(&c, &res) == NNT_OK);
      int n = c.task.n, d = c.task.d;
      nnt_icl_task t = c.task;
      t.mix2 = 0.3;
      float *xs = malloc(sizeof(float) * 8 * n * d), *ys = malloc(sizeof(float) * 8 * n), *pr = malloc(sizeof(float) * 8 * n);
      CHECK(nnt_icl_task_sample(&t, c.seed, NNT_ICL_TEST_FIRST, 8, xs, ys) == NNT_OK);
      CHECK(nnt_icl_gpt_predict(m, xs, ys, 8, n, pr) == NNT_OK);
      for (int k = 0; k < n; k += n - 1) {
        double my = 0, ss = 0, sse = 0;
        for (int b = 0; b < 8; b++) my += ys[b * n + k] / 8.0;
        for (int b = 0; b < 8; b++)
          ss += (ys[b * n + k] - my) * (ys[b * n + k] - my), sse += ((double)pr[b * n + k] - ys[b * n + k]) * ((double)pr[b * n + k] - ys[b * n + k]);
        int i = nnt_icl_eval_at(&res, 0, NNT_ICL_PRED_MODEL, k);
        CHECK(res.pooled_ok[i]);
        CHECK_CLOSE(res.pooled[i], 1 - sse / ss, 1e-9);
      }
      nnt_icl_eval_result_free(&res);
      c.task.n = nnt_icl_gpt_arch_of(m)->n_pos / 2 + 1; /* past the position slots: the model's error */
      c.nk = 0;
      CHECK(nnt_icl_eval_run(&c, &res) == NNT_EINVAL);
      free(xs), free(ys), free(pr);
      nnt_icl_gpt_free(m);
    }
    unlink(path);
    rmdir(dir);
  }
  /* bad input before any work */
  {
    nnt_icl_eval_cfg c;
    nnt_icl_eval_result res;
    small_cfg(&c);
    c.prompts = 10;
    CHECK(nnt_icl_eval_run(&c, &res) == NNT_EINVAL);
    small_cfg(&c);
    c.ks[1] = 8;
    CHECK(nnt_icl_eval_run(&c, &res) == NNT_EINVAL);
    small_cfg(&c);
    c.mix[1] = -0.1;
    CHECK(nnt_icl_eval_run(&c, &res) == NNT_EINVAL);
  }
  TEST_MAIN_END();
}
