/* The RNN side of seed 001: the oracle bidirectional RNN of Prop. 28 / App. C (Theorem 7: an RNN
 * learns simple-qSTR) as an explicit ReLU network, and the width an RNN needs for 1STR (Prop. 8 /
 * Theorem 9) as an exact bound for states linear in the tokens, met by a shift-register RNN. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

static double relu(double v) { return v > 0 ? v : 0; }

/* y = relu(W x + b), W rows x cols */
static void layer(const double *W, const double *b, int rows, int cols, const double *x, double *y, int act) {
  for (int r = 0; r < rows; r++) {
    double s = b[r];
    for (int c = 0; c < cols; c++) s += W[(size_t)r * cols + c] * x[c];
    y[r] = act ? relu(s) : s;
  }
}

int nnt_qstr_oracle_build(const nnt_qstr_task *t, double B, nnt_qstr_oracle *o) {
  memset(o, 0, sizeof *o);
  if (!t->c.simple) return nnt_fail(NNT_EINVAL, "rnn-oracle: the oracle is for simple-qSTR");
  if (t->c.link != NNT_QSTR_LINK_LINEAR && t->c.link != NNT_QSTR_LINK_RELU)
    return nnt_fail(NNT_EINVAL, "rnn-oracle: the link must be linear or relu (a two-layer ReLU net exactly, Assumption 2 with eps = 0)");
  if (t->c.law != NNT_QSTR_LAW_UNIFORM) return nnt_fail(NNT_EINVAL, "rnn-oracle: needs the uniform index law");
  if (!(B > 0 && isfinite(B))) return nnt_fail(NNT_EINVAL, "rnn-oracle: --bound must be > 0 (got %g)", B);
  int d = t->c.d, q = t->c.q, de = t->c.de, D = t->D;
  double e = (t->c.enc == NNT_QSTR_ENC_PAPER ? sqrt((double)d / q) : 1.0) / sqrt((double)de); /* |code entry| */
  o->N = t->c.N, o->d = d, o->q = q, o->de = de, o->D = D, o->dh = q * d, o->B = B;
  /* gate on the normalised code similarity s = <w_i, w_t>/|w|^2: 1 at s = 1, 0 at s <= 1 - 2/de, the
   * largest similarity of two distinct cube codes (App. C's 2 relu(s - 1/2) needs Assumption 3,
   * |<w_i, w_j>| <= 1/2, which codes of d_e = 5 ln N rarely meet: spec pitfall 7) */
  double theta = 1.0 - 1.0 / de, kappa = de;
  int n1 = 2 * d + 2 * q * de, n2 = 2 * d + 2 * q, n3 = 2 * q * d;
  int in[4] = {D, n1, n2, n3}, out[4] = {n1, n2, n3, q * d};
  for (int l = 0; l < 4; l++) {
    o->rows[l] = out[l], o->cols[l] = in[l];
    o->W[l] = nnt_xcalloc((size_t)out[l] * in[l], sizeof(double));
    o->b[l] = nnt_xcalloc((size_t)out[l], sizeof(double));
  }
  /* layer 1: relu(+-x_k); relu(+-(w_i,k + w_tl,k)) */
  double *W = o->W[0];
  for (int k = 0; k < d; k++) W[(size_t)(2 * k) * D + k] = 1, W[(size_t)(2 * k + 1) * D + k] = -1;
  for (int l = 0; l < q; l++)
    for (int k = 0; k < de; k++) {
      int r = 2 * d + 2 * (l * de + k);
      W[(size_t)r * D + d + k] = 1, W[(size_t)r * D + d + (l + 1) * de + k] = 1;
      W[(size_t)(r + 1) * D + d + k] = -1, W[(size_t)(r + 1) * D + d + (l + 1) * de + k] = -1;
    }
  /* layer 2: relu(+-x_k) passed on; gate units relu(p_l), relu(p_l - 1) with p_l = kappa (s_l - theta), where
   * w_ik w_tk = e |w_ik + w_tk| - e^2 for entries +-e, so s_l = sum_k (relu(a+b) + relu(-a-b)) / (e de) - 1 */
  W = o->W[1];
  for (int k = 0; k < 2 * d; k++) W[(size_t)k * n1 + k] = 1;
  for (int l = 0; l < q; l++) {
    int ra = 2 * d + 2 * l;
    for (int k = 0; k < 2 * de; k++) {
      double w = kappa / (e * de);
      W[(size_t)ra * n1 + 2 * d + 2 * l * de + k] = w, W[(size_t)(ra + 1) * n1 + 2 * d + 2 * l * de + k] = w;
    }
    o->b[1][ra] = kappa * (-1 - theta), o->b[1][ra + 1] = kappa * (-1 - theta) - 1;
  }
  /* layer 3: relu(+-x_k - B (1 - g_l)) with x_k = relu(x_k) - relu(-x_k), g_l = relu(p_l) - relu(p_l - 1):
   * x_k g_l for g_l in {0, 1} and |x_k| <= B */
  W = o->W[2];
  for (int l = 0; l < q; l++)
    for (int k = 0; k < d; k++)
      for (int sgn = 0; sgn < 2; sgn++) {
        int r = 2 * (l * d + k) + sgn;
        double sx = sgn ? -1 : 1;
        W[(size_t)r * n2 + 2 * k] = sx, W[(size_t)r * n2 + 2 * k + 1] = -sx;
        W[(size_t)r * n2 + 2 * d + 2 * l] = B, W[(size_t)r * n2 + 2 * d + 2 * l + 1] = -B;
        o->b[2][r] = -B;
      }
  /* layer 4 (linear): Psi_lk = relu(x g - ...) - relu(-x g - ...) */
  W = o->W[3];
  for (int r = 0; r < q * d; r++) W[(size_t)r * n3 + 2 * r] = 1, W[(size_t)r * n3 + 2 * r + 1] = -1;
  /* readout f_y = a^T relu(Wy v + by) + cy on v = h-> + h<- + Psi(z_i), v ~ (x_t1, ..., x_tq) */
  int K = q * d;
  if (t->c.link == NNT_QSTR_LINK_LINEAR) { /* <u, x> = relu(<u, x>) - relu(-<u, x>), y = sum_j <u_j, x_tj> / sqrt(q) */
    o->m = 2;
    o->Wy = nnt_xcalloc((size_t)2 * K, sizeof(double)), o->by = nnt_xcalloc(2, sizeof(double));
    o->ay = nnt_xcalloc(2, sizeof(double));
    for (int k = 0; k < K; k++) o->Wy[k] = t->u[k] / sqrt((double)q), o->Wy[K + k] = -t->u[k] / sqrt((double)q);
    o->ay[0] = 1, o->ay[1] = -1;
  } else { /* the teacher itself, normalised */
    int m = t->c.teacher_m;
    o->m = m;
    o->Wy = nnt_xmalloc(sizeof(double) * (size_t)m * K), o->by = nnt_xmalloc(sizeof(double) * m);
    o->ay = nnt_xmalloc(sizeof(double) * m);
    memcpy(o->Wy, t->tw, sizeof(double) * (size_t)m * K), memcpy(o->by, t->tb, sizeof(double) * m);
    for (int h = 0; h < m; h++) o->ay[h] = t->ta[h] / t->tstd;
    o->cy = -t->tmean / t->tstd;
  }
  /* ||h|| <= sqrt(q d) B while every |x_k| <= B: the projection of the theory is the identity there */
  o->rh = sqrt((double)q * d) * B;
  return NNT_OK;
}

void nnt_qstr_oracle_free(nnt_qstr_oracle *o) {
  for (int l = 0; l < 4; l++) free(o->W[l]), free(o->b[l]);
  free(o->Wy), free(o->by), free(o->ay);
  memset(o, 0, sizeof *o);
}

void nnt_qstr_oracle_size(const nnt_qstr_oracle *o, long *params, double *norm) {
  long p = 0;
  double s = 0;
  for (int l = 0; l < 4; l++) {
    size_t n = (size_t)o->rows[l] * o->cols[l];
    p += (long)n + o->rows[l];
    for (size_t k = 0; k < n; k++) s += o->W[l][k] * o->W[l][k];
    for (int k = 0; k < o->rows[l]; k++) s += o->b[l][k] * o->b[l][k];
  }
  int K = o->q * o->d;
  p += (long)o->m * K + 2L * o->m + 1;
  for (int k = 0; k < o->m * K; k++) s += o->Wy[k] * o->Wy[k];
  for (int k = 0; k < o->m; k++) s += o->by[k] * o->by[k] + o->ay[k] * o->ay[k];
  s += o->cy * o->cy;
  /* the transitions f-> and f<- are Psi itself (alpha_N = 0: they ignore the state), shared by both directions */
  *params = p, *norm = sqrt(s);
}

/* Pi_r: the theory's projection onto the ball of radius r */
static void project(double *h, int n, double r) {
  double s = 0;
  for (int k = 0; k < n; k++) s += h[k] * h[k];
  if (s > r * r) {
    double f = r / sqrt(s);
    for (int k = 0; k < n; k++) h[k] *= f;
  }
}

void nnt_qstr_oracle_forward(const nnt_qstr_oracle *o, const double *X, double *yhat) {
  int N = o->N, D = o->D, K = o->dh, mx = 0;
  for (int l = 0; l < 4; l++) mx = o->rows[l] > mx ? o->rows[l] : mx;
  double *psi = nnt_xmalloc(sizeof(double) * (size_t)N * K), *a = nnt_xmalloc(sizeof(double) * mx);
  double *c = nnt_xmalloc(sizeof(double) * mx), *hf = nnt_xcalloc((size_t)N * K, sizeof(double));
  double *hb = nnt_xcalloc((size_t)N * K, sizeof(double)), *v = nnt_xmalloc(sizeof(double) * K);
  for (int i = 0; i < N; i++) { /* Psi(z_i), the transitions' increment */
    layer(o->W[0], o->b[0], o->rows[0], o->cols[0], X + (size_t)i * D, a, 1);
    layer(o->W[1], o->b[1], o->rows[1], o->cols[1], a, c, 1);
    layer(o->W[2], o->b[2], o->rows[2], o->cols[2], c, a, 1);
    layer(o->W[3], o->b[3], o->rows[3], o->cols[3], a, psi + (size_t)i * K, 0);
  }
  /* h->_1 = 0, h->_i = Pi(h->_{i-1} + Psi(z_{i-1})); h<-_N = 0, h<-_i = Pi(h<-_{i+1} + Psi(z_{i+1})) */
  for (int i = 1; i < N; i++) {
    for (int k = 0; k < K; k++) hf[(size_t)i * K + k] = hf[(size_t)(i - 1) * K + k] + psi[(size_t)(i - 1) * K + k];
    project(hf + (size_t)i * K, K, o->rh);
  }
  for (int i = N - 2; i >= 0; i--) {
    for (int k = 0; k < K; k++) hb[(size_t)i * K + k] = hb[(size_t)(i + 1) * K + k] + psi[(size_t)(i + 1) * K + k];
    project(hb + (size_t)i * K, K, o->rh);
  }
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < K; k++) v[k] = hf[(size_t)i * K + k] + hb[(size_t)i * K + k] + psi[(size_t)i * K + k];
    double y = o->cy;
    for (int h = 0; h < o->m; h++) {
      double s = o->by[h];
      for (int k = 0; k < K; k++) s += o->Wy[(size_t)h * K + k] * v[k];
      y += o->ay[h] * relu(s);
    }
    yhat[i] = y;
  }
  free(psi), free(a), free(c), free(hf), free(hb), free(v);
}

/* MSE (and its standard error between prompts) of the oracle on n prompts of the task's own law
 * (simple = 1) or of general qSTR (simple = 0), labels from the task generator. */
static void oracle_mse(const nnt_qstr_task *t, const nnt_qstr_oracle *o, int simple, nnt_rng *r, int n, double *mse,
                       double *se) {
  int N = t->c.N, D = t->D;
  double *X = nnt_xmalloc(sizeof(double) * (size_t)N * D), *y = nnt_xmalloc(sizeof(double) * N);
  double *yh = nnt_xmalloc(sizeof(double) * N), s1 = 0, s2 = 0;
  for (int b = 0; b < n; b++) {
    nnt_qstr_sample_f64(t, r, 1, simple, X, y, NULL);
    nnt_qstr_oracle_forward(o, X, yh);
    double e = 0;
    for (int i = 0; i < N; i++) e += (yh[i] - y[i]) * (yh[i] - y[i]);
    e /= N;
    s1 += e, s2 += e * e;
  }
  *mse = s1 / n;
  *se = n > 1 ? sqrt(fmax(s2 / n - *mse * *mse, 0) / (n - 1)) : INFINITY;
  free(X), free(y), free(yh);
}

/* ---------------------------------------------------------------- width for 1STR */

double nnt_qstr_rnn_linear_bound(int N, int r) {
  if (r >= N - 1) return 0;
  if (r < 0) r = 0;
  return (double)(N - 1 - r) * (N - r) / ((double)N * N);
}

int nnt_qstr_rnn_min_width(int N, double c) {
  int r = 0;
  while (r < N - 1 && nnt_qstr_rnn_linear_bound(N, r) > c) r++;
  return r;
}

/* The shift-register RNN of width r per direction on 1STR (q = 1, linear link): the forward state at
 * i holds <u, x_{i-1}>, ..., <u, x_{i-r}> (h <- S h + e_1 <u, x>), the backward one <u, x_{i+1}>, ...,
 * <u, x_{i+r}>; the readout takes the slot of t_i, <u, x_i> itself, or 0 when t_i is out of reach.
 * Returns its MSE on n prompts and the standard error between prompts. */
double nnt_qstr_rnn_shift_mse(const nnt_qstr_task *t, int r, nnt_rng *g, int n, double *se) {
  int N = t->c.N, D = t->D, d = t->c.d;
  double *X = nnt_xmalloc(sizeof(double) * (size_t)N * D), *y = nnt_xmalloc(sizeof(double) * N);
  int *idx = nnt_xmalloc(sizeof(int) * N);
  int R = r > 0 ? r : 1;
  double *hf = nnt_xmalloc(sizeof(double) * (size_t)N * R), *hb = nnt_xmalloc(sizeof(double) * (size_t)N * R);
  double *ux = nnt_xmalloc(sizeof(double) * N), s1 = 0, s2 = 0;
  for (int b = 0; b < n; b++) {
    nnt_qstr_sample_f64(t, g, 1, 0, X, y, idx);
    for (int i = 0; i < N; i++) { /* the input weight e_1 u^T reads <u, x_i> */
      double s = 0;
      for (int k = 0; k < d; k++) s += t->u[k] * X[(size_t)i * D + k];
      ux[i] = s;
    }
    if (r > 0) {
      memset(hf, 0, sizeof(double) * R), memset(hb + (size_t)(N - 1) * R, 0, sizeof(double) * R);
      for (int i = 1; i < N; i++) { /* h->_i = S h->_{i-1} + e_1 <u, x_{i-1}> */
        hf[(size_t)i * R] = ux[i - 1];
        for (int k = 1; k < R; k++) hf[(size_t)i * R + k] = hf[(size_t)(i - 1) * R + k - 1];
      }
      for (int i = N - 2; i >= 0; i--) {
        hb[(size_t)i * R] = ux[i + 1];
        for (int k = 1; k < R; k++) hb[(size_t)i * R + k] = hb[(size_t)(i + 1) * R + k - 1];
      }
    }
    double e = 0;
    for (int i = 0; i < N; i++) {
      int ti = idx[i];
      double yh = 0;
      if (ti == i) yh = ux[i];
      else if (ti < i && i - ti <= r) yh = hf[(size_t)i * R + (i - ti - 1)];
      else if (ti > i && ti - i <= r) yh = hb[(size_t)i * R + (ti - i - 1)];
      e += (yh - y[i]) * (yh - y[i]);
    }
    e /= N;
    s1 += e, s2 += e * e;
  }
  double m = s1 / n;
  if (se) *se = n > 1 ? sqrt(fmax(s2 / n - m * m, 0) / (n - 1)) : INFINITY;
  free(X), free(y), free(idx), free(hf), free(hb), free(ux);
  return m;
}

/* ---------------------------------------------------------------- the run */

void nnt_qstr_rnn_oracle_cfg_default(nnt_qstr_rnn_oracle_cfg *c, nnt_preset preset) {
  memset(c, 0, sizeof *c);
  int quick = preset == NNT_PRESET_QUICK;
  static const int Ns[] = {4, 8, 16, 32, 64, 128};
  c->nN = quick ? 3 : 6;
  memcpy(c->Ns, Ns, sizeof(int) * c->nN);
  c->d = 10, c->q = 1, c->link = NNT_QSTR_LINK_LINEAR, c->B = 8, c->target = 0.1;
  c->n = 2000, c->bound_scale = 1, c->seed = 1; /* 2000 prompts: a bound 1.2x off is caught at quick size */
}

double nnt_qstr_rnn_oracle_bytes(const nnt_qstr_rnn_oracle_cfg *c, double *seconds) {
  double peak = 0, macs = 0, d = c->d, q = c->q;
  for (int k = 0; k < c->nN; k++) {
    double N = c->Ns[k], de = nnt_qstr_default_de(c->Ns[k]), D = d + (q + 1) * de, K = q * d;
    /* nnt_qstr_oracle_build's four dense layers D -> n1 -> n2 -> n3 -> qd, and its evaluation's
     * N x K states and prompt; the shift register's at the largest width (N - 1) */
    double n1 = 2 * d + 2 * q * de, n2 = 2 * d + 2 * q, n3 = 2 * q * d;
    double w = D * n1 + n1 * n2 + n2 * n3 + n3 * K + n1 + n2 + n3 + K;
    peak = fmax(peak, 8 * (w + 3 * N * K + N * D + 2 * N * N));
    /* two measurements of n prompts through the network at every token, two shift registers */
    macs += 2.0 * c->n * N * w + 2.0 * c->n * N * (N + d);
  }
  if (seconds) *seconds = macs / 1e9; /* plain loops, one thread */
  return peak;
}

int nnt_qstr_rnn_oracle_check(const nnt_qstr_rnn_oracle_cfg *c) {
  if (c->nN < 1 || c->nN > 32) return nnt_fail(NNT_EINVAL, "rnn-oracle: 1 to 32 values of N (got %d)", c->nN);
  if (c->n < 2) return nnt_fail(NNT_EINVAL, "rnn-oracle: --n must be >= 2 (got %d)", c->n);
  if (!(c->target > 0 && c->target < 1)) return nnt_fail(NNT_EINVAL, "rnn-oracle: --target must be in (0, 1) (got %g)", c->target);
  if (c->link != NNT_QSTR_LINK_LINEAR && c->link != NNT_QSTR_LINK_RELU)
    return nnt_fail(NNT_EINVAL, "rnn-oracle: the link must be linear or relu (a two-layer ReLU net exactly, Assumption 2 with eps = 0)");
  if (!(c->B > 0 && isfinite(c->B))) return nnt_fail(NNT_EINVAL, "rnn-oracle: --bound must be > 0 (got %g)", c->B);
  if (!(c->bound_scale > 0 && isfinite(c->bound_scale)))
    return nnt_fail(NNT_EINVAL, "rnn-oracle: --bound-scale must be > 0 (got %g)", c->bound_scale);
  for (int k = 0; k < c->nN; k++) {
    if (c->Ns[k] < 2 || c->Ns[k] > 4096) return nnt_fail(NNT_EINVAL, "rnn-oracle: N must be in [2, 4096] (got %d)", c->Ns[k]);
    if (c->q > c->Ns[k]) return nnt_fail(NNT_EINVAL, "rnn-oracle: q = %d > N = %d", c->q, c->Ns[k]);
  }
  char what[96];
  snprintf(what, sizeof what, "rnn-oracle at d = %d, q = %d", c->d, c->q);
  return nnt_mem_check(nnt_qstr_rnn_oracle_bytes(c, NULL), what, "lower --d or --q (the oracle's layers are 2qd x 2qd wide), or --N");
}

int nnt_qstr_rnn_oracle_run(const nnt_qstr_rnn_oracle_cfg *c, nnt_qstr_rnn_oracle_result *r) {
  memset(r, 0, sizeof *r);
  int st0 = nnt_qstr_rnn_oracle_check(c);
  if (st0) return st0;
  double seconds;
  nnt_qstr_rnn_oracle_bytes(c, &seconds);
  nnt_time_notice(seconds, 0, "qstr rnn-oracle", "(the oracle network on every prompt, one thread)");
  r->nN = c->nN;
  for (int k = 0; k < c->nN; k++) {
    int N = c->Ns[k];
    r->Ns[k] = N;
    nnt_qstr_task_cfg tc;
    nnt_qstr_task_cfg_default(&tc, N);
    tc.d = c->d, tc.q = c->q, tc.link = c->link, tc.simple = 1, tc.no_dup_codes = 1;
    nnt_qstr_task t;
    int st = nnt_qstr_task_init(&t, &tc, c->seed);
    if (st) return st;
    nnt_qstr_oracle o;
    if ((st = nnt_qstr_oracle_build(&t, c->B, &o))) {
      nnt_qstr_task_free(&t);
      return st;
    }
    r->de[k] = t.c.de, r->width[k] = o.dh;
    r->coherence[k] = nnt_qstr_code_coherence(&t, NULL);
    nnt_qstr_oracle_size(&o, &r->params[k], &r->norm[k]);
    nnt_rng g;
    nnt_rng_init(&g, c->seed, 500000 + (uint64_t)N);
    oracle_mse(&t, &o, 1, &g, c->n, &r->mse[k], &r->se[k]);
    oracle_mse(&t, &o, 0, &g, c->n, &r->mse_general[k], &r->se_general[k]);
    r->exact_fail += !(r->mse[k] <= 1e-12);
    nnt_qstr_oracle_free(&o);
    /* 1STR (q = 1, linear link): the smallest width meeting the target by the linear-state bound, and
     * the shift register measured one below and at it */
    nnt_qstr_task_cfg t1 = tc;
    t1.q = 1, t1.link = NNT_QSTR_LINK_LINEAR, t1.simple = 0;
    nnt_qstr_task_free(&t);
    if ((st = nnt_qstr_task_init(&t, &t1, c->seed))) return st;
    int rm = nnt_qstr_rnn_min_width(N, c->target);
    r->rmin[k] = rm;
    for (int j = 0; j < 2; j++) {
      int w = j ? rm : (rm > 0 ? rm - 1 : 0);
      double se;
      r->shift_bound[k][j] = c->bound_scale * nnt_qstr_rnn_linear_bound(N, w);
      r->shift_mse[k][j] = nnt_qstr_rnn_shift_mse(&t, w, &g, c->n, &se);
      r->shift_se[k][j] = se;
      r->shift_width[k][j] = w;
      r->width_off += fabs(r->shift_mse[k][j] - r->shift_bound[k][j]) > 5 * se + 1e-12;
    }
    nnt_qstr_task_free(&t);
  }
  double x[32], y[32];
  for (int k = 0; k < c->nN; k++) x[k] = r->Ns[k], y[k] = r->rmin[k];
  r->rmin_slope = nnt_qstr_loglog_slope(c->nN, x, y, NULL, NULL, NULL);
  if (r->exact_fail)
    return nnt_fail(NNT_ECHECK, "rnn-oracle: the oracle's MSE on simple-qSTR is above 1e-12 at %d value(s) of N", r->exact_fail);
  if (r->width_off)
    return nnt_fail(NNT_ECHECK, "rnn-oracle: the shift-register RNN is off the linear-state bound at %d point(s)", r->width_off);
  return NNT_OK;
}
