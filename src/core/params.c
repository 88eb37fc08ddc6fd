#include "nnt_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"

void nnt_params_init(nnt_params *P) {
  P->n = P->cap = 0;
  P->items = NULL;
}

void nnt_params_free(nnt_params *P) {
  for (int i = 0; i < P->n; i++) {
    nnt_param *p = P->items[i];
    nnt_tensor_free(&p->value);
    nnt_tensor_free(&p->grad);
    free(p->name);
    free(p);
  }
  free(P->items);
  nnt_params_init(P);
}

nnt_param *nnt_params_add(nnt_params *P, const char *name, nnt_dtype dtype, int ndim, const int *shape) {
  if (!name || !*name || nnt_params_find(P, name)) {
    fprintf(stderr, "nnt: parameter name '%s' %s\n", name ? name : "", name && *name ? "registered twice" : "is empty");
    abort();
  }
  if (P->n == P->cap) {
    P->cap = P->cap ? 2 * P->cap : 16;
    /* Only the array of pointers moves; the parameters and their buffers stay put. */
    P->items = nnt_xrealloc(P->items, (size_t)P->cap * sizeof *P->items);
  }
  nnt_param *p = nnt_xcalloc(1, sizeof *p);
  p->name = nnt_xstrdup(name);
  nnt_tensor_alloc(&p->value, dtype, ndim, shape);
  nnt_tensor_alloc(&p->grad, dtype, ndim, shape);
  P->items[P->n++] = p;
  return p;
}

nnt_param *nnt_params_find(const nnt_params *P, const char *name) {
  for (int i = 0; i < P->n; i++)
    if (!strcmp(P->items[i]->name, name)) return P->items[i];
  return NULL;
}

void nnt_params_zero_grad(nnt_params *P) {
  for (int i = 0; i < P->n; i++) nnt_tensor_zero(&P->items[i]->grad);
}

size_t nnt_params_count(const nnt_params *P) {
  size_t n = 0;
  for (int i = 0; i < P->n; i++) n += P->items[i]->value.numel;
  return n;
}

void nnt_params_copy_values(nnt_params *dst, const nnt_params *src) {
  if (dst->n != src->n) {
    fprintf(stderr, "nnt: nnt_params_copy_values: %d parameters vs %d\n", dst->n, src->n);
    abort();
  }
  for (int i = 0; i < src->n; i++) {
    if (!nnt_tensor_same_shape(&dst->items[i]->value, &src->items[i]->value)) {
      fprintf(stderr, "nnt: nnt_params_copy_values: %s and %s differ in shape or dtype\n", dst->items[i]->name,
              src->items[i]->name);
      abort();
    }
    nnt_tensor_copy(&dst->items[i]->value, &src->items[i]->value);
  }
}
