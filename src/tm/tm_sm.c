/* nnt bounds sm --tm: the measured inputs of Lemma 2.3 / Theorem 4.1 for one machine (nnt_tm.h). */
#include <math.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

int nnt_tm_sm_check(const nnt_tm_sm_cfg *cfg) {
  if (!cfg->machine) return nnt_fail(NNT_EINVAL, "no machine");
  if (cfg->T <= 0) return nnt_fail(NNT_EINVAL, "T must be positive");
  nnt_tm tm;
  int st = nnt_tm_load(cfg->machine, &tm);
  if (!st) nnt_tm_free(&tm);
  return st;
}

/* The net compiled for T = 10^e, e = 1..15: its sizes, and its certified margin up to cert_max. */
static int sweep(const nnt_tm *tm, long cert_max, nnt_tm_sm_result *r) {
  for (int e = 1; e <= NNT_TM_SM_SWEEP; e++) {
    long Ts = (long)pow(10, e);
    nnt_tm_net nt;
    int st = nnt_tm_compile(tm, Ts, &nt);
    if (st) return st;
    double g = -1;
    r->sweep_s[r->nsweep] = nnt_tm_net_stats_of(&nt);
    if (Ts <= cert_max && !(st = nnt_tm_margin_lower(&nt, tm, &g)) && !(g > 0)) g = -1;
    nnt_tm_net_free(&nt);
    if (st) return st;
    r->sweep_T[r->nsweep] = (double)Ts, r->sweep_rho[r->nsweep++] = g;
  }
  return NNT_OK;
}

int nnt_tm_sm_run(const nnt_tm_sm_cfg *cfg, nnt_tm_sm_result *r) {
  memset(r, 0, sizeof *r);
  nnt_tm tm;
  int st = nnt_tm_load(cfg->machine, &tm);
  if (st) return st;
  r->k = tm.k, r->nsym = tm.nsym;
  nnt_tm_trace tr;
  nnt_tm_net net;
  nnt_tm_simulate(&tm, cfg->T, &tr);
  if ((st = nnt_tm_compile(&tm, cfg->T, &net))) return nnt_tm_trace_free(&tr), nnt_tm_free(&tm), st;
  nnt_tm_run_opts ro = {.attention = NNT_TM_HARD, .precision = NNT_TM_F64};
  st = nnt_tm_net_run(&net, &tm, &tr, &ro, &r->r);
  r->s = nnt_tm_net_stats_of(&net);
  /* certification up to the cap (memory grows as T); each checked run of the attack costs O(T^2),
   * each random direction ~13 runs: none above NNT_TM_MARGIN_ATTACK_T */
  r->certified = cfg->T <= NNT_TM_MARGIN_MAX_T;
  double t0 = nnt_now();
  if (!st && r->certified) st = nnt_tm_margin_lower(&net, &tm, &r->rho_lower);
  if (!st) st = nnt_tm_margin_upper(&net, &tm, &tr, cfg->T <= NNT_TM_MARGIN_ATTACK_T ? 2 : 0, cfg->seed, &r->upper);
  r->margin_s = nnt_now() - t0;
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  if (!st) st = sweep(&tm, cfg->cert_max, r);
  nnt_tm_free(&tm);
  return st;
}
