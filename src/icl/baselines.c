/* In-context baselines on one prompt prefix, double precision (§7.7, §7.10). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_icl_eval.h"

double nnt_icl_pred_mean(const double *y, int k) {
  double s = 0;
  for (int i = 0; i < k; i++) s += y[i];
  return k ? s / k : 0;
}

double nnt_icl_pred_ridge(const double *x, const double *y, int k, int d, double lambda, const double *xq) {
  if (k == 0) return 0;
  double *xm = nnt_xcalloc((size_t)d, sizeof *xm), *A = nnt_xcalloc((size_t)d * d, sizeof *A),
         *b = nnt_xcalloc((size_t)d, sizeof *b), ym = nnt_icl_pred_mean(y, k);
  for (int i = 0; i < k; i++)
    for (int p = 0; p < d; p++) xm[p] += x[(size_t)i * d + p] / k;
  /* A = Xcᵀ Xc + lambda I (lower triangle), b = Xcᵀ (y - ȳ) */
  for (int i = 0; i < k; i++) {
    const double *xi = x + (size_t)i * d;
    for (int p = 0; p < d; p++) {
      double u = xi[p] - xm[p];
      b[p] += u * (y[i] - ym);
      for (int q = 0; q <= p; q++) A[p * d + q] += u * (xi[q] - xm[q]);
    }
  }
  for (int p = 0; p < d; p++) A[p * d + p] += lambda;
  /* Cholesky A = L Lᵀ in place, then L z = b, Lᵀ beta = z */
  for (int p = 0; p < d; p++) {
    for (int q = 0; q <= p; q++) {
      double s = A[p * d + q];
      for (int r = 0; r < q; r++) s -= A[p * d + r] * A[q * d + r];
      A[p * d + q] = p == q ? sqrt(s) : s / A[q * d + q];
    }
  }
  for (int p = 0; p < d; p++) {
    for (int r = 0; r < p; r++) b[p] -= A[p * d + r] * b[r];
    b[p] /= A[p * d + p];
  }
  for (int p = d - 1; p >= 0; p--) {
    for (int r = p + 1; r < d; r++) b[p] -= A[r * d + p] * b[r];
    b[p] /= A[p * d + p];
  }
  double pred = ym;
  for (int p = 0; p < d; p++) pred += b[p] * (xq[p] - xm[p]);
  free(xm), free(A), free(b);
  return pred;
}

double nnt_icl_pred_knn3(const double *x, const double *y, int k, int d, const double *xq) {
  double best[3] = {INFINITY, INFINITY, INFINITY}, by[3] = {0, 0, 0};
  for (int i = 0; i < k; i++) {
    double s = 0;
    for (int p = 0; p < d; p++) {
      double u = x[(size_t)i * d + p] - xq[p];
      s += u * u;
    }
    int j = 3;
    while (j > 0 && s < best[j - 1]) j--;
    if (j == 3) continue;
    for (int m = 2; m > j; m--) best[m] = best[m - 1], by[m] = by[m - 1];
    best[j] = s, by[j] = y[i];
  }
  int m = k < 3 ? k : 3;
  double s = 0;
  for (int j = 0; j < m; j++) s += by[j];
  return m ? s / m : 0;
}

void nnt_icl_adam_init(nnt_icl_adam *a, size_t n, double lr) {
  *a = (nnt_icl_adam){.lr = lr, .t = 0, .m = nnt_xcalloc(n, sizeof(double)), .v = nnt_xcalloc(n, sizeof(double)), .n = n};
}

void nnt_icl_adam_step(nnt_icl_adam *a, double *w, const double *g) {
  a->t++;
  double c1 = 1 - pow(0.9, (double)a->t), c2 = 1 - pow(0.999, (double)a->t);
  for (size_t i = 0; i < a->n; i++) {
    a->m[i] = 0.9 * a->m[i] + 0.1 * g[i];
    a->v[i] = 0.999 * a->v[i] + 0.001 * g[i] * g[i];
    w[i] -= a->lr * (a->m[i] / c1) / (sqrt(a->v[i] / c2) + 1e-8);
  }
}

void nnt_icl_adam_free(nnt_icl_adam *a) {
  free(a->m), free(a->v);
  a->m = a->v = NULL;
}

double nnt_icl_direct_train(const nnt_icl_direct_cfg *c, const double *x, const double *y, int k, int d,
                            const double *xq, nnt_rng *r, double *pred) {
  if (k == 0) {
    for (int e = 0; e < c->steps; e++) pred[e] = 0;
    return 0;
  }
  nnt_icl_net s = {.N = c->depth, .K = c->width, .dx = d, .dy = 1, .act = NNT_ICL_ACT_RELU, .out_act = 0, .bias = 1};
  size_t np = nnt_icl_net_nparams(&s), o = 0;
  double *w = nnt_xmalloc(np * sizeof *w), *g = nnt_xmalloc(np * sizeof *g),
         *ws = nnt_xmalloc(nnt_icl_net_ws_size(&s, k > 1 ? k : 1) * sizeof *ws);
  /* PyTorch's nn.Linear default: weights and biases U(±1/sqrt(fan_in)) */
  for (int j = 1; j <= c->depth; j++) {
    int fan = j == 1 ? d : c->width, units = j == c->depth ? 1 : c->width;
    double a = 1 / sqrt((double)fan);
    for (size_t i = 0; i < (size_t)units * (fan + 1); i++) w[o++] = a * (2 * nnt_rng_uniform(r) - 1);
  }
  nnt_icl_adam opt;
  nnt_icl_adam_init(&opt, np, c->lr);
  double mse = 0;
  for (int e = 0; e < c->steps; e++) {
    mse = 2 * nnt_icl_net_loss_grad(&s, w, x, y, k, g, ws); /* ∇MSE = 2∇L_n */
    for (size_t i = 0; i < np; i++) g[i] *= 2;
    nnt_icl_adam_step(&opt, w, g);
    nnt_icl_net_forward(&s, w, xq, 1, &pred[e], ws);
  }
  nnt_icl_adam_free(&opt);
  free(w), free(g), free(ws);
  return mse;
}
