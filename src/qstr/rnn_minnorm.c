/* Theorem 9 of seed 001 as a run: min-norm ERM of a bidirectional RNN on 1STR needs a number of
 * training prompts that grows with N. The RNN's transitions are frozen as full shift registers
 * (width N - 1 per direction, state linear in the tokens: Prop. 8's floor is 0 there, so only the
 * samples are missing); its readout is linear in (h->_i, x_i, h<-_i) with coefficients chosen by the
 * position encoding f_P(t_i, i) = one-hot(t_i - i), so min-norm ERM over the readout is exact: an
 * orthogonal basis of each offset's training features, updated one sample at a time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

/* Feature of position i of prompt X (tokens x_j = X[j][0..d)) for the offset group delta: slot
 * k + N - 1 holds x_{i+k} (0 outside the prompt), k = -(N-1)..N-1. Retrieval: x_{t_i} itself. */
static void feature(int N, int d, int retrieve, const double *X, int i, int ti, double *phi) {
  if (retrieve) {
    memcpy(phi, X + (size_t)ti * d, sizeof(double) * d);
    return;
  }
  memset(phi, 0, sizeof(double) * (size_t)(2 * N - 1) * d);
  for (int j = 0; j < N; j++) memcpy(phi + (size_t)(j - i + N - 1) * d, X + (size_t)j * d, sizeof(double) * d);
}

/* weight of slot k in group delta's exact test risk: #{i : i, i + delta, i + k in [0, N)} / N^2 */
static double slot_weight(int N, int delta, int k) {
  int lo = 0, hi = N - 1;
  lo = lo > -delta ? lo : -delta, hi = hi < N - 1 - delta ? hi : N - 1 - delta;
  lo = lo > -k ? lo : -k, hi = hi < N - 1 - k ? hi : N - 1 - k;
  return hi >= lo ? (double)(hi - lo + 1) / ((double)N * N) : 0;
}

int nnt_qstr_minnorm_curve(const nnt_qstr_minnorm_data *s, int retrieve, double *risk, double *norm2, double *M) {
  int N = s->N, d = s->d, n = s->n;
  int G = retrieve ? 1 : 2 * N - 1, p = retrieve ? d : (2 * N - 1) * d;
  double *Q = malloc(sizeof(double) * (size_t)p * p), *w = malloc(sizeof(double) * p);
  double *phi = malloc(sizeof(double) * p), *c = malloc(sizeof(double) * p), *wt = malloc(sizeof(double) * p);
  if (!Q || !w || !phi || !c || !wt) {
    free(Q), free(w), free(phi), free(c), free(wt);
    return nnt_fail(NNT_ENOMEM, "rnn-minnorm: out of memory (a %d x %d basis)", p, p);
  }
  for (int b = 0; b <= n; b++) risk[b] = 0, norm2[b] = 0;
  for (int g = 0; g < G; g++) {
    int delta = g - (N - 1), m = 0;
    memset(w, 0, sizeof(double) * p), memset(wt, 0, sizeof(double) * p);
    if (retrieve) memcpy(wt, s->u, sizeof(double) * d);
    else memcpy(wt + (size_t)g * d, s->u, sizeof(double) * d); /* the generalising readout: u at slot delta */
    for (int b = 0; b <= n; b++) {
      if (b > 0) {
        const double *X = s->X + (size_t)(b - 1) * N * d;
        for (int i = 0; i < N; i++) {
          int ti = s->t[(size_t)(b - 1) * N + i];
          if (!retrieve && ti - i != delta) continue;
          feature(N, d, retrieve, X, i, ti, phi);
          double r = s->y[(size_t)(b - 1) * N + i], nphi = 0;
          for (int k = 0; k < p; k++) r -= w[k] * phi[k], nphi += phi[k] * phi[k];
          /* phi minus its projection on the basis, twice (classical Gram-Schmidt keeps orthogonality so) */
          for (int pass = 0; pass < 2; pass++) {
            for (int j = 0; j < m; j++) {
              double sdot = 0;
              for (int k = 0; k < p; k++) sdot += Q[(size_t)j * p + k] * phi[k];
              c[j] = sdot;
            }
            for (int j = 0; j < m; j++)
              for (int k = 0; k < p; k++) phi[k] -= c[j] * Q[(size_t)j * p + k];
          }
          double nv = 0;
          for (int k = 0; k < p; k++) nv += phi[k] * phi[k];
          nv = sqrt(nv);
          if (m == p || !(nv > 1e-9 * sqrt(nphi))) continue; /* in the span: already interpolated */
          /* w += q r / <q, phi> with q = v / |v| and <q, phi> = |v|: interpolates the new sample, the old
           * ones unchanged (q is orthogonal to them), and w stays in their span (the minimum norm) */
          for (int k = 0; k < p; k++) Q[(size_t)m * p + k] = phi[k] / nv, w[k] += phi[k] * r / (nv * nv);
          m++;
        }
      }
      double e = 0, w2 = 0;
      if (retrieve)
        for (int k = 0; k < d; k++) e += (w[k] - wt[k]) * (w[k] - wt[k]);
      else
        for (int k = 0; k < 2 * N - 1; k++) {
          double s2 = 0;
          for (int l = 0; l < d; l++) s2 += (w[(size_t)k * d + l] - wt[(size_t)k * d + l]) * (w[(size_t)k * d + l] - wt[(size_t)k * d + l]);
          e += slot_weight(N, delta, k - (N - 1)) * s2;
        }
      for (int k = 0; k < p; k++) w2 += w[k] * w[k];
      risk[b] += e, norm2[b] += w2;
    }
    if (M) memcpy(M + (size_t)g * p, w, sizeof(double) * p);
  }
  free(Q), free(w), free(phi), free(c), free(wt);
  return NNT_OK;
}

int nnt_qstr_minnorm_data_draw(const nnt_qstr_task *t, nnt_rng *r, int n, nnt_qstr_minnorm_data *s) {
  memset(s, 0, sizeof *s);
  int N = t->c.N, d = t->c.d, D = t->D;
  if (t->c.q != 1 || t->c.link != NNT_QSTR_LINK_LINEAR || t->c.law != NNT_QSTR_LAW_UNIFORM)
    return nnt_fail(NNT_EINVAL, "rnn-minnorm: needs 1STR with the linear link and the uniform law");
  s->N = N, s->d = d, s->n = n;
  s->X = malloc(sizeof(double) * ((size_t)n * N * d + 1)), s->y = malloc(sizeof(double) * ((size_t)n * N + 1));
  s->t = malloc(sizeof(int) * ((size_t)n * N + 1)), s->u = malloc(sizeof(double) * d);
  double *Xp = malloc(sizeof(double) * (size_t)N * D);
  if (!s->X || !s->y || !s->t || !s->u || !Xp) {
    free(Xp), nnt_qstr_minnorm_data_free(s);
    return nnt_fail(NNT_ENOMEM, "rnn-minnorm: out of memory (%d prompts)", n);
  }
  memcpy(s->u, t->u, sizeof(double) * d);
  for (int b = 0; b < n; b++) { /* the task generator's 1STR prompts and labels; the model sees the tokens */
    nnt_qstr_sample_f64(t, r, 1, 0, Xp, s->y + (size_t)b * N, s->t + (size_t)b * N);
    for (int j = 0; j < N; j++) memcpy(s->X + ((size_t)b * N + j) * d, Xp + (size_t)j * D, sizeof(double) * d);
  }
  free(Xp);
  return NNT_OK;
}

void nnt_qstr_minnorm_data_free(nnt_qstr_minnorm_data *s) {
  free(s->X), free(s->y), free(s->t), free(s->u);
  memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- the run */

void nnt_qstr_rnn_minnorm_cfg_default(nnt_qstr_rnn_minnorm_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  static const int Ns[] = {4, 8, 16, 32, 64, 128};
  c->nN = preset == NNT_PRESET_QUICK ? 3 : 6;
  memcpy(c->Ns, Ns, sizeof(int) * c->nN);
  c->d = 2, c->target = 0.5, c->budget = 1, c->seed = 1; /* n* was 0.38-0.57 (2N - 1)d at N = 4..64 */
}

static int budget_of(const nnt_qstr_rnn_minnorm_cfg *c, int N) {
  return (int)ceil(c->budget * (c->retrieve ? c->d : (2.0 * N - 1) * c->d));
}

double nnt_qstr_rnn_minnorm_bytes(const nnt_qstr_rnn_minnorm_cfg *c, double *seconds) {
  double peak = 0, flops = 0;
  for (int k = 0; k < c->nN; k++) {
    double N = c->Ns[k], n = budget_of(c, c->Ns[k]), p = c->retrieve ? c->d : (2 * N - 1) * c->d;
    /* the prompts (tokens, labels, indices), the basis, M */
    peak = fmax(peak, 8 * (n * N * c->d + 1.5 * n * N + p * p + (c->retrieve ? 1 : 2 * N - 1) * p + 4 * p));
    /* every sample projected twice on its group's basis (at most p wide) */
    flops += 4 * n * N * p * fmin(p, n);
  }
  if (seconds) *seconds = flops / 1e9; /* plain loops, one thread */
  return peak;
}

int nnt_qstr_rnn_minnorm_check(const nnt_qstr_rnn_minnorm_cfg *c) {
  if (c->nN < 3 || c->nN > 32)
    return nnt_fail(NNT_EINVAL, "rnn-minnorm: 3 to 32 values of N (the growth exponent's standard error needs 3; got %d)", c->nN);
  if (!(c->target > 0 && c->target < 1)) return nnt_fail(NNT_EINVAL, "rnn-minnorm: --target must be in (0, 1) (got %g)", c->target);
  if (!(c->budget > 0 && c->budget <= 1000)) return nnt_fail(NNT_EINVAL, "rnn-minnorm: --budget must be in (0, 1000] (got %g)", c->budget);
  for (int k = 0; k < c->nN; k++) {
    if (c->Ns[k] < 2 || c->Ns[k] > 4096) return nnt_fail(NNT_EINVAL, "rnn-minnorm: N must be in [2, 4096] (got %d)", c->Ns[k]);
    for (int j = 0; j < k; j++)
      if (c->Ns[j] == c->Ns[k]) return nnt_fail(NNT_EINVAL, "rnn-minnorm: N = %d given twice", c->Ns[k]);
  }
  char what[96];
  snprintf(what, sizeof what, "rnn-minnorm at d = %d", c->d);
  return nnt_mem_check(nnt_qstr_rnn_minnorm_bytes(c, NULL), what, "lower --N, --d or --budget (the readout has (2N-1)d inputs per offset)");
}

int nnt_qstr_rnn_minnorm_run(const nnt_qstr_rnn_minnorm_cfg *c, nnt_qstr_rnn_minnorm_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_qstr_rnn_minnorm_check(c);
  if (st) return st;
  double seconds;
  nnt_qstr_rnn_minnorm_bytes(c, &seconds);
  nnt_time_notice(seconds, 1, "qstr rnn-minnorm", "(min-norm ERM per offset, one thread)");
  r->nN = c->nN;
  for (int k = 0; k < c->nN; k++) {
    int N = c->Ns[k], n = budget_of(c, N);
    r->Ns[k] = N, r->n_max[k] = n;
    nnt_qstr_task_cfg tc;
    nnt_qstr_task_cfg_default(&tc, N);
    tc.d = c->d, tc.q = 1, tc.link = NNT_QSTR_LINK_LINEAR, tc.simple = 0;
    nnt_qstr_task t;
    if ((st = nnt_qstr_task_init(&t, &tc, c->seed))) break;
    nnt_rng g;
    nnt_rng_init(&g, c->seed, 900000 + (uint64_t)N);
    nnt_qstr_minnorm_data s;
    st = nnt_qstr_minnorm_data_draw(&t, &g, n, &s);
    nnt_qstr_task_free(&t);
    if (st) break;
    r->risk[k] = malloc(sizeof(double) * (n + 1)), r->norm[k] = malloc(sizeof(double) * (n + 1));
    if (!r->risk[k] || !r->norm[k]) st = nnt_fail(NNT_ENOMEM, "rnn-minnorm: out of memory");
    if (!st) st = nnt_qstr_minnorm_curve(&s, c->retrieve, r->risk[k], r->norm[k], NULL);
    nnt_qstr_minnorm_data_free(&s);
    if (st) break;
    for (int b = 0; b <= n; b++) r->norm[k][b] = sqrt(r->norm[k][b]);
    int ns = -1;
    for (int b = 1; b <= n && ns < 0; b++)
      if (r->risk[k][b] <= c->target) ns = b;
    r->censored[k] = ns < 0;
    r->nstar[k] = ns < 0 ? n : ns;
    r->risk_at[k] = r->risk[k][r->nstar[k]], r->norm_at[k] = r->norm[k][r->nstar[k]];
    r->norm_true[k] = sqrt(c->retrieve ? 1.0 : 2.0 * N - 1);
  }
  if (st) {
    nnt_qstr_rnn_minnorm_result_free(r);
    return st;
  }
  double x[32], y[32];
  for (int k = 0; k < c->nN; k++) x[k] = r->Ns[k], y[k] = r->nstar[k], r->ncensored += r->censored[k];
  r->slope = nnt_qstr_loglog_slope(c->nN, x, y, NULL, &r->slope_se, NULL);
  /* Theorem 9: n* >= c2 N^c1 with absolute constants it does not give; its contradiction is an n*
   * that does not grow, so the exponent must be above 0 by more than 5 standard errors */
  r->grows = r->slope - 5 * r->slope_se > 0;
  if (!r->grows)
    return nnt_fail(NNT_ECHECK, "rnn-minnorm: the samples min-norm ERM needs do not grow with N (n* ~ N^%.3f +- %.3f), against Theorem 9",
                    r->slope, r->slope_se);
  return NNT_OK;
}

void nnt_qstr_rnn_minnorm_result_free(nnt_qstr_rnn_minnorm_result *r) {
  for (int k = 0; k < 32; k++) free(r->risk[k]), free(r->norm[k]), r->risk[k] = r->norm[k] = NULL;
}
