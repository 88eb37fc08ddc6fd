/* nnt_params.h — the parameter registry: named (value, grad) tensor pairs carved from two arenas.
 *
 * A model declares each of its parameters once, then allocates the registry: every value lives
 * in one block and every gradient in another (llm.c's single allocation, kann's collated t/g),
 * so an optimizer step is one loop over a flat array, a gradient reduction one call, and
 * optimizers, checkpoints and checkers still walk the same named list in registration order.
 *
 *   nnt_params P; nnt_params_init(&P);
 *   nnt_param *w = nnt_params_add_f32(&P, "l1.weight", 2, out, in);   (declared: no data yet)
 *   nnt_params_alloc(&P);                                              (one block each, zeroed)
 *   float *W = w->value.data, *dW = w->grad.data;                      (stable until free)
 *   size_t n; float *all = nnt_params_flat_f32(&P, &n);                (every float32 value)
 *   nnt_params_zero_grad(&P);
 *   nnt_params_free(&P);
 *
 * Layout: the float32 tensors in registration order, back to back, then (from the next 64-byte
 * boundary) the float64 tensors in registration order. The grad block and the optimizer's state
 * blocks (nnt_optim.h) repeat the value block's layout, so one byte offset locates a parameter in
 * all of them.
 */
#ifndef NNT_PARAMS_H
#define NNT_PARAMS_H
#include <stddef.h>

#include "nnt_tensor.h"

typedef struct {
  char *name;       /* unique in its registry, e.g. "block0.attn.in_proj_weight" */
  nnt_tensor value; /* the parameter; data points into the value block (NULL before alloc) */
  nnt_tensor grad;  /* d loss / d value: same dtype and shape, at the same offset in the grad block */
  size_t offset;    /* byte offset of value.data in the value block (set by nnt_params_alloc) */
} nnt_param;

typedef struct {
  int n, cap;
  nnt_param **items; /* items[0..n-1]; each nnt_param stays at its address until free */
  void *values, *grads; /* the two blocks, NULL until nnt_params_alloc */
  size_t bytes;         /* size of each block */
  size_t n32, n64;      /* float32 / float64 scalars */
  size_t off64;         /* byte offset of the float64 section */
} nnt_params;

void nnt_params_init(nnt_params *P);
/* Frees the blocks, names and records; P is empty (and reusable) afterwards. */
void nnt_params_free(nnt_params *P);

/* Declares a parameter; its value and grad get storage at nnt_params_alloc. The name must be
 * non-empty and new in P, and P not yet allocated (programming errors: the call prints and aborts). */
nnt_param *nnt_params_add(nnt_params *P, const char *name, nnt_dtype dtype, int ndim, const int *shape);
#define nnt_params_add_f32(P, name, ndim, ...) nnt_params_add((P), (name), NNT_F32, (ndim), (const int[]){__VA_ARGS__})
#define nnt_params_add_f64(P, name, ndim, ...) nnt_params_add((P), (name), NNT_F64, (ndim), (const int[]){__VA_ARGS__})
/* Allocates the zeroed value and grad blocks (64-byte aligned) and points every tensor into them.
 * Once per registry; the registry is complete afterwards. */
void nnt_params_alloc(nnt_params *P);

/* A zeroed block of the registry's layout (P->bytes, 64-byte aligned; free()), for state kept
 * per scalar such as an optimizer's moments. */
void *nnt_params_block_new(const nnt_params *P);

/* Every float32 (float64) value or gradient as one array in layout order; *n receives its length
 * (may be 0, then the pointer is NULL). The registry must be allocated. */
float *nnt_params_flat_f32(const nnt_params *P, size_t *n);
double *nnt_params_flat_f64(const nnt_params *P, size_t *n);
float *nnt_params_flat_grad_f32(const nnt_params *P, size_t *n);
double *nnt_params_flat_grad_f64(const nnt_params *P, size_t *n);

/* The parameter with this name, or NULL. */
nnt_param *nnt_params_find(const nnt_params *P, const char *name);
/* Sets every gradient to zero (one memset of the grad block). */
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
