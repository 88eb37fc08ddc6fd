/* 2-D Turing machines: the bundled learners against their definitions computed directly, the text
 * format round trip, collision sensing at all four edges, the readout check, and every validator
 * error with its line. */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_tm2d.h"
#include "nnt_rng.h"
#include "nnt_test.h"

/* The learners' definitions, straight from the dataset (not from the tape). */
static int reference(const char *learner, int m, int d, const signed char *X, const signed char *y, const signed char *x) {
  if (!strcmp(learner, "first-label")) return y[0];
  if (!strcmp(learner, "dictator")) return d ? y[0] * X[0] * x[0] : y[0];
  int sum = 0;
  for (int i = 0; i < m; i++) sum += y[i];
  return sum >= 0 ? 1 : -1;
}

/* The machine written out and parsed back. */
static int reparse(const nnt_rcnn_tm2d *tm, nnt_rcnn_tm2d *out) {
  char *buf;
  size_t len;
  FILE *f = open_memstream(&buf, &len);
  nnt_rcnn_tm2d_write(tm, f);
  fclose(f);
  int st = nnt_rcnn_tm2d_parse(out, buf, "export");
  free(buf);
  return st;
}

static void learners(void) {
  nnt_rng g;
  nnt_rng_init(&g, 7, 0);
  for (int l = 0; l < 3; l++) { /* gauss-parity needs parity data: gauss() */
    const char *name = nnt_rcnn_tm2d_learner_names[l];
    nnt_rcnn_tm2d tm, back;
    CHECK(nnt_rcnn_tm2d_learner(&tm, name) == NNT_OK);
    CHECK(reparse(&tm, &back) == NNT_OK);
    int right = 0, total = 0, same = 1;
    for (int trial = 0; trial < 300; trial++) {
      int m = 1 + (int)nnt_rng_below(&g, 9), d = (int)nnt_rng_below(&g, 7), work = 1 + (int)nnt_rng_below(&g, 3);
      signed char X[9 * 6], y[9], x[6];
      for (int i = 0; i < m * d; i++) X[i] = nnt_rng_below(&g, 2) ? 1 : -1;
      for (int i = 0; i < m; i++) y[i] = nnt_rng_below(&g, 2) ? 1 : -1;
      for (int b = 0; b < d; b++) x[b] = nnt_rng_below(&g, 2) ? 1 : -1;
      nnt_rcnn_tm2d_tape t1, t2;
      nnt_rcnn_tm2d_result r1, r2;
      CHECK(nnt_rcnn_tm2d_tape_xor(&t1, m, d, work, X, y, x) == NNT_OK);
      CHECK(nnt_rcnn_tm2d_tape_xor(&t2, m, d, work, X, y, x) == NNT_OK);
      CHECK(nnt_rcnn_tm2d_run(&tm, &t1, 100000, &r1) == NNT_OK);
      CHECK(nnt_rcnn_tm2d_run(&back, &t2, 100000, &r2) == NNT_OK);
      int want = reference(name, m, d, X, y, x);
      CHECK_MSG(r1.readout_ok && r1.output == want, "%s m=%d d=%d: output %d (%s), want %d", name, m, d, r1.output,
                r1.why, want);
      right += r1.readout_ok && r1.output == want, total++;
      same &= r1.steps == r2.steps && r1.output == r2.output && !memcmp(t1.cell, t2.cell, (size_t)(m + 1) * (d + 1 + work));
      CHECK(r1.collisions > 0); /* every learner finds row 0 and column 0 by a blocked move */
      nnt_rcnn_tm2d_tape_free(&t1), nnt_rcnn_tm2d_tape_free(&t2);
    }
    CHECK_MSG(same, "%s: the exported machine runs differently", name);
    printf("%s: %d states, %d/%d right\n", name, tm.nstates, right, total);
    nnt_rcnn_tm2d_free(&tm), nnt_rcnn_tm2d_free(&back);
  }
  nnt_rcnn_tm2d tm;
  CHECK(nnt_rcnn_tm2d_learner(&tm, "gauss") == NNT_EINVAL);
}

/* GF(2) elimination on bit masks (bit b of u: x_b = -1), written independently of the machine:
 * 1 and the label bit in *label when x lies in the span of the training inputs, else 0. */
static int gf2_predict(int m, int d, const signed char *X, const signed char *y, const signed char *x, int *label) {
  uint64_t basis[64] = {0};
  int blab[64] = {0};
  for (int i = 0; i < m; i++) {
    uint64_t u = 0;
    int l = y[i] < 0;
    for (int b = 0; b < d; b++) u |= (uint64_t)(X[i * d + b] < 0) << b;
    for (int b = 0; b < d && u; b++)
      if (u >> b & 1) {
        if (!basis[b]) {
          basis[b] = u, blab[b] = l;
          break;
        }
        u ^= basis[b], l ^= blab[b];
      }
  }
  uint64_t v = 0;
  int l = 0;
  for (int b = 0; b < d; b++) v |= (uint64_t)(x[b] < 0) << b;
  for (int b = 0; b < d && v; b++)
    if (v >> b & 1) {
      if (!basis[b]) return 0;
      v ^= basis[b], l ^= blab[b];
    }
  *label = l ? -1 : 1;
  return 1;
}

static void gauss(void) {
  nnt_rcnn_tm2d tm;
  CHECK(nnt_rcnn_tm2d_learner(&tm, "gauss-parity") == NNT_OK);
  nnt_rng g;
  nnt_rng_init(&g, 11, 0);
  int agree = 0, determined = 0, total = 0, readout = 1;
  long t8 = 0;
  for (int trial = 0; trial < 400; trial++) {
    int d = 1 + (int)nnt_rng_below(&g, 8), m = 1 + (int)nnt_rng_below(&g, 2 * d + 4), work = 1 + (int)nnt_rng_below(&g, 2);
    signed char X[20 * 8], y[20], x[8];
    uint64_t secret;
    nnt_rcnn_tm2d_parity(d, m, 1000 + trial, X, y, x, &secret);
    nnt_rcnn_tm2d_tape t;
    nnt_rcnn_tm2d_result r;
    CHECK(nnt_rcnn_tm2d_tape_xor(&t, m, d, work, X, y, x) == NNT_OK);
    CHECK(nnt_rcnn_tm2d_run(&tm, &t, 1000000, &r) == NNT_OK);
    readout &= r.readout_ok;
    int want, truth = 1;
    for (int b = 0; b < d; b++) truth *= (secret >> b & 1) ? x[b] : 1;
    if (gf2_predict(m, d, X, y, x, &want)) {
      CHECK(want == truth);
      CHECK_MSG(r.output == want, "gauss-parity d=%d m=%d seed %d: output %d, GF(2) %d", d, m, 1000 + trial, r.output, want);
      agree += r.output == want, determined++;
    }
    total++;
    nnt_rcnn_tm2d_tape_free(&t);
  }
  CHECK(readout);
  CHECK(determined > total / 2);
  /* the spec's scale (§4.10: 4,682 steps at d = 8, m = 16, max over trials) */
  for (uint64_t seed = 1; seed <= 5; seed++) {
    signed char X[16 * 8], y[16], x[8];
    nnt_rcnn_tm2d_parity(8, 16, seed, X, y, x, NULL);
    nnt_rcnn_tm2d_tape t;
    nnt_rcnn_tm2d_result r;
    CHECK(nnt_rcnn_tm2d_tape_xor(&t, 16, 8, 1, X, y, x) == NNT_OK);
    CHECK(nnt_rcnn_tm2d_run(&tm, &t, 1000000, &r) == NNT_OK && r.readout_ok);
    if (r.steps > t8) t8 = r.steps;
    nnt_rcnn_tm2d_tape_free(&t);
  }
  CHECK(t8 > 1000 && t8 < 20000);
  printf("gauss-parity: %d states, %d/%d determined predictions equal GF(2) elimination (%d cases); d=8 m=16: t=%ld\n",
         tm.nstates, agree, determined, total, t8);
  nnt_rcnn_tm2d_free(&tm);
}

/* A walker built with the builder: up to the top edge, left to the left edge, right to the right
 * edge of the work region, down to the bottom edge, each found by a blocked move; then back to
 * (0,0) via the same sensing and write + there. */
static void collisions(void) {
  nnt_rcnn_tm2d tm;
  nnt_rcnn_tm2d_init(&tm);
  int S = nnt_rcnn_tm2d_state(&tm, "start"), Up = nnt_rcnn_tm2d_state(&tm, "up"), Lt = nnt_rcnn_tm2d_state(&tm, "left"),
      Rt = nnt_rcnn_tm2d_state(&tm, "right"), Dn = nnt_rcnn_tm2d_state(&tm, "down"),
      Up2 = nnt_rcnn_tm2d_state(&tm, "up2"), Lt2 = nnt_rcnn_tm2d_state(&tm, "left2"),
      Mk = nnt_rcnn_tm2d_state(&tm, "mark"), H = nnt_rcnn_tm2d_state(&tm, "halt");
  nnt_rcnn_tm2d_halt(&tm, H);
  const int q[] = {Up, Lt, Rt, Dn, Up2, Lt2}, mv[] = {NNT_RCNN_TM2D_U, NNT_RCNN_TM2D_L, NNT_RCNN_TM2D_R,
                                                      NNT_RCNN_TM2D_D, NNT_RCNN_TM2D_U, NNT_RCNN_TM2D_L};
  for (int a = -1; a <= 1; a++) {
    nnt_rcnn_tm2d_rule_set(&tm, S, a, Up, a, NNT_RCNN_TM2D_N, Up);
    for (int i = 0; i < 6; i++) nnt_rcnn_tm2d_rule_set(&tm, q[i], a, q[i], 0, mv[i], i < 5 ? q[i + 1] : Mk);
    nnt_rcnn_tm2d_rule_set(&tm, Mk, a, H, 1, NNT_RCNN_TM2D_N, H);
  }
  CHECK(nnt_rcnn_tm2d_check(&tm, "walker") == NNT_OK);
  nnt_rcnn_tm2d_tape t;
  /* m = 2, d = 2, 5 columns; the cells the walk does not pass are blank already */
  CHECK(nnt_rcnn_tm2d_tape_parse(&t, "+-+/00+/00-", 2) == NNT_OK);
  nnt_rcnn_tm2d_result r;
  CHECK(nnt_rcnn_tm2d_run(&tm, &t, 1000, &r) == NNT_OK);
  /* 1 no-op; up 2+1 blocked; left 2+1; right 4+1; down 2+1; up 2+1; left 4+1; mark 1 */
  CHECK_MSG(r.steps == 1 + 3 + 3 + 5 + 3 + 3 + 5 + 1, "steps %ld", r.steps);
  CHECK(r.collisions == 6);
  CHECK(r.halted && r.row == 0 && r.col == 0);
  CHECK_MSG(r.readout_ok && r.output == 1, "%s", r.why);
  nnt_rcnn_tm2d_tape_free(&t);
  /* Without collision sensing (q_b = q, the head just stays) the walker never leaves the top edge. */
  for (int a = -1; a <= 1; a++) nnt_rcnn_tm2d_rule_set(&tm, Up, a, Up, 0, NNT_RCNN_TM2D_U, Up);
  CHECK(nnt_rcnn_tm2d_tape_parse(&t, "+-+/-++/++-", 2) == NNT_OK);
  CHECK(nnt_rcnn_tm2d_run(&tm, &t, 1000, &r) == NNT_OK);
  CHECK(!r.halted && !r.readout_ok && r.steps == 1000 && !strcmp(r.why, "did not halt"));
  nnt_rcnn_tm2d_tape_free(&t);
  nnt_rcnn_tm2d_free(&tm);
}

/* Halting with the answer in place but something else wrong. */
static void readout(void) {
  static const struct { const char *tm, *tape, *why; } cases[] = {
      {"states: s h\nhalt: h\ns - -> h - N\ns 0 -> h 0 N\ns + -> h + N\n", "+0/0+", "head parked on main cell (1,1)"},
      {"states: s a h\nhalt: h\ns - -> a - N\ns 0 -> a 0 N\ns + -> a + N\n"
       "a - -> h 0 R h\na 0 -> h 0 R h\na + -> h 0 R h\n", "+0/0+", ""},
      {"states: s a h\nhalt: h\ns - -> a - N\ns 0 -> a 0 N\ns + -> a + N\n"
       "a - -> h - R h\na 0 -> h 0 R h\na + -> h + R h\n", "+0/0+", "main cell (1,1) is not blank"},
      {"states: s a h\nhalt: h\ns - -> a - N\ns 0 -> a 0 N\ns + -> a + N\n"
       "a - -> h 0 R h\na 0 -> h 0 R h\na + -> h 0 R h\n", "00/0+", "cell (0,0) is blank"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    nnt_rcnn_tm2d tm;
    nnt_rcnn_tm2d_tape t;
    nnt_rcnn_tm2d_result r;
    CHECK(nnt_rcnn_tm2d_parse(&tm, cases[i].tm, "case") == NNT_OK);
    CHECK(nnt_rcnn_tm2d_tape_parse(&t, cases[i].tape, 1) == NNT_OK);
    CHECK(nnt_rcnn_tm2d_run(&tm, &t, 100, &r) == NNT_OK);
    CHECK_MSG(!strcmp(r.why, cases[i].why) && r.readout_ok == !cases[i].why[0], "case %zu: '%s'", i, r.why);
    CHECK(r.output == (r.readout_ok ? 1 : 0));
    nnt_rcnn_tm2d_tape_free(&t), nnt_rcnn_tm2d_free(&tm);
  }
}

#define OK3(q, n) q " - -> " n " - N\n" q " 0 -> " n " 0 N\n" q " + -> " n " + N\n"
static void validator(void) {
  static const struct { const char *text, *msg; } cases[] = {
      {"states: s h\nhalt: h\n" OK3("s", "h") "s + -> x + N\n", "f:6: unknown state 'x' (not in a 'states:' line)"},
      {"states: s a h\nhalt: h\n" OK3("s", "a") "a - -> h - N\na + -> h + N\n", "f:1: missing transition for state 'a' on symbol '0'"},
      {"states: s a h\nhalt: h\n" OK3("s", "a") "a - -> h - X a\n", "f:6: bad move 'X' (U, D, L, R or N)"},
      {"states: s h\nhalt: h\n" OK3("s", "h") "h + -> s + N\n", "f:6: halting state 'h' must be absorbing: h + -> h + N"},
      {"states: s h\nhalt: h\ns - -> h - N\ns 0 -> h + N\n", "f:4: the first step must be a no-op: s 0 -> Q 0 N"},
      {"states: s h\nhalt: h\ns - -> h - U s\n", "f:3: the first step must be a no-op: s - -> Q - N"},
      {"states: s h\nhalt: h\ns * -> h - N\n", "f:3: bad symbol '*' (-, 0 or +)"},
      {"states: s h\nhalt: h\n\n# c\ns - h - N\n", "f:5: expected 'Q A -> Q2 A2 MOVE [Q_BLOCKED]'"},
      {"states: s h\nhalt: h\n" OK3("s", "h") "s - -> h - N\n", "f:6: second transition for state 's' on '-' (first on line 3)"},
      {"states: s a h\nhalt: h\n" OK3("s", "a") "a - -> h - R\n", "f:6: move R needs a blocked state (Q_BLOCKED)"},
      {"states: s h\nhalt: z\n", "f:2: unknown state 'z' (not in a 'states:' line)"},
      {"states: s h s\n", "f:1: state 's' declared twice (first on line 1)"},
      {"states: 9s\n", "f:1: bad state name '9s'"},
      {"states: s\n" OK3("s", "s"), "f: no halting state (a 'halt:' line marks them)"},
      {"# nothing\n", "f: no states (a 'states:' line declares them)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    nnt_rcnn_tm2d tm;
    int st = nnt_rcnn_tm2d_parse(&tm, cases[i].text, "f");
    CHECK_MSG(st == NNT_EFORMAT && !strcmp(nnt_errmsg(), cases[i].msg), "case %zu: got '%s'", i, nnt_errmsg());
  }
  nnt_rcnn_tm2d tm;
  CHECK(nnt_rcnn_tm2d_parse(&tm, "states: s h  # start first\nhalt: h\n" OK3("s", "h"), "f") == NNT_OK);
  CHECK(tm.nstates == 2 && tm.halting[1] && !tm.halting[0]);
  nnt_rcnn_tm2d_free(&tm);
}

/* The generator's labels against the secret, and the XOR tape against its definition. */
static void data(void) {
  enum { d = 10, m = 20 };
  signed char X[m * d], y[m], x[d];
  uint64_t s;
  nnt_rcnn_tm2d_parity(d, m, 3, X, y, x, &s);
  int ok = 1;
  for (int i = 0; i < m; i++) {
    int lab = 1;
    for (int b = 0; b < d; b++) lab *= (s >> b & 1) ? X[i * d + b] : 1;
    ok &= lab == y[i];
  }
  CHECK(ok && s < (1u << d));
  nnt_rcnn_tm2d_tape t;
  CHECK(nnt_rcnn_tm2d_tape_xor(&t, m, d, 2, X, y, x) == NNT_OK);
  int w = d + 3;
  ok = t.cell[m * w + d] == 1 && t.cell[m * w + d + 1] == 0;
  for (int i = 0; i < m; i++) {
    ok &= t.cell[i * w + d] == y[i] && t.cell[i * w + d + 2] == 0;
    for (int b = 0; b < d; b++) ok &= t.cell[i * w + b] == y[i] * X[i * d + b] * x[b] && t.cell[m * w + b] == x[b];
  }
  CHECK(ok);
  nnt_rcnn_tm2d_tape_free(&t);
  CHECK(nnt_rcnn_tm2d_tape_parse(&t, "+-/+", 1) == NNT_EINVAL);
  CHECK(nnt_rcnn_tm2d_tape_parse(&t, "+x", 1) == NNT_EINVAL);
}

int main(void) {
  learners();
  gauss();
  collisions();
  readout();
  validator();
  data();
  TEST_MAIN_END();
}
