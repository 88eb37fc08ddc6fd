/* Seed 001's experiment runs: the attention score against matrices whose answer is known, the
 * sweep's statistics, validation before any work, and thread-count independence of a sweep. */
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_qstr.h"
#include "nnt_test.h"

static void score_known_matrices(void) {
  enum { d = 3, de = 4, D = d + 2 * de };
  double M[D * D];
  /* exactly the eq. (A.2) template: identity from the query's code of t_i to the key's own code */
  memset(M, 0, sizeof M);
  for (int a = 0; a < de; a++) M[(d + de + a) * D + d + a] = 2.5;
  nnt_qstr_attn_score s = nnt_qstr_attention_score(M, D, d, de);
  CHECK_CLOSE(s.block_share, 1, 1e-15);
  CHECK_CLOSE(s.cosine, 1, 1e-15);
  CHECK(isinf(s.diag_ratio));
  CHECK_CLOSE(s.random_share, (double)de * de / (D * D), 1e-15);
  /* the template's transpose lies outside the block */
  memset(M, 0, sizeof M);
  for (int a = 0; a < de; a++) M[(d + a) * D + d + de + a] = 1;
  s = nnt_qstr_attention_score(M, D, d, de);
  CHECK(s.block_share == 0 && s.cosine == 0);
  /* constant |entries|: block share = the block's share of the entries, diagonal ratio 1 */
  for (int i = 0; i < D * D; i++) M[i] = (i % 7) ? 1 : -1;
  s = nnt_qstr_attention_score(M, D, d, de);
  CHECK_CLOSE(s.block_share, s.random_share, 1e-12);
  CHECK_CLOSE(s.diag_ratio, 1, 1e-12);
}

static void sweep_stats_and_checks(void) {
  nnt_qstr_sweep_cfg s;
  nnt_qstr_sweep_cfg_default(&s, NNT_PRESET_QUICK);
  s.reps = 4;
  nnt_qstr_point pts[8] = {0};
  long v[8] = {50, 10, 40, 20, 7, 7, 9, 3};
  for (int i = 0; i < 8; i++) pts[i].r.samples = v[i], pts[i].r.censored = i == 2;
  nnt_qstr_sweep_result r = {.n = 8, .pts = pts};
  double med, lo, hi;
  int cens;
  nnt_qstr_sweep_stats(&s, &r, 0, &med, &lo, &hi, &cens);
  CHECK(med == 30 && lo == 10 && hi == 50 && cens == 1);
  nnt_qstr_sweep_stats(&s, &r, 1, &med, &lo, &hi, &cens);
  CHECK(med == 7 && lo == 3 && hi == 9 && cens == 0);
  /* counts near LONG_MAX (as a samples.csv may hold, found by fuzz/fuzz_cli_qstrplot): the median
   * of two is their mean, not an overflowed sum */
  pts[4].r.samples = LONG_MAX, pts[5].r.samples = LONG_MAX, pts[6].r.samples = LONG_MAX, pts[7].r.samples = 0;
  nnt_qstr_sweep_stats(&s, &r, 1, &med, &lo, &hi, &cens);
  CHECK(med == (double)LONG_MAX && lo == 0 && hi == (double)LONG_MAX);

  s.nN = 2, s.Ns[0] = 4, s.Ns[1] = 4;
  CHECK(nnt_qstr_sweep_check(&s) == NNT_EINVAL && strstr(nnt_errmsg(), "twice"));
  s.Ns[1] = 1;
  CHECK(nnt_qstr_sweep_check(&s) == NNT_EINVAL);
  s.Ns[1] = 6, s.task.q = 5;
  CHECK(nnt_qstr_sweep_check(&s) == NNT_EINVAL); /* q > N = 4 */

  nnt_qstr_heads_cfg h;
  nnt_qstr_heads_cfg_default(&h, NNT_PRESET_QUICK);
  h.nH = 2, h.Hs[0] = h.Hs[1] = 2;
  nnt_qstr_heads_result hr;
  CHECK(nnt_qstr_heads_run(&h, &hr) == NNT_EINVAL);
}

static void sweep_thread_independent(void) {
  nnt_qstr_sweep_cfg s;
  nnt_qstr_sweep_cfg_default(&s, NNT_PRESET_QUICK);
  s.nN = 2, s.Ns[0] = 3, s.Ns[1] = 5, s.reps = 2, s.train.n_test = 200, s.train.max_samples = 6400;
  nnt_qstr_sweep_result a, b;
  s.threads = 1;
  CHECK(nnt_qstr_sweep_run(&s, &a) == NNT_OK);
  s.threads = 2;
  CHECK(nnt_qstr_sweep_run(&s, &b) == NNT_OK);
  CHECK(a.n == 4 && b.n == 4 && a.computed == 4);
  for (int i = 0; i < a.n; i++) {
    CHECK(a.pts[i].N == s.Ns[i / 2] && a.pts[i].rep == i % 2);
    CHECK(a.pts[i].r.samples == b.pts[i].r.samples && a.pts[i].r.steps == b.pts[i].r.steps);
    CHECK(memcmp(&a.pts[i].r.final_mse, &b.pts[i].r.final_mse, sizeof(double)) == 0);
  }
  /* repetitions draw different streams */
  CHECK(memcmp(&a.pts[0].r.final_mse, &a.pts[1].r.final_mse, sizeof(double)) != 0);
  nnt_qstr_sweep_result_free(&a);
  nnt_qstr_sweep_result_free(&b);
}

int main(void) {
  score_known_matrices();
  sweep_stats_and_checks();
  sweep_thread_independent();
  TEST_MAIN_END();
}
