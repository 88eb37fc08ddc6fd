/* The compiler of seed 000, Section 4.2 / Appendix C: a Turing machine becomes an encoder-decoder
 * transformer with hard-max attention, binary positional encodings and 3-ReLU-layer feed-forward
 * blocks whose last two layers are the rounding correction round(z) = φ(3z-1) - φ(3z-2).
 *
 * One decoder step (T+1 steps: step 1 is a pre-start step that moves the head onto cell 0):
 *   L0 transition (Lemma C.1)      FF: one-hot (state, symbol) pairs -> next state, written symbol, move
 *   L1 head update (Lemma C.2)     FF: Bin(l) -/+ 1 by a depth-2 threshold circuit (carries as ANDs)
 *   L2 "was l written before?" (Claim C.4) self-attention + "is l an input cell?" (Lemma C.7) enc-attn
 *   L3..L2+wpos binary search (Claim C.5): one MSB-first bit of i' = last step that wrote at l per layer
 *   L3+wpos read u_{i'} (Claim C.6) self-attention; FF picks written / input / blank (Lemma C.8)
 * Every FF computes round(W2' φ(W1 h + b1) + b2'): its first ReLU layer carries the logic, the other
 * two are the correction, so every intermediate vector is exactly binary.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_tm.h"

/* ---- dense builders, compressed when a layer is done ---- */

static void csr_from_dense(nnt_tm_csr *c, const double *A, int rows, int cols) {
  c->rows = rows, c->cols = cols, c->nnz = 0;
  for (long i = 0; i < (long)rows * cols; i++) c->nnz += A[i] != 0;
  c->ptr = nnt_xmalloc(sizeof(int) * (size_t)(rows + 1));
  c->idx = nnt_xmalloc(sizeof(int) * (size_t)(c->nnz ? c->nnz : 1));
  c->val = nnt_xmalloc(sizeof(double) * (size_t)(c->nnz ? c->nnz : 1));
  int p = 0;
  for (int i = 0; i < rows; i++) {
    c->ptr[i] = p;
    for (int j = 0; j < cols; j++)
      if (A[(long)i * cols + j] != 0) c->idx[p] = j, c->val[p++] = A[(long)i * cols + j];
  }
  c->ptr[rows] = p;
}

static void csr_free(nnt_tm_csr *c) {
  free(c->ptr), free(c->idx), free(c->val);
}

typedef struct {
  int w, nh, cap;
  double *W1, *b1; /* [cap, w], [cap] */
  double *C, *cb;  /* output coefficients [w, cap], output bias [w] */
  char *live;      /* [w] outputs that are not identically zero */
} ffb;

static void ffb_init(ffb *f, int w, int cap) {
  f->w = w, f->nh = 0, f->cap = cap;
  f->W1 = nnt_xcalloc((size_t)cap * w, sizeof(double));
  f->b1 = nnt_xcalloc((size_t)cap, sizeof(double));
  f->C = nnt_xcalloc((size_t)w * cap, sizeof(double));
  f->cb = nnt_xcalloc((size_t)w, sizeof(double));
  f->live = nnt_xcalloc((size_t)w, 1);
}

static int ff_unit(ffb *f, double bias) {
  if (f->nh == f->cap) abort(); /* capacities are computed from the construction */
  f->b1[f->nh] = bias;
  return f->nh++;
}
static void ff_in(ffb *f, int u, int coord, double v) { f->W1[(long)u * f->w + coord] += v; }
static void ff_out(ffb *f, int coord, int u, double v) {
  f->C[(long)coord * f->cap + u] += v;
  f->live[coord] = 1;
}
static void ff_copy(ffb *f, int from, int to, int n) {
  for (int i = 0; i < n; i++) {
    int u = ff_unit(f, 0);
    ff_in(f, u, from + i, 1);
    ff_out(f, to + i, u, 1);
  }
}

/* The state the search layers carry unchanged: machine state, symbols, the three positions, scr2. */
static void carry_search_state(ffb *f, const nnt_tm_groups *g, int nst, int A, int wpos) {
  ff_copy(f, g->st, g->st, nst);
  ff_copy(f, g->sym2, g->sym2, A);
  ff_copy(f, g->pos1, g->pos1, wpos);
  ff_copy(f, g->pos2, g->pos2, wpos);
  ff_copy(f, g->pos3, g->pos3, wpos);
  ff_copy(f, g->scr2, g->scr2, A);
}

/* Hidden layer 1 = the logic; layer 2 = φ(3z-1), φ(3z-2) per live output z; layer 3 = their
 * difference (the correction function, written so that no 1/3 appears). */
static void ffb_finish(ffb *f, nnt_tm_layer *L) {
  int w = f->w, nh = f->nh, nlive = 0;
  for (int o = 0; o < w; o++) nlive += f->live[o];
  csr_from_dense(&L->W1, f->W1, nh, w);
  L->b1 = nnt_xmalloc(sizeof(double) * (size_t)nh);
  memcpy(L->b1, f->b1, sizeof(double) * (size_t)nh);
  int h2 = 2 * nlive;
  double *W2 = nnt_xcalloc((size_t)h2 * nh, sizeof(double)), *W3 = nnt_xcalloc((size_t)w * h2, sizeof(double));
  L->b2 = nnt_xmalloc(sizeof(double) * (size_t)(h2 ? h2 : 1));
  L->b3 = nnt_xcalloc((size_t)w, sizeof(double));
  int j = 0;
  for (int o = 0; o < w; o++) {
    if (!f->live[o]) continue;
    for (int u = 0; u < nh; u++) W2[(long)(2 * j) * nh + u] = W2[(long)(2 * j + 1) * nh + u] = 3 * f->C[(long)o * f->cap + u];
    L->b2[2 * j] = 3 * f->cb[o] - 1;
    L->b2[2 * j + 1] = 3 * f->cb[o] - 2;
    W3[(long)o * h2 + 2 * j] = 1;
    W3[(long)o * h2 + 2 * j + 1] = -1;
    j++;
  }
  csr_from_dense(&L->W2, W2, h2, nh);
  csr_from_dense(&L->W3, W3, w, h2);
  free(W2), free(W3);
  free(f->W1), free(f->b1), free(f->C), free(f->cb), free(f->live);
}

typedef struct {
  int w, dk;
  double *Q, *bq, *K, *bk, *K0, *V, *bv, *V0;
} attb;

static void attb_init(attb *a, int w, int dk) {
  a->w = w, a->dk = dk;
  a->Q = nnt_xcalloc((size_t)dk * w, sizeof(double));
  a->K = nnt_xcalloc((size_t)dk * w, sizeof(double));
  a->V = nnt_xcalloc((size_t)w * w, sizeof(double));
  a->bq = nnt_xcalloc((size_t)dk, sizeof(double));
  a->bk = nnt_xcalloc((size_t)dk, sizeof(double));
  a->K0 = nnt_xcalloc((size_t)dk, sizeof(double));
  a->bv = nnt_xcalloc((size_t)w, sizeof(double));
  a->V0 = nnt_xcalloc((size_t)w, sizeof(double));
}

static void attb_finish(attb *a, nnt_tm_attn *t) {
  t->dk = a->dk;
  csr_from_dense(&t->Q, a->Q, a->dk, a->w);
  csr_from_dense(&t->K, a->K, a->dk, a->w);
  csr_from_dense(&t->V, a->V, a->w, a->w);
  t->bq = a->bq, t->bk = a->bk, t->K0 = a->K0, t->bv = a->bv, t->V0 = a->V0;
  free(a->Q), free(a->K), free(a->V);
}

/* Row r of Q (or K) reads 2*h[coord] - 1: a bit in {-1, +1}. */
static void pm_row(double *M, double *b, int w, int r, int coord) {
  M[(long)r * w + coord] = 2;
  b[r] = -1;
}

static void bin_set(double *v, int group, int wpos, long x) { /* MSB first */
  for (int b = 0; b < wpos; b++) v[group + b] = (double)((x >> (wpos - 1 - b)) & 1);
}

int nnt_tm_compile(const nnt_tm *tm, long T, nnt_tm_net *net) {
  if (T < 1) return nnt_fail(NNT_EINVAL, "need at least one step");
  memset(net, 0, sizeof *net);
  int k = tm->k, A = tm->nsym, nst = k + 3, pre = k + 2;
  /* Positions: cell c is c + offset; the head stays in [-T-1, T] (the pre-start cell is -1) and
   * the input in [0, m); time runs to T+1. wpos bits hold every one of them. */
  long offset = T + 2, maxval = 2 * T + tm->m + 2;
  int wpos = 1;
  while ((1L << wpos) <= maxval) wpos++;
  nnt_tm_groups g;
  int w = 0;
  g.st = w, w += nst;
  g.sym1 = w, w += A;
  g.sym2 = w, w += A;
  g.pos1 = w, w += wpos;
  g.pos2 = w, w += wpos;
  g.pos3 = w, w += wpos;
  g.scr1 = w, w += A;
  g.scr2 = w, w += A;
  g.scr3 = w, w += wpos;
  g.scr4 = w, w += 3;
  g.mv = w, w += 2;
  net->k = k, net->nsym = A, net->nst = nst, net->m = tm->m, net->w = w, net->wpos = wpos;
  net->T = T, net->offset = offset, net->g = g;
  net->nlayers = 4 + wpos;
  net->layers = nnt_xcalloc((size_t)net->nlayers, sizeof(nnt_tm_layer));
  net->probe_layer = 0;

  net->E = nnt_xcalloc((size_t)A * w, sizeof(double));
  for (int a = 0; a < A; a++) net->E[(long)a * w + g.sym1 + a] = 1;
  net->h0 = nnt_xcalloc((size_t)w, sizeof(double));
  net->h0[g.st + pre] = 1;
  net->h0[g.sym1 + 0] = 1; /* the pre-start cell -1 is blank */
  bin_set(net->h0, g.pos2, wpos, offset - 1);
  net->cls = nnt_xcalloc((size_t)w, sizeof(double));
  net->cls[g.st + k] = 1;
  net->cls[g.st + k + 1] = -1;

  ffb f;
  attb at;
  int li = 0;
  nnt_tm_layer *L;

  /* L0: transition. Pair unit (z, a) = φ(1(z) + 1(a) - 1) is 1 only for the true pair. */
  L = &net->layers[li++];
  snprintf(L->name, sizeof L->name, "transition (C.1)");
  ffb_init(&f, w, nst * A + 2 * wpos);
  for (int z = 0; z < nst; z++)
    for (int a = 0; a < A; a++) {
      int nz, u, mv;
      if (z < k) {
        nnt_tm_rule r = tm->delta[z * A + a];
        if (r.next == NNT_TM_UNDEF) nz = k, u = a, mv = 0;
        else nz = r.next, u = r.write, mv = r.move;
      } else if (z < pre) {
        nz = z, u = a, mv = 0; /* halted: stay, rewrite the symbol */
      } else {
        if (a != 0) continue; /* pre-start reads the blank cell -1 only */
        nz = 0, u = 0, mv = 1;
      }
      int p = ff_unit(&f, -1);
      ff_in(&f, p, g.st + z, 1);
      ff_in(&f, p, g.sym1 + a, 1);
      ff_out(&f, g.st + nz, p, 1);
      ff_out(&f, g.sym2 + u, p, 1);
      if (mv < 0) ff_out(&f, g.mv + 0, p, 1);
      if (mv > 0) ff_out(&f, g.mv + 1, p, 1);
    }
  ff_copy(&f, g.pos1, g.pos1, wpos);
  ff_copy(&f, g.pos2, g.pos2, wpos);
  ffb_finish(&f, L);

  /* L1: pos3 = pos2 - v1 + v2 (mod 2^wpos). For bit j (LSB = 0) with b_i the bits of pos2:
   * carry-in of +1: cinc = AND(v2, b_0..b_{j-1}); borrow of -1: cdec = AND(v1, !b_0..!b_{j-1});
   * new bit = b_j XOR c = b_j + c - 2 AND(b_j, c), and each AND is one threshold ReLU unit. */
  L = &net->layers[li++];
  snprintf(L->name, sizeof L->name, "head update (C.2)");
  ffb_init(&f, w, nst + A + 2 * wpos + 5 * wpos);
  ff_copy(&f, g.st, g.st, nst);
  ff_copy(&f, g.sym2, g.sym2, A);
  ff_copy(&f, g.pos1, g.pos1, wpos);
  ff_copy(&f, g.pos2, g.pos2, wpos);
  for (int j = 0; j < wpos; j++) {
    int out = g.pos3 + wpos - 1 - j;
    int ub = ff_unit(&f, 0), cinc = ff_unit(&f, -j), cdec = ff_unit(&f, 0);
    int ainc = ff_unit(&f, -(j + 1)), adec = ff_unit(&f, -1);
    ff_in(&f, ub, g.pos2 + wpos - 1 - j, 1);
    ff_in(&f, cinc, g.mv + 1, 1);
    ff_in(&f, cdec, g.mv + 0, 1);
    ff_in(&f, ainc, g.mv + 1, 1);
    ff_in(&f, adec, g.mv + 0, 1);
    ff_in(&f, ainc, g.pos2 + wpos - 1 - j, 1);
    ff_in(&f, adec, g.pos2 + wpos - 1 - j, 1);
    for (int i = 0; i < j; i++) {
      int bi = g.pos2 + wpos - 1 - i;
      ff_in(&f, cinc, bi, 1);
      ff_in(&f, cdec, bi, -1);
      ff_in(&f, ainc, bi, 1);
      ff_in(&f, adec, bi, -1);
    }
    ff_out(&f, out, ub, 1);
    ff_out(&f, out, cinc, 1);
    ff_out(&f, out, cdec, 1);
    ff_out(&f, out, ainc, -2);
    ff_out(&f, out, adec, -2);
  }
  ffb_finish(&f, L);

  /* L2: scr4_0 = 1(some step <= i wrote at l_i) by self-attention (Claim C.4): the query is
   * Bin(l_i) in ±1, keys are the write positions Bin(l_{t-1}) in ±1: a match scores wpos, the
   * null key wpos - 1, any mismatch <= wpos - 2. The encoder-decoder attention (Lemma C.7) finds
   * the input cell at l_i the same way: scr2 = its one-hot symbol, scr4_1 = 1. */
  L = &net->layers[li++];
  snprintf(L->name, sizeof L->name, "written before? + input cell (C.4, C.7)");
  L->has_self = 1;
  attb_init(&at, w, wpos + 1);
  for (int b = 0; b < wpos; b++) pm_row(at.Q, at.bq, w, b, g.pos3 + b), pm_row(at.K, at.bk, w, b, g.pos2 + b);
  at.bq[wpos] = 1;
  at.K0[wpos] = wpos - 1;
  at.bv[g.scr4 + 0] = 1;
  attb_finish(&at, &L->self);
  L->has_enc = tm->m > 0;
  attb_init(&at, w, wpos + 1);
  if (L->has_enc) {
    for (int b = 0; b < wpos; b++) pm_row(at.Q, at.bq, w, b, g.pos3 + b), pm_row(at.K, at.bk, w, b, g.pos1 + b);
    at.bq[wpos] = 1;
    at.K0[wpos] = wpos - 1;
    for (int a = 0; a < A; a++) at.V[(long)(g.scr2 + a) * w + g.sym1 + a] = 1;
    at.bv[g.scr4 + 1] = 1;
  }
  attb_finish(&at, &L->enc);
  ffb_init(&f, w, nst + 2 * A + 3 * wpos + 2);
  carry_search_state(&f, &g, nst, A, wpos);
  ff_copy(&f, g.scr4, g.scr4, 2);
  ffb_finish(&f, L);

  /* L3+j: bit j (MSB first) of i' (Claim C.5). Score = [position match: wpos] + [first j bits of
   * t equal scr3: j] + [bit j of t is 1: 1]; the null key scores wpos + j, so the null loses
   * exactly when some t <= i' agrees on the first j bits and has bit j = 1, i.e. bit j of i' is 1. */
  for (int j = 0; j < wpos; j++) {
    L = &net->layers[li++];
    snprintf(L->name, sizeof L->name, "binary search bit %d (C.5)", j);
    L->has_self = 1;
    attb_init(&at, w, wpos + j + 2);
    for (int b = 0; b < wpos; b++) pm_row(at.Q, at.bq, w, b, g.pos3 + b), pm_row(at.K, at.bk, w, b, g.pos2 + b);
    for (int b = 0; b < j; b++) pm_row(at.Q, at.bq, w, wpos + b, g.scr3 + b);
    for (int b = 0; b <= j; b++) pm_row(at.K, at.bk, w, wpos + b, g.pos1 + b);
    at.bq[wpos + j] = 1;
    at.bq[wpos + j + 1] = 1;
    at.K0[wpos + j + 1] = wpos + j;
    at.bv[g.scr4 + 2] = 1;
    attb_finish(&at, &L->self);
    attb_init(&at, w, 1);
    attb_finish(&at, &L->enc);
    ffb_init(&f, w, nst + 2 * A + 4 * wpos + 3);
    carry_search_state(&f, &g, nst, A, wpos);
    ff_copy(&f, g.scr3, g.scr3, j);
    ff_copy(&f, g.scr4 + 2, g.scr3 + j, 1); /* the found bit moves into scr3 */
    ff_copy(&f, g.scr4, g.scr4, 2);
    ffb_finish(&f, L);
  }

  /* Last: attend to step i' exactly (Claim C.6: position and all bits of t match, score 2 wpos;
   * null 2 wpos - 1) and copy the symbol it wrote into scr1. The FF (Lemma C.8) then picks the
   * symbol under the head: written before (scr4_0) > input cell (scr4_1) > blank, and emits
   * o_i = (1(z_i), 1(a_i), Bin(l_i)) with every other coordinate 0. */
  L = &net->layers[li++];
  snprintf(L->name, sizeof L->name, "read last write + select symbol (C.6, C.8)");
  L->has_self = 1;
  attb_init(&at, w, 2 * wpos + 1);
  for (int b = 0; b < wpos; b++) {
    pm_row(at.Q, at.bq, w, b, g.pos3 + b), pm_row(at.K, at.bk, w, b, g.pos2 + b);
    pm_row(at.Q, at.bq, w, wpos + b, g.scr3 + b), pm_row(at.K, at.bk, w, wpos + b, g.pos1 + b);
  }
  at.bq[2 * wpos] = 1;
  at.K0[2 * wpos] = 2 * wpos - 1;
  for (int a = 0; a < A; a++) at.V[(long)(g.scr1 + a) * w + g.sym2 + a] = 1;
  attb_finish(&at, &L->self);
  attb_init(&at, w, 1);
  attb_finish(&at, &L->enc);
  ffb_init(&f, w, nst + wpos + 2 * A + 1);
  ff_copy(&f, g.st, g.st, nst);
  ff_copy(&f, g.pos3, g.pos2, wpos);
  for (int a = 0; a < A; a++) {
    int u1 = ff_unit(&f, 0), u2 = ff_unit(&f, 0);
    ff_in(&f, u1, g.scr1 + a, 1);          /* written before: scr1 is 1(u_{i'}), else 0 */
    ff_in(&f, u2, g.scr2 + a, 1);          /* input cell, unless written before */
    ff_in(&f, u2, g.scr4 + 0, -1);
    ff_out(&f, g.sym1 + a, u1, 1);
    ff_out(&f, g.sym1 + a, u2, 1);
  }
  int ub = ff_unit(&f, 1); /* blank: neither written before nor an input cell */
  ff_in(&f, ub, g.scr4 + 0, -1);
  ff_in(&f, ub, g.scr4 + 1, -1);
  ff_out(&f, g.sym1 + 0, ub, 1);
  ffb_finish(&f, L);

  /* The unused attention of L0, L1 (all-zero parameters). */
  for (int l = 0; l < 2; l++) {
    attb_init(&at, w, 1);
    attb_finish(&at, &net->layers[l].self);
    attb_init(&at, w, 1);
    attb_finish(&at, &net->layers[l].enc);
  }
  net->nlayers = li;
  return NNT_OK;
}

static void attn_free(nnt_tm_attn *a) {
  csr_free(&a->Q), csr_free(&a->K), csr_free(&a->V);
  free(a->bq), free(a->bk), free(a->bv), free(a->K0), free(a->V0);
}

void nnt_tm_net_free(nnt_tm_net *net) {
  for (int l = 0; l < net->nlayers; l++) {
    nnt_tm_layer *L = &net->layers[l];
    attn_free(&L->self), attn_free(&L->enc);
    csr_free(&L->W1), csr_free(&L->W2), csr_free(&L->W3);
    free(L->b1), free(L->b2), free(L->b3);
  }
  free(net->layers), free(net->E), free(net->h0), free(net->cls);
  memset(net, 0, sizeof *net);
}

static void acc(const double *v, long n, long *nz, double *l1, double *mx) {
  for (long i = 0; i < n; i++)
    if (v[i] != 0) {
      (*nz)++;
      *l1 += fabs(v[i]);
      if (fabs(v[i]) > *mx) *mx = fabs(v[i]);
    }
}

static void acc_attn(const nnt_tm_attn *a, int w, long *nz, double *l1, double *mx) {
  acc(a->Q.val, a->Q.nnz, nz, l1, mx), acc(a->K.val, a->K.nnz, nz, l1, mx), acc(a->V.val, a->V.nnz, nz, l1, mx);
  acc(a->bq, a->dk, nz, l1, mx), acc(a->bk, a->dk, nz, l1, mx), acc(a->K0, a->dk, nz, l1, mx);
  acc(a->bv, w, nz, l1, mx), acc(a->V0, w, nz, l1, mx);
}

nnt_tm_net_stats nnt_tm_net_stats_of(const nnt_tm_net *net) {
  nnt_tm_net_stats s;
  memset(&s, 0, sizeof s);
  int w = net->w;
  s.w = w, s.layers = net->nlayers, s.wpos = net->wpos, s.max_width = w;
  acc(net->E, (long)net->nsym * w, &s.nonzero, &s.l1, &s.max_abs);
  acc(net->h0, w, &s.nonzero, &s.l1, &s.max_abs);
  acc(net->cls, w, &s.nonzero, &s.l1, &s.max_abs);
  for (int l = 0; l < net->nlayers; l++) {
    const nnt_tm_layer *L = &net->layers[l];
    s.self_attn_layers += L->has_self;
    s.enc_attn_layers += L->has_enc;
    if (L->has_self && L->self.dk > s.dk_max) s.dk_max = L->self.dk;
    if (L->has_enc && L->enc.dk > s.dk_max) s.dk_max = L->enc.dk;
    acc_attn(&L->self, w, &s.nonzero, &s.l1, &s.max_abs);
    acc_attn(&L->enc, w, &s.nonzero, &s.l1, &s.max_abs);
    acc(L->W1.val, L->W1.nnz, &s.nonzero, &s.l1, &s.max_abs);
    acc(L->W2.val, L->W2.nnz, &s.nonzero, &s.l1, &s.max_abs);
    acc(L->W3.val, L->W3.nnz, &s.nonzero, &s.l1, &s.max_abs);
    acc(L->b1, L->W1.rows, &s.nonzero, &s.l1, &s.max_abs);
    acc(L->b2, L->W2.rows, &s.nonzero, &s.l1, &s.max_abs);
    acc(L->b3, w, &s.nonzero, &s.l1, &s.max_abs);
    int h = L->W1.rows > L->W2.rows ? L->W1.rows : L->W2.rows;
    if (h > s.ff_hidden_max) s.ff_hidden_max = h;
  }
  if (s.ff_hidden_max > s.max_width) s.max_width = s.ff_hidden_max;
  if (s.dk_max > s.max_width) s.max_width = s.dk_max;
  /* The fixed architecture F_{W,d}: every vector W wide; per layer two attentions (Q, K, V with
   * biases, null key and value) and three dense ReLU layers; plus E, h0 and theta_cls. */
  long W = s.max_width;
  s.params_dense = (long)s.layers * (2 * (3 * W * W + 5 * W) + 3 * (W * W + W)) + (long)net->nsym * W + 2 * W;
  return s;
}
