#include "nnt_ckpt.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"

/* The payload is the in-memory representation of the tensors; the format is little-endian. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nnt checkpoints are written on little-endian hosts only"
#endif

static const char MAGIC[8] = {'N', 'N', 'T', 'C', 'K', 'P', 'T', '\0'};
enum { HEADER_FIXED = 8 + 4 + 8, MAX_NAME = 4096, MAX_META = 1 << 24 };

unsigned long long nnt_fnv1a64(unsigned long long h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* ---- writing: the same routine runs twice, first counting bytes (f == NULL), then writing ---- */

typedef struct {
  FILE *f;
  uint64_t hash, n;
} writer;

static void put(writer *w, const void *p, size_t n) {
  w->hash = nnt_fnv1a64(w->hash, p, n);
  w->n += n;
  if (w->f && n) fwrite(p, 1, n, w->f);
}
static void put_u32(writer *w, uint32_t v) { put(w, &v, 4); }
static void put_u64(writer *w, uint64_t v) { put(w, &v, 8); }
static void put_i64(writer *w, int64_t v) { put(w, &v, 8); }
static void put_f64(writer *w, double v) { put(w, &v, 8); }
static void put_str(writer *w, const char *s) {
  size_t n = strlen(s);
  put_u32(w, (uint32_t)n);
  put(w, s, n);
}

static void write_body(writer *w, uint64_t file_size, const char *kind, const nnt_params *P, const nnt_optim *opt,
                       long long step, const char *meta) {
  put(w, MAGIC, 8);
  put_u32(w, NNT_CKPT_VERSION);
  put_u64(w, file_size);
  put_str(w, kind);
  put_i64(w, step);
  put_str(w, meta);
  put_u32(w, (uint32_t)P->n);
  for (int i = 0; i < P->n; i++) {
    const nnt_tensor *t = &P->items[i]->value;
    put_str(w, P->items[i]->name);
    put_u32(w, (uint32_t)t->dtype);
    put_u32(w, (uint32_t)t->ndim);
    for (int d = 0; d < t->ndim; d++) put_u32(w, (uint32_t)t->shape[d]);
    put(w, t->data, nnt_tensor_bytes(t));
  }
  put_u32(w, opt != NULL);
  if (opt) {
    const nnt_optim_config *c = &opt->cfg;
    int has_m = nnt_optim_has_m(c), has_v = nnt_optim_has_v(c);
    put_u32(w, (uint32_t)c->kind);
    put_f64(w, c->lr), put_f64(w, c->weight_decay), put_f64(w, c->momentum), put_f64(w, c->dampening);
    put_f64(w, c->beta1), put_f64(w, c->beta2), put_f64(w, c->eps);
    put_u32(w, (uint32_t)c->nesterov);
    put_i64(w, opt->step);
    put_u32(w, (uint32_t)has_m), put_u32(w, (uint32_t)has_v);
    for (int i = 0; i < P->n; i++) {
      const nnt_param *p = P->items[i];
      size_t bytes = nnt_tensor_bytes(&p->value);
      if (has_m) put(w, (const char *)opt->m + p->offset, bytes);
      if (has_v) put(w, (const char *)opt->v + p->offset, bytes);
    }
  }
}

int nnt_ckpt_save(const char *path, const char *kind, const nnt_params *P, const nnt_optim *opt, long long step,
                  const char *meta_json) {
  if (!kind || strlen(kind) > MAX_NAME) return nnt_fail(NNT_EINVAL, "%s: checkpoint needs a model kind", path);
  const char *meta = meta_json ? meta_json : "";
  if (strlen(meta) > MAX_META) return nnt_fail(NNT_EINVAL, "%s: metadata longer than %d bytes", path, MAX_META);
  if (*meta) {
    cJSON *j = cJSON_ParseWithOpts(meta, NULL, 1);
    if (!j) return nnt_fail(NNT_EINVAL, "%s: checkpoint metadata is not valid JSON", path);
    cJSON_Delete(j);
  }
  if (opt && (opt->params != P))
    return nnt_fail(NNT_EINVAL, "%s: the optimizer does not step this parameter registry", path);
  if (P->n && !P->values) return nnt_fail(NNT_EINVAL, "%s: parameter registry not allocated", path);
  for (int i = 0; i < P->n; i++)
    if (strlen(P->items[i]->name) > MAX_NAME) return nnt_fail(NNT_EINVAL, "%s: parameter name too long", path);

  writer count = {NULL, NNT_FNV64_INIT, 0};
  write_body(&count, 0, kind, P, opt, step, meta);
  uint64_t size = count.n + 8;

  nnt_afile a;
  int st = nnt_afile_open(&a, path);
  if (st) return st;
  writer w = {a.f, NNT_FNV64_INIT, 0};
  write_body(&w, size, kind, P, opt, step, meta);
  uint64_t h = w.hash;
  fwrite(&h, 1, 8, a.f);
  return nnt_afile_commit(&a);
}

/* ---- reading: the whole file is parsed and verified before anything is copied out ---- */

typedef struct {
  const unsigned char *p;
  size_t n, off;
} reader;

static int get(reader *r, void *out, size_t k) {
  if (k > r->n - r->off) return 0;
  memcpy(out, r->p + r->off, k);
  r->off += k;
  return 1;
}
static int get_u32(reader *r, uint32_t *v) { return get(r, v, 4); }
static int get_bytes(reader *r, const unsigned char **out, size_t k) {
  if (k > r->n - r->off) return 0;
  *out = r->p + r->off;
  r->off += k;
  return 1;
}
static int get_str(reader *r, const char **s, uint32_t *len, uint32_t max) {
  return get_u32(r, len) && *len <= max && get_bytes(r, (const unsigned char **)s, *len);
}

typedef struct {
  const char *name;
  uint32_t name_len, dtype, ndim, shape[4];
  size_t numel, bytes;
  const unsigned char *data, *m, *v;
} tensor_rec;

typedef struct {
  unsigned char *buf;
  const char *kind, *meta;
  uint32_t kind_len, meta_len, ntensors;
  int64_t step;
  tensor_rec *t;
  uint32_t has_optim, has_m, has_v, okind, nesterov;
  nnt_optim_config cfg;
  int64_t ostep;
} parsed;

static void parsed_free(parsed *c) {
  free(c->buf);
  free(c->t);
}

static const char *dtype_name(uint32_t d) { return d == NNT_F32 ? "float32" : "float64"; }

static void shape_str(const uint32_t *shape, uint32_t ndim, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (uint32_t i = 0; i < ndim && k < n; i++) k += (size_t)snprintf(buf + k, n - k, i ? ", %u" : "%u", shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

static int bad(const char *path, const char *what) { return nnt_fail(NNT_EFORMAT, "%s: %s", path, what); }

/* Whether n bytes are one JSON text, as nnt_ckpt_save requires of the metadata (no NUL inside). */
static int is_json(const char *s, size_t n) {
  if (memchr(s, 0, n)) return 0;
  char *z = nnt_xmalloc(n + 1);
  memcpy(z, s, n);
  z[n] = 0;
  cJSON *j = cJSON_ParseWithOpts(z, NULL, 1);
  free(z);
  cJSON_Delete(j);
  return j != NULL;
}

/* Index of the first non-finite value among numel float32 or float64 values at p, or -1. */
static long first_nonfinite(const unsigned char *p, uint32_t dtype, size_t numel) {
  for (size_t i = 0; i < numel; i++) {
    double x;
    if (dtype == NNT_F32) {
      float f;
      memcpy(&f, p + 4 * i, 4);
      x = f;
    } else
      memcpy(&x, p + 8 * i, 8);
    if (!isfinite(x)) return (long)i;
  }
  return -1;
}

/* Values nnt never saves (training stops at a non-finite gradient, before any checkpoint): a file
 * holding one was made or edited elsewhere, and resuming from it would only spread NaN. */
static int check_finite(const char *path, const parsed *c) {
  static const char *part[3] = {"", " (optimizer m)", " (optimizer v)"};
  for (uint32_t i = 0; i < c->ntensors; i++) {
    const tensor_rec *t = &c->t[i];
    const unsigned char *data[3] = {t->data, c->has_optim && c->has_m ? t->m : NULL, c->has_optim && c->has_v ? t->v : NULL};
    for (int k = 0; k < 3; k++) {
      long e = data[k] ? first_nonfinite(data[k], t->dtype, t->numel) : -1;
      if (e >= 0)
        return nnt_fail(NNT_EFORMAT, "%s: tensor %.*s%s: element %ld is not a finite number", path, (int)t->name_len, t->name,
                        part[k], e);
    }
  }
  const nnt_optim_config *o = &c->cfg;
  double h[7] = {o->lr, o->weight_decay, o->momentum, o->dampening, o->beta1, o->beta2, o->eps};
  static const char *hname[7] = {"lr", "weight_decay", "momentum", "dampening", "beta1", "beta2", "eps"};
  for (int k = 0; c->has_optim && k < 7; k++)
    if (!isfinite(h[k])) return nnt_fail(NNT_EFORMAT, "%s: optimizer %s is not a finite number", path, hname[k]);
  if (c->meta_len) {
    char *z = nnt_xmalloc(c->meta_len + 1);
    memcpy(z, c->meta, c->meta_len);
    z[c->meta_len] = 0;
    cJSON *j = cJSON_ParseWithOpts(z, NULL, 1);
    free(z);
    char where[600];
    snprintf(where, sizeof where, "%s: metadata", path);
    int st = j ? nnt_json_check_finite(where, j) : NNT_OK;
    cJSON_Delete(j);
    if (st) return st;
  }
  return NNT_OK;
}

static int parse(const char *path, parsed *c) {
  memset(c, 0, sizeof *c);
  size_t n = 0;
  char *buf;
  int st = nnt_file_read(path, SIZE_MAX / 2, &buf, &n);
  if (st) return st;
  c->buf = (unsigned char *)buf;
  reader r = {c->buf, n, 0};
  uint32_t version;
  uint64_t size;
  if (n < 8 ? memcmp(c->buf, MAGIC, n) != 0 : memcmp(c->buf, MAGIC, 8) != 0)
    return bad(path, "not an nnt checkpoint (bad magic)");
  if (n < HEADER_FIXED + 8) return nnt_fail(NNT_EFORMAT, "%s: truncated (%zu bytes, header incomplete)", path, n);
  memcpy(&version, c->buf + 8, 4);
  memcpy(&size, c->buf + 12, 8);
  r.off = HEADER_FIXED;
  if (version != NNT_CKPT_VERSION)
    return nnt_fail(NNT_EFORMAT, "%s: checkpoint format version %u, this nnt reads version %d", path, version,
                    NNT_CKPT_VERSION);
  if (size > n) return nnt_fail(NNT_EFORMAT, "%s: truncated (%zu of %llu bytes)", path, n, (unsigned long long)size);
  if (size < n)
    return nnt_fail(NNT_EFORMAT, "%s: %zu unexpected bytes after the checkpoint's %llu", path, n - (size_t)size,
                    (unsigned long long)size);
  uint64_t stored;
  memcpy(&stored, c->buf + n - 8, 8);
  if (nnt_fnv1a64(NNT_FNV64_INIT, c->buf, n - 8) != stored) return bad(path, "checksum mismatch (file corrupted)");
  r.n = n - 8; /* the body ends where the checksum starts */

  /* A verified checksum means the bytes are as written; the structure is still bounds-checked
   * so that a crafted file cannot read out of bounds. */
  const char *broken = "malformed checkpoint body";
  if (!get_str(&r, &c->kind, &c->kind_len, MAX_NAME) || !get(&r, &c->step, 8) ||
      !get_str(&r, &c->meta, &c->meta_len, MAX_META) || !get_u32(&r, &c->ntensors))
    return bad(path, broken);
  if (c->meta_len && !is_json(c->meta, c->meta_len)) return bad(path, "checkpoint metadata is not valid JSON");
  /* a tensor record takes at least 21 bytes (name length, 1-byte name, dtype, ndim, 1 dim, 4 data bytes) */
  if (c->ntensors > (r.n - r.off) / 21) return bad(path, broken);
  c->t = nnt_xcalloc(c->ntensors ? c->ntensors : 1, sizeof *c->t);
  for (uint32_t i = 0; i < c->ntensors; i++) {
    tensor_rec *t = &c->t[i];
    if (!get_str(&r, &t->name, &t->name_len, MAX_NAME) || !get_u32(&r, &t->dtype) || !get_u32(&r, &t->ndim) ||
        t->dtype > 1 || t->ndim < 1 || t->ndim > 4)
      return bad(path, broken);
    t->numel = 1;
    for (uint32_t d = 0; d < t->ndim; d++) {
      if (!get_u32(&r, &t->shape[d]) || t->shape[d] < 1 || t->shape[d] > (1u << 31) - 1) return bad(path, broken);
      if (t->numel > ((size_t)1 << 40) / t->shape[d]) return bad(path, broken);
      t->numel *= t->shape[d];
    }
    t->bytes = t->numel * (t->dtype == NNT_F32 ? 4 : 8);
    if (!get_bytes(&r, &t->data, t->bytes)) return bad(path, broken);
  }
  if (!get_u32(&r, &c->has_optim) || c->has_optim > 1) return bad(path, broken);
  if (c->has_optim) {
    nnt_optim_config *o = &c->cfg;
    if (!get_u32(&r, &c->okind) || c->okind > NNT_OPT_ADAMW || !get(&r, &o->lr, 8) || !get(&r, &o->weight_decay, 8) ||
        !get(&r, &o->momentum, 8) || !get(&r, &o->dampening, 8) || !get(&r, &o->beta1, 8) || !get(&r, &o->beta2, 8) ||
        !get(&r, &o->eps, 8) || !get_u32(&r, &c->nesterov) || !get(&r, &c->ostep, 8) || !get_u32(&r, &c->has_m) ||
        !get_u32(&r, &c->has_v) || c->nesterov > 1 || c->has_m > 1 || c->has_v > 1)
      return bad(path, broken);
    o->kind = (nnt_optim_kind)c->okind;
    o->nesterov = c->nesterov != 0;
    for (uint32_t i = 0; i < c->ntensors; i++) {
      if (c->has_m && !get_bytes(&r, &c->t[i].m, c->t[i].bytes)) return bad(path, broken);
      if (c->has_v && !get_bytes(&r, &c->t[i].v, c->t[i].bytes)) return bad(path, broken);
    }
  }
  if (r.off != r.n) return bad(path, broken);
  return check_finite(path, c);
}

static int kind_is(const parsed *c, const char *kind) {
  return strlen(kind) == c->kind_len && !memcmp(c->kind, kind, c->kind_len);
}

int nnt_ckpt_load(const char *path, const char *kind, nnt_params *P, nnt_optim *opt, long long *step,
                  char **meta_json) {
  if (P->n && !P->values) return nnt_fail(NNT_EINVAL, "%s: parameter registry not allocated", path);
  parsed c;
  int st = parse(path, &c);
  if (st) {
    parsed_free(&c);
    return st;
  }
  char want[64], have[64];
  if (!kind_is(&c, kind)) {
    st = nnt_fail(NNT_EFORMAT, "%s: checkpoint of model kind '%.*s', expected '%s'", path, (int)c.kind_len, c.kind,
                  kind);
    goto out;
  }
  if ((int)c.ntensors != P->n) {
    st = nnt_fail(NNT_EFORMAT, "%s: %u tensors, the model has %d", path, c.ntensors, P->n);
    goto out;
  }
  for (int i = 0; i < P->n; i++) {
    const tensor_rec *t = &c.t[i];
    const nnt_param *p = P->items[i];
    if (strlen(p->name) != t->name_len || memcmp(p->name, t->name, t->name_len)) {
      st = nnt_fail(NNT_EFORMAT, "%s: tensor %d is '%.*s', the model's is '%s'", path, i, (int)t->name_len, t->name,
                    p->name);
      goto out;
    }
    int same = (int)t->dtype == (int)p->value.dtype && (int)t->ndim == p->value.ndim;
    for (int d = 0; same && d < p->value.ndim; d++) same = (int)t->shape[d] == p->value.shape[d];
    if (!same) {
      shape_str(t->shape, t->ndim, have, sizeof have);
      nnt_tensor_shape_str(&p->value, want, sizeof want);
      st = nnt_fail(NNT_EFORMAT, "%s: tensor '%s' is %s %s, the model's is %s %s", path, p->name, dtype_name(t->dtype),
                    have, dtype_name(p->value.dtype), want);
      goto out;
    }
  }
  if (opt) {
    if (opt->params != P) {
      st = nnt_fail(NNT_EINVAL, "%s: the optimizer does not step this parameter registry", path);
      goto out;
    }
    if (!c.has_optim) {
      st = bad(path, "no optimizer state to resume from");
      goto out;
    }
    if (c.cfg.kind != opt->cfg.kind) {
      st = nnt_fail(NNT_EFORMAT, "%s: optimizer state is %s, expected %s", path, nnt_optim_kind_name(c.cfg.kind),
                    nnt_optim_kind_name(opt->cfg.kind));
      goto out;
    }
    if (nnt_optim_check(&c.cfg)) {
      char why[256];
      snprintf(why, sizeof why, "%s", nnt_errmsg()); /* nnt_fail overwrites the message it would read */
      st = nnt_fail(NNT_EFORMAT, "%s: stored optimizer settings are invalid (%s)", path, why);
      goto out;
    }
    if (c.has_m != (uint32_t)nnt_optim_has_m(&c.cfg) || c.has_v != (uint32_t)nnt_optim_has_v(&c.cfg)) {
      st = bad(path, "optimizer state does not match its settings");
      goto out;
    }
  }

  /* verified: copy out */
  for (int i = 0; i < P->n; i++) memcpy(P->items[i]->value.data, c.t[i].data, c.t[i].bytes);
  if (opt) {
    /* the stored settings decide which state blocks exist (SGD momentum may differ) */
    free(opt->m), free(opt->v);
    opt->m = c.has_m ? nnt_params_block_new(P) : NULL;
    opt->v = c.has_v ? nnt_params_block_new(P) : NULL;
    for (int i = 0; i < P->n; i++) {
      size_t off = P->items[i]->offset;
      if (c.has_m) memcpy((char *)opt->m + off, c.t[i].m, c.t[i].bytes);
      if (c.has_v) memcpy((char *)opt->v + off, c.t[i].v, c.t[i].bytes);
    }
    opt->cfg = c.cfg;
    opt->step = c.ostep;
  }
  if (step) *step = c.step;
  if (meta_json) {
    *meta_json = nnt_xmalloc(c.meta_len + 1);
    memcpy(*meta_json, c.meta, c.meta_len);
    (*meta_json)[c.meta_len] = 0;
  }
out:
  parsed_free(&c);
  return st;
}

int nnt_ckpt_info_read(const char *path, nnt_ckpt_info *info) {
  memset(info, 0, sizeof *info);
  parsed c;
  int st = parse(path, &c);
  if (!st) {
    info->kind = nnt_xmalloc(c.kind_len + 1);
    memcpy(info->kind, c.kind, c.kind_len);
    info->kind[c.kind_len] = 0;
    info->meta_json = nnt_xmalloc(c.meta_len + 1);
    memcpy(info->meta_json, c.meta, c.meta_len);
    info->meta_json[c.meta_len] = 0;
    info->step = c.step;
    info->ntensors = (int)c.ntensors;
    for (uint32_t i = 0; i < c.ntensors; i++) info->nscalars += c.t[i].numel;
    info->has_optim = (int)c.has_optim;
    info->optim_kind = c.cfg.kind;
  }
  parsed_free(&c);
  return st;
}

void nnt_ckpt_info_free(nnt_ckpt_info *info) {
  free(info->kind);
  free(info->meta_json);
  info->kind = info->meta_json = NULL;
}
