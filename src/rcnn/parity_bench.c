/* parity_bench.c — the parity benchmark: a grid over d, m, learner and repetition, one sweep point
 * each (DIR/results.sqlite, resumable), aggregated per (d, m, learner). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_rcnn_nn.h"
#include "nnt_rcnn_parity.h"

void nnt_rcnn_parity_bench_cfg_default(nnt_rcnn_parity_bench_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  int quick = preset == NNT_PRESET_QUICK;
  static const int ds_full[] = {8, 16, 32}, ms_full[] = {4, 8, 16, 24, 32, 48, 64, 128, 256};
  static const int ds_quick[] = {4, 8}, ms_quick[] = {4, 8, 12, 16, 32};
  c->nd = quick ? 2 : 3, c->nm = quick ? 5 : 9;
  memcpy(c->ds, quick ? ds_quick : ds_full, (size_t)c->nd * sizeof *c->ds);
  memcpy(c->ms, quick ? ms_quick : ms_full, (size_t)c->nm * sizeof *c->ms);
  c->nlearners = NNT_RCNN_PARITY_RCNN; /* the RCNN learners on request */
  for (int l = 0; l < c->nlearners; l++) c->learners[l] = l;
  c->reps = quick ? 2 : 5, c->tests = quick ? 500 : 2000, c->rcnn_tests = quick ? 10 : 50;
  c->mlp = (nnt_rcnn_parity_mlp_cfg){.hidden = quick ? 32 : 128, .epochs = quick ? 40 : 100, .lr = 0.05};
  c->seed = 1;
}

int nnt_rcnn_parity_bench_check(const nnt_rcnn_parity_bench_cfg *c) {
  if (c->nd < 1 || c->nm < 1 || c->nlearners < 1) return nnt_fail(NNT_EINVAL, "parity bench: --d, --m and --learners need a value each");
  for (int i = 0; i < c->nd; i++) {
    if (c->ds[i] < 1 || c->ds[i] > NNT_RCNN_PARITY_MAX_D)
      return nnt_fail(NNT_EINVAL, "--d: %d is out of range [1, %d]", c->ds[i], NNT_RCNN_PARITY_MAX_D);
    if (c->k > c->ds[i]) return nnt_fail(NNT_EINVAL, "--k: %d exceeds d = %d", c->k, c->ds[i]);
    for (int j = 0; j < i; j++)
      if (c->ds[j] == c->ds[i]) return nnt_fail(NNT_EINVAL, "--d: %d twice", c->ds[i]);
  }
  for (int i = 0; i < c->nm; i++) {
    if (c->ms[i] < 1 || c->ms[i] >= 1 << 24) return nnt_fail(NNT_EINVAL, "--m: %d is out of range [1, 16777215]", c->ms[i]);
    for (int j = 0; j < i; j++)
      if (c->ms[j] == c->ms[i]) return nnt_fail(NNT_EINVAL, "--m: %d twice", c->ms[i]);
  }
  for (int i = 0; i < c->nlearners; i++)
    if (c->learners[i] < 0 || c->learners[i] >= NNT_RCNN_PARITY_NLEARNERS) return nnt_fail(NNT_EINVAL, "parity bench: unknown learner %d", c->learners[i]);
  for (int i = 0; i < c->nlearners; i++)
    for (int a = 0; a < c->nd; a++)
      for (int b = 0; b < c->nm; b++) {
        if (c->learners[i] == NNT_RCNN_PARITY_RCNN && (c->ds[a] > 64 || c->ms[b] > 1024))
          return nnt_fail(NNT_EINVAL, "parity bench: rcnn needs d <= 64 and m <= 1024 (got d=%d m=%d)", c->ds[a], c->ms[b]);
        if (c->learners[i] == NNT_RCNN_PARITY_RCNN_NN && (c->ds[a] > 8 || c->ms[b] > 64))
          return nnt_fail(NNT_EINVAL, "parity bench: rcnn-nn needs d <= 8 and m <= 64 (got d=%d m=%d)", c->ds[a], c->ms[b]);
      }
  if (c->rcnn_tests < 1) return nnt_fail(NNT_EINVAL, "--rcnn-tests must be >= 1 (got %d)", c->rcnn_tests);
  if (c->reps < 1 || c->reps > 1000) return nnt_fail(NNT_EINVAL, "--reps: %d is out of range [1, 1000]", c->reps);
  if (c->tests < 1) return nnt_fail(NNT_EINVAL, "--tests must be >= 1 (got %d)", c->tests);
  if (c->k < 0) return nnt_fail(NNT_EINVAL, "--k must be >= 0 (got %d)", c->k);
  if (!(c->noise >= 0 && c->noise < 0.5)) return nnt_fail(NNT_EINVAL, "--noise must be in [0, 0.5) (got %g)", c->noise);
  if (c->mlp.hidden < 1 || c->mlp.epochs < 1 || !(c->mlp.lr > 0))
    return nnt_fail(NNT_EINVAL, "parity bench: the MLP needs hidden >= 1, epochs >= 1 and lr > 0");
  return NNT_OK;
}

/* Point ids: d (16 bits), m (24), learner (4), rep (10); stable when the lists change, so a
 * resumed sweep may add values. Streams: the point id with the learner field 0 (shared by the
 * learners of a repetition) or the point's own, times 4 plus the role. */
static uint64_t point_id(int d, int m, int learner, int rep) {
  return (((uint64_t)d << 24 | (uint64_t)m) << 4 | (uint64_t)learner) << 10 | (uint64_t)rep;
}
enum { ROLE_SECRET, ROLE_TRAIN, ROLE_TEST, ROLE_LEARNER };
static void stream(nnt_rng *r, uint64_t seed, uint64_t id, int role) { nnt_rng_init(r, seed, id << 2 | (uint64_t)role); }

/* The RCNN learners: bits to ±1 ((−1)^x, (−1)^y), Algorithm 1 and the first rcnn_tests test
 * queries (nnt_rcnn_learn_points); the training accuracy is not measured (NaN: each query would be
 * another depth-L roll-out). */
static int rcnn_point(const nnt_rcnn_parity_bench_cfg *c, int learner, const nnt_rcnn_parity_data *tr, const nnt_rcnn_parity_data *te,
                      nnt_rcnn_parity_point *p) {
  int d = tr->d, m = tr->n, n = te->n < c->rcnn_tests ? te->n : c->rcnn_tests;
  signed char *X = nnt_xmalloc((size_t)m * d), *y = nnt_xmalloc((size_t)m), *xs = nnt_xmalloc((size_t)n * d);
  int *pred = nnt_xmalloc(sizeof *pred * (size_t)n), *tmo = nnt_xmalloc(sizeof *tmo * (size_t)n);
  for (int i = 0; i < m; i++) {
    for (int b = 0; b < d; b++) X[(size_t)i * d + b] = (signed char)(tr->x[(size_t)i * tr->nw + b / 64] >> (b % 64) & 1 ? -1 : 1);
    y[i] = (signed char)(tr->y[i] ? -1 : 1);
  }
  for (int j = 0; j < n; j++)
    for (int b = 0; b < d; b++) xs[(size_t)j * d + b] = (signed char)(te->x[(size_t)j * te->nw + b / 64] >> (b % 64) & 1 ? -1 : 1);
  int st = nnt_rcnn_learn_points("gauss-parity", learner == NNT_RCNN_PARITY_RCNN_NN, m, d, X, y, n, xs, pred, tmo);
  if (!st) {
    int ok = 0, agree = 0;
    for (int j = 0; j < n; j++) ok += pred[j] == (te->y[j] ? -1 : 1), agree += pred[j] == tmo[j];
    p->acc = (double)ok / n, p->agree_tm = (double)agree / n, p->train_acc = NAN;
  }
  free(X), free(y), free(xs), free(pred), free(tmo);
  return st;
}

int nnt_rcnn_parity_bench_point(const nnt_rcnn_parity_bench_cfg *c, int d, int m, int learner, int rep, nnt_rcnn_parity_point *p) {
  uint64_t data_id = point_id(d, m, 0, rep), id = point_id(d, m, learner, rep);
  nnt_rng rs, rtr, rte, rl;
  stream(&rs, c->seed, data_id, ROLE_SECRET), stream(&rtr, c->seed, data_id, ROLE_TRAIN);
  stream(&rte, c->seed, data_id, ROLE_TEST), stream(&rl, c->seed, id, ROLE_LEARNER);
  uint64_t w[NNT_RCNN_PARITY_MAX_D / 64];
  nnt_rcnn_parity_secret(d, c->k, &rs, w);
  nnt_rcnn_parity_data tr, te;
  nnt_rcnn_parity_data_make(&tr, d, m, w, c->noise, &rtr);
  nnt_rcnn_parity_data_make(&te, d, c->tests, w, 0, &rte);
  *p = (nnt_rcnn_parity_point){.d = d, .m = m, .learner = learner, .rep = rep, .determined = NAN, .agree_tm = NAN};
  double t0 = nnt_now();
  if (learner == NNT_RCNN_PARITY_RCNN || learner == NNT_RCNN_PARITY_RCNN_NN) {
    int st = rcnn_point(c, learner, &tr, &te, p);
    p->wall_s = nnt_now() - t0;
    nnt_rcnn_parity_data_free(&tr), nnt_rcnn_parity_data_free(&te);
    return st;
  }
  int st = NNT_OK, ok_train = 0, ok_test = 0, det = 0;
  nnt_rcnn_parity_gauss g;
  nnt_rcnn_parity_mlp net;
  int constant = 0;
  switch ((nnt_rcnn_parity_learner)learner) {
    case NNT_RCNN_PARITY_GAUSS: nnt_rcnn_parity_gauss_fit(&g, &tr); break;
    case NNT_RCNN_PARITY_MLP:
    case NNT_RCNN_PARITY_MLP_ONLINE: {
      nnt_rcnn_parity_mlp_cfg mc = c->mlp;
      if (learner == NNT_RCNN_PARITY_MLP_ONLINE) mc.epochs = 1; /* m fresh samples, each seen once */
      nnt_rcnn_parity_mlp_init(&net, d, mc.hidden, &rl);
      st = nnt_rcnn_parity_mlp_train(&net, &tr, &mc, &rl);
      break;
    }
    case NNT_RCNN_PARITY_MAJORITY: constant = nnt_rcnn_parity_majority_fit(&tr); break;
    default: break;
  }
  for (int pass = 0; pass < 2 && !st; pass++) {
    const nnt_rcnn_parity_data *D = pass ? &te : &tr;
    int ok = 0;
    for (int i = 0; i < D->n; i++) {
      const uint64_t *x = D->x + (size_t)i * D->nw;
      int yhat = constant;
      if (learner == NNT_RCNN_PARITY_GAUSS) {
        yhat = nnt_rcnn_parity_gauss_predict(&g, x);
        if (pass) det += nnt_rcnn_parity_gauss_determined(&g, x);
      } else if (learner == NNT_RCNN_PARITY_MLP || learner == NNT_RCNN_PARITY_MLP_ONLINE)
        yhat = nnt_rcnn_parity_mlp_predict(&net, x);
      ok += yhat == D->y[i];
    }
    *(pass ? &ok_test : &ok_train) = ok;
  }
  p->wall_s = nnt_now() - t0;
  p->acc = (double)ok_test / te.n, p->train_acc = (double)ok_train / tr.n;
  if (learner == NNT_RCNN_PARITY_GAUSS) p->determined = (double)det / te.n, nnt_rcnn_parity_gauss_free(&g);
  if (learner == NNT_RCNN_PARITY_MLP || learner == NNT_RCNN_PARITY_MLP_ONLINE) nnt_rcnn_parity_mlp_free(&net);
  nnt_rcnn_parity_data_free(&tr), nnt_rcnn_parity_data_free(&te);
  return st;
}

typedef struct {
  const nnt_rcnn_parity_bench_cfg *c;
  const int *pd, *pm, *pl, *pr; /* per point */
} bench_ctx;

static int bench_point(void *ctx_, int i, void *rec) {
  const bench_ctx *b = ctx_;
  return nnt_rcnn_parity_bench_point(b->c, b->pd[i], b->pm[i], b->pl[i], b->pr[i], rec);
}

static const nnt_sweep_col cols[] = {
    NNT_SWEEP_INT(nnt_rcnn_parity_point, d),        NNT_SWEEP_INT(nnt_rcnn_parity_point, m),
    NNT_SWEEP_CODE(nnt_rcnn_parity_point, learner, nnt_rcnn_parity_learner_names),  NNT_SWEEP_INT(nnt_rcnn_parity_point, rep),
    NNT_SWEEP_DOUBLE(nnt_rcnn_parity_point, acc),   NNT_SWEEP_DOUBLE(nnt_rcnn_parity_point, train_acc),
    NNT_SWEEP_DOUBLE(nnt_rcnn_parity_point, determined), NNT_SWEEP_DOUBLE(nnt_rcnn_parity_point, wall_s),
    NNT_SWEEP_DOUBLE(nnt_rcnn_parity_point, agree_tm)};

int nnt_rcnn_parity_bench_run(const nnt_rcnn_parity_bench_cfg *c, nnt_rcnn_parity_bench_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_rcnn_parity_bench_check(c);
  if (st) return st;
  int n = c->nd * c->nm * c->nlearners * c->reps, na = c->nd * c->nm * c->nlearners;
  int *pd = nnt_xmalloc(4 * (size_t)n * sizeof *pd), *pm = pd + n, *pl = pm + n, *pr = pl + n;
  uint64_t *ids = nnt_xmalloc((size_t)n * sizeof *ids);
  double *cost = nnt_xmalloc((size_t)n * sizeof *cost);
  int i = 0;
  for (int a = 0; a < c->nd; a++)
    for (int b = 0; b < c->nm; b++)
      for (int l = 0; l < c->nlearners; l++)
        for (int q = 0; q < c->reps; q++, i++) {
          int d = c->ds[a], m = c->ms[b], L = c->learners[l];
          pd[i] = d, pm[i] = m, pl[i] = L, pr[i] = q, ids[i] = point_id(d, m, L, q);
          /* the MLP's epochs dominate; elimination and majority cost about one data pass */
          cost[i] = (double)(m + c->tests) * d * (L == NNT_RCNN_PARITY_MLP ? (double)c->mlp.hidden * c->mlp.epochs
                                                      : L == NNT_RCNN_PARITY_MLP_ONLINE ? (double)c->mlp.hidden : 1);
          if (L >= NNT_RCNN_PARITY_RCNN) /* m + rcnn_tests roll-outs of about m·d² steps */
            cost[i] = (double)(m + c->rcnn_tests) * m * d * d * (L == NNT_RCNN_PARITY_RCNN_NN ? 1000 : 1);
        }
  /* everything a point depends on except the lists themselves (a resume may extend them) */
  char config[256];
  snprintf(config, sizeof config, "k=%d noise=%.17g tests=%d rcnn_tests=%d hidden=%d epochs=%d lr=%.17g seed=%" PRIu64, c->k, c->noise,
           c->tests, c->rcnn_tests, c->mlp.hidden, c->mlp.epochs, c->mlp.lr, c->seed);
  bench_ctx bc = {c, pd, pm, pl, pr};
  r->points = nnt_xcalloc((size_t)n, sizeof *r->points);
  nnt_sweep sw = {.name = "parity bench", .config = config, .npoints = n, .ids = ids, .cost = cost,
                  .rec_size = sizeof(nnt_rcnn_parity_point), .cols = cols, .ncols = (int)(sizeof cols / sizeof *cols),
                  .nkeys = 4, .point = bench_point, .ctx = &bc, .threads = c->threads, .progress = c->progress, .dir = c->dir, .resume = c->resume};
  nnt_sweep_stats ss = {0};
  st = nnt_sweep_run(&sw, r->points, &ss);
  free(pd), free(ids), free(cost);
  if (st) return nnt_rcnn_parity_bench_result_free(r), st;
  r->npoints = n, r->stored = ss.stored, r->computed = ss.computed, r->wall_s = ss.wall_s;
  r->nagg = na;
  r->agg = nnt_xcalloc((size_t)na, sizeof *r->agg);
  for (int a = 0; a < na; a++) { /* the reps of aggregate a are points a*reps .. a*reps + reps-1 */
    const nnt_rcnn_parity_point *p = r->points + (size_t)a * c->reps;
    double s = 0, s2 = 0, w = 0, ag = 0;
    for (int q = 0; q < c->reps; q++) s += p[q].acc, w += p[q].wall_s, ag += p[q].agree_tm;
    double mean = s / c->reps;
    for (int q = 0; q < c->reps; q++) s2 += (p[q].acc - mean) * (p[q].acc - mean);
    r->agg[a] = (nnt_rcnn_parity_agg){p->d, p->m, p->learner, c->reps, mean, c->reps > 1 ? sqrt(s2 / (c->reps - 1)) : 0, w / c->reps,
                                ag / c->reps};
  }
  return NNT_OK;
}

void nnt_rcnn_parity_bench_result_free(nnt_rcnn_parity_bench_result *r) {
  free(r->points), free(r->agg);
  memset(r, 0, sizeof *r);
}
