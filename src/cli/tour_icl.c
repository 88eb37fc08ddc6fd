/* The tour's seed-003 section: the construction check (construct helper), then a micro ICL
 * training run (gpt helper). Each part is one static function called from tour_icl(). */
#include "commands.h"
#include "nnt_file.h"
#include "nnt_icl_construct.h"
#include "nnt_icl_depth.h"
#include "nnt_icl_gpt.h"
#include "report_icl.h"

#include <stdio.h>

/* The Theorem-1 transformer on the spec's reference network (sigmoid, dx=4, K=6, N=3, n=24),
 * 5 GD steps: exact with r = identity, error falling about as M^-2 with the sigmoid, and the
 * invariants after every block. */
static int tour_construct(cli_tour *t) {
  cli_tour_printf(t, "## icl: in-context gradient descent on N-layer networks (seed 003)\n\n");
  nnt_icl_construct_cfg c;
  nnt_icl_construct_cfg_default(&c, NNT_PRESET_QUICK);
  c.seed = t->seed;
  const int Ms[] = {16, 64};
  const nnt_icl_act acts[] = {NNT_ICL_ACT_IDENTITY, NNT_ICL_ACT_SIGMOID, NNT_ICL_ACT_SIGMOID};
  double err[3];
  const double eta = c.eta;
  int inv = 1, st = NNT_OK;
  cli_tour_printf(t, "Wu et al. build a transformer whose forward pass runs projected gradient descent on an N-layer "
                  "network stored in every token: %d layers per step (ReLU attention, element-wise multiplication, "
                  "ReLU MLPs), r and r' as sums of M ReLUs. nnt builds it in double precision and compares it step by "
                  "step with direct projected GD (backprop) on the reference network (N=%d, K=%d, dx=%d, n=%d "
                  "examples, eta=%g, box %g, %d steps; `nnt icl construct --quick`). The identity row uses eta=0.02, "
                  "where GD on the linear network does not diverge into the box.\n\n"
                  "| activation | M | token width D | heads per step | max ‖w_TF − w_GD‖∞ | query prediction TF / GD | "
                  "invariants |\n|---|---|---|---|---|---|---|\n",
                  2 * c.net.N + 4, c.net.N, c.net.K, c.net.dx, c.n, c.eta, c.B, c.steps);
  for (int i = 0; i < 3 && !st; i++) {
    c.net.act = acts[i], c.M = i ? Ms[i - 1] : 4, c.eta = i ? eta : 0.02;
    nnt_icl_construct_result r;
    if ((st = nnt_icl_construct_run(&c, &r))) break;
    const nnt_icl_construct_step *s = &r.step[r.steps - 1];
    err[i] = r.max_err, inv &= r.invariants_ok;
    cli_tour_printf(t, "| %s | %d | %d | %ld | %.2e | %.6f / %.6f | %s |\n", nnt_icl_act_names[c.net.act], c.M, r.D,
                    r.heads_per_step, r.max_err, s->pred_tf, s->pred_gd, r.invariants_ok ? "ok" : "**FAIL**");
    nnt_icl_construct_result_free(&r);
  }
  if (st) return st;
  const int exact = err[0] <= 1e-12, falls = err[2] < err[1] / 6;
  cli_tour_checks(t, exact + falls + inv, 3 - exact - falls - inv);
  cli_tour_printf(t, "\nChecks: identity within 1e-12 of GD: %s; sigmoid error falls at least 6x from M=16 to M=64 "
                  "(M^-2 predicts 16x): %s; w copies identical and scratch zero after every block: %s.\n\n",
                  exact ? "yes" : "**FAIL**", falls ? "yes" : "**FAIL**", inv ? "yes" : "**FAIL**");
  cli_tour_outcome(t, "The constructed transformer followed gradient descent to %.1e (identity activation) and to %.1e "
                   "with sigmoid at M = %d ReLUs per approximated function.", err[0], err[2], Ms[1]);
  return NNT_OK;
}

/* The trained model against the baselines on fresh prompts of its own task (the in-distribution
 * curve of Figures 1-2, `nnt icl eval --model icl/model.ckpt --mix 0 --no-direct --quick`): R² at
 * a few k, and the figure icl/eval/r2_mix0.png from the eval command's own writer. No pass/fail:
 * a 400-step micro model need not reach the baselines (the longer presets: docs/icl.md). */
static int tour_r2(cli_tour *t, const nnt_icl_train_cfg *tc, nnt_icl_gpt *m, const char *path) {
  nnt_icl_eval_cfg c;
  nnt_icl_eval_cfg_default(&c, NNT_PRESET_QUICK);
  c.task = tc->task, c.nmix = 1, c.mix[0] = 0, c.direct = 0, c.seed = t->seed, c.threads = 1;
  char tag[1200], dir[1024];
  nnt_icl_eval_use_model(&c, m, path, tag, sizeof tag);
  nnt_icl_eval_result r;
  int st = nnt_icl_eval_run(&c, &r);
  if (st) return st;
  nnt_path(dir, sizeof dir, t->out, "icl/eval");
  if (!(st = nnt_mkdirs(dir))) st = nnt_report_icl_eval_files(dir, &r, tc->task.n);
  if (!st) {
    const int ks[] = {1, c.task.d, c.task.n - 1};
    const int preds[] = {NNT_ICL_PRED_MODEL, NNT_ICL_PRED_RIDGE, NNT_ICL_PRED_MEAN};
    cli_tour_printf(t, "Evaluated on %d fresh prompts of its own task (`nnt icl eval --model icl/model.ckpt --mix 0 "
                    "--no-direct --quick`): R² across prompts (pooled) of the model's prediction after k in-context "
                    "examples, with ridge regression on the same k points and the prompt mean as baselines (a 400-step "
                    "micro model need not reach them; the longer presets are in docs/icl.md).\n\n"
                    "| k | model | ridge | prompt mean |\n|---|---|---|---|\n", c.prompts);
    for (int i = 0; i < 3; i++) {
      cli_tour_printf(t, "| %d |", ks[i]);
      for (int p = 0; p < 3; p++) {
        int at = nnt_icl_eval_at(&r, 0, preds[p], ks[i]);
        if (r.pooled_ok[at]) cli_tour_printf(t, " %.3f |", r.pooled[at]);
        else cli_tour_printf(t, " undefined |");
      }
      cli_tour_printf(t, "\n");
    }
    cli_tour_printf(t, "\n![icl: R² against in-context examples](icl/eval/r2_mix0.png)\n\n");
  }
  nnt_icl_eval_result_free(&r);
  return st;
}

/* The micro preset of `nnt icl train` (GPT-2 learner, 400 Adam steps): the loss must fall
 * (acceptance 14), and the checkpoint must load back for prediction. */
static int tour_train(cli_tour *t) {
  nnt_icl_train_cfg c;
  nnt_icl_train_cfg_default(&c, NNT_ICL_PRESET_MICRO);
  c.seed = t->seed;
  char dir[1024], path[1100];
  nnt_path(dir, sizeof dir, t->out, "icl");
  nnt_icl_train_result r;
  int st = nnt_mkdirs(dir);
  if (st || (st = nnt_icl_train_run(&c, dir, 0, &r))) return st;
  double first = 0, last = 0;
  int k = r.nlog >= 10 ? 5 : 1;
  for (int i = 0; i < k; i++) first += r.log_loss[i] / k, last += r.log_loss[r.nlog - k + i] / k;
  snprintf(path, sizeof path, "%s/model.ckpt", dir);
  nnt_icl_gpt *m = NULL;
  int loads = nnt_icl_gpt_load(path, &m) == NNT_OK, falls = last < 0.6 * first;
  cli_tour_printf(t, "The GPT-2-style in-context learner (Garg et al.'s model, softmax attention, %d layers, width %d, "
                  "%zu parameters) pretrained on the micro preset: %lld Adam steps of %d fresh prompts of %d points "
                  "(d = %d, 3-layer ReLU targets) in %.1f s (`nnt icl train --preset micro`).\n\n"
                  "| mean loss, first %d steps | mean loss, last %d steps | checkpoint loads |\n|---|---|---|\n"
                  "| %.3f | %.3f | %s |\n\nChecks: the loss falls below 60%% of its start: %s; model.ckpt loads for "
                  "prediction: %s.\n\n",
                  c.arch.n_layer, c.arch.n_embd, r.nparams, r.steps, c.batch, c.task.n, c.task.d, r.seconds,
                  k * c.log_every, k * c.log_every, first, last, loads ? "yes" : "**FAIL**", falls ? "yes" : "**FAIL**",
                  loads ? "yes" : "**FAIL**");
  cli_tour_checks(t, falls + loads, 2 - falls - loads);
  if (loads && (st = tour_r2(t, &c, m, path))) {
    nnt_icl_gpt_free(m);
    nnt_icl_train_result_free(&r);
    return st;
  }
  nnt_icl_gpt_free(m);
  char before[sizeof t->outcome];
  snprintf(before, sizeof before, "%s", t->outcome);
  cli_tour_outcome(t, "%s%sThe small trained GPT's in-context loss fell from %.2f to %.2f.", before, *before ? " " : "", first,
                   last);
  nnt_icl_train_result_free(&r);
  return NNT_OK;
}

int tour_icl(cli_tour *t) {
  int st = tour_construct(t);
  if (!st) st = tour_train(t);
  return st;
}
