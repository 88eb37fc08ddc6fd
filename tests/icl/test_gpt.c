/* The GPT-2 in-context learner: whole-model finite-difference gradients in float64 (softmax and
 * ReLU attention, every parameter tensor), causality, prefix independence of the prompt length,
 * float32 against float64, thread independence, HF initialisation, the paper's parameter count. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/gradcheck.h"
#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_icl_gpt.h"
#include "nnt_test.h"

/* The ReLU-attention model also has an MLP narrower than GPT-2's 4E (the paper's preset's kind). */
static nnt_icl_gpt_arch small_arch(nnt_attn_score attn) {
  return (nnt_icl_gpt_arch){.d = 3, .n_embd = 8, .n_layer = 2, .n_head = 2, .mlp = attn == NNT_ATTN_RELU ? 20 : 0, .n_pos = 16, .attn = attn,
                            .relu_norm = NNT_RELU_NORM_VISIBLE};
}

static nnt_icl_gpt *new_model(nnt_attn_score attn, int f64) {
  nnt_icl_task t;
  nnt_icl_task_default(&t, 3, 4, 3);
  nnt_icl_gpt_arch a = small_arch(attn);
  nnt_icl_gpt *m = NULL;
  CHECK(nnt_icl_gpt_new(&a, &t, f64, &m) == NNT_OK);
  return m;
}

/* Parameters with O(1) spread (GPT-2's 0.02 would make the model almost linear), LayerNorm
 * weights around 1. */
static void randomise(nnt_icl_gpt *m, uint64_t seed) {
  nnt_params *P = nnt_icl_gpt_params(m);
  nnt_rng r;
  nnt_rng_init(&r, seed, 0);
  for (int i = 0; i < P->n; i++) {
    nnt_tensor *t = &P->items[i]->value;
    int ln = strstr(P->items[i]->name, "ln_") && strstr(P->items[i]->name, "weight");
    for (size_t k = 0; k < t->numel; k++) nnt_tensor_set(t, k, (ln ? 1 : 0) + 0.4 * nnt_rng_normal(&r));
  }
}

typedef struct {
  nnt_icl_gpt *m;
  double *xs, *ys;
  int B, n;
  int inject; /* > 0: the gradient of tensor `inject` is made wrong (the check must then fail) */
} gctx;

/* The loss from the forward pass alone (the checker reads the gradients between calls). */
static double obj(void *p) {
  gctx *c = p;
  int M = c->B * c->n;
  double *pred = malloc(sizeof(double) * M), s = 0;
  nnt_icl_gpt_forward(c->m, c->xs, c->ys, c->B, c->n, pred);
  for (int i = 0; i < M; i++) s += (pred[i] - c->ys[i]) * (pred[i] - c->ys[i]);
  free(pred);
  return s / M;
}

/* loss_grad overwrites the gradients; the checker wants them added to what was there. */
static void grad(void *p) {
  gctx *c = p;
  nnt_params *P = nnt_icl_gpt_params(c->m);
  size_t n;
  double *g = nnt_params_flat_grad_f64(P, &n), *keep = malloc(sizeof(double) * n);
  memcpy(keep, g, sizeof(double) * n);
  double loss;
  nnt_icl_gpt_loss_grad(c->m, c->xs, c->ys, c->B, c->n, &loss);
  for (size_t i = 0; i < n; i++) g[i] += keep[i];
  free(keep);
  if (c->inject) {
    double *gi = P->items[c->inject]->grad.data;
    gi[0] += 1e-3 * (1 + fabs(gi[0]));
  }
}

static void test_gradients(nnt_attn_score attn) {
  nnt_icl_gpt *m = new_model(attn, 1);
  randomise(m, 7 + attn);
  nnt_rng r;
  nnt_rng_init(&r, 3, attn);
  gctx c = {m, gc_randn(&r, 2 * 4 * 3, 1), gc_randn(&r, 2 * 4, 1), 2, 4, 0};
  nnt_params *P = nnt_icl_gpt_params(m);
  gc_slot *s = calloc(P->n, sizeof *s);
  for (int i = 0; i < P->n; i++)
    s[i] = (gc_slot){P->items[i]->name, P->items[i]->value.data, P->items[i]->grad.data, P->items[i]->value.numel};
  int fails = gc_run(attn ? "gpt relu" : "gpt softmax", obj, grad, &c, s, P->n, 1e-6, &r);
  CHECK_MSG(fails == 0, "%s attention: %d of %d parameter tensors fail the finite-difference check", nnt_icl_attn_names[attn],
            fails, P->n);
  /* the check can fail: a wrong gradient in one tensor (the first block's c_attn bias) is caught */
  c.inject = 6;
  CHECK(gc_run("gpt injected fault", obj, grad, &c, s, P->n, 1e-6, &r) == 1);
  free(s), free(c.xs), free(c.ys);
  nnt_icl_gpt_free(m);
}

/* Perturbing token j changes no prediction at an earlier position, and does change a later one. */
static void test_causality(nnt_attn_score attn, int f64) {
  nnt_icl_gpt *m = new_model(attn, f64);
  randomise(m, 11);
  int B = 2, n = 6, d = 3;
  nnt_rng r;
  nnt_rng_init(&r, 5, 0);
  double xs[2 * 6 * 3], ys[2 * 6], p0[12], p1[12];
  float xf[36], yf[12], pf0[12], pf1[12];
  nnt_rng_fill_normal_f64(&r, xs, 36, 0, 1), nnt_rng_fill_normal_f64(&r, ys, 12, 0, 1);
  for (int i = 0; i < 36; i++) xf[i] = (float)xs[i];
  for (int i = 0; i < 12; i++) yf[i] = (float)ys[i];
  double xs0[36], ys0[12];
  float xf0[36], yf0[12];
  memcpy(xs0, xs, sizeof xs), memcpy(ys0, ys, sizeof ys), memcpy(xf0, xf, sizeof xf), memcpy(yf0, yf, sizeof yf);
  void *X = f64 ? (void *)xs : (void *)xf, *Y = f64 ? (void *)ys : (void *)yf, *P0 = f64 ? (void *)p0 : (void *)pf0,
       *P1 = f64 ? (void *)p1 : (void *)pf1;
  CHECK(nnt_icl_gpt_forward(m, X, Y, B, n, P0) == NNT_OK);
  int bad = 0, moved = 0;
  for (int tok = 0; tok < 2 * n; tok++) { /* token 2k is x_k, 2k + 1 is y_k; perturb it in prompt 1 */
    int k = tok / 2;
    if (tok % 2) f64 ? (ys[n + k] += 0.5) : (yf[n + k] += 0.5f);
    else
      for (int i = 0; i < d; i++) f64 ? (xs[(n + k) * d + i] += 0.5) : (xf[(n + k) * d + i] += 0.5f);
    CHECK(nnt_icl_gpt_forward(m, X, Y, B, n, P1) == NNT_OK);
    for (int q = 0; q < n; q++) { /* the prediction at x_q (token 2q) sees tokens 0..2q */
      double a = f64 ? p0[n + q] : pf0[n + q], b = f64 ? p1[n + q] : pf1[n + q];
      if (2 * q < tok) bad += a != b;
      else moved += a != b;
      bad += (f64 ? p0[q] != p1[q] : pf0[q] != pf1[q]); /* prompt 0 untouched */
    }
    memcpy(xs, xs0, sizeof xs), memcpy(ys, ys0, sizeof ys), memcpy(xf, xf0, sizeof xf), memcpy(yf, yf0, sizeof yf);
  }
  CHECK_MSG(bad == 0, "%s %s: %d earlier predictions changed", nnt_icl_attn_names[attn], f64 ? "f64" : "f32", bad);
  CHECK_MSG(moved > n * n / 2, "%s: later predictions changed only %d times", nnt_icl_attn_names[attn], moved);
  /* a prefix's predictions do not depend on the prompt length (n = 4 against the first 4 of 6) */
  double q0[8];
  float qf[8];
  double x4[2 * 4 * 3], y4[8];
  float x4f[24], y4f[8];
  for (int b = 0; b < 2; b++)
    for (int k = 0; k < 4; k++) {
      y4[b * 4 + k] = ys[b * n + k], y4f[b * 4 + k] = yf[b * n + k];
      for (int i = 0; i < d; i++) x4[(b * 4 + k) * d + i] = xs[(b * n + k) * d + i], x4f[(b * 4 + k) * d + i] = xf[(b * n + k) * d + i];
    }
  CHECK(nnt_icl_gpt_forward(m, f64 ? (void *)x4 : (void *)x4f, f64 ? (void *)y4 : (void *)y4f, 2, 4,
                            f64 ? (void *)q0 : (void *)qf) == NNT_OK);
  int diff = 0;
  for (int b = 0; b < 2; b++)
    for (int k = 0; k < 4; k++) diff += f64 ? q0[b * 4 + k] != p0[b * n + k] : qf[b * 4 + k] != pf0[b * n + k];
  CHECK_MSG(diff == 0, "%s: %d prefix predictions depend on the prompt length", nnt_icl_attn_names[attn], diff);
  nnt_icl_gpt_free(m);
}

/* float32 against float64 with the same parameters; float32 at 1 and 2 threads bit for bit. */
static void test_precision_threads(void) {
  nnt_icl_gpt *m64 = new_model(NNT_ATTN_SOFTMAX, 1), *m32 = new_model(NNT_ATTN_SOFTMAX, 0);
  randomise(m64, 13);
  nnt_params *P64 = nnt_icl_gpt_params(m64), *P32 = nnt_icl_gpt_params(m32);
  for (int i = 0; i < P64->n; i++)
    for (size_t k = 0; k < P64->items[i]->value.numel; k++)
      nnt_tensor_set(&P32->items[i]->value, k, nnt_tensor_get(&P64->items[i]->value, k));
  int B = 3, n = 5;
  double xs[45], ys[15], p64[15], l64;
  float xf[45], yf[15], p32[15];
  nnt_rng r;
  nnt_rng_init(&r, 9, 0);
  nnt_rng_fill_normal_f64(&r, xs, 45, 0, 1), nnt_rng_fill_normal_f64(&r, ys, 15, 0, 1);
  for (int i = 0; i < 45; i++) xf[i] = (float)xs[i], xs[i] = xf[i];
  for (int i = 0; i < 15; i++) yf[i] = (float)ys[i], ys[i] = yf[i];
  nnt_icl_gpt_forward(m64, xs, ys, B, n, p64);
  CHECK(nnt_icl_gpt_predict(m32, xf, yf, B, n, p32) == NNT_OK);
  double err = 0, scale = 0;
  for (int i = 0; i < 15; i++) err = fmax(err, fabs(p32[i] - p64[i])), scale = fmax(scale, fabs(p64[i]));
  CHECK_MSG(err < 1e-4 * (1 + scale), "float32 vs float64 predictions differ by %g", err);
  nnt_icl_gpt_loss_grad(m64, xs, ys, B, n, &l64);
  size_t ng;
  double *g64 = nnt_params_flat_grad_f64(P64, &ng);
  float *g32 = nnt_params_flat_grad_f32(P32, &ng);
  float *g1 = malloc(sizeof(float) * ng);
  double l1, l2;
  nnt_threads_set(1);
  nnt_icl_gpt_loss_grad(m32, xf, yf, B, n, &l1);
  memcpy(g1, g32, sizeof(float) * ng);
  nnt_threads_set(2);
  nnt_icl_gpt_loss_grad(m32, xf, yf, B, n, &l2);
  nnt_threads_set(1);
  CHECK(l1 == l2 && !memcmp(g1, g32, sizeof(float) * ng));
  double gerr = 0, gmax = 0;
  for (size_t i = 0; i < ng; i++) gerr = fmax(gerr, fabs(g32[i] - g64[i])), gmax = fmax(gmax, fabs(g64[i]));
  CHECK_MSG(gerr < 1e-3 * gmax && fabs(l1 - l64) < 1e-4 * (1 + l64), "float32 gradients off by %g (max %g)", gerr, gmax);
  free(g1);
  nnt_icl_gpt_free(m64), nnt_icl_gpt_free(m32);
}

/* Shapes and errors: the paper's model (App. G: hidden and MLP 256) has 12 × 395,776 block
 * parameters; with GPT-2's MLP of 4E, the spec's count (acceptance 15), 12 × 789,760; the HF init. */
static void test_shapes_init(void) {
  nnt_icl_train_cfg c;
  nnt_icl_train_cfg_default(&c, NNT_ICL_PRESET_PAPER);
  CHECK(c.arch.mlp == 256 && c.arch.n_embd == 256 && c.arch.n_layer == 12 && c.arch.n_head == 8);
  for (int mlp = 0; mlp <= 256; mlp += 256) { /* 0: 4E */
    nnt_icl_gpt_arch a = c.arch;
    a.mlp = mlp;
    nnt_icl_gpt *g = NULL;
    CHECK(nnt_icl_gpt_new(&a, &c.task, 0, &g) == NNT_OK);
    nnt_params *Q = nnt_icl_gpt_params(g);
    size_t blk = 0;
    for (int i = 0; i < Q->n; i++)
      if (Q->items[i]->name[0] == 'h') blk += Q->items[i]->value.numel;
    CHECK_MSG(blk == 12 * (size_t)(mlp ? 395776 : 789760), "MLP %d: %zu block parameters", mlp, blk);
    nnt_icl_gpt_free(g);
  }
  c.arch.mlp = 0;
  nnt_icl_gpt *m = NULL;
  CHECK(nnt_icl_gpt_new(&c.arch, &c.task, 0, &m) == NNT_OK);
  nnt_params *P = nnt_icl_gpt_params(m);
  size_t block = 0;
  for (int i = 0; i < P->n; i++)
    if (P->items[i]->name[0] == 'h') block += P->items[i]->value.numel;
  CHECK(block == 12 * (size_t)789760);
  CHECK(c.arch.n_pos >= 2 * 76); /* acceptance 19: eval's 76-point prompts fit */
  nnt_icl_gpt_init(m, 1);
  double s2 = 0, sp = 0;
  nnt_param *w = nnt_params_find(P, "h3.attn.c_attn.weight"), *pr = nnt_params_find(P, "h3.mlp.c_proj.weight");
  for (size_t k = 0; k < w->value.numel; k++) s2 += pow(nnt_tensor_get(&w->value, k), 2);
  for (size_t k = 0; k < pr->value.numel; k++) sp += pow(nnt_tensor_get(&pr->value, k), 2);
  CHECK_CLOSE(sqrt(s2 / w->value.numel), 0.02, 0.01);
  CHECK_CLOSE(sqrt(sp / pr->value.numel), 0.02 / sqrt(24), 0.01);
  nnt_param *ri = nnt_params_find(P, "read_in.weight");
  double mx = 0;
  for (size_t k = 0; k < ri->value.numel; k++) mx = fmax(mx, fabs(nnt_tensor_get(&ri->value, k)));
  CHECK(mx <= 1 / sqrt(20.0) && mx > 0.9 / sqrt(20.0));
  CHECK(nnt_tensor_get(&nnt_params_find(P, "h0.ln_1.weight")->value, 7) == 1);
  nnt_icl_gpt_free(m);
  nnt_icl_task t;
  nnt_icl_task_default(&t, 4, 10, 3);
  nnt_icl_gpt_arch a = small_arch(NNT_ATTN_SOFTMAX);
  CHECK(nnt_icl_gpt_new(&a, &t, 0, &m) == NNT_EINVAL && !m); /* d 3 vs 4 */
  t.d = 3;
  CHECK(nnt_icl_gpt_new(&a, &t, 0, &m) == NNT_EINVAL); /* 10 points need 20 > 16 slots */
  a.n_head = 3;
  t.n = 4;
  CHECK(nnt_icl_gpt_new(&a, &t, 0, &m) == NNT_EINVAL); /* 8 % 3 */
  m = new_model(NNT_ATTN_RELU, 0);
  float x[27] = {0}, y[9] = {0}, p[9];
  CHECK(nnt_icl_gpt_predict(m, x, y, 1, 9, p) == NNT_EINVAL); /* 18 tokens > 16 slots */
  CHECK(nnt_icl_gpt_predict(m, x, y, 1, 8, p) == NNT_OK);
  nnt_icl_gpt_free(m);
}

int main(void) {
  nnt_threads_set(1);
  test_gradients(NNT_ATTN_SOFTMAX);
  test_gradients(NNT_ATTN_RELU);
  for (int f64 = 0; f64 <= 1; f64++) test_causality(NNT_ATTN_SOFTMAX, f64), test_causality(NNT_ATTN_RELU, f64);
  test_precision_threads();
  test_shapes_init();
  TEST_MAIN_END();
}
