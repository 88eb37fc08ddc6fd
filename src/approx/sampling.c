/* sampling.c — infinite-width threshold networks and Maurey sampling (ch. 2.3-2.4). */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_dmath.h"
#include "nnt_error.h"

/* Inverse CDF of the density |2 pi cos(2 pi b)| / 4 on [0,1]: the CDF is piecewise
 * (sin 2 pi b)/4-type on quarters, inverted in closed form. */
static double sin_icdf(double u) {
  /* F(b) = (1/4) int_0^b |2 pi cos 2 pi t| dt; each quarter [q/4, (q+1)/4] carries mass 1/4 */
  int q = (int)(u * 4);
  if (q > 3) q = 3;
  double w = u * 4 - q; /* fraction of the quarter's mass, in [0,1) */
  /* within a quarter, mass from its start is |sin 2 pi t - sin 2 pi t_q| which runs 0..1 */
  double t;
  switch (q) {
    case 0: t = asin(w) / (2 * M_PI); break;
    case 1: t = 0.5 - asin(1 - w) / (2 * M_PI); break;
    case 2: t = 0.5 + asin(w) / (2 * M_PI); break;
    default: t = 1 - asin(1 - w) / (2 * M_PI); break;
  }
  return t;
}

void nnt_approx_sample_sin_thresholds(nnt_rng *r, int m, double *b, double *a) {
  for (int j = 0; j < m; j++) {
    b[j] = sin_icdf(nnt_rng_uniform(r));
    a[j] = 4.0 * (cos(2 * M_PI * b[j]) >= 0 ? 1 : -1) / m;
  }
}

static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* ||f - sin 2 pi x||^2 on U[0,1] exactly, f = sum a_j 1[x >= b_j] (a_j all of one magnitude). */
double nnt_approx_sin_threshold_l2sq(int m, const double *b, const double *a) {
  double *p = nnt_xmalloc(sizeof(double) * 2 * m);
  for (int j = 0; j < m; j++) p[2 * j] = b[j], p[2 * j + 1] = a[j];
  qsort(p, m, 2 * sizeof(double), cmp_d);
  nnt_dmath_dd ff = {0, 0}, fg = {0, 0}, S = {0, 0};
  for (int j = 0; j < m; j++) {
    S = nnt_dmath_dd_add_d(S, p[2 * j + 1]);
    double next = j + 1 < m ? p[2 * j + 2] : 1;
    ff = nnt_dmath_dd_add(ff, nnt_dmath_dd_mul_d(nnt_dmath_dd_mul(S, S), next - p[2 * j]));
    fg = nnt_dmath_dd_add_d(fg, p[2 * j + 1] * (cos(2 * M_PI * p[2 * j]) - 1) / (2 * M_PI));
  }
  free(p);
  return nnt_dmath_dd_value(nnt_dmath_dd_add_d(nnt_dmath_dd_sub(ff, nnt_dmath_dd_mul_d(fg, 2)), 0.5));
}

/* Simpson's rule on [lo, hi] with n (even) intervals. */
double nnt_approx_simpson(double (*f)(double, void *), void *ctx, double lo, double hi, int n) {
  double h = (hi - lo) / n, s = f(lo, ctx) + f(hi, ctx);
  for (int i = 1; i < n; i++) s += f(lo + i * h, ctx) * (i % 2 ? 4 : 2);
  return s * h / 3;
}

static double mass_integrand(double r, void *ctx) {
  (void)ctx;
  return exp(-M_PI * r * r) * fabs(sin(2 * M_PI * r));
}

/* |mu|_1 = int_w 4 pi g~(w) int_0^|w| |sin 2 pi b| db dw; integrating by parts in polar
 * coordinates gives 4 pi int_0^inf e^{-pi r^2} |sin 2 pi r| dr for d = 2. For general d the
 * radial weight is |S^{d-1}| r^{d-1}; we integrate the double integral numerically. */
typedef struct {
  int d;
} mass_ctx;

static double inner_S(double r) { /* int_0^r |sin 2 pi b| db in closed form */
  double full = floor(2 * r);      /* half-periods of length 1/2, each with integral 1/pi */
  double rest = r - full / 2;
  return full / M_PI + (1 - cos(2 * M_PI * rest)) / (2 * M_PI);
}

static double radial(double r, void *ctx) {
  int d = ((mass_ctx *)ctx)->d;
  return pow(r, d - 1) * exp(-M_PI * r * r) * inner_S(r);
}

double nnt_approx_barron_gauss_mass(int d) {
  mass_ctx c = {d};
  double sphere = 2 * pow(M_PI, d / 2.0) / tgamma(d / 2.0); /* |S^{d-1}| */
  return 4 * M_PI * sphere * nnt_approx_simpson(radial, &c, 0, 8, 40000);
}

double nnt_approx_barron_gauss_mass_2d_parts(void) { return 4 * M_PI * nnt_approx_simpson(mass_integrand, NULL, 0, 8, 40000); }

void nnt_approx_sample_barron_gauss(nnt_rng *r, int d, int m, double *W, double *b, double *s) {
  for (int k = 0; k < m; k++) {
    double rad, bb;
    do { /* radius ~ r^d e^{-pi r^2} = chi_{d+1} / sqrt(2 pi); b ~ U[0, r], accept w.p. |sin 2 pi b| */
      double c2 = 0;
      for (int i = 0; i < d + 1; i++) {
        double z = nnt_rng_normal(r);
        c2 += z * z;
      }
      rad = sqrt(c2 / (2 * M_PI));
      bb = rad * nnt_rng_uniform(r);
    } while (nnt_rng_uniform(r) >= fabs(sin(2 * M_PI * bb)));
    nnt_approx_random_unit(r, d, W + (size_t)k * d);
    for (int i = 0; i < d; i++) W[(size_t)k * d + i] *= rad;
    b[k] = bb;
    s[k] = sin(2 * M_PI * bb) > 0 ? -1 : 1; /* q = -4 pi g~ sin(2 pi b) */
  }
}

double nnt_approx_barron_gauss_sample_mse(nnt_rng *r, int k, double M, int ne, const double *X, double *W, double *b,
                                   double *s) {
  nnt_approx_sample_barron_gauss(r, 2, k, W, b, s);
  double e2 = 0;
  for (int e = 0; e < ne; e++) {
    const double *x = X + 2 * e;
    double f = 0;
    for (int u = 0; u < k; u++) f += s[u] * (W[2 * u] * x[0] + W[2 * u + 1] * x[1] >= b[u]);
    f *= M / k;
    double g = exp(-M_PI * (x[0] * x[0] + x[1] * x[1])) - 1;
    e2 += (f - g) * (f - g) / ne;
  }
  return e2;
}

/* ------------------------------------------------------------------ tabulated g~ (Thm 2.12) */

/* int_0^t |sin 2 pi u| du for any real t (odd in t) */
static double abs_sin_int(double t) { return t < 0 ? -inner_S(-t) : inner_S(t); }

static void cell_centre(const nnt_approx_barron_table *T, long c, double *w) {
  for (int i = 0; i < T->d; i++, c /= T->n) w[i] = -T->W + (c % T->n + 0.5) * T->h;
}

static double norm_d(const double *w, int d) { return d == 1 ? fabs(w[0]) : hypot(w[0], w[1]); }

void nnt_approx_barron_table_build(nnt_approx_barron_table *T, int d, int n, double W, nnt_approx_ft ft, void *ctx) {
  T->d = d, T->n = n, T->W = W, T->h = 2 * W / n;
  T->cells = d == 1 ? n : (long)n * n;
  T->amp = nnt_xmalloc(sizeof(double) * T->cells), T->theta = nnt_xmalloc(sizeof(double) * T->cells);
  T->cdf = nnt_xmalloc(sizeof(double) * T->cells);
  double hd = pow(T->h, d), acc = 0, w[2];
  T->mass = T->mass_bound = 0;
  for (long c = 0; c < T->cells; c++) {
    double re, im;
    cell_centre(T, c, w);
    ft(w, d, ctx, &re, &im);
    double a = hypot(re, im), th = atan2(im, re) / (2 * M_PI), r = norm_d(w, d);
    T->amp[c] = a, T->theta[c] = th;
    acc += a * r;
    T->cdf[c] = acc;
    T->mass += 4 * M_PI * hd * a * (abs_sin_int(r + th) - abs_sin_int(th));
    T->mass_bound += 4 * M_PI * hd * a * r;
  }
  for (long c = 0; c < T->cells; c++) T->cdf[c] /= acc;
}

void nnt_approx_barron_table_free(nnt_approx_barron_table *T) {
  free(T->amp), free(T->theta), free(T->cdf);
  T->amp = T->theta = T->cdf = NULL;
}

void nnt_approx_barron_table_sample(const nnt_approx_barron_table *T, nnt_rng *r, int m, double *W, double *b, double *s) {
  int d = T->d;
  for (int k = 0; k < m; k++) {
    long c;
    double rad, bb;
    do {
      double u = nnt_rng_uniform(r);
      long lo = 0, hi = T->cells - 1; /* first cell whose cdf exceeds u */
      while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (T->cdf[mid] > u) hi = mid;
        else lo = mid + 1;
      }
      c = lo;
      cell_centre(T, c, W + (size_t)k * d);
      rad = norm_d(W + (size_t)k * d, d);
      bb = rad * nnt_rng_uniform(r);
    } while (nnt_rng_uniform(r) >= fabs(sin(2 * M_PI * (bb + T->theta[c]))));
    b[k] = bb;
    s[k] = sin(2 * M_PI * (bb + T->theta[c])) > 0 ? -1 : 1; /* q = -4 pi |g~| sin 2 pi (b + theta) */
  }
}

int nnt_approx_barron_maurey_measure(const nnt_approx_barron_table *T, nnt_approx_fnd g, void *ctx, nnt_rng *r,
                                     const int *ns, int nn, int trials, int npts, nnt_approx_barron_maurey_stats *st) {
  int d = T->d, nmax = 0;
  for (int q = 0; q < nn; q++) nmax = ns[q] > nmax ? ns[q] : nmax;
  double *X = nnt_xmalloc(sizeof(double) * npts * d), *G = nnt_xmalloc(sizeof(double) * npts), zero[2] = {0, 0};
  double *W = nnt_xmalloc(sizeof(double) * nmax * d), *b = nnt_xmalloc(sizeof(double) * nmax),
         *s = nnt_xmalloc(sizeof(double) * nmax);
  double g0 = g(zero, d, ctx);
  for (int p = 0; p < npts; p++) { /* uniform in the unit ball */
    double *x = X + (size_t)p * d;
    if (d == 1) x[0] = 2 * nnt_rng_uniform(r) - 1;
    else {
      double rad = sqrt(nnt_rng_uniform(r)), th = 2 * M_PI * nnt_rng_uniform(r);
      x[0] = rad * cos(th), x[1] = rad * sin(th);
    }
    G[p] = g(x, d, ctx) - g0;
  }
  int pass = 1;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int q = 0; q < nn; q++) {
    int m = ns[q];
    double mse = 0;
    for (int t = 0; t < trials; t++) {
      nnt_approx_barron_table_sample(T, r, m, W, b, s);
      for (int p = 0; p < npts; p++) {
        const double *x = X + (size_t)p * d;
        double f = 0;
        for (int k = 0; k < m; k++) f += s[k] * ((d == 1 ? W[k] * x[0] : W[2 * k] * x[0] + W[2 * k + 1] * x[1]) >= b[k]);
        f *= T->mass / m;
        mse += (f - G[p]) * (f - G[p]) / ((double)npts * trials);
      }
    }
    st->rms[q] = sqrt(mse);
    pass &= st->rms[q] <= T->mass / sqrt((double)m); /* NaN fails */
    double lx = log((double)m), ly = log(st->rms[q]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  st->slope = (nn * sxy - sx * sy) / (nn * sxx - sx * sx);
  free(X), free(G), free(W), free(b), free(s);
  return pass && fabs(st->slope + 0.5) <= 0.1;
}
