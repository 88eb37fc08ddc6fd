/* nnt bounds sm — the evaluable quantities of seed 000's sample-complexity statements (Lemma 2.3,
 * Theorems 3.1 and 4.1) for a compiled circuit or Turing machine, with the VC-type alternatives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_bounds.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_progress.h"
#include "nnt_tm.h"
#include "report_bounds.h"
#ifdef NNT_HAVE_CIRCUITS
#include "nnt_circuits.h"
#include "verilog_circuits.h"
#endif

static const char *unspecified =
    "not specified by the paper (set to 1 here): the constant and polylog factors of Lemma 2.3's O~;\n"
    "  the Lipschitz constants of Condition D.3 behind Theorem D.6's margin (only 'poly' is given, and\n"
    "  (D.5) is partly unreadable in the seed), so the paper's gamma cannot be evaluated: --tm measures\n"
    "  a certified lower bound instead, --circuit uses the illustrative sigma_zeta/(2 lambda); the constants\n"
    "  of the VC comparisons (ReLU nets: p d log2 p; transformers over T steps: w T).\n";

typedef struct {
  nnt_bounds_model m;
  double eps;
  const char *gamma_src; /* what gamma is */
  double rho_lower, rho_upper; /* --tm: the all-layer margin's bounds (rho_lower < 0: not computed) */
  double cross; /* the sweep's first value where the Lemma 2.3 count is the smaller one; <= 0: none */
} report;

static int write_bound_vs_n(const char *out, const report *r, const char *vc_label, int *printed) {
  double ns[NNT_BOUNDS_CURVE], eL[NNT_BOUNDS_CURVE], eV[NNT_BOUNDS_CURVE];
  int k = NNT_BOUNDS_CURVE;
  nnt_bounds_curve(&r->m, ns, eL, eV);
  printf("\ngeneralisation bound vs samples n (epsilon such that the population 0-1 loss <= epsilon w.p. 0.99):\n"
         "%12s %16s %16s\n", "n", "Lemma 2.3", vc_label);
  for (int i = 0; i < k; i++) printf("%12.0e %16.4g %16.4g\n", ns[i], eL[i], eV[i]);
  *printed = k;
  if (!out) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, out, "bound_vs_n.csv", "n,eps_lemma23,eps_vc");
  if (st) return st;
  for (int i = 0; i < k; i++) nnt_csv_row(&csv, "%.6g,%.6g,%.6g", ns[i], eL[i], eV[i]);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("generalisation bound vs samples (constants 1)", "samples n", "epsilon");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, k, ns, eL, "Lemma 2.3 (all-layer margin)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, k, ns, eV, vc_label, NNT_PLOT_LINE | NNT_PLOT_DASHED);
  st = nnt_plot_save(p, out, "bound_vs_n");
  nnt_plot_free(p);
  return st;
}

static void print_model(const report *r) {
  const nnt_bounds_model *m = &r->m;
  printf("lemma 2.3 inputs: alpha=%.6g p=%.6g (ln p = %.3f) gamma=%.4g (%s) lambda=%.4g\n", m->alpha, m->params,
         log(m->params), m->gamma, r->gamma_src, m->lambda);
  double nL = nnt_bounds_lemma23_n(m->alpha, m->params, m->gamma, r->eps), nV = nnt_bounds_vc_n(m->vc, r->eps);
  printf("samples for epsilon=%g: Lemma 2.3 n=%.4g, VC-type n=%.4g (VC scale %.4g); ratio %.3g\n", r->eps, nL, nV, m->vc,
         nnt_bounds_ratio(m));
}

/* Points where nL is NaN (no certified gamma) are left out of the Lemma 2.3 curve. */
static int plot_sweep(const char *out, const char *name, const char *title, const char *xlabel, int k, const double *x,
                      const double *nL, const double *nV, const char *vc_label) {
  nnt_plot *p = nnt_plot_new(title, xlabel, "samples n for the target epsilon");
  nnt_plot_log(p, 1, 1);
  double xl[16], yl[16];
  int kl = 0;
  for (int i = 0; i < k && kl < 16; i++)
    if (isfinite(nL[i])) xl[kl] = x[i], yl[kl++] = nL[i];
  nnt_plot_add(p, kl, xl, yl, "Lemma 2.3 (all-layer margin)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, k, x, nV, vc_label, NNT_PLOT_LINE | NNT_PLOT_DASHED);
  int st = nnt_plot_save(p, out, name);
  nnt_plot_free(p);
  return st;
}

/* cert_max: the sweep certifies gamma up to this T (--quick: 100, else NNT_TM_MARGIN_MAX_T). */
static int bounds_tm(const cli_common *co, const char *machine, long T, report *r, double gamma, long cert_max) {
  nnt_tm tm;
  int st = nnt_tm_load(machine, &tm);
  if (st) return st;
  if ((st = cli_begin(co))) return nnt_tm_free(&tm), st;
  double t0 = nnt_now();
  nnt_tm_trace tr;
  nnt_tm_net net;
  nnt_tm_run_result res;
  nnt_tm_simulate(&tm, T, &tr);
  if ((st = nnt_tm_compile(&tm, T, &net))) return nnt_tm_trace_free(&tr), nnt_tm_free(&tm), st;
  nnt_tm_run_opts ro = {.attention = NNT_TM_HARD, .precision = NNT_TM_F64};
  st = nnt_tm_net_run(&net, &tm, &tr, &ro, &res);
  nnt_tm_net_stats s = nnt_tm_net_stats_of(&net);
  /* The all-layer margin (eq. 2.1) of this run's decision: certified by interval propagation up to
   * NNT_TM_MARGIN_MAX_T steps, attacked by checked perturbations at any T (random directions only
   * up to the cap, as each costs ~13 runs). */
  int certify = T <= NNT_TM_MARGIN_MAX_T;
  double rho_lo = 0, tm0 = nnt_now();
  nnt_tm_margin_est ub = {0};
  if (!st && certify) st = nnt_tm_margin_lower(&net, &tm, &rho_lo);
  if (!st) st = nnt_tm_margin_upper(&net, &tm, &tr, certify ? 2 : 0, co->seed, &ub);
  double margin_s = nnt_now() - tm0;
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  if (st) return nnt_tm_free(&tm), st;
  double lt = log2((double)T), scale = (double)tm.k * tm.nsym + lt;
  printf("Theorem 4.1 / Lemma 2.3 for %s: k=%d states, |A|=%d symbols, T=%ld\n", machine, tm.k, tm.nsym, T);
  printf("construction (run and checked: steps_checked=%ld mismatches=%ld):\n", res.steps_checked, res.mismatches);
  printf("  W=%d (residual width %d), d=%d transformer layers, p=%ld (dense F_{W,d}), nonzero=%ld, alpha=||theta||_1=%.0f\n",
         s.max_width, s.w, s.layers, s.params_dense, s.nonzero, s.l1);
  printf("  theorem scales: W/(k|A|+log2 T)=%.3g  d/log2 T=%.3g  alpha/(k|A|+log2 T)^2=%.3g\n", s.max_width / scale,
         s.layers / (lt > 1 ? lt : 1), s.l1 / (scale * scale));
  printf("margin ingredients: rounding radius sigma_zeta=1/3; smallest attention score gap %g (proof: >= 1); "
         "lambda = max ||h||_2 = %.4g (measured over the run)\n", res.min_score_gap, res.lambda);
  printf("all-layer margin (eq. 2.1; decision theta_cls^T o_T = %g; perturbations of all p parameters, shared by the T+1 "
         "steps):\n", res.output);
  if (certify)
    printf("  certified lower bound %.4g (interval propagation, nnt_tm_margin_lower)\n", rho_lo);
  else
    printf("  certified lower bound not computed: T=%ld > %d (its cost grows as T^2)\n", T, NNT_TM_MARGIN_MAX_T);
  printf("  upper bound %.4g (%s; %d flipping perturbations in %ld checked runs)\n", ub.rho, ub.how, ub.flips, ub.runs);
  if (certify && rho_lo > 0) printf("  upper/lower %.4g; %.2f s\n", ub.rho / rho_lo, margin_s);
  else printf("  %.2f s\n", margin_s);
  r->m = (nnt_bounds_model){s.max_width, s.layers, (double)s.params_dense, s.l1, res.lambda, 0,
                            nnt_bounds_vc_transformer(s.max_width, (double)T)};
  r->rho_lower = certify ? rho_lo : -1, r->rho_upper = ub.rho;
  if (gamma > 0) r->m.gamma = gamma;
  else if (certify && rho_lo > 0) r->m.gamma = rho_lo, r->gamma_src = "certified all-layer margin";
  else
    r->m.gamma = nnt_bounds_gamma_default(res.lambda),
    r->gamma_src = !certify          ? "T above the certification cap: illustrative sigma_zeta/(2 lambda)"
                   : res.output == 0 ? "no decision (F = 0, not halted): illustrative sigma_zeta/(2 lambda)"
                                     : "nothing certified: illustrative sigma_zeta/(2 lambda)";
  print_model(r);
  fputs(unspecified, stdout);
  int k;
  if ((st = write_bound_vs_n(co->out, r, "VC-type (w T)", &k))) return nnt_tm_free(&tm), st;
  /* T sweep: gamma per T, the certified margin of the net compiled for T (run on the machine's
   * input) up to the certification cap; above it nothing is certified and the Lemma 2.3 column is
   * left empty rather than filled with an unproven gamma. --gamma holds gamma fixed instead. */
  if (gamma > 0) cert_max = 0;
  printf("\nsweep over T (%s; epsilon=%g):\n%8s %5s %4s %12s %12s %12s %14s %14s\n",
         gamma > 0 ? "gamma fixed by --gamma" : "gamma = the certified margin at each T", r->eps, "T", "W", "d", "alpha", "p", "gamma",
         "n Lemma 2.3", "n VC (wT)");
  double xs[16], nLs[16], nVs[16], gs[16];
  int ns = 0;
  double cross = -1;
  for (int e = 1; e <= 15; e++) {
    long Ts = (long)pow(10, e);
    nnt_tm_net nt;
    if ((st = nnt_tm_compile(&tm, Ts, &nt))) break;
    nnt_tm_net_stats ss = nnt_tm_net_stats_of(&nt);
    double g = gamma > 0 ? gamma : -1;
    if (Ts <= cert_max && !(st = nnt_tm_margin_lower(&nt, &tm, &g)) && !(g > 0)) g = -1;
    nnt_tm_net_free(&nt);
    if (st) break;
    double nL = g > 0 ? nnt_bounds_lemma23_n(ss.l1, (double)ss.params_dense, g, r->eps) : NAN;
    double nV = nnt_bounds_vc_n(nnt_bounds_vc_transformer(ss.max_width, (double)Ts), r->eps);
    if (cross < 0 && nL < nV) cross = (double)Ts;
    printf("%8.0e %5d %4d %12.0f %12ld ", (double)Ts, ss.max_width, ss.layers, ss.l1, ss.params_dense);
    if (g > 0) printf("%12.4g %14.4g %14.4g\n", g, nL, nV);
    else printf("%12s %14s %14.4g\n", Ts <= cert_max ? "0" : "-", "-", nV);
    xs[ns] = (double)Ts, gs[ns] = g, nLs[ns] = nL, nVs[ns++] = nV;
  }
  if (st) return nnt_tm_free(&tm), st;
  r->cross = cross;
  if (cross > 0) printf("the Lemma 2.3 bound is the smaller one from T = %.0e on (constants 1)\n", cross);
  else if (gamma > 0) printf("the Lemma 2.3 bound stays above the VC-type one up to T = 1e15 (constants 1)\n");
  else printf("the Lemma 2.3 bound (certified gamma) stays above the VC-type one wherever gamma is certified (T <= %ld)\n", cert_max);
  nnt_tm_free(&tm);
  if (co->out) {
    nnt_csv csv;
    if ((st = nnt_csv_open(&csv, co->out, "sweep.csv", "T,gamma,n_lemma23,n_vc"))) return st;
    for (int i = 0; i < ns; i++)
      if (isfinite(nLs[i])) nnt_csv_row(&csv, "%.6g,%.6g,%.6g,%.6g", xs[i], gs[i], nLs[i], nVs[i]);
      else nnt_csv_row(&csv, "%.6g,,,%.6g", xs[i], nVs[i]);
    if ((st = nnt_csv_close(&csv))) return st;
    if ((st = plot_sweep(co->out, "sweep", "Turing machines: samples needed vs T", "T (machine steps)", ns, xs, nLs, nVs,
                         "VC-type (w T)")))
      return st;
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddStringToObject(cfg, "tm", machine);
    cJSON_AddNumberToObject(cfg, "T", (double)T);
    cJSON_AddNumberToObject(cfg, "gamma", r->m.gamma);
    cJSON_AddStringToObject(cfg, "gamma_source", r->gamma_src);
    if (r->rho_lower >= 0) cJSON_AddNumberToObject(cfg, "margin_certified_lower", r->rho_lower);
    if (isfinite(r->rho_upper)) cJSON_AddNumberToObject(cfg, "margin_upper", r->rho_upper);
    cJSON_AddNumberToObject(cfg, "eps", r->eps);
    cJSON_AddNumberToObject(cfg, "alpha", r->m.alpha);
    cJSON_AddNumberToObject(cfg, "params", r->m.params);
    st = nnt_runinfo_write(co->out, "bounds sm --tm", cfg, co->seed, co->threads, nnt_now() - t0);
  }
  if (!st && res.mismatches) st = nnt_fail(NNT_ECHECK, "the compiled transformer disagrees with the simulation");
  if (!st) {
    if (certify) printf("gamma_certified=%.4g gamma_attack=%.4g\n", rho_lo, ub.rho);
    else printf("gamma_certified=none gamma_attack=%.4g\n", ub.rho);
  }
  return st;
}

#ifdef NNT_HAVE_CIRCUITS
static int bounds_circuit(const cli_common *co, const char *file, const char *top, report *r, double gamma) {
  nnt_circuit c;
  cli_circuit_src src;
  int st = cli_circuit_open(file, top, &src);
  if (st) return st;
  st = nnt_circuit_read(src.path, &c);
  cli_circuit_close(&src);
  if (st) return st;
  if ((st = cli_begin(co))) return nnt_circuit_free(&c), st;
  double t0 = nnt_now();
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_mlp net;
  nnt_mlp_init(&net);
  nnt_circuit_compile(&L, 1, &net);
  nnt_smlp sp;
  nnt_smlp_from_dense(&sp, &net);
  nnt_circuit_verify_counts v = nnt_circuit_verify(&c, &sp, 16, 20000, co->seed);
  nnt_smlp_free(&sp);
  nnt_mlp_stats s = nnt_mlp_stats_of(&net);
  double lam = nnt_circuit_net_lambda(&net, c.ninputs, co->seed);
  /* p of the dense architecture F_{W,d}: input m, hidden width W, output width of the last layer */
  int W = s.max_width, d = s.layers;
  double p = nnt_bounds_relu_params(c.ninputs, W, d, s.output_dim);
  printf("Theorem 3.1 / Lemma 2.3 for %s: m=%d inputs, layered depth q=%d, width r=%d, size s=%ld (%ld ID gates)\n", file,
         c.ninputs, L.depth, L.width_max, L.size, L.id_gates);
  cli_circuit_print_src(&src);
  printf("construction with correction layers (checked on %ld inputs%s: mismatches=%ld):\n", v.checked,
         v.exhaustive ? ", exhaustive" : ", random", v.mismatches);
  printf("  W=%d, d=%d ReLU layers, p=%.0f (dense F_{W,d}), nonzero=%ld, alpha=||theta||_1=%.0f\n", W, d, p,
         s.nonzero_params, s.l1_norm);
  printf("  theorem scales: W/r=%.3g  alpha/s=%.3g  d/q=%.3g\n", (double)W / L.width_max, s.l1_norm / (double)L.size,
         (double)d / L.depth);
  printf("margin ingredients: rounding radius sigma_zeta=1/3; lambda = max ||h||_2 = %.4g (measured, %s)\n", lam,
         c.ninputs <= 12 ? "every input" : "4096 random inputs");
  r->m = (nnt_bounds_model){W, d, p, s.l1_norm, lam, 0, nnt_bounds_vc_relu(p, d)};
  /* gamma: the layerwise-Lipschitz certificate of the circuits module (proven; over every input
   * when m <= 8, else over 64 random ones: a proof at those inputs only), the illustrative
   * sigma_zeta/(2 lambda) printed beside it; --gamma overrides. */
  long count;
  double cert = nnt_circuit_margin_certified(&net, c.ninputs, co->seed, &count), illus = nnt_bounds_gamma_default(lam);
  if (gamma > 0) r->m.gamma = gamma;
  else if (cert > 0)
    r->m.gamma = cert, r->gamma_src = c.ninputs <= 8 ? "certified margin, min over every input"
                                                      : "certified margin, min over 64 random inputs (proven at those only)";
  else r->m.gamma = illus, r->gamma_src = "nothing certified: illustrative sigma_zeta/(2 lambda)";
  print_model(r);
  printf("certified margin lower bound (layerwise Lipschitz, nnt_circuit_margin_lower; min over %ld %s inputs and %d "
         "outputs): gamma >= %.4g; illustrative sigma_zeta/(2 lambda) = %.4g -> Lemma 2.3 n=%.4g for epsilon=%g\n",
         count, c.ninputs <= 8 ? "(all)" : "random", s.output_dim, cert, illus, nnt_bounds_lemma23_n(s.l1_norm, p, illus, r->eps),
         r->eps);
  fputs(unspecified, stdout);
  int k;
  if ((st = write_bound_vs_n(co->out, r, "VC-type (p d log2 p)", &k))) goto done;
  /* Width sweep: Theorem 3.1's point, the bound grows like log w while VC grows like w^2. Extra
   * units are zero (alpha, lambda, gamma unchanged); only p changes. */
  printf("\nsweep over the network width w (alpha, gamma = %.4g unchanged: the extra units are zero; epsilon=%g):\n%8s %14s %14s %14s\n",
         r->m.gamma, r->eps, "w", "p",
         "n Lemma 2.3", "n VC");
  double xs[8], nLs[8], nVs[8];
  for (int i = 0; i < 7; i++) {
    double w = (double)W * (1 << i);
    double pw = nnt_bounds_relu_params(c.ninputs, w, d, s.output_dim);
    xs[i] = w, nLs[i] = nnt_bounds_lemma23_n(s.l1_norm, pw, r->m.gamma, r->eps);
    nVs[i] = nnt_bounds_vc_n(nnt_bounds_vc_relu(pw, d), r->eps);
    printf("%8.0f %14.4g %14.4g %14.4g\n", w, pw, nLs[i], nVs[i]);
  }
  int cross = -1;
  for (int i = 6; i >= 0 && nLs[i] < nVs[i]; i--) cross = i;
  if (cross >= 0) printf("the Lemma 2.3 bound is the smaller one from w = %.0f on (constants 1)\n", xs[cross]);
  else {
    /* beyond the table: the first doubling of w where the Lemma 2.3 count is the smaller one */
    double w = xs[6];
    for (int i = 0; i < 60; i++) {
      w *= 2;
      double pw = nnt_bounds_relu_params(c.ninputs, w, d, s.output_dim);
      if (nnt_bounds_lemma23_n(s.l1_norm, pw, r->m.gamma, r->eps) < nnt_bounds_vc_n(nnt_bounds_vc_relu(pw, d), r->eps)) break;
    }
    printf("the Lemma 2.3 bound stays above the VC-type one up to w = %.0f; it is the smaller one from w = %.4g = 2^%.0f W on "
           "(constants 1; doubling w)\n", xs[6], w, log2(w / W));
  }
  if (co->out) {
    nnt_csv csv;
    if ((st = nnt_csv_open(&csv, co->out, "sweep.csv", "w,n_lemma23,n_vc"))) goto done;
    for (int i = 0; i < 7; i++) nnt_csv_row(&csv, "%.6g,%.6g,%.6g", xs[i], nLs[i], nVs[i]);
    if ((st = nnt_csv_close(&csv))) goto done;
    if ((st = plot_sweep(co->out, "sweep", "circuits: samples needed vs network width", "width w", 7, xs, nLs, nVs,
                         "VC-type (p d log2 p)")))
      goto done;
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddStringToObject(cfg, "circuit", file);
    cJSON_AddNumberToObject(cfg, "gamma", r->m.gamma);
    cJSON_AddNumberToObject(cfg, "eps", r->eps);
    cJSON_AddNumberToObject(cfg, "alpha", r->m.alpha);
    cJSON_AddNumberToObject(cfg, "params", r->m.params);
    st = nnt_runinfo_write(co->out, "bounds sm --circuit", cfg, co->seed, co->threads, nnt_now() - t0);
  }
  if (!st && v.mismatches) st = nnt_fail(NNT_ECHECK, "the compiled net disagrees with the circuit");
done:
  nnt_mlp_free(&net);
  nnt_circuit_layered_free(&L);
  nnt_circuit_free(&c);
  return st;
}
#endif

static void defaults(void *cfg, int quick) { nnt_bounds_sm_cfg_default(cfg, quick); }
/* The area's cfg (first member, so its options' offsets hold) plus --top for a Verilog circuit. */
typedef struct {
  nnt_bounds_sm_cfg c;
  const char *top;
} sm_cli;
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
             "lower bound, used as gamma, and an attack's upper bound; T <= 1000), and the generalisation\n"
             "bound as a function of n next to a VC-type bound, plus a sweep over T (or over the width w).\n"
             "Constants the paper leaves unspecified are set to 1 and listed in the output.",
    .opts = sm_opts,
    .cfg_size = sizeof(sm_cli),
    .defaults = defaults,
    .common = CLI_OUT,
};

static int cmd_sm(int argc, char **argv) {
  sm_cli w;
  cli_args a;
  int st = cli_parse(&sm_cmd, argc, argv, &w, &a);
  if (st || a.co.help) return st;
  nnt_bounds_sm_cfg cfg = w.c;
  if (!!cfg.tm + !!cfg.circuit != 1) return nnt_fail(NNT_EINVAL, "give exactly one of --tm and --circuit");
  if (cfg.tm && w.top) return nnt_fail(NNT_EINVAL, "--top belongs to --circuit");
  report r;
  memset(&r, 0, sizeof r);
  r.eps = cfg.eps, r.gamma_src = "--gamma";
  if (cfg.tm) {
    if (cfg.T < 0) return nnt_fail(NNT_EINVAL, "--tm needs --steps N");
    if (cfg.max_T > 0 && cfg.T > cfg.max_T) cfg.T = cfg.max_T;
    return bounds_tm(&a.co, cfg.tm, cfg.T, &r, cfg.gamma, cfg.max_T > 0 ? 100 : NNT_TM_MARGIN_MAX_T);
  }
  if (cfg.T >= 0) return nnt_fail(NNT_EINVAL, "--steps belongs to --tm");
#ifdef NNT_HAVE_CIRCUITS
  return bounds_circuit(&a.co, cfg.circuit, w.top, &r, cfg.gamma);
#else
  return nnt_fail(NNT_EINVAL, "--circuit: this build has no circuits module");
#endif
}

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
  cli_common co = {.seed = t->seed, .threads = t->threads, .out = nnt_path(dir, sizeof dir, t->out, "bounds")};
  nnt_bounds_sm_cfg cfg;
  nnt_bounds_sm_cfg_default(&cfg, NNT_PRESET_QUICK);
  report r;
  memset(&r, 0, sizeof r);
  r.eps = cfg.eps;
  int st = cli_tour_checked(t, bounds_tm(&co, machine, 21, &r, 0, 100));
  if (st) return st;
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
                    "interval propagation through the 22 decoder steps); the smallest decision-flipping perturbation "
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
