#include "nnt_tensor.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"

void nnt_tensor_view(nnt_tensor *t, nnt_dtype dtype, int ndim, const int *shape, void *data) {
  assert(ndim >= 1 && ndim <= 4);
  t->dtype = dtype;
  t->ndim = ndim;
  t->numel = 1;
  for (int i = 0; i < 4; i++) t->shape[i] = i < ndim ? shape[i] : 1;
  for (int i = 0; i < ndim; i++) {
    assert(shape[i] >= 1);
    t->numel *= (size_t)shape[i];
  }
  t->data = data;
}

void nnt_tensor_alloc(nnt_tensor *t, nnt_dtype dtype, int ndim, const int *shape) {
  nnt_tensor_view(t, dtype, ndim, shape, NULL);
  t->data = nnt_xcalloc(t->numel, dtype == NNT_F32 ? sizeof(float) : sizeof(double));
}

void nnt_tensor_free(nnt_tensor *t) {
  free(t->data);
  t->data = NULL;
  t->numel = 0;
}

size_t nnt_tensor_bytes(const nnt_tensor *t) {
  return t->numel * (t->dtype == NNT_F32 ? sizeof(float) : sizeof(double));
}

void nnt_tensor_zero(nnt_tensor *t) { memset(t->data, 0, nnt_tensor_bytes(t)); }

void nnt_tensor_copy(nnt_tensor *dst, const nnt_tensor *src) {
  assert(dst->dtype == src->dtype && dst->numel == src->numel);
  memcpy(dst->data, src->data, nnt_tensor_bytes(src));
}

int nnt_tensor_same_shape(const nnt_tensor *a, const nnt_tensor *b) {
  if (a->ndim != b->ndim || a->dtype != b->dtype) return 0;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i]) return 0;
  return 1;
}

const char *nnt_tensor_shape_str(const nnt_tensor *t, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->ndim && k < n; i++) k += (size_t)snprintf(buf + k, n - k, i ? ", %d" : "%d", t->shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
  return buf;
}
