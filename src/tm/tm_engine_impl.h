/* tm_engine_impl.h — the compiled transformer's forward pass: an nnt_real.h template (real,
 * NNT_T, NNT_EXP, NNT_LOG_MIN), instantiated by tm_engine_isa.c for float and for double.
 * Decoding is incremental: each self-attention layer caches the keys (transposed, [dk][steps], so
 * scores vectorise over steps) and the non-zero value coordinates of every earlier step, so step
 * i costs O(i) per attention layer, not O(i^2). */

#define R_CSR NNT_T(csr)
#define R_ATT NNT_T(att)
#define R_LAY NNT_T(lay)

typedef struct {
  int rows, nnz;
  int *ptr, *idx;
  real *val;
} R_CSR;

typedef struct {
  int dk, nv, cap, n;
  R_CSR Q, K, V;       /* V keeps only the rows in vdims */
  real *bq, *bk, *K0, *bv, *V0;
  int *vdims;
  /* Key cache [dk][cap]: int8 while every key entry is a small integer (exact; 8x less memory
   * traffic, which bounds the cost of long runs), real from the first entry that is not. */
  int narrow;
  int8_t *kc8;
  real *kc, *vc;       /* value cache [cap][nv] */
} R_ATT;

typedef struct {
  int has_self, has_enc;
  R_ATT self, enc;
  R_CSR W1, W2, W3;
  real *b1, *b2, *b3;
} R_LAY;

static void NNT_T(csr_load)(R_CSR *d, const nnt_tm_csr *s, const int *rows, int nrows) {
  /* rows == NULL: all rows; otherwise the listed ones, in order */
  int n = rows ? nrows : s->rows, nnz = 0;
  for (int i = 0; i < n; i++) {
    int r = rows ? rows[i] : i;
    nnz += s->ptr[r + 1] - s->ptr[r];
  }
  d->rows = n, d->nnz = nnz;
  d->ptr = nnt_xmalloc(sizeof(int) * (size_t)(n + 1));
  d->idx = nnt_xmalloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
  d->val = nnt_xmalloc(sizeof(real) * (size_t)(nnz ? nnz : 1));
  int p = 0;
  for (int i = 0; i < n; i++) {
    int r = rows ? rows[i] : i;
    d->ptr[i] = p;
    for (int q = s->ptr[r]; q < s->ptr[r + 1]; q++) d->idx[p] = s->idx[q], d->val[p++] = (real)s->val[q];
  }
  d->ptr[n] = p;
}

static void NNT_T(csr_free)(R_CSR *c) { free(c->ptr), free(c->idx), free(c->val); }

static real *NNT_T(vec)(const double *v, int n) {
  real *r = nnt_xmalloc(sizeof(real) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) r[i] = (real)v[i];
  return r;
}

/* y = A x + b (b may be NULL), optionally ReLU */
static inline void NNT_T(spmv)(const R_CSR *A, const real *x, const real *b, real *y, int relu) {
  for (int i = 0; i < A->rows; i++) {
    real s = b ? b[i] : 0;
    for (int p = A->ptr[i]; p < A->ptr[i + 1]; p++) s += A->val[p] * x[A->idx[p]];
    y[i] = relu && s < 0 ? 0 : s;
  }
}

static void NNT_T(att_load)(R_ATT *d, const nnt_tm_attn *s, int w, int cap) {
  d->dk = s->dk, d->cap = cap, d->n = 0;
  int *vd = nnt_xmalloc(sizeof(int) * (size_t)w), nv = 0;
  for (int o = 0; o < w; o++)
    if (s->V.ptr[o + 1] > s->V.ptr[o] || s->bv[o] != 0 || s->V0[o] != 0) vd[nv++] = o;
  d->nv = nv, d->vdims = vd;
  NNT_T(csr_load)(&d->Q, &s->Q, NULL, 0);
  NNT_T(csr_load)(&d->K, &s->K, NULL, 0);
  NNT_T(csr_load)(&d->V, &s->V, vd, nv);
  d->bq = NNT_T(vec)(s->bq, s->dk);
  d->bk = NNT_T(vec)(s->bk, s->dk);
  d->K0 = NNT_T(vec)(s->K0, s->dk);
  d->bv = nnt_xmalloc(sizeof(real) * (size_t)(nv ? nv : 1));
  d->V0 = nnt_xmalloc(sizeof(real) * (size_t)(nv ? nv : 1));
  for (int i = 0; i < nv; i++) d->bv[i] = (real)s->bv[vd[i]], d->V0[i] = (real)s->V0[vd[i]];
  d->narrow = 1;
  d->kc = NULL;
  d->kc8 = nnt_xmalloc((size_t)d->dk * (size_t)(cap ? cap : 1));
  d->vc = nnt_xmalloc(sizeof(real) * (size_t)(nv ? nv : 1) * (size_t)(cap ? cap : 1));
}

static void NNT_T(att_free)(R_ATT *a) {
  NNT_T(csr_free)(&a->Q), NNT_T(csr_free)(&a->K), NNT_T(csr_free)(&a->V);
  free(a->bq), free(a->bk), free(a->K0), free(a->bv), free(a->V0), free(a->vdims), free(a->kc), free(a->kc8), free(a->vc);
}

/* Appends key and value of x to the cache. */
static void NNT_T(att_push)(R_ATT *a, const real *x, real *tmp) {
  NNT_T(spmv)(&a->K, x, a->bk, tmp, 0);
  if (a->narrow) {
    for (int c = 0; c < a->dk; c++)
      if (!(tmp[c] >= -127 && tmp[c] <= 127 && tmp[c] == (real)(int8_t)tmp[c])) a->narrow = 0;
    if (!a->narrow) { /* widen the cache once */
      a->kc = nnt_xmalloc(sizeof(real) * (size_t)a->dk * (size_t)a->cap);
      for (long i = 0; i < (long)a->dk * a->cap; i++) a->kc[i] = i % a->cap < a->n ? (real)a->kc8[i] : 0;
    }
  }
  for (int c = 0; c < a->dk; c++) {
    if (a->narrow) a->kc8[(long)c * a->cap + a->n] = (int8_t)tmp[c];
    else a->kc[(long)c * a->cap + a->n] = tmp[c];
  }
  NNT_T(spmv)(&a->V, x, a->bv, a->vc + (long)a->n * a->nv, 0);
  a->n++;
}

/* h += attention of query h over the cache and the null key (hard-max or softmax). */
static void NNT_T(att_apply)(const R_ATT *a, real *h, real *q, real *sc, real *acc, int softmax, real beta,
                                  double *min_gap) {
  int n = a->n, dk = a->dk, nv = a->nv;
  NNT_T(spmv)(&a->Q, h, a->bq, q, 0);
  real s0 = 0;
  for (int c = 0; c < dk; c++) s0 += q[c] * a->K0[c];
  real mx = s0, mx2 = -INFINITY; /* largest and second-largest distinct score */
  enum { BLK = 512 }; /* a block of scores stays in L1 while every key row streams past it */
  for (int t0 = 0; t0 < n; t0 += BLK) {
    int t1 = t0 + BLK < n ? t0 + BLK : n;
    for (int t = t0; t < t1; t++) sc[t] = 0;
    for (int c = 0; c < dk; c++) {
      real qc = q[c];
      if (qc == 0) continue;
      if (a->narrow) {
        const int8_t *kr = a->kc8 + (long)c * a->cap;
        for (int t = t0; t < t1; t++) sc[t] += qc * (real)kr[t];
      } else {
        const real *kr = a->kc + (long)c * a->cap;
        for (int t = t0; t < t1; t++) sc[t] += qc * kr[t];
      }
    }
    for (int t = t0; t < t1; t++) {
      if (sc[t] > mx) mx2 = mx, mx = sc[t];
      else if (sc[t] < mx && sc[t] > mx2) mx2 = sc[t];
    }
  }
  if (mx2 > -INFINITY && (double)(mx - mx2) < *min_gap) *min_gap = (double)(mx - mx2);
  for (int i = 0; i < nv; i++) acc[i] = 0;
  real norm = 0;
  if (!softmax) { /* ties averaged; scores are small integers, so == is exact */
    if (s0 == mx) {
      norm = 1;
      for (int i = 0; i < nv; i++) acc[i] = a->V0[i];
    }
    for (int t = 0; t < n; t++)
      if (sc[t] == mx) {
        norm += 1;
        const real *v = a->vc + (long)t * nv;
        for (int i = 0; i < nv; i++) acc[i] += v[i];
      }
  } else {
    /* Weights below the smallest normal number are flushed to zero (as GPUs do by default):
     * subnormal arithmetic is slow and changes nothing at this scale. */
    real e0 = beta * (s0 - mx) < NNT_LOG_MIN ? 0 : NNT_EXP(beta * (s0 - mx));
    norm = e0;
    for (int i = 0; i < nv; i++) acc[i] = e0 * a->V0[i];
    for (int t = 0; t < n; t++) {
      real z = beta * (sc[t] - mx);
      if (z < NNT_LOG_MIN) continue;
      real e = NNT_EXP(z);
      norm += e;
      const real *v = a->vc + (long)t * nv;
      for (int i = 0; i < nv; i++) acc[i] += e * v[i];
    }
  }
  for (int i = 0; i < nv; i++) h[a->vdims[i]] += acc[i] / norm;
}

static void NNT_T(norm_max)(const real *v, int n, double *mx) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)v[i] * (double)v[i];
  if (sqrt(s) > *mx) *mx = sqrt(s);
}

static int NNT_T(decode_onehot)(const real *v, int n) {
  int idx = -1;
  for (int i = 0; i < n; i++)
    if (v[i] > (real)0.5) {
      if (idx >= 0) return -2;
      idx = i;
    }
  return idx;
}

static long NNT_T(decode_bin)(const real *v, int wpos) {
  long x = 0;
  for (int b = 0; b < wpos; b++) x = 2 * x + (v[b] > (real)0.5);
  return x;
}

static int NNT_T(run)(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr,
                          const nnt_tm_run_opts *o, nnt_tm_run_result *res) {
  int w = net->w, wpos = net->wpos, nl = net->nlayers, m = net->m;
  long T = tr->T, steps = T + 1;
  const nnt_tm_groups *g = &net->g;
  int softmax = o->attention == NNT_TM_SOFTMAX;
  real beta = (real)o->beta;
  double t0 = nnt_now();
  R_LAY *L = nnt_xcalloc((size_t)nl, sizeof(R_LAY));
  int hmax = w, dkmax = 1;
  size_t wbytes = 0;
  for (int l = 0; l < nl; l++) {
    const nnt_tm_layer *s = &net->layers[l];
    L[l].has_self = s->has_self, L[l].has_enc = s->has_enc;
    if (s->has_self) NNT_T(att_load)(&L[l].self, &s->self, w, (int)steps);
    if (s->has_enc) NNT_T(att_load)(&L[l].enc, &s->enc, w, m);
    NNT_T(csr_load)(&L[l].W1, &s->W1, NULL, 0);
    NNT_T(csr_load)(&L[l].W2, &s->W2, NULL, 0);
    NNT_T(csr_load)(&L[l].W3, &s->W3, NULL, 0);
    L[l].b1 = NNT_T(vec)(s->b1, s->W1.rows);
    L[l].b2 = NNT_T(vec)(s->b2, s->W2.rows);
    L[l].b3 = NNT_T(vec)(s->b3, w);
    if (s->W1.rows > hmax) hmax = s->W1.rows;
    if (s->W2.rows > hmax) hmax = s->W2.rows;
    if (s->self.dk > dkmax) dkmax = s->self.dk;
    if (s->enc.dk > dkmax) dkmax = s->enc.dk;
    wbytes += (size_t)(L[l].W1.nnz + L[l].W2.nnz + L[l].W3.nnz) * (sizeof(real) + sizeof(int));
    if (s->has_self) wbytes += (size_t)(L[l].self.Q.nnz + L[l].self.K.nnz + L[l].self.V.nnz) * (sizeof(real) + sizeof(int));
    if (s->has_enc) wbytes += (size_t)(L[l].enc.Q.nnz + L[l].enc.K.nnz + L[l].enc.V.nnz) * (sizeof(real) + sizeof(int));
  }
  /* The encoder: Enc_c = E[x_c] + beta_enc(c), beta_enc(c)^pos1 = Bin(c + offset); its keys and
   * values are computed once. */
  real *x = nnt_xcalloc((size_t)w, sizeof(real)), *h = nnt_xmalloc(sizeof(real) * (size_t)w);
  real *u1 = nnt_xmalloc(sizeof(real) * (size_t)hmax), *u2 = nnt_xmalloc(sizeof(real) * (size_t)hmax);
  real *q = nnt_xmalloc(sizeof(real) * (size_t)dkmax), *sc = nnt_xmalloc(sizeof(real) * (size_t)(steps + m + 1));
  real *acc = nnt_xmalloc(sizeof(real) * (size_t)w), *probe = nnt_xmalloc(sizeof(real) * (size_t)w);
  for (int l = 0; l < nl; l++) {
    if (!L[l].has_enc) continue;
    for (int c = 0; c < m; c++) {
      for (int i = 0; i < w; i++) x[i] = (real)net->E[(long)tm->input[c] * w + i];
      long pos = c + net->offset;
      for (int b = 0; b < wpos; b++) x[g->pos1 + b] += (real)((pos >> (wpos - 1 - b)) & 1);
      NNT_T(att_push)(&L[l].enc, x, q);
    }
  }
  size_t cbytes = 0;
  for (int l = 0; l < nl; l++) {
    if (L[l].has_self) cbytes += (size_t)L[l].self.cap * (L[l].self.dk + L[l].self.nv * sizeof(real));
    if (L[l].has_enc) cbytes += (size_t)L[l].enc.cap * (L[l].enc.dk + L[l].enc.nv * sizeof(real));
  }
  res->cache_bytes = cbytes;
  res->weight_bytes = wbytes;
  res->min_score_gap = INFINITY, res->lambda = 0;
  res->mismatches = 0, res->first_mismatch = -1, res->first_what[0] = 0, res->nonbinary = 0;
  for (int i = 0; i < w; i++) x[i] = (real)net->h0[i]; /* o_0 */
  double win_t[10] = {0};
  long win_n[10] = {0};
  long checked = 0;
  nnt_progress pr;
  if (o->progress) nnt_progress_start(&pr, "decoding", steps);
  for (long t = 1; t <= steps; t++) {
    if (o->progress && !(t & 1023)) nnt_progress_add(&pr, 1024);
    double ts = nnt_now();
    for (int i = 0; i < w; i++) h[i] = x[i];
    for (int b = 0; b < wpos; b++) h[g->pos1 + b] += (real)((t >> (wpos - 1 - b)) & 1); /* + beta(t) */
    for (int l = 0; l < nl; l++) {
      R_LAY *Ly = &L[l];
      if (Ly->has_self) {
        NNT_T(att_push)(&Ly->self, h, q);
        NNT_T(att_apply)(&Ly->self, h, q, sc, acc, softmax, beta, &res->min_score_gap);
      }
      if (Ly->has_enc) NNT_T(att_apply)(&Ly->enc, h, q, sc, acc, softmax, beta, &res->min_score_gap);
      NNT_T(norm_max)(h, w, &res->lambda);
      NNT_T(spmv)(&Ly->W1, h, Ly->b1, u1, 1);
      NNT_T(spmv)(&Ly->W2, u1, Ly->b2, u2, 1);
      NNT_T(spmv)(&Ly->W3, u2, Ly->b3, h, 1);
      NNT_T(norm_max)(u1, Ly->W1.rows, &res->lambda);
      NNT_T(norm_max)(u2, Ly->W2.rows, &res->lambda);
      NNT_T(norm_max)(h, w, &res->lambda);
      if (l == net->probe_layer) memcpy(probe, h, sizeof(real) * (size_t)w);
    }
    memcpy(x, h, sizeof(real) * (size_t)w); /* o_t */
    int wi = (int)((t - 1) * 10 / steps);
    win_t[wi] += nnt_now() - ts, win_n[wi]++;
    /* Decoder step t simulates machine step s = t - 1 (step 1 is the pre-start step). */
    long s = t - 1;
    int st = NNT_T(decode_onehot)(h + g->st, net->nst);
    int sy = NNT_T(decode_onehot)(h + g->sym1, net->nsym);
    long hd = NNT_T(decode_bin)(h + g->pos2, wpos) - net->offset;
    int wr = s > 0 ? NNT_T(decode_onehot)(probe + g->sym2, net->nsym) : -1;
    const char *what = NULL;
    if (st != tr->state[s]) what = "state";
    else if (hd != tr->head[s]) what = "head";
    else if (sy != tr->sym[s]) what = "symbol under the head";
    else if (s > 0 && wr != tr->written[s]) what = "written symbol";
    if (!softmax)
      for (int i = 0; i < w; i++)
        if (h[i] != 0 && h[i] != 1) res->nonbinary = 1;
    if (s > 0) checked++;
    if (what) {
      if (res->first_mismatch < 0) {
        res->first_mismatch = s;
        snprintf(res->first_what, sizeof res->first_what, "%s (decoded state %d head %ld symbol %d written %d)",
                 what, st, hd, sy, wr);
      }
      res->mismatches++;
      if (o->stop_on_mismatch) break;
    }
  }
  double out = 0;
  for (int i = 0; i < w; i++) out += net->cls[i] * (double)x[i];
  if (o->progress) nnt_progress_end(&pr);
  res->output = out;
  res->output_sign = out > 0.5 ? 1 : out < -0.5 ? -1 : 0;
  res->steps_checked = checked;
  for (int i = 0; i < 10; i++) res->step_us[i] = win_n[i] ? win_t[i] / win_n[i] * 1e6 : 0;
  res->seconds = nnt_now() - t0;
  for (int l = 0; l < nl; l++) {
    if (L[l].has_self) NNT_T(att_free)(&L[l].self);
    if (L[l].has_enc) NNT_T(att_free)(&L[l].enc);
    NNT_T(csr_free)(&L[l].W1), NNT_T(csr_free)(&L[l].W2), NNT_T(csr_free)(&L[l].W3);
    free(L[l].b1), free(L[l].b2), free(L[l].b3);
  }
  free(L), free(x), free(h), free(u1), free(u2), free(q), free(sc), free(acc), free(probe);
  return NNT_OK;
}

#undef R_CSR
#undef R_ATT
#undef R_LAY
