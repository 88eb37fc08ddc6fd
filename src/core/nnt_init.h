/* nnt_init.h — PyTorch's default initialisations, drawn from nnt_rng.
 *
 * The reproduction runs compare against PyTorch, so every layer starts from the same
 * distribution as its torch.nn counterpart (not the same numbers: the generators differ).
 * All functions fill float32 or float64 tensors alike. Fans follow
 * torch.nn.init._calculate_fan_in_and_fan_out: for a weight [out, in, k...],
 * fan_in = in * prod(k), fan_out = out * prod(k).
 *
 *   layer                 weight                                    bias
 *   nn.Linear(in, out)    U(-1/sqrt(in), 1/sqrt(in))                U(-1/sqrt(in), 1/sqrt(in))
 *                         (kaiming_uniform_ with a = sqrt(5))
 *   nn.Conv2d(C, O, k)    U(+-1/sqrt(C k k)) (kaiming, a = sqrt(5))  U(+-1/sqrt(C k k))
 *   nn.MultiheadAttention in_proj [3E, E]: xavier_uniform_,         in_proj bias 0
 *                         U(+-sqrt(6 / (E + 3E)));
 *                         out_proj [E, E]: as Linear                out_proj bias 0
 *   nn.GRU / nn.RNN(H)    every weight U(-1/sqrt(H), 1/sqrt(H))     U(-1/sqrt(H), 1/sqrt(H))
 *   nn.Embedding          N(0, 1)
 *   nn.LayerNorm          weight 1                                  bias 0
 */
#ifndef NNT_INIT_H
#define NNT_INIT_H
#include "nnt_rng.h"
#include "nnt_tensor.h"

/* Laws. Uniform draws lie in [lo, hi] (float32 rounding may reach hi). */
void nnt_init_uniform(nnt_rng *r, nnt_tensor *t, double lo, double hi);
void nnt_init_normal(nnt_rng *r, nnt_tensor *t, double mean, double std);
void nnt_init_constant(nnt_tensor *t, double v);

/* torch.nn.init fans of a weight of ndim >= 2 (a 1-D tensor has fan_in = fan_out = its size). */
void nnt_init_fans(const nnt_tensor *t, int *fan_in, int *fan_out);
/* torch.nn.init.calculate_gain: "linear", "sigmoid", "conv2d" 1; "tanh" 5/3; "relu" sqrt(2);
 * "leaky_relu" sqrt(2 / (1 + a^2)) (a = negative slope); "selu" 3/4. Unknown name: -1. */
double nnt_init_gain(const char *nonlinearity, double a);

/* xavier_uniform_: U(+-gain sqrt(6 / (fan_in + fan_out))); xavier_normal_: N(0, gain^2 2/(fan_in+fan_out)). */
void nnt_init_xavier_uniform(nnt_rng *r, nnt_tensor *t, double gain);
void nnt_init_xavier_normal(nnt_rng *r, nnt_tensor *t, double gain);
/* kaiming_uniform_ / kaiming_normal_ with mode fan_in (fan_out when fan_out_mode is set) and
 * nonlinearity leaky_relu of slope a (a = 0: relu): std = gain / sqrt(fan), bound = sqrt(3) std. */
void nnt_init_kaiming_uniform(nnt_rng *r, nnt_tensor *t, double a, int fan_out_mode);
void nnt_init_kaiming_normal(nnt_rng *r, nnt_tensor *t, double a, int fan_out_mode);

/* Layer defaults (bias may be NULL for bias=False). */
void nnt_init_linear(nnt_rng *r, nnt_tensor *weight /* [out, in] */, nnt_tensor *bias /* [out] */);
void nnt_init_conv2d(nnt_rng *r, nnt_tensor *weight /* [O, C, k, k] */, nnt_tensor *bias /* [O] */);
void nnt_init_mha(nnt_rng *r, nnt_tensor *in_proj_weight /* [3E, E] */, nnt_tensor *in_proj_bias /* [3E] */,
                  nnt_tensor *out_proj_weight /* [E, E] */, nnt_tensor *out_proj_bias /* [E] */);
/* One weight or bias tensor of nn.GRU / nn.RNN / nn.LSTM with hidden size H. */
void nnt_init_recurrent(nnt_rng *r, nnt_tensor *t, int hidden);
void nnt_init_embedding(nnt_rng *r, nnt_tensor *weight /* [V, D] */);
void nnt_init_layernorm(nnt_tensor *weight, nnt_tensor *bias);

#endif
