/* parity.c — parity data and the three learners of the parity benchmark (spec §7.6). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_parity.h"

const char *const nnt_rcnn_parity_learner_names[] = {"gauss", "mlp", "majority", "rcnn", "rcnn-nn", "mlp-online", NULL};

int nnt_rcnn_parity_dot(const uint64_t *a, const uint64_t *b, int nw) {
  uint64_t acc = 0;
  for (int i = 0; i < nw; i++) acc ^= a[i] & b[i];
  return __builtin_parityll(acc);
}

static void set_bit(uint64_t *v, int j) { v[j >> 6] |= 1ull << (j & 63); }
static int get_bit(const uint64_t *v, int j) { return (int)(v[j >> 6] >> (j & 63) & 1); }

void nnt_rcnn_parity_secret(int d, int k, nnt_rng *r, uint64_t *w) {
  int nw = nnt_rcnn_parity_words(d);
  memset(w, 0, (size_t)nw * sizeof *w);
  if (k == 0 || k >= d) {
    for (int j = 0; j < d; j++) set_bit(w, j);
    return;
  }
  for (int placed = 0; placed < k;) { /* rejection: k distinct uniform coordinates */
    int j = (int)nnt_rng_below(r, (uint64_t)d);
    if (!get_bit(w, j)) set_bit(w, j), placed++;
  }
}

void nnt_rcnn_parity_data_make(nnt_rcnn_parity_data *D, int d, int n, const uint64_t *w, double noise, nnt_rng *r) {
  int nw = nnt_rcnn_parity_words(d);
  *D = (nnt_rcnn_parity_data){d, nw, n, nnt_xcalloc((size_t)n * nw, sizeof(uint64_t)), nnt_xcalloc((size_t)n, 1)};
  uint64_t last = d % 64 ? (1ull << (d % 64)) - 1 : ~0ull;
  for (int i = 0; i < n; i++) {
    uint64_t *x = D->x + (size_t)i * nw;
    for (int q = 0; q < nw; q++) x[q] = nnt_rng_u64(r);
    x[nw - 1] &= last;
    D->y[i] = (uint8_t)(nnt_rcnn_parity_dot(x, w, nw) ^ (noise > 0 && nnt_rng_bernoulli(r, noise)));
  }
}

void nnt_rcnn_parity_data_free(nnt_rcnn_parity_data *D) {
  free(D->x), free(D->y);
  memset(D, 0, sizeof *D);
}

int nnt_rcnn_parity_learners_parse(const char *s, int *out, int *n) {
  *n = 0;
  const char *p = s;
  for (;;) {
    size_t len = strcspn(p, ",");
    int found = -1;
    for (int l = 0; nnt_rcnn_parity_learner_names[l]; l++)
      if (strlen(nnt_rcnn_parity_learner_names[l]) == len && !strncmp(p, nnt_rcnn_parity_learner_names[l], len)) found = l;
    if (found < 0) return nnt_fail(NNT_EINVAL, "--learners: '%.*s' is not one of gauss, mlp, majority, rcnn, rcnn-nn", (int)len, p);
    for (int i = 0; i < *n; i++)
      if (out[i] == found) return nnt_fail(NNT_EINVAL, "--learners: '%.*s' twice", (int)len, p);
    out[(*n)++] = found;
    if (!p[len]) return NNT_OK;
    p += len + 1;
  }
}

/* ---------------------------------------------------------------- Gaussian elimination */

/* Lowest set bit among the first d bits of v, or -1. */
static int lowest_bit(const uint64_t *v, int d) {
  int nw = nnt_rcnn_parity_words(d);
  for (int q = 0; q < nw; q++) {
    uint64_t word = v[q];
    if (q == nw - 1 && d % 64) word &= (1ull << (d % 64)) - 1;
    if (word) return q * 64 + __builtin_ctzll(word);
  }
  return -1;
}

/* Reduces v (nwa words) against the pivot rows. Every pivot row's lowest bit is its pivot column,
 * so xoring it in changes only higher columns and one scan upward suffices. Returns the remainder's
 * pivot column, or -1 when the x part reduces to 0. */
static int reduce(const nnt_rcnn_parity_gauss *g, uint64_t *v, int nwords) {
  for (;;) {
    int c = lowest_bit(v, g->d);
    if (c < 0 || g->pivot_row[c] < 0) return c;
    const uint64_t *row = g->rows + (size_t)g->pivot_row[c] * g->nwa;
    for (int q = 0; q < nwords; q++) v[q] ^= row[q];
  }
}

void nnt_rcnn_parity_gauss_fit(nnt_rcnn_parity_gauss *g, const nnt_rcnn_parity_data *D) {
  int d = D->d, nw = D->nw, nwa = nnt_rcnn_parity_words(d + 1);
  *g = (nnt_rcnn_parity_gauss){.d = d, .nw = nw, .nwa = nwa};
  g->pivot_row = nnt_xmalloc((size_t)d * sizeof *g->pivot_row);
  g->rows = nnt_xcalloc((size_t)d * nwa, sizeof *g->rows);
  g->w = nnt_xcalloc((size_t)nw, sizeof *g->w);
  uint64_t *v = nnt_xcalloc((size_t)nwa, sizeof *v);
  for (int j = 0; j < d; j++) g->pivot_row[j] = -1;
  for (int i = 0; i < D->n; i++) { /* after full rank: only counts inconsistent examples */
    memset(v, 0, (size_t)nwa * sizeof *v);
    memcpy(v, D->x + (size_t)i * nw, (size_t)nw * sizeof *v);
    if (D->y[i]) set_bit(v, d);
    int c = reduce(g, v, nwa);
    if (c < 0) g->inconsistent += get_bit(v, d);
    else {
      memcpy(g->rows + (size_t)g->rank * nwa, v, (size_t)nwa * sizeof *v);
      g->pivot_row[c] = g->rank++;
    }
  }
  for (int j = d - 1; j >= 0; j--) { /* back substitution, free coordinates 0 */
    if (g->pivot_row[j] < 0) continue;
    const uint64_t *row = g->rows + (size_t)g->pivot_row[j] * nwa;
    if (get_bit(row, d) ^ nnt_rcnn_parity_dot(row, g->w, nw)) set_bit(g->w, j); /* w_j = 0 still: dot skips it */
  }
  free(v);
}

int nnt_rcnn_parity_gauss_predict(const nnt_rcnn_parity_gauss *g, const uint64_t *x) { return nnt_rcnn_parity_dot(g->w, x, g->nw); }

int nnt_rcnn_parity_gauss_determined(const nnt_rcnn_parity_gauss *g, const uint64_t *x) {
  uint64_t buf[NNT_RCNN_PARITY_MAX_D / 64 + 1] = {0};
  memcpy(buf, x, (size_t)g->nw * sizeof *buf);
  return reduce(g, buf, g->nw) < 0;
}

void nnt_rcnn_parity_gauss_free(nnt_rcnn_parity_gauss *g) {
  free(g->pivot_row), free(g->rows), free(g->w);
  memset(g, 0, sizeof *g);
}

/* ---------------------------------------------------------------- MLP */

int nnt_rcnn_parity_mlp_nparams(const nnt_rcnn_parity_mlp *net) { return net->h * (net->d + 2) + 1; }

void nnt_rcnn_parity_mlp_init(nnt_rcnn_parity_mlp *net, int d, int hidden, nnt_rng *r) {
  *net = (nnt_rcnn_parity_mlp){d, hidden, NULL};
  net->p = nnt_xcalloc((size_t)nnt_rcnn_parity_mlp_nparams(net), sizeof *net->p);
  nnt_rng_fill_normal_f64(r, net->p, (size_t)hidden * d, 0, sqrt(2.0 / d));
  nnt_rng_fill_normal_f64(r, net->p + (size_t)hidden * (d + 1), (size_t)hidden, 0, sqrt(1.0 / hidden));
}

double nnt_rcnn_parity_mlp_forward(const nnt_rcnn_parity_mlp *net, const uint64_t *x, double *hid) {
  int d = net->d, h = net->h;
  const double *W = net->p, *b = W + (size_t)h * d, *v = b + h, c = v[h];
  double f = c;
  for (int u = 0; u < h; u++) {
    const double *wu = W + (size_t)u * d;
    double z = b[u];
    for (int j = 0; j < d; j++) z += get_bit(x, j) ? -wu[j] : wu[j];
    z = z > 0 ? z : 0;
    if (hid) hid[u] = z;
    f += v[u] * z;
  }
  return f;
}

double nnt_rcnn_parity_mlp_loss_grad(const nnt_rcnn_parity_mlp *net, const uint64_t *x, int y, double *grad) {
  int d = net->d, h = net->h;
  double hid[h];
  double f = nnt_rcnn_parity_mlp_forward(net, x, hid), s = y ? -1.0 : 1.0, mar = s * f;
  /* ln(1 + e^{-mar}) and its derivative -s σ(-mar), both in a form that cannot overflow */
  double loss = mar > 0 ? log1p(exp(-mar)) : -mar + log1p(exp(mar));
  if (!grad) return loss;
  double df = -s * (mar > 0 ? exp(-mar) / (1 + exp(-mar)) : 1 / (1 + exp(mar)));
  const double *v = net->p + (size_t)h * (d + 1);
  double *gW = grad, *gb = gW + (size_t)h * d, *gv = gb + h;
  for (int u = 0; u < h; u++) {
    gv[u] = df * hid[u];
    double dz = hid[u] > 0 ? df * v[u] : 0;
    gb[u] = dz;
    for (int j = 0; j < d; j++) gW[(size_t)u * d + j] = get_bit(x, j) ? -dz : dz;
  }
  gv[h] = df;
  return loss;
}

int nnt_rcnn_parity_mlp_train(nnt_rcnn_parity_mlp *net, const nnt_rcnn_parity_data *D, const nnt_rcnn_parity_mlp_cfg *c, nnt_rng *r) {
  int np = nnt_rcnn_parity_mlp_nparams(net);
  double *g = nnt_xmalloc((size_t)np * sizeof *g);
  int *perm = nnt_xmalloc((size_t)D->n * sizeof *perm);
  for (int e = 0; e < c->epochs; e++) {
    nnt_rng_permutation(r, perm, D->n);
    for (int t = 0; t < D->n; t++) {
      int i = perm[t];
      double loss = nnt_rcnn_parity_mlp_loss_grad(net, D->x + (size_t)i * D->nw, D->y[i], g);
      if (!isfinite(loss)) return free(g), free(perm), nnt_fail(NNT_ENUMERIC, "mlp: non-finite loss (lr %g too large?)", c->lr);
      for (int q = 0; q < np; q++) net->p[q] -= c->lr * g[q];
    }
  }
  free(g), free(perm);
  return NNT_OK;
}

int nnt_rcnn_parity_mlp_predict(const nnt_rcnn_parity_mlp *net, const uint64_t *x) { return nnt_rcnn_parity_mlp_forward(net, x, NULL) < 0; }

void nnt_rcnn_parity_mlp_free(nnt_rcnn_parity_mlp *net) {
  free(net->p);
  memset(net, 0, sizeof *net);
}

int nnt_rcnn_parity_majority_fit(const nnt_rcnn_parity_data *D) {
  int ones = 0;
  for (int i = 0; i < D->n; i++) ones += D->y[i];
  return 2 * ones > D->n;
}
