/* Circuits: the readers' shared builder, topological order, evaluation, layering. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_error.h"
#include "nnt_file.h"

static const char *gate_names[NNT_CIRCUIT_GATE_NTYPES] = {"INPUT", "CONST0", "CONST1", "BUF", "NOT", "AND",
                                                  "NAND",  "OR",     "NOR",    "XOR", "XNOR"};
const char *nnt_circuit_gate_name(nnt_circuit_gate_type t) { return t < NNT_CIRCUIT_GATE_NTYPES ? gate_names[t] : "?"; }

void nnt_circuit_free(nnt_circuit *c) {
  for (int g = 0; g < c->ngates; g++) free(c->gates[g].in), free(c->gates[g].name);
  free(c->gates), free(c->inputs), free(c->outputs);
  memset(c, 0, sizeof *c);
}

/* ---- builder ---- */

static unsigned long hash(const char *s, size_t n) {
  unsigned long h = 1469598103934665603UL;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211UL;
  return h;
}

void nnt_circuit_cb_init(nnt_circuit_cbuild *b, const char *file) {
  memset(b, 0, sizeof *b);
  b->file = file;
  b->htcap = 1024;
  b->ht = nnt_xcalloc((size_t)b->htcap, sizeof(int));
}

void nnt_circuit_cb_free(nnt_circuit_cbuild *b) {
  for (int s = 0; s < b->n; s++) free(b->in[s]), free(b->name[s]);
  free(b->type), free(b->nin), free(b->in), free(b->name), free(b->def_line), free(b->use_line);
  free(b->ht), free(b->inputs), free(b->outputs), free(b->out_line);
  memset(b, 0, sizeof *b);
}

static void ht_insert(nnt_circuit_cbuild *b, int s) {
  unsigned long h = hash(b->name[s], strlen(b->name[s])) & (unsigned long)(b->htcap - 1);
  while (b->ht[h]) h = (h + 1) & (unsigned long)(b->htcap - 1);
  b->ht[h] = s + 1;
}

static int new_signal(nnt_circuit_cbuild *b, const char *name, size_t len, int line) {
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    size_t c = (size_t)b->cap;
    b->type = nnt_xrealloc(b->type, c * sizeof *b->type);
    b->nin = nnt_xrealloc(b->nin, c * sizeof *b->nin);
    b->in = nnt_xrealloc(b->in, c * sizeof *b->in);
    b->name = nnt_xrealloc(b->name, c * sizeof *b->name);
    b->def_line = nnt_xrealloc(b->def_line, c * sizeof *b->def_line);
    b->use_line = nnt_xrealloc(b->use_line, c * sizeof *b->use_line);
  }
  int s = b->n++;
  b->name[s] = nnt_xmalloc(len + 1);
  memcpy(b->name[s], name, len);
  b->name[s][len] = 0;
  b->type[s] = NNT_CIRCUIT_GATE_BUF;
  b->nin[s] = 0;
  b->in[s] = NULL;
  b->def_line[s] = 0;
  b->use_line[s] = line;
  if (2 * b->n > b->htcap) { /* grow and rehash */
    free(b->ht);
    b->htcap *= 2;
    b->ht = nnt_xcalloc((size_t)b->htcap, sizeof(int));
    for (int i = 0; i < b->n; i++) ht_insert(b, i);
  } else {
    ht_insert(b, s);
  }
  return s;
}

int nnt_circuit_cb_sig(nnt_circuit_cbuild *b, const char *name, size_t len, int line) {
  unsigned long h = hash(name, len) & (unsigned long)(b->htcap - 1);
  for (; b->ht[h]; h = (h + 1) & (unsigned long)(b->htcap - 1)) {
    int s = b->ht[h] - 1;
    if (strlen(b->name[s]) == len && !memcmp(b->name[s], name, len)) return s;
  }
  return new_signal(b, name, len, line);
}

int nnt_circuit_cb_define(nnt_circuit_cbuild *b, int s, nnt_circuit_gate_type t, int nin, const int *in, int line) {
  if (b->def_line[s])
    return nnt_fail(NNT_EFORMAT, "%s:%d: signal '%s' is defined twice (first at line %d)", b->file, line,
                    b->name[s], b->def_line[s]);
  b->type[s] = t;
  b->nin[s] = nin;
  b->in[s] = nin ? nnt_xmalloc(sizeof(int) * (size_t)nin) : NULL;
  if (nin) memcpy(b->in[s], in, sizeof(int) * (size_t)nin);
  b->def_line[s] = line;
  return NNT_OK;
}

int nnt_circuit_cb_gate(nnt_circuit_cbuild *b, const char *base, nnt_circuit_gate_type t, int nin, const int *in, int line) {
  char name[300];
  int s;
  do { /* '#' starts a comment in .bench and BLIF, so no user name contains it */
    snprintf(name, sizeof name, "%.200s#%d", base, b->anon++);
    s = nnt_circuit_cb_sig(b, name, strlen(name), line);
  } while (b->def_line[s]);
  nnt_circuit_cb_define(b, s, t, nin, in, line);
  return s;
}

int nnt_circuit_cb_input(nnt_circuit_cbuild *b, int s, int line) {
  int st = nnt_circuit_cb_define(b, s, NNT_CIRCUIT_GATE_INPUT, 0, NULL, line);
  if (st) return st;
  if (b->ninputs == b->incap) {
    b->incap = b->incap ? 2 * b->incap : 16;
    b->inputs = nnt_xrealloc(b->inputs, sizeof(int) * (size_t)b->incap);
  }
  b->inputs[b->ninputs++] = s;
  return NNT_OK;
}

void nnt_circuit_cb_output(nnt_circuit_cbuild *b, int s, int line) {
  if (b->noutputs == b->outcap) {
    b->outcap = b->outcap ? 2 * b->outcap : 16;
    b->outputs = nnt_xrealloc(b->outputs, sizeof(int) * (size_t)b->outcap);
    b->out_line = nnt_xrealloc(b->out_line, sizeof(int) * (size_t)b->outcap);
  }
  b->out_line[b->noutputs] = line;
  b->outputs[b->noutputs++] = s;
}

/* Kahn's algorithm over the defined signals; anything left over lies on or behind a cycle. */
int nnt_circuit_cb_finish(nnt_circuit_cbuild *b, nnt_circuit *c) {
  int n = b->n, st = NNT_OK;
  memset(c, 0, sizeof *c);
  for (int s = 0; s < n && !st; s++)
    if (!b->def_line[s]) st = nnt_fail(NNT_EFORMAT, "%s:%d: signal '%s' is used but never defined", b->file,
                                       b->use_line[s], b->name[s]);
  if (!st && b->noutputs == 0) st = nnt_fail(NNT_EFORMAT, "%s: the circuit declares no outputs", b->file);
  if (st) {
    nnt_circuit_cb_free(b);
    return st;
  }
  int *indeg = nnt_xcalloc((size_t)n, sizeof(int)), *start = nnt_xcalloc((size_t)n + 1, sizeof(int));
  for (int s = 0; s < n; s++)
    for (int k = 0; k < b->nin[s]; k++) start[b->in[s][k] + 1]++;
  for (int s = 0; s < n; s++) start[s + 1] += start[s];
  int *fan = nnt_xmalloc(sizeof(int) * (size_t)(start[n] + 1)), *fill = nnt_xmalloc(sizeof(int) * (size_t)n);
  memcpy(fill, start, sizeof(int) * (size_t)n);
  for (int s = 0; s < n; s++) {
    indeg[s] = b->nin[s];
    for (int k = 0; k < b->nin[s]; k++) fan[fill[b->in[s][k]]++] = s;
  }
  int *order = nnt_xmalloc(sizeof(int) * (size_t)n), *pos = nnt_xmalloc(sizeof(int) * (size_t)n), head = 0,
      tail = 0;
  for (int s = 0; s < n; s++)
    if (!indeg[s]) order[tail++] = s;
  while (head < tail) {
    int s = order[head++];
    for (int e = start[s]; e < start[s + 1]; e++)
      if (--indeg[fan[e]] == 0) order[tail++] = fan[e];
  }
  if (tail < n) { /* walk fan-ins among the leftovers until a signal repeats: it is on a cycle */
    int s = 0;
    while (!indeg[s]) s++;
    memset(pos, 0, sizeof(int) * (size_t)n);
    while (!pos[s]) {
      pos[s] = 1;
      for (int k = 0; k < b->nin[s]; k++)
        if (indeg[b->in[s][k]]) {
          s = b->in[s][k];
          break;
        }
    }
    st = nnt_fail(NNT_EFORMAT, "%s:%d: combinational cycle through signal '%s'", b->file, b->def_line[s],
                  b->name[s]);
  } else {
    for (int i = 0; i < n; i++) pos[order[i]] = i;
    c->ngates = n;
    c->gates = nnt_xcalloc((size_t)n, sizeof(nnt_circuit_gate));
    for (int i = 0; i < n; i++) {
      int s = order[i];
      nnt_circuit_gate *g = &c->gates[i];
      g->type = b->type[s];
      g->nin = b->nin[s];
      g->in = b->in[s];
      b->in[s] = NULL;
      for (int k = 0; k < g->nin; k++) g->in[k] = pos[g->in[k]];
      g->name = b->name[s];
      b->name[s] = NULL;
    }
    c->ninputs = b->ninputs;
    c->inputs = nnt_xmalloc(sizeof(int) * (size_t)(b->ninputs + 1));
    for (int i = 0; i < b->ninputs; i++) c->inputs[i] = pos[b->inputs[i]];
    c->noutputs = b->noutputs;
    c->outputs = nnt_xmalloc(sizeof(int) * (size_t)b->noutputs);
    for (int j = 0; j < b->noutputs; j++) c->outputs[j] = pos[b->outputs[j]];
  }
  free(indeg), free(start), free(fan), free(fill), free(order), free(pos);
  nnt_circuit_cb_free(b);
  return st;
}

/* ---- reading ---- */

static const char *ext_of(const char *path) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  return dot && (!slash || dot > slash) ? dot + 1 : "";
}

int nnt_circuit_read(const char *path, nnt_circuit *c) {
  const char *ext = ext_of(path);
  int (*parse)(const char *, size_t, const char *, nnt_circuit *) = NULL;
  if (!strcmp(ext, "bench")) parse = nnt_circuit_parse_bench;
  else if (!strcmp(ext, "blif")) parse = nnt_circuit_parse_blif;
  else if (!strcmp(ext, "aag")) parse = nnt_circuit_parse_aag;
  else return nnt_fail(NNT_EINVAL, "%s: unknown circuit format (expected .bench, .blif or .aag)", path);
  char *buf;
  size_t len;
  int st = nnt_file_read(path, (size_t)1 << 31, &buf, &len);
  if (!st) st = parse(buf, len, path, c);
  free(buf);
  return st;
}

/* ---- evaluation ---- */

static uint64_t gate64(const nnt_circuit_gate *g, const uint64_t *v) {
  uint64_t a;
  switch (g->type) {
    case NNT_CIRCUIT_GATE_CONST0: return 0;
    case NNT_CIRCUIT_GATE_CONST1: return ~0ULL;
    case NNT_CIRCUIT_GATE_BUF: return v[g->in[0]];
    case NNT_CIRCUIT_GATE_NOT: return ~v[g->in[0]];
    case NNT_CIRCUIT_GATE_AND:
    case NNT_CIRCUIT_GATE_NAND:
      a = ~0ULL;
      for (int k = 0; k < g->nin; k++) a &= v[g->in[k]];
      return g->type == NNT_CIRCUIT_GATE_AND ? a : ~a;
    case NNT_CIRCUIT_GATE_OR:
    case NNT_CIRCUIT_GATE_NOR:
      a = 0;
      for (int k = 0; k < g->nin; k++) a |= v[g->in[k]];
      return g->type == NNT_CIRCUIT_GATE_OR ? a : ~a;
    case NNT_CIRCUIT_GATE_XOR:
    case NNT_CIRCUIT_GATE_XNOR:
      a = 0;
      for (int k = 0; k < g->nin; k++) a ^= v[g->in[k]];
      return g->type == NNT_CIRCUIT_GATE_XOR ? a : ~a;
    default: return 0;
  }
}

void nnt_circuit_eval64(const nnt_circuit *c, const uint64_t *X, uint64_t *Y) {
  uint64_t *v = nnt_xmalloc(sizeof(uint64_t) * (size_t)(c->ngates + 1));
  for (int i = 0; i < c->ninputs; i++) v[c->inputs[i]] = X[i];
  for (int g = 0; g < c->ngates; g++)
    if (c->gates[g].type != NNT_CIRCUIT_GATE_INPUT) v[g] = gate64(&c->gates[g], v);
  for (int j = 0; j < c->noutputs; j++) Y[j] = v[c->outputs[j]];
  free(v);
}

void nnt_circuit_eval(const nnt_circuit *c, const uint8_t *x, uint8_t *y) {
  uint64_t *X = nnt_xmalloc(sizeof(uint64_t) * (size_t)(c->ninputs + 1)),
           *Y = nnt_xmalloc(sizeof(uint64_t) * (size_t)c->noutputs);
  for (int i = 0; i < c->ninputs; i++) X[i] = x[i] ? 1 : 0;
  nnt_circuit_eval64(c, X, Y);
  for (int j = 0; j < c->noutputs; j++) y[j] = (uint8_t)(Y[j] & 1);
  free(X), free(Y);
}

/* ---- layering ---- */

void nnt_circuit_layered_free(nnt_circuit_layered *L) {
  for (int l = 1; l <= L->depth; l++) {
    for (int k = 0; k < L->width[l]; k++) free(L->nodes[l][k].in);
    free(L->nodes[l]);
  }
  free(L->nodes), free(L->width);
  memset(L, 0, sizeof *L);
}

static nnt_circuit_lnode *push_node(nnt_circuit_lnode **arr, int *n, int *cap, nnt_circuit_gate_type t, int nin) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    *arr = nnt_xrealloc(*arr, sizeof(nnt_circuit_lnode) * (size_t)*cap);
  }
  nnt_circuit_lnode *d = &(*arr)[(*n)++];
  d->type = t;
  d->nin = nin;
  d->in = nnt_xmalloc(sizeof(int) * (size_t)(nin ? nin : 1));
  return d;
}

/* As-soon-as-possible levels; a signal lives (as ID copies) until the last layer that reads it. */
void nnt_circuit_layer(const nnt_circuit *c, nnt_circuit_layered *L) {
  int n = c->ngates;
  memset(L, 0, sizeof *L);
  int *level = nnt_xcalloc((size_t)n + 1, sizeof(int)), *need = nnt_xmalloc(sizeof(int) * ((size_t)n + 1));
  char *cone = nnt_xcalloc((size_t)n + 1, 1), *used_final = nnt_xcalloc((size_t)n + 1, 1);
  for (int g = 0; g < n; g++) {
    const nnt_circuit_gate *G = &c->gates[g];
    if (G->type == NNT_CIRCUIT_GATE_INPUT) continue;
    int lv = 1;
    for (int k = 0; k < G->nin; k++) lv = level[G->in[k]] + 1 > lv ? level[G->in[k]] + 1 : lv;
    level[g] = lv;
  }
  int q = 1, dup_top = 0;
  for (int j = 0; j < c->noutputs; j++) q = level[c->outputs[j]] > q ? level[c->outputs[j]] : q;
  for (int j = 0; j < c->noutputs; j++) { /* an output listed twice at level q needs one more layer */
    int s = c->outputs[j];
    if (level[s] == q && used_final[s]) dup_top = 1;
    used_final[s] = 1;
  }
  q += dup_top;
  memset(used_final, 0, (size_t)n + 1);
  for (int g = 0; g < n; g++) need[g] = -1;
  for (int j = 0; j < c->noutputs; j++) {
    int s = c->outputs[j];
    cone[s] = 1;
    if (level[s] < q) need[s] = need[s] > q - 1 ? need[s] : q - 1;
  }
  for (int g = n - 1; g >= 0; g--) {
    if (!cone[g]) continue;
    const nnt_circuit_gate *G = &c->gates[g];
    for (int k = 0; k < G->nin; k++) {
      int s = G->in[k];
      cone[s] = 1;
      need[s] = need[s] > level[g] - 1 ? need[s] : level[g] - 1;
    }
  }
  L->depth = q;
  L->width = nnt_xcalloc((size_t)q + 1, sizeof(int));
  L->nodes = nnt_xcalloc((size_t)q + 1, sizeof(nnt_circuit_lnode *));
  L->width[0] = c->ninputs;
  int *prev = nnt_xmalloc(sizeof(int) * ((size_t)n + 1)), *cur = nnt_xmalloc(sizeof(int) * ((size_t)n + 1));
  for (int g = 0; g < n; g++) prev[g] = -1;
  for (int i = 0; i < c->ninputs; i++) prev[c->inputs[i]] = i;
  for (int g = 0; g < n; g++) L->orig_gates += cone[g] && c->gates[g].type != NNT_CIRCUIT_GATE_INPUT;
  for (int l = 1; l <= q; l++) {
    int cnt = 0, cap = 0;
    nnt_circuit_lnode *arr = NULL;
    for (int g = 0; g < n; g++) cur[g] = -1;
    if (l < q) {
      for (int g = 0; g < n; g++) {
        if (!cone[g] || level[g] > l || need[g] < l) continue;
        cur[g] = cnt;
        if (level[g] == l) {
          const nnt_circuit_gate *G = &c->gates[g];
          nnt_circuit_lnode *d = push_node(&arr, &cnt, &cap, G->type, G->nin);
          for (int k = 0; k < G->nin; k++) d->in[k] = prev[G->in[k]];
        } else {
          nnt_circuit_lnode *d = push_node(&arr, &cnt, &cap, NNT_CIRCUIT_GATE_BUF, 1);
          d->in[0] = prev[g];
          L->id_gates++;
        }
      }
    } else {
      for (int j = 0; j < c->noutputs; j++) {
        int s = c->outputs[j];
        if (level[s] == q && !used_final[s]) {
          used_final[s] = 1;
          const nnt_circuit_gate *G = &c->gates[s];
          nnt_circuit_lnode *d = push_node(&arr, &cnt, &cap, G->type, G->nin);
          for (int k = 0; k < G->nin; k++) d->in[k] = prev[G->in[k]];
        } else {
          nnt_circuit_lnode *d = push_node(&arr, &cnt, &cap, NNT_CIRCUIT_GATE_BUF, 1);
          d->in[0] = prev[s];
          L->id_gates++;
        }
      }
    }
    L->nodes[l] = arr;
    L->width[l] = cnt;
    L->size += cnt;
    int *t = prev;
    prev = cur;
    cur = t;
  }
  L->width_max = 0;
  for (int l = 0; l <= q; l++) L->width_max = L->width[l] > L->width_max ? L->width[l] : L->width_max;
  free(level), free(need), free(cone), free(used_final), free(prev), free(cur);
}
