/* nnt_nn.h — neural-network layers with forward and backward side by side (after llm.c).
 *
 * Conventions (every layer):
 * - Raw row-major pointers; the caller owns and allocates every buffer (activations, caches,
 *   workspaces) once, sized as documented. Shape letters: B batch, T tokens, C channels (input
 *   width), OC output channels, H heads (attention) or hidden units (GRU/RNN), I input width.
 *   N = number of independent rows (usually B*T).
 * - Every layer exists in float32, `nnt_<layer>_forward/_backward`, and in float64,
 *   `nnt_<layer>_forward_f64/_backward_f64`, generated from one source (nn_layers.inc, an
 *   nnt_real.h template); the declarations are written once in nn_api.inc, instantiated below.
 * - Backward ACCUMULATES: it adds (+=) into every gradient buffer it is given, both parameter
 *   gradients (dW, db, ...) and input gradients (dinp, dqkv, dx, dh0, ...). Zero them before a
 *   step; a tensor used twice (residuals, shared weights) then gets the sum automatically. Any
 *   gradient pointer may be NULL: that gradient is then not computed.
 * - Backward never changes the forward buffers it reads (caches stay valid), and output buffers
 *   of the forward must not alias its inputs unless a function says so.
 * - Matrix products go through nnt_sgemm / nnt_dgemm; results are deterministic for a given
 *   thread count.
 *
 * Layers: linear, relu, gelu (erf or tanh form), sigmoid, tanh, softplus, row softmax, layer
 * norm, embedding, multi-head self-attention (softmax or ReLU scores, optional causal mask),
 * GRU and plain RNN (cell, forward/reverse sequence runner with backward through time,
 * bidirectional helper), 3x3 convolution (stride 1, zero padding 1), MSE and softmax
 * cross-entropy losses. Equations are PyTorch's (nn.Linear, nn.GELU, nn.Softplus,
 * nn.LayerNorm, nn.GRU, nn.RNN, nn.Conv2d, nn.MSELoss, nn.CrossEntropyLoss); see
 * docs/core_layers.md.
 */
#ifndef NNT_NN_H
#define NNT_NN_H
#include <stddef.h>

#include "nnt_cpu.h"

typedef enum { NNT_GELU_ERF = 0, NNT_GELU_TANH = 1 } nnt_gelu_form;
typedef enum { NNT_RNN_TANH = 0, NNT_RNN_RELU = 1 } nnt_rnn_act;
typedef enum { NNT_ATTN_SOFTMAX = 0, NNT_ATTN_RELU = 1 } nnt_attn_score;
/* What ReLU attention divides by. NNT_RELU_NORM_T: the number of tokens T for every query,
 * causal or not (Definition 7 of seed 003: 1/T). NNT_RELU_NORM_VISIBLE: the number of keys the
 * query sees, t+1 for query t under a causal mask (T without one), so a prefix's outputs do
 * not depend on the prompt length. */
typedef enum { NNT_RELU_NORM_T = 0, NNT_RELU_NORM_VISIBLE = 1 } nnt_relu_norm;

/* Multi-head self-attention options; zero-initialise ({0}) for the defaults: softmax scores,
 * no mask, scale 1/sqrt(C/H). */
typedef struct {
  nnt_attn_score score;
  int causal;              /* 1: query t sees keys 0..t only */
  double scale;            /* multiplies <q,k>; 0 means 1/sqrt(head size C/H) */
  nnt_relu_norm relu_norm; /* ReLU scores only */
} nnt_attn_cfg;

/* Layer-norm epsilon (PyTorch's default). */
#define NNT_LN_EPS 1e-5

/* Buffer sizes, in elements of the layer's type. */
#define NNT_GRU_CACHE(B, T, H) ((size_t)(B) * (T) * 6 * (H)) /* nnt_gru_forward's cache */
#define NNT_GRU_WS(B, H) ((size_t)(B) * 8 * (H))             /* GRU backward workspace */
#define NNT_RNN_WS(B, H) ((size_t)(B) * 3 * (H))             /* RNN backward workspace */
#define NNT_ATTN_WS(B, H, T) ((size_t)(B) * (H) * (T) * (T))   /* attention weights att */
/* Query rows per product in the attention: causal attention multiplies only the key blocks a query
 * block sees (about half of T x T). Each entry stays one sequential fused sum over the same nonzero
 * terms (the skipped ones are masked zeros), so the blocking changes no result. */
#define NNT_ATTN_BLOCK 24
#define NNT_CONV3_WS(C, H, W) ((size_t)(C) * 9 * (H) * (W))  /* 3x3 convolution workspace */

#define NNT_REAL_BITS 32
#include "nnt_real.h"
#include "nn_api.inc"
#undef NNT_REAL_BITS
#define NNT_REAL_BITS 64
#include "nnt_real.h"
#include "nn_api.inc"
#undef NNT_REAL_BITS
#include "nnt_real.h" /* removes real, NNT_FN, ... again */

/* GELU, tanh form, float32 only: nnt_gelu_forward/_backward(..., NNT_GELU_TANH) eight lanes at a
 * time with nnt_vmath's Cephes tanh (within a few float ulp of it; the same bits at every
 * instruction-set level, not the same bits as the layer). The backward accumulates. */
void nnt_gelu_tanh_fast_forward(float *out, const float *inp, size_t n);
void nnt_gelu_tanh_fast_backward(float *dinp, const float *dout, const float *inp, size_t n);
/* out = GELU(inp) and grad = GELU'(inp) in one pass (tanh evaluated once), with exactly the bits of
 * nnt_gelu_tanh_fast_forward and of the backward's factor (dinp += dout grad); grad may be inp. */
void nnt_gelu_tanh_fast_forward_grad(float *out, float *grad, const float *inp, size_t n);

/* LayerNorm, float32 only: nnt_layernorm_forward/_backward's results with the row sums in eight
 * lanes (double for the mean and variance, as in the layer), the same bits at every instruction-set
 * level, not the same bits as the scalar layer. The float32 layers call these. */
void nnt_layernorm_fast_forward(float *out, float *mean, float *rstd, const float *inp, const float *weight,
                                const float *bias, int N, int C);
void nnt_layernorm_fast_backward(float *dinp, float *dweight, float *dbias, const float *dout, const float *inp,
                                 const float *weight, const float *mean, const float *rstd, int N, int C);

/* Softmax of one attention row in place, float32, eight lanes at a time with nnt_vmath's expf:
 * row[0..n) <- exp(row - max) / sum (the float32 attention's softmax; within a few ulp of libm's,
 * the same bits at every instruction-set level). _grad: d[0..n) <- a * (d - <a, d>), the gradient
 * of the scores from that of the probabilities a. */
void nnt_softmax_row_fast(float *row, int n);
void nnt_softmax_row_grad_fast(const float *a, float *d, int n);
/* each level's form (nnt_cpu.h), for kernels of one level: NNT_ISA_FN(nnt_softmax_row_fast) skips
 * the dispatch per row */
NNT_ISA_DECLARE(void, nnt_softmax_row_fast, (float *, int));
/* The same softmax down each of the first ncols columns of the n x ld matrix a (a[j * ld + c],
 * j < n): column c ends with the bits nnt_softmax_row_fast gives it as a row. For many short rows
 * stored transposed (one lane per row instead of one row per call). Columns run in groups of 8,
 * so ld >= ncols rounded up to 8: the padding columns are transformed too. */
void nnt_softmax_cols_fast(float *a, int n, int ld, int ncols);
NNT_ISA_DECLARE(void, nnt_softmax_cols_fast, (float *, int, int, int));
/* ReLU attention's score gradient for one row: d[0..n) <- a > 0 ? d * inv : 0, without branches. */
void nnt_relu_row_grad_fast(const float *a, float *d, int n, float inv);

#endif
