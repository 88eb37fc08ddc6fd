/* lemma5.c — the paper's generic compiler (Appendix B.4, Lemma 5 with the Lemma 6 split into five
 * linear maps), reproduced as written: for a finite domain X ⊂ ℝ^{d_in}, values f and prescribed
 * partials g, a 2-ReLU network matching both on X, whose nonzero weights lie in value sets that
 * depend on (X_i, Y_i, G) only. Widths grow with |X| (the gap the structured compiler closes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_nn.h"

static int dcmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double *xalloc(size_t n) {
  double *p = nnt_xcalloc(n ? n : 1, sizeof *p);
  return p;
}

/* ψ^(γ) coefficients on the ReLUs at x0−2Δ, x0−Δ, x0+Δ, x0+2Δ (the one at ζ0 gets 0) */
static void psi_coef(double D, int gamma, double *c) {
  double s1 = (1 - gamma * D) / D, s3 = -(1 + gamma * D) / D;
  c[0] = s1, c[1] = gamma - s1, c[2] = s3 - gamma, c[3] = -s3;
}
/* τ_y^(γ) coefficients on the ReLUs at d_in−2Δ, d_in−Δ (the one at ζ0' gets 0) */
static void tau_coef(double D, double y, double gamma, double *c) {
  c[0] = (y - gamma * D) / D, c[1] = gamma - c[0];
}

int nnt_rcnn_lemma5_build(nnt_rcnn_lemma5 *n, int din, int dout, int npts, const double *X, const double *f, const double *g) {
  if (din < 1 || dout < 1 || npts < 1 || (double)din * dout * npts > 1e7)
    return nnt_fail(NNT_EINVAL, "lemma 5: need d_in, d_out, |X| >= 1 and d_in·d_out·|X| <= 1e7");
  memset(n, 0, sizeof *n);
  n->din = din, n->dout = dout, n->npts = npts;
  /* X_i: the values of every coordinate; Δ = min(1, smallest gap)/10 */
  n->xi = xalloc((size_t)npts * din);
  memcpy(n->xi, X, sizeof *X * (size_t)npts * din);
  qsort(n->xi, (size_t)npts * din, sizeof *n->xi, dcmp);
  double gap = 1;
  for (int i = 0; i < npts * din; i++)
    if (!i || n->xi[i] != n->xi[n->nxi - 1]) {
      if (n->nxi && n->xi[i] - n->xi[n->nxi - 1] < gap) gap = n->xi[i] - n->xi[n->nxi - 1];
      n->xi[n->nxi++] = n->xi[i];
    }
  n->delta = gap / 10, n->zeta0 = n->xi[0] - 1, n->zeta0t = -1;
  double D = n->delta;
  /* W1 (d1 = 10·d_in·|X_i| ReLUs: 5 per coordinate i, γ ∈ {0,1}, x0 ∈ X_i) and W1′ (the ψ) */
  nnt_rcnn_csr_b b;
  int nrelu = 0, nind = 0;
  n->b1 = xalloc((size_t)10 * din * n->nxi), n->b1p = xalloc((size_t)2 * din * n->nxi);
  nnt_rcnn_csr_begin(&b, &n->W1, din);
  for (int i = 0; i < din; i++)
    for (int gm = 0; gm < 2; gm++)
      for (int v = 0; v < n->nxi; v++) {
        double x0 = n->xi[v], zs[5] = {n->zeta0, x0 - 2 * D, x0 - D, x0 + D, x0 + 2 * D};
        for (int k = 0; k < 5; k++) nnt_rcnn_csr_add(&b, i, 1.0), nnt_rcnn_csr_row(&b), n->b1[nrelu++] = -zs[k];
      }
  nnt_rcnn_csr_begin(&b, &n->W1p, nrelu);
  for (int i = 0; i < din; i++)
    for (int gm = 0; gm < 2; gm++)
      for (int v = 0; v < n->nxi; v++) {
        double c[4];
        psi_coef(D, gm, c);
        int base = ((i * 2 + gm) * n->nxi + v) * 5;
        for (int k = 0; k < 4; k++) nnt_rcnn_csr_add(&b, base + 1 + k, c[k]);
        nnt_rcnn_csr_row(&b), nind++;
      }
  /* W1⁺ (3 ReLU inputs per τ: Σ_i ψ_{(x0)_i}^([i=i′]) minus ζ0′, d_in−2Δ, d_in−Δ), W2′ (the τ),
   * W2⁺ (the sum per output); one τ per (x0, output j, i′) */
  int ntau = npts * dout * din;
  n->b1plus = xalloc((size_t)3 * ntau), n->b2p = xalloc((size_t)ntau), n->b2plus = xalloc((size_t)dout);
  nnt_rcnn_csr_b bp, bt;
  nnt_rcnn_csr_begin(&bp, &n->W1plus, nind), nnt_rcnn_csr_begin(&bt, &n->W2p, 3 * ntau);
  int r2 = 0;
  for (int p = 0; p < npts; p++)
    for (int j = 0; j < dout; j++)
      for (int ip = 0; ip < din; ip++) {
        const double th[3] = {n->zeta0t, din - 2 * D, din - D};
        for (int k = 0; k < 3; k++) {
          for (int i = 0; i < din; i++) {
            int v = (int)((const double *)bsearch(&X[(size_t)p * din + i], n->xi, (size_t)n->nxi, sizeof *n->xi, dcmp) - n->xi);
            nnt_rcnn_csr_add(&bp, (i * 2 + (i == ip)) * n->nxi + v, 1.0);
          }
          nnt_rcnn_csr_row(&bp), n->b1plus[r2 + k] = -th[k];
        }
        double c[2];
        tau_coef(D, ip == 0 ? f[(size_t)p * dout + j] : 0, g[((size_t)p * dout + j) * din + ip], c);
        nnt_rcnn_csr_add(&bt, r2 + 1, c[0]), nnt_rcnn_csr_add(&bt, r2 + 2, c[1]), nnt_rcnn_csr_row(&bt);
        r2 += 3;
      }
  nnt_rcnn_csr_begin(&b, &n->W2plus, ntau);
  for (int j = 0; j < dout; j++) {
    for (int p = 0; p < npts; p++)
      for (int ip = 0; ip < din; ip++) nnt_rcnn_csr_add(&b, (p * dout + j) * din + ip, 1.0);
    nnt_rcnn_csr_row(&b);
  }
  return NNT_OK;
}

void nnt_rcnn_lemma5_free(nnt_rcnn_lemma5 *n) {
  nnt_rcnn_csr_free(&n->W1), nnt_rcnn_csr_free(&n->W1p), nnt_rcnn_csr_free(&n->W1plus), nnt_rcnn_csr_free(&n->W2p);
  nnt_rcnn_csr_free(&n->W2plus);
  free(n->b1), free(n->b1p), free(n->b1plus), free(n->b2p), free(n->b2plus), free(n->xi);
}

/* y = M x + b, and its tangent ty = M tx (the ReLU masks are applied by the caller) */
static void affine(const nnt_rcnn_csr *M, const double *b, const double *x, const double *tx, double *y, double *ty) {
  for (int r = 0; r < M->rows; r++) {
    double s = b ? b[r] : 0, t = 0;
    for (int k = M->rp[r]; k < M->rp[r + 1]; k++) s += M->v[k] * x[M->ci[k]], t += tx ? M->v[k] * tx[M->ci[k]] : 0;
    y[r] = s;
    if (ty) ty[r] = t;
  }
}

void nnt_rcnn_lemma5_eval(const nnt_rcnn_lemma5 *n, const double *x, double *out, double *jac) {
  const nnt_rcnn_csr *M[5] = {&n->W1, &n->W1p, &n->W1plus, &n->W2p, &n->W2plus};
  const double *B[5] = {n->b1, n->b1p, n->b1plus, n->b2p, n->b2plus};
  int w = n->din;
  for (int k = 0; k < 5; k++) w = M[k]->rows > w ? M[k]->rows : w;
  double *a = xalloc((size_t)w), *c = xalloc((size_t)w), *ta = xalloc((size_t)w), *tc = xalloc((size_t)w);
  /* forward mode, one pass per input direction (d_in is small); ReLUs after maps 1 and 3 */
  for (int dir = 0; dir < (jac ? n->din : 1); dir++) {
    memcpy(a, x, sizeof *x * (size_t)n->din);
    for (int i = 0; i < n->din; i++) ta[i] = i == dir;
    for (int k = 0; k < 5; k++) {
      affine(M[k], B[k], a, ta, c, tc);
      if (k == 0 || k == 2)
        for (int r = 0; r < M[k]->rows; r++)
          if (c[r] <= 0) c[r] = 0, tc[r] = 0;
      double *s = a;
      a = c, c = s, s = ta, ta = tc, tc = s;
    }
    for (int j = 0; j < n->dout; j++) {
      out[j] = a[j];
      if (jac) jac[j * n->din + dir] = ta[j];
    }
  }
  free(a), free(c), free(ta), free(tc);
}

/* Lemma 6's sets, built from (X_i, Δ, ζ0, ζ0′, Y_i, G) alone, then every nonzero entry checked. */
static int in_set(const double *s, int n, double v) {
  for (int i = 0; i < n; i++)
    if (s[i] == v) return 1;
  return 0;
}
static void add_set(double *s, int *n, double v) {
  if (v != 0 && !in_set(s, *n, v)) s[(*n)++] = v;
}

void nnt_rcnn_lemma6_check(const nnt_rcnn_lemma5 *n, int nyi, const double *yi, int ng, const double *G, nnt_rcnn_lemma6 *r) {
  double D = n->delta;
  int cap = 8 * n->nxi + 16 + 8 * (nyi + 1) * ng;
  double *U = xalloc((size_t)cap);
  const nnt_rcnn_csr *M[5] = {&n->W1, &n->W1p, &n->W1plus, &n->W2p, &n->W2plus};
  const double *B[5] = {n->b1, n->b1p, n->b1plus, n->b2p, n->b2plus};
  memset(r, 0, sizeof *r);
  r->bound[0] = 4L * n->nxi + 2, r->bound[1] = 12L * n->nxi, r->bound[2] = 4, r->bound[3] = 4L * ng * nyi, r->bound[4] = 1;
  for (int k = 0; k < 5; k++) {
    int nu = 0;
    switch (k) {
      case 0:
        add_set(U, &nu, 1), add_set(U, &nu, -n->zeta0);
        for (int v = 0; v < n->nxi; v++) {
          double x0 = n->xi[v];
          add_set(U, &nu, -(x0 - 2 * D)), add_set(U, &nu, -(x0 - D)), add_set(U, &nu, -(x0 + D)), add_set(U, &nu, -(x0 + 2 * D));
        }
        break;
      case 1:
        for (int gm = 0; gm < 2; gm++) {
          double c[4];
          psi_coef(D, gm, c);
          for (int q = 0; q < 4; q++) add_set(U, &nu, c[q]);
        }
        break;
      case 2:
        add_set(U, &nu, 1), add_set(U, &nu, -n->zeta0t), add_set(U, &nu, -(n->din - 2 * D)), add_set(U, &nu, -(n->din - D));
        break;
      case 3:
        for (int y = 0; y <= nyi; y++)
          for (int q = 0; q < ng; q++) {
            double c[2];
            tau_coef(D, y < nyi ? yi[y] : 0, G[q], c);
            add_set(U, &nu, c[0]), add_set(U, &nu, c[1]);
          }
        break;
      default: add_set(U, &nu, 1);
    }
    r->size[k] = nu, r->within[k] = 1;
    for (int e = 0; e < M[k]->nnz; e++)
      if (M[k]->v[e] != 0) r->nnz[k]++, r->within[k] &= in_set(U, nu, M[k]->v[e]);
    for (int e = 0; e < M[k]->rows; e++)
      if (B[k][e] != 0) r->nnz[k]++, r->within[k] &= in_set(U, nu, B[k][e]);
  }
  free(U);
}
