/* The compiler of Lemma B.1 (each circuit layer -> two ReLU layers) with the correction layers of
 * Lemma 3.3, and verification of the compiled net against direct evaluation. */
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

/* Fills the rows of node k (first-layer units u0.., second-layer row k). Every weight is a small
 * integer, so on {0,1} inputs the whole forward pass is exact in floating point.
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
static void fill_node(const nnt_circuit_lnode *n, int k, int u0, nnt_mlp_layer *A, nnt_mlp_layer *B) {
  int in = A->in;
  double *w = A->W + (size_t)u0 * in, *b = A->b + u0, *w2 = B->W + (size_t)k * B->in;
  nnt_circuit_gate_type t = n->type;
  int m = n->nin;
  if (m == 1 && (t == NNT_CIRCUIT_GATE_AND || t == NNT_CIRCUIT_GATE_OR || t == NNT_CIRCUIT_GATE_XOR)) t = NNT_CIRCUIT_GATE_BUF;
  if (m == 1 && (t == NNT_CIRCUIT_GATE_NAND || t == NNT_CIRCUIT_GATE_NOR || t == NNT_CIRCUIT_GATE_XNOR)) t = NNT_CIRCUIT_GATE_NOT;
  switch (t) {
    case NNT_CIRCUIT_GATE_CONST0:
    case NNT_CIRCUIT_GATE_CONST1:
      b[0] = t == NNT_CIRCUIT_GATE_CONST1;
      w2[u0] = 1;
      break;
    case NNT_CIRCUIT_GATE_BUF:
      w[n->in[0]] += 1;
      w2[u0] = 1;
      break;
    case NNT_CIRCUIT_GATE_NOT:
      w[n->in[0]] -= 1;
      b[0] = 1;
      w2[u0] = 1;
      break;
    case NNT_CIRCUIT_GATE_AND:
    case NNT_CIRCUIT_GATE_NAND:
      for (int i = 0; i < m; i++) w[n->in[i]] += 1;
      b[0] = -(m - 1);
      if (t == NNT_CIRCUIT_GATE_AND) w2[u0] = 1;
      else w2[u0] = -1, B->b[k] = 1;
      break;
    case NNT_CIRCUIT_GATE_OR:
    case NNT_CIRCUIT_GATE_NOR:
      for (int i = 0; i < m; i++) w[n->in[i]] -= 1;
      b[0] = 1;
      if (t == NNT_CIRCUIT_GATE_NOR) w2[u0] = 1;
      else w2[u0] = -1, B->b[k] = 1;
      break;
    case NNT_CIRCUIT_GATE_XOR:
    case NNT_CIRCUIT_GATE_XNOR: {
      double sign = t == NNT_CIRCUIT_GATE_XOR ? 1 : -1;
      if (m == 2) {
        w[n->in[0]] += 1, w[n->in[1]] -= 1;
        w[in + n->in[0]] -= 1, w[in + n->in[1]] += 1;
        w2[u0] = w2[u0 + 1] = sign;
      } else {
        for (int j = 0; j < m; j++) {
          for (int i = 0; i < m; i++) w[(size_t)j * in + n->in[i]] += 1;
          b[j] = -j;
          w2[u0 + j] = sign * (j == 0 ? 1 : (j % 2 ? -2 : 2));
        }
      }
      if (t == NNT_CIRCUIT_GATE_XNOR) B->b[k] = 1;
      break;
    }
    default: break;
  }
}

void nnt_circuit_compile(const nnt_circuit_layered *L, int correct, nnt_mlp *net) {
  nnt_mlp_init(net);
  for (int l = 1; l <= L->depth; l++) {
    int nin = L->width[l - 1], nout = L->width[l], hid = 0;
    for (int k = 0; k < nout; k++) hid += hidden_units(&L->nodes[l][k]);
    nnt_mlp_layer *A = nnt_mlp_add(net, nin, hid, NNT_ACT_RELU);
    nnt_mlp_layer *B = nnt_mlp_add(net, hid, nout, NNT_ACT_RELU);
    A = &net->layers[net->nlayers - 2]; /* nnt_mlp_add may have moved the array */
    for (int k = 0, u = 0; k < nout; k++) {
      fill_node(&L->nodes[l][k], k, u, A, B);
      u += hidden_units(&L->nodes[l][k]);
    }
    if (correct && l < L->depth) { /* round(z) = relu(3z - 1) - relu(3z - 2), elementwise */
      nnt_mlp_layer *C = nnt_mlp_add(net, nout, 2 * nout, NNT_ACT_RELU);
      for (int k = 0; k < nout; k++) {
        C->W[(size_t)k * nout + k] = 3, C->b[k] = -1;
        C->W[(size_t)(nout + k) * nout + k] = 3, C->b[nout + k] = -2;
      }
      nnt_mlp_layer *D = nnt_mlp_add(net, 2 * nout, nout, NNT_ACT_RELU);
      for (int k = 0; k < nout; k++) D->W[(size_t)k * 2 * nout + k] = 1, D->W[(size_t)k * 2 * nout + nout + k] = -1;
    }
  }
}

nnt_circuit_verify_counts nnt_circuit_verify(const nnt_circuit *c, const nnt_mlp *net, int exhaustive_max,
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
    nnt_mlp_forward_batch(net, nb, X, Y);
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

void nnt_circuit_verify_cfg_default(nnt_circuit_verify_cfg *cfg, int quick) {
  (void)quick; /* one preset: exhaustive up to 2^20 inputs is seconds */
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
  if (!cfg->net) nnt_circuit_compile(&res->L, cfg->correct, &res->net);
  else if ((st = nnt_mlp_load(cfg->net, &res->net))) goto fail;
  if (nnt_mlp_input_dim(&res->net) != res->c.ninputs || nnt_mlp_output_dim(&res->net) != res->c.noutputs) {
    st = nnt_fail(NNT_EINVAL, "%s: the net maps %d inputs to %d outputs, the circuit %d to %d", cfg->net,
                  nnt_mlp_input_dim(&res->net), nnt_mlp_output_dim(&res->net), res->c.ninputs, res->c.noutputs);
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
  nnt_mlp_free(&res->net), nnt_circuit_layered_free(&res->L), nnt_circuit_free(&res->c);
}
