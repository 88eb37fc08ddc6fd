/* Finite-difference gradient checks (float64, central differences) of every layer and loss in
 * nnt_nn.h, w.r.t. every input and parameter, on random shapes including the edge sizes
 * (1 token, 1 unit, 1 head, batch 1). The output is reduced to a scalar by a random projection;
 * gradient buffers start random, so a backward that overwrites instead of accumulating fails. */
#include <stdlib.h>
#include <string.h>

#include "gradcheck.h"
#include "nnt_nn.h"
#include "nnt_test.h"

enum {
  L_LINEAR, L_RELU, L_GELU_ERF, L_GELU_TANH, L_SIGMOID, L_TANH, L_SOFTPLUS, L_SOFTMAX, L_LAYERNORM,
  L_EMBED, L_ATTN, L_GRU_CELL, L_GRU, L_BIGRU, L_RNN_CELL, L_RNN, L_BIRNN, L_CONV, L_MSE, L_CE
};

#define NS 10
typedef struct {
  int kind;
  int B, T, C, OC, H, I, V, gh, gw; /* gh x gw: convolution grid */
  nnt_attn_cfg cfg;
  nnt_rnn_act act;
  int reverse;
  gc_slot s[NS];
  double *y, *w, *dy; /* output, projection, output gradient scratch */
  size_t ny;
  double *buf[3];
  int *idx;
  double *target;
} ctx;

static nnt_rng rng;

static double *slot(ctx *c, int k) { return c->s[k].x; }

static void forward(ctx *c) {
  int N = c->B * c->T;
  size_t n = c->s[0].n;
  switch (c->kind) {
  case L_LINEAR: nnt_linear_forward_f64(c->y, slot(c, 0), slot(c, 1), slot(c, 2), N, c->C, c->OC); break;
  case L_RELU: nnt_relu_forward_f64(c->y, slot(c, 0), n); break;
  case L_GELU_ERF: nnt_gelu_forward_f64(c->y, slot(c, 0), n, NNT_GELU_ERF); break;
  case L_GELU_TANH: nnt_gelu_forward_f64(c->y, slot(c, 0), n, NNT_GELU_TANH); break;
  case L_SIGMOID: nnt_sigmoid_forward_f64(c->y, slot(c, 0), n); break;
  case L_TANH: nnt_tanh_forward_f64(c->y, slot(c, 0), n); break;
  case L_SOFTPLUS: nnt_softplus_forward_f64(c->y, slot(c, 0), n); break;
  case L_SOFTMAX: nnt_softmax_forward_f64(c->y, slot(c, 0), N, c->V); break;
  case L_LAYERNORM:
    nnt_layernorm_forward_f64(c->y, c->buf[0], c->buf[1], slot(c, 0), slot(c, 1), slot(c, 2), N, c->C);
    break;
  case L_EMBED: nnt_embedding_forward_f64(c->y, c->idx, slot(c, 0), N, c->C); break;
  case L_ATTN: nnt_attention_forward_f64(c->y, c->buf[0], slot(c, 0), c->B, c->T, c->C, c->H, &c->cfg); break;
  case L_GRU_CELL:
    nnt_gru_cell_forward_f64(c->y, c->buf[0], slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), slot(c, 4),
                             slot(c, 5), c->B, c->I, c->H);
    break;
  case L_GRU:
    nnt_gru_forward_f64(c->y, c->buf[0], slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5),
                        c->B, c->T, c->I, c->H, c->reverse);
    break;
  case L_BIGRU: {
    nnt_rnn_params_f64 p[2] = {{slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5)},
                               {slot(c, 6), slot(c, 7), slot(c, 8), slot(c, 9)}};
    nnt_bigru_forward_f64(c->y, c->buf[0], slot(c, 0), slot(c, 1), p, c->B, c->T, c->I, c->H);
    break;
  }
  case L_RNN_CELL:
    nnt_rnn_cell_forward_f64(c->y, slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5), c->B,
                             c->I, c->H, c->act);
    break;
  case L_RNN:
    nnt_rnn_forward_f64(c->y, slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5), c->B, c->T,
                        c->I, c->H, c->act, c->reverse);
    break;
  case L_BIRNN: {
    nnt_rnn_params_f64 p[2] = {{slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5)},
                               {slot(c, 6), slot(c, 7), slot(c, 8), slot(c, 9)}};
    nnt_birnn_forward_f64(c->y, slot(c, 0), slot(c, 1), p, c->B, c->T, c->I, c->H, c->act);
    break;
  }
  case L_CONV:
    nnt_conv3x3_forward_f64(c->y, slot(c, 0), slot(c, 1), slot(c, 2), c->buf[0], c->B, c->C, c->OC, c->gh, c->gw);
    break;
  case L_MSE: c->y[0] = nnt_mse_forward_f64(slot(c, 0), c->target, n); break;
  case L_CE: c->y[0] = nnt_crossentropy_forward_f64(c->buf[0], slot(c, 0), c->idx, N, c->V); break;
  }
}

static double obj(void *vc) {
  ctx *c = vc;
  forward(c);
  return gc_dot(c->w, c->y, c->ny);
}

static double *dslot(ctx *c, int k) { return c->s[k].x ? c->s[k].dx : NULL; }

static void grad(void *vc) {
  ctx *c = vc;
  forward(c);
  const double *dy = c->w;
  int N = c->B * c->T;
  size_t n = c->s[0].n;
  switch (c->kind) {
  case L_LINEAR:
    nnt_linear_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dy, slot(c, 0), slot(c, 1), N, c->C, c->OC);
    break;
  case L_RELU: nnt_relu_backward_f64(dslot(c, 0), dy, slot(c, 0), n); break;
  case L_GELU_ERF: nnt_gelu_backward_f64(dslot(c, 0), dy, slot(c, 0), n, NNT_GELU_ERF); break;
  case L_GELU_TANH: nnt_gelu_backward_f64(dslot(c, 0), dy, slot(c, 0), n, NNT_GELU_TANH); break;
  case L_SIGMOID: nnt_sigmoid_backward_f64(dslot(c, 0), dy, c->y, n); break;
  case L_TANH: nnt_tanh_backward_f64(dslot(c, 0), dy, c->y, n); break;
  case L_SOFTPLUS: nnt_softplus_backward_f64(dslot(c, 0), dy, slot(c, 0), n); break;
  case L_SOFTMAX: nnt_softmax_backward_f64(dslot(c, 0), dy, c->y, N, c->V); break;
  case L_LAYERNORM:
    nnt_layernorm_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dy, slot(c, 0), slot(c, 1), c->buf[0],
                               c->buf[1], N, c->C);
    break;
  case L_EMBED: nnt_embedding_backward_f64(dslot(c, 0), dy, c->idx, N, c->C); break;
  case L_ATTN:
    nnt_attention_backward_f64(dslot(c, 0), dy, c->buf[0], slot(c, 0), c->B, c->T, c->C, c->H, &c->cfg);
    break;
  case L_GRU_CELL:
    nnt_gru_cell_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dslot(c, 3), dslot(c, 4), dslot(c, 5), dy,
                              c->buf[0], slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), c->buf[1], c->B, c->I, c->H);
    break;
  case L_GRU:
    nnt_gru_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dslot(c, 3), dslot(c, 4), dslot(c, 5), dy, c->y,
                         c->buf[0], slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), c->buf[1], c->B, c->T, c->I,
                         c->H, c->reverse);
    break;
  case L_BIGRU: {
    nnt_rnn_params_f64 p[2] = {{slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5)},
                               {slot(c, 6), slot(c, 7), slot(c, 8), slot(c, 9)}};
    nnt_rnn_grads_f64 dp[2] = {{dslot(c, 2), dslot(c, 3), dslot(c, 4), dslot(c, 5)},
                               {dslot(c, 6), dslot(c, 7), dslot(c, 8), dslot(c, 9)}};
    nnt_bigru_backward_f64(dslot(c, 0), dslot(c, 1), dp, dy, c->y, c->buf[0], slot(c, 0), slot(c, 1), p, c->buf[1],
                           c->B, c->T, c->I, c->H);
    break;
  }
  case L_RNN_CELL:
    nnt_rnn_cell_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dslot(c, 3), dslot(c, 4), dslot(c, 5), dy, c->y,
                              slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), c->buf[1], c->B, c->I, c->H, c->act);
    break;
  case L_RNN:
    nnt_rnn_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dslot(c, 3), dslot(c, 4), dslot(c, 5), dy, c->y,
                         slot(c, 0), slot(c, 1), slot(c, 2), slot(c, 3), c->buf[1], c->B, c->T, c->I, c->H, c->act,
                         c->reverse);
    break;
  case L_BIRNN: {
    nnt_rnn_params_f64 p[2] = {{slot(c, 2), slot(c, 3), slot(c, 4), slot(c, 5)},
                               {slot(c, 6), slot(c, 7), slot(c, 8), slot(c, 9)}};
    nnt_rnn_grads_f64 dp[2] = {{dslot(c, 2), dslot(c, 3), dslot(c, 4), dslot(c, 5)},
                               {dslot(c, 6), dslot(c, 7), dslot(c, 8), dslot(c, 9)}};
    nnt_birnn_backward_f64(dslot(c, 0), dslot(c, 1), dp, dy, c->y, slot(c, 0), slot(c, 1), p, c->buf[1], c->B, c->T,
                           c->I, c->H, c->act);
    break;
  }
  case L_CONV:
    nnt_conv3x3_backward_f64(dslot(c, 0), dslot(c, 1), dslot(c, 2), dy, slot(c, 0), slot(c, 1), c->buf[0], c->B, c->C,
                             c->OC, c->gh, c->gw);
    break;
  case L_MSE: nnt_mse_backward_f64(dslot(c, 0), slot(c, 0), c->target, n, dy[0]); break;
  case L_CE: nnt_crossentropy_backward_f64(dslot(c, 0), c->buf[0], c->idx, N, c->V, dy[0]); break;
  }
}

/* Adds slot k (NULL values when present = 0: the optional array is left out). */
static void add(ctx *c, int k, const char *name, size_t n, double std, int present) {
  c->s[k].name = name;
  c->s[k].n = n;
  c->s[k].x = present ? gc_randn(&rng, n, std) : NULL;
  c->s[k].dx = present ? gc_randn(&rng, n, 1) : NULL;
}

static void run(ctx *c, const char *label, size_t ny) {
  c->ny = ny;
  c->y = calloc(ny, sizeof(double));
  c->w = gc_randn(&rng, ny, 1);
  int fails = gc_run(label, obj, grad, c, c->s, NS, 1e-6, &rng);
  CHECK_MSG(fails == 0, "%s: %d gradient(s) wrong", label, fails);
  for (int k = 0; k < NS; k++) free(c->s[k].x), free(c->s[k].dx);
  for (int k = 0; k < 3; k++) free(c->buf[k]);
  free(c->y), free(c->w), free(c->idx), free(c->target);
}

static int rnd(int lo, int hi) { return lo + (int)nnt_rng_below(&rng, (uint64_t)(hi - lo + 1)); }

static void rnn_slots(ctx *c, int gates, int bidir, int has_h0, int has_bias) {
  int G = gates * c->H, D = bidir ? 2 : 1;
  add(c, 0, "x", (size_t)c->B * c->T * c->I, 1, 1);
  add(c, 1, "h0", (size_t)D * c->B * c->H, 1, has_h0);
  static const char *names[2][4] = {{"Wih", "Whh", "bih", "bhh"}, {"Wih_rev", "Whh_rev", "bih_rev", "bhh_rev"}};
  for (int d = 0; d < D; d++) {
    add(c, 2 + 4 * d, names[d][0], (size_t)G * c->I, 0.6, 1);
    add(c, 3 + 4 * d, names[d][1], (size_t)G * c->H, 0.6, 1);
    add(c, 4 + 4 * d, names[d][2], (size_t)G, 0.5, has_bias);
    add(c, 5 + 4 * d, names[d][3], (size_t)G, 0.5, has_bias);
  }
}

int main(void) {
  nnt_rng_init(&rng, 2024, 0);
  char label[160];
  for (int rep = 0; rep < 10; rep++) {
    int edge = rep == 0; /* rep 0: every size 1 */
    int B = edge ? 1 : rnd(1, 3), T = edge ? 1 : rnd(1, 5), C = edge ? 1 : rnd(1, 6), OC = edge ? 1 : rnd(1, 5);

    for (int bias = 0; bias < 2; bias++) {
      ctx c = {.kind = L_LINEAR, .B = B, .T = T, .C = C, .OC = OC};
      add(&c, 0, "inp", (size_t)B * T * C, 1, 1), add(&c, 1, "W", (size_t)OC * C, 1, 1);
      add(&c, 2, "b", (size_t)OC, 1, bias);
      snprintf(label, sizeof label, "linear N=%d C=%d OC=%d bias=%d", B * T, C, OC, bias);
      run(&c, label, (size_t)B * T * OC);
    }
    static const char *ew_names[] = {"relu", "gelu_erf", "gelu_tanh", "sigmoid", "tanh", "softplus"};
    for (int k = L_RELU; k <= L_SOFTPLUS; k++) {
      ctx c = {.kind = k, .B = B, .T = T, .C = C};
      /* std 12 reaches softplus's linear branch (x > 20) */
      add(&c, 0, "inp", (size_t)B * T * C, k == L_SOFTPLUS ? 12 : 2, 1);
      snprintf(label, sizeof label, "%s n=%d", ew_names[k - L_RELU], B * T * C);
      run(&c, label, (size_t)B * T * C);
    }
    {
      ctx c = {.kind = L_SOFTMAX, .B = B, .T = T, .V = edge ? 1 : rnd(1, 7)};
      add(&c, 0, "inp", (size_t)B * T * c.V, 2, 1);
      snprintf(label, sizeof label, "softmax N=%d V=%d", B * T, c.V);
      run(&c, label, (size_t)B * T * c.V);
    }
    for (int affine = 0; affine < 2; affine++) {
      /* C = 1: zero variance, rstd = 1/sqrt(eps). C = 2 is skipped: the normalised pair is +-1
       * up to eps, so d/dinp is ~eps-sized and the finite difference has no digits left. */
      int LC = edge ? 1 : rnd(3, 8);
      ctx c = {.kind = L_LAYERNORM, .B = B, .T = T, .C = LC};
      add(&c, 0, "inp", (size_t)B * T * LC, 1, 1), add(&c, 1, "weight", (size_t)LC, 1, affine);
      add(&c, 2, "bias", (size_t)LC, 1, affine);
      c.buf[0] = calloc((size_t)B * T, sizeof(double)), c.buf[1] = calloc((size_t)B * T, sizeof(double));
      snprintf(label, sizeof label, "layernorm N=%d C=%d affine=%d", B * T, LC, affine);
      run(&c, label, (size_t)B * T * LC);
    }
    {
      int rows = edge ? 1 : rnd(1, 4);
      ctx c = {.kind = L_EMBED, .B = B, .T = T, .C = C};
      add(&c, 0, "table", (size_t)rows * C, 1, 1);
      c.idx = malloc(sizeof(int) * B * T);
      for (int i = 0; i < B * T; i++) c.idx[i] = (int)nnt_rng_below(&rng, (uint64_t)rows); /* repeats add up */
      snprintf(label, sizeof label, "embedding N=%d rows=%d C=%d", B * T, rows, C);
      run(&c, label, (size_t)B * T * C);
    }
    for (int variant = 0; variant < 6; variant++) {
      int H = edge ? 1 : rnd(1, 3), hs = edge ? 1 : rnd(1, 4), AC = H * hs;
      ctx c = {.kind = L_ATTN, .B = B, .T = T, .C = AC, .H = H};
      c.cfg.score = variant % 2 ? NNT_ATTN_RELU : NNT_ATTN_SOFTMAX;
      c.cfg.causal = variant >= 2;
      c.cfg.relu_norm = variant >= 4 ? NNT_RELU_NORM_VISIBLE : NNT_RELU_NORM_T;
      c.cfg.scale = variant == 3 ? 0.7 : 0;
      add(&c, 0, "qkv", (size_t)B * T * 3 * AC, 1, 1);
      c.buf[0] = calloc(NNT_ATTN_WS(B, H, T), sizeof(double));
      snprintf(label, sizeof label, "attention %s causal=%d norm=%d B=%d T=%d C=%d H=%d",
               c.cfg.score ? "relu" : "softmax", c.cfg.causal, c.cfg.relu_norm, B, T, AC, H);
      run(&c, label, (size_t)B * T * AC);
    }
    for (int variant = 0; rep == 1 && variant < 2; variant++) { /* causal, T across several query blocks */
      int LT = 2 * NNT_ATTN_BLOCK + 5;
      ctx c = {.kind = L_ATTN, .B = 1, .T = LT, .C = 2, .H = 1};
      c.cfg = (nnt_attn_cfg){.score = variant ? NNT_ATTN_RELU : NNT_ATTN_SOFTMAX, .causal = 1,
                             .relu_norm = NNT_RELU_NORM_VISIBLE};
      add(&c, 0, "qkv", (size_t)LT * 3 * 2, 1, 1);
      c.buf[0] = calloc(NNT_ATTN_WS(1, 1, LT), sizeof(double));
      snprintf(label, sizeof label, "attention %s causal=1 B=1 T=%d C=2 H=1", variant ? "relu" : "softmax", LT);
      run(&c, label, (size_t)LT * 2);
    }
    int I = edge ? 1 : rnd(1, 4), Hd = edge ? 1 : rnd(1, 4);
    for (int variant = 0; variant < 4; variant++) {
      int has_h0 = variant != 1, has_bias = variant != 2, reverse = variant == 3 || (variant == 1 && !edge);
      {
        ctx c = {.kind = L_GRU_CELL, .B = B, .T = 1, .I = I, .H = Hd};
        rnn_slots(&c, 3, 0, has_h0, has_bias);
        c.buf[0] = calloc((size_t)B * 6 * Hd, sizeof(double)), c.buf[1] = calloc(NNT_GRU_WS(B, Hd), sizeof(double));
        snprintf(label, sizeof label, "gru cell B=%d I=%d H=%d h0=%d bias=%d", B, I, Hd, has_h0, has_bias);
        run(&c, label, (size_t)B * Hd);
      }
      {
        ctx c = {.kind = L_GRU, .B = B, .T = T, .I = I, .H = Hd, .reverse = reverse};
        rnn_slots(&c, 3, 0, has_h0, has_bias);
        c.buf[0] = calloc(NNT_GRU_CACHE(B, T, Hd), sizeof(double)), c.buf[1] = calloc(NNT_GRU_WS(B, Hd), sizeof(double));
        snprintf(label, sizeof label, "gru B=%d T=%d I=%d H=%d h0=%d bias=%d reverse=%d", B, T, I, Hd, has_h0, has_bias,
                 reverse);
        run(&c, label, (size_t)B * T * Hd);
      }
      {
        ctx c = {.kind = L_BIGRU, .B = B, .T = T, .I = I, .H = Hd};
        rnn_slots(&c, 3, 1, has_h0, has_bias);
        c.buf[0] = calloc(2 * NNT_GRU_CACHE(B, T, Hd), sizeof(double)), c.buf[1] = calloc(NNT_GRU_WS(B, Hd), sizeof(double));
        snprintf(label, sizeof label, "bigru B=%d T=%d I=%d H=%d h0=%d bias=%d", B, T, I, Hd, has_h0, has_bias);
        run(&c, label, (size_t)B * T * 2 * Hd);
      }
      for (int a = 0; a < 2; a++) {
        nnt_rnn_act act = a ? NNT_RNN_RELU : NNT_RNN_TANH;
        {
          ctx c = {.kind = L_RNN_CELL, .B = B, .T = 1, .I = I, .H = Hd, .act = act};
          rnn_slots(&c, 1, 0, has_h0, has_bias);
          c.buf[1] = calloc(NNT_RNN_WS(B, Hd), sizeof(double));
          snprintf(label, sizeof label, "rnn cell %s B=%d I=%d H=%d h0=%d bias=%d", a ? "relu" : "tanh", B, I, Hd, has_h0,
                   has_bias);
          run(&c, label, (size_t)B * Hd);
        }
        {
          ctx c = {.kind = L_RNN, .B = B, .T = T, .I = I, .H = Hd, .act = act, .reverse = reverse};
          rnn_slots(&c, 1, 0, has_h0, has_bias);
          c.buf[1] = calloc(NNT_RNN_WS(B, Hd), sizeof(double));
          snprintf(label, sizeof label, "rnn %s B=%d T=%d I=%d H=%d h0=%d bias=%d reverse=%d", a ? "relu" : "tanh", B, T, I,
                   Hd, has_h0, has_bias, reverse);
          run(&c, label, (size_t)B * T * Hd);
        }
        {
          ctx c = {.kind = L_BIRNN, .B = B, .T = T, .I = I, .H = Hd, .act = act};
          rnn_slots(&c, 1, 1, has_h0, has_bias);
          c.buf[1] = calloc(NNT_RNN_WS(B, Hd), sizeof(double));
          snprintf(label, sizeof label, "birnn %s B=%d T=%d I=%d H=%d h0=%d bias=%d", a ? "relu" : "tanh", B, T, I, Hd,
                   has_h0, has_bias);
          run(&c, label, (size_t)B * T * 2 * Hd);
        }
      }
    }
    for (int bias = 0; bias < 2; bias++) {
      int gh = edge ? 1 : rnd(1, 4), gw = edge ? 1 : rnd(1, 5), CC = edge ? 1 : rnd(1, 3);
      ctx c = {.kind = L_CONV, .B = B, .C = CC, .OC = OC, .gh = gh, .gw = gw};
      add(&c, 0, "inp", (size_t)B * CC * gh * gw, 1, 1), add(&c, 1, "weight", (size_t)OC * CC * 9, 1, 1);
      add(&c, 2, "bias", (size_t)OC, 1, bias);
      c.buf[0] = calloc(NNT_CONV3_WS(CC, gh, gw), sizeof(double));
      snprintf(label, sizeof label, "conv3x3 B=%d C=%d OC=%d grid=%dx%d bias=%d", B, CC, OC, gh, gw, bias);
      run(&c, label, (size_t)B * OC * gh * gw);
    }
    {
      ctx c = {.kind = L_MSE, .B = B, .T = T};
      add(&c, 0, "pred", (size_t)B * T * C, 1, 1);
      c.target = gc_randn(&rng, (size_t)B * T * C, 1);
      snprintf(label, sizeof label, "mse n=%d", B * T * C);
      run(&c, label, 1);
    }
    {
      ctx c = {.kind = L_CE, .B = B, .T = T, .V = edge ? 1 : rnd(2, 6)};
      add(&c, 0, "logits", (size_t)B * T * c.V, 2, 1);
      c.buf[0] = calloc((size_t)B * T * c.V, sizeof(double));
      c.idx = malloc(sizeof(int) * B * T);
      for (int i = 0; i < B * T; i++) c.idx[i] = (int)nnt_rng_below(&rng, (uint64_t)c.V);
      snprintf(label, sizeof label, "crossentropy N=%d V=%d", B * T, c.V);
      run(&c, label, 1);
    }
  }
  TEST_MAIN_END();
}
