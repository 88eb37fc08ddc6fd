/* tm_margin.c — the all-layer margin (eq. 2.1 of Wei, Chen & Ma) of the compiled transformer:
 * a certified lower bound by box-and-ball bound propagation over the dense architecture F_{W,d}, and
 * upper bounds from explicit perturbations re-checked by nnt_tm_net_run. See nnt_tm.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rng.h"
#include "nnt_tm.h"

/* Relative widening per operation: covers double rounding (<= n 2^-53 of the magnitudes for a
 * sum of n terms) for n up to ~9000, far above any row here; TINY covers underflow. */
#define ETA 1e-12
#define TINY 1e-300
/* lin takes a ball through A when A's spectral-norm bound is at most THROUGH x its widest row's
 * norm (measured on BB(2)-BB(4): 1.0 gave 12-17% smaller certificates, 3.0 the same, taking every
 * ball through about half) */
#define THROUGH 1.5

static double widen(double r, double mag) { return r * (1 + ETA) + ETA * mag + TINY; }

/* A set of vectors of the dense width W: c + b + u with |b_i| <= r[i] on the n real coordinates
 * (b is 0 on the W - n padding ones, which are 0 in the compiled net) and ||u||_2 <= ball over all
 * W. The ball carries what the perturbations add jointly: dA x over a whole block has l2 norm
 * <= eps ||x|| (||dA||_F <= eps), which a box would charge eps ||x|| to every coordinate; a product
 * with a fixed vector a then costs ||a||_2 ball instead of ||a||_1 eps ||x||. u is 0 on the real
 * coordinates with fr[i] = 0 (a ReLU held them at 0 or took them whole into the box). */
typedef struct {
  int n;
  double *c, *r;
  double ball;
  unsigned char *fr;
} iv;

static void iv_alloc(iv *v, int cap) {
  v->c = nnt_xcalloc((size_t)cap, sizeof(double));
  v->r = nnt_xcalloc((size_t)cap, sizeof(double));
  v->fr = nnt_xmalloc((size_t)cap);
  memset(v->fr, 1, (size_t)cap);
  v->n = 0, v->ball = 0;
}

static void iv_free(iv *v) { free(v->c), free(v->r), free(v->fr); }

/* ||a||_2 over the coordinates where x's ball may be non-zero */
static double norm2_free(const double *a, const iv *x) {
  double s = 0;
  for (int i = 0; i < x->n; i++)
    if (x->fr[i]) s += a[i] * a[i];
  return sqrt(s) * (1 + ETA);
}

static double norm2(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  return sqrt(s) * (1 + ETA);
}

/* The largest ||x||_2 over the set, all W coordinates. */
static double maxnorm(const iv *x) {
  double s = 0;
  for (int i = 0; i < x->n; i++) s += (fabs(x->c[i]) + x->r[i]) * (fabs(x->c[i]) + x->r[i]);
  return (sqrt(s) + x->ball) * (1 + 2 * ETA);
}

/* ReLU coordinatewise: relu(z) = s z with s_i in {0, 1} (any s_i where z_i = 0), so relu(c + b + u)
 * = S (c + b) + S u: the ball part S u keeps its norm bound, and a coordinate that may cross 0 has
 * the box hull{0, c - r, c + r}. It may instead take the box [0, hi] of its whole range (u_i = 0 in
 * the decomposition then): whichever box is narrower. */
static void relu_iv(iv *y) {
  for (int i = 0; i < y->n; i++) {
    double c = y->c[i], r = y->r[i], d = ETA * (fabs(c) + r + y->ball) + TINY;
    double lo = c - r - y->ball - d, hi = c + r + y->ball + d;
    if (lo >= 0) continue;
    if (hi <= 0) { y->c[i] = y->r[i] = 0, y->fr[i] = 0; continue; }
    double bl = c - r - d < 0 ? c - r - d : 0, bh = c + r + d > 0 ? c + r + d : 0;
    if (bh - bl < hi) y->c[i] = 0.5 * (bl + bh), y->r[i] = 0.5 * (bh - bl) + ETA * (bh - bl) + TINY;
    else y->c[i] = 0.5 * hi, y->r[i] = 0.5 * hi + ETA * hi + TINY, y->fr[i] = 0;
  }
}

/* y = (A + dA) x + (b + db) over the dense W x W map whose non-zero block is A, ||(dA, db)||_F <=
 * eps: dA x + db is a ball of radius eps sqrt(||x||^2 + 1). x's ball goes through A as a ball of
 * radius <= min(||A||_F, sqrt(||A||_1 ||A||_inf)) * ball ("through"), or onto each row's box as
 * ||A_i||_2 * ball (collapse, always when `through` is 0): through only where A spreads the ball no
 * more than its widest row does. colsum: scratch [cols]. */
static void lin(const nnt_tm_csr *A, const double *b, const iv *x, double eps, int through, double *colsum, iv *y) {
  double e = eps * sqrt(maxnorm(x) * maxnorm(x) + 1) * (1 + ETA);
  double fro = 0, rowmax = 0, row1 = 0, col1 = 0;
  memset(colsum, 0, sizeof(double) * (size_t)A->cols);
  y->n = A->rows;
  for (int i = 0; i < A->rows; i++) {
    double c = b ? b[i] : 0, mag = fabs(c), r = 0, rn = 0, ra = 0;
    for (int p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
      double a = A->val[p], t = a * x->c[A->idx[p]];
      c += t, mag += fabs(t), r += fabs(a) * x->r[A->idx[p]];
      if (x->fr[A->idx[p]]) rn += a * a, ra += fabs(a), colsum[A->idx[p]] += fabs(a);
    }
    fro += rn, rn = sqrt(rn) * (1 + ETA);
    if (rn > rowmax) rowmax = rn;
    if (ra > row1) row1 = ra;
    y->c[i] = c, y->r[i] = widen(r, mag + r) + rn * x->ball; /* the collapse term, removed below if through */
    y->fr[i] = 1;
  }
  for (int j = 0; j < A->cols; j++)
    if (colsum[j] > col1) col1 = colsum[j];
  double spec = sqrt(fro) < sqrt(row1 * col1) ? sqrt(fro) : sqrt(row1 * col1);
  spec *= 1 + 4 * ETA;
  y->ball = e;
  if (through && x->ball > 0 && spec <= THROUGH * rowmax) {
    for (int i = 0; i < A->rows; i++) {
      double rn = 0;
      for (int p = A->ptr[i]; p < A->ptr[i + 1]; p++)
        if (x->fr[A->idx[p]]) rn += A->val[p] * A->val[p];
      y->r[i] = widen(y->r[i] - sqrt(rn) * (1 + ETA) * x->ball, 0) + TINY;
      if (y->r[i] < 0) y->r[i] = TINY;
    }
    y->ball = widen(e + spec * x->ball, 0);
  }
}

/* The FF's last two layers compute round(z) = relu(3z - 1) - relu(3z - 2) per output: W3's row o
 * is +1 at a, -1 at b, and W2's rows a and b are equal with b2[a] - b2[b] = 1. Independent
 * intervals for a and b add their radii (x6 per layer, exponential over d (T + 1) layers); jointly,
 * with P = W2_a u1 + b2_a and row perturbations |e_a|, |e_b| <= e:
 *   relu(P - e) - relu(P - 1 + e) <= relu(P + e_a) - relu(P - 1 + e_b) <= relu(P + e) - relu(P - 1 - e),
 * both sides piecewise linear in P (extremes at the ends or the kinks), flat once P is beyond them:
 * the saturation behind Theorem D.6. pair[o] = a (b = the other entry), or -1. */
static void find_pairs(const nnt_tm_layer *L, int w, int *pair) {
  const nnt_tm_csr *W2 = &L->W2, *W3 = &L->W3;
  for (int o = 0; o < w; o++) {
    pair[o] = -1;
    int p = W3->ptr[o];
    if (W3->ptr[o + 1] - p != 2) continue;
    int a = W3->idx[p], b = W3->idx[p + 1];
    if (W3->val[p] == -1 && W3->val[p + 1] == 1) a = b, b = W3->idx[p];
    else if (!(W3->val[p] == 1 && W3->val[p + 1] == -1)) continue;
    int n = W2->ptr[a + 1] - W2->ptr[a];
    if (n != W2->ptr[b + 1] - W2->ptr[b] || L->b2[a] - L->b2[b] != 1) continue;
    int same = 1;
    for (int k = 0; k < n && same; k++)
      same = W2->idx[W2->ptr[a] + k] == W2->idx[W2->ptr[b] + k] && W2->val[W2->ptr[a] + k] == W2->val[W2->ptr[b] + k];
    if (same) pair[o] = a;
  }
}

static double relu(double x) { return x > 0 ? x : 0; }

/* h: W3 u2 + b3 before its ReLU, collapsed (its ball is dW3 u2 + db3 alone, so its box encloses
 * W3 u2 + b3). Each round pair's W3_o u2 + b3_o is intersected with the joint bound above. */
static void round_pairs(const nnt_tm_layer *L, const int *pair, const iv *u1, double eps, iv *h) {
  double e = eps * sqrt(maxnorm(u1) * maxnorm(u1) + 1) * (1 + ETA);
  const nnt_tm_csr *W2 = &L->W2;
  for (int o = 0; o < h->n; o++) {
    int a = pair[o];
    if (a < 0) continue;
    double c = L->b2[a], mag = fabs(c), r = 0, rn = 0;
    for (int p = W2->ptr[a]; p < W2->ptr[a + 1]; p++) {
      double t = W2->val[p] * u1->c[W2->idx[p]];
      c += t, mag += fabs(t), r += fabs(W2->val[p]) * u1->r[W2->idx[p]];
      if (u1->fr[W2->idx[p]]) rn += W2->val[p] * W2->val[p];
    }
    r = widen(r + sqrt(rn) * (1 + ETA) * u1->ball, mag);
    double Pl = c - r, Ph = c + r, ps[6] = {Pl, Ph, e, 1 - e, -e, 1 + e}, lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < 6; k++) {
      if (ps[k] < Pl || ps[k] > Ph) continue;
      double g = relu(ps[k] - e) - relu(ps[k] - 1 + e), f = relu(ps[k] + e) - relu(ps[k] - 1 - e);
      lo = g < lo ? g : lo, hi = f > hi ? f : hi;
    }
    double d = ETA * (fabs(lo) + fabs(hi) + fabs(Pl) + fabs(Ph) + fabs(L->b3[o]) + 1) + TINY;
    lo += L->b3[o] - d, hi += L->b3[o] + d;
    double slo = h->c[o] - h->r[o], shi = h->c[o] + h->r[o];
    lo = lo > slo ? lo : slo, hi = hi < shi ? hi : shi;
    h->c[o] = 0.5 * (lo + hi), h->r[o] = 0.5 * (hi - lo) + ETA * (fabs(lo) + fabs(hi)) + TINY;
  }
}

/* The keys and values of one attention (one layer, self or encoder), in a binary tree over the
 * insertion order (leaf cap + j holds key j; node i has children 2i, 2i + 1). Every node holds the
 * hull of its members' key boxes [klo, khi] (dk coordinates), their largest key ball, the hull of
 * their value boxes on the value's active coordinates (rows where V or bv is non-zero) and their
 * largest value ball; vin bounds |v_i| on the other coordinates over all keys. A query bounds a
 * node's score over the hull, so a node whose upper bound is below the best lower bound drops all
 * its keys at once: a step costs O(log t) nodes where the argmax is one key (binary positions put
 * the keys sharing a prefix of Bin(t') under one node) instead of O(t). homo[i] >= 0: all members
 * have the same nominal key and value (centres rounded to integers), which the query takes whole. */
typedef struct {
  int n, dk, w, cap, nva;
  int *va;              /* [nva] active value coordinates */
  double *klo, *khi;    /* [2 cap][dk] */
  double *kb, *vb;      /* [2 cap] */
  double *vlo, *vhi;    /* [2 cap][nva] */
  double vin;           /* |v_i| <= vin off the active coordinates, every key */
  int *homo;            /* [2 cap] */
  short *nom;           /* [cap][dk + nva] rounded centres */
  double *kcen, *xc;    /* [cap][dk], [cap][w]: centres and inputs, kept only for the attack's probe */
} kcache;

/* The attack's probe (an unperturbed propagation, eps = 0): at step t, per layer and attention, the
 * query's input and the query, and the selected key and the best other one (index n: the null
 * key) with their inputs and key vectors. */
typedef struct {
  int set, best, other, n;
  double *xq, *q, *xb, *xo, *kb, *ko; /* [w], [dk], [w], [w], [dk], [dk] */
  int src, nu2;                       /* the layer whose FF output is the query's input (-1: none) */
  double *u2;                         /* [nu2] that FF's last hidden layer */
} probe_att;
typedef struct {
  long t;
  probe_att *att; /* [layer * 2 + (0 self, 1 enc)] */
} probe;


static void kc_alloc(kcache *k, const nnt_tm_attn *a, int nkeys, int w) {
  int dk = a->dk ? a->dk : 1;
  k->n = 0, k->dk = a->dk, k->w = w, k->vin = 0;
  k->cap = 1;
  while (k->cap < nkeys) k->cap *= 2;
  k->va = nnt_xmalloc(sizeof(int) * (size_t)w), k->nva = 0;
  for (int i = 0; i < w; i++)
    if ((i < a->V.rows && a->V.ptr[i + 1] > a->V.ptr[i]) || a->bv[i] != 0) k->va[k->nva++] = i;
  size_t nodes = 2 * (size_t)k->cap, nv = (size_t)(k->nva ? k->nva : 1);
  k->klo = nnt_xmalloc(sizeof(double) * nodes * (size_t)dk), k->khi = nnt_xmalloc(sizeof(double) * nodes * (size_t)dk);
  k->vlo = nnt_xmalloc(sizeof(double) * nodes * nv), k->vhi = nnt_xmalloc(sizeof(double) * nodes * nv);
  k->kb = nnt_xmalloc(sizeof(double) * nodes), k->vb = nnt_xmalloc(sizeof(double) * nodes);
  k->homo = nnt_xmalloc(sizeof(int) * nodes);
  k->nom = nnt_xmalloc(sizeof(short) * (size_t)k->cap * (size_t)(dk + k->nva));
  k->kcen = k->xc = NULL;
}

static void kc_free(kcache *k) {
  free(k->va), free(k->klo), free(k->khi), free(k->vlo), free(k->vhi), free(k->kb), free(k->vb), free(k->homo);
  free(k->nom), free(k->kcen), free(k->xc);
}

typedef struct {
  int W, w;
  double eps;
  iv q, k, v;          /* scratch */
  double *hlo, *hhi;   /* [w] value hull */
  double *qlo, *qhi;   /* [W] the query's box */
  double *colsum;      /* [W] lin's column sums */
  int *stack;          /* [2 * 64] the tree walk */
  long *check;         /* NULL, or counts the walks a linear scan contradicts (nnt_tm_margin_certify_checked) */
} scratch;

static short nominal(double c) { return c > 30000 ? 30000 : c < -30000 ? -30000 : (short)lround(c); }

/* [c - r, c + r] rounded outwards */
static void outward(double c, double r, double *lo, double *hi) {
  double d = ETA * (fabs(c) + r) + TINY;
  *lo = c - r - d, *hi = c + r + d;
}

/* the first key under node i */
static long first_key(const kcache *kc, long i) {
  while (i < kc->cap) i *= 2;
  return i - kc->cap;
}

/* node i = the hull of its children (the right one may be empty) */
static void kc_merge(kcache *kc, int i) {
  int l = 2 * i, r = 2 * i + 1, dk = kc->dk ? kc->dk : 1, nv = kc->nva;
  int rempty = first_key(kc, r) >= kc->n;
  if (rempty) {
    memcpy(kc->klo + (size_t)i * dk, kc->klo + (size_t)l * dk, sizeof(double) * (size_t)dk);
    memcpy(kc->khi + (size_t)i * dk, kc->khi + (size_t)l * dk, sizeof(double) * (size_t)dk);
    memcpy(kc->vlo + (size_t)i * nv, kc->vlo + (size_t)l * nv, sizeof(double) * (size_t)nv);
    memcpy(kc->vhi + (size_t)i * nv, kc->vhi + (size_t)l * nv, sizeof(double) * (size_t)nv);
    kc->kb[i] = kc->kb[l], kc->vb[i] = kc->vb[l], kc->homo[i] = kc->homo[l];
    return;
  }
  for (int d = 0; d < dk; d++) {
    double a = kc->klo[(size_t)l * dk + d], b = kc->klo[(size_t)r * dk + d];
    kc->klo[(size_t)i * dk + d] = a < b ? a : b;
    a = kc->khi[(size_t)l * dk + d], b = kc->khi[(size_t)r * dk + d];
    kc->khi[(size_t)i * dk + d] = a > b ? a : b;
  }
  for (int d = 0; d < nv; d++) {
    double a = kc->vlo[(size_t)l * nv + d], b = kc->vlo[(size_t)r * nv + d];
    kc->vlo[(size_t)i * nv + d] = a < b ? a : b;
    a = kc->vhi[(size_t)l * nv + d], b = kc->vhi[(size_t)r * nv + d];
    kc->vhi[(size_t)i * nv + d] = a > b ? a : b;
  }
  kc->kb[i] = kc->kb[l] > kc->kb[r] ? kc->kb[l] : kc->kb[r];
  kc->vb[i] = kc->vb[l] > kc->vb[r] ? kc->vb[l] : kc->vb[r];
  int hl = kc->homo[l], hr = kc->homo[r], nn = dk + nv;
  kc->homo[i] = hl >= 0 && hr >= 0 && !memcmp(kc->nom + (size_t)hl * nn, kc->nom + (size_t)hr * nn, sizeof(short) * (size_t)nn) ? hl : -1;
}

static void kc_push(kcache *kc, const nnt_tm_attn *a, const iv *x, scratch *S) {
  lin(&a->K, a->bk, x, S->eps, 1, S->colsum, &S->k);
  lin(&a->V, a->bv, x, S->eps, 1, S->colsum, &S->v);
  int j = kc->n, leaf = kc->cap + j, dk = kc->dk ? kc->dk : 1, nv = kc->nva, nn = dk + nv;
  for (int d = 0; d < dk; d++) {
    double c = d < kc->dk ? S->k.c[d] : 0, r = d < kc->dk ? S->k.r[d] : 0;
    outward(c, r, kc->klo + (size_t)leaf * dk + d, kc->khi + (size_t)leaf * dk + d);
    kc->nom[(size_t)j * nn + d] = nominal(c);
  }
  for (int d = 0, p = 0; d < kc->w; d++) {
    double c = S->v.c[d], r = S->v.r[d];
    if (p < nv && kc->va[p] == d) {
      outward(c, r, kc->vlo + (size_t)leaf * nv + p, kc->vhi + (size_t)leaf * nv + p);
      kc->nom[(size_t)j * nn + dk + p++] = nominal(c);
    } else {
      double m = (fabs(c) + r) * (1 + ETA) + TINY;
      if (m > kc->vin) kc->vin = m;
    }
  }
  kc->kb[leaf] = S->k.ball, kc->vb[leaf] = S->v.ball, kc->homo[leaf] = j;
  if (kc->kcen) memcpy(kc->kcen + (size_t)j * dk, S->k.c, sizeof(double) * (size_t)kc->dk);
  if (kc->xc) memcpy(kc->xc + (size_t)j * kc->w, x->c, sizeof(double) * (size_t)kc->w);
  kc->n++;
  for (int i = leaf / 2; i >= 1; i /= 2) kc_merge(kc, i);
}

/* [*L, *U] encloses q . k for q in the query's box [qlo, qhi] (||box||_2 <= qn) plus a ball of
 * radius qb, and k in any key of node i: interval products per coordinate; the balls (over all W
 * coordinates, padding included) with l2 norms: box.ball + ball.box + ball.ball. */
static void node_score(const kcache *kc, long i, const scratch *S, double qn, double qb, double *L, double *U) {
  int dk = kc->dk, stride = dk ? dk : 1;
  const double *lo = kc->klo + (size_t)i * stride, *hi = kc->khi + (size_t)i * stride;
  double smax = 0, smin = 0, mag = 0, kn = 0;
  for (int d = 0; d < dk; d++) {
    double a = S->qlo[d] * lo[d], b = S->qlo[d] * hi[d], c = S->qhi[d] * lo[d], e = S->qhi[d] * hi[d];
    double mx = a > b ? a : b, mn = a < b ? a : b;
    mx = c > mx ? c : mx, mn = c < mn ? c : mn, mx = e > mx ? e : mx, mn = e < mn ? e : mn;
    smax += mx, smin += mn, mag += fabs(mx) > fabs(mn) ? fabs(mx) : fabs(mn);
    kn += lo[d] * lo[d] > hi[d] * hi[d] ? lo[d] * lo[d] : hi[d] * hi[d];
  }
  kn = sqrt(kn) * (1 + ETA);
  double kb = kc->kb[i], ball = (qn * kb + qb * kn + qb * kb) * (1 + 4 * ETA);
  double d = ETA * (mag + ball) + TINY;
  *U = smax + ball + d, *L = smin - ball - d;
}

static void hull_add(scratch *S, int i, double lo, double hi) {
  if (lo < S->hlo[i]) S->hlo[i] = lo;
  if (hi > S->hhi[i]) S->hhi[i] = hi;
}

/* The hull of node i's values (every key under it) joins S's hull. */
static void take_node(const kcache *kc, long i, scratch *S, double *bmax) {
  for (int p = 0; p < kc->nva; p++)
    hull_add(S, kc->va[p], kc->vlo[(size_t)i * kc->nva + p], kc->vhi[(size_t)i * kc->nva + p]);
  if (kc->vb[i] > *bmax) *bmax = kc->vb[i];
}

/* A linear scan over every key checks the tree walk (nnt_tm_margin_certify_checked): best is at
 * most some key's (or the null key's) lower bound, and every key whose upper bound reaches best
 * lies inside the hull. Counts contradictions. */
static void check_walk(const kcache *kc, scratch *S, double qn, double qb, double nlo, double best, double bmax) {
  double top = nlo;
  for (long j = 0; j < kc->n; j++) {
    double L, U;
    node_score(kc, kc->cap + j, S, qn, qb, &L, &U);
    if (L > top) top = L;
    if (U < best) continue;
    long i = kc->cap + j;
    int inside = kc->vb[i] <= bmax;
    for (int p = 0; p < kc->nva; p++) {
      int c = kc->va[p];
      inside &= kc->vlo[(size_t)i * kc->nva + p] >= S->hlo[c] && kc->vhi[(size_t)i * kc->nva + p] <= S->hhi[c];
    }
    for (int c = 0, p = 0; c < kc->w; c++) {
      if (p < kc->nva && kc->va[p] == c) p++;
      else inside &= -kc->vin >= S->hlo[c] && kc->vin <= S->hhi[c];
    }
    if (!inside) (*S->check)++;
  }
  if (best > top) (*S->check)++;
}

/* h += mean of the values over the argmax of the scores (null key included): it lies in the hull
 * of the value intervals of every key whose score can reach the largest lower bound (the mean of
 * balls is in the largest one). Two walks down the tree: the first finds a best lower bound (a
 * node of equal nominal keys counts as one: its hull's lower bound holds for each member), the
 * second takes every node whose upper bound reaches it, whole where its members are equal. */
static void kc_apply(const kcache *kc, const nnt_tm_attn *a, iv *h, scratch *S, probe_att *pa) {
  int dk = kc->dk, w = kc->w;
  long n = kc->n;
  double eps = S->eps;
  if (pa) memcpy(pa->xq, h->c, sizeof(double) * (size_t)w);
  lin(&a->Q, a->bq, h, eps, 1, S->colsum, &S->q);
  const iv *q = &S->q;
  double qn = 0, qb = q->ball;
  for (int d = 0; d < dk; d++) {
    outward(q->c[d], q->r[d], &S->qlo[d], &S->qhi[d]);
    qn += fmax(S->qlo[d] * S->qlo[d], S->qhi[d] * S->qhi[d]);
  }
  qn = sqrt(qn) * (1 + ETA);
  /* null key K0 + dK0, ||dK0||_2 <= eps over W coordinates: |q . dK0| <= eps max ||q||_2 */
  double nc = 0, mag = 0;
  for (int i = 0; i < dk; i++) nc += q->c[i] * a->K0[i], mag += fabs(q->c[i] * a->K0[i]);
  double r = 0;
  for (int i = 0; i < dk; i++) r += q->r[i] * fabs(a->K0[i]);
  r = widen(r + qb * norm2(a->K0, dk) + eps * maxnorm(q) * (1 + ETA), mag);
  double nlo = nc - r, nhi = nc + r, best = nlo, L, U;
  int *st = S->stack, top = 0;
  if (n > 0) st[top++] = 1;
  while (top) {
    long i = st[--top];
    node_score(kc, i, S, qn, qb, &L, &U);
    if (U <= best) continue;
    if (i >= kc->cap || kc->homo[i] >= 0) {
      if (L > best) best = L;
      continue;
    }
    st[top++] = (int)(2 * i);
    if (first_key(kc, 2 * i + 1) < n) st[top++] = (int)(2 * i + 1); /* later keys first */
  }
  if (pa) { /* centre scores: the selected key (first argmax) and the best other one */
    long b = n, o = -1;
    double sb = nc, so = -INFINITY;
    for (long j = 0; j < n; j++) {
      double s = 0;
      for (int d = 0; d < dk; d++) s += q->c[d] * kc->kcen[(size_t)j * dk + d];
      if (s > sb) b = j, sb = s;
    }
    for (long j = 0; j <= n; j++) {
      double s = nc;
      if (j < n) {
        s = 0;
        for (int d = 0; d < dk; d++) s += q->c[d] * kc->kcen[(size_t)j * dk + d];
      }
      if (j != b && (o < 0 || s > so)) o = j, so = s;
    }
    pa->set = 1, pa->best = (int)b, pa->other = (int)o, pa->n = (int)n;
    memcpy(pa->q, q->c, sizeof(double) * (size_t)dk);
    const long jj[2] = {b, o};
    double *xs[2] = {pa->xb, pa->xo}, *ks[2] = {pa->kb, pa->ko};
    for (int u = 0; u < 2; u++) {
      if (jj[u] < 0 || jj[u] == n) {
        memset(xs[u], 0, sizeof(double) * (size_t)w), memcpy(ks[u], a->K0, sizeof(double) * (size_t)dk);
        continue;
      }
      memcpy(xs[u], kc->xc + (size_t)jj[u] * w, sizeof(double) * (size_t)w);
      memcpy(ks[u], kc->kcen + (size_t)jj[u] * dk, sizeof(double) * (size_t)dk);
    }
  }
  for (int i = 0; i < w; i++) S->hlo[i] = INFINITY, S->hhi[i] = -INFINITY;
  double bmax = 0;
  int any = 0, keys = 0;
  if (nhi >= best) {
    any = 1, bmax = eps;
    for (int i = 0; i < w; i++) S->hlo[i] = S->hhi[i] = a->V0[i];
  }
  if (n > 0) st[top++] = 1;
  while (top) {
    long i = st[--top];
    node_score(kc, i, S, qn, qb, &L, &U);
    if (U < best) continue;
    if (i >= kc->cap || kc->homo[i] >= 0) {
      take_node(kc, i, S, &bmax), keys = 1;
      continue;
    }
    st[top++] = (int)(2 * i);
    if (first_key(kc, 2 * i + 1) < n) st[top++] = (int)(2 * i + 1);
  }
  if (!any && !keys && n > 0) take_node(kc, 1, S, &bmax), keys = 1; /* unreachable (best is some bound's lower end); safe */
  if (keys) /* the coordinates off the active ones */
    for (int i = 0, p = 0; i < w; i++) {
      if (p < kc->nva && kc->va[p] == i) p++;
      else hull_add(S, i, -kc->vin, kc->vin);
    }
  if (!any && !keys)
    for (int i = 0; i < w; i++) S->hlo[i] = S->hhi[i] = 0;
  if (S->check) check_walk(kc, S, qn, qb, nlo, best, bmax);
  for (int i = 0; i < w; i++) {
    double lo = S->hlo[i], hi = S->hhi[i];
    h->c[i] += 0.5 * (lo + hi);
    h->r[i] = widen(h->r[i] + 0.5 * (hi - lo), fabs(h->c[i]) + fabs(lo) + fabs(hi));
  }
  h->ball = widen(h->ball + bmax, 0);
  if (bmax > 0) memset(h->fr, 1, (size_t)w);
}

/* Propagates the set of perturbations of radius eps; [*lo, *hi] encloses theta_cls^T o_T; o (if
 * not NULL) receives the centre of o_T's w coordinates. */
static void propagate(const nnt_tm_net *net, const nnt_tm *tm, double eps, double *o, double *lo, double *hi, probe *pr,
                      long *check) {
  nnt_tm_net_stats st = nnt_tm_net_stats_of(net);
  int W = st.max_width, w = net->w, nl = net->nlayers, m = net->m, wpos = net->wpos;
  long steps = net->T + 1;
  const nnt_tm_groups *g = &net->g;
  scratch S = {.W = W, .w = w, .eps = eps};
  iv_alloc(&S.q, W), iv_alloc(&S.k, W), iv_alloc(&S.v, W);
  S.qlo = nnt_xmalloc(sizeof(double) * (size_t)W), S.qhi = nnt_xmalloc(sizeof(double) * (size_t)W);
  S.stack = nnt_xmalloc(sizeof(int) * 256), S.check = check;
  S.hlo = nnt_xmalloc(sizeof(double) * (size_t)w), S.hhi = nnt_xmalloc(sizeof(double) * (size_t)w);
  S.colsum = nnt_xmalloc(sizeof(double) * (size_t)W);
  kcache *self = nnt_xmalloc(sizeof(kcache) * (size_t)(nl ? nl : 1)), *enc = nnt_xmalloc(sizeof(kcache) * (size_t)(nl ? nl : 1));
  iv x, h, u1, u2;
  iv_alloc(&x, W), iv_alloc(&h, W), iv_alloc(&u1, W), iv_alloc(&u2, W);
  int *pair = nnt_xmalloc(sizeof(int) * (size_t)(nl ? nl : 1) * (size_t)w);
  for (int l = 0; l < nl; l++) find_pairs(&net->layers[l], w, pair + (size_t)l * w);
  /* Absent attentions are kept: the dense architecture has them, with all-zero parameters. */
  for (int l = 0; l < nl; l++) {
    kc_alloc(&self[l], &net->layers[l].self, (int)steps, w);
    kc_alloc(&enc[l], &net->layers[l].enc, m, w);
    if (pr) {
      self[l].xc = nnt_xmalloc(sizeof(double) * (size_t)steps * w);
      enc[l].xc = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1) * w);
      self[l].kcen = nnt_xmalloc(sizeof(double) * (size_t)steps * (size_t)(self[l].dk ? self[l].dk : 1));
      enc[l].kcen = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1) * (size_t)(enc[l].dk ? enc[l].dk : 1));
    }
  }
  x.n = w;
  for (int c = 0; c < m; c++) { /* encoder: E[x_c] + dE + Bin(c + offset), dE's row a ball */
    long pos = c + net->offset;
    for (int i = 0; i < w; i++) x.c[i] = net->E[(long)tm->input[c] * w + i], x.r[i] = 0;
    x.ball = eps;
    for (int b = 0; b < wpos; b++) x.c[g->pos1 + b] += (double)((pos >> (wpos - 1 - b)) & 1);
    for (int l = 0; l < nl; l++) kc_push(&enc[l], &net->layers[l].enc, &x, &S);
  }
  for (int i = 0; i < w; i++) x.c[i] = net->h0[i], x.r[i] = 0; /* o_0 = h0 + dh0 */
  x.ball = eps;
  for (long t = 1; t <= steps; t++) {
    h.n = x.n, h.ball = x.ball;
    memcpy(h.c, x.c, sizeof(double) * (size_t)w), memcpy(h.r, x.r, sizeof(double) * (size_t)w), memcpy(h.fr, x.fr, (size_t)w);
    for (int b = 0; b < wpos; b++) h.c[g->pos1 + b] += (double)((t >> (wpos - 1 - b)) & 1);
    for (int l = 0; l < nl; l++) {
      const nnt_tm_layer *L = &net->layers[l];
      kc_push(&self[l], &L->self, &h, &S);
      int rec = pr && pr->t == t;
      if (rec && (l > 0 || t > 1))
        for (int k = 0; k < 2; k++) {
          probe_att *pa = &pr->att[2 * l + k];
          pa->src = l > 0 ? l - 1 : nl - 1, pa->nu2 = u2.n;
          memcpy(pa->u2, u2.c, sizeof(double) * (size_t)u2.n);
        }
      kc_apply(&self[l], &L->self, &h, &S, rec ? &pr->att[2 * l] : NULL);
      kc_apply(&enc[l], &L->enc, &h, &S, rec ? &pr->att[2 * l + 1] : NULL);
      lin(&L->W1, L->b1, &h, eps, 1, S.colsum, &u1), relu_iv(&u1);
      lin(&L->W2, L->b2, &u1, eps, 1, S.colsum, &u2), relu_iv(&u2);
      lin(&L->W3, L->b3, &u2, eps, 0, S.colsum, &h);
      round_pairs(L, pair + (size_t)l * w, &u1, eps, &h);
      relu_iv(&h);
    }
    iv tmp = x;
    x = h, h = tmp;
  }
  double c = 0, r = 0, mag = 0;
  for (int i = 0; i < w; i++) {
    double t = net->cls[i] * x.c[i];
    c += t, mag += fabs(t), r += fabs(net->cls[i]) * x.r[i];
  }
  r = widen(r + norm2_free(net->cls, &x) * x.ball + eps * maxnorm(&x) * (1 + ETA), mag);
  *lo = c - r, *hi = c + r;
  if (o) memcpy(o, x.c, sizeof(double) * (size_t)w);
  for (int l = 0; l < nl; l++) kc_free(&self[l]), kc_free(&enc[l]);
  free(pair), free(self), free(enc), free(S.qlo), free(S.qhi), free(S.stack), free(S.hlo), free(S.hhi), free(S.colsum);
  iv_free(&S.q), iv_free(&S.k), iv_free(&S.v), iv_free(&x), iv_free(&h), iv_free(&u1), iv_free(&u2);
}

int nnt_tm_margin_certify(const nnt_tm_net *net, const nnt_tm *tm, double eps, double *lo, double *hi) {
  propagate(net, tm, eps, NULL, lo, hi, NULL, NULL);
  return *lo > 0 || *hi < 0;
}

int nnt_tm_margin_certify_checked(const nnt_tm_net *net, const nnt_tm *tm, double eps, double *lo, double *hi,
                                  long *contradictions) {
  *contradictions = 0;
  propagate(net, tm, eps, NULL, lo, hi, NULL, contradictions);
  return *lo > 0 || *hi < 0;
}

int nnt_tm_margin_lower(const nnt_tm_net *net, const nnt_tm *tm, double *rho) {
  if (net->T > NNT_TM_MARGIN_MAX_T)
    return nnt_fail(NNT_EINVAL, "certified margin: T=%ld is above %d steps (its memory grows as T)", net->T,
                    NNT_TM_MARGIN_MAX_T);
  double lo, hi;
  *rho = 0;
  if (!nnt_tm_margin_certify(net, tm, 0, &lo, &hi)) return NNT_OK; /* F = 0, or ties the box cannot resolve */
  /* certify is monotone in eps: find a certified eps by quartering from 2^-20 (upwards when it
   * certifies: far above the margin every key is a candidate and a propagation costs O(T^2)), then
   * bisect geometrically */
  double a = 1.0 / 1048576, b;
  while (a > 1e-30 && !nnt_tm_margin_certify(net, tm, a, &lo, &hi)) a /= 4;
  if (a <= 1e-30) return NNT_OK;
  b = 4 * a;
  while (b < 1e6 && nnt_tm_margin_certify(net, tm, b, &lo, &hi)) a = b, b *= 4;
  while (b / a > 1 + 1e-3) {
    double mid = sqrt(a * b);
    if (nnt_tm_margin_certify(net, tm, mid, &lo, &hi)) a = mid;
    else b = mid;
  }
  *rho = a;
  return NNT_OK;
}

/* ---- upper bounds ---- */

static void csr_copy(nnt_tm_csr *d, const nnt_tm_csr *s) {
  *d = *s;
  d->ptr = nnt_xmalloc(sizeof(int) * (size_t)(s->rows + 1));
  d->idx = nnt_xmalloc(sizeof(int) * (size_t)(s->nnz ? s->nnz : 1));
  d->val = nnt_xmalloc(sizeof(double) * (size_t)(s->nnz ? s->nnz : 1));
  memcpy(d->ptr, s->ptr, sizeof(int) * (size_t)(s->rows + 1));
  memcpy(d->idx, s->idx, sizeof(int) * (size_t)s->nnz);
  memcpy(d->val, s->val, sizeof(double) * (size_t)s->nnz);
}

static double *vcopy(const double *v, long n) {
  double *d = nnt_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
  memcpy(d, v, sizeof(double) * (size_t)n);
  return d;
}

/* A deep copy of the net and pointers to its stored parameters, in a fixed order. */
typedef struct {
  nnt_tm_net n;
  long np;
  double **p, *orig;
  double *b3;  /* the last layer's output bias */
} pnet;

static void add(pnet *P, double *v, long n) {
  for (long i = 0; i < n; i++) P->p[P->np++] = v + i;
}

/* A CSR block stored densely (explicit zeros): the attack may move entries that are zero in the
 * compiled net, as F_{W,d} has them. */
static void csr_dense_copy(nnt_tm_csr *d, const nnt_tm_csr *s) {
  d->rows = s->rows, d->cols = s->cols, d->nnz = s->rows * s->cols;
  d->ptr = nnt_xmalloc(sizeof(int) * (size_t)(s->rows + 1));
  d->idx = nnt_xmalloc(sizeof(int) * (size_t)(d->nnz ? d->nnz : 1));
  d->val = nnt_xcalloc((size_t)(d->nnz ? d->nnz : 1), sizeof(double));
  for (int i = 0; i <= s->rows; i++) d->ptr[i] = i * s->cols;
  for (int i = 0; i < d->nnz; i++) d->idx[i] = i % (s->cols ? s->cols : 1);
  for (int i = 0; i < s->rows; i++)
    for (int p = s->ptr[i]; p < s->ptr[i + 1]; p++) d->val[(long)i * s->cols + s->idx[p]] = s->val[p];
}

static long attn_count(const nnt_tm_attn *a, int w) { return (long)a->Q.nnz + a->K.nnz + a->V.nnz + 3L * a->dk + 2L * w; }

static void attn_copy(pnet *P, nnt_tm_attn *d, const nnt_tm_attn *s, int w) {
  d->dk = s->dk;
  csr_copy(&d->Q, &s->Q), csr_copy(&d->K, &s->K), csr_copy(&d->V, &s->V);
  d->bq = vcopy(s->bq, s->dk), d->bk = vcopy(s->bk, s->dk), d->K0 = vcopy(s->K0, s->dk);
  d->bv = vcopy(s->bv, w), d->V0 = vcopy(s->V0, w);
  add(P, d->Q.val, d->Q.nnz), add(P, d->K.val, d->K.nnz), add(P, d->V.val, d->V.nnz);
  add(P, d->bq, d->dk), add(P, d->bk, d->dk), add(P, d->K0, d->dk);
  add(P, d->bv, w), add(P, d->V0, w);
}

static void pnet_init(pnet *P, const nnt_tm_net *s) {
  int w = s->w;
  long cap = (long)s->nsym * w + 2L * w;
  for (int l = 0; l < s->nlayers; l++) {
    const nnt_tm_layer *L = &s->layers[l];
    cap += attn_count(&L->self, w) + attn_count(&L->enc, w) + L->W1.nnz + L->W2.nnz + (long)L->W3.rows * L->W3.cols + L->W1.rows +
           L->W2.rows + w;
  }
  P->np = 0, P->p = nnt_xmalloc(sizeof(double *) * (size_t)cap);
  P->n = *s;
  P->n.E = vcopy(s->E, (long)s->nsym * w), P->n.h0 = vcopy(s->h0, w), P->n.cls = vcopy(s->cls, w);
  add(P, P->n.E, (long)s->nsym * w), add(P, P->n.h0, w), add(P, P->n.cls, w);
  P->n.layers = nnt_xcalloc((size_t)(s->nlayers ? s->nlayers : 1), sizeof(nnt_tm_layer));
  for (int l = 0; l < s->nlayers; l++) {
    nnt_tm_layer *d = &P->n.layers[l];
    const nnt_tm_layer *L = &s->layers[l];
    memcpy(d->name, L->name, sizeof d->name);
    d->has_self = L->has_self, d->has_enc = L->has_enc;
    attn_copy(P, &d->self, &L->self, w), attn_copy(P, &d->enc, &L->enc, w);
    csr_copy(&d->W1, &L->W1), csr_copy(&d->W2, &L->W2), csr_dense_copy(&d->W3, &L->W3);
    d->b1 = vcopy(L->b1, L->W1.rows), d->b2 = vcopy(L->b2, L->W2.rows), d->b3 = vcopy(L->b3, w);
    add(P, d->W1.val, d->W1.nnz), add(P, d->W2.val, d->W2.nnz), add(P, d->W3.val, d->W3.nnz);
    add(P, d->b1, L->W1.rows), add(P, d->b2, L->W2.rows), add(P, d->b3, w);
    P->b3 = d->b3;
  }
  P->orig = nnt_xmalloc(sizeof(double) * (size_t)P->np);
  for (long i = 0; i < P->np; i++) P->orig[i] = *P->p[i];
}

typedef struct {
  pnet P;
  const nnt_tm *tm;
  const nnt_tm_trace *tr;
  double s; /* sign of F(theta) */
  nnt_tm_margin_est *est;
  int bisect; /* bisection steps per direction */
} attack;

/* Runs theta + t d (d over the stored parameters, unit norm); records t when the decision flips. */
static int flips(attack *A, const double *d, double t, const char *how) {
  for (long i = 0; i < A->P.np; i++) *A->P.p[i] = A->P.orig[i] + t * d[i];
  nnt_tm_run_opts o = {.attention = NNT_TM_HARD, .precision = NNT_TM_F64};
  nnt_tm_run_result r;
  nnt_tm_net_run(&A->P.n, A->tm, A->tr, &o, &r);
  A->est->runs++;
  if (!(A->s * r.output <= 0)) return 0;
  A->est->flips++;
  if (t < A->est->rho) {
    A->est->rho = t;
    snprintf(A->est->how, sizeof A->est->how, "%s", how);
  }
  return 1;
}

/* Bisection of the flipping scale along d, below the best so far (or up to 1e3 when none). */
static void along(attack *A, const double *d, const char *how) {
  double hi = A->est->rho;
  if (!isfinite(hi)) {
    for (hi = 1e-3; hi <= 1e3 && !flips(A, d, hi, how); hi *= 2) {}
    if (hi > 1e3) return;
  } else if (!flips(A, d, hi * (1 - 1e-9), how)) return;
  double lo = 0;
  hi = A->est->rho;
  for (int it = 0; it < A->bisect; it++) {
    double mid = 0.5 * (lo + hi);
    if (flips(A, d, mid, how)) hi = mid;
    else lo = mid;
  }
}

static void normalise(double *d, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += d[i] * d[i];
  s = sqrt(s);
  for (long i = 0; i < n; i++) d[i] = s > 0 ? d[i] / s : 0;
}

static long pindex(const pnet *P, const double *v) {
  long i = 0;
  while (i < P->np && P->p[i] != v) i++;
  return i;
}

/* (e) The query's input moved through the FF output that feeds it: d (score_o - score_b) / d h =
 * Q^T (k_o - k_b) =: v, so W3 along v u2^T and b3 along v (u2 the FF's hidden layer at the probe
 * step); every W3 entry, zeros included, and shared by all steps like every direction here. d: the
 * unit direction; returns the step that closes the centre score gap to first order (a unit step
 * moves the gap by ||v|| sqrt(||u2||^2 + 1)), INFINITY when there is none. */
static double ff_direction(attack *A, const probe_att *pa, const nnt_tm_attn *a, int w, double *d) {
  nnt_tm_layer *Ls = &A->P.n.layers[pa->src];
  double *v = pa->xb; /* reused: the key inputs are no longer needed */
  memset(v, 0, sizeof(double) * (size_t)w);
  for (int r = 0; r < a->Q.rows; r++)
    for (int p = a->Q.ptr[r]; p < a->Q.ptr[r + 1]; p++) v[a->Q.idx[p]] += a->Q.val[p] * (pa->ko[r] - pa->kb[r]);
  memset(d, 0, sizeof(double) * (size_t)A->P.np);
  long iW3 = pindex(&A->P, Ls->W3.val), ib3 = pindex(&A->P, Ls->b3);
  for (int o = 0; o < Ls->W3.rows; o++) {
    for (int j = 0; j < Ls->W3.cols && j < pa->nu2; j++) d[iW3 + (long)o * Ls->W3.cols + j] = v[o] * pa->u2[j];
    d[ib3 + o] = v[o];
  }
  double nn = 0, vn = 0, un = 0, gap = 0;
  for (long k = 0; k < A->P.np; k++) nn += d[k] * d[k];
  if (!(nn > 0)) return INFINITY;
  normalise(d, A->P.np);
  for (int o = 0; o < w; o++) vn += v[o] * v[o];
  for (int j = 0; j < pa->nu2; j++) un += pa->u2[j] * pa->u2[j];
  for (int r = 0; r < a->dk; r++) gap += pa->q[r] * (pa->kb[r] - pa->ko[r]);
  return fabs(gap) / (sqrt(vn) * sqrt(un + 1));
}

static void ff_along(attack *A, const probe_att *pa, const nnt_tm_attn *a, int w, int i, long t, double *d) {
  if (pa->src < 0 || !isfinite(ff_direction(A, pa, a, w, d))) return;
  char how[80];
  snprintf(how, sizeof how, "layer %d's W3 into layer %d %s scores, step %ld", pa->src, i / 2, i % 2 ? "enc" : "self", t);
  along(A, d, how);
}

/* (c) The score difference between the key an attention selects and the best other one (null key
 * included), at probe step t of the unperturbed run: d = its gradient over the stored query and key
 * parameters (Q, bq; K, bk, K0), or over the key parameters only. Shared by all steps, so other
 * steps' scores move too; only a checked flip counts. */
static void score_directions(attack *A, const nnt_tm_net *net, const nnt_tm *tm, long t, int longrun, double *d) {
  int nl = net->nlayers, w = net->w, W = nnt_tm_net_stats_of(net).max_width;
  char *done = nnt_xcalloc((size_t)(nl > 0 ? 2 * nl : 1), 1);
  probe pr = {.t = t, .att = nnt_xcalloc((size_t)(nl > 0 ? 2 * nl : 1), sizeof(probe_att))};
  for (int i = 0; i < 2 * nl; i++) {
    probe_att *pa = &pr.att[i];
    pa->xq = nnt_xmalloc(sizeof(double) * (size_t)w), pa->xb = nnt_xmalloc(sizeof(double) * (size_t)w);
    pa->xo = nnt_xmalloc(sizeof(double) * (size_t)w);
    pa->q = nnt_xmalloc(sizeof(double) * (size_t)W), pa->kb = nnt_xmalloc(sizeof(double) * (size_t)W);
    pa->ko = nnt_xmalloc(sizeof(double) * (size_t)W);
    pa->u2 = nnt_xmalloc(sizeof(double) * (size_t)W), pa->src = -1;
  }
  double lo, hi;
  propagate(net, tm, 0, NULL, &lo, &hi, &pr, NULL);
  for (int i = 0; i < 2 * nl; i++) {
    const probe_att *pa = &pr.att[i];
    nnt_tm_attn *a = i % 2 ? &A->P.n.layers[i / 2].enc : &A->P.n.layers[i / 2].self;
    if (!pa->set || pa->other < 0 || !a->dk) continue;
    int bnull = pa->best == pa->n, onull = pa->other == pa->n;
    for (int keys_only = 0; keys_only < 2 && !longrun; keys_only++) {
      memset(d, 0, sizeof(double) * (size_t)A->P.np);
      long iK = pindex(&A->P, a->K.val), ibk = pindex(&A->P, a->bk), iK0 = pindex(&A->P, a->K0);
      for (int r = 0; r < a->K.rows; r++)
        for (int p = a->K.ptr[r]; p < a->K.ptr[r + 1]; p++)
          d[iK + p] = pa->q[r] * ((onull ? 0 : pa->xo[a->K.idx[p]]) - (bnull ? 0 : pa->xb[a->K.idx[p]]));
      double sb = (double)(bnull - onull); /* d score_o-b / d bk_r = q_r ([o real] - [b real]); for K0: the opposite */
      for (int r = 0; r < a->dk; r++) d[ibk + r] = pa->q[r] * sb, d[iK0 + r] = -pa->q[r] * sb;
      if (!keys_only) {
        long iQ = pindex(&A->P, a->Q.val), ibq = pindex(&A->P, a->bq);
        for (int r = 0; r < a->Q.rows; r++) {
          double dkr = pa->ko[r] - pa->kb[r];
          for (int p = a->Q.ptr[r]; p < a->Q.ptr[r + 1]; p++) d[iQ + p] = dkr * pa->xq[a->Q.idx[p]];
          d[ibq + r] = dkr;
        }
      }
      double nn = 0;
      for (long k = 0; k < A->P.np; k++) nn += d[k] * d[k];
      if (!(nn > 0)) continue;
      normalise(d, A->P.np);
      char how[80];
      snprintf(how, sizeof how, "%s scores, layer %d %s, step %ld", keys_only ? "key" : "q+k", i / 2, i % 2 ? "enc" : "self", t);
      along(A, d, how);
    }
    if (!longrun) ff_along(A, pa, a, w, i, t, d);
  }
  if (longrun) /* only the FF directions, the NNT_TM_MARGIN_LONG_DIRS with the smallest predicted flip */
    for (int k = 0; k < NNT_TM_MARGIN_LONG_DIRS; k++) {
      int pick = -1;
      double pbest = INFINITY;
      for (int i = 0; i < 2 * nl; i++) {
        const probe_att *pa = &pr.att[i];
        const nnt_tm_attn *a = i % 2 ? &A->P.n.layers[i / 2].enc : &A->P.n.layers[i / 2].self;
        if (!pa->set || pa->other < 0 || !a->dk || pa->src < 0 || done[i]) continue;
        double pr_t = ff_direction(A, pa, a, w, d);
        if (pr_t < pbest) pbest = pr_t, pick = i;
      }
      if (pick < 0) break;
      done[pick] = 1;
      ff_along(A, &pr.att[pick], pick % 2 ? &A->P.n.layers[pick / 2].enc : &A->P.n.layers[pick / 2].self, w, pick, t, d);
    }
  free(done);
  for (int i = 0; i < 2 * nl; i++) {
    probe_att *pa = &pr.att[i];
    free(pa->xq), free(pa->xb), free(pa->xo), free(pa->q), free(pa->kb), free(pa->ko), free(pa->u2);
  }
  free(pr.att);
}

int nnt_tm_margin_upper(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, int ndirs, uint64_t seed,
                        nnt_tm_margin_est *est) {
  if (tr->T != net->T) return nnt_fail(NNT_EINVAL, "margin: the trace has %ld steps, the net %ld", tr->T, net->T);
  if (ndirs < 0) return nnt_fail(NNT_EINVAL, "margin: ndirs must be >= 0");
  memset(est, 0, sizeof *est);
  est->rho = est->rho_cls = INFINITY;
  snprintf(est->how, sizeof est->how, "none");
  int w = net->w;
  attack A = {.tm = tm, .tr = tr, .est = est, .bisect = 12};
  nnt_tm_run_opts o = {.attention = NNT_TM_HARD, .precision = NNT_TM_F64};
  nnt_tm_run_result r;
  int st = nnt_tm_net_run(net, tm, tr, &o, &r);
  if (st) return st;
  est->runs = 1;
  if (r.output == 0) { /* no decision: the margin is 0 */
    est->rho = est->rho_cls = 0;
    snprintf(est->how, sizeof est->how, "F = 0 (not halted)");
    return NNT_OK;
  }
  A.s = r.output > 0 ? 1 : -1;
  pnet_init(&A.P, net);
  double *d = nnt_xcalloc((size_t)A.P.np, sizeof(double)), *oT = nnt_xmalloc(sizeof(double) * (size_t)w), lo, hi;
  /* (a) theta_cls along -s o_T: o_T from the unperturbed propagation (a second forward pass) */
  propagate(net, tm, 0, oT, &lo, &hi, NULL, NULL);
  long icls = (long)net->nsym * w + w; /* cls follows E and h0 in the parameter order */
  double on = 0;
  for (int i = 0; i < w; i++) on += oT[i] * oT[i];
  on = sqrt(on);
  if (on > 0) {
    for (int i = 0; i < w; i++) d[icls + i] = -A.s * oT[i] / on;
    if (flips(&A, d, fabs(r.output) / on * (1 + 1e-6), "theta_cls along -s o_T")) est->rho_cls = est->rho;
  }
  /* (b) the last layer's output bias along -s theta_cls */
  if (net->nlayers > 0) {
    memset(d, 0, sizeof(double) * (size_t)A.P.np);
    long ib3 = 0;
    while (A.P.p[ib3] != A.P.b3) ib3++;
    for (int i = 0; i < w; i++) d[ib3 + i] = -A.s * net->cls[i];
    normalise(d, A.P.np);
    along(&A, d, "last layer's b3 along -s theta_cls");
  }
  /* (c) attention-score directions at NNT_TM_MARGIN_PROBES steps spread over the run, the last
   * included (up to the certification cap: each probe costs a propagation and ~10-40 runs) */
  long steps = net->T + 1, last = 0;
  int longrun = net->T > NNT_TM_MARGIN_ATTACK_T, np = longrun ? NNT_TM_MARGIN_LONG_PROBES : NNT_TM_MARGIN_PROBES;
  A.bisect = longrun ? 8 : 12;
  for (int k = np; k >= 1 && net->T <= NNT_TM_MARGIN_MAX_T; k--) {
    long t = (steps * k + np - 1) / np;
    if (t != last) score_directions(&A, net, tm, t, longrun, d), last = t;
  }
  for (int k = 0; k < ndirs; k++) { /* random unit directions over all stored parameters */
    nnt_rng rng;
    nnt_rng_init(&rng, seed, (uint64_t)k);
    for (long i = 0; i < A.P.np; i++) d[i] = nnt_rng_normal(&rng);
    normalise(d, A.P.np);
    along(&A, d, "random direction");
  }
  free(d), free(oT), free(A.P.p), free(A.P.orig);
  nnt_tm_net_free(&A.P.n);
  return NNT_OK;
}
