/* Acceptance 17 (reduced: 384 prompts, 4-layer targets): the trivial baselines on the paper's task
 * distribution (d = 20, width 200, He-scaled ReLU targets, x ~ N(-2·1, I)) reach the spec's §7.10
 * values — the prompt mean alone scores ≈ 0.85. The full table (6400 prompts, N = 3, 4, 6) is in
 * docs/icl.md. */
#include "../nnt_test.h"
#include "nnt_error.h"
#include "nnt_icl_eval.h"

int main(void) {
  nnt_icl_eval_cfg c;
  nnt_icl_eval_cfg_default(&c, NNT_PRESET_FULL);
  nnt_icl_task_default(&c.task, 20, 76, 4);
  c.task.width = 200;
  c.nmix = 2, c.mix[0] = 0, c.mix[1] = 0.5;
  c.prompts = 384, c.batch = 64, c.direct = 0, c.threads = 1;
  nnt_icl_eval_result r;
  CHECK(nnt_icl_eval_run(&c, &r) == NNT_OK);
  double mean1 = r.pooled[nnt_icl_eval_at(&r, 0, NNT_ICL_PRED_MEAN, 1)], late = 0;
  for (int k = 20; k < 76; k++) late += r.pooled[nnt_icl_eval_at(&r, 0, NNT_ICL_PRED_MEAN, k)] / 56;
  double ridge75 = r.pooled[nnt_icl_eval_at(&r, 0, NNT_ICL_PRED_RIDGE, 75)];
  double mix_mean = r.pooled[nnt_icl_eval_at(&r, 1, NNT_ICL_PRED_MEAN, 75)];
  double mix_ridge = r.pooled[nnt_icl_eval_at(&r, 1, NNT_ICL_PRED_RIDGE, 75)];
  printf("prompt mean: k=1 %.3f, k>=20 %.3f; ridge k=75 %.3f; 0.5/0.5 mixture k=75: mean %.3f ridge %.3f\n", mean1,
         late, ridge75, mix_mean, mix_ridge);
  CHECK(mean1 > 0.69 && mean1 < 0.80);
  CHECK(late > 0.84 && late < 0.89);
  CHECK(ridge75 > 0.95 && ridge75 < 0.98);
  CHECK(mix_mean > 0.62 && mix_mean < 0.72);
  CHECK(mix_ridge > 0.87 && mix_ridge < 0.93);
  nnt_icl_eval_result_free(&r);
  TEST_MAIN_END();
}
