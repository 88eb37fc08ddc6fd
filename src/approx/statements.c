/* statements.c — measurements behind the rows of `nnt approx check` that test a bound itself
 * (Thm 2.3 for d >= 3, Thm 2.5, Lemma 3.8, Lemma 3.15's scaling, Thm 4.4's sizes, Thm 4.6, Lemma 4.11; Maurey
 * for a tabulated Barron net is in sampling.c). Each takes the object
 * under test (a network, an init scale, a constant) as an argument and returns whether the claim
 * holds, so tests/approx can hand it a faulty object and see the claim fail. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_error.h"

/* the larger of two measurements, NaN if either is (fmax skips a NaN, which would then pass) */
static double max_nan(double a, double b) { return a != a || b != b ? NAN : a > b ? a : b; }

void nnt_approx_random_1d_net(nnt_mlp *m, nnt_rng *r, const int *w, int nh) {
  nnt_mlp_init(m);
  int in = 1;
  for (int l = 0; l <= nh; l++) {
    int out = l < nh ? w[l] : 1;
    nnt_mlp_layer *L = nnt_mlp_add(m, in, out, l < nh ? NNT_ACT_RELU : NNT_ACT_IDENTITY);
    nnt_rng_fill_normal_f64(r, L->W, (size_t)in * out, 0, 1);
    /* first-layer kinks uniform in [0,1]: the pieces land where the statements look */
    for (int u = 0; u < out; u++) L->b[u] = l == 0 ? -nnt_rng_uniform(r) * L->W[u] : nnt_rng_normal(r) * 0.5;
    in = out;
  }
}

/* ------------------------------------------------------------------ Thm 2.3, d >= 3 */

int nnt_approx_thm23_measure(const nnt_smlp *m, int d, int k, double gamma, double eps, nnt_approx_fnd g, void *ctx,
                             nnt_rng *r, int npts, nnt_approx_thm23_stats *s) {
  double *X = nnt_xmalloc(sizeof(double) * 2 * npts * d), *Y = nnt_xmalloc(sizeof(double) * 2 * npts), u[8];
  for (int p = 0; p < npts; p++) {
    double *x = X + (size_t)p * d, *c = X + (size_t)(npts + p) * d;
    for (int i = 0; i < d; i++) {
      x[i] = nnt_rng_uniform(r);
      c[i] = (floor(x[i] * k) + 1) / k - 1.5 * gamma;
    }
  }
  nnt_smlp_forward_batch(m, 2 * npts, X, Y);
  s->sup = s->dev = s->l1 = 0;
  for (int p = 0; p < npts; p++) {
    const double *c = X + (size_t)(npts + p) * d;
    for (int i = 0; i < d; i++) u[i] = floor(c[i] * k) / k;
    double f = Y[npts + p];
    s->l1 += fabs(Y[p] - g(X + (size_t)p * d, d, ctx)) / npts;
    s->sup = max_nan(s->sup, fabs(f - g(c, d, ctx)));
    s->dev = max_nan(s->dev, fabs(f - g(u, d, ctx)));
  }
  free(X), free(Y);
  long cubes = 1;
  for (int i = 0; i < d; i++) cubes *= k;
  nnt_mlp_stats st = nnt_smlp_stats_of(m);
  s->relus = st.hidden_units, s->relus_stated = (4L * d + 1) * cubes;
  s->nnz_box = m->nlayers == 3 ? m->layers[1].nnz : -1;
  return st.layers == 3 && s->relus == 4L * d * k + cubes && s->relus <= s->relus_stated && s->nnz_box == 4L * d * cubes &&
         s->sup <= eps && s->dev <= 1e-6 && s->l1 <= 2 * eps;
}

/* ------------------------------------------------------------------ Lemma 3.8 */

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

int nnt_approx_lemma38_measure(nnt_rng *r, int m, int d, double tau, const double *deltas, int nd, int trials,
                               double sigma, nnt_approx_lemma38_stats *s) {
  long *cnt = nnt_xmalloc(sizeof(long) * trials);
  double x[16], v[16], sum = 0;
  for (int t = 0; t < trials; t++) {
    /* a fresh x per draw, of random norm: the count must not depend on either */
    nnt_approx_random_unit(r, d, x);
    double nx = 0.5 + 1.5 * nnt_rng_uniform(r);
    for (int i = 0; i < d; i++) x[i] *= nx;
    long c = 0;
    for (int j = 0; j < m; j++) {
      nnt_rng_fill_normal_f64(r, v, d, 0, sigma);
      double z = 0;
      for (int i = 0; i < d; i++) z += v[i] * x[i];
      c += fabs(z) <= tau * nx;
    }
    cnt[t] = c, sum += c;
  }
  qsort(cnt, trials, sizeof(long), cmp_long);
  double p = erf(tau / sqrt(2)); /* P[|g| <= tau], g ~ N(0,1) */
  int pass = 1;
  s->mean = sum / trials;
  s->mean_z = (s->mean - m * p) / sqrt(m * p * (1 - p) / trials);
  pass &= fabs(s->mean_z) <= 5;
  s->max_ratio = 0;
  for (int q = 0; q < nd; q++) {
    double dl = deltas[q], bound = m * tau + sqrt(m / 2.0 * log(1 / dl));
    int k = (int)ceil((1 - dl) * trials) - 1; /* empirical (1 - delta)-quantile */
    long over = 0;
    for (int t = 0; t < trials; t++) over += cnt[t] > bound;
    s->quantile[q] = (double)cnt[k < 0 ? 0 : k];
    s->bound[q] = bound;
    s->bound_draft[q] = m * tau + sqrt(m / 2.0) * log(1 / dl);
    s->over[q] = (double)over / trials;
    s->max_ratio = fmax(s->max_ratio, s->quantile[q] / bound);
    pass &= s->quantile[q] <= bound && s->over[q] <= dl;
  }
  free(cnt);
  return pass;
}

/* ------------------------------------------------------------------ Lemma 3.15 scaling */

int nnt_approx_lemma315_scaling(nnt_rng *r, const int *ms, int nm, int d, int samples, double p_plus, double *q99,
                                double *slope) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, sd;
  for (int q = 0; q < nm; q++) {
    nnt_approx_lemma315_stats(r, ms[q], d, samples, p_plus, &sd, &q99[q]);
    double lx = log((double)ms[q]), ly = log(q99[q] * sqrt((double)ms[q]));
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  *slope = (nm * sxy - sx * sy) / (nm * sxx - sx * sx);
  return fabs(*slope - 0.5) <= 0.1;
}

/* ------------------------------------------------------------------ Thm 4.4 sizes */

int nnt_approx_thm44_size_measure(const nnt_mlp *f, int L, nnt_approx_thm44_size_stats *s) {
  int n = L * L + 2;
  nnt_mlp_stats st = nnt_mlp_stats_of(f);
  s->n = n;
  s->nodes = st.hidden_units;
  s->relu_layers = st.layers - 1;
  long max = (1L << n) + 1;
  nnt_approx_piece *p = nnt_xmalloc(sizeof *p * max);
  s->pieces = nnt_approx_pwl_collect(f, NULL, 0, 1, p, max);
  /* a PWL function is fixed by its breakpoints and its values there: compare both to
   * Delta(<2^{n-1} x>), whose breakpoints are k/2^n with values alternating 0, 1 */
  s->bad_breaks = 0;
  for (long i = 0; i < s->pieces; i++) {
    double x0 = p[i].x0, want_x = ldexp((double)i, -n);
    s->bad_breaks += !(fabs(x0 - want_x) <= 1e-12) || !(fabs(p[i].a * x0 + p[i].c - nnt_approx_delta_pow_closed(n, want_x)) <= 1e-9);
  }
  if (s->pieces > 0) {
    const nnt_approx_piece *e = &p[s->pieces - 1];
    s->bad_breaks += e->x1 != 1 || !(fabs(e->a + e->c - nnt_approx_delta_pow_closed(n, 1)) <= 1e-9);
  }
  free(p);
  return s->nodes == 3L * L * L + 6 && 2 * s->relu_layers == 2 * L * L + 4 && s->pieces == 1L << n && s->bad_breaks == 0;
}

/* ------------------------------------------------------------------ Thm 4.6 */

int nnt_approx_thm46_measure(const nnt_mlp *f, double C, nnt_approx_thm46_stats *s) {
  nnt_approx_square_error e;
  int st = nnt_approx_square_error_of(f, &e);
  if (st) return -1;
  nnt_mlp_stats ms = nnt_mlp_stats_of(f);
  s->L = ms.layers - 1, s->N = ms.hidden_units, s->pieces = e.pieces, s->l2sq = e.l2sq;
  /* bound 1/(C (2N/L)^{4L}); kept as a log10 ratio: (2N/L)^{4L} overflows for deep nets */
  s->log10_ratio_stated = log10(e.l2sq * C) + (s->L ? 4.0 * s->L * log10(2.0 * s->N / s->L) : 0);
  s->ratio_na = e.l2sq * C * pow((double)e.pieces, 4);
  return s->log10_ratio_stated >= 0 && s->ratio_na >= 1;
}

void nnt_approx_build_square_shifted(nnt_mlp *m, int i) {
  nnt_approx_build_square(m, i);
  /* h_i - x^2 is 4^{-i} t(1-t) on each piece: the best affine fit per piece is h_i minus its mean 4^{-i}/6 */
  m->layers[m->nlayers - 1].b[0] -= pow(4, -i) / 6;
}

/* ------------------------------------------------------------------ Lemma 4.11 */

static long collect_all(const nnt_mlp *f, nnt_approx_piece **out) {
  long max = 64;
  for (;;) {
    *out = nnt_xrealloc(*out, sizeof **out * max);
    long n = nnt_approx_pwl_collect(f, NULL, -INFINITY, INFINITY, *out, max);
    if (n >= 0) return n;
    max *= 4;
  }
}

/* a point inside [x0, x1] for either ray */
static double inside(double x0, double x1) {
  if (isinf(x0) && isinf(x1)) return 0;
  if (isinf(x0)) return x1 - 1;
  if (isinf(x1)) return x0 + 1;
  return 0.5 * (x0 + x1);
}

static const nnt_approx_piece *piece_at(const nnt_approx_piece *p, long n, double y) {
  long lo = 0, hi = n - 1;
  while (lo < hi) {
    long mid = (lo + hi) / 2;
    if (y > p[mid].x1) lo = mid + 1;
    else hi = mid;
  }
  return &p[lo];
}

static int same_affine(double a0, double c0, double a1, double c1) {
  return fabs(a0 - a1) <= 1e-9 * (1 + fabs(a0)) && fabs(c0 - c1) <= 1e-9 * (1 + fabs(c0));
}

/* appends [x0, x1] with a x + c to ref, merging with the last piece when it is the same affine map */
static void push(nnt_approx_piece *ref, long *n, double x0, double x1, double a, double c) {
  if (*n && same_affine(ref[*n - 1].a, ref[*n - 1].c, a, c)) {
    ref[*n - 1].x1 = x1;
    return;
  }
  ref[(*n)++] = (nnt_approx_piece){x0, x1, a, c};
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* engine pieces vs reference pieces: same count, breakpoints within 1e-9 */
static double break_gap(const nnt_approx_piece *e, long ne, const nnt_approx_piece *r, long nr) {
  if (ne != nr) return INFINITY;
  double g = 0;
  for (long i = 0; i + 1 < ne; i++) {
    double d = fabs(e[i].x1 - r[i].x1) / (1 + fabs(r[i].x1));
    if (isnan(d)) return INFINITY;
    g = fmax(g, d);
  }
  return g;
}

int nnt_approx_lemma411_measure(const nnt_mlp *f, const nnt_mlp *g, const nnt_mlp *fg, const nnt_mlp *fpg,
                                nnt_approx_lemma411_stats *s) {
  nnt_approx_piece *pf = NULL, *pg = NULL, *pe = NULL;
  long nf = collect_all(f, &pf), ng = collect_all(g, &pg);
  s->na_f = nf, s->na_g = ng;
  /* f o g by hand: each piece U of g, cut where a g + c crosses a breakpoint of f */
  nnt_approx_piece *ref = nnt_xmalloc(sizeof *ref * (nf * ng + nf + ng + 2));
  double *cut = nnt_xmalloc(sizeof(double) * (nf + 2));
  long nr = 0;
  for (long u = 0; u < ng; u++) {
    const nnt_approx_piece *U = &pg[u];
    int nc = 0;
    cut[nc++] = U->x0;
    if (U->a != 0)
      for (long k = 0; k + 1 < nf; k++) {
        double x = (pf[k].x1 - U->c) / U->a;
        if (x > U->x0 && x < U->x1) cut[nc++] = x;
      }
    qsort(cut + 1, nc - 1, sizeof(double), cmp_dbl);
    cut[nc] = U->x1;
    for (int k = 0; k < nc; k++) {
      const nnt_approx_piece *F = piece_at(pf, nf, U->a * inside(cut[k], cut[k + 1]) + U->c);
      push(ref, &nr, cut[k], cut[k + 1], F->a * U->a, F->a * U->c + F->c);
    }
  }
  s->na_fg = collect_all(fg, &pe);
  s->na_fg_ref = nr;
  s->gap_fg = break_gap(pe, s->na_fg, ref, nr);
  /* f + g: the union of both breakpoint sets, then merged */
  double *bx = nnt_xmalloc(sizeof(double) * (nf + ng + 2));
  int nb = 0;
  for (long k = 0; k + 1 < nf; k++) bx[nb++] = pf[k].x1;
  for (long k = 0; k + 1 < ng; k++) bx[nb++] = pg[k].x1;
  qsort(bx, nb, sizeof(double), cmp_dbl);
  nr = 0;
  double prev = -INFINITY;
  for (int k = 0; k <= nb; k++) {
    double x1 = k < nb ? bx[k] : INFINITY;
    if (x1 == prev) continue;
    double xm = inside(prev, x1);
    const nnt_approx_piece *F = piece_at(pf, nf, xm), *G = piece_at(pg, ng, xm);
    push(ref, &nr, prev, x1, F->a + G->a, F->c + G->c);
    prev = x1;
  }
  s->na_sum = collect_all(fpg, &pe);
  s->na_sum_ref = nr;
  s->gap_sum = break_gap(pe, s->na_sum, ref, nr);
  free(pf), free(pg), free(pe), free(ref), free(cut), free(bx);
  return s->gap_fg <= 1e-9 && s->gap_sum <= 1e-9 && s->na_fg <= s->na_f * s->na_g && s->na_sum <= s->na_f + s->na_g;
}

void nnt_approx_net_sum(nnt_mlp *out, const nnt_mlp *f, const nnt_mlp *g) {
  double one2[2] = {1, 1}, zero2[2] = {0, 0}, zero = 0;
  nnt_mlp dup, sum, par, t;
  nnt_approx_net_affine(&dup, 1, 2, one2, zero2);
  nnt_approx_net_affine(&sum, 2, 1, one2, &zero);
  const nnt_mlp *both[2] = {f, g};
  nnt_approx_net_parallel(&par, both, 2);
  nnt_approx_net_compose(&t, &dup, &par);
  nnt_approx_net_compose(out, &t, &sum);
  nnt_mlp_free(&dup), nnt_mlp_free(&sum), nnt_mlp_free(&par), nnt_mlp_free(&t);
}

/* ------------------------------------------------------------------ Thm 4.4: the best fits */

/* int_0^h |d0 + (d1 - d0) t/h| dt exactly */
static double abs_lin(double d0, double d1, double h) {
  if ((d0 >= 0) == (d1 >= 0)) return h * fabs(d0 + d1) / 2;
  return h * (d0 * d0 + d1 * d1) / (2 * (fabs(d0) + fabs(d1)));
}

int nnt_approx_sep_grid_fit(int n, int P, int V, double *l1, nnt_mlp *fit) {
  if (n < 1 || n > 6 || P < 1 || P > (1 << (n + 1)) || V < 2 || V > 17)
    return nnt_fail(NNT_EINVAL, "grid fit: n in [1,6], P in [1,2^(n+1)], V in [2,17]");
  int G = (1 << (n + 1)) + 1, S = G * V; /* grid x_i = i/2^{n+1}: Delta^n is linear between neighbours */
  double h = 1.0 / (G - 1), *dv = nnt_xmalloc(sizeof(double) * G);
  for (int i = 0; i < G; i++) dv[i] = nnt_approx_delta_pow_closed(n, i * h);
  /* cost[(i*V + a) * S + j*V + b], i < j: int_{x_i}^{x_j} |Delta^n - line| (exact per grid cell) */
  double *cost = nnt_xmalloc(sizeof(double) * S * S);
  for (int i = 0; i < G; i++)
    for (int a = 0; a < V; a++)
      for (int j = i + 1; j < G; j++)
        for (int b = 0; b < V; b++) {
          double ya = (double)a / (V - 1), yb = (double)b / (V - 1), c = 0;
          for (int k = i; k < j; k++) {
            double l0 = ya + (yb - ya) * (k - i) / (j - i), l1v = ya + (yb - ya) * (k + 1 - i) / (j - i);
            c += abs_lin(dv[k] - l0, dv[k + 1] - l1v, h);
          }
          cost[(size_t)(i * V + a) * S + j * V + b] = c;
        }
  /* best[p][s]: least error on [0, x_j] with p pieces ending at state s = (j, b) */
  double *best = nnt_xmalloc(sizeof(double) * (P + 1) * S);
  int *from = nnt_xmalloc(sizeof(int) * (P + 1) * S);
  for (int s = 0; s < (P + 1) * S; s++) best[s] = INFINITY, from[s] = -1;
  for (int a = 0; a < V; a++) best[a] = 0;
  for (int p = 1; p <= P; p++)
    for (int j = 1; j < G; j++)
      for (int b = 0; b < V; b++) {
        int s = j * V + b;
        double bv = INFINITY;
        int bf = -1;
        for (int r = 0; r < j * V; r++) {
          double c = best[(size_t)(p - 1) * S + r] + cost[(size_t)r * S + s];
          if (c < bv) bv = c, bf = r;
        }
        best[(size_t)p * S + s] = bv, from[(size_t)p * S + s] = bf;
      }
  for (int p = 1; p <= P; p++) {
    int sb = (G - 1) * V;
    for (int b = 1; b < V; b++)
      if (best[(size_t)p * S + (G - 1) * V + b] < best[(size_t)p * S + sb]) sb = (G - 1) * V + b;
    l1[p - 1] = best[(size_t)p * S + sb];
    if (!fit) continue;
    /* the optimal p-piece path: breakpoints and values, as s(x - x_k) units */
    double xs[(1 << 7) + 1], ys[(1 << 7) + 1];
    int np = p, s = sb;
    for (int q = p; q >= 0; q--) {
      xs[q] = (s / V) * h, ys[q] = (double)(s % V) / (V - 1);
      if (q) s = from[(size_t)q * S + s];
    }
    nnt_mlp *m = &fit[p - 1];
    nnt_mlp_init(m);
    nnt_mlp_layer *A = nnt_mlp_add(m, 1, np, NNT_ACT_RELU), *B = nnt_mlp_add(m, np, 1, NNT_ACT_IDENTITY);
    double prev = 0;
    for (int k = 0; k < np; k++) {
      double sl = (ys[k + 1] - ys[k]) / (xs[k + 1] - xs[k]);
      A->W[k] = 1, A->b[k] = -xs[k], B->W[k] = sl - prev;
      prev = sl;
    }
    B->b[0] = ys[0];
  }
  free(dv), free(cost), free(best), free(from);
  return NNT_OK;
}

/* ------------------------------------------------------------------ Lemma 2.7 */

double nnt_approx_exp_fit_v(int d, int m, const double *V, int G, nnt_approx_fnd g, void *ctx, double *a) {
  int n = d == 1 ? G : G * G;
  double *A = nnt_xmalloc(sizeof(double) * n * m), *y = nnt_xmalloc(sizeof(double) * n), x[2];
  /* row i: grid point (i % G, i / G) at cell centres; column j: exp(v_j . x) */
  for (int i = 0; i < n; i++) {
    x[0] = (i % G + 0.5) / G, x[1] = (i / G + 0.5) / G;
    y[i] = g(x, d, ctx);
    for (int j = 0; j < m; j++) A[(size_t)i * m + j] = exp(V[j * d] * x[0] + (d == 2 ? V[j * d + 1] * x[1] : 0));
  }
  LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', n, m, 1, A, m, y, 1);
  memcpy(a, y, sizeof(double) * m);
  /* sup error on a finer grid including the boundary, evaluated term by term */
  int E = 97, ne = d == 1 ? E : E * E;
  double sup = 0;
  for (int i = 0; i < ne; i++) {
    x[0] = (double)(i % E) / (E - 1), x[1] = (double)(i / E) / (E - 1);
    double f = 0;
    for (int j = 0; j < m; j++) f += a[j] * exp(V[j * d] * x[0] + (d == 2 ? V[j * d + 1] * x[1] : 0));
    double e = fabs(f - g(x, d, ctx));
    sup = isnan(e) || isnan(sup) ? NAN : fmax(sup, e); /* fmax alone would skip a NaN (rank-deficient fit) */
  }
  free(A), free(y);
  return isnan(sup) ? INFINITY : sup;
}

double nnt_approx_exp_fit(int d, int K, double vscale, nnt_approx_fnd g, void *ctx, double *a) {
  int m = d == 1 ? K + 1 : (K + 1) * (K + 1);
  double *V = nnt_xmalloc(sizeof(double) * m * d);
  for (int j = 0; j < m; j++) {
    V[j * d] = vscale * (j % (K + 1));
    if (d == 2) V[j * d + 1] = vscale * (j / (K + 1));
  }
  double sup = nnt_approx_exp_fit_v(d, m, V, 4 * (K + 1), g, ctx, a);
  free(V);
  return sup;
}

/* ------------------------------------------------------------------ Thm 2.5 */

/* the range of v . x over [0,1]^d */
static void dot_range(const double *v, int d, double *lo, double *hi) {
  *lo = *hi = 0;
  for (int i = 0; i < d; i++) *lo += fmin(v[i], 0), *hi += fmax(v[i], 0);
}

long nnt_approx_thm25_relu(nnt_mlp *out, int d, int m, const double *V, const double *a, double eps) {
  double lo = 0, hi = 0, A = 0;
  for (int j = 0; j < m; j++) {
    double l, h;
    dot_range(V + (size_t)j * d, d, &l, &h);
    lo = fmin(lo, l), hi = fmax(hi, h), A += fabs(a[j]);
  }
  /* |p - e^r| <= (len/n)^2 e^hi / 8 <= eps/(1 + 2A) on [lo, hi], so |f - h| <= A eps/(1 + 2A) < eps/2 */
  double nk = ceil((hi - lo) * sqrt(exp(hi) * (1 + 2 * A) / (8 * eps)));
  long n = nk < 1 ? 1 : nk <= 1 << 26 ? (long)nk : -1;
  int live = 0;
  for (int j = 0; j < m; j++) live += V[(size_t)j * d] != 0 || (d == 2 && V[(size_t)j * d + 1] != 0);
  if (n < 0 || (double)n * live > 1 << 26) { /* n < 0: too many or not finite (a NaN fit) */
    nnt_fail(NNT_EINVAL, "thm25: %g knots for each of %d units exceed 2^26 ReLUs", nk, live);
    return -1;
  }
  nnt_mlp_init(out);
  nnt_mlp_layer *H = nnt_mlp_add(out, d, (int)(live * n), NNT_ACT_RELU), *O = nnt_mlp_add(out, (int)(live * n), 1, NNT_ACT_IDENTITY);
  double step = (hi - lo) / n;
  O->b[0] = 0;
  for (int j = 0, u = 0; j < m; j++) {
    const double *v = V + (size_t)j * d;
    if (v[0] == 0 && (d == 1 || v[1] == 0)) { /* e^0 = 1: a constant */
      O->b[0] += a[j];
      continue;
    }
    /* p(r) = e^{t_0} + sum_i (s_i - s_{i-1}) s(r - t_i), s_i the slope on [t_i, t_{i+1}] */
    O->b[0] += a[j] * exp(lo);
    double prev = 0;
    for (long i = 0; i < n; i++, u++) {
      double t0 = lo + i * step, t1 = lo + (i + 1) * step, sl = (exp(t1) - exp(t0)) / step;
      for (int k = 0; k < d; k++) H->W[(size_t)u * d + k] = v[k];
      H->b[u] = -t0;
      O->W[u] = a[j] * (sl - prev);
      prev = sl;
    }
  }
  return n;
}

int nnt_approx_thm25_measure(const nnt_mlp *f, int d, int m, const double *V, const double *a, nnt_approx_fnd g, void *ctx,
                             double eps, int E, nnt_approx_thm25_stats *s) {
  int ne = d == 1 ? E : E * E;
  s->sup_g = s->sup_h = 0;
  for (int i = 0; i < ne; i++) {
    double x[2] = {(double)(i % E) / (E - 1), (double)(i / E) / (E - 1)}, y, h = 0;
    nnt_mlp_forward(f, x, &y); /* one point at a time: the nets are 10^5 units wide */
    for (int j = 0; j < m; j++) h += a[j] * exp(V[j * d] * x[0] + (d == 2 ? V[j * d + 1] * x[1] : 0));
    s->sup_g = max_nan(s->sup_g, fabs(y - g(x, d, ctx)));
    s->sup_h = max_nan(s->sup_h, fabs(y - h));
  }
  s->relus = nnt_mlp_stats_of(f).hidden_units;
  return s->sup_h <= eps / 2 && s->sup_g <= eps;
}
