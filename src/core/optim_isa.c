/* Optimizers. The update kernels are compiled once per instruction-set level (nnt_cpu.h) and run
 * over the registry's flat value, grad and state blocks, one loop per dtype section; the float32
 * Adam kernel is written with 256-bit vectors because the compiler keeps sqrtf scalar (errno).
 * Every level performs the same IEEE operations per element, so the levels agree bit for bit. */
#include "nnt_optim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_simd.h"
#include "nnt_dmath.h"

#define NNT_REAL_BITS 32
#include "nnt_real.h"
#include "optim.inc"
#undef NNT_REAL_BITS
#define NNT_REAL_BITS 64
#include "nnt_real.h"
#include "optim.inc"
#undef NNT_REAL_BITS
#include "nnt_real.h"

/* adam_f32, eight lanes at a time with the same operations in the same order. */
static void adam_f32_vec(float *p, const float *grad, float *m, float *v, size_t n, const nnt_optim_config *c,
                         long long t) {
  const adam_k_f32 k = adam_scalars_f32(c, t);
  const int decoupled = k.decoupled, l2 = k.l2, small_w = k.small_w;
  const __m256 vshrink = _mm256_set1_ps(k.shrink), vl2 = _mm256_set1_ps(k.l2wd), vb1 = _mm256_set1_ps(k.b1);
  const __m256 vb2 = _mm256_set1_ps(k.b2), vob1 = _mm256_set1_ps(k.one_b1), vob2 = _mm256_set1_ps(k.one_b2);
  const __m256 vbc2 = _mm256_set1_ps(k.bc2_sqrt), veps = _mm256_set1_ps(k.eps), vstep = _mm256_set1_ps(k.step_size);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 pi = _mm256_loadu_ps(p + i), gi = _mm256_loadu_ps(grad + i);
    __m256 mi = _mm256_loadu_ps(m + i), vi = _mm256_loadu_ps(v + i);
    if (decoupled) pi = _mm256_mul_ps(pi, vshrink);
    if (l2) gi = _mm256_add_ps(gi, _mm256_mul_ps(vl2, pi));
    mi = small_w ? _mm256_add_ps(mi, _mm256_mul_ps(vob1, _mm256_sub_ps(gi, mi)))
                 : _mm256_sub_ps(gi, _mm256_mul_ps(_mm256_sub_ps(gi, mi), vb1));
    vi = _mm256_add_ps(_mm256_mul_ps(vi, vb2), _mm256_mul_ps(_mm256_mul_ps(vob2, gi), gi));
    __m256 den = _mm256_add_ps(_mm256_div_ps(_mm256_sqrt_ps(vi), vbc2), veps);
    pi = _mm256_sub_ps(pi, _mm256_div_ps(_mm256_mul_ps(vstep, mi), den));
    _mm256_storeu_ps(p + i, pi), _mm256_storeu_ps(m + i, mi), _mm256_storeu_ps(v + i, vi);
  }
  adam_f32(p, grad, m, v, i, n, &k);
}

/* One step over the flat blocks (the registry's values and grads, the optimizer's m and v). */
void NNT_ISA_FN(nnt_optim_step_flat)(nnt_optim *o) {
  const nnt_optim_config *c = &o->cfg;
  const nnt_params *P = o->params;
  size_t n32, n64;
  float *p32 = nnt_params_flat_f32(P, &n32), *g32 = nnt_params_flat_grad_f32(P, &n32);
  double *p64 = nnt_params_flat_f64(P, &n64), *g64 = nnt_params_flat_grad_f64(P, &n64);
  /* the state blocks repeat the value block's layout */
  float *m32 = o->m, *v32 = o->v;
  double *m64 = o->m ? (double *)((char *)o->m + P->off64) : NULL;
  double *v64 = o->v ? (double *)((char *)o->v + P->off64) : NULL;
  if (c->kind == NNT_OPT_SGD) {
    sgd_f32(p32, g32, m32, n32, c, o->step == 1);
    sgd_f64(p64, g64, m64, n64, c, o->step == 1);
  } else {
    adam_f32_vec(p32, g32, m32, v32, n32, c, o->step);
    const adam_k_f64 k = adam_scalars_f64(c, o->step);
    adam_f64(p64, g64, m64, v64, 0, n64, &k);
  }
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_optim_step_flat, (nnt_optim *));

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
  if (P->n && !P->values) {
    fprintf(stderr, "nnt: nnt_optim_init before nnt_params_alloc\n");
    abort(); /* caller misuse of the parameter API, never input */
  }
  o->cfg = cfg;
  o->params = P;
  o->step = 0;
  o->m = nnt_optim_has_m(&cfg) ? nnt_params_block_new(P) : NULL;
  o->v = nnt_optim_has_v(&cfg) ? nnt_params_block_new(P) : NULL;
  return NNT_OK;
}

void nnt_optim_free(nnt_optim *o) {
  free(o->m);
  free(o->v);
  o->m = o->v = NULL;
}

/* The update runs with subnormals flushed to zero (x86's FTZ and DAZ): a parameter whose gradient
 * stays zero (a dead ReLU unit's weights) has its first moment shrink by beta1 each step, into the
 * subnormal range within about 800 steps, and every subnormal operand or result then costs the
 * core a microcode assist: the FFN's qSTR sweep spent a quarter of its time there. The flush can
 * change a result only through |p| or |g| below about 1e-26 (an eps-dominated denominator absorbs a
 * subnormal moment), and it is the same at every instruction-set level. */
void nnt_optim_step(nnt_optim *o) {
  o->step++;
#if defined(__x86_64__) || defined(__i386__)
  unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040); /* FTZ (bit 15) and DAZ (bit 6) */
  NNT_ISA_PICK(nnt_optim_step_flat)(o);
  _mm_setcsr(csr);
#else
  NNT_ISA_PICK(nnt_optim_step_flat)(o);
#endif
}
#endif
