/* nnt bounds sm --circuit: the measured inputs of Lemma 2.3 / Theorem 3.1 for one circuit (nnt_circuits.h). */
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_error.h"

int nnt_circuit_sm_check(const nnt_circuit_sm_cfg *cfg) {
  if (!cfg->file) return nnt_fail(NNT_EINVAL, "no circuit");
  nnt_circuit c;
  int st = nnt_circuit_read(cfg->file, &c);
  if (!st) nnt_circuit_free(&c);
  return st;
}

int nnt_circuit_sm_run(const nnt_circuit_sm_cfg *cfg, nnt_circuit_sm_result *r) {
  memset(r, 0, sizeof *r);
  nnt_circuit c;
  int st = nnt_circuit_read(cfg->file, &c);
  if (st) return st;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_mlp net;
  nnt_mlp_init(&net);
  nnt_circuit_compile(&L, 1, &net);
  nnt_smlp sp;
  nnt_smlp_from_dense(&sp, &net);
  r->v = nnt_circuit_verify(&c, &sp, 16, 20000, cfg->seed);
  nnt_smlp_free(&sp);
  r->s = nnt_mlp_stats_of(&net);
  r->ninputs = c.ninputs, r->depth = L.depth, r->width_max = L.width_max, r->size = L.size, r->id_gates = L.id_gates;
  r->lambda = nnt_circuit_net_lambda(&net, c.ninputs, cfg->seed);
  /* proven over every input when m <= 8, else over 64 random ones: a proof at those inputs only */
  r->certified = nnt_circuit_margin_certified(&net, c.ninputs, cfg->seed, &r->certified_count);
  nnt_mlp_free(&net);
  nnt_circuit_layered_free(&L);
  nnt_circuit_free(&c);
  return NNT_OK;
}
