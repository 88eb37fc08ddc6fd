/* The compiler of Lemma B.1 (each circuit layer -> two ReLU layers) with the correction layers of
 * Lemma 3.3, and verification of the compiled net against direct evaluation. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_circuits.h"
#include "nnt_progress.h"

/* Hidden ReLU units a node needs in the first layer of its block. */
static int hidden_units(const nnt_circuit_lnode *n) {
  if ((n->type == NNT_CIRCUIT_GATE_XOR || n->type == NNT_CIRCUIT_GATE_XNOR) && n->nin >= 2) return n->nin;
  return 1;
}

/* A layer's weights as (row, col, value) triplets, with its biases: the net is built sparse, so a
 * big circuit never allocates its dense matrices. */
typedef struct {
  long n, cap;
  int *row, *col;
  double *val, *b;
} coo;

static void coo_init(coo *c, int out) {
  memset(c, 0, sizeof *c);
  c->b = nnt_xcalloc((size_t)out, sizeof(double));
}

static void put(coo *c, int r, int col, double v) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 1024;
    c->row = nnt_xrealloc(c->row, sizeof(int) * (size_t)c->cap), c->col = nnt_xrealloc(c->col, sizeof(int) * (size_t)c->cap);
    c->val = nnt_xrealloc(c->val, sizeof(double) * (size_t)c->cap);
  }
  c->row[c->n] = r, c->col[c->n] = col, c->val[c->n++] = v;
}

/* Appends the layer and empties c. */
static void coo_emit(coo *c, nnt_smlp *net, int in, int out) {
  nnt_smlp_add_coo(net, in, out, NNT_ACT_RELU, c->n, c->row, c->col, c->val, c->b);
  free(c->row), free(c->col), free(c->val), free(c->b);
}

/* Emits the rows of node k (first-layer units u0.., second-layer row k). Every weight is a small
 * integer, so on {0,1} inputs the whole forward pass is exact in floating point. Repeated fan-in
 * entries add up (the triplets are summed), as the formulas' sums do.
 *   BUF      u = relu(x)                      out = relu(u)
 *   NOT      u = relu(1 - x)                  out = relu(u)
 *   CONSTc   u = relu(c)                      out = relu(u)
 *   AND_k    u = relu(sum x - (k-1))          out = relu(u)          (Prop. B.2)
 *   NAND_k   u = relu(sum x - (k-1))          out = relu(1 - u)
 *   OR_k     u = relu(1 - sum x)              out = relu(1 - u)      (Prop. B.2)
 *   NOR_k    u = relu(1 - sum x)              out = relu(u)
 *   XOR_2    u0 = relu(x - y), u1 = relu(y - x)          out = relu(u0 + u1)
 *   XOR_k    uj = relu(sum x - j), j = 0..k-1 (k >= 3)   out = relu(u0 + sum_j 2(-1)^j uj)
 *   XNOR     as XOR with out = relu(1 - ...)
 * One-input AND/OR/XOR are BUF, one-input NAND/NOR/XNOR are NOT. */
static void fill_node(const nnt_circuit_lnode *n, int k, int u0, coo *A, coo *B) {
  nnt_circuit_gate_type t = n->type;
  int m = n->nin;
  if (m == 1 && (t == NNT_CIRCUIT_GATE_AND || t == NNT_CIRCUIT_GATE_OR || t == NNT_CIRCUIT_GATE_XOR)) t = NNT_CIRCUIT_GATE_BUF;
  if (m == 1 && (t == NNT_CIRCUIT_GATE_NAND || t == NNT_CIRCUIT_GATE_NOR || t == NNT_CIRCUIT_GATE_XNOR)) t = NNT_CIRCUIT_GATE_NOT;
  switch (t) {
    case NNT_CIRCUIT_GATE_CONST0:
    case NNT_CIRCUIT_GATE_CONST1:
      A->b[u0] = t == NNT_CIRCUIT_GATE_CONST1;
      put(B, k, u0, 1);
      break;
    case NNT_CIRCUIT_GATE_BUF:
      put(A, u0, n->in[0], 1);
      put(B, k, u0, 1);
      break;
    case NNT_CIRCUIT_GATE_NOT:
      put(A, u0, n->in[0], -1);
      A->b[u0] = 1;
      put(B, k, u0, 1);
      break;
    case NNT_CIRCUIT_GATE_AND:
    case NNT_CIRCUIT_GATE_NAND:
      for (int i = 0; i < m; i++) put(A, u0, n->in[i], 1);
      A->b[u0] = -(m - 1);
      if (t == NNT_CIRCUIT_GATE_AND) put(B, k, u0, 1);
      else put(B, k, u0, -1), B->b[k] = 1;
      break;
    case NNT_CIRCUIT_GATE_OR:
    case NNT_CIRCUIT_GATE_NOR:
      for (int i = 0; i < m; i++) put(A, u0, n->in[i], -1);
      A->b[u0] = 1;
      if (t == NNT_CIRCUIT_GATE_NOR) put(B, k, u0, 1);
      else put(B, k, u0, -1), B->b[k] = 1;
      break;
    case NNT_CIRCUIT_GATE_XOR:
    case NNT_CIRCUIT_GATE_XNOR: {
      double sign = t == NNT_CIRCUIT_GATE_XOR ? 1 : -1;
      if (m == 2) {
        put(A, u0, n->in[0], 1), put(A, u0, n->in[1], -1);
        put(A, u0 + 1, n->in[0], -1), put(A, u0 + 1, n->in[1], 1);
        put(B, k, u0, sign), put(B, k, u0 + 1, sign);
      } else {
        for (int j = 0; j < m; j++) {
          for (int i = 0; i < m; i++) put(A, u0 + j, n->in[i], 1);
          A->b[u0 + j] = -j;
          put(B, k, u0 + j, sign * (j == 0 ? 1 : (j % 2 ? -2 : 2)));
        }
      }
      if (t == NNT_CIRCUIT_GATE_XNOR) B->b[k] = 1;
      break;
    }
    default: break;
  }
}

void nnt_circuit_compile_sparse(const nnt_circuit_layered *L, int correct, nnt_smlp *net) {
  nnt_smlp_init(net);
  for (int l = 1; l <= L->depth; l++) {
    int nin = L->width[l - 1], nout = L->width[l], hid = 0;
    for (int k = 0; k < nout; k++) hid += hidden_units(&L->nodes[l][k]);
    coo A, B;
    coo_init(&A, hid), coo_init(&B, nout);
    for (int k = 0, u = 0; k < nout; k++) {
      fill_node(&L->nodes[l][k], k, u, &A, &B);
      u += hidden_units(&L->nodes[l][k]);
    }
    coo_emit(&A, net, nin, hid), coo_emit(&B, net, hid, nout);
    if (correct && l < L->depth) { /* round(z) = relu(3z - 1) - relu(3z - 2), elementwise */
      coo C, D;
      coo_init(&C, 2 * nout), coo_init(&D, nout);
      for (int k = 0; k < nout; k++) {
        put(&C, k, k, 3), C.b[k] = -1;
        put(&C, nout + k, k, 3), C.b[nout + k] = -2;
        put(&D, k, k, 1), put(&D, k, nout + k, -1);
      }
      coo_emit(&C, net, nout, 2 * nout), coo_emit(&D, net, 2 * nout, nout);
    }
  }
}

void nnt_circuit_compile(const nnt_circuit_layered *L, int correct, nnt_mlp *net) {
  nnt_smlp s;
  nnt_circuit_compile_sparse(L, correct, &s);
  nnt_smlp_to_dense(net, &s);
  nnt_smlp_free(&s);
}

nnt_circuit_verify_counts nnt_circuit_verify(const nnt_circuit *c, const nnt_smlp *net, int exhaustive_max,
                                      long samples, uint64_t seed) {
  nnt_circuit_verify_counts r = {0, 0, 0, 0, -1};
  int m = c->ninputs, o = c->noutputs;
  r.exhaustive = m <= exhaustive_max;
  long total = r.exhaustive ? 1L << m : samples;
  enum { B = 4096 }; /* vectors per batch: 64 words of 64 */
  double *X = nnt_xmalloc(sizeof(double) * (size_t)B * (m ? m : 1)), *Y = nnt_xmalloc(sizeof(double) * (size_t)B * o);
  uint64_t *XW = nnt_xmalloc(sizeof(uint64_t) * (size_t)(m + 1)), *YW = nnt_xmalloc(sizeof(uint64_t) * (size_t)o);
  uint8_t *ref = nnt_xmalloc((size_t)B * o);
  nnt_rng rng;
  nnt_rng_init(&rng, seed, 0);
  for (long base = 0; base < total; base += B) {
    int nb = total - base < B ? (int)(total - base) : B;
    for (int w0 = 0; w0 < nb; w0 += 64) {
      for (int i = 0; i < m; i++) {
        uint64_t word = 0;
        if (r.exhaustive) {
          for (int k = 0; k < 64; k++) word |= (uint64_t)(((base + w0 + k) >> i) & 1) << k;
        } else {
          word = nnt_rng_u64(&rng);
        }
        XW[i] = word;
      }
      nnt_circuit_eval64(c, XW, YW);
      for (int k = 0; k < 64 && w0 + k < nb; k++) {
        for (int i = 0; i < m; i++) X[(size_t)(w0 + k) * m + i] = (double)((XW[i] >> k) & 1);
        for (int j = 0; j < o; j++) ref[(size_t)(w0 + k) * o + j] = (uint8_t)((YW[j] >> k) & 1);
      }
    }
    nnt_smlp_forward_batch(net, nb, X, Y);
    for (int v = 0; v < nb; v++) {
      int bad = 0;
      for (int j = 0; j < o; j++) {
        double y = Y[(size_t)v * o + j], e = y - ref[(size_t)v * o + j];
        e = e < 0 ? -e : e;
        if (!(e <= r.max_abs_err)) r.max_abs_err = e; /* also catches NaN */
        bad |= y != (double)ref[(size_t)v * o + j];
      }
      if (bad && r.first_bad < 0) r.first_bad = base + v;
      r.mismatches += bad;
    }
  }
  r.checked = total;
  free(X), free(Y), free(XW), free(YW), free(ref);
  return r;
}

void nnt_circuit_verify_cfg_default(nnt_circuit_verify_cfg *cfg, nnt_preset preset) {
  (void)preset; /* one preset: exhaustive up to 2^20 inputs is seconds */
  memset(cfg, 0, sizeof *cfg);
  cfg->exhaustive_max = 20;
  cfg->samples = 100000;
  cfg->seed = 1;
}

int nnt_circuit_verify_run(const nnt_circuit_verify_cfg *cfg, nnt_circuit_verify_result *res) {
  memset(res, 0, sizeof *res);
  if (!cfg->file) return nnt_fail(NNT_EINVAL, "no circuit file");
  if (cfg->exhaustive_max < 0 || cfg->exhaustive_max > 30 || cfg->samples < 1)
    return nnt_fail(NNT_EINVAL, "exhaustive_max must be in 0..30 and samples positive");
  int st = nnt_circuit_read(cfg->file, &res->c);
  if (st) return st;
  nnt_circuit_layer(&res->c, &res->L);
  if (!cfg->net) nnt_circuit_compile_sparse(&res->L, cfg->correct, &res->net);
  else if ((st = nnt_smlp_load(cfg->net, &res->net))) goto fail;
  if (nnt_smlp_input_dim(&res->net) != res->c.ninputs || nnt_smlp_output_dim(&res->net) != res->c.noutputs) {
    st = nnt_fail(NNT_EINVAL, "%s: the net maps %d inputs to %d outputs, the circuit %d to %d", cfg->net,
                  nnt_smlp_input_dim(&res->net), nnt_smlp_output_dim(&res->net), res->c.ninputs, res->c.noutputs);
    goto fail;
  }
  double t0 = nnt_now();
  res->counts = nnt_circuit_verify(&res->c, &res->net, cfg->exhaustive_max, cfg->samples, cfg->seed);
  res->seconds = nnt_now() - t0;
  return NNT_OK;
fail:
  nnt_circuit_verify_result_free(res);
  return st;
}

void nnt_circuit_verify_result_free(nnt_circuit_verify_result *res) {
  nnt_smlp_free(&res->net), nnt_circuit_layered_free(&res->L), nnt_circuit_free(&res->c);
}

int nnt_circuit_export(const nnt_circuit *c, const nnt_smlp *net, int sparse, const char *file, const char *version,
                       const char *command, const char *path) {
  cJSON *in = cJSON_CreateArray(), *outs = cJSON_CreateArray();
  for (int i = 0; i < c->ninputs; i++) cJSON_AddItemToArray(in, cJSON_CreateString(c->gates[c->inputs[i]].name ? c->gates[c->inputs[i]].name : ""));
  for (int j = 0; j < c->noutputs; j++) cJSON_AddItemToArray(outs, cJSON_CreateString(c->gates[c->outputs[j]].name ? c->gates[c->outputs[j]].name : ""));
  char *si = cJSON_PrintUnformatted(in), *so = cJSON_PrintUnformatted(outs);
  const char *meta[] = {"source", "circuit", "circuit", file, "inputs", si, "outputs", so,
                        "nnt_version", version, "command", command, NULL};
  int st = nnt_smlp_export(net, sparse, NULL, meta, path);
  cJSON_free(si), cJSON_free(so), cJSON_Delete(in), cJSON_Delete(outs);
  return st;
}
