#include "nnt_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"

enum { ALIGN = 64 }; /* a cache line, and the widest vector the kernels load */

static size_t round_up(size_t n) { return (n + ALIGN - 1) / ALIGN * ALIGN; }

static void must_be_allocated(const nnt_params *P, const char *who) {
  if (P->n && !P->values) {
    fprintf(stderr, "nnt: %s before nnt_params_alloc\n", who);
    abort(); /* caller misuse of the parameter API, never input */
  }
}

void nnt_params_init(nnt_params *P) { memset(P, 0, sizeof *P); }

void nnt_params_free(nnt_params *P) {
  for (int i = 0; i < P->n; i++) {
    free(P->items[i]->name);
    free(P->items[i]);
  }
  free(P->items);
  free(P->values);
  free(P->grads);
  nnt_params_init(P);
}

nnt_param *nnt_params_add(nnt_params *P, const char *name, nnt_dtype dtype, int ndim, const int *shape) {
  if (!name || !*name || nnt_params_find(P, name) || P->values) {
    fprintf(stderr, "nnt: parameter '%s' %s\n", name ? name : "",
            P->values ? "added after nnt_params_alloc" : name && *name ? "registered twice" : "has an empty name");
    abort(); /* caller misuse: parameter names are fixed by each model's code */
  }
  if (P->n == P->cap) {
    P->cap = P->cap ? 2 * P->cap : 16;
    /* Only the array of pointers moves; the records stay put. */
    P->items = nnt_xrealloc(P->items, (size_t)P->cap * sizeof *P->items);
  }
  nnt_param *p = nnt_xcalloc(1, sizeof *p);
  p->name = nnt_xstrdup(name);
  nnt_tensor_view(&p->value, dtype, ndim, shape, NULL); /* storage comes at nnt_params_alloc */
  nnt_tensor_view(&p->grad, dtype, ndim, shape, NULL);
  P->items[P->n++] = p;
  return p;
}

static void *block_new(size_t bytes) {
  void *b = aligned_alloc(ALIGN, bytes ? bytes : ALIGN);
  if (!b) nnt_oom(bytes);
  memset(b, 0, bytes);
  return b;
}

void nnt_params_alloc(nnt_params *P) {
  if (P->values) {
    fprintf(stderr, "nnt: nnt_params_alloc called twice\n");
    abort(); /* caller misuse of the parameter API, never input */
  }
  size_t n32 = 0, n64 = 0;
  for (int i = 0; i < P->n; i++) {
    const nnt_tensor *t = &P->items[i]->value;
    if (t->dtype == NNT_F32) P->items[i]->offset = n32 * sizeof(float), n32 += t->numel;
    else P->items[i]->offset = n64 * sizeof(double), n64 += t->numel;
  }
  P->n32 = n32, P->n64 = n64;
  P->off64 = round_up(n32 * sizeof(float));
  P->bytes = round_up(P->off64 + n64 * sizeof(double));
  P->values = block_new(P->bytes);
  P->grads = block_new(P->bytes);
  for (int i = 0; i < P->n; i++) {
    nnt_param *p = P->items[i];
    if (p->value.dtype == NNT_F64) p->offset += P->off64;
    p->value.data = (char *)P->values + p->offset;
    p->grad.data = (char *)P->grads + p->offset;
  }
}

void *nnt_params_block_new(const nnt_params *P) {
  must_be_allocated(P, "nnt_params_block_new");
  return block_new(P->bytes);
}

float *nnt_params_flat_f32(const nnt_params *P, size_t *n) {
  must_be_allocated(P, "nnt_params_flat_f32");
  *n = P->n32;
  return P->n32 ? P->values : NULL;
}
double *nnt_params_flat_f64(const nnt_params *P, size_t *n) {
  must_be_allocated(P, "nnt_params_flat_f64");
  *n = P->n64;
  return P->n64 ? (double *)((char *)P->values + P->off64) : NULL;
}
float *nnt_params_flat_grad_f32(const nnt_params *P, size_t *n) {
  must_be_allocated(P, "nnt_params_flat_grad_f32");
  *n = P->n32;
  return P->n32 ? P->grads : NULL;
}
double *nnt_params_flat_grad_f64(const nnt_params *P, size_t *n) {
  must_be_allocated(P, "nnt_params_flat_grad_f64");
  *n = P->n64;
  return P->n64 ? (double *)((char *)P->grads + P->off64) : NULL;
}

nnt_param *nnt_params_find(const nnt_params *P, const char *name) {
  for (int i = 0; i < P->n; i++)
    if (!strcmp(P->items[i]->name, name)) return P->items[i];
  return NULL;
}

void nnt_params_zero_grad(nnt_params *P) {
  must_be_allocated(P, "nnt_params_zero_grad");
  if (P->grads) memset(P->grads, 0, P->bytes);
}

size_t nnt_params_count(const nnt_params *P) {
  size_t n = 0;
  for (int i = 0; i < P->n; i++) n += P->items[i]->value.numel;
  return n;
}

void nnt_params_copy_values(nnt_params *dst, const nnt_params *src) {
  if (dst->n != src->n) {
    fprintf(stderr, "nnt: nnt_params_copy_values: %d parameters vs %d\n", dst->n, src->n);
    abort(); /* caller misuse: copies between models of one architecture */
  }
  must_be_allocated(dst, "nnt_params_copy_values");
  must_be_allocated(src, "nnt_params_copy_values");
  for (int i = 0; i < src->n; i++)
    if (!nnt_tensor_same_shape(&dst->items[i]->value, &src->items[i]->value)) {
      fprintf(stderr, "nnt: nnt_params_copy_values: %s and %s differ in shape or dtype\n", dst->items[i]->name,
              src->items[i]->name);
      abort(); /* caller misuse: copies between models of one architecture */
    }
  if (src->values) memcpy(dst->values, src->values, src->bytes); /* same layout, so one copy */
}
