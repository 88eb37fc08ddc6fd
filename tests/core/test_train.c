/* Training guards: nnt_train_check_step finds a NaN/+Inf/-Inf at every position of every tensor
 * (lengths that are not multiples of a vector, float32 and float64) and names the step, tensor and
 * element; finite extremes pass; the NNT_FAULT_NAN_STEP hook poisons exactly its step. Gradient
 * norm and clip_grad_norm_ against hand-computed values (grads (3, 4) and (12) have norm 13). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_train.h"
#include "nnt_test.h"

static void check_step(void) {
  nnt_params P;
  nnt_params_init(&P);
  nnt_param *t[4] = {nnt_params_add_f32(&P, "emb", 2, 5, 7), nnt_params_add_f32(&P, "block0.w", 1, 1),
                     nnt_params_add_f64(&P, "head.w", 1, 13), nnt_params_add_f32(&P, "head.b", 1, 3)};
  nnt_params_alloc(&P);
  for (int i = 0; i < 4; i++)
    for (size_t k = 0; k < t[i]->grad.numel; k++) nnt_tensor_set(&t[i]->grad, k, k % 2 ? -1e-3 : 2.5);
  nnt_tensor_set(&t[0]->grad, 3, FLT_MAX), nnt_tensor_set(&t[0]->grad, 4, FLT_TRUE_MIN);
  nnt_tensor_set(&t[2]->grad, 5, -DBL_MAX), nnt_tensor_set(&t[2]->grad, 6, DBL_TRUE_MIN);
  CHECK(nnt_train_check_step(&P, 3, 0.25) == NNT_OK);
  static const char *names[3] = {"NaN", "+Inf", "-Inf"};
  const double bad[3] = {NAN, INFINITY, -INFINITY};
  for (int i = 0; i < 4; i++)
    for (size_t k = 0; k < t[i]->grad.numel; k++)
      for (int b = 0; b < 3; b++) {
        double keep = nnt_tensor_get(&t[i]->grad, k);
        nnt_tensor_set(&t[i]->grad, k, bad[b]);
        char want[128];
        snprintf(want, sizeof want, "step 812, tensor %s: non-finite gradient (%s at element %zu)", t[i]->name, names[b], k);
        CHECK(nnt_train_check_step(&P, 812, 0.25) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), want));
        nnt_tensor_set(&t[i]->grad, k, keep);
      }
  CHECK(nnt_train_check_step(&P, 7, INFINITY) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), "step 7, loss: non-finite loss (+Inf)"));
  CHECK(nnt_train_check_step(&P, 0, -INFINITY) == NNT_ENUMERIC && !strcmp(nnt_errmsg(), "step 0, loss: non-finite loss (-Inf)"));
  /* the hidden fault hook: step 5 only, the last tensor's first element */
  setenv("NNT_FAULT_NAN_STEP", "5", 1);
  CHECK(nnt_train_check_step(&P, 4, 0.25) == NNT_OK);
  CHECK(nnt_train_check_step(&P, 5, 0.25) == NNT_ENUMERIC &&
        !strcmp(nnt_errmsg(), "step 5, tensor head.b: non-finite gradient (NaN at element 0)"));
  unsetenv("NNT_FAULT_NAN_STEP");
  nnt_params_free(&P);
}

int main(void) {
  check_step();
  CHECK(nnt_exit_code(NNT_ENUMERIC) == 1 && nnt_exit_code(NNT_ECHECK) == 1 && nnt_exit_code(NNT_EIO) == 2);

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
  CHECK(isnan(norm) && nnt_train_check_step(&P, 4, 0.5) == NNT_ENUMERIC);
  CHECK(!strcmp(nnt_errmsg(), "step 4, tensor a: non-finite gradient (NaN at element 0)")); /* clipping spread it */
  nnt_params_free(&P);
  TEST_MAIN_END();
}
