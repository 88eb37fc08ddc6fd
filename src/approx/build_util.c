/* build_util.c — network algebra for the builders: affine layers, composition that merges affine
 * layers (so hidden-layer counts stay honest), block-diagonal stacking, exact carries. */
#include <string.h>

#include "nnt_approx.h"
#include "nnt_error.h"

void nnt_approx_net_affine(nnt_mlp *m, int in, int out, const double *W, const double *b) {
  nnt_mlp_init(m);
  nnt_mlp_add_weights(m, in, out, NNT_ACT_IDENTITY, W, b);
}

void nnt_approx_net_compose(nnt_mlp *out, const nnt_mlp *a, const nnt_mlp *b) {
  nnt_mlp r;
  nnt_mlp_init(&r);
  const nnt_mlp_layer *A = &a->layers[a->nlayers - 1];
  int merge = A->act == NNT_ACT_IDENTITY;
  for (int l = 0; l < a->nlayers - merge; l++) {
    const nnt_mlp_layer *S = &a->layers[l];
    nnt_mlp_layer *D = nnt_mlp_add(&r, S->in, S->out, S->act);
    memcpy(D->W, S->W, sizeof(double) * S->in * S->out);
    memcpy(D->b, S->b, sizeof(double) * S->out);
  }
  for (int l = 0; l < b->nlayers; l++) {
    const nnt_mlp_layer *S = &b->layers[l];
    if (l == 0 && merge) { /* W = W_b A.W, bias = W_b A.b + b_b */
      nnt_mlp_layer *D = nnt_mlp_add(&r, A->in, S->out, S->act);
      for (int o = 0; o < S->out; o++) {
        D->b[o] = S->b[o];
        for (int k = 0; k < S->in; k++) {
          double w = S->W[(size_t)o * S->in + k];
          if (w == 0) continue;
          D->b[o] += w * A->b[k];
          for (int i = 0; i < A->in; i++) D->W[(size_t)o * A->in + i] += w * A->W[(size_t)k * A->in + i];
        }
      }
      continue;
    }
    nnt_mlp_layer *D = nnt_mlp_add(&r, S->in, S->out, S->act);
    memcpy(D->W, S->W, sizeof(double) * S->in * S->out);
    memcpy(D->b, S->b, sizeof(double) * S->out);
  }
  if (out == a || out == b) {
    nnt_mlp_free(out);
  }
  *out = r;
}

void nnt_approx_net_parallel(nnt_mlp *out, const nnt_mlp *const *nets, int n) {
  nnt_mlp r;
  nnt_mlp_init(&r);
  int depth = nets[0]->nlayers;
  for (int l = 0; l < depth; l++) {
    int in = 0, o = 0;
    for (int k = 0; k < n; k++) in += nets[k]->layers[l].in, o += nets[k]->layers[l].out;
    /* all parts share the layer's activation; identity parts inside a relu layer would be wrong */
    nnt_mlp_layer *D = nnt_mlp_add(&r, in, o, nets[0]->layers[l].act);
    int ri = 0, ro = 0;
    for (int k = 0; k < n; k++) {
      const nnt_mlp_layer *S = &nets[k]->layers[l];
      for (int u = 0; u < S->out; u++) {
        D->b[ro + u] = S->b[u];
        for (int i = 0; i < S->in; i++) D->W[(size_t)(ro + u) * in + ri + i] = S->W[(size_t)u * S->in + i];
      }
      ri += S->in, ro += S->out;
    }
  }
  *out = r;
}

void nnt_approx_net_carry(nnt_mlp *m, int dim, int hidden, int is_signed) {
  nnt_mlp_init(m);
  int w = is_signed ? 2 * dim : dim;
  for (int l = 0; l < hidden; l++) {
    int in = l ? w : dim;
    nnt_mlp_layer *L = nnt_mlp_add(m, in, w, NNT_ACT_RELU);
    for (int j = 0; j < dim; j++) {
      if (!is_signed) L->W[(size_t)j * in + j] = 1;
      else if (l == 0) L->W[(size_t)(2 * j) * in + j] = 1, L->W[(size_t)(2 * j + 1) * in + j] = -1;
      else L->W[(size_t)(2 * j) * in + 2 * j] = 1, L->W[(size_t)(2 * j + 1) * in + 2 * j + 1] = 1;
    }
  }
  int in = hidden ? w : dim;
  nnt_mlp_layer *L = nnt_mlp_add(m, in, dim, NNT_ACT_IDENTITY);
  for (int j = 0; j < dim; j++) {
    if (!is_signed || !hidden) L->W[(size_t)j * in + j] = 1;
    else L->W[(size_t)j * in + 2 * j] = 1, L->W[(size_t)j * in + 2 * j + 1] = -1;
  }
}
