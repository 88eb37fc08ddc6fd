/* restarts.c — Corollary 2's restarts-and-validation wrapper (with Algorithm 2's selection rule:
 * the argmin of the validation error) run on a toy where a restart's success probability is
 * known: each restart draws the RCNN's learner uniformly from the K bundled 2-D TMs (the analogue
 * of Theorem 1's draw of the filter from a finite weight set, |U_s|^-P replaced by 1/K), trains
 * the rule-level RCNN by Algorithm 1 and predicts. A restart succeeds when its hypothesis is within
 * eps/2 of the best of the K on this data (opt; 0 when gauss-parity's examples span {0,1}^d), so
 * whatever the data p >= 1/K: the role of Theorem 1's P(success). Every population error is exact
 * (all 2^d inputs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_rcnn_nn.h"
#include "nnt_rng.h"

void nnt_rcnn_restarts_cfg_default(nnt_rcnn_restarts_cfg *c, nnt_preset preset) {
  *c = (nnt_rcnn_restarts_cfg){.d = 5, .m = 12, .eps = 0.2, .delta = 0.05, .trials = 200, .seqs = 1000, .seed = 1};
  if (preset == NNT_PRESET_QUICK) c->trials = 12, c->seqs = 500;
}

/* a one-sided binomial allowance: 4 standard deviations of a rate q over n draws, plus 1/n */
static double allow(double q, double n) { return 4 * sqrt(q * (1 - q) / n) + 1 / n; }

int nnt_rcnn_restarts_run(const nnt_rcnn_restarts_cfg *c, nnt_rcnn_restarts_result *r) {
  memset(r, 0, sizeof *r);
  if (c->d < 1 || c->d > 10 || c->m < 1 || c->m > 200 || !(c->eps > 0 && c->eps < 1) || !(c->delta > 0 && c->delta < 1) ||
      c->trials < 1 || c->seqs < 1 || c->restarts < 0 || c->validation < 0)
    return nnt_fail(NNT_EINVAL, "rcnn restarts: need 1 <= d <= 10, 1 <= m <= 200, eps and delta in (0, 1), trials and seqs >= 1");
  int K = 0;
  while (nnt_rcnn_tm2d_learner_names[K]) K++;
  int d = c->d, m = c->m, nx = 1 << d;
  r->K = K;
  r->p_lb = 1.0 / K;
  /* Corollary 2, corrected (spec §6, pitfall 20): (1 - p)^M <= delta/2 and Hoeffding + a union bound */
  r->M_formula = (long)ceil(log(2 / c->delta) / r->p_lb);
  r->M = c->restarts ? c->restarts : r->M_formula;
  r->N_formula = (long)ceil(2 * log(2 * r->M / c->delta) / (c->eps * c->eps));
  r->N = c->validation ? c->validation : r->N_formula;
  if (r->N > 100000) return nnt_fail(NNT_EINVAL, "rcnn restarts: validation set of %ld points (at most 100000)", r->N);
  long nq = r->N + nx;
  signed char *X = nnt_xmalloc((size_t)m * d), *y = nnt_xmalloc(m), *x = nnt_xmalloc(d), *xs = nnt_xmalloc((size_t)nq * d);
  int *pred = nnt_xmalloc(sizeof(int) * (size_t)nq), *tmo = nnt_xmalloc(sizeof(int) * (size_t)nq), *lab = nnt_xmalloc(sizeof(int) * (size_t)nq);
  double *verr = nnt_xmalloc(sizeof(double) * (size_t)K), *terr = nnt_xmalloc(sizeof(double) * (size_t)K);
  double t0 = nnt_now(), q_exact = 0;
  long restarts_ok = 0, restarts_all = 0, none = 0, select_bad = 0, bad = 0, seqs = 0;
  int st = NNT_OK;
  for (int tr = 0; tr < c->trials && !st; tr++) {
    uint64_t secret, seed = c->seed * 1000003u + (uint64_t)tr;
    nnt_rcnn_tm2d_parity(d, m, seed, X, y, x, &secret);
    /* queries: N validation points (stream 1), then every x in {±1}^d (the exact population error) */
    nnt_rng g;
    nnt_rng_init(&g, seed, 1);
    for (long j = 0; j < nq; j++) {
      int l = 1;
      for (int b = 0; b < d; b++) {
        signed char v = j < r->N ? (signed char)(nnt_rng_u64(&g) >> 63 ? -1 : 1) : (signed char)((j - r->N) >> b & 1 ? -1 : 1);
        xs[(size_t)j * d + b] = v;
        if (secret >> b & 1) l *= v;
      }
      lab[j] = l;
    }
    int succ = 0;
    double best = 1;
    for (int k = 0; k < K; k++) {
      if ((st = nnt_rcnn_learn_points(nnt_rcnn_tm2d_learner_names[k], 0, m, d, X, y, (int)nq, xs, pred, tmo))) break;
      long ve = 0, te = 0;
      for (long j = 0; j < nq; j++) {
        if (pred[j] != tmo[j]) r->disagree++; /* the RCNN against the direct TM */
        if (j < r->N) ve += pred[j] != lab[j];
        else te += pred[j] != lab[j];
      }
      verr[k] = (double)ve / r->N, terr[k] = (double)te / nx;
      if (terr[k] < best) best = terr[k];
    }
    if (st) break;
    for (int k = 0; k < K; k++) succ += terr[k] <= best + c->eps / 2;
    r->opt_zero += best == 0;
    r->learner_ok += succ;
    q_exact += pow(1 - (double)succ / K, (double)r->M);
    /* the wrapper, seqs times on this trial's data: M restarts (a uniform learner each), then the
     * restart with the smallest validation error (the first on a tie) is the output */
    nnt_rng_init(&g, seed, 2);
    for (int s = 0; s < c->seqs; s++, seqs++) {
      int any = 0, sel = -1;
      double mn = 1;
      for (long i = 0; i < r->M; i++) {
        int k = (int)nnt_rng_below(&g, (uint64_t)K);
        int ok = terr[k] <= best + c->eps / 2;
        any |= ok, restarts_ok += ok, restarts_all++;
        if (terr[k] < mn) mn = terr[k];
        if (sel < 0 || verr[k] < verr[sel]) sel = k;
      }
      none += !any;
      select_bad += terr[sel] > mn + c->eps;
      bad += terr[sel] > best + c->eps;
    }
  }
  if (!st) {
    double n = (double)seqs;
    r->seqs = seqs;
    r->p_hat = (double)restarts_ok / restarts_all;
    r->q_hat = none / n, r->q_exact = q_exact / c->trials;
    r->select_hat = select_bad / n, r->fail_hat = bad / n;
    r->p_ok = r->p_hat >= r->p_lb - allow(r->p_lb, (double)restarts_all);
    r->q_ok = fabs(r->q_hat - r->q_exact) <= allow(r->q_exact, n) && r->q_hat <= c->delta / 2 + allow(c->delta / 2, n);
    r->select_ok = r->select_hat <= c->delta / 2 + allow(c->delta / 2, n);
    r->fail_ok = r->fail_hat <= c->delta + allow(c->delta, n);
    r->seconds = nnt_now() - t0;
  }
  free(X), free(y), free(x), free(xs), free(pred), free(tmo), free(lab), free(verr), free(terr);
  return st;
}
