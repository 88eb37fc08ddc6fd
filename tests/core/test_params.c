/* Parameter registry: registration order, lookup, stable buffers, zero_grad, counts. */
#include <string.h>

#include "nnt_params.h"
#include "nnt_test.h"

int main(void) {
  nnt_params P;
  nnt_params_init(&P);
  CHECK(P.n == 0 && nnt_params_count(&P) == 0 && nnt_params_find(&P, "w") == NULL);

  nnt_param *w = nnt_params_add_f32(&P, "l1.weight", 2, 3, 4);
  float *wdata = w->value.data;
  wdata[5] = 2.5f;
  nnt_param *b = nnt_params_add_f64(&P, "l1.bias", 1, 3);
  CHECK(w->value.dtype == NNT_F32 && w->grad.dtype == NNT_F32 && w->value.numel == 12);
  CHECK(b->value.dtype == NNT_F64 && b->grad.numel == 3);
  CHECK(nnt_tensor_same_shape(&w->value, &w->grad));

  /* Many more registrations force the pointer array to grow: neither the parameters nor their
   * buffers may move (models keep raw pointers into them). */
  char name[32];
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "extra%d", i);
    nnt_params_add_f32(&P, name, 3, 2, 1, i + 1);
  }
  CHECK(P.n == 102);
  CHECK(nnt_params_find(&P, "l1.weight") == w && w->value.data == (void *)wdata && wdata[5] == 2.5f);
  CHECK(nnt_params_find(&P, "l1.bias") == b);
  CHECK(nnt_params_find(&P, "extra99") == P.items[101]);
  CHECK(nnt_params_find(&P, "extra") == NULL);
  CHECK(!strcmp(P.items[0]->name, "l1.weight") && !strcmp(P.items[1]->name, "l1.bias"));
  size_t expect = 12 + 3;
  for (int i = 0; i < 100; i++) expect += 2 * (size_t)(i + 1);
  CHECK(nnt_params_count(&P) == expect);

  /* Gradients start at zero, zero_grad clears them, values untouched. */
  int zero = 1;
  for (int i = 0; i < P.n; i++)
    for (size_t k = 0; k < P.items[i]->grad.numel; k++) zero &= nnt_tensor_get(&P.items[i]->grad, k) == 0;
  CHECK(zero);
  for (int i = 0; i < P.n; i++)
    for (size_t k = 0; k < P.items[i]->grad.numel; k++) nnt_tensor_set(&P.items[i]->grad, k, 1.0 + (double)k);
  CHECK(nnt_tensor_get(&b->grad, 2) == 3.0 && nnt_f32(&w->grad)[11] == 12.0f);
  nnt_params_zero_grad(&P);
  zero = 1;
  for (int i = 0; i < P.n; i++)
    for (size_t k = 0; k < P.items[i]->grad.numel; k++) zero &= nnt_tensor_get(&P.items[i]->grad, k) == 0;
  CHECK(zero);
  CHECK(wdata[5] == 2.5f);

  /* copy_values between two registries of the same layout */
  nnt_params Q;
  nnt_params_init(&Q);
  nnt_params_add_f32(&Q, "l1.weight", 2, 3, 4);
  nnt_params_add_f64(&Q, "l1.bias", 1, 3);
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "extra%d", i);
    nnt_params_add_f32(&Q, name, 3, 2, 1, i + 1);
  }
  nnt_f64(&b->value)[1] = -7;
  nnt_params_copy_values(&Q, &P);
  CHECK(nnt_f32(&Q.items[0]->value)[5] == 2.5f && nnt_f64(&Q.items[1]->value)[1] == -7);

  nnt_params_free(&P);
  CHECK(P.n == 0 && P.items == NULL);
  nnt_params_free(&Q);
  TEST_MAIN_END();
}
