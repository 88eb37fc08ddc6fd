/* The flat arenas in use: an optimizer step over the registry's blocks equals, bit for bit, a
 * plain element-wise loop over each tensor (torch's operation order, written here independently
 * of optim_isa.c), for every optimizer and both dtypes, with tensor sizes that leave vector tails;
 * and a checkpoint of an arena registry restores the value and state blocks byte for byte. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "nnt_optim.h"
#include "nnt_test.h"

static void build(nnt_params *P) {
  nnt_params_init(P);
  nnt_params_add_f32(P, "a", 2, 13, 7); /* 91: not a multiple of 8 */
  nnt_params_add_f64(P, "b", 1, 5);
  nnt_params_add_f32(P, "c", 1, 3);
  nnt_params_add_f64(P, "d", 2, 4, 3);
  nnt_params_add_f32(P, "e", 3, 2, 3, 4);
  nnt_params_alloc(P);
}

/* The reference: one tensor at a time, element by element, in T's precision. */
#define REF_STEP(T, SQRT)                                                                                   \
  static void ref_##T(const nnt_optim_config *c, long long t, T *p, const T *g0, T *m, T *v, size_t n) {   \
    for (size_t i = 0; i < n; i++) {                                                                        \
      T g = g0[i];                                                                                          \
      if (c->kind == NNT_OPT_SGD) {                                                                         \
        if (c->weight_decay != 0) g = g + (T)c->weight_decay * p[i];                                        \
        if (c->momentum != 0) {                                                                             \
          m[i] = t == 1 ? g : (T)c->momentum * m[i] + (T)(1 - c->dampening) * g;                            \
          g = c->nesterov ? g + (T)c->momentum * m[i] : m[i];                                               \
        }                                                                                                   \
        p[i] = p[i] - (T)c->lr * g;                                                                         \
        continue;                                                                                           \
      }                                                                                                     \
      if (c->kind == NNT_OPT_ADAMW && c->weight_decay != 0) p[i] = p[i] * (T)(1 - c->lr * c->weight_decay); \
      if (c->kind == NNT_OPT_ADAM && c->weight_decay != 0) g = g + (T)c->weight_decay * p[i];               \
      T w = (T)(1 - c->beta1);                                                                              \
      m[i] = w < (T)0.5 ? m[i] + w * (g - m[i]) : g - (g - m[i]) * (T)c->beta1;                             \
      v[i] = v[i] * (T)c->beta2 + (T)(1 - c->beta2) * g * g;                                                \
      T denom = SQRT(v[i]) / (T)sqrt(1 - pow(c->beta2, (double)t)) + (T)c->eps;                            \
      p[i] = p[i] - (T)(c->lr / (1 - pow(c->beta1, (double)t))) * m[i] / denom;                            \
    }                                                                                                       \
  }
REF_STEP(float, sqrtf)
REF_STEP(double, sqrt)

/* A registry-shaped copy of the state, one malloc'd buffer per tensor. */
typedef struct {
  void *p[8], *m[8], *v[8];
} ref_state;

static void run(const char *what, nnt_optim_config c) {
  nnt_params P;
  build(&P);
  nnt_rng r;
  nnt_rng_init(&r, 11, 0);
  ref_state R;
  for (int i = 0; i < P.n; i++) {
    nnt_tensor *x = &P.items[i]->value;
    for (size_t k = 0; k < x->numel; k++) nnt_tensor_set(x, k, nnt_rng_normal(&r));
    size_t bytes = nnt_tensor_bytes(x);
    R.p[i] = malloc(bytes), R.m[i] = calloc(1, bytes), R.v[i] = calloc(1, bytes);
    memcpy(R.p[i], x->data, bytes);
  }
  nnt_optim o;
  CHECK(nnt_optim_init(&o, &P, c) == NNT_OK);
  for (long long t = 1; t <= 10; t++) {
    o.cfg.lr = c.lr = 0.05 / (double)t; /* a schedule */
    for (int i = 0; i < P.n; i++) {
      nnt_param *q = P.items[i];
      for (size_t k = 0; k < q->grad.numel; k++) nnt_tensor_set(&q->grad, k, nnt_rng_normal(&r) * (double)(1 + k % 5));
      if (q->value.dtype == NNT_F32) ref_float(&c, t, R.p[i], q->grad.data, R.m[i], R.v[i], q->value.numel);
      else ref_double(&c, t, R.p[i], q->grad.data, R.m[i], R.v[i], q->value.numel);
    }
    nnt_optim_step(&o);
  }
  int same = 1, moved = 0;
  for (int i = 0; i < P.n; i++) {
    const nnt_param *q = P.items[i];
    size_t bytes = nnt_tensor_bytes(&q->value);
    same &= !memcmp(q->value.data, R.p[i], bytes);
    if (o.m) same &= !memcmp((char *)o.m + q->offset, R.m[i], bytes);
    if (o.v) same &= !memcmp((char *)o.v + q->offset, R.v[i], bytes);
    moved |= nnt_tensor_get(&q->value, 0) != nnt_tensor_get(&q->grad, 0); /* not vacuous */
    free(R.p[i]), free(R.m[i]), free(R.v[i]);
  }
  CHECK_MSG(same && moved, "%s: arena step differs from the element-wise reference", what);
  nnt_optim_free(&o);
  nnt_params_free(&P);
}

int main(void) {
  nnt_optim_config c[7];
  const char *names[7] = {"sgd", "sgd momentum dampening wd", "sgd nesterov", "adam", "adam l2", "adamw",
                          "adamw beta1 0.3"};
  c[0] = nnt_sgd_defaults(0.05);
  c[1] = nnt_sgd_defaults(0.05), c[1].momentum = 0.8, c[1].dampening = 0.3, c[1].weight_decay = 0.1;
  c[2] = nnt_sgd_defaults(0.05), c[2].momentum = 0.9, c[2].nesterov = 1;
  c[3] = nnt_adam_defaults();
  c[4] = nnt_adam_defaults(), c[4].weight_decay = 0.3;
  c[5] = nnt_adamw_defaults(), c[5].weight_decay = 0.3;
  c[6] = nnt_adamw_defaults(), c[6].beta1 = 0.3, c[6].beta2 = 0.9; /* lerp's other form */
  for (int k = 0; k < 7; k++) run(names[k], c[k]);

  /* checkpoint round trip of the blocks */
  char dir[] = "/tmp/nnt_test_arena_XXXXXX", path[64];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/a.ckpt", dir);
  nnt_params P, Q;
  build(&P), build(&Q);
  nnt_optim po, qo;
  nnt_optim_init(&po, &P, c[5]), nnt_optim_init(&qo, &Q, c[5]);
  nnt_rng r;
  nnt_rng_init(&r, 12, 0);
  size_t n32, n64;
  float *v32 = nnt_params_flat_f32(&P, &n32), *g32 = nnt_params_flat_grad_f32(&P, &n32);
  double *v64 = nnt_params_flat_f64(&P, &n64), *g64 = nnt_params_flat_grad_f64(&P, &n64);
  nnt_rng_fill_normal_f32(&r, v32, n32, 0, 1), nnt_rng_fill_normal_f64(&r, v64, n64, 0, 1);
  for (int s = 0; s < 3; s++) {
    nnt_rng_fill_normal_f32(&r, g32, n32, 0, 1), nnt_rng_fill_normal_f64(&r, g64, n64, 0, 1);
    nnt_optim_step(&po);
  }
  CHECK(nnt_ckpt_save(path, "arena", &P, &po, 3, NULL) == NNT_OK);
  CHECK(nnt_ckpt_load(path, "arena", &Q, &qo, NULL, NULL) == NNT_OK);
  CHECK(!memcmp(P.values, Q.values, P.bytes) && !memcmp(po.m, qo.m, P.bytes) && !memcmp(po.v, qo.v, P.bytes));
  CHECK(qo.step == 3);
  nnt_optim_free(&po), nnt_optim_free(&qo);
  nnt_params_free(&P), nnt_params_free(&Q);
  unlink(path), rmdir(dir);
  TEST_MAIN_END();
}
