/* Turing machines: readers, the simulator against known busy-beaver facts, and the compiled
 * transformer against the simulator at every step (hard attention, f64 and f32; softmax). */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rng.h"
#include "nnt_test.h"
#include "nnt_tm.h"

static int run_check(const nnt_tm *tm, long T, nnt_tm_precision prec, nnt_tm_attention att, double beta) {
  nnt_tm_trace tr;
  nnt_tm_net net;
  nnt_tm_run_result res;
  if (nnt_tm_simulate(tm, T, &tr) || nnt_tm_compile(tm, T, &net)) return -1;
  nnt_tm_run_opts o = {.attention = att, .beta = beta, .precision = prec};
  int st = nnt_tm_net_run(&net, tm, &tr, &o, &res);
  if (res.mismatches) fprintf(stderr, "  first mismatch at step %ld: %s\n", res.first_mismatch, res.first_what);
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  if (st) return -1;
  if (att == NNT_TM_HARD && res.nonbinary) return -2;
  return res.steps_checked == T ? (int)res.mismatches : -3;
}

static void busy_beavers(void) {
  static const struct { const char *m; long steps, ones; } bb[] = {
      {"1RB1LB_1LA1RZ", 6, 4}, {"1RB1RZ_1LB0RC_1LC1LA", 21, 5}, {"1RB1LB_1LA0LC_1RZ1LD_1RD0RA", 107, 13}};
  for (int i = 0; i < 3; i++) {
    nnt_tm tm;
    CHECK(nnt_tm_parse_standard(bb[i].m, "bb", &tm) == NNT_OK);
    nnt_tm_trace tr;
    CHECK(nnt_tm_simulate(&tm, 200, &tr) == NNT_OK);
    CHECK_MSG(tr.halt_step == bb[i].steps, "%s halts at %ld", bb[i].m, tr.halt_step);
    CHECK_MSG(tr.ones == bb[i].ones, "%s leaves %ld ones", bb[i].m, tr.ones);
    nnt_tm_trace_free(&tr);
    /* up to halting and some steps beyond (the halted machine must stay put) */
    CHECK_MSG(run_check(&tm, bb[i].steps + 3, NNT_TM_F64, NNT_TM_HARD, 0) == 0, "%s f64", bb[i].m);
    CHECK_MSG(run_check(&tm, bb[i].steps, NNT_TM_F32, NNT_TM_HARD, 0) == 0, "%s f32", bb[i].m);
    CHECK_MSG(run_check(&tm, bb[i].steps, NNT_TM_F64, NNT_TM_SOFTMAX, 60) == 0, "%s softmax", bb[i].m);
    nnt_tm_free(&tm);
  }
}

/* The long-run simulator (growing tape, stops at the halt) against the recording one: every trace
 * row, the halting step, the non-blank count, the head's range and the final state. */
static int stream_differs(const nnt_tm *tm, long T) {
  nnt_tm_trace tr;
  nnt_tm_stream s;
  if (nnt_tm_simulate(tm, T, &tr) || nnt_tm_stream_run(tm, T, 1, 0, &s)) return 1;
  long last = tr.halt_step >= 0 ? tr.halt_step + (tr.state[tr.halt_step] < tm->k) : T;
  int bad = s.halt_step != tr.halt_step || s.ones != tr.ones || s.min_head != tr.min_head || s.max_head != tr.max_head ||
            s.state != tr.state[T] || s.head != tr.head[T] || s.nrows != last + 1;
  for (long i = 0; !bad && i < s.nrows; i++)
    bad = s.row_t[i] != i || s.row_state[i] != tr.state[i] || s.row_head[i] != tr.head[i] || s.row_sym[i] != tr.sym[i] ||
          s.row_written[i] != tr.written[i];
  if (bad) fprintf(stderr, "stream differs at T=%ld (halt %ld vs %ld, ones %ld vs %ld)\n", T, s.halt_step, tr.halt_step, s.ones, tr.ones);
  nnt_tm_stream_free(&s);
  nnt_tm_trace_free(&tr);
  return bad;
}

/* Random machines with 2..5 states, 2..4 symbols, random inputs, halting or not. */
static void random_machines(void) {
  nnt_rng r;
  nnt_rng_init(&r, 7, 0);
  int bad = 0;
  for (int it = 0; it < 60; it++) {
    nnt_tm tm;
    memset(&tm, 0, sizeof tm);
    int k = 2 + (int)(nnt_rng_u64(&r) % 4), A = 2 + (int)(nnt_rng_u64(&r) % 3);
    tm.k = k, tm.nsym = A;
    tm.delta = malloc(sizeof(nnt_tm_rule) * (size_t)(k * A));
    for (int i = 0; i < k * A; i++) {
      int u = (int)(nnt_rng_u64(&r) % 40);
      tm.delta[i].next = u == 0 ? NNT_TM_UNDEF : u == 1 ? k : u == 2 ? k + 1 : (int)(nnt_rng_u64(&r) % k);
      tm.delta[i].write = (int)(nnt_rng_u64(&r) % A);
      tm.delta[i].move = (int)(nnt_rng_u64(&r) % 5) == 0 ? 0 : (nnt_rng_u64(&r) & 1) ? 1 : -1;
    }
    tm.m = (int)(nnt_rng_u64(&r) % 6);
    tm.input = malloc(sizeof(int) * 8);
    for (int i = 0; i < tm.m; i++) tm.input[i] = (int)(nnt_rng_u64(&r) % A);
    bad += stream_differs(&tm, 1 + (long)(nnt_rng_u64(&r) % 6000));
    long T = 1 + (long)(nnt_rng_u64(&r) % 120);
    int e = run_check(&tm, T, (it & 1) ? NNT_TM_F32 : NNT_TM_F64, NNT_TM_HARD, 0);
    if (e) {
      char buf[256];
      nnt_tm_format_standard(&tm, buf, sizeof buf);
      fprintf(stderr, "random machine %s m=%d T=%ld: %d\n", buf, tm.m, T, e);
      bad++;
    }
    nnt_tm_free(&tm);
  }
  CHECK(bad == 0);
}

static void parse_errors(void) {
  nnt_tm tm;
  CHECK(nnt_tm_parse_standard("1RB1LB_1LA1RC", "m", &tm) == NNT_EFORMAT);
  CHECK(strstr(nnt_errmsg(), "col 13") && strstr(nnt_errmsg(), "undefined state"));
  CHECK(nnt_tm_parse_standard("1RB2LB_1LA1RZ", "m", &tm) == NNT_EFORMAT);
  CHECK(strstr(nnt_errmsg(), "col 4") && strstr(nnt_errmsg(), "undefined symbol"));
  CHECK(nnt_tm_parse_standard("1RB1LB_1LA", "m", &tm) == NNT_EFORMAT);
  CHECK(nnt_tm_parse_standard("1RB1XB_1LA1RZ", "m", &tm) == NNT_EFORMAT);
  CHECK(strstr(nnt_errmsg(), "col 5"));
  CHECK(nnt_tm_parse_standard("1RB1LB_1LA1RZ_", "m", &tm) == NNT_EFORMAT);
  CHECK(nnt_tm_parse_standard("", "m", &tm) == NNT_EFORMAT);
  CHECK(nnt_tm_parse_standard("1RB---_1LA1RZ", "m", &tm) == NNT_OK);
  CHECK(tm.delta[1].next == NNT_TM_UNDEF);
  nnt_tm_free(&tm);
  const char *good = "# flip\nstates: a b\nsymbols: _ 0 1\ninput: 0 1 1\na 0 -> 1 R a\na 1 -> 0 R a\na _ -> _ L b\n"
                     "b 0 -> 0 S halt\nb 1 -> 1 S reject\n";
  CHECK(nnt_tm_parse_text(good, "f", &tm) == NNT_OK);
  CHECK(tm.k == 2 && tm.nsym == 3 && tm.m == 3 && tm.input[2] == 2);
  CHECK(tm.delta[0 * 3 + 1].write == 2 && tm.delta[1 * 3 + 1].next == 2 && tm.delta[1 * 3 + 2].next == 3);
  nnt_tm_trace tr;
  nnt_tm_simulate(&tm, 10, &tr);
  CHECK(tr.halt_step == 5 && tr.state[5] == 2); /* 011 -> 100, ends on the last cell's 0 */
  nnt_tm_trace_free(&tr);
  CHECK(run_check(&tm, 10, NNT_TM_F64, NNT_TM_HARD, 0) == 0);
  nnt_tm_free(&tm);
  CHECK(nnt_tm_parse_text("states: a\nsymbols: _ 1\na 2 -> 1 R a\n", "f", &tm) == NNT_EFORMAT);
  CHECK(strstr(nnt_errmsg(), "f:3:3: undefined symbol '2'"));
  CHECK(nnt_tm_parse_text("states: a\nsymbols: _ 1\na 1 -> 1 R q\n", "f", &tm) == NNT_EFORMAT);
  CHECK(strstr(nnt_errmsg(), "f:3:12: undefined state 'q'"));
  CHECK(nnt_tm_parse_text("states: a\nsymbols: _ 1\na 1 -> 1 R a\na 1 -> 1 L a\n", "f", &tm) == NNT_EFORMAT);
  CHECK(nnt_tm_parse_text("states: a\nsymbols: _ 1\na 1 -> 1 X a\n", "f", &tm) == NNT_EFORMAT);
  CHECK(nnt_tm_parse_text("symbols: _ 1\n", "f", &tm) == NNT_EFORMAT);
}

/* The check is not vacuous: a compiled net with one transition weight changed must mismatch. */
static void detects_corruption(void) {
  nnt_tm tm;
  nnt_tm_parse_standard("1RB1LB_1LA0LC_1RZ1LD_1RD0RA", "bb4", &tm);
  nnt_tm_trace tr;
  nnt_tm_net net;
  nnt_tm_run_result res;
  nnt_tm_simulate(&tm, 107, &tr);
  nnt_tm_compile(&tm, 107, &net);
  nnt_tm_run_opts o = {.attention = NNT_TM_HARD, .precision = NNT_TM_F64};
  nnt_tm_net_run(&net, &tm, &tr, &o, &res);
  CHECK(res.mismatches == 0 && res.steps_checked == 107 && !res.nonbinary && res.output_sign == 1);
  /* the null key of the "written before?" attention: make it win every time */
  nnt_tm_layer *L = &net.layers[2];
  L->self.K0[L->self.dk - 1] += 2;
  nnt_tm_net_run(&net, &tm, &tr, &o, &res);
  CHECK(res.mismatches > 0);
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  nnt_tm_free(&tm);
}

int main(void) {
  detects_corruption();
  parse_errors();
  busy_beavers();
  random_machines();
  TEST_MAIN_END();
}
