/* safetensors.c — the safetensors writer (nnt_safetensors.h). The header is written by hand, not
 * through cJSON: offsets and shapes are 64-bit integers, which a double-based JSON printer would
 * round beyond 2^53. */
#include "nnt_safetensors.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnt_error.h"
#include "nnt_file.h"

#define ST_MAX_DIMS 8

typedef struct {
  char *name;
  nnt_st_dtype dt;
  int ndim;
  long long shape[ST_MAX_DIMS];
  size_t nbytes;
  void *data;
} st_tensor;

typedef struct {
  char *key, *value;
} st_meta;

struct nnt_st_writer {
  st_tensor *t;
  int n, cap;
  st_meta *m;
  int nm, capm;
};

int nnt_st_dtype_size(nnt_st_dtype dt) {
  switch (dt) {
  case NNT_ST_F64:
  case NNT_ST_I64: return 8;
  case NNT_ST_F32:
  case NNT_ST_I32: return 4;
  case NNT_ST_U8: return 1;
  }
  return 0;
}

const char *nnt_st_dtype_name(nnt_st_dtype dt) {
  switch (dt) {
  case NNT_ST_F64: return "F64";
  case NNT_ST_F32: return "F32";
  case NNT_ST_I64: return "I64";
  case NNT_ST_I32: return "I32";
  case NNT_ST_U8: return "U8";
  }
  return "?";
}

int nnt_st_writer_alloc(nnt_st_writer **w) {
  *w = nnt_xcalloc(1, sizeof **w);
  return NNT_OK;
}

void nnt_st_writer_free(nnt_st_writer *w) {
  if (!w) return;
  for (int i = 0; i < w->n; i++) free(w->t[i].name), free(w->t[i].data);
  for (int i = 0; i < w->nm; i++) free(w->m[i].key), free(w->m[i].value);
  free(w->t);
  free(w->m);
  free(w);
}

int nnt_st_add(nnt_st_writer *w, const char *name, nnt_st_dtype dt, int ndim, const long long *shape, const void *data) {
  if (!name || !*name || !strcmp(name, "__metadata__"))
    return nnt_fail(NNT_EINVAL, "safetensors: invalid tensor name \"%s\"", name ? name : "(null)");
  if (nnt_st_dtype_size(dt) == 0) return nnt_fail(NNT_EINVAL, "safetensors: tensor %s: unknown dtype %d", name, (int)dt);
  if (ndim < 0 || ndim > ST_MAX_DIMS)
    return nnt_fail(NNT_EINVAL, "safetensors: tensor %s has %d dimensions (0..%d)", name, ndim, ST_MAX_DIMS);
  for (int i = 0; i < w->n; i++)
    if (!strcmp(w->t[i].name, name)) return nnt_fail(NNT_EINVAL, "safetensors: tensor %s added twice", name);
  size_t count = 1;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] < 0) return nnt_fail(NNT_EINVAL, "safetensors: tensor %s: negative dimension %lld", name, shape[d]);
    if (shape[d] && count > SIZE_MAX / 16 / (size_t)shape[d])
      return nnt_fail(NNT_EINVAL, "safetensors: tensor %s is too large", name);
    count *= (size_t)shape[d];
  }
  size_t nbytes = count * (size_t)nnt_st_dtype_size(dt);
  if (nbytes && !data) return nnt_fail(NNT_EINVAL, "safetensors: tensor %s has no data", name);
  if (w->n == w->cap) w->t = nnt_xrealloc(w->t, (size_t)(w->cap = w->cap ? 2 * w->cap : 16) * sizeof *w->t);
  st_tensor *t = &w->t[w->n++];
  *t = (st_tensor){.name = nnt_xstrdup(name), .dt = dt, .ndim = ndim, .nbytes = nbytes};
  for (int d = 0; d < ndim; d++) t->shape[d] = shape[d];
  t->data = nnt_xmalloc(nbytes ? nbytes : 1);
  if (nbytes) memcpy(t->data, data, nbytes);
  return NNT_OK;
}

int nnt_st_meta(nnt_st_writer *w, const char *key, const char *value) {
  if (!key || !*key || !value) return nnt_fail(NNT_EINVAL, "safetensors: metadata entry without key or value");
  for (int i = 0; i < w->nm; i++)
    if (!strcmp(w->m[i].key, key)) {
      free(w->m[i].value);
      w->m[i].value = nnt_xstrdup(value);
      return NNT_OK;
    }
  if (w->nm == w->capm) w->m = nnt_xrealloc(w->m, (size_t)(w->capm = w->capm ? 2 * w->capm : 8) * sizeof *w->m);
  w->m[w->nm++] = (st_meta){nnt_xstrdup(key), nnt_xstrdup(value)};
  return NNT_OK;
}

/* A growing string for the header. */
typedef struct {
  char *s;
  size_t n, cap;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    while (b->n + n + 1 > b->cap) b->cap = b->cap ? 2 * b->cap : 1024;
    b->s = nnt_xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}
static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_fmt(sbuf *b, const char *fmt, long long v) {
  char tmp[32];
  sb_put(b, tmp, (size_t)snprintf(tmp, sizeof tmp, fmt, v));
}
/* A JSON string: quotes, backslashes and control characters escaped; other bytes as given (the
 * names nnt writes are ASCII, metadata values UTF-8). */
static void sb_json(sbuf *b, const char *s) {
  sb_put(b, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      char e[2] = {'\\', (char)*p};
      sb_put(b, e, 2);
    } else if (*p < 0x20) {
      char e[8];
      sb_put(b, e, (size_t)snprintf(e, sizeof e, "\\u%04x", *p));
    } else
      sb_put(b, (const char *)p, 1);
  }
  sb_put(b, "\"", 1);
}

static int host_is_le(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* Writes a tensor's bytes little-endian: as they are on a little-endian host, element by element
 * byte-reversed through a buffer otherwise. */
static void write_le(FILE *f, const st_tensor *t) {
  int es = nnt_st_dtype_size(t->dt);
  if (es == 1 || host_is_le()) {
    fwrite(t->data, 1, t->nbytes, f);
    return;
  }
  unsigned char buf[4096];
  const unsigned char *src = t->data;
  for (size_t off = 0; off < t->nbytes;) {
    size_t k = t->nbytes - off < sizeof buf ? t->nbytes - off : sizeof buf;
    for (size_t i = 0; i < k; i += (size_t)es)
      for (int j = 0; j < es; j++) buf[i + (size_t)j] = src[off + i + (size_t)(es - 1 - j)];
    fwrite(buf, 1, k, f);
    off += k;
  }
}

int nnt_st_write(nnt_st_writer *w, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return nnt_fail(NNT_EIO, "refusing to replace %s: not a regular file", path);
  /* storage order: element size descending, insertion order within one size */
  int *order = nnt_xmalloc((size_t)(w->n ? w->n : 1) * sizeof *order), k = 0;
  for (int es = 8; es >= 1; es /= 2)
    for (int i = 0; i < w->n; i++)
      if (nnt_st_dtype_size(w->t[i].dt) == es) order[k++] = i;

  sbuf h = {0};
  sb_str(&h, "{");
  if (w->nm) {
    sb_str(&h, "\"__metadata__\":{");
    for (int i = 0; i < w->nm; i++) {
      if (i) sb_str(&h, ",");
      sb_json(&h, w->m[i].key);
      sb_str(&h, ":");
      sb_json(&h, w->m[i].value);
    }
    sb_str(&h, "}");
  }
  unsigned long long off = 0;
  for (int j = 0; j < k; j++) {
    const st_tensor *t = &w->t[order[j]];
    if (j || w->nm) sb_str(&h, ",");
    sb_json(&h, t->name);
    sb_str(&h, ":{\"dtype\":\"");
    sb_str(&h, nnt_st_dtype_name(t->dt));
    sb_str(&h, "\",\"shape\":[");
    for (int d = 0; d < t->ndim; d++) sb_fmt(&h, d ? ",%lld" : "%lld", t->shape[d]);
    sb_fmt(&h, "],\"data_offsets\":[%lld", (long long)off);
    off += t->nbytes;
    sb_fmt(&h, ",%lld]}", (long long)off);
  }
  sb_str(&h, "}");
  while (h.n % 8) sb_str(&h, " "); /* data starts 8-aligned */

  nnt_afile a;
  int rc = nnt_afile_open(&a, path);
  if (!rc) {
    unsigned char len[8];
    for (int i = 0; i < 8; i++) len[i] = (unsigned char)((unsigned long long)h.n >> (8 * i));
    fwrite(len, 1, 8, a.f);
    fwrite(h.s, 1, h.n, a.f);
    for (int j = 0; j < k; j++) write_le(a.f, &w->t[order[j]]);
    rc = nnt_afile_commit(&a);
  }
  free(h.s);
  free(order);
  return rc;
}
