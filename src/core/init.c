#include "nnt_init.h"

#include <assert.h>
#include <math.h>
#include <string.h>

void nnt_init_uniform(nnt_rng *r, nnt_tensor *t, double lo, double hi) {
  for (size_t i = 0; i < t->numel; i++) {
    double x = lo + (hi - lo) * nnt_rng_uniform(r);
    if (t->dtype == NNT_F32) ((float *)t->data)[i] = (float)x;
    else ((double *)t->data)[i] = x;
  }
}

void nnt_init_normal(nnt_rng *r, nnt_tensor *t, double mean, double std) {
  for (size_t i = 0; i < t->numel; i++) {
    double x = mean + std * nnt_rng_normal(r);
    if (t->dtype == NNT_F32) ((float *)t->data)[i] = (float)x;
    else ((double *)t->data)[i] = x;
  }
}

void nnt_init_constant(nnt_tensor *t, double v) {
  for (size_t i = 0; i < t->numel; i++) {
    if (t->dtype == NNT_F32) ((float *)t->data)[i] = (float)v;
    else ((double *)t->data)[i] = v;
  }
}

void nnt_init_fans(const nnt_tensor *t, int *fan_in, int *fan_out) {
  if (t->ndim < 2) {
    *fan_in = *fan_out = t->shape[0];
    return;
  }
  int receptive = 1;
  for (int d = 2; d < t->ndim; d++) receptive *= t->shape[d];
  *fan_in = t->shape[1] * receptive;
  *fan_out = t->shape[0] * receptive;
}

double nnt_init_gain(const char *nl, double a) {
  if (!strcmp(nl, "linear") || !strcmp(nl, "sigmoid") || !strncmp(nl, "conv", 4)) return 1;
  if (!strcmp(nl, "tanh")) return 5.0 / 3;
  if (!strcmp(nl, "relu")) return sqrt(2.0);
  if (!strcmp(nl, "leaky_relu")) return sqrt(2.0 / (1 + a * a));
  if (!strcmp(nl, "selu")) return 0.75;
  return -1;
}

void nnt_init_xavier_uniform(nnt_rng *r, nnt_tensor *t, double gain) {
  int fi, fo;
  nnt_init_fans(t, &fi, &fo);
  double bound = gain * sqrt(6.0 / (fi + fo));
  nnt_init_uniform(r, t, -bound, bound);
}

void nnt_init_xavier_normal(nnt_rng *r, nnt_tensor *t, double gain) {
  int fi, fo;
  nnt_init_fans(t, &fi, &fo);
  nnt_init_normal(r, t, 0, gain * sqrt(2.0 / (fi + fo)));
}

static double kaiming_std(const nnt_tensor *t, double a, int fan_out_mode) {
  int fi, fo;
  nnt_init_fans(t, &fi, &fo);
  return nnt_init_gain("leaky_relu", a) / sqrt((double)(fan_out_mode ? fo : fi));
}

void nnt_init_kaiming_uniform(nnt_rng *r, nnt_tensor *t, double a, int fan_out_mode) {
  double bound = sqrt(3.0) * kaiming_std(t, a, fan_out_mode);
  nnt_init_uniform(r, t, -bound, bound);
}

void nnt_init_kaiming_normal(nnt_rng *r, nnt_tensor *t, double a, int fan_out_mode) {
  nnt_init_normal(r, t, 0, kaiming_std(t, a, fan_out_mode));
}

/* torch.nn.Linear.reset_parameters and _ConvNd.reset_parameters: kaiming_uniform_(a = sqrt(5)),
 * i.e. U(+-1/sqrt(fan_in)), and the bias U(+-1/sqrt(fan_in)). */
static void linear_like(nnt_rng *r, nnt_tensor *w, nnt_tensor *b) {
  nnt_init_kaiming_uniform(r, w, sqrt(5.0), 0);
  if (b) {
    int fi, fo;
    nnt_init_fans(w, &fi, &fo);
    double bound = fi > 0 ? 1 / sqrt((double)fi) : 0;
    nnt_init_uniform(r, b, -bound, bound);
  }
}

void nnt_init_linear(nnt_rng *r, nnt_tensor *weight, nnt_tensor *bias) {
  assert(weight->ndim == 2);
  linear_like(r, weight, bias);
}

void nnt_init_conv2d(nnt_rng *r, nnt_tensor *weight, nnt_tensor *bias) {
  assert(weight->ndim == 4);
  linear_like(r, weight, bias);
}

/* torch.nn.MultiheadAttention._reset_parameters (same embed dim for q, k, v): xavier_uniform_ on
 * the stacked [3E, E] in_proj_weight (fan_in E, fan_out 3E), zero in_proj_bias and out_proj.bias;
 * out_proj.weight keeps its Linear initialisation. */
void nnt_init_mha(nnt_rng *r, nnt_tensor *in_proj_weight, nnt_tensor *in_proj_bias, nnt_tensor *out_proj_weight,
                  nnt_tensor *out_proj_bias) {
  assert(in_proj_weight->ndim == 2 && in_proj_weight->shape[0] == 3 * in_proj_weight->shape[1]);
  nnt_init_linear(r, out_proj_weight, NULL);
  nnt_init_xavier_uniform(r, in_proj_weight, 1.0);
  if (in_proj_bias) nnt_init_constant(in_proj_bias, 0);
  if (out_proj_bias) nnt_init_constant(out_proj_bias, 0);
}

/* torch.nn.RNNBase.reset_parameters: every weight and bias U(-1/sqrt(H), 1/sqrt(H)). */
void nnt_init_recurrent(nnt_rng *r, nnt_tensor *t, int hidden) {
  assert(hidden >= 1);
  double bound = 1 / sqrt((double)hidden);
  nnt_init_uniform(r, t, -bound, bound);
}

void nnt_init_embedding(nnt_rng *r, nnt_tensor *weight) { nnt_init_normal(r, weight, 0, 1); }

void nnt_init_layernorm(nnt_tensor *weight, nnt_tensor *bias) {
  if (weight) nnt_init_constant(weight, 1);
  if (bias) nnt_init_constant(bias, 0);
}
