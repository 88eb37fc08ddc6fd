/* The experiments of nnt tm: a machine simulated, or compiled into the transformer and checked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

void nnt_tm_cfg_default(nnt_tm_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  memset(cfg, 0, sizeof *cfg);
  cfg->steps = -1;
  cfg->max_steps = quick ? 200 : 0;
  cfg->attention = NNT_TM_HARD;
  cfg->precision = NNT_TM_F64;
  cfg->dump_step = -1;
}

/* Loads the machine and settles T (the halting step when steps < 0). */
static int load(const nnt_tm_cfg *cfg, nnt_tm *tm, long *T) {
  if (!cfg->machine) return nnt_fail(NNT_EINVAL, "no machine");
  int st = nnt_tm_load(cfg->machine, tm);
  if (st) return st;
  if (cfg->input && (st = nnt_tm_set_input(tm, cfg->input))) return nnt_tm_free(tm), st;
  *T = cfg->steps;
  if (*T < 0) {
    nnt_tm_trace tr;
    nnt_tm_simulate(tm, 10000, &tr);
    long h = tr.halt_step;
    nnt_tm_trace_free(&tr);
    if (h < 0) return nnt_tm_free(tm), nnt_fail(NNT_EINVAL, "the machine does not halt within 10^4 steps: give --steps T");
    *T = h > 0 ? h : 1;
  }
  if (cfg->max_steps > 0 && *T > cfg->max_steps) *T = cfg->max_steps;
  return NNT_OK;
}

int nnt_tm_sim_check(const nnt_tm_cfg *cfg) {
  nnt_tm tm;
  if (!cfg->machine) return nnt_fail(NNT_EINVAL, "no machine");
  int st = nnt_tm_load(cfg->machine, &tm);
  if (st) return st;
  if (cfg->input) st = nnt_tm_set_input(&tm, cfg->input);
  nnt_tm_free(&tm);
  return st;
}

int nnt_tm_sim_run(const nnt_tm_cfg *cfg, nnt_tm_sim_result *res) {
  memset(res, 0, sizeof *res);
  if (!cfg->machine) return nnt_fail(NNT_EINVAL, "no machine");
  int st = nnt_tm_load(cfg->machine, &res->tm);
  if (st) return st;
  if (cfg->input && (st = nnt_tm_set_input(&res->tm, cfg->input))) return nnt_tm_free(&res->tm), st;
  /* without --steps: to the halt, within the trace's row limit when there is a trace */
  res->T = cfg->steps >= 0 ? cfg->steps : NNT_TM_RUN_DEFAULT_MAX;
  if (cfg->steps < 0 && cfg->trace_every > 0 && res->T / cfg->trace_every + 2 > NNT_TM_TRACE_MAX)
    res->T = (NNT_TM_TRACE_MAX - 2) * cfg->trace_every;
  if (cfg->max_steps > 0 && res->T > cfg->max_steps) res->T = cfg->max_steps;
  double t0 = nnt_now();
  if ((st = nnt_tm_stream_run(&res->tm, res->T, cfg->trace_every, 1, &res->run))) return nnt_tm_free(&res->tm), st;
  res->seconds = nnt_now() - t0;
  return NNT_OK;
}

void nnt_tm_sim_result_free(nnt_tm_sim_result *res) {
  nnt_tm_stream_free(&res->run);
  nnt_tm_free(&res->tm);
}

static int exact_at(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, nnt_tm_precision p, double beta) {
  nnt_tm_run_opts ro = {.attention = NNT_TM_SOFTMAX, .beta = beta, .precision = p, .stop_on_mismatch = 1};
  nnt_tm_run_result r;
  nnt_tm_net_run(net, tm, tr, &ro, &r);
  return r.mismatches == 0;
}

/* Smallest beta (relative precision 1e-3) at which the softmax run is exact at every step. The
 * error of a softmax layer falls like i e^{-beta gap}, so exactness is monotone in beta in practice;
 * the search doubles beta until exact, then bisects, then checks 2x, 8x and 64x the result (a
 * failing beta goes to *not_monotone). Returns -1 if not exact up to 1e6. */
static double beta_min(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, nnt_tm_precision p,
                       double *not_monotone) {
  double lo = 0, hi = 0.25;
  while (!exact_at(net, tm, tr, p, hi)) {
    lo = hi, hi *= 2;
    if (hi > 1e6) return -1;
  }
  while (hi - lo > 1e-3 * hi) {
    double mid = 0.5 * (lo + hi);
    if (exact_at(net, tm, tr, p, mid)) hi = mid;
    else lo = mid;
  }
  static const double above[] = {2, 8, 64}; /* spot-check the monotonicity the search assumes */
  for (int i = 0; i < 3; i++)
    if (!exact_at(net, tm, tr, p, hi * above[i])) *not_monotone = hi * above[i];
  return hi;
}

/* The run's memory: the keys and values every attention layer caches, one per decoder step (the
 * engine's att_push), and the simulation's trace; its time: each step's attention over the cached
 * keys at 5·10^8 a second (counter.tm, 10^4 steps: 38 s measured), times 60 with --beta-search (its runs). */
static int compile_size(const nnt_tm_cfg *cfg, const nnt_tm *tm, long T, double *bytes, double *seconds) {
  nnt_tm_net net;
  int st = nnt_tm_compile(tm, T, &net);
  if (st) return st;
  /* per cached step and layer: a key of dk entries (8 bytes at most) and the value's nonzero dims */
  double per_step = 0, work = 0;
  for (int l = 0; l < net.nlayers; l++)
    for (int a = 0; a < 2; a++) {
      const nnt_tm_attn *at = a ? &net.layers[l].enc : &net.layers[l].self;
      if (!(a ? net.layers[l].has_enc : net.layers[l].has_self)) continue;
      int nv = 0;
      for (int o = 0; o < net.w; o++) nv += at->V.ptr[o + 1] > at->V.ptr[o] || at->bv[o] != 0 || at->V0[o] != 0;
      per_step += 8.0 * (at->dk + nv), work += at->dk;
    }
  nnt_tm_net_free(&net);
  double keys = (double)T + tm->m + 2;
  *bytes = keys * per_step + (double)(T + 1) * 64;
  *seconds = 0.5 * keys * keys * work / 5e8 * (cfg->beta_search ? 60 : 1);
  return NNT_OK;
}

int nnt_tm_compile_check(const nnt_tm_cfg *cfg) {
  if (cfg->attention == NNT_TM_SOFTMAX && !(cfg->beta > 0)) return nnt_fail(NNT_EINVAL, "--attention softmax needs --beta B");
  if (cfg->beta > 0 && cfg->attention != NNT_TM_SOFTMAX) return nnt_fail(NNT_EINVAL, "--beta needs --attention softmax");
  if (cfg->export_path) {
    size_t n = strlen(cfg->export_path);
    if (n < 12 || strcmp(cfg->export_path + n - 12, ".safetensors"))
      return nnt_fail(NNT_EINVAL, "--export %s: a Turing-machine transformer exports to .safetensors", cfg->export_path);
  }
  nnt_tm tm;
  long T;
  int st = load(cfg, &tm, &T);
  if (st) return st;
  if (cfg->dump_dir && T + 1 > NNT_TM_DUMP_MAX_STEPS)
    st = nnt_fail(NNT_EINVAL, "--dump keeps every attention weight (T^2 per layer): at most %d steps, T is %ld (give --steps)",
                  NNT_TM_DUMP_MAX_STEPS - 1, T);
  else if (cfg->dump_dir && cfg->dump_step > T)
    st = nnt_fail(NNT_EINVAL, "--dump-step %ld: the run has steps 0..%ld", cfg->dump_step, T);
  double bytes, seconds;
  if (!st && !(st = compile_size(cfg, &tm, T, &bytes, &seconds))) {
    char what[96];
    snprintf(what, sizeof what, "tm compile at T = %ld", T);
    st = nnt_mem_check(bytes, what, "lower --steps (every attention layer keeps a key per step)");
  }
  nnt_tm_free(&tm);
  return st;
}

int nnt_tm_compile_run(const nnt_tm_cfg *cfg, nnt_tm_compile_result *res) {
  memset(res, 0, sizeof *res);
  int st = nnt_tm_compile_check(cfg);
  if (st || (st = load(cfg, &res->tm, &res->T))) return st;
  double bytes, seconds;
  if (!compile_size(cfg, &res->tm, res->T, &bytes, &seconds))
    nnt_time_notice(seconds, 1, "tm compile", cfg->beta_search ? "(the run and the beta search's runs)" : "(every step attends to all before it)");
  nnt_tm_trace tr;
  nnt_tm_net net;
  if ((st = nnt_tm_simulate(&res->tm, res->T, &tr))) return nnt_tm_free(&res->tm), st;
  double t0 = nnt_now();
  if ((st = nnt_tm_compile(&res->tm, res->T, &net))) return nnt_tm_trace_free(&tr), nnt_tm_free(&res->tm), st;
  res->compile_s = nnt_now() - t0;
  res->s = nnt_tm_net_stats_of(&net);
  res->halt_step = tr.halt_step;
  nnt_tm_run_opts ro = {.attention = (nnt_tm_attention)cfg->attention, .beta = cfg->beta,
                        .precision = (nnt_tm_precision)cfg->precision, .progress = 1};
  st = nnt_tm_net_run(&net, &res->tm, &tr, &ro, &res->r);
  if (!st && cfg->beta_search) {
    res->beta64 = beta_min(&net, &res->tm, &tr, NNT_TM_F64, &res->not_monotone);
    res->beta32 = beta_min(&net, &res->tm, &tr, NNT_TM_F32, &res->not_monotone);
  }
  nnt_tm_export_info ei = {.attention = cfg->attention, .beta = cfg->beta, .precision = cfg->precision,
                           .version = cfg->version, .command = cfg->command};
  if (!st && cfg->export_path) st = nnt_tm_export(&net, &res->tm, &ei, cfg->export_path);
  if (!st && cfg->dump_dir) {
    res->dump.step = cfg->dump_step >= 0 ? cfg->dump_step : res->T;
    st = nnt_tm_dump(&net, &res->tm, res->T + 1, &ei, cfg->dump_dir, &res->dump);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  res->peak_rss_mb = ru.ru_maxrss / 1024.0;
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  if (st) nnt_tm_free(&res->tm);
  return st;
}

void nnt_tm_compile_result_free(nnt_tm_compile_result *res) {
  nnt_tm_dump_step_free(&res->dump);
  nnt_tm_free(&res->tm);
}
