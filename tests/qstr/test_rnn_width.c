/* qstr rnn-width (Prop. 8 beside training): the growth decision on hand-written H_min lists in both
 * directions, r_min against the bound's definition, and the options refused before any work. The
 * training itself runs in the CLI tests (tests/qstr/tests.cmake: the quick preset and the --flat
 * control that must fail). */
#include <string.h>

#include "nnt_error.h"
#include "nnt_qstr.h"
#include "nnt_test.h"

static void decision(void) {
  /* grows: non-decreasing and larger at the last N; 0 = none reached (above every width tried) */
  CHECK(nnt_qstr_rnn_width_grows(3, (const int[]){8, 16, 32}));
  CHECK(nnt_qstr_rnn_width_grows(3, (const int[]){8, 8, 16}));
  CHECK(nnt_qstr_rnn_width_grows(3, (const int[]){8, 16, 0}));
  CHECK(nnt_qstr_rnn_width_grows(2, (const int[]){2, 0}));
  /* does not: flat, a decrease anywhere, the first N unreached, nothing reached, one N */
  CHECK(!nnt_qstr_rnn_width_grows(3, (const int[]){8, 8, 8}));
  CHECK(!nnt_qstr_rnn_width_grows(3, (const int[]){8, 32, 16}));
  CHECK(!nnt_qstr_rnn_width_grows(3, (const int[]){16, 8, 32}));
  CHECK(!nnt_qstr_rnn_width_grows(3, (const int[]){8, 0, 16}));
  CHECK(!nnt_qstr_rnn_width_grows(2, (const int[]){0, 16}));
  CHECK(!nnt_qstr_rnn_width_grows(3, (const int[]){0, 0, 0}));
  CHECK(!nnt_qstr_rnn_width_grows(1, (const int[]){8}));
}

static void bound_beside(void) {
  /* r_min(N) at 0.1 from (N-1-r)(N-r)/N^2 by hand: N = 4: r = 2 gives 2/16 > 0.1, r = 3 gives 0;
   * N = 8: r = 5 gives 6/64 <= 0.1 < 12/64; N = 16: r = 11 gives 20/256 <= 0.1 < 30/256 */
  CHECK(nnt_qstr_rnn_min_width(4, 0.1) == 3 && nnt_qstr_rnn_min_width(8, 0.1) == 5 && nnt_qstr_rnn_min_width(16, 0.1) == 11);
}

static void refused(void) {
  nnt_qstr_rnn_width_cfg c, d;
  nnt_qstr_rnn_width_cfg_default(&c, NNT_PRESET_QUICK);
  CHECK(nnt_qstr_rnn_width_check(&c) == NNT_OK);
  nnt_qstr_rnn_width_cfg_default(&c, NNT_PRESET_FULL);
  CHECK(nnt_qstr_rnn_width_check(&c) == NNT_OK);
  nnt_qstr_rnn_width_result r;
  d = c, d.Ns[1] = d.Ns[0];
  CHECK(nnt_qstr_rnn_width_check(&d) == NNT_EINVAL && strstr(nnt_errmsg(), "--N must increase"));
  d = c, d.Hs[2] = 1;
  CHECK(nnt_qstr_rnn_width_check(&d) == NNT_EINVAL && strstr(nnt_errmsg(), "--H must increase"));
  d = c, d.nN = 1;
  CHECK(nnt_qstr_rnn_width_run(&d, &r) == NNT_EINVAL);
  d = c, d.threshold = 1;
  CHECK(nnt_qstr_rnn_width_run(&d, &r) == NNT_EINVAL && strstr(nnt_errmsg(), "--threshold"));
  d = c, d.budget = 10;
  CHECK(nnt_qstr_rnn_width_run(&d, &r) == NNT_EINVAL && strstr(nnt_errmsg(), "below one batch"));
}

int main(void) {
  decision();
  bound_beside();
  refused();
  TEST_MAIN_END();
}
