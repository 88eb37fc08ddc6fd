/* Parameter-space all-layer margin (eq. 2.1 of Wei, Chen & Ma) of an nnt_mlp: upper bounds from
 * explicit, re-checked perturbations. See nnt_circuits.h for the search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
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

double nnt_circuit_output_grad(const nnt_mlp *net, const double *x, int j, double *grad) {
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

void nnt_circuit_margin_opts_default(nnt_circuit_margin_opts *o) {
  o->restarts = 4;
  o->steps = 40;
  o->bisections = 12;
  o->deepfool_its = 60;
  o->seed = 1;
  o->flip = NULL;
}

typedef struct {
  const nnt_mlp *net;
  nnt_mlp work; /* net with theta + delta */
  nnt_smlp swork; /* the sparse search (sp set): the net with its stored entries and biases at theta + delta */
  const nnt_smlp *sp;
  double **z, **a; /* the sparse search's layer values */
  const double *x;
  int j;
  double s; /* +1 for y = 1, -1 for y = 0: the decision flips when s * F <= 0 */
  long P, passes;
  double *theta, *grad, *out, *best, *gbuf, *gbuf2;
  double best_norm;
} search;

/* Parameters of layer l in the search's layout: W row-major (or the stored entries), then b. */
static long layer_np(const search *S, int l) {
  if (S->sp) return S->sp->layers[l].nnz + S->sp->layers[l].out;
  return (long)S->net->layers[l].out * (S->net->layers[l].in + 1);
}

static int search_nlayers(const search *S) { return S->sp ? S->sp->nlayers : S->net->nlayers; }

/* The sparse net at x (values kept in S->z, S->a for the gradient); returns the output layer. */
static const double *sparse_forward(search *S, const double *x) {
  const double *cur = x;
  for (int l = 0; l < S->swork.nlayers; l++) {
    const nnt_smlp_layer *L = &S->swork.layers[l];
    for (int o = 0; o < L->out; o++) {
      double z = L->b[o];
      for (long e = L->row_start[o]; e < L->row_start[o + 1]; e++) z += L->val[e] * cur[L->col[e]];
      S->z[l][o] = z, S->a[l][o] = nnt_act_apply(L->act, z);
    }
    cur = S->a[l];
  }
  return cur;
}

/* nnt_circuit_output_grad on the stored entries and biases of the sparse working net. */
static double sparse_grad(search *S, double *grad) {
  const nnt_smlp *net = &S->swork;
  int d = net->nlayers;
  double F = sparse_forward(S, S->x)[S->j];
  double *g = S->gbuf, *gn = S->gbuf2;
  memset(g, 0, sizeof(double) * (size_t)net->layers[d - 1].out);
  g[S->j] = 1;
  long off = S->P;
  for (int l = d - 1; l >= 0; l--) {
    const nnt_smlp_layer *L = &net->layers[l];
    const double *in = l ? S->a[l - 1] : S->x;
    off -= L->nnz + L->out;
    double *gW = grad + off, *gb = gW + L->nnz;
    for (int o = 0; o < L->out; o++) g[o] = L->act == NNT_ACT_RELU && !(S->z[l][o] > 0) ? 0 : g[o];
    memset(gn, 0, sizeof(double) * (size_t)L->in);
    for (int o = 0; o < L->out; o++) {
      for (long e = L->row_start[o]; e < L->row_start[o + 1]; e++) gW[e] = g[o] * in[L->col[e]], gn[L->col[e]] += L->val[e] * g[o];
      gb[o] = g[o];
    }
    memcpy(g, gn, sizeof(double) * (size_t)L->in);
  }
  return F;
}

static void set_params(search *S, const double *delta, double t) {
  long k = 0;
  if (S->sp) {
    for (int l = 0; l < S->swork.nlayers; l++) {
      nnt_smlp_layer *L = &S->swork.layers[l];
      for (long i = 0; i < L->nnz; i++, k++) L->val[i] = S->theta[k] + t * delta[k];
      for (int i = 0; i < L->out; i++, k++) L->b[i] = S->theta[k] + t * delta[k];
    }
    return;
  }
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
  S->passes++;
  if (S->sp) return S->s * sparse_forward(S, S->x)[S->j];
  nnt_mlp_forward(&S->work, S->x, S->out);
  return S->s * S->out[S->j];
}

static double margin_grad(search *S, const double *delta, double *g) {
  set_params(S, delta, 1);
  S->passes++;
  double F = S->sp ? sparse_grad(S, g) : nnt_circuit_output_grad(&S->work, S->x, S->j, g);
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
static int pgd_sphere(search *S, double r, const nnt_circuit_margin_opts *o, nnt_rng *rng, double *delta) {
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

/* The search of nnt_circuit_margin_upper on S (net or sp set, theta filled). */
static nnt_circuit_margin_est upper_search(search *S, const nnt_circuit_margin_opts *o) {
  nnt_circuit_margin_est res = {INFINITY, 0, -1, 0};
  int nl = search_nlayers(S);
  S->grad = nnt_xmalloc(sizeof(double) * (size_t)S->P);
  S->best = nnt_xcalloc((size_t)S->P, sizeof(double));
  S->best_norm = INFINITY;
  double *delta = nnt_xcalloc((size_t)S->P, sizeof(double));
  double m0 = margin_fn(S, delta, 0);
  res.output = S->s * m0; /* s = +-1: exactly F_j */
  if (m0 <= 0) {
    res.rho = 0;
  } else {
    deepfool(S, 0, S->P, o->deepfool_its, delta);
    long off = 0;
    for (int l = 0; l < nl; l++) {
      long n = layer_np(S, l);
      deepfool(S, off, off + n, o->deepfool_its, delta);
      off += n;
    }
    nnt_rng rng;
    nnt_rng_init(&rng, o->seed, 1);
    double hi = S->best_norm;
    if (!isfinite(hi)) /* grow the radius until something flips */
      for (double r = 0.25; r <= 1024 && !isfinite(S->best_norm); r *= 2) pgd_sphere(S, r, o, &rng, delta);
    hi = S->best_norm;
    double lo = 0;
    for (int b = 0; b < o->bisections && isfinite(hi); b++) {
      double mid = 0.5 * (lo + hi);
      if (pgd_sphere(S, mid, o, &rng, delta)) hi = S->best_norm < mid ? S->best_norm : mid;
      else lo = mid;
    }
    res.rho = S->best_norm;
    if (isfinite(S->best_norm)) {
      double bestshare = -1;
      off = 0;
      for (int l = 0; l < nl; l++) {
        long n = layer_np(S, l);
        double sh = 0;
        for (long i = off; i < off + n; i++) sh += S->best[i] * S->best[i];
        if (sh > bestshare) bestshare = sh, res.best_layer = l;
        off += n;
      }
    }
  }
  if (o->flip && isfinite(S->best_norm)) memcpy(o->flip, S->best, sizeof(double) * (size_t)S->P);
  res.forward_passes = S->passes;
  free(S->grad), free(S->best), free(delta);
  return res;
}

nnt_circuit_margin_est nnt_circuit_margin_upper(const nnt_mlp *net, const double *x, int j, int y, const nnt_circuit_margin_opts *o) {
  search S = {0};
  S.net = net;
  nnt_mlp_copy(&S.work, net);
  S.x = x;
  S.j = j;
  S.s = y ? 1 : -1;
  S.P = count_params(net);
  S.theta = nnt_xmalloc(sizeof(double) * (size_t)S.P);
  S.out = nnt_xmalloc(sizeof(double) * (size_t)max_width(net));
  long k = 0;
  for (int l = 0; l < net->nlayers; l++) {
    const nnt_mlp_layer *L = &net->layers[l];
    memcpy(S.theta + k, L->W, sizeof(double) * (size_t)L->out * L->in);
    k += (long)L->out * L->in;
    memcpy(S.theta + k, L->b, sizeof(double) * (size_t)L->out);
    k += L->out;
  }
  nnt_circuit_margin_est res = upper_search(&S, o);
  nnt_mlp_free(&S.work);
  free(S.theta), free(S.out);
  return res;
}

nnt_circuit_margin_est nnt_circuit_margin_upper_sparse(const nnt_smlp *net, const double *x, int j, int y,
                                                       const nnt_circuit_margin_opts *o) {
  search S = {0};
  S.sp = net;
  S.x = x;
  S.j = j;
  S.s = y ? 1 : -1;
  int d = net->nlayers, w = net->layers[0].in;
  nnt_smlp_init(&S.swork);
  S.z = nnt_xmalloc(sizeof(double *) * (size_t)d), S.a = nnt_xmalloc(sizeof(double *) * (size_t)d);
  for (int l = 0; l < d; l++) {
    const nnt_smlp_layer *L = &net->layers[l];
    S.P += L->nnz + L->out;
    w = L->out > w ? L->out : w;
    S.z[l] = nnt_xmalloc(sizeof(double) * (size_t)L->out), S.a[l] = nnt_xmalloc(sizeof(double) * (size_t)L->out);
  }
  nnt_smlp view = {d, d, net->layers}; /* the working copy: the same rows, its own values */
  S.swork.layers = nnt_xmalloc(sizeof(nnt_smlp_layer) * (size_t)d), S.swork.nlayers = S.swork.cap = d;
  memcpy(S.swork.layers, view.layers, sizeof(nnt_smlp_layer) * (size_t)d);
  S.theta = nnt_xmalloc(sizeof(double) * (size_t)S.P);
  long k = 0;
  for (int l = 0; l < d; l++) {
    nnt_smlp_layer *L = &S.swork.layers[l];
    L->val = nnt_xmalloc(sizeof(double) * (size_t)(L->nnz ? L->nnz : 1)), L->b = nnt_xmalloc(sizeof(double) * (size_t)L->out);
    memcpy(S.theta + k, net->layers[l].val, sizeof(double) * (size_t)L->nnz), k += L->nnz;
    memcpy(S.theta + k, net->layers[l].b, sizeof(double) * (size_t)L->out), k += L->out;
  }
  S.gbuf = nnt_xmalloc(sizeof(double) * (size_t)w), S.gbuf2 = nnt_xmalloc(sizeof(double) * (size_t)w);
  nnt_circuit_margin_est res = upper_search(&S, o);
  for (int l = 0; l < d; l++) free(S.swork.layers[l].val), free(S.swork.layers[l].b), free(S.z[l]), free(S.a[l]);
  free(S.swork.layers), free(S.z), free(S.a), free(S.theta), free(S.gbuf), free(S.gbuf2);
  return res;
}

/* sqrt(||W||_1 ||W||_inf) >= ||W||_2 from the stored entries (a dense loop adds only zeros besides). */
double nnt_circuit_opnorm_bound_csr(const nnt_smlp_layer *L) {
  double maxrow = 0, maxcol = 0;
  double *col = nnt_xcalloc((size_t)L->in, sizeof(double));
  for (int o = 0; o < L->out; o++) {
    double r = 0;
    for (long e = L->row_start[o]; e < L->row_start[o + 1]; e++) {
      double a = fabs(L->val[e]);
      r += a, col[L->col[e]] += a;
    }
    maxrow = r > maxrow ? r : maxrow;
  }
  for (int i = 0; i < L->in; i++) maxcol = col[i] > maxcol ? col[i] : maxcol;
  free(col);
  return sqrt(maxrow * maxcol);
}

/* Does layer pair (l, l+1) compute round(z) = relu(3z - 1) - relu(3z - 2) elementwise, exactly as
 * nnt_circuit_compile writes it? (A row stores no zeros: its entries are exactly the pattern's.) */
static int is_round_pair(const nnt_smlp *net, int l) {
  if (l + 1 >= net->nlayers) return 0;
  const nnt_smlp_layer *A = &net->layers[l], *B = &net->layers[l + 1];
  int n = A->in;
  if (A->out != 2 * n || B->in != 2 * n || B->out != n || A->act != NNT_ACT_RELU || B->act != NNT_ACT_RELU) return 0;
  for (int o = 0; o < 2 * n; o++) {
    long e = A->row_start[o];
    if (A->b[o] != (o < n ? -1 : -2) || A->row_start[o + 1] != e + 1 || A->col[e] != o % n || A->val[e] != 3) return 0;
  }
  for (int o = 0; o < n; o++) {
    long e = B->row_start[o];
    if (B->b[o] != 0 || B->row_start[o + 1] != e + 2 || B->col[e] != o || B->val[e] != 1 || B->col[e + 1] != o + n ||
        B->val[e + 1] != -1)
      return 0;
  }
  return 1;
}

typedef struct {
  int d;
  double *hn;  /* ||input of layer l||_2 (unperturbed) */
  double *opn; /* upper bound on ||W_l||_2 */
  char *round; /* round[l]: layers l, l+1 are a correction acting on an exactly binary vector */
} lip;

/* Certified bound on the output error for perturbations of per-layer norm <= eps:
 * is it strictly below |F| (so the decision cannot flip)? */
static int certified(const lip *P, double eps, double F) {
  double e = 0;
  for (int l = 0; l < P->d; l++) {
    double generic = P->opn[l] * e + eps * sqrt((P->hn[l] + e) * (P->hn[l] + e) + 1);
    if (P->round[l]) {
      /* Saturation (Theorem D.6's mechanism): for binary z and 3e + eps N < 1 every unit of the
       * first layer keeps its sign, the 3(z' - z) terms cancel in relu(3z'-1) - relu(3z'-2), and
       * only the correction's own perturbations remain. hn[l+1] = ||(relu(3z-1), relu(3z-2))||. */
      double N = sqrt((P->hn[l] + e) * (P->hn[l] + e) + 1);
      double g2 = P->opn[l + 1] * generic + eps * sqrt((P->hn[l + 1] + generic) * (P->hn[l + 1] + generic) + 1);
      if (3 * e + eps * N < 1) {
        double a = P->hn[l + 1] + 3 * sqrt(2.0) * e + eps * N;
        double sat = sqrt(2.0) * eps * N + eps * sqrt(a * a + 1);
        e = sat < g2 ? sat : g2;
      } else {
        e = g2;
      }
      l++;
      continue;
    }
    e = generic;
  }
  return e < fabs(F);
}

/* The certificate's ingredients at x (layer input norms, correction flags) and the readout F_j. */
static double lip_at(const nnt_smlp *net, const double *x, int j, const double *opn, const char *pair, lip *P, double *a,
                     double *b) {
  const double *cur = x;
  for (int l = 0; l < P->d; l++) {
    const nnt_smlp_layer *L = &net->layers[l];
    double s = 0;
    int binary = 1;
    for (int i = 0; i < L->in; i++) s += cur[i] * cur[i], binary &= cur[i] == 0 || cur[i] == 1;
    P->hn[l] = sqrt(s);
    P->opn[l] = opn ? opn[l] : nnt_circuit_opnorm_bound_csr(L);
    P->round[l] = binary && (l == 0 || !P->round[l - 1]) && pair[l];
    double *dst = l % 2 ? b : a;
    nnt_smlp_layer_forward(L, cur, dst);
    cur = dst;
  }
  return cur[j];
}

static double lip_radius(const lip *P, double F) {
  double lo = 0, hi = 1;
  while (certified(P, hi, F) && hi < 1e6) lo = hi, hi *= 2;
  for (int it = 0; it < 60; it++) {
    double mid = 0.5 * (lo + hi);
    if (certified(P, mid, F)) lo = mid;
    else hi = mid;
  }
  return lo;
}

static double lower_min(const nnt_smlp *net, const double *X, int n, const uint8_t *y, int j, const double *opn) {
  int d = net->nlayers, w = net->layers[0].in, m = w;
  for (int l = 0; l < d; l++) w = net->layers[l].out > w ? net->layers[l].out : w;
  lip P = {d, nnt_xmalloc(sizeof(double) * (size_t)d), nnt_xmalloc(sizeof(double) * (size_t)d), nnt_xcalloc((size_t)d, 1)};
  double *a = nnt_xmalloc(sizeof(double) * (size_t)w), *b = nnt_xmalloc(sizeof(double) * (size_t)w), lo = INFINITY;
  char *pair = nnt_xmalloc((size_t)d); /* the weights' part of round[], the same at every input */
  for (int l = 0; l < d; l++) pair[l] = (char)is_round_pair(net, l);
  for (int v = 0; v < n && lo > 0; v++) {
    double F = lip_at(net, X + (size_t)v * m, j, opn, pair, &P, a, b);
    if (!((y[v] ? 1 : -1) * F > 0)) lo = 0;
    /* certified at the smallest radius so far: this input cannot lower the minimum (certified() is
     * monotone in eps), so the bisection is skipped */
    else if (!(isfinite(lo) && certified(&P, lo, F))) {
      double r = lip_radius(&P, F);
      lo = r < lo ? r : lo;
    }
  }
  free(P.hn), free(P.opn), free(P.round), free(a), free(b), free(pair);
  return lo;
}

double nnt_circuit_margin_lower(const nnt_mlp *net, const double *x, int j, int y) {
  nnt_smlp s;
  nnt_smlp_from_dense(&s, net);
  uint8_t yy = (uint8_t)(y != 0);
  double r = lower_min(&s, x, 1, &yy, j, NULL);
  nnt_smlp_free(&s);
  return r;
}

double nnt_circuit_margin_lower_min(const nnt_smlp *net, const double *X, int n, const uint8_t *y, int j, const double *opn) {
  return n < 1 ? INFINITY : lower_min(net, X, n, y, j, opn);
}
