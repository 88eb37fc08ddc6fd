/* mlp_export.c — feed-forward nets (nnt_mlp / nnt_smlp) as safetensors (nnt_mlp.h, docs/export.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_mlp.h"
#include "nnt_safetensors.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
}

int nnt_export_format(const char *path) {
  return ends_with(path, ".safetensors") ? 1 : ends_with(path, ".onnx") ? 2 : 0;
}

int nnt_smlp_export(const nnt_smlp *m, int sparse, const char *kind, const char *const *meta, const char *path) {
  int fmt = nnt_export_format(path);
  if (fmt == 2) return nnt_fail(NNT_EINVAL, "--export %s: ONNX export is not available in this build (use .safetensors)", path);
  if (fmt != 1) return nnt_fail(NNT_EINVAL, "--export %s: unknown format (the file name must end in .safetensors)", path);
  if (m->nlayers < 1) return nnt_fail(NNT_EINVAL, "--export %s: the net has no layers", path);
  nnt_st_writer *w;
  nnt_st_writer_alloc(&w);
  int st = NNT_OK;
  char name[64];
  /* arch JSON, built as the layers are added */
  size_t cap = 256 + 32 * (size_t)m->nlayers, len = 0;
  char *arch = nnt_xmalloc(cap);
  long long nnz_all = 0;
  len += (size_t)snprintf(arch + len, cap - len, "{\"sizes\": [%d", m->layers[0].in);
  for (int l = 0; l < m->nlayers; l++) len += (size_t)snprintf(arch + len, cap - len, ", %d", m->layers[l].out);
  len += (size_t)snprintf(arch + len, cap - len, "], \"activations\": [");
  for (int l = 0; l < m->nlayers && !st; l++) {
    const nnt_smlp_layer *L = &m->layers[l];
    len += (size_t)snprintf(arch + len, cap - len, "%s\"%s\"", l ? ", " : "", nnt_act_name(L->act));
    long long out = L->out, in = L->in;
    nnz_all += L->nnz;
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
  snprintf(arch + len, cap - len, "], \"sparse\": %s, \"nnz\": %lld}", sparse ? "true" : "false", nnz_all);
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
