/* nnt_params.h — the parameter registry: named (value, grad) tensor pairs.
 *
 * A model registers each of its parameters once; optimizers, checkpoints, gradient checkers and
 * gradient reductions then walk the same list in the same order (registration order), so every
 * model is treated alike. Models keep raw pointers into value.data / grad.data (llm.c style):
 * every tensor is its own allocation and adding a parameter never moves an existing buffer.
 *
 *   nnt_params P; nnt_params_init(&P);
 *   float *W = nnt_params_add_f32(&P, "l1.weight", 2, out, in)->value.data;
 *   ... forward, backward accumulating into nnt_params_find(&P, "l1.weight")->grad ...
 *   nnt_params_zero_grad(&P);
 *   nnt_params_free(&P);
 */
#ifndef NNT_PARAMS_H
#define NNT_PARAMS_H
#include <stddef.h>

#include "nnt_tensor.h"

typedef struct {
  char *name;       /* unique in its registry, e.g. "block0.attn.in_proj_weight" */
  nnt_tensor value; /* the parameter */
  nnt_tensor grad;  /* d loss / d value: same dtype and shape, zeroed at creation */
} nnt_param;

typedef struct {
  int n, cap;
  nnt_param **items; /* items[0..n-1]; each nnt_param stays at its address until free */
} nnt_params;

void nnt_params_init(nnt_params *P);
/* Frees every parameter, its name and tensors; P is empty (and reusable) afterwards. */
void nnt_params_free(nnt_params *P);

/* Adds a zeroed parameter and its zeroed gradient. The name must be non-empty and new in P
 * (a duplicate is a programming error: the call prints it and aborts). */
nnt_param *nnt_params_add(nnt_params *P, const char *name, nnt_dtype dtype, int ndim, const int *shape);
#define nnt_params_add_f32(P, name, ndim, ...) nnt_params_add((P), (name), NNT_F32, (ndim), (const int[]){__VA_ARGS__})
#define nnt_params_add_f64(P, name, ndim, ...) nnt_params_add((P), (name), NNT_F64, (ndim), (const int[]){__VA_ARGS__})

/* The parameter with this name, or NULL. */
nnt_param *nnt_params_find(const nnt_params *P, const char *name);
/* Sets every gradient to zero. */
void nnt_params_zero_grad(nnt_params *P);
/* Total number of scalars over all parameters (what "parameter count" means in tables). */
size_t nnt_params_count(const nnt_params *P);
/* Copies every value of src into dst (same names, dtypes and shapes, in the same order). */
void nnt_params_copy_values(nnt_params *dst, const nnt_params *src);

/* Element i of a float32 or float64 tensor, as a double (for checkers and reductions). */
static inline double nnt_tensor_get(const nnt_tensor *t, size_t i) {
  return t->dtype == NNT_F32 ? (double)((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static inline void nnt_tensor_set(nnt_tensor *t, size_t i, double v) {
  if (t->dtype == NNT_F32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

#endif
