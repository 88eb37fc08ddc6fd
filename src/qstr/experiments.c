/* Seed 001's experiments as config -> run -> result: the Figure-1 sweep, Figure 2's attention
 * matrix, the head-count experiment, the eq. (A.2) construction and Theorem 6's bound. */
#include <cblas.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

/* ---------------------------------------------------------------- Figure 1 sweep */

void nnt_qstr_sweep_cfg_default(nnt_qstr_sweep_cfg *s, nnt_preset preset) {
  memset(s, 0, sizeof *s);
  s->arch = NNT_QSTR_TR;
  nnt_qstr_task_cfg_default(&s->task, 2);
  nnt_qstr_train_cfg_default(&s->train);
  s->m = 100, s->heads = 1, s->hidden_size = 500;
  s->n_hidden = 2, s->hidden[0] = 0, s->hidden[1] = 1000; /* the released FFN: N*d, 1000 */
  s->nN = 6;
  for (int k = 0; k < 6; k++) s->Ns[k] = 2 + 2 * k;
  s->reps = 5, s->seed = 1;
  if (preset == NNT_PRESET_QUICK) {
    s->nN = 3, s->Ns[0] = 4, s->Ns[1] = 8, s->Ns[2] = 12;
    s->reps = 1, s->train.n_test = 1000, s->hidden_size = 64;
  }
}

void nnt_qstr_sweep_figure(nnt_qstr_sweep_cfg *s, int figure, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK, b = figure == 2;
  static const int Na[] = {2, 4, 6, 8, 10, 12}, Nb[] = {25, 27, 29, 31, 33}, Nqa[] = {2, 4, 6}, Nqb[] = {8, 10};
  s->figure = b ? 2 : 1;
  s->task.simple = b, s->task.q = 1, s->task.d = 10, s->task.de = 0, s->task.link = NNT_QSTR_LINK_LINEAR;
  s->task.law = NNT_QSTR_LAW_UNIFORM, s->task.enc = NNT_QSTR_ENC_CODE, s->task.no_dup_codes = 0, s->task.noise = 0;
  s->train.threshold = b ? 0.02 : 0.7, s->train.check_every = b ? 100 : 10, s->train.test_simple = 1;
  s->train.batch = 64, s->train.lr = 1e-3, s->train.wd = 0.01;
  s->train.n_test = quick ? 1000 : 5000, s->train.max_samples = quick && b ? 128000 : 1000000;
  s->reps = quick ? 1 : 5, s->hidden_size = quick ? 64 : 500, s->m = 100;
  s->n_hidden = 2, s->hidden[0] = 0, s->hidden[1] = 1000;
  const int *Ns = quick ? (b ? Nqb : Nqa) : (b ? Nb : Na);
  s->nN = quick ? (b ? 2 : 3) : (b ? 5 : 6);
  memcpy(s->Ns, Ns, sizeof(int) * (size_t)s->nN);
}

int nnt_qstr_sweep_model(const nnt_qstr_sweep_cfg *s, int N, int D, nnt_qstr_model *mo) {
  int hid[NNT_QSTR_MAXL], nh = s->arch == NNT_QSTR_FFN ? s->n_hidden : 0;
  for (int l = 0; l < nh; l++) hid[l] = s->hidden[l] ? s->hidden[l] : N * s->task.d;
  return nnt_qstr_model_setup(mo, s->arch, N, D, s->m, s->arch == NNT_QSTR_TRP ? s->heads : s->hidden_size, nh, hid);
}

int nnt_qstr_sweep_check(const nnt_qstr_sweep_cfg *s) {
  if (s->nN < 1 || s->nN > 64) return nnt_fail(NNT_EINVAL, "sweep: 1 to 64 values of N (got %d)", s->nN);
  if (s->reps < 1 || s->reps > 1000) return nnt_fail(NNT_EINVAL, "sweep: reps must be in [1, 1000] (got %d)", s->reps);
  if (!(s->train.threshold > 0)) return nnt_fail(NNT_EINVAL, "--threshold must be > 0 (got %g)", s->train.threshold);
  for (int k = 0; k < s->nN; k++) {
    if (s->Ns[k] < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", s->Ns[k]);
    for (int j = 0; j < k; j++)
      if (s->Ns[j] == s->Ns[k]) return nnt_fail(NNT_EINVAL, "--N: %d twice", s->Ns[k]);
  }
  for (int k = 0; k < s->nN; k++) {
    nnt_qstr_task_cfg tc = s->task;
    tc.N = s->Ns[k];
    nnt_qstr_task t;
    int st = nnt_qstr_task_init(&t, &tc, s->seed);
    if (st) return st;
    nnt_qstr_model mo;
    st = nnt_qstr_sweep_model(s, tc.N, t.D, &mo);
    nnt_qstr_task_free(&t);
    if (st) return st;
    /* an estimate of what a run holds: the parameters in float64 and float32 with their gradients
     * and Adam moments, a gradient per thread, the fast evaluator's folded copies of the MLP
     * (m x D, twice, float64) and the fixed test set (prompts, targets, token indices) */
    double bytes = (double)mo.np * ((8 + 4) * 4 + 8.0 * nnt_threads_get()) + 2.0 * 8 * s->m * t.D +
                   (double)s->train.n_test * tc.N * ((double)t.D * 4 + 4 + 4.0 * tc.q) +
                   4.0 * nnt_qstr_ws_elems(&mo, s->train.batch) * nnt_threads_get();
    char what[96];
    snprintf(what, sizeof what, "the %s model at N = %d", nnt_qstr_arch_names[s->arch], tc.N);
    if ((st = nnt_mem_check(bytes, what, "lower --N, --d, --batch or the model's width"))) return st;
  }
  return NNT_OK;
}

double nnt_qstr_sweep_seconds(const nnt_qstr_sweep_cfg *s) {
  double macs = 0;
  for (int k = 0; k < s->nN; k++) {
    int N = s->Ns[k], q = s->task.q, de = s->task.de > 0 ? s->task.de : nnt_qstr_default_de(N);
    nnt_qstr_model mo;
    if (nnt_qstr_sweep_model(s, N, s->task.d + (q + 1) * de, &mo)) continue;
    /* a forward pass of one prompt: every parameter once per token (the FFN's once), plus attention */
    double fwd = s->arch == NNT_QSTR_FFN ? (double)mo.np : (double)mo.np * N;
    if (s->arch == NNT_QSTR_TR || s->arch == NNT_QSTR_TRP) fwd += 2.0 * N * N * mo.D * (s->arch == NNT_QSTR_TRP ? mo.H : 1);
    double steps = (double)s->train.max_samples / s->train.batch;
    macs += s->reps * (3.6 * fwd * s->train.max_samples + steps / s->train.check_every * s->train.n_test * fwd);
  }
  int th = s->threads > 0 ? s->threads : nnt_threads_get(), pts = s->nN * s->reps;
  return macs / NNT_QSTR_MACS_PER_S / (th < pts ? th : pts);
}

/* Everything a point's result depends on besides its N and rep: a stored sweep resumes only
 * under the same text. */
static void sweep_describe(const nnt_qstr_sweep_cfg *s, char *buf, size_t n) {
  const nnt_qstr_task_cfg *t = &s->task;
  const nnt_qstr_train_cfg *c = &s->train;
  int len = snprintf(buf, n,
                     "model=%s d=%d q=%d de=%d simple=%d link=%d law=%d enc=%d noise=%.17g no_dup=%d teacher_m=%d "
                     "batch=%d lr=%.17g wd=%.17g threshold=%.17g check_every=%d n_test=%d test_simple=%d "
                     "max_samples=%ld m=%d H=%d hidden=",
                     nnt_qstr_arch_names[s->arch], t->d, t->q, t->de, t->simple, t->link, t->law, t->enc, t->noise,
                     t->no_dup_codes, t->teacher_m, c->batch, c->lr, c->wd, c->threshold, c->check_every, c->n_test,
                     c->test_simple, c->max_samples, s->m, s->arch == NNT_QSTR_TRP ? s->heads : s->hidden_size);
  for (int l = 0; s->arch == NNT_QSTR_FFN && l < s->n_hidden && len < (int)n; l++)
    len += snprintf(buf + len, n - (size_t)len, "%s%d", l ? "," : "", s->hidden[l]);
  if (len < (int)n) snprintf(buf + len, n - (size_t)len, " seed=%" PRIu64, s->seed);
}

typedef struct {
  const nnt_qstr_sweep_cfg *s;
  nnt_qstr_task *tasks;
  nnt_qstr_model *models;
  uint64_t *ids;
} sweep_ctx;

static int sweep_point(void *ctx_, int i, void *rec) {
  const sweep_ctx *c = ctx_;
  int k = i / c->s->reps;
  nnt_qstr_point *p = rec;
  p->N = c->s->Ns[k], p->rep = i % c->s->reps, p->de = c->tasks[k].c.de, p->D = c->tasks[k].D;
  p->np = (int64_t)c->models[k].np;
  nnt_qstr_train_online(&c->tasks[k], &c->models[k], &c->s->train, c->s->seed, c->ids[i], &p->r);
  return NNT_OK;
}

#define PCOL(name, type, f) NNT_SWEEP_COL(name, type, nnt_qstr_point, f)
static const nnt_sweep_col point_cols[] = {
    PCOL("N", NNT_SWEEP_T_INT, N), PCOL("rep", NNT_SWEEP_T_INT, rep), PCOL("de", NNT_SWEEP_T_INT, de),
    PCOL("D", NNT_SWEEP_T_INT, D), PCOL("params", NNT_SWEEP_T_I64, np), PCOL("samples", NNT_SWEEP_T_I64, r.samples),
    PCOL("censored", NNT_SWEEP_T_INT, r.censored), PCOL("diverged", NNT_SWEEP_T_INT, r.diverged),
    PCOL("steps", NNT_SWEEP_T_I64, r.steps), PCOL("final_mse", NNT_SWEEP_T_DOUBLE, r.final_mse),
    PCOL("wall_s", NNT_SWEEP_T_DOUBLE, r.wall_s),
    PCOL("data_s", NNT_SWEEP_T_DOUBLE, r.phase_s[NNT_QSTR_PHASE_DATA]),
    PCOL("fwd_s", NNT_SWEEP_T_DOUBLE, r.phase_s[NNT_QSTR_PHASE_FWD]),
    PCOL("bwd_s", NNT_SWEEP_T_DOUBLE, r.phase_s[NNT_QSTR_PHASE_BWD]),
    PCOL("eval_s", NNT_SWEEP_T_DOUBLE, r.phase_s[NNT_QSTR_PHASE_EVAL]),
    PCOL("data_macs", NNT_SWEEP_T_DOUBLE, r.phase_macs[NNT_QSTR_PHASE_DATA]),
    PCOL("fwd_macs", NNT_SWEEP_T_DOUBLE, r.phase_macs[NNT_QSTR_PHASE_FWD]),
    PCOL("bwd_macs", NNT_SWEEP_T_DOUBLE, r.phase_macs[NNT_QSTR_PHASE_BWD]),
    PCOL("eval_macs", NNT_SWEEP_T_DOUBLE, r.phase_macs[NNT_QSTR_PHASE_EVAL]),
};

int nnt_qstr_sweep_run(const nnt_qstr_sweep_cfg *s, nnt_qstr_sweep_result *res) {
  memset(res, 0, sizeof *res);
  int st = nnt_qstr_sweep_check(s);
  if (st) return st;
  if (s->progress)
    nnt_time_notice(nnt_qstr_sweep_seconds(s), 1, "qstr sweep", "(should no run reach --threshold before --max-samples)");
  int nN = s->nN, R = s->reps, n = nN * R;
  sweep_ctx c = {s, nnt_xcalloc((size_t)nN, sizeof(nnt_qstr_task)), nnt_xcalloc((size_t)nN, sizeof(nnt_qstr_model)),
                 nnt_xmalloc(sizeof(uint64_t) * (size_t)n)};
  double *cost = nnt_xmalloc(sizeof(double) * (size_t)n);
  for (int k = 0; k < nN && !st; k++) {
    nnt_qstr_task_cfg tc = s->task;
    tc.N = s->Ns[k];
    if (!(st = nnt_qstr_task_init(&c.tasks[k], &tc, s->seed))) st = nnt_qstr_sweep_model(s, tc.N, c.tasks[k].D, &c.models[k]);
  }
  for (int i = 0; i < n; i++) {
    c.ids[i] = (uint64_t)s->Ns[i / R] * 1024 + (uint64_t)(i % R);
    cost[i] = (double)c.models[i / R].np * c.models[i / R].N;
  }
  char config[2048];
  sweep_describe(s, config, sizeof config);
  nnt_sweep sw = {.name = "qstr sweep", .config = config, .npoints = n, .ids = c.ids, .cost = cost,
                  .rec_size = sizeof(nnt_qstr_point), .cols = point_cols,
                  .ncols = (int)(sizeof point_cols / sizeof point_cols[0]), .nkeys = 2, .point = sweep_point, .ctx = &c,
                  .threads = s->threads, .progress = s->progress, .dir = s->dir, .resume = s->resume};
  res->pts = nnt_xcalloc((size_t)n, sizeof *res->pts);
  res->n = n;
  nnt_sweep_stats ss;
  if (!st) st = nnt_sweep_run(&sw, res->pts, &ss);
  if (!st) res->stored = ss.stored, res->computed = ss.computed, res->wall_s = ss.wall_s;
  for (int k = 0; k < nN; k++) nnt_qstr_task_free(&c.tasks[k]);
  free(c.tasks), free(c.models), free(c.ids), free(cost);
  return st;
}

void nnt_qstr_sweep_result_free(nnt_qstr_sweep_result *res) {
  free(res->pts);
  memset(res, 0, sizeof *res);
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

void nnt_qstr_sweep_stats(const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *res, int k, double *med,
                          double *lo, double *hi, int *censored) {
  int R = s->reps;
  long *v = nnt_xmalloc(sizeof(long) * (size_t)R);
  *censored = 0;
  for (int r = 0; r < R; r++) v[r] = res->pts[k * R + r].r.samples, *censored += res->pts[k * R + r].r.censored;
  qsort(v, (size_t)R, sizeof(long), cmp_long);
  *med = R % 2 ? (double)v[R / 2] : 0.5 * ((double)v[R / 2 - 1] + (double)v[R / 2]); /* the sum in long may overflow */
  *lo = (double)v[0], *hi = (double)v[R - 1];
  free(v);
}

double nnt_qstr_loglog_slope(int n, const double *x, const double *y, double *r2, double *se, int *used) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  int m = 0;
  for (int k = 0; k < n; k++) {
    if (!(x[k] > 0 && y[k] > 0 && isfinite(x[k]) && isfinite(y[k]))) continue;
    double a = log(x[k]), b = log(y[k]);
    sx += a, sy += b, sxx += a * a, sxy += a * b, syy += b * b, m++;
  }
  if (used) *used = m;
  double vx = m ? sxx - sx * sx / m : 0, vy = m ? syy - sy * sy / m : 0, cxy = m ? sxy - sx * sy / m : 0;
  if (r2) *r2 = NAN;
  if (se) *se = NAN;
  if (m < 2 || !(vx > 1e-12 * (sxx > 0 ? sxx : 1))) return NAN;
  if (r2) *r2 = vy > 0 ? cxy * cxy / (vx * vy) : 1;
  if (se && m > 2) *se = sqrt(fmax(vy - cxy * cxy / vx, 0) / (m - 2) / vx); /* residual variance over vx */
  return cxy / vx;
}

/* ---------------------------------------------------------------- Figure 2: attention */

nnt_qstr_attn_score nnt_qstr_attention_score(const double *M, int D, int d, int de) {
  nnt_qstr_attn_score s = {0, 0, 0, 0};
  double tot = 0, blk = 0, dg = 0, off = 0, tr = 0;
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) {
      double v = M[i * D + j];
      tot += v * v;
      int in = i >= d + de && i < d + 2 * de && j >= d && j < d + de;
      if (!in) continue;
      blk += v * v;
      if (i - (d + de) == j - d) dg += fabs(v), tr += v;
      else off += fabs(v);
    }
  s.block_share = tot > 0 ? blk / tot : 0;
  s.diag_ratio = off > 0 ? (dg / de) / (off / (de * (de - 1.0))) : INFINITY;
  s.cosine = tot > 0 ? tr / (sqrt(tot) * sqrt((double)de)) : 0;
  s.random_share = (double)de * de / ((double)D * D);
  return s;
}

void nnt_qstr_attention_cfg_default(nnt_qstr_attention_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  int quick = preset == NNT_PRESET_QUICK;
  c->N = quick ? 20 : 100, c->n_train = quick ? 4000 : 50000, c->epochs = 20, c->n_test = quick ? 1000 : 10000;
  c->batch = 64, c->m = 100, c->lr = 1e-3, c->wd = 0.2, c->stop_loss = 0.05, c->simple = 1;
  nnt_qstr_task_cfg_default(&c->task, c->N);
  c->seed = 1;
}

/* W_q^T W_k from the stacked in-projection of a tr parameter vector: (.)_{ij} = sum_r Wq[r][i] Wk[r][j]. */
static void wqk_f32(const float *Wq, int D, double *M) {
  const float *Wk = Wq + (size_t)D * D;
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) {
      double s = 0;
      for (int r = 0; r < D; r++) s += (double)Wq[r * D + i] * Wk[r * D + j];
      M[i * D + j] = s;
    }
}

int nnt_qstr_attention_check(const nnt_qstr_attention_cfg *c) {
  if (c->N < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", c->N);
  if (!(c->stop_loss > 0)) return nnt_fail(NNT_EINVAL, "--threshold must be > 0 (got %g)", c->stop_loss);
  int N = c->N, de = c->task.de > 0 ? c->task.de : nnt_qstr_default_de(N), q = 1;
  nnt_qstr_model mo;
  int st = nnt_qstr_model_setup(&mo, NNT_QSTR_TR, N, c->task.d + (q + 1) * de, c->m, 1, 0, NULL);
  if (st) return st;
  /* the training set kept whole (float prompts and labels), the test set, a batch, the workspace
   * (at least nnt_qstr_train_fixed's 128-prompt evaluation chunk), parameters with gradient and moments */
  double row = (double)N * mo.D, B = c->batch > 128 ? c->batch : 128;
  double bytes = 4 * ((double)c->n_train + c->n_test) * (row + N + 1) + 4 * c->batch * (row + 3.0 * N) +
                 4 * nnt_qstr_ws_elems(&mo, (int)B) + (double)mo.np * (4 * 4 + 8 * 3) + 8.0 * 2 * mo.D * mo.D;
  char what[96];
  snprintf(what, sizeof what, "qstr attention at N = %d with %d training prompts", N, c->n_train);
  return nnt_mem_check(bytes, what, "lower --n-train, --N or --d");
}

int nnt_qstr_attention_run(const nnt_qstr_attention_cfg *c, nnt_qstr_attention_result *r) {
  memset(r, 0, sizeof *r);
  int st0 = nnt_qstr_attention_check(c);
  if (st0) return st0;
  nnt_qstr_task_cfg tc = c->task;
  tc.N = c->N;
  nnt_qstr_task t;
  int st = nnt_qstr_task_init(&t, &tc, c->seed);
  if (st) return st;
  nnt_qstr_model mo;
  if ((st = nnt_qstr_model_setup(&mo, NNT_QSTR_TR, c->N, t.D, c->m, 1, 0, NULL))) {
    nnt_qstr_task_free(&t);
    return st;
  }
  nnt_qstr_result res;
  int threads = nnt_threads_get();
  openblas_set_num_threads(1); /* one run of small products: threads only add synchronisation */
  nnt_qstr_train_fixed(&t, &mo, c->simple, c->n_train, c->n_test, c->epochs, c->batch, c->lr, c->wd, c->stop_loss,
                       c->seed, 1, &res, &r->train_loss);
  openblas_set_num_threads(threads);
  int D = t.D;
  r->D = D, r->d = t.c.d, r->de = t.c.de, r->epochs = res.steps, r->test_mse = res.final_mse;
  r->wqk = nnt_xmalloc(sizeof(double) * (size_t)D * D);
  wqk_f32(res.params + mo.win, D, r->wqk);
  r->score = nnt_qstr_attention_score(r->wqk, D, r->d, r->de);
  /* the same score for the initial (random) matrix */
  double *p0 = nnt_xmalloc(sizeof(double) * mo.np), *M0 = nnt_xmalloc(sizeof(double) * (size_t)D * D);
  nnt_rng ri;
  nnt_rng_init(&ri, c->seed, 8);
  nnt_qstr_model_init(&mo, &ri, p0);
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) {
      double s = 0;
      for (int q = 0; q < D; q++) s += p0[mo.win + q * D + i] * p0[mo.win + (size_t)D * D + q * D + j];
      M0[i * D + j] = s;
    }
  r->init_score = nnt_qstr_attention_score(M0, D, r->d, r->de);
  free(p0), free(M0), free(res.params);
  nnt_qstr_task_free(&t);
  return NNT_OK;
}

void nnt_qstr_attention_result_free(nnt_qstr_attention_result *r) {
  free(r->wqk);
  r->wqk = NULL;
}

/* ---------------------------------------------------------------- heads */

void nnt_qstr_heads_cfg_default(nnt_qstr_heads_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  int quick = preset == NNT_PRESET_QUICK;
  /* Prop. 3's law (tokens i >= N/2 zero and pointing at 1..q) with d large enough for its bound
   * 1 - H(q+d)/(qd) to say something below H = q: q = 3, d = 12 give 0.583 and 0.167 at H = 1, 2;
   * N = 6 (the law needs q <= N/2), a 64-wide 2NN; nH = 0: H = 1..q+1 */
  c->q = 3, c->d = 12, c->N = 6, c->m = 64, c->lr = 3e-3, c->wd = 0.01, c->batch = 64;
  c->law = NNT_QSTR_LAW_ADVERSARIAL;
  c->samples = quick ? 32000 : 256000, c->n_test = quick ? 500 : 2000, c->check_every = 100;
  c->cons_n = quick ? 200 : 2000, c->seed = 1;
}

typedef struct {
  int H;
  double mse, se;
} heads_rec;
static const nnt_sweep_col heads_cols[] = {NNT_SWEEP_INT(heads_rec, H), NNT_SWEEP_DOUBLE(heads_rec, mse),
                                           NNT_SWEEP_DOUBLE(heads_rec, se)};

typedef struct {
  const nnt_qstr_task *task;
  const nnt_qstr_model *models;
  const nnt_qstr_train_cfg *train;
  const int *Hs;
  uint64_t seed;
} heads_ctx;

/* Test MSE of the trained parameters on n fresh prompts of the task's law (stream 8 point + 5,
 * which training does not use) and its standard error between prompts. */
static void heads_test(const nnt_qstr_task *t, const nnt_qstr_model *mo, const float *p, int n, uint64_t seed,
                       uint64_t point, double *mse, double *se) {
  enum { CH = 128 };
  int N = t->c.N, D = t->D;
  float *X = nnt_xmalloc(sizeof(float) * CH * N * D), *y = nnt_xmalloc(sizeof(float) * CH * N);
  float *yh = nnt_xmalloc(sizeof(float) * CH * N);
  nnt_qstr_ws_f32 *ws = nnt_qstr_ws_new_f32(mo, CH);
  nnt_rng r;
  nnt_rng_init(&r, seed, 8 * point + 5);
  double s1 = 0, s2 = 0;
  for (int b0 = 0; b0 < n; b0 += CH) {
    int B = n - b0 < CH ? n - b0 : CH;
    nnt_qstr_sample_f32(t, &r, B, -1, X, y, NULL);
    nnt_qstr_forward_f32(mo, ws, p, X, B, yh);
    for (int b = 0; b < B; b++) {
      double e = 0;
      for (int i = 0; i < N; i++) {
        double d = (double)yh[b * N + i] - y[b * N + i];
        e += d * d;
      }
      e /= N;
      s1 += e, s2 += e * e;
    }
  }
  *mse = s1 / n;
  *se = n > 1 ? sqrt(fmax(s2 / n - *mse * *mse, 0) / (n - 1)) : INFINITY;
  nnt_qstr_ws_free_f32(ws);
  free(X), free(y), free(yh);
}

static int heads_point(void *ctx_, int i, void *rec_) {
  const heads_ctx *c = ctx_;
  heads_rec *rec = rec_;
  nnt_qstr_result r;
  uint64_t point = 100000 + (uint64_t)c->Hs[i];
  nnt_qstr_train_online(c->task, &c->models[i], c->train, c->seed, point, &r);
  rec->H = c->Hs[i];
  heads_test(c->task, &c->models[i], r.params, c->train->n_test, c->seed, point, &rec->mse, &rec->se);
  free(r.params);
  return NNT_OK;
}

int nnt_qstr_heads_judge(nnt_qstr_heads_result *r) {
  r->violations = 0;
  for (int h = 0; h < r->nH; h++) {
    r->below[h] = r->checked && r->mse[h] + 5 * r->se[h] < r->bound[h];
    r->violations += r->below[h];
  }
  if (r->violations)
    return nnt_fail(NNT_ECHECK, "heads: %d trained error(s) below the proven bound 1 - H(q+d)/(qd) by more than 5 standard errors",
                    r->violations);
  return NNT_OK;
}

/* The head counts run: --H, or 1..q+1. */
static int heads_list(const nnt_qstr_heads_cfg *c, int *Hs) {
  if (c->nH) return memcpy(Hs, c->Hs, sizeof(int) * 16), c->nH;
  int nH = c->q + 1 < 16 ? c->q + 1 : 16;
  for (int h = 0; h < nH; h++) Hs[h] = h + 1;
  return nH;
}

double nnt_qstr_heads_bytes(const nnt_qstr_heads_cfg *c, int threads, double *seconds) {
  int Hs[16], nH = heads_list(c, Hs), de = c->de > 0 ? c->de : nnt_qstr_default_de(c->N), D = c->d + (c->q + 1) * de;
  double peak = 0, macs = 0;
  for (int h = 0; h < nH; h++) {
    nnt_qstr_model mo;
    if (nnt_qstr_model_setup(&mo, NNT_QSTR_TRP, c->N, D, c->m, Hs[h], 0, NULL)) continue;
    /* as a sweep's point (nnt_qstr_sweep_check): parameters with gradients and Adam moments, a
     * gradient and a workspace per thread, the test prompts */
    double bytes = (double)mo.np * (48 + 8.0 * threads) + 4.0 * nnt_qstr_ws_elems(&mo, c->batch > 128 ? c->batch : 128) * threads +
                   (double)c->n_test * c->N * (4.0 * D + 4 + 4.0 * c->q);
    peak = fmax(peak, bytes);
    double fwd = (double)mo.np * c->N + 2.0 * c->N * c->N * D * Hs[h];
    macs += 3.6 * fwd * c->samples + (double)c->samples / c->batch / c->check_every * c->n_test * fwd;
  }
  if (seconds) *seconds = macs / NNT_QSTR_MACS_PER_S / (threads < nH ? threads : nH);
  return peak + 8.0 * c->N * de;
}

int nnt_qstr_heads_check(const nnt_qstr_heads_cfg *c) {
  int Hs[16], nH = heads_list(c, Hs);
  if (c->N < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", c->N);
  if (c->q > c->N) return nnt_fail(NNT_EINVAL, "--q: q = %d > N = %d", c->q, c->N);
  if (c->n_test < 2) return nnt_fail(NNT_EINVAL, "--n-test: at least 2 prompts (got %d)", c->n_test);
  for (int h = 0; h < nH; h++)
    for (int g = 0; g < h; g++)
      if (Hs[g] == Hs[h]) return nnt_fail(NNT_EINVAL, "--H: %d twice", Hs[h]);
  int threads = c->threads > 0 ? c->threads : nnt_threads_get();
  char what[96];
  snprintf(what, sizeof what, "qstr heads at N = %d, d = %d, H up to %d", c->N, c->d, Hs[nH - 1]);
  return nnt_mem_check(nnt_qstr_heads_bytes(c, threads, NULL), what, "lower --N (each head's attention is N x N), --d, --m or --H");
}

int nnt_qstr_heads_run(const nnt_qstr_heads_cfg *c, nnt_qstr_heads_result *r) {
  memset(r, 0, sizeof *r);
  int Hs[16], nH = heads_list(c, Hs);
  int st0 = nnt_qstr_heads_check(c);
  if (st0) return st0;
  double seconds;
  nnt_qstr_heads_bytes(c, c->threads > 0 ? c->threads : nnt_threads_get(), &seconds);
  nnt_time_notice(seconds, 1, "qstr heads", "(every head count trains for --samples)");
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, c->N);
  tc.d = c->d, tc.q = c->q, tc.de = c->de, tc.link = NNT_QSTR_LINK_NORMSQ, tc.enc = NNT_QSTR_ENC_PAPER, tc.no_dup_codes = 1;
  tc.law = c->law;
  nnt_qstr_task t;
  int st = nnt_qstr_task_init(&t, &tc, c->seed);
  if (st) return st;
  nnt_qstr_train_cfg tr;
  nnt_qstr_train_cfg_default(&tr);
  tr.threshold = 1e-300, tr.check_every = c->check_every, tr.n_test = c->n_test, tr.max_samples = c->samples;
  tr.lr = c->lr, tr.wd = c->wd, tr.batch = c->batch, tr.keep_params = 1;
  nnt_qstr_model mos[16];
  uint64_t ids[16];
  double cost[16];
  for (int h = 0; h < nH && !st; h++) {
    st = nnt_qstr_model_setup(&mos[h], NNT_QSTR_TRP, c->N, t.D, c->m, Hs[h], 0, NULL);
    ids[h] = 100000 + (uint64_t)Hs[h], cost[h] = (double)mos[h].np;
  }
  char config[512];
  snprintf(config, sizeof config,
           "q=%d d=%d N=%d m=%d de=%d samples=%ld n_test=%d check_every=%d lr=%.17g wd=%.17g batch=%d law=%d seed=%" PRIu64,
           c->q, c->d, c->N, c->m, c->de, c->samples, c->n_test, c->check_every, c->lr, c->wd, c->batch, (int)c->law, c->seed);
  heads_ctx hc = {&t, mos, &tr, Hs, c->seed};
  heads_rec recs[16];
  nnt_sweep sw = {.name = "qstr heads", .config = config, .npoints = nH, .ids = ids, .cost = cost,
                  .rec_size = sizeof(heads_rec), .cols = heads_cols, .ncols = 3, .nkeys = 1, .point = heads_point, .ctx = &hc,
                  .threads = c->threads, .dir = c->dir, .resume = c->resume};
  if (!st) st = nnt_sweep_run(&sw, recs, NULL);
  r->nH = nH;
  r->checked = c->law == NNT_QSTR_LAW_ADVERSARIAL;
  for (int h = 0; h < nH && !st; h++) {
    r->Hs[h] = Hs[h], r->mse[h] = recs[h].mse, r->se[h] = recs[h].se;
    r->bound[h] = nnt_qstr_heads_bound(Hs[h], c->q, c->d);
    r->bound_exact[h] = c->d == 1 ? nnt_qstr_heads_bound_exact(Hs[h], c->q) : NAN;
  }
  if (!st) { /* construction: eq. (A.2) attention with q heads and the exact link, sharp alpha */
    nnt_rng rc;
    nnt_rng_init(&rc, c->seed, 200000);
    r->construction_mse = nnt_qstr_construct_link_mse(&t, 20.0, &rc, c->cons_n);
  }
  nnt_qstr_task_free(&t);
  if (!st) st = nnt_qstr_heads_judge(r);
  return st;
}

/* ---------------------------------------------------------------- construct */

void nnt_qstr_construct_cfg_default(nnt_qstr_construct_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  nnt_qstr_task_cfg_default(&c->task, 8);
  c->task.enc = NNT_QSTR_ENC_PAPER, c->task.no_dup_codes = 1;
  static const double alphas[] = {0, 0.05, 0.1, 0.2, 0.3, 0.5, 1};
  c->nalpha = 7;
  memcpy(c->alphas, alphas, sizeof alphas);
  c->n = preset == NNT_PRESET_QUICK ? 1000 : 4000;
  c->seed = 1;
}

double nnt_qstr_construct_bytes(const nnt_qstr_construct_cfg *c) {
  nnt_qstr_task_cfg tc = c->task;
  int N = tc.N, q = tc.q, de = tc.de > 0 ? tc.de : nnt_qstr_default_de(N);
  nnt_qstr_model mo = {.arch = NNT_QSTR_TRP, .N = N, .D = tc.d + (q + 1) * de, .m = 2, .H = q};
  double D = mo.D, CH = 256; /* nnt_qstr_construct_mse's batch */
  /* the model (q D x D attention blocks), its workspace, one batch of prompts, labels and indices,
   * and the task's codes and teacher */
  return 8 * (q * D * D + 2.0 * q * D + 2) + 8 * nnt_qstr_ws_elems(&mo, (int)CH) +
         CH * N * (8 * D + 16 + 4.0 * q) + 8.0 * N * de + 8.0 * q * tc.d;
}

int nnt_qstr_construct_check(const nnt_qstr_construct_cfg *c) {
  if (c->n < 2) return nnt_fail(NNT_EINVAL, "construct: --n must be >= 2 (got %d)", c->n);
  char what[96];
  snprintf(what, sizeof what, "construct at N = %d, q = %d, d = %d", c->task.N, c->task.q, c->task.d);
  return nnt_mem_check(nnt_qstr_construct_bytes(c), what, "lower --N (its attention is q x 256 x N x N), --q or --d");
}

int nnt_qstr_construct_run(const nnt_qstr_construct_cfg *c, nnt_qstr_construct_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_qstr_construct_check(c);
  if (st) return st;
  nnt_qstr_task t;
  if ((st = nnt_qstr_task_init(&t, &c->task, c->seed))) return st;
  r->de = t.c.de;
  for (int k = 0; k < c->nalpha; k++) {
    nnt_rng g;
    nnt_rng_init(&g, c->seed, 300000 + (uint64_t)k);
    nnt_qstr_construct_mse(&t, c->alphas[k], &g, c->n, &r->closed[k], &r->mc[k], &r->se[k]);
    r->agree += fabs(r->mc[k] - r->closed[k]) <= 5 * r->se[k] + 1e-9;
  }
  r->decreasing = 1;
  for (int k = 1; k < c->nalpha; k++)
    if (c->alphas[k] > c->alphas[k - 1] && r->closed[k] > r->closed[k - 1] + 1e-12) r->decreasing = 0;
  nnt_qstr_task_free(&t);
  if (r->agree < c->nalpha || !r->decreasing) return nnt_fail(NNT_ECHECK, "construct: closed form and Monte Carlo disagree");
  return NNT_OK;
}

/* ---------------------------------------------------------------- Theorem 6 */

void nnt_qstr_ffn_bound_cfg_default(nnt_qstr_ffn_bound_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  int quick = preset == NNT_PRESET_QUICK;
  c->N = 4, c->d = 5, c->trials = quick ? 5 : 20, c->n_test = quick ? 500 : 2000, c->seed = 1;
}

typedef struct {
  const nnt_qstr_ffn_bound_cfg *c;
  const int *ns;
} bound_ctx;
typedef struct {
  double mse, se;
} bound_rec;
static const nnt_sweep_col bound_cols[] = {NNT_SWEEP_DOUBLE(bound_rec, mse), NNT_SWEEP_DOUBLE(bound_rec, se)};

static int bound_point(void *ctx_, int k, void *rec_) {
  const bound_ctx *b = ctx_;
  bound_rec *rec = rec_;
  nnt_rng g;
  nnt_rng_init(&g, b->c->seed, 400000 + (uint64_t)k);
  rec->mse = nnt_qstr_ffn_minnorm_mse(b->c->N, b->c->d, b->ns[k], b->c->n_test, b->c->trials, &g, &rec->se);
  return NNT_OK;
}

/* The training-set sizes of the run (c->ns, or 0, Nd/10, ..., Nd), each <= Nd. */
static int bound_sizes(const nnt_qstr_ffn_bound_cfg *c, int *nn, int *ns) {
  if (c->N < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", c->N);
  long P = (long)c->N * c->d;
  *nn = 0;
  if (c->nn) *nn = c->nn, memcpy(ns, c->ns, sizeof(int) * 256);
  else
    for (long n = 0, step = P / 10 > 0 ? P / 10 : 1; n <= P && *nn < 256; n += step) ns[(*nn)++] = (int)n;
  for (int k = 0; k < *nn; k++)
    if (ns[k] > P) return nnt_fail(NNT_EINVAL, "--n: %d exceeds Nd = %ld (the bound is for n <= Nd)", ns[k], P);
  return NNT_OK;
}

double nnt_qstr_ffn_bound_bytes(const nnt_qstr_ffn_bound_cfg *c, const int *ns, int nn, double *seconds) {
  double P = (double)c->N * c->d, nmax = 0, flops = 0;
  for (int k = 0; k < nn; k++) {
    double n = ns[k];
    nmax = fmax(nmax, n);
    /* per trial: the n x n Gram matrix, its solve, the N rows of beta, the test prompts */
    flops += c->trials * (n * n * P + n * n * n / 3 + c->N * n * P + (double)c->n_test * c->N * P);
  }
  /* about 10^9 multiply-adds a second: plain loops, one thread */
  if (seconds) *seconds = flops / 1e9;
  /* theory.c's buffers: X [n, Nd], the Gram matrix, beta [N, Nd], c, u, x */
  return 8 * (nmax * P + nmax * nmax + c->N * P + nmax + c->d + P);
}

int nnt_qstr_ffn_bound_check(const nnt_qstr_ffn_bound_cfg *c) {
  int nn, ns[256];
  int st = bound_sizes(c, &nn, ns);
  if (st) return st;
  char what[96];
  snprintf(what, sizeof what, "ffn-bound at N = %d, d = %d", c->N, c->d);
  return nnt_mem_check(nnt_qstr_ffn_bound_bytes(c, ns, nn, NULL), what,
                       "lower --N or --d (its least squares holds an n x Nd matrix, n up to Nd), or give smaller --n");
}

int nnt_qstr_ffn_bound_run(const nnt_qstr_ffn_bound_cfg *c, nnt_qstr_ffn_bound_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_qstr_ffn_bound_check(c);
  if (st || (st = bound_sizes(c, &r->nn, r->ns))) return st;
  int P = c->N * c->d;
  double seconds;
  nnt_qstr_ffn_bound_bytes(c, r->ns, r->nn, &seconds);
  nnt_time_notice(seconds, 0, "qstr ffn-bound", "(least squares on one thread)");
  uint64_t ids[256];
  for (int k = 0; k < r->nn; k++) ids[k] = 400000 + (uint64_t)k;
  bound_ctx b = {c, r->ns};
  bound_rec recs[256];
  nnt_sweep sw = {.name = "qstr ffn-bound", .config = "", .npoints = r->nn, .ids = ids, .rec_size = sizeof(bound_rec),
                  .cols = bound_cols, .ncols = 2, .point = bound_point, .ctx = &b};
  st = nnt_sweep_run(&sw, recs, NULL);
  if (st) return st;
  for (int k = 0; k < r->nn; k++) {
    r->measured[k] = recs[k].mse, r->se[k] = recs[k].se;
    r->formula[k] = fmax(0, 1 - (double)r->ns[k] / P);
    r->off += fabs(r->measured[k] - r->formula[k]) > 5 * r->se[k] + 0.02;
  }
  if (r->off) return nnt_fail(NNT_ECHECK, "ffn-bound: %d point(s) off the formula", r->off);
  return NNT_OK;
}
