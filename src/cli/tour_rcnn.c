/* The tour's seed-002 section: the gauss-parity 2-D Turing machine against GF(2) elimination, the
 * rule-level RCNN running it end to end, and the parity benchmark's quick preset. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_file.h"
#include "nnt_rcnn_parity.h"
#include "nnt_rcnn_rule.h"
#include "nnt_rcnn_tm2d.h"
#include "report_rcnn.h"

/* One parity draw: the TM's output on its XOR tape, and what elimination predicts from the same
 * examples (bit 1 <-> -1); *determined: every consistent parity agrees on the test point. */
static int tm_vs_gauss(const nnt_rcnn_tm2d *tm, int d, int m, uint64_t seed, int *tm_out, int *ge_out, int *determined,
                       long *steps) {
  signed char *X = nnt_xmalloc((size_t)m * d), *y = nnt_xmalloc((size_t)m), *x = nnt_xmalloc((size_t)d);
  uint64_t secret;
  nnt_rcnn_tm2d_parity(d, m, seed, X, y, x, &secret);
  nnt_rcnn_tm2d_tape tape;
  nnt_rcnn_tm2d_result r;
  int st = nnt_rcnn_tm2d_tape_xor(&tape, m, d, 1, X, y, x);
  if (!st) st = nnt_rcnn_tm2d_run(tm, &tape, 100000000, &r), nnt_rcnn_tm2d_tape_free(&tape);
  if (!st) {
    nnt_rcnn_parity_data D = {.d = d, .nw = 1, .n = m, .x = nnt_xcalloc((size_t)m, sizeof(uint64_t)), .y = nnt_xmalloc((size_t)m)};
    uint64_t q = 0;
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < d; j++) D.x[i] |= (uint64_t)(X[i * d + j] < 0) << j;
      D.y[i] = y[i] < 0;
    }
    for (int j = 0; j < d; j++) q |= (uint64_t)(x[j] < 0) << j;
    nnt_rcnn_parity_gauss g;
    nnt_rcnn_parity_gauss_fit(&g, &D);
    *tm_out = r.readout_ok ? r.output : 0;
    *ge_out = nnt_rcnn_parity_gauss_predict(&g, &q) ? -1 : 1;
    *determined = nnt_rcnn_parity_gauss_determined(&g, &q);
    *steps = r.steps;
    nnt_rcnn_parity_gauss_free(&g);
    free(D.x), free(D.y);
  }
  free(X), free(y), free(x);
  return st;
}

int tour_rcnn(cli_tour *t) {
  enum { d = 6, draws = 20 };
  nnt_rcnn_tm2d tm;
  int st = nnt_rcnn_tm2d_learner(&tm, "gauss-parity");
  if (st) return st;
  cli_tour_printf(t, "## rcnn: a Turing-machine learner for parity (seed 002, quick)\n\n"
                  "Goel et al. show that a recurrent-convolutional network trained by SGD on its memory layer stores "
                  "its training set and then runs a small Turing-machine learner on it. nnt builds the construction "
                  "piece by piece; here are the machine it runs and the benchmark it is about. The 65-state 2-D "
                  "Turing machine `gauss-parity` runs Gaussian elimination on the XOR tape of %d random parities "
                  "(d = %d, m = 2 and 2d examples); its answer is compared with GF(2) elimination on the same "
                  "examples, which it must match whenever the examples determine the label.\n\n"
                  "| m | determined | TM = elimination (determined) | TM = elimination (all) | steps (mean) |\n|---|---|---|---|---|\n",
                  draws, d);
  int bad = 0;
  for (int m = 2; m <= 2 * d && !st; m += 2 * d - 2) {
    int det = 0, agree_det = 0, agree = 0;
    double steps = 0;
    for (int s = 0; s < draws && !st; s++) {
      int to = 0, go = 0, de = 0;
      long n = 0;
      st = tm_vs_gauss(&tm, d, m, t->seed * 1000 + (uint64_t)s, &to, &go, &de, &n);
      det += de, agree += to == go, agree_det += de && to == go, steps += (double)n / draws;
    }
    bad += agree_det < det;
    cli_tour_printf(t, "| %d | %d/%d | %d/%d | %d/%d | %.0f |\n", m, det, draws, agree_det, det, agree, draws, steps);
  }
  nnt_rcnn_tm2d_free(&tm);
  if (st) return st;
  cli_tour_checks(t, bad == 0, bad != 0);
  if (bad) cli_tour_printf(t, "\n**FAIL**: the machine disagrees with elimination on a determined label.\n");

  /* end to end: SGD memorises the data into W, then the network's layers run the machine */
  nnt_rcnn_learn_cfg lc;
  nnt_rcnn_learn_cfg_default(&lc, NNT_PRESET_QUICK);
  lc.seed = t->seed;
  nnt_rcnn_learn_result lr;
  if ((st = nnt_rcnn_learn_run(&lc, &lr))) return st;
  int ok = lr.w_exact && lr.fzero_steps == lc.m + 1 && lr.values_ok && lr.agree == lr.tests;
  cli_tour_printf(t, "\nEnd to end in the rule-level RCNN (`nnt rcnn learn --d %d --m %d --tests %d`): one SGD pass on the "
                  "memory layer (the dummy example last, η = 1/54) stores the data, then L = %d layers of the shared "
                  "cell rule run `%s`, and the head's sum is the prediction. Values are exact (balanced ternary, "
                  "integer-scaled).\n\n| check | result |\n|---|---|\n"
                  "| W == (1/3)[y·x, y] after SGD (Lemma 3) | %s |\n| f == 0 at every SGD step | %d/%d |\n"
                  "| values held within the 10 + 4·(states) allowed | %ld of %ld, %s |\n| RCNN output == direct 2-D TM | %d/%d |\n"
                  "| RCNN output == true parity label | %d/%d |\n\n",
                  lc.d, lc.m, lc.tests, lr.L, lc.learner, lr.w_exact ? "yes" : "**NO**",
                  lr.fzero_steps, lc.m + 1, lr.nvalues, lr.nuniverse, lr.values_ok ? "yes" : "**NO**", lr.agree, lr.tests,
                  lr.correct, lr.tests);
  cli_tour_checks(t, ok, !ok);
  if (!ok) cli_tour_printf(t, "**FAIL**: an invariant of the construction does not hold.\n\n");
  const int rule_agree = lr.agree, tests = lr.tests;
  nnt_rcnn_learn_result_free(&lr);

  /* the same as a real network: the compiled ReLU cell MLP, float64, gradients by backprop */
  lc.level = 1;
  if ((st = nnt_rcnn_learn_run(&lc, &lr))) return st;
  ok = lr.w_err <= 1e-12 && lr.f_sgd <= 1e-9 && lr.max_verr <= 1e-9 && lr.max_gerr <= 1e-9 && !lr.offgrid && lr.agree == lr.tests;
  cli_tour_printf(t, "The same as a ReLU network (`nnt rcnn learn ... --level nn`): f̄ compiled into one sparse "
                  "2-ReLU-layer MLP per cell (%d + %d ReLUs, %ld nonzero weights, shared by every cell and layer), float64, "
                  "Algorithm 1 with backpropagated gradients, every patch checked against the rule level.\n\n"
                  "| check | result |\n|---|---|\n| max \\|W − (1/3)[y·x, y]\\| after SGD | %.3g |\n"
                  "| max \\|f\\| over the SGD steps | %.3g |\n| max value / gradient error vs f̄ (%ld patches) | %.3g / %.3g |\n"
                  "| network output == direct 2-D TM | %d/%d |\n\n",
                  lr.h1, lr.h2, lr.nonzeros, lr.w_err, lr.f_sgd, lr.nchecked, lr.max_verr, lr.max_gerr, lr.agree, lr.tests);
  cli_tour_checks(t, ok, !ok);
  if (!ok) cli_tour_printf(t, "**FAIL**: the compiled network does not match the rule level.\n\n");
  cli_tour_outcome(t, "After one SGD pass stored the examples, the RCNN reproduced the Turing-machine learner on %d of %d "
                   "test points at the rule level and on %d of %d as a ReLU network; trained by SGD, a plain MLP stays "
                   "near chance on the same parity data (table below).", rule_agree, tests, lr.agree, lr.tests);
  nnt_rcnn_learn_result_free(&lr);

  nnt_rcnn_parity_bench_cfg c;
  nnt_rcnn_parity_bench_cfg_default(&c, NNT_PRESET_QUICK);
  c.seed = t->seed, c.nd = 1, c.ds[0] = 8;
  nnt_rcnn_parity_bench_result r;
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "rcnn");
  if ((st = nnt_rcnn_parity_bench_run(&c, &r))) return st;
  /* the figure nnt parity bench draws, from the same writer */
  if ((st = nnt_mkdirs(dir)) || (st = nnt_report_rcnn_parity_plot(dir, &c, &r))) return nnt_rcnn_parity_bench_result_free(&r), st;
  cli_tour_printf(t, "The parity benchmark (`nnt parity bench --quick --d 8`): test accuracy, mean of %d repetitions, "
                  "of GF(2) elimination, a 2-layer ReLU MLP trained by SGD and the majority label, against the number "
                  "of examples m. Elimination is exact when the examples span {0,1}^d; a draw whose examples do not "
                  "span (likely for m close to d) leaves test points undetermined, where it guesses. SGD on the MLP "
                  "stays near chance at these sizes, which is the paper's starting point. Baselines: the majority "
                  "label (dashed in the figure) and chance, 0.5.\n\n| m |", c.reps);
  for (int l = 0; l < c.nlearners; l++) cli_tour_printf(t, " %s |", nnt_rcnn_parity_learner_names[c.learners[l]]);
  cli_tour_printf(t, "\n|---|");
  for (int l = 0; l < c.nlearners; l++) cli_tour_printf(t, "---|");
  for (int a = 0; a < r.nagg; a++) {
    if (a % c.nlearners == 0) cli_tour_printf(t, "\n| %d |", r.agg[a].m);
    cli_tour_printf(t, " %.3f |", r.agg[a].acc_mean);
  }
  cli_tour_printf(t, "\n\n![parity: test accuracy vs m](rcnn/accuracy.png)\n\n");
  nnt_rcnn_parity_bench_result_free(&r);
  return NNT_OK;
}
