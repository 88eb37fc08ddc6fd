/* Sparse nnt-mlp networks (nnt_mlp.h): CSR layers, their batched forward pass and file format. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_mlp.h"

void nnt_smlp_init(nnt_smlp *m) { memset(m, 0, sizeof *m); }

void nnt_smlp_free(nnt_smlp *m) {
  for (int l = 0; l < m->nlayers; l++) {
    nnt_smlp_layer *L = &m->layers[l];
    free(L->row_start), free(L->col), free(L->val), free(L->b);
  }
  free(m->layers);
  nnt_smlp_init(m);
}

/* A layer with room for nnz entries; row_start and b zeroed. */
static nnt_smlp_layer *push_layer(nnt_smlp *m, int in, int out, nnt_act act, long nnz) {
  if (m->nlayers == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 8;
    m->layers = nnt_xrealloc(m->layers, sizeof *m->layers * (size_t)m->cap);
  }
  nnt_smlp_layer *L = &m->layers[m->nlayers++];
  L->in = in, L->out = out, L->act = act, L->nnz = nnz;
  L->row_start = nnt_xcalloc((size_t)out + 1, sizeof(long));
  L->col = nnt_xmalloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
  L->val = nnt_xmalloc(sizeof(double) * (size_t)(nnz ? nnz : 1));
  L->b = nnt_xcalloc((size_t)out, sizeof(double));
  return L;
}

typedef struct {
  int row, col;
  long idx;
} triplet;

static int triplet_cmp(const void *pa, const void *pb) {
  const triplet *a = pa, *b = pb;
  if (a->row != b->row) return a->row < b->row ? -1 : 1;
  if (a->col != b->col) return a->col < b->col ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx); /* duplicates summed in the order given */
}

nnt_smlp_layer *nnt_smlp_add_coo(nnt_smlp *m, int in, int out, nnt_act act, long n, const int *row, const int *col,
                                 const double *val, const double *b) {
  triplet *t = nnt_xmalloc(sizeof *t * (size_t)(n ? n : 1));
  for (long i = 0; i < n; i++) {
    if (row[i] < 0 || row[i] >= out || col[i] < 0 || col[i] >= in) {
      fprintf(stderr, "nnt_smlp_add_coo: entry %ld (%d, %d) outside %d x %d\n", i, row[i], col[i], out, in);
      abort(); /* caller misuse: the readers check indices before building the layer */
    }
    t[i] = (triplet){row[i], col[i], i};
  }
  qsort(t, (size_t)n, sizeof *t, triplet_cmp);
  long k = 0;
  int *rc = nnt_xmalloc(sizeof(int) * (size_t)(n ? n : 1)), *cc = nnt_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
  double *vc = nnt_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
  for (long i = 0; i < n;) {
    double s = 0;
    long j = i;
    for (; j < n && t[j].row == t[i].row && t[j].col == t[i].col; j++) s += val[t[j].idx];
    if (s != 0) rc[k] = t[i].row, cc[k] = t[i].col, vc[k++] = s;
    i = j;
  }
  nnt_smlp_layer *L = push_layer(m, in, out, act, k);
  for (long e = 0; e < k; e++) L->row_start[rc[e] + 1]++;
  for (int o = 0; o < out; o++) L->row_start[o + 1] += L->row_start[o];
  memcpy(L->col, cc, sizeof(int) * (size_t)k);
  memcpy(L->val, vc, sizeof(double) * (size_t)k);
  if (b) memcpy(L->b, b, sizeof(double) * (size_t)out);
  free(t), free(rc), free(cc), free(vc);
  return L;
}

void nnt_smlp_from_dense(nnt_smlp *dst, const nnt_mlp *src) {
  nnt_smlp_init(dst);
  for (int l = 0; l < src->nlayers; l++) {
    const nnt_mlp_layer *D = &src->layers[l];
    size_t n = (size_t)D->in * D->out;
    long nnz = 0;
    for (size_t i = 0; i < n; i++) nnz += D->W[i] != 0;
    nnt_smlp_layer *L = push_layer(dst, D->in, D->out, D->act, nnz);
    long k = 0;
    for (int o = 0; o < D->out; o++) {
      for (int i = 0; i < D->in; i++) {
        double w = D->W[(size_t)o * D->in + i];
        if (w != 0) L->col[k] = i, L->val[k++] = w;
      }
      L->row_start[o + 1] = k;
    }
    memcpy(L->b, D->b, sizeof(double) * (size_t)D->out);
  }
}

void nnt_smlp_to_dense(nnt_mlp *dst, const nnt_smlp *src) {
  nnt_mlp_init(dst);
  for (int l = 0; l < src->nlayers; l++) {
    const nnt_smlp_layer *S = &src->layers[l];
    nnt_mlp_layer *D = nnt_mlp_add(dst, S->in, S->out, S->act);
    for (int o = 0; o < S->out; o++)
      for (long e = S->row_start[o]; e < S->row_start[o + 1]; e++) D->W[(size_t)o * S->in + S->col[e]] = S->val[e];
    memcpy(D->b, S->b, sizeof(double) * (size_t)S->out);
  }
}

int nnt_smlp_input_dim(const nnt_smlp *m) { return m->nlayers ? m->layers[0].in : 0; }
int nnt_smlp_output_dim(const nnt_smlp *m) { return m->nlayers ? m->layers[m->nlayers - 1].out : 0; }

static void stat_add(nnt_mlp_stats *s, double v) {
  s->nonzero_params += v != 0;
  s->l1_norm += fabs(v);
  if (fabs(v) > s->max_abs) s->max_abs = fabs(v);
}

nnt_mlp_stats nnt_smlp_stats_of(const nnt_smlp *m) {
  nnt_mlp_stats s = {0};
  s.layers = m->nlayers;
  s.input_dim = nnt_smlp_input_dim(m);
  s.output_dim = nnt_smlp_output_dim(m);
  for (int l = 0; l < m->nlayers; l++) { /* the dense order (W row-major, then b): the same L1 sum */
    const nnt_smlp_layer *L = &m->layers[l];
    if (l < m->nlayers - 1) s.hidden_units += L->out;
    if (L->out > s.max_width) s.max_width = L->out;
    s.params += (long)L->in * L->out + L->out;
    for (long e = 0; e < L->nnz; e++) stat_add(&s, L->val[e]);
    for (int o = 0; o < L->out; o++) stat_add(&s, L->b[o]);
  }
  return s;
}

/* Streamed rather than built as a cJSON tree: a big construction's file is written in O(1) memory.
 * %.17g reloads bit for bit, as in the dense format. */
static void put_longs(FILE *f, const char *key, const long *v, long n) {
  fprintf(f, ",\n   \"%s\": [", key);
  for (long i = 0; i < n; i++) fprintf(f, i ? ",%ld" : "%ld", v[i]);
  fputc(']', f);
}

static void put_doubles(FILE *f, const char *key, const double *v, long n) {
  fprintf(f, ",\n   \"%s\": [", key);
  for (long i = 0; i < n; i++) fprintf(f, i ? ",%.17g" : "%.17g", v[i]);
  fputc(']', f);
}

int nnt_smlp_save(const nnt_smlp *m, const char *path) {
  nnt_afile af;
  int st = nnt_afile_open(&af, path);
  if (st) return st;
  FILE *f = af.f;
  fprintf(f, "{\"format\": \"nnt-mlp-sparse\", \"version\": 1,\n \"layers\": [");
  for (int l = 0; l < m->nlayers; l++) {
    const nnt_smlp_layer *L = &m->layers[l];
    fprintf(f, "%s\n  {\"activation\": \"%s\", \"in\": %d, \"out\": %d", l ? "," : "", nnt_act_name(L->act), L->in, L->out);
    put_longs(f, "row_start", L->row_start, (long)L->out + 1);
    fprintf(f, ",\n   \"col\": [");
    for (long e = 0; e < L->nnz; e++) fprintf(f, e ? ",%d" : "%d", L->col[e]);
    fputc(']', f);
    put_doubles(f, "val", L->val, L->nnz);
    put_doubles(f, "b", L->b, L->out);
    fputc('}', f);
  }
  fprintf(f, "]}\n");
  return nnt_afile_commit(&af);
}

/* The length of a JSON array of numbers; -1 when it is not one. */
static long array_len(const cJSON *a) {
  if (!cJSON_IsArray(a)) return -1;
  long n = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, a) {
    if (!cJSON_IsNumber(e)) return -1;
    n++;
  }
  return n;
}

static int get_int(const cJSON *o, const char *key, int *v) {
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(e) || e->valuedouble != floor(e->valuedouble) || e->valuedouble < 1 || e->valuedouble > 1e9) return -1;
  *v = (int)e->valuedouble;
  return 0;
}

static int parse_layer(const cJSON *o, const char *path, int l, int prev_out, nnt_smlp *m) {
  static const char *names[] = {"identity", "relu", "step", "sigmoid", "tanh"};
  const cJSON *act = cJSON_GetObjectItemCaseSensitive(o, "activation");
  int a = -1, in, out;
  for (int k = 0; k < 5 && cJSON_IsString(act); k++)
    if (!strcmp(act->valuestring, names[k])) a = k;
  if (a < 0) return nnt_fail(NNT_EFORMAT, "%s: layers[%d].activation must be one of identity|relu|step|sigmoid|tanh", path, l);
  if (get_int(o, "in", &in) || get_int(o, "out", &out))
    return nnt_fail(NNT_EFORMAT, "%s: layers[%d].in and .out must be positive integers", path, l);
  if (prev_out && in != prev_out)
    return nnt_fail(NNT_EFORMAT, "%s: layers[%d].in is %d, the previous layer has %d outputs", path, l, in, prev_out);
  const cJSON *rs = cJSON_GetObjectItemCaseSensitive(o, "row_start"), *col = cJSON_GetObjectItemCaseSensitive(o, "col");
  const cJSON *val = cJSON_GetObjectItemCaseSensitive(o, "val"), *b = cJSON_GetObjectItemCaseSensitive(o, "b");
  if (array_len(rs) != (long)out + 1)
    return nnt_fail(NNT_EFORMAT, "%s: layers[%d].row_start must hold %d numbers", path, l, out + 1);
  long nnz = array_len(col);
  if (nnz < 0) return nnt_fail(NNT_EFORMAT, "%s: layers[%d].col must be an array of numbers", path, l);
  if (array_len(val) != nnz) return nnt_fail(NNT_EFORMAT, "%s: layers[%d].val must hold %ld numbers (as col)", path, l, nnz);
  if (array_len(b) != out) return nnt_fail(NNT_EFORMAT, "%s: layers[%d].b must hold %d numbers", path, l, out);
  nnt_smlp_layer *L = push_layer(m, in, out, (nnt_act)a, nnz);
  const cJSON *e;
  long k = 0;
  cJSON_ArrayForEach(e, rs) {
    double v = e->valuedouble, prev = k ? (double)L->row_start[k - 1] : 0;
    if (v != floor(v) || v < prev || v > nnz || (k == 0 && v != 0) || (k == out && v != nnz))
      return nnt_fail(NNT_EFORMAT, "%s: layers[%d].row_start[%ld]: must rise from 0 to %ld (the number of entries)", path, l, k, nnz);
    L->row_start[k++] = (long)v;
  }
  k = 0;
  cJSON_ArrayForEach(e, col) {
    double v = e->valuedouble;
    if (v != floor(v) || v < 0 || v >= in) return nnt_fail(NNT_EFORMAT, "%s: layers[%d].col[%ld]: must be in 0..%d", path, l, k, in - 1);
    L->col[k++] = (int)v;
  }
  for (int r = 0; r < out; r++)
    for (long q = L->row_start[r] + 1; q < L->row_start[r + 1]; q++)
      if (L->col[q] <= L->col[q - 1])
        return nnt_fail(NNT_EFORMAT, "%s: layers[%d].col[%ld]: columns must increase within row %d", path, l, q, r);
  k = 0;
  cJSON_ArrayForEach(e, val) {
    if (e->valuedouble == 0) return nnt_fail(NNT_EFORMAT, "%s: layers[%d].val[%ld]: stored values must be non-zero", path, l, k);
    L->val[k++] = e->valuedouble;
  }
  k = 0;
  cJSON_ArrayForEach(e, b) L->b[k++] = e->valuedouble;
  return NNT_OK;
}

int nnt_smlp_load(const char *path, nnt_smlp *out) { return nnt_smlp_load_fmt(path, out, NULL); }

int nnt_smlp_load_fmt(const char *path, nnt_smlp *out, int *sparse) {
  cJSON *j;
  int st = nnt_json_read(path, &j);
  if (st) return st;
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(j, "format");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(j, "version");
  const cJSON *layers = cJSON_GetObjectItemCaseSensitive(j, "layers");
  if (cJSON_IsString(fmt) && !strcmp(fmt->valuestring, "nnt-mlp")) { /* dense: its own loader checks it */
    cJSON_Delete(j);
    nnt_mlp d;
    if ((st = nnt_mlp_load(path, &d))) return st;
    nnt_smlp_from_dense(out, &d);
    nnt_mlp_free(&d);
    if (sparse) *sparse = 0;
    return NNT_OK;
  }
  nnt_smlp m;
  nnt_smlp_init(&m);
  if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "nnt-mlp-sparse"))
    st = nnt_fail(NNT_EFORMAT, "%s: \"format\" must be \"nnt-mlp\" or \"nnt-mlp-sparse\"", path);
  else if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0)
    st = nnt_fail(NNT_EFORMAT, "%s: unsupported \"version\" (this nnt reads version 1)", path);
  else if (!cJSON_IsArray(layers) || cJSON_GetArraySize(layers) == 0)
    st = nnt_fail(NNT_EFORMAT, "%s: \"layers\" must be a non-empty array", path);
  int l = 0;
  const cJSON *o;
  if (!st) cJSON_ArrayForEach(o, layers) {
      if ((st = parse_layer(o, path, l, l ? m.layers[l - 1].out : 0, &m))) break;
      l++;
    }
  cJSON_Delete(j);
  if (st) {
    nnt_smlp_free(&m);
    return st;
  }
  *out = m;
  if (sparse) *sparse = 1;
  return NNT_OK;
}

void nnt_smlp_layer_forward(const nnt_smlp_layer *L, const double *in, double *out) {
  for (int o = 0; o < L->out; o++) {
    double z = L->b[o];
    for (long e = L->row_start[o]; e < L->row_start[o + 1]; e++) z += L->val[e] * in[L->col[e]];
    out[o] = nnt_act_apply(L->act, z);
  }
}
