/* nnt bounds sm — the evaluable quantities of seed 000's sample-complexity statements (Lemma 2.3,
 * Theorems 3.1 and 4.1) for a compiled circuit or Turing machine, with the VC-type alternatives. */
#include <string.h>

#include "commands.h"
#include "nnt_bounds.h"
#include "nnt_io.h"
#include "nnt_progress.h"
#include "nnt_tm.h"
#include "record.h"
#include "report_bounds.h"
#ifdef NNT_HAVE_CIRCUITS
#include "nnt_circuits.h"
#include "verilog_circuits.h"
#endif

/* The area's cfg (first member, so its options' offsets hold), --top, and the runs' configs. */
typedef struct {
  nnt_bounds_sm_cfg c;
  const char *top;
  nnt_tm_sm_cfg tm;
#ifdef NNT_HAVE_CIRCUITS
  nnt_circuit_sm_cfg circuit;
  nnt_circuit_src src;
#endif
} sm_cli;
typedef union {
  nnt_tm_sm_result tm;
#ifdef NNT_HAVE_CIRCUITS
  nnt_circuit_sm_result circuit;
#endif
} sm_res;

static void sm_default(void *cfg, nnt_preset p) {
  memset(cfg, 0, sizeof(sm_cli));
  nnt_bounds_sm_cfg_default(cfg, p);
}
static int sm_validate(void *cfg, const cli_run *r) {
  sm_cli *w = cfg;
  nnt_bounds_sm_cfg *c = &w->c;
  if (!!c->tm + !!c->circuit != 1) return nnt_fail(NNT_EINVAL, "give exactly one of --tm and --circuit");
  if (c->tm && w->top) return nnt_fail(NNT_EINVAL, "--top belongs to --circuit");
  if (c->tm) {
    if (c->T < 0) return nnt_fail(NNT_EINVAL, "--tm needs --steps N");
    if (c->max_T > 0 && c->T > c->max_T) c->T = c->max_T;
    /* the T sweep certifies gamma up to 100 steps under --quick; --gamma holds it fixed instead */
    w->tm = (nnt_tm_sm_cfg){c->tm, c->T, c->gamma > 0 ? 0 : c->max_T > 0 ? 100 : NNT_TM_MARGIN_MAX_T, r->seed};
    return nnt_tm_sm_check(&w->tm);
  }
  if (c->T >= 0) return nnt_fail(NNT_EINVAL, "--steps belongs to --tm");
#ifdef NNT_HAVE_CIRCUITS
  w->circuit.seed = r->seed;
  return nnt_circuit_src_read(c->circuit, w->top, &w->src, &w->circuit.file);
#else
  return nnt_fail(NNT_EINVAL, "--circuit: this build has no circuits module");
#endif
}
static int sm_run(void *cfg, const cli_run *r, void *res) {
  sm_cli *w = cfg;
  (void)r;
#ifdef NNT_HAVE_CIRCUITS
  if (w->c.circuit) return nnt_circuit_sm_run(&w->circuit, res);
#endif
  return nnt_tm_sm_run(&w->tm, res);
}
#ifdef NNT_HAVE_CIRCUITS
static void print_src(const void *src) { nnt_circuit_src_print(src); }
#endif
static int sm_report(const void *cfg, const void *res, const cli_run *r) {
  const sm_cli *w = cfg;
#ifdef NNT_HAVE_CIRCUITS
  if (w->c.circuit) return nnt_report_bounds_sm_circuit(r->out, &w->c, res, print_src, &w->src);
#endif
  return nnt_report_bounds_sm_tm(r->out, &w->c, &w->tm, res, NULL);
}
static struct cJSON *sm_result_json(const void *cfg, const void *res) {
  const sm_cli *w = cfg;
#ifdef NNT_HAVE_CIRCUITS
  if (w->c.circuit) return nnt_report_bounds_sm_circuit_json(&w->c, res);
#endif
  return nnt_report_bounds_sm_tm_json(&w->c, &w->tm, res);
}
static void sm_cfg_free(void *cfg) {
#ifdef NNT_HAVE_CIRCUITS
  nnt_circuit_src_close(&((sm_cli *)cfg)->src);
#else
  (void)cfg;
#endif
}
static const cli_opt sm_opts[] = {
    CLI_STR("tm", nnt_bounds_sm_cfg, tm, "a machine file or standard-notation string (see nnt tm --help)"),
    CLI_LONG("steps", nnt_bounds_sm_cfg, T, 1, 100000, "machine steps, with --tm (the net is run; --quick caps T at 200)"),
    CLI_STR("circuit", nnt_bounds_sm_cfg, circuit, ".bench, .blif or .aag circuit, or a Verilog design (.v, .sv; needs yosys)"),
    CLI_STR("top", sm_cli, top, "--circuit Verilog: its top module (default: the one no module instantiates)"),
    CLI_DOUBLE("gamma", nnt_bounds_sm_cfg, gamma, 1e-300, 1e300,
               "margin used in Lemma 2.3 (default: the certified all-layer margin; --circuit: min over every input\n"
               "up to 8 inputs, else over 64 random ones)"),
    CLI_DOUBLE("eps", nnt_bounds_sm_cfg, eps, 1e-12, 1, "target error for the sample sizes"),
    {0}};
static const cli_cmd sm_cmd = {
    .name = "bounds sm",
    .example = "nnt bounds sm --tm examples/tm/bb4.tm --steps 107\n"
               "nnt bounds sm --circuit examples/circuits/adder10.bench --eps 0.05",
    .args = "--tm MACHINE --steps N | --circuit FILE",
    .about = "Compiles the machine (or circuit) with the constructions of Wei, Chen & Ma, checks it, and\n"
             "evaluates what can be evaluated of Lemma 2.3 and Theorem 4.1 (or 3.1): sizes W, d, p, the norm\n"
             "alpha = ||theta||_1, the ingredients of the all-layer-margin lower bound (rounding radius 1/3,\n"
             "attention score gap, layer norms lambda), for a machine the all-layer margin itself (certified\n"
             "lower bound, used as gamma, and an attack's upper bound; T <= 10000), and the generalisation\n"
             "bound as a function of n next to a VC-type bound, plus a sweep over T (or over the width w).\n"
             "Constants the paper leaves unspecified are set to 1 and listed in the output.",
    .opts = sm_opts,
    .cfg_size = sizeof(sm_cli),
    .res_size = sizeof(sm_res),
    .cfg_default = sm_default,
    .validate = sm_validate,
    .run = sm_run,
    .report = sm_report,
    .result_json = sm_result_json,
    .cfg_free = sm_cfg_free,
    .common = CLI_OUT,
};
static int cmd_sm(int argc, char **argv) { return cli_drive(&sm_cmd, argc, argv); }

/* ---------------------------------------------------------------- rcnn (seed 002) */
static void rcnn_default(void *cfg, nnt_preset p) { nnt_bounds_rcnn_cfg_default(cfg, p); }
static int rcnn_validate(void *cfg, const cli_run *r) {
  nnt_bounds_rcnn res; /* the formulas' own checks (pure and instant) */
  return (void)r, nnt_bounds_rcnn_eval(cfg, &res);
}
static int rcnn_run(void *cfg, const cli_run *r, void *res) { return (void)r, nnt_bounds_rcnn_eval(cfg, res); }
static int rcnn_report(const void *cfg, const void *res, const cli_run *r) { return nnt_report_bounds_rcnn(r->out, cfg, res); }
#define R nnt_bounds_rcnn_cfg
static const cli_opt rcnn_opts[] = {
    CLI_INT("s", R, s, 2, 1000000, "TM states"),
    CLI_DOUBLE("eps", R, eps, 1e-300, 1, "Corollary 2: target excess error"),
    CLI_DOUBLE("delta", R, delta, 1e-300, 1, "Corollary 2: failure probability"),
    CLI_INT("d", R, d, 1, 1000000000, "input bits"),
    CLI_INT("m", R, m, 1, 1000000000, "training examples"),
    CLI_INT("k", R, k, 1, 1000, "exponent of the time budget t = (2dm)^k (Definition 3, Corollary 2)"),
    CLI_DOUBLE("t", R, t, 0, 1e300, "TM steps (default (2dm)^k)"),
    CLI_DOUBLE("log10-M", R, log10_M_obs, 1e-300, 1e300, "Observation 1 / Algorithm 2: log10 of the second sample's size M"),
    {0}};
#undef R
static const cli_cmd rcnn_cmd = {
    .name = "bounds rcnn",
    .example = "nnt bounds rcnn --s 4 --eps 0.1 --delta 0.05 --d 8 --m 18",
    .about = "Theorem 1 / Corollary 2 of Goel, Kakade, Kalai & Zhang (seed 002) in log10: parameter counts of\n"
             "Algorithm 1's RCNN, |U_s| = 384 s + 5, the probability |U_s|^(-P) of drawing the constructed\n"
             "filter, the corrected restart count M = ln(2/delta)/P(success) and validation size\n"
             "N = 2 ln(2M/delta)/eps^2, the depth L = max(m+1, m+d+1, t+1), Observation 1's r and\n"
             "Algorithm 2's loop bound. Pure formulas: nothing is run. With --out, DIR/rcnn.csv.",
    .opts = rcnn_opts,
    .cfg_size = sizeof(nnt_bounds_rcnn_cfg),
    .res_size = sizeof(nnt_bounds_rcnn),
    .cfg_default = rcnn_default,
    .validate = rcnn_validate,
    .run = rcnn_run,
    .report = rcnn_report,
    .common = CLI_OUT,
};
static int cmd_rcnn(int argc, char **argv) { return cli_drive(&rcnn_cmd, argc, argv); }



/* ---------------------------------------------------------------- tour */

/* The tour's section: Theorem 4.1 / Lemma 2.3 for BB(3) (the sm command's --tm path, written under
 * DIR/bounds/), then the sizes in a table. The check is the compiled transformer's exact run. */
int tour_bounds(cli_tour *t) {
  static const char machine[] = "1RB1RZ_1LB0RC_1LC1LA"; /* BB(3): halts after 21 steps */
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "bounds");
  sm_cli w; /* what `nnt bounds sm --quick --tm MACHINE --steps 21` runs */
  sm_default(&w, NNT_PRESET_QUICK);
  w.c.tm = machine, w.c.T = 21;
  w.tm = (nnt_tm_sm_cfg){machine, 21, 100, t->seed};
  nnt_tm_sm_result res;
  nnt_bounds_sm_summary r;
  double t0 = nnt_now();
  int st = cli_prepare_out(dir);
  if (!st) st = nnt_tm_sm_run(&w.tm, &res);
  if (st) return st;
  st = nnt_report_bounds_sm_tm(dir, &w.c, &w.tm, &res, &r);
  if (!st || st == NNT_ECHECK) {
    int wr = nnt_runinfo_write_result(dir, sm_cmd.name, cli_record_config(&sm_cmd, &w, 1),
                                      nnt_report_bounds_sm_tm_json(&w.c, &w.tm, &res), t->seed, t->threads, nnt_now() - t0);
    if (wr) st = wr;
  }
  if ((st = cli_tour_checked(t, st))) return st;
  const nnt_bounds_model *m = &r.m;
  double nL = nnt_bounds_lemma23_n(m->alpha, m->params, m->gamma, r.eps), nV = nnt_bounds_vc_n(m->vc, r.eps);
  cli_tour_printf(t, "## Sample-complexity bounds (seed 000, Lemma 2.3, Theorem 4.1)\n\n"
                  "The busy beaver BB(3) (`%s`, T = 21 steps) compiled into a transformer and run exactly "
                  "(`nnt bounds sm --tm %s --steps 21`); its sizes go into Lemma 2.3's sample count "
                  "n = (α² ln p / γ² + 1) / ε² and into the VC-type count n = w T / ε², both with constant 1 (the paper "
                  "leaves constants and polylog factors open). ",
                  machine, machine);
  if (r.rho_lower > 0 && m->gamma == r.rho_lower)
    cli_tour_printf(t, "γ is a certified lower bound on the all-layer margin of eq. 2.1 (perturbations of all p parameters, "
                    "box and l2-ball bound propagation through the 22 decoder steps); the smallest decision-flipping perturbation "
                    "found, checked by a run, has norm %.4g: the true margin lies between the two.\n\n", r.rho_upper);
  else
    cli_tour_printf(t, "γ is the %s.\n\n", r.gamma_src);
  cli_tour_printf(t, "| W | d | p | α = ‖θ‖₁ | λ | γ | margin ≤ | ε | n, Lemma 2.3 | n, VC-type | ratio |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|\n"
                  "| %.0f | %.0f | %.0f | %.0f | %.4g | %.4g | %.4g | %g | %.4g | %.4g | %.3g |\n\n",
                  m->width, m->depth, m->params, m->alpha, m->lambda, m->gamma, r.rho_upper, r.eps, nL, nV,
                  nnt_bounds_ratio(m));
  if (r.cross > 0)
    cli_tour_printf(t, "Sweeping T (the machine's steps, compiled only) with γ fixed: the Lemma 2.3 count is the smaller "
                    "one from T = %.0e on. At T = 21 it is %.3g times the VC-type count.\n\n", r.cross, nnt_bounds_ratio(m));
  else
    cli_tour_printf(t, "Sweeping T (the machine's steps, compiled only) with γ fixed: the Lemma 2.3 count stays above the "
                    "VC-type one up to T = 1e15.\n\n");
  cli_tour_printf(t, "![bound vs samples](bounds/bound_vs_n.png) ![samples vs T](bounds/sweep.png)\n");
  if (r.cross > 0)
    cli_tour_outcome(t, "At T = 21 the margin bound asks for %.3g times the VC-type count, but it grows only "
                     "polylogarithmically in T: it becomes the smaller one from T = %.0e on.", nnt_bounds_ratio(m), r.cross);
  else
    cli_tour_outcome(t, "At T = 21 the margin bound asks for %.3g times the VC-type count and stays above it up to "
                     "T = 1e15.", nnt_bounds_ratio(m));
  return NNT_OK;
}

static const cli_sub subs[] = {
    {"sm", cmd_sm, "--tm MACHINE --steps N | --circuit FILE: Lemma 2.3 and Theorems 3.1 / 4.1, evaluated"},
    {"rcnn", cmd_rcnn, "--s S --eps E --delta D: Theorem 1 / Corollary 2 of seed 002 (RCNNs), in log10"},
};

int cmd_bounds(int argc, char **argv) { return cli_dispatch("bounds", subs, 2, argc, argv); }
