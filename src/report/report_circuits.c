/* Reports of nnt circuit: results in memory -> console, CSV, plots, net files (run.json is the driver's). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_circuits.h"

static const char *const kinds[3] = {"compiled", "compiled+correction", "net"};

void nnt_report_circuit_print(const char *file, const nnt_circuit *c, const nnt_circuit_layered *L) {
  printf("circuit: %s inputs=%d outputs=%d gates=%ld depth_q=%d width_r=%d size_s=%ld id_gates=%ld\n", file,
         c->ninputs, c->noutputs, L->orig_gates, L->depth, L->width_max, L->size, L->id_gates);
}

void nnt_report_circuit_print_net(const nnt_smlp *net, int correct) {
  nnt_mlp_stats s = nnt_smlp_stats_of(net);
  printf("net: correct=%d layers=%d nodes=%ld max_width=%d params=%ld nonzero=%ld l1_norm=%.17g max_abs=%g\n", correct,
         s.layers, s.hidden_units, s.max_width, s.params, s.nonzero_params, s.l1_norm, s.max_abs);
}

int nnt_report_circuit_margin(const char *dir, const nnt_circuit_margin_cfg *cfg, const nnt_circuit_margin_result *res) {
  int n = res->n, nk = res->nkinds, m = res->ninputs;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "margins.csv",
                        "input,bits,label,kind,output,rho_upper,rho_lower_lipschitz,best_layer,forward_passes");
  if (st) return st;
  char *bits = nnt_xmalloc((size_t)m + 1);
  for (int v = 0; v < n; v++) {
    for (int i = 0; i < m; i++) bits[i] = (char)('0' + res->x[(size_t)v * m + m - 1 - i]);
    bits[m] = 0;
    for (int k = 0; k < nk; k++) {
      const nnt_circuit_margin_est *e = &res->est[v * nk + k];
      nnt_csv_row(&csv, "%d,%s,%d,%s,%.17g,%.17g,%.17g,%d,%ld", v, bits, res->label[v], kinds[k], e->output, e->rho,
                  res->lower[v * nk + k], e->best_layer, e->forward_passes);
    }
  }
  free(bits);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("all-layer margin (upper bound), per input", "input (sorted by margin)", "rho");
  double *xs = nnt_xmalloc(sizeof(double) * (size_t)n), *rho = nnt_xmalloc(sizeof(double) * (size_t)n * nk);
  for (int k = 0; k < nk; k++) {
    double *r = rho + (size_t)k * n;
    for (int v = 0; v < n; v++) xs[v] = v, r[v] = res->est[v * nk + k].rho;
    nnt_circuit_median(r, n); /* sorts r */
    nnt_plot_add(p, n, xs, r, kinds[k], NNT_PLOT_LINE | NNT_PLOT_POINTS);
    printf("margin %-20s min=%.4g median=%.4g max=%.4g (upper bounds, %d inputs, output %d); "
           "certified lower bound min=%.3g", kinds[k], res->rho_min[k], res->rho_med[k], res->rho_max[k], n, cfg->output,
           res->lower_min[k]);
    if (res->attack_from[k]) /* a flip of some layers is a flip of the net: still an upper bound, on every layer's margin */
      printf("; RESTRICTED attack: the smaller of layers %d..%d of %d only (the last %d of %d blocks, %ld of %ld parameters) "
             "and every layer's stored weights and biases only (%ld parameters; smaller at %d of %d inputs), "
             "an upper bound on the all-layer margin; the certified bound covers every layer",
             res->attack_from[k], res->nlayers[k] - 1, res->nlayers[k], res->attack_blocks[k], res->nblocks[k],
             res->attack_params[k], res->params[k], res->stored[k], res->stored_wins[k], n);
    printf("\n");
  }
  st = nnt_plot_save(p, dir, "margins");
  nnt_plot_free(p);
  free(xs), free(rho);
  return st;
}

void nnt_report_circuit_margin_sweep_table(const nnt_circuit_margin_cfg *cfg, const nnt_circuit_margin_sweep_result *res) {
  if (cfg->family)
    printf("depth  median_rho_compiled  median_rho_corrected  (upper bounds; random circuits: %d x %d inputs, width %d)\n",
           res->circuits, res->inputs, cfg->width);
  else printf("depth  median_rho_compiled  median_rho_corrected  (upper bounds; chain of ID gates, inputs 0 and 1)\n");
  for (int d = 0; d < res->ndepths; d++)
    printf("%5g  %19.4g  %20.4g   certified lower bounds: %.3g, %.3g\n", res->depth[d], res->med[0][d], res->med[1][d],
           res->low[0][d], res->low[1][d]);
}

int nnt_report_circuit_margin_sweep(const char *out, const nnt_circuit_margin_cfg *cfg,
                                   const nnt_circuit_margin_sweep_result *res) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, out, "margin_depth.csv",
                        "depth,circuit,input,label,kind,layers,l1_norm,rho_upper,rho_lower_lipschitz,best_layer");
  if (st) return st;
  for (int i = 0; i < res->nrows; i++) {
    const nnt_circuit_margin_row *r = &res->rows[i];
    nnt_csv_row(&csv, "%d,%d,%d,%d,%s,%d,%.17g,%.17g,%.17g,%d", r->depth, r->circuit, r->input, r->label, kinds[r->kind],
                r->layers, r->l1_norm, r->rho, r->lower, r->best_layer);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  int nd = res->ndepths;
  nnt_plot *p = nnt_plot_new(cfg->family ? "margin vs depth, random layered circuits (bands: 10%-90% quantiles)"
                                         : "margin vs depth, chain of ID gates (bands: 10%-90% quantiles)",
                             "circuit depth q",
                             "all-layer margin: upper (solid), certified lower (dashed)");
  nnt_plot_log(p, 1, 1);
  for (int k = 0; k < 2; k++) {
    int s = nnt_plot_add(p, nd, res->depth, res->med[k], kinds[k], NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_band(p, nd, res->depth, res->lo[k], res->hi[k], s, NULL); /* explained in the title */
  }
  for (int k = 0; k < 2; k++) { /* certified lower bounds, dashed (may underflow the log axis: skip zeros) */
    double xs[32], ys[32];
    int np = 0;
    for (int d = 0; d < nd; d++)
      if (res->low[k][d] > 0) xs[np] = res->depth[d], ys[np++] = res->low[k][d];
    char label[64];
    snprintf(label, sizeof label, "%s: certified lower bound", kinds[k]);
    if (np) nnt_plot_add(p, np, xs, ys, label, NNT_PLOT_DASHED | NNT_PLOT_POINTS);
  }
  st = nnt_plot_save(p, out, "margin_depth");
  nnt_plot_free(p);
  return st;
}

static int learn_plots(const char *out, const nnt_circuit_learn_cfg *cfg, const nnt_circuit_learn_result *res) {
  int nw = cfg->nwidths, nn = cfg->nns;
  nnt_plot *p = nnt_plot_new("test error vs training samples, per width", "training samples n", "test error");
  nnt_plot_log(p, 1, 0);
  double xs[32];
  for (int ni = 0; ni < nn; ni++) xs[ni] = cfg->ns[ni];
  for (int wi = 0; wi < nw; wi++) {
    char label[64];
    snprintf(label, sizeof label, "w = %d (%d r)", res->r * cfg->widths[wi], cfg->widths[wi]);
    nnt_plot_add(p, nn, xs, res->err + (size_t)wi * nn, label, NNT_PLOT_LINE | NNT_PLOT_POINTS);
  }
  int st = nnt_plot_save(p, out, "learn_error");
  nnt_plot_free(p);
  if (st) return st;
  char title[128];
  snprintf(title, sizeof title, "samples to reach test error <= %g, vs width", cfg->eps);
  p = nnt_plot_new(title, "width w", "samples n");
  nnt_plot_log(p, 1, 1);
  if (res->nneed) nnt_plot_add(p, res->nneed, res->need_w, res->need_n, "trained nets (grid of n)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  st = nnt_plot_save(p, out, "learn_samples");
  nnt_plot_free(p);
  return st;
}

int nnt_report_circuit_learn(const char *dir, const nnt_circuit_learn_cfg *cfg, const nnt_circuit_learn_result *res) {
  int nw = cfg->nwidths, nn = cfg->nns, reps = cfg->reps;
  printf("circuit: %s, widest gate layer r = %d, %d inputs; test set %d; %d hidden layers, %d %s steps (lr %g), batch %d\n",
         res->circuit, res->r, res->ninputs, cfg->ntest, cfg->hidden, cfg->steps, cfg->sgd ? "SGD" : "Adam", res->lr,
         cfg->batch);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "learn.csv", "width,width_mult,n,rep,test_err,train_err,train_loss,seconds");
  if (st) return st;
  for (int i = 0; i < res->npoints; i++) {
    const nnt_circuit_learn_point *q = &res->points[i];
    nnt_csv_row(&csv, "%d,%d,%d,%d,%.6f,%.6f,%.6g,%.2f", q->width, q->mult, q->n, q->rep, q->test_err, q->train_err,
                q->train_loss, q->seconds);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  for (int wi = 0; wi < nw && dir; wi++) {
    char name[64], path[1024];
    snprintf(name, sizeof name, "trained_w%d.json", res->r * cfg->widths[wi]);
    if ((st = nnt_mlp_save(&res->trained[wi], nnt_path(path, sizeof path, dir, name)))) return st;
  }
  printf("test error (mean over %d rep%s)\n%8s", reps, reps > 1 ? "s" : "", "n \\ w");
  for (int wi = 0; wi < nw; wi++) printf(" %8d", res->r * cfg->widths[wi]);
  printf("\n");
  for (int ni = 0; ni < nn; ni++) {
    printf("%8d", cfg->ns[ni]);
    for (int wi = 0; wi < nw; wi++) printf(" %8.4f", res->err[wi * nn + ni]);
    printf("\n");
  }
  if ((st = learn_plots(dir, cfg, res))) return st;
  printf("samples to reach test error <= %g:", cfg->eps);
  for (int i = 0; i < res->nneed; i++) printf(" w=%g:n=%g", res->need_w[i], res->need_n[i]);
  printf("%s\n", res->nneed < nw ? " (other widths: not reached on the grid)" : "");
  return NNT_OK;
}

int nnt_report_circuit_verify(const char *dir, const nnt_circuit_verify_cfg *cfg, const nnt_circuit_verify_result *r) {
  const nnt_circuit_verify_counts *v = &r->counts;
  printf("inputs_checked=%ld mismatches=%ld mode=%s max_abs_err=%g time_s=%.2f\n", v->checked, v->mismatches,
         v->exhaustive ? "exhaustive" : "random", v->max_abs_err, r->seconds);
  if (v->mismatches) {
    printf("first mismatching input (bit i = input %d..0):", r->c.ninputs - 1);
    if (v->exhaustive)
      for (int i = r->c.ninputs - 1; i >= 0; i--) printf("%ld", (v->first_bad >> i) & 1);
    else printf(" random vector #%ld", v->first_bad);
    printf("\n");
  }
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "verify.csv", "correct,inputs_checked,mismatches,mode,max_abs_err,seconds");
  if (st) return st;
  nnt_csv_row(&csv, "%d,%ld,%ld,%s,%.17g,%.3f", cfg->correct, v->checked, v->mismatches,
              v->exhaustive ? "exhaustive" : "random", v->max_abs_err, r->seconds);
  return nnt_csv_close(&csv);
}

int nnt_report_circuit_compile(const char *file, const nnt_smlp *net, int dense) {
  if (!dense) return nnt_smlp_save(net, file);
  nnt_mlp d;
  nnt_smlp_to_dense(&d, net);
  int st = nnt_mlp_save(&d, file);
  nnt_mlp_free(&d);
  return st;
}

int nnt_report_circuit_claim35(const char *dir, int n, const nnt_circuit_claim35_row *rows) {
  printf("Claim 3.5: f = (W_d...W_1) x - 1/2, W_i = 1, x = 1; perturbations of (W_1..W_d); corrected: round between layers\n");
  printf("%5s %12s %8s %14s %14s | %16s %14s %14s\n", "d", "1/sqrt(d)", "flips", "margin (run)", "sqrt(d)(1-2^-1/d)",
         "flips < 1/3", "corrected <=", "claim >= 1/3");
  nnt_csv csv;
  int bad = 0, st = nnt_csv_open(&csv, dir, "claim35.csv",
                                 "d,claim_norm,claim_flips,margin_run,margin_closed,corrected_flips_below,corrected_tried,"
                                 "corrected_upper,holds");
  if (st) return st;
  for (int k = 0; k < n; k++) {
    const nnt_circuit_claim35_row *r = &rows[k];
    int ok = r->claim_flips && r->plain <= r->claim_norm && fabs(r->plain - r->plain_closed) < 1e-9 && r->corr_keeps &&
             r->corr_below_flips == 0 && r->corr_upper >= 1.0 / 3;
    bad += !ok;
    printf("%5d %12.6f %8s %14.6f %14.6f | %9ld of %-5ld %14.6f %14s\n", r->d, r->claim_norm, r->claim_flips ? "yes" : "NO",
           r->plain, r->plain_closed, r->corr_below_flips, r->corr_tried, r->corr_upper, ok ? "holds" : "VIOLATED");
    nnt_csv_row(&csv, "%d,%.17g,%d,%.17g,%.17g,%ld,%ld,%.17g,%d", r->d, r->claim_norm, r->claim_flips, r->plain,
                r->plain_closed, r->corr_below_flips, r->corr_tried, r->corr_upper, ok);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  if (bad) return nnt_fail(NNT_ECHECK, "Claim 3.5 fails at %d of %d depths", bad, n);
  return NNT_OK;
}

int nnt_report_circuit_d5(const char *dir, const char *file, const nnt_circuit_d5_cfg *cfg, const nnt_circuit_d5_result *r) {
  const nnt_circuit_d5 *k = &r->k;
  printf("Theorem D.6's (D.5) for %s, output %d: m=%d q=%d r=%d params=%ld, %d corrections, over %d inputs\n", file,
         cfg->output, r->ninputs, r->depth, r->width_max, r->params, k->d, r->n);
  if (r->exhaustive)
    printf("inputs      all %d of the circuit: gamma_D5 and gamma_certified hold for every input\n", r->n);
  else
    printf("inputs      SAMPLED: %d random of the 2^%d; gamma_D5 and gamma_certified are proven at these inputs only "
           "(for the others an estimate)\n", r->n, r->ninputs);
  printf("attack      %d of the %d inputs, perturbing layers %d..%d of %d (%ld parameters); a flip found at any input "
         "bounds the margin from above, whatever the sample\n", r->nattack, r->n, r->attack_from, r->nlayers - 1, r->nlayers,
         r->attack_params);
  printf("radii       sigma_zeta=%.6g sigma_theta=%.6g sigma_xi=%.6g sigma_h=%g\n", k->sigma_zeta, k->sigma_theta,
         k->sigma_xi, k->sigma_h);
  if (k->d)
    printf("constants   kappa_theta=%.6g kappa_xi=%.6g mu=%.6g mu0=%.6g lambda=%.6g\n", k->kappa_theta, k->kappa_xi,
           k->mu, k->mu0, k->lambda);
  else /* one layer f_0 and no correction: only (D.6) and sigma_theta remain, with sigma_zeta = 1 */
    printf("constants   kappa_theta, kappa_xi, mu: none (no correction) mu0=%.6g lambda=%.6g\n", k->mu0, k->lambda);
  int bind = 0;
  for (int i = 0; i < NNT_CIRCUIT_D5_TERMS; i++) {
    printf("  %-34s %.6g\n", nnt_circuit_d5_term_names[i], k->term[i]);
    bind = k->term[i] < k->term[bind] ? i : bind;
  }
  if (cfg->scale != 1) printf("fault injection: gamma_D5 = %g x (D.5)\n", cfg->scale);
  printf("gamma_D5=%.6g gamma_certified=%.6g gamma_attack=%.6g certified/D5=%.4g attack/D5=%.4g (binding: %s)\n",
         r->gamma_d5, r->certified, r->attack, r->certified / r->gamma_d5, r->attack / r->gamma_d5,
         nnt_circuit_d5_term_names[bind]);
  printf("check: proven gamma_D5 <= found flip gamma_attack: %s\n", r->contradiction ? "VIOLATED" : "holds");
  int range_bad = r->all_ok && (r->range_outside || r->all_above);
  if (r->all_ok) {
    const nnt_circuit_d5 *a = &r->kall;
    if (cfg->range_scale != 1) printf("fault injection: the weights-alone ranges x %g\n", cfg->range_scale);
    printf("weights     every input of the 2^%d at once, from the weights alone: kappa_theta=%.6g mu0=%.6g lambda=%.6g "
           "sigma_theta=%.6g sigma_xi=%.6g\n", r->ninputs, a->kappa_theta, a->mu0, a->lambda, a->sigma_theta, a->sigma_xi);
    int ab = 0;
    for (int i = 1; i < NNT_CIRCUIT_D5_TERMS; i++) ab = a->term[i] < a->term[ab] ? i : ab;
    printf("gamma_D5_all_inputs=%.6g (weights alone, proven at every input) %s/all=%.4g (binding: %s)\n", r->gamma_all,
           r->exhaustive ? "enumerated" : "sampled", r->gamma_d5 / r->gamma_all, nnt_circuit_d5_term_names[ab]);
    printf("check: layer values at the %d inputs inside the weights-alone ranges: %s (%ld values", r->n,
           r->range_outside ? "VIOLATED" : "holds", r->range_checked);
    if (r->range_outside)
      printf(", %ld outside; first: layer %d unit %d at input %d is %.17g, range [%.17g, %.17g]", r->range_outside, r->range_layer,
             r->range_unit, r->range_input, r->range_value, r->range_lo, r->range_hi);
    printf(")\ncheck: gamma_D5_all_inputs <= gamma_D5 over the %d inputs: %s\n", r->n, r->all_above ? "VIOLATED" : "holds");
  } else
    printf("weights     gamma_D5_all_inputs: not available: %s\n", r->all_why);
  printf("time        constants %.3g s, certificate %.3g s, attack %.3g s, weights-alone ranges %.3g s (wall)\n", r->seconds[0],
         r->seconds[1], r->seconds[2], r->seconds[3]);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "d5.csv",
                        "file,output,inputs,exhaustive,attack_inputs,attack_from_layer,corrections,sigma_zeta,sigma_theta,sigma_xi,"
                        "kappa_theta,kappa_xi,mu,mu0,lambda,gamma_d5,gamma_certified,gamma_attack,scale,holds,"
                        "gamma_d5_all_inputs,all_kappa_theta,all_mu0,all_lambda,range_scale,ranges_hold");
  if (st) return st;
  nnt_csv_row(&csv, "%s,%d,%d,%d,%d,%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%d",
              file, cfg->output, r->n, r->exhaustive, r->nattack, r->attack_from, k->d, k->sigma_zeta, k->sigma_theta, k->sigma_xi, k->kappa_theta, k->kappa_xi, k->mu,
              k->mu0, k->lambda, r->gamma_d5, r->certified, r->attack, cfg->scale, !r->contradiction, r->all_ok ? r->gamma_all : NAN,
              r->all_ok ? r->kall.kappa_theta : NAN, r->all_ok ? r->kall.mu0 : NAN, r->all_ok ? r->kall.lambda : NAN, cfg->range_scale,
              r->all_ok && !range_bad);
  if ((st = nnt_csv_close(&csv))) return st;
  if (range_bad)
    return nnt_fail(NNT_ECHECK, "(D.5) from the weights: %s", r->range_outside ? "a layer value lies outside its weights-alone range"
                                                                                  : "gamma over every input lies above gamma over the inputs used");
  if (r->contradiction)
    return nnt_fail(NNT_ECHECK, "(D.5): the proven lower bound %g lies above the attack's flip at %g", r->gamma_d5, r->attack);
  return NNT_OK;
}

cJSON *nnt_report_circuit_d5_json(const nnt_circuit_d5_result *r) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "inputs", r->n);
  cJSON_AddBoolToObject(j, "exhaustive", r->exhaustive);
  cJSON_AddNumberToObject(j, "corrections", r->k.d);
  cJSON_AddNumberToObject(j, "gamma_d5", r->gamma_d5);
  if (r->all_ok) {
    cJSON_AddNumberToObject(j, "gamma_d5_all_inputs", r->gamma_all);
    cJSON_AddNumberToObject(j, "all_kappa_theta", r->kall.kappa_theta);
    cJSON_AddNumberToObject(j, "all_mu0", r->kall.mu0);
    cJSON_AddNumberToObject(j, "all_lambda", r->kall.lambda);
    cJSON_AddNumberToObject(j, "range_values_checked", (double)r->range_checked);
    cJSON_AddNumberToObject(j, "range_values_outside", (double)r->range_outside);
  } else
    cJSON_AddStringToObject(j, "gamma_d5_all_inputs_unavailable", r->all_why);
  cJSON_AddNumberToObject(j, "gamma_certified", r->certified);
  if (isfinite(r->attack)) cJSON_AddNumberToObject(j, "gamma_attack", r->attack);
  cJSON_AddBoolToObject(j, "holds", !r->contradiction && !(r->all_ok && (r->range_outside || r->all_above)));
  return j;
}
