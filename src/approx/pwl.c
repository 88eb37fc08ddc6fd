/* pwl.c — exact piecewise-linear sweep of 1-D ReLU networks (Def 4.8, Lemmas 4.9/4.11).
 *
 * Instead of materialising every unit's breakpoints (memory proportional to the pieces), the sweep
 * walks x from left to right. On each activation-pattern region every unit is an affine function
 * a x + c of the input, so the region ends at the nearest zero crossing of a ReLU pre-activation.
 * Only layers at or after the crossing unit's layer are recomputed (earlier layers keep their
 * pattern), so the cost per region is a few layers, not the whole net. Memory is O(units).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_dmath.h"
#include "nnt_error.h"

/* Roots within this relative distance of the current point count as "at" it (the pattern just
 * right of x is then decided by the slope). Breakpoints of the book's constructions are dyadic, so
 * exact; for general nets this is the resolution of the engine. */
#define ROOT_TOL 1e-13
/* Consecutive regions whose slopes agree to this relative tolerance form one affine piece
 * (networks are continuous, so equal slopes mean equal affine functions). */
#define SLOPE_TOL 1e-12

typedef struct {
  const nnt_mlp *m;
  double **ya, **yc; /* outputs of each layer as affine functions of x: y = ya x + yc */
  double *root;      /* per layer: nearest zero crossing to the right of the current point */
} sweep;

struct nnt_approx_pwl_iter {
  sweep s[2];
  int ns;
  double lo, hi, x; /* current point */
  int done, have_pending;
  long regions;
  nnt_approx_piece pending;
  double pending_mag;
};

static int check_net(const nnt_mlp *m, const char *name) {
  if (!m || m->nlayers < 1) return nnt_fail(NNT_EINVAL, "%s: empty network", name);
  if (nnt_mlp_input_dim(m) != 1 || nnt_mlp_output_dim(m) != 1)
    return nnt_fail(NNT_EINVAL, "%s: the exact PWL engine needs a 1-D input and output (got %d -> %d)", name,
                    nnt_mlp_input_dim(m), nnt_mlp_output_dim(m));
  for (int l = 0; l < m->nlayers; l++)
    if (m->layers[l].act != NNT_ACT_RELU && m->layers[l].act != NNT_ACT_IDENTITY)
      return nnt_fail(NNT_EINVAL, "%s: layer %d has activation %s; the PWL engine takes relu/identity only", name,
                      l, nnt_act_name(m->layers[l].act));
  return NNT_OK;
}

static void sweep_init(sweep *s, const nnt_mlp *m) {
  s->m = m;
  s->ya = nnt_xmalloc(sizeof(double *) * m->nlayers);
  s->yc = nnt_xmalloc(sizeof(double *) * m->nlayers);
  s->root = nnt_xmalloc(sizeof(double) * m->nlayers);
  for (int l = 0; l < m->nlayers; l++) {
    s->ya[l] = nnt_xmalloc(sizeof(double) * m->layers[l].out);
    s->yc[l] = nnt_xmalloc(sizeof(double) * m->layers[l].out);
  }
}

static void sweep_free(sweep *s) {
  if (!s->m) return;
  for (int l = 0; l < s->m->nlayers; l++) free(s->ya[l]), free(s->yc[l]);
  free(s->ya), free(s->yc), free(s->root);
}

/* Recomputes layers l0.. for the pattern just right of x (x = -inf allowed). */
static void sweep_from(sweep *s, int l0, double x) {
  static const double one = 1, zero = 0;
  double tol = isinf(x) ? 0 : ROOT_TOL * fmax(1, fabs(x));
  for (int l = l0; l < s->m->nlayers; l++) {
    const nnt_mlp_layer *L = &s->m->layers[l];
    const double *pa = l ? s->ya[l - 1] : &one, *pc = l ? s->yc[l - 1] : &zero;
    double next = INFINITY;
    for (int u = 0; u < L->out; u++) {
      const double *w = L->W + (size_t)u * L->in;
      double za = 0, zc = L->b[u];
      for (int i = 0; i < L->in; i++) za += w[i] * pa[i], zc += w[i] * pc[i];
      if (L->act == NNT_ACT_RELU) {
        int on;
        if (za == 0) on = zc > 0;
        else {
          double r = -zc / za;
          if (isinf(x)) {
            on = za < 0;
            next = fmin(next, r);
          } else if (fabs(r - x) <= tol) on = za > 0;
          else {
            on = za > 0 ? r < x : r > x;
            if (r > x) next = fmin(next, r);
          }
        }
        if (!on) za = zc = 0;
      }
      s->ya[l][u] = za, s->yc[l][u] = zc;
    }
    s->root[l] = next;
  }
}

static double sweep_next(const sweep *s) {
  double r = INFINITY;
  for (int l = 0; l < s->m->nlayers; l++) r = fmin(r, s->root[l]);
  return r;
}

/* Moves the sweep to x1 (its nearest crossing or another net's): recompute from the first layer
 * with a crossing at x1. */
static void sweep_advance(sweep *s, double x1) {
  double tol = ROOT_TOL * fmax(1, fabs(x1));
  for (int l = 0; l < s->m->nlayers; l++)
    if (s->root[l] <= x1 + tol) {
      sweep_from(s, l, x1);
      return;
    }
}

int nnt_approx_pwl_open(nnt_approx_pwl_iter **out, const nnt_mlp *f, const nnt_mlp *g, double lo, double hi) {
  int st = check_net(f, "f");
  if (!st && g) st = check_net(g, "g");
  if (st) return st;
  if (!(lo < hi) || isnan(lo) || isnan(hi)) return nnt_fail(NNT_EINVAL, "PWL interval [%g, %g] is empty", lo, hi);
  nnt_approx_pwl_iter *it = nnt_xcalloc(1, sizeof *it);
  it->ns = g ? 2 : 1;
  sweep_init(&it->s[0], f);
  if (g) sweep_init(&it->s[1], g);
  it->lo = lo, it->hi = hi, it->x = lo;
  for (int k = 0; k < it->ns; k++) sweep_from(&it->s[k], 0, lo);
  *out = it;
  return NNT_OK;
}

void nnt_approx_pwl_close(nnt_approx_pwl_iter *it) {
  if (!it) return;
  for (int k = 0; k < it->ns; k++) sweep_free(&it->s[k]);
  free(it);
}

long nnt_approx_pwl_regions(const nnt_approx_pwl_iter *it) { return it->regions; }

/* Next activation-pattern region [x, x1] with the output's affine function; 0 at the end. */
static int next_region(nnt_approx_pwl_iter *it, nnt_approx_piece *p, double *mag) {
  if (it->done) return 0;
  double x1 = it->hi;
  for (int k = 0; k < it->ns; k++) x1 = fmin(x1, sweep_next(&it->s[k]));
  const sweep *f = &it->s[0];
  int last = f->m->nlayers - 1;
  p->x0 = it->x, p->x1 = x1;
  p->a = f->ya[last][0], p->c = f->yc[last][0];
  *mag = fabs(p->a);
  if (it->ns == 2) {
    const sweep *g = &it->s[1];
    int gl = g->m->nlayers - 1;
    p->a -= g->ya[gl][0], p->c -= g->yc[gl][0];
    *mag = fmax(*mag, fabs(g->ya[gl][0]));
  }
  it->regions++;
  if (x1 >= it->hi) it->done = 1;
  else {
    for (int k = 0; k < it->ns; k++) sweep_advance(&it->s[k], x1);
    it->x = x1;
  }
  return 1;
}

int nnt_approx_pwl_next(nnt_approx_pwl_iter *it, nnt_approx_piece *p) {
  nnt_approx_piece r;
  double mag;
  while (next_region(it, &r, &mag)) {
    if (!it->have_pending) {
      it->pending = r, it->pending_mag = mag, it->have_pending = 1;
      continue;
    }
    if (fabs(r.a - it->pending.a) <= SLOPE_TOL * fmax(mag, it->pending_mag)) {
      it->pending.x1 = r.x1; /* same affine function: extend */
      continue;
    }
    *p = it->pending;
    it->pending = r, it->pending_mag = mag;
    return 1;
  }
  if (!it->have_pending) return 0;
  *p = it->pending;
  it->have_pending = 0;
  return 1;
}

int nnt_approx_pwl_summarize(const nnt_mlp *f, const nnt_mlp *g, double lo, double hi, nnt_approx_pwl_summary *s) {
  nnt_approx_pwl_iter *it;
  int st = nnt_approx_pwl_open(&it, f, g, lo, hi);
  if (st) return st;
  memset(s, 0, sizeof *s);
  nnt_dmath_dd I = {0, 0}, I1 = {0, 0}, I2 = {0, 0};
  double fmin_ = INFINITY, fmax_ = -INFINITY;
  int finite = isfinite(lo) && isfinite(hi);
  nnt_approx_piece p;
  while (nnt_approx_pwl_next(it, &p)) {
    s->pieces++;
    double f0 = isinf(p.x0) ? (p.a == 0 ? p.c : (p.a > 0 ? -INFINITY : INFINITY)) : p.a * p.x0 + p.c;
    double f1 = isinf(p.x1) ? (p.a == 0 ? p.c : (p.a > 0 ? INFINITY : -INFINITY)) : p.a * p.x1 + p.c;
    fmin_ = fmin(fmin_, fmin(f0, f1));
    fmax_ = fmax(fmax_, fmax(f0, f1));
    if (!finite) continue;
    /* in double-double: the length, the sums and the products exact, one rounding per division */
    nnt_dmath_dd len = nnt_dmath_dd_add_d(nnt_dmath_dd_of(p.x1), -p.x0), sum = nnt_dmath_dd_add_d(nnt_dmath_dd_of(f0), f1);
    nnt_dmath_dd sq = nnt_dmath_dd_add_prod(nnt_dmath_dd_add_prod(nnt_dmath_dd_add_prod((nnt_dmath_dd){0, 0}, f0, f0), f0, f1), f1, f1);
    I = nnt_dmath_dd_add(I, nnt_dmath_dd_mul_d(nnt_dmath_dd_mul(len, sum), 0.5));
    I2 = nnt_dmath_dd_add(I2, nnt_dmath_dd_div(nnt_dmath_dd_mul(len, sq), nnt_dmath_dd_of(3)));
    if ((f0 >= 0) == (f1 >= 0) || f0 == 0 || f1 == 0) {
      nnt_dmath_dd abs_sum = sum.hi < 0 ? nnt_dmath_dd_neg(sum) : sum;
      I1 = nnt_dmath_dd_add(I1, nnt_dmath_dd_mul_d(nnt_dmath_dd_mul(len, abs_sum), 0.5));
    } else {
      nnt_dmath_dd sq2 = nnt_dmath_dd_add_prod(nnt_dmath_dd_add_prod((nnt_dmath_dd){0, 0}, f0, f0), f1, f1);
      nnt_dmath_dd den = nnt_dmath_dd_mul_d(nnt_dmath_dd_add_d(nnt_dmath_dd_of(fabs(f0)), fabs(f1)), 2);
      I1 = nnt_dmath_dd_add(I1, nnt_dmath_dd_div(nnt_dmath_dd_mul(len, sq2), den));
    }
  }
  s->regions = it->regions;
  nnt_approx_pwl_close(it);
  s->integral = finite ? nnt_dmath_dd_value(I) : NAN;
  s->l1 = finite ? nnt_dmath_dd_value(I1) : NAN;
  s->l2sq = finite ? nnt_dmath_dd_value(I2) : NAN;
  s->fmin = fmin_, s->fmax = fmax_;
  s->sup_abs = fmax(fabs(fmin_), fabs(fmax_));
  return NNT_OK;
}

long nnt_approx_pwl_collect(const nnt_mlp *f, const nnt_mlp *g, double lo, double hi, nnt_approx_piece *out, long max) {
  nnt_approx_pwl_iter *it;
  if (nnt_approx_pwl_open(&it, f, g, lo, hi)) return -1;
  long n = 0;
  nnt_approx_piece p;
  while (nnt_approx_pwl_next(it, &p)) {
    if (n == max) {
      nnt_approx_pwl_close(it);
      nnt_fail(NNT_EINVAL, "more than %ld pieces", max);
      return -1;
    }
    out[n++] = p;
  }
  nnt_approx_pwl_close(it);
  return n;
}

int nnt_approx_square_error_of(const nnt_mlp *f, nnt_approx_square_error *e) {
  nnt_approx_pwl_iter *it;
  int st = nnt_approx_pwl_open(&it, f, NULL, 0, 1);
  if (st) return st;
  nnt_approx_piece p;
  nnt_dmath_dd L2 = {0, 0};
  e->sup = 0, e->min = INFINITY, e->pieces = 0;
  while (nnt_approx_pwl_next(it, &p)) {
    /* e(x) = e0 (1-t) + e1 t + len^2 t (1-t) on the piece, x = x0 + t len: the maximum is at ts */
    double len = p.x1 - p.x0, e0 = p.a * p.x0 + p.c - p.x0 * p.x0, e1 = p.a * p.x1 + p.c - p.x1 * p.x1;
    double ts = fmin(1, fmax(0, 0.5 + (e1 - e0) / (2 * len * len)));
    double em = e0 * (1 - ts) + e1 * ts + len * len * ts * (1 - ts);
    e->sup = fmax(e->sup, fmax(em, fmax(fabs(e0), fabs(e1))));
    e->min = fmin(e->min, fmin(e0, e1)); /* concave: the minimum is at an end */
    L2 = nnt_dmath_dd_add_prod(L2, len, (e0 * e0 + e0 * e1 + e1 * e1) / 3 + len * len * (e0 + e1) / 6 + pow(len, 4) / 30);
    e->pieces++;
  }
  nnt_approx_pwl_close(it);
  e->l2sq = nnt_dmath_dd_value(L2);
  return NNT_OK;
}
