/* run_random.c — the sampled demos: ntk (Prop 3.23, Remark 3.24), maurey (Prop 2.8, Thm 2.12),
 * planting (Thm 3.10), sobolev and lazy training [ext]. Each draws from streams of the config's seed
 * with fixed stream ids, so a row never depends on the others. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_cpu.h"
#include "nnt_error.h"

/* ------------------------------------------------------------------ ntk */

void nnt_approx_ntk_cfg_default(nnt_approx_ntk_cfg *cfg, nnt_preset preset) {
  (void)preset; /* m = 10^6 takes a fraction of a second */
  static const int w[6] = {10, 100, 1000, 10000, 100000, 1000000};
  memcpy(cfg->widths, w, sizeof w);
  cfg->nw = 6, cfg->pairs = 40, cfg->d = 5, cfg->pad = 0, cfg->seed = 1;
}

/* The padding demo: k_inf on 12 circle points, target sin 3 theta. Without padding the Gram matrix
 * is circulant with zero eigenvalues at the odd frequencies >= 3, so sin 3 theta is out of reach. */
static void padding_demo(nnt_approx_ntk_result *res) {
  enum { N = NNT_APPROX_NTK_NCIRCLE };
  for (int pad = 0; pad < 2; pad++) {
    double X[N][3], y[N], A[N * N], al[N];
    for (int i = 0; i < N; i++) {
      double th = 2 * M_PI * i / N;
      X[i][0] = cos(th), X[i][1] = sin(th), X[i][2] = 1;
      if (pad)
        for (int q = 0; q < 3; q++) X[i][q] /= sqrt(2);
      y[i] = sin(3 * th);
    }
    double *K = res->gram[pad];
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) K[i * N + j] = nnt_approx_ntk_kinf(X[i], X[j], pad ? 3 : 2);
    /* kernel ridge: (K + lambda I) alpha = y by Cholesky */
    memcpy(A, K, sizeof A), memcpy(al, y, sizeof al);
    for (int i = 0; i < N; i++) A[i * N + i] += 1e-10;
    LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', N, 1, A, N, al, 1);
    double mse = 0;
    for (int i = 0; i < N; i++) {
      double f = 0;
      for (int j = 0; j < N; j++) f += K[i * N + j] * al[j];
      mse += (f - y[i]) * (f - y[i]) / N;
    }
    res->ridge_mse[pad] = mse;
    memcpy(A, K, sizeof A);
    LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', N, A, N, res->eig[pad]);
    double lmax = res->eig[pad][N - 1];
    res->nzero[pad] = 0;
    for (int i = 0; i < N; i++) res->nzero[pad] += res->eig[pad][i] < 1e-12 * lmax;
  }
}

int nnt_approx_ntk_check(const nnt_approx_ntk_cfg *cfg) {
  int st = nnt_approx_check_list("ntk", cfg->widths, cfg->nw, 1, 10000000);
  if (st) return st;
  if (cfg->pairs < 1 || cfg->d < 2) return nnt_fail(NNT_EINVAL, "ntk: needs pairs >= 1 and d >= 2");
  /* the pairs (two points of d each) and their kernels: the widths are drawn one neuron at a time */
  return nnt_mem_check(8.0 * cfg->pairs * (2.0 * cfg->d + 2) + 8.0 * cfg->d, "ntk", "lower --pairs or --d");
}

double nnt_approx_ntk_seconds(const nnt_approx_ntk_cfg *cfg) {
  double m = 0; /* every neuron of every width against every pair, at 10^9 multiply-adds a second */
  for (int q = 0; q < cfg->nw; q++) m += cfg->widths[q];
  return m * cfg->pairs * (2.0 * cfg->d + 1) / 1e9;
}

int nnt_approx_ntk_run(const nnt_approx_ntk_cfg *cfg, nnt_approx_ntk_result *res) {
  int st = nnt_approx_ntk_check(cfg);
  if (st) return st;
  nnt_time_notice(nnt_approx_ntk_seconds(cfg), 0, "approx ntk", "(one thread)");
  memset(res, 0, sizeof *res);
  res->nw = cfg->nw;
  res->m = nnt_xmalloc(sizeof(long) * cfg->nw), res->err = nnt_xmalloc(sizeof(double) * cfg->nw);
  for (int q = 0; q < cfg->nw; q++) res->m[q] = cfg->widths[q];
  nnt_rng rg;
  nnt_rng_init(&rg, cfg->seed, 316);
  res->slope = nnt_approx_ntk_slope(&rg, res->m, cfg->nw, cfg->d, cfg->pairs, cfg->pad, res->err);
  res->slope_ok = cfg->nw < 3 || (res->slope >= -0.6 && res->slope <= -0.4);
  padding_demo(res);
  return NNT_OK;
}

void nnt_approx_ntk_result_free(nnt_approx_ntk_result *res) {
  free(res->m), free(res->err);
  res->m = NULL, res->err = NULL, res->nw = 0;
}

/* ------------------------------------------------------------------ maurey */

void nnt_approx_maurey_cfg_default(nnt_approx_maurey_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  static const int ks[5] = {10, 100, 1000, 10000, 100000}, gks[4] = {10, 100, 1000, 10000};
  memcpy(cfg->ks, ks, sizeof ks), memcpy(cfg->gks, gks, sizeof gks);
  cfg->nk = quick ? 4 : 5, cfg->trials = 200;
  cfg->ng = quick ? 3 : 4, cfg->gtrials = quick ? 5 : 20, cfg->gpoints = 400;
  cfg->seed = 1;
}

int nnt_approx_maurey_check(const nnt_approx_maurey_cfg *cfg) {
  int st;
  if ((st = nnt_approx_check_list("maurey: sin", cfg->ks, cfg->nk, 1, 1000000)) || (st = nnt_approx_check_list("maurey: Gaussian", cfg->gks, cfg->ng, 1, 1000000)))
    return st;
  if (cfg->nk > 5 || cfg->ng > 4 || cfg->trials < 2 || cfg->gtrials < 1 || cfg->gpoints < 1)
    return nnt_fail(NNT_EINVAL, "maurey: at most 5 + 4 widths, trials >= 2, Gaussian trials and points >= 1");
  return NNT_OK;
}

int nnt_approx_maurey_run(const nnt_approx_maurey_cfg *cfg, nnt_approx_maurey_result *res) {
  int st = nnt_approx_maurey_check(cfg);
  if (st) return st;
  memset(res, 0, sizeof *res);
  res->nk = cfg->nk, res->ng = cfg->ng;
  int kmax = 0;
  for (int q = 0; q < cfg->nk; q++) kmax = cfg->ks[q] > kmax ? cfg->ks[q] : kmax;
  double *b = nnt_xmalloc(sizeof(double) * kmax), *a = nnt_xmalloc(sizeof(double) * kmax);
  for (int q = 0; q < cfg->nk; q++) {
    nnt_rng rg;
    double s = 0, s2 = 0;
    int k = cfg->ks[q], trials = cfg->trials;
    for (int t = 0; t < trials; t++) {
      nnt_rng_init(&rg, cfg->seed, (uint64_t)q * 1000003 + t);
      nnt_approx_sample_sin_thresholds(&rg, k, b, a);
      double e = nnt_approx_sin_threshold_l2sq(k, b, a);
      s += e, s2 += e * e;
    }
    double mean = s / trials, se = sqrt(fmax(0, s2 / trials - mean * mean) / trials);
    res->sin[q] = (nnt_approx_maurey_row){k, trials, mean, se, 7.5 / k, 16.0 / k};
    res->zmax = fmax(res->zmax, fabs(mean - 7.5 / k) / se);
  }
  free(a), free(b);
  /* Thm 2.12 + Lemma 2.17: exp(-pi |x|^2) - 1 on the unit disk from the exact Barron sampler */
  double M = res->mass = nnt_approx_barron_gauss_mass(2);
  int ne = cfg->gpoints;
  kmax = 0;
  for (int q = 0; q < cfg->ng; q++) kmax = cfg->gks[q] > kmax ? cfg->gks[q] : kmax;
  double *E = nnt_xmalloc(sizeof(double) * 2 * ne), *W = nnt_xmalloc(sizeof(double) * 2 * kmax),
         *bb = nnt_xmalloc(sizeof(double) * kmax), *sg = nnt_xmalloc(sizeof(double) * kmax);
  nnt_rng er;
  nnt_rng_init(&er, cfg->seed, 2120);
  for (int e = 0; e < ne; e++) {
    double rad = sqrt(nnt_rng_uniform(&er)), th = 2 * M_PI * nnt_rng_uniform(&er);
    E[2 * e] = rad * cos(th), E[2 * e + 1] = rad * sin(th);
  }
  for (int q = 0; q < cfg->ng; q++) {
    double acc = 0;
    int k = cfg->gks[q];
    for (int t = 0; t < cfg->gtrials; t++) {
      nnt_rng_init(&er, cfg->seed, 2121 + (uint64_t)q * 1000 + t);
      acc += nnt_approx_barron_gauss_sample_mse(&er, k, M, ne, E, W, bb, sg) / cfg->gtrials;
    }
    res->gauss[q] = (nnt_approx_maurey_row){k, cfg->gtrials, acc, NAN, NAN, M * M / k};
    res->gauss_over += acc > M * M / k;
  }
  free(E), free(W), free(bb), free(sg);
  return NNT_OK;
}

void nnt_approx_maurey_result_free(nnt_approx_maurey_result *res) { res->nk = res->ng = 0; }

/* ------------------------------------------------------------------ planting */

void nnt_approx_planting_cfg_default(nnt_approx_planting_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  cfg->tau = 0.1, cfg->delta = 0.1, cfg->ntest = quick ? 50 : 300, cfg->neval = 181, cfg->seed = 1;
}

int nnt_approx_planting_check(const nnt_approx_planting_cfg *cfg) {
  if (!(cfg->tau >= 0.02 && cfg->tau <= 0.4) || !(cfg->delta > 0 && cfg->delta < 1) || cfg->ntest < 1 || cfg->neval < 2)
    return nnt_fail(NNT_EINVAL, "planting: needs tau in [0.02, 0.4], delta in (0, 1), ntest >= 1, neval >= 2");
  return NNT_OK;
}

int nnt_approx_planting_run(const nnt_approx_planting_cfg *cfg, nnt_approx_planting_result *res) {
  int st = nnt_approx_planting_check(cfg);
  if (st) return st;
  memset(res, 0, sizeof *res);
  /* three planted ReLUs at the cube roots of unity */
  double beta[6], alpha[3] = {1, -0.6, 0.5};
  for (int i = 0; i < 3; i++) beta[2 * i] = cos(2 * M_PI * i / 3), beta[2 * i + 1] = sin(2 * M_PI * i / 3);
  int ne = res->neval = cfg->neval;
  double *Xe = nnt_xmalloc(sizeof(double) * 2 * ne);
  res->theta = nnt_xmalloc(sizeof(double) * ne), res->F_c0 = nnt_xmalloc(sizeof(double) * ne);
  res->g = nnt_xmalloc(sizeof(double) * ne), res->Fw0_c0 = nnt_xmalloc(sizeof(double) * ne);
  for (int e = 0; e < ne; e++) {
    double th = res->theta[e] = 2 * M_PI * e / (ne - 1);
    Xe[2 * e] = 0.8 * cos(th), Xe[2 * e + 1] = 0.8 * sin(th);
  }
  nnt_rng rg;
  nnt_rng_init(&rg, cfg->seed, 310);
  nnt_approx_plant_result *r = &res->plant;
  nnt_approx_plant(&rg, 3, beta, alpha, cfg->tau, cfg->delta, cfg->ntest, r, ne, Xe, res->F_c0, res->Fw0_c0);
  for (int e = 0; e < ne; e++) {
    double x0 = Xe[2 * e], x1 = Xe[2 * e + 1];
    res->g[e] = 0;
    for (int i = 0; i < 3; i++) res->g[e] += alpha[i] * fmax(0, beta[2 * i] * x0 + beta[2 * i + 1] * x1);
    res->F_c0[e] /= r->c0, res->Fw0_c0[e] /= r->c0;
  }
  free(Xe);
  res->violated = r->max_F_F0_rel > 1e-9 || r->max_excess > 0 || r->min_S < r->usz;
  return NNT_OK;
}

void nnt_approx_planting_result_free(nnt_approx_planting_result *res) {
  free(res->theta), free(res->F_c0), free(res->g), free(res->Fw0_c0);
  res->theta = res->F_c0 = res->g = res->Fw0_c0 = NULL, res->neval = 0;
}

/* ------------------------------------------------------------------ sobolev */

void nnt_approx_sobolev_cfg_default(nnt_approx_sobolev_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  static const int s[4] = {2, 4, 8, 16};
  memcpy(cfg->s, s, sizeof s);
  cfg->d = 2, cfg->k = 10, cfg->npts = quick ? 500 : 2000;
  cfg->ns[0] = quick ? 2 : 4, cfg->ns[1] = quick ? 2 : 3;
  cfg->seed = 1;
}

int nnt_approx_sobolev_check(const nnt_approx_sobolev_cfg *cfg) {
  if (cfg->d < 1 || cfg->d > 2 || cfg->k < 1 || cfg->k > 20 || cfg->npts < 1)
    return nnt_fail(NNT_EINVAL, "sobolev: needs d in {1, 2}, k in [1, 20], npts >= 1");
  int ns = cfg->ns[cfg->d - 1];
  if (ns < 1 || ns > 4) return nnt_fail(NNT_EINVAL, "sobolev: 1..4 grids, not %d", ns);
  return NNT_OK;
}

int nnt_approx_sobolev_run(const nnt_approx_sobolev_cfg *cfg, nnt_approx_sobolev_result *res) {
  int st = nnt_approx_sobolev_check(cfg);
  if (st) return st;
  int ns = cfg->ns[cfg->d - 1];
  memset(res, 0, sizeof *res);
  res->ns = ns;
  for (int ri = 0; ri < 2; ri++)
    for (int q = 0; q < ns; q++) {
      nnt_approx_sobolev_row *row = &res->rows[res->n++];
      nnt_rng rg;
      nnt_rng_init(&rg, cfg->seed, 500 + ri * 10 + q);
      row->d = cfg->d, row->r = 2 + ri, row->s = cfg->s[q], row->k = cfg->k;
      nnt_approx_sobolev_measure(cfg->d, row->r, row->s, cfg->k, cfg->npts, &rg, &row->rep);
      res->bad += row->rep.sup > row->rep.bound;
    }
  return NNT_OK;
}

void nnt_approx_sobolev_result_free(nnt_approx_sobolev_result *res) { res->n = 0; }

/* ------------------------------------------------------------------ lazy training [ext] */

void nnt_approx_lazy_cfg_default(nnt_approx_lazy_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  static const int w[4] = {100, 1000, 10000, 100000};
  memcpy(cfg->widths, w, sizeof w);
  cfg->nw = quick ? 2 : 4, cfg->steps = 500, cfg->seed = 1;
}

int nnt_approx_lazy_check(const nnt_approx_lazy_cfg *cfg) {
  int st = nnt_approx_check_list("lazy", cfg->widths, cfg->nw, 2, 1000000);
  if (st) return st;
  if (cfg->steps < 1) return nnt_fail(NNT_EINVAL, "lazy: steps = %d < 1", cfg->steps);
  return NNT_OK;
}

int nnt_approx_lazy_run(const nnt_approx_lazy_cfg *cfg, nnt_approx_lazy_result *res) {
  int st = nnt_approx_lazy_check(cfg);
  if (st) return st;
  res->n = cfg->nw;
  res->rows = nnt_xcalloc((size_t)cfg->nw, sizeof *res->rows);
  for (int q = 0; q < cfg->nw; q++) {
    nnt_rng rg;
    nnt_rng_init(&rg, cfg->seed, 3100 + q);
    nnt_approx_lazy_train(&rg, cfg->widths[q], cfg->steps, &res->rows[q]);
  }
  return NNT_OK;
}

void nnt_approx_lazy_result_free(nnt_approx_lazy_result *res) {
  free(res->rows);
  res->rows = NULL, res->n = 0;
}
