/* nnt circuit margin, d5 and learn: descriptors (cli.h) on the circuits area's margin and learnability
 * runs; src/report/report_circuits.c writes their results. */
#include <string.h>

#include "commands.h"
#include "nnt_io.h"
#include "report_circuits.h"
#include "verilog_circuits.h"

/* ---- margin: one circuit's per-input margins, or (no FILE) the area's sweep over circuit depths */
typedef struct {
  nnt_circuit_margin_cfg c;
  const char *top;
  nnt_circuit_src src;
} margin_cli;
typedef struct {
  int sweep;
  nnt_circuit_margin_result one;
  nnt_circuit_margin_sweep_result all;
} margin_res;
static void margin_default(void *cfg, nnt_preset p) {
  memset(cfg, 0, sizeof(margin_cli));
  nnt_circuit_margin_cfg_default(cfg, p);
}
static int margin_sweeps(const void *cfg) { return !((const margin_cli *)cfg)->c.file; } /* no FILE: the depth sweep */
static void margin_cfg_free(void *cfg) { nnt_circuit_src_close(&((margin_cli *)cfg)->src); }
static const char *const families[] = {"chain", "random", NULL};
static const cli_opt margin_opts[] = {
    CLI_INT("inputs", nnt_circuit_margin_cfg, inputs, 1, 1000000, "input vectors per circuit (all of them when 2^m <= N)"),
    CLI_INT("output", nnt_circuit_margin_cfg, output, 0, 1 << 30, "FILE: output bit whose margin is measured"),
    CLI_STR("net", nnt_circuit_margin_cfg, net, "FILE: an nnt-mlp or nnt-mlp-sparse file measured besides the compiled nets, held sparse as they are"),
    CLI_INT("attack-blocks", nnt_circuit_margin_cfg, attack_blocks, -1, 1 << 20,
            "FILE: the attack perturbs the last N blocks and their corrections (0: every layer; -1: every layer up to 10^6 parameters, else 2); "
            "--net: a block is a layer unless the net has a compiled net's layer count"),
    CLI_FLAG("logit", nnt_circuit_margin_cfg, logit, "--net outputs a score thresholded at 0 (default: a bit thresholded at 1/2)"),
    CLI_INTS("depths", nnt_circuit_margin_cfg, depths, ndepths, 1, 256, "sweep: circuit depths"),
    CLI_CHOICE("family", nnt_circuit_margin_cfg, family, families, "sweep: a chain of ID gates (Claim 3.5) or random circuits"),
    CLI_INT("width", nnt_circuit_margin_cfg, width, 1, 256, "sweep: inputs and gates per layer of the random circuits"),
    CLI_INT("circuits", nnt_circuit_margin_cfg, circuits, 1, 1000, "sweep: random circuits per depth"),
    CLI_CIRCUIT_TOP(margin_cli),
    {0}};
static int margin_validate(void *cfg, const cli_run *r) {
  margin_cli *w = cfg;
  nnt_circuit_margin_cfg *c = &w->c;
  c->seed = r->seed, c->threads = r->threads;
  if (!r->npos) {
    if (c->net || c->logit) return nnt_fail(NNT_EINVAL, "--net: needs a circuit FILE to label the inputs");
    if (w->top) return nnt_fail(NNT_EINVAL, "--top: needs a Verilog FILE");
    if (cli_given(r->cmd, r->args, "attack-blocks")) return nnt_fail(NNT_EINVAL, "--attack-blocks: needs a circuit FILE");
    c->dir = r->out, c->resume = r->resume, c->progress = 1;
    return NNT_OK;
  }
  if (cli_given(r->cmd, r->args, "depths") || cli_given(r->cmd, r->args, "circuits") ||
      cli_given(r->cmd, r->args, "family") || cli_given(r->cmd, r->args, "width"))
    return nnt_fail(NNT_EINVAL, "--depths/--circuits/--family/--width: only for the sweep without FILE");
  if (r->resume || r->force) return nnt_fail(NNT_EINVAL, "--resume/--force: only for the sweep without FILE");
  int st = nnt_circuit_src_read(r->pos[0], w->top, &w->src, &c->file);
  return st ? st : nnt_circuit_margin_check(c);
}
static int margin_run(void *cfg, const cli_run *r, void *res) {
  margin_cli *w = cfg;
  margin_res *o = res;
  if ((o->sweep = !r->npos)) return nnt_circuit_margin_sweep_run(&w->c, &o->all);
  int st = nnt_circuit_margin_run(&w->c, &o->one);
  w->c.file = r->pos[0]; /* the reports name the user's file */
  return st;
}
static int margin_report(const void *cfg, const void *res, const cli_run *r) {
  const margin_cli *w = cfg;
  const margin_res *o = res;
  if (!o->sweep) {
    nnt_circuit_src_print(&w->src);
    return nnt_report_circuit_margin(r->out, &w->c, &o->one);
  }
  int st = nnt_report_circuit_margin_sweep(r->out, &w->c, &o->all);
  if (!st) nnt_report_circuit_margin_sweep_table(&w->c, &o->all);
  return st;
}
static void margin_free(void *res) {
  margin_res *o = res;
  if (o->sweep) nnt_circuit_margin_sweep_result_free(&o->all);
  else nnt_circuit_margin_result_free(&o->one);
}
const cli_cmd cli_circuit_margin_cmd = {
    .name = "circuit margin",
    .example = "nnt circuit margin examples/circuits/parity8.bench --inputs 256 --out runs/margin\n"
               "nnt circuit margin --family random --depths 1,2,4,8 --quick --out runs/margin-depth",
    .args = "[FILE]",
    .about = "Upper bounds (checked perturbations) and certified lower bounds on the parameter-space all-layer\n"
             "margin (eq. 2.1) of FILE's compiled net without and with correction layers (and of --net), per\n"
             "input; without FILE, a sweep over circuits of the given depths. CSV and plots in DIR. The nets (--net\n"
             "too) are held sparse; above 10^6 parameters the attack is restricted (--attack-blocks) and the line\n"
             "says so.\n" CLI_CIRCUIT_FORMATS,
    .opts = margin_opts, .cfg_size = sizeof(margin_cli), .res_size = sizeof(margin_res),
    .cfg_default = margin_default, .validate = margin_validate, .run = margin_run, .report = margin_report,
    .result_free = margin_free, .cfg_free = margin_cfg_free, .sweeps = margin_sweeps, .npos_max = 1,
    .common = CLI_OUT | CLI_SWEEP,
};

/* ---- d5: Theorem D.6's (D.5) beside the certified and attacked margins */
typedef struct {
  nnt_circuit_d5_cfg c;
  const char *top;
  nnt_circuit_src src;
} d5_cli;
static void d5_default(void *cfg, nnt_preset p) {
  memset(cfg, 0, sizeof(d5_cli));
  nnt_circuit_d5_cfg_default(cfg, p);
}
static void d5_cfg_free(void *cfg) { nnt_circuit_src_close(&((d5_cli *)cfg)->src); }
static const cli_opt d5_opts[] = {
    CLI_INT("inputs", nnt_circuit_d5_cfg, inputs, 1, 1 << 20, "input vectors of the constants and the certificate (all of them when 2^m <= N)"),
    CLI_INT("attack-inputs", nnt_circuit_d5_cfg, attack_inputs, 1, 1 << 20, "of those, how many the attack runs on (drawn at random when fewer)"),
    CLI_INT("attack-blocks", nnt_circuit_d5_cfg, attack_blocks, -1, 1 << 20,
            "the attack perturbs the last N blocks f_i and the corrections between (0: every layer; -1: every layer up to 10^6 parameters, else 2)"),
    CLI_INT("output", nnt_circuit_d5_cfg, output, 0, 1 << 30, "output bit read out as F = 2 z_j - 1"),
    CLI_DOUBLE("scale", nnt_circuit_d5_cfg, scale, 1e-300, 1e300, "multiply gamma_D5 by X (> 1: a fault injection the check must catch)"),
    CLI_DOUBLE("range-scale", nnt_circuit_d5_cfg, range_scale, 1e-300, 1e300,
               "multiply the weights-alone ranges by X (< 1 narrows them: a fault injection the range check must catch)"),
    CLI_CIRCUIT_TOP(d5_cli),
    {0}};
static int d5_validate(void *cfg, const cli_run *r) {
  d5_cli *w = cfg;
  w->c.seed = r->seed;
  int st = nnt_circuit_src_read(r->pos[0], w->top, &w->src, &w->c.file);
  return st ? st : nnt_circuit_d5_check(&w->c);
}
static int d5_run(void *cfg, const cli_run *r, void *res) { return (void)r, nnt_circuit_d5_run(&((d5_cli *)cfg)->c, res); }
static void d5_free(void *res) { nnt_circuit_d5_result_free(res); }
static struct cJSON *d5_json(const void *cfg, const void *res) { return (void)cfg, nnt_report_circuit_d5_json(res); }
static int d5_report(const void *cfg, const void *res, const cli_run *r) {
  const d5_cli *w = cfg;
  nnt_circuit_src_print(&w->src);
  return nnt_report_circuit_d5(r->out, r->pos[0], &w->c, res);
}
const cli_cmd cli_circuit_d5_cmd = {
    .name = "circuit d5",
    .example = "nnt circuit d5 examples/circuits/fulladder.bench --inputs 8",
    .args = "FILE",
    .about = "Theorem D.6's all-layer margin lower bound (D.5) for FILE's net compiled with correction layers and\n"
             "the readout 2 z_j - 1: Condition D.3's constants (kappa_theta, kappa_xi, mu, mu0, the radii) and\n"
             "lambda computed from the compiled weights and layer values, the nine terms, and gamma_D5 beside\n"
             "the certified lower bound and the attack's upper bound of nnt circuit margin (same inputs); and (D.5)\n"
             "from the weights alone, valid at every input (each layer value bounded over all of {0,1}^m).\n"
             "Exit 1 when gamma_D5 exceeds the attack's flip (a contradiction), or a layer value at the inputs used\n"
             "lies outside its weights-alone range. With --out, DIR/d5.csv.\n" CLI_CIRCUIT_FORMATS,
    .opts = d5_opts, .cfg_size = sizeof(d5_cli), .res_size = sizeof(nnt_circuit_d5_result),
    .cfg_default = d5_default, .validate = d5_validate, .run = d5_run, .report = d5_report,
    .result_free = d5_free, .result_json = d5_json, .cfg_free = d5_cfg_free, .npos_min = 1, .npos_max = 1, .common = CLI_OUT,
};

/* ---- learn: trained nets vs samples and width; checkpoints in DIR/ckpt when --out is given */
typedef struct {
  nnt_circuit_learn_cfg c;
  const char *top;
  nnt_circuit_src src;
  char ckpt[1024];
} learn_cli;
static void learn_default(void *cfg, nnt_preset p) {
  memset(cfg, 0, sizeof(learn_cli));
  nnt_circuit_learn_cfg_default(cfg, p);
}
static void learn_cfg_free(void *cfg) { nnt_circuit_src_close(&((learn_cli *)cfg)->src); }
static const char *const optims[] = {"adam", "sgd", NULL};
static const cli_opt learn_opts[] = {
    CLI_INTS("widths", nnt_circuit_learn_cfg, widths, nwidths, 1, 256, "width multipliers of r"),
    CLI_INTS("samples", nnt_circuit_learn_cfg, ns, nns, 1, 10000000, "training-set sizes"),
    CLI_INT("steps", nnt_circuit_learn_cfg, steps, 1, 100000000, "optimizer steps per run, batch 32"),
    CLI_CHOICE("optim", nnt_circuit_learn_cfg, sgd, optims, "Adam or SGD with momentum 0.9"),
    CLI_DOUBLE("lr", nnt_circuit_learn_cfg, lr, 1e-9, 100, "learning rate (default 1e-3 for adam, 0.05 for sgd)"),
    CLI_INT("hidden", nnt_circuit_learn_cfg, hidden, 1, 64, "hidden ReLU layers"),
    CLI_INT("reps", nnt_circuit_learn_cfg, reps, 1, 1000, "repetitions per point"),
    CLI_INT("test", nnt_circuit_learn_cfg, ntest, 1, 10000000, "test inputs"),
    CLI_DOUBLE("epsilon", nnt_circuit_learn_cfg, eps, 0, 1, "target test error of the samples-vs-width plot"),
    CLI_INT("bit", nnt_circuit_learn_cfg, bit, 0, 1 << 30, "output bit to learn"),
    CLI_INT("ckpt-every", nnt_circuit_learn_cfg, ckpt_every, 0, 100000000, "checkpoint every K steps (0: only finished runs)"),
    CLI_CIRCUIT_TOP(learn_cli),
    {0}};
static int learn_validate(void *cfg, const cli_run *r) {
  learn_cli *w = cfg;
  w->c.seed = r->seed, w->c.resume = r->resume;
  if (r->out) w->c.ckpt_dir = nnt_path(w->ckpt, sizeof w->ckpt, r->out, "ckpt");
  if (!r->npos) return w->top ? nnt_fail(NNT_EINVAL, "--top: needs a Verilog FILE") : nnt_circuit_learn_check(&w->c);
  w->c.name = r->pos[0];
  int st = nnt_circuit_src_read(r->pos[0], w->top, &w->src, &w->c.file);
  return st ? st : nnt_circuit_learn_check(&w->c);
}
static int learn_run(void *cfg, const cli_run *r, void *res) { return (void)r, nnt_circuit_learn_run(cfg, res); }
static int learn_report(const void *cfg, const void *res, const cli_run *r) {
  nnt_circuit_src_print(&((const learn_cli *)cfg)->src);
  return nnt_report_circuit_learn(r->out, cfg, res);
}
static void learn_free(void *res) { nnt_circuit_learn_result_free(res); }
const cli_cmd cli_circuit_learn_cmd = {
    .name = "circuit learn",
    .example = "nnt circuit learn examples/circuits/majority5.blif --quick --out runs/learn",
    .args = "[FILE]",
    .about = "Trains ReLU nets of width w = r x LIST (r: the widest gate layer) on n samples labelled by the\n"
             "circuit (default: a random layered circuit of depth 4, 16 inputs) and plots test error vs n per\n"
             "width (beyond the paper; Theorem 3.1 predicts a sample complexity only logarithmic in w).\n"
             "Trained nets are saved as nnt-mlp files. With --out, every run checkpoints into DIR/ckpt:\n"
             "--resume continues a killed command to the same results.\n" CLI_CIRCUIT_FORMATS,
    .opts = learn_opts, .cfg_size = sizeof(learn_cli), .res_size = sizeof(nnt_circuit_learn_result),
    .cfg_default = learn_default, .validate = learn_validate, .run = learn_run, .report = learn_report,
    .result_free = learn_free, .cfg_free = learn_cfg_free, .npos_max = 1, .common = CLI_OUT | CLI_SWEEP,
};

