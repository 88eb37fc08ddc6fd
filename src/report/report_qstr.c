/* Seed 001's reports: results from memory into CSV, plots and console tables (run.json is the driver's). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_qstr.h"

static const char *task_name(int simple) { return simple ? "simple" : "1str"; }

/* ---------------------------------------------------------------- sweep */

typedef struct {
  char model[16], task[16];
  int nN, Ns[64];
  double med[64], lo[64], hi[64];
} curve;

static void curve_of(const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r, curve *cv) {
  memset(cv, 0, sizeof *cv);
  snprintf(cv->model, sizeof cv->model, "%s", nnt_qstr_arch_names[s->arch]);
  snprintf(cv->task, sizeof cv->task, "%s", task_name(s->task.simple));
  cv->nN = s->nN;
  for (int k = 0; k < s->nN; k++) {
    int cens;
    cv->Ns[k] = s->Ns[k];
    nnt_qstr_sweep_stats(s, r, k, &cv->med[k], &cv->lo[k], &cv->hi[k], &cens);
  }
}

static double curve_slope(const curve *cv, double *r2, int *used) {
  double x[64];
  for (int k = 0; k < cv->nN; k++) x[k] = cv->Ns[k];
  return nnt_qstr_loglog_slope(cv->nN, x, cv->med, r2, NULL, used);
}

static int plot_curves(const char *dir, const curve *cv, int ncv, const char *base) {
  int band = 0; /* a min-max band needs two runs that differ (the quick preset has one run per N) */
  for (int c = 0; c < ncv; c++)
    for (int k = 0; k < cv[c].nN; k++) band |= cv[c].hi[k] > cv[c].lo[k];
  nnt_plot *p = nnt_plot_new(band ? "samples to reach the test-MSE threshold (median, min-max band)"
                                  : "samples to reach the test-MSE threshold (median)",
                             "N (input length)", "n (training samples)");
  for (int c = 0; c < ncv; c++) {
    double x[64];
    for (int k = 0; k < cv[c].nN; k++) x[k] = cv[c].Ns[k];
    char label[64];
    snprintf(label, sizeof label, "%.15s (%.15s)", cv[c].model, cv[c].task);
    int idx = nnt_plot_add(p, cv[c].nN, x, cv[c].med, label, NNT_PLOT_LINE | NNT_PLOT_POINTS);
    if (band) nnt_plot_band(p, cv[c].nN, x, cv[c].lo, cv[c].hi, idx, NULL);
  }
  int st = nnt_plot_save(p, dir, base);
  nnt_plot_free(p);
  return st;
}

static int write_sweep(const char *dir, const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r) {
  const char *mname = nnt_qstr_arch_names[s->arch], *tname = task_name(s->task.simple);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "samples.csv", "model,task,N,rep,samples,censored,diverged,final_mse,steps,de,D,params");
  if (st) return st;
  for (int i = 0; i < r->n; i++) {
    const nnt_qstr_point *p = &r->pts[i];
    nnt_csv_row(&csv, "%s,%s,%d,%d,%ld,%d,%d,%.6g,%ld,%d,%d,%lld", mname, tname, p->N, p->rep, p->r.samples, p->r.censored,
                p->r.diverged, p->r.final_mse, p->r.steps, p->de, p->D, (long long)p->np);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  curve cv;
  curve_of(s, r, &cv);
  double slope = curve_slope(&cv, NULL, NULL);
  /* the growth exponent of the medians, n ~ N^slope, repeated on every row */
  if ((st = nnt_csv_open(&csv, dir, "summary.csv", "model,task,N,median,min,max,censored,loglog_slope"))) return st;
  for (int k = 0; k < s->nN; k++) {
    double med, lo, hi;
    int cens;
    nnt_qstr_sweep_stats(s, r, k, &med, &lo, &hi, &cens);
    nnt_csv_row(&csv, "%s,%s,%d,%.1f,%.0f,%.0f,%d,%.4f", mname, tname, s->Ns[k], med, lo, hi, cens, slope);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  return plot_curves(dir, &cv, 1, "samples");
}

/* One console line: the log-log least-squares slope of a curve's medians against N. */
static void print_slope(const curve *cv) {
  double r2;
  int used;
  double slope = curve_slope(cv, &r2, &used);
  if (isnan(slope)) printf("log-log fit %s (%s): needs two values of N\n", cv->model, cv->task);
  else
    printf("log-log fit %s (%s): median samples ~ N^%.3f (R^2 %.3f, %d values of N, %d..%d)\n", cv->model, cv->task, slope,
           r2, used, cv->Ns[0], cv->Ns[cv->nN - 1]);
}

int nnt_report_qstr_sweep(const char *dir, const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r) {
  int st = dir ? write_sweep(dir, s, r) : NNT_OK;
  if (st) return st;
  printf("%-6s %-7s %4s %10s %10s %10s %5s\n", "model", "task", "N", "median", "min", "max", "cens");
  for (int k = 0; k < s->nN; k++) {
    double med, lo, hi;
    int cens;
    nnt_qstr_sweep_stats(s, r, k, &med, &lo, &hi, &cens);
    printf("%-6s %-7s %4d %10.0f %10.0f %10.0f %5d\n", nnt_qstr_arch_names[s->arch], task_name(s->task.simple), s->Ns[k],
           med, lo, hi, cens);
  }
  curve cv;
  curve_of(s, r, &cv);
  print_slope(&cv);
  if (r->stored) printf("resumed: %d of %d runs were stored in %s/results.sqlite, %d computed now\n", r->stored, r->n, dir, r->computed);
  printf("wall time %.2f s on %d thread(s)\n", r->wall_s, s->threads);
  return NNT_OK;
}

/* ---------------------------------------------------------------- plot of saved sweeps */

/* DIR/samples.csv into curves, one per (model, task) pair: a sweep saved earlier, maybe by
 * another nnt, is read back from its file. */
static int read_samples(const char *dir, curve *cv, int *ncv, int maxcv) {
  char path[1024], line[1024];
  nnt_path(path, sizeof path, dir, "samples.csv");
  FILE *f;
  if (nnt_file_open_read(path, &f)) return NNT_EIO;
  static long v[16][64][64];
  static int reps[16][64];
  int first = *ncv, ln = 0, st = NNT_OK;
  while (!st && fgets(line, sizeof line, f)) {
    if (++ln == 1) {
      if (strncmp(line, "model,task,N,rep,samples,censored", 33)) st = nnt_fail(NNT_EFORMAT, "%s:1: not a qstr samples.csv header", path);
      continue;
    }
    char model[16], task[16];
    int N, rep, cens;
    long smp;
    errno = 0; /* ERANGE: a number beyond its type */
    if (sscanf(line, "%15[^,],%15[^,],%d,%d,%ld,%d", model, task, &N, &rep, &smp, &cens) != 6 || errno == ERANGE ||
        N < 1 || rep < 0 || smp < 0) {
      st = nnt_fail(NNT_EFORMAT, "%s:%d: malformed row (model,task,N,rep,samples,censored: N >= 1, rep and samples >= 0)", path, ln);
      break;
    }
    int c;
    for (c = first; c < *ncv; c++)
      if (!strcmp(cv[c].model, model) && !strcmp(cv[c].task, task)) break;
    if (c == *ncv) {
      if (*ncv == maxcv) {
        st = nnt_fail(NNT_EINVAL, "plot: more than %d curves", maxcv);
        break;
      }
      memset(&cv[c], 0, sizeof cv[c]);
      memset(reps[c], 0, sizeof reps[c]);
      snprintf(cv[c].model, sizeof cv[c].model, "%s", model);
      snprintf(cv[c].task, sizeof cv[c].task, "%s", task);
      (*ncv)++;
    }
    int k;
    for (k = 0; k < cv[c].nN && cv[c].Ns[k] != N; k++) {}
    if (k == cv[c].nN) {
      if (k == 64) continue;
      cv[c].Ns[k] = N, cv[c].nN++;
    }
    if (reps[c][k] < 64) v[c][k][reps[c][k]++] = smp;
  }
  fclose(f);
  if (!st && ln < 2) st = nnt_fail(NNT_EFORMAT, "%s: no rows", path);
  for (int c = first; c < *ncv && !st; c++) /* median, min, max as the sweep's own summary */
    for (int k = 0; k < cv[c].nN; k++) {
      nnt_qstr_sweep_cfg s = {.reps = reps[c][k]};
      nnt_qstr_point pts[64];
      for (int i = 0; i < reps[c][k]; i++) pts[i].r.samples = v[c][k][i], pts[i].r.censored = 0;
      nnt_qstr_sweep_result r = {.n = reps[c][k], .pts = pts};
      int cens;
      nnt_qstr_sweep_stats(&s, &r, 0, &cv[c].med[k], &cv[c].lo[k], &cv[c].hi[k], &cens);
    }
  return st;
}

struct nnt_report_qstr_curves {
  curve cv[16];
  int n;
};

nnt_report_qstr_curves *nnt_report_qstr_curves_new(void) { return nnt_xcalloc(1, sizeof(nnt_report_qstr_curves)); }

int nnt_report_qstr_read(int ndirs, char **dirs, nnt_report_qstr_curves **out) {
  nnt_report_qstr_curves *c = nnt_report_qstr_curves_new();
  int st = NNT_OK;
  for (int i = 0; i < ndirs && !st; i++) st = read_samples(dirs[i], c->cv, &c->n, 16);
  if (st) free(c), c = NULL;
  *out = c;
  return st;
}

void nnt_report_qstr_curves_add(nnt_report_qstr_curves *c, const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r) {
  if (c->n < 16) curve_of(s, r, &c->cv[c->n++]);
}

int nnt_report_qstr_plot(const char *dir, const nnt_report_qstr_curves *c) { return plot_curves(dir, c->cv, c->n, "samples"); }

void nnt_report_qstr_slopes(const nnt_report_qstr_curves *c) {
  for (int k = 0; k < c->n; k++) print_slope(&c->cv[k]);
}

int nnt_report_qstr_curves_count(const nnt_report_qstr_curves *c) { return c->n; }

void nnt_report_qstr_curves_free(nnt_report_qstr_curves *c) { free(c); }

/* ---------------------------------------------------------------- attention */

int nnt_report_qstr_attention(const char *dir, const nnt_qstr_attention_cfg *c, const nnt_qstr_attention_result *r) {
  int st = NNT_OK, D = r->D, d = r->d, de = r->de;
  const nnt_qstr_attn_score *sc = &r->score, *s0 = &r->init_score;
  if (dir) {
    double *A = nnt_xmalloc(sizeof(double) * (size_t)D * D);
    for (int i = 0; i < D * D; i++) A[i] = fabs(r->wqk[i]); /* row 0 at the top, as nnt_heatmap_save draws and labels it */
    char title[160];
    snprintf(title, sizeof title, "|W_q^T W_k|, N=%d (rows: query features, cols: key features)", c->N);
    st = nnt_heatmap_save(A, D, D, title, "key feature", "query feature", dir, "attention");
    free(A);
    nnt_csv csv;
    if (!st && !(st = nnt_csv_open(&csv, dir, "wqk.csv", "row,col,value"))) {
      for (int i = 0; i < D; i++)
        for (int j = 0; j < D; j++) nnt_csv_row(&csv, "%d,%d,%.6g", i, j, r->wqk[i * D + j]);
      st = nnt_csv_close(&csv);
    }
    if (!st && !(st = nnt_csv_open(&csv, dir, "score.csv",
                                   "N,D,d,de,epochs,train_loss,test_mse,block_share,diag_ratio,cosine,init_block_share,init_diag_ratio,init_cosine,uniform_share"))) {
      nnt_csv_row(&csv, "%d,%d,%d,%d,%ld,%.5g,%.5g,%.4f,%.3f,%.4f,%.4f,%.3f,%.4f,%.4f", c->N, D, d, de, r->epochs, r->train_loss,
                  r->test_mse, sc->block_share, sc->diag_ratio, sc->cosine, s0->block_share, s0->diag_ratio, s0->cosine,
                  sc->random_share);
      st = nnt_csv_close(&csv);
    }
  }
  if (st) return st;
  printf("attention N=%d D=%d: %ld epoch(s), train loss %.4f, test MSE %.4f\n", c->N, D, r->epochs, r->train_loss, r->test_mse);
  printf("solution block rows [%d,%d) x cols [%d,%d):\n", d + de, d + 2 * de, d, d + de);
  printf("  Frobenius share %.3f (init %.3f, uniform %.3f), diag/offdiag %.2f (init %.2f), cosine with (A.2) %.3f (init %.3f)\n",
         sc->block_share, s0->block_share, sc->random_share, sc->diag_ratio, s0->diag_ratio, sc->cosine, s0->cosine);
  return NNT_OK;
}

/* ---------------------------------------------------------------- heads */

int nnt_report_qstr_heads(const char *dir, const nnt_qstr_heads_cfg *c, const nnt_qstr_heads_result *r) {
  int st = NNT_OK, nH = r->nH;
  const char *law = c->law == NNT_QSTR_LAW_ADVERSARIAL ? "adversarial" : "uniform";
  if (dir) {
    nnt_csv csv;
    if (!(st = nnt_csv_open(&csv, dir, "heads.csv", "law,q,d,N,H,trained_mse,std_err,bound_general,bound_exact,checked,below_bound,construction_mse"))) {
      for (int h = 0; h < nH; h++)
        nnt_csv_row(&csv, "%s,%d,%d,%d,%d,%.5f,%.5f,%.5f,%.5f,%d,%d,%.5f", law, c->q, c->d, c->N, r->Hs[h], r->mse[h], r->se[h],
                    r->bound[h], r->bound_exact[h], r->checked, r->below[h], r->Hs[h] >= c->q ? r->construction_mse : NAN);
      st = nnt_csv_close(&csv);
    }
  }
  if (!st && dir) {
    double x[16];
    for (int h = 0; h < nH; h++) x[h] = r->Hs[h];
    nnt_plot *p = nnt_plot_new("norm-squared qSTR: trained test MSE vs heads", "H (heads)", "test MSE");
    nnt_plot_add(p, nH, x, r->mse, "trained trp (online AdamW)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_add(p, nH, x, r->bound, "bound 1 - H(q+d)/(qd) (Prop. 3)", NNT_PLOT_DASHED);
    if (c->d == 1) nnt_plot_add(p, nH, x, r->bound_exact, "bound 1 - H/q (Prop. 21, block-diagonal W)", NNT_PLOT_DASHED);
    st = nnt_plot_save(p, dir, "heads");
    nnt_plot_free(p);
  }
  if (st) return st;
  printf("norm-squared link, %s index law, q=%d d=%d N=%d, %ld training samples, m=%d; test MSE on %d fresh prompts\n"
         "%3s %12s %9s %14s %12s  %s\n", law, c->q, c->d, c->N, c->samples, c->m, c->n_test, "H", "trained MSE", "std err",
         "1-H(q+d)/(qd)", "1-H/q", r->checked ? "check (Prop. 3)" : "check");
  for (int h = 0; h < nH; h++)
    printf("%3d %12.4f %9.4f %14.4f %12.4f  %s\n", r->Hs[h], r->mse[h], r->se[h], r->bound[h], r->bound_exact[h],
           !r->checked ? "-" : r->below[h] ? "BELOW THE BOUND" : "ok");
  printf("construction (H = q = %d heads, alpha = 20, exact link): MSE %.4f\n", c->q, r->construction_mse);
  if (r->checked)
    printf("Prop. 3 (any weights, this law): %d of %d trained errors below its bound by more than 5 standard errors\n",
           r->violations, nH);
  else printf("no bound is proven under the uniform law: nothing checked (--law adversarial checks Prop. 3)\n");
  if (c->d == 1) printf("1-H/q (Prop. 21) is proven for block-diagonal W^(h) only; the trained model is not held to it\n");
  return NNT_OK;
}

/* ---------------------------------------------------------------- construct */

int nnt_report_qstr_construct(const char *dir, const nnt_qstr_construct_cfg *c, const nnt_qstr_construct_result *r) {
  int st = NNT_OK, na = c->nalpha;
  nnt_csv csv;
  if (dir && !(st = nnt_csv_open(&csv, dir, "construct.csv", "alpha,closed_form,monte_carlo,mc_se,z"))) {
    for (int k = 0; k < na; k++)
      nnt_csv_row(&csv, "%g,%.6f,%.6f,%.6f,%.2f", c->alphas[k], r->closed[k], r->mc[k], r->se[k],
                  r->se[k] > 0 ? (r->mc[k] - r->closed[k]) / r->se[k] : 0);
    st = nnt_csv_close(&csv);
  }
  if (!st && dir) {
    nnt_plot *p = nnt_plot_new("eq. (A.2) construction: test MSE vs sharpness alpha", "alpha", "test MSE");
    nnt_plot_add(p, na, c->alphas, r->closed, "closed form", NNT_PLOT_LINE);
    nnt_plot_add(p, na, c->alphas, r->mc, "Monte Carlo (forward pass)", NNT_PLOT_POINTS);
    st = nnt_plot_save(p, dir, "construct");
    nnt_plot_free(p);
  }
  if (st) return st;
  printf("eq. (A.2) construction, N=%d d=%d q=%d d_e=%d (%s encoding, no duplicate codes), %d prompts\n", c->task.N, c->task.d,
         c->task.q, r->de, c->task.enc ? "paper" : "code", c->n);
  printf("%8s %12s %12s %10s\n", "alpha", "closed form", "Monte Carlo", "std err");
  for (int k = 0; k < na; k++) printf("%8g %12.6f %12.6f %10.6f\n", c->alphas[k], r->closed[k], r->mc[k], r->se[k]);
  printf("closed form decreasing in alpha: %s; Monte Carlo within 5 standard errors: %d/%d\n", r->decreasing ? "yes" : "NO",
         r->agree, na);
  return NNT_OK;
}

/* ---------------------------------------------------------------- rnn-oracle */

int nnt_report_qstr_rnn_oracle(const char *dir, const nnt_qstr_rnn_oracle_cfg *c, const nnt_qstr_rnn_oracle_result *r) {
  int st = NNT_OK, n = r->nN;
  nnt_csv csv;
  if (dir && !(st = nnt_csv_open(&csv, dir, "oracle.csv",
                                 "N,de,coherence,width,params,norm,mse_simple,se_simple,mse_general,se_general"))) {
    for (int k = 0; k < n; k++)
      nnt_csv_row(&csv, "%d,%d,%.4f,%d,%ld,%.4f,%.3e,%.3e,%.5f,%.5f", r->Ns[k], r->de[k], r->coherence[k], r->width[k],
                  r->params[k], r->norm[k], r->mse[k], r->se[k], r->mse_general[k], r->se_general[k]);
    st = nnt_csv_close(&csv);
  }
  if (!st && dir && !(st = nnt_csv_open(&csv, dir, "width.csv", "N,target,rmin,r,linear_bound,shift_mse,std_err"))) {
    for (int k = 0; k < n; k++)
      for (int j = 0; j < 2; j++)
        nnt_csv_row(&csv, "%d,%g,%d,%d,%.5f,%.5f,%.5f", r->Ns[k], c->target, r->rmin[k], r->shift_width[k][j],
                    r->shift_bound[k][j], r->shift_mse[k][j], r->shift_se[k][j]);
    st = nnt_csv_close(&csv);
  }
  if (!st && dir) {
    double x[32], w[32], ro[32], lin[32];
    for (int k = 0; k < n; k++) x[k] = r->Ns[k], w[k] = r->width[k], ro[k] = r->rmin[k], lin[k] = r->Ns[k] - 1;
    nnt_plot *p = nnt_plot_new("RNN state width per direction vs N", "N (input length)", "width");
    nnt_plot_add(p, n, x, ro, "1STR: smallest linear-state width for the target (bound = shift register)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_add(p, n, x, lin, "N - 1 (stores every token)", NNT_PLOT_DASHED);
    nnt_plot_add(p, n, x, w, "simple-qSTR: the oracle RNN (qd)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
    st = nnt_plot_save(p, dir, "width");
    nnt_plot_free(p);
  }
  if (st) return st;
  printf("oracle RNN (Prop. 28 / App. C), simple-qSTR, d=%d q=%d, exact while |x_k| <= %g, %d prompts per N\n", c->d, c->q,
         c->B, c->n);
  printf("%5s %4s %9s %6s %8s %9s %12s %16s\n", "N", "d_e", "max|<w,w>|", "width", "params", "||theta||", "MSE simple",
         "MSE general qSTR");
  for (int k = 0; k < n; k++)
    printf("%5d %4d %9.3f %6d %8ld %9.2f %12.3e %9.4f +- %.4f\n", r->Ns[k], r->de[k], r->coherence[k], r->width[k], r->params[k],
           r->norm[k], r->mse[k], r->mse_general[k], r->se_general[k]);
  printf("oracle exact on simple-qSTR (MSE <= 1e-12): %d of %d values of N\n", n - r->exact_fail, n);
  printf("1STR, linear link: width r per direction of a state linear in the tokens; MSE >= (N-1-r)(N-r)/N^2 (target %g)\n",
         c->target);
  if (c->bound_scale != 1) printf("the bound column is scaled by %g (--bound-scale: a fault injection the check must catch)\n", c->bound_scale);
  printf("%5s %6s %6s %12s %12s %10s\n", "N", "r_min", "r", "bound", "shift reg.", "std err");
  for (int k = 0; k < n; k++)
    for (int j = 0; j < 2; j++)
      printf("%5d %6d %6d %12.4f %12.4f %10.4f\n", r->Ns[k], r->rmin[k], r->shift_width[k][j], r->shift_bound[k][j],
             r->shift_mse[k][j], r->shift_se[k][j]);
  printf("r_min ~ N^%.3f; shift register within 5 standard errors of the bound: %d of %d\n", r->rmin_slope, 2 * n - r->width_off,
         2 * n);
  return NNT_OK;
}

/* ---------------------------------------------------------------- rnn-minnorm */

int nnt_report_qstr_rnn_minnorm(const char *dir, const nnt_qstr_rnn_minnorm_cfg *c, const nnt_qstr_rnn_minnorm_result *r) {
  int st = NNT_OK, n = r->nN;
  nnt_csv csv;
  if (dir && !(st = nnt_csv_open(&csv, dir, "minnorm_curve.csv", "N,n,test_mse,norm"))) {
    for (int k = 0; k < n; k++)
      for (int b = 0; b <= r->n_max[k]; b++) nnt_csv_row(&csv, "%d,%d,%.6f,%.6f", r->Ns[k], b, r->risk[k][b], r->norm[k][b]);
    st = nnt_csv_close(&csv);
  }
  if (!st && dir && !(st = nnt_csv_open(&csv, dir, "minnorm.csv", "N,target,n_star,censored,budget,test_mse_at_n_star,norm_at_n_star,norm_generalising"))) {
    for (int k = 0; k < n; k++)
      nnt_csv_row(&csv, "%d,%g,%d,%d,%d,%.6f,%.6f,%.6f", r->Ns[k], c->target, r->nstar[k], r->censored[k], r->n_max[k], r->risk_at[k],
                  r->norm_at[k], r->norm_true[k]);
    st = nnt_csv_close(&csv);
  }
  if (!st && dir) {
    double x[32], y[32];
    for (int k = 0; k < n; k++) x[k] = r->Ns[k], y[k] = r->nstar[k];
    nnt_plot *p = nnt_plot_new("Theorem 9: prompts min-norm ERM needs vs N", "N (input length)", "n* (training prompts)");
    nnt_plot_add(p, n, x, y, c->retrieve ? "retrieval readout (control)" : "RNN, shift-register state, min-norm readout",
                 NNT_PLOT_LINE | NNT_PLOT_POINTS);
    st = nnt_plot_save(p, dir, "minnorm");
    nnt_plot_free(p);
  }
  if (st) return st;
  if (c->retrieve)
    printf("control outside Theorem 9: the readout sees x_{t_i} (what attention retrieves), min-norm ERM over w in y^ = <w, x_{t_i}>\n");
  else
    printf("Theorem 9: min-norm ERM of a bidirectional RNN on 1STR (d=%d, linear link): shift-register state of width N-1 per\n"
           "direction, readout y^_i = sum_k <M[t_i - i][k], x_{i+k}>, every training label interpolated with the least ||M||_F\n",
           c->d);
  printf("%5s %8s %10s %12s %12s %14s\n", "N", "budget", "n*", "MSE at n*", "||M^|| at n*", "||M*|| (gen.)");
  for (int k = 0; k < n; k++)
    printf("%5d %8d %9d%s %12.4f %12.3f %14.3f\n", r->Ns[k], r->n_max[k], r->nstar[k], r->censored[k] ? ">" : " ", r->risk_at[k],
           r->norm_at[k], r->norm_true[k]);
  printf("n* = smallest number of training prompts with exact test MSE <= %g%s\n", c->target,
         r->ncensored ? " (>: not reached within the budget; the fit uses the budget)" : "");
  printf("log-log fit: n* ~ N^%.3f +- %.3f (Theorem 9: n* >= c2 N^c1 for absolute constants c1, c2 > 0 it does not give)\n",
         r->slope, r->slope_se);
  printf("growth exponent above 0 by more than 5 standard errors: %s\n", r->grows ? "yes" : "no");
  return NNT_OK;
}

/* ---------------------------------------------------------------- ffn-bound */

int nnt_report_qstr_ffn_bound(const char *dir, const nnt_qstr_ffn_bound_cfg *c, const nnt_qstr_ffn_bound_result *r) {
  int st = NNT_OK, N = c->N, d = c->d;
  nnt_csv csv;
  if (dir && !(st = nnt_csv_open(&csv, dir, "ffn_bound.csv", "N,d,n,measured_mse,std_err,formula"))) {
    for (int k = 0; k < r->nn; k++) nnt_csv_row(&csv, "%d,%d,%d,%.5f,%.5f,%.5f", N, d, r->ns[k], r->measured[k], r->se[k], r->formula[k]);
    st = nnt_csv_close(&csv);
  }
  if (!st && dir) {
    double x[256];
    for (int k = 0; k < r->nn; k++) x[k] = r->ns[k];
    char title[128];
    snprintf(title, sizeof title, "Theorem 6: min-norm least squares, N=%d d=%d", N, d);
    nnt_plot *p = nnt_plot_new(title, "n (training prompts)", "test MSE");
    nnt_plot_add(p, r->nn, x, r->formula, "1 - n/(Nd)", NNT_PLOT_LINE);
    nnt_plot_add(p, r->nn, x, r->measured, "measured", NNT_PLOT_POINTS);
    st = nnt_plot_save(p, dir, "ffn_bound");
    nnt_plot_free(p);
  }
  if (st) return st;
  printf("Theorem 6 (min-norm least squares on simple-1STR), N=%d d=%d, Nd=%d\n%6s %10s %10s %12s\n", N, d, N * d, "n",
         "measured", "std err", "1 - n/(Nd)");
  for (int k = 0; k < r->nn; k++) printf("%6d %10.4f %10.4f %12.4f\n", r->ns[k], r->measured[k], r->se[k], r->formula[k]);
  return NNT_OK;
}

