/* compile.c — the structured "default + corrections" compiler (spec §4.8): f̄_Conv2D of a 2-D TM
 * as first-match decision lists per centre value, made disjoint, then one layer-2 ReLU per term;
 * the cell MLP's forward and reverse pass; the 4-ReLU head; the weight statistics.
 * The decision lists are written from δ and the codec's digits here, independently of rule.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_nn.h"

#define P NNT_RCNN_TERN_P
enum { NPOS = 5 };                               /* centre, up, down, left, right */
static const int patch_idx[NPOS] = {4, 1, 7, 3, 5}; /* their places in the row-major 3×3 patch */

static void *xmalloc(size_t n) {
  void *p = nnt_xmalloc(n ? n : 1);
  return p;
}
static void *xrealloc(void *p, size_t n) {
  p = nnt_xrealloc(p, n ? n : 1);
  return p;
}

/* ---- CSR built row by row */
void nnt_rcnn_csr_begin(nnt_rcnn_csr_b *b, nnt_rcnn_csr *m, int cols) {
  *m = (nnt_rcnn_csr){0, cols, 0, xmalloc(sizeof(int)), NULL, NULL};
  m->rp[0] = 0, b->m = m, b->cap = 0;
}
void nnt_rcnn_csr_add(nnt_rcnn_csr_b *b, int col, double v) {
  nnt_rcnn_csr *m = b->m;
  if (m->nnz == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 1024;
    m->ci = xrealloc(m->ci, sizeof *m->ci * (size_t)b->cap), m->v = xrealloc(m->v, sizeof *m->v * (size_t)b->cap);
  }
  m->ci[m->nnz] = col, m->v[m->nnz++] = v;
}
void nnt_rcnn_csr_row(nnt_rcnn_csr_b *b) {
  nnt_rcnn_csr *m = b->m;
  m->rp = xrealloc(m->rp, sizeof *m->rp * (size_t)(m->rows + 2));
  m->rp[++m->rows] = m->nnz;
}
void nnt_rcnn_csr_free(nnt_rcnn_csr *m) { free(m->rp), free(m->ci), free(m->v); }
/* ---- regions: a conjunction "x_pos ∈ S_pos" for the 5 positions, sets over the universe */
typedef struct {
  int nv, vp;         /* universe size, index of p */
  unsigned char *full[NPOS];
} uni;
typedef unsigned char *region; /* NPOS × nv */

static region reg_new(const uni *u) { return xmalloc((size_t)NPOS * u->nv); }
static region reg_full(const uni *u) {
  region r = reg_new(u);
  for (int p = 0; p < NPOS; p++) memcpy(r + p * u->nv, u->full[p], (size_t)u->nv);
  return r;
}
static int set_empty(const unsigned char *s, int nv) {
  for (int i = 0; i < nv; i++)
    if (s[i]) return 0;
  return 1;
}
static int set_is_full(const uni *u, const unsigned char *s, int pos) { return !memcmp(s, u->full[pos], (size_t)u->nv); }

/* a ∩ b into out; 0 when empty */
static int reg_and(const uni *u, const unsigned char *a, const unsigned char *b, region out) {
  for (int i = 0; i < NPOS * u->nv; i++) out[i] = a[i] & b[i];
  for (int p = 0; p < NPOS; p++)
    if (set_empty(out + p * u->nv, u->nv)) return 0;
  return 1;
}

typedef struct {
  region *r;
  int n, cap;
} reg_list;
static void rl_push(reg_list *l, region r) {
  if (l->n == l->cap) l->cap = l->cap ? 2 * l->cap : 8, l->r = xrealloc(l->r, sizeof *l->r * (size_t)l->cap);
  l->r[l->n++] = r;
}

/* r \ c as disjoint regions appended to out: for each constrained position i of c, the part of r
 * inside c on the constrained positions before i and outside c at i. */
static void reg_minus(const uni *u, const unsigned char *r, const unsigned char *c, reg_list *out) {
  int nv = u->nv;
  region acc = reg_new(u);
  memcpy(acc, r, (size_t)NPOS * nv);
  for (int p = 0; p < NPOS; p++) {
    const unsigned char *cp = c + p * nv;
    if (set_is_full(u, cp, p)) continue;
    region piece = reg_new(u);
    memcpy(piece, acc, (size_t)NPOS * nv);
    for (int i = 0; i < nv; i++) piece[p * nv + i] = acc[p * nv + i] & !cp[i];
    if (set_empty(piece + p * nv, nv)) free(piece);
    else rl_push(out, piece);
    for (int i = 0; i < nv; i++) acc[p * nv + i] &= cp[i];
    if (set_empty(acc + p * nv, nv)) break;
  }
  free(acc);
}

/* ---- terms: a region with a correction y (scaled by 3^K) and a slope (0 or 1) in x00 */
typedef struct {
  region r;
  int64_t y;
  int slope, nv;
  uint64_t hash;
} term;
typedef struct {
  term *t;
  int n, cap;
} term_list;
static void tl_push(term_list *l, const uni *u, region r, int64_t y, int slope) {
  if (l->n == l->cap) l->cap = l->cap ? 2 * l->cap : 256, l->t = xrealloc(l->t, sizeof *l->t * (size_t)l->cap);
  l->t[l->n++] = (term){r, y, slope, u->nv, 0};
}

/* A first-match entry: a conjunction (a region, centre full), its value and slope. */
typedef struct {
  region c;
  int64_t y;
  int slope;
} entry;

/* The decision list of centre value index vi, default (y0, s0), made disjoint: each entry fires
 * on what the earlier ones left; terms whose value or slope differs from the default are kept. */
static void decide(const uni *u, int vi, int64_t y0, int s0, entry *e, int ne, term_list *out) {
  reg_list rem = {0};
  region start = reg_full(u);
  memset(start, 0, (size_t)u->nv), start[vi] = 1;
  rl_push(&rem, start);
  for (int k = 0; k < ne; k++) {
    reg_list next = {0};
    for (int j = 0; j < rem.n; j++) {
      region f = reg_new(u);
      if (reg_and(u, rem.r[j], e[k].c, f) && (e[k].y != y0 || e[k].slope != s0)) tl_push(out, u, f, e[k].y - y0, e[k].slope - s0);
      else free(f);
      reg_minus(u, rem.r[j], e[k].c, &next);
      free(rem.r[j]);
    }
    free(rem.r);
    rem = next;
  }
  for (int j = 0; j < rem.n; j++) free(rem.r[j]);
  free(rem.r);
  region d = reg_full(u); /* the default term: the centre alone */
  memset(d, 0, (size_t)u->nv), d[vi] = 1;
  if (y0 || s0) tl_push(out, u, d, y0, s0);
  else free(d);
}

/* An entry constraining position pos to the values with in(v) true. */
static entry ent(const uni *u, int pos, const unsigned char *set, int64_t y, int slope) {
  entry e = {reg_full(u), y, slope};
  memcpy(e.c + pos * u->nv, set, (size_t)u->nv);
  return e;
}

static uint64_t term_hash(const uni *u, const term *t) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)t->y * 0x9E3779B97F4A7C15ull;
  for (int i = u->nv; i < NPOS * u->nv; i++) h = (h ^ t->r[i]) * 1099511628211ull;
  return h;
}
static int term_cmp(const void *a_, const void *b_) {
  const term *a = a_, *b = b_;
  if (a->slope != b->slope) return a->slope - b->slope;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  return memcmp(a->r + a->nv, b->r + b->nv, (size_t)(NPOS - 1) * a->nv);
}

/* γ of a head value: halting states are absorbing no-ops (the layers go on after the halt). */
static nnt_rcnn_tm2d_rule gamma_of(const nnt_rcnn_tm2d *tm, const nnt_rcnn_tern_digits *g) {
  int q = nnt_rcnn_tern_state(g->state);
  if (tm->halting[q]) return (nnt_rcnn_tm2d_rule){q, q, g->tape, NNT_RCNN_TM2D_N, 0};
  return tm->delta[3 * q + g->tape + 1];
}

/* The terms of f̄ for tm over universe u (values vals). */
static void build_terms(const nnt_rcnn_tm2d *tm, const nnt_rcnn_tern *t, const uni *u, const int32_t *vals, term_list *tl) {
  int nv = u->nv;
  int32_t S = t->scale, third = S / 3, ninth = third / 3, c27 = ninth / 3;
  unsigned char *M = nnt_xcalloc(nv, 1), *C = nnt_xcalloc(nv, 1), *H = nnt_xcalloc(nv, 1), *A = nnt_xcalloc(nv, 1),
                *Pset = nnt_xcalloc(nv, 1), *One = nnt_xcalloc(nv, 1), *G = nnt_xcalloc(nv, 1);
  const nnt_rcnn_tern_digits **dg = xmalloc(sizeof *dg * (size_t)nv);
  for (int i = 0; i < nv; i++) {
    dg[i] = nnt_rcnn_tern_dec(t, vals[i]); /* NULL for p: no digit test holds on p */
    M[i] = dg[i] && dg[i]->phase == -1, C[i] = dg[i] && dg[i]->phase == 1, H[i] = C[i] && dg[i]->head == 1;
    A[i] = !dg[i] || dg[i]->tape != 0, Pset[i] = !dg[i], One[i] = vals[i] == S;
  }
  entry *e = xmalloc(sizeof *e * (size_t)(16 + 4 * (tm->nstates + 1)));
  for (int vi = 0; vi < nv; vi++) {
    if (vi == u->vp) continue;
    const nnt_rcnn_tern_digits *g = dg[vi];
    int32_t v = vals[vi];
    int ne = 0;
    if (g->phase == -1) { /* memorisation phase: identity, ∂/∂x00 = 1 */
      decide(u, vi, v, 1, e, 0, tl);
    } else if (g->phase == 0) { /* f̄_msg: rules 1–4 in order, default rule 5 (identity) */
      if (v == 0) e[ne++] = ent(u, 1, A, -ninth, 1);
      e[ne++] = ent(u, 1, M, -ninth, 0);
      e[ne++] = ent(u, 2, M, -ninth, 0);
      if (g->tape != 0) { /* rule 3: the right neighbour is the 1s region, the cell below is p */
        e[ne] = ent(u, 4, One, v + ninth + c27, 0);
        memcpy(e[ne].c + 2 * nv, Pset, (size_t)nv), ne++;
      }
      for (int p = 1; p < NPOS; p++) e[ne++] = ent(u, p, C, v + ninth, 0);
      decide(u, vi, v, 0, e, ne, tl);
    } else if (g->head == 1) { /* f̄_TM at the head: write; a blocked move keeps the head */
      nnt_rcnn_tm2d_rule r = gamma_of(tm, g);
      int64_t out = (int64_t)r.write * third + ninth;
      if (r.move == NNT_RCNN_TM2D_N) decide(u, vi, out + c27 + nnt_rcnn_tern_code(r.next), 0, e, 0, tl);
      else {
        e[ne++] = ent(u, r.move, Pset, out + c27 + nnt_rcnn_tern_code(r.blocked), 0);
        decide(u, vi, out, 0, e, ne, tl);
      }
    } else { /* a receiving cell: the first neighbour (below, above, right, left) holding the head
              * decides; it moves here with state q′ (one entry per q′) or not (value unchanged) */
      const int from[4] = {2, 1, 4, 3}, toward[4] = {NNT_RCNN_TM2D_U, NNT_RCNN_TM2D_D, NNT_RCNN_TM2D_L, NNT_RCNN_TM2D_R};
      for (int k = 0; k < 4; k++) {
        unsigned char *stay = nnt_xcalloc(nv, 1);
        for (int q = 0; q < tm->nstates; q++) {
          memset(G, 0, (size_t)nv);
          int any = 0;
          for (int i = 0; i < nv; i++)
            if (H[i]) {
              nnt_rcnn_tm2d_rule r = gamma_of(tm, dg[i]);
              if (r.move != toward[k]) stay[i] = 1;
              else if (r.next == q) G[i] = 1, any = 1;
            }
          if (any) e[ne++] = ent(u, from[k], G, v + c27 + nnt_rcnn_tern_code(q), 0);
        }
        if (!set_empty(stay, nv)) e[ne++] = ent(u, from[k], stay, v, 0);
        free(stay);
      }
      decide(u, vi, v, 0, e, ne, tl);
    }
    for (int k = 0; k < ne; k++) free(e[k].c);
  }
  free(M), free(C), free(H), free(A), free(Pset), free(One), free(G), free(dg), free(e);
  /* merge flat terms equal but for the centre: one unit for the union of their centres */
  for (int i = 0; i < tl->n; i++) tl->t[i].hash = term_hash(u, &tl->t[i]);
  qsort(tl->t, (size_t)tl->n, sizeof *tl->t, term_cmp);
  int w = 0;
  for (int i = 0; i < tl->n; i++) {
    term *a = &tl->t[i];
    if (w && !a->slope && !tl->t[w - 1].slope && !term_cmp(a, &tl->t[w - 1])) {
      for (int j = 0; j < nv; j++) tl->t[w - 1].r[j] |= a->r[j];
      free(a->r);
    } else tl->t[w++] = *a;
  }
  tl->n = w;
}

int nnt_rcnn_cnet_compile(nnt_rcnn_cnet *n, const nnt_rcnn_tm2d *tm) {
  int st = nnt_rcnn_tm2d_check(tm, "rcnn machine");
  if (st) return st;
  memset(n, 0, sizeof *n);
  if ((st = nnt_rcnn_tern_init(&n->tern, nnt_rcnn_tern_nq_for(tm->nstates)))) return st;
  const nnt_rcnn_tern *t = &n->tern;
  nnt_rcnn_tern_set us;
  nnt_rcnn_tern_universe(&us, t, tm->nstates);
  int has_p = 0;
  n->vals = xmalloc(sizeof *n->vals * (size_t)us.count);
  for (int32_t i = 0; i <= 2 * t->half; i++) /* ascending; p = 1/6 in its place */
    if (us.in[i]) {
      if (6 * (i - t->half) > t->scale && !has_p) n->vals[n->nvals++] = P, has_p = 1; /* p = 1/6 before the first value above it */
      n->vals[n->nvals++] = i - t->half;
    }
  nnt_rcnn_tern_set_free(&us);
  int nv = n->nvals;
  uni u = {nv, 0, {0}};
  while (n->vals[u.vp] != P) u.vp++;
  for (int p = 0; p < NPOS; p++) u.full[p] = xmalloc((size_t)nv), memset(u.full[p], 1, (size_t)nv);
  u.full[0][u.vp] = 0; /* the centre is never p */
  n->delta = 0.05 / t->scale;
  double D = n->delta;

  term_list tl = {0};
  build_terms(tm, t, &u, n->vals, &tl);

  /* layer 1: per (position, value v) the ReLUs σ(v−Δ − x), σ(v−2Δ − x), σ(x − (v+Δ)), σ(x − (v+2Δ));
   * then 2 ramp ReLUs per slope-1 centre value */
  int32_t slope_v[2] = {-(t->scale / 9), 0};
  int(*lo)[NPOS] = xmalloc(sizeof *lo * (size_t)nv), (*hi)[NPOS] = xmalloc(sizeof *hi * (size_t)nv); /* feature indices */
  nnt_rcnn_csr_b b1, b3;
  nnt_rcnn_csr_begin(&b1, &n->V1, 9), nnt_rcnn_csr_begin(&b3, &n->V3, 0);
  int h = 0, nf = 0;
  double *bias = NULL;
  for (int p = 0; p < NPOS; p++)
    for (int i = 0; i < nv; i++) {
      if (!u.full[p][i]) continue;
      double x0 = nnt_rcnn_tern_to_double(t, n->vals[i]), bp[4] = {x0 - 2 * D, x0 - D, x0 + D, x0 + 2 * D};
      bias = xrealloc(bias, sizeof *bias * (size_t)(h + 4));
      nnt_rcnn_csr_add(&b1, patch_idx[p], -1.0), nnt_rcnn_csr_row(&b1), bias[h] = bp[1];
      nnt_rcnn_csr_add(&b1, patch_idx[p], -1.0), nnt_rcnn_csr_row(&b1), bias[h + 1] = bp[0];
      nnt_rcnn_csr_add(&b1, patch_idx[p], 1.0), nnt_rcnn_csr_row(&b1), bias[h + 2] = -bp[2];
      nnt_rcnn_csr_add(&b1, patch_idx[p], 1.0), nnt_rcnn_csr_row(&b1), bias[h + 3] = -bp[3];
      /* lo_v = [x below v]: 1 for x <= v−2Δ, 0 (every ReLU off) for x >= v−Δ; hi_v = [x above v]:
       * 0 (every ReLU off) for x <= v+Δ, 1 for x >= v+2Δ; slopes from the stored breakpoints */
      double s1 = 1 / (bp[1] - bp[0]), s3 = 1 / (bp[3] - bp[2]);
      nnt_rcnn_csr_add(&b3, h, s1), nnt_rcnn_csr_add(&b3, h + 1, -s1), nnt_rcnn_csr_row(&b3), lo[i][p] = nf++;
      nnt_rcnn_csr_add(&b3, h + 2, s3), nnt_rcnn_csr_add(&b3, h + 3, -s3), nnt_rcnn_csr_row(&b3), hi[i][p] = nf++;
      h += 4;
    }
  n->nind = nf;
  int ramp_feat[2];
  double ramp_r0[2];
  for (int s = 0; s < 2; s++) { /* σ(c − (v−Δ)) − 2σ(c − (v+Δ)): slope exactly 1 near v, ≤ 0 beyond v+3Δ */
    double x0 = nnt_rcnn_tern_to_double(t, slope_v[s]);
    bias = xrealloc(bias, sizeof *bias * (size_t)(h + 2));
    nnt_rcnn_csr_add(&b1, patch_idx[0], 1.0), nnt_rcnn_csr_row(&b1), bias[h] = -(x0 - D);
    nnt_rcnn_csr_add(&b1, patch_idx[0], 1.0), nnt_rcnn_csr_row(&b1), bias[h + 1] = -(x0 + D);
    nnt_rcnn_csr_add(&b3, h, 1.0), nnt_rcnn_csr_add(&b3, h + 1, -2.0), nnt_rcnn_csr_row(&b3);
    ramp_feat[s] = nf++, ramp_r0[s] = x0 - (x0 - D), h += 2;
  }
  n->b1 = bias, n->h1 = h, n->nf = nf;
  n->V3.cols = h;
  n->v3_pairs = n->V3.nnz == 2 * nf && h == 2 * nf;
  for (int r = 0; r < nf && n->v3_pairs; r++) n->v3_pairs = n->V3.ci[2 * r] == 2 * r && n->V3.ci[2 * r + 1] == 2 * r + 1;

  /* layer 2. [x_pos ∈ S] is a sum over the runs [a, b] of S (consecutive universe values) of
   * 1 − lo_a − hi_b: inside the run every ReLU involved is off, so the run's term is exactly 1.
   * A term becomes one unit per choice of run at each constrained position (at most 16, else one
   * unit summing all runs: then a firing unit may carry rounding from the other runs' ReLUs):
   * σ(Σ_pos [x_pos ∈ run_pos] − k + ½), weight 2y; a slope term adds σ(ramp + 4(Σ over the
   * neighbours − k′)), weight 1, and the flat unit's weight becomes 2(y − r0). */
  nnt_rcnn_csr_b b4;
  nnt_rcnn_csr_begin(&b4, &n->V4, nf);
  double *b4v = NULL, *v5 = NULL;
  int nu = 0;
  int *runa = xmalloc(sizeof *runa * (size_t)NPOS * nv), *runb = xmalloc(sizeof *runb * (size_t)NPOS * nv);
  for (int i = 0; i < tl.n; i++) {
    const term *tm_ = &tl.t[i];
    double y = (double)tm_->y / t->scale;
    int si = -1;
    if (tm_->slope) { /* the centre is the single value −1/9 or 0 */
      int vi = 0;
      while (!tm_->r[vi]) vi++;
      for (int s = 0; s < 2; s++)
        if (n->vals[vi] == slope_v[s]) si = s;
      if (si < 0) abort(); /* only −1/9 and 0 carry slope (spec §4.3) */
    }
    int nr[NPOS] = {0}, cons[NPOS], nc = 0;
    long combos = 1;
    for (int p = 0; p < NPOS; p++) {
      const unsigned char *s = tm_->r + p * nv;
      if (set_is_full(&u, s, p)) continue;
      int open = 0;
      for (int j = 0; j < nv; j++) { /* runs over the position's values (the centre skips p) */
        if (!u.full[p][j]) continue;
        if (s[j]) {
          if (!open) runa[p * nv + nr[p]] = j, open = 1;
          runb[p * nv + nr[p]] = j;
        } else if (open) nr[p]++, open = 0;
      }
      nr[p] += open;
      cons[nc++] = p, combos *= nr[p];
    }
    int split = combos <= 16;
    int pick[NPOS] = {0};
    for (long cb = 0; cb < (split ? combos : 1); cb++) {
      for (long r = cb, j = nc - 1; j >= 0; j--) pick[cons[j]] = (int)(r % nr[cons[j]]), r /= nr[cons[j]];
      for (int pass = 0; pass < 1 + tm_->slope; pass++) {
        double w = pass ? 4.0 : 1.0, bsum = 0;
        int k = 0;
        for (int c = 0; c < nc; c++) {
          int p = cons[c];
          if (pass && p == 0) continue;
          for (int q = split ? pick[p] : 0; q < (split ? pick[p] + 1 : nr[p]); q++) {
            nnt_rcnn_csr_add(&b4, lo[runa[p * nv + q]][p], -w), nnt_rcnn_csr_add(&b4, hi[runb[p * nv + q]][p], -w);
            bsum += w;
          }
          k++;
        }
        if (pass) nnt_rcnn_csr_add(&b4, ramp_feat[si], 1.0);
        nnt_rcnn_csr_row(&b4);
        b4v = xrealloc(b4v, sizeof *b4v * (size_t)(nu + 1)), v5 = xrealloc(v5, sizeof *v5 * (size_t)(nu + 1));
        if (!pass) b4v[nu] = bsum - k + 0.5, v5[nu] = tm_->slope ? 2 * (y - ramp_r0[si]) : 2 * y;
        else b4v[nu] = bsum - 4.0 * k, v5[nu] = 1.0;
        nu++;
      }
    }
    n->nslope += tm_->slope;
    free(tm_->r);
  }
  free(tl.t), free(runa), free(runb);
  n->nterms = tl.n, n->h2 = nu, n->b4 = b4v, n->v5 = v5;
  for (int p = 0; p < NPOS; p++) free(u.full[p]);
  free(lo), free(hi);
  /* the head: g(u) = −1 + 18σ(u+1/6) − 36σ(u) + 36σ(u−1/9) − 18σ(u−1/6) */
  const double hb[4] = {1.0 / 6, 0, -1.0 / 9, -1.0 / 6}, hw[4] = {18, -36, 36, -18};
  for (int j = 0; j < 4; j++) n->hu[j] = 1, n->hb[j] = hb[j], n->hw[j] = hw[j];
  n->hc = -1;
  return NNT_OK;
}

void nnt_rcnn_cnet_free(nnt_rcnn_cnet *n) {
  nnt_rcnn_csr_free(&n->V1), nnt_rcnn_csr_free(&n->V3), nnt_rcnn_csr_free(&n->V4);
  free(n->b1), free(n->b4), free(n->v5), free(n->vals);
  nnt_rcnn_tern_free(&n->tern);
}

int nnt_rcnn_cnet_ws(const nnt_rcnn_cnet *n) { return 2 * (n->h1 + n->nf + n->h2); }

double nnt_rcnn_cnet_cell(const nnt_rcnn_cnet *n, const double *patch, double *grad, double *ws) {
  double *h1 = ws, *ft = h1 + n->h1, *h2 = ft + n->nf;
  const nnt_rcnn_csr *V1 = &n->V1, *V3 = &n->V3, *V4 = &n->V4;
  if (V1->nnz == V1->rows) { /* the compiler's layout: one weight a row (the same sums, no row loop) */
    const double *restrict b1 = n->b1, *restrict w = V1->v;
    const int *restrict ci = V1->ci;
    double *restrict o = h1;
    for (int r = 0; r < n->h1; r++) {
      double s = b1[r] + w[r] * patch[ci[r]];
      o[r] = s > 0 ? s : 0;
    }
  } else
    for (int r = 0; r < n->h1; r++) { /* h1 = σ(V1·patch + b1) */
      double s = n->b1[r];
      for (int j = V1->rp[r]; j < V1->rp[r + 1]; j++) s += V1->v[j] * patch[V1->ci[j]];
      h1[r] = s > 0 ? s : 0;
    }
  if (n->v3_pairs) { /* feature r reads ReLUs 2r and 2r+1 */
    const double *restrict w = V3->v, *restrict h = h1;
    double *restrict o = ft;
    for (int r = 0; r < n->nf; r++) o[r] = w[2 * r] * h[2 * r] + w[2 * r + 1] * h[2 * r + 1];
  } else
    for (int r = 0; r < n->nf; r++) { /* ft = V3·h1 */
      double s = 0;
      for (int j = V3->rp[r]; j < V3->rp[r + 1]; j++) s += V3->v[j] * h1[V3->ci[j]];
      ft[r] = s;
    }
  double out = 0;
  for (int r = 0; r < n->h2; r++) { /* h2 = σ(V4·ft + b4), out = V5·h2 */
    double s = n->b4[r];
    for (int j = V4->rp[r]; j < V4->rp[r + 1]; j++) s += V4->v[j] * ft[V4->ci[j]];
    h2[r] = s > 0 ? s : 0;
    out += n->v5[r] * h2[r];
  }
  if (!grad) return out;
  /* reverse mode: ∂out/∂patch, σ'(0) = 0 */
  double *dft = h2 + n->h2, *dh1 = dft + n->nf;
  memset(dft, 0, sizeof *dft * (size_t)n->nf);
  memset(dh1, 0, sizeof *dh1 * (size_t)n->h1);
  for (int r = 0; r < n->h2; r++)
    if (h2[r] > 0)
      for (int j = V4->rp[r]; j < V4->rp[r + 1]; j++) dft[V4->ci[j]] += V4->v[j] * n->v5[r];
  for (int r = 0; r < n->nf; r++)
    if (dft[r] != 0)
      for (int j = V3->rp[r]; j < V3->rp[r + 1]; j++) dh1[V3->ci[j]] += V3->v[j] * dft[r];
  for (int i = 0; i < 9; i++) grad[i] = 0;
  for (int r = 0; r < n->h1; r++)
    if (h1[r] > 0 && dh1[r] != 0)
      for (int j = V1->rp[r]; j < V1->rp[r + 1]; j++) grad[V1->ci[j]] += V1->v[j] * dh1[r];
  return out;
}

double nnt_rcnn_cnet_head(const nnt_rcnn_cnet *n, double u, double *slope) {
  double g = n->hc, s = 0;
  for (int j = 0; j < 4; j++) {
    double a = n->hu[j] * u + n->hb[j];
    if (a > 0) g += n->hw[j] * a, s += n->hw[j] * n->hu[j];
  }
  if (slope) *slope = s;
  return g;
}

static int dbl_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void nnt_rcnn_cnet_stats(const nnt_rcnn_cnet *n, long *nonzeros, long *nvalues) {
  long cap = n->V1.nnz + n->V3.nnz + n->V4.nnz + n->h1 + 2L * n->h2 + 13, k = 0;
  double *all = xmalloc(sizeof *all * (size_t)cap);
  const nnt_rcnn_csr *ms[3] = {&n->V1, &n->V3, &n->V4};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < ms[i]->nnz; j++)
      if (ms[i]->v[j] != 0) all[k++] = ms[i]->v[j];
  for (int r = 0; r < n->h1; r++)
    if (n->b1[r] != 0) all[k++] = n->b1[r];
  for (int r = 0; r < n->h2; r++) {
    if (n->b4[r] != 0) all[k++] = n->b4[r];
    if (n->v5[r] != 0) all[k++] = n->v5[r];
  }
  for (int j = 0; j < 4; j++) all[k++] = n->hu[j], all[k++] = n->hw[j];
  for (int j = 0; j < 4; j++)
    if (n->hb[j] != 0) all[k++] = n->hb[j];
  all[k++] = n->hc;
  qsort(all, (size_t)k, sizeof *all, dbl_cmp);
  long d = 0;
  for (long i = 0; i < k; i++) d += !i || all[i] != all[i - 1];
  *nonzeros = k, *nvalues = d;
  free(all);
}
