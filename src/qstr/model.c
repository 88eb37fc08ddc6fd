/* qSTR model layouts (offsets into one flat parameter vector) and PyTorch-default initialisation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_params.h"
#include "nnt_qstr.h"

const char *const nnt_qstr_arch_names[] = {"tr", "trp", "ffn", "rnn", "relurnn", NULL};

int nnt_qstr_model_setup(nnt_qstr_model *mo, nnt_qstr_arch arch, int N, int D, int m, int H, int n_hidden,
                         const int *hidden) {
  memset(mo, 0, sizeof *mo);
  mo->arch = arch, mo->N = N, mo->D = D, mo->m = m, mo->H = H;
  size_t o = 0;
#define TAKE(field, n) (mo->field = o, o += (size_t)(n))
  switch (arch) {
  case NNT_QSTR_TR:
    if (m < 1) return nnt_fail(NNT_EINVAL, "MLP width must be >= 1");
    TAKE(win, (size_t)3 * D * D), TAKE(bin, 3 * (size_t)D), TAKE(wo, (size_t)D * D), TAKE(bo, D);
    TAKE(w1, (size_t)m * D), TAKE(b1, m), TAKE(w2, m), TAKE(b2, 1);
    break;
  case NNT_QSTR_TRP:
    if (m < 1 || H < 1) return nnt_fail(NNT_EINVAL, "heads and MLP width must be >= 1");
    TAKE(wqk, (size_t)H * D * D), TAKE(w1, (size_t)m * H * D), TAKE(b1, m), TAKE(w2, m);
    break;
  case NNT_QSTR_FFN:
    if (n_hidden < 0 || n_hidden > NNT_QSTR_MAXL - 1) return nnt_fail(NNT_EINVAL, "FFN: at most %d hidden layers", NNT_QSTR_MAXL - 1);
    mo->nl = n_hidden + 1;
    mo->width[0] = N * D;
    for (int l = 0; l < n_hidden; l++) {
      if (hidden[l] < 1) return nnt_fail(NNT_EINVAL, "FFN: hidden widths must be >= 1");
      mo->width[l + 1] = hidden[l];
    }
    mo->width[mo->nl] = N;
    for (int l = 0; l < mo->nl; l++) TAKE(fw[l], (size_t)mo->width[l + 1] * mo->width[l]), TAKE(fb[l], mo->width[l + 1]);
    break;
  case NNT_QSTR_GRU:
  case NNT_QSTR_RNN: {
    if (H < 1) return nnt_fail(NNT_EINVAL, "hidden size must be >= 1");
    int G = arch == NNT_QSTR_GRU ? 3 : 1;
    for (int r = 0; r < 2; r++)
      TAKE(gwi[r], (size_t)G * H * D), TAKE(gwh[r], (size_t)G * H * H), TAKE(gbi[r], (size_t)G * H), TAKE(gbh[r], (size_t)G * H);
    TAKE(w2, 2 * (size_t)H), TAKE(b2, 1);
    break;
  }
  default:
    return nnt_fail(NNT_EINVAL, "unknown model");
  }
#undef TAKE
  mo->np = o;
  return NNT_OK;
}

static void unif(nnt_rng *r, double *p, size_t n, double bound) {
  for (size_t k = 0; k < n; k++) p[k] = (2 * nnt_rng_uniform(r) - 1) * bound;
}

/* nn.Linear: weight and bias U(+-1/sqrt(fan_in)) */
static void linear(nnt_rng *r, double *w, double *b, int out, int in) {
  double s = 1 / sqrt((double)in);
  unif(r, w, (size_t)out * in, s);
  if (b) unif(r, b, out, s);
}

void nnt_qstr_model_init(const nnt_qstr_model *mo, nnt_rng *r, double *p) {
  int D = mo->D, m = mo->m, H = mo->H;
  memset(p, 0, sizeof(double) * mo->np);
  switch (mo->arch) {
  case NNT_QSTR_TR:
    unif(r, p + mo->win, (size_t)3 * D * D, sqrt(6.0 / (D + 3.0 * D))); /* xavier over the 3D x D stack; bias 0 */
    linear(r, p + mo->wo, NULL, D, D);                                    /* out_proj weight; bias 0 */
    linear(r, p + mo->w1, p + mo->b1, m, D);
    linear(r, p + mo->w2, p + mo->b2, 1, m);
    break;
  case NNT_QSTR_TRP:
    unif(r, p + mo->wqk, (size_t)H * D * D, 1 / sqrt((double)D));
    linear(r, p + mo->w1, p + mo->b1, m, H * D);
    linear(r, p + mo->w2, NULL, 1, m);
    break;
  case NNT_QSTR_FFN:
    for (int l = 0; l < mo->nl; l++) linear(r, p + mo->fw[l], p + mo->fb[l], mo->width[l + 1], mo->width[l]);
    break;
  case NNT_QSTR_GRU:
  case NNT_QSTR_RNN: {
    int G = mo->arch == NNT_QSTR_GRU ? 3 : 1;
    double s = 1 / sqrt((double)H);
    for (int d = 0; d < 2; d++) {
      unif(r, p + mo->gwi[d], (size_t)G * H * D, s), unif(r, p + mo->gwh[d], (size_t)G * H * H, s);
      unif(r, p + mo->gbi[d], (size_t)G * H, s), unif(r, p + mo->gbh[d], (size_t)G * H, s);
    }
    linear(r, p + mo->w2, p + mo->b2, 1, 2 * H);
    break;
  }
  }
}

/* Declares the tensor at offset `off`: the registry's float32 block is the model's flat vector
 * only if every tensor starts where the previous one ended. */
static void declare(nnt_params *P, size_t *at, size_t off, const char *name, int ndim, const int *shape) {
  nnt_param *q = nnt_params_add(P, name, NNT_F32, ndim, shape);
  if (off != *at) {
    fprintf(stderr, "nnt: qstr parameter %s at %zu, expected %zu\n", name, off, *at);
    abort(); /* impossible: the layout below is fixed per architecture (tests/qstr) */
  }
  *at += q->value.numel;
}
#define DECL(off, name, ndim, ...) declare(P, &at, (off), (name), (ndim), (const int[]){__VA_ARGS__})

void nnt_qstr_model_params(const nnt_qstr_model *mo, nnt_params *P) {
  int D = mo->D, m = mo->m, H = mo->H;
  size_t at = 0;
  char name[64];
  nnt_params_init(P);
  switch (mo->arch) {
  case NNT_QSTR_TR: /* nn.MultiheadAttention's names, then the MLP readout */
    DECL(mo->win, "attn.in_proj_weight", 2, 3 * D, D), DECL(mo->bin, "attn.in_proj_bias", 1, 3 * D);
    DECL(mo->wo, "attn.out_proj.weight", 2, D, D), DECL(mo->bo, "attn.out_proj.bias", 1, D);
    DECL(mo->w1, "mlp.0.weight", 2, m, D), DECL(mo->b1, "mlp.0.bias", 1, m);
    DECL(mo->w2, "mlp.2.weight", 2, 1, m), DECL(mo->b2, "mlp.2.bias", 1, 1);
    break;
  case NNT_QSTR_TRP:
    DECL(mo->wqk, "attn.wqk", 3, H, D, D);
    DECL(mo->w1, "mlp.0.weight", 2, m, H * D), DECL(mo->b1, "mlp.0.bias", 1, m);
    DECL(mo->w2, "mlp.2.weight", 2, 1, m);
    break;
  case NNT_QSTR_FFN:
    for (int l = 0; l < mo->nl; l++) {
      snprintf(name, sizeof name, "layers.%d.weight", l);
      DECL(mo->fw[l], name, 2, mo->width[l + 1], mo->width[l]);
      snprintf(name, sizeof name, "layers.%d.bias", l);
      DECL(mo->fb[l], name, 1, mo->width[l + 1]);
    }
    break;
  case NNT_QSTR_GRU:
  case NNT_QSTR_RNN: { /* nn.GRU / nn.RNN's names, then the readout */
    int G = mo->arch == NNT_QSTR_GRU ? 3 : 1;
    for (int r = 0; r < 2; r++) {
      const char *sfx = r ? "_reverse" : "";
      snprintf(name, sizeof name, "rnn.weight_ih_l0%s", sfx), DECL(mo->gwi[r], name, 2, G * H, D);
      snprintf(name, sizeof name, "rnn.weight_hh_l0%s", sfx), DECL(mo->gwh[r], name, 2, G * H, H);
      snprintf(name, sizeof name, "rnn.bias_ih_l0%s", sfx), DECL(mo->gbi[r], name, 1, G * H);
      snprintf(name, sizeof name, "rnn.bias_hh_l0%s", sfx), DECL(mo->gbh[r], name, 1, G * H);
    }
    DECL(mo->w2, "out.weight", 2, 1, 2 * H), DECL(mo->b2, "out.bias", 1, 1);
    break;
  }
  }
  if (at != mo->np) {
    fprintf(stderr, "nnt: qstr parameters cover %zu of %zu\n", at, mo->np);
    abort(); /* impossible: the layout above is fixed per architecture (tests/qstr) */
  }
  nnt_params_alloc(P);
}

/* Mirrors nnt_qstr_ws_new (models.inc), allocation by allocation. */
double nnt_qstr_ws_elems(const nnt_qstr_model *mo, int Bmax) {
  double B = Bmax, N = mo->N, D = mo->D, m = mo->m, H = mo->H, BN = B * N;
  switch (mo->arch) {
  case NNT_QSTR_TR:
    return BN * 3 * D + B * N * N + BN * D * 2 + BN * m * 2 + BN * D * 2 + BN * 3 * D + N * N +
           16 * ((double)(Bmax / 16) * (N * 3 * D + N * N) + N * D + N * N + N * 3 * D + 1);
  case NNT_QSTR_TRP:
    return BN * D + B * H * N * N + BN * H * D * 2 + BN * m * 2 + BN * D + N * N;
  case NNT_QSTR_FFN: {
    double acts = 0, mx = 0, wt = 0;
    for (int l = 1; l <= mo->nl; l++) acts += B * mo->width[l], mx = mo->width[l] > mx ? mo->width[l] : mx;
    for (int l = 1; l < mo->nl; l++) {
      double n = (double)mo->width[l] * ((mo->width[l + 1] + 63) / 64 * 64 + 16);
      wt = n > wt ? n : wt;
    }
    return acts + 3 * B * mx + wt + B * mx + B;
  }
  case NNT_QSTR_GRU:
  case NNT_QSTR_RNN: {
    double G = mo->arch == NNT_QSTR_GRU ? 3 : 1;
    return 2 * (BN * G * H + BN * H + BN * (G + 1) * H) + B * G * H + B * H * 2 + BN * G * H;
  }
  }
  return 0;
}
