/* Online AdamW training with threshold stopping on a fixed test set (spec §4.7), and sweeps. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_optim.h"
#include "nnt_params.h"
#include "nnt_progress.h"
#include "nnt_qstr.h"

enum { EVAL_CHUNK = 128 };

const char *const nnt_qstr_phase_names[] = {"draw prompts", "train forward", "train backward+AdamW", "test evaluation", NULL};

/* Stopwatch over the phases of one run: charges the time and multiply-adds since the last call. */
typedef struct {
  double t, macs;
  nnt_qstr_result *res;
} phase_clock;
static void phase_start(phase_clock *pc, nnt_qstr_result *res) {
  pc->t = nnt_now(), pc->macs = nnt_gemm_macs_done(), pc->res = res;
}
static void phase_charge(phase_clock *pc, nnt_qstr_phase ph) {
  double t = nnt_now(), macs = nnt_gemm_macs_done();
  pc->res->phase_s[ph] += t - pc->t, pc->res->phase_macs[ph] += macs - pc->macs;
  pc->t = t, pc->macs = macs;
}

void nnt_qstr_train_cfg_default(nnt_qstr_train_cfg *c) {
  memset(c, 0, sizeof *c);
  c->batch = 64, c->lr = 1e-3, c->wd = 0.01, c->threshold = 0.7, c->check_every = 10, c->n_test = 5000;
  c->test_simple = 0, c->max_samples = 1000000;
}

/* Sum of squared errors over the n prompts, stopping early once it exceeds `bound` (the mean is
 * then known to be above the threshold: the sum only grows, so the crossing decision is exact). */
static double sse_bounded(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, int Bmax, const float *p, const float *X,
                          const float *y, int n, double bound, int *complete) {
  int N = mo->N, D = mo->D;
  float *yh = nnt_xmalloc(sizeof(float) * (size_t)Bmax * N);
  double s = 0;
  *complete = 1;
  for (int b0 = 0; b0 < n; b0 += Bmax) {
    if (s > bound) {
      *complete = 0;
      break;
    }
    int B = n - b0 < Bmax ? n - b0 : Bmax;
    nnt_qstr_forward_f32(mo, ws, p, X + (size_t)b0 * N * D, B, yh);
    const float *yb = y + (size_t)b0 * N;
    for (int k = 0; k < B * N; k++) s += (double)(yh[k] - yb[k]) * (yh[k] - yb[k]);
  }
  free(yh);
  return s;
}

double nnt_qstr_eval_f32(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, int Bmax, const float *p, const float *X,
                         const float *y, int n) {
  int complete;
  return sse_bounded(mo, ws, Bmax, p, X, y, n, INFINITY, &complete) / ((double)n * mo->N);
}

/* A sweep point's random streams (init, training data, test data) and its PyTorch-initialised
 * parameters in a registry for the core's AdamW (decay on every parameter); returns the flat
 * float32 vector, *g its gradient. */
static float *point_setup(const nnt_qstr_model *mo, uint64_t seed, uint64_t point, nnt_params *P,
                          nnt_rng *rtrain, nnt_rng *rtest, float **g) {
  nnt_rng rinit;
  nnt_rng_init(&rinit, seed, 8 * point);
  nnt_rng_init(rtrain, seed, 8 * point + 1);
  nnt_rng_init(rtest, seed, 8 * point + 2);
  double *p64 = nnt_xmalloc(sizeof(double) * mo->np);
  nnt_qstr_model_init(mo, &rinit, p64);
  nnt_qstr_model_params(mo, P);
  size_t n;
  float *p = nnt_params_flat_f32(P, &n);
  *g = nnt_params_flat_grad_f32(P, &n);
  for (size_t k = 0; k < mo->np; k++) p[k] = (float)p64[k];
  free(p64);
  return p;
}

void nnt_qstr_train_online(const nnt_qstr_task *task, const nnt_qstr_model *mo, const nnt_qstr_train_cfg *c,
                           uint64_t seed, uint64_t point, nnt_qstr_result *res) {
  double t0 = nnt_now();
  memset(res, 0, sizeof *res);
  int N = mo->N, D = mo->D, Bt = c->batch, Bmax = Bt > EVAL_CHUNK ? Bt : EVAL_CHUNK;
  size_t np = mo->np;
  nnt_rng rtrain, rtest;
  nnt_params P;
  float *g, *p = point_setup(mo, seed, point, &P, &rtrain, &rtest, &g);
  float *Xt = nnt_xmalloc(sizeof(float) * (size_t)c->n_test * N * D), *yt = nnt_xmalloc(sizeof(float) * (size_t)c->n_test * N);
  int *it = nnt_xmalloc(sizeof(int) * (size_t)c->n_test * N * task->c.q), fast = nnt_qstr_fast_eval_ok(mo, task);
  phase_clock pc;
  phase_start(&pc, res);
  nnt_qstr_sample_f32(task, &rtest, c->n_test, c->test_simple ? 1 : -1, Xt, yt, it);
  nnt_qstr_fast_set *xs = fast ? nnt_qstr_fast_prepare(mo, task, Xt, yt, c->n_test) : NULL; /* once, not per check */
  phase_charge(&pc, NNT_QSTR_PHASE_DATA);
  float *X = nnt_xmalloc(sizeof(float) * (size_t)Bt * N * D), *y = nnt_xmalloc(sizeof(float) * (size_t)Bt * N);
  float *yh = nnt_xmalloc(sizeof(float) * (size_t)Bt * N), *dy = nnt_xmalloc(sizeof(float) * (size_t)Bt * N);
  nnt_qstr_ws_f32 *ws = nnt_qstr_ws_new_f32(mo, Bmax);
  nnt_optim opt;
  nnt_optim_config oc = nnt_adamw_defaults();
  oc.lr = c->lr, oc.weight_decay = c->wd;
  nnt_optim_init(&opt, &P, oc);
  res->censored = 1;
  res->final_mse = NAN;
  long steps = 0;
  int last_complete = 1;
  while ((long)(steps + 1) * Bt <= c->max_samples) {
    nnt_qstr_sample_f32(task, &rtrain, Bt, -1, X, y, NULL);
    phase_charge(&pc, NNT_QSTR_PHASE_DATA);
    nnt_qstr_forward_f32(mo, ws, p, X, Bt, yh);
    double loss = 0;
    float sc = 2.0f / ((float)Bt * N);
    for (int k = 0; k < Bt * N; k++) {
      float e = yh[k] - y[k];
      loss += (double)e * e;
      dy[k] = sc * e;
    }
    steps++;
    phase_charge(&pc, NNT_QSTR_PHASE_FWD);
    if (!isfinite(loss)) {
      res->diverged = 1;
      break;
    }
    nnt_qstr_backward_f32(mo, ws, p, X, Bt, dy, g);
    nnt_optim_step(&opt);
    phase_charge(&pc, NNT_QSTR_PHASE_BWD);
    if (steps % c->check_every == 0) {
      int complete;
      double tot = (double)c->n_test * N;
      double bound = c->threshold * tot * (1 + 1e-9);
      double mse = (fast ? nnt_qstr_fast_sse(mo, task, p, Xt, xs, it, yt, c->n_test, bound, &complete)
                         : sse_bounded(mo, ws, Bmax, p, Xt, yt, c->n_test, bound, &complete)) / tot;
      last_complete = complete;
      phase_charge(&pc, NNT_QSTR_PHASE_EVAL);
      res->final_mse = mse;
      if (!isfinite(mse)) {
        res->diverged = 1;
        break;
      }
      if (mse < c->threshold) {
        res->censored = 0;
        break;
      }
    }
  }
  res->steps = steps;
  res->samples = steps * Bt;
  if (!last_complete && !res->diverged) {
    int complete;
    res->final_mse = (fast ? nnt_qstr_fast_sse(mo, task, p, Xt, xs, it, yt, c->n_test, INFINITY, &complete)
                           : sse_bounded(mo, ws, Bmax, p, Xt, yt, c->n_test, INFINITY, &complete)) / ((double)c->n_test * N);
    phase_charge(&pc, NNT_QSTR_PHASE_EVAL);
  }
  if (c->keep_params) {
    res->params = nnt_xmalloc(sizeof(float) * np);
    memcpy(res->params, p, sizeof(float) * np);
  }
  nnt_optim_free(&opt);
  nnt_params_free(&P);
  nnt_qstr_ws_free_f32(ws);
  nnt_qstr_fast_free(xs);
  free(Xt), free(yt), free(it), free(X), free(y), free(yh), free(dy);
  res->wall_s = nnt_now() - t0;
}

void nnt_qstr_train_fixed(const nnt_qstr_task *task, const nnt_qstr_model *mo, int simple, int n_train, int n_test,
                          int max_epochs, int batch, double lr, double wd, double stop_loss, uint64_t seed,
                          uint64_t point, nnt_qstr_result *res, double *train_loss) {
  double t0 = nnt_now();
  memset(res, 0, sizeof *res);
  int N = mo->N, D = mo->D, Bmax = batch > EVAL_CHUNK ? batch : EVAL_CHUNK;
  size_t np = mo->np, row = (size_t)N * D;
  nnt_rng rtrain, rtest;
  nnt_params P;
  float *g, *p = point_setup(mo, seed, point, &P, &rtrain, &rtest, &g);
  float *Xa = nnt_xmalloc(sizeof(float) * n_train * row), *ya = nnt_xmalloc(sizeof(float) * n_train * N);
  nnt_qstr_sample_f32(task, &rtrain, n_train, simple, Xa, ya, NULL);
  float *X = nnt_xmalloc(sizeof(float) * batch * row), *y = nnt_xmalloc(sizeof(float) * batch * N);
  float *yh = nnt_xmalloc(sizeof(float) * batch * N), *dy = nnt_xmalloc(sizeof(float) * batch * N);
  int *perm = nnt_xmalloc(sizeof(int) * n_train);
  nnt_qstr_ws_f32 *ws = nnt_qstr_ws_new_f32(mo, Bmax);
  nnt_optim opt;
  nnt_optim_config oc = nnt_adamw_defaults();
  oc.lr = lr, oc.weight_decay = wd;
  nnt_optim_init(&opt, &P, oc);
  double el = NAN;
  int ep;
  for (ep = 0; ep < max_epochs; ep++) {
    nnt_rng_permutation(&rtrain, perm, n_train);
    double sum = 0;
    long cnt = 0;
    for (int b0 = 0; b0 < n_train; b0 += batch) {
      int B = n_train - b0 < batch ? n_train - b0 : batch;
      for (int b = 0; b < B; b++) {
        memcpy(X + b * row, Xa + (size_t)perm[b0 + b] * row, sizeof(float) * row);
        memcpy(y + b * N, ya + (size_t)perm[b0 + b] * N, sizeof(float) * N);
      }
      nnt_qstr_forward_f32(mo, ws, p, X, B, yh);
      double loss = 0;
      float sc = 2.0f / ((float)B * N);
      for (int k = 0; k < B * N; k++) {
        float e = yh[k] - y[k];
        loss += (double)e * e, dy[k] = sc * e;
      }
      sum += loss / ((double)B * N), cnt++;
      res->samples += B;
      nnt_qstr_backward_f32(mo, ws, p, X, B, dy, g);
      nnt_optim_step(&opt);
    }
    el = sum / cnt;
    if (!isfinite(el)) {
      res->diverged = 1;
      ep++;
      break;
    }
    if (el < stop_loss) {
      ep++;
      break;
    }
  }
  res->steps = ep;
  res->censored = !(el < stop_loss);
  *train_loss = el;
  free(Xa), free(ya);
  float *Xt = nnt_xmalloc(sizeof(float) * (size_t)n_test * row), *yt = nnt_xmalloc(sizeof(float) * (size_t)n_test * N);
  nnt_qstr_sample_f32(task, &rtest, n_test, simple, Xt, yt, NULL);
  res->final_mse = nnt_qstr_eval_f32(mo, ws, Bmax, p, Xt, yt, n_test);
  res->params = nnt_xmalloc(sizeof(float) * np);
  memcpy(res->params, p, sizeof(float) * np);
  nnt_optim_free(&opt);
  nnt_params_free(&P);
  nnt_qstr_ws_free_f32(ws);
  free(Xt), free(yt), free(X), free(y), free(yh), free(dy), free(perm);
  res->wall_s = nnt_now() - t0;
}
