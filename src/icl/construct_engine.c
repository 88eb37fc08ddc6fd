/* The layer engine of the Theorem-1 transformer (Defs. 5–8) and the sum-of-ReLU interpolation.
 * Heads are sparse; attention does the full Σ over all T tokens as defined, even where (the
 * forward layers) every key holds the same w and the sum is T equal terms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_icl_construct.h"

const char *const nnt_icl_ltype_names[] = {"ReLU-attn", "EWML", "MLP", NULL};

void nnt_icl_layout_init(nnt_icl_layout *L, const nnt_icl_net *net) {
  L->U = (net->N - 1) * net->K + net->dy;
  L->x = 0, L->y = net->dx, L->w = net->dx + net->dy;
  L->p = L->w + (int)nnt_icl_net_nparams(net);
  L->rp = L->p + L->U, L->g = L->rp + L->U, L->s = L->g + net->dy;
  L->one = L->s + L->U, L->t = L->one + 1, L->D = L->t + 1;
}
int nnt_icl_layout_p(const nnt_icl_layout *L, const nnt_icl_net *net, int j) {
  return j == 0 ? L->x : L->p + (j - 1) * net->K;
}
int nnt_icl_layout_rp(const nnt_icl_layout *L, const nnt_icl_net *net, int j) { return L->rp + (j - 1) * net->K; }
int nnt_icl_layout_s(const nnt_icl_layout *L, const nnt_icl_net *net, int j) {
  return j == net->N ? L->s : L->s + net->dy + (net->N - 1 - j) * net->K;
}

/* ---------------------------------------------------------------- engine */
size_t nnt_icl_tf_ws_size(const nnt_icl_tf *tf, int T) {
  int dk = 1, nv = 1;
  for (int l = 0; l < tf->nlayers; l++)
    for (int h = 0; h < tf->layer[l].nheads; h++) {
      const nnt_icl_head *hd = &tf->layer[l].heads[h];
      if (hd->dk > dk) dk = hd->dk;
      if (hd->nv > nv) nv = hd->nv;
    }
  /* Q and K vectors of every token, V values of every token, the accumulator, a copy of H. */
  return (size_t)T * (2 * dk + nv) + nv + (size_t)T * tf->L.D;
}

/* out[0..dk) = M h for the sparse entries e[0..n) (rows < dk). Summed in entry order. */
static void spmv(const nnt_icl_ent *e, int n, const double *h, double *out, int dk) {
  for (int d = 0; d < dk; d++) out[d] = 0;
  for (int q = 0; q < n; q++) out[e[q].r] += e[q].v * h[e[q].c];
}

static double relu(double z) { return z > 0 ? z : 0; }

void nnt_icl_tf_apply(const nnt_icl_tf *tf, int l, double *H, int T, double *ws) {
  const nnt_icl_layer *ly = &tf->layer[l];
  const int D = tf->L.D;
  int dk = 1, nv = 1;
  for (int h = 0; h < ly->nheads; h++) {
    if (ly->heads[h].dk > dk) dk = ly->heads[h].dk;
    if (ly->heads[h].nv > nv) nv = ly->heads[h].nv;
  }
  double *Q = ws, *K = Q + (size_t)T * dk, *V = K + (size_t)T * dk, *acc = V + (size_t)T * nv, *H0 = acc + nv;
  memcpy(H0, H, sizeof(double) * T * D); /* every head reads the layer's input; H collects the output */
  for (int h = 0; h < ly->nheads; h++) {
    const nnt_icl_head *hd = &ly->heads[h];
    const nnt_icl_ent *qe = ly->ent + hd->q, *ke = ly->ent + hd->k, *ve = ly->ent + hd->v;
    if (ly->type == NNT_ICL_MLP) {
      for (int i = 0; i < T; i++) {
        double a = 0;
        for (int q = 0; q < hd->nq; q++) a += qe[q].v * H0[(size_t)i * D + qe[q].c];
        if ((a = relu(a)) != 0)
          for (int q = 0; q < hd->nv; q++) H[(size_t)i * D + ve[q].r] += ve[q].v * a;
      }
      continue;
    }
    for (int i = 0; i < T; i++) {
      spmv(qe, hd->nq, H0 + (size_t)i * D, Q + (size_t)i * hd->dk, hd->dk);
      spmv(ke, hd->nk, H0 + (size_t)i * D, K + (size_t)i * hd->dk, hd->dk);
      for (int q = 0; q < hd->nv; q++) V[(size_t)i * hd->nv + q] = ve[q].v * H0[(size_t)i * D + ve[q].c];
    }
    for (int i = 0; i < T; i++) {
      const double *qi = Q + (size_t)i * hd->dk;
      if (ly->type == NNT_ICL_EWML) { /* self-score only, no σ, no normalisation */
        double sc = 0;
        for (int d = 0; d < hd->dk; d++) sc += qi[d] * K[(size_t)i * hd->dk + d];
        for (int q = 0; q < hd->nv; q++) H[(size_t)i * D + ve[q].r] += sc * V[(size_t)i * hd->nv + q];
        continue;
      }
      for (int q = 0; q < hd->nv; q++) acc[q] = 0;
      for (int s = 0; s < T; s++) {
        double sc = 0;
        for (int d = 0; d < hd->dk; d++) sc += qi[d] * K[(size_t)s * hd->dk + d];
        if ((sc = relu(sc)) != 0)
          for (int q = 0; q < hd->nv; q++) acc[q] += sc * V[(size_t)s * hd->nv + q];
      }
      for (int q = 0; q < hd->nv; q++) H[(size_t)i * D + ve[q].r] += acc[q] / T;
    }
  }
}

long nnt_icl_tf_heads(const nnt_icl_tf *tf, int from, int to) {
  long h = 0;
  for (int l = from; l < to; l++) h += tf->layer[l].nheads;
  return h;
}

void nnt_icl_tf_free(nnt_icl_tf *tf) {
  for (int l = 0; l < tf->nlayers; l++) free(tf->layer[l].heads), free(tf->layer[l].ent);
  free(tf->layer);
  memset(tf, 0, sizeof *tf);
}

/* ---------------------------------------------------------------- sum-of-ReLU interpolation */
static double act_f(nnt_icl_act a, int deriv, double t) {
  double d, f = nnt_icl_act_eval(a, t, &d);
  return deriv ? d : f;
}

static void piece(nnt_icl_pwl *p, double a, double b, double c) {
  if (c != 0) p->a[p->np] = a, p->b[p->np] = b, p->c[p->np++] = c;
}

void nnt_icl_pwl_build(nnt_icl_pwl *p, nnt_icl_act act, int deriv, int M, double R) {
  p->a = nnt_xmalloc(sizeof(double) * (M + 2));
  p->b = nnt_xmalloc(sizeof(double) * (M + 2));
  p->c = nnt_xmalloc(sizeof(double) * (M + 2));
  p->np = 0;
  const double h = 2 * R / M;
  double prev = 0;
  piece(p, 0, 1, act_f(act, deriv, -R)); /* f(−R)·σ(1) */
  for (int q = 0; q < M; q++) {
    const double tq = -R + q * h, slope = (act_f(act, deriv, tq + h) - act_f(act, deriv, tq)) / h;
    if (q == 0) { /* slope₀ (t + R) on both sides of −R */
      piece(p, 1, R, slope);
      piece(p, -1, -R, -slope);
    } else piece(p, 1, -tq, slope - prev);
    prev = slope;
  }
}

double nnt_icl_pwl_eval(const nnt_icl_pwl *p, double t) {
  double s = 0;
  for (int h = 0; h < p->np; h++) s += p->c[h] * relu(p->a[h] * t + p->b[h]);
  return s;
}

void nnt_icl_pwl_free(nnt_icl_pwl *p) {
  free(p->a), free(p->b), free(p->c);
  memset(p, 0, sizeof *p);
}
