/* nnt icl train — pretrain the GPT-2 in-context learner (seed 003, spec §7.5) at a preset scale,
 * then its report: DIR/train.csv (the loss log), DIR/loss.png/.svg, DIR/run.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "icl_task_opts.h"
#include "nnt_blas.h"
#include "nnt_icl_gpt.h"
#include "nnt_mlp.h" /* nnt_export_format */
#include "nnt_mpi.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_progress.h"
#include "nnt_sweep.h"

typedef struct {
  int preset, attn, depth;
  long steps; /* 0: not given, the preset's (likewise below; the options refuse 0) */
  double lr;
  int batch, ckpt_every, curriculum;
  long curriculum_steps;
  nnt_icl_task task; /* the task options given replace the preset's */
  const char *export_path;
} train_cli;

static void train_defaults(void *cfg, int quick) {
  train_cli *o = cfg;
  *o = (train_cli){.preset = quick ? NNT_ICL_PRESET_MICRO : NNT_ICL_PRESET_MINI, .depth = 3};
  nnt_icl_task_default(&o->task, 8, 51, 3);
}

#define C train_cli
static const cli_opt train_opts[] = {
    CLI_CHOICE("preset", C, preset, nnt_icl_preset_names,
               "scale: micro (seconds), mini (the bench model, <= 1 h on 2 cores), small (Garg's small model on the "
               "paper's d = 20 task, hours), paper (GPU-scale: 12 layers, 256 wide, 500k steps)"),
    CLI_CHOICE("attn", C, attn, nnt_icl_attn_names, "attention scores"),
    CLI_INT("target-depth", C, depth, 2, 12, "layers N of the random ReLU target networks (3, 4, 6 in the paper)"),
    CLI_LONG("steps", C, steps, 1, 100000000, "optimizer steps (default: the preset's)"),
    CLI_DOUBLE("lr", C, lr, 1e-300, 1e9, "Adam learning rate (default: the preset's)"),
    CLI_INT("batch", C, batch, 1, 100000, "prompts per step (default: the preset's)"),
    CLI_INT("ckpt-every", C, ckpt_every, 1, 100000000, "steps between checkpoints (default: the preset's)"),
    CLI_CHOICE("curriculum", C, curriculum, nnt_icl_curriculum_names,
               "Garg et al.'s dimension and prompt-length curriculum, scaled to the step count (default: the "
               "preset's: garg, but none for micro)"),
    CLI_LONG("curriculum-steps", C, curriculum_steps, 1, 1000000000L,
              "the curriculum's length in steps (default: 6% of the preset's steps, Garg's 30k of 500k)"),
    CLI_INT("d", C, task.d, 2, 4096, "input dimension (default: the preset's)"),
    CLI_INT("points", C, task.n, 1, 100000, "points per training prompt, the query included (default: the preset's)"),
    CLI_DOUBLE("mix2", C, task.mix2, 0, 1, "training mixture: weight of N(+mu2·1, I) (0 in the paper)"),
    ICL_TASK_OPTS(C),
    CLI_STR("export", C, export_path, "write the trained model to FILE.safetensors (python/nnt loads it into PyTorch) or FILE.onnx"),
    {0}};
#undef C

static const cli_cmd train_cmd = {
    .name = "icl train",
    .example = "nnt icl train --preset mini --target-depth 3 --out runs/mini-sm-3",
    .about = "Pretrain the GPT-2-style in-context learner (Garg et al.) on random N-layer ReLU targets: fresh prompts "
             "every step, Adam, checkpoints in DIR/model.ckpt every interval (--resume continues bit-exactly). "
             "Writes train.csv (step, loss), loss.png and run.json.",
    .opts = train_opts,
    .cfg_size = sizeof(train_cli),
    .defaults = train_defaults,
    .common = CLI_OUT | CLI_SWEEP};

static cJSON *cfg_json(const nnt_icl_train_cfg *c, const char *preset) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "preset", preset);
  cJSON_AddStringToObject(j, "attn", nnt_icl_attn_names[c->arch.attn]);
  cJSON_AddNumberToObject(j, "n_embd", c->arch.n_embd), cJSON_AddNumberToObject(j, "n_layer", c->arch.n_layer);
  cJSON_AddNumberToObject(j, "n_head", c->arch.n_head), cJSON_AddNumberToObject(j, "n_pos", c->arch.n_pos);
  cJSON_AddNumberToObject(j, "d", c->task.d), cJSON_AddNumberToObject(j, "n", c->task.n);
  cJSON_AddNumberToObject(j, "mlp", c->arch.mlp ? c->arch.mlp : 4 * c->arch.n_embd);
  cJSON_AddNumberToObject(j, "target_depth", c->task.depth), cJSON_AddNumberToObject(j, "target_width", c->task.width);
  cJSON_AddStringToObject(j, "target_act", nnt_icl_act_names[c->task.act]);
  cJSON_AddNumberToObject(j, "w_mean", c->task.w_mean), cJSON_AddNumberToObject(j, "w_std", c->task.w_std);
  cJSON_AddNumberToObject(j, "y_scale", c->task.y_scale), cJSON_AddNumberToObject(j, "mix2", c->task.mix2);
  cJSON_AddNumberToObject(j, "mu", c->task.mu), cJSON_AddNumberToObject(j, "mu2", c->task.mu2);
  cJSON_AddStringToObject(j, "mixture", c->task.per_prompt ? "per prompt" : "per point");
  cJSON_AddNumberToObject(j, "noise", c->task.noise);
  long long iv;
  int S;
  nnt_icl_curriculum_stages(c, &iv, &S);
  cJSON *cu = cJSON_AddObjectToObject(j, "curriculum");
  cJSON_AddStringToObject(cu, "kind", nnt_icl_curriculum_names[c->curriculum]);
  if (S) {
    int d0, p0;
    nnt_icl_curriculum_at(c, 0, &d0, &p0);
    cJSON_AddNumberToObject(cu, "interval", (double)iv), cJSON_AddNumberToObject(cu, "stages", S);
    cJSON_AddNumberToObject(cu, "dims_start", d0), cJSON_AddNumberToObject(cu, "points_start", p0);
    cJSON_AddNumberToObject(cu, "full_at_step", (double)(iv * S));
  }
  cJSON_AddNumberToObject(j, "batch", c->batch), cJSON_AddNumberToObject(j, "steps", (double)c->steps);
  cJSON_AddNumberToObject(j, "lr", c->lr), cJSON_AddNumberToObject(j, "ckpt_every", c->ckpt_every);
  return j;
}

/* train.csv, loss.png/.svg, run.json and the console summary. */
static int train_report(const nnt_icl_train_cfg *c, const nnt_icl_train_result *r, const char *dir, const char *preset) {
  /* with a curriculum, each row also says the task at its last step (dims, points) */
  long long iv;
  int S;
  nnt_icl_curriculum_stages(c, &iv, &S);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "train.csv", S ? "step,loss,dims,points" : "step,loss");
  if (st) return st;
  for (int i = 0; i < r->nlog; i++) {
    int dims, pts;
    nnt_icl_curriculum_at(c, r->log_step[i] - 1, &dims, &pts);
    if (S) nnt_csv_row(&csv, "%lld,%.9g,%d,%d", r->log_step[i], r->log_loss[i], dims, pts);
    else nnt_csv_row(&csv, "%lld,%.9g", r->log_step[i], r->log_loss[i]);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  double *x = nnt_xmalloc(sizeof(double) * (r->nlog + 1));
  for (int i = 0; i < r->nlog; i++) x[i] = (double)r->log_step[i];
  char title[128];
  snprintf(title, sizeof title, "icl train: %s, %s attention, %d-layer targets", preset, nnt_icl_attn_names[c->arch.attn],
           c->task.depth);
  nnt_plot *p = nnt_plot_new(title, "step", "training loss (MSE)");
  nnt_plot_log(p, 0, 1);
  nnt_plot_add(p, r->nlog, x, r->log_loss, NULL, NNT_PLOT_LINE);
  st = nnt_plot_save(p, dir, "loss");
  nnt_plot_free(p), free(x);
  if (st) return st;
  long long done = r->steps - r->first_step;
  printf("icl train: %s preset, %s attention, target depth %d: %zu parameters, %d layers x %d wide, %d heads, "
         "batch %d x %d points\n",
         preset, nnt_icl_attn_names[c->arch.attn], c->task.depth, r->nparams, c->arch.n_layer, c->arch.n_embd,
         c->arch.n_head, c->batch, c->task.n);
  if (S) {
    int d0, p0;
    nnt_icl_curriculum_at(c, 0, &d0, &p0);
    printf("curriculum garg: %d -> %d dimensions and %d -> %d points in %d stages of %lld steps (full task from step %lld)\n",
           d0, c->task.d, p0, c->task.n, S, iv, iv * S);
  }
  if (r->first_step) printf("resumed at step %lld\n", r->first_step);
  printf("%-10s %12s\n", "step", "loss");
  int every = r->nlog > 10 ? r->nlog / 10 : 1;
  for (int i = 0; i < r->nlog; i++)
    if (i % every == 0 || i == r->nlog - 1) printf("%-10lld %12.5f\n", r->log_step[i], r->log_loss[i]);
  if (done > 0)
    printf("%lld steps in %.1f s (%.3f s/step, %d thread(s))\n", done, r->seconds, r->seconds / done, nnt_threads_get());
  printf("final_loss=%.6g\n", r->nlog ? r->log_loss[r->nlog - 1] : NAN);
  return nnt_runinfo_write(dir, "icl train", cfg_json(c, preset), c->seed, nnt_threads_get(), r->seconds);
}

int cli_icl_train(int argc, char **argv) {
  train_cli o;
  cli_args a;
  int st = cli_parse(&train_cmd, argc, argv, &o, &a);
  if (st || a.co.help) return st;
  if (!a.co.out) return nnt_fail(NNT_EINVAL, "--out DIR is required (the checkpoint and the loss log go there)");
  nnt_icl_train_cfg c;
  nnt_icl_train_cfg_default(&c, o.preset);
  c.arch.attn = o.attn, c.task.depth = o.depth;
  c.seed = a.co.seed;
  if (o.steps) c.steps = o.steps;
  if (o.lr > 0) c.lr = o.lr;
  if (o.batch) c.batch = o.batch;
  if (o.ckpt_every) c.ckpt_every = o.ckpt_every;
  if (cli_given(&train_cmd, &a, "curriculum")) c.curriculum = o.curriculum;
  if (cli_given(&train_cmd, &a, "curriculum-steps")) c.curriculum_steps = o.curriculum_steps;
  if (cli_given(&train_cmd, &a, "d")) c.task.d = c.arch.d = o.task.d;
  if (cli_given(&train_cmd, &a, "points")) c.task.n = o.task.n, c.arch.n_pos = 4 * o.task.n;
  if (cli_given(&train_cmd, &a, "mix2")) c.task.mix2 = o.task.mix2;
  icl_task_given(&train_cmd, &a, &o.task, &c.task);
  if (o.export_path && !nnt_export_format(o.export_path))
    return nnt_fail(NNT_EINVAL, "--export %s: the model exports to .safetensors or .onnx", o.export_path);
  if ((st = nnt_icl_train_check(&c)) || (st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force)) ||
      (st = cli_begin(&a.co)))
    return st;
  char path[4096];
  snprintf(path, sizeof path, "%s/model.ckpt", a.co.out);
  if (a.co.force && !nnt_mpi_rank()) unlink(path); /* start afresh: a later --resume must not pick up the old run */
  nnt_icl_train_result r;
  st = nnt_icl_train_run(&c, a.co.out, a.co.resume, &r);
  if (st == NNT_ENUMERIC) { /* exit 1; the last checkpoint stays */
    char why[256];
    snprintf(why, sizeof why, "%s", nnt_errmsg());
    return nnt_fail(NNT_ENUMERIC, "%s (the last checkpoint in %s is kept; try a smaller --lr)", why, a.co.out);
  }
  if (!st) st = train_report(&c, &r, a.co.out, nnt_icl_preset_names[o.preset]);
  char command[4096];
  if (!st && o.export_path && !nnt_mpi_rank())
    st = nnt_icl_gpt_export_ckpt(path, nnt_version(), cli_command_line(command, sizeof command, "nnt icl", argc, argv),
                                 o.export_path);
  nnt_icl_train_result_free(&r);
  return st;
}
