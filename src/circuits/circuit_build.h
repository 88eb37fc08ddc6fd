/* circuit_build.h — private to src/circuits: the builder the three readers share (signals are
 * interned by name; gates are defined once; finishing checks for undefined signals and cycles
 * and stores the gates in topological order), and two helpers the margin bounds share. */
#ifndef NNT_CIRCUIT_BUILD_H
#define NNT_CIRCUIT_BUILD_H
#include <stddef.h>

#include "nnt_circuits.h"

typedef struct {
  const char *file;
  int n, cap;
  nnt_circuit_gate_type *type;
  int *nin, **in;
  char **name;
  int *def_line, *use_line; /* def_line 0: used but not (yet) defined */
  int *ht, htcap;           /* open addressing: signal index + 1, 0 = empty */
  int ninputs, incap, *inputs;
  int noutputs, outcap, *outputs, *out_line;
  int anon;                 /* counter for generated gate names */
} nnt_circuit_cbuild;

void nnt_circuit_cb_init(nnt_circuit_cbuild *b, const char *file);
void nnt_circuit_cb_free(nnt_circuit_cbuild *b);
/* The signal called name[0..len), created on first use (line = where it was first used). */
int nnt_circuit_cb_sig(nnt_circuit_cbuild *b, const char *name, size_t len, int line);
/* Defines signal s as a gate; NNT_EFORMAT if s is already defined. */
int nnt_circuit_cb_define(nnt_circuit_cbuild *b, int s, nnt_circuit_gate_type t, int nin, const int *in, int line);
/* A fresh gate with a generated name "<base>#<k>". */
int nnt_circuit_cb_gate(nnt_circuit_cbuild *b, const char *base, nnt_circuit_gate_type t, int nin, const int *in, int line);
int nnt_circuit_cb_input(nnt_circuit_cbuild *b, int s, int line);
void nnt_circuit_cb_output(nnt_circuit_cbuild *b, int s, int line);
/* Checks and moves everything into c (b is freed either way). */
int nnt_circuit_cb_finish(nnt_circuit_cbuild *b, nnt_circuit *c);

/* sqrt(||W||_1 ||W||_inf), an upper bound on the spectral norm ||W||_2 of layer L's matrix. */
double nnt_circuit_opnorm_bound_csr(const nnt_smlp_layer *L);
/* The paper's readout (proof of Theorem 3.1): appends z -> 2 z_j - 1 (identity activation). */
void nnt_circuit_add_readout(nnt_mlp *net, int j);

#endif
