/* py.c — nnt_py.h: each entry point opens an out-of-memory recovery point (GUARDED) around the area
 * functions it calls, so that a host's call returns NNT_ENOMEM rather than ending the host. */
#include "nnt_py.h"

#include <stdlib.h>
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_mlp.h"
#include "nnt_tm.h"
#include "py_guard.h"

struct nnt_py_tm {
  nnt_tm tm;
};
struct nnt_py_net {
  nnt_smlp net;
};
struct nnt_py_circuit {
  nnt_circuit c;
  nnt_circuit_layered L;
};

/* ---------------------------------------------------------------- Turing machines */

static int tm_load(const char *machine, const char *input, nnt_py_tm **out) {
  *out = NULL;
  if (!machine) return nnt_fail(NNT_EINVAL, "no machine given");
  nnt_py_tm *m = nnt_xcalloc(1, sizeof *m);
  int st = nnt_tm_load(machine, &m->tm);
  if (!st && input && *input) st = nnt_tm_set_input(&m->tm, input);
  if (st) {
    nnt_tm_free(&m->tm);
    free(m);
    return st;
  }
  *out = m;
  return NNT_OK;
}
int nnt_py_tm_load(const char *machine, const char *input, nnt_py_tm **out) { GUARDED(tm_load(machine, input, out)); }

void nnt_py_tm_free(nnt_py_tm *m) {
  if (!m) return;
  nnt_tm_free(&m->tm);
  free(m);
}

int nnt_py_tm_sizes(const nnt_py_tm *m, int *states, int *symbols, int *input_len) {
  *states = m->tm.k, *symbols = m->tm.nsym, *input_len = m->tm.m;
  return NNT_OK;
}
const char *nnt_py_tm_state_name(const nnt_py_tm *m, int i) { return i >= 0 && i < m->tm.k + 2 ? m->tm.state_name[i] : NULL; }
const char *nnt_py_tm_symbol_name(const nnt_py_tm *m, int i) { return i >= 0 && i < m->tm.nsym ? m->tm.sym_name[i] : NULL; }

static int tm_run(const nnt_py_tm *m, long T, long out[7]) {
  if (T < 0) return nnt_fail(NNT_EINVAL, "steps must be >= 0 (got %ld)", T);
  nnt_tm_stream s;
  int st = nnt_tm_stream_run(&m->tm, T, 0, 0, &s);
  if (st) return st;
  long v[7] = {s.steps, s.halt_step, s.ones, s.min_head, s.max_head, s.head, s.state};
  memcpy(out, v, sizeof v);
  nnt_tm_stream_free(&s);
  return NNT_OK;
}
int nnt_py_tm_run(const nnt_py_tm *m, long T, long out[7]) { GUARDED(tm_run(m, T, out)); }

static int tm_trace(const nnt_py_tm *m, long T, int *state, long *head, int *read, int *write, long *halt_step) {
  if (T < 0 || T > NNT_TM_TRACE_MAX)
    return nnt_fail(NNT_EINVAL, "a trace of %ld steps: give 0..%d (run() counts longer runs)", T, NNT_TM_TRACE_MAX);
  nnt_tm_trace tr;
  int st = nnt_tm_simulate(&m->tm, T, &tr);
  if (st) return st;
  size_t n = (size_t)T + 1;
  memcpy(state, tr.state, n * sizeof *state);
  memcpy(head, tr.head, n * sizeof *head);
  memcpy(read, tr.sym, n * sizeof *read);
  memcpy(write, tr.written, n * sizeof *write);
  *halt_step = tr.halt_step;
  nnt_tm_trace_free(&tr);
  return NNT_OK;
}
int nnt_py_tm_trace(const nnt_py_tm *m, long T, int *state, long *head, int *read, int *write, long *halt_step) {
  GUARDED(tm_trace(m, T, state, head, read, write, halt_step));
}

static int tm_compile(const nnt_py_tm *m, long T, const char *path, long *params) {
  if (T < 1) return nnt_fail(NNT_EINVAL, "steps must be >= 1 (got %ld)", T);
  nnt_tm_net net;
  int st = nnt_tm_compile(&m->tm, T, &net);
  if (st) return st;
  *params = nnt_tm_net_stats_of(&net).nonzero;
  nnt_tm_export_info info = {.attention = NNT_TM_HARD, .precision = NNT_TM_F64, .version = nnt_version(),
                             .command = "python: nnt.Machine.compile"};
  st = nnt_tm_export(&net, &m->tm, &info, path);
  nnt_tm_net_free(&net);
  return st;
}
int nnt_py_tm_compile(const nnt_py_tm *m, long T, const char *path, long *params) { GUARDED(tm_compile(m, T, path, params)); }

/* ---------------------------------------------------------------- feed-forward nets */

static nnt_py_net *net_new(void) {
  nnt_py_net *n = nnt_xcalloc(1, sizeof *n);
  nnt_smlp_init(&n->net);
  return n;
}

static int net_load(const char *path, nnt_py_net **out) {
  *out = NULL;
  nnt_py_net *n = net_new();
  int st = nnt_smlp_load(path, &n->net);
  if (st) return free(n), st; /* the loader leaves the net untouched on failure */
  *out = n;
  return NNT_OK;
}
int nnt_py_net_load(const char *path, nnt_py_net **out) { GUARDED(net_load(path, out)); }

void nnt_py_net_free(nnt_py_net *n) {
  if (!n) return;
  nnt_smlp_free(&n->net);
  free(n);
}

int nnt_py_net_sizes(const nnt_py_net *n, int *inputs, int *outputs, int *layers, long *params) {
  nnt_mlp_stats s = nnt_smlp_stats_of(&n->net);
  *inputs = s.input_dim, *outputs = s.output_dim, *layers = s.layers, *params = s.params;
  return NNT_OK;
}

static int net_forward(const nnt_py_net *n, long B, const double *X, double *Y) {
  if (B < 0 || B > 1L << 30) return nnt_fail(NNT_EINVAL, "batch of %ld rows: give 0..2^30", B);
  if (n->net.nlayers == 0) return nnt_fail(NNT_EINVAL, "the net has no layers");
  if (B) nnt_smlp_forward_batch(&n->net, (int)B, X, Y);
  return NNT_OK;
}
int nnt_py_net_forward(const nnt_py_net *n, long B, const double *X, double *Y) { GUARDED(net_forward(n, B, X, Y)); }

static int net_save(const nnt_py_net *n, const char *path) {
  if (nnt_export_format(path)) return nnt_smlp_export(&n->net, 1, NULL, NULL, path);
  return nnt_smlp_save(&n->net, path);
}
int nnt_py_net_save(const nnt_py_net *n, const char *path) { GUARDED(net_save(n, path)); }

/* ---------------------------------------------------------------- circuits */

static int circuit_read(const char *path, nnt_py_circuit **out) {
  *out = NULL;
  nnt_py_circuit *c = nnt_xcalloc(1, sizeof *c);
  int st = nnt_circuit_read(path, &c->c);
  if (st) return free(c), st;
  nnt_circuit_layer(&c->c, &c->L);
  *out = c;
  return NNT_OK;
}
int nnt_py_circuit_read(const char *path, nnt_py_circuit **out) { GUARDED(circuit_read(path, out)); }

void nnt_py_circuit_free(nnt_py_circuit *c) {
  if (!c) return;
  nnt_circuit_layered_free(&c->L);
  nnt_circuit_free(&c->c);
  free(c);
}

int nnt_py_circuit_sizes(const nnt_py_circuit *c, int *inputs, int *outputs, int *gates, int *depth) {
  *inputs = c->c.ninputs, *outputs = c->c.noutputs, *gates = c->c.ngates - c->c.ninputs, *depth = c->L.depth;
  return NNT_OK;
}
const char *nnt_py_circuit_input_name(const nnt_py_circuit *c, int i) {
  return i >= 0 && i < c->c.ninputs ? c->c.gates[c->c.inputs[i]].name : NULL;
}
const char *nnt_py_circuit_output_name(const nnt_py_circuit *c, int j) {
  return j >= 0 && j < c->c.noutputs ? c->c.gates[c->c.outputs[j]].name : NULL;
}

/* 64 rows at a time, bit-sliced (nnt_circuit_eval64) */
static int circuit_eval(const nnt_py_circuit *c, long B, const uint8_t *X, uint8_t *Y) {
  int ni = c->c.ninputs, no = c->c.noutputs;
  for (long i = 0; i < B * ni; i++)
    if (X[i] > 1) return nnt_fail(NNT_EINVAL, "input row %ld, bit %ld is %d: inputs are 0 or 1", i / ni, i % ni, X[i]);
  uint64_t *x = nnt_xcalloc((size_t)ni + 1, sizeof *x), *y = nnt_xcalloc((size_t)no + 1, sizeof *y);
  for (long r0 = 0; r0 < B; r0 += 64) {
    int rows = B - r0 < 64 ? (int)(B - r0) : 64;
    memset(x, 0, (size_t)ni * sizeof *x);
    for (int r = 0; r < rows; r++)
      for (int i = 0; i < ni; i++) x[i] |= (uint64_t)X[(r0 + r) * ni + i] << r;
    nnt_circuit_eval64(&c->c, x, y);
    for (int r = 0; r < rows; r++)
      for (int j = 0; j < no; j++) Y[(r0 + r) * no + j] = (uint8_t)(y[j] >> r & 1);
  }
  free(x);
  free(y);
  return NNT_OK;
}
int nnt_py_circuit_eval(const nnt_py_circuit *c, long B, const uint8_t *X, uint8_t *Y) { GUARDED(circuit_eval(c, B, X, Y)); }

static int circuit_compile(const nnt_py_circuit *c, int correct, nnt_py_net **out) {
  nnt_py_net *n = net_new();
  nnt_circuit_compile_sparse(&c->L, correct != 0, &n->net);
  *out = n;
  return NNT_OK;
}
int nnt_py_circuit_compile(const nnt_py_circuit *c, int correct, nnt_py_net **out) {
  *out = NULL;
  GUARDED(circuit_compile(c, correct, out));
}

static int circuit_verify(const nnt_py_circuit *c, const nnt_py_net *n, int exhaustive_max, long samples, uint64_t seed,
                          long out[3], double *max_abs_err) {
  if (nnt_smlp_input_dim(&n->net) != c->c.ninputs || nnt_smlp_output_dim(&n->net) != c->c.noutputs)
    return nnt_fail(NNT_EINVAL, "the net maps %d inputs to %d outputs, the circuit %d to %d", nnt_smlp_input_dim(&n->net),
                    nnt_smlp_output_dim(&n->net), c->c.ninputs, c->c.noutputs);
  if (exhaustive_max < 0 || exhaustive_max > 30 || samples < 0)
    return nnt_fail(NNT_EINVAL, "exhaustive_max must be 0..30 and samples >= 0");
  nnt_circuit_verify_counts k = nnt_circuit_verify(&c->c, &n->net, exhaustive_max, samples, seed);
  out[0] = k.checked, out[1] = k.mismatches, out[2] = k.exhaustive;
  *max_abs_err = k.max_abs_err;
  return NNT_OK;
}
int nnt_py_circuit_verify(const nnt_py_circuit *c, const nnt_py_net *net, int exhaustive_max, long samples,
                          uint64_t seed, long out[3], double *max_abs_err) {
  GUARDED(circuit_verify(c, net, exhaustive_max, samples, seed, out, max_abs_err));
}
