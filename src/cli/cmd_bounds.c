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
#ifdef NNT_HAVE_CIRCUITS
#include "nnt_circuits.h"
#endif

static const char *help =
    "usage: nnt bounds sm --tm MACHINE --T N [--gamma G] [--eps E] [--out DIR]\n"
#ifdef NNT_HAVE_CIRCUITS
    "       nnt bounds sm --circuit FILE [--gamma G] [--eps E] [--out DIR]\n"
#endif
    "Compiles the machine (or circuit) with the constructions of Wei, Chen & Ma, checks it, and\n"
    "evaluates what can be evaluated of Lemma 2.3 and Theorem 4.1 (or 3.1): sizes W, d, p, the norm\n"
    "alpha = ||theta||_1, the ingredients of the all-layer-margin lower bound (rounding radius 1/3,\n"
    "attention score gap, layer norms lambda), and the generalisation bound as a function of n next\n"
    "to a VC-type bound, plus a sweep over T (or over the width w). Constants the paper leaves\n"
    "unspecified are set to 1 and listed in the output.\n\n" NNT_COMMON_HELP
    "  --tm MACHINE   a machine file or standard-notation string (see nnt tm --help)\n"
    "  --T N          machine steps\n"
#ifdef NNT_HAVE_CIRCUITS
    "  --circuit FILE .bench, .blif or .aag circuit\n"
#endif
    "  --gamma G      margin used in Lemma 2.3 (default: the illustrative sigma_zeta / (2 lambda))\n"
    "  --eps E        target error for the sample sizes (default 0.1)\n";

static const char *unspecified =
    "not specified by the paper (set to 1 here): the constant and polylog factors of Lemma 2.3's O~;\n"
    "  the Lipschitz constants of Condition D.3 behind Theorem D.6's margin (only 'poly' is given, and\n"
    "  (D.5) is partly unreadable in the seed), so gamma is an input, not a proven value; the constants\n"
    "  of the VC comparisons (ReLU nets: p d log2 p; transformers over T steps: w T).\n";

typedef struct {
  nnt_bounds_model m;
  double eps;
  int gamma_given;
} report;

static int write_bound_vs_n(const char *out, const report *r, const char *vc_label, int *printed) {
  double ns[31], eL[31], eV[31];
  int k = 0;
  printf("\ngeneralisation bound vs samples n (epsilon such that the population 0-1 loss <= epsilon w.p. 0.99):\n"
         "%12s %16s %16s\n", "n", "Lemma 2.3", vc_label);
  for (int e = 2; e <= 30; e += 2) {
    double n = pow(10, e);
    ns[k] = n, eL[k] = nnt_bounds_lemma23_eps(r->m.alpha, r->m.params, r->m.gamma, n);
    eV[k] = nnt_bounds_vc_eps(r->m.vc, n);
    printf("%12.0e %16.4g %16.4g\n", n, eL[k], eV[k]);
    k++;
  }
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
         log(m->params), m->gamma, r->gamma_given ? "--gamma" : "illustrative sigma_zeta/(2 lambda)", m->lambda);
  double nL = nnt_bounds_lemma23_n(m->alpha, m->params, m->gamma, r->eps), nV = nnt_bounds_vc_n(m->vc, r->eps);
  printf("samples for epsilon=%g: Lemma 2.3 n=%.4g, VC-type n=%.4g (VC scale %.4g); ratio %.3g\n", r->eps, nL, nV, m->vc,
         nnt_bounds_ratio(m));
}

static int plot_sweep(const char *out, const char *name, const char *title, const char *xlabel, int k, const double *x,
                      const double *nL, const double *nV, const char *vc_label) {
  nnt_plot *p = nnt_plot_new(title, xlabel, "samples n for the target epsilon");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, k, x, nL, "Lemma 2.3 (all-layer margin)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, k, x, nV, vc_label, NNT_PLOT_LINE | NNT_PLOT_DASHED);
  int st = nnt_plot_save(p, out, name);
  nnt_plot_free(p);
  return st;
}

static int bounds_tm(const cli_common *co, const char *machine, long T, report *r, double gamma) {
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
  nnt_tm_run_opts ro = {NNT_TM_HARD, 0, NNT_TM_F64, 0};
  st = nnt_tm_net_run(&net, &tm, &tr, &ro, &res);
  nnt_tm_net_stats s = nnt_tm_net_stats_of(&net);
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
  r->m = (nnt_bounds_model){s.max_width, s.layers, (double)s.params_dense, s.l1, res.lambda, 0,
                            nnt_bounds_vc_transformer(s.max_width, (double)T)};
  r->m.gamma = gamma > 0 ? gamma : nnt_bounds_gamma_default(res.lambda);
  print_model(r);
  fputs(unspecified, stdout);
  int k;
  if ((st = write_bound_vs_n(co->out, r, "VC-type (w T)", &k))) return nnt_tm_free(&tm), st;
  /* T sweep: compile only (sizes do not need a run); gamma held at the value above. */
  printf("\nsweep over T (gamma fixed at %.4g; epsilon=%g):\n%8s %5s %4s %12s %12s %14s %14s\n", r->m.gamma, r->eps, "T", "W",
         "d", "alpha", "p", "n Lemma 2.3", "n VC (wT)");
  double xs[16], nLs[16], nVs[16];
  int ns = 0;
  double cross = -1;
  for (int e = 1; e <= 15; e++) {
    long Ts = (long)pow(10, e);
    nnt_tm_net nt;
    if ((st = nnt_tm_compile(&tm, Ts, &nt))) break;
    nnt_tm_net_stats ss = nnt_tm_net_stats_of(&nt);
    nnt_tm_net_free(&nt);
    double nL = nnt_bounds_lemma23_n(ss.l1, (double)ss.params_dense, r->m.gamma, r->eps);
    double nV = nnt_bounds_vc_n(nnt_bounds_vc_transformer(ss.max_width, (double)Ts), r->eps);
    if (cross < 0 && nL < nV) cross = (double)Ts;
    printf("%8.0e %5d %4d %12.0f %12ld %14.4g %14.4g\n", (double)Ts, ss.max_width, ss.layers, ss.l1, ss.params_dense, nL, nV);
    xs[ns] = (double)Ts, nLs[ns] = nL, nVs[ns++] = nV;
  }
  if (st) return nnt_tm_free(&tm), st;
  if (cross > 0) printf("the Lemma 2.3 bound is the smaller one from T = %.0e on (constants 1)\n", cross);
  else printf("the Lemma 2.3 bound stays above the VC-type one up to T = 1e15 (constants 1)\n");
  nnt_tm_free(&tm);
  if (co->out) {
    nnt_csv csv;
    if ((st = nnt_csv_open(&csv, co->out, "sweep.csv", "T,n_lemma23,n_vc"))) return st;
    for (int i = 0; i < ns; i++) nnt_csv_row(&csv, "%.6g,%.6g,%.6g", xs[i], nLs[i], nVs[i]);
    if ((st = nnt_csv_close(&csv))) return st;
    if ((st = plot_sweep(co->out, "sweep", "Turing machines: samples needed vs T", "T (machine steps)", ns, xs, nLs, nVs,
                         "VC-type (w T)")))
      return st;
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddStringToObject(cfg, "tm", machine);
    cJSON_AddNumberToObject(cfg, "T", (double)T);
    cJSON_AddNumberToObject(cfg, "gamma", r->m.gamma);
    cJSON_AddNumberToObject(cfg, "eps", r->eps);
    cJSON_AddNumberToObject(cfg, "alpha", r->m.alpha);
    cJSON_AddNumberToObject(cfg, "params", r->m.params);
    st = nnt_runinfo_write(co->out, "bounds sm --tm", cfg, co->seed, co->threads, nnt_now() - t0);
  }
  if (!st && res.mismatches) st = nnt_fail(NNT_ECHECK, "the compiled transformer disagrees with the simulation");
  return st;
}

#ifdef NNT_HAVE_CIRCUITS
/* Largest ||h||_2 over every layer's output, on every input (up to 16 inputs) or 4096 random ones. */
static double circuit_lambda(const nnt_mlp *net, int m, unsigned long long seed) {
  int L = net->nlayers;
  double **acts = malloc(sizeof(double *) * (size_t)L), lam = 0;
  for (int l = 0; l < L; l++) acts[l] = malloc(sizeof(double) * (size_t)net->layers[l].out);
  double *x = malloc(sizeof(double) * (size_t)(m ? m : 1));
  long count = m <= 12 ? 1L << m : 4096;
  nnt_rng rng;
  nnt_rng_init(&rng, seed, 0);
  for (long v = 0; v < count; v++) {
    double s = 0;
    for (int i = 0; i < m; i++) x[i] = m <= 12 ? (double)((v >> i) & 1) : (double)(nnt_rng_u64(&rng) & 1), s += x[i];
    if (sqrt(s) > lam) lam = sqrt(s);
    nnt_mlp_forward_trace(net, x, acts);
    for (int l = 0; l < L; l++) {
      s = 0;
      for (int i = 0; i < net->layers[l].out; i++) s += acts[l][i] * acts[l][i];
      if (sqrt(s) > lam) lam = sqrt(s);
    }
  }
  for (int l = 0; l < L; l++) free(acts[l]);
  free(acts), free(x);
  return lam;
}

static int bounds_circuit(const cli_common *co, const char *file, report *r, double gamma) {
  nnt_circuit c;
  int st = nnt_circuit_read(file, &c);
  if (st) return st;
  if ((st = cli_begin(co))) return nnt_circuit_free(&c), st;
  double t0 = nnt_now();
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_mlp net;
  nnt_mlp_init(&net);
  nnt_circuit_compile(&L, 1, &net);
  nnt_circuit_verify_counts v = nnt_circuit_verify(&c, &net, 16, 20000, co->seed);
  nnt_mlp_stats s = nnt_mlp_stats_of(&net);
  double lam = circuit_lambda(&net, c.ninputs, co->seed);
  /* p of the dense architecture F_{W,d}: input m, hidden width W, output width of the last layer */
  int W = s.max_width, d = s.layers;
  double p = (double)c.ninputs * W + W + (double)(d - 2) * ((double)W * W + W) + (double)W * s.output_dim + s.output_dim;
  printf("Theorem 3.1 / Lemma 2.3 for %s: m=%d inputs, layered depth q=%d, width r=%d, size s=%ld (%ld ID gates)\n", file,
         c.ninputs, L.depth, L.width_max, L.size, L.id_gates);
  printf("construction with correction layers (checked on %ld inputs%s: mismatches=%ld):\n", v.checked,
         v.exhaustive ? ", exhaustive" : ", random", v.mismatches);
  printf("  W=%d, d=%d ReLU layers, p=%.0f (dense F_{W,d}), nonzero=%ld, alpha=||theta||_1=%.0f\n", W, d, p,
         s.nonzero_params, s.l1_norm);
  printf("  theorem scales: W/r=%.3g  alpha/s=%.3g  d/q=%.3g\n", (double)W / L.width_max, s.l1_norm / (double)L.size,
         (double)d / L.depth);
  printf("margin ingredients: rounding radius sigma_zeta=1/3; lambda = max ||h||_2 = %.4g (measured, %s)\n", lam,
         c.ninputs <= 12 ? "every input" : "4096 random inputs");
  r->m = (nnt_bounds_model){W, d, p, s.l1_norm, lam, 0, nnt_bounds_vc_relu(p, d)};
  r->m.gamma = gamma > 0 ? gamma : nnt_bounds_gamma_default(lam);
  print_model(r);
  /* A proven (but loose) margin: the layerwise-Lipschitz certificate of the circuits module, for
   * each output bit with the readout z -> 2z - 1 of the proof of Theorem 3.1 appended (the 0-1
   * loss thresholds at 0), minimised over inputs (all up to 8 inputs, else 64 random). */
  {
    int m = c.ninputs, no = s.output_dim;
    long count = m <= 8 ? 1L << m : 64;
    double *x = malloc(sizeof(double) * (size_t)(m ? m : 1)), *y = malloc(sizeof(double) * (size_t)no), cert = INFINITY;
    nnt_mlp *ro = malloc(sizeof(nnt_mlp) * (size_t)no);
    for (int j = 0; j < no; j++) {
      nnt_mlp_init(&ro[j]);
      nnt_mlp_copy(&ro[j], &net);
      nnt_mlp_layer *H = nnt_mlp_add(&ro[j], no, 1, NNT_ACT_IDENTITY);
      H->W[j] = 2;
      H->b[0] = -1;
    }
    nnt_rng rng;
    nnt_rng_init(&rng, co->seed, 1);
    for (long v = 0; v < count; v++) {
      for (int i = 0; i < m; i++) x[i] = m <= 8 ? (double)((v >> i) & 1) : (double)(nnt_rng_u64(&rng) & 1);
      nnt_mlp_forward(&net, x, y);
      for (int j = 0; j < no; j++) {
        double g = nnt_circuit_margin_lower(&ro[j], x, 0, y[j] > 0.5);
        if (g < cert) cert = g;
      }
    }
    for (int j = 0; j < no; j++) nnt_mlp_free(&ro[j]);
    free(ro), free(x), free(y);
    printf("certified margin lower bound (layerwise Lipschitz, nnt_circuit_margin_lower; min over %ld %s inputs and %d "
           "outputs): gamma >= %.4g -> Lemma 2.3 n=%.4g for epsilon=%g\n",
           count, m <= 8 ? "(all)" : "random", no, cert,
           cert > 0 ? nnt_bounds_lemma23_n(s.l1_norm, p, cert, r->eps) : INFINITY, r->eps);
  }
  fputs(unspecified, stdout);
  int k;
  if ((st = write_bound_vs_n(co->out, r, "VC-type (p d log2 p)", &k))) goto done;
  /* Width sweep: Theorem 3.1's point, the bound grows like log w while VC grows like w^2. Extra
   * units are zero (alpha, lambda, gamma unchanged); only p changes. */
  printf("\nsweep over the network width w (alpha, gamma unchanged; epsilon=%g):\n%8s %14s %14s %14s\n", r->eps, "w", "p",
         "n Lemma 2.3", "n VC");
  double xs[8], nLs[8], nVs[8];
  for (int i = 0; i < 7; i++) {
    double w = (double)W * (1 << i);
    double pw = (double)c.ninputs * w + w + (double)(d - 2) * (w * w + w) + w * s.output_dim + s.output_dim;
    xs[i] = w, nLs[i] = nnt_bounds_lemma23_n(s.l1_norm, pw, r->m.gamma, r->eps);
    nVs[i] = nnt_bounds_vc_n(nnt_bounds_vc_relu(pw, d), r->eps);
    printf("%8.0f %14.4g %14.4g %14.4g\n", w, pw, nLs[i], nVs[i]);
  }
  int cross = -1;
  for (int i = 6; i >= 0 && nLs[i] < nVs[i]; i--) cross = i;
  if (cross >= 0) printf("the Lemma 2.3 bound is the smaller one from w = %.0f on (constants 1)\n", xs[cross]);
  else printf("the Lemma 2.3 bound stays above the VC-type one up to w = %.0f (constants 1)\n", xs[6]);
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

int cmd_bounds(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(help, argc < 2 ? stderr : stdout);
    return argc < 2 ? nnt_fail(NNT_EINVAL, "missing subcommand (sm)") : NNT_OK;
  }
  if (strcmp(argv[1], "sm")) return nnt_fail(NNT_EINVAL, "unknown subcommand '%s' (sm)", argv[1]);
  argc--, argv++;
  cli_common co;
  cli_common_init(&co, NULL);
  const char *machine = NULL, *circuit = NULL;
  long T = -1;
  double gamma = -1, eps = 0.1;
  static const struct option opts[] = {NNT_COMMON_OPTIONS,
                                       {"tm", required_argument, 0, 'M'},
                                       {"T", required_argument, 0, 'T'},
                                       {"circuit", required_argument, 0, 'C'},
                                       {"gamma", required_argument, 0, 'G'},
                                       {"eps", required_argument, 0, 'E'},
                                       {0, 0, 0, 0}};
  cli_reset();
  int c, st;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
      case 'M': machine = optarg, st = NNT_OK; break;
      case 'C': circuit = optarg, st = NNT_OK; break;
      case 'T': st = cli_parse_long("--T", optarg, 1, 100000, &T); break; /* the net is run */
      case 'G': st = cli_parse_double("--gamma", optarg, 1e-300, 1e300, &gamma); break;
      case 'E': st = cli_parse_double("--eps", optarg, 1e-12, 1, &eps); break;
      default: st = cli_common_option(c, argv, &co);
    }
    if (st) return st;
  }
  if (co.help) return fputs(help, stdout), NNT_OK;
  if ((st = cli_positional(argc, argv, 0, "nnt bounds sm --tm MACHINE --T N | --circuit FILE"))) return st;
  if (!!machine + !!circuit != 1) return nnt_fail(NNT_EINVAL, "give exactly one of --tm and --circuit");
  report r;
  memset(&r, 0, sizeof r);
  r.eps = eps, r.gamma_given = gamma > 0;
  if (machine) {
    if (T < 0) return nnt_fail(NNT_EINVAL, "--tm needs --T N");
    if (co.quick && T > 200) T = 200;
    return bounds_tm(&co, machine, T, &r, gamma);
  }
  if (T >= 0) return nnt_fail(NNT_EINVAL, "--T belongs to --tm");
#ifdef NNT_HAVE_CIRCUITS
  return bounds_circuit(&co, circuit, &r, gamma);
#else
  return nnt_fail(NNT_EINVAL, "--circuit: this build has no circuits module");
#endif
}
