/* ntk.c — near initialisation (ch. 3): linearisation gaps (Props 3.4, 3.7), Lemma 3.15 noise,
 * Thm 3.10 planting, the transport map with the corrected scaling, empirical vs closed-form NTK.
 * Model: F(x; V) = sum_j a_j s(v_j . x), a_j = +-1, v_j ~ N(0, I_d) (the book's init). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_dmath.h"
#include "nnt_error.h"

double nnt_approx_ntk_kinf(const double *x, const double *y, int d) {
  double xy = 0, xx = 0, yy = 0;
  for (int i = 0; i < d; i++) xy += x[i] * y[i], xx += x[i] * x[i], yy += y[i] * y[i];
  double c = xy / sqrt(xx * yy);
  c = fmax(-1, fmin(1, c));
  return xy * (M_PI - acos(c)) / (2 * M_PI);
}

void nnt_approx_ntk_km(nnt_rng *r, long m, int d, int n, const double *X, const double *Y, double *km) {
  double *v = nnt_xmalloc(sizeof(double) * d);
  long *cnt = nnt_xcalloc(n, sizeof(long));
  for (long j = 0; j < m; j++) {
    nnt_rng_fill_normal_f64(r, v, d, 0, 1);
    for (int p = 0; p < n; p++) {
      double a = 0, b = 0;
      for (int i = 0; i < d; i++) a += v[i] * X[p * d + i], b += v[i] * Y[p * d + i];
      cnt[p] += a >= 0 && b >= 0;
    }
  }
  for (int p = 0; p < n; p++) {
    double xy = 0;
    for (int i = 0; i < d; i++) xy += X[p * d + i] * Y[p * d + i];
    km[p] = xy * (double)cnt[p] / (double)m;
  }
  free(v), free(cnt);
}

void nnt_approx_random_unit(nnt_rng *r, int d, double *x) {
  double n2 = 0;
  do {
    nnt_rng_fill_normal_f64(r, x, d, 0, 1);
    n2 = 0;
    for (int i = 0; i < d; i++) n2 += x[i] * x[i];
  } while (n2 == 0);
  for (int i = 0; i < d; i++) x[i] /= sqrt(n2);
}

static int cmp_abs(const void *a, const void *b) {
  double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
  return (x > y) - (x < y);
}

/* Prop 3.7's adversarial perturbation: flip the a_j = +1 units with the smallest |v_j . x| by
 * v_j -> v_j - 2 (v_j . x) x while ||V - V0||_F <= B. The gap F(V) - F(V0) - <dF(V0), V - V0>
 * is then sum |v_j . x| over flipped units (derivation in docs/approx.md). Returns that gap, and
 * also verifies it by direct evaluation of F on the flipped units (gap_direct). */
double nnt_approx_relu_adversarial_gap(nnt_rng *r, long m, double B, double *gap_direct) {
  /* x = e_1 without loss of generality (v ~ N(0, I) is rotation invariant): v_j . x ~ N(0,1) */
  double *z = nnt_xmalloc(sizeof(double) * m);
  long np = 0;
  for (long j = 0; j < m; j++) {
    double zj = nnt_rng_normal(r);
    if (nnt_rng_u64(r) & 1) z[np++] = zj; /* a_j = +1 */
  }
  qsort(z, np, sizeof(double), cmp_abs);
  double budget = B * B, used = 0, gap = 0, direct = 0;
  for (long j = 0; j < np; j++) {
    double cost = 4 * z[j] * z[j]; /* ||v_j - v0_j||^2 = (2 z_j)^2 */
    if (used + cost > budget) break;
    used += cost;
    gap += fabs(z[j]);
    /* direct: F change s(-z) - s(z); linear term s'(z) * (x . (-2 z x)) = -2 z 1[z > 0] */
    double dF = fmax(0, -z[j]) - fmax(0, z[j]), lin = z[j] > 0 ? -2 * z[j] : 0;
    direct += dF - lin;
  }
  free(z);
  if (gap_direct) *gap_direct = direct;
  return gap;
}

double nnt_approx_prop37_bound(long m, double B, double delta) {
  return cbrt((double)m) * (4 * pow(B, 4.0 / 3) + 2 * B * pow(log(1 / delta), 0.25));
}

static double softplus(double z) { return z > 30 ? z : log1p(exp(z)); }
static double sigmoid(double z) { return 1 / (1 + exp(-z)); }

/* Prop 3.4 with softplus (beta = 1/4): worst ratio gap / bound over `trials` random perturbations
 * of Frobenius norm B at a random unit x. */
double nnt_approx_prop34_worst_ratio(nnt_rng *r, int m, int d, double B, int trials) {
  double *V0 = nnt_xmalloc(sizeof(double) * m * d), *D = nnt_xmalloc(sizeof(double) * m * d), *a = nnt_xmalloc(sizeof(double) * m);
  double x[64], worst = 0;
  nnt_rng_fill_normal_f64(r, V0, (size_t)m * d, 0, 1);
  for (int j = 0; j < m; j++) a[j] = nnt_rng_u64(r) & 1 ? 1 : -1;
  for (int t = 0; t < trials; t++) {
    nnt_approx_random_unit(r, d, x);
    nnt_rng_fill_normal_f64(r, D, (size_t)m * d, 0, 1);
    double n2 = 0;
    for (long k = 0; k < (long)m * d; k++) n2 += D[k] * D[k];
    double s = B / sqrt(n2);
    nnt_dmath_dd gap = {0, 0};
    for (int j = 0; j < m; j++) {
      double z0 = 0, dz = 0;
      for (int i = 0; i < d; i++) z0 += V0[j * d + i] * x[i], dz += s * D[j * d + i] * x[i];
      gap = nnt_dmath_dd_add_d(gap, a[j] * (softplus(z0 + dz) - softplus(z0) - sigmoid(z0) * dz));
    }
    double bound = 0.25 * 1 / 2 * B * B;
    worst = fmax(worst, fabs(nnt_dmath_dd_value(gap)) / bound);
  }
  free(V0), free(D), free(a);
  return worst;
}

/* Lemma 3.15: |F(x; w0)| over random unit x at init (one fresh init per sample); returns the
 * empirical std and 99% quantile of |F| / sqrt(m). */
void nnt_approx_lemma315_stats(nnt_rng *r, int m, int d, int samples, double p_plus, double *std_over_sqrtm,
                               double *q99_over_sqrtm) {
  double *F = nnt_xmalloc(sizeof(double) * samples), x[64], v[64];
  double s2 = 0;
  for (int t = 0; t < samples; t++) {
    nnt_approx_random_unit(r, d, x);
    double f = 0;
    for (int j = 0; j < m; j++) {
      nnt_rng_fill_normal_f64(r, v, d, 0, 1);
      double z = 0;
      for (int i = 0; i < d; i++) z += v[i] * x[i];
      f += (nnt_rng_uniform(r) < p_plus ? 1 : -1) * fmax(0, z);
    }
    F[t] = fabs(f) / sqrt(m);
    s2 += F[t] * F[t];
  }
  qsort(F, samples, sizeof(double), cmp_abs);
  *std_over_sqrtm = sqrt(s2 / samples);
  *q99_over_sqrtm = F[(int)(0.99 * (samples - 1))];
  free(F);
}

/* Thm 3.10 planting in d = 2 (targets on the circle), following the proof. */
int nnt_approx_plant(nnt_rng *r, int k, const double *beta, const double *alpha, double tau, double delta, int ntest,
              nnt_approx_plant_result *res, int neval, const double *Xe, double *Fe, double *Fw0e) {
  const int d = 2;
  long m = (long)ceil(pow(4, d + 2) * log(1 / delta) / pow(tau, 2 * d - 2));
  double tau_d = pow(tau, d - 1) / pow(2, d + 2);
  long usz = (long)floor(m * tau_d);
  double c = 1 / (tau * tau_d * sqrt((double)m)), c0 = sqrt((double)m) / tau;
  double *V0 = nnt_xmalloc(sizeof(double) * m * d), *V = nnt_xmalloc(sizeof(double) * m * d);
  signed char *a = nnt_xmalloc(m);
  nnt_rng_fill_normal_f64(r, V0, (size_t)m * d, 0, 1);
  for (long j = 0; j < m; j++) a[j] = nnt_rng_u64(r) & 1 ? 1 : -1;
  memcpy(V, V0, sizeof(double) * m * d);
  memset(res, 0, sizeof *res);
  res->m = m, res->usz = usz, res->c0 = c0, res->min_S = m;
  double amax = 0, a2 = 0;
  for (int i = 0; i < k; i++) amax = fmax(amax, fabs(alpha[i])), a2 += alpha[i] * alpha[i];
  for (int i = 0; i < k; i++) {
    long S = 0, U = 0;
    for (long j = 0; j < m; j++) {
      double nv = sqrt(V0[j * d] * V0[j * d] + V0[j * d + 1] * V0[j * d + 1]); /* not hypot: glibc's has an FMA form (aarch64) */
      double dx = beta[i * d] - V0[j * d] / nv, dy = beta[i * d + 1] - V0[j * d + 1] / nv;
      if (sqrt(dx * dx + dy * dy) > tau || (a[j] > 0) != (alpha[i] > 0)) continue;
      S++;
      if (U < usz) {
        for (int q = 0; q < d; q++) V[j * d + q] += c * fabs(alpha[i]) * V0[j * d + q] / nv;
        U++;
      }
    }
    if (S < res->min_S) res->min_S = S;
  }
  double fro = 0, rowmax = 0;
  for (long j = 0; j < m; j++) {
    double rr = 0;
    for (int q = 0; q < d; q++) rr += (V[j * d + q] - V0[j * d + q]) * (V[j * d + q] - V0[j * d + q]);
    fro += rr, rowmax = fmax(rowmax, sqrt(rr));
  }
  res->fro = sqrt(fro), res->rowmax = rowmax;
  res->fro_proof = sqrt(a2) / (tau * sqrt(tau_d));
  res->rowmax_proof = c * amax;
  res->scale_statement = pow(2, d + 1) * sqrt((double)m) / pow(tau, d - 1);
  res->fro_statement = pow(2, d + 1) * sqrt(a2) / pow(tau, d - 1);
  /* test points in the unit disk: F(V), F0(V) = F(V0) + <dF(V0), V - V0>, g */
  double sgg = 0, sgF = 0, a1 = 0;
  for (int i = 0; i < k; i++) a1 += fabs(alpha[i]);
  res->max_F_F0_rel = 0, res->max_excess = -INFINITY;
  for (int t = 0; t < ntest; t++) {
    double x[2], rad = sqrt(nnt_rng_uniform(r)), sn, cs;
    nnt_dmath_sincos2pi(nnt_rng_uniform(r), &sn, &cs); /* not libm's: the same bits on every CPU */
    x[0] = rad * cs, x[1] = rad * sn;
    nnt_dmath_dd Fdd = {0, 0}, F0dd = {0, 0}, Fw0dd = {0, 0};
    for (long j = 0; j < m; j++) {
      double z0 = V0[j * d] * x[0] + V0[j * d + 1] * x[1], z = V[j * d] * x[0] + V[j * d + 1] * x[1];
      Fdd = nnt_dmath_dd_add_d(Fdd, a[j] * fmax(0, z));
      Fw0dd = nnt_dmath_dd_add_d(Fw0dd, a[j] * fmax(0, z0));
      F0dd = nnt_dmath_dd_add_d(F0dd, a[j] * (fmax(0, z0) + (z0 > 0 ? z - z0 : 0))); /* min-norm Clarke element: s'(0) = 0 */
    }
    double g = 0;
    for (int i = 0; i < k; i++) g += alpha[i] * fmax(0, beta[i * d] * x[0] + beta[i * d + 1] * x[1]);
    double F = nnt_dmath_dd_value(Fdd), Fw0 = nnt_dmath_dd_value(Fw0dd);
    res->max_F_F0_rel = fmax(res->max_F_F0_rel, fabs(nnt_dmath_dd_value(nnt_dmath_dd_sub(Fdd, F0dd))) / (1 + fabs(F)));
    double dev = fabs(F - c0 * g), allowed = fabs(Fw0) + sqrt((double)m) * a1;
    res->max_excess = fmax(res->max_excess, dev - allowed);
    res->max_dev = fmax(res->max_dev, dev);
    res->max_noise = fmax(res->max_noise, fabs(Fw0));
    sgg += g * g, sgF += g * nnt_dmath_dd_value(nnt_dmath_dd_sub(Fdd, Fw0dd));
  }
  res->scale_fit = sgF / sgg;
  for (int e = 0; e < neval; e++) {
    nnt_dmath_dd F = {0, 0}, Fw0 = {0, 0};
    for (long j = 0; j < m; j++) {
      F = nnt_dmath_dd_add_d(F, a[j] * fmax(0, V[j * d] * Xe[2 * e] + V[j * d + 1] * Xe[2 * e + 1]));
      Fw0 = nnt_dmath_dd_add_d(Fw0, a[j] * fmax(0, V0[j * d] * Xe[2 * e] + V0[j * d + 1] * Xe[2 * e + 1]));
    }
    Fe[e] = nnt_dmath_dd_value(F), Fw0e[e] = nnt_dmath_dd_value(Fw0);
  }
  free(V0), free(V), free(a);
  return NNT_OK;
}

/* Thm 3.14 with T = u: (rho/sqrt m) F0(x; V) for the corrected scaling v_j = v0_j + a_j u/(rho sqrt m)
 * and the draft's v_j = v0_j + a_j rho u / sqrt m; the limit is u.x/2. x = e_1, u = e_1. */
void nnt_approx_transport(nnt_rng *r, long m, double *corrected, double *draft) {
  double rho = 1 / pow(log(1 + (double)m), 2);
  nnt_dmath_dd F = {0, 0};
  long lin = 0;
  for (long j = 0; j < m; j++) {
    double z = nnt_rng_normal(r), a = nnt_rng_u64(r) & 1 ? 1 : -1;
    F = nnt_dmath_dd_add_d(F, a * fmax(0, z));
    lin += z > 0; /* sum_j a_j s'(z_j) x . (a_j u) = #active (u.x = 1) */
  }
  double sm = sqrt((double)m);
  nnt_dmath_dd scaled = nnt_dmath_dd_mul_d(F, rho / sm);
  *corrected = nnt_dmath_dd_value(nnt_dmath_dd_add_d(scaled, (double)lin / (double)m));
  *draft = nnt_dmath_dd_value(nnt_dmath_dd_add_d(scaled, rho * rho * (double)lin / (double)m));
}

double nnt_approx_transport_field(nnt_rng *r, long m, int d, nnt_approx_field T, void *ctx, const double *x,
                                  double *se, double *draft) {
  double rho = 1 / pow(log(1 + (double)m), 2), sm = sqrt((double)m);
  double *v0 = nnt_xmalloc(sizeof(double) * 2 * d), *Tv = v0 + d;
  nnt_dmath_dd s1 = {0, 0}, s2 = {0, 0}, sd = {0, 0};
  for (long j = 0; j < m; j++) {
    double a = nnt_rng_u64(r) & 1 ? 1 : -1, z = 0, c = 0, cd = 0;
    for (int k = 0; k < d; k++) v0[k] = nnt_rng_normal(r), z += v0[k] * x[k];
    T(v0, d, ctx, Tv);
    /* F0(x; V) = sum_j a_j [relu(v0_j.x) + 1[v0_j.x > 0] (v_j - v0_j).x], one neuron at a time */
    for (int k = 0; k < d; k++) {
      c += (a * Tv[k] / (rho * sm)) * x[k];  /* (v_j - v0_j).x, corrected */
      cd += (a * rho * Tv[k] / sm) * x[k];   /* the draft's */
    }
    double relu = z > 0 ? z : 0, act = z > 0;
    double y = rho * sm * a * (relu + act * c); /* m times this neuron's share of (rho/sqrt m) F0 */
    s1 = nnt_dmath_dd_add_d(s1, y), s2 = nnt_dmath_dd_add_prod(s2, y, y);
    sd = nnt_dmath_dd_add_d(sd, rho / sm * a * (relu + act * cd));
  }
  free(v0);
  nnt_dmath_dd mdd = nnt_dmath_dd_of((double)m);
  double mean = nnt_dmath_dd_value(nnt_dmath_dd_div(s1, mdd));
  *se = sqrt(fmax(nnt_dmath_dd_value(nnt_dmath_dd_div(s2, mdd)) - mean * mean, 0) / (double)m);
  *draft = nnt_dmath_dd_value(sd);
  return mean;
}

/* [ext] Lazy training (bridge to the empty ch. 5): GD on the inner layer of
 * F(x; V) = (1/sqrt m) sum_j a_j s(v_j . x) with the symmetric init (v_{j+m/2} = v_j, a = -+1, so
 * F(.; V0) = 0), on 12 padded circle points x = (cos t, sin t, 1)/sqrt2 with target cos t + sin(2t)/2.
 * The linearised model trained by the same GD steps with the init NTK K0 is
 * f_lin = k0(x, X) alpha, alpha += eta (y - K0 alpha); the gap max |f_GD - f_lin| over 360 test
 * angles shrinks with m while ||V - V0||_F stays O(1). eta = 1/lambda_max(K0). */
void nnt_approx_lazy_train(nnt_rng *r, long m, int steps, nnt_approx_lazy_stats *res) {
  enum { N = 12, D = 3, NT = 360 };
  double X[N][D], y[N], XT[NT][D];
  for (int i = 0; i < N; i++) {
    double th = 2 * M_PI * i / N;
    X[i][0] = cos(th) / sqrt(2), X[i][1] = sin(th) / sqrt(2), X[i][2] = 1 / sqrt(2);
    y[i] = cos(th) + 0.5 * sin(2 * th);
  }
  for (int i = 0; i < NT; i++) {
    double th = 2 * M_PI * (i + 0.5) / NT;
    XT[i][0] = cos(th) / sqrt(2), XT[i][1] = sin(th) / sqrt(2), XT[i][2] = 1 / sqrt(2);
  }
  long h = m / 2;
  m = 2 * h;
  double *V0 = nnt_xmalloc(sizeof(double) * h * D), *V = nnt_xmalloc(sizeof(double) * m * D);
  nnt_rng_fill_normal_f64(r, V0, (size_t)h * D, 0, 1);
  for (long j = 0; j < m; j++) memcpy(V + j * D, V0 + (j % h) * D, sizeof(double) * D);
  double sm = sqrt((double)m);
  /* init kernel K0 (train x train) and k0 (test x train) */
  static double K[N][N], KT[NT][N];
  memset(K, 0, sizeof K), memset(KT, 0, sizeof KT);
  for (long j = 0; j < h; j++) {
    const double *v = V0 + j * D;
    int act[N], actT[NT];
    for (int i = 0; i < N; i++) act[i] = v[0] * X[i][0] + v[1] * X[i][1] + v[2] * X[i][2] >= 0;
    for (int i = 0; i < NT; i++) actT[i] = v[0] * XT[i][0] + v[1] * XT[i][1] + v[2] * XT[i][2] >= 0;
    for (int i = 0; i < N; i++)
      for (int k = 0; k < N; k++) K[i][k] += act[i] && act[k];
    for (int i = 0; i < NT; i++)
      for (int k = 0; k < N; k++) KT[i][k] += actT[i] && act[k];
  }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) K[i][k] *= (X[i][0] * X[k][0] + X[i][1] * X[k][1] + X[i][2] * X[k][2]) / h;
  for (int i = 0; i < NT; i++)
    for (int k = 0; k < N; k++) KT[i][k] *= (XT[i][0] * X[k][0] + XT[i][1] * X[k][1] + XT[i][2] * X[k][2]) / h;
  double A[N * N], ev[N];
  memcpy(A, K, sizeof A);
  LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', N, A, N, ev);
  double lam = ev[N - 1];
  double eta = 1 / lam, alpha[N] = {0}, F[N], *G = nnt_xmalloc(sizeof(double) * m * D);
  for (int t = 0; t < steps; t++) {
    /* linearised model */
    double rl[N];
    for (int i = 0; i < N; i++) {
      rl[i] = y[i];
      for (int k = 0; k < N; k++) rl[i] -= K[i][k] * alpha[k];
    }
    for (int i = 0; i < N; i++) alpha[i] += eta * rl[i];
    /* the network: residual, then gradient of (1/2) sum (F - y)^2 w.r.t. V */
    for (int i = 0; i < N; i++) F[i] = 0;
    for (long j = 0; j < m; j++) {
      const double *v = V + j * D;
      double a = j < h ? 1 : -1;
      for (int i = 0; i < N; i++) F[i] += a * fmax(0, v[0] * X[i][0] + v[1] * X[i][1] + v[2] * X[i][2]);
    }
    double res_[N];
    for (int i = 0; i < N; i++) res_[i] = F[i] / sm - y[i];
    for (long j = 0; j < m; j++) {
      double *v = V + j * D, a = j < h ? 1 : -1, g[D] = {0, 0, 0};
      for (int i = 0; i < N; i++)
        if (v[0] * X[i][0] + v[1] * X[i][1] + v[2] * X[i][2] > 0) /* s'(0) = 0 (min-norm Clarke) */
          for (int q = 0; q < D; q++) g[q] += res_[i] * a / sm * X[i][q];
      for (int q = 0; q < D; q++) G[j * D + q] = g[q];
    }
    for (long k = 0; k < m * D; k++) V[k] -= eta * G[k];
  }
  double fro = 0, rowmax = 0, mse = 0, gap = 0;
  long flips = 0;
  for (long j = 0; j < m; j++) {
    const double *v = V + j * D, *v0 = V0 + (j % h) * D;
    double rr = 0;
    for (int q = 0; q < D; q++) rr += (v[q] - v0[q]) * (v[q] - v0[q]);
    fro += rr, rowmax = fmax(rowmax, sqrt(rr));
    for (int i = 0; i < N; i++)
      flips += (v[0] * X[i][0] + v[1] * X[i][1] + v[2] * X[i][2] >= 0) != (v0[0] * X[i][0] + v0[1] * X[i][1] + v0[2] * X[i][2] >= 0);
  }
  for (int i = 0; i < N; i++) {
    double f = 0;
    for (long j = 0; j < m; j++) {
      const double *v = V + j * D;
      f += (j < h ? 1 : -1) * fmax(0, v[0] * X[i][0] + v[1] * X[i][1] + v[2] * X[i][2]);
    }
    mse += (f / sm - y[i]) * (f / sm - y[i]) / N;
  }
  for (int i = 0; i < NT; i++) {
    double f = 0, fl = 0;
    for (long j = 0; j < m; j++) {
      const double *v = V + j * D;
      f += (j < h ? 1 : -1) * fmax(0, v[0] * XT[i][0] + v[1] * XT[i][1] + v[2] * XT[i][2]);
    }
    for (int k = 0; k < N; k++) fl += KT[i][k] * alpha[k];
    gap = fmax(gap, fabs(f / sm - fl));
  }
  res->m = m, res->steps = steps, res->eta = eta;
  res->fro = sqrt(fro), res->rowmax = rowmax, res->flips = (double)flips / ((double)m * N);
  res->gap = gap, res->train_mse = mse;
  free(V0), free(V), free(G);
}
