/* Reports of nnt icl: results in memory -> console, CSV, plots (run.json: the driver). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_icl.h"

void nnt_report_icl_layer_table(FILE *f, const nnt_icl_tf *tf) {
  fprintf(f, "| layer | type | heads / hidden | writes |\n|---|---|---|---|\n");
  for (int l = 0; l < tf->nlayers; l++)
    fprintf(f, "| %d | %s | %d | %s |\n", l < tf->nstep ? l + 1 : l - tf->nstep + 1, nnt_icl_ltype_names[tf->layer[l].type],
            tf->layer[l].nheads, tf->layer[l].what);
}

cJSON *nnt_report_icl_construct_json(const nnt_icl_construct_result *r) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "D", r->D);
  cJSON_AddNumberToObject(j, "layers", r->layers);
  cJSON_AddNumberToObject(j, "heads_per_step", (double)r->heads_per_step);
  cJSON_AddNumberToObject(j, "max_err", r->max_err);
  cJSON_AddNumberToObject(j, "max_err2", r->max_err2);
  cJSON_AddBoolToObject(j, "invariants_ok", r->invariants_ok);
  if (!isnan(r->max_bound)) cJSON_AddNumberToObject(j, "max_bound", r->max_bound);
  cJSON_AddBoolToObject(j, "bound_ok", r->bound_ok);
  return j;
}

int nnt_report_icl_construct(const char *out, const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r) {
  printf("icl construct: %s net N=%d K=%d dx=%d dy=%d (D_N=%zu, output activation %s), n=%d examples + query, "
         "eta=%g, box B=%g, M=%d pieces on [-%g,%g], seed=%llu\n",
         nnt_icl_act_names[c->net.act], c->net.N, c->net.K, c->net.dx, c->net.dy, nnt_icl_net_nparams(&c->net),
         c->net.out_act ? "on" : "off", c->n, c->eta, c->B, c->M, c->R, c->R, (unsigned long long)c->seed);
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
  if (!out) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, out, "steps.csv",
                         "step,err2,err_bound,errinf,grad_err,grad_bound,lip,loss_tf,loss_gd,pred_tf,pred_gd,copies_ok,scratch_ok");
  if (st) return st;
  for (int l = 0; l < r->steps; l++) {
    const nnt_icl_construct_step *s = &r->step[l];
    nnt_csv_row(&csv, "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d", l + 1, s->err2, s->err_bound,
                s->errinf, s->grad_err, s->grad_bound, s->lip, s->loss_tf, s->loss_gd, s->pred_tf, s->pred_gd, s->copies_ok,
                s->scratch_ok);
  }
  return nnt_csv_close(&csv);
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

int nnt_report_icl_construct_sweep(const char *out, const nnt_icl_construct_sweep_result *sw) {
  const nnt_icl_construct_cfg *c = sw->cfg, *c0 = &c[0];
  const nnt_icl_construct_result *r = sw->res;
  const int np = sw->np, nM = sw->nM;
  printf("icl construct-sweep: %s net dx=%d dy=%d, %d GD steps, eta=%g, B=%g, R=%g, seed=%llu\n", nnt_icl_act_names[c0->net.act],
         c0->net.dx, c0->net.dy, c0->steps, c0->eta, c0->B, c0->R, (unsigned long long)c0->seed);
  printf("   N     K     n      M      D  heads/step  |w_TF-w_GD|_2 (last)  max_err (inf)  max |grad err|  time (s)\n");
  for (int i = 0; i < np; i++) {
    const nnt_icl_construct_result *q = &r[i];
    printf("%4d  %4d  %4d  %5d  %5d  %10ld  %20.3e  %13.3e  %14.3e  %8.3f\n", c[i].net.N, c[i].net.K, c[i].n, c[i].M, q->D,
           q->heads_per_step, last_err(q), q->max_err, max_grad_err(q), q->seconds);
    if (nM >= 2 && (i + 1) % nM == 0)
      printf("fit: |w_TF-w_GD|_2 ~ M^%.2f at N=%d K=%d n=%d (interpolation theory: M^-2)\n", fit_slope(c, r, i + 1 - nM, nM),
             c[i].net.N, c[i].net.K, c[i].n);
  }
  if (!out) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, out, "sweep.csv", "N,K,n,M,D,heads_per_step,err2_last,max_errinf,max_grad_err,seconds");
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
    st = nnt_plot_save(p, out, "err_vs_M");
    nnt_plot_free(p);
    free(x), free(y);
  }
  return st;
}

/* ---------------------------------------------------------------- icl train */


/* train.csv (with a curriculum, each row also says the task at its last step: dims, points) and loss.png/.svg. */
static int write_train_files(const char *dir, const nnt_icl_train_cfg *c, const nnt_icl_train_result *r, const char *preset,
                             int S) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "train.csv", S ? "step,loss,dims,points" : "step,loss");
  if (st) return st;
  for (int i = 0; i < r->nlog; i++) {
    int dims, pts;
    nnt_icl_curriculum_at(c, r->log_step[i] - 1, &dims, &pts);
    if (S) nnt_csv_row(&csv, "%lld,%.9g,%d,%d", r->log_step[i], r->log_loss[i], dims, pts);
    else nnt_csv_row(&csv, "%lld,%.9g", r->log_step[i], r->log_loss[i]);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  double *x = nnt_xmalloc(sizeof(double) * (r->nlog + 1));
  for (int i = 0; i < r->nlog; i++) x[i] = (double)r->log_step[i];
  char title[128];
  snprintf(title, sizeof title, "icl train: %s, %s attention, %d-layer targets", preset, nnt_icl_attn_names[c->arch.attn],
           c->task.depth);
  nnt_plot *p = nnt_plot_new(title, "step", "training loss (MSE)");
  nnt_plot_log(p, 0, 1);
  nnt_plot_add(p, r->nlog, x, r->log_loss, NULL, NNT_PLOT_LINE);
  st = nnt_plot_save(p, dir, "loss");
  nnt_plot_free(p), free(x);
  return st;
}

int nnt_report_icl_train(const char *dir, const nnt_icl_train_cfg *c, const nnt_icl_train_result *r, const char *preset,
                         int threads) {
  long long iv;
  int S;
  nnt_icl_curriculum_stages(c, &iv, &S);
  int st = dir ? write_train_files(dir, c, r, preset, S) : NNT_OK;
  if (st) return st;
  long long done = r->steps - r->first_step;
  printf("icl train: %s preset, %s attention, target depth %d: %zu parameters, %d layers x %d wide, %d heads, "
         "batch %d x %d points\n",
         preset, nnt_icl_attn_names[c->arch.attn], c->task.depth, r->nparams, c->arch.n_layer, c->arch.n_embd,
         c->arch.n_head, c->batch, c->task.n);
  if (S) {
    int d0, p0;
    nnt_icl_curriculum_at(c, 0, &d0, &p0);
    printf("curriculum garg: %d -> %d dimensions and %d -> %d points in %d stages of %lld steps (full task from step %lld)\n",
           d0, c->task.d, p0, c->task.n, S, iv, iv * S);
  }
  if (r->first_step) printf("resumed at step %lld\n", r->first_step);
  printf("%-10s %12s\n", "step", "loss");
  int every = r->nlog > 10 ? r->nlog / 10 : 1;
  for (int i = 0; i < r->nlog; i++)
    if (i % every == 0 || i == r->nlog - 1) printf("%-10lld %12.5f\n", r->log_step[i], r->log_loss[i]);
  if (done > 0)
    printf("%lld steps in %.1f s (%.3f s/step, %d thread(s))\n", done, r->seconds, r->seconds / done, threads);
  printf("final_loss=%.6g\n", r->nlog ? r->log_loss[r->nlog - 1] : NAN);
  return NNT_OK;
}


/* ---------------------------------------------------------------- icl eval, baselines */

static void cond_name(const nnt_icl_cond *c, char *buf, size_t n) {
  if (c->w_mean != 0) snprintf(buf, n, "mix%g_wmean%g", c->mix2, c->w_mean);
  else snprintf(buf, n, "mix%g", c->mix2);
}

static void cond_title(const nnt_icl_cond *c, char *buf, size_t n) {
  snprintf(buf, n, "x ~ %g N(-mu,I) + %g N(+mu,I), weight mean %g", 1 - c->mix2, c->mix2, c->w_mean);
}


/* Console table at a few positions, r2.csv (all positions, empty R² = undefined), one plot per
 * condition (pooled R², the per-batch spread as a band for the model or the prompt mean) and, with
 * a model, its curves for every condition with the in-distribution direct baseline (Figure 1). */
int nnt_report_icl_eval(const char *dir, const nnt_icl_eval_cfg *c, const nnt_icl_eval_result *r, int n_train) {
  int n = r->npos, show[16], ns = 0;
  const int want[] = {0, 1, 2, 5, 10, 15, 20, 30, 44, 45, 50, 75};
  for (int i = 0; i < (int)(sizeof want / sizeof *want); i++)
    if (want[i] < n) show[ns++] = want[i];
  if (n_train > 0 && n_train - 1 < n && ns < 15) show[ns++] = n_train - 1;
  if (show[ns - 1] != n - 1 && ns < 16) show[ns++] = n - 1;
  for (int i = 1; i < ns; i++) /* sorted, unique */
    for (int j = i; j > 0 && show[j] < show[j - 1]; j--) {
      int t = show[j];
      show[j] = show[j - 1], show[j - 1] = t;
    }
  printf("R² across prompts at each k (pooled; per-batch mean in parentheses; '-' = not run, 'undef' = zero variance)\n");
  for (int ci = 0; ci < r->ncond; ci++) {
    char title[160];
    cond_title(&r->cond[ci], title, sizeof title);
    printf("\n%s\n%4s", title, "k");
    for (int p = 0; p < NNT_ICL_NPRED; p++)
      if (r->has[p]) printf(" %22s", nnt_icl_pred_names[p]);
    printf("\n");
    for (int s = 0; s < ns; s++) {
      if (s && show[s] == show[s - 1]) continue;
      int k = show[s];
      printf("%4d", k);
      for (int p = 0; p < NNT_ICL_NPRED; p++) {
        if (!r->has[p]) continue;
        int i = nnt_icl_eval_at(r, ci, p, k);
        char cell[64];
        if (!r->batch_ok[i] && !r->pooled_ok[i]) snprintf(cell, sizeof cell, "%s", p >= NNT_ICL_PRED_DIRECT_BEST && p <= NNT_ICL_PRED_DIRECT_FINAL ? "-" : "undef");
        else snprintf(cell, sizeof cell, "%.3f (%.3f)", r->pooled_ok[i] ? r->pooled[i] : NAN, r->batch_mean[i]);
        printf(" %22s", cell);
      }
      printf("\n");
    }
  }
  printf("\n%d prompts in %d batches per condition; %d points stored, %d computed, %.1f s\n", c->prompts, r->nbatch,
         r->stats.stored, r->stats.computed, r->stats.wall_s);
  return dir ? nnt_report_icl_eval_files(dir, r, n_train) : NNT_OK;
}

/* The training length (k_train = its examples) as a dashed vertical line from ylo to yhi. When the
 * evaluation ends at or before it (last_k <= k_train) the x axis is extended a little past it, so
 * that the line stands inside the frame, not on its right border. */
static void mark_training_length(nnt_plot *pl, int last_k, int k_train, double ylo, double yhi) {
  if (k_train >= last_k) nnt_plot_xrange(pl, 0, k_train + fmax(1, ceil(0.04 * k_train)));
  char lab[64];
  snprintf(lab, sizeof lab, "training length (k = %d)", k_train);
  double vx[2] = {k_train, k_train}, vy[2] = {ylo, yhi};
  nnt_plot_add(pl, 2, vx, vy, lab, NNT_PLOT_DASHED);
}

int nnt_report_icl_eval_files(const char *dir, const nnt_icl_eval_result *r, int n_train) {
  int n = r->npos;
  nnt_csv f;
  int st = nnt_csv_open(&f, dir, "r2.csv",
                        "mix2,w_mean,k,predictor,r2_pooled,r2_batch_mean,r2_batch_sd,batches_defined,y_mean,y_sd");
  if (st) return st;
  for (int ci = 0; ci < r->ncond; ci++)
    for (int p = 0; p < NNT_ICL_NPRED; p++) {
      if (!r->has[p]) continue;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, ci, p, k);
        if (!r->batch_ok[i] && !r->pooled_ok[i] && (p == NNT_ICL_PRED_DIRECT_BEST || p == NNT_ICL_PRED_DIRECT_FINAL))
          continue; /* direct training did not run at k */
        char pooled[32] = "", bm[32] = "", bs[32] = "";
        if (r->pooled_ok[i]) snprintf(pooled, sizeof pooled, "%.6f", r->pooled[i]);
        if (r->batch_ok[i]) snprintf(bm, sizeof bm, "%.6f", r->batch_mean[i]), snprintf(bs, sizeof bs, "%.6f", r->batch_sd[i]);
        nnt_csv_row(&f, "%g,%g,%d,%s,%s,%s,%s,%d,%.6g,%.6g", r->cond[ci].mix2, r->cond[ci].w_mean, k,
                    nnt_icl_pred_names[p], pooled, bm, bs, r->batch_ok[i], r->y_mean[ci * n + k], r->y_sd[ci * n + k]);
      }
    }
  if ((st = nnt_csv_close(&f))) return st;
  double *x = nnt_xmalloc(sizeof(double) * n), *y = nnt_xmalloc(sizeof(double) * n), *lo = nnt_xmalloc(sizeof(double) * n),
         *hi = nnt_xmalloc(sizeof(double) * n);
  const char *label[NNT_ICL_NPRED] = {"prompt mean", "ridge", "3-NN", "direct (best epoch)", "direct (final epoch)", "model"};
  /* one series of predictor p in condition ci: its defined positions */
  for (int ci = 0; ci < r->ncond && !st; ci++) {
    char title[160], base[96], name[64];
    cond_title(&r->cond[ci], title, sizeof title);
    cond_name(&r->cond[ci], name, sizeof name);
    snprintf(base, sizeof base, "r2_%s", name);
    nnt_plot *pl = nnt_plot_new(title, "in-context examples k", "R² (pooled)");
    double ylo = -0.1; /* down to the lowest R² shown, at most -1.5 (the paper's axis) */
    for (int p = 0; p < NNT_ICL_NPRED; p++)
      for (int k = 0; k < n && r->has[p]; k++) {
        int i = nnt_icl_eval_at(r, ci, p, k);
        if (r->pooled_ok[i] && r->pooled[i] - 0.05 < ylo) ylo = r->pooled[i] - 0.05;
      }
    ylo = ylo < -1.5 ? -1.5 : ylo;
    nnt_plot_yrange(pl, ylo, 1.05);
    for (int p = NNT_ICL_NPRED - 1; p >= 0; p--) {
      if (!r->has[p]) continue;
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, ci, p, k);
        if (!r->pooled_ok[i]) continue;
        x[m] = k, y[m] = r->pooled[i], lo[m] = r->batch_mean[i] - r->batch_sd[i], hi[m] = r->batch_mean[i] + r->batch_sd[i];
        m++;
      }
      int direct = p == NNT_ICL_PRED_DIRECT_BEST || p == NNT_ICL_PRED_DIRECT_FINAL;
      int s = nnt_plot_add(pl, m, x, y, label[p], direct ? NNT_PLOT_LINE | NNT_PLOT_POINTS : NNT_PLOT_LINE);
      if (p == (r->has[NNT_ICL_PRED_MODEL] ? NNT_ICL_PRED_MODEL : NNT_ICL_PRED_MEAN)) {
        char band[64];
        snprintf(band, sizeof band, "%s: batch mean ± 1 sd", label[p]);
        nnt_plot_band(pl, m, x, lo, hi, s, band);
      }
    }
    if (n_train > 0) mark_training_length(pl, n - 1, n_train - 1, ylo, 1.05); /* the paper's vertical line */
    st = nnt_plot_save(pl, dir, base);
    nnt_plot_free(pl);
  }
  if (!st && r->has[NNT_ICL_PRED_MODEL]) {
    nnt_plot *pl = nnt_plot_new("model R² per test condition (Figure 1/2)", "in-context examples k", "R² (pooled)");
    nnt_plot_yrange(pl, -1.5, 1.05);
    for (int ci = 0; ci < r->ncond; ci++) {
      char name[64];
      cond_name(&r->cond[ci], name, sizeof name);
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, ci, NNT_ICL_PRED_MODEL, k);
        if (r->pooled_ok[i]) x[m] = k, y[m++] = r->pooled[i];
      }
      nnt_plot_add(pl, m, x, y, name, NNT_PLOT_LINE);
    }
    for (int p = NNT_ICL_PRED_MEAN; p <= NNT_ICL_PRED_DIRECT_BEST; p += NNT_ICL_PRED_DIRECT_BEST) {
      if (!r->has[p]) continue;
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = nnt_icl_eval_at(r, 0, p, k);
        if (r->pooled_ok[i]) x[m] = k, y[m++] = r->pooled[i];
      }
      nnt_plot_add(pl, m, x, y, p == NNT_ICL_PRED_MEAN ? "prompt mean (first condition)" : "direct, best epoch (first condition)",
                   NNT_PLOT_DASHED);
    }
    st = nnt_plot_save(pl, dir, "mixtures");
    nnt_plot_free(pl);
  }
  free(x), free(y), free(lo), free(hi);
  return st;
}


/* ---------------------------------------------------------------- icl sweep-depth */

int nnt_report_icl_depth(const char *out, const nnt_icl_depth_cfg *c, const nnt_icl_depth_result *r) {
  const int nm = r->nm;
  int st = NNT_OK;
  printf("R² (pooled; depth.csv adds the per-batch mean and sd) at k in-context examples, x ~ the training distribution, %d prompts\n",
         r->used.prompts);
  printf("%-40s %6s %5s %5s %8s", "model", "layers", "heads", "embd", "attn");
  for (int e = 0; e < c->nexamples; e++) printf("   model k=%-3d  mean  ridge", c->examples[e]);
  printf("\n");
  nnt_csv f;
  int csv = out != NULL;
  if (csv && (st = nnt_csv_open(&f, out, "depth.csv",
                                "model,layers,heads,n_embd,attn,k,r2_model,r2_model_batch_mean,r2_model_batch_sd,r2_mean,r2_ridge")))
    csv = 0;
  for (int i = 0; i < nm; i++) {
    const nnt_icl_gpt_arch *ar = &r->arch[i];
    const nnt_icl_eval_result *q = &r->res[i];
    printf("%-40s %6d %5d %5d %8s", r->paths[i], ar->n_layer, ar->n_head, ar->n_embd, nnt_icl_attn_names[ar->attn]);
    for (int e = 0; e < c->nexamples; e++) {
      int k = c->examples[e], im = nnt_icl_eval_at(q, 0, NNT_ICL_PRED_MODEL, k);
      double pm = q->pooled[im], pb = q->pooled[nnt_icl_eval_at(q, 0, NNT_ICL_PRED_MEAN, k)],
             pr = q->pooled[nnt_icl_eval_at(q, 0, NNT_ICL_PRED_RIDGE, k)];
      printf("   %11.3f %5.3f %6.3f", pm, pb, pr);
      if (csv)
        nnt_csv_row(&f, "%s,%d,%d,%d,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f", r->paths[i], ar->n_layer, ar->n_head, ar->n_embd,
                    nnt_icl_attn_names[ar->attn], k, pm, q->batch_mean[im], q->batch_sd[im], pb, pr);
    }
    printf("\n");
  }
  if (csv) st = nnt_csv_close(&f);
  if (st || !out) return st;
  nnt_plot *pl = nnt_plot_new("R² vs transformer depth (Figure 3)", "transformer layers", "R² (pooled)");
  double x[NNT_ICL_DEPTH_MAXM], y[NNT_ICL_DEPTH_MAXM];
  for (int e = 0; e < c->nexamples; e++) {
    char lab[64];
    snprintf(lab, sizeof lab, "%d examples", c->examples[e]);
    for (int i = 0; i < nm; i++)
      x[i] = r->arch[i].n_layer, y[i] = r->res[i].pooled[nnt_icl_eval_at(&r->res[i], 0, NNT_ICL_PRED_MODEL, c->examples[e])];
    nnt_plot_add(pl, nm, x, y, lab, NNT_PLOT_LINE | NNT_PLOT_POINTS);
    for (int i = 0; i < nm; i++) y[i] = r->res[i].pooled[nnt_icl_eval_at(&r->res[i], 0, NNT_ICL_PRED_MEAN, c->examples[e])];
    snprintf(lab, sizeof lab, "prompt mean, %d examples", c->examples[e]);
    nnt_plot_add(pl, nm, x, y, lab, NNT_PLOT_DASHED);
  }
  st = nnt_plot_save(pl, out, "depth");
  nnt_plot_free(pl);
  return st;
}


/* ---------------------------------------------------------------- icl figures */

/* Figure 1 of the paper (v1) is the ReLU transformer, Figure 2 the softmax one. */
static int fig_number(int attn) { return attn == NNT_ATTN_RELU ? 1 : 2; }

static void fig_panel_name(const nnt_icl_figures_result *r, int i, char *buf, size_t n) {
  const nnt_icl_fig_panel *p = &r->panel[i];
  int dup = 0; /* a second run of the same attention and target depth gets _2, _3, ... */
  for (int j = 0; j < i; j++) dup += r->panel[j].attn == p->attn && r->panel[j].depth == p->depth;
  if (dup) snprintf(buf, n, "fig%d_%s_td%d_%d", fig_number(p->attn), nnt_icl_attn_names[p->attn], p->depth, dup + 1);
  else snprintf(buf, n, "fig%d_%s_td%d", fig_number(p->attn), nnt_icl_attn_names[p->attn], p->depth);
}

/* The weight-shift panel of the same run: "wshift_" in place of "fig<N>_". */
static void fig_shift_name(const nnt_icl_figures_result *r, int i, char *buf, size_t n) {
  char base[96];
  fig_panel_name(r, i, base, sizeof base);
  snprintf(buf, n, "wshift_%.80s", base + 5);
}

static int fig_has_shift(const nnt_icl_fig_panel *p) {
  for (int c = 0; c < p->ncond; c++)
    if (!nnt_icl_fig_in_main(p, c)) return 1;
  return 0;
}

static double fig_r2(const nnt_icl_fig_panel *p, int c, int pred, int k) {
  return k < p->npos ? p->r2[nnt_icl_fig_at(p, c, pred, k)] : NAN;
}

static void fig_cell(double v) {
  if (isnan(v)) printf(" %7s", "-");
  else printf(" %7.3f", v);
}

/* One series of predictor q in condition c: its defined positions, clipped at the axis' -1.5. */
static void fig_series(nnt_plot *pl, const nnt_icl_fig_panel *p, int c, int q, const char *label, int style) {
  double *x = nnt_xmalloc(sizeof(double) * (size_t)p->npos), *y = nnt_xmalloc(sizeof(double) * (size_t)p->npos);
  int m = 0;
  for (int k = 0; k < p->npos; k++) {
    double v = fig_r2(p, c, q, k);
    if (!isnan(v)) x[m] = k, y[m++] = v < -1.5 ? -1.5 : v;
  }
  if (m) nnt_plot_add(pl, m, x, y, label, style);
  free(x), free(y);
}

/* The training length and R² = 1 across the whole x axis, dashed (the paper's two lines). */
static void fig_frame(nnt_plot *pl, const nnt_icl_fig_panel *p) {
  mark_training_length(pl, p->npos - 1, p->n_train - 1, -1.5, 1.05);
  double r[4];
  nnt_plot_ranges(pl, r);
  double hx[2] = {0, r[1]}, hy[2] = {1, 1};
  nnt_plot_add(pl, 2, hx, hy, NULL, NNT_PLOT_DASHED);
}

nnt_plot *nnt_report_icl_fig_plot(const nnt_icl_fig_panel *p) {
  char title[160];
  snprintf(title, sizeof title, "Fig. %d, %s TF (%d layers): %d-layer NN", fig_number(p->attn),
           p->attn == NNT_ATTN_RELU ? "ReLU" : "softmax", p->layers, p->depth);
  nnt_plot *pl = nnt_plot_new(title, "in-context examples k", "R² (pooled)");
  nnt_plot_yrange(pl, -1.5, 1.05); /* the paper's axis */
  int c0 = -1; /* the baselines of the first condition (in distribution) */
  for (int c = 0; c < p->ncond; c++) {
    if (!nnt_icl_fig_in_main(p, c)) continue;
    if (c0 < 0) c0 = c;
    char lab[96];
    if (p->mix[c] == 0) snprintf(lab, sizeof lab, "N(-2,I) (training)");
    else snprintf(lab, sizeof lab, "%g/%g mixture", 1 - p->mix[c], p->mix[c]);
    fig_series(pl, p, c, NNT_ICL_PRED_MODEL, lab, NNT_PLOT_LINE);
  }
  fig_series(pl, p, c0, NNT_ICL_PRED_DIRECT_BEST, "direct training (best epoch)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  fig_series(pl, p, c0, NNT_ICL_PRED_MEAN, "prompt mean", NNT_PLOT_DASHED);
  fig_series(pl, p, c0, NNT_ICL_PRED_RIDGE, "ridge", NNT_PLOT_DASHED);
  fig_frame(pl, p);
  return pl;
}

nnt_plot *nnt_report_icl_fig_shift_plot(const nnt_icl_fig_panel *p) {
  char title[160];
  snprintf(title, sizeof title, "weight mean m, %s TF, %d layers: %d-layer NN",
           p->attn == NNT_ATTN_RELU ? "ReLU" : "softmax", p->layers, p->depth);
  nnt_plot *pl = nnt_plot_new(title, "in-context examples k", "R² (pooled)");
  nnt_plot_yrange(pl, -1.5, 1.05);
  static const struct {
    int q, style;
    const char *what;
  } preds[3] = {{NNT_ICL_PRED_MODEL, NNT_PLOT_LINE, "model"},
                {NNT_ICL_PRED_DIRECT_BEST, NNT_PLOT_LINE | NNT_PLOT_POINTS, "direct"},
                {NNT_ICL_PRED_MEAN, NNT_PLOT_DASHED, "prompt mean"}};
  for (int j = 0; j < 3; j++)
    for (int c = 0; c < p->ncond; c++) {
      if (!nnt_icl_fig_in_shift(p, c)) continue;
      char lab[96];
      snprintf(lab, sizeof lab, "%s (m = %g)", preds[j].what, p->wmean[c]);
      fig_series(pl, p, c, preds[j].q, lab, preds[j].style);
    }
  fig_frame(pl, p);
  return pl;
}

static int fig_save(nnt_plot *pl, const char *out, const char *base) {
  int st = nnt_plot_save(pl, out, base);
  nnt_plot_free(pl);
  return st;
}

/* A panel's console rows at a few k for the conditions `in` selects. */
static void fig_console(const nnt_icl_fig_panel *p, int (*in)(const nnt_icl_fig_panel *, int), int shift) {
  const int want[] = {1, 10, 15, 30, 45, 75};
  printf("  %-10s %s%4s %7s %7s %7s %7s\n", "mixture", shift ? "w_mean " : "", "k", "model", "mean", "ridge", "direct");
  for (int c = 0; c < p->ncond; c++) {
    if (!in(p, c)) continue;
    for (int w = 0; w < (int)(sizeof want / sizeof *want); w++) {
      int k = want[w];
      if (k >= p->npos) continue;
      char mix[32];
      snprintf(mix, sizeof mix, "%g/%g", 1 - p->mix[c], p->mix[c]);
      printf("  %-10s", mix);
      if (shift) printf(" %6g", p->wmean[c]);
      printf(" %4d", k);
      fig_cell(fig_r2(p, c, NNT_ICL_PRED_MODEL, k)), fig_cell(fig_r2(p, c, NNT_ICL_PRED_MEAN, k));
      fig_cell(fig_r2(p, c, NNT_ICL_PRED_RIDGE, k)), fig_cell(fig_r2(p, c, NNT_ICL_PRED_DIRECT_BEST, k));
      printf("\n");
    }
  }
}

/* The four predictors of one condition at k as CSV cells (empty where none). */
static void fig_csv_cells(const nnt_icl_fig_panel *p, int c, int k, char v[4][32]) {
  const int q[4] = {NNT_ICL_PRED_MODEL, NNT_ICL_PRED_MEAN, NNT_ICL_PRED_RIDGE, NNT_ICL_PRED_DIRECT_BEST};
  for (int j = 0; j < 4; j++) {
    double x = fig_r2(p, c, q[j], k);
    if (isnan(x)) v[j][0] = 0;
    else snprintf(v[j], sizeof v[j], "%.6f", x);
  }
}

int nnt_report_icl_figures(const char *out, const nnt_icl_figures_result *r) {
  int st = NNT_OK, nshift = 0;
  for (int i = 0; i < r->npanel; i++) {
    const nnt_icl_fig_panel *p = &r->panel[i];
    char base[96];
    fig_panel_name(r, i, base, sizeof base);
    printf("%s: %s attention, %d layers, %d-layer targets, trained on %d examples (%s)\n", base, nnt_icl_attn_names[p->attn],
           p->layers, p->depth, p->n_train - 1, p->path);
    fig_console(p, nnt_icl_fig_in_main, 0);
    if (fig_has_shift(p)) {
      fig_shift_name(r, i, base, sizeof base);
      printf("%s: the same model under a shift of the target weights' mean (ICML Figures 5-6)\n", base);
      fig_console(p, nnt_icl_fig_in_shift, 1);
      nshift++;
    }
  }
  if (r->ndepth) {
    printf("Figure 3: R² (pooled) against the transformer's layers\n  %-8s %6s %4s %7s %7s %7s  %s\n", "attn", "layers", "k",
           "model", "mean", "ridge", "from");
    for (int i = 0; i < r->ndepth; i++) {
      const nnt_icl_fig_depth *d = &r->depth[i];
      printf("  %-8s %6d %4d %7.3f %7.3f %7.3f  %s\n", nnt_icl_attn_names[d->attn], d->layers, d->k, d->model, d->mean, d->ridge,
             d->source);
    }
  }
  if (!out) return NNT_OK;
  nnt_csv f;
  if ((st = nnt_csv_open(&f, out, "figures.csv", "figure,panel,attn,layers,target_depth,train_examples,mix2,k,model,mean,ridge,direct_best")))
    return st;
  for (int i = 0; i < r->npanel; i++) {
    const nnt_icl_fig_panel *p = &r->panel[i];
    char base[96];
    fig_panel_name(r, i, base, sizeof base);
    for (int c = 0; c < p->ncond; c++)
      for (int k = 0; k < p->npos && nnt_icl_fig_in_main(p, c); k++) {
        char v[4][32];
        fig_csv_cells(p, c, k, v);
        nnt_csv_row(&f, "%d,%s,%s,%d,%d,%d,%g,%d,%s,%s,%s,%s", fig_number(p->attn), base, nnt_icl_attn_names[p->attn], p->layers,
                    p->depth, p->n_train - 1, p->mix[c], k, v[0], v[1], v[2], v[3]);
      }
  }
  if ((st = nnt_csv_close(&f))) return st;
  if (nshift) {
    if ((st = nnt_csv_open(&f, out, "weight_shift.csv",
                           "panel,attn,layers,target_depth,train_examples,mix2,w_mean,k,model,mean,ridge,direct_best")))
      return st;
    for (int i = 0; i < r->npanel; i++) {
      const nnt_icl_fig_panel *p = &r->panel[i];
      char base[96];
      fig_shift_name(r, i, base, sizeof base);
      for (int c = 0; c < p->ncond; c++)
        for (int k = 0; k < p->npos && nnt_icl_fig_in_shift(p, c); k++) {
          char v[4][32];
          fig_csv_cells(p, c, k, v);
          nnt_csv_row(&f, "%s,%s,%d,%d,%d,%g,%g,%d,%s,%s,%s,%s", base, nnt_icl_attn_names[p->attn], p->layers, p->depth,
                      p->n_train - 1, p->mix[c], p->wmean[c], k, v[0], v[1], v[2], v[3]);
        }
    }
    if ((st = nnt_csv_close(&f))) return st;
  }
  for (int i = 0; i < r->npanel && !st; i++) {
    char base[96];
    fig_panel_name(r, i, base, sizeof base);
    st = fig_save(nnt_report_icl_fig_plot(&r->panel[i]), out, base);
    if (!st && fig_has_shift(&r->panel[i])) {
      fig_shift_name(r, i, base, sizeof base);
      st = fig_save(nnt_report_icl_fig_shift_plot(&r->panel[i]), out, base);
    }
  }
  if (st || !r->ndepth) return st;
  if ((st = nnt_csv_open(&f, out, "figure3.csv", "attn,layers,k,model,mean,ridge,source"))) return st;
  for (int i = 0; i < r->ndepth; i++) {
    const nnt_icl_fig_depth *d = &r->depth[i];
    nnt_csv_row(&f, "%s,%d,%d,%.6f,%.6f,%.6f,%s", nnt_icl_attn_names[d->attn], d->layers, d->k, d->model, d->mean, d->ridge, d->source);
  }
  if ((st = nnt_csv_close(&f))) return st;
  for (int a = 0; a < 2 && !st; a++) { /* one plot per attention: a curve per k, the prompt mean dashed */
    int ks[NNT_ICL_DEPTH_MAXE * 4], nk = 0;
    for (int i = 0; i < r->ndepth; i++) {
      if (r->depth[i].attn != a) continue;
      int seen = 0;
      for (int j = 0; j < nk; j++) seen |= ks[j] == r->depth[i].k;
      if (!seen && nk < (int)(sizeof ks / sizeof *ks)) ks[nk++] = r->depth[i].k;
    }
    if (!nk) continue;
    char title[96], base[32];
    snprintf(title, sizeof title, "Figure 3: R² vs depth, %s transformer", a == NNT_ATTN_RELU ? "ReLU" : "softmax");
    snprintf(base, sizeof base, "fig3_%s", nnt_icl_attn_names[a]);
    nnt_plot *pl = nnt_plot_new(title, "transformer layers", "R² (pooled)");
    double *x = nnt_xmalloc(sizeof(double) * (size_t)r->ndepth), *y = nnt_xmalloc(sizeof(double) * (size_t)r->ndepth),
           *ym = nnt_xmalloc(sizeof(double) * (size_t)r->ndepth);
    for (int j = 0; j < nk; j++) {
      int m = 0;
      for (int i = 0; i < r->ndepth; i++) /* sorted by layers; one point per depth (the first source) */
        if (r->depth[i].attn == a && r->depth[i].k == ks[j] && (!m || x[m - 1] != r->depth[i].layers))
          x[m] = r->depth[i].layers, y[m] = r->depth[i].model, ym[m++] = r->depth[i].mean;
      char lab[64];
      snprintf(lab, sizeof lab, "%d examples", ks[j]);
      nnt_plot_add(pl, m, x, y, lab, NNT_PLOT_LINE | NNT_PLOT_POINTS);
      snprintf(lab, sizeof lab, "prompt mean, %d examples", ks[j]);
      nnt_plot_add(pl, m, x, ym, lab, NNT_PLOT_DASHED);
    }
    st = nnt_plot_save(pl, out, base);
    nnt_plot_free(pl);
    free(x), free(y), free(ym);
  }
  return st;
}
