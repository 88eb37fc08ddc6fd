/* rcnn.c — Theorem 1 / Corollary 2 quantities of seed 002 (spec §3.1, §6, §7.7). */
#include <math.h>

#include "nnt_bounds.h"
#include "nnt_error.h"

double nnt_bounds_rcnn_shared_params(int s) {
  double d_rc = 100.0 * s, d_head = 100;
  return 9 * d_rc + 3 * d_rc * d_rc + d_rc + 2 * d_head;
}

double nnt_bounds_rcnn_U(int s) { return 24.0 * 16 * s + 5; }

double nnt_bounds_rcnn_depth(double m, double d, double t) { return fmax(fmax(m + 1, m + d + 1), t + 1); }

int nnt_bounds_rcnn_obs1_r_log2(double log10_M, int k) {
  /* log2 M = log10 M / log10 2; the floor of −log2(M)/(3k) */
  return (int)floor(-log10_M / log10(2.0) / (3.0 * k));
}

void nnt_bounds_rcnn_cfg_default(nnt_bounds_rcnn_cfg *c, nnt_preset preset) {
  (void)preset;
  *c = (nnt_bounds_rcnn_cfg){.s = 2, .eps = 0.1, .delta = 0.05, .d = 8, .m = 16, .k = 1, .t = 0, .log10_M_obs = 12};
}

int nnt_bounds_rcnn_eval(const nnt_bounds_rcnn_cfg *c, nnt_bounds_rcnn *r) {
  if (c->s < 2) return nnt_fail(NNT_EINVAL, "--s: Theorem 1 needs s >= 2 states (got %d)", c->s);
  if (!(c->eps > 0 && c->eps < 1)) return nnt_fail(NNT_EINVAL, "--eps must be in (0, 1) (got %g)", c->eps);
  if (!(c->delta > 0 && c->delta < 1)) return nnt_fail(NNT_EINVAL, "--delta must be in (0, 1) (got %g)", c->delta);
  if (c->d < 1 || c->m < 1 || c->k < 1) return nnt_fail(NNT_EINVAL, "--d, --m and --k must be >= 1");
  if (!(c->log10_M_obs > 0)) return nnt_fail(NNT_EINVAL, "--log10-M must be > 0 (got %g)", c->log10_M_obs);
  double d = c->d, m = c->m, k = c->k;
  r->d_rc = 100.0 * c->s, r->d_head = 100;
  r->shared_params = nnt_bounds_rcnn_shared_params(c->s);
  r->memory_params = (m + 1) * (d + 1);
  r->U = nnt_bounds_rcnn_U(c->s);
  r->log10_p_success = -r->shared_params * log10(r->U);
  /* M = ln(2/δ) · 10^(−log10 P); then ln(2M/δ) = ln M + ln(2/δ) */
  double log10_M = log10(log(2 / c->delta)) - r->log10_p_success;
  r->log10_restarts = log10_M;
  r->validation = 2 * (log10_M * log(10.0) + log(2 / c->delta)) / (c->eps * c->eps);
  r->t = c->t > 0 ? c->t : pow(2 * d * m, k);
  r->L = nnt_bounds_rcnn_depth(m, d, r->t);
  r->cells = (m + 1) * (d + 1 + r->L);
  r->obs_r_log2 = nnt_bounds_rcnn_obs1_r_log2(c->log10_M_obs, c->k);
  /* log10((εδ)^(−3k) + (4dm)^(3k)), summed in log space */
  double a = -3 * k * log10(c->eps * c->delta), b = 3 * k * log10(4 * d * m), hi = fmax(a, b);
  r->log10_obs_p = hi + log10(pow(10, a - hi) + pow(10, b - hi));
  r->log10_alg2_r = c->log10_M_obs / 10;
  return NNT_OK;
}
