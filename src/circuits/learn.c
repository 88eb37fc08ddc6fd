/* The learnability experiment: ReLU nets trained by Adam or SGD on circuit-labelled samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_circuits.h"
#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "nnt_init.h"
#include "nnt_nn.h"
#include "nnt_optim.h"
#include "nnt_params.h"
#include "nnt_progress.h"
#include "nnt_train.h"

void nnt_circuit_sample(const nnt_circuit *c, int bit, int n, uint64_t seed, uint64_t stream, uint8_t *X, uint8_t *Y) {
  int m = c->ninputs;
  nnt_rng r;
  nnt_rng_init(&r, seed, stream);
  uint64_t *XW = nnt_xmalloc(sizeof(uint64_t) * (size_t)(m + 1)), *YW = nnt_xmalloc(sizeof(uint64_t) * (size_t)c->noutputs);
  for (int base = 0; base < n; base += 64) {
    for (int i = 0; i < m; i++) XW[i] = nnt_rng_u64(&r);
    nnt_circuit_eval64(c, XW, YW);
    for (int k = 0; k < 64 && base + k < n; k++) {
      for (int i = 0; i < m; i++) X[(size_t)(base + k) * m + i] = (uint8_t)((XW[i] >> k) & 1);
      Y[base + k] = (uint8_t)((YW[bit] >> k) & 1);
    }
  }
  free(XW), free(YW);
}

typedef struct {
  int L, m, w; /* L linear layers: m -> w -> ... -> w -> 2 */
  nnt_params P;
  nnt_param **W, **b;
  float **z, **h, **dz, **dh; /* per layer [B, out]: pre-activation, activation and their grads */
  float *probs, *dlogits;
  int B;
} mlp32;

static int dim_out(const mlp32 *M, int l) { return l == M->L - 1 ? 2 : M->w; }
static int dim_in(const mlp32 *M, int l) { return l == 0 ? M->m : M->w; }

static void mlp32_init(mlp32 *M, int m, int w, int depth, int B, nnt_rng *r) {
  M->L = depth + 1, M->m = m, M->w = w, M->B = B;
  nnt_params_init(&M->P);
  M->W = nnt_xmalloc(sizeof(nnt_param *) * (size_t)M->L), M->b = nnt_xmalloc(sizeof(nnt_param *) * (size_t)M->L);
  M->z = nnt_xmalloc(sizeof(float *) * (size_t)M->L), M->h = nnt_xmalloc(sizeof(float *) * (size_t)M->L);
  M->dz = nnt_xmalloc(sizeof(float *) * (size_t)M->L), M->dh = nnt_xmalloc(sizeof(float *) * (size_t)M->L);
  for (int l = 0; l < M->L; l++) {
    char name[32];
    snprintf(name, sizeof name, "l%d.weight", l);
    M->W[l] = nnt_params_add_f32(&M->P, name, 2, dim_out(M, l), dim_in(M, l));
    snprintf(name, sizeof name, "l%d.bias", l);
    M->b[l] = nnt_params_add_f32(&M->P, name, 1, dim_out(M, l));
    size_t n = (size_t)B * dim_out(M, l);
    M->z[l] = nnt_xmalloc(sizeof(float) * n), M->h[l] = nnt_xmalloc(sizeof(float) * n);
    M->dz[l] = nnt_xmalloc(sizeof(float) * n), M->dh[l] = nnt_xmalloc(sizeof(float) * n);
  }
  nnt_params_alloc(&M->P);
  for (int l = 0; l < M->L; l++) nnt_init_linear(r, &M->W[l]->value, &M->b[l]->value);
  M->probs = nnt_xmalloc(sizeof(float) * (size_t)B * 2);
  M->dlogits = M->dz[M->L - 1];
}

static void mlp32_free(mlp32 *M) {
  for (int l = 0; l < M->L; l++) free(M->z[l]), free(M->h[l]), free(M->dz[l]), free(M->dh[l]);
  free(M->W), free(M->b), free(M->z), free(M->h), free(M->dz), free(M->dh), free(M->probs);
  nnt_params_free(&M->P);
}

/* logits of N <= B rows end in z[L-1] */
static void mlp32_forward(mlp32 *M, const float *x, int N) {
  for (int l = 0; l < M->L; l++) {
    const float *in = l ? M->h[l - 1] : x;
    nnt_linear_forward(M->z[l], in, nnt_f32(&M->W[l]->value), nnt_f32(&M->b[l]->value), N, dim_in(M, l), dim_out(M, l));
    if (l < M->L - 1) nnt_relu_forward(M->h[l], M->z[l], (size_t)N * dim_out(M, l));
  }
}

static void mlp32_backward(mlp32 *M, const float *x, int N) {
  for (int l = M->L - 1; l >= 0; l--) {
    const float *in = l ? M->h[l - 1] : x;
    if (l) memset(M->dh[l - 1], 0, sizeof(float) * (size_t)N * dim_in(M, l));
    nnt_linear_backward(l ? M->dh[l - 1] : NULL, nnt_f32(&M->W[l]->grad), nnt_f32(&M->b[l]->grad), M->dz[l], in,
                        nnt_f32(&M->W[l]->value), N, dim_in(M, l), dim_out(M, l));
    if (l) {
      memset(M->dz[l - 1], 0, sizeof(float) * (size_t)N * dim_in(M, l));
      nnt_relu_backward(M->dz[l - 1], M->dh[l - 1], M->z[l - 1], (size_t)N * dim_in(M, l));
    }
  }
}

/* error rate of the net on rows X[n, m] (bytes) with labels Y */
static double mlp32_error(mlp32 *M, const uint8_t *X, const uint8_t *Y, int n, float *xbuf) {
  long wrong = 0;
  for (int base = 0; base < n; base += M->B) {
    int N = n - base < M->B ? n - base : M->B;
    for (size_t i = 0; i < (size_t)N * M->m; i++) xbuf[i] = X[(size_t)base * M->m + i];
    mlp32_forward(M, xbuf, N);
    const float *lg = M->z[M->L - 1];
    for (int r = 0; r < N; r++) wrong += (lg[2 * r + 1] > lg[2 * r]) != (Y[base + r] != 0);
  }
  return n ? (double)wrong / n : 0;
}

/* Checkpoint metadata (JSON, fixed field order so it reads back with sscanf): the run's tag, then
 * either the last loss of a run in progress or the results of a finished one. */
#define META_RUN "{\"tag\":\"%.40s\",\"loss\":%.17g}"
#define META_DONE "{\"tag\":\"%.40s\",\"done\":1,\"test_err\":%.17g,\"train_err\":%.17g,\"train_loss\":%.17g,\"seconds\":%.17g}"
static const char *const CKPT_KIND = "circuit-train";

/* Reads a checkpoint of this run into M (and opt unless it is finished). Returns NNT_OK with *step
 * the steps it holds (0: no checkpoint); *done set with res filled for a finished run. */
static int ckpt_resume(const nnt_circuit_train_opts *o, nnt_params *P, nnt_optim *opt, long long *step, double *loss,
                       int *done, nnt_circuit_train_result *res) {
  *step = 0, *done = 0;
  if (!o->ckpt || !o->resume || access(o->ckpt, F_OK)) return NNT_OK;
  nnt_ckpt_info info;
  int st = nnt_ckpt_info_read(o->ckpt, &info);
  if (st) return st;
  char tag[41] = "";
  *done = sscanf(info.meta_json, "{\"tag\":\"%40[^\"]\",\"done\":1,\"test_err\":%lf,\"train_err\":%lf,\"train_loss\":%lf,"
                 "\"seconds\":%lf}", tag, &res->test_err, &res->train_err, &res->train_loss, &res->seconds) == 5;
  int running = !*done && sscanf(info.meta_json, "{\"tag\":\"%40[^\"]\",\"loss\":%lf}", tag, loss) == 2;
  nnt_ckpt_info_free(&info);
  if (!*done && !running) return nnt_fail(NNT_EFORMAT, "%s: not a checkpoint of a circuit training run", o->ckpt);
  if (strcmp(tag, o->tag ? o->tag : ""))
    return nnt_fail(NNT_EINVAL, "%s: written by a run with other settings (start afresh instead of resuming)", o->ckpt);
  return nnt_ckpt_load(o->ckpt, CKPT_KIND, P, *done ? NULL : opt, step, NULL);
}

/* The minibatch of the next step: epochs of a fresh permutation. */
static void next_batch(nnt_rng *r, int *perm, int n, int *pos, int B, int *rows) {
  for (int k = 0; k < B; k++) {
    if (*pos == n) nnt_rng_permutation(r, perm, n), *pos = 0;
    rows[k] = perm[(*pos)++];
  }
}

int nnt_circuit_train(const nnt_circuit *c, int bit, int width, int n, const nnt_circuit_train_opts *o, uint64_t stream,
                      const uint8_t *X, const uint8_t *Y, int ntest, nnt_circuit_train_result *res, nnt_mlp *trained) {
  int m = c->ninputs, B = o->batch < n ? o->batch : n, EB = 512, st = NNT_OK;
  double t0 = nnt_now();
  nnt_rng r;
  nnt_rng_init(&r, o->seed, stream);
  uint8_t *TX = nnt_xmalloc((size_t)n * (m ? m : 1)), *TY = nnt_xmalloc((size_t)n);
  nnt_circuit_sample(c, bit, n, o->seed, stream + (1ULL << 40), TX, TY);
  mlp32 M;
  mlp32_init(&M, m, width, o->depth, B > EB ? B : EB, &r);
  nnt_optim opt;
  nnt_optim_config cfg = nnt_adam_defaults();
  if (o->sgd) {
    cfg = nnt_sgd_defaults(o->lr);
    cfg.momentum = 0.9;
  }
  cfg.lr = o->lr;
  nnt_optim_init(&opt, &M.P, cfg);
  float *xb = nnt_xmalloc(sizeof(float) * (size_t)M.B * (m ? m : 1));
  int *yb = nnt_xmalloc(sizeof(int) * (size_t)B), *rows = nnt_xmalloc(sizeof(int) * (size_t)B);
  int *perm = nnt_xmalloc(sizeof(int) * (size_t)n), pos = n, done = 0;
  double loss = 0;
  long long from = 0;
  res->steps_run = 0, res->stopped = 0;
  if ((st = ckpt_resume(o, &M.P, &opt, &from, &loss, &done, res))) goto out;
  /* The data order is a function of (seed, stream, step): replaying the draws of the steps the
   * checkpoint holds puts the sampler where the interrupted run left it. */
  for (long long step = 0; step < from && !done; step++) next_batch(&r, perm, n, &pos, B, rows);
  for (long step = (long)from; step < o->steps && !done; step++) {
    if (o->stop_at && res->steps_run == o->stop_at) { /* as a kill would: the last checkpoint stays */
      res->stopped = 1;
      goto out;
    }
    res->steps_run++;
    next_batch(&r, perm, n, &pos, B, rows);
    for (int k = 0; k < B; k++) {
      for (int i = 0; i < m; i++) xb[(size_t)k * m + i] = TX[(size_t)rows[k] * m + i];
      yb[k] = TY[rows[k]];
    }
    mlp32_forward(&M, xb, B);
    loss = nnt_crossentropy_forward(M.probs, M.z[M.L - 1], yb, B, 2);
    nnt_params_zero_grad(&M.P);
    memset(M.dlogits, 0, sizeof(float) * (size_t)B * 2);
    nnt_crossentropy_backward(M.dlogits, M.probs, yb, B, 2, 1.0f);
    mlp32_backward(&M, xb, B);
    if ((st = nnt_train_check_step(&M.P, step + 1, loss))) goto out; /* before the update and the checkpoint */
    nnt_optim_step(&opt);
    if (o->ckpt && o->ckpt_every && (step + 1) % o->ckpt_every == 0 && step + 1 < o->steps) {
      char meta[160];
      snprintf(meta, sizeof meta, META_RUN, o->tag ? o->tag : "", loss);
      if ((st = nnt_ckpt_save(o->ckpt, CKPT_KIND, &M.P, &opt, step + 1, meta))) goto out;
    }
  }
  if (!done) {
    res->train_loss = loss;
    res->train_err = mlp32_error(&M, TX, TY, n, xb);
    res->test_err = mlp32_error(&M, X, Y, ntest, xb);
    res->seconds = nnt_now() - t0;
    if (o->ckpt) { /* the finished run: its results and final weights, no optimizer state */
      char meta[256];
      snprintf(meta, sizeof meta, META_DONE, o->tag ? o->tag : "", res->test_err, res->train_err, res->train_loss,
               res->seconds);
      if ((st = nnt_ckpt_save(o->ckpt, CKPT_KIND, &M.P, NULL, o->steps, meta))) goto out;
    }
  }
  if (trained) { /* float64 copy; the last layer becomes the logit difference */
    nnt_mlp_init(trained);
    for (int l = 0; l < M.L; l++) {
      int last = l == M.L - 1, in = dim_in(&M, l), out = last ? 1 : M.w;
      nnt_mlp_layer *D = nnt_mlp_add(trained, in, out, last ? NNT_ACT_IDENTITY : NNT_ACT_RELU);
      const float *W = nnt_f32(&M.W[l]->value), *b = nnt_f32(&M.b[l]->value);
      for (int i = 0; i < in; i++)
        for (int k = 0; k < out; k++)
          D->W[(size_t)k * in + i] = last ? (double)W[in + i] - (double)W[i] : (double)W[(size_t)k * in + i];
      for (int k = 0; k < out; k++) D->b[k] = last ? (double)b[1] - (double)b[0] : (double)b[k];
    }
  }
out:
  nnt_optim_free(&opt);
  mlp32_free(&M);
  free(TX), free(TY), free(xb), free(yb), free(rows), free(perm);
  return st;
}
