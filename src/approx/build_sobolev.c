/* build_sobolev.c — the Sobolev-ball approximator (Thm "5.4", self-consistent version of the spec):
 *   f(x) = sum_v prod2( clip_[-1,1](f_v(x)), phi_v(x) ),  v in {0, 1/s, .., 1}^d,
 *   f_v = degree-(r-1) Taylor polynomial of g at v built from signed-product monomials of x - v,
 *   phi_v = the partition-of-unity element (hat products, fixed product with exact zeros).
 * The network is the block-diagonal sum of one sub-network per grid point; the sub-networks are
 * stored separately (the zero blocks of one dense matrix would be ~v^2 times larger), counts are
 * summed honestly and evaluation runs every sub-network's forward pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_error.h"

/* x (d) -> n copies of x (n d), as an affine layer to be merged into what follows */
static void fanout(nnt_mlp *m, int d, int n) {
  double *W = nnt_xcalloc((size_t)n * d * d, sizeof(double));
  for (int c = 0; c < n; c++)
    for (int j = 0; j < d; j++) W[(size_t)(c * d + j) * d + j] = 1;
  nnt_approx_net_affine(m, d, n * d, W, NULL);
  free(W);
}

/* Extends a 1-output net with H hidden layers to `hidden` hidden layers by an exact carry. */
static void pad_to(nnt_mlp *m, int hidden, int is_signed) {
  int H = m->nlayers - 1;
  if (H >= hidden) return;
  nnt_mlp c, t;
  nnt_approx_net_carry(&c, 1, hidden - H, is_signed);
  nnt_approx_net_compose(&t, m, &c);
  nnt_mlp_free(m), nnt_mlp_free(&c);
  *m = t;
}

/* sum_i w_i N_i(x) + b for nets N_i: d -> 1 of equal depth */
static void weighted_sum(nnt_mlp *out, nnt_mlp *nets, int n, int d, const double *w, double b) {
  nnt_mlp fo, par, t, lin;
  const nnt_mlp **ptr = nnt_xmalloc(sizeof(nnt_mlp *) * n);
  for (int i = 0; i < n; i++) ptr[i] = &nets[i];
  fanout(&fo, d, n);
  nnt_approx_net_parallel(&par, (const nnt_mlp *const *)ptr, n);
  nnt_approx_net_affine(&lin, n, 1, w, &b);
  nnt_approx_net_compose(&t, &fo, &par);
  nnt_approx_net_compose(out, &t, &lin);
  nnt_mlp_free(&fo), nnt_mlp_free(&par), nnt_mlp_free(&t), nnt_mlp_free(&lin);
  free(ptr);
}

static void taylor_branch(nnt_mlp *out, const double *v, const double *der, int d, int r, int k) {
  /* der: value; d first partials; second partials (j <= l) */
  double W[2] = {0, 0};
  for (int j = 0; j < d; j++) W[j] = r >= 2 ? der[1 + j] : 0;
  double b = der[0];
  for (int j = 0; j < d; j++) b -= W[j] * v[j];
  nnt_mlp aff;
  nnt_approx_net_affine(&aff, d, 1, W, &b);
  if (r <= 2) {
    *out = aff;
    return;
  }
  nnt_mlp parts[4];
  double w[4];
  int n = 0;
  int q = 1 + d;
  for (int j = 0; j < d; j++)
    for (int l = j; l < d; l++, q++) {
      int alpha[2] = {0, 0};
      alpha[j]++, alpha[l]++;
      nnt_approx_build_monomial(&parts[n], d, alpha, v, k);
      w[n++] = j == l ? der[q] / 2 : der[q];
    }
  int H = parts[0].nlayers - 1;
  pad_to(&aff, H, 1);
  parts[n] = aff;
  w[n++] = 1;
  weighted_sum(out, parts, n, d, w, 0);
  for (int i = 0; i < n; i++) nnt_mlp_free(&parts[i]);
}

void nnt_approx_sobolev_build(nnt_approx_sobolev *S, nnt_approx_derivs derivs, void *ctx, int d, int r, int s, int k) {
  memset(S, 0, sizeof *S);
  S->d = d, S->r = r, S->s = s, S->k = k;
  S->nv = 1;
  for (int j = 0; j < d; j++) S->nv *= s + 1;
  S->parts = nnt_xmalloc(sizeof(nnt_mlp) * S->nv);
  for (int iv = 0; iv < S->nv; iv++) {
    double v[2] = {0, 0}, der[8];
    int rem = iv;
    for (int j = 0; j < d; j++, rem /= s + 1) v[j] = (double)(rem % (s + 1)) / s;
    derivs(v, d, der, ctx);
    nnt_mlp tay, clip, ct, phi, pair[2], par, fo, t, prod;
    taylor_branch(&tay, v, der, d, r, k);
    /* clip to [-1,1]: s(z+1) - s(z-1) - 1 */
    nnt_mlp_init(&clip);
    nnt_mlp_layer *A = nnt_mlp_add(&clip, 1, 2, NNT_ACT_RELU);
    A->W[0] = A->W[1] = 1, A->b[0] = 1, A->b[1] = -1;
    nnt_mlp_layer *B = nnt_mlp_add(&clip, 2, 1, NNT_ACT_IDENTITY);
    B->W[0] = 1, B->W[1] = -1, B->b[0] = -1;
    nnt_approx_net_compose(&ct, &tay, &clip);
    nnt_approx_build_partition(&phi, d, s, v, k);
    int H = ct.nlayers > phi.nlayers ? ct.nlayers - 1 : phi.nlayers - 1;
    pad_to(&ct, H, 1);
    pad_to(&phi, H, 0);
    pair[0] = ct, pair[1] = phi;
    const nnt_mlp *pp[2] = {&pair[0], &pair[1]};
    fanout(&fo, d, 2);
    nnt_approx_net_parallel(&par, pp, 2);
    nnt_approx_net_compose(&t, &fo, &par);
    nnt_approx_build_product(&prod, k, 1);
    nnt_approx_net_compose(&S->parts[iv], &t, &prod);
    nnt_mlp_free(&tay), nnt_mlp_free(&clip), nnt_mlp_free(&ct), nnt_mlp_free(&phi), nnt_mlp_free(&par),
        nnt_mlp_free(&fo), nnt_mlp_free(&t), nnt_mlp_free(&prod);
  }
}

void nnt_approx_sobolev_eval(const nnt_approx_sobolev *S, int n, const double *X, double *Y) {
  double *tmp = nnt_xmalloc(sizeof(double) * n);
  memset(Y, 0, sizeof(double) * n);
  for (int iv = 0; iv < S->nv; iv++) {
    nnt_mlp_forward_batch(&S->parts[iv], n, X, tmp);
    for (int i = 0; i < n; i++) Y[i] += tmp[i];
  }
  free(tmp);
}

nnt_mlp_stats nnt_approx_sobolev_stats(const nnt_approx_sobolev *S) {
  nnt_mlp_stats t = {0};
  for (int iv = 0; iv < S->nv; iv++) {
    nnt_mlp_stats s = nnt_mlp_stats_of(&S->parts[iv]);
    t.layers = s.layers > t.layers ? s.layers : t.layers;
    t.hidden_units += s.hidden_units;
    t.params += s.params;
    t.nonzero_params += s.nonzero_params;
  }
  t.input_dim = S->d, t.output_dim = 1;
  t.params += S->nv + 1; /* the final sum layer */
  return t;
}

void nnt_approx_sobolev_free(nnt_approx_sobolev *S) {
  for (int iv = 0; iv < S->nv; iv++) nnt_mlp_free(&S->parts[iv]);
  free(S->parts);
  memset(S, 0, sizeof *S);
}

double nnt_approx_sobolev_bound(int d, int r, int s, int k, double M, double max_quad_coef) {
  double fact = r == 1 ? 1 : (r == 2 ? 2 : 6);
  double q = pow(4, -k);
  return pow(2, d) * q + pow(2, d) * (d - 1) * q + (r >= 3 ? max_quad_coef * q : 0) + M * pow(d, r) / (fact * pow(s, r));
}

/* The demo target g(x) = (2 + sin 2x_1 cos 3x_2)/4 (d = 2) or (2 + sin 2x)/4 (d = 1): values in
 * [1/4, 3/4], order-r partial derivatives bounded by 3^r/4. */
double nnt_approx_sobolev_demo_g(const double *x, int d) { return (2 + sin(2 * x[0]) * (d == 2 ? cos(3 * x[1]) : 1)) / 4; }

void nnt_approx_sobolev_demo_derivs(const double *v, int d, double *o, void *ctx) {
  (void)ctx;
  double s2 = sin(2 * v[0]), c2 = cos(2 * v[0]);
  double c3 = d == 2 ? cos(3 * v[1]) : 1, s3 = d == 2 ? sin(3 * v[1]) : 0;
  o[0] = (2 + s2 * c3) / 4;
  o[1] = 2 * c2 * c3 / 4;
  if (d == 1) {
    o[2] = -4 * s2 / 4;
    return;
  }
  o[2] = -3 * s2 * s3 / 4;
  o[3] = -4 * s2 * c3 / 4; /* xx */
  o[4] = -6 * c2 * s3 / 4; /* xy */
  o[5] = -9 * s2 * c3 / 4; /* yy */
}

void nnt_approx_sobolev_measure(int d, int r, int s, int k, int npts, nnt_rng *rg, nnt_approx_sobolev_report *rep) {
  nnt_approx_sobolev S;
  nnt_approx_sobolev_build(&S, nnt_approx_sobolev_demo_derivs, NULL, d, r, s, k);
  double *X = nnt_xmalloc(sizeof(double) * npts * d), *Y = nnt_xmalloc(sizeof(double) * npts);
  for (long i = 0; i < (long)npts * d; i++) X[i] = nnt_rng_uniform(rg);
  nnt_approx_sobolev_eval(&S, npts, X, Y);
  rep->sup = 0;
  for (int i = 0; i < npts; i++) rep->sup = fmax(rep->sup, fabs(Y[i] - nnt_approx_sobolev_demo_g(X + (size_t)i * d, d)));
  double quad = 0, der[8];
  for (int iv = 0; iv < S.nv; iv++) {
    double v[2] = {0, 0};
    int rem = iv;
    for (int j = 0; j < d; j++, rem /= s + 1) v[j] = (double)(rem % (s + 1)) / s;
    nnt_approx_sobolev_demo_derivs(v, d, der, NULL);
    double q = d == 1 ? fabs(der[2]) / 2 : fabs(der[3]) / 2 + fabs(der[4]) + fabs(der[5]) / 2;
    quad = fmax(quad, q);
  }
  rep->bound = nnt_approx_sobolev_bound(d, r, s, k, pow(3, r) / 4, quad);
  rep->stats = nnt_approx_sobolev_stats(&S);
  rep->nv = S.nv;
  nnt_approx_sobolev_free(&S);
  free(X), free(Y);
}
