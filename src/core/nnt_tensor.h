/* nnt_tensor.h — owned dense buffers of float32 or float64, up to 4-D, row-major.
 *
 * A tensor owns its data from nnt_tensor_alloc to nnt_tensor_free, or views storage owned
 * elsewhere (nnt_tensor_view: a parameter's value and grad view the registry's blocks). Layers
 * take raw pointers (llm.c style); the tensor is the unit the parameter registry, optimizers and
 * checkpoints see.
 */
#ifndef NNT_TENSOR_H
#define NNT_TENSOR_H
#include <stddef.h>
#include "nnt_rng.h"

typedef enum { NNT_F32 = 0, NNT_F64 = 1 } nnt_dtype;

typedef struct {
  nnt_dtype dtype;
  int ndim;
  int shape[4];
  size_t numel;
  void *data;
} nnt_tensor;

/* Allocates zeroed storage; ndim in 1..4, every dim >= 1. */
void nnt_tensor_alloc(nnt_tensor *t, nnt_dtype dtype, int ndim, const int *shape);
/* A tensor over storage it does not own (may be NULL for a shape alone): never nnt_tensor_free it. */
void nnt_tensor_view(nnt_tensor *t, nnt_dtype dtype, int ndim, const int *shape, void *data);
/* Shorthands: nnt_tensor_f32(&t, 2, (int[]){R, C}). */
#define nnt_tensor_f32(t, ndim, ...) nnt_tensor_alloc((t), NNT_F32, (ndim), (const int[]){__VA_ARGS__})
#define nnt_tensor_f64(t, ndim, ...) nnt_tensor_alloc((t), NNT_F64, (ndim), (const int[]){__VA_ARGS__})
void nnt_tensor_free(nnt_tensor *t);
void nnt_tensor_zero(nnt_tensor *t);
void nnt_tensor_copy(nnt_tensor *dst, const nnt_tensor *src); /* same dtype and numel */
int nnt_tensor_same_shape(const nnt_tensor *a, const nnt_tensor *b);
size_t nnt_tensor_bytes(const nnt_tensor *t);
static inline float *nnt_f32(const nnt_tensor *t) { return (float *)t->data; }
static inline double *nnt_f64(const nnt_tensor *t) { return (double *)t->data; }
/* Writes "[2, 3]" into buf. */
const char *nnt_tensor_shape_str(const nnt_tensor *t, char *buf, size_t n);

#endif
