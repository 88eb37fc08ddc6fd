#include <math.h>
/* nnt circuit — boolean circuits compiled into ReLU nets (seed 000, Section 3 and Appendices B, D).
 * Options -> the circuits area's configs; its runs compute; report_circuits.c writes the results. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_io.h"
#include "nnt_progress.h"
#include "nnt_sweep.h"
#include "report_circuits.h"
#include "verilog_circuits.h"

#define FORMATS                                                                                              \
  "FILE is an ISCAS .bench, BLIF .blif or AIGER ASCII .aag circuit, or a Verilog design (.v, .sv) that\n" \
  "yosys synthesises (--top NAME picks its top module; docs/circuits_tm.md)."

/* The area's cfgs (first member, so their options' offsets hold) plus the CLI's --top, which only
 * the yosys front end reads. */
typedef struct {
  nnt_circuit_verify_cfg c;
  const char *top;
  const char *export_path; /* circuit compile --export */
} verify_cli;
typedef struct {
  nnt_circuit_margin_cfg c;
  const char *top;
} margin_cli;
typedef struct {
  nnt_circuit_learn_cfg c;
  const char *top;
} learn_cli;
#define TOP_OPT(T) CLI_STR("top", T, top, "Verilog FILE: its top module (default: the one no module instantiates)")

/* Threads for the run; the output folder is created only after the run has validated its input. */
static int begin_threads(const cli_common *co) {
  cli_common c = *co;
  c.out = NULL;
  return cli_begin(&c);
}

static void verify_defaults(void *cfg, int quick) { nnt_circuit_verify_cfg_default(cfg, quick); }

static const char *const net_formats[] = {"auto", "dense", "sparse", NULL};
static const cli_opt compile_opts[] = {
    CLI_FLAG("correct", nnt_circuit_verify_cfg, correct, "insert correction layers (Definition D.1) between circuit layers"),
    CLI_CHOICE("format", nnt_circuit_verify_cfg, format, net_formats,
               "file format: nnt-mlp (dense), nnt-mlp-sparse, or auto (dense up to 10^6 parameters)"),
    CLI_STR("export", verify_cli, export_path,
            "also write the net to FILE.safetensors (dense or CSR as --format; python/nnt loads it into PyTorch, docs/export.md)"),
    TOP_OPT(verify_cli),
    {0}};
static const cli_cmd compile_cmd = {
    .name = "circuit compile",
    .example = "nnt circuit compile examples/circuits/fulladder.bench --correct --out fulladder.json\n"
               "nnt circuit compile examples/circuits/mult8.v --out mult8.json",
    .args = "FILE",
    .about = "Writes the ReLU net of Lemma B.1 (two ReLU layers per circuit layer) as an nnt-mlp JSON file\n"
             "(--out NET, required); --correct inserts the rounding layers of Lemma 3.3 between blocks.\n"
             "Big nets are written sparse (nnt-mlp-sparse: compressed rows, docs/core.md) unless --format dense.\n" FORMATS,
    .opts = compile_opts,
    .cfg_size = sizeof(verify_cli),
    .defaults = verify_defaults,
    .npos_min = 1,
    .npos_max = 1,
    .common = CLI_OUT,
};

/* The compiled net as safetensors, with the circuit's input and output names in declaration order. */
static int export_circuit_net(const nnt_circuit *c, const nnt_smlp *net, int sparse, const char *file,
                              const char *command, const char *path) {
  cJSON *in = cJSON_CreateArray(), *outs = cJSON_CreateArray();
  for (int i = 0; i < c->ninputs; i++) cJSON_AddItemToArray(in, cJSON_CreateString(c->gates[c->inputs[i]].name ? c->gates[c->inputs[i]].name : ""));
  for (int j = 0; j < c->noutputs; j++) cJSON_AddItemToArray(outs, cJSON_CreateString(c->gates[c->outputs[j]].name ? c->gates[c->outputs[j]].name : ""));
  char *si = cJSON_PrintUnformatted(in), *so = cJSON_PrintUnformatted(outs);
  const char *meta[] = {"source", "circuit", "circuit", file, "inputs", si, "outputs", so,
                        "nnt_version", nnt_version(), "command", command, NULL};
  int st = nnt_smlp_export(net, sparse, NULL, meta, path);
  cJSON_free(si), cJSON_free(so), cJSON_Delete(in), cJSON_Delete(outs);
  return st;
}

static int cmd_compile(int argc, char **argv) {
  verify_cli w;
  cli_args a;
  int st = cli_parse(&compile_cmd, argc, argv, &w, &a);
  if (st || a.co.help) return st;
  nnt_circuit_verify_cfg cfg = w.c;
  if (!a.co.out && !w.export_path)
    return nnt_fail(NNT_EINVAL, "--out NET or --export FILE is required (the file the net is written to)");
  if (w.export_path && nnt_export_format(w.export_path) != 1)
    return nnt_smlp_export(&(nnt_smlp){0}, 0, NULL, NULL, w.export_path); /* its one-line refusal */
  char command[1024];
  cli_command_line(command, sizeof command, "nnt circuit", argc, argv);
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_smlp net;
  cli_circuit_src src;
  if ((st = cli_circuit_open(a.pos[0], w.top, &src))) return st;
  st = nnt_circuit_read(src.path, &c);
  cli_circuit_close(&src);
  if (st) return st;
  nnt_circuit_layer(&c, &L);
  nnt_circuit_compile_sparse(&L, cfg.correct, &net);
  nnt_mlp_stats s = nnt_smlp_stats_of(&net);
  int dense = cfg.format == 1 || (cfg.format == 0 && s.params <= 1000000);
  const char *out = a.co.out;
  a.co.out = NULL; /* --out names a file here, not a folder */
  if (!(st = cli_begin(&a.co)) && out) {
    if (dense) {
      nnt_mlp d;
      nnt_smlp_to_dense(&d, &net);
      st = nnt_mlp_save(&d, out);
      nnt_mlp_free(&d);
    } else {
      st = nnt_smlp_save(&net, out);
    }
  }
  if (!st) {
    cli_circuit_print(a.pos[0], &c, &L);
    cli_circuit_print_src(&src);
    cli_circuit_print_net(&net, cfg.correct);
    if (out) printf("wrote %s (%s)\n", out, dense ? "nnt-mlp" : "nnt-mlp-sparse");
  }
  if (!st && w.export_path) {
    st = export_circuit_net(&c, &net, !dense, a.pos[0], command, w.export_path);
    if (!st) printf("wrote %s (safetensors, %s)\n", w.export_path, dense ? "dense" : "CSR");
  }
  nnt_smlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}

static const cli_opt verify_opts[] = {
    CLI_FLAG("correct", nnt_circuit_verify_cfg, correct, "insert correction layers (Definition D.1) between circuit layers"),
    CLI_STR("net", nnt_circuit_verify_cfg, net, "an nnt-mlp or nnt-mlp-sparse file to verify instead of the compiled net"),
    CLI_LONG("samples", nnt_circuit_verify_cfg, samples, 1, 1e9, "random inputs beyond the exhaustive limit"),
    CLI_INT("exhaustive-max", nnt_circuit_verify_cfg, exhaustive_max, 0, 30, "check all 2^m inputs when m <= K"),
    TOP_OPT(verify_cli),
    {0}};
static const cli_cmd verify_cmd = {
    .name = "circuit verify",
    .example = "nnt circuit verify examples/circuits/adder10.bench --correct\n"
               "nnt circuit verify examples/circuits/alu8.v\n"
               "nnt circuit compile examples/circuits/fulladder.bench --out fulladder.json\n"
               "nnt circuit verify examples/circuits/fulladder.bench --net fulladder.json",
    .args = "FILE",
    .about = "Compiles FILE (or loads --net) and compares the net's forward pass with direct evaluation on\n"
             "every input (up to 2^K) or on N random inputs; prints sizes and inputs_checked=... mismatches=...;\n"
             "exit 1 on a mismatch.\n" FORMATS,
    .opts = verify_opts,
    .cfg_size = sizeof(verify_cli),
    .defaults = verify_defaults,
    .npos_min = 1,
    .npos_max = 1,
};

static int cmd_verify(int argc, char **argv) {
  verify_cli w;
  cli_args a;
  int st = cli_parse(&verify_cmd, argc, argv, &w, &a);
  if (st || a.co.help) return st;
  nnt_circuit_verify_cfg cfg = w.c;
  cli_circuit_src src;
  nnt_circuit_verify_result r;
  if ((st = cli_begin(&a.co)) || (st = cli_circuit_open(a.pos[0], w.top, &src))) return st;
  cfg.file = src.path, cfg.seed = a.co.seed;
  st = nnt_circuit_verify_run(&cfg, &r);
  cli_circuit_close(&src);
  if (st) return st;
  cli_circuit_print(a.pos[0], &r.c, &r.L);
  cli_circuit_print_src(&src);
  if (cfg.net) printf("net: %s\n", cfg.net);
  cli_circuit_print_net(&r.net, cfg.correct);
  const nnt_circuit_verify_counts *v = &r.counts;
  printf("inputs_checked=%ld mismatches=%ld mode=%s max_abs_err=%g time_s=%.2f\n", v->checked, v->mismatches,
         v->exhaustive ? "exhaustive" : "random", v->max_abs_err, r.seconds);
  if (v->mismatches) {
    printf("first mismatching input (bit i = input %d..0):", r.c.ninputs - 1);
    if (v->exhaustive)
      for (int i = r.c.ninputs - 1; i >= 0; i--) printf("%ld", (v->first_bad >> i) & 1);
    else printf(" random vector #%ld", v->first_bad);
    printf("\n");
    st = nnt_fail(NNT_ECHECK, "verification failed: %ld of %ld inputs mismatch", v->mismatches, v->checked);
  }
  nnt_circuit_verify_result_free(&r);
  return st;
}

static void margin_defaults(void *cfg, int quick) { nnt_circuit_margin_cfg_default(cfg, quick); }
static const char *const families[] = {"chain", "random", NULL};
static const cli_opt margin_opts[] = {
    CLI_INT("inputs", nnt_circuit_margin_cfg, inputs, 1, 1000000, "input vectors per circuit (all of them when 2^m <= N)"),
    CLI_INT("output", nnt_circuit_margin_cfg, output, 0, 1 << 30, "FILE: output bit whose margin is measured"),
    CLI_STR("net", nnt_circuit_margin_cfg, net, "FILE: an nnt-mlp file measured besides the compiled nets"),
    CLI_FLAG("logit", nnt_circuit_margin_cfg, logit, "--net outputs a score thresholded at 0 (default: a bit thresholded at 1/2)"),
    CLI_INTS("depths", nnt_circuit_margin_cfg, depths, ndepths, 1, 256, "sweep: circuit depths"),
    CLI_CHOICE("family", nnt_circuit_margin_cfg, family, families, "sweep: a chain of ID gates (Claim 3.5) or random circuits"),
    CLI_INT("width", nnt_circuit_margin_cfg, width, 1, 256, "sweep: inputs and gates per layer of the random circuits"),
    CLI_INT("circuits", nnt_circuit_margin_cfg, circuits, 1, 1000, "sweep: random circuits per depth"),
    TOP_OPT(margin_cli),
    {0}};
static const cli_cmd margin_cmd = {
    .name = "circuit margin",
    .example = "nnt circuit margin examples/circuits/parity8.bench --inputs 256 --out runs/margin\n"
               "nnt circuit margin --family random --depths 1,2,4,8 --quick --out runs/margin-depth",
    .args = "[FILE]",
    .about = "Upper bounds (checked perturbations) and certified lower bounds on the parameter-space all-layer\n"
             "margin (eq. 2.1) of FILE's compiled net without and with correction layers (and of --net), per\n"
             "input; without FILE, a sweep over circuits of the given depths. CSV and plots in DIR.\n" FORMATS,
    .opts = margin_opts,
    .cfg_size = sizeof(margin_cli),
    .defaults = margin_defaults,
    .npos_max = 1,
    .common = CLI_OUT | CLI_SWEEP,
};

static int margin_sweep(cli_common *co, nnt_circuit_margin_cfg *cfg) {
  nnt_circuit_margin_sweep_result res;
  double t0 = nnt_now();
  cfg->dir = co->out, cfg->resume = co->resume, cfg->progress = 1;
  int st = nnt_sweep_prepare_dir(co->out, co->resume, co->force);
  if (!st && !(st = nnt_circuit_margin_sweep_run(cfg, &res)) && (st = cli_begin(co))) nnt_circuit_margin_sweep_result_free(&res);
  if (st) return st;
  if ((st = cli_circuit_margin_sweep_write(co->out, cfg, &res))) return nnt_circuit_margin_sweep_result_free(&res), st;
  if (cfg->family)
    printf("depth  median_rho_compiled  median_rho_corrected  (upper bounds; random circuits: %d x %d inputs, width %d)\n",
           res.circuits, res.inputs, cfg->width);
  else printf("depth  median_rho_compiled  median_rho_corrected  (upper bounds; chain of ID gates, inputs 0 and 1)\n");
  for (int d = 0; d < res.ndepths; d++)
    printf("%5g  %19.4g  %20.4g   certified lower bounds: %.3g, %.3g\n", res.depth[d], res.med[0][d], res.med[1][d],
           res.low[0][d], res.low[1][d]);
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "family", families[cfg->family]);
  cJSON_AddNumberToObject(j, "width", cfg->width);
  cJSON_AddNumberToObject(j, "circuits", cfg->circuits);
  cJSON_AddNumberToObject(j, "inputs", cfg->inputs);
  nnt_circuit_margin_sweep_result_free(&res);
  return nnt_runinfo_write(co->out, "nnt circuit margin", j, co->seed, co->threads, nnt_now() - t0);
}

static int cmd_margin(int argc, char **argv) {
  margin_cli w;
  cli_args a;
  int st = cli_parse(&margin_cmd, argc, argv, &w, &a);
  if (st || a.co.help) return st;
  nnt_circuit_margin_cfg cfg = w.c;
  if (!a.co.out) a.co.out = "nnt-circuit-margin";
  cfg.seed = a.co.seed;
  if ((st = begin_threads(&a.co))) return st;
  if (!a.npos) {
    if (cfg.net || cfg.logit) return nnt_fail(NNT_EINVAL, "--net: needs a circuit FILE to label the inputs");
    if (w.top) return nnt_fail(NNT_EINVAL, "--top: needs a Verilog FILE");
    return margin_sweep(&a.co, &cfg);
  }
  if (cli_given(&margin_cmd, &a, "depths") || cli_given(&margin_cmd, &a, "circuits") || cli_given(&margin_cmd, &a, "family") ||
      cli_given(&margin_cmd, &a, "width"))
    return nnt_fail(NNT_EINVAL, "--depths/--circuits/--family/--width: only for the sweep without FILE");
  if (a.co.resume || a.co.force) return nnt_fail(NNT_EINVAL, "--resume/--force: only for the sweep without FILE");
  cli_circuit_src src;
  if ((st = cli_circuit_open(a.pos[0], w.top, &src))) return st;
  cfg.file = src.path;
  nnt_circuit_margin_result res;
  double t0 = nnt_now();
  st = nnt_circuit_margin_run(&cfg, &res);
  cli_circuit_close(&src);
  if (st) return st;
  cfg.file = a.pos[0]; /* the reports name the user's file */
  cli_circuit_print_src(&src);
  if (!(st = cli_begin(&a.co))) st = cli_circuit_margin_report(&a.co, &cfg, &res, nnt_now() - t0);
  nnt_circuit_margin_result_free(&res);
  return st;
}

static void learn_defaults(void *cfg, int quick) { nnt_circuit_learn_cfg_default(cfg, quick); }
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
    TOP_OPT(learn_cli),
    {0}};
static const cli_cmd learn_cmd = {
    .name = "circuit learn",
    .example = "nnt circuit learn examples/circuits/majority5.blif --quick --out runs/learn",
    .args = "[FILE]",
    .about = "Trains ReLU nets of width w = r x LIST (r: the widest gate layer) on n samples labelled by the\n"
             "circuit (default: a random layered circuit of depth 4, 16 inputs) and plots test error vs n per\n"
             "width (beyond the paper; Theorem 3.1 predicts a sample complexity only logarithmic in w).\n"
             "Trained nets are saved as nnt-mlp files. Every run checkpoints into DIR/ckpt: --resume continues\n"
             "a killed command to the same results.\n" FORMATS,
    .opts = learn_opts,
    .cfg_size = sizeof(learn_cli),
    .defaults = learn_defaults,
    .npos_max = 1,
    .common = CLI_OUT | CLI_SWEEP,
};

static int cmd_learn(int argc, char **argv) {
  learn_cli w;
  cli_args a;
  int st = cli_parse(&learn_cmd, argc, argv, &w, &a);
  if (st || a.co.help) return st;
  nnt_circuit_learn_cfg cfg = w.c;
  if (!a.co.out) a.co.out = "nnt-circuit-learn";
  char ckpt[1024];
  nnt_path(ckpt, sizeof ckpt, a.co.out, "ckpt");
  if ((st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force))) return st;
  if (!a.npos && w.top) return nnt_fail(NNT_EINVAL, "--top: needs a Verilog FILE");
  cfg.seed = a.co.seed;
  cfg.ckpt_dir = ckpt, cfg.resume = a.co.resume;
  nnt_circuit_learn_result res;
  cli_circuit_src src = {0};
  double t0 = nnt_now();
  if ((st = begin_threads(&a.co)) || (a.npos && (st = cli_circuit_open(a.pos[0], w.top, &src)))) return st;
  cfg.file = a.npos ? src.path : NULL, cfg.name = a.npos ? a.pos[0] : NULL;
  st = nnt_circuit_learn_run(&cfg, &res);
  cli_circuit_close(&src);
  if (st) return st;
  cli_circuit_print_src(&src);
  if (!(st = cli_begin(&a.co))) st = cli_circuit_learn_report(&a.co, &cfg, &res, nnt_now() - t0);
  nnt_circuit_learn_result_free(&res);
  return st;
}

typedef struct {
  int depths[32], ndepths, samples;
} claim35_cfg;
static void claim35_defaults(void *c, int quick) {
  *(claim35_cfg *)c = (claim35_cfg){{1, 2, 4, 8, 16, 32, 64}, 7, quick ? 200 : 2000};
}
static const cli_opt claim35_opts[] = {
    CLI_INTS("depths", claim35_cfg, depths, ndepths, 1, 4096, "depths d of the toy"),
    CLI_INT("samples", claim35_cfg, samples, 0, 1000000, "random directions tried on the corrected toy per depth"),
    {0}};
static const cli_cmd claim35_cmd = {
    .name = "circuit claim35",
    .example = "nnt circuit claim35 --depths 1,2,4,8,16,32,64",
    .about = "Claim 3.5 as the paper states it: f = (W_d...W_1) x - 1/2 with every W_i = 1 at x = 1, and the same\n"
             "with round between the layers. Runs the toy: the claim's perturbation delta_i = -1/d (norm 1/sqrt(d))\n"
             "and the exact margin without corrections (bisected, and sqrt(d)(1 - 2^(-1/d))); with corrections,\n"
             "perturbations of norm just below 1/3 (every coordinate, the symmetric and random directions, both\n"
             "signs) and the smallest flip found. Exit 1 when a row contradicts the claim.",
    .opts = claim35_opts,
    .cfg_size = sizeof(claim35_cfg),
    .defaults = claim35_defaults,
};

static int cmd_claim35(int argc, char **argv) {
  claim35_cfg c;
  cli_args a;
  int st = cli_parse(&claim35_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  if ((st = cli_begin(&a.co))) return st;
  nnt_circuit_claim35_row rows[32];
  if ((st = nnt_circuit_claim35(c.depths, c.ndepths, c.samples, a.co.seed, rows))) return st;
  printf("Claim 3.5: f = (W_d...W_1) x - 1/2, W_i = 1, x = 1; perturbations of (W_1..W_d); corrected: round between layers\n");
  printf("%5s %12s %8s %14s %14s | %16s %14s %14s\n", "d", "1/sqrt(d)", "flips", "margin (run)", "sqrt(d)(1-2^-1/d)",
         "flips < 1/3", "corrected <=", "claim >= 1/3");
  int bad = 0;
  for (int k = 0; k < c.ndepths; k++) {
    const nnt_circuit_claim35_row *r = &rows[k];
    int ok = r->claim_flips && r->plain <= r->claim_norm && fabs(r->plain - r->plain_closed) < 1e-9 && r->corr_keeps &&
             r->corr_below_flips == 0 && r->corr_upper >= 1.0 / 3;
    bad += !ok;
    printf("%5d %12.6f %8s %14.6f %14.6f | %9ld of %-5ld %14.6f %14s\n", r->d, r->claim_norm, r->claim_flips ? "yes" : "NO", r->plain,
           r->plain_closed, r->corr_below_flips, r->corr_tried, r->corr_upper, ok ? "holds" : "VIOLATED");
  }
  if (bad) return nnt_fail(NNT_ECHECK, "Claim 3.5 fails at %d of %d depths", bad, c.ndepths);
  return NNT_OK;
}

static const cli_sub subs[] = {
    {"compile", cmd_compile, "FILE --out NET: the ReLU net of Lemma B.1 (--correct: Lemma 3.3's corrections)"},
    {"verify", cmd_verify, "FILE: the compiled net against direct evaluation on every input"},
    {"margin", cmd_margin, "[FILE]: all-layer margins per input, or their sweep over circuit depth"},
    {"learn", cmd_learn, "[FILE]: test error of trained ReLU nets vs samples and width"},
    {"claim35", cmd_claim35, "Claim 3.5's toy: margin <= 1/sqrt(d) without corrections, >= 1/3 with"},
};

int cmd_circuit(int argc, char **argv) { return cli_dispatch("circuit", subs, 5, argc, argv); }

/* ---- tour ---- */

/* An n-bit ripple-carry adder in .bench text (2n inputs, n + 1 outputs), parsed from memory. */
static char *adder_bench(int n) {
  size_t cap = 4096 + (size_t)n * 256, len = 0;
  char *s = nnt_xmalloc(cap);
  for (int i = 0; i < n; i++) len += (size_t)snprintf(s + len, cap - len, "INPUT(a%d)\n", i);
  for (int i = 0; i < n; i++) len += (size_t)snprintf(s + len, cap - len, "INPUT(b%d)\n", i);
  for (int i = 0; i <= n; i++) len += (size_t)snprintf(s + len, cap - len, "OUTPUT(s%d)\n", i);
  for (int i = 0; i < n; i++) {
    len += (size_t)snprintf(s + len, cap - len, "p%d = XOR(a%d, b%d)\ng%d = AND(a%d, b%d)\n", i, i, i, i, i, i);
    if (!i) len += (size_t)snprintf(s + len, cap - len, "s0 = BUFF(p0)\nc1 = BUFF(g0)\n");
    else
      len += (size_t)snprintf(s + len, cap - len, "s%d = XOR(p%d, c%d)\nt%d = AND(p%d, c%d)\nc%d = OR(g%d, t%d)\n", i, i,
                              i, i, i, i, i + 1, i, i);
  }
  snprintf(s + len, cap - len, "s%d = BUFF(c%d)\n", n, n);
  return s;
}

int tour_circuits(cli_tour *t) {
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "circuits");
  char *text = adder_bench(8);
  nnt_circuit c;
  int st = nnt_circuit_parse_bench(text, strlen(text), "adder8.bench", &c);
  free(text);
  if (st) return st;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  cli_tour_printf(t, "## Circuits → ReLU nets (seed 000, Lemma 3.2 / B.1, Lemma 3.3)\n\n"
                  "An 8-bit ripple-carry adder (%d inputs, %d outputs, %ld gates) layered to depth q = %d, "
                  "width r = %d, size s = %ld (%ld ID gates inserted), compiled to a ReLU net and checked against "
                  "direct evaluation on every one of its 2^16 inputs (the net's sparse batched forward pass; "
                  "`nnt circuit verify examples/circuits/adder10.bench` does the same for 2^20):\n\n"
                  "| net | layers | hidden nodes | params | nonzero | ‖θ‖₁ | inputs checked | mismatches | time (s) |\n"
                  "|---|---|---|---|---|---|---|---|---|\n",
                  c.ninputs, c.noutputs, L.orig_gates, L.depth, L.width_max, L.size, L.id_gates);
  long checked = 0, mismatches = 0;
  for (int k = 0; k < 2; k++) {
    nnt_smlp net;
    nnt_circuit_compile_sparse(&L, k, &net);
    double t0 = nnt_now();
    nnt_circuit_verify_counts r = nnt_circuit_verify(&c, &net, 20, 0, t->seed);
    nnt_mlp_stats s = nnt_smlp_stats_of(&net);
    cli_tour_printf(t, "| %s | %d | %ld | %ld | %ld | %.0f | %ld | %s%ld | %.2f |\n",
                    k ? "with correction layers" : "Lemma B.1", s.layers, s.hidden_units, s.params, s.nonzero_params,
                    s.l1_norm, r.checked, r.mismatches ? "**FAIL** " : "", r.mismatches, nnt_now() - t0);
    cli_tour_checks(t, !r.mismatches, !!r.mismatches);
    checked = r.checked, mismatches += r.mismatches;
    nnt_smlp_free(&net);
  }
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  nnt_circuit_margin_cfg cfg;
  nnt_circuit_margin_cfg_default(&cfg, 1);
  static const int depths[] = {1, 2, 4, 8, 16};
  memcpy(cfg.depths, depths, sizeof depths);
  cfg.ndepths = 5, cfg.seed = t->seed; /* the chain: inputs 0 and 1 of one circuit per depth */
  nnt_circuit_margin_sweep_result res;
  if ((st = nnt_circuit_margin_sweep_run(&cfg, &res))) return st;
  if ((st = cli_circuit_margin_sweep_write(dir, &cfg, &res))) return nnt_circuit_margin_sweep_result_free(&res), st;
  cli_tour_printf(t, "\nAll-layer margin (eq. 2.1, parameter space; upper bounds from checked perturbations and "
                  "certified Lipschitz lower bounds, docs/circuits_tm.md) of a compiled chain of q ID gates (Claim 3.5's "
                  "setting), with the readout z ↦ 2z − 1; median over the inputs 0 and 1:\n\n"
                  "| depth q | upper, without correction | upper, with correction | lower, without | lower, with |\n"
                  "|---|---|---|---|---|\n");
  for (int d = 0; d < res.ndepths; d++)
    cli_tour_printf(t, "| %g | %.4f | %.4f | %.2g | %.2g |\n", res.depth[d], res.med[0][d], res.med[1][d], res.low[0][d],
                    res.low[1][d]);
  cli_tour_printf(t, "\n![margin vs depth](circuits/margin_depth.png)\n");
  int last = res.ndepths - 1;
  cli_tour_outcome(t, "Both compiled nets agreed with the adder on all %ld inputs (%ld mismatches). From depth %g to %g the "
                   "margin's upper bound fell from %.3f to %.3f without correction layers and stayed near %.2f with "
                   "them, as Lemma 3.3 predicts.", checked, mismatches, res.depth[0], res.depth[last], res.med[0][0],
                   res.med[0][last], res.med[1][last]);
  nnt_circuit_margin_sweep_result_free(&res);
  return NNT_OK;
}
