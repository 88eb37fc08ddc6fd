/* nnt parity bench — the parity benchmark of seed 002 (spec §7.6): its descriptor (cli.h) on the
 * rcnn area's run; src/report/report_rcnn.c writes the console table, points.csv, summary.csv and
 * accuracy.png, the driver run.json. */
#include "commands.h"
#include "nnt_rcnn_parity.h"
#include "report_rcnn.h"

typedef struct {
  nnt_rcnn_parity_bench_cfg b;
  const char *learners; /* "gauss,mlp,majority"; parsed into b.learners */
} bench_opts_cfg;

static void bench_default(void *c_, nnt_preset preset) {
  bench_opts_cfg *c = c_;
  nnt_rcnn_parity_bench_cfg_default(&c->b, preset);
  c->learners = "gauss,mlp,majority";
}

static int bench_validate(void *c_, const cli_run *r) {
  nnt_rcnn_parity_bench_cfg *c = &((bench_opts_cfg *)c_)->b;
  int st = nnt_rcnn_parity_learners_parse(((bench_opts_cfg *)c_)->learners, c->learners, &c->nlearners);
  c->seed = r->seed, c->threads = r->threads, c->progress = 1, c->dir = r->out, c->resume = r->resume;
  return st ? st : nnt_rcnn_parity_bench_check(c);
}
static int bench_run(void *c, const cli_run *r, void *res);
static int bench_report(const void *c, const void *res, const cli_run *r);
static void bench_free(void *res);

#define B bench_opts_cfg
static const cli_opt bench_opts[] = {
    CLI_INTS("d", B, b.ds, b.nd, 1, NNT_RCNN_PARITY_MAX_D, "input bits"),
    CLI_INTS("m", B, b.ms, b.nm, 1, 16777215, "training examples"),
    CLI_STR("learners", B, learners,
            "comma-separated subset of gauss, mlp, majority, rcnn (the RCNN running the gauss-parity TM after\n"
            "Algorithm 1, rule level), rcnn-nn (the compiled ReLU network, patch cache on; d <= 8, m <= 64),\n"
            "mlp-online (the MLP in the online regime: one SGD pass, each of the m samples used once)\n"
            "(default gauss,mlp,majority)"),
    CLI_INT("reps", B, b.reps, 1, 1000, "repetitions per (d, m, learner)"),
    CLI_INT("tests", B, b.tests, 1, 100000000, "fresh test examples per point"),
    CLI_INT("rcnn-tests", B, b.rcnn_tests, 1, 100000000, "of which the RCNN learners predict the first (each query re-runs the TM)"),
    CLI_INT("k", B, b.k, 0, NNT_RCNN_PARITY_MAX_D, "parity support size (0: full parity over all d bits)"),
    CLI_DOUBLE("noise", B, b.noise, 0, 0.4999999, "training-label flip rate"),
    CLI_INT("hidden", B, b.mlp.hidden, 1, 4096, "MLP hidden width"),
    CLI_INT("epochs", B, b.mlp.epochs, 1, 1000000, "MLP passes over the m examples"),
    CLI_DOUBLE("lr", B, b.mlp.lr, 1e-12, 100, "MLP SGD step size (batch 1, logistic loss)"),
    {0}};
#undef B
static const cli_cmd bench_cmd = {
    .name = "parity bench",
    .example = "nnt parity bench --quick --out runs/parity\n"
               "nnt parity bench --d 32 --m 64 --k 3 --noise 0.1 --learners gauss,majority --out runs/parity-k3",
    .about = "Test accuracy and wall time vs m for parities over d bits: Gaussian elimination over GF(2),\n"
             "a 2-layer ReLU MLP trained by SGD on the m examples (sample-limited regime), the majority\n"
             "baseline, and on request the RCNN (rule level or compiled network; agree_tm in points.csv: the\n"
             "fraction of its queries equal to the direct TM). Every (d, m, learner, rep) point is stored in OUT/results.sqlite as it finishes\n"
             "(--resume continues a killed run). Writes points.csv, summary.csv, accuracy.png, run.json.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_opts_cfg),
    .res_size = sizeof(nnt_rcnn_parity_bench_result),
    .cfg_default = bench_default,
    .validate = bench_validate,
    .run = bench_run,
    .report = bench_report,
    .result_free = bench_free,
    .common = CLI_OUT | CLI_SWEEP};

static int bench_run(void *c, const cli_run *r, void *res) { return (void)r, nnt_rcnn_parity_bench_run(&((bench_opts_cfg *)c)->b, res); }
static int bench_report(const void *c, const void *res, const cli_run *r) {
  return nnt_report_rcnn_parity_bench(r->out, &((const bench_opts_cfg *)c)->b, res);
}
static void bench_free(void *res) { nnt_rcnn_parity_bench_result_free(res); }

static int run_bench(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

static const cli_sub subs[] = {
    {"bench", run_bench, "accuracy vs m: GF(2) elimination, SGD on a ReLU MLP, majority, the RCNN (seed 002)"},
};

int cmd_parity(int argc, char **argv) { return cli_dispatch("parity", subs, 1, argc, argv); }
