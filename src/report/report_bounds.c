/* report_bounds.c — what nnt bounds writes (console, CSV) of the bounds area's results. */
#include <math.h>
#include <stdio.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "report_bounds.h"

int nnt_report_bounds_rcnn(const char *dir, const nnt_bounds_rcnn_cfg *c, const nnt_bounds_rcnn *r) {
  printf("Theorem 1 / Corollary 2 (seed 002) for s=%d, eps=%g, delta=%g; d=%d, m=%d, k=%d\n", c->s, c->eps, c->delta, c->d, c->m, c->k);
  printf("RCNN F^{d+1, m+1, 100s, 100, L}: d_rc=%.0f d_head=%.0f\n", r->d_rc, r->d_head);
  printf("  shared weights P = 9 d_rc + 3 d_rc^2 + d_rc + 2 d_head = %.0f (log10 %.4f)\n", r->shared_params, log10(r->shared_params));
  printf("  trained memory W: (m+1)(d+1) = %.0f\n", r->memory_params);
  printf("  |U_s| = 24*16*s + 5 = %.0f\n", r->U);
  printf("Theorem 1: log10 P(success) >= log10 |U_s|^(-P) = %.1f\n", r->log10_p_success);
  printf("Corollary 2 (corrected): restarts log10 M = log10(ln(2/delta)/P(success)) = %.1f\n", r->log10_restarts);
  printf("  validation N = 2 ln(2M/delta)/eps^2 = %.6g (log10 %.4f)\n", r->validation, log10(r->validation));
  printf("depth: t=%.6g, L = max(m+1, m+d+1, t+1) = %.6g; grid (m+1)(d+1+L) = %.6g cells with a work region of width L\n", r->t,
         r->L, r->cells);
  printf("Observation 1 (log10 M = %g): r = 2^%d (log10 r = %.4f, in [M^(-1/3k)/2, M^(-1/3k)]); "
         "log10 p(d,m,eps,delta) = %.4f\n",
         c->log10_M_obs, r->obs_r_log2, r->obs_r_log2 * log10(2.0), r->log10_obs_p);
  printf("Algorithm 2: r = M^(1/10), log10 r = %.4f; loops s, k, t = 1..r\n", r->log10_alg2_r);
  printf("not run: the random search of Theorem 1 can only be computed; the paper's own Corollary 2 values\n"
         "  (s^{c1 s} log(1/delta) restarts, M = delta s^{c2 s^2}/2) are inconsistent, corrected as in spec section 6\n");
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "rcnn.csv",
                        "s,eps,delta,d,m,k,shared_params,memory_params,U,log10_p_success,log10_restarts,validation,t,L,cells");
  if (st) return st;
  nnt_csv_row(&csv, "%d,%.17g,%.17g,%d,%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", c->s, c->eps, c->delta,
              c->d, c->m, c->k, r->shared_params, r->memory_params, r->U, r->log10_p_success, r->log10_restarts,
              r->validation, r->t, r->L, r->cells);
  return nnt_csv_close(&csv);
}
