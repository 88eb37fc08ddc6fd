/* export.c — the compiled RCNN (cell MLP, head, and the patches it was checked on) as .safetensors
 * or .onnx through core's nnt_smlp_export_ex (docs/export.md). */
#include <stdio.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_mlp.h"
#include "nnt_rcnn_nn.h"

/* a CSR of the compiler as an nnt_smlp layer (triplets in row order) */
static void add_csr(nnt_smlp *m, const nnt_rcnn_csr *c, nnt_act act, const double *b) {
  int *row = nnt_xmalloc(sizeof *row * (size_t)(c->nnz ? c->nnz : 1));
  for (int r = 0; r < c->rows; r++)
    for (int j = c->rp[r]; j < c->rp[r + 1]; j++) row[j] = r;
  nnt_smlp_add_coo(m, c->cols, c->rows, act, c->nnz, row, c->ci, c->v, b);
  free(row);
}

int nnt_rcnn_cnet_export(const nnt_rcnn_cnet *cn, const char *learner, long n, const double *patches, const double *values,
                         const double *grad00, const char *const *meta, const char *path) {
  if (!nnt_export_format(path))
    return nnt_fail(NNT_EINVAL, "--export %s: unknown format (the file name must end in .safetensors or .onnx)", path);
  nnt_smlp m;
  nnt_smlp_init(&m);
  add_csr(&m, &cn->V1, NNT_ACT_RELU, cn->b1);
  add_csr(&m, &cn->V3, NNT_ACT_IDENTITY, NULL);
  add_csr(&m, &cn->V4, NNT_ACT_RELU, cn->b4);
  int *zero = nnt_xcalloc((size_t)cn->h2, sizeof *zero), *col = nnt_xmalloc(sizeof *col * (size_t)cn->h2);
  for (int j = 0; j < cn->h2; j++) col[j] = j;
  nnt_smlp_add_coo(&m, cn->h2, 1, NNT_ACT_IDENTITY, cn->h2, zero, col, cn->v5, NULL);
  free(zero), free(col);
  char rcnn[512], nstr[32];
  snprintf(rcnn, sizeof rcnn,
           "{\"K\": %d, \"scale\": %d, \"delta\": %.17g, \"p\": %.17g, \"nvals\": %d, \"widths\": {\"h1\": %d, \"features\": %d, "
           "\"h2\": %d}, \"patch\": \"3x3 row-major, centre index 4; cells outside the grid read p\", \"grid\": "
           "\"rows m+1, columns d+1+work: layer 0 is W diag([x, 1]) on columns 0..d and 1 on the work columns; each layer "
           "applies the cell to every cell's patch; f = sum of head(z) over columns 0..d of the last layer\"}",
           cn->tern.K, cn->tern.scale, cn->delta, 1.0 / 6, cn->nvals, cn->h1, cn->nf, cn->h2);
  snprintf(nstr, sizeof nstr, "%ld", n);
  const char *all[32];
  int k = 0;
  all[k++] = "source", all[k++] = "rcnn compile", all[k++] = "learner", all[k++] = learner, all[k++] = "rcnn", all[k++] = rcnn;
  all[k++] = "check_patches", all[k++] = nstr;
  for (int i = 0; meta && meta[i] && meta[i + 1] && k < 30; i += 2) all[k++] = meta[i], all[k++] = meta[i + 1];
  all[k] = NULL;
  double hc = cn->hc;
  nnt_export_tensor extra[] = {
      {"head.u", 1, {4}, cn->hu},          {"head.b", 1, {4}, cn->hb},          {"head.w", 1, {4}, cn->hw},
      {"head.c", 1, {1}, &hc},             {"check.patches", 2, {n, 9}, patches}, {"check.values", 1, {n}, values},
      {"check.grad00", 1, {n}, grad00}};
  int st = nnt_smlp_export_ex(&m, 1, "rcnn-cell", all, extra, n > 0 ? 7 : 4, path);
  nnt_smlp_free(&m);
  return st;
}
