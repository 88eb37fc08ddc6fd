/* Theory side of qSTR: the eq. (A.2) construction and its closed-form error, Theorem 6's
 * min-norm least squares, the head lower bounds. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_qstr.h"

int nnt_qstr_construct(const nnt_qstr_task *t, double alpha, nnt_qstr_model *mo, double **pp) {
  if (t->c.link != NNT_QSTR_LINK_LINEAR || t->c.law != NNT_QSTR_LAW_UNIFORM)
    return nnt_fail(NNT_EINVAL, "construct: needs the linear link and the uniform index law");
  int N = t->c.N, d = t->c.d, q = t->c.q, de = t->c.de, D = t->D, st;
  if ((st = nnt_qstr_model_setup(mo, NNT_QSTR_TRP, N, D, 2, q, 0, NULL))) return st;
  double *p = nnt_xcalloc(mo->np, sizeof(double));
  for (int h = 0; h < q; h++) {
    double *W = p + mo->wqk + (size_t)h * D * D;
    for (int k = 0; k < de; k++) W[(size_t)(d + (h + 1) * de + k) * D + d + k] = alpha;
    for (int k = 0; k < d; k++) {
      p[mo->w1 + h * D + k] = t->u[h * d + k] / sqrt((double)q);
      p[mo->w1 + q * D + h * D + k] = -t->u[h * d + k] / sqrt((double)q);
    }
  }
  p[mo->w2] = 1, p[mo->w2 + 1] = -1;
  *pp = p;
  return NNT_OK;
}

void nnt_qstr_construct_mse(const nnt_qstr_task *t, double alpha, nnt_rng *r, int n, double *closed, double *mc,
                            double *mc_se) {
  int N = t->c.N, d = t->c.d, q = t->c.q, de = t->c.de, D = t->D;
  nnt_qstr_model mo;
  double *p;
  if (nnt_qstr_construct(t, alpha, &mo, &p)) {
    *closed = *mc = *mc_se = NAN;
    return;
  }
  double cs2 = t->c.enc == NNT_QSTR_ENC_PAPER ? (double)d / q : 1.0;
  enum { CH = 256 };
  double *X = nnt_xmalloc(sizeof(double) * CH * N * D), *y = nnt_xmalloc(sizeof(double) * CH * N);
  double *yh = nnt_xmalloc(sizeof(double) * CH * N), *A = nnt_xmalloc(sizeof(double) * N), *c = nnt_xmalloc(sizeof(double) * N);
  int *idx = nnt_xmalloc(sizeof(int) * CH * N * q);
  nnt_qstr_ws_f64 *ws = nnt_qstr_ws_new_f64(&mo, CH);
  double scl = 0, s1 = 0, s2 = 0;
  for (int b0 = 0; b0 < n; b0 += CH) {
    int B = n - b0 < CH ? n - b0 : CH;
    nnt_qstr_sample_f64(t, r, B, -1, X, y, idx);
    nnt_qstr_forward_f64(&mo, ws, p, X, B, yh);
    for (int b = 0; b < B; b++) {
      double cl = 0, e2 = 0;
      for (int i = 0; i < N; i++) {
        const int *ti = idx + ((size_t)b * N + i) * q;
        memset(c, 0, sizeof(double) * N);
        for (int h = 0; h < q; h++) {
          double mx = -INFINITY, sum = 0;
          for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < de; k++) s += t->E[ti[h] * de + k] * t->E[j * de + k];
            A[j] = alpha * cs2 * s;
            mx = A[j] > mx ? A[j] : mx;
          }
          for (int j = 0; j < N; j++) A[j] = exp(A[j] - mx), sum += A[j];
          for (int j = 0; j < N; j++) c[j] -= A[j] / sum;
          c[ti[h]] += 1;
        }
        for (int j = 0; j < N; j++) cl += c[j] * c[j] / q;
        double e = yh[(size_t)b * N + i] - y[(size_t)b * N + i];
        e2 += e * e;
      }
      scl += cl / N, s1 += e2 / N, s2 += (e2 / N) * (e2 / N);
    }
  }
  *closed = scl / n;
  *mc = s1 / n;
  *mc_se = sqrt(fmax(s2 / n - (*mc) * (*mc), 0) / n);
  nnt_qstr_ws_free_f64(ws);
  free(p), free(X), free(y), free(yh), free(A), free(c), free(idx);
}

double nnt_qstr_ffn_minnorm_mse(int N, int d, int n, int n_test, int trials, nnt_rng *r, double *se) {
  int P = N * d;
  double *X = nnt_xmalloc(sizeof(double) * (size_t)(n ? n : 1) * P), *G = nnt_xmalloc(sizeof(double) * (size_t)(n ? n * n : 1));
  double *beta = nnt_xmalloc(sizeof(double) * (size_t)N * P), *c = nnt_xmalloc(sizeof(double) * (n ? n : 1));
  double *u = nnt_xmalloc(sizeof(double) * d), *x = nnt_xmalloc(sizeof(double) * P);
  /* the test errors of one trial share its u and X, so the spread is measured between trials */
  double s1 = 0, s2 = 0, t1 = 0, t2 = 0;
  long cnt = 0;
  for (int tr = 0; tr < trials; tr++) {
    double nu = 0, tm = 0;
    for (int k = 0; k < d; k++) u[k] = nnt_rng_normal(r), nu += u[k] * u[k];
    for (int k = 0; k < d; k++) u[k] /= sqrt(nu);
    for (size_t k = 0; k < (size_t)n * P; k++) X[k] = nnt_rng_normal(r);
    for (int i = 0; i < n; i++)
      for (int j = 0; j <= i; j++) {
        double s = 0;
        for (int k = 0; k < P; k++) s += X[(size_t)i * P + k] * X[(size_t)j * P + k];
        G[i * n + j] = G[j * n + i] = s;
      }
    /* G = L L^T (LAPACK; G is symmetric, so its row-major layout reads as column-major too) */
    int ok = n == 0 || LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, G, n) == 0;
    /* beta_t = X^T (X X^T)^{-1} X P_t u : the min-norm interpolant of the labels <u, x_t> */
    for (int t = 0; t < N; t++) {
      double *bt = beta + (size_t)t * P;
      memset(bt, 0, sizeof(double) * P);
      if (!ok || n == 0) continue;
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = 0; k < d; k++) s += X[(size_t)i * P + t * d + k] * u[k];
        c[i] = s;
      }
      LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, 1, G, n, c, n);
      for (int i = 0; i < n; i++)
        for (int k = 0; k < P; k++) bt[k] += c[i] * X[(size_t)i * P + k];
    }
    for (int s = 0; s < n_test; s++) {
      int t = (int)nnt_rng_below(r, (uint64_t)N);
      for (int k = 0; k < P; k++) x[k] = nnt_rng_normal(r);
      double y = 0, yh = 0;
      for (int k = 0; k < d; k++) y += u[k] * x[t * d + k];
      for (int k = 0; k < P; k++) yh += beta[(size_t)t * P + k] * x[k];
      s1 += (y - yh) * (y - yh), s2 += (y - yh) * (y - yh) * (y - yh) * (y - yh), cnt++, tm += (y - yh) * (y - yh);
    }
    tm /= n_test > 0 ? n_test : 1;
    t1 += tm, t2 += tm * tm;
  }
  double m = cnt ? s1 / cnt : NAN;
  if (se && trials > 1) /* standard error of the mean of the per-trial means */
    *se = sqrt(fmax(t2 / trials - (t1 / trials) * (t1 / trials), 0) / (trials - 1));
  else if (se) /* one trial: only the spread of its test points is known */
    *se = cnt ? sqrt(fmax(s2 / cnt - m * m, 0) / cnt) : NAN;
  free(X), free(G), free(beta), free(c), free(u), free(x);
  return m;
}

double nnt_qstr_heads_bound(int H, int q, int d) { return fmax(0.0, 1.0 - (double)H * (q + d) / ((double)q * d)); }
double nnt_qstr_heads_bound_exact(int H, int q) { return fmax(0.0, 1.0 - (double)H / q); }

double nnt_qstr_construct_link_mse(const nnt_qstr_task *t, double alpha, nnt_rng *r, int n) {
  int N = t->c.N, d = t->c.d, q = t->c.q, de = t->c.de, D = t->D;
  double cs2 = t->c.enc == NNT_QSTR_ENC_PAPER ? (double)d / q : 1.0;
  double *X = nnt_xmalloc(sizeof(double) * N * D), *y = nnt_xmalloc(sizeof(double) * N);
  double *A = nnt_xmalloc(sizeof(double) * N), *xs = nnt_xmalloc(sizeof(double) * q * d), var[64];
  int *idx = nnt_xmalloc(sizeof(int) * N * q);
  double s = 0;
  for (int b = 0; b < n; b++) {
    nnt_qstr_sample_f64(t, r, 1, -1, X, y, idx);
    for (int i = 0; i < N; i++) {
      for (int h = 0; h < q; h++) {
        int th = idx[i * q + h];
        var[h] = t->c.law == NNT_QSTR_LAW_ADVERSARIAL && 2 * th >= N ? 0 : 1; /* the law's zero tokens */
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < N; j++) {
          double v = 0;
          for (int k = 0; k < de; k++) v += t->E[th * de + k] * t->E[j * de + k];
          A[j] = alpha * cs2 * v, mx = A[j] > mx ? A[j] : mx;
        }
        for (int j = 0; j < N; j++) A[j] = exp(A[j] - mx), sum += A[j];
        for (int k = 0; k < d; k++) {
          double v = 0;
          for (int j = 0; j < N; j++) v += A[j] * X[(size_t)j * D + k];
          xs[h * d + k] = v / sum;
        }
      }
      double e = nnt_qstr_link_value(t, xs, var) - y[i];
      s += e * e;
    }
  }
  free(X), free(y), free(A), free(xs), free(idx);
  return s / ((double)n * N);
}
