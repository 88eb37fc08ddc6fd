/* rule.c — the rule-level RCNN: f̄_Conv2D (f̄_msg, f̄_TM with collision sensing), the head, the
 * memory layer, the event-driven L-layer roll-out with ∂/∂x00 flags, and Algorithm 1. */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_rule.h"

#define P NNT_RCNN_TERN_P

static void *xcalloc(size_t n, size_t size) {
  void *p = nnt_xcalloc(n ? n : 1, size);
  return p;
}

int nnt_rcnn_rule_init(nnt_rcnn_rule_net *net, const nnt_rcnn_tm2d *tm, int m, int d, int work, int L) {
  if (m < 1 || d < 1 || work < 1 || L < 1 || (long)(m + 1) * (d + 1 + work) > 100000000)
    return nnt_fail(NNT_EINVAL, "rcnn: need m >= 1, d >= 1, work >= 1, depth >= 1 and at most 1e8 cells (got m=%d d=%d work=%d L=%d)", m, d, work, L);
  int st = nnt_rcnn_tm2d_check(tm, "rcnn machine");
  if (st) return st;
  memset(net, 0, sizeof *net);
  if ((st = nnt_rcnn_tern_init(&net->tern, nnt_rcnn_tern_nq_for(tm->nstates)))) return st;
  net->tm = tm, net->m = m, net->d = d, net->work = work, net->L = L;
  net->rows = m + 1, net->cols = d + 1 + work;
  size_t n = (size_t)net->rows * net->cols;
  net->W = xcalloc((size_t)(m + 1) * (d + 1), sizeof *net->W);
  net->cur = xcalloc(n, sizeof *net->cur), net->newval = xcalloc(n, sizeof *net->newval);
  net->alive = xcalloc(n, 1);
  net->list = xcalloc(n, sizeof *net->list), net->cand = xcalloc(n, sizeof *net->cand);
  net->stamp = xcalloc(n, sizeof *net->stamp);
  nnt_rcnn_tern_set_init(&net->seen, &net->tern);
  return NNT_OK;
}

void nnt_rcnn_rule_free(nnt_rcnn_rule_net *net) {
  free(net->W), free(net->cur), free(net->newval), free(net->alive);
  free(net->list), free(net->cand), free(net->stamp);
  nnt_rcnn_tern_set_free(&net->seen);
  nnt_rcnn_tern_free(&net->tern);
}

/* g scaled by S = 3^K, piece by piece (spec §4.4); 6n vs ±S compares u with ±1/6 exactly. */
int64_t nnt_rcnn_rule_head(const nnt_rcnn_tern *t, int32_t n) {
  int64_t S = t->scale, u = n;
  if (6 * u <= -S) return -S;
  if (u < 0) return 18 * u + 2 * S;
  if (9 * u < S) return -18 * u + 2 * S;
  if (6 * u < S) return 18 * u - 2 * S;
  return S;
}

int nnt_rcnn_rule_head_slope(const nnt_rcnn_tern *t, int32_t n) {
  int64_t S = t->scale, u = n;
  return 18 * (6 * u > -S) - 36 * (u > 0) + 36 * (9 * u > S) - 18 * (6 * u > S);
}

/* Digits of a neighbour, NULL for p: every val-test on p is false (spec §4.3). */
#define DG(n) nnt_rcnn_tern_dec(&net->tern, n)

/* γ of a head cell; a halting state is an absorbing no-op (spec §4.6: the layers go on after the
 * TM halts), whether or not the machine lists its transitions. */
static nnt_rcnn_tm2d_rule gamma_of(const nnt_rcnn_rule_net *net, const nnt_rcnn_tern_digits *h) {
  int q = nnt_rcnn_tern_state(h->state);
  if (net->tm->halting[q]) return (nnt_rcnn_tm2d_rule){q, q, h->tape, NNT_RCNN_TM2D_N, 0};
  return net->tm->delta[3 * q + h->tape + 1];
}

int32_t nnt_rcnn_rule_cell(const nnt_rcnn_rule_net *net, int32_t c, int32_t up, int32_t down, int32_t left,
                           int32_t right, int *flag) {
  const nnt_rcnn_tern *t = &net->tern;
  int32_t third = t->scale / 3, ninth = third / 3, c27 = ninth / 3;
  const nnt_rcnn_tern_digits *e = DG(c), *u = DG(up), *dn = DG(down), *l = DG(left), *r = DG(right);
  *flag = 0;
  if (e->phase == -1) return *flag = 1, c; /* memorisation phase: identity, ∂ = 1 */
  if (e->phase == 0) {                    /* f̄_msg, first match wins */
    if (c == 0 && (up == P || u->tape != 0)) return *flag = 1, -ninth;
    if ((u && u->phase == -1) || (dn && dn->phase == -1)) return -ninth;
    if (e->tape != 0 && right == t->scale && down == P) return c + ninth + c27; /* bottom-right: head, start state */
    if ((u && u->phase == 1) || (dn && dn->phase == 1) || (l && l->phase == 1) || (r && r->phase == 1)) return c + ninth;
    return c;
  }
  if (e->head == 1) { /* f̄_TM at the head: write, then stay (no move, or a blocked one) or leave */
    nnt_rcnn_tm2d_rule g = gamma_of(net, e);
    int32_t out = g.write * third + ninth;
    const int32_t target[] = {c, up, down, left, right};
    if (g.move == NNT_RCNN_TM2D_N) return out + c27 + nnt_rcnn_tern_code(g.next);
    if (target[g.move] == P) return out + c27 + nnt_rcnn_tern_code(g.blocked);
    return out;
  }
  /* a receiving cell takes the head when the neighbour's move points here (the state is that
   * neighbour's γ, not x_{-1,0}'s: the paper's typo) */
  const nnt_rcnn_tern_digits *from[] = {dn, u, r, l};
  const int toward[] = {NNT_RCNN_TM2D_U, NNT_RCNN_TM2D_D, NNT_RCNN_TM2D_L, NNT_RCNN_TM2D_R};
  for (int k = 0; k < 4; k++)
    if (from[k] && from[k]->head == 1) {
      nnt_rcnn_tm2d_rule g = gamma_of(net, from[k]);
      return g.move == toward[k] ? c + c27 + nnt_rcnn_tern_code(g.next) : c;
    }
  return c;
}

/* Value at (r, c), p outside the grid. */
static int32_t at(const nnt_rcnn_rule_net *net, int r, int c) {
  return r < 0 || r >= net->rows || c < 0 || c >= net->cols ? P : net->cur[r * net->cols + c];
}

int nnt_rcnn_rule_forward(nnt_rcnn_rule_net *net, const signed char *x, int64_t *F) {
  int R = net->rows, C = net->cols, D = net->d, n = R * C, ncand = n;
  const nnt_rcnn_tern *t = &net->tern;
  /* memory layer X = W·diag(z), z = [x, 1]; then the 1s region */
  for (int a = 0; a < R; a++)
    for (int b = 0; b < C; b++) {
      int64_t v = t->scale;
      if (b <= D) {
        int64_t w = net->W[a * (D + 1) + b] * (b < D ? x[b] : 1);
        if (w % 54 || !nnt_rcnn_tern_dec(t, (int32_t)(w / 54)))
          return nnt_fail(NNT_ECHECK, "rcnn: memory cell (%d,%d) = %.6g is not a %d-digit ternary value", a, b, (double)w / 54 / t->scale, t->K + 1);
        v = w / 54;
      }
      net->cur[a * C + b] = (int32_t)v;
      nnt_rcnn_tern_set_add(&net->seen, (int32_t)v);
    }
  nnt_rcnn_tern_set_add(&net->seen, P);
  memset(net->alive, 1, (size_t)n);
  memset(net->stamp, 0, sizeof *net->stamp * (size_t)n);
  for (int i = 0; i < n; i++) net->cand[i] = i;
  net->last_change = 0;
  for (int k = 1; k <= net->L && ncand; k++) {
    int nchanged = 0;
    for (int j = 0; j < ncand; j++) {
      int i = net->cand[j], r = i / C, c = i % C, flag;
      int32_t pt[5] = {net->cur[i], at(net, r - 1, c), at(net, r + 1, c), at(net, r, c - 1), at(net, r, c + 1)};
      int32_t v = nnt_rcnn_rule_cell(net, pt[0], pt[1], pt[2], pt[3], pt[4], &flag);
      if (net->visit) net->visit(net->visit_ctx, pt, v, flag);
      net->alive[i] &= (unsigned char)flag;
      net->newval[j] = v;
      if (v != net->cur[i]) net->list[nchanged++] = j;
    }
    for (int j = 0; j < nchanged; j++) {
      int i = net->cand[net->list[j]];
      int32_t v = net->newval[net->list[j]];
      if (nnt_rcnn_tern_set_add(&net->seen, v))
        return nnt_fail(NNT_ECHECK, "rcnn: layer %d, cell (%d,%d) left the codec's range", k, i / C, i % C);
      net->cur[i] = v, net->list[j] = i;
    }
    if (nchanged) net->last_change = k;
    if (net->full) continue;
    /* next layer: the changed cells and their neighbours */
    ncand = 0;
    for (int j = 0; j < nchanged; j++) {
      int i = net->list[j], r = i / C, c = i % C;
      const int nb[5][2] = {{r, c}, {r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
      for (int q = 0; q < 5; q++) {
        int rr = nb[q][0], cc = nb[q][1];
        if (rr < 0 || rr >= R || cc < 0 || cc >= C || net->stamp[rr * C + cc] == k) continue;
        net->stamp[rr * C + cc] = k, net->cand[ncand++] = rr * C + cc;
      }
    }
  }
  int64_t sum = 0;
  for (int a = 0; a < R; a++) /* the main grid only: the 1s region would add 7 (spec §3.1) */
    for (int b = 0; b <= D; b++) sum += nnt_rcnn_rule_head(t, net->cur[a * C + b]);
  *F = sum;
  return NNT_OK;
}

int nnt_rcnn_rule_train(nnt_rcnn_rule_net *net, const signed char *X, const signed char *y, unsigned char *fzero) {
  return nnt_rcnn_rule_train_steps(net, X, y, net->m + 1, fzero);
}

int nnt_rcnn_rule_train_steps(nnt_rcnn_rule_net *net, const signed char *X, const signed char *y, int steps, unsigned char *fzero) {
  int m = net->m, D = net->d, C = net->cols;
  int64_t S = net->tern.scale;
  signed char *z = xcalloc((size_t)D, 1);
  memset(net->W, 0, sizeof *net->W * (size_t)(m + 1) * (D + 1));
  int st = NNT_OK;
  for (int i = 0; i <= m && i < steps && !st; i++) {
    int yi = i < m ? y[i] : 1; /* the dummy example (1_d, +1) comes last */
    for (int b = 0; b < D; b++) z[b] = i < m ? X[(size_t)i * D + b] : 1;
    int64_t F;
    if ((st = nnt_rcnn_rule_forward(net, z, &F))) break;
    if (fzero) fzero[i] = F == 0;
    /* W -= η (f - y) ∂f/∂W; ∂f/∂W_ab = g'(Z_L[a,b]) · (flags of (a,b)) · z_b; at scale 54·3^K
     * the factor η = 1/54 and the 3^K of f cancel */
    for (int a = 0; a <= m; a++)
      for (int b = 0; b <= D; b++)
        if (net->alive[a * C + b])
          net->W[a * (D + 1) + b] -= (F - yi * S) * nnt_rcnn_rule_head_slope(&net->tern, net->cur[a * C + b]) * (b < D ? z[b] : 1);
  }
  free(z);
  return st;
}

int nnt_rcnn_rule_w_exact(const nnt_rcnn_rule_net *net, const signed char *X, const signed char *y) {
  int64_t third = 18 * (int64_t)net->tern.scale; /* 1/3 at scale 54·3^K */
  for (int a = 0; a <= net->m; a++)
    for (int b = 0; b <= net->d; b++) {
      int64_t want = a < net->m ? third * y[a] * (b < net->d ? X[(size_t)a * net->d + b] : 1) : third;
      if (net->W[a * (net->d + 1) + b] != want) return 0;
    }
  return 1;
}
