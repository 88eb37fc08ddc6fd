/* The learnability experiment: a grid of widths and training-set sizes, each point one training run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_ckpt.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_progress.h"

static const char *const RANDOM_CIRCUIT = "random layered circuit (depth 4, 8 gates per layer before pruning, 16 inputs)";

void nnt_circuit_learn_cfg_default(nnt_circuit_learn_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  static const int full_w[] = {1, 4, 16, 64}, quick_w[] = {1, 4, 16};
  static const int full_n[] = {64, 128, 256, 512, 1024, 2048, 4096}, quick_n[] = {64, 256, 1024};
  memset(cfg, 0, sizeof *cfg);
  cfg->nwidths = quick ? 3 : 4;
  memcpy(cfg->widths, quick ? quick_w : full_w, sizeof(int) * (size_t)cfg->nwidths);
  cfg->nns = quick ? 3 : 7;
  memcpy(cfg->ns, quick ? quick_n : full_n, sizeof(int) * (size_t)cfg->nns);
  cfg->steps = quick ? 300 : 2000;
  cfg->hidden = 3;
  cfg->batch = 32;
  cfg->reps = 1;
  cfg->ntest = quick ? 1024 : 4096;
  cfg->eps = 0.05;
  cfg->seed = 1;
  cfg->ckpt_every = quick ? 100 : 500;
}

static int check_cfg(const nnt_circuit_learn_cfg *cfg) {
  if (cfg->nwidths < 1 || cfg->nwidths > 16) return nnt_fail(NNT_EINVAL, "--widths: 1 to 16 widths, not %d", cfg->nwidths);
  if (cfg->nns < 1 || cfg->nns > 32) return nnt_fail(NNT_EINVAL, "--samples: 1 to 32 sizes, not %d", cfg->nns);
  for (int i = 0; i < cfg->nwidths; i++)
    if (cfg->widths[i] < 1 || cfg->widths[i] > 256) return nnt_fail(NNT_EINVAL, "--widths: %d is not in 1..256", cfg->widths[i]);
  for (int i = 0; i < cfg->nns; i++)
    if (cfg->ns[i] < 1) return nnt_fail(NNT_EINVAL, "--samples: %d, need at least 1", cfg->ns[i]);
  if (cfg->steps < 1 || cfg->hidden < 1 || cfg->batch < 1 || cfg->reps < 1 || cfg->ntest < 1)
    return nnt_fail(NNT_EINVAL, "steps, hidden layers, batch, repetitions and test inputs must be positive");
  if (cfg->lr < 0 || cfg->bit < 0 || cfg->ckpt_every < 0) return nnt_fail(NNT_EINVAL, "negative lr, bit or ckpt_every");
  return NNT_OK;
}

int nnt_circuit_learn_size(const nnt_circuit_learn_cfg *cfg, double *bytes, double *seconds) {
  int st = check_cfg(cfg), m = 16, r = 8; /* the random circuit: 16 inputs, 8 gates per layer at most */
  if (st) return st;
  if (cfg->file) {
    nnt_circuit c;
    if ((st = nnt_circuit_read(cfg->file, &c))) return st;
    nnt_circuit_layered L;
    nnt_circuit_layer(&c, &L);
    m = c.ninputs, r = 1;
    for (int l = 1; l <= L.depth; l++) r = L.width[l] > r ? L.width[l] : r;
    nnt_circuit_layered_free(&L);
    nnt_circuit_free(&c);
  }
  double peak = 0, kept = 0, macs = 0, nmax = 0;
  for (int i = 0; i < cfg->nns; i++) nmax = cfg->ns[i] > nmax ? cfg->ns[i] : nmax;
  for (int i = 0; i < cfg->nwidths; i++) {
    double w = (double)r * cfg->widths[i], P = m * w + (cfg->hidden - 1) * w * w + (cfg->hidden + 1) * w + 1;
    double B = cfg->batch > 512 ? cfg->batch : 512;
    /* a point: float32 parameters with gradient and two moments, a batch's activations and their
     * gradients, the training set (bytes) and its order; the trained net kept per width (double) */
    peak = fmax(peak, 16 * P + 8 * B * (w * cfg->hidden + m) + nmax * (m + 5));
    kept += 8 * P;
    for (int j = 0; j < cfg->nns; j++) macs += 3.0 * P * cfg->batch * cfg->steps * cfg->reps + P * (cfg->ns[j] + cfg->ntest);
  }
  *bytes = peak + kept + (double)cfg->ntest * (m + 1);
  *seconds = macs / 2e9; /* float32 products, one thread */
  return NNT_OK;
}

int nnt_circuit_learn_check(const nnt_circuit_learn_cfg *cfg) {
  double bytes, seconds;
  int st = nnt_circuit_learn_size(cfg, &bytes, &seconds);
  return st ? st : nnt_mem_check(bytes, "circuit learn", "lower --widths (a net is r x width wide), --samples or --test");
}

/* The circuit and its test set (cfg->file, or the first random circuit with balanced labels). */
static int circuit_and_tests(const nnt_circuit_learn_cfg *cfg, nnt_circuit *c, uint8_t **X, uint8_t **Y) {
  int st, ntest = cfg->ntest;
  if (cfg->file) {
    if ((st = nnt_circuit_read(cfg->file, c))) return st;
    if (cfg->bit >= c->noutputs || c->ninputs == 0) {
      st = c->ninputs ? nnt_fail(NNT_EINVAL, "--bit: the circuit has %d outputs", c->noutputs)
                      : nnt_fail(NNT_EINVAL, "%s: the circuit has no inputs, nothing to learn", cfg->file);
      nnt_circuit_free(c);
      return st;
    }
    *X = nnt_xmalloc((size_t)ntest * c->ninputs), *Y = nnt_xmalloc((size_t)ntest);
    nnt_circuit_sample(c, cfg->bit, ntest, cfg->seed, 1, *X, *Y);
    return NNT_OK;
  }
  if (cfg->bit) return nnt_fail(NNT_EINVAL, "--bit: the random circuit has one output");
  *X = nnt_xmalloc((size_t)ntest * 16), *Y = nnt_xmalloc((size_t)ntest);
  for (uint64_t k = 0;; k++) {
    nnt_circuit_random(16, 4, 8, cfg->seed, 5000 + k, c);
    nnt_circuit_sample(c, 0, ntest, cfg->seed, 1, *X, *Y);
    long ones = 0;
    for (int i = 0; i < ntest; i++) ones += (*Y)[i];
    if (ones >= ntest / 4 && ones <= 3 * (long)ntest / 4) return NNT_OK;
    nnt_circuit_free(c);
  }
}

int nnt_circuit_learn_run(const nnt_circuit_learn_cfg *cfg, nnt_circuit_learn_result *res) {
  memset(res, 0, sizeof *res);
  double bytes, seconds;
  int st = nnt_circuit_learn_size(cfg, &bytes, &seconds);
  if (st || (st = nnt_mem_check(bytes, "circuit learn", "lower --widths (a net is r x width wide), --samples or --test"))) return st;
  nnt_time_notice(seconds, 0, "circuit learn", "(every width, sample size and repetition trained)");
  nnt_circuit c;
  uint8_t *X = NULL, *Y = NULL;
  if ((st = circuit_and_tests(cfg, &c, &X, &Y))) return free(X), free(Y), st;
  if (cfg->ckpt_dir && (st = nnt_mkdirs(cfg->ckpt_dir))) return free(X), free(Y), nnt_circuit_free(&c), st;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  int r = 1; /* the widest gate layer (the input layer excluded) */
  for (int l = 1; l <= L.depth; l++) r = L.width[l] > r ? L.width[l] : r;
  nnt_circuit_layered_free(&L);
  int nw = cfg->nwidths, nn = cfg->nns, reps = cfg->reps;
  res->circuit = cfg->name ? cfg->name : cfg->file ? cfg->file : RANDOM_CIRCUIT;
  res->r = r, res->ninputs = c.ninputs, res->nwidths = nw;
  res->lr = cfg->lr > 0 ? cfg->lr : (cfg->sgd ? 0.05 : 1e-3);
  res->points = nnt_xcalloc((size_t)nw * nn * reps, sizeof *res->points);
  res->err = nnt_xcalloc((size_t)nw * nn, sizeof(double));
  res->trained = nnt_xcalloc((size_t)nw, sizeof(nnt_mlp));
  /* Everything a point's result depends on besides its own stream: a checkpoint is resumed only
   * under the same text. */
  char text[1200], tag[64];
  snprintf(text, sizeof text, "circuit=%s bit=%d steps=%d hidden=%d batch=%d lr=%.17g sgd=%d ntest=%d seed=%llu",
           res->circuit, cfg->bit, cfg->steps, cfg->hidden, cfg->batch, res->lr, cfg->sgd, cfg->ntest,
           (unsigned long long)cfg->seed);
  unsigned long long hash = nnt_fnv1a64(NNT_FNV64_INIT, text, strlen(text));
  nnt_circuit_train_opts o = {cfg->hidden, cfg->steps, cfg->batch, res->lr, cfg->seed, cfg->sgd,
                              NULL, tag, cfg->ckpt_every, cfg->resume, 0};
  long budget = cfg->stop_at;
  nnt_progress pr;
  nnt_progress_start(&pr, "learn", (long)nw * nn * reps);
  for (int wi = 0; wi < nw && !st && !res->stopped; wi++)
    for (int ni = 0; ni < nn && !st && !res->stopped; ni++)
      for (int rep = 0; rep < reps && !st && !res->stopped; rep++) {
        int w = r * cfg->widths[wi], n = cfg->ns[ni], keep = ni == nn - 1 && rep == 0;
        uint64_t stream = (uint64_t)(wi * 1000 + ni) * 1000 + (uint64_t)rep;
        char path[1100];
        if (cfg->ckpt_dir) snprintf(path, sizeof path, "%s/learn_w%d_n%d_r%d.ckpt", cfg->ckpt_dir, w, n, rep);
        snprintf(tag, sizeof tag, "%016llx-%llu", hash, (unsigned long long)stream);
        o.ckpt = cfg->ckpt_dir ? path : NULL;
        o.stop_at = budget;
        if (cfg->stop_at && budget == 0) {
          res->stopped = 1;
          break;
        }
        nnt_circuit_train_result tr;
        st = nnt_circuit_train(&c, cfg->bit, w, n, &o, stream, X, Y, cfg->ntest, &tr, keep ? &res->trained[wi] : NULL);
        if (st) break;
        budget -= tr.steps_run;
        res->stopped = tr.stopped;
        if (tr.stopped) break;
        res->resumed += tr.steps_run == 0;
        res->points[res->npoints++] = (nnt_circuit_learn_point){w, cfg->widths[wi], n, rep, tr.test_err, tr.train_err,
                                                               tr.train_loss, tr.seconds};
        res->err[wi * nn + ni] += tr.test_err / reps;
        nnt_progress_add(&pr, 1);
      }
  nnt_progress_end(&pr);
  if (!st && !res->stopped) /* the other view: the samples needed to reach test error <= eps, per width */
    for (int wi = 0; wi < nw; wi++)
      for (int ni = 0; ni < nn; ni++)
        if (res->err[wi * nn + ni] <= cfg->eps) {
          res->need_w[res->nneed] = (double)r * cfg->widths[wi], res->need_n[res->nneed++] = cfg->ns[ni];
          break;
        }
  free(X), free(Y);
  nnt_circuit_free(&c);
  if (st) nnt_circuit_learn_result_free(res);
  return st;
}

void nnt_circuit_learn_result_free(nnt_circuit_learn_result *res) {
  for (int i = 0; res->trained && i < res->nwidths; i++) nnt_mlp_free(&res->trained[i]);
  free(res->points), free(res->err), free(res->trained);
  memset(res, 0, sizeof *res);
}
