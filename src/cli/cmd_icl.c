/* nnt icl — seed 003's subcommands as descriptors that cli_drive runs: the construction (construct,
 * construct-sweep) and training (train) here, the evaluations in cmd_icl_eval.c. The runs live in
 * the icl library, the writers in src/report/report_icl.c. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "icl_task_opts.h"
#include "nnt_icl_construct.h"
#include "nnt_icl_gpt.h"
#include "nnt_io.h"
#include "nnt_mlp.h" /* nnt_export_format */
#include "nnt_mpi.h"
#include "report_icl.h"

extern const cli_cmd cli_icl_baselines_cmd, cli_icl_eval_cmd, cli_icl_depth_cmd, cli_icl_figures_cmd; /* cmd_icl_eval.c, cmd_icl_figures.c */

/* ---------------------------------------------------------------- construct, construct-sweep */

typedef struct {
  nnt_icl_construct_cfg c;
  double tol;
  int layers;
  char command[4096]; /* provenance of --export */
} construct_cli;
typedef struct {
  nnt_icl_construct_result r;
  nnt_icl_tf tf; /* --layers */
  int has_tf, failed; /* failed: the run stopped on a check before its end (nothing to report) */
} construct_res;

#define COMMON_OPTS(O, c)                                                                                          \
  CLI_INT("dx", O, c.net.dx, 1, 4096, "input dimension"), CLI_INT("dy", O, c.net.dy, 1, 4096, "output dimension"),      \
      CLI_CHOICE("act", O, c.net.act, nnt_icl_act_names, "activation r (the theorem needs a smooth one)"),          \
      CLI_INT("out-act", O, c.net.out_act, 0, 1, "1: r also on the output layer (Definition 1); 0: linear output"), \
      CLI_INT("steps", O, c.steps, 1, 100000, "GD steps L"), CLI_DOUBLE("eta", O, c.eta, 0, 1e6, "GD step size"),     \
      CLI_DOUBLE("B", O, c.B, 0, 1e12, "clip box [-B,B] of the projection"),                                         \
      CLI_DOUBLE("R", O, c.R, 0, 1e12, "interpolation range [-R,R] of r and r'"),                                    \
      CLI_DOUBLE("w0-std", O, c.w0_std, 0, 1e6, "random start w0 ~ N(0, w0-std^2) in the w slot (0: w0 = 0)"),      \
      CLI_DOUBLE("teacher-std", O, c.teacher_std, 0, 1e6, "labels from a teacher net with N(0, std^2) weights"),     \
      CLI_DOUBLE("gate", O, c.gate, 0, 1e300, "gate constant G of the query (must exceed |p(N) - y|)"),              \
      CLI_INT("readout", O, c.readout, 0, 1, "1: N+1 readout layers give the query prediction after each step")

static const cli_opt construct_opts[] = {
    CLI_INT("N", construct_cli, c.net.N, 2, 64, "network layers (N-1 hidden of width K, then the output)"),
    CLI_INT("K", construct_cli, c.net.K, 1, 4096, "hidden width"),
    CLI_INT("n", construct_cli, c.n, 1, 100000, "in-context examples (the prompt has n+1 tokens)"),
    CLI_INT("M", construct_cli, c.M, 2, 1000000, "ReLU pieces per interpolated function (r and r')"),
    COMMON_OPTS(construct_cli, c),
    CLI_DOUBLE("tol", construct_cli, tol, 0, 1e300, "exit 1 if max_err exceeds this (0: no check)"),
    CLI_DOUBLE("bound-scale", construct_cli, c.bound_scale, 1e-300, 1,
               "scale Theorem 1's interpolation constants by this (< 1: a fault injection the bound check must catch)"),
    CLI_FLAG("layers", construct_cli, layers, "print the layer table of one GD step and the readout"),
    CLI_STR("export", construct_cli, c.export_path, "write the transformer and its prompt to FILE.safetensors (python/nnt loads it)"),
    {0}};
static const cli_opt sweep_opts[] = {
    CLI_INTS("N", nnt_icl_construct_sweep_cfg, Ns, nN, 2, 64, "network layers, a list"),
    CLI_INTS("K", nnt_icl_construct_sweep_cfg, Ks, nK, 1, 4096, "hidden widths, a list"),
    CLI_INTS("n", nnt_icl_construct_sweep_cfg, ns, nn, 1, 100000, "in-context examples, a list"),
    CLI_INTS("M", nnt_icl_construct_sweep_cfg, Ms, nM, 2, 1000000, "ReLU pieces, a list"),
    COMMON_OPTS(nnt_icl_construct_sweep_cfg, base),
    {0}};

static void construct_default(void *cfg, nnt_preset p) { nnt_icl_construct_cfg_default(&((construct_cli *)cfg)->c, p); }
static int construct_validate(void *cfg, const cli_run *r) {
  construct_cli *o = cfg;
  o->c.seed = r->seed, o->c.version = nnt_version();
  o->c.command = cli_command_line(o->command, sizeof o->command, "nnt icl", r->argc, r->argv);
  return nnt_icl_construct_check(&o->c);
}
static int construct_run(void *cfg, const cli_run *r, void *res_) {
  construct_cli *o = cfg;
  construct_res *res = res_;
  (void)r;
  int st = o->layers ? nnt_icl_tf_build(&o->c, &res->tf) : NNT_OK;
  if (st) return st;
  res->has_tf = o->layers;
  if ((st = nnt_icl_construct_run(&o->c, &res->r))) {
    res->failed = 1;
    if (st != NNT_ECHECK && res->has_tf) nnt_icl_tf_free(&res->tf), res->has_tf = 0; /* not reported: freed here */
    return st;
  }
  if (!res->r.invariants_ok) return nnt_fail(NNT_ECHECK, "an invariant failed (w copies differ or scratch not cleared)");
  if (!res->r.bound_ok) return nnt_fail(NNT_ECHECK, "step %d: the measured error exceeds Theorem 1's bound", res->r.bound_step);
  if (o->tol > 0 && !(res->r.max_err <= o->tol))
    return nnt_fail(NNT_ECHECK, "max_err=%.3e exceeds --tol %.3e", res->r.max_err, o->tol);
  return NNT_OK;
}
static int construct_report(const void *cfg, const void *res_, const cli_run *r) {
  const construct_res *res = res_;
  if (res->has_tf) nnt_report_icl_layer_table(stdout, &res->tf);
  if (res->failed) return NNT_ECHECK; /* the check's message stands */
  return nnt_report_icl_construct(r->out, &((const construct_cli *)cfg)->c, &res->r);
}
static struct cJSON *construct_json(const void *cfg, const void *res_) {
  const construct_res *res = res_;
  return (void)cfg, res->failed ? NULL : nnt_report_icl_construct_json(&res->r);
}
static void construct_free(void *res_) {
  construct_res *res = res_;
  if (res->has_tf) nnt_icl_tf_free(&res->tf);
  if (!res->failed) nnt_icl_construct_result_free(&res->r);
}

static void sweep_default(void *cfg, nnt_preset p) { nnt_icl_construct_sweep_cfg_default(cfg, p); }
static int sweep_validate(void *cfg, const cli_run *r) {
  ((nnt_icl_construct_sweep_cfg *)cfg)->base.seed = r->seed;
  return nnt_icl_construct_sweep_check(cfg);
}
static int sweep_run(void *cfg, const cli_run *r, void *res) { return (void)r, nnt_icl_construct_sweep_run(cfg, res); }
static int sweep_report(const void *cfg, const void *res, const cli_run *r) {
  return (void)cfg, nnt_report_icl_construct_sweep(r->out, res);
}
static void sweep_free(void *res) { nnt_icl_construct_sweep_result_free(res); }

static const cli_cmd construct_cmd = {
    .name = "icl construct",
    .example = "nnt icl construct --N 3 --K 6 --M 128 --act tanh",
    .about = "Builds the explicit transformer of Theorem 1 (seed 003): (2N+4) layers per GD step (ReLU attention with\n"
             "1/T normalisation, EWML, ReLU MLPs), r and r' as sums of M ReLUs on [-R,R], the squared loss exact,\n"
             "clipping to [-B,B] as the projection. A random teacher labels n examples; the prompt carries a random w0\n"
             "in every token. Each step compares the transformer's w with direct projected GD (backprop) and prints\n"
             "the errors beside Theorem 1's bounds (Lemmas 2-6 for the gradient, Corollary 1.1 for w, evaluated with\n"
             "the construction's constants M, R, B, the data and the weights), losses, the query prediction through\n"
             "N+1 readout layers and the invariants; ends with max_err=E (largest |w_TF - w_GD|_inf) max_bound=B\n"
             "(largest bound on |w_TF - w_GD|_2). Exit 1 if an invariant fails, a measured error exceeds its bound\n"
             "(sigmoid, tanh, softplus, identity) or max_err > --tol (when given). With --out, steps.csv and run.json.",
    .opts = construct_opts, .cfg_size = sizeof(construct_cli), .res_size = sizeof(construct_res),
    .cfg_default = construct_default, .validate = construct_validate, .run = construct_run, .report = construct_report,
    .result_free = construct_free, .result_json = construct_json, .common = CLI_OUT};
static const cli_cmd sweep_cmd = {
    .name = "icl construct-sweep",
    .example = "nnt icl construct-sweep --M 8,16,32,...,256 --out runs/construct-sweep",
    .about = "Runs icl construct for every combination of the lists N, K, n and M and prints |w_TF - w_GD|_2 after the\n"
             "last step, with a log-log fit against M per shape (piecewise-linear interpolation: error ~ M^-2); with\n"
             "--out, sweep.csv, err_vs_M.png/.svg and run.json.",
    .opts = sweep_opts, .cfg_size = sizeof(nnt_icl_construct_sweep_cfg), .res_size = sizeof(nnt_icl_construct_sweep_result),
    .cfg_default = sweep_default, .validate = sweep_validate, .run = sweep_run, .report = sweep_report,
    .result_free = sweep_free, .common = CLI_OUT};

/* ---------------------------------------------------------------- train */

typedef struct {
  int preset, attn, depth;
  long steps; /* 0: not given, the preset's (likewise below; the options refuse 0) */
  double lr;
  int batch, ckpt_every, curriculum;
  long curriculum_steps;
  nnt_icl_task task; /* the task options given replace the preset's */
  const char *export_path;
  nnt_icl_train_cfg c; /* the run's config: the preset's, with the options given (validate) */
  char command[4096];  /* provenance of --export */
} train_cli;

static const cli_opt train_opts[] = {
    CLI_CHOICE("preset", train_cli, preset, nnt_icl_preset_names,
               "scale: micro (seconds), mini (the bench model, <= 1 h on 2 cores), small (Garg's small model on the "
               "paper's d = 20 task, hours), paper (GPU-scale: 12 layers, 256 wide, 500k steps)"),
    CLI_CHOICE("attn", train_cli, attn, nnt_icl_attn_names, "attention scores"),
    CLI_INT("target-depth", train_cli, depth, 2, 12, "layers N of the random ReLU target networks (3, 4, 6 in the paper)"),
    CLI_LONG("steps", train_cli, steps, 1, 100000000, "optimizer steps (default: the preset's)"),
    CLI_DOUBLE("lr", train_cli, lr, 1e-300, 1e9, "Adam learning rate (default: the preset's)"),
    CLI_INT("batch", train_cli, batch, 1, 100000, "prompts per step (default: the preset's)"),
    CLI_INT("ckpt-every", train_cli, ckpt_every, 1, 100000000, "steps between checkpoints (default: the preset's)"),
    CLI_CHOICE("curriculum", train_cli, curriculum, nnt_icl_curriculum_names,
               "Garg et al.'s dimension and prompt-length curriculum, scaled to the step count (default: the "
               "preset's: garg, but none for micro)"),
    CLI_LONG("curriculum-steps", train_cli, curriculum_steps, 1, 1000000000L,
             "the curriculum's length in steps (default: 6% of the preset's steps, Garg's 30k of 500k)"),
    CLI_INT("d", train_cli, task.d, 2, 4096, "input dimension (default: the preset's)"),
    CLI_INT("points", train_cli, task.n, 1, 100000, "points per training prompt, the query included (default: the preset's)"),
    CLI_DOUBLE("mix2", train_cli, task.mix2, 0, 1, "training mixture: weight of N(+mu2·1, I) (0 in the paper)"),
    ICL_TASK_OPTS(train_cli),
    CLI_STR("export", train_cli, export_path,
            "write the trained model to FILE.safetensors (python/nnt loads it into PyTorch) or FILE.onnx (needs --out)"),
    {0}};

static void train_default(void *cfg, nnt_preset p) {
  train_cli *o = cfg;
  *o = (train_cli){.preset = p == NNT_PRESET_QUICK ? NNT_ICL_PRESET_MICRO : NNT_ICL_PRESET_MINI, .depth = 3};
  nnt_icl_task_default(&o->task, 8, 51, 3);
}
#define GIVEN(name) cli_given(r->cmd, r->args, name)
static int train_validate(void *cfg, const cli_run *r) {
  train_cli *o = cfg;
  nnt_icl_train_cfg *c = &o->c;
  nnt_icl_train_cfg_default(c, o->preset);
  c->arch.attn = o->attn, c->task.depth = o->depth, c->seed = r->seed;
  if (o->steps) c->steps = o->steps;
  if (o->lr > 0) c->lr = o->lr;
  if (o->batch) c->batch = o->batch;
  if (o->ckpt_every) c->ckpt_every = o->ckpt_every;
  if (GIVEN("curriculum")) c->curriculum = o->curriculum;
  if (GIVEN("curriculum-steps")) c->curriculum_steps = o->curriculum_steps;
  if (GIVEN("d")) c->task.d = c->arch.d = o->task.d;
  if (GIVEN("points")) c->task.n = o->task.n, c->arch.n_pos = 4 * o->task.n;
  if (GIVEN("mix2")) c->task.mix2 = o->task.mix2;
  icl_task_given(r->cmd, r->args, &o->task, &c->task);
  if (o->export_path && !nnt_export_format(o->export_path))
    return nnt_fail(NNT_EINVAL, "--export %s: the model exports to .safetensors or .onnx", o->export_path);
  if (o->export_path && !r->out) return nnt_fail(NNT_EINVAL, "--export: give --out DIR (the model is exported from its checkpoint)");
  cli_command_line(o->command, sizeof o->command, "nnt icl", r->argc, r->argv);
  /* the values used, for run.json (the options' "the preset's" resolved) */
  o->steps = (long)c->steps, o->lr = c->lr, o->batch = c->batch, o->ckpt_every = c->ckpt_every;
  o->curriculum = c->curriculum, o->curriculum_steps = (long)c->curriculum_steps, o->task = c->task;
  return nnt_icl_train_check(c);
}
static int train_run(void *cfg, const cli_run *r, void *res) {
  train_cli *o = cfg;
  char path[4096];
  snprintf(path, sizeof path, "%s/model.ckpt", r->out ? r->out : ".");
  if (r->out && r->force && !nnt_mpi_rank()) unlink(path); /* start afresh: a later --resume must not pick up the old run */
  int st = nnt_icl_train_run(&o->c, r->out, r->resume, res);
  if (st == NNT_ENUMERIC) { /* exit 1; the last checkpoint stays */
    char why[256];
    snprintf(why, sizeof why, "%s", nnt_errmsg());
    return nnt_fail(NNT_ENUMERIC, "%s (the last checkpoint in %s is kept; try a smaller --lr)", why, r->out ? r->out : "memory: none");
  }
  return st;
}
static int train_report(const void *cfg, const void *res, const cli_run *r) {
  const train_cli *o = cfg;
  int st = nnt_report_icl_train(r->out, &o->c, res, nnt_icl_preset_names[o->preset], r->threads);
  char path[4096];
  snprintf(path, sizeof path, "%s/model.ckpt", r->out ? r->out : ".");
  if (!st && o->export_path && !nnt_mpi_rank()) st = nnt_icl_gpt_export_ckpt(path, nnt_version(), o->command, o->export_path);
  return st;
}
static void train_free(void *res) { nnt_icl_train_result_free(res); }

static const cli_cmd train_cmd = {
    .name = "icl train",
    .example = "nnt icl train --preset mini --target-depth 3 --out runs/mini-sm-3",
    .about = "Pretrain the GPT-2-style in-context learner (Garg et al.) on random N-layer ReLU targets: fresh prompts "
             "every step, Adam, checkpoints in DIR/model.ckpt every interval (--resume continues bit-exactly). "
             "Writes train.csv (step, loss), loss.png and run.json; with no --out it trains in memory and writes nothing.",
    .opts = train_opts, .cfg_size = sizeof(train_cli), .res_size = sizeof(nnt_icl_train_result),
    .cfg_default = train_default, .validate = train_validate, .run = train_run, .report = train_report,
    .result_free = train_free, .common = CLI_OUT | CLI_SWEEP};

/* ---------------------------------------------------------------- the family */

#define DRIVE(fn, cmd) \
  static int fn(int argc, char **argv) { return cli_drive(&cmd, argc, argv); }
DRIVE(icl_construct, construct_cmd)
DRIVE(icl_construct_sweep, sweep_cmd)
DRIVE(icl_train, train_cmd)
DRIVE(icl_baselines, cli_icl_baselines_cmd)
DRIVE(icl_eval, cli_icl_eval_cmd)
DRIVE(icl_sweep_depth, cli_icl_depth_cmd)
DRIVE(icl_figures, cli_icl_figures_cmd)

static const cli_sub subs[] = {
    {"construct", icl_construct, "the explicit Theorem-1 transformer running projected GD, checked against direct GD"},
    {"construct-sweep", icl_construct_sweep, "the construction's error against the number M of ReLU pieces"},
    {"train", icl_train, "pretrain the GPT-2-style in-context learner (presets micro, mini, small, paper)"},
    {"baselines", icl_baselines, "R² vs k of the prompt mean, ridge, 3-NN and direct training: how easy the task is"},
    {"eval", icl_eval, "a trained model's R² vs k per test mixture, beyond its training length, baselines beside"},
    {"sweep-depth", icl_sweep_depth, "R² at 15/30/45 examples vs transformer depth (Figure 3)"},
    {"figures", icl_figures, "Figures 1-3 as the paper lays them out, from the runs' CSVs (or --quick micro runs)"},
};

int cmd_icl(int argc, char **argv) { return cli_dispatch("icl", subs, (int)(sizeof subs / sizeof *subs), argc, argv); }
