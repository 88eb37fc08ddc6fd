/* nnt_mlp.h — exact float64 feed-forward networks: a stack of dense layers y = act(W x + b).
 *
 * The object constructions emit (circuits compiled to ReLU nets, approximation builders) and
 * users pass in files: counts are honest (every stored weight is a parameter), evaluation is the
 * network's own forward pass. File format (JSON, "nnt-mlp" version 1), documented in docs/core.md:
 *   {"format": "nnt-mlp", "version": 1,
 *    "layers": [{"activation": "relu", "W": [[...], ...], "b": [...]}, ...]}
 * W is out x in (PyTorch layout); activations: identity, relu, step (1[x >= 0]), sigmoid, tanh.
 */
#ifndef NNT_MLP_H
#define NNT_MLP_H
#include <stddef.h>

typedef enum { NNT_ACT_IDENTITY = 0, NNT_ACT_RELU, NNT_ACT_STEP, NNT_ACT_SIGMOID, NNT_ACT_TANH } nnt_act;

typedef struct {
  int in, out;
  nnt_act act;
  double *W; /* [out, in] row-major */
  double *b; /* [out] */
} nnt_mlp_layer;

typedef struct {
  int nlayers, cap;
  nnt_mlp_layer *layers;
} nnt_mlp;

typedef struct {
  int layers;          /* affine layers */
  int input_dim, output_dim, max_width;
  long hidden_units;   /* outputs of every layer but the last */
  long params;         /* all stored weights and biases */
  long nonzero_params;
  double l1_norm;      /* sum of |w| over all weights and biases */
  double max_abs;      /* largest |w| */
} nnt_mlp_stats;

void nnt_mlp_init(nnt_mlp *m);
void nnt_mlp_free(nnt_mlp *m);
/* Appends a zeroed layer (in must equal the previous layer's out) and returns it. */
nnt_mlp_layer *nnt_mlp_add(nnt_mlp *m, int in, int out, nnt_act act);
/* Appends a layer with weights W (out x in, row-major) and biases b (NULL: zero), copied here,
 * out of the caller's sight: a constant table passed in cannot be expanded into inline stores
 * (GCC 12 miscompiles such expansions under AVX-512, docs/developing.md). */
nnt_mlp_layer *nnt_mlp_add_weights(nnt_mlp *m, int in, int out, nnt_act act, const double *W, const double *b);
void nnt_mlp_copy(nnt_mlp *dst, const nnt_mlp *src);
/* Appends every layer of b after those of a (a's output feeds b's input). */
void nnt_mlp_append(nnt_mlp *a, const nnt_mlp *b);
int nnt_mlp_input_dim(const nnt_mlp *m);
int nnt_mlp_output_dim(const nnt_mlp *m);
double nnt_act_apply(nnt_act a, double v);
const char *nnt_act_name(nnt_act a);

/* y[out] for one input x[in]. */
void nnt_mlp_forward(const nnt_mlp *m, const double *x, double *y);
/* Y[B, out] for inputs X[B, in], through dgemm (compressed rows for layers under 1/8 dense). */
void nnt_mlp_forward_batch(const nnt_mlp *m, int B, const double *X, double *Y);
/* Forward keeping every layer's output: acts[l] must hold layers[l].out doubles. */
void nnt_mlp_forward_trace(const nnt_mlp *m, const double *x, double **acts);

nnt_mlp_stats nnt_mlp_stats_of(const nnt_mlp *m);

int nnt_mlp_save(const nnt_mlp *m, const char *path);
/* NNT_EIO / NNT_EFORMAT ("file: layers[2].W: ...") on failure; m is untouched then. Reads the
 * sparse format below too (expanded to dense W). */
int nnt_mlp_load(const char *path, nnt_mlp *m);

/* ---- The same networks stored sparse: compressed rows (CSR) per layer ----
 * Constructions are mostly zeros (a compiled 32 x 32 multiplier: 0.14% of its dense weights), so
 * they are built and evaluated in this form without ever allocating the dense matrices. Within a
 * row the columns are strictly increasing and no stored value is 0; the forward pass sums
 * b + w_1 x_1 + w_2 x_2 + ... in column order, as the dense nnt_mlp_forward does, so both give
 * the same bits. File format ("nnt-mlp-sparse" version 1, docs/core.md):
 *   {"format": "nnt-mlp-sparse", "version": 1,
 *    "layers": [{"activation": "relu", "in": 3, "out": 2, "row_start": [0, 2, 3],
 *                "col": [0, 2, 1], "val": [1, -1, 2], "b": [0, 1]}, ...]} */
typedef struct {
  int in, out;
  nnt_act act;
  long nnz;
  long *row_start; /* [out + 1]: row o holds entries row_start[o] .. row_start[o+1]-1 */
  int *col;        /* [nnz] */
  double *val;     /* [nnz] */
  double *b;       /* [out] */
} nnt_smlp_layer;

typedef struct {
  int nlayers, cap;
  nnt_smlp_layer *layers;
} nnt_smlp;

void nnt_smlp_init(nnt_smlp *m);
void nnt_smlp_free(nnt_smlp *m);
/* Appends a layer from n (row, col, value) triplets in any order (duplicates are summed in the
 * order given, zeros dropped) and biases b[out] (NULL: zero); all copied. Aborts on an index out
 * of range (a construction's bug, not bad input). Returns the layer. */
nnt_smlp_layer *nnt_smlp_add_coo(nnt_smlp *m, int in, int out, nnt_act act, long n, const int *row, const int *col,
                                 const double *val, const double *b);
void nnt_smlp_from_dense(nnt_smlp *dst, const nnt_mlp *src);
void nnt_smlp_to_dense(nnt_mlp *dst, const nnt_smlp *src);
int nnt_smlp_input_dim(const nnt_smlp *m);
int nnt_smlp_output_dim(const nnt_smlp *m);
/* Parameters the dense form would store (in*out + out per layer, the count papers use), stored
 * nonzeros, L1 norm and largest magnitude: equal to nnt_mlp_stats_of of the dense form. */
nnt_mlp_stats nnt_smlp_stats_of(const nnt_smlp *m);
/* Y[B, out] for inputs X[B, in]: inputs go through in chunks, each kept feature-major so every
 * stored weight updates a contiguous run of inputs (vectorised); same bits as nnt_mlp_forward on
 * each row. */
void nnt_smlp_forward_batch(const nnt_smlp *m, int B, const double *X, double *Y);
/* out[L->out] = act(W in + b) for one input: each sum the bias, then the stored entries in order
 * (the sums of nnt_mlp_forward on the dense layer). */
void nnt_smlp_layer_forward(const nnt_smlp_layer *L, const double *in, double *out);
int nnt_smlp_save(const nnt_smlp *m, const char *path);
/* Reads "nnt-mlp-sparse" or the dense "nnt-mlp" (compressed on load). NNT_EIO / NNT_EFORMAT with
 * "file: layers[1].col[7]: ..." on any malformed or inconsistent array; m is untouched then. */
int nnt_smlp_load(const char *path, nnt_smlp *m);
/* The same, and *sparse = 1 for an nnt-mlp-sparse file, 0 for a dense nnt-mlp one. */
int nnt_smlp_load_fmt(const char *path, nnt_smlp *m, int *sparse);

/* ---- Export (docs/export.md) ----
 * The net as .safetensors: per layer L (0-based) "layers.L.bias" F64 [out] and either
 * "layers.L.weight" F64 [out, in] (dense) or compressed rows "layers.L.weight.indptr" I64 [out+1],
 * "layers.L.weight.indices" I32 [nnz], "layers.L.weight.values" F64 [nnz] (sparse). __metadata__:
 * "kind" (`kind`, or "mlp" / "mlp-sparse" when NULL), "format" "safetensors", "precision" "float64",
 * "arch" {"sizes": [in, out_0, ...], "activations": [...], "sparse": bool, "nnz": N}, and the pairs
 * of meta (key, value, ..., NULL). A path ending in .onnx gets an ONNX model (nnt_onnx.h) instead:
 * input "x" [batch, in] -> output "y" [batch, out], float64, the same tensors as initializers
 * (dense layers as Gemm; CSR layers as Gather, Mul and ScatterND-add, "layers.L.weight.indices"
 * and ".rows" I64, ".values" [nnz, 1], bias [out, 1]; never expanded) and the same metadata as
 * metadata_props. NNT_EINVAL for any other extension; NNT_EIO as nnt_st_write. */
int nnt_smlp_export(const nnt_smlp *m, int sparse, const char *kind, const char *const *meta, const char *path);
/* The same, and for .safetensors the float64 tensors extra[0..nextra-1] besides the layers (a
 * network's other parts and reference data; an ONNX model holds the layers only). */
typedef struct {
  const char *name;
  int ndim;
  long long shape[2];
  const double *data;
} nnt_export_tensor;
int nnt_smlp_export_ex(const nnt_smlp *m, int sparse, const char *kind, const char *const *meta,
                       const nnt_export_tensor *extra, int nextra, const char *path);
/* 1 when path ends in .safetensors, 2 in .onnx, 0 otherwise. */
int nnt_export_format(const char *path);

#endif
