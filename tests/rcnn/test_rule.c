/* The rule-level RCNN against independent references: the head's values, single patches of f̄,
 * Algorithm 1's invariants (f == 0 at every SGD step, W == (1/3)[y·x, y]), the RCNN's output
 * against the direct 2-D TM simulator and, for gauss-parity, against GF(2) elimination; the full
 * sweep against the event-driven roll-out; a corrupted rule; the depth ablations; the experiment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_rcnn_parity.h"
#include "nnt_rcnn_nn.h"
#include "nnt_rcnn_rule.h"
#include "nnt_rng.h"
#include "nnt_test.h"
#include "rcnn_test_data.h"

#define P NNT_RCNN_TERN_P

static void head(void) {
  nnt_rcnn_tern t;
  nnt_rcnn_tern_init(&t, 4);
  int64_t S = t.scale;
  int32_t n9 = t.scale / 9;
  CHECK(nnt_rcnn_rule_head(&t, -n9) == 0 && nnt_rcnn_rule_head_slope(&t, -n9) == 18);
  CHECK(nnt_rcnn_rule_head(&t, n9) == 0 && nnt_rcnn_rule_head(&t, 4 * n9) == S && nnt_rcnn_rule_head(&t, -2 * n9) == -S);
  CHECK(nnt_rcnn_rule_head(&t, 0) == 2 * S && nnt_rcnn_rule_head(&t, 3 * n9) == S && nnt_rcnn_rule_head(&t, -3 * n9) == -S);
  CHECK(nnt_rcnn_rule_head(&t, 10 * n9) == S); /* the 1s region: summing it would add 1 a cell */
  /* the output cell keeps its sign whatever state the head parks in (spec §4.4) */
  CHECK(nnt_rcnn_rule_head(&t, -2 * n9 + n9 / 3 + 40) == -S && nnt_rcnn_rule_head(&t, 4 * n9 + n9 / 3 - 40) == S);
  nnt_rcnn_tern_free(&t);
}

/* Single patches: rule 1 (flag 1), rule 2 (flag 0), rule 3 at the bottom-right only, the compute
 * front, a move, a blocked move, the memorisation identity. */
static void patches(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_rule_net net;
  CHECK(nnt_rcnn_tm2d_learner(&tm, "dictator") == NNT_OK);
  CHECK(nnt_rcnn_rule_init(&net, &tm, 2, 2, 1, 5) == NNT_OK);
  int32_t S = net.tern.scale, t3 = S / 3, t9 = S / 9, t27 = S / 27;
  int f;
  CHECK(nnt_rcnn_rule_cell(&net, 0, P, 0, P, 0, &f) == -t9 && f == 1);
  CHECK(nnt_rcnn_rule_cell(&net, 0, -t3, 0, P, 0, &f) == -t9 && f == 1);
  CHECK(nnt_rcnn_rule_cell(&net, 0, 0, -t9, P, 0, &f) == -t9 && f == 0);
  CHECK(nnt_rcnn_rule_cell(&net, t3, 0, -t9, P, 0, &f) == -t9 && f == 0);
  CHECK(nnt_rcnn_rule_cell(&net, -t9, t3, 0, 0, 0, &f) == -t9 && f == 1);
  CHECK(nnt_rcnn_rule_cell(&net, -t3, t3, P, t3, S, &f) == -t3 + t9 + t27 && f == 0); /* rule 3 */
  CHECK(nnt_rcnn_rule_cell(&net, -t3, P, t3, t3, S, &f) == -t3);                      /* not the bottom row */
  CHECK(nnt_rcnn_rule_cell(&net, S, P, S, t3 + t9 + t27, P, &f) == S + t9);            /* the front */
  /* dictator's start state: a no-op into its next state; step 2 moves the head */
  int32_t h = t3 + t9 + t27;
  const nnt_rcnn_tm2d_rule *r0 = &tm.delta[0 * 3 + 2];
  CHECK(nnt_rcnn_rule_cell(&net, h, t9, P, t9, S + t9, &f) == r0->write * t3 + t9 + t27 + nnt_rcnn_tern_code(r0->next));
  nnt_rcnn_tm2d_free(&tm);
  nnt_rcnn_rule_free(&net);
  /* a one-rule machine: from the start state, write -1 and move up; blocked: state 2 */
  nnt_rcnn_tm2d mv;
  nnt_rcnn_tm2d_init(&mv);
  int q0 = nnt_rcnn_tm2d_state(&mv, "start"), q1 = nnt_rcnn_tm2d_state(&mv, "go"), qb = nnt_rcnn_tm2d_state(&mv, "halt");
  for (int a = -1; a <= 1; a++) {
    nnt_rcnn_tm2d_rule_set(&mv, q0, a, q1, a, NNT_RCNN_TM2D_N, q1);
    nnt_rcnn_tm2d_rule_set(&mv, q1, a, q1, -1, NNT_RCNN_TM2D_U, qb);
    nnt_rcnn_tm2d_rule_set(&mv, qb, a, qb, a, NNT_RCNN_TM2D_N, qb);
  }
  nnt_rcnn_tm2d_halt(&mv, qb);
  CHECK(nnt_rcnn_rule_init(&net, &mv, 2, 2, 1, 5) == NNT_OK);
  S = net.tern.scale, t3 = S / 3, t9 = S / 9, t27 = S / 27; /* 3 states: K = 4 */
  int32_t hq1 = t9 + t27 + nnt_rcnn_tern_code(q1); /* blank cell, head in "go" */
  CHECK(nnt_rcnn_rule_cell(&net, hq1, t9, t9, t9, t9, &f) == -t3 + t9);                          /* leaves */
  CHECK(nnt_rcnn_rule_cell(&net, t9, P, hq1, t9, t9, &f) == t9 + t27 + nnt_rcnn_tern_code(q1));   /* receives */
  CHECK(nnt_rcnn_rule_cell(&net, t9, t9, t9, hq1, t9, &f) == t9);                                 /* not toward it */
  CHECK(nnt_rcnn_rule_cell(&net, hq1, P, t9, t9, t9, &f) == -t3 + t9 + t27 + nnt_rcnn_tern_code(qb)); /* blocked */
  nnt_rcnn_rule_free(&net);
  nnt_rcnn_tm2d_free(&mv);
}

/* Algorithm 1 and prediction for every learner on several (d, m): the invariants hold and the
 * RCNN answers as the direct TM does (and as GF(2) elimination, for gauss-parity with m >= d + 7). */
static void emulation(void) {
  const int dm[][2] = {{1, 3}, {2, 5}, {3, 7}, {4, 10}, {5, 12}};
  for (int l = 0; nnt_rcnn_tm2d_learner_names[l]; l++)
    for (int k = 0; k < 5; k++) {
      nnt_rcnn_tm2d tm;
      nnt_rcnn_tm2d_learner(&tm, nnt_rcnn_tm2d_learner_names[l]);
      data D;
      draw(&D, dm[k][0], dm[k][1], 6, 100 + k);
      nnt_rcnn_rule_net net;
      CHECK(nnt_rcnn_rule_init(&net, &tm, D.m, D.d, 1, depth_for(&tm, &D, 1)) == NNT_OK);
      unsigned char fz[16];
      CHECK(nnt_rcnn_rule_train(&net, D.X, D.y, fz) == NNT_OK);
      int allz = 1, agree = 0, gauss_ok = 0;
      for (int i = 0; i <= D.m; i++) allz &= fz[i];
      CHECK_MSG(allz && nnt_rcnn_rule_w_exact(&net, D.X, D.y), "%s d=%d m=%d", nnt_rcnn_tm2d_learner_names[l], D.d, D.m);
      for (int j = 0; j < D.n; j++) {
        long t;
        int64_t F;
        CHECK(nnt_rcnn_rule_forward(&net, D.x + j * D.d, &F) == NNT_OK);
        int want = direct(&tm, &D, j, 1, &t);
        agree += want && F == (int64_t)want * net.tern.scale;
        gauss_ok += F == (int64_t)gf2(&D, j) * net.tern.scale;
      }
      CHECK_MSG(agree == D.n, "%s d=%d m=%d: %d/%d agree", nnt_rcnn_tm2d_learner_names[l], D.d, D.m, agree, D.n);
      if (l == 3 && D.m >= D.d + 7) CHECK_MSG(gauss_ok == D.n, "d=%d m=%d: %d/%d as GF(2)", D.d, D.m, gauss_ok, D.n);
      nnt_rcnn_rule_free(&net);
      nnt_rcnn_tm2d_free(&tm);
      undraw(&D);
    }
}

/* The event-driven roll-out gives the full sweep's grids, flags and W. */
static void full_sweep(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_tm2d_learner(&tm, "gauss-parity");
  data D;
  draw(&D, 3, 6, 3, 5);
  int L = depth_for(&tm, &D, 2);
  nnt_rcnn_rule_net a, b;
  nnt_rcnn_rule_init(&a, &tm, D.m, D.d, 2, L), nnt_rcnn_rule_init(&b, &tm, D.m, D.d, 2, L);
  b.full = 1;
  CHECK(nnt_rcnn_rule_train(&a, D.X, D.y, NULL) == NNT_OK && nnt_rcnn_rule_train(&b, D.X, D.y, NULL) == NNT_OK);
  size_t nw = (size_t)(D.m + 1) * (D.d + 1), nc = (size_t)a.rows * a.cols;
  CHECK(!memcmp(a.W, b.W, nw * sizeof *a.W));
  for (int j = 0; j < D.n; j++) {
    int64_t Fa, Fb;
    nnt_rcnn_rule_forward(&a, D.x + j * D.d, &Fa), nnt_rcnn_rule_forward(&b, D.x + j * D.d, &Fb);
    CHECK(Fa == Fb && !memcmp(a.cur, b.cur, nc * sizeof *a.cur) && !memcmp(a.alive, b.alive, nc));
  }
  nnt_rcnn_rule_free(&a), nnt_rcnn_rule_free(&b);
  nnt_rcnn_tm2d_free(&tm);
  undraw(&D);
}

/* A wrong rule inside the RCNN only: every write into a halting state flipped. The RCNN then
 * disagrees with the direct TM run with the right table. */
static void wrong_rule(void) {
  nnt_rcnn_tm2d tm, bad;
  nnt_rcnn_tm2d_learner(&tm, "gauss-parity"), nnt_rcnn_tm2d_learner(&bad, "gauss-parity");
  for (int q = 0; q < bad.nstates; q++)
    for (int a = -1; a <= 1; a++) {
      nnt_rcnn_tm2d_rule *r = &bad.delta[3 * q + a + 1];
      if (!bad.halting[q] && r->line >= 0 && bad.halting[r->next]) r->write = (signed char)-r->write;
    }
  data D;
  draw(&D, 4, 10, 4, 3);
  nnt_rcnn_rule_net net;
  CHECK(nnt_rcnn_rule_init(&net, &bad, D.m, D.d, 1, depth_for(&tm, &D, 1)) == NNT_OK);
  nnt_rcnn_rule_train(&net, D.X, D.y, NULL);
  int disagree = 0;
  for (int j = 0; j < D.n; j++) {
    long t;
    int64_t F;
    nnt_rcnn_rule_forward(&net, D.x + j * D.d, &F);
    disagree += F != direct(&tm, &D, j, 1, &t) * (int64_t)net.tern.scale;
  }
  CHECK_MSG(disagree == D.n, "%d/%d disagree", disagree, D.n);
  nnt_rcnn_rule_free(&net);
  nnt_rcnn_tm2d_free(&tm), nnt_rcnn_tm2d_free(&bad);
  undraw(&D);
}

/* Depth: L = max(m+1, m+d+1, t+1) works; L - 1 leaves the TM one step short; L = m leaves a row
 * unmemorised, so f != 0 during SGD. */
static void depth(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_tm2d_learner(&tm, "gauss-parity");
  data D;
  draw(&D, 3, 7, 1, 11);
  long t;
  int want = direct(&tm, &D, 0, 1, &t), L = depth_for(&tm, &D, 1);
  CHECK(L == t + 1);
  for (int k = 0; k < 2; k++) {
    nnt_rcnn_rule_net net;
    nnt_rcnn_rule_init(&net, &tm, D.m, D.d, 1, L - k);
    unsigned char fz[8];
    CHECK(nnt_rcnn_rule_train(&net, D.X, D.y, fz) == NNT_OK && nnt_rcnn_rule_w_exact(&net, D.X, D.y));
    int64_t F;
    nnt_rcnn_rule_forward(&net, D.x, &F);
    CHECK_MSG((F == want * (int64_t)net.tern.scale) == !k, "L=%d: f=%g, TM %d", L - k, (double)F / net.tern.scale, want);
    CHECK(net.last_change == (k ? L - 1 : L)); /* the grid changes up to layer t+1 */
    nnt_rcnn_rule_free(&net);
  }
  nnt_rcnn_rule_net net;
  nnt_rcnn_rule_init(&net, &tm, D.m, D.d, 1, D.m);
  unsigned char fz[8];
  int allz = 1, st = nnt_rcnn_rule_train(&net, D.X, D.y, fz);
  for (int i = 0; i <= D.m && !st; i++) allz &= fz[i];
  CHECK(st || (!allz && !nnt_rcnn_rule_w_exact(&net, D.X, D.y)));
  nnt_rcnn_rule_free(&net);
  nnt_rcnn_tm2d_free(&tm);
  undraw(&D);
}

/* The experiment: d = 8, m = 18 gauss-parity, every invariant holds and every point agrees. */
static void experiment(void) {
  nnt_rcnn_learn_cfg c;
  nnt_rcnn_learn_cfg_default(&c, NNT_PRESET_FULL);
  c.tests = 20;
  nnt_rcnn_learn_result r;
  CHECK(nnt_rcnn_learn_run(&c, &r) == NNT_OK);
  CHECK(r.w_exact && r.fzero_steps == c.m + 1 && r.values_ok && r.agree == 20 && r.correct == 20);
  CHECK(r.nuniverse == 10 + 4 * 65 && r.nvalues > 10 && r.L == r.t_max + 1 && r.K == 7);
  nnt_rcnn_learn_result_free(&r);
  c.d = 0;
  CHECK(nnt_rcnn_learn_run(&c, &r) == NNT_EINVAL);
}

/* A learner written here, not bundled, read from a file: query-bit predicts x_1, the test point's
 * first bit (sweep the bottom row left carrying column 1's cell, blank every row above by a right
 * and a left sweep, write the bit on (1,1) at the blocked U). Inside the RCNN, at rule level and
 * as the compiled network, its output must equal x_1 computed from the point itself. */
static const char query_bit[] =
    "states: start A Bp Bm Rp Rm Lp Lm Fp Fm halt\nhalt: halt\n"
    "start - -> A - N\nstart 0 -> A 0 N\nstart + -> A + N\n"
    "A - -> A 0 L Bm\nA + -> A 0 L Bp\nA 0 -> A 0 L Bp\n"
    "Bp 0 -> Rp 0 U Fp\nBp - -> Rp 0 U Fp\nBp + -> Rp 0 U Fp\nBm 0 -> Rm 0 U Fm\nBm - -> Rm 0 U Fm\nBm + -> Rm 0 U Fm\n"
    "Rp - -> Rp 0 R Lp\nRp + -> Rp 0 R Lp\nRp 0 -> Lp 0 L Lp\nRm - -> Rm 0 R Lm\nRm + -> Rm 0 R Lm\nRm 0 -> Lm 0 L Lm\n"
    "Lp 0 -> Lp 0 L Bp\nLp - -> Lp 0 L Bp\nLp + -> Lp 0 L Bp\nLm 0 -> Lm 0 L Bm\nLm - -> Lm 0 L Bm\nLm + -> Lm 0 L Bm\n"
    "Fp - -> halt + N\nFp 0 -> halt + N\nFp + -> halt + N\nFm - -> halt - N\nFm 0 -> halt - N\nFm + -> halt - N\n";

static const char *write_machine(const char *name, const char *text) {
  static char path[4][64];
  static int k;
  char *p = path[k++ % 4];
  snprintf(p, sizeof path[0], "rcnn_test_%s_%ld.tm2d", name, (long)getpid()); /* the ISA-level runs go in parallel */
  FILE *f = fopen(p, "w");
  CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
  return p;
}

static void learner_file(void) {
  const char *qb = write_machine("query_bit", query_bit);
  for (int level = 0; level <= 1; level++) {
    nnt_rcnn_learn_cfg c;
    nnt_rcnn_learn_cfg_default(&c, NNT_PRESET_QUICK);
    c.learner = qb, c.d = level ? 3 : 6, c.m = level ? 4 : 9, c.tests = 12, c.seed = 7, c.level = level, c.work = 2;
    nnt_rcnn_learn_result r;
    CHECK(nnt_rcnn_learn_run(&c, &r) == NNT_OK);
    CHECK(r.nstates == 11 && r.w_exact && r.fzero_steps == c.m + 1 && r.values_ok && r.agree == c.tests);
    if (level) CHECK(r.max_verr < 1e-9 && r.max_gerr < 1e-9 && r.w_err < 1e-12);
    /* the reference: x_1 of each test point (drawn from stream 1 of the seed, d values a point) */
    nnt_rng g;
    nnt_rng_init(&g, c.seed, 1);
    int right = 0;
    for (int j = 0; j < c.tests; j++) {
      int x1 = 0;
      for (int b = 0; b < c.d; b++) {
        int v = nnt_rng_u64(&g) >> 63 ? -1 : 1;
        if (!b) x1 = v;
      }
      right += r.pt[j].rcnn == x1 && r.pt[j].tm == x1;
    }
    CHECK_MSG(right == c.tests, "level %d: query-bit gave x_1 on %d of %d points", level, right, c.tests);
    nnt_rcnn_learn_result_free(&r);
  }
  nnt_rcnn_compile_cfg cc;
  nnt_rcnn_compile_cfg_default(&cc, NNT_PRESET_QUICK);
  cc.learner = qb;
  nnt_rcnn_compile_result cr;
  CHECK(nnt_rcnn_compile_run(&cc, &cr) == NNT_OK && cr.nstates == 11 && cr.patches > 0 && cr.max_verr < 1e-9 && cr.max_gerr < 1e-9);

  /* valid under tm2d check, but unable to run in an RCNN: each an NNT_EINVAL before any training */
  static const struct {
    const char *name, *text, *why;
  } bad[] = {
      {"unreachable_halt", "states: start loop halt\nhalt: halt\nstart - -> loop - N\nstart 0 -> loop 0 N\nstart + -> loop + N\n"
                           "loop - -> loop - L loop\nloop 0 -> loop 0 L loop\nloop + -> loop + L loop\n",
       "no halting state is reachable"},
      /* halting is reachable (on a blank) but the head starts on the test row's last cell, 1: it stays forever */
      {"stuck", "states: start stay halt\nhalt: halt\nstart - -> stay - N\nstart 0 -> stay 0 N\nstart + -> stay + N\n"
                "stay - -> stay - N\nstay + -> stay + N\nstay 0 -> halt 0 N\n",
       "has not halted after 100000000 steps"},
      {"no_readout", "states: start halt\nhalt: halt\nstart - -> halt - N\nstart 0 -> halt 0 N\nstart + -> halt + N\n",
       "breaks the readout convention"},
  };
  const char *paths[3];
  for (int i = 0; i < 3; i++) {
    const char *path = paths[i] = write_machine(bad[i].name, bad[i].text);
    nnt_rcnn_tm2d tm;
    CHECK(nnt_rcnn_tm2d_load(&tm, path) == NNT_OK); /* valid as a machine */
    nnt_rcnn_tm2d_free(&tm);
    nnt_rcnn_learn_cfg c;
    nnt_rcnn_learn_cfg_default(&c, NNT_PRESET_QUICK);
    c.learner = path, c.tests = 2;
    nnt_rcnn_learn_result r;
    CHECK(nnt_rcnn_learn_run(&c, &r) == NNT_EINVAL);
    CHECK_MSG(strstr(nnt_errmsg(), "cannot run in an RCNN") && strstr(nnt_errmsg(), bad[i].why), "%s: %s", bad[i].name, nnt_errmsg());
    cc.learner = path;
    CHECK(nnt_rcnn_compile_run(&cc, &cr) == NNT_EINVAL && strstr(nnt_errmsg(), bad[i].why));
  }
  nnt_rcnn_learn_cfg c;
  nnt_rcnn_learn_cfg_default(&c, NNT_PRESET_QUICK);
  c.learner = "no-such-learner";
  nnt_rcnn_learn_result r;
  CHECK(nnt_rcnn_learn_run(&c, &r) == NNT_EINVAL && strstr(nnt_errmsg(), "neither bundled"));
  remove(qb);
  for (int i = 0; i < 3; i++) remove(paths[i]);
}

int main(void) {
  learner_file();
  head();
  patches();
  emulation();
  full_sweep();
  wrong_rule();
  depth();
  experiment();
  TEST_MAIN_END();
}
