/* qSTR / simple-qSTR prompts (spec §3.8): codes E and link vectors drawn once, prompts per batch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_qstr.h"

/* Stream ids for the shared randomness; per-run streams are 8*point+k (small numbers). */
#define STREAM_CODES (1ULL << 48)
#define STREAM_LINK (1ULL << 49)

int nnt_qstr_default_de(int N) { return N < 2 ? 1 : (int)floor(5.0 * log((double)N)); }

void nnt_qstr_task_cfg_default(nnt_qstr_task_cfg *c, int N) {
  memset(c, 0, sizeof *c);
  c->N = N, c->d = 10, c->q = 1, c->de = 0, c->teacher_m = 16;
}

int nnt_qstr_task_init(nnt_qstr_task *t, const nnt_qstr_task_cfg *c, uint64_t seed) {
  memset(t, 0, sizeof *t);
  if (c->N < 2) return nnt_fail(NNT_EINVAL, "N must be >= 2 (got %d)", c->N);
  if (c->d < 1) return nnt_fail(NNT_EINVAL, "d must be >= 1 (got %d)", c->d);
  if (c->q > 64) return nnt_fail(NNT_EINVAL, "q must be <= 64 (got %d)", c->q);
  if (c->q < 1 || c->q > c->N) return nnt_fail(NNT_EINVAL, "q must be in [1, N] (got q = %d, N = %d)", c->q, c->N);
  if (c->de < 0) return nnt_fail(NNT_EINVAL, "d_e must be >= 1 (got %d)", c->de);
  if (c->law == NNT_QSTR_LAW_ADVERSARIAL && 2 * c->q > c->N)
    return nnt_fail(NNT_EINVAL, "the adversarial law needs q <= N/2 (q = %d, N = %d)", c->q, c->N);
  if (!(c->noise >= 0)) return nnt_fail(NNT_EINVAL, "label noise must be >= 0");
  t->c = *c;
  int N = c->N, d = c->d, q = c->q;
  if (!t->c.de) t->c.de = nnt_qstr_default_de(N);
  if (t->c.de < 1) return nnt_fail(NNT_EINVAL, "d_e must be >= 1 (got %d)", t->c.de);
  int de = t->c.de;
  if (c->no_dup_codes && de < 31 && (1L << de) < N)
    return nnt_fail(NNT_EINVAL, "--no-duplicate-codes: 2^d_e = %ld < N = %d distinct codes", 1L << de, N);
  t->D = d + (q + 1) * de;
  t->E = nnt_xmalloc(sizeof(double) * N * de);
  nnt_rng r;
  nnt_rng_init(&r, seed, STREAM_CODES + (uint64_t)N);
  double s = 1.0 / sqrt((double)de);
  for (;;) {
    for (int k = 0; k < N * de; k++) t->E[k] = nnt_rng_bernoulli(&r, 0.5) ? s : -s;
    if (!c->no_dup_codes) break;
    int dup;
    nnt_qstr_code_coherence(t, &dup);
    if (!dup) break;
  }
  /* u: one normalised Gaussian vector, the same for every N (and repetition) */
  nnt_rng_init(&r, seed, STREAM_LINK);
  t->u = nnt_xmalloc(sizeof(double) * q * d);
  double nrm = 0;
  for (int k = 0; k < d; k++) t->u[k] = nnt_rng_normal(&r), nrm += t->u[k] * t->u[k];
  for (int k = 0; k < d; k++) t->u[k] /= sqrt(nrm);
  for (int j = 1; j < q; j++) memcpy(t->u + j * d, t->u, sizeof(double) * d);
  if (c->link == NNT_QSTR_LINK_RELU) {
    int m = c->teacher_m > 0 ? c->teacher_m : 16, K = q * d;
    t->c.teacher_m = m;
    t->tw = nnt_xmalloc(sizeof(double) * m * K);
    t->tb = nnt_xmalloc(sizeof(double) * m);
    t->ta = nnt_xmalloc(sizeof(double) * m);
    for (int k = 0; k < m * K; k++) t->tw[k] = nnt_rng_normal(&r) / sqrt((double)K);
    for (int k = 0; k < m; k++) t->tb[k] = 0.5 * nnt_rng_normal(&r), t->ta[k] = nnt_rng_normal(&r) / sqrt((double)m);
    /* normalise the teacher to mean 0, variance 1 under x ~ N(0, I) (fixed Monte Carlo) */
    t->tmean = 0, t->tstd = 1;
    double s1 = 0, s2 = 0, *x = nnt_xmalloc(sizeof(double) * K);
    const int M = 20000;
    for (int i = 0; i < M; i++) {
      for (int k = 0; k < K; k++) x[k] = nnt_rng_normal(&r);
      double y = 0;
      for (int h = 0; h < m; h++) {
        double a = t->tb[h];
        for (int k = 0; k < K; k++) a += t->tw[h * K + k] * x[k];
        y += t->ta[h] * (a > 0 ? a : 0);
      }
      s1 += y, s2 += y * y;
    }
    free(x);
    t->tmean = s1 / M;
    t->tstd = sqrt(s2 / M - t->tmean * t->tmean);
    if (!(t->tstd > 0)) t->tstd = 1;
  }
  return NNT_OK;
}

void nnt_qstr_task_free(nnt_qstr_task *t) {
  free(t->E), free(t->u), free(t->tw), free(t->tb), free(t->ta);
  memset(t, 0, sizeof *t);
}

double nnt_qstr_code_coherence(const nnt_qstr_task *t, int *has_dup) {
  int N = t->c.N, de = t->c.de;
  double mx = 0;
  int dup = 0;
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      double s = 0;
      int same = 1;
      for (int k = 0; k < de; k++) s += t->E[i * de + k] * t->E[j * de + k], same &= t->E[i * de + k] == t->E[j * de + k];
      dup |= same;
      if (fabs(s) > mx) mx = fabs(s);
    }
  if (has_dup) *has_dup = dup;
  return mx;
}

/* label of one position from the tokens it retrieves (x: the prompt's N x d tokens) */
static double label(const nnt_qstr_task *t, const double *x, const int *ti, const double *var) {
  int d = t->c.d, q = t->c.q;
  double y = 0;
  switch (t->c.link) {
  case NNT_QSTR_LINK_LINEAR:
    for (int j = 0; j < q; j++)
      for (int k = 0; k < d; k++) y += t->u[j * d + k] * x[ti[j] * d + k];
    return y / sqrt((double)q);
  case NNT_QSTR_LINK_NORMSQ:
    for (int j = 0; j < q; j++) {
      double s = 0;
      for (int k = 0; k < d; k++) s += x[ti[j] * d + k] * x[ti[j] * d + k];
      y += s - var[ti[j]] * d;
    }
    return y / sqrt((double)q * d);
  case NNT_QSTR_LINK_RELU: {
    int m = t->c.teacher_m, K = q * d;
    for (int h = 0; h < m; h++) {
      double a = t->tb[h];
      for (int j = 0; j < q; j++)
        for (int k = 0; k < d; k++) a += t->tw[h * K + j * d + k] * x[ti[j] * d + k];
      y += t->ta[h] * (a > 0 ? a : 0);
    }
    return (y - t->tmean) / t->tstd;
  }
  }
  return 0;
}

double nnt_qstr_link_value(const nnt_qstr_task *t, const double *xs, const double *var) {
  int q = t->c.q, ti[64];
  double v[64];
  for (int j = 0; j < q && j < 64; j++) ti[j] = j, v[j] = var ? var[j] : 1;
  return label(t, xs, ti, v);
}

#define DEFINE_SAMPLE(SFX, REAL)                                                                    \
  void nnt_qstr_sample_##SFX(const nnt_qstr_task *t, nnt_rng *r, int B, int simple, REAL *X, REAL *y, int *idx) { \
    int N = t->c.N, d = t->c.d, q = t->c.q, de = t->c.de, D = t->D;                                 \
    int adv = t->c.law == NNT_QSTR_LAW_ADVERSARIAL;                                                 \
    if (simple < 0) simple = t->c.simple;                                                           \
    double cs = t->c.enc == NNT_QSTR_ENC_PAPER ? sqrt((double)d / q) : 1.0;                         \
    double *x = nnt_xmalloc(sizeof(double) * N * d), *var = nnt_xmalloc(sizeof(double) * N);        \
    int *ti = nnt_xmalloc(sizeof(int) * N * q);                                                     \
    REAL *code = nnt_xmalloc(sizeof(REAL) * N * de); /* the tokens' code parts, converted once */   \
    for (int k = 0; k < N * de; k++) code[k] = (REAL)(cs * t->E[k]);                                \
    int live = 0;                                                                                   \
    for (int i = 0; i < N; i++) var[i] = adv && 2 * i >= N ? 0.0 : 1.0, live += var[i] > 0;         \
    for (int b = 0; b < B; b++) {                                                                   \
      nnt_rng_normals(r, x, (size_t)live * d); /* positions with variance 1 come first */          \
      memset(x + (size_t)live * d, 0, sizeof(double) * (size_t)(N - live) * d);                   \
      for (int i = 0; i < N; i++)                                                                   \
        for (int j = 0; j < q; j++) {                                                               \
          if (adv && 2 * i >= N) ti[i * q + j] = j;                                                 \
          else if (simple && i > 0) ti[i * q + j] = ti[j];                                          \
          else ti[i * q + j] = (int)nnt_rng_below(r, (uint64_t)N);                                  \
        }                                                                                           \
      for (int i = 0; i < N; i++) {                                                                 \
        REAL *z = X + ((size_t)b * N + i) * D;                                                      \
        for (int k = 0; k < d; k++) z[k] = (REAL)x[i * d + k];                                      \
        memcpy(z + d, code + (size_t)i * de, sizeof(REAL) * de);                                    \
        for (int j = 0; j < q; j++) memcpy(z + d + (j + 1) * de, code + (size_t)ti[i * q + j] * de, sizeof(REAL) * de); \
        double yi = label(t, x, ti + i * q, var);                                                   \
        if (t->c.noise > 0) yi += t->c.noise * nnt_rng_normal(r);                                   \
        y[(size_t)b * N + i] = (REAL)yi;                                                            \
      }                                                                                             \
      if (idx) memcpy(idx + (size_t)b * N * q, ti, sizeof(int) * N * q);                            \
    }                                                                                               \
    free(x), free(var), free(ti), free(code);                                                       \
  }

DEFINE_SAMPLE(f32, float)
DEFINE_SAMPLE(f64, double)
