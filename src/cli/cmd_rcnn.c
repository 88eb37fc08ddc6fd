/* nnt rcnn learn — seed 002's RCNN learning a parity at rule level: Algorithm 1 memorises the
 * data in W, then each test point's depth-L roll-out runs the learner TM; every output is checked
 * against the direct 2-D TM simulator (exit 1 on any disagreement or failed invariant). */
#include <math.h>
#include <stdio.h>

#include "commands.h"
#include "nnt_file.h"
#include "nnt_plot.h"
#include "nnt_rcnn_nn.h"

static const char *const levels[] = {"rule", "nn", NULL};

static void learn_defaults(void *c, int quick) { nnt_rcnn_learn_cfg_default(c, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL); }

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
             "agree_tm=A/N correct=C/N. Exit 1 on any RCNN/TM disagreement or failed invariant.",
    .opts = learn_opts,
    .cfg_size = sizeof(nnt_rcnn_learn_cfg),
    .defaults = learn_defaults,
};

static const char *pm(int v) { return v > 0 ? "+1" : v < 0 ? "-1" : "none"; }

static int run_learn(int argc, char **argv) {
  nnt_rcnn_learn_cfg c;
  cli_args a;
  int st = cli_parse(&learn_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  c.seed = a.co.seed;
  if (c.nocache && c.level != 1) return nnt_fail(NNT_EINVAL, "--no-cache: only with --level nn");
  if ((st = cli_begin(&a.co))) return st;
  nnt_rcnn_learn_result r;
  if ((st = nnt_rcnn_learn_run(&c, &r))) return st;
  printf("rcnn learn: %s (%d states), parity d=%d m=%d seed=%llu, level %s\n", c.learner, r.nstates,
         c.d, c.m, a.co.seed, levels[c.level]);
  printf("grid %d x %d (work %d), depth L=%d (largest TM step count t=%ld), K=%d trits after the point\n", c.m + 1,
         c.d + 1 + r.work, r.work, r.L, r.t_max, r.K);
  printf("point  rcnn  tm    label  steps\n");
  for (int j = 0; j < r.tests; j++) {
    const nnt_rcnn_learn_point *p = &r.pt[j];
    printf("%5d  %-4s  %-4s  %-5s  %ld", j + 1, pm(p->rcnn), pm(p->tm), pm(p->truth), p->steps);
    if (!p->rcnn) printf("  (f = %.6g)", p->f);
    printf("%s\n", p->rcnn != p->tm ? "  DISAGREE" : "");
  }
  printf("memorisation: W == (1/3)[y x, y] exactly: %s; f == 0 at %d/%d SGD steps\n", r.w_exact ? "yes" : "NO", r.fzero_steps,
         c.m + 1);
  printf("values held: %ld, %s the %ld of 10 + 4|Q|\n", r.nvalues, r.values_ok ? "all within" : "NOT all within", r.nuniverse);
  if (c.level == 1) {
    printf("network: cell MLP %d + %d ReLUs, %ld nonzero weights, shared by every cell and layer; patch cache %s\n", r.h1, r.h2,
           r.nonzeros, !c.nocache ? "on (an acceleration; --no-cache turns it off)" : "off");
    printf("nn memorisation: max |W - (1/3)[y x, y]| = %.3g; max |f| over the SGD steps = %.3g\n", r.w_err, r.f_sgd);
    printf("nn vs rule level: %ld patch evaluations checked%s, max value error %.3g, max gradient error %.3g, off the value grid %ld;"
           " max |f_nn - f_rule| over the points %.3g\n",
           r.nchecked, !c.nocache ? " (distinct patches per thread)" : "", r.max_verr, r.max_gerr, r.offgrid, r.f_err);
    if (!c.nocache)
      printf("cache: %ld patches, %ld lookups, %.4f hit rate\n", r.ncache, r.nlookup, r.nlookup ? (double)r.nhit / r.nlookup : 0);
    printf("time: nn train %.3f s, %d nn predictions %.3f s (rule level %.3f s)\n", r.train_s, r.tests, r.test_s, r.rule_s);
  } else
    printf("time: train %.3f s, %d predictions %.3f s\n", r.train_s, r.tests, r.test_s);
  printf("agree_tm=%d/%d correct=%d/%d\n", r.agree, r.tests, r.correct, r.tests);
  if (r.agree < r.tests) st = nnt_fail(NNT_ECHECK, "the RCNN disagrees with the direct TM on %d of %d points", r.tests - r.agree, r.tests);
  else if (!r.w_exact || r.fzero_steps < c.m + 1 || !r.values_ok)
    st = nnt_fail(NNT_ECHECK, "a memorisation or value-set invariant failed");
  else if (c.level == 1 && !(r.w_err <= 1e-12 && r.f_sgd <= 1e-9 && r.max_verr <= 1e-9 && r.max_gerr <= 1e-9 && !r.offgrid))
    st = nnt_fail(NNT_ECHECK, "the network's memorisation or its agreement with f̄ is outside tolerance (W 1e-12, f and patches 1e-9)");
  nnt_rcnn_learn_result_free(&r);
  return st;
}

static const char *const compilers[] = {"structured", "lemma", NULL};

static void compile_defaults(void *c, int quick) { nnt_rcnn_compile_cfg_default(c, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL); }

#define C nnt_rcnn_compile_cfg
static const cli_opt compile_opts[] = {
    CLI_STR("learner", C, learner, "the 2-D TM whose f̄ is compiled: a bundled learner's name or a FILE.tm2d (as rcnn learn)"),
    CLI_INT("d", C, d, 1, 16, "input bits of the parity of the check roll-out"),
    CLI_INT("m", C, m, 1, 64, "training examples of the check roll-out"),
    CLI_INT("tests", C, tests, 0, 10000, "predictions in the check roll-out"),
    CLI_CHOICE("compiler", C, compiler, compilers,
               "structured: default + corrections over the value universe (spec §4.8); lemma: the paper's\n"
               "Lemma 5/6 construction with the visited patches as its domain (small roll-outs only)"),
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
             "Exit 1 when the value or gradient error exceeds 1e-9.",
    .opts = compile_opts,
    .cfg_size = sizeof(nnt_rcnn_compile_cfg),
    .defaults = compile_defaults,
};

static int run_compile(int argc, char **argv) {
  nnt_rcnn_compile_cfg c;
  cli_args a;
  int st = cli_parse(&compile_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  c.seed = a.co.seed;
  if ((st = cli_begin(&a.co))) return st;
  nnt_rcnn_compile_result r;
  if ((st = nnt_rcnn_compile_run(&c, &r))) return st;
  if (c.compiler == 1) {
    static const char *const maps[5] = {"W1", "W1'", "W1+", "W2'", "W2+"};
    printf("rcnn compile: %s (%d states), K=%d, the paper's Lemma 5/6 compiler on the visited patches\n",
           c.learner, r.nstates, r.K);
    printf("domain X: %ld distinct patches (rule level, parity d=%d m=%d seed=%llu: Algorithm 1 and %d predictions), d_in = 5, d_out = 1,"
           " |X_i| = %d coordinate values, |Y_i| = %d output values, G = {0, 1}\n",
           r.patches, c.d, c.m, a.co.seed, c.tests, r.l_nxi, r.l_nyi);
    printf("widths: d1 = %d ReLUs (10 d_in |X_i|), %d bumps psi, d2 = %d ReLUs (3 per tau), %d thresholds tau (d_in d_out |X|)\n", r.l_d1,
           r.l_d1p, r.l_d2, r.l_d2p);
    int ok = 1;
    for (int k = 0; k < 5; k++) {
      printf("  %-4s %8ld nonzeros, |U| = %ld (Lemma 6 bound %ld), all in U: %s\n", maps[k], r.l6.nnz[k], r.l6.size[k], r.l6.bound[k],
             r.l6.within[k] ? "yes" : "NO");
      ok &= r.l6.within[k] && r.l6.size[k] <= r.l6.bound[k];
    }
    printf("nonzero weights and biases: %ld\n", r.nonzeros);
    printf("max value error %.3g, max gradient error %.3g on X (vs f̄ and its flags)\n", r.max_verr, r.max_gerr);
    printf("time: compile %.3f s, check %.3f s\n", r.compile_s, r.check_s);
    if (!ok) return nnt_fail(NNT_ECHECK, "a weight outside Lemma 6's value sets");
    if (!(r.max_verr <= 1e-9 && r.max_gerr <= 1e-9)) return nnt_fail(NNT_ECHECK, "the Lemma 5 net differs from f̄ by more than 1e-9");
    return NNT_OK;
  }
  printf("rcnn compile: %s (%d states), K=%d, value universe %d (10 + 4|Q|, p included), structured compiler\n",
         c.learner, r.nstates, r.K, r.nvals);
  printf("cell MLP (input the 3x3 patch; the 4 diagonal columns of V1 are empty):\n");
  printf("  layer 1  V1 %d x 9, %ld nonzeros, + bias: %d ReLUs (4 per position and value, 2 per slope value)\n", r.h1, r.nnz_v1, r.h1);
  printf("  V3       %d x %d, %ld nonzeros: %d indicators + %d ramps (no bias, no ReLU)\n", r.nf, r.h1, r.nnz_v3, r.nind, r.nf - r.nind);
  printf("  layer 2  V4 %d x %d, %ld nonzeros, + bias: %d ReLUs for %d rule terms (%d with slope 1)\n", r.h2, r.nf, r.nnz_v4, r.h2,
         r.nterms, r.nslope);
  printf("  output   V5 1 x %d, %ld nonzeros; head g: 4 ReLUs\n", r.h2, r.nnz_v5);
  printf("nonzero weights and biases: %ld, distinct values: %ld (the finite weight-value set)\n", r.nonzeros, r.nweight_values);
  printf("visited: %ld distinct patches (rule level, parity d=%d m=%d seed=%llu: Algorithm 1 and %d predictions)\n", r.patches, c.d,
         c.m, a.co.seed, c.tests);
  printf("max value error %.3g, max gradient error %.3g (vs f̄ and its flags), reverse pass vs finite differences %.3g\n",
         r.max_verr, r.max_gerr, r.max_fd_err);
  printf("time: compile %.3f s, check %.3f s\n", r.compile_s, r.check_s);
  if (!(r.max_verr <= 1e-9 && r.max_gerr <= 1e-9))
    return nnt_fail(NNT_ECHECK, "the compiled net differs from f̄ by more than 1e-9");
  return NNT_OK;
}

static void snapshot_defaults(void *c, int quick) { nnt_rcnn_snapshot_cfg_default(c, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL); }

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
             "final (after L layers: only the output cell (1,1) is non-blank in the main grid).",
    .opts = snapshot_opts,
    .cfg_size = sizeof(nnt_rcnn_snapshot_cfg),
    .defaults = snapshot_defaults,
    .common = CLI_OUT};

static int run_snapshot(int argc, char **argv) {
  nnt_rcnn_snapshot_cfg c;
  cli_args a;
  int st = cli_parse(&snapshot_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  if (!a.co.out) return nnt_fail(NNT_EINVAL, "rcnn snapshot: --out DIR is required");
  c.seed = a.co.seed;
  if ((st = cli_begin(&a.co))) return st;
  nnt_rcnn_snapshot_result r;
  if ((st = nnt_rcnn_snapshot_run(&c, &r))) return st;
  char title[4][160];
  snprintf(title[0], sizeof title[0], "memorisation phase: SGD step %d, layer %d (%s, d=%d, m=%d)", r.step, r.mem_layer,
           nnt_rcnn_tm2d_learner_names[c.learner], c.d, c.m);
  snprintf(title[1], sizeof title[1], "memory layer at a test point after SGD: the XOR tape | 1s region");
  snprintf(title[2], sizeof title[2], "compute phase: layer %d of L=%d (TM step %d of t=%d)", r.compute_layer, r.L, r.compute_layer - 1, r.t);
  snprintf(title[3], sizeof title[3], "after L=%d layers: the output in cell (1,1)", r.L);
  const char *base[4] = {"memorise", "memory", "compute", "final"};
  const double *z[4] = {r.memorise, r.memory, r.compute, r.final};
  if (!(st = nnt_mkdirs(a.co.out)))
    for (int i = 0; i < 4 && !st; i++)
      st = nnt_heatmap_save(z[i], r.rows, r.cols, title[i], "column (features, label | 1s)", "row (examples, test point)", a.co.out,
                            base[i]);
  if (!st) {
    printf("rcnn snapshot: grid %d x %d (work %d), L=%d, t=%d\n", r.rows, r.cols, c.work, r.L, r.t);
    for (int i = 0; i < 4; i++) {
      printf("%s: %s\n", base[i], title[i]);
      for (int row = 0; row < r.rows; row++) {
        printf("  ");
        for (int col = 0; col < r.cols; col++) printf("%7.4f%s", z[i][row * r.cols + col], col == c.d ? " |" : "");
        printf("\n");
      }
    }
    printf("wrote %s/{memorise,memory,compute,final}.{png,svg}\n", a.co.out);
  }
  nnt_rcnn_snapshot_result_free(&r);
  return st;
}

static void restarts_defaults(void *c, int quick) { nnt_rcnn_restarts_cfg_default(c, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL); }

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
    .defaults = restarts_defaults,
};

static int run_restarts(int argc, char **argv) {
  nnt_rcnn_restarts_cfg c;
  cli_args a;
  int st = cli_parse(&restarts_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  c.seed = a.co.seed;
  if ((st = cli_begin(&a.co))) return st;
  nnt_rcnn_restarts_result r;
  if ((st = nnt_rcnn_restarts_run(&c, &r))) return st;
  printf("rcnn restarts: parity d=%d m=%d, K=%d learners drawn uniformly (p >= 1/K = %.4g), eps=%g delta=%g, seed=%llu\n", c.d, c.m,
         r.K, r.p_lb, c.eps, c.delta, a.co.seed);
  printf("Corollary 2 (corrected): M = ceil(ln(2/delta) / p) = %ld, N = ceil(2 ln(2M/delta) / eps^2) = %ld; used M=%ld%s N=%ld%s\n",
         r.M_formula, r.N_formula, r.M, c.restarts ? " (--restarts)" : "", r.N, c.validation ? " (--validation)" : "");
  printf("trials: %d datasets, %d learners each (RCNN vs direct TM: %ld disagreements), opt = 0 on %ld; %ld wrapper runs\n",
         c.trials, r.K, r.disagree, r.opt_zero, r.seqs);
  printf("restart success rate       %.4f   (bound: >= %.4f)   %s\n", r.p_hat, r.p_lb, r.p_ok ? "ok" : "VIOLATED");
  printf("no successful restart      %.4f   (expected %.4f; (1-p)^M = %.4g, bound delta/2 = %g)   %s\n", r.q_hat, r.q_exact,
         pow(1 - r.p_lb, (double)r.M), c.delta / 2, r.q_ok ? "ok" : "VIOLATED");
  printf("selection > best + eps     %.4f   (bound: delta/2 = %g)   %s\n", r.select_hat, c.delta / 2, r.select_ok ? "ok" : "VIOLATED");
  printf("output > opt + eps         %.4f   (bound: delta = %g)   %s\n", r.fail_hat, c.delta, r.fail_ok ? "ok" : "VIOLATED");
  printf("time: %.2f s\n", r.seconds);
  if (r.disagree) return nnt_fail(NNT_ECHECK, "the RCNN disagrees with the direct TM on %ld predictions", r.disagree);
  if (!(r.p_ok && r.q_ok && r.select_ok && r.fail_ok))
    return nnt_fail(NNT_ECHECK, "a measured rate is outside its Corollary 2 bound (4 standard deviations)");
  return NNT_OK;
}

static const cli_sub subs[] = {
    {"learn", run_learn, "a parity learned by a 2-D TM inside the rule-level RCNN, checked against the direct TM"},
    {"compile", run_compile, "f̄ compiled into a sparse ReLU MLP per cell, checked on every visited patch"},
    {"snapshot", run_snapshot, "grid snapshots of the memorisation and compute phases as images (the paper's Figure 3)"},
    {"restarts", run_restarts, "Corollary 2's restarts and validation run on a toy, measured against its bounds"},
};

int cmd_rcnn(int argc, char **argv) { return cli_dispatch("rcnn", subs, 4, argc, argv); }
