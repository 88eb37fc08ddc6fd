/* R²-versus-k evaluation of in-context predictors (§7.6, §7.8) on the sweep engine. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_icl_eval.h"

const char *const nnt_icl_pred_names[] = {"mean", "ridge", "knn3", "direct_best", "direct_final", "model", NULL};

void nnt_icl_r2_merge(nnt_icl_r2_acc *a, const nnt_icl_r2_acc *b) {
  double n = a->n + b->n;
  if (n == 0) return;
  double delta = b->mean - a->mean;
  a->m2 += b->m2 + delta * delta * a->n * b->n / n;
  a->mean += delta * b->n / n;
  a->sse += b->sse;
  a->n = n;
}

int nnt_icl_r2(const nnt_icl_r2_acc *a, double *r2) {
  *r2 = 0;
  if (a->n < 2 || !(a->m2 > 1e-14 * (a->n * a->mean * a->mean + a->m2))) return 0;
  *r2 = 1 - a->sse / a->m2;
  return 1;
}

void nnt_icl_eval_cfg_default(nnt_icl_eval_cfg *c, nnt_preset p) {
  int quick = p == NNT_PRESET_QUICK;
  memset(c, 0, sizeof *c);
  nnt_icl_task_default(&c->task, 8, quick ? 20 : 45, 3);
  c->nmix = 4;
  const double mix[4] = {0, 0.1, 0.3, 0.5};
  for (int i = 0; i < 4; i++) c->mix[i] = mix[i];
  c->prompts = quick ? 128 : 640, c->batch = 64;
  c->ridge = 1; /* tames the interpolation spike at k ≈ d; leaves k >> d as OLS (docs/icl.md) */
  c->direct = 1;
  c->dc = (nnt_icl_direct_cfg){.depth = 0, .width = 32, .steps = 100, .lr = 5e-3};
  const int ksf[7] = {1, 2, 5, 10, 20, 30, 44}, ksq[3] = {1, 5, 10};
  c->nk = quick ? 3 : 7;
  for (int i = 0; i < c->nk; i++) c->ks[i] = quick ? ksq[i] : ksf[i];
  c->seed = 1;
}

static int nconds(const nnt_icl_eval_cfg *c) { return c->nmix + (c->w_shift > 0 ? 2 : 0); }

int nnt_icl_eval_check(const nnt_icl_eval_cfg *c) {
  int st = nnt_icl_task_check(&c->task);
  if (st) return st;
  if (c->task.n > 200) return nnt_fail(NNT_EINVAL, "eval: at most 200 points per prompt (got %d)", c->task.n);
  if (c->nmix < 1 || nconds(c) > NNT_ICL_MAXCOND)
    return nnt_fail(NNT_EINVAL, "eval: 1 to %d test conditions (got %d)", NNT_ICL_MAXCOND, nconds(c));
  for (int i = 0; i < c->nmix; i++)
    if (!(c->mix[i] >= 0 && c->mix[i] <= 1)) return nnt_fail(NNT_EINVAL, "--mix: %g is not in [0, 1]", c->mix[i]);
  if (!(c->w_shift >= 0 && isfinite(c->w_shift))) return nnt_fail(NNT_EINVAL, "--w-shift must be >= 0 (got %g)", c->w_shift);
  if (c->batch < 2) return nnt_fail(NNT_EINVAL, "--batch must be >= 2 (R² needs two prompts; got %d)", c->batch);
  if (c->prompts < c->batch || c->prompts % c->batch)
    return nnt_fail(NNT_EINVAL, "--prompts (%d) must be a positive multiple of --batch (%d)", c->prompts, c->batch);
  if (!(c->ridge > 0)) return nnt_fail(NNT_EINVAL, "--ridge must be > 0 (got %g)", c->ridge);
  if (c->direct) {
    if (c->dc.depth == 1 || c->dc.depth < 0) return nnt_fail(NNT_EINVAL, "--direct-depth must be >= 2 (got %d)", c->dc.depth);
    if (c->dc.width < 1 || c->dc.steps < 1 || !(c->dc.lr > 0))
      return nnt_fail(NNT_EINVAL, "direct training: width, steps and lr must be positive");
    if (c->nk < 1) return nnt_fail(NNT_EINVAL, "--direct-k: at least one position");
    for (int i = 0; i < c->nk; i++)
      if (c->ks[i] < 0 || c->ks[i] >= c->task.n)
        return nnt_fail(NNT_EINVAL, "--direct-k: %d is not a position 0..%d (n = %d points)", c->ks[i], c->task.n - 1, c->task.n);
  }
  /* eval_point's batch per thread (float and double prompts, labels, predictions), the model's */
  double B = c->batch, n = c->task.n, th = c->threads > 0 ? c->threads : nnt_threads_get();
  double bytes = th * (12 * B * n * c->task.d + 16 * B * n) + c->model_bytes;
  char what[128];
  snprintf(what, sizeof what, "the evaluation (batch %d x %d points, d = %d)", c->batch, c->task.n, c->task.d);
  return nnt_mem_check(bytes, what, "lower --batch or --n");
}

/* A point: one test condition × one batch of prompts; per position k the batch's mean and
 * centred sum of squares of y and each predictor's SSE (NaN: not run at k). */
typedef struct {
  int cond, batch;
} rec_head;
enum { REC_PER_K = 2 + NNT_ICL_NPRED };
#define REC_V(rec) ((double *)((char *)(rec) + sizeof(rec_head)))

typedef struct {
  const nnt_icl_eval_cfg *c;
  nnt_icl_cond cond[NNT_ICL_MAXCOND];
  int nbatch;
} eval_ctx;

static int eval_point(void *vctx, int i, void *vrec) {
  const eval_ctx *e = vctx;
  const nnt_icl_eval_cfg *c = e->c;
  int ci = i / e->nbatch, bi = i % e->nbatch, B = c->batch, n = c->task.n, d = c->task.d, st = NNT_OK;
  nnt_icl_task t = c->task;
  t.mix2 = e->cond[ci].mix2, t.w_mean = e->cond[ci].w_mean;
  rec_head *h = vrec;
  h->cond = ci, h->batch = bi;
  double *v = REC_V(vrec);
  size_t nx = (size_t)B * n * d, ny = (size_t)B * n;
  float *xs = nnt_xmalloc(nx * sizeof *xs), *ys = nnt_xmalloc(ny * sizeof *ys), *pm = NULL;
  double *X = nnt_xmalloc(nx * sizeof *X), *Y = nnt_xmalloc(ny * sizeof *Y);
  double *pred = nnt_xmalloc(sizeof(double) * (size_t)(c->dc.steps > 0 ? c->dc.steps : 1));
  double *sse_ep = nnt_xmalloc(sizeof(double) * (size_t)(c->dc.steps > 0 ? c->dc.steps : 1));
  uint64_t first = NNT_ICL_TEST_FIRST + (uint64_t)bi * B;
  if ((st = nnt_icl_task_sample(&t, c->seed, first, B, xs, ys))) goto done;
  for (size_t j = 0; j < nx; j++) X[j] = xs[j];
  for (size_t j = 0; j < ny; j++) Y[j] = ys[j];
  if (c->model) {
    pm = nnt_xmalloc(ny * sizeof *pm);
#pragma omp critical(nnt_icl_model)
    st = c->model(c->model_ctx, xs, ys, B, n, pm);
    if (st) goto done;
  }
  for (int k = 0; k < n; k++) {
    double *vk = v + (size_t)k * REC_PER_K, m = 0, m2 = 0;
    for (int b = 0; b < B; b++) m += Y[(size_t)b * n + k] / B;
    for (int b = 0; b < B; b++) m2 += (Y[(size_t)b * n + k] - m) * (Y[(size_t)b * n + k] - m);
    vk[0] = m, vk[1] = m2;
    double *sse = vk + 2;
    for (int p = 0; p < NNT_ICL_NPRED; p++) sse[p] = p <= NNT_ICL_PRED_KNN3 || (p == NNT_ICL_PRED_MODEL && pm) ? 0 : NAN;
    for (int b = 0; b < B; b++) {
      const double *xb = X + (size_t)b * n * d, *yb = Y + (size_t)b * n, *xq = xb + (size_t)k * d, yq = yb[k];
      double pr[3] = {nnt_icl_pred_mean(yb, k), nnt_icl_pred_ridge(xb, yb, k, d, c->ridge, xq),
                      nnt_icl_pred_knn3(xb, yb, k, d, xq)};
      for (int p = 0; p < 3; p++) sse[p] += (pr[p] - yq) * (pr[p] - yq);
      if (pm) sse[NNT_ICL_PRED_MODEL] += ((double)pm[(size_t)b * n + k] - yq) * ((double)pm[(size_t)b * n + k] - yq);
    }
  }
  if (c->direct) {
    nnt_icl_direct_cfg dc = c->dc;
    if (!dc.depth) dc.depth = c->task.depth;
    for (int q = 0; q < c->nk; q++) {
      int k = c->ks[q];
      for (int s = 0; s < dc.steps; s++) sse_ep[s] = 0;
      for (int b = 0; b < B; b++) {
        const double *xb = X + (size_t)b * n * d, *yb = Y + (size_t)b * n;
        nnt_rng r; /* the net's init: one stream per (prompt, k), apart from every prompt stream */
        nnt_rng_init(&r, c->seed, first + (uint64_t)b + ((uint64_t)(k + 1) << 40));
        nnt_icl_direct_train(&dc, xb, yb, k, d, xb + (size_t)k * d, &r, pred);
        for (int s = 0; s < dc.steps; s++) sse_ep[s] += (pred[s] - yb[k]) * (pred[s] - yb[k]);
      }
      double best = sse_ep[0];
      for (int s = 1; s < dc.steps; s++) best = sse_ep[s] < best ? sse_ep[s] : best;
      double *sse = v + (size_t)k * REC_PER_K + 2;
      if (!isfinite(sse_ep[dc.steps - 1])) {
        st = nnt_fail(NNT_ENUMERIC, "direct training diverged (condition %d, batch %d, k = %d)", ci, bi, k);
        goto done;
      }
      sse[NNT_ICL_PRED_DIRECT_BEST] = best, sse[NNT_ICL_PRED_DIRECT_FINAL] = sse_ep[dc.steps - 1];
    }
  }
done:
  free(xs), free(ys), free(pm), free(X), free(Y), free(pred), free(sse_ep);
  return st;
}

int nnt_icl_eval_run(const nnt_icl_eval_cfg *c, nnt_icl_eval_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_icl_eval_check(c);
  if (st) return st;
  eval_ctx e = {.c = c, .nbatch = c->prompts / c->batch};
  int nc = nconds(c), n = c->task.n;
  for (int i = 0; i < c->nmix; i++) e.cond[i] = (nnt_icl_cond){c->mix[i], c->task.w_mean};
  if (c->w_shift > 0) {
    e.cond[c->nmix] = (nnt_icl_cond){c->mix[0], c->task.w_mean - c->w_shift};
    e.cond[c->nmix + 1] = (nnt_icl_cond){c->mix[0], c->task.w_mean + c->w_shift};
  }
  /* the record's columns: cond, batch, then per k y_mean, y_m2 and one SSE per predictor */
  int ncols = 2 + n * REC_PER_K, np = nc * e.nbatch;
  nnt_sweep_col *cols = nnt_xcalloc((size_t)ncols, sizeof *cols);
  char *names = nnt_xcalloc((size_t)ncols, 32);
  cols[0] = (nnt_sweep_col)NNT_SWEEP_INT(rec_head, cond);
  cols[1] = (nnt_sweep_col)NNT_SWEEP_INT(rec_head, batch);
  for (int k = 0; k < n; k++)
    for (int j = 0; j < REC_PER_K; j++) {
      int col = 2 + k * REC_PER_K + j;
      char *nm = names + (size_t)col * 32;
      snprintf(nm, 32, "%s_%d", j == 0 ? "y_mean" : j == 1 ? "y_m2" : nnt_icl_pred_names[j - 2], k);
      cols[col] = (nnt_sweep_col){nm, NNT_SWEEP_T_DOUBLE, sizeof(rec_head) + sizeof(double) * (size_t)(col - 2), NULL};
    }
  size_t rec_size = sizeof(rec_head) + sizeof(double) * (size_t)n * REC_PER_K;
  uint64_t *ids = nnt_xmalloc(sizeof *ids * (size_t)np);
  for (int i = 0; i < np; i++) ids[i] = ((uint64_t)(i / e.nbatch) << 32) | (uint64_t)(i % e.nbatch);
  /* everything the records depend on */
  char config[4096];
  const nnt_icl_task *t = &c->task;
  int len = snprintf(config, sizeof config,
                     "d=%d n=%d depth=%d width=%d w_mean=%.17g w_std=%.17g y_scale=%.17g mu=%.17g mix=", t->d, t->n,
                     t->depth, t->width, t->w_mean, t->w_std, t->y_scale, t->mu);
  for (int i = 0; i < c->nmix; i++) len += snprintf(config + len, sizeof config - len, "%s%.17g", i ? "," : "", c->mix[i]);
  /* the later task fields, named only where they differ from the fixed values of the older runs,
     whose records stay valid */
  if (t->mu2 != t->mu || t->noise != 0 || t->act != NNT_ICL_ACT_RELU || t->per_prompt || t->d_active)
    len += snprintf(config + len, sizeof config - len, " mu2=%.17g noise=%.17g act=%s per_prompt=%d d_active=%d", t->mu2,
                    t->noise, nnt_icl_act_names[t->act], t->per_prompt, t->d_active);
  len += snprintf(config + len, sizeof config - len, " w_shift=%.17g prompts=%d batch=%d ridge=%.17g", c->w_shift,
                  c->prompts, c->batch, c->ridge);
  if (c->direct) {
    len += snprintf(config + len, sizeof config - len, " direct=%d,%d,%d,%.17g k=", c->dc.depth, c->dc.width,
                    c->dc.steps, c->dc.lr);
    for (int i = 0; i < c->nk; i++) len += snprintf(config + len, sizeof config - len, "%s%d", i ? "," : "", c->ks[i]);
  }
  snprintf(config + len, sizeof config - len, " model=%s seed=%" PRIu64, c->model ? c->model_tag : "none", c->seed);
  nnt_sweep sw = {.name = "icl eval", .config = config, .npoints = np, .ids = ids, .rec_size = rec_size, .cols = cols,
                  .ncols = ncols, .nkeys = 2, .point = eval_point, .ctx = &e, .threads = c->threads, .progress = c->progress,
                  .dir = c->dir, .resume = c->resume};
  char *recs = nnt_xcalloc((size_t)np, rec_size);
  st = nnt_sweep_run(&sw, recs, &r->stats);
  if (!st) {
    r->ncond = nc, r->npos = n, r->nbatch = e.nbatch;
    memcpy(r->cond, e.cond, sizeof e.cond);
    size_t m = (size_t)nc * NNT_ICL_NPRED * n;
    r->pooled = nnt_xcalloc(m, sizeof(double)), r->batch_mean = nnt_xcalloc(m, sizeof(double));
    r->batch_sd = nnt_xcalloc(m, sizeof(double));
    r->pooled_ok = nnt_xcalloc(m, sizeof(int)), r->batch_ok = nnt_xcalloc(m, sizeof(int));
    r->y_mean = nnt_xcalloc((size_t)nc * n, sizeof(double)), r->y_sd = nnt_xcalloc((size_t)nc * n, sizeof(double));
    for (int p = 0; p < NNT_ICL_NPRED; p++)
      r->has[p] = p <= NNT_ICL_PRED_KNN3 || (p == NNT_ICL_PRED_MODEL ? c->model != NULL : c->direct);
    for (int ci = 0; ci < nc; ci++)
      for (int k = 0; k < n; k++) {
        nnt_icl_r2_acc ya = {0, 0, 0, 0};
        for (int p = 0; p < NNT_ICL_NPRED; p++) {
          nnt_icl_r2_acc pa = {0, 0, 0, 0};
          double s = 0, s2 = 0;
          int nb = 0, any = 0;
          for (int bi = 0; bi < e.nbatch; bi++) {
            const double *vk = REC_V(recs + (size_t)(ci * e.nbatch + bi) * rec_size) + (size_t)k * REC_PER_K;
            nnt_icl_r2_acc a = {c->batch, vk[0], vk[1], vk[2 + p]};
            if (p == 0) nnt_icl_r2_merge(&ya, &a);
            if (isnan(a.sse)) continue;
            any = 1;
            nnt_icl_r2_merge(&pa, &a);
            double v;
            if (nnt_icl_r2(&a, &v)) s += v, s2 += v * v, nb++;
          }
          int at = nnt_icl_eval_at(r, ci, p, k);
          if (any) r->pooled_ok[at] = nnt_icl_r2(&pa, &r->pooled[at]);
          r->batch_ok[at] = nb;
          if (nb) {
            r->batch_mean[at] = s / nb;
            r->batch_sd[at] = nb > 1 ? sqrt(fmax(0, (s2 - s * s / nb) / (nb - 1))) : 0;
          }
        }
        r->y_mean[ci * n + k] = ya.mean, r->y_sd[ci * n + k] = sqrt(ya.m2 / ya.n);
      }
  }
  free(recs), free(ids), free(cols), free(names);
  return st;
}

void nnt_icl_eval_result_free(nnt_icl_eval_result *r) {
  free(r->pooled), free(r->batch_mean), free(r->batch_sd), free(r->pooled_ok), free(r->batch_ok);
  free(r->y_mean), free(r->y_sd);
  memset(r, 0, sizeof *r);
}
