/* run_exact.c — the demos built on the exact PWL engine: square (Thm 4.2), triangle (Prop 4.1) and
 * separation (Thms 4.4, 4.6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "nnt_approx.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_progress.h"

/* The breakpoints of f - g (g may be NULL) on [0,1]; an empty curve if there are too many. */
static nnt_approx_curve curve_of(const nnt_mlp *f, const nnt_mlp *g) {
  long max = 1 << 16;
  nnt_approx_curve c = {0, NULL, NULL};
  nnt_approx_piece *p = nnt_xmalloc(sizeof *p * max);
  long n = nnt_approx_pwl_collect(f, g, 0, 1, p, max);
  if (n > 0) {
    c.x = nnt_xmalloc(sizeof(double) * (n + 1)), c.y = nnt_xmalloc(sizeof(double) * (n + 1));
    for (long k = 0; k < n; k++) c.x[k] = p[k].x0, c.y[k] = p[k].a * p[k].x0 + p[k].c;
    c.x[n] = 1, c.y[n] = p[n - 1].a + p[n - 1].c;
    c.n = (int)n + 1;
  }
  free(p);
  return c;
}

static void curve_free(nnt_approx_curve *c) {
  free(c->x), free(c->y);
  c->x = c->y = NULL, c->n = 0;
}

int nnt_approx_check_list(const char *what, const int *v, int n, long lo, long hi) {
  if (n < 1 || n > NNT_APPROX_LIST_MAX) return nnt_fail(NNT_EINVAL, "%s: %d values (1..%d allowed)", what, n, NNT_APPROX_LIST_MAX);
  for (int q = 0; q < n; q++)
    if (v[q] < lo || v[q] > hi) return nnt_fail(NNT_EINVAL, "%s: %d is out of range [%ld..%ld]", what, v[q], lo, hi);
  return NNT_OK;
}

/* ------------------------------------------------------------------ square */

void nnt_approx_square_cfg_default(nnt_approx_square_cfg *cfg, nnt_preset preset) {
  (void)preset; /* seven depths take milliseconds */
  memset(cfg, 0, sizeof *cfg);
  cfg->ni = 7;
  for (int q = 0; q < cfg->ni; q++) cfg->i[q] = q;
}

int nnt_approx_square_check(const nnt_approx_square_cfg *cfg) {
  int st = nnt_approx_check_list("square: i", cfg->i, cfg->ni, 0, NNT_APPROX_SQUARE_MAX_I);
  return st ? st : nnt_approx_export_check(cfg->export_path);
}

int nnt_approx_square_run(const nnt_approx_square_cfg *cfg, nnt_approx_square_result *res) {
  int st = nnt_approx_square_check(cfg);
  if (st) return st;
  res->n = cfg->ni;
  res->rows = nnt_xcalloc((size_t)cfg->ni, sizeof *res->rows);
  for (int q = 0; q < cfg->ni; q++) {
    nnt_approx_square_row *r = &res->rows[q];
    int i = cfg->i[q];
    nnt_mlp h;
    nnt_approx_build_square(&h, i);
    nnt_approx_square_error_of(&h, &r->err);
    nnt_mlp_stats s = nnt_mlp_stats_of(&h);
    r->i = i, r->hidden_layers = s.layers - 1, r->relus = s.hidden_units, r->params = s.params;
    r->sup_claim = pow(4, -i - 1), r->l2sq_claim = pow(2, -4 * i) / 30;
    r->thm46_lb = 1 / (5760 * pow((double)r->err.pieces, 4));
    if (i <= NNT_APPROX_SQUARE_PLOT_MAX_I) {
      nnt_mlp h1;
      nnt_approx_build_square(&h1, i + 1);
      r->h = curve_of(&h, NULL), r->diff = curve_of(&h1, &h);
      nnt_mlp_free(&h1);
    }
    nnt_mlp_free(&h);
  }
  return NNT_OK;
}

void nnt_approx_square_result_free(nnt_approx_square_result *res) {
  for (int q = 0; q < res->n; q++) curve_free(&res->rows[q].h), curve_free(&res->rows[q].diff);
  free(res->rows);
  res->rows = NULL, res->n = 0;
}

/* ------------------------------------------------------------------ triangle */

void nnt_approx_triangle_cfg_default(nnt_approx_triangle_cfg *cfg, nnt_preset preset) {
  (void)preset; /* L = 22 sweeps 4M pieces in about a second */
  static const int L[8] = {1, 2, 4, 8, 12, 16, 20, 22};
  memset(cfg, 0, sizeof *cfg);
  memcpy(cfg->L, L, sizeof L);
  cfg->nL = 8;
}

static double peak_rss_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

int nnt_approx_triangle_check(const nnt_approx_triangle_cfg *cfg) {
  int st = nnt_approx_check_list("triangle: L", cfg->L, cfg->nL, 1, NNT_APPROX_TRIANGLE_MAX_L);
  return st ? st : nnt_approx_export_check(cfg->export_path);
}

int nnt_approx_triangle_run(const nnt_approx_triangle_cfg *cfg, nnt_approx_triangle_result *res) {
  int st = nnt_approx_triangle_check(cfg);
  if (st) return st;
  memset(res, 0, sizeof *res);
  res->n = cfg->nL;
  res->rows = nnt_xcalloc((size_t)cfg->nL, sizeof *res->rows);
  for (int q = 0; q < cfg->nL; q++) {
    nnt_approx_triangle_row *r = &res->rows[q];
    int L = r->L = cfg->L[q];
    nnt_mlp d;
    nnt_approx_build_delta(&d, L);
    nnt_approx_pwl_summary s, sr;
    double t0 = nnt_now();
    nnt_approx_pwl_summarize(&d, NULL, 0, 1, &s);
    r->seconds = nnt_now() - t0;
    nnt_approx_pwl_summarize(&d, NULL, -INFINITY, INFINITY, &sr);
    r->peak_rss_mb = peak_rss_mb();
    r->pieces_01 = s.pieces, r->pieces_R = sr.pieces, r->regions = s.regions;
    r->ok = s.pieces == (1L << L) && sr.pieces == (1L << L) + 2;
    res->bad += !r->ok;
    nnt_mlp_free(&d);
  }
  for (int L = 1; L <= 3; L++) {
    nnt_mlp d;
    nnt_approx_build_delta(&d, L);
    res->delta[L - 1] = curve_of(&d, NULL);
    nnt_mlp_free(&d);
  }
  return NNT_OK;
}

void nnt_approx_triangle_result_free(nnt_approx_triangle_result *res) {
  for (int L = 0; L < 3; L++) curve_free(&res->delta[L]);
  free(res->rows);
  res->rows = NULL, res->n = 0;
}

/* ------------------------------------------------------------------ separation */

void nnt_approx_separation_cfg_default(nnt_approx_separation_cfg *cfg, nnt_preset preset) {
  (void)preset; /* the net or the training decides the cost */
  memset(cfg, 0, sizeof *cfg);
  cfg->steps = 3000, cfg->samples = 2048, cfg->lr = 0.01, cfg->seed = 1;
}

double nnt_approx_separation_bytes(const nnt_approx_separation_cfg *cfg, double *seconds) {
  /* nnt_approx_sep_train: full batch, every layer's pre- and post-activation and two gradient
   * buffers of samples x the widest layer, in double; the parameters with Adam's moments */
  double N = cfg->samples, maxw = 1, acts = 0, P = 0, prev = 1;
  for (int l = 0; l < cfg->ntrain; l++) {
    double w = cfg->train[l];
    maxw = w > maxw ? w : maxw, acts += 2 * w, P += (prev + 1) * w, prev = w;
  }
  P += prev + 1;
  *seconds = cfg->ntrain ? 3.0 * cfg->steps * N * P / 1e9 : 0;
  return cfg->ntrain ? 8 * (N * (acts + 2 * maxw + 2) + 4 * P) : 0;
}

int nnt_approx_separation_check(const nnt_approx_separation_cfg *cfg) {
  int n = cfg->n;
  if (!n) return nnt_fail(NNT_EINVAL, "--n N is required (the target is Delta^N)");
  if (n < 1 || n > NNT_APPROX_SEP_MAX_N) return nnt_fail(NNT_EINVAL, "separation: n = %d is out of range [1, %d]", n, NNT_APPROX_SEP_MAX_N);
  if (!cfg->net == !cfg->ntrain)
    return nnt_fail(NNT_EINVAL, "give exactly one of --net FILE (nnt-mlp JSON, 1-D input) or --train W1,W2,..");
  if (cfg->ntrain && nnt_approx_check_list("separation: train widths", cfg->train, cfg->ntrain, 1, 4096)) return NNT_EINVAL;
  if (cfg->ntrain > NNT_APPROX_SEP_MAX_LAYERS) return nnt_fail(NNT_EINVAL, "separation: at most %d hidden layers", NNT_APPROX_SEP_MAX_LAYERS);
  if (cfg->ntrain && (cfg->steps < 0 || cfg->samples < 1 || !(cfg->lr > 0)))
    return nnt_fail(NNT_EINVAL, "separation: training needs steps >= 0, samples >= 1 and lr > 0");
  if (nnt_approx_export_check(cfg->export_path)) return NNT_EINVAL;
  double seconds, bytes = nnt_approx_separation_bytes(cfg, &seconds);
  if (nnt_mem_check(bytes, "separation's training", "lower --samples or --train's widths (full batch: samples x width per layer)"))
    return NNT_EINVAL;
  if (cfg->net) { /* the file read and parsed before any work */
    nnt_mlp g;
    int st = nnt_mlp_load(cfg->net, &g);
    if (st) return st;
    nnt_mlp_free(&g);
  }
  return NNT_OK;
}

int nnt_approx_separation_run(const nnt_approx_separation_cfg *cfg, nnt_approx_separation_result *res) {
  int n = cfg->n, st = nnt_approx_separation_check(cfg);
  if (st) return st;
  double seconds;
  nnt_approx_separation_bytes(cfg, &seconds);
  nnt_time_notice(seconds, 0, "approx separation", "(Adam on the full batch, one thread)");
  memset(res, 0, sizeof *res);
  res->train_mse = NAN;
  nnt_mlp *g = &res->g;
  if (cfg->net && (st = nnt_mlp_load(cfg->net, g))) return st;
  if (cfg->ntrain && (st = nnt_approx_sep_train(cfg->train, cfg->ntrain, n, cfg->steps, cfg->lr, cfg->samples, cfg->seed, g,
                                                &res->train_mse)))
    return st;
  if ((st = nnt_approx_sep_check(g, n, &res->sep))) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", nnt_errmsg());
    nnt_mlp_free(g);
    return nnt_fail(NNT_EINVAL, "%s: %s", cfg->net ? cfg->net : "trained net", msg);
  }
  /* Thm 4.4's budget: n = L^2 + 2, at most 2^L ReLUs in at most L hidden layers */
  int L = res->L = (int)floor(sqrt(n - 2.0 > 0 ? n - 2.0 : 0));
  res->thm44 = L >= 2 && L * L + 2 == n && res->sep.relus <= (1L << L) && res->sep.hidden_layers <= L;
  /* Thm 4.6 for the same g against x^2, with N_A = P */
  nnt_approx_square_error_of(g, &res->sq);
  res->thm46_lb = 1 / (5760 * pow((double)res->sq.pieces, 4));
  /* best L2 fits with P uniform pieces: the constant 1/2 for every P < 2^n (aliasing), exact at 2^n */
  for (long P = 1; P <= (1L << n) && P <= (1L << 14); P *= 2) {
    nnt_approx_sep_fit *f = &res->fit[res->nfit++];
    nnt_mlp fit, dn;
    nnt_approx_sep_best_fit(n, P, &fit);
    nnt_approx_build_delta(&dn, n);
    nnt_approx_pwl_summary sf;
    nnt_approx_pwl_summarize(&dn, &fit, 0, 1, &sf);
    f->P = P, f->dev = 0;
    for (long i = 0; i <= P; i++) {
      double t = (double)i / P, y;
      nnt_mlp_forward(&fit, &t, &y);
      f->dev = fmax(f->dev, fabs(y - 0.5));
    }
    f->l1 = sf.l1, f->l2sq = sf.l2sq, f->lb = nnt_approx_sep_lb(n, P);
    nnt_mlp_free(&fit), nnt_mlp_free(&dn);
  }
  /* capacity: Delta^k has 2^k - 1 interior breakpoints on (0,1), so one hidden layer needs >= 2^k - 1
   * ReLUs, while the composition uses 3k (2k inside [0,1]) */
  res->ncap = n < 16 ? n : 16;
  for (int k = 1; k <= res->ncap; k++) {
    nnt_mlp dk;
    nnt_approx_build_delta(&dk, k);
    nnt_approx_pwl_summary sk;
    nnt_approx_pwl_summarize(&dk, NULL, 0, 1, &sk);
    res->cap_breaks[k - 1] = sk.pieces - 1;
    nnt_mlp_free(&dk);
  }
  nnt_mlp d;
  nnt_approx_build_delta(&d, n);
  int N = res->nplot = 4001;
  res->x = nnt_xmalloc(sizeof(double) * N), res->delta_n = nnt_xmalloc(sizeof(double) * N), res->gx = nnt_xmalloc(sizeof(double) * N);
  for (int k = 0; k < N; k++) {
    res->x[k] = k / (N - 1.0);
    nnt_mlp_forward(&d, &res->x[k], &res->delta_n[k]);
    nnt_mlp_forward(g, &res->x[k], &res->gx[k]);
  }
  nnt_mlp_free(&d);
  res->violated = res->sep.l1 < res->sep.lb || (res->thm44 && res->sep.l1 < 1.0 / 32) || res->sq.l2sq < res->thm46_lb;
  return NNT_OK;
}

void nnt_approx_separation_result_free(nnt_approx_separation_result *res) {
  nnt_mlp_free(&res->g);
  free(res->x), free(res->delta_n), free(res->gx);
  res->x = res->delta_n = res->gx = NULL;
}
