/* py_icl.c — nnt_py.h's in-context GD construction: nnt icl construct's run with its numbers
 * returned in the caller's arrays. */
#include <math.h>
#include <string.h>

#include "nnt_icl_construct.h"
#include "nnt_py.h"
#include "py_guard.h"

static void set_cfg(nnt_icl_construct_cfg *c, int act, const int *iv, const double *rv, uint64_t seed) {
  nnt_icl_construct_cfg_default(c, NNT_PRESET_FULL);
  c->net.act = (nnt_icl_act)act;
  c->net.N = iv[0], c->net.K = iv[1], c->net.dx = iv[2], c->net.dy = iv[3];
  c->n = iv[4], c->steps = iv[5], c->M = iv[6];
  c->R = rv[0], c->eta = rv[1], c->B = rv[2], c->gate = rv[3], c->w0_std = rv[4], c->teacher_std = rv[5];
  c->seed = seed;
}

static int check_act(int act) {
  int n = 0;
  while (nnt_icl_act_names[n]) n++;
  return act >= 0 && act < n ? NNT_OK : nnt_fail(NNT_EINVAL, "activation %d: give 0..%d", act, n - 1);
}

int nnt_py_icgd_defaults(int quick, int *act, int ints[NNT_PY_ICGD_INTS], double reals[NNT_PY_ICGD_REALS]) {
  nnt_icl_construct_cfg c;
  nnt_icl_construct_cfg_default(&c, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL);
  *act = (int)c.net.act;
  int iv[] = {c.net.N, c.net.K, c.net.dx, c.net.dy, c.n, c.steps, c.M};
  double rv[] = {c.R, c.eta, c.B, c.gate, c.w0_std, c.teacher_std};
  memcpy(ints, iv, sizeof iv);
  memcpy(reals, rv, sizeof rv);
  return NNT_OK;
}

const char *nnt_py_icgd_act_name(int i) { return check_act(i) ? NULL : nnt_icl_act_names[i]; }

static int params(int act, const int *iv, long *D) {
  nnt_icl_construct_cfg c;
  int st = check_act(act);
  if (st) return st;
  set_cfg(&c, act, iv, (double[NNT_PY_ICGD_REALS]){1, 1, 1, 1, 0, 0}, 1);
  if ((st = nnt_icl_net_check(&c.net))) return st;
  *D = (long)nnt_icl_net_nparams(&c.net);
  return NNT_OK;
}
int nnt_py_icgd_params(int act, const int ints[NNT_PY_ICGD_INTS], long *D) { GUARDED(params(act, ints, D)); }

static int run(int act, const int *iv, const double *rv, uint64_t seed, double *per_step, double *summary, double *w_tf,
               double *w_gd) {
  nnt_icl_construct_cfg c;
  int st = check_act(act);
  if (st) return st;
  set_cfg(&c, act, iv, rv, seed);
  if ((st = nnt_icl_construct_check(&c))) return st;
  nnt_icl_construct_result r;
  if ((st = nnt_icl_construct_run(&c, &r))) return st;
  for (int l = 0; l < r.steps; l++) {
    const nnt_icl_construct_step *s = &r.step[l];
    double row[NNT_PY_ICGD_STEP_COLS] = {s->err2,    s->errinf,  s->grad_err,   s->loss_tf,  s->loss_gd,
                                         s->pred_tf, s->pred_gd, s->grad_bound, s->err_bound};
    memcpy(per_step + (size_t)l * NNT_PY_ICGD_STEP_COLS, row, sizeof row);
  }
  double sum[NNT_PY_ICGD_SUMMARY] = {r.max_err, r.max_err2, r.max_bound, r.bound_ok, r.wgd_norm, r.seconds};
  memcpy(summary, sum, sizeof sum);
  size_t D = nnt_icl_net_nparams(&c.net);
  memcpy(w_tf, r.w_tf, D * sizeof *w_tf);
  memcpy(w_gd, r.w_gd, D * sizeof *w_gd);
  nnt_icl_construct_result_free(&r);
  return NNT_OK;
}
int nnt_py_icgd_run(int act, const int ints[NNT_PY_ICGD_INTS], const double reals[NNT_PY_ICGD_REALS], uint64_t seed,
                    double *per_step, double summary[NNT_PY_ICGD_SUMMARY], double *w_tf, double *w_gd) {
  GUARDED(run(act, ints, reals, seed, per_step, summary, w_tf, w_gd));
}
