/* report_rcnn.c — what nnt rcnn, nnt parity bench and nnt tm2d write: console reports, CSV tables and heat maps of the rcnn
 * area's results (run.json is the driver's). dir NULL: the console report only. */
#include <math.h>
#include <stdio.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_rcnn.h"

static const char *pm(int v) { return v > 0 ? "+1" : v < 0 ? "-1" : "none"; }
static const char *const levels[] = {"rule", "nn"};

static int learn_tables(const char *dir, const nnt_rcnn_learn_cfg *c, const nnt_rcnn_learn_result *r) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "points.csv", "point,rcnn,tm,label,steps,f");
  if (st) return st;
  for (int j = 0; j < r->tests; j++)
    nnt_csv_row(&csv, "%d,%d,%d,%d,%ld,%.17g", j + 1, r->pt[j].rcnn, r->pt[j].tm, r->pt[j].truth, r->pt[j].steps, r->pt[j].f);
  if ((st = nnt_csv_close(&csv))) return st;
  if ((st = nnt_csv_open(&csv, dir, "learn.csv",
                         "learner,level,d,m,tests,work,L,t_max,K,agree_tm,correct,w_exact,fzero_steps,values_ok,train_s,test_s")))
    return st;
  nnt_csv_row(&csv, "%s,%s,%d,%d,%d,%d,%d,%ld,%d,%d,%d,%d,%d,%d,%.3f,%.3f", c->learner,
              levels[c->level], c->d, c->m, r->tests, r->work, r->L, r->t_max, r->K, r->agree, r->correct, r->w_exact,
              r->fzero_steps, r->values_ok, r->train_s, r->test_s);
  return nnt_csv_close(&csv);
}

/* The console report; NNT_ECHECK when a check failed. */
static int learn_console(const nnt_rcnn_learn_cfg *c, const nnt_rcnn_learn_result *r) {
  printf("rcnn learn: %s (%d states), parity d=%d m=%d seed=%llu, level %s\n", c->learner, r->nstates,
         c->d, c->m, (unsigned long long)c->seed, levels[c->level]);
  printf("grid %d x %d (work %d), depth L=%d (largest TM step count t=%ld), K=%d trits after the point\n", c->m + 1,
         c->d + 1 + r->work, r->work, r->L, r->t_max, r->K);
  printf("point  rcnn  tm    label  steps\n");
  for (int j = 0; j < r->tests; j++) {
    const nnt_rcnn_learn_point *p = &r->pt[j];
    printf("%5d  %-4s  %-4s  %-5s  %ld", j + 1, pm(p->rcnn), pm(p->tm), pm(p->truth), p->steps);
    if (!p->rcnn) printf("  (f = %.6g)", p->f);
    printf("%s\n", p->rcnn != p->tm ? "  DISAGREE" : "");
  }
  printf("memorisation: W == (1/3)[y x, y] exactly: %s; f == 0 at %d/%d SGD steps\n", r->w_exact ? "yes" : "NO", r->fzero_steps,
         c->m + 1);
  printf("values held: %ld, %s the %ld of 10 + 4|Q|\n", r->nvalues, r->values_ok ? "all within" : "NOT all within", r->nuniverse);
  if (c->level == 1) {
    printf("network: cell MLP %d + %d ReLUs, %ld nonzero weights, shared by every cell and layer; patch cache %s\n", r->h1, r->h2,
           r->nonzeros, !c->nocache ? "on (an acceleration; --no-cache turns it off)" : "off");
    printf("nn memorisation: max |W - (1/3)[y x, y]| = %.3g; max |f| over the SGD steps = %.3g\n", r->w_err, r->f_sgd);
    printf("nn vs rule level: %ld patch evaluations checked%s, max value error %.3g, max gradient error %.3g, off the value grid %ld;"
           " max |f_nn - f_rule| over the points %.3g\n",
           r->nchecked, !c->nocache ? " (distinct patches per thread)" : "", r->max_verr, r->max_gerr, r->offgrid, r->f_err);
    if (!c->nocache)
      printf("cache: %ld patches, %ld lookups, %.4f hit rate\n", r->ncache, r->nlookup, r->nlookup ? (double)r->nhit / r->nlookup : 0);
    printf("time: nn train %.3f s, %d nn predictions %.3f s (rule level %.3f s)\n", r->train_s, r->tests, r->test_s, r->rule_s);
  } else
    printf("time: train %.3f s, %d predictions %.3f s\n", r->train_s, r->tests, r->test_s);
  printf("agree_tm=%d/%d correct=%d/%d\n", r->agree, r->tests, r->correct, r->tests);
  if (r->agree < r->tests) return nnt_fail(NNT_ECHECK, "the RCNN disagrees with the direct TM on %d of %d points", r->tests - r->agree, r->tests);
  if (!r->w_exact || r->fzero_steps < c->m + 1 || !r->values_ok)
    return nnt_fail(NNT_ECHECK, "a memorisation or value-set invariant failed");
  if (c->level == 1 && !(r->w_err <= 1e-12 && r->f_sgd <= 1e-9 && r->max_verr <= 1e-9 && r->max_gerr <= 1e-9 && !r->offgrid))
    return nnt_fail(NNT_ECHECK, "the network's memorisation or its agreement with f̄ is outside tolerance (W 1e-12, f and patches 1e-9)");
  return NNT_OK;
}

int nnt_report_rcnn_learn(const char *dir, const nnt_rcnn_learn_cfg *c, const nnt_rcnn_learn_result *r) {
  int st = learn_tables(dir, c, r); /* a failed check's results are whole: written too */
  int check = learn_console(c, r);
  return st ? st : check;
}

static int compile_table(const char *dir, const nnt_rcnn_compile_cfg *c, const nnt_rcnn_compile_result *r) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "compile.csv",
                        "learner,compiler,d,m,tests,K,patches,nonzeros,max_value_err,max_grad_err,compile_s,check_s");
  if (st) return st;
  nnt_csv_row(&csv, "%s,%s,%d,%d,%d,%d,%ld,%ld,%.17g,%.17g,%.3f,%.3f", c->learner,
              c->compiler ? "lemma" : "structured", c->d, c->m, c->tests, r->K, r->patches, r->nonzeros, r->max_verr,
              r->max_gerr, r->compile_s, r->check_s);
  return nnt_csv_close(&csv);
}

/* The console report; NNT_ECHECK when a check failed (the tables are written either way). */
static int compile_console(const nnt_rcnn_compile_cfg *c, const nnt_rcnn_compile_result *r) {
  if (c->compiler == 1) {
    static const char *const maps[5] = {"W1", "W1'", "W1+", "W2'", "W2+"};
    printf("rcnn compile: %s (%d states), K=%d, the paper's Lemma 5/6 compiler on the visited patches\n",
           c->learner, r->nstates, r->K);
    printf("domain X: %ld distinct patches (rule level, parity d=%d m=%d seed=%llu: Algorithm 1 and %d predictions), d_in = 5, d_out = 1,"
           " |X_i| = %d coordinate values, |Y_i| = %d output values, G = {0, 1}\n",
           r->patches, c->d, c->m, (unsigned long long)c->seed, c->tests, r->l_nxi, r->l_nyi);
    printf("widths: d1 = %d ReLUs (10 d_in |X_i|), %d bumps psi, d2 = %d ReLUs (3 per tau), %d thresholds tau (d_in d_out |X|)\n", r->l_d1,
           r->l_d1p, r->l_d2, r->l_d2p);
    int ok = 1;
    for (int k = 0; k < 5; k++) {
      printf("  %-4s %8ld nonzeros, |U| = %ld (Lemma 6 bound %ld), all in U: %s\n", maps[k], r->l6.nnz[k], r->l6.size[k], r->l6.bound[k],
             r->l6.within[k] ? "yes" : "NO");
      ok &= r->l6.within[k] && r->l6.size[k] <= r->l6.bound[k];
    }
    printf("nonzero weights and biases: %ld\n", r->nonzeros);
    printf("max value error %.3g, max gradient error %.3g on X (vs f̄ and its flags)\n", r->max_verr, r->max_gerr);
    printf("time: compile %.3f s, check %.3f s\n", r->compile_s, r->check_s);
    if (!ok) return nnt_fail(NNT_ECHECK, "a weight outside Lemma 6's value sets");
    if (!(r->max_verr <= 1e-9 && r->max_gerr <= 1e-9)) return nnt_fail(NNT_ECHECK, "the Lemma 5 net differs from f̄ by more than 1e-9");
    return NNT_OK;
  }
  printf("rcnn compile: %s (%d states), K=%d, value universe %d (10 + 4|Q|, p included), structured compiler\n",
         c->learner, r->nstates, r->K, r->nvals);
  printf("cell MLP (input the 3x3 patch; the 4 diagonal columns of V1 are empty):\n");
  printf("  layer 1  V1 %d x 9, %ld nonzeros, + bias: %d ReLUs (4 per position and value, 2 per slope value)\n", r->h1, r->nnz_v1, r->h1);
  printf("  V3       %d x %d, %ld nonzeros: %d indicators + %d ramps (no bias, no ReLU)\n", r->nf, r->h1, r->nnz_v3, r->nind, r->nf - r->nind);
  printf("  layer 2  V4 %d x %d, %ld nonzeros, + bias: %d ReLUs for %d rule terms (%d with slope 1)\n", r->h2, r->nf, r->nnz_v4, r->h2,
         r->nterms, r->nslope);
  printf("  output   V5 1 x %d, %ld nonzeros; head g: 4 ReLUs\n", r->h2, r->nnz_v5);
  printf("nonzero weights and biases: %ld, distinct values: %ld (the finite weight-value set)\n", r->nonzeros, r->nweight_values);
  printf("visited: %ld distinct patches (rule level, parity d=%d m=%d seed=%llu: Algorithm 1 and %d predictions)\n", r->patches, c->d,
         c->m, (unsigned long long)c->seed, c->tests);
  printf("max value error %.3g, max gradient error %.3g (vs f̄ and its flags), reverse pass vs finite differences %.3g\n",
         r->max_verr, r->max_gerr, r->max_fd_err);
  printf("time: compile %.3f s, check %.3f s\n", r->compile_s, r->check_s);
  if (!(r->max_verr <= 1e-9 && r->max_gerr <= 1e-9))
    return nnt_fail(NNT_ECHECK, "the compiled net differs from f̄ by more than 1e-9");
  return NNT_OK;
}

int nnt_report_rcnn_compile(const char *dir, const nnt_rcnn_compile_cfg *c, const nnt_rcnn_compile_result *r) {
  int st = compile_table(dir, c, r);
  int check = compile_console(c, r);
  return st ? st : check;
}

int nnt_report_rcnn_snapshot(const char *dir, const nnt_rcnn_snapshot_cfg *c, const nnt_rcnn_snapshot_result *r) {
  int st = NNT_OK;
  char title[4][160];
  snprintf(title[0], sizeof title[0], "memorisation phase: SGD step %d, layer %d (%s, d=%d, m=%d)", r->step, r->mem_layer,
           nnt_rcnn_tm2d_learner_names[c->learner], c->d, c->m);
  snprintf(title[1], sizeof title[1], "memory layer at a test point after SGD: the XOR tape | 1s region");
  snprintf(title[2], sizeof title[2], "compute phase: layer %d of L=%d (TM step %d of t=%d)", r->compute_layer, r->L, r->compute_layer - 1, r->t);
  snprintf(title[3], sizeof title[3], "after L=%d layers: the output in cell (1,1)", r->L);
  const char *base[4] = {"memorise", "memory", "compute", "final"};
  const double *z[4] = {r->memorise, r->memory, r->compute, r->final};
  for (int i = 0; i < 4 && !st && dir; i++) /* without a folder: the grids on the console only */
    st = nnt_heatmap_save(z[i], r->rows, r->cols, title[i], "column (features, label | 1s)", "row (examples, test point)", dir,
                          base[i]);
  if (!st) {
    printf("rcnn snapshot: grid %d x %d (work %d), L=%d, t=%d\n", r->rows, r->cols, c->work, r->L, r->t);
    for (int i = 0; i < 4; i++) {
      printf("%s: %s\n", base[i], title[i]);
      for (int row = 0; row < r->rows; row++) {
        printf("  ");
        for (int col = 0; col < r->cols; col++) printf("%7.4f%s", z[i][row * r->cols + col], col == c->d ? " |" : "");
        printf("\n");
      }
    }
    if (dir) printf("wrote %s/{memorise,memory,compute,final}.{png,svg}\n", dir);
  }
  return st;
}

int nnt_report_rcnn_restarts(const char *dir, const nnt_rcnn_restarts_cfg *c, const nnt_rcnn_restarts_result *r) {
  printf("rcnn restarts: parity d=%d m=%d, K=%d learners drawn uniformly (p >= 1/K = %.4g), eps=%g delta=%g, seed=%llu\n", c->d,
         c->m, r->K, r->p_lb, c->eps, c->delta, (unsigned long long)c->seed);
  printf("Corollary 2 (corrected): M = ceil(ln(2/delta) / p) = %ld, N = ceil(2 ln(2M/delta) / eps^2) = %ld; used M=%ld%s N=%ld%s\n",
         r->M_formula, r->N_formula, r->M, c->restarts ? " (--restarts)" : "", r->N, c->validation ? " (--validation)" : "");
  printf("trials: %d datasets, %d learners each (RCNN vs direct TM: %ld disagreements), opt = 0 on %ld; %ld wrapper runs\n",
         c->trials, r->K, r->disagree, r->opt_zero, r->seqs);
  printf("restart success rate       %.4f   (bound: >= %.4f)   %s\n", r->p_hat, r->p_lb, r->p_ok ? "ok" : "VIOLATED");
  printf("no successful restart      %.4f   (expected %.4f; (1-p)^M = %.4g, bound delta/2 = %g)   %s\n", r->q_hat, r->q_exact,
         pow(1 - r->p_lb, (double)r->M), c->delta / 2, r->q_ok ? "ok" : "VIOLATED");
  printf("selection > best + eps     %.4f   (bound: delta/2 = %g)   %s\n", r->select_hat, c->delta / 2, r->select_ok ? "ok" : "VIOLATED");
  printf("output > opt + eps         %.4f   (bound: delta = %g)   %s\n", r->fail_hat, c->delta, r->fail_ok ? "ok" : "VIOLATED");
  printf("time: %.2f s\n", r->seconds);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "restarts.csv",
                        "d,m,eps,delta,K,M,N,p_hat,p_lb,q_hat,q_exact,select_hat,fail_hat,disagree,seconds");
  if (st) return st;
  nnt_csv_row(&csv, "%d,%d,%.17g,%.17g,%d,%ld,%ld,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%ld,%.2f", c->d, c->m, c->eps, c->delta, r->K,
              r->M, r->N, r->p_hat, r->p_lb, r->q_hat, r->q_exact, r->select_hat, r->fail_hat, r->disagree, r->seconds);
  if ((st = nnt_csv_close(&csv))) return st;
  if (r->disagree) return nnt_fail(NNT_ECHECK, "the RCNN disagrees with the direct TM on %ld predictions", r->disagree);
  if (!(r->p_ok && r->q_ok && r->select_ok && r->fail_ok))
    return nnt_fail(NNT_ECHECK, "a measured rate is outside its Corollary 2 bound (4 standard deviations)");
  return NNT_OK;
}

/* ---- parity bench */
static int is_rcnn(int learner) { return learner == NNT_RCNN_PARITY_RCNN || learner == NNT_RCNN_PARITY_RCNN_NN; }

int nnt_report_rcnn_parity_plot(const char *dir, const nnt_rcnn_parity_bench_cfg *c, const nnt_rcnn_parity_bench_result *r) {
  /* one curve per (learner, d); agg is ordered d, m, learner */
  nnt_plot *p = nnt_plot_new("parity: test accuracy vs training examples", "m (training examples)", "test accuracy");
  nnt_plot_log(p, 1, 0);
  nnt_plot_yrange(p, 0.3, 1.05);
  double x[64], y[64]; /* nnt_rcnn_parity_bench_cfg.ms */
  for (int l = 0; l < c->nlearners; l++)
    for (int a = 0; a < c->nd; a++) {
      for (int b = 0; b < c->nm; b++) {
        const nnt_rcnn_parity_agg *g = &r->agg[(a * c->nm + b) * c->nlearners + l];
        x[b] = g->m, y[b] = g->acc_mean;
      }
      char label[64];
      snprintf(label, sizeof label, "%s, d=%d", nnt_rcnn_parity_learner_names[c->learners[l]], c->ds[a]);
      nnt_plot_add(p, c->nm, x, y, label,
                   NNT_PLOT_LINE | NNT_PLOT_POINTS | (c->learners[l] == NNT_RCNN_PARITY_MAJORITY ? NNT_PLOT_DASHED : 0));
    }
  int st = nnt_plot_save(p, dir, "accuracy");
  nnt_plot_free(p);
  return st;
}

static int parity_tables(const char *dir, const nnt_rcnn_parity_bench_result *r) {
  const char *const *names = nnt_rcnn_parity_learner_names;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "points.csv", "d,m,learner,rep,test_acc,train_acc,determined,wall_s,agree_tm");
  if (st) return st;
  for (int i = 0; i < r->npoints; i++) {
    const nnt_rcnn_parity_point *p = &r->points[i];
    nnt_csv_row(&csv, "%d,%d,%s,%d,%.6f,%.6f,%.6f,%.6g,%.6f", p->d, p->m, names[p->learner], p->rep, p->acc, p->train_acc,
                p->determined, p->wall_s, p->agree_tm);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  if ((st = nnt_csv_open(&csv, dir, "summary.csv", "d,m,learner,reps,test_acc_mean,test_acc_sd,wall_s_mean"))) return st;
  for (int a = 0; a < r->nagg; a++) {
    const nnt_rcnn_parity_agg *g = &r->agg[a];
    nnt_csv_row(&csv, "%d,%d,%s,%d,%.6f,%.6f,%.6g", g->d, g->m, names[g->learner], g->reps, g->acc_mean, g->acc_sd, g->wall_mean);
  }
  return nnt_csv_close(&csv);
}

int nnt_report_rcnn_parity_bench(const char *dir, const nnt_rcnn_parity_bench_cfg *c, const nnt_rcnn_parity_bench_result *r) {
  int st = dir ? parity_tables(dir, r) : NNT_OK;
  if (!st && dir) st = nnt_report_rcnn_parity_plot(dir, c, r);
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
    printf("%6d %8d %10s %10.4f %8.4f %12.3g", g->d, g->m, nnt_rcnn_parity_learner_names[g->learner], g->acc_mean, g->acc_sd,
           g->wall_mean);
    if (rcnn && is_rcnn(g->learner)) printf(" %10.4f", g->agree_tm);
    printf("\n");
  }
  printf("points: %d computed, %d read from results.sqlite\n", r->computed, r->stored);
  return NNT_OK;
}

/* ---- nnt tm2d */
int nnt_report_rcnn_tm2d_run(const char *path, const nnt_rcnn_tm2d *tm, const nnt_rcnn_tm2d_tape *before,
                             const nnt_rcnn_tm2d_tape *after, const nnt_rcnn_tm2d_result *r, int truth) {
  printf("machine %s: %d states; tape m=%d d=%d work=%d\n", path, tm->nstates, after->m, after->d, after->work);
  if (before) {
    printf("tape before:\n"), nnt_rcnn_tm2d_tape_print(before, stdout);
    printf("tape after (head on (%d,%d), state %s):\n", r->row, r->col, tm->names[r->state]);
    nnt_rcnn_tm2d_tape_print(after, stdout);
  }
  printf("output=%s steps=%ld halted=%s collisions=%ld readout=%s", r->readout_ok ? (r->output > 0 ? "+1" : "-1") : "none",
         r->steps, r->halted ? "yes" : "no", r->collisions, r->readout_ok ? "ok" : r->why);
  if (truth) printf(" parity_label=%+d", truth);
  printf("\n");
  if (!r->readout_ok)
    return nnt_fail(NNT_ECHECK, "%s: %s after %ld steps", path, r->halted ? "readout convention violated" : "no halt", r->steps);
  return NNT_OK;
}

int nnt_report_rcnn_tm2d_check(const char *path, const nnt_rcnn_tm2d *tm) {
  int halting = 0, rules = 0;
  for (int q = 0; q < tm->nstates; q++) {
    halting += tm->halting[q];
    for (int s = 0; s < 3; s++) rules += !tm->halting[q] && tm->delta[3 * q + s].line >= 0;
  }
  printf("%s: ok: %d states (%d halting), %d transitions, start state '%s'\n", path, tm->nstates, halting, rules,
         tm->names[0]);
  return NNT_OK;
}

int nnt_report_rcnn_tm2d_export(const char *save, const char *name, const nnt_rcnn_tm2d *tm) {
  nnt_afile f = {.f = stdout};
  int st = save ? nnt_afile_open(&f, save) : NNT_OK;
  if (st) return st;
  fprintf(f.f, "# %s: a learner for nnt tm2d (seed 002), %d states\n", name, tm->nstates);
  nnt_rcnn_tm2d_write(tm, f.f);
  return save ? nnt_afile_commit(&f) : NNT_OK;
}
