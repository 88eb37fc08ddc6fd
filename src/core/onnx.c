/* onnx.c — the ONNX model writer (nnt_onnx.h) on protobuf-c's generated ONNX messages
 * (onnx.pb-c.h, compiled from libonnx-dev's onnx.proto at build time). Every message and string is
 * allocated with malloc, so protobuf-c's free_unpacked releases the whole model in nnt_onnx_free. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_onnx.h"
#include "onnx.pb-c.h"

struct nnt_onnx {
  Onnx__ModelProto *model;
  Onnx__GraphProto *graph;
  int names; /* generated names so far */
};

/* appends item to a protobuf-c repeated field (array + count) */
#define PUSH(arr, n, item)                                            \
  do {                                                                \
    (arr) = nnt_xrealloc((arr), ((n) + 1) * sizeof *(arr));           \
    (arr)[(n)++] = (item);                                            \
  } while (0)

void nnt_onnx_alloc(nnt_onnx **out, const char *graph_name) {
  nnt_onnx *g = nnt_xcalloc(1, sizeof *g);
  g->model = nnt_xmalloc(sizeof *g->model);
  onnx__model_proto__init(g->model);
  g->graph = nnt_xmalloc(sizeof *g->graph);
  onnx__graph_proto__init(g->graph);
  g->graph->name = nnt_xstrdup(graph_name);
  g->model->graph = g->graph;
  *out = g;
}

void nnt_onnx_free(nnt_onnx *g) {
  if (!g) return;
  onnx__model_proto__free_unpacked(g->model, NULL);
  free(g);
}

static Onnx__ValueInfoProto *value_info(const char *name, nnt_onnx_dtype dt, const char *dims) {
  Onnx__ValueInfoProto *v = nnt_xmalloc(sizeof *v);
  onnx__value_info_proto__init(v);
  v->name = nnt_xstrdup(name);
  Onnx__TypeProto *t = nnt_xmalloc(sizeof *t);
  onnx__type_proto__init(t);
  Onnx__TypeProto__Tensor *tt = nnt_xmalloc(sizeof *tt);
  onnx__type_proto__tensor__init(tt);
  tt->has_elem_type = 1, tt->elem_type = dt;
  Onnx__TensorShapeProto *s = nnt_xmalloc(sizeof *s);
  onnx__tensor_shape_proto__init(s);
  for (const char *p = dims; *p;) {
    size_t k = strcspn(p, ",");
    Onnx__TensorShapeProto__Dimension *d = nnt_xmalloc(sizeof *d);
    onnx__tensor_shape_proto__dimension__init(d);
    char *tok = nnt_xmalloc(k + 1);
    memcpy(tok, p, k), tok[k] = 0;
    char *end;
    long long v = strtoll(tok, &end, 10);
    if (*end == 0 && end != tok) {
      d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE, d->dim_value = v;
      free(tok);
    } else {
      d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM, d->dim_param = tok;
    }
    PUSH(s->dim, s->n_dim, d);
    p += k + (p[k] == ',');
  }
  tt->shape = s;
  t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE, t->tensor_type = tt;
  v->type = t;
  return v;
}

void nnt_onnx_input(nnt_onnx *g, const char *name, nnt_onnx_dtype dt, const char *dims) {
  PUSH(g->graph->input, g->graph->n_input, value_info(name, dt, dims));
}
void nnt_onnx_output(nnt_onnx *g, const char *name, nnt_onnx_dtype dt, const char *dims) {
  PUSH(g->graph->output, g->graph->n_output, value_info(name, dt, dims));
}

static int dtype_size(nnt_onnx_dtype dt) { return dt == NNT_ONNX_F64 || dt == NNT_ONNX_I64 ? 8 : 4; }

const char *nnt_onnx_init(nnt_onnx *g, const char *name, nnt_onnx_dtype dt, int ndim, const long long *shape,
                          const void *data) {
  Onnx__TensorProto *t = nnt_xmalloc(sizeof *t);
  onnx__tensor_proto__init(t);
  t->name = nnt_xstrdup(name);
  t->has_data_type = 1, t->data_type = dt;
  size_t count = 1;
  t->n_dims = (size_t)ndim;
  t->dims = nnt_xmalloc((size_t)(ndim ? ndim : 1) * sizeof *t->dims);
  for (int d = 0; d < ndim; d++) t->dims[d] = shape[d], count *= (size_t)shape[d];
  size_t es = (size_t)dtype_size(dt), nbytes = count * es;
  unsigned char *raw = nnt_xmalloc(nbytes ? nbytes : 1);
  memcpy(raw, data, nbytes);
  const uint16_t one = 1;
  if (!*(const unsigned char *)&one) /* big-endian host: raw_data is little-endian */
    for (size_t i = 0; i < count; i++)
      for (size_t a = 0, b = es - 1; a < b; a++, b--) {
        unsigned char c = raw[i * es + a];
        raw[i * es + a] = raw[i * es + b], raw[i * es + b] = c;
      }
  t->has_raw_data = 1, t->raw_data.len = nbytes, t->raw_data.data = raw;
  PUSH(g->graph->initializer, g->graph->n_initializer, t);
  return t->name;
}

const char *nnt_onnx_ints(nnt_onnx *g, int n, const long long *v) {
  char name[32];
  snprintf(name, sizeof name, "const_%d", g->names++);
  long long shape = n;
  int64_t *buf = nnt_xmalloc((size_t)(n ? n : 1) * sizeof *buf);
  for (int i = 0; i < n; i++) buf[i] = v[i];
  const char *r = nnt_onnx_init(g, name, NNT_ONNX_I64, 1, &shape, buf);
  free(buf);
  return r;
}

const char *nnt_onnx_scalar(nnt_onnx *g, nnt_onnx_dtype dt, double v) {
  char name[32];
  snprintf(name, sizeof name, "const_%d", g->names++);
  double d = v;
  float f = (float)v;
  int64_t i = (int64_t)v;
  int32_t i32 = (int32_t)v;
  const void *p = dt == NNT_ONNX_F64 ? (const void *)&d : dt == NNT_ONNX_F32 ? (const void *)&f
                  : dt == NNT_ONNX_I64 ? (const void *)&i : (const void *)&i32;
  return nnt_onnx_init(g, name, dt, 0, NULL, p);
}

const char *nnt_onnx_op(nnt_onnx *g, const char *op_type, const char *out, ...) {
  Onnx__NodeProto *n = nnt_xmalloc(sizeof *n);
  onnx__node_proto__init(n);
  n->op_type = nnt_xstrdup(op_type);
  va_list ap;
  va_start(ap, out);
  for (const char *in; (in = va_arg(ap, const char *));) PUSH(n->input, n->n_input, nnt_xstrdup(in));
  va_end(ap);
  char name[96];
  if (!out) snprintf(name, sizeof name, "%s_%d", op_type, g->names++), out = name;
  PUSH(n->output, n->n_output, nnt_xstrdup(out));
  n->name = nnt_xstrdup(n->output[0]);
  PUSH(g->graph->node, g->graph->n_node, n);
  return n->output[0];
}

static Onnx__AttributeProto *attr(nnt_onnx *g, const char *name, Onnx__AttributeProto__AttributeType type) {
  Onnx__AttributeProto *a = nnt_xmalloc(sizeof *a);
  onnx__attribute_proto__init(a);
  a->name = nnt_xstrdup(name);
  a->has_type = 1, a->type = type;
  Onnx__NodeProto *n = g->graph->node[g->graph->n_node - 1];
  PUSH(n->attribute, n->n_attribute, a);
  return a;
}
void nnt_onnx_attr_int(nnt_onnx *g, const char *name, long long v) {
  Onnx__AttributeProto *a = attr(g, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  a->has_i = 1, a->i = v;
}
void nnt_onnx_attr_float(nnt_onnx *g, const char *name, float v) {
  Onnx__AttributeProto *a = attr(g, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
  a->has_f = 1, a->f = v;
}
void nnt_onnx_attr_str(nnt_onnx *g, const char *name, const char *v) {
  Onnx__AttributeProto *a = attr(g, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
  a->has_s = 1, a->s.len = strlen(v), a->s.data = (uint8_t *)nnt_xstrdup(v);
}
void nnt_onnx_attr_ints(nnt_onnx *g, const char *name, int n, const long long *v) {
  Onnx__AttributeProto *a = attr(g, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
  a->n_ints = (size_t)n;
  a->ints = nnt_xmalloc((size_t)(n ? n : 1) * sizeof *a->ints);
  for (int i = 0; i < n; i++) a->ints[i] = v[i];
}

void nnt_onnx_meta(nnt_onnx *g, const char *key, const char *value) {
  Onnx__StringStringEntryProto *e = nnt_xmalloc(sizeof *e);
  onnx__string_string_entry_proto__init(e);
  e->key = nnt_xstrdup(key), e->value = nnt_xstrdup(value ? value : "");
  PUSH(g->model->metadata_props, g->model->n_metadata_props, e);
}

int nnt_onnx_write(nnt_onnx *g, const char *version, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return nnt_fail(NNT_EIO, "refusing to replace %s: not a regular file", path);
  Onnx__ModelProto *m = g->model;
  m->has_ir_version = 1, m->ir_version = NNT_ONNX_IR;
  free(m->producer_name), free(m->producer_version);
  m->producer_name = nnt_xstrdup("nnt"), m->producer_version = nnt_xstrdup(version ? version : "");
  if (!m->n_opset_import) {
    Onnx__OperatorSetIdProto *o = nnt_xmalloc(sizeof *o);
    onnx__operator_set_id_proto__init(o);
    o->domain = nnt_xstrdup(""), o->has_version = 1, o->version = NNT_ONNX_OPSET;
    PUSH(m->opset_import, m->n_opset_import, o);
  }
  size_t n = onnx__model_proto__get_packed_size(m);
  if (n > (size_t)INT32_MAX) /* protobuf's 2 GiB limit: readers refuse larger messages */
    return nnt_fail(NNT_EINVAL, "%s: the model is %zu bytes, over ONNX's 2 GiB protobuf limit (use .safetensors)", path, n);
  uint8_t *buf = nnt_xmalloc(n ? n : 1);
  onnx__model_proto__pack(m, buf);
  nnt_afile a;
  int rc = nnt_afile_open(&a, path);
  if (!rc) {
    fwrite(buf, 1, n, a.f);
    rc = nnt_afile_commit(&a);
  }
  free(buf);
  return rc;
}
