/* nnt rcnn — seed 002's RCNN learning a parity at rule level (learn: Algorithm 1 memorises the data
 * in W, then each test point's depth-L roll-out runs the learner TM, every output checked against
 * the direct 2-D TM simulator), f̄ compiled into a ReLU MLP (compile), grid snapshots (snapshot).
 * Descriptors (cli.h) on the rcnn area's runs; src/report/report_rcnn.c writes the results. */
#include "commands.h"
#include "nnt_io.h"
#include "nnt_mlp.h"
#include "nnt_rcnn_nn.h"
#include "report_rcnn.h"

static const char *const levels[] = {"rule", "nn", NULL};

/* The area's functions, for configs whose only run-time field is the seed. */
#define EXPERIMENT(x)                                                                                     \
  static void x##_default(void *c, nnt_preset p) { nnt_rcnn_##x##_cfg_default(c, p); }                  \
  static int x##_run(void *c, const cli_run *r, void *res) { return (void)r, nnt_rcnn_##x##_run(c, res); } \
  static int x##_report(const void *c, const void *res, const cli_run *r) { return nnt_report_rcnn_##x(r->out, c, res); }
EXPERIMENT(learn)
EXPERIMENT(snapshot)
static void compile_default(void *c, nnt_preset p) { nnt_rcnn_compile_cfg_default(c, p); }
static int compile_run(void *c, const cli_run *r, void *res) { return (void)r, nnt_rcnn_compile_run(c, res); }
static int compile_report(const void *c_, const void *res, const cli_run *r) {
  const nnt_rcnn_compile_cfg *c = c_;
  int st = nnt_report_rcnn_compile(r->out, c, res);
  if (c->export_path && (!st || st == NNT_ECHECK))
    printf("wrote %s (%s)\n", c->export_path, nnt_export_format(c->export_path) == 2 ? "ONNX, the cell MLP" : "safetensors");
  return st;
}
static void learn_free(void *res) { nnt_rcnn_learn_result_free(res); }
static void snapshot_free(void *res) { nnt_rcnn_snapshot_result_free(res); }

static int learn_validate(void *c, const cli_run *r) {
  ((nnt_rcnn_learn_cfg *)c)->seed = r->seed;
  return nnt_rcnn_learn_check(c);
}
static int compile_validate(void *c_, const cli_run *r) {
  static char command[4096]; /* provenance of --export */
  nnt_rcnn_compile_cfg *c = c_;
  c->seed = r->seed, c->version = nnt_version();
  c->command = cli_command_line(command, sizeof command, "nnt rcnn", r->argc, r->argv);
  return nnt_rcnn_compile_check(c);
}
static int snapshot_validate(void *c, const cli_run *r) {
  ((nnt_rcnn_snapshot_cfg *)c)->seed = r->seed;
  return NNT_OK;
}

#define C nnt_rcnn_learn_cfg
static const cli_opt learn_opts[] = {
    CLI_STR("learner", C, learner, "the 2-D TM run inside the RCNN: first-label, dictator, majority, gauss-parity, or any\n"
                                   "FILE.tm2d valid under tm2d check that can run in an RCNN (it parks: exit 2 otherwise)"),
    CLI_INT("d", C, d, 1, 64, "input bits of the parity"),
    CLI_INT("m", C, m, 1, 10000, "training examples"),
    CLI_INT("tests", C, tests, 1, 1000000, "fresh test points"),
    CLI_INT("work", C, work, 1, 100000, "columns of the 1s region right of the main grid (the paper: L)"),
    CLI_INT("depth", C, depth, 0, 1000000000, "layers L (0: max(m+1, m+d+1, t+1), t the direct TM's largest step count)"),
    CLI_CHOICE("level", C, level, levels,
               "rule: the exact cellular automaton f̄; nn: also the compiled ReLU network (float64, real\n"
               "gradients), whose outputs are then reported, each of its patch evaluations checked against f̄"),
    CLI_FLAG("no-cache", C, nocache, "nn: evaluate every cell by the MLP. By default a patch cache (an acceleration) reuses\n"
                                     "value and gradient per domain patch: the MLP is affine within Delta of a domain point,\n"
                                     "so a hit returns what a fresh evaluation would, up to rounding"),
    {0}};
#undef C
static const cli_cmd learn_cmd = {
    .name = "rcnn learn",
    .example = "nnt rcnn learn --d 8 --m 18 --tests 5\n"
               "nnt rcnn learn --learner examples/rcnn/majority.tm2d --d 4 --m 9 --tests 10\n"
               "nnt rcnn learn --d 4 --m 10 --tests 5 --level nn",
    .about = "Draws m examples of a random parity on d bits (--seed), trains the rule-level RCNN by Algorithm 1\n"
             "(W = 0, one SGD pass, the dummy example last, eta = 1/54, exact integer arithmetic) and predicts\n"
             "--tests fresh points, each by a depth-L roll-out that runs the learner TM. Prints per point the\n"
             "RCNN output, the direct TM output and the true label, the invariants, and\n"
             "agree_tm=A/N correct=C/N; with --out, DIR/points.csv and learn.csv. Exit 1 on any RCNN/TM\n"
             "disagreement or failed invariant.",
    .opts = learn_opts,
    .cfg_size = sizeof(nnt_rcnn_learn_cfg),
    .res_size = sizeof(nnt_rcnn_learn_result),
    .cfg_default = learn_default,
    .validate = learn_validate,
    .run = learn_run,
    .report = learn_report,
    .result_free = learn_free,
    .common = CLI_OUT,
};

static const char *const compilers[] = {"structured", "lemma", NULL};

#define C nnt_rcnn_compile_cfg
static const cli_opt compile_opts[] = {
    CLI_STR("learner", C, learner, "the 2-D TM whose f̄ is compiled: a bundled learner's name or a FILE.tm2d (as rcnn learn)"),
    CLI_INT("d", C, d, 1, 16, "input bits of the parity of the check roll-out"),
    CLI_INT("m", C, m, 1, 64, "training examples of the check roll-out"),
    CLI_INT("tests", C, tests, 0, 10000, "predictions in the check roll-out"),
    CLI_CHOICE("compiler", C, compiler, compilers,
               "structured: default + corrections over the value universe (spec §4.8); lemma: the paper's\n"
               "Lemma 5/6 construction with the visited patches as its domain (small roll-outs only)"),
    CLI_STR("export", C, export_path, "also write the compiled net to FILE.safetensors (cell MLP, head and the checked patches)\n"
                                      "or FILE.onnx (the cell MLP); python/nnt loads the former (docs/export.md)"),
    {0}};
#undef C
static const cli_cmd compile_cmd = {
    .name = "rcnn compile",
    .example = "nnt rcnn compile --compiler lemma --learner dictator --d 2 --m 2 --tests 2",
    .about = "Compiles the learner's f̄_Conv2D with the structured \"default + corrections\" compiler into one\n"
             "sparse 3-affine / 2-ReLU MLP per cell (Definition-5 layout, float64) and prints its layer widths,\n"
             "nonzeros and the size of its finite weight-value set; then checks it on every distinct patch\n"
             "that the rule-level RCNN visits while it runs Algorithm 1 and --tests predictions on a drawn\n"
             "parity (--d, --m, --seed): value against f̄, gradient against f̄'s flags (∂/∂x00 in {0, 1},\n"
             "all other partials 0), and the reverse pass against central finite differences.\n"
             "With --out, DIR/compile.csv. Exit 1 when the value or gradient error exceeds 1e-9.",
    .opts = compile_opts,
    .cfg_size = sizeof(nnt_rcnn_compile_cfg),
    .res_size = sizeof(nnt_rcnn_compile_result),
    .cfg_default = compile_default,
    .validate = compile_validate,
    .run = compile_run,
    .report = compile_report,
    .common = CLI_OUT,
};

#define C nnt_rcnn_snapshot_cfg
static const cli_opt snapshot_opts[] = {
    CLI_CHOICE("learner", C, learner, nnt_rcnn_tm2d_learner_names, "the 2-D TM run inside the RCNN"),
    CLI_INT("d", C, d, 1, 32, "input bits of the parity"),
    CLI_INT("m", C, m, 1, 128, "training examples"),
    CLI_INT("work", C, work, 1, 256, "columns of the 1s region"),
    CLI_INT("step", C, step, 0, 129, "SGD step shown in the memorisation phase (0: the middle one)"),
    CLI_INT("mem-layer", C, mem_layer, 0, 1000000000, "its layer (0: half way to the bottom row)"),
    CLI_INT("compute-layer", C, compute_layer, 0, 1000000000, "layer of the test point's roll-out shown (0: t/2)"),
    {0}};
#undef C
static const cli_cmd snapshot_cmd = {
    .name = "rcnn snapshot",
    .example = "nnt rcnn snapshot --d 4 --m 8 --out runs/snapshot",
    .about = "Grid snapshots of the rule-level RCNN on a drawn parity (the paper's Figure 3), cell values as\n"
             "heat maps in OUT (PNG and SVG): memorise (a layer of SGD step --step: the rows above are memorised\n"
             "at +-1/3, the -1/9 band of the memorisation phase spreads from the step's row), memory (the memory\n"
             "layer at the test point after training: the XOR tape, then the 1s region), compute (a layer of the\n"
             "test point's roll-out: the compute phase, cells + 1/9, and the head's cell + 1/27 + state) and\n"
             "final (after L layers: only the output cell (1,1) is non-blank in the main grid). Without --out the\n"
             "grids are printed only.",
    .opts = snapshot_opts,
    .cfg_size = sizeof(nnt_rcnn_snapshot_cfg),
    .res_size = sizeof(nnt_rcnn_snapshot_result),
    .cfg_default = snapshot_default,
    .validate = snapshot_validate,
    .run = snapshot_run,
    .report = snapshot_report,
    .result_free = snapshot_free,
    .common = CLI_OUT};

/* ---- restarts: Corollary 2's wrapper on a toy with a known success probability */
static void restarts_default(void *c, nnt_preset p) { nnt_rcnn_restarts_cfg_default(c, p); }
static int restarts_validate(void *c, const cli_run *r) { return ((nnt_rcnn_restarts_cfg *)c)->seed = r->seed, NNT_OK; }
static int restarts_run(void *c, const cli_run *r, void *res) { return (void)r, nnt_rcnn_restarts_run(c, res); }
static int restarts_report(const void *c, const void *res, const cli_run *r) { return nnt_report_rcnn_restarts(r->out, c, res); }
#define C nnt_rcnn_restarts_cfg
static const cli_opt restarts_opts[] = {
    CLI_INT("d", C, d, 1, 10, "input bits of each trial's parity (every one of the 2^d inputs gives the exact error)"),
    CLI_INT("m", C, m, 1, 200, "training examples"),
    CLI_DOUBLE("eps", C, eps, 1e-6, 0.999999, "Corollary 2's epsilon"),
    CLI_DOUBLE("delta", C, delta, 1e-6, 0.999999, "Corollary 2's delta"),
    CLI_INT("trials", C, trials, 1, 100000, "datasets drawn"),
    CLI_INT("seqs", C, seqs, 1, 1000000, "runs of the wrapper per dataset"),
    CLI_LONG("restarts", C, restarts, 0, 1000000, "restarts M (0: Corollary 2's ceil(ln(2/delta) K))"),
    CLI_LONG("validation", C, validation, 0, 100000, "validation points N (0: Corollary 2's ceil(2 ln(2M/delta) / eps^2))"),
    {0}};
#undef C
static const cli_cmd restarts_cmd = {
    .name = "rcnn restarts",
    .example = "nnt rcnn restarts --quick\n"
               "nnt rcnn restarts --restarts 4",
    .about = "Corollary 2's restarts-and-validation wrapper run on a toy with a known success probability: a\n"
             "restart draws the RCNN's learner uniformly from the K = 4 bundled 2-D TMs (p >= 1/K, the role of\n"
             "|U_s|^-P), trains the rule-level RCNN by Algorithm 1 on a random parity and predicts; the wrapper\n"
             "keeps the restart with the smallest validation error (Algorithm 2's argmin). Measures the restart\n"
             "success rate, the rate of runs without a success against (1 - p)^M <= delta/2, the selection's\n"
             "failures against Hoeffding's delta/2, and the overall failure against delta. Exit 1 when one is\n"
             "outside 4 binomial standard deviations of its bound.",
    .opts = restarts_opts,
    .cfg_size = sizeof(nnt_rcnn_restarts_cfg),
    .res_size = sizeof(nnt_rcnn_restarts_result),
    .cfg_default = restarts_default,
    .validate = restarts_validate,
    .run = restarts_run,
    .report = restarts_report,
    .common = CLI_OUT,
};

static int run_learn(int argc, char **argv) { return cli_drive(&learn_cmd, argc, argv); }
static int run_compile(int argc, char **argv) { return cli_drive(&compile_cmd, argc, argv); }
static int run_snapshot(int argc, char **argv) { return cli_drive(&snapshot_cmd, argc, argv); }
static int run_restarts(int argc, char **argv) { return cli_drive(&restarts_cmd, argc, argv); }

static const cli_sub subs[] = {
    {"learn", run_learn, "a parity learned by a 2-D TM inside the rule-level RCNN, checked against the direct TM"},
    {"compile", run_compile, "f̄ compiled into a sparse ReLU MLP per cell, checked on every visited patch"},
    {"snapshot", run_snapshot, "grid snapshots of the memorisation and compute phases as images (the paper's Figure 3)"},
    {"restarts", run_restarts, "Corollary 2's restarts and validation run on a toy, measured against its bounds"},
};

int cmd_rcnn(int argc, char **argv) { return cli_dispatch("rcnn", subs, 4, argc, argv); }
