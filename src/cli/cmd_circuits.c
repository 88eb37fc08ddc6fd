/* nnt circuit — boolean circuits compiled into ReLU nets (seed 000, Section 3 and Appendices B, D).
 * Each subcommand is a descriptor (cli.h) on the circuits area's configs; its runs compute;
 * src/report/report_circuits.c writes the results; verilog_circuits.c reads Verilog through yosys;
 * margin and learn are in sweep_circuits.c. */
#include <string.h>


#include "commands.h"
#include "nnt_io.h"
#include "nnt_sweep.h"
#include "report_circuits.h"
#include "verilog_circuits.h"


/* ---- compile and verify: the area's verify config, --top and (compile) --save */
typedef struct {
  nnt_circuit_verify_cfg c;
  const char *top, *save;
  const char *export_path; /* circuit compile --export */
  nnt_circuit_src src;
} verify_cli;
static void verify_default(void *cfg, nnt_preset p) {
  memset(cfg, 0, sizeof(verify_cli));
  nnt_circuit_verify_cfg_default(cfg, p);
}
static void verify_cfg_free(void *cfg) { nnt_circuit_src_close(&((verify_cli *)cfg)->src); }

static const char *const net_formats[] = {"auto", "dense", "sparse", NULL};
static const cli_opt compile_opts[] = {
    CLI_STR("save", verify_cli, save, "the net's file (one file, required; written atomically)"),
    CLI_FLAG("correct", nnt_circuit_verify_cfg, correct, "insert correction layers (Definition D.1) between circuit layers"),
    CLI_CHOICE("format", nnt_circuit_verify_cfg, format, net_formats,
               "file format: nnt-mlp (dense), nnt-mlp-sparse, or auto (dense up to 10^6 parameters)"),
    CLI_STR("export", verify_cli, export_path,
            "also write the net to FILE.safetensors or FILE.onnx (dense or CSR as --format; python/nnt loads the former into PyTorch, docs/export.md)"),
    CLI_CIRCUIT_TOP(verify_cli),
    {0}};
typedef struct {
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_smlp net;
  int dense;
} compile_res;
static int compile_validate(void *cfg, const cli_run *r) {
  verify_cli *w = cfg;
  if (!w->save && !w->export_path)
    return nnt_fail(NNT_EINVAL, "--save FILE or --export FILE is required (the file the net is written to)");
  if (w->export_path && !nnt_export_format(w->export_path))
    return nnt_smlp_export(&(nnt_smlp){0}, 0, NULL, NULL, w->export_path); /* its one-line refusal */
  return nnt_circuit_src_read(r->pos[0], w->top, &w->src, &w->c.file);
}
static int compile_run(void *cfg, const cli_run *r, void *res) {
  verify_cli *w = cfg;
  compile_res *o = res;
  (void)r;
  int st = nnt_circuit_read(w->c.file, &o->c);
  if (st) return st;
  nnt_circuit_layer(&o->c, &o->L);
  nnt_circuit_compile_sparse(&o->L, w->c.correct, &o->net);
  nnt_mlp_stats s = nnt_smlp_stats_of(&o->net);
  o->dense = w->c.format == 1 || (w->c.format == 0 && s.params <= 1000000);
  return NNT_OK;
}
static int compile_report(const void *cfg, const void *res, const cli_run *r) {
  const verify_cli *w = cfg;
  const compile_res *o = res;
  int st = w->save ? nnt_report_circuit_compile(w->save, &o->net, o->dense) : NNT_OK;
  if (!st && w->export_path) {
    char command[1024];
    cli_command_line(command, sizeof command, "nnt circuit", r->argc, r->argv);
    st = nnt_circuit_export(&o->c, &o->net, !o->dense, r->pos[0], nnt_version(), command, w->export_path);
  }
  if (st) return st;
  nnt_report_circuit_print(r->pos[0], &o->c, &o->L);
  nnt_circuit_src_print(&w->src);
  nnt_report_circuit_print_net(&o->net, w->c.correct);
  if (w->save) printf("wrote %s (%s)\n", w->save, o->dense ? "nnt-mlp" : "nnt-mlp-sparse");
  if (w->export_path)
    printf("wrote %s (%s, %s)\n", w->export_path, nnt_export_format(w->export_path) == 2 ? "ONNX" : "safetensors",
           o->dense ? "dense" : "CSR");
  return NNT_OK;
}
static void compile_free(void *res) {
  compile_res *o = res;
  nnt_smlp_free(&o->net), nnt_circuit_layered_free(&o->L), nnt_circuit_free(&o->c);
}
static const cli_cmd compile_cmd = {
    .name = "circuit compile",
    .example = "nnt circuit compile examples/circuits/fulladder.bench --correct --save fulladder.json\n"
               "nnt circuit compile examples/circuits/mult8.v --save mult8.json",
    .args = "FILE",
    .about = "Writes the ReLU net of Lemma B.1 (two ReLU layers per circuit layer) as an nnt-mlp JSON file\n"
             "(--save NET: one file, so not --out DIR, the folder of the other commands); --correct inserts the\n"
             "rounding layers of Lemma 3.3 between blocks. Big nets are written sparse (nnt-mlp-sparse:\n"
             "compressed rows, docs/core.md) unless --format dense.\n" CLI_CIRCUIT_FORMATS,
    .opts = compile_opts, .cfg_size = sizeof(verify_cli), .res_size = sizeof(compile_res),
    .cfg_default = verify_default, .validate = compile_validate, .run = compile_run, .report = compile_report,
    .result_free = compile_free, .cfg_free = verify_cfg_free, .npos_min = 1, .npos_max = 1,
};

static const cli_opt verify_opts[] = {
    CLI_FLAG("correct", nnt_circuit_verify_cfg, correct, "insert correction layers (Definition D.1) between circuit layers"),
    CLI_STR("net", nnt_circuit_verify_cfg, net, "an nnt-mlp or nnt-mlp-sparse file to verify instead of the compiled net"),
    CLI_LONG("samples", nnt_circuit_verify_cfg, samples, 1, 1e9, "random inputs beyond the exhaustive limit"),
    CLI_INT("exhaustive-max", nnt_circuit_verify_cfg, exhaustive_max, 0, 30, "check all 2^m inputs when m <= K"),
    CLI_CIRCUIT_TOP(verify_cli),
    {0}};
static int verify_validate(void *cfg, const cli_run *r) {
  verify_cli *w = cfg;
  if (w->c.correct && w->c.net)
    return nnt_fail(NNT_EINVAL, "--correct and --net: --correct compiles the circuit's net with correction layers; "
                    "a --net file is verified as it is (give one)");
  w->c.seed = r->seed;
  int st = nnt_circuit_src_read(r->pos[0], w->top, &w->src, &w->c.file);
  if (!st && w->c.net) {
    nnt_smlp m; /* dense or sparse: the sparse reader takes both */
    if (!(st = nnt_smlp_load(w->c.net, &m))) nnt_smlp_free(&m);
  }
  return st;
}
static int verify_run(void *cfg, const cli_run *r, void *res) { return (void)r, nnt_circuit_verify_run(cfg, res); }
static int verify_report(const void *cfg, const void *res, const cli_run *r) {
  const verify_cli *w = cfg;
  const nnt_circuit_verify_result *v = res;
  nnt_report_circuit_print(r->pos[0], &v->c, &v->L);
  nnt_circuit_src_print(&w->src);
  if (w->c.net) printf("net: %s\n", w->c.net);
  nnt_report_circuit_print_net(&v->net, w->c.correct);
  int st = nnt_report_circuit_verify(r->out, &w->c, v);
  if (!st && v->counts.mismatches)
    st = nnt_fail(NNT_ECHECK, "verification failed: %ld of %ld inputs mismatch", v->counts.mismatches, v->counts.checked);
  return st;
}
static void verify_free(void *res) { nnt_circuit_verify_result_free(res); }
static const cli_cmd verify_cmd = {
    .name = "circuit verify",
    .example = "nnt circuit verify examples/circuits/adder10.bench --correct\n"
               "nnt circuit verify examples/circuits/alu8.v\n"
               "nnt circuit compile examples/circuits/fulladder.bench --save fulladder.json\n"
               "nnt circuit verify examples/circuits/fulladder.bench --net fulladder.json",
    .args = "FILE",
    .about = "Compiles FILE (or loads --net) and compares the net's forward pass with direct evaluation on\n"
             "every input (up to 2^K) or on N random inputs; prints sizes and inputs_checked=... mismatches=...;\n"
             "exit 1 on a mismatch.\n" CLI_CIRCUIT_FORMATS,
    .opts = verify_opts, .cfg_size = sizeof(verify_cli), .res_size = sizeof(nnt_circuit_verify_result),
    .cfg_default = verify_default, .validate = verify_validate, .run = verify_run, .report = verify_report,
    .result_free = verify_free, .cfg_free = verify_cfg_free, .npos_min = 1, .npos_max = 1, .common = CLI_OUT,
};

/* ---- claim35: Claim 3.5's toy, run */
typedef struct {
  int depths[32], ndepths, samples;
  uint64_t seed;
} claim35_cfg;
typedef struct {
  nnt_circuit_claim35_row rows[32];
} claim35_res;
static void claim35_default(void *c, nnt_preset p) {
  *(claim35_cfg *)c = (claim35_cfg){{1, 2, 4, 8, 16, 32, 64}, 7, p == NNT_PRESET_QUICK ? 200 : 2000, 1};
}
static int claim35_validate(void *c, const cli_run *r) { return ((claim35_cfg *)c)->seed = r->seed, NNT_OK; }
static int claim35_run(void *cfg, const cli_run *r, void *res) {
  const claim35_cfg *c = cfg;
  return (void)r, nnt_circuit_claim35(c->depths, c->ndepths, c->samples, c->seed, ((claim35_res *)res)->rows);
}
static int claim35_report(const void *cfg, const void *res, const cli_run *r) {
  const claim35_cfg *c = cfg;
  return nnt_report_circuit_claim35(r->out, c->ndepths, ((const claim35_res *)res)->rows);
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
             "signs) and the smallest flip found. With --out, DIR/claim35.csv. Exit 1 when a row contradicts the claim.",
    .opts = claim35_opts, .cfg_size = sizeof(claim35_cfg), .res_size = sizeof(claim35_res),
    .cfg_default = claim35_default, .validate = claim35_validate, .run = claim35_run, .report = claim35_report,
    .common = CLI_OUT,
};

static int cmd_compile(int argc, char **argv) { return cli_drive(&compile_cmd, argc, argv); }
static int cmd_verify(int argc, char **argv) { return cli_drive(&verify_cmd, argc, argv); }
static int cmd_margin(int argc, char **argv) { return cli_drive(&cli_circuit_margin_cmd, argc, argv); }
static int cmd_learn(int argc, char **argv) { return cli_drive(&cli_circuit_learn_cmd, argc, argv); }
static int cmd_claim35(int argc, char **argv) { return cli_drive(&claim35_cmd, argc, argv); }
static int cmd_d5(int argc, char **argv) { return cli_drive(&cli_circuit_d5_cmd, argc, argv); }

static const cli_sub subs[] = {
    {"compile", cmd_compile, "FILE --save NET: the ReLU net of Lemma B.1 (--correct: Lemma 3.3's corrections)"},
    {"verify", cmd_verify, "FILE: the compiled net against direct evaluation on every input"},
    {"margin", cmd_margin, "[FILE]: all-layer margins per input, or their sweep over circuit depth"},
    {"learn", cmd_learn, "[FILE]: test error of trained ReLU nets vs samples and width"},
    {"claim35", cmd_claim35, "Claim 3.5's toy: margin <= 1/sqrt(d) without corrections, >= 1/3 with"},
    {"d5", cmd_d5, "FILE: Theorem D.6's margin bound (D.5) evaluated, beside the certified and attacked margins"},
};

int cmd_circuit(int argc, char **argv) { return cli_dispatch("circuit", subs, 6, argc, argv); }
