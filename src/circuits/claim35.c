/* claim35.c — Claim 3.5 of Wei, Chen & Ma as the paper states it: the scalar toy
 * f(x, W) = (W_d ... W_1) x - 1/2 with every W_i = 1 at x = 1, and the corrected
 * f~ = round(W_d round(... round(W_1 x))) - 1/2 (round's own parameters unperturbed, as in the
 * claim). Perturbations are of (W_1 .. W_d) only; the margin is the smallest ||delta||_2 that
 * makes the output <= 0. Everything is evaluated by running the toy, not from the claim. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_rng.h"

static double round3(double z) { /* Prop. 3.4: 3 relu(z - 1/3) - 3 relu(z - 2/3), as relu(3z-1) - relu(3z-2) */
  double a = 3 * z - 1, b = 3 * z - 2;
  return (a > 0 ? a : 0) - (b > 0 ? b : 0);
}

static double toy(const double *delta, int d, int corrected) {
  double h = 1;
  for (int i = 0; i < d; i++) {
    h *= 1 + delta[i];
    if (corrected) h = round3(h);
  }
  return h - 0.5;
}

/* The smallest t in (0, hi] with toy(t u) <= 0 along the unit direction u (bisection to 1e-12;
 * INFINITY when t = hi does not flip). */
static double flip_along(const double *u, int d, int corrected, double hi, double *tmp) {
  for (int i = 0; i < d; i++) tmp[i] = hi * u[i];
  if (toy(tmp, d, corrected) > 0) return INFINITY;
  double lo = 0;
  while (hi - lo > 1e-12) {
    double mid = 0.5 * (lo + hi);
    for (int i = 0; i < d; i++) tmp[i] = mid * u[i];
    if (toy(tmp, d, corrected) <= 0) hi = mid;
    else lo = mid;
  }
  return hi;
}

int nnt_circuit_claim35(const int *depths, int n, int samples, uint64_t seed, nnt_circuit_claim35_row *rows) {
  if (n < 1 || samples < 0) return nnt_fail(NNT_EINVAL, "claim 3.5: need at least one depth and samples >= 0");
  for (int k = 0; k < n; k++)
    if (depths[k] < 1 || depths[k] > 4096) return nnt_fail(NNT_EINVAL, "claim 3.5: depth %d outside 1..4096", depths[k]);
  int dmax = 0;
  for (int k = 0; k < n; k++) dmax = depths[k] > dmax ? depths[k] : dmax;
  double *u = nnt_xmalloc(sizeof(double) * (size_t)dmax), *tmp = nnt_xmalloc(sizeof(double) * (size_t)dmax);
  for (int k = 0; k < n; k++) {
    int d = depths[k];
    nnt_circuit_claim35_row *r = &rows[k];
    memset(r, 0, sizeof *r);
    r->d = d;
    /* without corrections: the claim's perturbation delta_i = -1/d, of norm 1/sqrt(d) */
    for (int i = 0; i < d; i++) tmp[i] = -1.0 / d;
    r->claim_flips = toy(tmp, d, 0) <= 0;
    r->claim_norm = 1 / sqrt((double)d);
    /* the exact margin: -sum ln(1 + delta_i) >= ln 2 is convex in delta, so the symmetric point is
     * optimal: |delta_i| = 1 - 2^(-1/d), norm sqrt(d)(1 - 2^(-1/d)); bisected along (-1, .., -1) */
    for (int i = 0; i < d; i++) u[i] = -1 / sqrt((double)d);
    r->plain = flip_along(u, d, 0, 2, tmp);
    r->plain_closed = sqrt((double)d) * (1 - pow(2, -1.0 / d));
    /* with corrections: the claim's lower bound 1/3 (every |delta_i| < 1/3 keeps each round at 1),
     * tried below it; and the smallest flip found, over the one-coordinate directions, the
     * symmetric one and random directions with non-positive entries */
    r->corr_upper = INFINITY;
    double below = (1.0 / 3) * (1 - 1e-9);
    nnt_rng g;
    nnt_rng_init(&g, seed, (uint64_t)d);
    for (int s = -1 - d; s < samples; s++) {
      memset(u, 0, sizeof(double) * (size_t)d);
      if (s < -1) u[-2 - s] = -1; /* coordinate -2-s */
      else if (s == -1)
        for (int i = 0; i < d; i++) u[i] = -1 / sqrt((double)d);
      else {
        double nn = 0;
        for (int i = 0; i < d; i++) u[i] = -fabs(nnt_rng_normal(&g)), nn += u[i] * u[i];
        for (int i = 0; i < d; i++) u[i] /= sqrt(nn);
      }
      for (int i = 0; i < d; i++) tmp[i] = below * u[i];
      r->corr_below_flips += toy(tmp, d, 1) <= 0;
      for (int i = 0; i < d; i++) tmp[i] = -below * u[i]; /* and the opposite sign */
      r->corr_below_flips += toy(tmp, d, 1) <= 0;
      r->corr_tried += 2;
      double t = flip_along(u, d, 1, 2, tmp);
      if (t < r->corr_upper) r->corr_upper = t;
    }
    r->corr_keeps = toy((memset(tmp, 0, sizeof(double) * (size_t)d), tmp), d, 1) == 0.5;
  }
  free(u), free(tmp);
  return NNT_OK;
}
