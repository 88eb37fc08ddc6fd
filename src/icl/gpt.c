/* gpt.c — the GPT-2 in-context learner: registry, initialisation, both precisions' instances of
 * gpt_model.inc, prediction and loading (nnt_icl_gpt.h). */
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpt_impl.h"
#include "nnt_blas.h"
#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "nnt_init.h"
#include "nnt_nn.h"
#include "nnt_progress.h"

const char *const nnt_icl_attn_names[] = {"softmax", "relu", NULL};

/* Runs the statement (the last argument) over chunks of R rows of N, r0 the chunk's first row and rn
 * its rows; in parallel from 1024 rows (below, a parallel region costs more than it saves), chunks
 * handed out dynamically so that a thread the OS preempts holds up no one (a chunk's result does not
 * depend on the thread that computes it). */
#define ROW_CHUNKS(N, R, ...)                                                                     \
  do {                                                                                             \
    int n_ = (N), R_ = (R), nc_ = (n_ + R_ - 1) / R_;                                              \
    _Pragma("omp parallel for schedule(dynamic) if (nc_ > 1 && n_ >= 1024)") for (int c_ = 0; c_ < nc_; c_++) { \
      int r0 = c_ * R_, rn = n_ - r0 < R_ ? n_ - r0 : R_;                                          \
      __VA_ARGS__;                                                                                 \
    }                                                                                              \
  } while (0)
#define EW_ROWS 64 /* rows per chunk of the element-wise layers */

/* Wall time per phase (nnt_icl_gpt_profile), on the calling thread. */
static _Thread_local double prof[NNT_ICL_PROF_N];
#define PROF(k, ...)          \
  do {                        \
    double t0_ = nnt_now();   \
    __VA_ARGS__;              \
    prof[k] += nnt_now() - t0_; \
  } while (0)

void nnt_icl_gpt_profile(double seconds[NNT_ICL_PROF_N], int reset) {
  if (seconds) memcpy(seconds, prof, sizeof prof);
  if (reset) memset(prof, 0, sizeof prof);
}
const char *const nnt_icl_prof_names[] = {"linear (forward, input gradient; the MLP's GELU)", "linear (weight gradient)",
                                          "attention", "layer norm", NULL};

#define NNT_REAL_BITS 32
#include "nnt_real.h"
#define GELU_FWD_GRAD nnt_gelu_tanh_fast_forward_grad
#include "gpt_model.inc"
#undef NNT_REAL_BITS
#undef GELU_FWD_GRAD
/* The float64 instance (finite-difference checks): GELU and its derivative from the core's layer,
 * the derivative as the backward with dout = 1; grad may be inp. */
static void gelu_fwd_grad_f64(double *out, double *grad, const double *inp, size_t n) {
  nnt_gelu_forward_f64(out, inp, n, NNT_GELU_TANH);
  for (size_t i = 0; i < n; i++) {
    double x = inp[i], one = 1, g = 0;
    nnt_gelu_backward_f64(&g, &one, &x, 1, NNT_GELU_TANH);
    grad[i] = g;
  }
}
#define NNT_REAL_BITS 64
#include "nnt_real.h"
#define GELU_FWD_GRAD gelu_fwd_grad_f64
#include "gpt_model.inc"
#undef NNT_REAL_BITS
#undef GELU_FWD_GRAD
#include "nnt_real.h"

struct nnt_icl_gpt {
  nnt_icl_gpt_arch a;
  nnt_icl_task t;
  int f64;
  nnt_params P;
  gpt_net_f32 *n32;
  gpt_net_f64 *n64;
};

int nnt_icl_gpt_arch_check(const nnt_icl_gpt_arch *a) {
  if (a->d < 2) return nnt_fail(NNT_EINVAL, "token width d must be >= 2 (x and [y, 0, ...] share it), got %d", a->d);
  if (a->n_embd < 1 || a->n_layer < 1 || a->n_head < 1)
    return nnt_fail(NNT_EINVAL, "width, layers and heads must be >= 1 (got %d, %d, %d)", a->n_embd, a->n_layer, a->n_head);
  if (a->n_embd % a->n_head)
    return nnt_fail(NNT_EINVAL, "width %d is not a multiple of the head count %d", a->n_embd, a->n_head);
  if (a->mlp < 0) return nnt_fail(NNT_EINVAL, "MLP width must be >= 1 (0: 4 x the width), got %d", a->mlp);
  if (!a->mlp && a->n_embd > INT_MAX / 4) /* 4 x the width would overflow (found by fuzz/fuzz_icl_meta) */
    return nnt_fail(NNT_EINVAL, "width %d too large for the default MLP width 4 x %d", a->n_embd, a->n_embd);
  if (a->n_pos < 2 || a->n_pos % 2) return nnt_fail(NNT_EINVAL, "position slots must be even and >= 2, got %d", a->n_pos);
  if ((unsigned)a->attn > NNT_ATTN_RELU || (unsigned)a->relu_norm > NNT_RELU_NORM_VISIBLE)
    return nnt_fail(NNT_EINVAL, "unknown attention type or ReLU normalisation");
  return NNT_OK;
}

/* Declares the parameters in GPT-2's order (the names are HF's, read-in/out after Garg). */
static void declare(nnt_params *P, const nnt_icl_gpt_arch *a, nnt_dtype dt) {
  int E = a->n_embd, F = a->mlp ? a->mlp : 4 * E;
  char name[64];
  nnt_params_add(P, "read_in.weight", dt, 2, (const int[]){E, a->d});
  nnt_params_add(P, "read_in.bias", dt, 1, (const int[]){E});
  nnt_params_add(P, "wpe", dt, 2, (const int[]){a->n_pos, E});
  for (int l = 0; l < a->n_layer; l++) {
#define ADD(suffix, ndim, ...) \
  (snprintf(name, sizeof name, "h%d.%s", l, suffix), nnt_params_add(P, name, dt, ndim, (const int[]){__VA_ARGS__}))
    ADD("ln_1.weight", 1, E), ADD("ln_1.bias", 1, E);
    ADD("attn.c_attn.weight", 2, 3 * E, E), ADD("attn.c_attn.bias", 1, 3 * E);
    ADD("attn.c_proj.weight", 2, E, E), ADD("attn.c_proj.bias", 1, E);
    ADD("ln_2.weight", 1, E), ADD("ln_2.bias", 1, E);
    ADD("mlp.c_fc.weight", 2, F, E), ADD("mlp.c_fc.bias", 1, F);
    ADD("mlp.c_proj.weight", 2, E, F), ADD("mlp.c_proj.bias", 1, E);
#undef ADD
  }
  nnt_params_add(P, "ln_f.weight", dt, 1, (const int[]){E});
  nnt_params_add(P, "ln_f.bias", dt, 1, (const int[]){E});
  nnt_params_add(P, "read_out.weight", dt, 2, (const int[]){1, E});
  nnt_params_add(P, "read_out.bias", dt, 1, (const int[]){1});
}

int nnt_icl_gpt_new(const nnt_icl_gpt_arch *a, const nnt_icl_task *t, int f64, nnt_icl_gpt **out) {
  *out = NULL;
  int st = nnt_icl_gpt_arch_check(a);
  if (st || (st = nnt_icl_task_check(t))) return st;
  if (a->d != t->d) return nnt_fail(NNT_EINVAL, "the model's token width %d differs from the task's d = %d", a->d, t->d);
  if (2 * t->n > a->n_pos)
    return nnt_fail(NNT_EINVAL, "prompts of %d points need %d position slots, the model has %d", t->n, 2 * t->n, a->n_pos);
  nnt_icl_gpt *m = nnt_xcalloc(1, sizeof *m);
  m->a = *a, m->t = *t, m->f64 = f64;
  nnt_params_init(&m->P);
  declare(&m->P, a, f64 ? NNT_F64 : NNT_F32);
  nnt_params_alloc(&m->P);
  if (f64) m->n64 = gpt_net_new_f64(a, &m->P);
  else m->n32 = gpt_net_new_f32(a, &m->P);
  *out = m;
  return NNT_OK;
}

void nnt_icl_gpt_free(nnt_icl_gpt *m) {
  if (!m) return;
  gpt_net_free_f32(m->n32), gpt_net_free_f64(m->n64);
  nnt_params_free(&m->P);
  free(m);
}

void nnt_icl_gpt_init(nnt_icl_gpt *m, uint64_t seed) {
  nnt_rng r;
  nnt_rng_init(&r, seed, NNT_ICL_GPT_INIT_STREAM);
  double proj_std = 0.02 / sqrt(2.0 * m->a.n_layer);
  for (int i = 0; i < m->P.n; i++) { /* registration order: read_in, wpe, blocks, ln_f, read_out */
    nnt_param *p = m->P.items[i];
    const char *nm = p->name;
    size_t len = strlen(nm);
    int is_bias = len > 5 && !strcmp(nm + len - 5, ".bias");
    if (!strncmp(nm, "read_in.", 8) || !strncmp(nm, "read_out.", 9)) {
      if (is_bias) continue; /* drawn with its weight below */
      nnt_param *b = m->P.items[i + 1];
      nnt_init_linear(&r, &p->value, &b->value);
    } else if (strstr(nm, "ln_")) {
      nnt_init_constant(&p->value, is_bias ? 0 : 1);
    } else if (is_bias) {
      nnt_init_constant(&p->value, 0);
    } else {
      nnt_init_normal(&r, &p->value, 0, strstr(nm, "c_proj.weight") ? proj_std : 0.02);
    }
  }
}

nnt_params *nnt_icl_gpt_params(nnt_icl_gpt *m) { return &m->P; }
const nnt_icl_gpt_arch *nnt_icl_gpt_arch_of(const nnt_icl_gpt *m) { return &m->a; }
const nnt_icl_task *nnt_icl_gpt_task(const nnt_icl_gpt *m) { return &m->t; }

static int check_shape(const nnt_icl_gpt *m, int B, int n) {
  if (B < 1 || n < 1) return nnt_fail(NNT_EINVAL, "need at least one prompt of one point (got B = %d, n = %d)", B, n);
  if (2 * n > m->a.n_pos)
    return nnt_fail(NNT_EINVAL, "prompts of %d points need %d position slots, the model has %d (at most %d points)", n,
                    2 * n, m->a.n_pos, m->a.n_pos / 2);
  return NNT_OK;
}

int nnt_icl_gpt_forward(nnt_icl_gpt *m, const void *xs, const void *ys, int B, int n, void *pred) {
  int st = check_shape(m, B, n);
  if (st) return st;
  if (m->f64) {
    gpt_fwd_f64(m->n64, xs, ys, B, n);
    memcpy(pred, m->n64->pred, sizeof(double) * B * n);
  } else {
    gpt_fwd_f32(m->n32, xs, ys, B, n);
    memcpy(pred, m->n32->pred, sizeof(float) * B * n);
  }
  return NNT_OK;
}

int nnt_icl_gpt_loss_grad(nnt_icl_gpt *m, const void *xs, const void *ys, int B, int n, double *loss) {
  int st = check_shape(m, B, n);
  if (st) return st;
  nnt_params_zero_grad(&m->P);
  *loss = m->f64 ? gpt_loss_grad_f64(m->n64, xs, ys, B, n) : gpt_loss_grad_f32(m->n32, xs, ys, B, n);
  return NNT_OK;
}

int nnt_icl_gpt_predict(nnt_icl_gpt *m, const float *xs, const float *ys, int B, int n, float *pred) {
  if (m->f64) return nnt_fail(NNT_EINVAL, "nnt_icl_gpt_predict takes a float32 model");
  return nnt_icl_gpt_forward(m, xs, ys, B, n, pred);
}

int nnt_icl_gpt_load(const char *path, nnt_icl_gpt **out) {
  *out = NULL;
  nnt_ckpt_info info;
  int st = nnt_ckpt_info_read(path, &info);
  if (st) return st;
  nnt_icl_train_cfg c;
  st = nnt_icl_meta_parse(path, info.meta_json, &c, NULL);
  nnt_ckpt_info_free(&info);
  nnt_icl_gpt *m = NULL;
  if (!st) st = nnt_icl_gpt_new(&c.arch, &c.task, 0, &m);
  if (!st) st = nnt_ckpt_load(path, ICL_CKPT_KIND, &m->P, NULL, NULL, NULL);
  if (st) {
    nnt_icl_gpt_free(m);
    return st;
  }
  *out = m;
  return NNT_OK;
}

static double train_macs(const nnt_icl_gpt_arch *a, int B, int n, int all_rows) {
  double E = a->n_embd, F = a->mlp ? a->mlp : 4.0 * E, T = 2.0 * n, N = B * T, M = (double)B * n;
  /* read-in, blocks (q, k, v on every row; the last block's projection and MLP on the x rows
   * only, unless all_rows), read-out */
  double blk = 4 * E * E + 2 * E * F; /* q, k, v and the projection; the MLP's two products */
  double lin = N * (a->d * E + a->n_layer * blk) - (all_rows ? 0 : (N - M) * (blk - 3 * E * E)) + M * E;
  double attn = a->n_layer * 2.0 * B * T * T * E; /* q k^T and att v, all heads */
  /* backward: two products per forward product, except the read-in's dinp (not computed) */
  return 3 * (lin + attn) - N * a->d * E;
}

double nnt_icl_gpt_train_macs(const nnt_icl_gpt_arch *a, int B, int n) { return train_macs(a, B, n, 0); }

double nnt_icl_gpt_train_bytes(const nnt_icl_gpt_arch *a, int B, int n) {
  double E = a->n_embd, F = a->mlp ? a->mlp : 4.0 * E, L = a->n_layer, T = 2.0 * n, N = B * T, M = (double)B * n;
  double A = (double)B * a->n_head * T * T;
  /* the parameters: value, gradient, Adam's two moments (float32) */
  double P = L * (4 * E * E + 2 * E * F + 9 * E + F) + a->n_pos * E + a->d * E + 4 * E + 1;
  /* gpt_model.inc's reserve(): one buffer of every activation and gradient for B prompts of T tokens */
  double per_layer = N * (6 * E + 4 + 2 * F) + A;
  double act = N * a->d + L * N * E + L * per_layer + M * (4 * E + 3) + N * (7 * E + 2 * F) + M * (2 * E + 1);
  return 4 * (4 * P + act);
}
double nnt_icl_gpt_train_macs_all_rows(const nnt_icl_gpt_arch *a, int B, int n) { return train_macs(a, B, n, 1); }
