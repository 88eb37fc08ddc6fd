/* icl_task_opts.h — the ICL task's options, shared by icl train, eval and baselines: the table
 * entries for a struct S with an nnt_icl_task field `task`, and the copy of the given ones onto a
 * task (a preset's for train, the model's own for eval). */
#ifndef NNT_CLI_ICL_TASK_OPTS_H
#define NNT_CLI_ICL_TASK_OPTS_H
#include "cli.h"
#include "nnt_icl_task.h"

#define ICL_TASK_OPTS(S)                                                                                          \
  CLI_INT("target-width", S, task.width, 1, 100000, "hidden width K of the target networks (default: the preset's)"), \
      CLI_CHOICE("target-act", S, task.act, nnt_icl_act_names, "hidden activation of the target networks"),      \
      CLI_DOUBLE("w-std", S, task.w_std, 0, 1e6, "target weight std (0: He scaling)"),                              \
      CLI_DOUBLE("w-mean", S, task.w_mean, -1e6, 1e6, "target weight mean (in units of the std under He scaling)"), \
      CLI_DOUBLE("mu", S, task.mu, -1e6, 1e6, "mixture components N(-mu·1, I) and N(+mu·1, I) (the second: see --mu2)"), \
      CLI_DOUBLE("mu2", S, task.mu2, -1e6, 1e6, "the second mixture component is N(+mu2·1, I) (default: mu)"),      \
      CLI_FLAG("per-prompt", S, task.per_prompt, "draw the mixture component once per prompt (default: per point)"), \
      CLI_DOUBLE("noise", S, task.noise, 0, 1e6, "label noise: y += noise·N(0, 1)"),                                \
      CLI_DOUBLE("y-scale", S, task.y_scale, -1e6, 1e6, "global multiplier on y")

/* Copies onto t the task fields whose options were given. */
static inline void icl_task_given(const cli_cmd *cmd, const cli_args *a, const nnt_icl_task *from, nnt_icl_task *t) {
  if (cli_given(cmd, a, "target-width")) t->width = from->width;
  if (cli_given(cmd, a, "target-act")) t->act = from->act;
  if (cli_given(cmd, a, "w-std")) t->w_std = from->w_std;
  if (cli_given(cmd, a, "w-mean")) t->w_mean = from->w_mean;
  if (cli_given(cmd, a, "mu")) t->mu = t->mu2 = from->mu;
  if (cli_given(cmd, a, "mu2")) t->mu2 = from->mu2;
  if (cli_given(cmd, a, "per-prompt")) t->per_prompt = from->per_prompt;
  if (cli_given(cmd, a, "noise")) t->noise = from->noise;
  if (cli_given(cmd, a, "y-scale")) t->y_scale = from->y_scale;
}

#endif
