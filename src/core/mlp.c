#include "nnt_mlp.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_file.h"

void nnt_mlp_init(nnt_mlp *m) { memset(m, 0, sizeof *m); }

void nnt_mlp_free(nnt_mlp *m) {
  for (int l = 0; l < m->nlayers; l++) free(m->layers[l].W), free(m->layers[l].b);
  free(m->layers);
  nnt_mlp_init(m);
}

nnt_mlp_layer *nnt_mlp_add(nnt_mlp *m, int in, int out, nnt_act act) {
  if (m->nlayers == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 8;
    m->layers = nnt_xrealloc(m->layers, sizeof *m->layers * (size_t)m->cap);
  }
  nnt_mlp_layer *L = &m->layers[m->nlayers++];
  L->in = in;
  L->out = out;
  L->act = act;
  L->W = nnt_xcalloc((size_t)in * out, sizeof(double));
  L->b = nnt_xcalloc((size_t)out, sizeof(double));
  return L;
}

nnt_mlp_layer *nnt_mlp_add_weights(nnt_mlp *m, int in, int out, nnt_act act, const double *W, const double *b) {
  nnt_mlp_layer *L = nnt_mlp_add(m, in, out, act);
  memcpy(L->W, W, sizeof(double) * in * out);
  if (b) memcpy(L->b, b, sizeof(double) * out);
  return L;
}

void nnt_mlp_append(nnt_mlp *a, const nnt_mlp *b) {
  for (int l = 0; l < b->nlayers; l++) {
    const nnt_mlp_layer *s = &b->layers[l];
    nnt_mlp_layer *d = nnt_mlp_add(a, s->in, s->out, s->act);
    memcpy(d->W, s->W, sizeof(double) * (size_t)s->in * s->out);
    memcpy(d->b, s->b, sizeof(double) * (size_t)s->out);
  }
}

void nnt_mlp_copy(nnt_mlp *dst, const nnt_mlp *src) {
  nnt_mlp_init(dst);
  nnt_mlp_append(dst, src);
}

int nnt_mlp_input_dim(const nnt_mlp *m) { return m->nlayers ? m->layers[0].in : 0; }
int nnt_mlp_output_dim(const nnt_mlp *m) { return m->nlayers ? m->layers[m->nlayers - 1].out : 0; }

double nnt_act_apply(nnt_act a, double v) {
  switch (a) {
    case NNT_ACT_RELU: return v > 0 ? v : 0;
    case NNT_ACT_STEP: return v >= 0 ? 1 : 0;
    case NNT_ACT_SIGMOID: return 1 / (1 + exp(-v));
    case NNT_ACT_TANH: return tanh(v);
    default: return v;
  }
}

static const char *act_names[] = {"identity", "relu", "step", "sigmoid", "tanh"};
const char *nnt_act_name(nnt_act a) { return act_names[a]; }

static void layer_apply(const nnt_mlp_layer *L, const double *x, double *y) {
  for (int o = 0; o < L->out; o++) {
    const double *w = L->W + (size_t)o * L->in;
    double s = L->b[o];
    for (int i = 0; i < L->in; i++) s += w[i] * x[i];
    y[o] = nnt_act_apply(L->act, s);
  }
}

void nnt_mlp_forward_trace(const nnt_mlp *m, const double *x, double **acts) {
  for (int l = 0; l < m->nlayers; l++) layer_apply(&m->layers[l], l ? acts[l - 1] : x, acts[l]);
}

void nnt_mlp_forward(const nnt_mlp *m, const double *x, double *y) {
  int w = 1;
  for (int l = 0; l < m->nlayers; l++) w = m->layers[l].out > w ? m->layers[l].out : w;
  double *a = nnt_xmalloc(sizeof(double) * (size_t)w), *b = nnt_xmalloc(sizeof(double) * (size_t)w);
  const double *cur = x;
  for (int l = 0; l < m->nlayers; l++) {
    double *dst = l == m->nlayers - 1 ? y : (l % 2 ? b : a);
    layer_apply(&m->layers[l], cur, dst);
    cur = dst;
  }
  free(a), free(b);
}

/* Constructions (compiled circuits, identity chains) are mostly zeros: below 1/8 density a
 * compressed-row product beats the dense one. Adds W x to each of the B rows of dst; returns 0
 * (nothing done) when the layer is dense. */
static int sparse_apply(const nnt_mlp_layer *L, int B, const double *X, double *Y) {
  size_t n = (size_t)L->in * L->out, nnz = 0;
  for (size_t i = 0; i < n; i++) nnz += L->W[i] != 0;
  if (nnz * 8 > n) return 0;
  int *start = nnt_xmalloc(sizeof(int) * ((size_t)L->out + 1)), *col = nnt_xmalloc(sizeof(int) * (nnz + 1));
  double *val = nnt_xmalloc(sizeof(double) * (nnz + 1));
  size_t k = 0;
  for (int o = 0; o < L->out; o++) {
    start[o] = (int)k;
    for (int i = 0; i < L->in; i++)
      if (L->W[(size_t)o * L->in + i] != 0) col[k] = i, val[k++] = L->W[(size_t)o * L->in + i];
  }
  start[L->out] = (int)k;
  for (int r = 0; r < B; r++) {
    const double *x = X + (size_t)r * L->in;
    double *y = Y + (size_t)r * L->out;
    for (int o = 0; o < L->out; o++) {
      double s = 0;
      for (int e = start[o]; e < start[o + 1]; e++) s += val[e] * x[col[e]];
      y[o] += s;
    }
  }
  free(start), free(col), free(val);
  return 1;
}

/* Activations of at most this many doubles per buffer: a very wide net runs its batch in chunks
 * of rows rather than asking for batch x width at once (2000 points through a 178k-wide net
 * wanted 2.85 GB). */
#define MLP_BATCH_DOUBLES (1L << 22)

void nnt_mlp_forward_batch(const nnt_mlp *m, int B, const double *X, double *Y) {
  int w = 1;
  for (int l = 0; l < m->nlayers; l++) w = m->layers[l].out > w ? m->layers[l].out : w;
  if ((long)w * B > MLP_BATCH_DOUBLES && B > 1) {
    int rows = MLP_BATCH_DOUBLES / w > 1 ? (int)(MLP_BATCH_DOUBLES / w) : 1;
    int din = nnt_mlp_input_dim(m), dout = nnt_mlp_output_dim(m);
    for (int r0 = 0; r0 < B; r0 += rows)
      nnt_mlp_forward_batch(m, B - r0 < rows ? B - r0 : rows, X + (size_t)r0 * din, Y + (size_t)r0 * dout);
    return;
  }
  double *a = nnt_xmalloc(sizeof(double) * (size_t)w * B), *b = nnt_xmalloc(sizeof(double) * (size_t)w * B);
  const double *cur = X;
  for (int l = 0; l < m->nlayers; l++) {
    const nnt_mlp_layer *L = &m->layers[l];
    double *dst = l == m->nlayers - 1 ? Y : (l % 2 ? b : a);
    for (int r = 0; r < B; r++) memcpy(dst + (size_t)r * L->out, L->b, sizeof(double) * (size_t)L->out);
    if (!sparse_apply(L, B, cur, dst)) nnt_dgemm(0, 1, B, L->out, L->in, 1.0, cur, L->in, L->W, L->in, 1.0, dst, L->out);
    size_t n = (size_t)B * L->out;
    if (L->act == NNT_ACT_RELU) /* the common case, as a loop the compiler vectorises */
      for (size_t i = 0; i < n; i++) dst[i] = dst[i] > 0 ? dst[i] : 0;
    else if (L->act != NNT_ACT_IDENTITY)
      for (size_t i = 0; i < n; i++) dst[i] = nnt_act_apply(L->act, dst[i]);
    cur = dst;
  }
  free(a), free(b);
}

nnt_mlp_stats nnt_mlp_stats_of(const nnt_mlp *m) {
  nnt_mlp_stats s = {0};
  s.layers = m->nlayers;
  s.input_dim = nnt_mlp_input_dim(m);
  s.output_dim = nnt_mlp_output_dim(m);
  for (int l = 0; l < m->nlayers; l++) {
    const nnt_mlp_layer *L = &m->layers[l];
    if (l < m->nlayers - 1) s.hidden_units += L->out;
    if (L->out > s.max_width) s.max_width = L->out;
    size_t nw = (size_t)L->in * L->out;
    s.params += (long)(nw + (size_t)L->out);
    for (size_t i = 0; i < nw + (size_t)L->out; i++) {
      double v = i < nw ? L->W[i] : L->b[i - nw];
      s.nonzero_params += v != 0;
      s.l1_norm += fabs(v);
      if (fabs(v) > s.max_abs) s.max_abs = fabs(v);
    }
  }
  return s;
}

/* cJSON prints 15 significant digits whenever they round-trip within DBL_EPSILON, which loses
 * the last bit; constructions must reload bit for bit, so numbers are written with %.17g. */
static cJSON *exact_array(const double *v, int n) {
  cJSON *a = cJSON_CreateArray();
  char buf[40];
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%.17g", v[i]);
    cJSON_AddItemToArray(a, cJSON_CreateRaw(buf));
  }
  return a;
}

int nnt_mlp_save(const nnt_mlp *m, const char *path) {
  cJSON *j = cJSON_CreateObject(), *layers = cJSON_CreateArray();
  cJSON_AddStringToObject(j, "format", "nnt-mlp");
  cJSON_AddNumberToObject(j, "version", 1);
  for (int l = 0; l < m->nlayers; l++) {
    const nnt_mlp_layer *L = &m->layers[l];
    cJSON *o = cJSON_CreateObject(), *W = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "activation", nnt_act_name(L->act));
    for (int r = 0; r < L->out; r++) cJSON_AddItemToArray(W, exact_array(L->W + (size_t)r * L->in, L->in));
    cJSON_AddItemToObject(o, "W", W);
    cJSON_AddItemToObject(o, "b", exact_array(L->b, L->out));
    cJSON_AddItemToArray(layers, o);
  }
  cJSON_AddItemToObject(j, "layers", layers);
  int st = nnt_json_write(path, j);
  cJSON_Delete(j);
  return st;
}

static int read_vec(const cJSON *a, double *dst, int n) {
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) return -1;
  int i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, a) {
    if (!cJSON_IsNumber(e)) return i;
    dst[i++] = e->valuedouble;
  }
  return n;
}

int nnt_mlp_load(const char *path, nnt_mlp *out) {
  cJSON *j;
  int st = nnt_json_read(path, &j);
  if (st) return st;
  nnt_mlp m;
  nnt_mlp_init(&m);
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(j, "format");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(j, "version");
  const cJSON *layers = cJSON_GetObjectItemCaseSensitive(j, "layers");
  if (cJSON_IsString(fmt) && !strcmp(fmt->valuestring, "nnt-mlp-sparse")) { /* its own loader checks it */
    cJSON_Delete(j);
    nnt_smlp s;
    if ((st = nnt_smlp_load(path, &s))) return st;
    /* a few bytes of sparse file can declare a layer of any size: expanding one past 2^28 weights
     * (2 GiB) would exhaust memory instead of saying why (found by fuzz/fuzz_core_mlp) */
    for (int l = 0; l < s.nlayers; l++)
      if ((double)s.layers[l].in * s.layers[l].out > (double)(1 << 28)) {
        st = nnt_fail(NNT_EFORMAT, "%s: layers[%d] is %d x %d, too large for a dense network (at most 2^28 weights); it is usable as a sparse one",
                      path, l, s.layers[l].out, s.layers[l].in);
        nnt_smlp_free(&s);
        return st;
      }
    nnt_smlp_to_dense(out, &s);
    nnt_smlp_free(&s);
    return NNT_OK;
  }
  if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "nnt-mlp")) {
    st = nnt_fail(NNT_EFORMAT, "%s: \"format\" must be \"nnt-mlp\"", path);
  } else if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0) {
    st = nnt_fail(NNT_EFORMAT, "%s: unsupported \"version\" (this nnt reads version 1)", path);
  } else if (!cJSON_IsArray(layers) || cJSON_GetArraySize(layers) == 0) {
    st = nnt_fail(NNT_EFORMAT, "%s: \"layers\" must be a non-empty array", path);
  }
  int l = 0;
  const cJSON *o;
  if (!st) cJSON_ArrayForEach(o, layers) {
      const cJSON *act = cJSON_GetObjectItemCaseSensitive(o, "activation");
      const cJSON *W = cJSON_GetObjectItemCaseSensitive(o, "W");
      const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "b");
      int a = -1;
      for (int k = 0; k < 5 && cJSON_IsString(act); k++)
        if (!strcmp(act->valuestring, act_names[k])) a = k;
      if (a < 0) {
        st = nnt_fail(NNT_EFORMAT, "%s: layers[%d].activation must be one of identity|relu|step|sigmoid|tanh", path, l);
        break;
      }
      int rows = cJSON_IsArray(W) ? cJSON_GetArraySize(W) : 0;
      int cols = rows ? cJSON_GetArraySize(cJSON_GetArrayItem(W, 0)) : 0;
      int want_in = l ? m.layers[l - 1].out : cols;
      if (rows < 1 || cols < 1) {
        st = nnt_fail(NNT_EFORMAT, "%s: layers[%d].W must be a non-empty matrix", path, l);
        break;
      }
      if (cols != want_in) {
        st = nnt_fail(NNT_EFORMAT, "%s: layers[%d].W has %d columns, the previous layer has %d outputs", path, l, cols, want_in);
        break;
      }
      nnt_mlp_layer *L = nnt_mlp_add(&m, cols, rows, (nnt_act)a);
      for (int r = 0; r < rows && !st; r++)
        if (read_vec(cJSON_GetArrayItem(W, r), L->W + (size_t)r * cols, cols) != cols)
          st = nnt_fail(NNT_EFORMAT, "%s: layers[%d].W row %d must hold %d numbers", path, l, r, cols);
      if (!st && read_vec(b, L->b, rows) != rows)
        st = nnt_fail(NNT_EFORMAT, "%s: layers[%d].b must hold %d numbers", path, l, rows);
      if (st) break;
      l++;
    }
  cJSON_Delete(j);
  if (st) {
    nnt_mlp_free(&m);
    return st;
  }
  *out = m;
  return NNT_OK;
}
