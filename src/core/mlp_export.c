/* mlp_export.c — feed-forward nets (nnt_mlp / nnt_smlp) as safetensors or ONNX (nnt_mlp.h,
 * docs/export.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_mlp.h"
#include "nnt_onnx.h"
#include "nnt_safetensors.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
}

int nnt_export_format(const char *path) {
  return ends_with(path, ".safetensors") ? 1 : ends_with(path, ".onnx") ? 2 : 0;
}

/* The activation after a layer's pre-activation h (float64). */
static const char *onnx_act(nnt_onnx *g, nnt_act a, const char *h) {
  switch (a) {
    case NNT_ACT_RELU: return nnt_onnx_op(g, "Relu", NULL, h, NULL);
    case NNT_ACT_SIGMOID: return nnt_onnx_op(g, "Sigmoid", NULL, h, NULL);
    case NNT_ACT_TANH: return nnt_onnx_op(g, "Tanh", NULL, h, NULL);
    case NNT_ACT_STEP: { /* 1 where h >= 0 */
      const char *ge = nnt_onnx_op(g, "GreaterOrEqual", NULL, h, nnt_onnx_scalar(g, NNT_ONNX_F64, 0), NULL);
      const char *y = nnt_onnx_op(g, "Cast", NULL, ge, NULL);
      nnt_onnx_attr_int(g, "to", NNT_ONNX_F64);
      return y;
    }
    default: return h;
  }
}

/* The net as an ONNX graph x [batch, in] -> y [batch, out], float64. Dense layers are Gemm with the
 * weight [out, in] (transB); a CSR layer runs feature-major on h [in, batch] without ever
 * expanding W: Gather the columns its entries read, scale by the values, and ScatterND-add each
 * product into its row of the bias broadcast to [out, batch]. */
static int smlp_onnx(const nnt_smlp *m, int sparse, const char *kind, const char *arch, const char *const *meta,
                     const char *path) {
  nnt_onnx *g;
  nnt_onnx_alloc(&g, kind);
  char dims[64], name[64];
  snprintf(dims, sizeof dims, "batch,%d", m->layers[0].in);
  nnt_onnx_input(g, "x", NNT_ONNX_F64, dims);
  const char *h = "x", *batch = NULL;
  if (sparse) {
    long long perm[2] = {1, 0}, zero = 0, one = 1;
    h = nnt_onnx_op(g, "Transpose", NULL, h, NULL);
    nnt_onnx_attr_ints(g, "perm", 2, perm);
    const char *shape = nnt_onnx_op(g, "Shape", NULL, "x", NULL);
    batch = nnt_onnx_op(g, "Slice", NULL, shape, nnt_onnx_ints(g, 1, &zero), nnt_onnx_ints(g, 1, &one), NULL);
  }
  for (int l = 0; l < m->nlayers; l++) {
    const nnt_smlp_layer *L = &m->layers[l];
    long long out = L->out, in = L->in;
    snprintf(name, sizeof name, "layers.%d.bias", l);
    if (!sparse) {
      const char *b = nnt_onnx_init(g, name, NNT_ONNX_F64, 1, &out, L->b);
      double *W = nnt_xcalloc((size_t)(out * in > 0 ? out * in : 1), sizeof *W);
      for (long long o = 0; o < out; o++)
        for (long k = L->row_start[o]; k < L->row_start[o + 1]; k++) W[o * in + L->col[k]] = L->val[k];
      long long shape[2] = {out, in};
      snprintf(name, sizeof name, "layers.%d.weight", l);
      const char *w = nnt_onnx_init(g, name, NNT_ONNX_F64, 2, shape, W);
      free(W);
      h = nnt_onnx_op(g, "Gemm", NULL, h, w, b, NULL);
      nnt_onnx_attr_int(g, "transB", 1);
    } else {
      long long bshape[2] = {out, 1}, nnz = L->nnz, col_shape[1] = {nnz}, row_shape[2] = {nnz, 1},
                val_shape[2] = {nnz, 1};
      const char *b = nnt_onnx_init(g, name, NNT_ONNX_F64, 2, bshape, L->b);
      long long *col = nnt_xmalloc((size_t)(nnz ? nnz : 1) * sizeof *col);
      long long *row = nnt_xmalloc((size_t)(nnz ? nnz : 1) * sizeof *row);
      for (long long o = 0; o < out; o++)
        for (long k = L->row_start[o]; k < L->row_start[o + 1]; k++) row[k] = o, col[k] = L->col[k];
      snprintf(name, sizeof name, "layers.%d.weight.indices", l);
      const char *ci = nnt_onnx_init(g, name, NNT_ONNX_I64, 1, col_shape, col);
      snprintf(name, sizeof name, "layers.%d.weight.rows", l);
      const char *ri = nnt_onnx_init(g, name, NNT_ONNX_I64, 2, row_shape, row);
      snprintf(name, sizeof name, "layers.%d.weight.values", l);
      const char *v = nnt_onnx_init(g, name, NNT_ONNX_F64, 2, val_shape, L->val);
      free(col), free(row);
      const char *gath = nnt_onnx_op(g, "Gather", NULL, h, ci, NULL); /* [nnz, batch]: h[col[k]] */
      nnt_onnx_attr_int(g, "axis", 0);
      const char *prod = nnt_onnx_op(g, "Mul", NULL, gath, v, NULL);
      const char *oshape = nnt_onnx_op(g, "Concat", NULL, nnt_onnx_ints(g, 1, &out), batch, NULL);
      nnt_onnx_attr_int(g, "axis", 0);
      const char *base = nnt_onnx_op(g, "Expand", NULL, b, oshape, NULL);
      h = nnt_onnx_op(g, "ScatterND", NULL, base, ri, prod, NULL);
      nnt_onnx_attr_str(g, "reduction", "add");
    }
    h = onnx_act(g, L->act, h);
  }
  if (sparse) {
    long long perm[2] = {1, 0};
    h = nnt_onnx_op(g, "Transpose", NULL, h, NULL);
    nnt_onnx_attr_ints(g, "perm", 2, perm);
  }
  nnt_onnx_op(g, "Identity", "y", h, NULL);
  snprintf(dims, sizeof dims, "batch,%d", m->layers[m->nlayers - 1].out);
  nnt_onnx_output(g, "y", NNT_ONNX_F64, dims);
  const char *version = "";
  nnt_onnx_meta(g, "kind", kind);
  nnt_onnx_meta(g, "format", "onnx");
  nnt_onnx_meta(g, "precision", "float64");
  nnt_onnx_meta(g, "arch", arch);
  for (int i = 0; meta && meta[i] && meta[i + 1]; i += 2) {
    nnt_onnx_meta(g, meta[i], meta[i + 1]);
    if (!strcmp(meta[i], "nnt_version")) version = meta[i + 1];
  }
  int st = nnt_onnx_write(g, version, path);
  nnt_onnx_free(g);
  return st;
}

int nnt_smlp_export(const nnt_smlp *m, int sparse, const char *kind, const char *const *meta, const char *path) {
  return nnt_smlp_export_ex(m, sparse, kind, meta, NULL, 0, path);
}

int nnt_smlp_export_ex(const nnt_smlp *m, int sparse, const char *kind, const char *const *meta,
                       const nnt_export_tensor *extra, int nextra, const char *path) {
  int fmt = nnt_export_format(path);
  if (fmt != 1 && fmt != 2)
    return nnt_fail(NNT_EINVAL, "--export %s: unknown format (the file name must end in .safetensors or .onnx)", path);
  if (m->nlayers < 1) return nnt_fail(NNT_EINVAL, "--export %s: the net has no layers", path);
  int st = NNT_OK;
  char name[64];
  /* arch JSON */
  size_t cap = 256 + 32 * (size_t)m->nlayers, len = 0;
  char *arch = nnt_xmalloc(cap);
  long long nnz_all = 0;
  len += (size_t)snprintf(arch + len, cap - len, "{\"sizes\": [%d", m->layers[0].in);
  for (int l = 0; l < m->nlayers; l++) len += (size_t)snprintf(arch + len, cap - len, ", %d", m->layers[l].out);
  len += (size_t)snprintf(arch + len, cap - len, "], \"activations\": [");
  for (int l = 0; l < m->nlayers; l++) {
    len += (size_t)snprintf(arch + len, cap - len, "%s\"%s\"", l ? ", " : "", nnt_act_name(m->layers[l].act));
    nnz_all += m->layers[l].nnz;
  }
  snprintf(arch + len, cap - len, "], \"sparse\": %s, \"nnz\": %lld}", sparse ? "true" : "false", nnz_all);
  if (fmt == 2) { /* the same arch, the tensors as ONNX initializers */
    st = smlp_onnx(m, sparse, kind ? kind : sparse ? "mlp-sparse" : "mlp", arch, meta, path);
    free(arch);
    return st;
  }
  nnt_st_writer *w;
  nnt_st_writer_alloc(&w);
  for (int l = 0; l < m->nlayers && !st; l++) {
    const nnt_smlp_layer *L = &m->layers[l];
    long long out = L->out, in = L->in;
    snprintf(name, sizeof name, "layers.%d.bias", l);
    st = nnt_st_add(w, name, NNT_ST_F64, 1, &out, L->b);
    if (st) break;
    if (sparse) {
      long long rows = out + 1, nnz = L->nnz;
      long long *indptr = nnt_xmalloc((size_t)rows * sizeof *indptr);
      for (long long i = 0; i < rows; i++) indptr[i] = L->row_start[i];
      snprintf(name, sizeof name, "layers.%d.weight.indptr", l);
      st = nnt_st_add(w, name, NNT_ST_I64, 1, &rows, indptr);
      free(indptr);
      snprintf(name, sizeof name, "layers.%d.weight.indices", l);
      if (!st) st = nnt_st_add(w, name, NNT_ST_I32, 1, &nnz, L->col); /* int is 32-bit on every target nnt builds for */
      snprintf(name, sizeof name, "layers.%d.weight.values", l);
      if (!st) st = nnt_st_add(w, name, NNT_ST_F64, 1, &nnz, L->val);
    } else {
      double *W = nnt_xcalloc((size_t)(out * in > 0 ? out * in : 1), sizeof *W);
      for (long long o = 0; o < out; o++)
        for (long k = L->row_start[o]; k < L->row_start[o + 1]; k++) W[o * in + L->col[k]] = L->val[k];
      long long shape[2] = {out, in};
      snprintf(name, sizeof name, "layers.%d.weight", l);
      st = nnt_st_add(w, name, NNT_ST_F64, 2, shape, W);
      free(W);
    }
  }
  for (int i = 0; i < nextra && !st; i++)
    st = nnt_st_add(w, extra[i].name, NNT_ST_F64, extra[i].ndim, extra[i].shape, extra[i].data);
  if (!st) st = nnt_st_meta(w, "kind", kind ? kind : sparse ? "mlp-sparse" : "mlp");
  if (!st) st = nnt_st_meta(w, "format", "safetensors");
  if (!st) st = nnt_st_meta(w, "precision", "float64");
  if (!st) st = nnt_st_meta(w, "arch", arch);
  for (int i = 0; meta && meta[i] && meta[i + 1] && !st; i += 2) st = nnt_st_meta(w, meta[i], meta[i + 1]);
  if (!st) st = nnt_st_write(w, path);
  free(arch);
  nnt_st_writer_free(w);
  return st;
}
