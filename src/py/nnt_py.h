/* nnt_py.h — typed entry points for a foreign-function caller (python/nnt/native.py, through ctypes):
 * opaque handles, plain arrays and scalars only, so the caller needs no struct layout. Arrays are the
 * caller's (numpy buffers, C order): inputs are read in place, outputs written in place.
 *
 * Every function returns an nnt status (nnt_error.h) with nnt_errmsg() set on failure, opens an
 * out-of-memory recovery point (NNT_ENOMEM instead of ending the host) and never exits. Exported by
 * libnnt_cli.so beside nnt_cli_run (cmake/libnnt_cli.map). Not thread-safe on one handle. */
#ifndef NNT_PY_H
#define NNT_PY_H
#include <stdint.h>

/* ---- Turing machines (src/tm) ---- */
typedef struct nnt_py_tm nnt_py_tm;
/* machine: a file (.tm text format or standard notation) or standard notation itself
 * ("1RB1LB_1LA1RZ"); input: the input's symbols as one string of symbol names, or NULL/"" for
 * none. */
int nnt_py_tm_load(const char *machine, const char *input, nnt_py_tm **out);
void nnt_py_tm_free(nnt_py_tm *m);
/* states k (the halting state is k, the rejecting one k + 1), symbols, input length */
int nnt_py_tm_sizes(const nnt_py_tm *m, int *states, int *symbols, int *input_len);
/* names as in the machine file: state i in 0..k+1, symbol i in 0..symbols-1 (NULL beyond) */
const char *nnt_py_tm_state_name(const nnt_py_tm *m, int i);
const char *nnt_py_tm_symbol_name(const nnt_py_tm *m, int i);
/* Runs up to T steps (stops at the halt; the long-run simulator of nnt tm run, no per-step
 * arrays). out[7]: steps simulated, halt step (-1: not halted), non-blank cells, lowest and highest
 * head cell, head cell and state at the end. */
int nnt_py_tm_run(const nnt_py_tm *m, long T, long out[7]);
/* Every step t = 0..T (direct simulation): state, head cell, symbol under the head after step t and
 * symbol written at step t (write[0] = -1), into the caller's arrays of T + 1 entries. *halt_step
 * as in nnt_py_tm_run. NNT_EINVAL for T beyond 10^7 (a trace that size: use nnt_py_tm_run). */
int nnt_py_tm_trace(const nnt_py_tm *m, long T, int *state, long *head, int *read, int *write, long *halt_step);
/* Compiles the machine for T steps into the transformer (hard-max attention, float64) and writes it
 * as .safetensors at path (docs/export.md); *params receives its non-zero parameters. */
int nnt_py_tm_compile(const nnt_py_tm *m, long T, const char *path, long *params);

/* ---- feed-forward nets (nnt-mlp and nnt-mlp-sparse, src/core) ---- */
typedef struct nnt_py_net nnt_py_net;
int nnt_py_net_load(const char *path, nnt_py_net **out);
void nnt_py_net_free(nnt_py_net *n);
/* inputs, outputs, layers, stored weights + biases */
int nnt_py_net_sizes(const nnt_py_net *n, int *inputs, int *outputs, int *layers, long *params);
/* Y[B, outputs] = net(X[B, inputs]), float64: the sparse batched forward pass of circuit verify. */
int nnt_py_net_forward(const nnt_py_net *n, long B, const double *X, double *Y);
/* .nnt-mlp-sparse (or .safetensors by extension: docs/export.md) */
int nnt_py_net_save(const nnt_py_net *n, const char *path);

/* ---- Boolean circuits (src/circuits) ---- */
typedef struct nnt_py_circuit nnt_py_circuit;
/* .bench, .blif or .aag (nnt circuit's readers) */
int nnt_py_circuit_read(const char *path, nnt_py_circuit **out);
void nnt_py_circuit_free(nnt_py_circuit *c);
int nnt_py_circuit_sizes(const nnt_py_circuit *c, int *inputs, int *outputs, int *gates, int *depth);
/* name of input i / output j in declaration order */
const char *nnt_py_circuit_input_name(const nnt_py_circuit *c, int i);
const char *nnt_py_circuit_output_name(const nnt_py_circuit *c, int j);
/* Direct evaluation: Y[B, outputs] for X[B, inputs], bytes 0/1 (NNT_EINVAL on another value). */
int nnt_py_circuit_eval(const nnt_py_circuit *c, long B, const uint8_t *X, uint8_t *Y);
/* The ReLU net of nnt circuit compile (sparse; with correction layers when correct). */
int nnt_py_circuit_compile(const nnt_py_circuit *c, int correct, nnt_py_net **out);
/* nnt circuit verify's comparison: every input when inputs <= exhaustive_max, else `samples` random
 * inputs from seed. out[3]: vectors checked, vectors with a wrong output, exhaustive (0/1);
 * *max_abs_err over all outputs. NNT_EINVAL when the net's shape is not the circuit's. */
int nnt_py_circuit_verify(const nnt_py_circuit *c, const nnt_py_net *net, int exhaustive_max, long samples,
                          uint64_t seed, long out[3], double *max_abs_err);

/* ---- the in-context GD construction of seed 003 (src/icl; where the icl area is built) ----
 * Its parameters as nnt icl construct's options: ints N, K, dx, dy (the network), n (examples),
 * steps, M (ReLU pieces); reals R, eta, B, gate, w0_std, teacher_std; act an index of
 * nnt_icl_act_names ("identity", "sigmoid", ...). */
enum { NNT_PY_ICGD_INTS = 7, NNT_PY_ICGD_REALS = 6, NNT_PY_ICGD_STEP_COLS = 9, NNT_PY_ICGD_SUMMARY = 6 };
/* the defaults of the quick (quick = 1) or full preset; names[i] of the activations, NULL past the last */
int nnt_py_icgd_defaults(int quick, int *act, int ints[NNT_PY_ICGD_INTS], double reals[NNT_PY_ICGD_REALS]);
const char *nnt_py_icgd_act_name(int i);
/* D, the length of the network's weight vector (w_tf and w_gd below) */
int nnt_py_icgd_params(int act, const int ints[NNT_PY_ICGD_INTS], long *D);
/* Runs the construction on a prompt drawn from seed, comparing its forward pass with projected GD.
 * per_step[steps, 9]: err2, errinf, grad_err, loss_tf, loss_gd, pred_tf, pred_gd, grad_bound,
 * err_bound (NaN where Theorem 1 does not cover the activation); summary[6]: max_err (‖·‖∞),
 * max_err2, max_bound, bound_ok, ‖w_GD‖₂, seconds; w_tf and w_gd [D]: the final weights. */
int nnt_py_icgd_run(int act, const int ints[NNT_PY_ICGD_INTS], const double reals[NNT_PY_ICGD_REALS], uint64_t seed,
                    double *per_step, double summary[NNT_PY_ICGD_SUMMARY], double *w_tf, double *w_gd);

#endif
