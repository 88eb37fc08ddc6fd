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
  TEST_MAIN_END();
}
