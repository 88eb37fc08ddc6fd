/* The compiled transformer as a safetensors file (docs/export.md): every matrix dense, float64,
 * named by its role; the architecture, the encoding (groups, positions, offset) and the machine in
 * the metadata, so that python/nnt/tm.py runs the decoder from the file alone. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_safetensors.h"
#include "nnt_tm.h"

/* float64, or float32 (f32) for a net exported for a float32 run (its parameters are small
 * integers: exact in either) */
static int add_real(nnt_st_writer *w, int f32, const char *name, int ndim, const long long *shape, const double *v) {
  if (!f32) return nnt_st_add(w, name, NNT_ST_F64, ndim, shape, v);
  long long n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  float *f = nnt_xmalloc(sizeof(float) * (size_t)(n ? n : 1));
  for (long long i = 0; i < n; i++) f[i] = (float)v[i];
  int st = nnt_st_add(w, name, NNT_ST_F32, ndim, shape, f);
  free(f);
  return st;
}

static int add_vec(nnt_st_writer *w, int f32, const char *name, const double *v, long long n) {
  return add_real(w, f32, name, 1, &n, v);
}

static int add_csr(nnt_st_writer *w, int f32, const char *name, const nnt_tm_csr *c) {
  long long shape[2] = {c->rows, c->cols};
  double *d = nnt_xcalloc((size_t)c->rows * c->cols + 1, sizeof(double));
  for (int i = 0; i < c->rows; i++)
    for (int p = c->ptr[i]; p < c->ptr[i + 1]; p++) d[(long)i * c->cols + c->idx[p]] = c->val[p];
  int st = add_real(w, f32, name, 2, shape, d);
  free(d);
  return st;
}

static int add_attn(nnt_st_writer *w, int f32, const char *pre, const nnt_tm_attn *a, int width) {
  static const char *const names[] = {"W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "k_null", "v_null"};
  const nnt_tm_csr *mats[] = {&a->Q, &a->K, &a->V};
  const double *vecs[] = {a->bq, a->bk, a->bv, a->K0, a->V0};
  const long long lens[] = {a->dk, a->dk, width, a->dk, width};
  char name[128];
  int st = NNT_OK;
  for (int i = 0; i < 8 && !st; i++) {
    snprintf(name, sizeof name, "%s.%s", pre, names[i]);
    st = i < 3 ? add_csr(w, f32, name, mats[i]) : add_vec(w, f32, name, vecs[i - 3], lens[i - 3]);
  }
  return st;
}

/* The machine in nnt's multi-symbol text format (it reads back with nnt_tm_parse_text). */
static char *machine_text(const nnt_tm *tm) {
  size_t cap = 256 + (size_t)(tm->k + 2 + tm->nsym + tm->m) * (NNT_TM_NAME + 1) +
               (size_t)tm->k * tm->nsym * (4 * NNT_TM_NAME + 16);
  char *s = nnt_xmalloc(cap);
  size_t p = 0;
#define PUT(...) (p += (size_t)snprintf(s + p, cap - p, __VA_ARGS__))
  PUT("states:");
  for (int z = 0; z < tm->k; z++) PUT(" %s", tm->state_name[z]);
  PUT("\nsymbols:");
  for (int a = 0; a < tm->nsym; a++) PUT(" %s", tm->sym_name[a]);
  PUT("\n");
  if (tm->m) {
    PUT("input:");
    for (int i = 0; i < tm->m; i++) PUT(" %s", tm->sym_name[tm->input[i]]);
    PUT("\n");
  }
  for (int z = 0; z < tm->k; z++)
    for (int a = 0; a < tm->nsym; a++) {
      nnt_tm_rule r = tm->delta[z * tm->nsym + a];
      if (r.next == NNT_TM_UNDEF) continue;
      const char *nx = r.next == tm->k ? "halt" : r.next == tm->k + 1 ? "reject" : tm->state_name[r.next];
      PUT("%s %s -> %s %c %s\n", tm->state_name[z], tm->sym_name[a], tm->sym_name[r.write],
          r.move < 0 ? 'L' : r.move > 0 ? 'R' : 'S', nx);
    }
#undef PUT
  return s;
}

static cJSON *names_json(const char (*names)[NNT_TM_NAME], int n) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(names[i]));
  return a;
}

static char *arch_json(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_export_info *info) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "kind", "tm-transformer");
  cJSON_AddStringToObject(j, "construction", "Wei, Chen & Ma 2022, Section 4 / Appendix C (seed 000)");
  cJSON_AddNumberToObject(j, "k", net->k);
  cJSON_AddNumberToObject(j, "nsym", net->nsym);
  cJSON_AddNumberToObject(j, "nst", net->nst);
  cJSON_AddNumberToObject(j, "m", net->m);
  cJSON_AddNumberToObject(j, "width", net->w);
  cJSON_AddNumberToObject(j, "wpos", net->wpos);
  cJSON_AddNumberToObject(j, "T", (double)net->T);
  cJSON_AddNumberToObject(j, "decoder_steps", (double)net->T + 1);
  cJSON_AddNumberToObject(j, "offset", (double)net->offset);
  cJSON_AddNumberToObject(j, "n_layer", net->nlayers);
  cJSON_AddNumberToObject(j, "probe_layer", net->probe_layer);
  cJSON_AddStringToObject(j, "attention", info->attention == NNT_TM_SOFTMAX ? "softmax" : "hard");
  if (info->attention == NNT_TM_SOFTMAX) cJSON_AddNumberToObject(j, "beta", info->beta);
  cJSON_AddStringToObject(j, "precision", info->precision == NNT_TM_F32 ? "f32" : "f64");
  const nnt_tm_groups *g = &net->g;
  cJSON *gr = cJSON_AddObjectToObject(j, "groups"); /* [start, size] of each coordinate group */
  const char *gn[] = {"st", "sym1", "sym2", "pos1", "pos2", "pos3", "scr1", "scr2", "scr3", "scr4", "mv"};
  const int gs[] = {g->st, g->sym1, g->sym2, g->pos1, g->pos2, g->pos3, g->scr1, g->scr2, g->scr3, g->scr4, g->mv};
  const int gl[] = {net->nst, net->nsym, net->nsym, net->wpos, net->wpos, net->wpos, net->nsym, net->nsym, net->wpos, 3, 2};
  for (int i = 0; i < 11; i++) {
    int pair[2] = {gs[i], gl[i]};
    cJSON_AddItemToObject(gr, gn[i], cJSON_CreateIntArray(pair, 2));
  }
  cJSON *L = cJSON_AddArrayToObject(j, "layers");
  for (int l = 0; l < net->nlayers; l++) {
    const nnt_tm_layer *ly = &net->layers[l];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "role", ly->name);
    cJSON_AddBoolToObject(o, "self_attn", ly->has_self);
    cJSON_AddBoolToObject(o, "enc_attn", ly->has_enc);
    cJSON_AddItemToArray(L, o);
  }
  cJSON *pos = cJSON_AddObjectToObject(j, "positions");
  cJSON_AddStringToObject(pos, "encoding", "binary, MSB first, added to group pos1");
  cJSON_AddStringToObject(pos, "decoder", "step t = 1..decoder_steps");
  cJSON_AddStringToObject(pos, "encoder", "input cell c = 0..m-1 at c + offset");
  cJSON_AddStringToObject(j, "decode",
                          "after step t (machine step t-1): state = one-hot st, head = Bin(pos2) - offset, "
                          "read = one-hot sym1; written = one-hot sym2 after layer probe_layer; threshold 0.5");
  cJSON_AddStringToObject(j, "output", "theta_cls . o_T: > 0.5 accept/halt, < -0.5 reject");
  cJSON *mc = cJSON_AddObjectToObject(j, "machine");
  char *text = machine_text(tm);
  cJSON_AddStringToObject(mc, "text", text);
  free(text);
  if (tm->nsym <= 10) {
    int plain = 1; /* standard notation: moves L/R only, no reject */
    for (int i = 0; i < tm->k * tm->nsym; i++)
      if (tm->delta[i].next != NNT_TM_UNDEF && (tm->delta[i].move == 0 || tm->delta[i].next == tm->k + 1)) plain = 0;
    if (plain) {
      char buf[4 * 26 * 10 + 8];
      nnt_tm_format_standard(tm, buf, sizeof buf);
      cJSON_AddStringToObject(mc, "standard", buf);
    }
  }
  cJSON *states = names_json(tm->state_name, tm->k + 2);
  cJSON_AddItemToArray(states, cJSON_CreateString("pre-start"));
  cJSON_AddItemToObject(mc, "states", states); /* index = the st coordinate */
  cJSON_AddItemToObject(mc, "symbols", names_json(tm->sym_name, tm->nsym));
  cJSON_AddItemToObject(mc, "input", cJSON_CreateIntArray(tm->input ? tm->input : (int[]){0}, tm->m));
  char *s = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
  if (!s) nnt_oom(0); /* cJSON returns NULL only when out of memory */
  return s;
}

int nnt_tm_export(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_export_info *info, const char *path) {
  if (tm->k != net->k || tm->nsym != net->nsym || tm->m != net->m)
    return nnt_fail(NNT_EINVAL, "export: the machine is not the one the net was compiled from");
  nnt_st_writer *w;
  int st = nnt_st_writer_alloc(&w);
  if (st) return st;
  long long shape[2] = {net->nsym, net->w}, m = net->m;
  char name[128];
  int f32 = info->precision == NNT_TM_F32;
  st = add_real(w, f32, "enc.embed", 2, shape, net->E);
  if (!st) {
    long long *in = nnt_xmalloc(sizeof(long long) * (size_t)(m ? m : 1));
    for (int i = 0; i < m; i++) in[i] = tm->input[i];
    st = nnt_st_add(w, "enc.input", NNT_ST_I64, 1, &m, in);
    free(in);
  }
  if (!st) st = add_vec(w, f32, "dec.h0", net->h0, net->w);
  if (!st) st = add_vec(w, f32, "cls", net->cls, net->w);
  for (int l = 0; l < net->nlayers && !st; l++) {
    const nnt_tm_layer *L = &net->layers[l];
    if (L->has_self) snprintf(name, sizeof name, "dec.layers.%d.self_attn", l), st = add_attn(w, f32, name, &L->self, net->w);
    if (!st && L->has_enc) snprintf(name, sizeof name, "dec.layers.%d.enc_attn", l), st = add_attn(w, f32, name, &L->enc, net->w);
    const nnt_tm_csr *mats[] = {&L->W1, &L->W2, &L->W3};
    const double *bias[] = {L->b1, L->b2, L->b3};
    for (int i = 0; i < 3 && !st; i++) {
      snprintf(name, sizeof name, "dec.layers.%d.mlp.W%d", l, i + 1);
      st = add_csr(w, f32, name, mats[i]);
      snprintf(name, sizeof name, "dec.layers.%d.mlp.b%d", l, i + 1);
      if (!st) st = add_vec(w, f32, name, bias[i], mats[i]->rows);
    }
  }
  char *arch = st ? NULL : arch_json(net, tm, info);
  if (!st) st = nnt_st_meta(w, "kind", "tm-transformer");
  if (!st) st = nnt_st_meta(w, "arch", arch);
  if (!st) st = nnt_st_meta(w, "nnt_version", info->version ? info->version : "");
  if (!st) st = nnt_st_meta(w, "command", info->command ? info->command : "");
  if (!st) st = nnt_st_write(w, path);
  free(arch);
  nnt_st_writer_free(w);
  return st;
}

/* ---- the dump: a plain dense decoder run that keeps every residual and attention weight ---- */

static void spmv(const nnt_tm_csr *A, const double *x, const double *b, double *y, int relu) {
  for (int i = 0; i < A->rows; i++) {
    double s = b ? b[i] : 0;
    for (int p = A->ptr[i]; p < A->ptr[i + 1]; p++) s += A->val[p] * x[A->idx[p]];
    y[i] = relu && s < 0 ? 0 : s;
  }
}

/* h += attention of h over (null, keys[0..n)); the weights go to p[0..n] (p[0]: the null key). */
static void attend(const nnt_tm_attn *a, double *h, int w, const double *keys, const double *vals, long n, int softmax,
                   double beta, double *q, double *p) {
  int dk = a->dk;
  spmv(&a->Q, h, a->bq, q, 0);
  double mx = 0;
  for (long j = 0; j <= n; j++) {
    const double *k = j ? keys + (j - 1) * dk : a->K0;
    double s = 0;
    for (int c = 0; c < dk; c++) s += q[c] * k[c];
    p[j] = s;
    if (!j || s > mx) mx = s;
  }
  double norm = 0;
  for (long j = 0; j <= n; j++) norm += (p[j] = softmax ? exp(beta * (p[j] - mx)) : p[j] == mx);
  for (long j = 0; j <= n; j++) p[j] /= norm;
  for (long j = 0; j <= n; j++)
    if (p[j] != 0) {
      const double *v = j ? vals + (j - 1) * w : a->V0;
      for (int i = 0; i < w; i++) h[i] += p[j] * v[i];
    }
}

static void bin_add(double *v, int wpos, long x) {
  for (int b = 0; b < wpos; b++) v[b] += (double)((x >> (wpos - 1 - b)) & 1);
}

int nnt_tm_dump(const nnt_tm_net *net, const nnt_tm *tm, long steps, const nnt_tm_export_info *info, const char *dir,
                nnt_tm_dump_step *pick) {
  int w = net->w, nl = net->nlayers, m = net->m, softmax = info->attention == NNT_TM_SOFTMAX;
  if (steps < 1 || steps > net->T + 1) return nnt_fail(NNT_EINVAL, "dump: %ld decoder steps (the net has %ld)", steps, net->T + 1);
  if (steps > NNT_TM_DUMP_MAX_STEPS)
    return nnt_fail(NNT_EINVAL, "--dump keeps every attention weight (steps^2 per layer): at most %d steps, got %ld",
                    NNT_TM_DUMP_MAX_STEPS - 1, steps - 1);
  long pick_t = pick ? pick->step + 1 : 0; /* the decoder step of the chosen machine step */
  if (pick && (pick->step < 0 || pick_t > steps)) return nnt_fail(NNT_EINVAL, "--dump-step %ld: not in 0..%ld", pick->step, steps - 1);
  int st = nnt_mkdirs(dir);
  if (st) return st;
  int dk = 1, hmax = w;
  for (int l = 0; l < nl; l++) {
    const nnt_tm_layer *L = &net->layers[l];
    if (L->self.dk > dk) dk = L->self.dk;
    if (L->enc.dk > dk) dk = L->enc.dk;
    if (L->W1.rows > hmax) hmax = L->W1.rows;
    if (L->W2.rows > hmax) hmax = L->W2.rows;
  }
  double *resid = nnt_xcalloc((size_t)steps * (nl + 1) * w, sizeof(double));
  double **pself = nnt_xcalloc((size_t)nl, sizeof(double *)), **penc = nnt_xcalloc((size_t)nl, sizeof(double *));
  double **kself = nnt_xcalloc((size_t)nl, sizeof(double *)), **vself = nnt_xcalloc((size_t)nl, sizeof(double *));
  double **kenc = nnt_xcalloc((size_t)nl, sizeof(double *)), **venc = nnt_xcalloc((size_t)nl, sizeof(double *));
  double *x = nnt_xcalloc((size_t)w, sizeof(double)), *h = nnt_xmalloc(sizeof(double) * (size_t)w);
  double *u1 = nnt_xmalloc(sizeof(double) * (size_t)hmax), *u2 = nnt_xmalloc(sizeof(double) * (size_t)hmax);
  double *q = nnt_xmalloc(sizeof(double) * (size_t)dk);
  for (int l = 0; l < nl; l++) {
    const nnt_tm_layer *L = &net->layers[l];
    if (L->has_self) {
      pself[l] = nnt_xcalloc((size_t)steps * (steps + 1), sizeof(double));
      kself[l] = nnt_xmalloc(sizeof(double) * (size_t)steps * L->self.dk);
      vself[l] = nnt_xmalloc(sizeof(double) * (size_t)steps * w);
    }
    if (L->has_enc) { /* the encoder tokens E[x_c] + Bin(c + offset), keys and values once */
      penc[l] = nnt_xcalloc((size_t)steps * (m + 1), sizeof(double));
      kenc[l] = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1) * L->enc.dk);
      venc[l] = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1) * w);
      for (int c = 0; c < m; c++) {
        memcpy(x, net->E + (long)tm->input[c] * w, sizeof(double) * (size_t)w);
        bin_add(x + net->g.pos1, net->wpos, c + net->offset);
        spmv(&L->enc.K, x, L->enc.bk, kenc[l] + (long)c * L->enc.dk, 0);
        spmv(&L->enc.V, x, L->enc.bv, venc[l] + (long)c * w, 0);
      }
    }
  }
  memcpy(x, net->h0, sizeof(double) * (size_t)w);
  for (long t = 1; t <= steps; t++) {
    memcpy(h, x, sizeof(double) * (size_t)w);
    bin_add(h + net->g.pos1, net->wpos, t);
    double *r = resid + (t - 1) * (nl + 1) * w;
    memcpy(r, h, sizeof(double) * (size_t)w);
    for (int l = 0; l < nl; l++) {
      const nnt_tm_layer *L = &net->layers[l];
      if (L->has_self) {
        spmv(&L->self.K, h, L->self.bk, kself[l] + (t - 1) * L->self.dk, 0);
        spmv(&L->self.V, h, L->self.bv, vself[l] + (t - 1) * w, 0);
        attend(&L->self, h, w, kself[l], vself[l], t, softmax, info->beta, q, pself[l] + (t - 1) * (steps + 1));
      }
      if (L->has_enc) attend(&L->enc, h, w, kenc[l], venc[l], m, softmax, info->beta, q, penc[l] + (t - 1) * (m + 1));
      spmv(&L->W1, h, L->b1, u1, 1);
      spmv(&L->W2, u1, L->b2, u2, 1);
      spmv(&L->W3, u2, L->b3, h, 1);
      memcpy(r + (long)(l + 1) * w, h, sizeof(double) * (size_t)w);
    }
    memcpy(x, h, sizeof(double) * (size_t)w);
  }
  /* the file */
  nnt_st_writer *wr;
  st = nnt_st_writer_alloc(&wr);
  char name[128];
  if (!st) st = nnt_st_add(wr, "resid", NNT_ST_F64, 3, (const long long[]){steps, nl + 1, w}, resid);
  for (int l = 0; l < nl && !st; l++) {
    if (pself[l]) {
      snprintf(name, sizeof name, "dec.layers.%d.self_attn.pattern", l);
      st = nnt_st_add(wr, name, NNT_ST_F64, 2, (const long long[]){steps, steps + 1}, pself[l]);
    }
    if (!st && penc[l]) {
      snprintf(name, sizeof name, "dec.layers.%d.enc_attn.pattern", l);
      st = nnt_st_add(wr, name, NNT_ST_F64, 2, (const long long[]){steps, m + 1}, penc[l]);
    }
  }
  char *arch = st ? NULL : arch_json(net, tm, info);
  if (!st) st = nnt_st_meta(wr, "kind", "tm-dump");
  if (!st) st = nnt_st_meta(wr, "arch", arch);
  if (!st)
    st = nnt_st_meta(wr, "layout",
                     "resid [decoder step, 1 + layer, width]: the stream entering layer 0 (o_{t-1} + Bin(t)) and after "
                     "each layer; dec.layers.L.{self,enc}_attn.pattern [decoder step, 1 + key]: the attention weights, "
                     "key 0 the null key, then decoder steps 1.. (self) or input cells 0.. (enc); decoder step t is "
                     "machine step t - 1; float64 arithmetic");
  if (!st) st = nnt_st_meta(wr, "nnt_version", info->version ? info->version : "");
  if (!st) st = nnt_st_meta(wr, "command", info->command ? info->command : "");
  if (!st) {
    char path[4096];
    st = nnt_st_write(wr, nnt_path(path, sizeof path, dir, "dump.safetensors"));
  }
  free(arch);
  nnt_st_writer_free(wr);
  if (!st && pick) { /* the chosen step's patterns, one row per attention layer, for the report */
    int ns = 0, ne = 0;
    for (int l = 0; l < nl; l++) ns += pself[l] != NULL, ne += penc[l] != NULL;
    pick->self_rows = ns, pick->self_cols = (int)pick_t + 1, pick->enc_rows = ne, pick->enc_cols = m + 1;
    pick->self = nnt_xcalloc((size_t)ns * pick->self_cols + 1, sizeof(double));
    pick->enc = nnt_xcalloc((size_t)ne * pick->enc_cols + 1, sizeof(double));
    pick->self_layer = nnt_xcalloc((size_t)ns + 1, sizeof(int)), pick->enc_layer = nnt_xcalloc((size_t)ne + 1, sizeof(int));
    ns = ne = 0;
    for (int l = 0; l < nl; l++) {
      if (pself[l]) {
        memcpy(pick->self + (long)ns * pick->self_cols, pself[l] + (pick_t - 1) * (steps + 1), sizeof(double) * (size_t)pick->self_cols);
        pick->self_layer[ns++] = l;
      }
      if (penc[l]) {
        memcpy(pick->enc + (long)ne * pick->enc_cols, penc[l] + (pick_t - 1) * (m + 1), sizeof(double) * (size_t)pick->enc_cols);
        pick->enc_layer[ne++] = l;
      }
    }
  }
  for (int l = 0; l < nl; l++) free(pself[l]), free(penc[l]), free(kself[l]), free(vself[l]), free(kenc[l]), free(venc[l]);
  free(pself), free(penc), free(kself), free(vself), free(kenc), free(venc);
  free(resid), free(x), free(h), free(u1), free(u2), free(q);
  return st;
}

void nnt_tm_dump_step_free(nnt_tm_dump_step *p) {
  free(p->self), free(p->enc), free(p->self_layer), free(p->enc_layer);
  long s = p->step;
  memset(p, 0, sizeof *p);
  p->step = s;
}
