/* The tm experiments from their configs: T settled from the halting step and capped by the preset,
 * the compiled transformer exact under hard attention, and the softmax beta threshold found by the
 * search checked by runs just above and below it. */
#include "nnt_error.h"
#include "nnt_test.h"
#include "nnt_tm.h"

int main(void) {
  nnt_tm_cfg cfg;
  nnt_tm_cfg_default(&cfg, 0);
  cfg.machine = "1RB1LB_1LA1RZ"; /* BB(2): halts after 6 steps with 4 ones */
  nnt_tm_sim_result s;
  CHECK(nnt_tm_sim_run(&cfg, &s) == 0); /* without steps: to the halt */
  CHECK(s.T == NNT_TM_RUN_DEFAULT_MAX && s.run.halt_step == 6 && s.run.ones == 4 && s.run.nrows == 0);
  nnt_tm_sim_result_free(&s);
  cfg.machine = "1RB0LA_1LA0RB", cfg.steps = 1000000; /* never halts */
  CHECK(nnt_tm_sim_run(&cfg, &s) == 0 && s.run.halt_step == -1);
  nnt_tm_sim_result_free(&s);
  nnt_tm_cfg_default(&cfg, 1);
  cfg.machine = "1RB0LA_1LA0RB", cfg.steps = 5000;
  CHECK(nnt_tm_sim_run(&cfg, &s) == 0);
  CHECK(s.T == 200 && s.run.halt_step == -1); /* the quick preset caps T */
  nnt_tm_sim_result_free(&s);
  cfg.steps = 100, cfg.trace_every = 30; /* rows 0, 30, 60, 90 and the last */
  CHECK(nnt_tm_sim_run(&cfg, &s) == 0 && s.run.nrows == 5 && s.run.row_t[3] == 90 && s.run.row_t[4] == 100);
  nnt_tm_sim_result_free(&s);
  cfg.steps = 200, cfg.trace_every = 1;
  cfg.max_steps = 0, cfg.steps = 100000000; /* 10^8 rows: refused before any work */
  CHECK(nnt_tm_sim_run(&cfg, &s) == NNT_EINVAL);

  nnt_tm_cfg_default(&cfg, 0);
  cfg.machine = "1RB1RZ_1LB0RC_1LC1LA", cfg.beta_search = 1; /* BB(3): 21 steps */
  nnt_tm_compile_result c;
  CHECK(nnt_tm_compile_run(&cfg, &c) == 0);
  CHECK(c.T == 21 && c.halt_step == 21 && c.r.steps_checked == 21 && c.r.mismatches == 0 && !c.r.nonbinary);
  CHECK(c.r.output_sign == 1 && c.beta64 > 0 && c.beta32 > 0 && c.not_monotone == 0);
  double beta = c.beta64;
  nnt_tm_compile_result_free(&c);
  cfg.beta_search = 0, cfg.attention = NNT_TM_SOFTMAX;
  cfg.beta = beta;
  CHECK(nnt_tm_compile_run(&cfg, &c) == 0 && c.r.mismatches == 0);
  nnt_tm_compile_result_free(&c);
  cfg.beta = beta * 0.99; /* below the threshold (found to 0.1%): some step is wrong */
  CHECK(nnt_tm_compile_run(&cfg, &c) == 0 && c.r.mismatches > 0);
  nnt_tm_compile_result_free(&c);
  cfg.beta = 0;
  CHECK(nnt_tm_compile_run(&cfg, &c) == NNT_EINVAL); /* softmax needs beta */
  TEST_MAIN_END();
}
