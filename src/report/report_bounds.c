/* report_bounds.c — what nnt bounds writes (console, CSV) of the bounds area's results. */
#include <math.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_bounds.h"

int nnt_report_bounds_rcnn(const char *dir, const nnt_bounds_rcnn_cfg *c, const nnt_bounds_rcnn *r) {
  printf("Theorem 1 / Corollary 2 (seed 002) for s=%d, eps=%g, delta=%g; d=%d, m=%d, k=%d\n", c->s, c->eps, c->delta, c->d, c->m, c->k);
  printf("RCNN F^{d+1, m+1, 100s, 100, L}: d_rc=%.0f d_head=%.0f\n", r->d_rc, r->d_head);
  printf("  shared weights P = 9 d_rc + 3 d_rc^2 + d_rc + 2 d_head = %.0f (log10 %.4f)\n", r->shared_params, log10(r->shared_params));
  printf("  trained memory W: (m+1)(d+1) = %.0f\n", r->memory_params);
  printf("  |U_s| = 24*16*s + 5 = %.0f\n", r->U);
  printf("Theorem 1: log10 P(success) >= log10 |U_s|^(-P) = %.1f\n", r->log10_p_success);
  printf("Corollary 2 (corrected): restarts log10 M = log10(ln(2/delta)/P(success)) = %.1f\n", r->log10_restarts);
  printf("  validation N = 2 ln(2M/delta)/eps^2 = %.6g (log10 %.4f)\n", r->validation, log10(r->validation));
  printf("depth: t=%.6g, L = max(m+1, m+d+1, t+1) = %.6g; grid (m+1)(d+1+L) = %.6g cells with a work region of width L\n", r->t,
         r->L, r->cells);
  printf("Observation 1 (log10 M = %g): r = 2^%d (log10 r = %.4f, in [M^(-1/3k)/2, M^(-1/3k)]); "
         "log10 p(d,m,eps,delta) = %.4f\n",
         c->log10_M_obs, r->obs_r_log2, r->obs_r_log2 * log10(2.0), r->log10_obs_p);
  printf("Algorithm 2: r = M^(1/10), log10 r = %.4f; loops s, k, t = 1..r\n", r->log10_alg2_r);
  printf("not run: the random search of Theorem 1 can only be computed; the paper's own Corollary 2 values\n"
         "  (s^{c1 s} log(1/delta) restarts, M = delta s^{c2 s^2}/2) are inconsistent, corrected as in spec section 6\n");
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "rcnn.csv",
                        "s,eps,delta,d,m,k,shared_params,memory_params,U,log10_p_success,log10_restarts,validation,t,L,cells");
  if (st) return st;
  nnt_csv_row(&csv, "%d,%.17g,%.17g,%d,%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", c->s, c->eps, c->delta,
              c->d, c->m, c->k, r->shared_params, r->memory_params, r->U, r->log10_p_success, r->log10_restarts,
              r->validation, r->t, r->L, r->cells);
  return nnt_csv_close(&csv);
}

/* ---------------------------------------------------------------- seed 000: bounds sm */

static const char *unspecified =
    "not specified by the paper (set to 1 here): the constant and polylog factors of Lemma 2.3's O~;\n"
    "  the Lipschitz constants of Condition D.3 behind Theorem D.6's margin (only 'poly' is given, and\n"
    "  (D.5) is partly unreadable in the seed): --tm and --circuit use a certified lower bound instead\n"
    "  (the illustrative sigma_zeta/(2 lambda) where nothing is certified; nnt circuit d5 evaluates (D.5)\n"
    "  as docs/circuits_tm.md reads it); the constants\n"
    "  of the VC comparisons (ReLU nets: p d log2 p; transformers over T steps: w T).\n";

static int write_bound_vs_n(const char *dir, const nnt_bounds_sm_summary *r, const char *vc_label) {
  double ns[NNT_BOUNDS_CURVE], eL[NNT_BOUNDS_CURVE], eV[NNT_BOUNDS_CURVE];
  int k = NNT_BOUNDS_CURVE;
  nnt_bounds_curve(&r->m, ns, eL, eV);
  printf("\ngeneralisation bound vs samples n (epsilon such that the population 0-1 loss <= epsilon w.p. 0.99):\n"
         "%12s %16s %16s\n", "n", "Lemma 2.3", vc_label);
  for (int i = 0; i < k; i++) printf("%12.0e %16.4g %16.4g\n", ns[i], eL[i], eV[i]);
  if (!dir) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "bound_vs_n.csv", "n,eps_lemma23,eps_vc");
  if (st) return st;
  for (int i = 0; i < k; i++) nnt_csv_row(&csv, "%.6g,%.6g,%.6g", ns[i], eL[i], eV[i]);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("generalisation bound vs samples (constants 1)", "samples n", "epsilon");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, k, ns, eL, "Lemma 2.3 (all-layer margin)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, k, ns, eV, vc_label, NNT_PLOT_LINE | NNT_PLOT_DASHED);
  st = nnt_plot_save(p, dir, "bound_vs_n");
  nnt_plot_free(p);
  return st;
}

static void print_model(const nnt_bounds_sm_summary *r) {
  const nnt_bounds_model *m = &r->m;
  printf("lemma 2.3 inputs: alpha=%.6g p=%.6g (ln p = %.3f) gamma=%.4g (%s) lambda=%.4g\n", m->alpha, m->params,
         log(m->params), m->gamma, r->gamma_src, m->lambda);
  double nL = nnt_bounds_lemma23_n(m->alpha, m->params, m->gamma, r->eps), nV = nnt_bounds_vc_n(m->vc, r->eps);
  printf("samples for epsilon=%g: Lemma 2.3 n=%.4g, VC-type n=%.4g (VC scale %.4g); ratio %.3g\n", r->eps, nL, nV, m->vc,
         nnt_bounds_ratio(m));
}

/* Points where nL is NaN (no certified gamma) are left out of the Lemma 2.3 curve. */
static int plot_sweep(const char *dir, const char *title, const char *xlabel, int k, const double *x, const double *nL,
                      const double *nV, const char *vc_label) {
  nnt_plot *p = nnt_plot_new(title, xlabel, "samples n for the target epsilon");
  nnt_plot_log(p, 1, 1);
  double xl[16], yl[16];
  int kl = 0;
  for (int i = 0; i < k && kl < 16; i++)
    if (isfinite(nL[i])) xl[kl] = x[i], yl[kl++] = nL[i];
  nnt_plot_add(p, kl, xl, yl, "Lemma 2.3 (all-layer margin)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, k, x, nV, vc_label, NNT_PLOT_LINE | NNT_PLOT_DASHED);
  int st = nnt_plot_save(p, dir, "sweep");
  nnt_plot_free(p);
  return st;
}

static void tm_summary(const nnt_bounds_sm_cfg *c, const nnt_tm_sm_cfg *tc, const nnt_tm_sm_result *r,
                                     nnt_bounds_sm_summary *o) {
  const nnt_tm_net_stats *s = &r->s;
  *o = (nnt_bounds_sm_summary){.eps = c->eps, .gamma_src = "--gamma", .cross = -1,
                               .rho_lower = r->certified ? r->rho_lower : -1, .rho_upper = r->upper.rho};
  o->m = (nnt_bounds_model){s->max_width, s->layers, (double)s->params_dense, s->l1, r->r.lambda, 0,
                            nnt_bounds_vc_transformer(s->max_width, (double)tc->T)};
  if (c->gamma > 0) o->m.gamma = c->gamma;
  else if (r->certified && r->rho_lower > 0) o->m.gamma = r->rho_lower, o->gamma_src = "certified all-layer margin";
  else
    o->m.gamma = nnt_bounds_gamma_default(r->r.lambda),
    o->gamma_src = !r->certified      ? "T above the certification cap: illustrative sigma_zeta/(2 lambda)"
                   : r->r.output == 0 ? "no decision (F = 0, not halted): illustrative sigma_zeta/(2 lambda)"
                                      : "nothing certified: illustrative sigma_zeta/(2 lambda)";
  /* the T sweep: gamma per T is the certified margin of the net compiled for T (or --gamma) */
  for (int i = 0; i < r->nsweep; i++) {
    double g = c->gamma > 0 ? c->gamma : r->sweep_rho[i];
    double nL = g > 0 ? nnt_bounds_lemma23_n(r->sweep_s[i].l1, (double)r->sweep_s[i].params_dense, g, c->eps) : NAN;
    double nV = nnt_bounds_vc_n(nnt_bounds_vc_transformer(r->sweep_s[i].max_width, r->sweep_T[i]), c->eps);
    if (o->cross < 0 && nL < nV) o->cross = r->sweep_T[i];
  }
}

int nnt_report_bounds_sm_tm(const char *dir, const nnt_bounds_sm_cfg *c, const nnt_tm_sm_cfg *tc, const nnt_tm_sm_result *r,
                            nnt_bounds_sm_summary *sum) {
  const nnt_tm_net_stats *s = &r->s;
  long T = tc->T;
  double lt = log2((double)T), scale = (double)r->k * r->nsym + lt;
  printf("Theorem 4.1 / Lemma 2.3 for %s: k=%d states, |A|=%d symbols, T=%ld\n", c->tm, r->k, r->nsym, T);
  printf("construction (run and checked: steps_checked=%ld mismatches=%ld):\n", r->r.steps_checked, r->r.mismatches);
  printf("  W=%d (residual width %d), d=%d transformer layers, p=%ld (dense F_{W,d}), nonzero=%ld, alpha=||theta||_1=%.0f\n",
         s->max_width, s->w, s->layers, s->params_dense, s->nonzero, s->l1);
  printf("  theorem scales: W/(k|A|+log2 T)=%.3g  d/log2 T=%.3g  alpha/(k|A|+log2 T)^2=%.3g\n", s->max_width / scale,
         s->layers / (lt > 1 ? lt : 1), s->l1 / (scale * scale));
  printf("margin ingredients: rounding radius sigma_zeta=1/3; smallest attention score gap %g (proof: >= 1); "
         "lambda = max ||h||_2 = %.4g (measured over the run)\n", r->r.min_score_gap, r->r.lambda);
  printf("all-layer margin (eq. 2.1; decision theta_cls^T o_T = %g; perturbations of all p parameters, shared by the T+1 "
         "steps):\n", r->r.output);
  if (r->certified)
    printf("  certified lower bound %.4g (box and l2-ball bound propagation, nnt_tm_margin_lower)\n", r->rho_lower);
  else
    printf("  certified lower bound not computed: T=%ld > %d (its memory grows as T)\n", T, NNT_TM_MARGIN_MAX_T);
  printf("  upper bound %.4g (%s; %d flipping perturbations in %ld checked runs)\n", r->upper.rho, r->upper.how,
         r->upper.flips, r->upper.runs);
  if (r->certified && r->rho_lower > 0) printf("  upper/lower %.4g; %.2f s\n", r->upper.rho / r->rho_lower, r->margin_s);
  else printf("  %.2f s\n", r->margin_s);
  nnt_bounds_sm_summary o;
  tm_summary(c, tc, r, &o);
  if (sum) *sum = o;
  print_model(&o);
  fputs(unspecified, stdout);
  int st = write_bound_vs_n(dir, &o, "VC-type (w T)");
  if (st) return st;
  long cert_max = tc->cert_max;
  printf("\nsweep over T (%s; epsilon=%g):\n%8s %5s %4s %12s %12s %12s %14s %14s\n",
         c->gamma > 0 ? "gamma fixed by --gamma" : "gamma = the certified margin at each T", c->eps, "T", "W", "d", "alpha",
         "p", "gamma", "n Lemma 2.3", "n VC (wT)");
  double nLs[NNT_TM_SM_SWEEP], nVs[NNT_TM_SM_SWEEP], gs[NNT_TM_SM_SWEEP];
  for (int i = 0; i < r->nsweep; i++) {
    const nnt_tm_net_stats *ss = &r->sweep_s[i];
    double g = c->gamma > 0 ? c->gamma : r->sweep_rho[i];
    double nL = g > 0 ? nnt_bounds_lemma23_n(ss->l1, (double)ss->params_dense, g, c->eps) : NAN;
    double nV = nnt_bounds_vc_n(nnt_bounds_vc_transformer(ss->max_width, r->sweep_T[i]), c->eps);
    printf("%8.0e %5d %4d %12.0f %12ld ", r->sweep_T[i], ss->max_width, ss->layers, ss->l1, ss->params_dense);
    if (g > 0) printf("%12.4g %14.4g %14.4g\n", g, nL, nV);
    else printf("%12s %14s %14.4g\n", r->sweep_T[i] <= cert_max ? "0" : "-", "-", nV);
    gs[i] = g, nLs[i] = nL, nVs[i] = nV;
  }
  if (o.cross > 0) printf("the Lemma 2.3 bound is the smaller one from T = %.0e on (constants 1)\n", o.cross);
  else if (c->gamma > 0) printf("the Lemma 2.3 bound stays above the VC-type one up to T = 1e15 (constants 1)\n");
  else printf("the Lemma 2.3 bound (certified gamma) stays above the VC-type one wherever gamma is certified (T <= %ld)\n", cert_max);
  if (dir) {
    nnt_csv csv;
    if ((st = nnt_csv_open(&csv, dir, "sweep.csv", "T,gamma,n_lemma23,n_vc"))) return st;
    for (int i = 0; i < r->nsweep; i++)
      if (isfinite(nLs[i])) nnt_csv_row(&csv, "%.6g,%.6g,%.6g,%.6g", r->sweep_T[i], gs[i], nLs[i], nVs[i]);
      else nnt_csv_row(&csv, "%.6g,,,%.6g", r->sweep_T[i], nVs[i]);
    if ((st = nnt_csv_close(&csv))) return st;
    if ((st = plot_sweep(dir, "Turing machines: samples needed vs T", "T (machine steps)", r->nsweep, r->sweep_T, nLs, nVs,
                         "VC-type (w T)")))
      return st;
  }
  if (r->r.mismatches) return nnt_fail(NNT_ECHECK, "the compiled transformer disagrees with the simulation");
  if (r->certified) printf("gamma_certified=%.4g gamma_attack=%.4g\n", r->rho_lower, r->upper.rho);
  else printf("gamma_certified=none gamma_attack=%.4g\n", r->upper.rho);
  return NNT_OK;
}

static void circuit_summary(const nnt_bounds_sm_cfg *c, const nnt_circuit_sm_result *r, nnt_bounds_sm_summary *o) {
  const nnt_mlp_stats *s = &r->s;
  double p = nnt_bounds_relu_params(r->ninputs, s->max_width, s->layers, s->output_dim);
  *o = (nnt_bounds_sm_summary){.eps = c->eps, .gamma_src = "--gamma", .rho_lower = -1, .rho_upper = NAN, .cross = -1};
  o->m = (nnt_bounds_model){s->max_width, s->layers, p, s->l1_norm, r->lambda, 0, nnt_bounds_vc_relu(p, s->layers)};
  /* gamma: the layerwise-Lipschitz certificate (proven; over every input when m <= 8, else over 64
   * random ones: a proof at those inputs only), the illustrative sigma_zeta/(2 lambda) beside it */
  if (c->gamma > 0) o->m.gamma = c->gamma;
  else if (r->certified > 0)
    o->m.gamma = r->certified, o->gamma_src = r->ninputs <= 8 ? "certified margin, min over every input"
                                                              : "certified margin, min over 64 random inputs (proven at those only)";
  else o->m.gamma = nnt_bounds_gamma_default(r->lambda), o->gamma_src = "nothing certified: illustrative sigma_zeta/(2 lambda)";
}

/* the margin and the bounds' inputs, for run.json */
static cJSON *summary_json(const nnt_bounds_sm_summary *o) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "gamma", o->m.gamma);
  cJSON_AddStringToObject(j, "gamma_source", o->gamma_src);
  if (o->rho_lower >= 0) cJSON_AddNumberToObject(j, "margin_certified_lower", o->rho_lower);
  if (isfinite(o->rho_upper)) cJSON_AddNumberToObject(j, "margin_upper", o->rho_upper);
  cJSON_AddNumberToObject(j, "eps", o->eps);
  cJSON_AddNumberToObject(j, "alpha", o->m.alpha);
  cJSON_AddNumberToObject(j, "params", o->m.params);
  cJSON_AddNumberToObject(j, "ratio", nnt_bounds_ratio(&o->m));
  if (o->cross > 0) cJSON_AddNumberToObject(j, "lemma23_smaller_from_T", o->cross);
  return j;
}

cJSON *nnt_report_bounds_sm_tm_json(const nnt_bounds_sm_cfg *c, const nnt_tm_sm_cfg *tc, const nnt_tm_sm_result *r) {
  nnt_bounds_sm_summary o;
  tm_summary(c, tc, r, &o);
  cJSON *j = summary_json(&o);
  cJSON_AddNumberToObject(j, "steps_checked", (double)r->r.steps_checked);
  cJSON_AddNumberToObject(j, "mismatches", (double)r->r.mismatches);
  return j;
}

int nnt_report_bounds_sm_circuit(const char *dir, const nnt_bounds_sm_cfg *c, const nnt_circuit_sm_result *r,
                                 void (*print_src)(const void *), const void *src) {
  const nnt_mlp_stats *s = &r->s;
  /* p of the dense architecture F_{W,d}: input m, hidden width W, output width of the last layer */
  int W = s->max_width, d = s->layers;
  double p = nnt_bounds_relu_params(r->ninputs, W, d, s->output_dim);
  printf("Theorem 3.1 / Lemma 2.3 for %s: m=%d inputs, layered depth q=%d, width r=%d, size s=%ld (%ld ID gates)\n",
         c->circuit, r->ninputs, r->depth, r->width_max, r->size, r->id_gates);
  if (print_src) print_src(src);
  printf("construction with correction layers (checked on %ld inputs%s: mismatches=%ld):\n", r->v.checked,
         r->v.exhaustive ? ", exhaustive" : ", random", r->v.mismatches);
  printf("  W=%d, d=%d ReLU layers, p=%.0f (dense F_{W,d}), nonzero=%ld, alpha=||theta||_1=%.0f\n", W, d, p,
         s->nonzero_params, s->l1_norm);
  printf("  theorem scales: W/r=%.3g  alpha/s=%.3g  d/q=%.3g\n", (double)W / r->width_max, s->l1_norm / (double)r->size,
         (double)d / r->depth);
  printf("margin ingredients: rounding radius sigma_zeta=1/3; lambda = max ||h||_2 = %.4g (measured, %s)\n", r->lambda,
         r->ninputs <= 12 ? "every input" : "4096 random inputs");
  nnt_bounds_sm_summary o;
  circuit_summary(c, r, &o);
  double illus = nnt_bounds_gamma_default(r->lambda);
  print_model(&o);
  printf("certified margin lower bound (layerwise Lipschitz, nnt_circuit_margin_lower; min over %ld %s inputs and %d "
         "outputs): gamma >= %.4g; illustrative sigma_zeta/(2 lambda) = %.4g -> Lemma 2.3 n=%.4g for epsilon=%g\n",
         r->certified_count, r->ninputs <= 8 ? "(all)" : "random", s->output_dim, r->certified, illus,
         nnt_bounds_lemma23_n(s->l1_norm, p, illus, c->eps), c->eps);
  fputs(unspecified, stdout);
  int st = write_bound_vs_n(dir, &o, "VC-type (p d log2 p)");
  if (st) return st;
  /* Width sweep: Theorem 3.1's point, the bound grows like log w while VC grows like w^2. Extra
   * units are zero (alpha, lambda, gamma unchanged); only p changes. */
  printf("\nsweep over the network width w (alpha, gamma = %.4g unchanged: the extra units are zero; epsilon=%g):\n%8s %14s %14s %14s\n",
         o.m.gamma, c->eps, "w", "p", "n Lemma 2.3", "n VC");
  double xs[7], nLs[7], nVs[7];
  for (int i = 0; i < 7; i++) {
    double w = (double)W * (1 << i);
    double pw = nnt_bounds_relu_params(r->ninputs, w, d, s->output_dim);
    xs[i] = w, nLs[i] = nnt_bounds_lemma23_n(s->l1_norm, pw, o.m.gamma, c->eps);
    nVs[i] = nnt_bounds_vc_n(nnt_bounds_vc_relu(pw, d), c->eps);
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
      double pw = nnt_bounds_relu_params(r->ninputs, w, d, s->output_dim);
      if (nnt_bounds_lemma23_n(s->l1_norm, pw, o.m.gamma, c->eps) < nnt_bounds_vc_n(nnt_bounds_vc_relu(pw, d), c->eps)) break;
    }
    printf("the Lemma 2.3 bound stays above the VC-type one up to w = %.0f; it is the smaller one from w = %.4g = 2^%.0f W on "
           "(constants 1; doubling w)\n", xs[6], w, log2(w / W));
  }
  if (dir) {
    nnt_csv csv;
    if ((st = nnt_csv_open(&csv, dir, "sweep.csv", "w,n_lemma23,n_vc"))) return st;
    for (int i = 0; i < 7; i++) nnt_csv_row(&csv, "%.6g,%.6g,%.6g", xs[i], nLs[i], nVs[i]);
    if ((st = nnt_csv_close(&csv))) return st;
    if ((st = plot_sweep(dir, "circuits: samples needed vs network width", "width w", 7, xs, nLs, nVs, "VC-type (p d log2 p)")))
      return st;
  }
  if (r->v.mismatches) return nnt_fail(NNT_ECHECK, "the compiled net disagrees with the circuit");
  return NNT_OK;
}

cJSON *nnt_report_bounds_sm_circuit_json(const nnt_bounds_sm_cfg *c, const nnt_circuit_sm_result *r) {
  nnt_bounds_sm_summary o;
  circuit_summary(c, r, &o);
  cJSON *j = summary_json(&o);
  cJSON_AddNumberToObject(j, "inputs_checked", (double)r->v.checked);
  cJSON_AddNumberToObject(j, "mismatches", (double)r->v.mismatches);
  return j;
}
