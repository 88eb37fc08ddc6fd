/* tern.c — the balanced-ternary cell codec: the decode table, codes, conversions, value sets. */
#include <math.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_rcnn_tern.h"

static int32_t pow3(int k) {
  int32_t r = 1;
  while (k-- > 0) r *= 3;
  return r;
}

/* The balanced remainder of n modulo 3^k, in [-(3^k-1)/2, (3^k-1)/2]. */
static int32_t bal_mod(int32_t n, int32_t p) {
  int32_t r = n % p, h = (p - 1) / 2;
  if (r > h) r -= p;
  if (r < -h) r += p;
  return r;
}

int nnt_rcnn_tern_nq_for(int nstates) {
  int nq = 1;
  while (pow3(nq) < nstates && nq < NNT_RCNN_TERN_MAX_NQ + 1) nq++;
  return nq;
}

int nnt_rcnn_tern_init(nnt_rcnn_tern *t, int nq) {
  if (nq < 1 || nq > NNT_RCNN_TERN_MAX_NQ)
    return nnt_fail(NNT_EINVAL, "ternary codec: need 1 <= state trits <= %d (got %d)", NNT_RCNN_TERN_MAX_NQ, nq);
  t->nq = nq, t->K = 3 + nq, t->scale = pow3(t->K), t->half = (pow3(t->K + 1) - 1) / 2;
  t->tab = malloc(sizeof *t->tab * (size_t)(2 * t->half + 1));
  if (!t->tab) return nnt_fail(NNT_ENOMEM, "ternary codec: out of memory for a %d-entry table", 2 * t->half + 1);
  int32_t ps = pow3(nq);
  for (int32_t n = -t->half; n <= t->half; n++) {
    int32_t code = bal_mod(n, ps), hi = (n - code) / ps; /* digits 0..3 as a 4-trit integer */
    nnt_rcnn_tern_digits *e = &t->tab[n + t->half];
    e->state = code;
    e->head = (signed char)bal_mod(hi, 3), hi = (hi - e->head) / 3;
    e->phase = (signed char)bal_mod(hi, 3), hi = (hi - e->phase) / 3;
    e->tape = (signed char)bal_mod(hi, 3), hi = (hi - e->tape) / 3;
    e->pad = (signed char)hi;
  }
  return NNT_OK;
}

void nnt_rcnn_tern_free(nnt_rcnn_tern *t) { free(t->tab), t->tab = NULL; }

int nnt_rcnn_tern_digit(const nnt_rcnn_tern *t, int32_t n, int i) {
  const nnt_rcnn_tern_digits *e = nnt_rcnn_tern_dec(t, n);
  switch (i) {
  case 0: return e->pad;
  case 1: return e->tape;
  case 2: return e->phase;
  case 3: return e->head;
  default: {
    int32_t c = e->state;
    for (int k = t->K; k > i; k--) c = (c - bal_mod(c, 3)) / 3;
    return (int)bal_mod(c, 3);
  }
  }
}

int32_t nnt_rcnn_tern_encode(const nnt_rcnn_tern *t, int pad, int tape, int phase, int head, int32_t code) {
  return (((pad * 3 + tape) * 3 + phase) * 3 + head) * pow3(t->nq) + code;
}

int32_t nnt_rcnn_tern_code(int q) { return q & 1 ? (q + 1) / 2 : -(q / 2); }
int nnt_rcnn_tern_state(int32_t code) { return code > 0 ? 2 * code - 1 : -2 * code; }

double nnt_rcnn_tern_to_double(const nnt_rcnn_tern *t, int32_t n) {
  return n == NNT_RCNN_TERN_P ? 1.0 / 6 : (double)n / t->scale;
}

int nnt_rcnn_tern_from_double(const nnt_rcnn_tern *t, double v, int32_t *n) {
  double s = v * t->scale, r = nearbyint(s);
  if (fabs(s - t->scale / 6.0) < 1e-9) return *n = NNT_RCNN_TERN_P, NNT_OK;
  if (fabs(s - r) > 1e-9 || fabs(r) > t->half)
    return nnt_fail(NNT_EINVAL, "%.17g is not a %d-digit balanced-ternary value nor p = 1/6", v, t->K + 1);
  *n = (int32_t)r;
  return NNT_OK;
}

void nnt_rcnn_tern_set_init(nnt_rcnn_tern_set *s, const nnt_rcnn_tern *t) {
  *s = (nnt_rcnn_tern_set){t, nnt_xcalloc((size_t)(2 * t->half + 1), 1), 0, 0};
}

void nnt_rcnn_tern_set_free(nnt_rcnn_tern_set *s) { free(s->in), s->in = NULL; }

int nnt_rcnn_tern_set_add(nnt_rcnn_tern_set *s, int32_t n) {
  if (n == NNT_RCNN_TERN_P) return s->count += !s->has_p, s->has_p = 1, NNT_OK;
  if (!nnt_rcnn_tern_dec(s->t, n)) return nnt_fail(NNT_EINVAL, "value %d/3^%d is outside the codec's range", n, s->t->K);
  s->count += !s->in[n + s->t->half];
  s->in[n + s->t->half] = 1;
  return NNT_OK;
}

int nnt_rcnn_tern_set_has(const nnt_rcnn_tern_set *s, int32_t n) {
  if (n == NNT_RCNN_TERN_P) return s->has_p;
  return nnt_rcnn_tern_dec(s->t, n) && s->in[n + s->t->half];
}

int nnt_rcnn_tern_set_within(const nnt_rcnn_tern_set *a, const nnt_rcnn_tern_set *b) {
  if (a->has_p && !b->has_p) return 0;
  for (int32_t i = 0; i <= 2 * a->t->half; i++)
    if (a->in[i] && !b->in[i]) return 0;
  return 1;
}

void nnt_rcnn_tern_universe(nnt_rcnn_tern_set *s, const nnt_rcnn_tern *t, int nstates) {
  nnt_rcnn_tern_set_init(s, t);
  int32_t third = t->scale / 3, ninth = third / 3;
  const int32_t fixed[] = {NNT_RCNN_TERN_P, 0, third, -third, t->scale, -ninth};
  for (int i = 0; i < 6; i++) nnt_rcnn_tern_set_add(s, fixed[i]);
  const int32_t compute[] = {ninth, ninth + third, ninth - third, ninth + t->scale};
  for (int i = 0; i < 4; i++) {
    nnt_rcnn_tern_set_add(s, compute[i]);
    for (int q = 0; q < nstates; q++) nnt_rcnn_tern_set_add(s, compute[i] + ninth / 3 + nnt_rcnn_tern_code(q));
  }
}
