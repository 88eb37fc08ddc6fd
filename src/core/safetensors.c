/* The .safetensors writer (nnt_safetensors.h). The header is built with cJSON; the data is written
 * as stored in memory, which is little-endian on every machine nnt builds for (checked below). */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_safetensors.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nnt_safetensors writes the host's bytes: a big-endian host needs a byte swap here"
#endif

typedef struct {
  char *name;
  nnt_st_dtype dt;
  int ndim;
  long long shape[8];
  size_t bytes;
  void *data;
} st_tensor;

struct nnt_st_writer {
  st_tensor *t;
  int n, cap;
  cJSON *meta;
};

static const char *const dtype_names[] = {"F64", "F32", "I64", "I32", "U8"};
static const size_t dtype_bytes[] = {8, 4, 8, 4, 1};

int nnt_st_writer_alloc(nnt_st_writer **w) {
  *w = nnt_xcalloc(1, sizeof **w);
  (*w)->meta = cJSON_CreateObject();
  if (!(*w)->meta) abort();
  return NNT_OK;
}

void nnt_st_writer_free(nnt_st_writer *w) {
  if (!w) return;
  for (int i = 0; i < w->n; i++) free(w->t[i].name), free(w->t[i].data);
  free(w->t);
  cJSON_Delete(w->meta);
  free(w);
}

int nnt_st_add(nnt_st_writer *w, const char *name, nnt_st_dtype dt, int ndim, const long long *shape, const void *data) {
  if (!name || !*name || !strcmp(name, "__metadata__")) return nnt_fail(NNT_EINVAL, "safetensors: bad tensor name");
  if ((unsigned)dt > NNT_ST_U8 || ndim < 0 || ndim > 8) return nnt_fail(NNT_EINVAL, "safetensors: %s: bad dtype or rank", name);
  size_t count = 1;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] < 0) return nnt_fail(NNT_EINVAL, "safetensors: %s: negative size", name);
    count *= (size_t)shape[d];
  }
  for (int i = 0; i < w->n; i++)
    if (!strcmp(w->t[i].name, name)) return nnt_fail(NNT_EINVAL, "safetensors: tensor %s added twice", name);
  if (w->n == w->cap) w->cap = w->cap ? 2 * w->cap : 64, w->t = nnt_xrealloc(w->t, sizeof *w->t * (size_t)w->cap);
  st_tensor *t = &w->t[w->n++];
  t->name = nnt_xmalloc(strlen(name) + 1);
  strcpy(t->name, name);
  t->dt = dt, t->ndim = ndim, t->bytes = count * dtype_bytes[dt];
  for (int d = 0; d < ndim; d++) t->shape[d] = shape[d];
  t->data = nnt_xmalloc(t->bytes ? t->bytes : 1);
  if (t->bytes) memcpy(t->data, data, t->bytes);
  return NNT_OK;
}

int nnt_st_meta(nnt_st_writer *w, const char *key, const char *value) {
  cJSON_DeleteItemFromObjectCaseSensitive(w->meta, key);
  if (!cJSON_AddStringToObject(w->meta, key, value)) abort();
  return NNT_OK;
}

int nnt_st_write(nnt_st_writer *w, const char *path) {
  cJSON *h = cJSON_CreateObject();
  if (!h) abort();
  if (w->meta->child) cJSON_AddItemReferenceToObject(h, "__metadata__", w->meta);
  size_t off = 0;
  for (int i = 0; i < w->n; i++) {
    const st_tensor *t = &w->t[i];
    cJSON *o = cJSON_AddObjectToObject(h, t->name), *sh = cJSON_AddArrayToObject(o, "shape");
    cJSON_AddStringToObject(o, "dtype", dtype_names[t->dt]);
    for (int d = 0; d < t->ndim; d++) cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)t->shape[d]));
    cJSON *of = cJSON_AddArrayToObject(o, "data_offsets");
    cJSON_AddItemToArray(of, cJSON_CreateNumber((double)off));
    cJSON_AddItemToArray(of, cJSON_CreateNumber((double)(off + t->bytes)));
    off += t->bytes;
  }
  char *json = cJSON_PrintUnformatted(h);
  cJSON_Delete(h);
  if (!json) abort();
  size_t n = strlen(json), padded = (n + 7) / 8 * 8;
  unsigned char len[8];
  for (int b = 0; b < 8; b++) len[b] = (unsigned char)((uint64_t)padded >> (8 * b));
  nnt_afile a;
  int st = nnt_afile_open(&a, path);
  if (!st) {
    int ok = fwrite(len, 1, 8, a.f) == 8 && fwrite(json, 1, n, a.f) == n;
    for (size_t p = n; ok && p < padded; p++) ok = fputc(' ', a.f) != EOF;
    for (int i = 0; ok && i < w->n; i++) ok = fwrite(w->t[i].data, 1, w->t[i].bytes, a.f) == w->t[i].bytes;
    st = ok ? nnt_afile_commit(&a) : (nnt_afile_abort(&a), nnt_fail(NNT_EIO, "cannot write %s", path));
  }
  free(json);
  return st;
}
