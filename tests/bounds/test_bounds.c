/* Bound formulas: values by hand, inverses, monotonicity. */
#include <math.h>

#include "nnt_bounds.h"
#include "nnt_test.h"

int main(void) {
  /* alpha = 10, p = e^2, gamma = 0.5, eps = 0.1: (100 * 2 / 0.25 + 1) / 0.01 = 80100 */
  CHECK_CLOSE(nnt_bounds_lemma23_n(10, exp(2), 0.5, 0.1), 80100, 1e-12);
  CHECK_CLOSE(nnt_bounds_lemma23_eps(10, exp(2), 0.5, 80100), 0.1, 1e-12);
  for (double n = 10; n < 1e9; n *= 10) {
    double e = nnt_bounds_lemma23_eps(123, 4567, 0.01, n);
    CHECK_CLOSE(nnt_bounds_lemma23_n(123, 4567, 0.01, e), n, 1e-9);
    CHECK_CLOSE(nnt_bounds_vc_n(1e4, nnt_bounds_vc_eps(1e4, n)), n, 1e-9);
  }
  CHECK(nnt_bounds_lemma23_n(10, 100, 0.1, 0.1) > nnt_bounds_lemma23_n(10, 100, 0.2, 0.1));
  CHECK(nnt_bounds_lemma23_n(10, 1000, 0.1, 0.1) > nnt_bounds_lemma23_n(10, 100, 0.1, 0.1));
  CHECK_CLOSE(nnt_bounds_vc_relu(1024, 3), 1024 * 3 * 10, 1e-12);
  CHECK_CLOSE(nnt_bounds_vc_transformer(50, 1000), 50000, 1e-12);
  CHECK_CLOSE(nnt_bounds_gamma_default(2), 1.0 / 12, 1e-12);
  CHECK_CLOSE(nnt_bounds_gamma_default(0.5), 1.0 / 6, 1e-12);
  nnt_bounds_model m = {10, 3, exp(1), 4, 1, 0.5, 100};
  CHECK_CLOSE(nnt_bounds_ratio(&m), (16 * 1 / 0.25 + 1) / 100, 1e-12);
  /* F_{W,d} with m = 3, W = 4, d = 3, 2 outputs: 3*4 + 4, 4*4 + 4, 4*2 + 2 */
  CHECK(nnt_bounds_relu_params(3, 4, 3, 2) == 46);
  double n[NNT_BOUNDS_CURVE], eL[NNT_BOUNDS_CURVE], eV[NNT_BOUNDS_CURVE];
  nnt_bounds_curve(&m, n, eL, eV);
  CHECK(n[0] == 100 && n[NNT_BOUNDS_CURVE - 1] == 1e30);
  for (int k = 0; k < NNT_BOUNDS_CURVE; k++) {
    CHECK_CLOSE(eL[k], sqrt((16 * 1 / 0.25 + 1) / n[k]), 1e-12); /* ln p = 1 */
    CHECK_CLOSE(eV[k], sqrt(100 / n[k]), 1e-12);
  }
  nnt_bounds_sm_cfg c;
  nnt_bounds_sm_cfg_default(&c, NNT_PRESET_QUICK);
  CHECK(c.T < 0 && c.max_T == 200 && c.eps == 0.1 && !c.tm && !c.circuit);
  TEST_MAIN_END();
}
