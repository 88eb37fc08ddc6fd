/* rule_learn.c — the rule-level experiment: a parity dataset, Algorithm 1, and every test point
 * run both inside the RCNN and on the direct 2-D TM simulator. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_rcnn_nn.h"
#include "nnt_rcnn_rule.h"
#include "nnt_rng.h"

/* the direct TM's step budget per test point: the RCNN's depth L = t+1 is an int */
enum { LEARN_MAX_STEPS = 100000000 };

void nnt_rcnn_learn_cfg_default(nnt_rcnn_learn_cfg *c, nnt_preset preset) {
  *c = (nnt_rcnn_learn_cfg){.learner = "gauss-parity", .d = 8, .m = 18, .tests = 100, .seed = 1, .work = 1};
  if (preset == NNT_PRESET_QUICK) c->d = 4, c->m = 10, c->tests = 20;
}

/* The compiled network's predictions run one network a thread. */
static int learn_threads(const nnt_rcnn_learn_cfg *c) {
  return c->level == 1 && omp_get_max_threads() < c->tests ? omp_get_max_threads() : c->level == 1 ? c->tests : 1;
}

/* Level 1: Algorithm 1 and the predictions again on the compiled network, each evaluated patch
 * checked against the trained rule net's f̄; the rule level's outputs become the reference. */
static int learn_nn(const nnt_rcnn_learn_cfg *c, const nnt_rcnn_tm2d *tm, nnt_rcnn_rule_net *rule, const signed char *X,
                    const signed char *y, const signed char *xs, nnt_rcnn_learn_result *r) {
  nnt_rcnn_cnet cn;
  nnt_rcnn_nn nn;
  int st = nnt_rcnn_cnet_compile(&cn, tm);
  if (st) return st;
  if ((st = nnt_rcnn_nn_init(&nn, &cn, rule, c->m, c->d, c->work, r->L, !c->nocache))) return nnt_rcnn_cnet_free(&cn), st;
  r->h1 = cn.h1, r->h2 = cn.h2;
  long nv;
  nnt_rcnn_cnet_stats(&cn, &r->nonzeros, &nv);
  r->rule_s = r->train_s + r->test_s;
  double *f = nnt_xmalloc(sizeof *f * (size_t)(c->m + 1)), t0 = nnt_now();
  nnt_rcnn_nn_train(&nn, X, y, f);
  r->train_s = nnt_now() - t0;
  r->w_err = nnt_rcnn_nn_w_err(&nn, X, y);
  for (int i = 0; i <= c->m; i++)
    if (fabs(f[i]) > r->f_sgd || isnan(f[i])) r->f_sgd = fabs(f[i]); /* a NaN output fails the check */
  free(f);
  /* the predictions in parallel, one network (grid, cache) per thread, the trained W copied */
  int nt = learn_threads(c);
  nnt_rcnn_nn *nets = nnt_xcalloc((size_t)nt, sizeof *nets);
  nets[0] = nn;
  for (int k = 1; k < nt; k++) {
    nnt_rcnn_nn_init(&nets[k], &cn, rule, c->m, c->d, c->work, r->L, !c->nocache); /* sizes already accepted */
    memcpy(nets[k].W, nn.W, sizeof *nn.W * (size_t)(c->m + 1) * (c->d + 1));
  }
  t0 = nnt_now();
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
  for (int j = 0; j < c->tests; j++) {
    nnt_rcnn_learn_point *p = &r->pt[j];
    p->f_rule = p->f;
    p->f = nnt_rcnn_nn_forward(&nets[omp_get_thread_num()], xs + (size_t)j * c->d);
    p->rcnn = fabs(p->f - 1) < 1e-6 ? 1 : fabs(p->f + 1) < 1e-6 ? -1 : 0;
  }
  r->test_s = nnt_now() - t0;
  r->agree = r->correct = 0;
  for (int j = 0; j < c->tests; j++) {
    const nnt_rcnn_learn_point *p = &r->pt[j];
    if (fabs(p->f - p->f_rule) > r->f_err) r->f_err = fabs(p->f - p->f_rule);
    r->agree += p->rcnn == p->tm, r->correct += p->rcnn == p->truth;
  }
  for (int k = 0; k < nt; k++) {
    const nnt_rcnn_nn *q = &nets[k];
    if (q->max_verr > r->max_verr) r->max_verr = q->max_verr;
    if (q->max_gerr > r->max_gerr) r->max_gerr = q->max_gerr;
    r->nchecked += q->nchecked, r->offgrid += q->offgrid, r->ncache += q->ncache, r->nlookup += q->nlookup, r->nhit += q->nhit;
    nnt_rcnn_nn_free(&nets[k]);
  }
  free(nets);
  nnt_rcnn_cnet_free(&cn);
  return NNT_OK;
}

void nnt_rcnn_learn_size(const nnt_rcnn_learn_cfg *c, long L, int threads, double *bytes, double *seconds) {
  double cells = (double)(c->m + 1) * (c->d + 1 + c->work), W = 8.0 * (c->m + 1) * (c->d + 1);
  /* the rule level: a few arrays of the grid, W, the data, the points; the compiled network: the
   * L+1 stored layers of one grid per thread (its backward pass needs them) */
  *bytes = 64 * cells + W + 3.0 * (c->m + c->tests) * c->d + 64.0 * c->tests;
  *seconds = 0;
  if (c->level == 1) {
    *bytes += threads * (8.0 * (L + 1) * cells + 64 * cells + W);
    *seconds = ((c->m + 1) + ceil((double)c->tests / threads)) * (double)L * cells / NNT_RCNN_NN_CELLS_PER_S;
  }
}

/* Refuses a run that cannot fit at depth L; with announce, says how long a long one takes. */
static int learn_fits(const nnt_rcnn_learn_cfg *c, long L, int announce) {
  double bytes, seconds;
  int nt = learn_threads(c);
  nnt_rcnn_learn_size(c, L, nt, &bytes, &seconds);
  char what[128];
  snprintf(what, sizeof what, "rcnn learn at d = %d, m = %d, depth %s%ld%s", c->d, c->m, announce ? "" : ">= ", L,
           c->level == 1 ? " (--level nn)" : "");
  int st = nnt_mem_check(bytes, what, c->level == 1 ? "lower --m or --d, or use --level rule" : "lower --m, --d or --tests");
  if (!st && announce) nnt_time_notice(seconds, 0, what, "(the compiled network's roll-outs)");
  return st;
}

int nnt_rcnn_learn_check(const nnt_rcnn_learn_cfg *c) {
  if (!c->learner) return nnt_fail(NNT_EINVAL, "rcnn learn: no learner");
  if (c->d < 1 || c->d > 64 || c->m < 1 || c->m > 10000 || c->tests < 1 || c->work < 1 || c->depth < 0 || c->level < 0 || c->level > 1)
    return nnt_fail(NNT_EINVAL, "rcnn learn: need 1 <= d <= 64, 1 <= m <= 10000, tests >= 1, work >= 1, depth >= 0, level 0 or 1");
  if (c->nocache && c->level != 1) return nnt_fail(NNT_EINVAL, "--no-cache: only with --level nn");
  /* fewer layers than the memory broadcast and the compute front take break the construction's
   * invariants (a memory cell off the ternary grid): a bad option, not a failed check */
  if (c->depth && c->depth < c->m + c->d + 1)
    return nnt_fail(NNT_EINVAL, "--depth %d: the construction needs at least m+d+1 = %d layers (to predict right also "
                    "t+1, t the TM's step count); give --depth %d or more, or 0 for the least that works", c->depth,
                    c->m + c->d + 1, c->m + c->d + 1);
  int st = learn_fits(c, c->depth ? c->depth : c->m + c->d + 1, 0);
  if (st) return st;
  nnt_rcnn_tm2d tm; /* a learner FILE read and checked before any work */
  if (!(st = nnt_rcnn_tm2d_learner_open(&tm, c->learner))) nnt_rcnn_tm2d_free(&tm);
  return st;
}

int nnt_rcnn_learn_run(const nnt_rcnn_learn_cfg *c, nnt_rcnn_learn_result *r) {
  memset(r, 0, sizeof *r);
  int d = c->d, m = c->m, st = nnt_rcnn_learn_check(c);
  if (st) return st;
  nnt_rcnn_tm2d tm;
  if ((st = nnt_rcnn_tm2d_learner_open(&tm, c->learner))) return st;
  signed char *X = nnt_xmalloc((size_t)m * d), *y = nnt_xmalloc(m), *xs = nnt_xmalloc((size_t)c->tests * d);
  unsigned char *fz = nnt_xcalloc(m + 1, 1);
  r->pt = nnt_xcalloc(c->tests, sizeof *r->pt);
  uint64_t secret;
  nnt_rcnn_tm2d_parity(d, m, c->seed, X, y, xs, &secret); /* its own x is replaced below */
  nnt_rng g;
  nnt_rng_init(&g, c->seed, 1);
  r->tests = c->tests, r->work = c->work, r->nstates = tm.nstates;
  for (int j = 0; j < c->tests; j++) {
    signed char *x = xs + (size_t)j * d;
    nnt_rcnn_learn_point *p = &r->pt[j];
    p->truth = 1;
    for (int b = 0; b < d; b++) {
      x[b] = (signed char)(nnt_rng_u64(&g) >> 63 ? -1 : 1);
      if (secret >> b & 1) p->truth *= x[b];
    }
    nnt_rcnn_tm2d_tape tape;
    nnt_rcnn_tm2d_result tr;
    if (!st) st = nnt_rcnn_tm2d_tape_xor(&tape, m, d, c->work, X, y, x);
    if (!st) st = nnt_rcnn_tm2d_run(&tm, &tape, LEARN_MAX_STEPS, &tr), nnt_rcnn_tm2d_tape_free(&tape);
    char what[48];
    snprintf(what, sizeof what, "test point %d", j + 1);
    if (!st) st = nnt_rcnn_tm2d_rcnn_run_ok(&tr, c->learner, what, LEARN_MAX_STEPS);
    if (st) break;
    p->tm = tr.output, p->steps = tr.steps;
    if (tr.steps > r->t_max) r->t_max = tr.steps;
  }
  /* L = max(m+1 memory broadcast, m+d+1 compute front, t+1 TM steps after the head is placed) */
  /* (a depth of at least m+d+1 but below t+1 is a valid network whose roll-out stops the TM early:
   * its wrong predictions are results, reported as disagreements) */
  r->L = c->depth ? c->depth : m + d + 1 > r->t_max + 1 ? m + d + 1 : (int)r->t_max + 1;
  if (!st) st = learn_fits(c, r->L, 1);
  nnt_rcnn_rule_net net;
  if (!st && !(st = nnt_rcnn_rule_init(&net, &tm, m, d, c->work, r->L))) {
    r->K = net.tern.K;
    double t0 = nnt_now();
    st = nnt_rcnn_rule_train(&net, X, y, fz);
    r->train_s = nnt_now() - t0;
    r->w_exact = !st && nnt_rcnn_rule_w_exact(&net, X, y);
    for (int i = 0; i <= m; i++) r->fzero_steps += fz[i];
    t0 = nnt_now();
    for (int j = 0; j < c->tests && !st; j++) {
      nnt_rcnn_learn_point *p = &r->pt[j];
      int64_t F;
      if ((st = nnt_rcnn_rule_forward(&net, xs + (size_t)j * d, &F))) break;
      p->f = (double)F / net.tern.scale;
      p->rcnn = F == net.tern.scale ? 1 : F == -net.tern.scale ? -1 : 0;
      r->agree += p->rcnn == p->tm, r->correct += p->rcnn == p->truth;
    }
    r->test_s = nnt_now() - t0;
    if (!st && c->level == 1) st = learn_nn(c, &tm, &net, X, y, xs, r);
    nnt_rcnn_tern_set u;
    nnt_rcnn_tern_universe(&u, &net.tern, tm.nstates);
    r->nvalues = net.seen.count, r->nuniverse = u.count, r->values_ok = nnt_rcnn_tern_set_within(&net.seen, &u);
    nnt_rcnn_tern_set_free(&u);
    nnt_rcnn_rule_free(&net);
  }
  free(X), free(y), free(xs), free(fz);
  nnt_rcnn_tm2d_free(&tm);
  if (st) nnt_rcnn_learn_result_free(r);
  return st;
}

void nnt_rcnn_learn_result_free(nnt_rcnn_learn_result *r) { free(r->pt), r->pt = NULL; }

int nnt_rcnn_learn_points(const char *name, int nn, int m, int d, const signed char *X, const signed char *y, int n,
                          const signed char *xs, int *pred, int *tm_out) {
  nnt_rcnn_tm2d tm;
  int st = nnt_rcnn_tm2d_learner(&tm, name);
  if (st) return st;
  long tmax = 0;
  for (int j = 0; j < n && !st; j++) {
    nnt_rcnn_tm2d_tape tape;
    nnt_rcnn_tm2d_result tr;
    if (!(st = nnt_rcnn_tm2d_tape_xor(&tape, m, d, 1, X, y, xs + (size_t)j * d)))
      st = nnt_rcnn_tm2d_run(&tm, &tape, 1000000000, &tr), nnt_rcnn_tm2d_tape_free(&tape);
    tm_out[j] = st ? 0 : tr.output;
    if (!st && tr.steps > tmax) tmax = tr.steps;
  }
  int L = m + d + 1 > tmax + 1 ? m + d + 1 : (int)tmax + 1;
  nnt_rcnn_rule_net net;
  if (!st && !(st = nnt_rcnn_rule_init(&net, &tm, m, d, 1, L))) {
    if (!nn) {
      st = nnt_rcnn_rule_train(&net, X, y, NULL);
      for (int j = 0; j < n && !st; j++) {
        int64_t F;
        st = nnt_rcnn_rule_forward(&net, xs + (size_t)j * d, &F);
        pred[j] = F == net.tern.scale ? 1 : F == -net.tern.scale ? -1 : 0;
      }
    } else {
      nnt_rcnn_cnet cn;
      nnt_rcnn_nn net_nn;
      if (!(st = nnt_rcnn_cnet_compile(&cn, &tm))) {
        if (!(st = nnt_rcnn_nn_init(&net_nn, &cn, NULL, m, d, 1, L, 1))) {
          nnt_rcnn_nn_train(&net_nn, X, y, NULL);
          for (int j = 0; j < n; j++) {
            double f = nnt_rcnn_nn_forward(&net_nn, xs + (size_t)j * d);
            pred[j] = fabs(f - 1) < 1e-6 ? 1 : fabs(f + 1) < 1e-6 ? -1 : 0;
          }
          nnt_rcnn_nn_free(&net_nn);
        }
        nnt_rcnn_cnet_free(&cn);
      }
    }
    nnt_rcnn_rule_free(&net);
  }
  nnt_rcnn_tm2d_free(&tm);
  return st;
}
