/* nnt icl baselines / eval / sweep-depth as descriptors (cmd_icl.c lists them): R² against the
 * number of in-context examples (§7.6–7.10) for the baselines, a trained model, and models of
 * several depths (the area run nnt_icl_depth_run). Writers: src/report/report_icl.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "icl_task_opts.h"
#include "nnt_file.h"
#include "nnt_icl_depth.h"
#include "report_icl.h"

typedef struct {
  nnt_icl_eval_cfg e;
  int no_direct;
  const char *model;      /* eval: DIR/model.ckpt */
  const char *models;     /* sweep-depth: comma-separated checkpoints */
  int nex, examples[NNT_ICL_DEPTH_MAXE];
  int nlayers, layers[NNT_ICL_DEPTH_MAXE]; /* sweep-depth: train one model per depth */
  int preset, attn, target_depth;
  long steps;             /* 0: the preset's (the option refuses 0) */
  int curriculum;         /* sweep-depth --layers: as icl train's */
  long curriculum_steps;
  nnt_icl_task task;      /* eval: the task options given replace the model's own */
  /* what validate made: */
  nnt_icl_gpt *m;         /* eval: the model, loaded */
  int n_train;            /* eval: its training prompts' points */
  char tag[4200];         /* eval: its identity in results.sqlite */
  char *list;             /* sweep-depth: a copy of --models, cut at the commas */
  nnt_icl_depth_cfg depth;
  nnt_icl_train_cfg mt;   /* eval --quick alone: the micro model the run trains (steps 0: none) */
  char scratch[64];       /* --quick alone without --out: the folder it trains in, removed at the end */
  char path[4200];        /* that model's checkpoint */
} opts;

/* --quick alone without --out: a scratch folder for the training (opts_free removes it). */
static const char *scratch(opts *o, const cli_run *r, const char *sub) {
  if (r->out) return snprintf(o->path, sizeof o->path, "%s/%s", r->out, sub), o->path;
  snprintf(o->scratch, sizeof o->scratch, "/tmp/nnt-icl-quick-XXXXXX");
  return mkdtemp(o->scratch) ? o->scratch : (o->scratch[0] = 0, NULL);
}

static void defaults(void *v, nnt_preset p) {
  opts *o = v;
  const int quick = p == NNT_PRESET_QUICK;
  memset(o, 0, sizeof *o);
  nnt_icl_eval_cfg_default(&o->e, p);
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
    CLI_STR("model", S, model, "checkpoint written by nnt icl train (required; --quick alone trains a micro model first)"),
    CLI_INT("n", S, e.task.n, 1, 200, "test points per prompt (default: 1.5× the training examples + 1, within the model's slots)"),
    ICL_TASK_OPTS(S),
    EVAL_OPTS,
    {0}};
static const cli_opt depth_opts[] = {
    CLI_STR("models", S, models, "comma-separated checkpoints of one task, different depths"),
    CLI_INTS("layers", S, layers, nlayers, 1, 64, "or: train one model per depth into OUT/L<layers>/ first (resumable; --quick alone: 1,2 in a scratch folder)"),
    CLI_CHOICE("preset", S, preset, nnt_icl_preset_names, "--layers: the training preset"),
    CLI_CHOICE("attn", S, attn, nnt_icl_attn_names, "--layers: attention scores"),
    CLI_INT("target-depth", S, target_depth, 2, 12, "--layers: layers of the target networks"),
    CLI_LONG("steps", S, steps, 1, 1000000000L, "--layers: optimizer steps (default: the preset's)"),
    CLI_CHOICE("curriculum", S, curriculum, nnt_icl_curriculum_names,
               "--layers: Garg et al.'s curriculum, as icl train's (default: the preset's)"),
    CLI_LONG("curriculum-steps", S, curriculum_steps, 1, 1000000000L,
             "--layers: the curriculum's length in steps (default: the preset's)"),
    CLI_INTS("examples", S, examples, nex, 0, 199, "numbers of in-context examples reported"),
    CLI_INT("n", S, e.task.n, 1, 200, "test points per prompt (default: the largest --examples + 1)"),
    CLI_INT("prompts", S, e.prompts, 2, 10000000, "test prompts (a multiple of --batch)"),
    CLI_INT("batch", S, e.batch, 2, 100000, "prompts per batch (the per-batch R²)"),
    CLI_DOUBLE("ridge", S, e.ridge, 1e-300, 1e300, "ridge lambda (intercept unpenalised)"),
    {0}};
#undef S

#define GIVEN(name) cli_given(r->cmd, r->args, name)

/* The common settings of an evaluation; direct training only at positions that exist in prompts of n points. */
static void eval_common(opts *o, const cli_run *r, int n) {
  o->e.seed = r->seed, o->e.progress = 1, o->e.dir = r->out, o->e.resume = r->resume;
  o->e.direct = !o->no_direct;
  if (!GIVEN("direct-k")) {
    int nk = 0;
    for (int i = 0; i < o->e.nk; i++)
      if (o->e.ks[i] < n) o->e.ks[nk++] = o->e.ks[i];
    o->e.nk = nk;
  }
}

static int baselines_validate(void *cfg, const cli_run *r) {
  opts *o = cfg;
  eval_common(o, r, o->e.task.n);
  if (!GIVEN("mu2")) o->e.task.mu2 = o->e.task.mu;
  return nnt_icl_eval_check(&o->e);
}

/* The test task of the model: its training task, n = 1.5× its examples + 1 (the paper's 50 -> 75)
 * within its position slots unless --n was given, and the task options given. */
static int eval_validate(void *cfg, const cli_run *r) {
  opts *o = cfg;
  const nnt_icl_task *t;
  const nnt_icl_gpt_arch *ar;
  int st;
  if (!o->model && r->quick) { /* --quick alone: a micro model (as icl train --quick), trained by the run */
    nnt_icl_train_cfg_default(&o->mt, NNT_ICL_PRESET_MICRO);
    o->mt.seed = r->seed;
    if ((st = nnt_icl_train_check(&o->mt))) return st;
    t = &o->mt.task, ar = &o->mt.arch;
  } else {
    if (!o->model) return nnt_fail(NNT_EINVAL, "icl eval: --model DIR/model.ckpt is required (or --quick alone: a micro model)");
    if ((st = nnt_icl_gpt_load(o->model, &o->m))) return st;
    t = nnt_icl_gpt_task(o->m), ar = nnt_icl_gpt_arch_of(o->m);
  }
  int n = o->e.task.n;
  o->n_train = t->n;
  if (!GIVEN("n")) {
    n = (int)ceil(1.5 * (t->n - 1)) + 1;
    if (2 * n > ar->n_pos) n = ar->n_pos / 2;
  }
  if (2 * n > ar->n_pos) return nnt_fail(NNT_EINVAL, "--n %d needs %d position slots; the model has %d", n, 2 * n, ar->n_pos);
  o->e.task = *t;
  o->e.task.n = n;
  icl_task_given(r->cmd, r->args, &o->task, &o->e.task);
  eval_common(o, r, n);
  if (o->m) nnt_icl_eval_use_model(&o->e, o->m, o->model, o->tag, sizeof o->tag);
  else o->e.model_bytes = nnt_icl_gpt_train_bytes(ar, o->e.batch, n);
  o->task = o->e.task; /* the test task used, for run.json */
  return nnt_icl_eval_check(&o->e);
}

static int eval_run(void *cfg, const cli_run *r, void *res) {
  opts *o = cfg;
  if (!o->m && o->mt.steps) { /* --quick alone: the micro model first, into OUT/micro or a scratch folder */
    const char *dir = scratch(o, r, "micro");
    int st = dir ? nnt_icl_train_load(&o->mt, dir, 0, &o->m, o->path, sizeof o->path)
                 : nnt_fail(NNT_EIO, "cannot create a scratch folder in /tmp");
    if (st) return st;
    nnt_icl_eval_use_model(&o->e, o->m, o->path, o->tag, sizeof o->tag);
  }
  return nnt_icl_eval_run(&o->e, res);
}
static int eval_report(const void *cfg, const void *res, const cli_run *r) {
  const opts *o = cfg;
  return nnt_report_icl_eval(r->out, &o->e, res, o->m ? o->n_train : 0);
}
static void eval_free(void *res) { nnt_icl_eval_result_free(res); }
static void opts_free(void *cfg) {
  opts *o = cfg;
  nnt_icl_gpt_free(o->m), free(o->list);
  o->m = NULL, o->list = NULL;
  if (o->scratch[0]) nnt_remove_tree(o->scratch), o->scratch[0] = 0;
}

/* Figure 3: the models given, or one trained per --layers, evaluated by nnt_icl_depth_run. */
static int depth_validate(void *cfg, const cli_run *r) {
  opts *o = cfg;
  nnt_icl_depth_cfg *c = &o->depth;
  o->e.seed = r->seed, o->e.progress = 1, o->e.resume = r->resume; /* no direct training; the run sets the task, the folders */
  c->eval = o->e;
  c->nexamples = o->nex;
  memcpy(c->examples, o->examples, sizeof c->examples);
  int kmax = 0;
  for (int i = 0; i < o->nex; i++) kmax = o->examples[i] > kmax ? o->examples[i] : kmax;
  c->n = GIVEN("n") ? o->e.task.n : kmax + 1;
  if (o->models) {
    o->list = nnt_xstrdup(o->models);
    char *save = NULL;
    for (char *p = strtok_r(o->list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
      if (c->nmodels == NNT_ICL_DEPTH_MAXM) return nnt_fail(NNT_EINVAL, "--models: at most %d", NNT_ICL_DEPTH_MAXM);
      c->models[c->nmodels++] = p;
    }
  }
  for (int i = 0; i < o->nlayers; i++) {
    nnt_icl_train_cfg *t = &c->train[c->ntrain++];
    nnt_icl_train_cfg_default(t, (nnt_icl_preset)o->preset);
    t->arch.attn = (nnt_attn_score)o->attn, t->task.depth = o->target_depth, t->arch.n_layer = o->layers[i];
    if (o->steps) t->steps = o->steps;
    if (GIVEN("curriculum")) t->curriculum = o->curriculum;
    if (GIVEN("curriculum-steps")) t->curriculum_steps = o->curriculum_steps;
  }
  c->preset = o->preset, c->dir = r->out, c->resume = r->resume, c->force = r->force;
  if (r->quick && !o->models && !o->nlayers) { /* --quick alone: micro models of 1 and 2 layers */
    o->nlayers = 2, o->layers[0] = 1, o->layers[1] = 2;
    return depth_validate(cfg, r);
  }
  if (c->ntrain && !c->dir && r->quick && !(c->dir = scratch(o, r, NULL)))
    return nnt_fail(NNT_EIO, "cannot create a scratch folder in /tmp");
  o->e.task.n = c->n; /* the values used, for run.json */
  if (c->ntrain) /* the values used, for run.json */
    o->steps = (long)c->train[0].steps, o->curriculum = c->train[0].curriculum,
    o->curriculum_steps = (long)c->train[0].curriculum_steps;
  return nnt_icl_depth_check(c);
}
static int depth_run(void *cfg, const cli_run *r, void *res) {
  opts *o = cfg;
  nnt_icl_depth_result *d = res;
  int st = nnt_icl_depth_run(&o->depth, d);
  size_t n = strlen(o->scratch);
  for (int i = 0; !st && n && i < d->nm; i++) /* the scratch folder goes at the end: name its models by depth */
    if (!strncmp(d->paths[i], o->scratch, n)) {
      char label[64];
      snprintf(label, sizeof label, "%s L%d (not kept)", nnt_icl_preset_names[o->preset], d->arch[i].n_layer);
      free(d->paths[i]), d->paths[i] = nnt_xstrdup(label);
    }
  return (void)r, st;
}
static int depth_report(const void *cfg, const void *res, const cli_run *r) {
  return nnt_report_icl_depth(r->out, &((const opts *)cfg)->depth, res);
}
static void depth_free(void *res) { nnt_icl_depth_result_free(res); }

const cli_cmd cli_icl_baselines_cmd = {
    .name = "icl baselines",
    .example = "nnt icl baselines --depth 3 --mix 0,0.5 --quick --out runs/baselines",
    .about = "How easy the ICL task is, with no model: R² against the number of in-context examples k for the\n"
             "prompt mean, ridge with intercept, 3-NN and direct training of a fresh net per prompt and k (best\n"
             "and final epoch), per test mixture, per-batch and pooled. Writes r2.csv, r2_<condition>.png,\n"
             "run.json and results.sqlite (one point per condition and batch: --resume continues).",
    .opts = baselines_opts, .cfg_size = sizeof(opts), .res_size = sizeof(nnt_icl_eval_result), .cfg_default = defaults,
    .validate = baselines_validate, .run = eval_run, .report = eval_report, .result_free = eval_free,
    .cfg_free = opts_free, .common = CLI_OUT | CLI_SWEEP};
const cli_cmd cli_icl_eval_cmd = {
    .name = "icl eval",
    .example = "nnt icl train --quick --steps 20 --out runs/micro\n"
               "nnt icl eval --model runs/micro/model.ckpt --quick --out runs/micro-eval",
    .about = "A trained model's R² against k (Figures 1–2) per test mixture, beyond its training length, with\n"
             "the baselines on the same seeded prompts. Writes r2.csv, r2_<condition>.png, mixtures.png,\n"
             "run.json and results.sqlite (--resume continues).",
    .opts = eval_opts, .cfg_size = sizeof(opts), .res_size = sizeof(nnt_icl_eval_result), .cfg_default = defaults,
    .validate = eval_validate, .run = eval_run, .report = eval_report, .result_free = eval_free,
    .cfg_free = opts_free, .common = CLI_OUT | CLI_SWEEP};
const cli_cmd cli_icl_depth_cmd = {
    .name = "icl sweep-depth",
    .example = "nnt icl sweep-depth --layers 2,4 --preset micro --examples 5,10,20 --quick --out runs/depth",
    .about = "R² at 15/30/45 in-context examples against the transformer's depth (Figure 3): each model (given\n"
             "by --models, or trained by --layers 4,6,8,10 into OUT/L<layers>/, resumable) is evaluated\n"
             "in-distribution in OUT/model<i>/ (resumable), with the prompt mean and ridge beside it.\n"
             "Writes depth.csv, depth.png, run.json.",
    .opts = depth_opts, .cfg_size = sizeof(opts), .res_size = sizeof(nnt_icl_depth_result), .cfg_default = defaults,
    .validate = depth_validate, .run = depth_run, .report = depth_report, .result_free = depth_free,
    .cfg_free = opts_free, .common = CLI_OUT | CLI_SWEEP};
