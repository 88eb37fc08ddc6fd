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

double nnt_approx_build_boxes(nnt_mlp *m, nnt_approx_fnd g, void *ctx, int d, int k, double eps) {
  long cubes = 1;
  for (int i = 0; i < d; i++) cubes *= k;
  double *a = nnt_xmalloc(sizeof(double) * cubes), x[8], mass = 0;
  for (long j = 0; j < cubes; j++) {
    long r = j;
    for (int i = 0; i < d; i++, r /= k) x[i] = (double)(r % k) / k; /* lower corner u_j */
    a[j] = g(x, d, ctx);
    mass += fabs(a[j]);
  }
  nnt_mlp_init(m);
  nnt_mlp_layer *A = nnt_mlp_add(m, d, 4 * d * k, NNT_ACT_RELU);
  nnt_mlp_layer *B = nnt_mlp_add(m, 4 * d * k, (int)cubes, NNT_ACT_RELU);
  nnt_mlp_layer *C = nnt_mlp_add(m, (int)cubes, 1, NNT_ACT_IDENTITY);
  if (mass == 0) {
    free(a);
    return 0; /* f = 0 (all weights zero) */
  }
  double gamma = (pow(pow(k, -d) + eps / mass, 1.0 / d) - 1.0 / k) / 2;
  /* trapezoid of axis i, interval t: s((z-u+g)/g) - s((z-u)/g) - s((z-v)/g) + s((z-v-g)/g) */
  for (int i = 0; i < d; i++)
    for (int t = 0; t < k; t++) {
      double u = (double)t / k, v = (double)(t + 1) / k, off[4] = {-u + gamma, -u, -v, -v - gamma};
      for (int q = 0; q < 4; q++) {
        int unit = (i * k + t) * 4 + q;
        A->W[(size_t)unit * d + i] = 1 / gamma;
        A->b[unit] = off[q] / gamma;
      }
    }
  static const double sg[4] = {1, -1, -1, 1};
  int in = 4 * d * k;
  for (long j = 0; j < cubes; j++) {
    long r = j;
    for (int i = 0; i < d; i++, r /= k) {
      int t = (int)(r % k);
      for (int q = 0; q < 4; q++) B->W[(size_t)j * in + (i * k + t) * 4 + q] = sg[q];
    }
    B->b[j] = -(d - 1);
    C->W[j] = a[j];
  }
  free(a);
  return gamma;
}
