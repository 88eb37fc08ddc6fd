/* Parity benchmark: elimination against brute force over all 2^d secrets, the MLP's gradient
 * against finite differences and its accuracy on small parities, the majority baseline, and the
 * sweep's independence of the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_parity.h"
#include "nnt_test.h"

/* ⟨s, x⟩ for a secret given as an integer (d <= 16) */
static int dot_int(unsigned s, const uint64_t *x) { return __builtin_parityll(s & x[0]); }

static void test_gauss_brute_force(void) {
  int unique = 0, ambiguous_queries = 0, determined_queries = 0;
  for (int d = 1; d <= 8; d++)
    for (int m = 1; m <= d + 4; m++)
      for (int rep = 0; rep < 6; rep++) {
        nnt_rng r;
        nnt_rng_init(&r, 7, (uint64_t)(d * 1000 + m * 10 + rep));
        uint64_t w[1];
        nnt_rcnn_parity_secret(d, rep % 2 ? 1 + rep % d : 0, &r, w);
        nnt_rcnn_parity_data D;
        nnt_rcnn_parity_data_make(&D, d, m, w, 0, &r);
        nnt_rcnn_parity_gauss g;
        nnt_rcnn_parity_gauss_fit(&g, &D);
        CHECK(g.inconsistent == 0);
        /* every secret consistent with the examples, by enumeration */
        unsigned *cons = malloc(sizeof *cons << d);
        int nc = 0;
        for (unsigned s = 0; s < 1u << d; s++) {
          int ok = 1;
          for (int i = 0; i < m && ok; i++) ok = dot_int(s, D.x + i) == D.y[i];
          if (ok) cons[nc++] = s;
        }
        CHECK(nc >= 1);
        CHECK(nc == 1 << (d - g.rank)); /* the solution set is a coset of dimension d - rank */
        int in = 0; /* the hypothesis is one of them */
        for (int c = 0; c < nc; c++) in |= cons[c] == g.w[0];
        CHECK(in);
        if (nc == 1) { /* spanned: the secret exactly */
          unique++;
          CHECK(g.w[0] == w[0]);
        }
        for (unsigned x = 0; x < 1u << d; x++) { /* every query */
          uint64_t xq[1] = {x};
          int agree = 1;
          for (int c = 1; c < nc; c++) agree &= dot_int(cons[c], xq) == dot_int(cons[0], xq);
          CHECK(nnt_rcnn_parity_gauss_determined(&g, xq) == agree);
          if (agree) {
            determined_queries++;
            CHECK(nnt_rcnn_parity_gauss_predict(&g, xq) == dot_int(cons[0], xq));
          } else ambiguous_queries++;
        }
        free(cons);
        nnt_rcnn_parity_gauss_free(&g);
        nnt_rcnn_parity_data_free(&D);
      }
  CHECK(unique > 50 && ambiguous_queries > 1000 && determined_queries > 1000);
}

/* d = 100 (two words): m = d + 30 examples span with probability >= 1 - 2^-30, then w = secret. */
static void test_gauss_large(void) {
  for (int k = 0; k <= 3; k += 3) {
    nnt_rng r;
    nnt_rng_init(&r, 3, (uint64_t)k);
    uint64_t w[2];
    nnt_rcnn_parity_secret(100, k, &r, w);
    CHECK(__builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) == (k ? k : 100));
    nnt_rcnn_parity_data D;
    nnt_rcnn_parity_data_make(&D, 100, 130, w, 0, &r);
    nnt_rcnn_parity_gauss g;
    nnt_rcnn_parity_gauss_fit(&g, &D);
    CHECK(g.rank == 100 && g.w[0] == w[0] && g.w[1] == w[1]);
    nnt_rcnn_parity_gauss_free(&g);
    nnt_rcnn_parity_data_free(&D);
  }
  /* noise: the examples that contradict the kept rows are counted, and the hypothesis fits the rest */
  nnt_rng r;
  nnt_rng_init(&r, 4, 0);
  uint64_t w[1];
  nnt_rcnn_parity_secret(10, 0, &r, w);
  nnt_rcnn_parity_data D;
  nnt_rcnn_parity_data_make(&D, 10, 200, w, 0.2, &r);
  nnt_rcnn_parity_gauss g;
  nnt_rcnn_parity_gauss_fit(&g, &D);
  int wrong = 0;
  for (int i = 0; i < D.n; i++) wrong += nnt_rcnn_parity_gauss_predict(&g, D.x + i) != D.y[i];
  CHECK(g.inconsistent > 0 && wrong >= g.inconsistent);
  nnt_rcnn_parity_gauss_free(&g);
  nnt_rcnn_parity_data_free(&D);
}

static void test_mlp_gradient(void) {
  nnt_rng r;
  nnt_rng_init(&r, 5, 0);
  nnt_rcnn_parity_mlp net;
  nnt_rcnn_parity_mlp_init(&net, 5, 7, &r);
  for (int q = 0; q < nnt_rcnn_parity_mlp_nparams(&net); q++) net.p[q] += 0.1 * nnt_rng_normal(&r); /* nonzero b, c */
  int np = nnt_rcnn_parity_mlp_nparams(&net);
  double *g = malloc(np * sizeof *g);
  double maxerr = 0;
  for (int y = 0; y < 2; y++) {
    uint64_t x[1] = {0x15 ^ (unsigned)y};
    nnt_rcnn_parity_mlp_loss_grad(&net, x, y, g);
    for (int q = 0; q < np; q++) {
      double keep = net.p[q], h = 1e-6;
      net.p[q] = keep + h;
      double lp = nnt_rcnn_parity_mlp_loss_grad(&net, x, y, NULL);
      net.p[q] = keep - h;
      double lm = nnt_rcnn_parity_mlp_loss_grad(&net, x, y, NULL);
      net.p[q] = keep;
      double e = fabs((lp - lm) / (2 * h) - g[q]);
      if (e > maxerr) maxerr = e;
    }
  }
  CHECK_MSG(maxerr < 1e-7, "max |finite difference - gradient| = %g", maxerr);
  free(g);
  nnt_rcnn_parity_mlp_free(&net);
}

/* d <= 4: with m = 64 examples every input is seen; the trained MLP must reach test accuracy >= 0.95
 * (averaged over 4 repetitions per d), which a constant or a linear rule (0.5) cannot. */
static void test_mlp_small_parities(void) {
  nnt_rcnn_parity_bench_cfg c;
  nnt_rcnn_parity_bench_cfg_default(&c, NNT_PRESET_QUICK);
  c.mlp = (nnt_rcnn_parity_mlp_cfg){.hidden = 32, .epochs = 200, .lr = 0.05};
  for (int d = 2; d <= 4; d++) {
    double acc = 0;
    for (int rep = 0; rep < 4; rep++) {
      nnt_rcnn_parity_point p;
      CHECK(nnt_rcnn_parity_bench_point(&c, d, 64, NNT_RCNN_PARITY_MLP, rep, &p) == NNT_OK);
      acc += p.acc / 4;
    }
    CHECK_MSG(acc >= 0.95, "d=%d: MLP test accuracy %.3f < 0.95", d, acc);
  }
}

static void test_majority(void) {
  nnt_rcnn_parity_bench_cfg c;
  nnt_rcnn_parity_bench_cfg_default(&c, NNT_PRESET_QUICK);
  c.tests = 4000;
  double acc = 0;
  for (int rep = 0; rep < 10; rep++) {
    nnt_rcnn_parity_point p;
    CHECK(nnt_rcnn_parity_bench_point(&c, 12, 31, NNT_RCNN_PARITY_MAJORITY, rep, &p) == NNT_OK);
    acc += p.acc / 10;
  }
  /* test labels are balanced for a parity: sd of the mean over 40000 labels is 0.0025 */
  CHECK_MSG(fabs(acc - 0.5) < 0.015, "majority accuracy %.4f", acc);
}

static void test_threads(void) {
  nnt_rcnn_parity_bench_cfg c;
  nnt_rcnn_parity_bench_cfg_default(&c, NNT_PRESET_QUICK);
  nnt_rcnn_parity_bench_result r1, r2;
  c.threads = 1;
  CHECK(nnt_rcnn_parity_bench_run(&c, &r1) == NNT_OK);
  c.threads = 2;
  CHECK(nnt_rcnn_parity_bench_run(&c, &r2) == NNT_OK);
  CHECK(r1.npoints == r2.npoints && r1.npoints == 2 * 5 * 3 * 2);
  for (int i = 0; i < r1.npoints; i++) {
    const nnt_rcnn_parity_point *a = &r1.points[i], *b = &r2.points[i];
    CHECK(a->d == b->d && a->m == b->m && a->learner == b->learner && a->rep == b->rep);
    CHECK(a->acc == b->acc && a->train_acc == b->train_acc);
    CHECK((isnan(a->determined) && isnan(b->determined)) || a->determined == b->determined);
  }
  /* the learners of a repetition share data: elimination fits its training set exactly without noise */
  for (int i = 0; i < r1.npoints; i++)
    if (r1.points[i].learner == NNT_RCNN_PARITY_GAUSS) CHECK(r1.points[i].train_acc == 1);
  nnt_rcnn_parity_bench_result_free(&r1);
  nnt_rcnn_parity_bench_result_free(&r2);
  c.noise = 0.5;
  CHECK(nnt_rcnn_parity_bench_run(&c, &r1) == NNT_EINVAL);
}

int main(void) {
  test_gauss_brute_force();
  test_gauss_large();
  test_mlp_gradient();
  test_mlp_small_parities();
  test_majority();
  test_threads();
  TEST_MAIN_END();
}
