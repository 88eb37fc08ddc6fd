/* Reports of nnt icl (construct part): results in memory -> console, CSV, run.json, plots. */
#include <math.h>
#include <stdlib.h>

#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_icl.h"

void cli_icl_layer_table(FILE *f, const nnt_icl_tf *tf) {
  fprintf(f, "| layer | type | heads / hidden | writes |\n|---|---|---|---|\n");
  for (int l = 0; l < tf->nlayers; l++)
    fprintf(f, "| %d | %s | %d | %s |\n", l < tf->nstep ? l + 1 : l - tf->nstep + 1, nnt_icl_ltype_names[tf->layer[l].type],
            tf->layer[l].nheads, tf->layer[l].what);
}

static cJSON *cfg_json(const nnt_icl_construct_cfg *c) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "N", c->net.N);
  cJSON_AddNumberToObject(j, "K", c->net.K);
  cJSON_AddNumberToObject(j, "dx", c->net.dx);
  cJSON_AddNumberToObject(j, "dy", c->net.dy);
  cJSON_AddStringToObject(j, "act", nnt_icl_act_names[c->net.act]);
  cJSON_AddNumberToObject(j, "out_act", c->net.out_act);
  cJSON_AddNumberToObject(j, "n", c->n);
  cJSON_AddNumberToObject(j, "steps", c->steps);
  cJSON_AddNumberToObject(j, "M", c->M);
  cJSON_AddNumberToObject(j, "R", c->R);
  cJSON_AddNumberToObject(j, "eta", c->eta);
  cJSON_AddNumberToObject(j, "B", c->B);
  cJSON_AddNumberToObject(j, "w0_std", c->w0_std);
  cJSON_AddNumberToObject(j, "teacher_std", c->teacher_std);
  cJSON_AddNumberToObject(j, "gate", c->gate);
  cJSON_AddNumberToObject(j, "readout", c->readout);
  cJSON_AddNumberToObject(j, "bound_scale", c->bound_scale);
  return j;
}

int cli_icl_construct_report(const cli_common *co, const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r) {
  printf("icl construct: %s net N=%d K=%d dx=%d dy=%d (D_N=%zu, output activation %s), n=%d examples + query, "
         "eta=%g, box B=%g, M=%d pieces on [-%g,%g], seed=%llu\n",
         nnt_icl_act_names[c->net.act], c->net.N, c->net.K, c->net.dx, c->net.dy, nnt_icl_net_nparams(&c->net),
         c->net.out_act ? "on" : "off", c->n, c->eta, c->B, c->M, c->R, c->R, co->seed);
  printf("transformer: token width D=%d, %d layers per GD step, %d steps + %d readout = %d layers, %ld heads per step "
         "(largest layer %ld)\n",
         r->D, r->layers_per_step, r->steps, r->readout_layers, r->layers, r->heads_per_step, r->max_heads_layer);
  printf("step  |w_TF-w_GD|_2  bound (Cor 1.1)  |w_TF-w_GD|_inf  |grad_TF-grad|_2  bound (Lem 2-6)  L_f        "
         "loss(w_TF)     loss(w_GD)     pred_TF      pred_GD      invariants\n");
  for (int l = 0; l < r->steps; l++) {
    const nnt_icl_construct_step *s = &r->step[l];
    printf("%4d  %13.3e  %15.3e  %15.3e  %16.3e  %15.3e  %-9.3g  %-13.8g  %-13.8g  %-11.7g  %-11.7g  %s\n", l + 1, s->err2,
           s->err_bound, s->errinf, s->grad_err, s->grad_bound, s->lip, s->loss_tf, s->loss_gd, s->pred_tf, s->pred_gd,
           s->copies_ok && s->scratch_ok ? "ok" : "FAIL");
  }
  printf("|w_GD|_2=%.4g after %d steps; largest |pre-activation| %.3g (interpolation range R=%g%s); %.3f s\n", r->wgd_norm,
         r->steps, r->max_range, c->R, r->max_range > c->R ? ", exceeded: extrapolated linearly" : "", r->seconds);
  printf("invariants: w copies identical and scratch zero after every block: %s\n", r->invariants_ok ? "yes" : "NO");
  if (isnan(r->max_bound))
    printf("Theorem 1's bound: not evaluated (%s is outside the theorem, which needs a C^4 activation)\n",
           nnt_icl_act_names[c->net.act]);
  else if (r->bound_ok)
    printf("Theorem 1's bound (M=%d, R=%g, B=%g, %d steps%s): holds on every step\n", c->M, c->R, c->B, r->steps,
           c->bound_scale != 1 ? ", constants scaled" : "");
  else
    printf("Theorem 1's bound: FAILS at step %d (a measured error exceeds it)\n", r->bound_step);
  printf("max_err=%.3e max_bound=%.3e\n", r->max_err, r->max_bound);
  if (!co->out) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, co->out, "steps.csv",
                         "step,err2,err_bound,errinf,grad_err,grad_bound,lip,loss_tf,loss_gd,pred_tf,pred_gd,copies_ok,scratch_ok");
  if (st) return st;
  for (int l = 0; l < r->steps; l++) {
    const nnt_icl_construct_step *s = &r->step[l];
    nnt_csv_row(&csv, "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d", l + 1, s->err2, s->err_bound,
                s->errinf, s->grad_err, s->grad_bound, s->lip, s->loss_tf, s->loss_gd, s->pred_tf, s->pred_gd, s->copies_ok,
                s->scratch_ok);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  cJSON *j = cfg_json(c);
  cJSON_AddNumberToObject(j, "D", r->D);
  cJSON_AddNumberToObject(j, "layers", r->layers);
  cJSON_AddNumberToObject(j, "heads_per_step", (double)r->heads_per_step);
  cJSON_AddNumberToObject(j, "max_err", r->max_err);
  cJSON_AddNumberToObject(j, "max_err2", r->max_err2);
  cJSON_AddNumberToObject(j, "invariants_ok", r->invariants_ok);
  if (!isnan(r->max_bound)) cJSON_AddNumberToObject(j, "max_bound", r->max_bound);
  cJSON_AddNumberToObject(j, "bound_ok", r->bound_ok);
  return nnt_runinfo_write(co->out, "icl construct", j, co->seed, co->threads, r->seconds);
}

static double max_grad_err(const nnt_icl_construct_result *q) {
  double g = 0;
  for (int l = 0; l < q->steps; l++) g = fmax(g, q->step[l].grad_err);
  return g;
}
static double last_err(const nnt_icl_construct_result *q) { return q->step[q->steps - 1].err2; }

/* Least-squares slope of log err against log M over points [a, a+m). */
static double fit_slope(const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r, int a, int m) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int nf = 0;
  for (int i = a; i < a + m; i++)
    if (last_err(&r[i]) > 0) {
      const double x = log((double)c[i].M), y = log(last_err(&r[i]));
      sx += x, sy += y, sxx += x * x, sxy += x * y, nf++;
    }
  return nf >= 2 ? (nf * sxy - sx * sy) / (nf * sxx - sx * sx) : NAN;
}

int cli_icl_construct_sweep_report(const cli_common *co, const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r,
                                   int np, int nM, double seconds) {
  const nnt_icl_construct_cfg *c0 = &c[0];
  printf("icl construct-sweep: %s net dx=%d dy=%d, %d GD steps, eta=%g, B=%g, R=%g, seed=%llu\n", nnt_icl_act_names[c0->net.act],
         c0->net.dx, c0->net.dy, c0->steps, c0->eta, c0->B, c0->R, co->seed);
  printf("   N     K     n      M      D  heads/step  |w_TF-w_GD|_2 (last)  max_err (inf)  max |grad err|  time (s)\n");
  for (int i = 0; i < np; i++) {
    const nnt_icl_construct_result *q = &r[i];
    printf("%4d  %4d  %4d  %5d  %5d  %10ld  %20.3e  %13.3e  %14.3e  %8.3f\n", c[i].net.N, c[i].net.K, c[i].n, c[i].M, q->D,
           q->heads_per_step, last_err(q), q->max_err, max_grad_err(q), q->seconds);
    if (nM >= 2 && (i + 1) % nM == 0)
      printf("fit: |w_TF-w_GD|_2 ~ M^%.2f at N=%d K=%d n=%d (interpolation theory: M^-2)\n", fit_slope(c, r, i + 1 - nM, nM),
             c[i].net.N, c[i].net.K, c[i].n);
  }
  if (!co->out) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, co->out, "sweep.csv", "N,K,n,M,D,heads_per_step,err2_last,max_errinf,max_grad_err,seconds");
  if (st) return st;
  for (int i = 0; i < np; i++)
    nnt_csv_row(&csv, "%d,%d,%d,%d,%d,%ld,%.17g,%.17g,%.17g,%.6f", c[i].net.N, c[i].net.K, c[i].n, c[i].M, r[i].D,
                r[i].heads_per_step, last_err(&r[i]), r[i].max_err, max_grad_err(&r[i]), r[i].seconds);
  if ((st = nnt_csv_close(&csv))) return st;
  if (nM >= 2) { /* one line per shape, and M^-2 through the first shape's first point */
    double *x = malloc(sizeof(double) * nM), *y = malloc(sizeof(double) * nM);
    char label[96];
    nnt_plot *p = nnt_plot_new("ICGD transformer vs projected GD", "ReLU pieces M", "|w_TF - w_GD|_2 after the last step");
    nnt_plot_log(p, 1, 1);
    for (int g = 0; g < np / nM; g++) {
      for (int i = 0; i < nM; i++) x[i] = c[g * nM + i].M, y[i] = last_err(&r[g * nM + i]);
      snprintf(label, sizeof label, "%s N=%d K=%d n=%d", nnt_icl_act_names[c0->net.act], c[g * nM].net.N, c[g * nM].net.K, c[g * nM].n);
      nnt_plot_add(p, nM, x, y, label, NNT_PLOT_LINE | NNT_PLOT_POINTS);
    }
    for (int i = 0; i < nM; i++) x[i] = c[i].M, y[i] = last_err(&r[0]) * pow((double)c[0].M / c[i].M, 2);
    nnt_plot_add(p, nM, x, y, "M^-2", NNT_PLOT_DASHED);
    st = nnt_plot_save(p, co->out, "err_vs_M");
    nnt_plot_free(p);
    free(x), free(y);
    if (st) return st;
  }
  cJSON *j = cfg_json(c0);
  cJSON *pts = cJSON_AddArrayToObject(j, "points");
  for (int i = 0; i < np; i++) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "N", c[i].net.N);
    cJSON_AddNumberToObject(o, "K", c[i].net.K);
    cJSON_AddNumberToObject(o, "n", c[i].n);
    cJSON_AddNumberToObject(o, "M", c[i].M);
    cJSON_AddItemToArray(pts, o);
  }
  return nnt_runinfo_write(co->out, "icl construct-sweep", j, co->seed, co->threads, seconds);
}
