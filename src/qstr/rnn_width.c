/* Prop. 8 of seed 001 beside training: the smallest width of the paper's biGRU that learns 1STR to a
 * test-MSE threshold within a sample budget, per N, next to the linear-state bound r_min(N). The
 * widths are tried smallest first in waves (one sweep of the engine per width over the N values not
 * yet decided), so the points computed, the results and a resumed run do not depend on the threads. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

void nnt_qstr_rnn_width_cfg_default(nnt_qstr_rnn_width_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  int quick = preset == NNT_PRESET_QUICK;
  static const int Ns[] = {4, 8, 16}, Hs[] = {1, 2, 4, 8, 16, 32, 64}, Nq[] = {2, 4}, Hq[] = {1, 2, 4, 8};
  c->nN = quick ? 2 : 3, c->nH = quick ? 4 : 7;
  memcpy(c->Ns, quick ? Nq : Ns, sizeof(int) * (size_t)c->nN), memcpy(c->Hs, quick ? Hq : Hs, sizeof(int) * (size_t)c->nH);
  /* the coordinator's probe (1STR, d = 10, 1000 test prompts): at threshold 0.7 a 2-wide GRU already
   * reaches it at N = 4, so 0.7 cannot show width; at 0.1 the smallest width reaching it within 10^6
   * samples was 8 at N = 4 (249k samples) and 16 at N = 8 (848k). The full budget 2 x 10^6 keeps
   * those answers inside half of it (stable[]). Quick: threshold 0.3 at N = 2, 4 (H_min 2 and 8, about 15 s of
   * training on a loaded core). */
  c->d = 10, c->threshold = quick ? 0.3 : 0.1, c->budget = quick ? 160000 : 2000000;
  c->n_test = 1000, c->check_every = 10, c->batch = 64, c->lr = 1e-3, c->wd = 0.01, c->seed = 1;
}

/* the sweep configuration of the biGRU at width H */
static void width_sweep(const nnt_qstr_rnn_width_cfg *c, int H, nnt_qstr_sweep_cfg *s) {
  nnt_qstr_sweep_cfg_default(s, NNT_PRESET_FULL);
  s->arch = NNT_QSTR_GRU, s->hidden_size = H, s->reps = 1, s->seed = c->seed, s->threads = c->threads;
  s->task.d = c->d, s->task.q = 1, s->task.simple = 0, s->task.link = NNT_QSTR_LINK_LINEAR, s->task.law = NNT_QSTR_LAW_UNIFORM;
  s->train.threshold = c->threshold, s->train.max_samples = c->budget, s->train.n_test = c->n_test;
  s->train.check_every = c->check_every, s->train.batch = c->batch, s->train.lr = c->lr, s->train.wd = c->wd;
  s->train.test_simple = 0; /* tested on 1STR itself: the law Prop. 8's bound is for */
  s->task.no_dup_codes = 1; /* two equal codes (likely at d_e = floor(5 ln N) = 3 for N = 2) make positions indistinguishable: an error floor no width removes */
  s->nN = c->nN;
  memcpy(s->Ns, c->Ns, sizeof(int) * (size_t)c->nN);
}

int nnt_qstr_rnn_width_check(const nnt_qstr_rnn_width_cfg *c) {
  if (c->nN < 2 || c->nN > 16) return nnt_fail(NNT_EINVAL, "rnn-width: 2 to 16 values of N (got %d)", c->nN);
  if (c->nH < 1 || c->nH > 16) return nnt_fail(NNT_EINVAL, "rnn-width: 1 to 16 widths (got %d)", c->nH);
  for (int k = 1; k < c->nN; k++)
    if (c->Ns[k] <= c->Ns[k - 1]) return nnt_fail(NNT_EINVAL, "rnn-width: --N must increase (%d after %d)", c->Ns[k], c->Ns[k - 1]);
  for (int k = 1; k < c->nH; k++)
    if (c->Hs[k] <= c->Hs[k - 1]) return nnt_fail(NNT_EINVAL, "rnn-width: --H must increase (%d after %d)", c->Hs[k], c->Hs[k - 1]);
  if (!(c->threshold > 0 && c->threshold < 1))
    return nnt_fail(NNT_EINVAL, "rnn-width: --threshold must be in (0, 1) (the zero predictor's MSE is 1; got %g)", c->threshold);
  if (c->budget < c->batch) return nnt_fail(NNT_EINVAL, "rnn-width: --budget %ld is below one batch (%d)", c->budget, c->batch);
  nnt_qstr_sweep_cfg s;
  width_sweep(c, c->Hs[c->nH - 1], &s); /* the widest model at every N: sizes and memory */
  return nnt_qstr_sweep_check(&s);
}

double nnt_qstr_rnn_width_seconds(const nnt_qstr_rnn_width_cfg *c) {
  double t = 0;
  for (int h = 0; h < c->nH; h++) {
    nnt_qstr_sweep_cfg s;
    width_sweep(c, c->Hs[h], &s);
    t += nnt_qstr_sweep_seconds(&s);
  }
  return t;
}

int nnt_qstr_rnn_width_grows(int n, const int *hmin) {
  /* none reached = above every width tried; the widths double, so seed noise in the samples moves
   * H_min by a step only where a width sits at the edge of the budget */
  for (int k = 1; k < n; k++)
    if (hmin[k - 1] <= 0 ? hmin[k] > 0 : hmin[k] > 0 && hmin[k] < hmin[k - 1]) return 0;
  return n > 1 && (hmin[0] <= 0 ? 0 : hmin[n - 1] <= 0 || hmin[n - 1] > hmin[0]);
}

int nnt_qstr_rnn_width_run(const nnt_qstr_rnn_width_cfg *c, nnt_qstr_rnn_width_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_qstr_rnn_width_check(c);
  if (st) return st;
  nnt_time_notice(nnt_qstr_rnn_width_seconds(c), 1, "qstr rnn-width", "(should no width reach --threshold before --budget)");
  r->nN = c->nN, r->nH = c->nH;
  memcpy(r->Ns, c->Ns, sizeof r->Ns), memcpy(r->Hs, c->Hs, sizeof r->Hs);
  for (int k = 0; k < c->nN; k++)
    for (int h = 0; h < c->nH; h++) r->status[k][h] = NNT_QSTR_WIDTH_SKIPPED, r->final_mse[k][h] = NAN;
  for (int h = 0; h < c->nH && !st; h++) {
    nnt_qstr_sweep_cfg s;
    width_sweep(c, c->Hs[h], &s);
    int at[16], n = 0; /* the N still undecided */
    for (int k = 0; k < c->nN; k++)
      if (!r->hmin[k]) at[n] = k, s.Ns[n++] = c->Ns[k];
    if (!n) break;
    s.nN = c->flat ? 1 : n, s.Ns[0] = c->flat ? c->Ns[0] : s.Ns[0], s.progress = 1, s.resume = c->resume;
    /* a folder per width (a sweep's stored config names its width); the control stores nothing */
    char dir[4096];
    if (c->dir && !c->flat) {
      if (snprintf(dir, sizeof dir, "%s/H%d", c->dir, c->Hs[h]) >= (int)sizeof dir)
        return nnt_fail(NNT_EINVAL, "rnn-width: --out is too long");
      s.dir = dir;
    }
    nnt_qstr_sweep_result sr;
    if ((st = nnt_qstr_sweep_run(&s, &sr))) break;
    for (int j = 0; j < n; j++) {
      int k = at[j];
      const nnt_qstr_point *q = &sr.pts[c->flat ? 0 : j];
      const nnt_qstr_result *p = &q->r;
      r->status[k][h] = p->diverged ? NNT_QSTR_WIDTH_DIVERGED : p->censored ? NNT_QSTR_WIDTH_CENSORED : NNT_QSTR_WIDTH_REACHED;
      r->samples[k][h] = p->samples, r->final_mse[k][h] = p->final_mse, r->wall_s[k][h] = p->wall_s;
      r->params[k][h] = (long)q->np, r->wall += c->flat && j ? 0 : p->wall_s;
      if (r->status[k][h] == NNT_QSTR_WIDTH_REACHED)
        r->hmin[k] = c->Hs[h], r->hmin_samples[k] = p->samples, r->stable[k] = 2 * p->samples <= c->budget;
    }
    nnt_qstr_sweep_result_free(&sr);
  }
  if (st) return st;
  double x[16], y[16], xr[16], yr[16];
  int m = 0;
  for (int k = 0; k < c->nN; k++) {
    r->rmin[k] = nnt_qstr_rnn_min_width(c->Ns[k], c->threshold);
    xr[k] = c->Ns[k], yr[k] = r->rmin[k];
    if (r->hmin[k]) x[m] = c->Ns[k], y[m++] = r->hmin[k];
  }
  r->slope = nnt_qstr_loglog_slope(m, x, y, NULL, &r->slope_se, NULL);
  r->rmin_slope = nnt_qstr_loglog_slope(c->nN, xr, yr, NULL, NULL, NULL);
  r->grows = nnt_qstr_rnn_width_grows(c->nN, r->hmin);
  if (!r->grows)
    return nnt_fail(NNT_ECHECK, "rnn-width: the smallest biGRU width reaching test MSE %g does not grow with N%s", c->threshold,
                    c->flat ? " (the --flat control: every N trains on the first N's task)" : "");
  return NNT_OK;
}
