/* build_depth.c — the depth constructions of ch. 4 as real ReLU networks: Delta^L (Prop 4.1),
 * Yarotsky's h_i (Thm 4.2), products (Cor 4.3, fixed), l-fold products with clipping, parity
 * (corrected), monomials and the partition of unity (Lemmas "5.3-5.5"). */
#include <math.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_error.h"

static double delta1(double y) { return y < 0 || y > 1 ? 0 : (y < 0.5 ? 2 * y : 2 - 2 * y); }

double nnt_approx_delta_pow_closed(int L, double x) {
  double y = ldexp(x, L - 1);
  return delta1(y - floor(y));
}

double nnt_approx_square_closed(int i, double x) {
  double h = x, d = x, p = 1;
  for (int j = 1; j <= i; j++) {
    d = delta1(d);
    p *= 0.25;
    h -= d * p;
  }
  return h;
}

void nnt_approx_build_delta(nnt_mlp *m, int L) {
  static const double t[3] = {0, -0.5, -1}, w[3] = {2, -4, 2};
  nnt_mlp_init(m);
  for (int l = 0; l < L; l++) {
    int in = l ? 3 : 1;
    nnt_mlp_layer *A = nnt_mlp_add(m, in, 3, NNT_ACT_RELU);
    for (int u = 0; u < 3; u++) {
      A->b[u] = t[u];
      for (int i = 0; i < in; i++) A->W[u * in + i] = l ? w[i] : 1;
    }
  }
  nnt_mlp_add_weights(m, 3, 1, NNT_ACT_IDENTITY, w, NULL);
}

void nnt_approx_build_square(nnt_mlp *m, int i) {
  nnt_mlp_init(m);
  if (i == 0) {
    nnt_mlp_add(m, 1, 1, NNT_ACT_IDENTITY)->W[0] = 1;
    return;
  }
  static const double t[3] = {0, -0.5, -1};
  nnt_mlp_layer *A = nnt_mlp_add(m, 1, 4, NNT_ACT_RELU);
  for (int u = 0; u < 4; u++) A->W[u] = 1, A->b[u] = u < 3 ? t[u] : 0;
  double p = 1;
  for (int j = 1; j <= i; j++) {
    p *= 0.25; /* 4^{-j} */
    /* D_j = 2r1 - 4r2 + 2r3; next units sigma(D_j - t), acc_{j+1} = acc_j - D_j / 4^j */
    nnt_mlp_layer *B = nnt_mlp_add(m, 4, j < i ? 4 : 1, j < i ? NNT_ACT_RELU : NNT_ACT_IDENTITY);
    int nout = j < i ? 3 : 0;
    for (int u = 0; u < nout; u++) {
      B->W[u * 4 + 0] = 2, B->W[u * 4 + 1] = -4, B->W[u * 4 + 2] = 2;
      B->b[u] = t[u];
    }
    double *acc = B->W + nout * 4;
    acc[0] = -2 * p, acc[1] = 4 * p, acc[2] = -2 * p, acc[3] = 1;
  }
}

/* lin(in -> 3 h-inputs) . (h_i || h_i || h_i) . (3 -> 1 combination) */
static void product_of(nnt_mlp *m, int i, const nnt_mlp *front, const double *comb) {
  nnt_mlp h, par, t, out;
  nnt_approx_build_square(&h, i);
  const nnt_mlp *three[3] = {&h, &h, &h};
  nnt_approx_net_parallel(&par, three, 3);
  nnt_approx_net_affine(&out, 3, 1, comb, NULL);
  nnt_approx_net_compose(&t, front, &par);
  nnt_approx_net_compose(m, &t, &out);
  nnt_mlp_free(&h), nnt_mlp_free(&par), nnt_mlp_free(&t), nnt_mlp_free(&out);
}

void nnt_approx_build_product_draft(nnt_mlp *m, int i) {
  static const double W[6] = {0.5, 0.5, 1, 0, 0, 1}, comb[3] = {2, -0.5, -0.5};
  nnt_mlp front;
  nnt_approx_net_affine(&front, 2, 3, W, NULL);
  product_of(m, i, &front, comb);
  nnt_mlp_free(&front);
}

void nnt_approx_build_product(nnt_mlp *m, int i, int signed_) {
  static const double comb[3] = {2, -2, -2};
  nnt_mlp front;
  if (!signed_) {
    static const double W[6] = {0.5, 0.5, 0.5, 0, 0, 0.5};
    nnt_approx_net_affine(&front, 2, 3, W, NULL);
  } else { /* |z| = s(z) + s(-z) for z = x+y, x, y; then halve */
    static const double A[12] = {1, 1, -1, -1, 1, 0, -1, 0, 0, 1, 0, -1};
    static const double B[18] = {.5, .5, 0, 0, 0, 0, 0, 0, .5, .5, 0, 0, 0, 0, 0, 0, .5, .5};
    nnt_mlp_init(&front);
    nnt_mlp_add_weights(&front, 2, 6, NNT_ACT_RELU, A, NULL);
    nnt_mlp_add_weights(&front, 6, 3, NNT_ACT_IDENTITY, B, NULL);
  }
  product_of(m, i, &front, comb);
  nnt_mlp_free(&front);
}

void nnt_approx_build_product_l(nnt_mlp *m, int k, int l, int signed_) {
  if (l == 1) {
    nnt_mlp_init(m);
    nnt_mlp_add(m, 1, 1, NNT_ACT_IDENTITY)->W[0] = 1;
    return;
  }
  nnt_mlp prod;
  nnt_approx_build_product(&prod, k, signed_);
  if (l == 2) {
    *m = prod;
    return;
  }
  nnt_mlp prev, carry, par, clip, t;
  nnt_approx_build_product_l(&prev, k, l - 1, signed_);
  nnt_approx_net_carry(&carry, 1, prev.nlayers - 1, signed_);
  const nnt_mlp *two[2] = {&prev, &carry};
  nnt_approx_net_parallel(&par, two, 2);
  /* clip the running product (1-Lipschitz towards the true value) and carry x_l one more layer */
  nnt_mlp_init(&clip);
  if (!signed_) { /* clip01(p) = s(p) - s(p-1); x_l >= 0 kept by s(x) */
    nnt_mlp_layer *A = nnt_mlp_add(&clip, 2, 3, NNT_ACT_RELU);
    A->W[0] = 1, A->W[2] = 1, A->b[1] = -1, A->W[5] = 1;
    nnt_mlp_layer *B = nnt_mlp_add(&clip, 3, 2, NNT_ACT_IDENTITY);
    B->W[0] = 1, B->W[1] = -1, B->W[5] = 1;
  } else { /* clip to [-1,1]: s(p+1) - s(p-1) - 1; x_l = s(x) - s(-x) */
    nnt_mlp_layer *A = nnt_mlp_add(&clip, 2, 4, NNT_ACT_RELU);
    A->W[0] = 1, A->b[0] = 1, A->W[2] = 1, A->b[1] = -1, A->W[5] = 1, A->W[7] = -1;
    nnt_mlp_layer *B = nnt_mlp_add(&clip, 4, 2, NNT_ACT_IDENTITY);
    B->W[0] = 1, B->W[1] = -1, B->b[0] = -1, B->W[6] = 1, B->W[7] = -1;
  }
  nnt_approx_net_compose(&t, &par, &clip);
  nnt_approx_net_compose(m, &t, &prod);
  nnt_mlp_free(&prod), nnt_mlp_free(&prev), nnt_mlp_free(&carry), nnt_mlp_free(&par), nnt_mlp_free(&clip),
      nnt_mlp_free(&t);
}

void nnt_approx_build_parity(nnt_mlp *m, int d, int draft) {
  int L = 1;
  while ((1 << L) < d) L++;
  double W[32] = {0}, b;
  nnt_mlp front, delta, t, back;
  if (draft) { /* Delta^{L-1}((d + sum x)/(2d)) */
    for (int j = 0; j < d; j++) W[j] = 1.0 / (2 * d);
    b = 0.5;
    nnt_approx_net_affine(&front, d, 1, W, &b);
    if (L == 1) {
      *m = front;
      return;
    }
    nnt_approx_build_delta(&delta, L - 1);
    nnt_approx_net_compose(m, &front, &delta);
    nnt_mlp_free(&front), nnt_mlp_free(&delta);
    return;
  }
  /* p / 2^L with p = (d + sum x)/2, then (-1)^d (1 - 2 y) */
  for (int j = 0; j < d; j++) W[j] = ldexp(1, -L - 1);
  b = ldexp(d, -L - 1);
  nnt_approx_net_affine(&front, d, 1, W, &b);
  nnt_approx_build_delta(&delta, L);
  double sg = d % 2 ? -1 : 1, wb = -2 * sg;
  nnt_approx_net_affine(&back, 1, 1, &wb, &sg);
  nnt_approx_net_compose(&t, &front, &delta);
  nnt_approx_net_compose(m, &t, &back);
  nnt_mlp_free(&front), nnt_mlp_free(&delta), nnt_mlp_free(&t), nnt_mlp_free(&back);
}

void nnt_approx_build_monomial(nnt_mlp *m, int d, const int *alpha, const double *v, int k) {
  int deg = 0;
  for (int j = 0; j < d; j++) deg += alpha[j];
  double W[64 * 8] = {0}, b[64];
  int r = 0;
  for (int j = 0; j < d; j++)
    for (int e = 0; e < alpha[j]; e++, r++) W[r * d + j] = 1, b[r] = -v[j];
  nnt_mlp front, prod;
  nnt_approx_net_affine(&front, d, deg, W, b);
  nnt_approx_build_product_l(&prod, k, deg, 1);
  nnt_approx_net_compose(m, &front, &prod);
  nnt_mlp_free(&front), nnt_mlp_free(&prod);
}

void nnt_approx_build_partition(nnt_mlp *m, int d, int s, const double *v, int k) {
  nnt_mlp hat, prod;
  nnt_mlp_init(&hat);
  nnt_mlp_layer *A = nnt_mlp_add(&hat, d, 3 * d, NNT_ACT_RELU);
  nnt_mlp_layer *B = nnt_mlp_add(&hat, 3 * d, d, NNT_ACT_IDENTITY);
  for (int j = 0; j < d; j++)
    for (int u = 0; u < 3; u++) {
      A->W[(3 * j + u) * d + j] = s;
      A->b[3 * j + u] = -s * v[j] + 1 - u; /* s(x - v) + 1, s(x - v), s(x - v) - 1 */
      B->W[j * 3 * d + 3 * j + u] = u == 1 ? -2 : 1;
    }
  nnt_approx_build_product_l(&prod, k, d, 0);
  nnt_approx_net_compose(m, &hat, &prod);
  nnt_mlp_free(&hat), nnt_mlp_free(&prod);
}
