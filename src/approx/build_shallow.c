/* build_shallow.c — shallow constructions of ch. 2: Prop 2.1 threshold network and the Thm 2.3
 * three-layer box network (corrected grid k = ceil(rho sqrt(d)/eps), shared first layer). */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_error.h"

void nnt_approx_build_steps(nnt_mlp *m, nnt_approx_fn1 g, void *ctx, double rho, double eps) {
  int n = (int)ceil(rho / eps);
  nnt_mlp_init(m);
  nnt_mlp_layer *A = nnt_mlp_add(m, 1, n, NNT_ACT_STEP);
  nnt_mlp_layer *B = nnt_mlp_add(m, n, 1, NNT_ACT_IDENTITY);
  double prev = 0; /* g(b_0) := 0 (erratum P3) */
  for (int i = 0; i < n; i++) {
    double b = i * eps / rho, gb = g(b, ctx);
    A->W[i] = 1, A->b[i] = -b;
    B->W[i] = gb - prev;
    prev = gb;
  }
}

int nnt_approx_box_k(double rho, double eps, int d, int draft) {
  return (int)ceil(draft ? rho / (eps * sqrt(d)) : rho * sqrt(d) / eps);
}

double nnt_approx_build_boxes_sparse(nnt_smlp *m, nnt_approx_fnd g, void *ctx, int d, int k, double eps) {
  long cubes = 1;
  for (int i = 0; i < d; i++) cubes *= k;
  double *a = nnt_xmalloc(sizeof(double) * cubes), x[8], mass = 0;
  for (long j = 0; j < cubes; j++) {
    long r = j;
    for (int i = 0; i < d; i++, r /= k) x[i] = (double)(r % k) / k; /* lower corner u_j */
    a[j] = g(x, d, ctx);
    mass += fabs(a[j]);
  }
  int in = 4 * d * k;
  double gamma = mass == 0 ? 0 : (pow(pow(k, -d) + eps / mass, 1.0 / d) - 1.0 / k) / 2;
  /* one triplet array sized for the largest layer (the box layer: 4d entries per cube) */
  long cap = 4L * d * cubes > in ? 4L * d * cubes : in;
  int *row = nnt_xmalloc(sizeof(int) * cap), *col = nnt_xmalloc(sizeof(int) * cap);
  double *val = nnt_xmalloc(sizeof(double) * cap), *b = nnt_xcalloc(cubes > in ? cubes : in, sizeof(double));
  long n = 0;
  nnt_smlp_init(m);
  /* trapezoid of axis i, interval t: s((z-u+g)/g) - s((z-u)/g) - s((z-v)/g) + s((z-v-g)/g);
   * f = 0 (all weights zero) when sum |a_j| = 0 */
  for (int i = 0; mass != 0 && i < d; i++)
    for (int t = 0; t < k; t++) {
      double u = (double)t / k, v = (double)(t + 1) / k, off[4] = {-u + gamma, -u, -v, -v - gamma};
      for (int q = 0; q < 4; q++) {
        int unit = (i * k + t) * 4 + q;
        row[n] = unit, col[n] = i, val[n++] = 1 / gamma;
        b[unit] = off[q] / gamma;
      }
    }
  nnt_smlp_add_coo(m, d, in, NNT_ACT_RELU, n, row, col, val, b);
  static const double sg[4] = {1, -1, -1, 1};
  n = 0;
  for (long j = 0; mass != 0 && j < cubes; j++) {
    long r = j;
    for (int i = 0; i < d; i++, r /= k) {
      int t = (int)(r % k);
      for (int q = 0; q < 4; q++) row[n] = (int)j, col[n] = (i * k + t) * 4 + q, val[n++] = sg[q];
    }
    b[j] = -(d - 1);
  }
  nnt_smlp_add_coo(m, in, (int)cubes, NNT_ACT_RELU, n, row, col, val, mass != 0 ? b : NULL);
  n = 0;
  for (long j = 0; j < cubes; j++) row[n] = 0, col[n] = (int)j, val[n++] = a[j];
  nnt_smlp_add_coo(m, (int)cubes, 1, NNT_ACT_IDENTITY, n, row, col, val, NULL);
  free(a), free(row), free(col), free(val), free(b);
  return gamma;
}

double nnt_approx_build_boxes(nnt_mlp *m, nnt_approx_fnd g, void *ctx, int d, int k, double eps) {
  nnt_smlp s;
  double gamma = nnt_approx_build_boxes_sparse(&s, g, ctx, d, k, eps);
  nnt_smlp_to_dense(m, &s);
  nnt_smlp_free(&s);
  return gamma;
}
