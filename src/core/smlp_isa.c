/* The sparse nnt-mlp forward pass (nnt_smlp_forward_batch, nnt_mlp.h). Inputs go through in chunks
 * of C, stored feature-major, so each stored weight updates C contiguous sums: plain C loops of a
 * fixed length that the compiler vectorises, compiled once per instruction-set level. The build
 * has -ffp-contract=off, so every level does the same multiplies and adds in the same order
 * (b + w_1 x_1 + w_2 x_2 + ... per output, as nnt_mlp_forward): the same bits everywhere. */
#include <stdlib.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_mlp.h"

enum { C = 256 }; /* inputs per chunk: a layer of 4,000 units is 8 MB feature-major */

/* yT[out, C] = act(W xT + b) for C inputs stored feature-major (row i = feature i). */
void NNT_ISA_FN(nnt_smlp_layer_cols)(const nnt_smlp_layer *L, const double *xT, double *yT);
void NNT_ISA_FN(nnt_smlp_layer_cols)(const nnt_smlp_layer *L, const double *xT, double *yT) {
  for (int o = 0; o < L->out; o++) {
    double *restrict y = yT + (size_t)o * C, bo = L->b[o];
    long e = L->row_start[o], end = L->row_start[o + 1];
    if (e == end) {
      for (int k = 0; k < C; k++) y[k] = bo;
    } else { /* the first entry fused with the bias: (b + w x) is what b, then += w x gives */
      const double *x0 = xT + (size_t)L->col[e] * C, w0 = L->val[e];
      for (int k = 0; k < C; k++) y[k] = bo + w0 * x0[k];
      e++;
    }
    for (; e + 1 < end; e += 2) { /* two entries per pass over y, added in order */
      const double *x0 = xT + (size_t)L->col[e] * C, *x1 = xT + (size_t)L->col[e + 1] * C;
      double w0 = L->val[e], w1 = L->val[e + 1];
      for (int k = 0; k < C; k++) y[k] = y[k] + w0 * x0[k] + w1 * x1[k];
    }
    if (e < end) {
      const double *x0 = xT + (size_t)L->col[e] * C, w0 = L->val[e];
      for (int k = 0; k < C; k++) y[k] += w0 * x0[k];
    }
    if (L->act == NNT_ACT_RELU)
      for (int k = 0; k < C; k++) y[k] = y[k] > 0 ? y[k] : 0;
    else if (L->act != NNT_ACT_IDENTITY)
      for (int k = 0; k < C; k++) y[k] = nnt_act_apply(L->act, y[k]);
  }
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_smlp_layer_cols, (const nnt_smlp_layer *, const double *, double *));

void nnt_smlp_forward_batch(const nnt_smlp *m, int B, const double *X, double *Y) {
  int w = nnt_smlp_input_dim(m), in = w, out = nnt_smlp_output_dim(m);
  for (int l = 0; l < m->nlayers; l++) w = m->layers[l].out > w ? m->layers[l].out : w;
  /* columns past a short last chunk hold leftovers (zeros at first): computed, never mixed, dropped */
  double *a = nnt_xcalloc((size_t)w * C, sizeof(double)), *b = nnt_xcalloc((size_t)w * C, sizeof(double));
  for (int r0 = 0; r0 < B; r0 += C) {
    int nb = B - r0 < C ? B - r0 : C;
    for (int k = 0; k < nb; k++)
      for (int i = 0; i < in; i++) a[(size_t)i * C + k] = X[(size_t)(r0 + k) * in + i];
    double *cur = a, *nxt = b;
    for (int l = 0; l < m->nlayers; l++) {
      NNT_ISA_PICK(nnt_smlp_layer_cols)(&m->layers[l], cur, nxt);
      double *t = cur;
      cur = nxt, nxt = t;
    }
    for (int k = 0; k < nb; k++)
      for (int j = 0; j < out; j++) Y[(size_t)(r0 + k) * out + j] = cur[(size_t)j * C + k];
  }
  free(a), free(b);
}
#endif
