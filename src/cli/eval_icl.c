/* nnt icl baselines / eval / sweep-depth: R² against the number of in-context examples (§7.6–7.10)
 * for the trivial baselines, direct training and a trained model, on the same seeded prompts. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "icl_task_opts.h"
#include "nnt_blas.h"
#include "nnt_file.h"
#include "nnt_icl_eval.h"
#include "nnt_icl_gpt.h"
#include "nnt_io.h"
#include "nnt_plot.h"

int cli_icl_baselines(int argc, char **argv);
int cli_icl_eval(int argc, char **argv);
int cli_icl_sweep_depth(int argc, char **argv);

typedef struct {
  nnt_icl_eval_cfg e;
  int no_direct;
  const char *model;  /* eval: DIR/model.ckpt */
  const char *models; /* sweep-depth: comma-separated checkpoints */
  int nex, examples[8];
  int nlayers, layers[8]; /* sweep-depth: train one model per depth */
  int preset, attn, target_depth;
  long steps;             /* 0: the preset's */
  nnt_icl_task task;      /* eval: the task options given replace the model's own */
} opts;

static void defaults(void *v, int quick) {
  opts *o = v;
  memset(o, 0, sizeof *o);
  nnt_icl_eval_cfg_default(&o->e, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL);
  o->task = o->e.task;
  /* Figure 3's 15/30/45 examples; the quick preset's micro model has 40 points per prompt */
  if (quick) o->nex = 3, o->examples[0] = 5, o->examples[1] = 10, o->examples[2] = 20;
  else o->nex = 3, o->examples[0] = 15, o->examples[1] = 30, o->examples[2] = 45;
  o->preset = quick ? NNT_ICL_PRESET_MICRO : NNT_ICL_PRESET_MINI, o->attn = NNT_ATTN_SOFTMAX, o->target_depth = 3;
}

#define S opts
#define EVAL_OPTS                                                                                               \
  CLI_DOUBLES("mix", S, e.mix, e.nmix, 0, 1, "test mixtures: weight of N(+mu·1, I) per point"),                \
  CLI_DOUBLE("w-shift", S, e.w_shift, 0, 1e6, "also test target weight means ∓ this (units of the weight std under He scaling; 0: off)"), \
  CLI_INT("prompts", S, e.prompts, 2, 10000000, "test prompts (a multiple of --batch)"),                        \
  CLI_INT("batch", S, e.batch, 2, 100000, "prompts per batch (the per-batch R²)"),                              \
  CLI_DOUBLE("ridge", S, e.ridge, 1e-300, 1e300, "ridge lambda (intercept unpenalised)"),                      \
  CLI_FLAG("no-direct", S, no_direct, "skip the direct-training baseline"),                                    \
  CLI_INTS("direct-k", S, e.ks, e.nk, 0, 199, "positions k where direct training runs"),                        \
  CLI_INT("direct-depth", S, e.dc.depth, 0, 100, "direct training: layers (0 = the target depth)"),            \
  CLI_INT("direct-width", S, e.dc.width, 1, 100000, "direct training: hidden width"),                          \
  CLI_INT("direct-steps", S, e.dc.steps, 1, 1000000, "direct training: full-batch Adam steps (epochs)"),        \
  CLI_DOUBLE("direct-lr", S, e.dc.lr, 1e-12, 10, "direct training: Adam learning rate")

static const cli_opt baselines_opts[] = {
    CLI_INT("d", S, e.task.d, 1, 4096, "input dimension"),
    CLI_INT("n", S, e.task.n, 1, 200, "points per prompt (positions k = 0..n-1)"),
    CLI_INT("depth", S, e.task.depth, 2, 100, "target layers N"),
    CLI_INT("width", S, e.task.width, 1, 100000, "target hidden width"),
    CLI_DOUBLE("w-std", S, e.task.w_std, 0, 1e6, "target weight std (0: He scaling)"),
    CLI_DOUBLE("w-mean", S, e.task.w_mean, -1e6, 1e6, "target weight mean (in units of the std under He scaling)"),
    CLI_DOUBLE("mu", S, e.task.mu, -1e6, 1e6, "mixture components N(-mu·1, I) and N(+mu·1, I) (the second: see --mu2)"),
    CLI_DOUBLE("y-scale", S, e.task.y_scale, -1e6, 1e6, "global multiplier on y"),
    CLI_CHOICE("target-act", S, e.task.act, nnt_icl_act_names, "hidden activation of the target networks"),
    CLI_DOUBLE("mu2", S, e.task.mu2, -1e6, 1e6, "the second mixture component is N(+mu2·1, I) (default: mu)"),
    CLI_FLAG("per-prompt", S, e.task.per_prompt, "draw the mixture component once per prompt (default: per point)"),
    CLI_DOUBLE("noise", S, e.task.noise, 0, 1e6, "label noise: y += noise·N(0, 1)"),
    EVAL_OPTS,
    {0}};
static const cli_opt eval_opts[] = {
    CLI_STR("model", S, model, "checkpoint written by nnt icl train (required)"),
    CLI_INT("n", S, e.task.n, 1, 200, "test points per prompt (default: 1.5× the training examples + 1, within the model's slots)"),
    ICL_TASK_OPTS(S),
    EVAL_OPTS,
    {0}};
static const cli_opt depth_opts[] = {
    CLI_STR("models", S, models, "comma-separated checkpoints of one task, different depths"),
    CLI_INTS("layers", S, layers, nlayers, 1, 64, "or: train one model per depth into OUT/L<layers>/ first (resumable)"),
    CLI_CHOICE("preset", S, preset, nnt_icl_preset_names, "--layers: the training preset"),
    CLI_CHOICE("attn", S, attn, nnt_icl_attn_names, "--layers: attention scores"),
    CLI_INT("target-depth", S, target_depth, 2, 12, "--layers: layers of the target networks"),
    CLI_LONG("steps", S, steps, 1, 1000000000L, "--layers: optimizer steps (default: the preset's)"),
    CLI_INTS("examples", S, examples, nex, 0, 199, "numbers of in-context examples reported"),
    CLI_INT("n", S, e.task.n, 1, 200, "test points per prompt (default: the largest --examples + 1)"),
    CLI_INT("prompts", S, e.prompts, 2, 10000000, "test prompts (a multiple of --batch)"),
    CLI_INT("batch", S, e.batch, 2, 100000, "prompts per batch (the per-batch R²)"),
    CLI_DOUBLE("ridge", S, e.ridge, 1e-300, 1e300, "ridge lambda (intercept unpenalised)"),
    {0}};
#undef S

static const cli_cmd baselines_cmd = {
    .name = "icl baselines",
    .example = "nnt icl baselines --depth 3 --mix 0,0.5 --quick --out runs/baselines",
    .about = "How easy the ICL task is, with no model: R² against the number of in-context examples k for the\n"
             "prompt mean, ridge with intercept, 3-NN and direct training of a fresh net per prompt and k (best\n"
             "and final epoch), per test mixture, per-batch and pooled. Writes r2.csv, r2_<condition>.png,\n"
             "run.json and results.sqlite (one point per condition and batch: --resume continues).",
    .opts = baselines_opts, .cfg_size = sizeof(opts), .defaults = defaults, .common = CLI_OUT | CLI_SWEEP};
static const cli_cmd eval_cmd = {
    .name = "icl eval",
    .example = "nnt icl train --quick --steps 20 --out runs/micro\n"
               "nnt icl eval --model runs/micro/model.ckpt --quick --out runs/micro-eval",
    .about = "A trained model's R² against k (Figures 1–2) per test mixture, beyond its training length, with\n"
             "the baselines on the same seeded prompts. Writes r2.csv, r2_<condition>.png, mixtures.png,\n"
             "run.json and results.sqlite (--resume continues).",
    .opts = eval_opts, .cfg_size = sizeof(opts), .defaults = defaults, .common = CLI_OUT | CLI_SWEEP};
static const cli_cmd depth_cmd = {
    .name = "icl sweep-depth",
    .example = "nnt icl sweep-depth --layers 2,4 --preset micro --examples 5,10,20 --quick --out runs/depth",
    .about = "R² at 15/30/45 in-context examples against the transformer's depth (Figure 3): each model (given\n"
             "by --models, or trained by --layers 4,6,8,10 into OUT/L<layers>/, resumable) is evaluated\n"
             "in-distribution in OUT/model<i>/ (resumable), with the prompt mean and ridge beside it.\n"
             "Writes depth.csv, depth.png, run.json.",
    .opts = depth_opts, .cfg_size = sizeof(opts), .defaults = defaults, .common = CLI_OUT | CLI_SWEEP};

/* ---------------------------------------------------------------- report */

static void cond_name(const nnt_icl_cond *c, char *buf, size_t n) {
  if (c->w_mean != 0) snprintf(buf, n, "mix%g_wmean%g", c->mix2, c->w_mean);
  else snprintf(buf, n, "mix%g", c->mix2);
}

static void cond_title(const nnt_icl_cond *c, char *buf, size_t n) {
  snprintf(buf, n, "x ~ %g N(-mu,I) + %g N(+mu,I), weight mean %g", 1 - c->mix2, c->mix2, c->w_mean);
}

static cJSON *cfg_json(const nnt_icl_eval_cfg *c, const char *model) {
  cJSON *j = cJSON_CreateObject();
  const nnt_icl_task *t = &c->task;
  if (model) cJSON_AddStringToObject(j, "model", model);
  cJSON_AddNumberToObject(j, "d", t->d), cJSON_AddNumberToObject(j, "n", t->n);
  cJSON_AddNumberToObject(j, "depth", t->depth), cJSON_AddNumberToObject(j, "width", t->width);
  cJSON_AddNumberToObject(j, "w_mean", t->w_mean), cJSON_AddNumberToObject(j, "w_std", t->w_std);
  cJSON_AddNumberToObject(j, "mu", t->mu), cJSON_AddNumberToObject(j, "y_scale", t->y_scale);
  cJSON_AddNumberToObject(j, "mu2", t->mu2), cJSON_AddNumberToObject(j, "noise", t->noise);
  cJSON_AddStringToObject(j, "target_act", nnt_icl_act_names[t->act]);
  cJSON_AddStringToObject(j, "mixture", t->per_prompt ? "per prompt" : "per point");
  cJSON *m = cJSON_AddArrayToObject(j, "mix");
  for (int i = 0; i < c->nmix; i++) cJSON_AddItemToArray(m, cJSON_CreateNumber(c->mix[i]));
  cJSON_AddNumberToObject(j, "w_shift", c->w_shift);
  cJSON_AddNumberToObject(j, "prompts", c->prompts), cJSON_AddNumberToObject(j, "batch", c->batch);
  cJSON_AddNumberToObject(j, "ridge", c->ridge);
  if (c->direct) {
    cJSON *d = cJSON_AddObjectToObject(j, "direct");
    cJSON_AddNumberToObject(d, "depth", c->dc.depth ? c->dc.depth : t->depth);
    cJSON_AddNumberToObject(d, "width", c->dc.width), cJSON_AddNumberToObject(d, "steps", c->dc.steps);
    cJSON_AddNumberToObject(d, "lr", c->dc.lr);
    cJSON *k = cJSON_AddArrayToObject(d, "k");
    for (int i = 0; i < c->nk; i++) cJSON_AddItemToArray(k, cJSON_CreateNumber(c->ks[i]));
  }
  return j;
}

/* Console table at a few positions, r2.csv (all positions, empty R² = undefined), one plot per
 * condition (pooled R², the per-batch spread as a band for the model or the prompt mean) and, with
 * a model, its curves for every condition with the in-distribution direct baseline (Figure 1). */
static int eval_report(const char *dir, const char *command, const nnt_icl_eval_cfg *c, const nnt_icl_eval_result *r,
                       const char *model, int n_train) {
  int n = r->npos, show[16], ns = 0;
  const int want[] = {0, 1, 2, 5, 10, 15, 20, 30, 44, 45, 50, 75};
  for (int i = 0; i < (int)(sizeof want / sizeof *want); i++)
    if (want[i] < n) show[ns++] = want[i];
  if (n_train > 0 && n_train - 1 < n && ns < 15) show[ns++] = n_train - 1;
  if (show[ns - 1] != n - 1 && ns < 16) show[ns++] = n - 1;
  for (int i = 1; i < ns; i++) /* sorted, unique */
    for (int j = i; j > 0 && show[j] < show[j - 1]; j--) {
      int t = show[j];
      show[j] = show[j - 1], show[j - 1] = t;
    }
  printf("R² across prompts at each k (pooled; per-batch mean in parentheses; '-' = not run, 'undef' = zero variance)\n");
  for (int ci = 0; ci < r->ncond; ci++) {
    char title[160];
    cond_title(&r->cond[ci], title, sizeof title);
    printf("\n%s\n%4s", title, "k");
    for (int p = 0; p < NNT_ICL_NPRED; p++)
      if (r->has[p]) printf(" %22s", nnt_icl_pred_names[p]);
    printf("\n");
    for (int s = 0; s < ns; s++) {
      if (s && show[s] == show[s - 1]) continue;
      int k = show[s];
      printf("%4d", k);
      for (int p = 0; p < NNT_ICL_NPRED; p++) {
        if (!r->has[p]) continue;
        int i = nnt_icl_eval_at(r, ci, p, k);
        char cell[64];
        if (!r->batch_ok[i] && !r->pooled_ok[i]) snprintf(cell, sizeof cell, "%s", p >= NNT_ICL_PRED_DIRECT_BEST && p <= NNT_ICL_PRED_DIRECT_FINAL ? "-" : "undef");
        else snprintf(cell, sizeof cell, "%.3f (%.3f)", r->pooled_ok[i] ? r->pooled[i] : NAN, r->batch_mean[i]);
        printf(" %22s", cell);
      }
      printf("\n");
    }
  }
  printf("\n%d prompts in %d batches per condition; %d points stored, %d computed, %.1f s\n", c->prompts, r->nbatch,
         r->stats.stored, r->stats.computed, r->stats.wall_s);
  if (!dir) return NNT_OK;
  nnt_csv f;
  int st = nnt_csv_open(&f, dir, "r2.csv",
                        "mix2,w_mean,k,predictor,r2_pooled,r2_batch_mean,r2_batch_sd,batches_defined,y_mean,y_sd");
  if (st) return st;
  for (int ci = 0; ci < r->ncond; ci++)
    for (int p = 0; p < NNT_ICL_NPRED; p++) {
      if (!r->has[p]) continue;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, ci, p, k);
        if (!r->batch_ok[i] && !r->pooled_ok[i] && (p == NNT_ICL_PRED_DIRECT_BEST || p == NNT_ICL_PRED_DIRECT_FINAL))
          continue; /* direct training did not run at k */
        char pooled[32] = "", bm[32] = "", bs[32] = "";
        if (r->pooled_ok[i]) snprintf(pooled, sizeof pooled, "%.6f", r->pooled[i]);
        if (r->batch_ok[i]) snprintf(bm, sizeof bm, "%.6f", r->batch_mean[i]), snprintf(bs, sizeof bs, "%.6f", r->batch_sd[i]);
        nnt_csv_row(&f, "%g,%g,%d,%s,%s,%s,%s,%d,%.6g,%.6g", r->cond[ci].mix2, r->cond[ci].w_mean, k,
                    nnt_icl_pred_names[p], pooled, bm, bs, r->batch_ok[i], r->y_mean[ci * n + k], r->y_sd[ci * n + k]);
      }
    }
  if ((st = nnt_csv_close(&f))) return st;
  double *x = nnt_xmalloc(sizeof(double) * n), *y = nnt_xmalloc(sizeof(double) * n), *lo = nnt_xmalloc(sizeof(double) * n),
         *hi = nnt_xmalloc(sizeof(double) * n);
  const char *label[NNT_ICL_NPRED] = {"prompt mean", "ridge", "3-NN", "direct (best epoch)", "direct (final epoch)", "model"};
  /* one series of predictor p in condition ci: its defined positions */
  for (int ci = 0; ci < r->ncond && !st; ci++) {
    char title[160], base[96], name[64];
    cond_title(&r->cond[ci], title, sizeof title);
    cond_name(&r->cond[ci], name, sizeof name);
    snprintf(base, sizeof base, "r2_%s", name);
    nnt_plot *pl = nnt_plot_new(title, "in-context examples k", "R² (pooled)");
    double ylo = -0.1; /* down to the lowest R² shown, at most -1.5 (the paper's axis) */
    for (int p = 0; p < NNT_ICL_NPRED; p++)
      for (int k = 0; k < n && r->has[p]; k++) {
        int i = nnt_icl_eval_at(r, ci, p, k);
        if (r->pooled_ok[i] && r->pooled[i] - 0.05 < ylo) ylo = r->pooled[i] - 0.05;
      }
    ylo = ylo < -1.5 ? -1.5 : ylo;
    nnt_plot_yrange(pl, ylo, 1.05);
    for (int p = NNT_ICL_NPRED - 1; p >= 0; p--) {
      if (!r->has[p]) continue;
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, ci, p, k);
        if (!r->pooled_ok[i]) continue;
        x[m] = k, y[m] = r->pooled[i], lo[m] = r->batch_mean[i] - r->batch_sd[i], hi[m] = r->batch_mean[i] + r->batch_sd[i];
        m++;
      }
      int direct = p == NNT_ICL_PRED_DIRECT_BEST || p == NNT_ICL_PRED_DIRECT_FINAL;
      int s = nnt_plot_add(pl, m, x, y, label[p], direct ? NNT_PLOT_LINE | NNT_PLOT_POINTS : NNT_PLOT_LINE);
      if (p == (r->has[NNT_ICL_PRED_MODEL] ? NNT_ICL_PRED_MODEL : NNT_ICL_PRED_MEAN)) {
        char band[64];
        snprintf(band, sizeof band, "%s: batch mean ± 1 sd", label[p]);
        nnt_plot_band(pl, m, x, lo, hi, s, band);
      }
    }
    if (n_train > 0) { /* the training length, dashed (as the paper's vertical line) */
      double vx[2] = {n_train - 1, n_train - 1}, vy[2] = {ylo, 1.05};
      nnt_plot_add(pl, 2, vx, vy, NULL, NNT_PLOT_DASHED);
    }
    st = nnt_plot_save(pl, dir, base);
    nnt_plot_free(pl);
  }
  if (!st && r->has[NNT_ICL_PRED_MODEL]) {
    nnt_plot *pl = nnt_plot_new("model R² per test condition (Figure 1/2)", "in-context examples k", "R² (pooled)");
    nnt_plot_yrange(pl, -1.5, 1.05);
    for (int ci = 0; ci < r->ncond; ci++) {
      char name[64];
      cond_name(&r->cond[ci], name, sizeof name);
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, ci, NNT_ICL_PRED_MODEL, k);
        if (r->pooled_ok[i]) x[m] = k, y[m++] = r->pooled[i];
      }
      nnt_plot_add(pl, m, x, y, name, NNT_PLOT_LINE);
    }
    for (int p = NNT_ICL_PRED_MEAN; p <= NNT_ICL_PRED_DIRECT_BEST; p += NNT_ICL_PRED_DIRECT_BEST) {
      if (!r->has[p]) continue;
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, 0, p, k);
        if (r->pooled_ok[i]) x[m] = k, y[m++] = r->pooled[i];
      }
      nnt_plot_add(pl, m, x, y, p == NNT_ICL_PRED_MEAN ? "prompt mean (first condition)" : "direct, best epoch (first condition)",
                   NNT_PLOT_DASHED);
    }
    st = nnt_plot_save(pl, dir, "mixtures");
    nnt_plot_free(pl);
  }
  free(x), free(y), free(lo), free(hi);
  if (!st) st = nnt_runinfo_write(dir, command, cfg_json(c, model), c->seed, nnt_threads_get(), r->stats.wall_s);
  return st;
}

/* ---------------------------------------------------------------- commands */

/* The model's identity in the sweep's config: its path and a hash of the checkpoint's bytes, so a
 * resumed evaluation never mixes points of a retrained model with the old ones. */
static void model_tag(const char *path, char *tag, size_t n) {
  unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
  FILE *f = fopen(path, "rb");
  if (f) {
    for (int c; (c = fgetc(f)) != EOF;) h = (h ^ (unsigned)c) * 1099511628211ULL;
    fclose(f);
  }
  snprintf(tag, n, "%s#%016llx", path, h);
}

static int model_predict(void *ctx, const float *xs, const float *ys, int B, int n, float *pred) {
  return nnt_icl_gpt_predict(ctx, xs, ys, B, n, pred);
}

/* The default direct-training positions that exist in prompts of n points. */
static void keep_ks_below(nnt_icl_eval_cfg *c, int n) {
  int nk = 0;
  for (int i = 0; i < c->nk; i++)
    if (c->ks[i] < n) c->ks[nk++] = c->ks[i];
  c->nk = nk;
}

static int parse(const cli_cmd *cmd, int argc, char **argv, opts *o, cli_args *a) {
  int st = cli_parse(cmd, argc, argv, o, a);
  if (st || a->co.help) return st;
  o->e.seed = a->co.seed, o->e.progress = 1, o->e.dir = a->co.out, o->e.resume = a->co.resume;
  o->e.direct = !o->no_direct;
  return NNT_OK;
}

int cli_icl_baselines(int argc, char **argv) {
  opts o;
  cli_args a;
  int st = parse(&baselines_cmd, argc, argv, &o, &a);
  if (st || a.co.help) return st;
  if (!cli_given(&baselines_cmd, &a, "direct-k")) keep_ks_below(&o.e, o.e.task.n);
  if (!cli_given(&baselines_cmd, &a, "mu2")) o.e.task.mu2 = o.e.task.mu;
  if ((st = nnt_icl_eval_check(&o.e)) || (a.co.out && (st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force))) ||
      (st = cli_begin(&a.co)))
    return st;
  nnt_icl_eval_result r;
  if (!(st = nnt_icl_eval_run(&o.e, &r))) st = eval_report(a.co.out, "icl baselines", &o.e, &r, NULL, 0);
  nnt_icl_eval_result_free(&r);
  return st;
}

/* The test task of a model: its training task, n = 1.5× its examples + 1 (the paper's 50 -> 75)
 * within its position slots unless --n was given; direct training only at positions < n. */
static int model_task(const cli_cmd *cmd, const cli_args *a, nnt_icl_gpt *m, opts *o, int *n_train) {
  const nnt_icl_task *t = nnt_icl_gpt_task(m);
  const nnt_icl_gpt_arch *ar = nnt_icl_gpt_arch_of(m);
  int n = o->e.task.n;
  *n_train = t->n;
  if (!cli_given(cmd, a, "n")) {
    n = (int)ceil(1.5 * (t->n - 1)) + 1;
    if (2 * n > ar->n_pos) n = ar->n_pos / 2;
  }
  if (2 * n > ar->n_pos)
    return nnt_fail(NNT_EINVAL, "--n %d needs %d position slots; the model has %d", n, 2 * n, ar->n_pos);
  o->e.task = *t;
  o->e.task.n = n;
  icl_task_given(cmd, a, &o->task, &o->e.task); /* the test task: the model's own, but what was given */
  if (!cli_given(cmd, a, "direct-k")) keep_ks_below(&o->e, n);
  return NNT_OK;
}

int cli_icl_eval(int argc, char **argv) {
  opts o;
  cli_args a;
  int st = parse(&eval_cmd, argc, argv, &o, &a), n_train = 0;
  if (st || a.co.help) return st;
  if (!o.model) return nnt_fail(NNT_EINVAL, "icl eval: --model DIR/model.ckpt is required");
  nnt_icl_gpt *m = NULL;
  if ((st = nnt_icl_gpt_load(o.model, &m))) return st;
  char tag[4200];
  model_tag(o.model, tag, sizeof tag);
  o.e.model = model_predict, o.e.model_ctx = m, o.e.model_tag = tag;
  if (!(st = model_task(&eval_cmd, &a, m, &o, &n_train)) && !(st = nnt_icl_eval_check(&o.e)) &&
      !(a.co.out && (st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force))) && !(st = cli_begin(&a.co))) {
    nnt_icl_eval_result r;
    if (!(st = nnt_icl_eval_run(&o.e, &r))) st = eval_report(a.co.out, "icl eval", &o.e, &r, o.model, n_train);
    nnt_icl_eval_result_free(&r);
  }
  nnt_icl_gpt_free(m);
  return st;
}

/* Figure 3: each model in-distribution on the same prompts; R² at the chosen numbers of examples. */
int cli_icl_sweep_depth(int argc, char **argv) {
  opts o;
  cli_args a;
  int st = parse(&depth_cmd, argc, argv, &o, &a);
  if (st || a.co.help) return st;
  if (!o.models == !o.nlayers)
    return nnt_fail(NNT_EINVAL, "icl sweep-depth: give --models A/model.ckpt,B/model.ckpt,... or --layers 4,6,8,10");
  if (o.nlayers && !a.co.out) return nnt_fail(NNT_EINVAL, "icl sweep-depth: --layers trains into OUT/L<layers>/: --out is required");
  enum { MAXM = 32 };
  char *list = nnt_xstrdup(o.models ? o.models : ""), *paths[MAXM], *save = NULL, trained[8][4096];
  int nm = 0, begun = 0;
  for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
    if (nm == MAXM) {
      free(list);
      return nnt_fail(NNT_EINVAL, "--models: at most %d", MAXM);
    }
    paths[nm++] = p;
  }
  int kmax = 0;
  for (int i = 0; i < o.nex; i++) kmax = o.examples[i] > kmax ? o.examples[i] : kmax;
  int n = cli_given(&depth_cmd, &a, "n") ? o.e.task.n : kmax + 1;
  for (int i = 0; i < o.nex && !st; i++)
    if (o.examples[i] >= n) st = nnt_fail(NNT_EINVAL, "--examples %d: prompts have %d points (k <= %d)", o.examples[i], n, n - 1);
  if (o.nlayers) { /* train first (each run resumes from its checkpoint), then evaluate as --models */
    nnt_icl_train_cfg tc[8];
    for (int i = 0; i < o.nlayers && !st; i++) {
      nnt_icl_train_cfg_default(&tc[i], (nnt_icl_preset)o.preset);
      tc[i].arch.attn = (nnt_attn_score)o.attn, tc[i].task.depth = o.target_depth;
      tc[i].arch.n_layer = o.layers[i];
      if (o.steps) tc[i].steps = o.steps;
      st = nnt_icl_train_check(&tc[i]);
      if (!st && 2 * n > tc[i].arch.n_pos)
        st = nnt_fail(NNT_EINVAL, "--n %d needs %d position slots; the %s preset has %d", n, 2 * n,
                      nnt_icl_preset_names[o.preset], tc[i].arch.n_pos);
      snprintf(trained[i], sizeof trained[i], "%s/L%d", a.co.out, o.layers[i]);
      for (int j = 0; j < i && !st; j++)
        if (o.layers[j] == o.layers[i]) st = nnt_fail(NNT_EINVAL, "--layers: %d twice", o.layers[i]);
    }
    if (!st) { /* the evaluation's settings, checked before any training */
      nnt_icl_eval_cfg pc = o.e;
      pc.task = tc[0].task, pc.task.n = n, pc.nmix = 1, pc.mix[0] = pc.task.mix2, pc.w_shift = 0, pc.direct = 0;
      st = nnt_icl_eval_check(&pc);
    }
    if (!st) st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force);
    for (int i = 0; i < o.nlayers && !st; i++) st = nnt_sweep_prepare_dir(trained[i], a.co.resume, a.co.force);
    if (!st) st = cli_begin(&a.co), begun = 1;
    for (int i = 0; i < o.nlayers && !st; i++) {
      nnt_icl_train_result tr = {0};
      fprintf(stderr, "icl sweep-depth: training %d layers into %s\n", o.layers[i], trained[i]);
      if (!(st = nnt_mkdirs(trained[i]))) st = nnt_icl_train_run(&tc[i], trained[i], a.co.resume, &tr);
      nnt_icl_train_result_free(&tr);
      strcat(trained[i], "/model.ckpt");
      paths[nm++] = trained[i];
    }
    if (st) {
      free(list);
      return st;
    }
  }
  nnt_icl_gpt *m[MAXM] = {0};
  for (int i = 0; i < nm && !st; i++) {
    if ((st = nnt_icl_gpt_load(paths[i], &m[i]))) break;
    const nnt_icl_task *t = nnt_icl_gpt_task(m[i]), *t0 = nnt_icl_gpt_task(m[0]);
    if (!nnt_icl_task_same(t, t0, 1))
      st = nnt_fail(NNT_EINVAL, "--models: %s was trained on another task than %s", paths[i], paths[0]);
    else if (2 * n > nnt_icl_gpt_arch_of(m[i])->n_pos)
      st = nnt_fail(NNT_EINVAL, "--n %d needs %d position slots; %s has %d", n, 2 * n, paths[i], nnt_icl_gpt_arch_of(m[i])->n_pos);
  }
  nnt_icl_eval_result *res = nnt_xcalloc((size_t)nm, sizeof *res);
  nnt_icl_eval_cfg c = o.e;
  if (!st) {
    c.task = *nnt_icl_gpt_task(m[0]);
    c.task.n = n;
    c.nmix = 1, c.mix[0] = c.task.mix2, c.w_shift = 0, c.direct = 0;
    st = nnt_icl_eval_check(&c);
  }
  if (!st && a.co.out && (begun || !(st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force))))
    for (int i = 0; i < nm && !st; i++) {
      char sub[4096];
      snprintf(sub, sizeof sub, "%s/model%d", a.co.out, i);
      st = nnt_sweep_prepare_dir(sub, a.co.resume, a.co.force);
    }
  if (!st && !begun) st = cli_begin(&a.co);
  double wall = 0;
  char sub[4096];
  for (int i = 0; i < nm && !st; i++) {
    char tag[4200];
    model_tag(paths[i], tag, sizeof tag);
    c.model = model_predict, c.model_ctx = m[i], c.model_tag = tag;
    if (a.co.out) snprintf(sub, sizeof sub, "%s/model%d", a.co.out, i);
    c.dir = a.co.out ? sub : NULL;
    fprintf(stderr, "icl sweep-depth: %s\n", paths[i]);
    st = nnt_icl_eval_run(&c, &res[i]);
    wall += res[i].stats.wall_s;
  }
  if (!st) {
    printf("R² (pooled; depth.csv adds the per-batch mean and sd) at k in-context examples, x ~ the training distribution, %d prompts\n",
           c.prompts);
    printf("%-40s %6s %5s %5s %8s", "model", "layers", "heads", "embd", "attn");
    for (int e = 0; e < o.nex; e++) printf("   model k=%-3d  mean  ridge", o.examples[e]);
    printf("\n");
    nnt_csv f;
    int csv = a.co.out != NULL;
    if (csv && (st = nnt_csv_open(&f, a.co.out, "depth.csv",
                                  "model,layers,heads,n_embd,attn,k,r2_model,r2_model_batch_mean,r2_model_batch_sd,r2_mean,r2_ridge")))
      csv = 0;
    for (int i = 0; i < nm; i++) {
      const nnt_icl_gpt_arch *ar = nnt_icl_gpt_arch_of(m[i]);
      printf("%-40s %6d %5d %5d %8s", paths[i], ar->n_layer, ar->n_head, ar->n_embd, nnt_icl_attn_names[ar->attn]);
      for (int e = 0; e < o.nex; e++) {
        int k = o.examples[e], im = nnt_icl_eval_at(&res[i], 0, NNT_ICL_PRED_MODEL, k);
        double pm = res[i].pooled[im], pb = res[i].pooled[nnt_icl_eval_at(&res[i], 0, NNT_ICL_PRED_MEAN, k)],
               pr = res[i].pooled[nnt_icl_eval_at(&res[i], 0, NNT_ICL_PRED_RIDGE, k)];
        printf("   %11.3f %5.3f %6.3f", pm, pb, pr);
        if (csv)
          nnt_csv_row(&f, "%s,%d,%d,%d,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f", paths[i], ar->n_layer, ar->n_head, ar->n_embd,
                      nnt_icl_attn_names[ar->attn], k, pm, res[i].batch_mean[im], res[i].batch_sd[im], pb, pr);
      }
      printf("\n");
    }
    if (csv) st = nnt_csv_close(&f);
    if (!st && a.co.out) {
      nnt_plot *pl = nnt_plot_new("R² vs transformer depth (Figure 3)", "transformer layers", "R² (pooled)");
      double x[MAXM], y[MAXM];
      for (int e = 0; e < o.nex; e++) {
        char lab[64];
        snprintf(lab, sizeof lab, "%d examples", o.examples[e]);
        for (int i = 0; i < nm; i++)
          x[i] = nnt_icl_gpt_arch_of(m[i])->n_layer, y[i] = res[i].pooled[nnt_icl_eval_at(&res[i], 0, NNT_ICL_PRED_MODEL, o.examples[e])];
        int s = nnt_plot_add(pl, nm, x, y, lab, NNT_PLOT_LINE | NNT_PLOT_POINTS);
        (void)s;
        for (int i = 0; i < nm; i++) y[i] = res[i].pooled[nnt_icl_eval_at(&res[i], 0, NNT_ICL_PRED_MEAN, o.examples[e])];
        snprintf(lab, sizeof lab, "prompt mean, %d examples", o.examples[e]);
        nnt_plot_add(pl, nm, x, y, lab, NNT_PLOT_DASHED);
      }
      st = nnt_plot_save(pl, a.co.out, "depth");
      nnt_plot_free(pl);
      if (!st) {
        cJSON *j = cfg_json(&c, NULL), *ms = cJSON_AddArrayToObject(j, "models");
        for (int i = 0; i < nm; i++) cJSON_AddItemToArray(ms, cJSON_CreateString(paths[i]));
        st = nnt_runinfo_write(a.co.out, "icl sweep-depth", j, c.seed, nnt_threads_get(), wall);
      }
    }
  }
  for (int i = 0; i < nm; i++) nnt_icl_gpt_free(m[i]), nnt_icl_eval_result_free(&res[i]);
  free(res), free(list);
  return st;
}
