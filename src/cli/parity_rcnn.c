/* nnt parity bench — the parity benchmark of seed 002 (spec §7.6): options, then the report
 * (console table, points.csv, summary.csv, accuracy.png, run.json). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_rcnn_parity.h"

typedef struct {
  nnt_rcnn_parity_bench_cfg b;
  const char *learners; /* "gauss,mlp,majority"; parsed into b.learners */
} bench_opts_cfg;

static int is_rcnn(int learner) { return learner == NNT_RCNN_PARITY_RCNN || learner == NNT_RCNN_PARITY_RCNN_NN; }

static void bench_defaults(void *c_, int quick) {
  bench_opts_cfg *c = c_;
  nnt_rcnn_parity_bench_cfg_default(&c->b, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL);
  c->learners = "gauss,mlp,majority";
}

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
    .defaults = bench_defaults,
    .common = CLI_OUT | CLI_SWEEP};

static int report(const nnt_rcnn_parity_bench_cfg *c, const nnt_rcnn_parity_bench_result *r, const char *dir) {
  const char *const *names = nnt_rcnn_parity_learner_names;
  int st = NNT_OK;
  if (dir) {
    nnt_csv csv;
    if (!(st = nnt_csv_open(&csv, dir, "points.csv", "d,m,learner,rep,test_acc,train_acc,determined,wall_s,agree_tm"))) {
      for (int i = 0; i < r->npoints; i++) {
        const nnt_rcnn_parity_point *p = &r->points[i];
        nnt_csv_row(&csv, "%d,%d,%s,%d,%.6f,%.6f,%.6f,%.6g,%.6f", p->d, p->m, names[p->learner], p->rep, p->acc, p->train_acc,
                    p->determined, p->wall_s, p->agree_tm);
      }
      st = nnt_csv_close(&csv);
    }
    if (!st && !(st = nnt_csv_open(&csv, dir, "summary.csv", "d,m,learner,reps,test_acc_mean,test_acc_sd,wall_s_mean"))) {
      for (int a = 0; a < r->nagg; a++) {
        const nnt_rcnn_parity_agg *g = &r->agg[a];
        nnt_csv_row(&csv, "%d,%d,%s,%d,%.6f,%.6f,%.6g", g->d, g->m, names[g->learner], g->reps, g->acc_mean, g->acc_sd, g->wall_mean);
      }
      st = nnt_csv_close(&csv);
    }
    if (!st) { /* one curve per (learner, d); agg is ordered d, m, learner */
      nnt_plot *p = nnt_plot_new("parity: test accuracy vs training examples", "m (training examples)", "test accuracy");
      nnt_plot_log(p, 1, 0);
      nnt_plot_yrange(p, 0.3, 1.05);
      double x[64], y[64];
      for (int l = 0; l < c->nlearners; l++)
        for (int a = 0; a < c->nd; a++) {
          for (int b = 0; b < c->nm; b++) {
            const nnt_rcnn_parity_agg *g = &r->agg[(a * c->nm + b) * c->nlearners + l];
            x[b] = g->m, y[b] = g->acc_mean;
          }
          char label[64];
          snprintf(label, sizeof label, "%s, d=%d", names[c->learners[l]], c->ds[a]);
          nnt_plot_add(p, c->nm, x, y, label, NNT_PLOT_LINE | NNT_PLOT_POINTS | (c->learners[l] == NNT_RCNN_PARITY_MAJORITY ? NNT_PLOT_DASHED : 0));
        }
      st = nnt_plot_save(p, dir, "accuracy");
      nnt_plot_free(p);
    }
    if (!st) {
      cJSON *j = cJSON_CreateObject();
      cJSON *jd = cJSON_AddArrayToObject(j, "d"), *jm = cJSON_AddArrayToObject(j, "m"), *jl = cJSON_AddArrayToObject(j, "learners");
      for (int a = 0; a < c->nd; a++) cJSON_AddItemToArray(jd, cJSON_CreateNumber(c->ds[a]));
      for (int b = 0; b < c->nm; b++) cJSON_AddItemToArray(jm, cJSON_CreateNumber(c->ms[b]));
      for (int l = 0; l < c->nlearners; l++) cJSON_AddItemToArray(jl, cJSON_CreateString(names[c->learners[l]]));
      cJSON_AddNumberToObject(j, "reps", c->reps), cJSON_AddNumberToObject(j, "tests", c->tests);
      cJSON_AddNumberToObject(j, "rcnn_tests", c->rcnn_tests);
      cJSON_AddNumberToObject(j, "k", c->k), cJSON_AddNumberToObject(j, "noise", c->noise);
      cJSON_AddNumberToObject(j, "hidden", c->mlp.hidden), cJSON_AddNumberToObject(j, "epochs", c->mlp.epochs);
      cJSON_AddNumberToObject(j, "lr", c->mlp.lr);
      cJSON_AddNumberToObject(j, "points_stored", r->stored), cJSON_AddNumberToObject(j, "points_computed", r->computed);
      st = nnt_runinfo_write(dir, "parity bench", j, c->seed, nnt_threads_get(), r->wall_s);
    }
  }
  if (st) return st;
  printf("parity over d bits (%s), %d repetitions, %d test examples, training-label noise %g\n",
         c->k ? "k-sparse" : "full", c->reps, c->tests, c->noise);
  if (c->k) printf("k = %d\n", c->k);
  int rcnn = 0; /* the RCNN learners add a column: agreement with the direct TM */
  for (int l = 0; l < c->nlearners; l++) rcnn |= is_rcnn(c->learners[l]);
  if (rcnn) printf("rcnn, rcnn-nn: the first %d test examples; agree_tm = fraction equal to the direct TM\n", c->rcnn_tests);
  printf("%6s %8s %10s %10s %8s %12s%s\n", "d", "m", "learner", "test acc", "sd", "wall s/rep", rcnn ? "   agree_tm" : "");
  for (int a = 0; a < r->nagg; a++) {
    const nnt_rcnn_parity_agg *g = &r->agg[a];
    printf("%6d %8d %10s %10.4f %8.4f %12.3g", g->d, g->m, names[g->learner], g->acc_mean, g->acc_sd, g->wall_mean);
    if (rcnn && is_rcnn(g->learner)) printf(" %10.4f", g->agree_tm);
    printf("\n");
  }
  printf("points: %d computed, %d read from results.sqlite\n", r->computed, r->stored);
  return NNT_OK;
}

static int run_bench(int argc, char **argv) {
  bench_opts_cfg o;
  cli_args a;
  int st = cli_parse(&bench_cmd, argc, argv, &o, &a);
  if (st || a.co.help) return st;
  nnt_rcnn_parity_bench_cfg *c = &o.b;
  if ((st = nnt_rcnn_parity_learners_parse(o.learners, c->learners, &c->nlearners))) return st;
  c->seed = a.co.seed, c->progress = 1, c->dir = a.co.out, c->resume = a.co.resume;
  if ((st = nnt_rcnn_parity_bench_check(c)) || (a.co.out && (st = nnt_sweep_prepare_dir(a.co.out, a.co.resume, a.co.force))) ||
      (st = cli_begin(&a.co)))
    return st;
  nnt_rcnn_parity_bench_result r;
  if (!(st = nnt_rcnn_parity_bench_run(c, &r))) st = report(c, &r, a.co.out);
  nnt_rcnn_parity_bench_result_free(&r);
  return st;
}

static const cli_sub subs[] = {
    {"bench", run_bench, "accuracy vs m: GF(2) elimination, SGD on a ReLU MLP, majority, the RCNN (seed 002)"},
};

int cmd_parity(int argc, char **argv) { return cli_dispatch("parity", subs, 1, argc, argv); }
