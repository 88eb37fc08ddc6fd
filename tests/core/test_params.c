/* Parameter registry: registration order, lookup, the two arenas (every tensor carved from one
 * value block and one grad block, contiguous per dtype, in registration order), stable buffers,
 * zero_grad, counts, copy. */
#include <stdint.h>
#include <string.h>

#include "nnt_params.h"
#include "nnt_test.h"

int main(void) {
  nnt_params P;
  nnt_params_init(&P);
  CHECK(P.n == 0 && nnt_params_count(&P) == 0 && nnt_params_find(&P, "w") == NULL);

  nnt_param *w = nnt_params_add_f32(&P, "l1.weight", 2, 3, 4);
  nnt_param *b = nnt_params_add_f64(&P, "l1.bias", 1, 3);
  CHECK(w->value.data == NULL && w->grad.data == NULL); /* declared, no storage yet */
  CHECK(w->value.dtype == NNT_F32 && w->grad.dtype == NNT_F32 && w->value.numel == 12);
  CHECK(b->value.dtype == NNT_F64 && b->grad.numel == 3);
  CHECK(nnt_tensor_same_shape(&w->value, &w->grad));

  /* Many more registrations force the pointer array to grow: the records must not move. */
  char name[32];
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "extra%d", i);
    if (i % 3 == 1) nnt_params_add_f64(&P, name, 2, 1, i + 1);
    else nnt_params_add_f32(&P, name, 3, 2, 1, i + 1);
  }
  CHECK(P.n == 102);
  CHECK(nnt_params_find(&P, "l1.weight") == w && nnt_params_find(&P, "l1.bias") == b);
  CHECK(nnt_params_find(&P, "extra99") == P.items[101]);
  CHECK(nnt_params_find(&P, "extra") == NULL);
  CHECK(!strcmp(P.items[0]->name, "l1.weight") && !strcmp(P.items[1]->name, "l1.bias"));
  size_t expect = 12 + 3, e32 = 12, e64 = 3;
  for (int i = 0; i < 100; i++) {
    size_t k = (size_t)(i % 3 == 1 ? 1 : 2) * (size_t)(i + 1);
    expect += k;
    if (i % 3 == 1) e64 += k;
    else e32 += k;
  }
  CHECK(nnt_params_count(&P) == expect);

  nnt_params_alloc(&P);
  /* The arenas: per dtype, tensors follow each other in registration order without gaps, so the
   * flat arrays hold exactly every scalar, each once. */
  size_t n32, n64, g32, g64;
  float *v32 = nnt_params_flat_f32(&P, &n32), *d32 = nnt_params_flat_grad_f32(&P, &g32);
  double *v64 = nnt_params_flat_f64(&P, &n64), *d64 = nnt_params_flat_grad_f64(&P, &g64);
  CHECK(n32 == e32 && n64 == e64 && g32 == e32 && g64 == e64 && n32 + n64 == nnt_params_count(&P));
  CHECK((void *)v32 == P.values && (void *)d32 == P.grads);
  CHECK((uintptr_t)v32 % 64 == 0 && (uintptr_t)v64 % 64 == 0 && (uintptr_t)d64 % 64 == 0);
  size_t at32 = 0, at64 = 0;
  int contiguous = 1;
  for (int i = 0; i < P.n; i++) {
    const nnt_param *p = P.items[i];
    if (p->value.dtype == NNT_F32) {
      contiguous &= p->value.data == (void *)(v32 + at32) && p->grad.data == (void *)(d32 + at32);
      at32 += p->value.numel;
    } else {
      contiguous &= p->value.data == (void *)(v64 + at64) && p->grad.data == (void *)(d64 + at64);
      at64 += p->value.numel;
    }
    contiguous &= (char *)p->value.data - (char *)P.values == (ptrdiff_t)p->offset;
    contiguous &= (char *)p->grad.data - (char *)P.grads == (ptrdiff_t)p->offset;
  }
  CHECK(contiguous && at32 == n32 && at64 == n64);
  CHECK((char *)(v64 + n64) <= (char *)P.values + P.bytes && (char *)(v32 + n32) <= (char *)v64);
  /* a write through the flat array is a write to the named tensor, and the other way round */
  v32[5] = 2.5f;
  CHECK(nnt_f32(&w->value)[5] == 2.5f);
  nnt_f64(&b->value)[2] = -4;
  CHECK(v64[2] == -4);

  /* Everything starts at zero, zero_grad clears the grads, values untouched. */
  int zero = 1;
  for (int i = 0; i < P.n; i++)
    for (size_t k = 0; k < P.items[i]->grad.numel; k++) zero &= nnt_tensor_get(&P.items[i]->grad, k) == 0;
  CHECK(zero);
  for (int i = 0; i < P.n; i++)
    for (size_t k = 0; k < P.items[i]->grad.numel; k++) nnt_tensor_set(&P.items[i]->grad, k, 1.0 + (double)k);
  CHECK(nnt_tensor_get(&b->grad, 2) == 3.0 && nnt_f32(&w->grad)[11] == 12.0f && d64[2] == 3.0);
  nnt_params_zero_grad(&P);
  zero = 1;
  for (size_t k = 0; k < n32; k++) zero &= d32[k] == 0;
  for (size_t k = 0; k < n64; k++) zero &= d64[k] == 0;
  CHECK(zero);
  CHECK(v32[5] == 2.5f && v64[2] == -4);

  /* copy_values between two registries of the same layout */
  nnt_params Q;
  nnt_params_init(&Q);
  nnt_params_add_f32(&Q, "l1.weight", 2, 3, 4);
  nnt_params_add_f64(&Q, "l1.bias", 1, 3);
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "extra%d", i);
    if (i % 3 == 1) nnt_params_add_f64(&Q, name, 2, 1, i + 1);
    else nnt_params_add_f32(&Q, name, 3, 2, 1, i + 1);
  }
  nnt_params_alloc(&Q);
  nnt_f64(&b->value)[1] = -7;
  nnt_f32(&P.items[101]->value)[0] = 9;
  nnt_params_copy_values(&Q, &P);
  CHECK(nnt_f32(&Q.items[0]->value)[5] == 2.5f && nnt_f64(&Q.items[1]->value)[1] == -7);
  CHECK(nnt_f32(&Q.items[101]->value)[0] == 9);

  /* an empty registry allocates and has empty flat arrays */
  nnt_params E;
  nnt_params_init(&E);
  nnt_params_alloc(&E);
  CHECK(nnt_params_flat_f32(&E, &n32) == NULL && n32 == 0 && nnt_params_flat_f64(&E, &n64) == NULL && n64 == 0);
  nnt_params_zero_grad(&E);
  nnt_params_free(&E);

  nnt_params_free(&P);
  CHECK(P.n == 0 && P.items == NULL && P.values == NULL);
  nnt_params_free(&Q);
  TEST_MAIN_END();
}
