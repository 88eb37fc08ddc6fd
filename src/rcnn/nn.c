/* nn.c — the Definition-5 RCNN as a network: memory layer, L applications of the compiled cell MLP
 * (one set of weights for every cell and layer), the head and the sum; reverse mode to W; Algorithm
 * 1 with real gradients; each evaluated patch checked against the rule level's f̄; the patch cache. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_nn.h"

#define P NNT_RCNN_TERN_P

typedef struct {
  int32_t key[5];
  int used;
  double val, g[5]; /* value and ∂/∂(centre, up, down, left, right) at the domain point */
} cache_ent;
typedef struct {
  cache_ent *e;
  long cap;
} cache_tab;

typedef struct {
  long nchecked, offgrid, nlookup, nhit;
  double verr, gerr;
  char pad[64];
} thread_stats;

static const int pidx[5] = {4, 1, 7, 3, 5}; /* centre, up, down, left, right in the 3×3 patch */
/* A layer is split over threads only from this many cells: below it the barrier per layer costs
 * more than the cells (and spinning threads starve a shared machine); run points in parallel. */
enum { NN_PAR_CELLS = 1024 };

static void *xcalloc(size_t n, size_t s) {
  void *p = nnt_xcalloc(n ? n : 1, s);
  return p;
}

int nnt_rcnn_nn_init(nnt_rcnn_nn *net, const nnt_rcnn_cnet *cn, const nnt_rcnn_rule_net *ref, int m, int d, int work, int L,
                     int cache) {
  if (m < 1 || d < 1 || work < 1 || L < 1)
    return nnt_fail(NNT_EINVAL, "rcnn nn: need m >= 1, d >= 1, work >= 1, depth >= 1 (got m=%d d=%d work=%d L=%d)", m, d, work, L);
  double bytes = 8.0 * (L + 1) * (double)(m + 1) * (d + 1 + work);
  if (bytes > 4.0 * (1 << 30))
    return nnt_fail(NNT_EINVAL, "rcnn nn: the %d stored layers of %d x %d cells need %.1f GiB (limit 4)", L + 1, m + 1, d + 1 + work,
                    bytes / (1 << 30));
  memset(net, 0, sizeof *net);
  net->cn = cn, net->ref = ref, net->m = m, net->d = d, net->work = work, net->L = L, net->cache = cache;
  net->rows = m + 1, net->cols = d + 1 + work;
  size_t n = (size_t)net->rows * net->cols;
  net->W = xcalloc((size_t)(m + 1) * (d + 1), sizeof *net->W);
  net->Z = xcalloc((size_t)(L + 1) * n, sizeof *net->Z);
  net->adj = xcalloc(n, sizeof *net->adj), net->adj2 = xcalloc(n, sizeof *net->adj2);
  net->jac = xcalloc(5 * n, sizeof *net->jac);
  net->nthreads = cache ? 1 : omp_get_max_threads() < 64 ? omp_get_max_threads() : 64;
  net->ws = xcalloc((size_t)net->nthreads * nnt_rcnn_cnet_ws(cn), sizeof *net->ws);
  if (cache) {
    cache_tab *t = xcalloc(1, sizeof *t);
    t->cap = 1 << 12, t->e = xcalloc((size_t)t->cap, sizeof *t->e);
    net->tab = t;
  }
  return NNT_OK;
}

void nnt_rcnn_nn_free(nnt_rcnn_nn *net) {
  if (net->tab) free(((cache_tab *)net->tab)->e), free(net->tab);
  free(net->W), free(net->Z), free(net->adj), free(net->adj2), free(net->jac), free(net->ws);
}

/* The domain point within Δ/2 of v (a codec value or p); 0 when there is none. */
static int snap(const nnt_rcnn_tern *t, double v, int32_t *n) {
  double s = v * t->scale, r = nearbyint(s);
  if (fabs(s - r) < 0.025 && fabs(r) <= t->half) return *n = (int32_t)r, 1;
  if (fabs(s - t->scale / 6.0) < 0.025) return *n = P, 1;
  return 0;
}

/* Compares the net's value and gradient at a patch (codes k) with f̄ and its ∂/∂x00 flag. */
static void check(const nnt_rcnn_nn *net, const int32_t *k, double val, const double *g9, thread_stats *ts) {
  int flag;
  int32_t want = nnt_rcnn_rule_cell(net->ref, k[0], k[1], k[2], k[3], k[4], &flag);
  double e = fabs(val - nnt_rcnn_tern_to_double(&net->cn->tern, want));
  if (e > ts->verr) ts->verr = e;
  if (g9)
    for (int i = 0; i < 9; i++) {
      double ge = fabs(g9[i] - (i == 4 ? flag : 0));
      if (ge > ts->gerr) ts->gerr = ge;
    }
  ts->nchecked++;
}

static uint64_t key_hash(const int32_t *k) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 5; i++) h = (h ^ (uint32_t)k[i]) * 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
  return h;
}

static cache_ent *cache_find(cache_tab *t, const int32_t *k) {
  for (long i = (long)(key_hash(k) & (uint64_t)(t->cap - 1));; i = (i + 1) & (t->cap - 1))
    if (!t->e[i].used || !memcmp(t->e[i].key, k, sizeof t->e[i].key)) return &t->e[i];
}

/* One cell: the MLP at patch x (9 values), its gradient into g9 when asked. With the cache the
 * value and gradient at the snapped domain point x0 are reused: the MLP is affine on |x − x0| < Δ. */
static double cell(nnt_rcnn_nn *net, const double *x, double *g9, double *ws, thread_stats *ts) {
  const nnt_rcnn_cnet *cn = net->cn;
  int32_t k[5];
  int on = 1;
  for (int i = 0; i < 5 && on; i++) on = snap(&cn->tern, x[pidx[i]], &k[i]);
  on = on && k[0] != P;
  if (!on) ts->offgrid++;
  if (net->cache && on) {
    cache_tab *t = net->tab;
    ts->nlookup++;
    cache_ent *e = cache_find(t, k);
    if (e->used) ts->nhit++;
    else {
      double x0[9] = {0}, g[9];
      for (int i = 0; i < 5; i++) x0[pidx[i]] = nnt_rcnn_tern_to_double(&cn->tern, k[i]);
      e->val = nnt_rcnn_cnet_cell(cn, x0, g, ws);
      if (net->ref) check(net, k, e->val, g, ts);
      for (int i = 0; i < 5; i++) e->g[i] = g[pidx[i]];
      memcpy(e->key, k, sizeof k), e->used = 1;
      net->ncache++;
      if (2 * net->ncache > t->cap) { /* grow: rehash into twice the slots */
        cache_tab old = *t;
        t->cap *= 2, t->e = xcalloc((size_t)t->cap, sizeof *t->e);
        for (long i = 0; i < old.cap; i++)
          if (old.e[i].used) *cache_find(t, old.e[i].key) = old.e[i];
        free(old.e);
        e = cache_find(t, k);
      }
    }
    double v = e->val;
    for (int i = 0; i < 5; i++) v += e->g[i] * (x[pidx[i]] - nnt_rcnn_tern_to_double(&cn->tern, k[i]));
    if (g9) {
      memset(g9, 0, 9 * sizeof *g9);
      for (int i = 0; i < 5; i++) g9[pidx[i]] = e->g[i];
    }
    return v;
  }
  double v = nnt_rcnn_cnet_cell(cn, x, g9, ws);
  if (net->ref && on) check(net, k, v, g9, ts);
  return v;
}

static void gather(const nnt_rcnn_nn *net, const double *Zp, int i, double *x) {
  int r = i / net->cols, c = i % net->cols;
  for (int dr = -1; dr <= 1; dr++)
    for (int dc = -1; dc <= 1; dc++) {
      int rr = r + dr, cc = c + dc;
      x[(dr + 1) * 3 + dc + 1] = rr < 0 || rr >= net->rows || cc < 0 || cc >= net->cols ? 1.0 / 6 : Zp[rr * net->cols + cc];
    }
}

static void merge_stats(nnt_rcnn_nn *net, thread_stats *ts, int nt) {
  for (int t = 0; t < nt; t++) {
    net->nchecked += ts[t].nchecked, net->offgrid += ts[t].offgrid, net->nlookup += ts[t].nlookup, net->nhit += ts[t].nhit;
    if (ts[t].verr > net->max_verr) net->max_verr = ts[t].verr;
    if (ts[t].gerr > net->max_gerr) net->max_gerr = ts[t].gerr;
  }
}

double nnt_rcnn_nn_forward(nnt_rcnn_nn *net, const signed char *x) {
  int R = net->rows, C = net->cols, D = net->d, n = R * C, nt = net->nthreads, wsz = nnt_rcnn_cnet_ws(net->cn);
  for (int a = 0; a < R; a++) /* X = W·diag(z), z = [x, 1]; the 1s region */
    for (int b = 0; b < C; b++) net->Z[a * C + b] = b <= D ? net->W[a * (D + 1) + b] * (b < D ? x[b] : 1) : 1.0;
  thread_stats ts[64] = {{0}};
  for (int k = 1; k <= net->L; k++) {
    const double *Zp = net->Z + (size_t)(k - 1) * n;
    double *Zk = net->Z + (size_t)k * n;
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1 && n >= NN_PAR_CELLS)
    for (int i = 0; i < n; i++) {
      int t = omp_get_thread_num();
      double p9[9];
      gather(net, Zp, i, p9);
      Zk[i] = cell(net, p9, NULL, net->ws + (size_t)t * wsz, &ts[t]);
    }
  }
  merge_stats(net, ts, nt);
  const double *ZL = net->Z + (size_t)net->L * n;
  double f = 0;
  for (int a = 0; a < R; a++) /* the main grid only */
    for (int b = 0; b <= D; b++) f += nnt_rcnn_cnet_head(net->cn, ZL[a * C + b], NULL);
  return f;
}

void nnt_rcnn_nn_backward(nnt_rcnn_nn *net, const signed char *x, double *dW) {
  int R = net->rows, C = net->cols, D = net->d, n = R * C, nt = net->nthreads, wsz = nnt_rcnn_cnet_ws(net->cn);
  double *adj = net->adj, *adj2 = net->adj2, *J = net->jac;
  const double *ZL = net->Z + (size_t)net->L * n;
  for (int i = 0; i < n; i++) {
    adj[i] = 0;
    if (i % C <= D) nnt_rcnn_cnet_head(net->cn, ZL[i], &adj[i]);
  }
  thread_stats ts[64] = {{0}};
  for (int k = net->L; k >= 1; k--) {
    const double *Zp = net->Z + (size_t)(k - 1) * n;
    /* cells with a zero adjoint contribute nothing: their Jacobians are skipped */
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1 && n >= NN_PAR_CELLS)
    for (int i = 0; i < n; i++) {
      if (adj[i] == 0) continue;
      int t = omp_get_thread_num();
      double p9[9], g9[9];
      gather(net, Zp, i, p9);
      cell(net, p9, g9, net->ws + (size_t)t * wsz, &ts[t]);
      for (int j = 0; j < 5; j++) J[5 * i + j] = g9[pidx[j]];
    }
    memset(adj2, 0, sizeof *adj2 * (size_t)n);
    for (int i = 0; i < n; i++) {
      if (adj[i] == 0) continue;
      int r = i / C, c = i % C;
      const double *g = J + 5 * i;
      adj2[i] += adj[i] * g[0];
      if (r > 0) adj2[i - C] += adj[i] * g[1];
      if (r < R - 1) adj2[i + C] += adj[i] * g[2];
      if (c > 0) adj2[i - 1] += adj[i] * g[3];
      if (c < C - 1) adj2[i + 1] += adj[i] * g[4];
    }
    double *sw = adj;
    adj = adj2, adj2 = sw;
  }
  merge_stats(net, ts, nt);
  for (int a = 0; a < R; a++)
    for (int b = 0; b <= D; b++) dW[a * (D + 1) + b] = adj[a * C + b] * (b < D ? x[b] : 1);
}

void nnt_rcnn_nn_train(nnt_rcnn_nn *net, const signed char *X, const signed char *y, double *f) {
  int m = net->m, D = net->d;
  size_t nw = (size_t)(m + 1) * (D + 1);
  signed char *z = xcalloc((size_t)D, 1);
  double *dW = xcalloc(nw, sizeof *dW);
  memset(net->W, 0, sizeof *net->W * nw);
  for (int i = 0; i <= m; i++) {
    int yi = i < m ? y[i] : 1; /* the dummy example (1_d, +1) last */
    for (int b = 0; b < D; b++) z[b] = i < m ? X[(size_t)i * D + b] : 1;
    double fi = nnt_rcnn_nn_forward(net, z);
    if (f) f[i] = fi;
    nnt_rcnn_nn_backward(net, z, dW);
    for (size_t j = 0; j < nw; j++) net->W[j] -= (1.0 / 54) * (fi - yi) * dW[j]; /* ∇ of ½(y − f)² */
  }
  free(z), free(dW);
}

double nnt_rcnn_nn_w_err(const nnt_rcnn_nn *net, const signed char *X, const signed char *y) {
  double e = 0;
  for (int a = 0; a <= net->m; a++)
    for (int b = 0; b <= net->d; b++) {
      double want = a < net->m ? y[a] * (b < net->d ? X[(size_t)a * net->d + b] : 1) / 3.0 : 1 / 3.0;
      double ea = fabs(net->W[a * (net->d + 1) + b] - want);
      if (ea > e || isnan(ea)) e = ea; /* a NaN weight must not read as error 0 (NaN > e is false) */
    }
  return e;
}
