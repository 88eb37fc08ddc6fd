/* The compiled ReLU RCNN against independent references: the head against the rule level's integer
 * head; the cell MLP against f̄ (nnt_rcnn_rule_cell) on random patches of the whole value universe
 * for every bundled learner, with exact gradients; its reverse pass and the network's ∂f/∂W against
 * finite differences; Algorithm 1 with real gradients (W = (1/3)[y·x, y], f = 0) and predictions
 * against the direct 2-D TM and GF(2) elimination; the cache against no cache; 1 vs 2 threads; a
 * wrong weight and a wrong rule caught; the depth ablation at network level. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_nn.h"
#include "nnt_rcnn_parity.h"
#include "nnt_rng.h"
#include "nnt_test.h"
#include "rcnn_test_data.h"

#define P NNT_RCNN_TERN_P
static const int pidx[5] = {4, 1, 7, 3, 5};

/* g of the compiled head on every universe value vs the rule level's exact piecewise formula. */
static void head(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_cnet cn;
  nnt_rcnn_tm2d_learner(&tm, "gauss-parity");
  CHECK(nnt_rcnn_cnet_compile(&cn, &tm) == NNT_OK);
  double worst = 0, s;
  for (int i = 0; i < cn.nvals; i++) {
    if (cn.vals[i] == P) continue;
    double g = nnt_rcnn_cnet_head(&cn, nnt_rcnn_tern_to_double(&cn.tern, cn.vals[i]), &s);
    double e = fabs(g - (double)nnt_rcnn_rule_head(&cn.tern, cn.vals[i]) / cn.tern.scale);
    if (e > worst) worst = e;
    CHECK(s == nnt_rcnn_rule_head_slope(&cn.tern, cn.vals[i]));
  }
  CHECK_MSG(worst < 1e-13, "head error %g", worst);
  CHECK(fabs(nnt_rcnn_cnet_head(&cn, -1.0 / 9, &s)) < 1e-14 && s == 18);
  CHECK(fabs(nnt_rcnn_cnet_head(&cn, 0, NULL) - 2) < 1e-14 && fabs(nnt_rcnn_cnet_head(&cn, 4.0 / 9, NULL) - 1) < 1e-14);
  CHECK(fabs(nnt_rcnn_cnet_head(&cn, -2.0 / 9, NULL) + 1) < 1e-14 && fabs(nnt_rcnn_cnet_head(&cn, 1.0 / 3, NULL) - 1) < 1e-14);
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm);
}

/* A random patch: each position from the whole universe or, half the time, from its values that
 * are not heads (so that the f̄_msg rules and the receiving cases are hit often). */
static void draw_patch(const nnt_rcnn_cnet *cn, nnt_rng *g, int32_t *k) {
  for (int i = 0; i < 5; i++) {
    int nonhead = (int)(nnt_rng_u64(g) & 1);
    for (;;) {
      int32_t v = cn->vals[nnt_rng_u64(g) % (uint64_t)cn->nvals];
      const nnt_rcnn_tern_digits *dg = nnt_rcnn_tern_dec(&cn->tern, v);
      if ((i == 0 && v == P) || (nonhead && dg && dg->head)) continue; /* the centre is a grid cell */
      k[i] = v;
      break;
    }
  }
}

/* Max value error and max gradient error of cn against the rule net's f̄ on n random patches. */
static void against_rule(const nnt_rcnn_cnet *cn, const nnt_rcnn_rule_net *ref, int n, uint64_t seed, double *verr, double *gerr) {
  double *ws = malloc(sizeof *ws * (size_t)nnt_rcnn_cnet_ws(cn));
  nnt_rng g;
  nnt_rng_init(&g, seed, 0);
  *verr = *gerr = 0;
  for (int it = 0; it < n; it++) {
    int32_t k[5];
    draw_patch(cn, &g, k);
    double x[9] = {0}, gr[9];
    for (int i = 0; i < 5; i++) x[pidx[i]] = nnt_rcnn_tern_to_double(&cn->tern, k[i]);
    int flag;
    int32_t want = nnt_rcnn_rule_cell(ref, k[0], k[1], k[2], k[3], k[4], &flag);
    double v = nnt_rcnn_cnet_cell(cn, x, gr, ws), e = fabs(v - nnt_rcnn_tern_to_double(&cn->tern, want));
    if (e > *verr) *verr = e;
    for (int i = 0; i < 9; i++) {
      double ge = fabs(gr[i] - (i == 4 ? flag : 0));
      if (ge > *gerr) *gerr = ge;
    }
  }
  free(ws);
}

static void cells(void) {
  for (int l = 0; nnt_rcnn_tm2d_learner_names[l]; l++) {
    nnt_rcnn_tm2d tm;
    nnt_rcnn_cnet cn;
    nnt_rcnn_rule_net ref;
    nnt_rcnn_tm2d_learner(&tm, nnt_rcnn_tm2d_learner_names[l]);
    CHECK(nnt_rcnn_cnet_compile(&cn, &tm) == NNT_OK && nnt_rcnn_rule_init(&ref, &tm, 2, 2, 1, 3) == NNT_OK);
    CHECK(cn.nvals == 10 + 4 * tm.nstates && cn.tern.K == ref.tern.K);
    double ve, ge;
    against_rule(&cn, &ref, 6000, 7 + l, &ve, &ge);
    CHECK_MSG(ve < 1e-9 && ge == 0, "%s: value error %g, gradient error %g", nnt_rcnn_tm2d_learner_names[l], ve, ge);
    if (l == 3) { /* a wrong weight: one output weight of a layer-2 unit halved */
      int u = cn.h2 / 2;
      cn.v5[u] *= 0.5;
      against_rule(&cn, &ref, 6000, 7 + l, &ve, &ge);
      CHECK_MSG(ve > 1e-3, "a corrupted weight went unnoticed (value error %g)", ve);
    }
    nnt_rcnn_rule_free(&ref);
    nnt_rcnn_cnet_free(&cn);
    nnt_rcnn_tm2d_free(&tm);
  }
  /* a wrong rule: the compiler sees one transition with the opposite write; the reference not */
  nnt_rcnn_tm2d tm, bad;
  nnt_rcnn_tm2d_learner(&tm, "majority"), nnt_rcnn_tm2d_learner(&bad, "majority");
  for (int i = 3; i < 3 * bad.nstates; i++)
    if (bad.delta[i].line >= 0 && bad.delta[i].write != 0) {
      bad.delta[i].write = (signed char)-bad.delta[i].write;
      break;
    }
  nnt_rcnn_cnet cn;
  nnt_rcnn_rule_net ref;
  CHECK(nnt_rcnn_cnet_compile(&cn, &bad) == NNT_OK && nnt_rcnn_rule_init(&ref, &tm, 2, 2, 1, 3) == NNT_OK);
  double ve, ge;
  against_rule(&cn, &ref, 20000, 3, &ve, &ge);
  CHECK_MSG(ve > 0.5, "a wrong rule went unnoticed (value error %g)", ve);
  nnt_rcnn_rule_free(&ref);
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm), nnt_rcnn_tm2d_free(&bad);
}

/* The reverse pass against central differences inside one linear piece: near domain points and in
 * the ramps of the indicators (x = v + 1.3Δ), where the partials are of order 1/Δ. */
static void fd(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_cnet cn;
  nnt_rcnn_tm2d_learner(&tm, "first-label");
  nnt_rcnn_cnet_compile(&cn, &tm);
  double *ws = malloc(sizeof *ws * (size_t)nnt_rcnn_cnet_ws(&cn)), D = cn.delta, worst = 0, big = 0;
  nnt_rng g;
  nnt_rng_init(&g, 5, 0);
  for (int it = 0; it < 400; it++) {
    int32_t k[5];
    draw_patch(&cn, &g, k);
    double x[9] = {0}, gr[9];
    for (int i = 0; i < 5; i++) {
      double off = (nnt_rng_u64(&g) % 3 == 0 ? 1.3 : 0.3 * ((double)(nnt_rng_u64(&g) % 1000) / 1000 - 0.5)) * D;
      x[pidx[i]] = nnt_rcnn_tern_to_double(&cn.tern, k[i]) + off;
    }
    nnt_rcnn_cnet_cell(&cn, x, gr, ws);
    for (int i = 0; i < 9; i++) {
      double h = D / 64, keep = x[i];
      x[i] = keep + h;
      double up = nnt_rcnn_cnet_cell(&cn, x, NULL, ws);
      x[i] = keep - h;
      double dn = nnt_rcnn_cnet_cell(&cn, x, NULL, ws);
      x[i] = keep;
      double e = fabs((up - dn) / (2 * h) - gr[i]) / (1 + fabs(gr[i]));
      if (e > worst) worst = e;
      if (fabs(gr[i]) > big) big = fabs(gr[i]);
    }
  }
  CHECK_MSG(worst < 1e-5, "reverse pass vs finite differences: %g", worst);
  CHECK(big > 1000); /* the ramps were hit */
  free(ws);
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm);
}

/* Algorithm 1 on the network, without and with the cache: exact memorisation, f = 0 at every SGD
 * step, every prediction equal to the direct TM (and for gauss-parity to GF(2) elimination). */
static void algorithm1(const char *learner, int d, int m, int n, int cache, uint64_t seed) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_cnet cn;
  nnt_rcnn_rule_net ref;
  nnt_rcnn_nn nn;
  data D;
  nnt_rcnn_tm2d_learner(&tm, learner);
  draw(&D, d, m, n, seed);
  int L = depth_for(&tm, &D, 1);
  CHECK(nnt_rcnn_cnet_compile(&cn, &tm) == NNT_OK && nnt_rcnn_rule_init(&ref, &tm, m, d, 1, L) == NNT_OK);
  CHECK(nnt_rcnn_nn_init(&nn, &cn, &ref, m, d, 1, L, cache) == NNT_OK);
  double f[64];
  nnt_rcnn_nn_train(&nn, D.X, D.y, f);
  double fmax = 0;
  for (int i = 0; i <= m; i++) fmax = fabs(f[i]) > fmax ? fabs(f[i]) : fmax;
  CHECK_MSG(nnt_rcnn_nn_w_err(&nn, D.X, D.y) < 1e-12 && fmax < 1e-9, "%s: W error %g, max |f| %g", learner,
            nnt_rcnn_nn_w_err(&nn, D.X, D.y), fmax);
  double keep = nn.W[m]; /* a NaN weight, even after finite ones, is an error (it used to read as 0) */
  nn.W[m] = NAN;
  CHECK(isnan(nnt_rcnn_nn_w_err(&nn, D.X, D.y)));
  nn.W[m] = keep;
  int agree = 0, gauss = 0;
  for (int j = 0; j < n; j++) {
    long t;
    int want = direct(&tm, &D, j, 1, &t);
    double y = nnt_rcnn_nn_forward(&nn, D.x + (size_t)j * d);
    agree += fabs(y - want) < 1e-6;
    if (!strcmp(learner, "gauss-parity")) gauss += fabs(y - gf2(&D, j)) < 1e-6;
  }
  CHECK_MSG(agree == n, "%s cache=%d: %d/%d agree with the direct TM", learner, cache, agree, n);
  if (!strcmp(learner, "gauss-parity")) CHECK(gauss == n);
  CHECK_MSG(nn.max_verr < 1e-9 && nn.max_gerr == 0 && nn.offgrid == 0 && nn.nchecked > 0, "verr %g gerr %g offgrid %ld",
            nn.max_verr, nn.max_gerr, nn.offgrid);
  nnt_rcnn_nn_free(&nn);
  nnt_rcnn_rule_free(&ref);
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm);
  undraw(&D);
}

/* ∂f/∂W by the backward pass against central differences of the network output, mid-training
 * (after 2 SGD steps) and after training (at a test point: the compute phase). */
static void dw_fd(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_cnet cn;
  nnt_rcnn_nn nn;
  data D;
  nnt_rcnn_tm2d_learner(&tm, "dictator");
  draw(&D, 3, 4, 1, 2);
  int L = depth_for(&tm, &D, 1), nw = (D.m + 1) * (D.d + 1);
  nnt_rcnn_cnet_compile(&cn, &tm);
  nnt_rcnn_nn_init(&nn, &cn, NULL, D.m, D.d, 1, L, 0);
  double *dW = malloc(sizeof *dW * nw);
  double worst = 0, mx = 0;
  for (int phase = 0; phase < 2; phase++) {
    if (phase) nnt_rcnn_nn_train(&nn, D.X, D.y, NULL);
    else
      for (int b = 0; b < D.d + 1; b++) nn.W[b] = D.y[0] * (b < D.d ? D.X[b] : 1) / 3.0; /* row 1 memorised */
    const signed char *x = phase ? D.x : D.X + D.d;
    nnt_rcnn_nn_forward(&nn, x);
    nnt_rcnn_nn_backward(&nn, x, dW);
    for (int j = 0; j < nw; j++) {
      double h = cn.delta / 16, keep = nn.W[j];
      nn.W[j] = keep + h;
      double up = nnt_rcnn_nn_forward(&nn, x);
      nn.W[j] = keep - h;
      double dn = nnt_rcnn_nn_forward(&nn, x);
      nn.W[j] = keep;
      double e = fabs((up - dn) / (2 * h) - dW[j]);
      if (e > worst) worst = e;
      if (fabs(dW[j]) > mx) mx = fabs(dW[j]);
    }
  }
  CHECK_MSG(worst < 1e-4, "dW vs finite differences: %g", worst);
  CHECK(mx == 18); /* the memorising row: g'(-1/9) times the product of ∂/∂x00 = 1 flags */
  free(dW);
  nnt_rcnn_nn_free(&nn);
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm);
  undraw(&D);
}

/* L = t+1 works at network level; L - 1 leaves the TM a step short and the output changes. */
static void depth(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_cnet cn;
  data D;
  nnt_rcnn_tm2d_learner(&tm, "gauss-parity");
  nnt_rcnn_cnet_compile(&cn, &tm);
  draw(&D, 3, 7, 1, 11);
  long t;
  int want = direct(&tm, &D, 0, 1, &t), L = depth_for(&tm, &D, 1);
  CHECK(L == t + 1);
  for (int k = 0; k < 2; k++) {
    nnt_rcnn_nn nn;
    nnt_rcnn_nn_init(&nn, &cn, NULL, D.m, D.d, 1, L - k, 1);
    nnt_rcnn_nn_train(&nn, D.X, D.y, NULL);
    double f = nnt_rcnn_nn_forward(&nn, D.x);
    CHECK_MSG((fabs(f - want) < 1e-6) == !k, "L=%d: f=%g, TM %d", L - k, f, want);
    nnt_rcnn_nn_free(&nn);
  }
  nnt_rcnn_nn nn;
  CHECK(nnt_rcnn_nn_init(&nn, &cn, NULL, 1000, 1000, 1000, 1000000, 1) == NNT_EINVAL); /* refused before allocating */
  nnt_rcnn_cnet_free(&cn);
  nnt_rcnn_tm2d_free(&tm);
  undraw(&D);
}

/* Lemma 5 on a random finite domain in R^3 with two outputs: values and every prescribed partial
 * (g ∈ {0, 1, -2}) on X, weights in Lemma 6's sets within its bounds; a point off X (between two
 * grid values) is not constrained, a changed target shows. */
static void lemma5(void) {
  nnt_rng g;
  nnt_rng_init(&g, 17, 0);
  enum { N = 40, DI = 3, DO = 2 };
  double X[N * DI], f[N * DO], gr[N * DO * DI], G[3] = {0, 1, -2}, Y[4] = {-1, 0.5, 2, 1.0 / 3};
  for (int p = 0; p < N; p++) {
    int dup;
    do { /* distinct points on the grid {0, 0.25, ..., 1.75} */
      for (int i = 0; i < DI; i++) X[p * DI + i] = 0.25 * (double)(nnt_rng_u64(&g) % 8);
      dup = 0;
      for (int q = 0; q < p; q++) dup |= !memcmp(X + q * DI, X + p * DI, sizeof(double) * DI);
    } while (dup);
    for (int j = 0; j < DO; j++) {
      f[p * DO + j] = Y[nnt_rng_u64(&g) % 4];
      for (int i = 0; i < DI; i++) gr[(p * DO + j) * DI + i] = G[nnt_rng_u64(&g) % 3];
    }
  }
  nnt_rcnn_lemma5 L;
  CHECK(nnt_rcnn_lemma5_build(&L, DI, DO, N, X, f, gr) == NNT_OK);
  CHECK(L.nxi == 8 && fabs(L.delta - 0.025) < 1e-15 && L.W1.rows == 10 * DI * 8 && L.W2p.rows == DI * DO * N);
  double ve = 0, ge = 0;
  for (int p = 0; p < N; p++) {
    double out[DO], jac[DO * DI];
    nnt_rcnn_lemma5_eval(&L, X + p * DI, out, jac);
    for (int j = 0; j < DO; j++) {
      ve = fmax(ve, fabs(out[j] - f[p * DO + j]));
      for (int i = 0; i < DI; i++) ge = fmax(ge, fabs(jac[j * DI + i] - gr[(p * DO + j) * DI + i]));
    }
  }
  CHECK_MSG(ve < 1e-12 && ge < 1e-9, "lemma 5: value error %g, gradient error %g", ve, ge);
  nnt_rcnn_lemma6 r;
  nnt_rcnn_lemma6_check(&L, 4, Y, 3, G, &r);
  for (int k = 0; k < 5; k++) CHECK_MSG(r.within[k] && r.size[k] <= r.bound[k] && r.nnz[k] > 0, "map %d: %ld of %ld", k, r.size[k], r.bound[k]);
  /* the sets depend on (X_i, Y_i, G) only: a net for other targets on the same domain fits them too */
  double f2[N * DO];
  for (int p = 0; p < N * DO; p++) f2[p] = Y[(p + 1) % 4];
  nnt_rcnn_lemma5 L2;
  nnt_rcnn_lemma5_build(&L2, DI, DO, N, X, f2, gr);
  nnt_rcnn_lemma6_check(&L2, 4, Y, 3, G, &r);
  for (int k = 0; k < 5; k++) CHECK(r.within[k]);
  int ok = 1, changed = 0;
  for (int p = 0; p < N; p++) {
    double o1[DO], o2[DO];
    nnt_rcnn_lemma5_eval(&L, X + p * DI, o1, NULL), nnt_rcnn_lemma5_eval(&L2, X + p * DI, o2, NULL);
    for (int j = 0; j < DO; j++) ok &= fabs(o2[j] - f2[p * DO + j]) < 1e-12, changed += f[p * DO + j] != f2[p * DO + j] && o1[j] != o2[j];
  }
  CHECK(ok && changed > 10);
  nnt_rcnn_lemma6_check(&L2, 3, Y + 1, 3, G, &r); /* without the value -1 in Y_i: outside */
  CHECK(!r.within[3]);
  nnt_rcnn_lemma5_free(&L), nnt_rcnn_lemma5_free(&L2);
}

/* The experiment at network level: the outputs are bit-identical on 1 and 2 threads, and within
 * rounding of those with the cache. */
static void threads(void) {
  nnt_rcnn_learn_cfg c;
  nnt_rcnn_learn_cfg_default(&c, NNT_PRESET_QUICK);
  c.learner = "first-label", c.d = 3, c.m = 4, c.tests = 6, c.level = 1, c.nocache = 1;
  nnt_rcnn_learn_result r[2];
  for (int k = 0; k < 2; k++) {
    omp_set_num_threads(k + 1);
    CHECK(nnt_rcnn_learn_run(&c, &r[k]) == NNT_OK);
  }
  int same = r[0].agree == c.tests && r[1].agree == c.tests && r[0].w_err == 0 && r[1].w_err == 0;
  for (int j = 0; j < c.tests; j++) same &= r[0].pt[j].f == r[1].pt[j].f;
  CHECK(same);
  /* the patch cache returns what the MLP returns, up to rounding */
  nnt_rcnn_learn_result rc;
  c.nocache = 0;
  CHECK(nnt_rcnn_learn_run(&c, &rc) == NNT_OK);
  double worst = 0;
  for (int j = 0; j < c.tests; j++) worst = fmax(worst, fabs(rc.pt[j].f - r[0].pt[j].f));
  CHECK_MSG(worst < 1e-9 && rc.nhit > 0 && rc.w_err == 0, "cache vs none: %g", worst);
  nnt_rcnn_learn_result_free(&rc);
  for (int k = 0; k < 2; k++) nnt_rcnn_learn_result_free(&r[k]);
}

int main(void) {
  lemma5();
  threads();
  head();
  cells();
  fd();
  algorithm1("first-label", 3, 4, 4, 0, 1);
  algorithm1("dictator", 3, 4, 4, 0, 2);
  algorithm1("first-label", 3, 4, 4, 1, 1);
  algorithm1("gauss-parity", 4, 10, 6, 1, 3);
  dw_fd();
  depth();
  TEST_MAIN_END();
}
