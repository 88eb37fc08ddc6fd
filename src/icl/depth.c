/* icl sweep-depth as an area run (nnt_icl_depth.h): train (optionally), then evaluate each model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_file.h"
#include "nnt_icl_depth.h"
#include "nnt_error.h"
#include "nnt_sweep.h"

static int model_predict(void *ctx, const float *xs, const float *ys, int B, int n, float *pred) {
  return nnt_icl_gpt_predict(ctx, xs, ys, B, n, pred);
}

void nnt_icl_eval_use_model(nnt_icl_eval_cfg *c, nnt_icl_gpt *m, const char *path, char *tag, size_t n) {
  unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
  FILE *f = fopen(path, "rb");
  if (f) {
    for (int ch; (ch = fgetc(f)) != EOF;) h = (h ^ (unsigned)ch) * 1099511628211ULL;
    fclose(f);
  }
  snprintf(tag, n, "%s#%016llx", path, h);
  c->model = model_predict, c->model_ctx = m, c->model_tag = tag;
  c->model_bytes = nnt_icl_gpt_train_bytes(nnt_icl_gpt_arch_of(m), c->batch, c->task.n);
}

/* The evaluation of every model: the task of the first (or of the training configs), n points,
 * its training mixture only, no direct training. */
static nnt_icl_eval_cfg eval_cfg(const nnt_icl_depth_cfg *c, const nnt_icl_task *t) {
  nnt_icl_eval_cfg e = c->eval;
  e.task = *t, e.task.n = c->n;
  e.nmix = 1, e.mix[0] = e.task.mix2, e.w_shift = 0, e.direct = 0;
  return e;
}

/* Loads the given checkpoints into m (the caller frees them): one task, enough position slots. */
static int load_models(const nnt_icl_depth_cfg *c, const char *const *paths, int nm, nnt_icl_gpt **m) {
  int st = NNT_OK;
  for (int i = 0; i < nm && !st; i++) {
    if ((st = nnt_icl_gpt_load(paths[i], &m[i]))) break;
    const nnt_icl_task *t = nnt_icl_gpt_task(m[i]), *t0 = nnt_icl_gpt_task(m[0]);
    if (!nnt_icl_task_same(t, t0, 1))
      st = nnt_fail(NNT_EINVAL, "--models: %s was trained on another task than %s", paths[i], paths[0]);
    else if (2 * c->n > nnt_icl_gpt_arch_of(m[i])->n_pos)
      st = nnt_fail(NNT_EINVAL, "--n %d needs %d position slots; %s has %d", c->n, 2 * c->n, paths[i],
                    nnt_icl_gpt_arch_of(m[i])->n_pos);
  }
  if (!st) {
    nnt_icl_eval_cfg e = eval_cfg(c, nnt_icl_gpt_task(m[0]));
    for (int i = 0; i < nm; i++) e.model_bytes = fmax(e.model_bytes, nnt_icl_gpt_train_bytes(nnt_icl_gpt_arch_of(m[i]), e.batch, c->n));
    st = nnt_icl_eval_check(&e);
  }
  return st;
}

int nnt_icl_depth_check(const nnt_icl_depth_cfg *c) {
  if (!c->nmodels == !c->ntrain)
    return nnt_fail(NNT_EINVAL, "icl sweep-depth: give --models A/model.ckpt,B/model.ckpt,... or --layers 4,6,8,10");
  if (c->ntrain && !c->dir)
    return nnt_fail(NNT_EINVAL, "icl sweep-depth: --layers trains into OUT/L<layers>/: --out is required");
  if (c->nmodels > NNT_ICL_DEPTH_MAXM || c->ntrain > NNT_ICL_DEPTH_MAXE)
    return nnt_fail(NNT_EINVAL, "--models: at most %d", NNT_ICL_DEPTH_MAXM);
  for (int i = 0; i < c->nexamples; i++)
    if (c->examples[i] >= c->n)
      return nnt_fail(NNT_EINVAL, "--examples %d: prompts have %d points (k <= %d)", c->examples[i], c->n, c->n - 1);
  int st = NNT_OK;
  for (int i = 0; i < c->ntrain && !st; i++) {
    const nnt_icl_train_cfg *t = &c->train[i];
    if ((st = nnt_icl_train_check(t))) break;
    if (2 * c->n > t->arch.n_pos)
      st = nnt_fail(NNT_EINVAL, "--n %d needs %d position slots; the %s preset has %d", c->n, 2 * c->n,
                    nnt_icl_preset_names[c->preset], t->arch.n_pos);
    for (int j = 0; j < i && !st; j++)
      if (c->train[j].arch.n_layer == t->arch.n_layer) st = nnt_fail(NNT_EINVAL, "--layers: %d twice", t->arch.n_layer);
  }
  if (!st && c->ntrain) { /* the evaluation's settings, checked before any training */
    nnt_icl_eval_cfg e = eval_cfg(c, &c->train[0].task);
    for (int i = 0; i < c->ntrain; i++) e.model_bytes = fmax(e.model_bytes, nnt_icl_gpt_train_bytes(&c->train[i].arch, e.batch, c->n));
    st = nnt_icl_eval_check(&e);
  }
  if (!st && c->nmodels) {
    nnt_icl_gpt *m[NNT_ICL_DEPTH_MAXM] = {0};
    st = load_models(c, c->models, c->nmodels, m);
    for (int i = 0; i < c->nmodels; i++) nnt_icl_gpt_free(m[i]);
  }
  return st;
}

/* dir/<name><i>, prepared as a sweep's folder (refused when it holds results and neither resume nor force). */
static int subdir(const nnt_icl_depth_cfg *c, const char *name, int i, char *buf, size_t n) {
  snprintf(buf, n, "%s/%s%d", c->dir, name, i);
  int st = nnt_sweep_prepare_dir(buf, c->resume, c->force);
  return st ? st : nnt_mkdirs(buf);
}

int nnt_icl_depth_run(const nnt_icl_depth_cfg *c, nnt_icl_depth_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_icl_depth_check(c);
  if (st) return st;
  char path[4096];
  for (int i = 0; i < c->ntrain && !st; i++) { /* train first (each run resumes from its checkpoint) */
    nnt_icl_train_result tr = {0};
    if ((st = subdir(c, "L", c->train[i].arch.n_layer, path, sizeof path))) break;
    fprintf(stderr, "icl sweep-depth: training %d layers into %s\n", c->train[i].arch.n_layer, path);
    st = nnt_icl_train_run(&c->train[i], path, c->resume, &tr);
    nnt_icl_train_result_free(&tr);
    strcat(path, "/model.ckpt");
    r->paths[r->nm++] = nnt_xstrdup(path);
  }
  for (int i = 0; i < c->nmodels; i++) r->paths[r->nm++] = nnt_xstrdup(c->models[i]);
  nnt_icl_gpt *m[NNT_ICL_DEPTH_MAXM] = {0};
  if (!st) st = load_models(c, (const char *const *)r->paths, r->nm, m);
  if (!st) r->used = eval_cfg(c, nnt_icl_gpt_task(m[0]));
  for (int i = 0; i < r->nm && !st; i++) {
    char tag[4200];
    nnt_icl_eval_cfg e = r->used;
    r->arch[i] = *nnt_icl_gpt_arch_of(m[i]);
    nnt_icl_eval_use_model(&e, m[i], r->paths[i], tag, sizeof tag);
    e.dir = NULL;
    if (c->dir && !(st = subdir(c, "model", i, path, sizeof path))) e.dir = path;
    if (st) break;
    fprintf(stderr, "icl sweep-depth: %s\n", r->paths[i]);
    st = nnt_icl_eval_run(&e, &r->res[i]);
    r->wall += r->res[i].stats.wall_s;
  }
  for (int i = 0; i < r->nm; i++) nnt_icl_gpt_free(m[i]);
  if (st) nnt_icl_depth_result_free(r);
  return st;
}

void nnt_icl_depth_result_free(nnt_icl_depth_result *r) {
  for (int i = 0; i < r->nm; i++) free(r->paths[i]), nnt_icl_eval_result_free(&r->res[i]);
  memset(r, 0, sizeof *r);
}
