/* Parameter-space all-layer margin (eq. 2.1 of Wei, Chen & Ma) of an nnt_mlp: upper bounds from
 * explicit, re-checked perturbations. See nnt_circuits.h for the search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_error.h"

static long count_params(const nnt_mlp *m) {
  long p = 0;
  for (int l = 0; l < m->nlayers; l++) p += (long)m->layers[l].out * (m->layers[l].in + 1);
  return p;
}

static int max_width(const nnt_mlp *m) {
  int w = m->nlayers ? m->layers[0].in : 1;
  for (int l = 0; l < m->nlayers; l++) w = m->layers[l].out > w ? m->layers[l].out : w;
  return w;
}

double nnt_mlp_output_grad(const nnt_mlp *net, const double *x, int j, double *grad) {
  int d = net->nlayers, w = max_width(net);
  double **z = nnt_xmalloc(sizeof(double *) * (size_t)d), **a = nnt_xmalloc(sizeof(double *) * (size_t)d);
  for (int l = 0; l < d; l++) {
    const nnt_mlp_layer *L = &net->layers[l];
    const double *in = l ? a[l - 1] : x;
    z[l] = nnt_xmalloc(sizeof(double) * (size_t)L->out);
    a[l] = nnt_xmalloc(sizeof(double) * (size_t)L->out);
    for (int o = 0; o < L->out; o++) {
      const double *row = L->W + (size_t)o * L->in;
      double s = L->b[o];
      for (int i = 0; i < L->in; i++) s += row[i] * in[i];
      z[l][o] = s;
      a[l][o] = nnt_act_apply(L->act, s);
    }
  }
  double F = a[d - 1][j];
  double *g = nnt_xcalloc((size_t)w, sizeof(double)), *gn = nnt_xmalloc(sizeof(double) * (size_t)w);
  g[j] = 1;
  long off = count_params(net);
  for (int l = d - 1; l >= 0; l--) {
    const nnt_mlp_layer *L = &net->layers[l];
    const double *in = l ? a[l - 1] : x;
    off -= (long)L->out * (L->in + 1);
    double *gW = grad + off, *gb = gW + (size_t)L->out * L->in;
    for (int o = 0; o < L->out; o++) /* dF/dz: relu' = 1[z > 0], identity' = 1 */
      g[o] = L->act == NNT_ACT_RELU && !(z[l][o] > 0) ? 0 : g[o];
    memset(gn, 0, sizeof(double) * (size_t)L->in);
    for (int o = 0; o < L->out; o++) {
      const double *row = L->W + (size_t)o * L->in;
      double *grow = gW + (size_t)o * L->in;
      for (int i = 0; i < L->in; i++) grow[i] = g[o] * in[i], gn[i] += row[i] * g[o];
      gb[o] = g[o];
    }
    memcpy(g, gn, sizeof(double) * (size_t)L->in);
  }
  for (int l = 0; l < d; l++) free(z[l]), free(a[l]);
  free(z), free(a), free(g), free(gn);
  return F;
}

void nnt_margin_opts_default(nnt_margin_opts *o) {
  o->restarts = 4;
  o->steps = 40;
  o->bisections = 12;
  o->deepfool_its = 60;
  o->seed = 1;
}

typedef struct {
  const nnt_mlp *net;
  nnt_mlp work; /* net with theta + delta */
  const double *x;
  int j;
  double s; /* +1 for y = 1, -1 for y = 0: the decision flips when s * F <= 0 */
  long P, passes;
  double *theta, *grad, *out, *best;
  double best_norm;
} search;

static void set_params(search *S, const double *delta, double t) {
  long k = 0;
  for (int l = 0; l < S->work.nlayers; l++) {
    nnt_mlp_layer *L = &S->work.layers[l];
    size_t nw = (size_t)L->out * L->in;
    for (size_t i = 0; i < nw; i++, k++) L->W[i] = S->theta[k] + t * delta[k];
    for (int i = 0; i < L->out; i++, k++) L->b[i] = S->theta[k] + t * delta[k];
  }
}

/* s * F_j(x, theta + t delta) */
static double margin_fn(search *S, const double *delta, double t) {
  set_params(S, delta, t);
  nnt_mlp_forward(&S->work, S->x, S->out);
  S->passes++;
  return S->s * S->out[S->j];
}

static double margin_grad(search *S, const double *delta, double *g) {
  set_params(S, delta, 1);
  S->passes++;
  double F = nnt_mlp_output_grad(&S->work, S->x, S->j, g);
  for (long i = 0; i < S->P; i++) g[i] *= S->s;
  return S->s * F;
}

static double norm2(const double *v, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}

/* delta flips the decision: shrink it along its ray to the smallest checked flipping scale and
 * keep it if it beats the best so far. */
static void record(search *S, const double *delta) {
  if (margin_fn(S, delta, 1) > 0) return;
  double lo = 0, hi = 1;
  for (int it = 0; it < 30; it++) {
    double mid = 0.5 * (lo + hi);
    if (margin_fn(S, delta, mid) <= 0) hi = mid;
    else lo = mid;
  }
  double n = hi * norm2(delta, S->P);
  if (n < S->best_norm) {
    S->best_norm = n;
    for (long i = 0; i < S->P; i++) S->best[i] = hi * delta[i];
  }
}

/* DeepFool on the coordinates [lo, hi): linearise s*F and step to its zero, 5% beyond. */
static void deepfool(search *S, long lo, long hi, int its, double *delta) {
  memset(delta, 0, sizeof(double) * (size_t)S->P);
  for (int it = 0; it < its; it++) {
    double m = margin_grad(S, delta, S->grad);
    if (m <= 0) {
      record(S, delta);
      return;
    }
    double gg = 0;
    for (long i = lo; i < hi; i++) gg += S->grad[i] * S->grad[i];
    if (gg == 0) return;
    for (long i = lo; i < hi; i++) delta[i] -= 1.05 * m * S->grad[i] / gg;
  }
  if (margin_fn(S, delta, 1) <= 0) record(S, delta);
}

/* Projected gradient descent of s*F on the sphere ||delta|| = r from random starts. */
static int pgd_sphere(search *S, double r, const nnt_margin_opts *o, nnt_rng *rng, double *delta) {
  for (int rs = 0; rs < o->restarts; rs++) {
    nnt_rng_fill_normal_f64(rng, delta, (size_t)S->P, 0, 1);
    double n = norm2(delta, S->P);
    for (long i = 0; i < S->P; i++) delta[i] *= r / n;
    for (int it = 0; it < o->steps; it++) {
      double m = margin_grad(S, delta, S->grad);
      if (m <= 0) {
        record(S, delta);
        return 1;
      }
      double gn = norm2(S->grad, S->P), eta = 0.3 * r * (1 - (double)it / o->steps) + 0.02 * r;
      if (gn == 0) { /* flat: take a random step */
        nnt_rng_fill_normal_f64(rng, S->grad, (size_t)S->P, 0, 1);
        gn = -norm2(S->grad, S->P);
      }
      for (long i = 0; i < S->P; i++) delta[i] -= eta * S->grad[i] / gn;
      n = norm2(delta, S->P);
      for (long i = 0; i < S->P; i++) delta[i] *= r / n;
    }
    if (margin_fn(S, delta, 1) <= 0) {
      record(S, delta);
      return 1;
    }
  }
  return 0;
}

nnt_margin_result nnt_mlp_margin(const nnt_mlp *net, const double *x, int j, int y, const nnt_margin_opts *o) {
  nnt_margin_result res = {INFINITY, 0, -1, 0};
  search S = {0};
  S.net = net;
  nnt_mlp_copy(&S.work, net);
  S.x = x;
  S.j = j;
  S.s = y ? 1 : -1;
  S.P = count_params(net);
  S.theta = nnt_xmalloc(sizeof(double) * (size_t)S.P);
  S.grad = nnt_xmalloc(sizeof(double) * (size_t)S.P);
  S.best = nnt_xcalloc((size_t)S.P, sizeof(double));
  S.out = nnt_xmalloc(sizeof(double) * (size_t)max_width(net));
  S.best_norm = INFINITY;
  double *delta = nnt_xcalloc((size_t)S.P, sizeof(double));
  long k = 0;
  for (int l = 0; l < net->nlayers; l++) {
    const nnt_mlp_layer *L = &net->layers[l];
    memcpy(S.theta + k, L->W, sizeof(double) * (size_t)L->out * L->in);
    k += (long)L->out * L->in;
    memcpy(S.theta + k, L->b, sizeof(double) * (size_t)L->out);
    k += L->out;
  }
  double m0 = margin_fn(&S, delta, 0);
  res.output = S.out[j];
  if (m0 <= 0) {
    res.rho = 0;
  } else {
    deepfool(&S, 0, S.P, o->deepfool_its, delta);
    for (int l = 0, off = 0; l < net->nlayers; l++) {
      long n = (long)net->layers[l].out * (net->layers[l].in + 1);
      deepfool(&S, off, off + n, o->deepfool_its, delta);
      off += n;
    }
    nnt_rng rng;
    nnt_rng_init(&rng, o->seed, 1);
    double hi = S.best_norm;
    if (!isfinite(hi)) /* grow the radius until something flips */
      for (double r = 0.25; r <= 1024 && !isfinite(S.best_norm); r *= 2) pgd_sphere(&S, r, o, &rng, delta);
    hi = S.best_norm;
    double lo = 0;
    for (int b = 0; b < o->bisections && isfinite(hi); b++) {
      double mid = 0.5 * (lo + hi);
      if (pgd_sphere(&S, mid, o, &rng, delta)) hi = S.best_norm < mid ? S.best_norm : mid;
      else lo = mid;
    }
    res.rho = S.best_norm;
    if (isfinite(S.best_norm)) {
      double bestshare = -1;
      for (int l = 0, off = 0; l < net->nlayers; l++) {
        long n = (long)net->layers[l].out * (net->layers[l].in + 1);
        double sh = 0;
        for (long i = off; i < off + n; i++) sh += S.best[i] * S.best[i];
        if (sh > bestshare) bestshare = sh, res.best_layer = l;
        off += n;
      }
    }
  }
  res.forward_passes = S.passes;
  nnt_mlp_free(&S.work);
  free(S.theta), free(S.grad), free(S.best), free(S.out), free(delta);
  return res;
}
