/* Training guards: NaN/Inf loss and gradient-norm messages naming the step; gradient norm and
 * clip_grad_norm_ against hand-computed values (grads (3, 4) and (12) have norm 13). */
#include <math.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_train.h"
#include "nnt_test.h"

int main(void) {
  CHECK(nnt_train_check_loss(3, 0.25) == NNT_OK);
  CHECK(nnt_train_check_loss(812, NAN) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), "loss is NaN at step 812"));
  CHECK(nnt_train_check_loss(7, INFINITY) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), "loss is +Inf at step 7"));
  CHECK(nnt_train_check_loss(0, -INFINITY) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), "loss is -Inf at step 0"));
  CHECK(nnt_train_check_grad_norm(9, NAN) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), "gradient norm is NaN at step 9"));
  CHECK(nnt_exit_code(NNT_ENUMERIC) == 2 && nnt_exit_code(NNT_ECHECK) == 1);

  nnt_params P;
  nnt_params_init(&P);
  nnt_param *a = nnt_params_add_f32(&P, "a", 1, 2);
  nnt_param *b = nnt_params_add_f64(&P, "b", 2, 1, 1);
  nnt_params_alloc(&P);
  nnt_f32(&a->grad)[0] = 3, nnt_f32(&a->grad)[1] = 4, nnt_f64(&b->grad)[0] = 12;
  CHECK_CLOSE(nnt_grad_norm(&P), 13.0, 1e-15);

  /* max_norm above the norm: nothing changes, bit for bit */
  CHECK_CLOSE(nnt_clip_grad_norm(&P, 100), 13.0, 1e-15);
  CHECK(nnt_f32(&a->grad)[0] == 3 && nnt_f32(&a->grad)[1] == 4 && nnt_f64(&b->grad)[0] == 12);

  /* max_norm 6.5: every grad scaled by 6.5 / (13 + 1e-6) -> (1.5, 2, 6) minus 1e-6 relative */
  double c = 6.5 / (13 + 1e-6);
  CHECK_CLOSE(nnt_clip_grad_norm(&P, 6.5), 13.0, 1e-15);
  CHECK_CLOSE(nnt_f32(&a->grad)[0], 3 * c, 1e-7);
  CHECK_CLOSE(nnt_f32(&a->grad)[1], 4 * c, 1e-7);
  CHECK_CLOSE(nnt_f64(&b->grad)[0], 12 * c, 1e-15);
  CHECK(nnt_f64(&b->grad)[0] < 6 && nnt_f64(&b->grad)[0] > 6 - 1e-6);
  CHECK_CLOSE(nnt_grad_norm(&P), 6.5, 1e-7);

  /* a NaN gradient makes the norm NaN, which the guard reports */
  nnt_f64(&b->grad)[0] = NAN;
  double norm = nnt_clip_grad_norm(&P, 1.0);
  CHECK(isnan(norm) && nnt_train_check_grad_norm(4, norm) == NNT_ENUMERIC);
  nnt_params_free(&P);
  TEST_MAIN_END();
}
