/* compile_run.c — nnt rcnn compile: the compiled cell MLP of a learner (bundled or a .tm2d file), its sizes and weight
 * set, and its value and gradient against f̄ on every distinct patch that the rule level visits
 * while it runs Algorithm 1 and a few predictions on a drawn parity (the reference is the rule
 * level); the reverse pass against central finite differences on the same patches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_mlp.h"
#include "nnt_progress.h"
#include "nnt_rcnn_nn.h"
#include "nnt_rng.h"

void nnt_rcnn_compile_cfg_default(nnt_rcnn_compile_cfg *c, nnt_preset preset) {
  *c = (nnt_rcnn_compile_cfg){.learner = "gauss-parity", .d = 4, .m = 10, .tests = 5, .seed = 1};
  if (preset == NNT_PRESET_QUICK) c->d = 3, c->m = 7, c->tests = 3;
}

/* distinct visited patches with f̄'s value and flag */
typedef struct {
  int32_t k[5], out;
  int flag, used;
} vpatch;
typedef struct {
  vpatch *e;
  long cap, n;
} vset;

static int dbl_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static uint64_t vhash(const int32_t *k) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 5; i++) h = (h ^ (uint32_t)k[i]) * 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
  return h;
}
static vpatch *vfind(vset *s, const int32_t *k) {
  for (long i = (long)(vhash(k) & (uint64_t)(s->cap - 1));; i = (i + 1) & (s->cap - 1))
    if (!s->e[i].used || !memcmp(s->e[i].k, k, sizeof s->e[i].k)) return &s->e[i];
}
static void visit(void *ctx, const int32_t *k, int32_t out, int flag) {
  vset *s = ctx;
  vpatch *e = vfind(s, k);
  if (e->used) return;
  memcpy(e->k, k, sizeof e->k), e->out = out, e->flag = flag, e->used = 1;
  if (2 * ++s->n > s->cap) {
    vset old = *s;
    s->cap *= 2, s->e = nnt_xcalloc((size_t)s->cap, sizeof *s->e);
    for (long i = 0; i < old.cap; i++)
      if (old.e[i].used) *vfind(s, old.e[i].k) = old.e[i];
    free(old.e);
  }
}

/* Lemma 5 on the visited patches: X = the patches (c, up, down, left, right), f = f̄, g = (flag,
 * 0, 0, 0, 0); the net checked on X and its weights against Lemma 6's sets (Y_i: the values f̄
 * takes, G = {0, 1}). */
static int lemma_on_patches(const nnt_rcnn_cnet *cn, const vset *vs, nnt_rcnn_compile_result *r) {
  long n = vs->n;
  if (n > 2000) /* |X|² work to check, d2 ∝ |X|: the gap of spec §4.8 */
    return nnt_fail(NNT_EINVAL, "rcnn compile --compiler lemma: %ld visited patches, the limit is 2000 (Lemma 5's widths grow with |X|; use a "
                                "smaller learner or roll-out)", n);
  double *X = nnt_xmalloc(sizeof *X * (size_t)(5 * n)), *f = nnt_xmalloc(sizeof *f * (size_t)n), *g = nnt_xcalloc((size_t)(5 * n), sizeof *g);
  long k = 0;
  for (long i = 0; i < vs->cap; i++) {
    const vpatch *e = &vs->e[i];
    if (!e->used) continue;
    for (int q = 0; q < 5; q++) X[5 * k + q] = nnt_rcnn_tern_to_double(&cn->tern, e->k[q]);
    f[k] = nnt_rcnn_tern_to_double(&cn->tern, e->out), g[5 * k] = e->flag, k++;
  }
  double t0 = nnt_now();
  nnt_rcnn_lemma5 L5;
  int st = nnt_rcnn_lemma5_build(&L5, 5, 1, (int)n, X, f, g);
  r->compile_s = nnt_now() - t0;
  if (!st) {
    r->l_d1 = L5.W1.rows, r->l_d1p = L5.W1p.rows, r->l_d2 = L5.W1plus.rows, r->l_d2p = L5.W2p.rows, r->l_nxi = L5.nxi;
    double *yi = nnt_xmalloc(sizeof *yi * (size_t)n), G[2] = {0, 1};
    memcpy(yi, f, sizeof *f * (size_t)n);
    qsort(yi, (size_t)n, sizeof *yi, dbl_cmp);
    for (long i = 0; i < n; i++)
      if (!i || yi[i] != yi[r->l_nyi - 1]) yi[r->l_nyi++] = yi[i];
    nnt_rcnn_lemma6_check(&L5, r->l_nyi, yi, 2, G, &r->l6);
    for (int q = 0; q < 5; q++) r->nonzeros += r->l6.nnz[q];
    free(yi);
    for (long i = 0; i < n; i++) {
      double out, jac[5];
      nnt_rcnn_lemma5_eval(&L5, X + 5 * i, &out, jac);
      if (fabs(out - f[i]) > r->max_verr) r->max_verr = fabs(out - f[i]);
      for (int q = 0; q < 5; q++)
        if (fabs(jac[q] - g[5 * i + q]) > r->max_gerr) r->max_gerr = fabs(jac[q] - g[5 * i + q]);
    }
    r->patches = n;
    nnt_rcnn_lemma5_free(&L5);
  }
  free(X), free(f), free(g);
  return st;
}

int nnt_rcnn_compile_check(const nnt_rcnn_compile_cfg *c) {
  if (!c->learner) return nnt_fail(NNT_EINVAL, "rcnn compile: no learner");
  if (c->d < 1 || c->d > 16 || c->m < 1 || c->m > 64 || c->tests < 0 || c->compiler < 0 || c->compiler > 1)
    return nnt_fail(NNT_EINVAL, "rcnn compile: need 1 <= d <= 16, 1 <= m <= 64, tests >= 0, compiler 0 or 1");
  if (c->export_path && !nnt_export_format(c->export_path))
    return nnt_fail(NNT_EINVAL, "--export %s: unknown format (the file name must end in .safetensors or .onnx)", c->export_path);
  if (c->export_path && c->compiler)
    return nnt_fail(NNT_EINVAL, "--export: the structured compiler's network is exported (leave out --compiler lemma)");
  return NNT_OK;
}

int nnt_rcnn_compile_run(const nnt_rcnn_compile_cfg *c, nnt_rcnn_compile_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_rcnn_compile_check(c);
  if (st) return st;
  nnt_rcnn_tm2d tm;
  st = nnt_rcnn_tm2d_learner_open(&tm, c->learner);
  if (st) return st;
  nnt_rcnn_cnet cn;
  double t0 = nnt_now();
  if ((st = nnt_rcnn_cnet_compile(&cn, &tm))) return nnt_rcnn_tm2d_free(&tm), st;
  r->compile_s = nnt_now() - t0;
  r->nstates = tm.nstates, r->K = cn.tern.K, r->nvals = cn.nvals;
  if (!c->compiler) {
    r->h1 = cn.h1, r->nf = cn.nf, r->nind = cn.nind, r->h2 = cn.h2, r->nterms = cn.nterms, r->nslope = cn.nslope;
    r->nnz_v1 = cn.V1.nnz, r->nnz_v3 = cn.V3.nnz, r->nnz_v4 = cn.V4.nnz, r->nnz_v5 = cn.h2;
    nnt_rcnn_cnet_stats(&cn, &r->nonzeros, &r->nweight_values);
  }

  /* the rule-level roll-outs: Algorithm 1, then `tests` predictions; L = t+1 from the direct TM */
  int d = c->d, m = c->m;
  signed char *X = nnt_xmalloc((size_t)m * d), *y = nnt_xmalloc(m), *x = nnt_xmalloc(d);
  uint64_t secret;
  nnt_rcnn_tm2d_parity(d, m, c->seed, X, y, x, &secret);
  nnt_rng g;
  nnt_rng_init(&g, c->seed, 1);
  signed char *xs = nnt_xmalloc((size_t)(c->tests + 1) * d);
  long tmax = 0;
  for (int j = 0; j < c->tests && !st; j++) {
    for (int b = 0; b < d; b++) xs[(size_t)j * d + b] = (signed char)(nnt_rng_u64(&g) >> 63 ? -1 : 1);
    nnt_rcnn_tm2d_tape tape;
    nnt_rcnn_tm2d_result tr;
    if (!(st = nnt_rcnn_tm2d_tape_xor(&tape, m, d, 1, X, y, xs + (size_t)j * d)))
      st = nnt_rcnn_tm2d_run(&tm, &tape, 100000000, &tr), nnt_rcnn_tm2d_tape_free(&tape);
    char what[48];
    snprintf(what, sizeof what, "test point %d", j + 1);
    if (!st) st = nnt_rcnn_tm2d_rcnn_run_ok(&tr, c->learner, what, 100000000);
    if (!st && tr.steps > tmax) tmax = tr.steps;
  }
  int L = m + d + 1 > tmax + 1 ? m + d + 1 : (int)tmax + 1;
  vset vs = {nnt_xcalloc(1 << 12, sizeof(vpatch)), 1 << 12, 0};
  nnt_rcnn_rule_net net;
  t0 = nnt_now();
  if (!st && !(st = nnt_rcnn_rule_init(&net, &tm, m, d, 1, L))) {
    net.visit = visit, net.visit_ctx = &vs;
    st = nnt_rcnn_rule_train(&net, X, y, NULL);
    for (int j = 0; j < c->tests && !st; j++) {
      int64_t F;
      st = nnt_rcnn_rule_forward(&net, xs + (size_t)j * d, &F);
    }
    nnt_rcnn_rule_free(&net);
  }
  if (!st && c->compiler == 1) st = lemma_on_patches(&cn, &vs, r);
  /* the net on every visited patch: value and gradient vs f̄, reverse mode vs finite differences */
  double *ws = nnt_xmalloc(sizeof *ws * (size_t)nnt_rcnn_cnet_ws(&cn));
  const int pidx[5] = {4, 1, 7, 3, 5};
  double h = cn.delta / 2; /* inside the box |x − x0| < Δ where the MLP is affine */
  double *xp = NULL, *xv = NULL, *xg = NULL; /* the checked patches, f̄ and its flag, for --export */
  if (c->export_path && !c->compiler && !st)
    xp = nnt_xmalloc(sizeof *xp * (size_t)(9 * vs.n + 9)), xv = nnt_xmalloc(sizeof *xv * (size_t)(vs.n + 1)),
    xg = nnt_xmalloc(sizeof *xg * (size_t)(vs.n + 1));
  for (long i = 0; i < vs.cap && !st && !c->compiler; i++) {
    const vpatch *e = &vs.e[i];
    if (!e->used) continue;
    double p9[9] = {0}, g9[9], gp[9];
    for (int k = 0; k < 5; k++) p9[pidx[k]] = nnt_rcnn_tern_to_double(&cn.tern, e->k[k]);
    double v = nnt_rcnn_cnet_cell(&cn, p9, g9, ws);
    double ve = fabs(v - nnt_rcnn_tern_to_double(&cn.tern, e->out));
    if (ve > r->max_verr) r->max_verr = ve;
    for (int k = 0; k < 9; k++) {
      double ge = fabs(g9[k] - (k == 4 ? e->flag : 0));
      if (ge > r->max_gerr) r->max_gerr = ge;
      double keep = p9[k];
      p9[k] = keep + h;
      double up = nnt_rcnn_cnet_cell(&cn, p9, NULL, ws);
      p9[k] = keep - h;
      double dn = nnt_rcnn_cnet_cell(&cn, p9, NULL, ws);
      p9[k] = keep;
      gp[k] = (up - dn) / (2 * h);
      double fe = fabs(gp[k] - g9[k]);
      if (fe > r->max_fd_err) r->max_fd_err = fe;
    }
    if (xp) memcpy(xp + 9 * r->patches, p9, sizeof p9), xv[r->patches] = nnt_rcnn_tern_to_double(&cn.tern, e->out), xg[r->patches] = e->flag;
    r->patches++;
  }
  r->check_s = nnt_now() - t0;
  if (xp && !st) {
    const char *meta[] = {"nnt_version", c->version ? c->version : "", "command", c->command ? c->command : "", NULL};
    st = nnt_rcnn_cnet_export(&cn, c->learner, r->patches, xp, xv, xg, meta, c->export_path);
  }
  free(xp), free(xv), free(xg);
  free(ws), free(vs.e), free(X), free(y), free(x), free(xs);
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm);
  return st;
}
