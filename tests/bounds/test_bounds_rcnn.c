/* Theorem 1 / Corollary 2 calculators of seed 002 against values worked out by hand from the
 * formulas of the spec (§3.1 parameter counts, §6 Corollary 3 and the corrected Corollary 2,
 * Observation 1, pitfall 11's depth). */
#include <math.h>

#include "nnt_bounds.h"
#include "nnt_error.h"
#include "nnt_test.h"

int main(void) {
  /* s = 2: d_rc = 200: 9*200 + 3*200^2 + 200 + 2*100 = 1800 + 120000 + 200 + 200 */
  CHECK(nnt_bounds_rcnn_shared_params(2) == 122200);
  CHECK(nnt_bounds_rcnn_shared_params(4) == 3600 + 480000 + 400 + 200); /* 484,200 (spec §6) */
  CHECK(nnt_bounds_rcnn_U(2) == 773 && nnt_bounds_rcnn_U(4) == 1541);   /* 24*16*s + 5 */
  nnt_bounds_rcnn_cfg c;
  nnt_bounds_rcnn_cfg_default(&c, NNT_PRESET_FULL);
  CHECK(c.s == 2 && c.eps == 0.1 && c.delta == 0.05);
  nnt_bounds_rcnn r;
  CHECK(nnt_bounds_rcnn_eval(&c, &r) == NNT_OK);
  /* 773^-122200: log10 773 = 2.88818 -> -352,935.5 (spec: about -352,900) */
  CHECK_CLOSE(r.log10_p_success, -122200 * 2.8881794939, 1e-9);
  CHECK(fabs(r.log10_p_success + 352900) < 100);
  /* corrected M = ln(2/delta) / P: ln 40 = 3.68888, log10 3.68888 = 0.566897 */
  CHECK_CLOSE(r.log10_restarts, 0.5668970 + 352935.50, 1e-7);
  CHECK_CLOSE(r.log10_restarts + r.log10_p_success, log10(log(40.0)), 1e-6); /* M P = ln(2/delta): (1-P)^M <= delta/2 */
  /* N = 2 ln(2M/delta) / eps^2 = 200 (ln M + ln 40), ln M = log10 M * 2.302585 */
  CHECK_CLOSE(r.validation, 200 * (r.log10_restarts * 2.302585093 + 3.688879454), 1e-9);
  CHECK(r.validation > 1.62e8 && r.validation < 1.63e8);
  CHECK(r.memory_params == 17 * 9);
  /* t = (2dm)^k = 256 with d = 8, m = 16, k = 1; L = max(17, 25, 257) */
  CHECK(r.t == 256 && r.L == 257 && r.cells == 17 * (9 + 257));
  CHECK(nnt_bounds_rcnn_depth(16, 8, 10) == 25);
  CHECK(nnt_bounds_rcnn_depth(16, 8, 4682) == 4683);
  CHECK(nnt_bounds_rcnn_depth(3, 0, 1) == 4);
  /* Observation 1's p: (0.1*0.05)^-3 + (4*8*16)^3 = 8e6 + 134217728 */
  CHECK_CLOSE(r.log10_obs_p, log10(8e6 + 134217728.0), 1e-9);
  CHECK_CLOSE(r.log10_alg2_r, 1.2, 1e-12);
  /* r = 2^floor(-log2(M)/3k): M = 10^12, k = 1: -39.86/3 = -13.29 -> 2^-14 */
  CHECK(r.obs_r_log2 == -14);
  for (int k = 1; k <= 4; k++)
    for (double lm = 0.5; lm < 40; lm += 0.37) {
      double r_ = pow(2, nnt_bounds_rcnn_obs1_r_log2(lm, k)), top = pow(10, -lm / (3 * k));
      CHECK(r_ <= top * (1 + 1e-12) && r_ > top / 2);
    }
  c.s = 4;
  CHECK(nnt_bounds_rcnn_eval(&c, &r) == NNT_OK);
  CHECK(fabs(r.log10_p_success / -1.54e6 - 1) < 0.005); /* spec: about 10^(-1.54e6) */
  c.s = 1;
  CHECK(nnt_bounds_rcnn_eval(&c, &r) == NNT_EINVAL);
  c.s = 2, c.eps = 0;
  CHECK(nnt_bounds_rcnn_eval(&c, &r) == NNT_EINVAL);
  c.eps = 0.1, c.delta = 1;
  CHECK(nnt_bounds_rcnn_eval(&c, &r) == NNT_EINVAL);
  TEST_MAIN_END();
}
