#include "nnt_optim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "nnt_error.h"

nnt_optim_config nnt_sgd_defaults(double lr) {
  return (nnt_optim_config){.kind = NNT_OPT_SGD, .lr = lr, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8};
}

nnt_optim_config nnt_adam_defaults(void) {
  return (nnt_optim_config){.kind = NNT_OPT_ADAM, .lr = 1e-3, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8};
}

nnt_optim_config nnt_adamw_defaults(void) {
  nnt_optim_config c = nnt_adam_defaults();
  c.kind = NNT_OPT_ADAMW;
  c.weight_decay = 0.01;
  return c;
}

const char *nnt_optim_kind_name(nnt_optim_kind k) {
  switch (k) {
    case NNT_OPT_SGD: return "sgd";
    case NNT_OPT_ADAM: return "adam";
    case NNT_OPT_ADAMW: return "adamw";
  }
  return "?";
}

int nnt_optim_has_m(const nnt_optim_config *c) { return c->kind != NNT_OPT_SGD || c->momentum != 0; }
int nnt_optim_has_v(const nnt_optim_config *c) { return c->kind != NNT_OPT_SGD; }

int nnt_optim_check(const nnt_optim_config *c) {
  const char *k = nnt_optim_kind_name(c->kind);
  if (c->kind != NNT_OPT_SGD && c->kind != NNT_OPT_ADAM && c->kind != NNT_OPT_ADAMW)
    return nnt_fail(NNT_EINVAL, "unknown optimizer kind %d", (int)c->kind);
  if (!(c->lr >= 0) || !isfinite(c->lr)) return nnt_fail(NNT_EINVAL, "%s: learning rate %g must be >= 0", k, c->lr);
  if (!(c->weight_decay >= 0) || !isfinite(c->weight_decay))
    return nnt_fail(NNT_EINVAL, "%s: weight decay %g must be >= 0", k, c->weight_decay);
  if (c->kind == NNT_OPT_SGD) {
    if (!(c->momentum >= 0) || !isfinite(c->momentum)) return nnt_fail(NNT_EINVAL, "sgd: momentum %g must be >= 0", c->momentum);
    if (!isfinite(c->dampening)) return nnt_fail(NNT_EINVAL, "sgd: dampening %g must be finite", c->dampening);
    if (c->nesterov && (c->momentum <= 0 || c->dampening != 0))
      return nnt_fail(NNT_EINVAL, "sgd: nesterov needs momentum > 0 and dampening 0 (momentum %g, dampening %g)",
                      c->momentum, c->dampening);
  } else {
    if (!(c->beta1 >= 0 && c->beta1 < 1)) return nnt_fail(NNT_EINVAL, "%s: beta1 %g must be in [0, 1)", k, c->beta1);
    if (!(c->beta2 >= 0 && c->beta2 < 1)) return nnt_fail(NNT_EINVAL, "%s: beta2 %g must be in [0, 1)", k, c->beta2);
    if (!(c->eps >= 0) || !isfinite(c->eps)) return nnt_fail(NNT_EINVAL, "%s: eps %g must be >= 0", k, c->eps);
  }
  return NNT_OK;
}

int nnt_optim_init(nnt_optim *o, nnt_params *P, nnt_optim_config cfg) {
  int st = nnt_optim_check(&cfg);
  if (st) return st;
  o->cfg = cfg;
  o->params = P;
  o->nparams = P->n;
  o->step = 0;
  o->m = nnt_xcalloc((size_t)P->n, sizeof *o->m);
  o->v = nnt_xcalloc((size_t)P->n, sizeof *o->v);
  for (int i = 0; i < P->n; i++) {
    const nnt_tensor *t = &P->items[i]->value;
    if (nnt_optim_has_m(&cfg)) nnt_tensor_alloc(&o->m[i], t->dtype, t->ndim, t->shape);
    if (nnt_optim_has_v(&cfg)) nnt_tensor_alloc(&o->v[i], t->dtype, t->ndim, t->shape);
  }
  return NNT_OK;
}

void nnt_optim_free(nnt_optim *o) {
  for (int i = 0; i < o->nparams; i++) {
    nnt_tensor_free(&o->m[i]);
    nnt_tensor_free(&o->v[i]);
  }
  free(o->m);
  free(o->v);
  o->m = o->v = NULL;
  o->nparams = 0;
}

/* The same update written once per dtype: T is float or double, and every literal and scalar is
 * first converted to T, so float32 parameters see float32 arithmetic as in PyTorch on CPU. */
#define NNT_SGD_STEP(T)                                                                  \
  static void sgd_##T(T *p, const T *grad, T *buf, size_t n, const nnt_optim_config *c, \
                      int first) {                                                       \
    const T lr = (T)c->lr, wd = (T)c->weight_decay, mom = (T)c->momentum;                \
    const T damp = (T)(1 - c->dampening);                                                \
    const int decay = c->weight_decay != 0, use_mom = c->momentum != 0, nest = c->nesterov; \
    for (size_t i = 0; i < n; i++) {                                                     \
      T g = grad[i];                                                                     \
      if (decay) g = g + wd * p[i];                                                      \
      if (use_mom) {                                                                     \
        buf[i] = first ? g : mom * buf[i] + damp * g;                                    \
        g = nest ? g + mom * buf[i] : buf[i];                                            \
      }                                                                                  \
      p[i] = p[i] - lr * g;                                                              \
    }                                                                                    \
  }

#define NNT_ADAM_STEP(T, SQRT)                                                                       \
  static void adam_##T(T *p, const T *grad, T *m, T *v, size_t n, const nnt_optim_config *c,        \
                       long long t) {                                                               \
    const double bc1 = 1 - pow(c->beta1, (double)t), bc2 = 1 - pow(c->beta2, (double)t);             \
    const T step_size = (T)(c->lr / bc1), bc2_sqrt = (T)sqrt(bc2), eps = (T)c->eps;                 \
    const T b1 = (T)c->beta1, b2 = (T)c->beta2, one_b1 = (T)(1 - c->beta1), one_b2 = (T)(1 - c->beta2); \
    const int l2 = c->kind == NNT_OPT_ADAM && c->weight_decay != 0;                                  \
    const int decoupled = c->kind == NNT_OPT_ADAMW && c->weight_decay != 0;                          \
    const T l2wd = (T)c->weight_decay, shrink = (T)(1 - c->lr * c->weight_decay);                   \
    for (size_t i = 0; i < n; i++) {                                                                \
      T g = grad[i];                                                                                \
      if (decoupled) p[i] = p[i] * shrink;                                                          \
      if (l2) g = g + l2wd * p[i];                                                                  \
      m[i] = one_b1 < (T)0.5 ? m[i] + one_b1 * (g - m[i]) : g - (g - m[i]) * b1; /* torch lerp_ */ \
      v[i] = v[i] * b2 + one_b2 * g * g;                                /* mul_ then addcmul_ */      \
      T denom = SQRT(v[i]) / bc2_sqrt + eps;                                                        \
      p[i] = p[i] - step_size * m[i] / denom;                                                       \
    }                                                                                               \
  }

NNT_SGD_STEP(float)
NNT_SGD_STEP(double)
NNT_ADAM_STEP(float, sqrtf)
NNT_ADAM_STEP(double, sqrt)

void nnt_optim_step(nnt_optim *o) {
  if (o->params->n != o->nparams) {
    fprintf(stderr, "nnt: optimizer created for %d parameters, registry now has %d\n", o->nparams, o->params->n);
    abort();
  }
  o->step++;
  const nnt_optim_config *c = &o->cfg;
  for (int i = 0; i < o->nparams; i++) {
    nnt_param *q = o->params->items[i];
    size_t n = q->value.numel;
    int f32 = q->value.dtype == NNT_F32;
    if (c->kind == NNT_OPT_SGD) {
      if (f32) sgd_float(q->value.data, q->grad.data, o->m[i].data, n, c, o->step == 1);
      else sgd_double(q->value.data, q->grad.data, o->m[i].data, n, c, o->step == 1);
    } else {
      if (f32) adam_float(q->value.data, q->grad.data, o->m[i].data, o->v[i].data, n, c, o->step);
      else adam_double(q->value.data, q->grad.data, o->m[i].data, o->v[i].data, n, c, o->step);
    }
  }
}
