/* The qstr section of the tour: quick sweeps of the transformer and the FFN, the construction and
 * Theorem 6 (the writers are src/report/report_qstr.c's). */
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_io.h"
#include "report_qstr.h"


int tour_qstr(cli_tour *t) {
  char dir[1024], sub[1024];
  nnt_path(dir, sizeof dir, t->out, "qstr");
  int st;
  double med[2][64], wall[2];
  int Ns[64], nN = 0;
  nnt_report_qstr_curves *cv = nnt_report_qstr_curves_new();
  static const nnt_qstr_arch arch[2] = {NNT_QSTR_TR, NNT_QSTR_FFN};
  for (int k = 0; k < 2; k++) {
    nnt_qstr_sweep_cfg s;
    nnt_qstr_sweep_cfg_default(&s, NNT_PRESET_QUICK);
    s.arch = arch[k], s.seed = t->seed, s.train.test_simple = 1;
    s.nN = 4, s.Ns[0] = 2, s.Ns[1] = 4, s.Ns[2] = 8, s.Ns[3] = 12;
    nnt_path(sub, sizeof sub, dir, k ? "sweep_ffn" : "sweep_tr");
    nnt_qstr_sweep_result r;
    s.threads = nnt_threads_get(); /* the tour's --threads, applied */
    if ((st = nnt_mkdirs(sub)) || (st = nnt_qstr_sweep_run(&s, &r))) return nnt_report_qstr_curves_free(cv), st;
    st = nnt_report_qstr_sweep(sub, &s, &r);
    nnt_report_qstr_curves_add(cv, &s, &r);
    for (int i = 0; i < s.nN; i++) {
      double lo, hi;
      int cens;
      Ns[i] = s.Ns[i];
      nnt_qstr_sweep_stats(&s, &r, i, &med[k][i], &lo, &hi, &cens);
    }
    nN = s.nN, wall[k] = r.wall_s;
    nnt_qstr_sweep_result_free(&r);
    if (st) return nnt_report_qstr_curves_free(cv), st;
  }
  st = nnt_report_qstr_plot(dir, cv);
  nnt_report_qstr_curves_free(cv);
  if (st) return st;
  cli_tour_printf(t, "## qstr: transformer vs FFN sample complexity (seed 001, Figure 1a, quick)\n\n"
                  "Online AdamW (batch 64, lr 1e-3, wd 0.01) on 1STR, d = 10, d_e = floor(5 ln N); test MSE on "
                  "1000 simple-1STR prompts (the released code's protocol) every 10 steps; samples needed to "
                  "reach test MSE 0.7, 1 repetition. The paper: the transformer's count grows slowly with N, the "
                  "FFN's fast.\n\n| N | transformer | FFN |\n|---|---|---|\n");
  for (int k = 0; k < nN; k++) cli_tour_printf(t, "| %d | %.0f | %.0f |\n", Ns[k], med[0][k], med[1][k]);
  cli_tour_printf(t, "\nWall time: transformer %.1f s, FFN %.1f s. ![samples](qstr/samples.png)\n\n"
                  "Each sweep alone (its own folder, as `nnt qstr sweep` writes it): "
                  "![transformer sweep](qstr/sweep_tr/samples.png) ![FFN sweep](qstr/sweep_ffn/samples.png)\n\n",
                  wall[0], wall[1]);
  int last = nN - 1;
  cli_tour_outcome(t, "At N = %d the transformer needed %.0f samples and the FFN %.0f (%.1f times as many); at N = %d "
                   "they needed %.0f and %.0f.", Ns[last], med[0][last], med[1][last], med[1][last] / med[0][last], Ns[0],
                   med[0][0], med[1][0]);
  /* the construction's closed form against Monte Carlo, and Theorem 6 */
  nnt_qstr_construct_cfg cc;
  nnt_qstr_construct_cfg_default(&cc, NNT_PRESET_QUICK);
  cc.seed = t->seed, cc.nalpha = 3, cc.alphas[0] = 0.05, cc.alphas[1] = 0.2, cc.alphas[2] = 0.5;
  nnt_qstr_construct_result cr;
  st = nnt_qstr_construct_run(&cc, &cr);
  if (st && st != NNT_ECHECK) return st;
  cli_tour_printf(t, "Eq. (A.2) construction (N = 8, paper encoding): closed-form MSE vs Monte Carlo through the "
                  "model's forward pass.\n\n| alpha | closed form | Monte Carlo |\n|---|---|---|\n");
  for (int k = 0; k < cc.nalpha; k++) cli_tour_printf(t, "| %g | %.4f | %.4f ± %.4f |\n", cc.alphas[k], cr.closed[k], cr.mc[k], cr.se[k]);
  nnt_qstr_ffn_bound_cfg bc;
  nnt_qstr_ffn_bound_cfg_default(&bc, NNT_PRESET_QUICK);
  bc.seed = t->seed, bc.nn = 5;
  for (int k = 0; k < 5; k++) bc.ns[k] = 5 * k;
  nnt_qstr_ffn_bound_result br;
  int bst = nnt_qstr_ffn_bound_run(&bc, &br);
  if (bst && bst != NNT_ECHECK) return bst;
  cli_tour_printf(t, "\nTheorem 6 (min-norm least squares, N = 4, d = 5): test MSE vs 1 - n/(Nd).\n\n| n | measured | "
                  "1 - n/(Nd) |\n|---|---|---|\n");
  for (int k = 0; k < br.nn; k++) cli_tour_printf(t, "| %d | %.3f | %.3f |\n", br.ns[k], br.measured[k], br.formula[k]);
  cli_tour_checks(t, (st == NNT_OK) + (bst == NNT_OK), (st != NNT_OK) + (bst != NNT_OK));
  return NNT_OK;
}
