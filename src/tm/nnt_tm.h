/* nnt_tm.h — Turing machines: readers, a direct simulator, and the compiler of Wei, Chen & Ma
 * (seed 000, Section 4 / Appendix C) into an encoder-decoder transformer with hard-max attention,
 * binary positional encodings and rounding (correction) layers, run step by step.
 *
 * Conventions (documented in docs/circuits_tm.md, "Turing machines → transformers"):
 * - States 0..k-1 are the machine's (0 starts); state k is the halting/accepting state ("Z", "H",
 *   "accept", "halt"), state k+1 the rejecting one. Symbol 0 is the blank.
 * - The tape is two-way infinite; the input is written on cells 0..m-1, the head starts on cell 0.
 * - A halted machine stays: state, head and tape never change again (the paper's "loop in that
 *   state until T"). Reaching an undefined transition ("---") halts in state k without writing or
 *   moving (the bbchallenge convention); such a step is not counted as a transition.
 */
#ifndef NNT_TM_H
#define NNT_TM_H
#include <stddef.h>
#include <stdint.h>

#include "nnt_sweep.h" /* nnt_preset */

enum { NNT_TM_UNDEF = -1 };               /* rule.next of an undefined transition */
enum { NNT_TM_MAX_STATES = 64, NNT_TM_MAX_SYMBOLS = 64, NNT_TM_NAME = 32 };

typedef struct {
  int next;  /* 0..k-1, k (halt/accept), k+1 (reject) or NNT_TM_UNDEF */
  int write; /* symbol index */
  int move;  /* -1 left, +1 right, 0 stay */
} nnt_tm_rule;

typedef struct {
  int k, nsym;
  nnt_tm_rule *delta;                 /* [k * nsym], rule for (state z, read a) at z * nsym + a */
  int m;                              /* input length */
  int *input;                         /* [m] symbol indices */
  char state_name[NNT_TM_MAX_STATES + 2][NNT_TM_NAME];
  char sym_name[NNT_TM_MAX_SYMBOLS][NNT_TM_NAME];
} nnt_tm;

void nnt_tm_free(nnt_tm *tm);
/* The busy-beaver community's standard text notation, e.g. "1RB1LB_1LA1RZ": per state (separated
 * by '_'), per read symbol 0..n-1, a triple write-digit, move L/R, next state letter A.. (Z halts,
 * and H when H is not a state), or "---" (undefined). Errors: NNT_EFORMAT "where:col N: ...". */
int nnt_tm_parse_standard(const char *text, const char *where, nnt_tm *tm);
/* The multi-symbol text format (docs/circuits_tm.md):
 *   states: A B C          first is the start state
 *   symbols: _ 0 1 #       first is the blank; names without spaces
 *   input: 0 1 1           optional, symbol names separated by spaces
 *   A 0 -> 1 R B           state, read, write, move (L, R, S), next (a state, halt, accept, reject)
 * Lines whose first non-blank character is '#' are comments ('#' may be a symbol name). Pairs
 * without a rule are undefined. Errors: NNT_EFORMAT "where:LINE:COL: ...". */
int nnt_tm_parse_text(const char *text, const char *where, nnt_tm *tm);
/* A file in either format (the text format if it contains "states:"), or, when `arg` is not an
 * existing file and has no '.' or '/', `arg` itself in standard notation. */
int nnt_tm_load(const char *arg, nnt_tm *tm);
/* Replaces the input by `s`, one character per symbol (single-character symbol names only). */
int nnt_tm_set_input(nnt_tm *tm, const char *s);
/* Standard notation of a 2..10-symbol machine into buf (for reports). */
void nnt_tm_format_standard(const nnt_tm *tm, char *buf, size_t n);

/* ---- direct simulation ---- */
typedef struct {
  long T;
  int *state;     /* [T+1] state after step t (t = 0: start) */
  long *head;     /* [T+1] head cell after step t */
  int *sym;       /* [T+1] symbol under the head after step t */
  int *written;   /* [T+1] symbol written during step t (written[0] = -1) */
  long halt_step; /* number of transitions executed before halting; -1 if not halted by T */
  long ones;      /* non-blank cells at the end */
  long min_head, max_head;
} nnt_tm_trace;

int nnt_tm_simulate(const nnt_tm *tm, long T, nnt_tm_trace *tr);
void nnt_tm_trace_free(nnt_tm_trace *tr);

/* The long-run simulator (nnt tm run): a one-byte-per-cell tape grown on demand in both
 * directions, no per-step arrays, and it stops at the halt (a halted machine never changes), so a
 * run costs the cells it visits, not T. Same conventions and results as nnt_tm_simulate.
 * With every > 0 it also keeps the trace rows of steps 0, every, 2·every, ... and the last one
 * (at most NNT_TM_TRACE_MAX rows: NNT_EINVAL beyond, before any work). nnt tm run without --steps
 * runs to the halt, at most NNT_TM_RUN_DEFAULT_MAX steps (with a trace: as many as it can hold). */
enum { NNT_TM_TRACE_MAX = 10000000 };
typedef struct {
  long steps;                  /* steps simulated: T, or fewer when the machine halted first */
  long halt_step;              /* as nnt_tm_trace; -1 if not halted within T */
  long ones, min_head, max_head;
  long head;                   /* after step T (or at the halt) */
  int state;
  long nrows;                  /* trace rows kept */
  long *row_t, *row_head;      /* [nrows] */
  int *row_state, *row_sym, *row_written;
} nnt_tm_stream;
int nnt_tm_stream_run(const nnt_tm *tm, long T, long every, int progress, nnt_tm_stream *out);
void nnt_tm_stream_free(nnt_tm_stream *s);

/* ---- the compiled transformer ---- */
typedef struct { /* compressed sparse rows */
  int rows, cols, nnz;
  int *ptr, *idx;
  double *val;
} nnt_tm_csr;

typedef struct {   /* Attn(h, (h_1..h_i)) = h + mean_{j in argmax} v_j, with a null key/value */
  int dk;
  nnt_tm_csr Q, K, V; /* Q, K: [dk, w]; V: [w, w] */
  double *bq, *bk, *bv, *K0, *V0;
} nnt_tm_attn;

typedef struct { /* self-attention, encoder-decoder attention, FF = 3 ReLU layers */
  char name[48];
  int has_self, has_enc; /* an absent attention has all-zero parameters: it adds V0 = 0 */
  nnt_tm_attn self, enc;
  nnt_tm_csr W1, W2, W3; /* [h1, w], [h2, h1], [w, h2] */
  double *b1, *b2, *b3;
} nnt_tm_layer;

typedef struct { int st, sym1, sym2, pos1, pos2, pos3, scr1, scr2, scr3, scr4, mv; } nnt_tm_groups;

typedef struct {
  int k, nsym, nst; /* nst = k + 3: machine states, accept, reject, pre-start */
  int m, w, wpos, nlayers;
  long T, offset;   /* decoder steps T + 1; tape cell c is position c + offset */
  nnt_tm_groups g;
  double *E;        /* [nsym, w] encoder symbol embeddings (row per symbol) */
  double *h0;       /* [w] initial decoder input */
  double *cls;      /* [w] output weights theta_cls */
  nnt_tm_layer *layers;
  int probe_layer;  /* after this layer, sym2 holds the symbol written in the step */
} nnt_tm_net;

typedef struct {
  int w, layers, ff_hidden_max, max_width; /* max_width: widest vector in any module */
  int self_attn_layers, enc_attn_layers, wpos, dk_max;
  long nonzero;     /* stored non-zero parameters (shared over all steps) */
  long params_dense;/* parameters of the dense architecture F_{W,d} with W = max_width */
  double l1;        /* ||theta||_1 */
  double max_abs;
} nnt_tm_net_stats;

/* Compiles tm for T machine steps (T + 1 decoder steps: a pre-start step reads the first cell). */
int nnt_tm_compile(const nnt_tm *tm, long T, nnt_tm_net *net);
void nnt_tm_net_free(nnt_tm_net *net);
nnt_tm_net_stats nnt_tm_net_stats_of(const nnt_tm_net *net);

typedef enum { NNT_TM_HARD = 0, NNT_TM_SOFTMAX } nnt_tm_attention;
typedef enum { NNT_TM_F64 = 0, NNT_TM_F32 } nnt_tm_precision;

typedef struct {
  nnt_tm_attention attention;
  double beta;             /* softmax inverse temperature */
  nnt_tm_precision precision;
  int stop_on_mismatch;
  int progress;            /* progress on stderr (nnt_progress.h) */
} nnt_tm_run_opts;

typedef struct {
  long steps_checked, mismatches, first_mismatch; /* first_mismatch: machine step, -1 if none */
  char first_what[96];
  int nonbinary;           /* hard attention: some o_t entry was not exactly 0 or 1 */
  int output_sign;         /* sign of theta_cls^T o_T: +1 accept, -1 reject, 0 running */
  double output;           /* theta_cls^T o_T itself (the margin's decision function) */
  double seconds;
  size_t cache_bytes, weight_bytes;
  double step_us[10];      /* mean time per decoded step in ten equal windows of t */
  double min_score_gap;    /* smallest gap between the largest and second-largest attention score */
  double lambda;           /* largest ||h||_2 of any layer's output or hidden vector (Condition D.4) */
} nnt_tm_run_result;

/* Runs the compiled transformer for tr->T machine steps and compares, for every step t <= T, the
 * decoded state, head cell, symbol under the head and symbol written with the trace. */
int nnt_tm_net_run(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr,
                   const nnt_tm_run_opts *o, nnt_tm_run_result *res);

/* ---- Export (docs/export.md) ----
 * The net as a .safetensors file: dense float64 tensors (float32 for a float32 run) named by role (enc.embed, enc.input,
 * dec.h0, cls, dec.layers.L.{self_attn,enc_attn}.{W_Q,b_Q,W_K,b_K,W_V,b_V,k_null,v_null},
 * dec.layers.L.mlp.{W1,b1,W2,b2,W3,b3}) and __metadata__ kind = "tm-transformer", arch (JSON:
 * sizes, coordinate groups, positions, attention, precision, the machine's text and names),
 * nnt_version, command. python/nnt/tm.py runs it in PyTorch. */
typedef struct {
  int attention;                 /* nnt_tm_attention the net is meant to run with */
  double beta;                   /* softmax only */
  int precision;                 /* nnt_tm_precision */
  const char *version, *command; /* provenance, recorded as given (may be NULL) */
} nnt_tm_export_info;
int nnt_tm_export(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_export_info *info, const char *path);

/* Looking inside: decoder steps 1..steps run by a plain dense float64 forward pass (attention as
 * info says) that keeps everything, written to DIR/dump.safetensors (kind "tm-dump"): resid
 * [steps, 1 + layers, w] (the stream entering layer 0, then after each layer) and
 * dec.layers.L.{self,enc}_attn.pattern [steps, 1 + keys] (key 0 the null key). With pick, the
 * attention weights of machine step pick->step (decoder step + 1), one row per attention layer,
 * are returned for the report's heatmaps. NNT_EINVAL beyond NNT_TM_DUMP_MAX_STEPS. */
enum { NNT_TM_DUMP_MAX_STEPS = 2001 };
typedef struct {
  long step;                  /* in: the machine step (0..T) */
  int self_rows, self_cols;   /* out: attention layers x (null + decoder steps 1..step+1) */
  int enc_rows, enc_cols;     /* out: attention layers x (null + input cells) */
  double *self, *enc;         /* row-major */
  int *self_layer, *enc_layer;/* the layer of each row */
} nnt_tm_dump_step;
int nnt_tm_dump(const nnt_tm_net *net, const nnt_tm *tm, long steps, const nnt_tm_export_info *info, const char *dir,
                nnt_tm_dump_step *pick);
void nnt_tm_dump_step_free(nnt_tm_dump_step *p);

/* ---- All-layer margin (eq. 2.1 of Wei, Chen & Ma) of the decision sign(theta_cls^T o_T) ----
 * Perturbations delta act on every parameter of the dense architecture F_{W,d} that
 * nnt_tm_net_stats_of counts (W = max_width: zeros and the padding up to W included), shared by
 * all T + 1 decoder steps; the margin is the smallest ||delta||_2 with s * F(theta + delta) <= 0,
 * s = sign F(theta). A machine that has not halted by T has F = 0: margin 0.
 *
 * nnt_tm_margin_certify: bound propagation through the encoder and all T + 1 steps for every
 * delta with ||delta||_2 <= eps. Each vector is a box plus an l2 ball (the ball over all W
 * coordinates, padding included): a dense map (A + dA) x + (b + db) adds the ball
 * eps sqrt(max ||x||^2 + 1) (||(dA, db)||_F <= eps) and takes x's ball through A (spectral-norm
 * bound) or onto each row's box (||A_i||_2); E's row, h0, K0, V0 and theta_cls add balls of radius
 * eps; ReLU keeps the ball where a coordinate stays on one side and the box hull{0, c - r, c + r}
 * (or [0, hi] alone) where it may cross 0; the FF's rounding pairs are bounded jointly; hard-max
 * attention keeps every key whose score can reach the largest lower bound (null key included; a
 * score's radius is bounded part by part, the ball parts with l2 norms) and the hull of their
 * values with the largest value ball. Every radius is widened by 1e-12 of the magnitudes involved,
 * which covers double rounding in sums of up to ~9000 terms. [lo, hi] encloses theta_cls^T o_T;
 * returns 1 when it excludes 0 with F's sign. Monotone in eps. */
int nnt_tm_margin_certify(const nnt_tm_net *net, const nnt_tm *tm, double eps, double *lo, double *hi);
/* The same, with every attention's tree walk checked against a linear scan over all its keys (the
 * walk's best lower bound is some key's, every key that can reach it is inside the value hull);
 * *contradictions counts the walks that fail (0 when the tree is right). For tests: O(T^2). */
int nnt_tm_margin_certify_checked(const nnt_tm_net *net, const nnt_tm *tm, double eps, double *lo, double *hi,
                                  long *contradictions);
/* The certified lower bound: the largest eps (bisected to a relative 1e-3) that certify accepts;
 * 0 when F(theta) = 0. Costs ~20 propagations. Each attention keeps its keys in a tree of hulls
 * over the steps, so a step costs O(log t) nodes where one key (or a run of equal keys) wins, not
 * O(t): a propagation is about linear in T (BB(4), T = 10^4: ~7 s CPU). The tree holds ~2 T
 * (2 dk + 2) doubles per layer: NNT_EINVAL above NNT_TM_MARGIN_MAX_T steps (before any work). */
enum {
  NNT_TM_MARGIN_MAX_T = 10000,
  NNT_TM_MARGIN_PROBES = 16,     /* the attack's probe steps up to NNT_TM_MARGIN_ATTACK_T */
  NNT_TM_MARGIN_ATTACK_T = 1000, /* above: each checked run costs O(T^2); NNT_TM_MARGIN_LONG_PROBES probe steps, */
  NNT_TM_MARGIN_LONG_PROBES = 1, /* (the last step) only (e), the NNT_TM_MARGIN_LONG_DIRS directions with the smallest */
  NNT_TM_MARGIN_LONG_DIRS = 2    /* first-order flip, 8 bisection steps instead of 12 */
};
int nnt_tm_margin_lower(const nnt_tm_net *net, const nnt_tm *tm, double *rho);

/* Upper bounds: explicit perturbations of the stored parameters, each run through
 * nnt_tm_net_run and counted only if the decision flips there. (a) theta_cls moved along
 * -s o_T by |F| / ||o_T||_2 (1 + 1e-6); (b) bisection, below the best so far, along the last
 * layer's output bias b3 in the direction -s theta_cls; (c) up to NNT_TM_MARGIN_ATTACK_T steps,
 * at NNT_TM_MARGIN_PROBES steps spread over the run, for every attention: the gradient of the score
 * difference between the selected key and the best other one (null key included) over the stored
 * query and key parameters, and over the key parameters alone, each bisected like (b); (e) the
 * same difference through the query's input: the FF output of the layer before, W3 along v u2^T
 * and b3 along v (v = Q^T (k_other - k_selected), u2 that FF's hidden layer at the probe step; W3
 * stored densely for this, zeros included as F_{W,d} has them; above NNT_TM_MARGIN_ATTACK_T only
 * these, see the enum above); and along `ndirs` random unit
 * directions over all stored parameters (one RNG stream each). */
typedef struct {
  double rho;      /* smallest checked flipping ||delta||_2 (INFINITY: none) */
  double rho_cls;  /* (a) alone (INFINITY if it did not flip) */
  int flips;       /* flipping perturbations found */
  long runs;       /* forward passes */
  char how[80];    /* the direction that gave rho */
} nnt_tm_margin_est;
int nnt_tm_margin_upper(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, int ndirs, uint64_t seed,
                        nnt_tm_margin_est *est);

/* ---- The experiments of nnt tm (run: simulate; compile: compile, run and check) ----
 * `machine` as nnt_tm_load takes it; `input` (optional) replaces its input. steps < 0: the halting
 * step when the machine halts within 10^4 steps (NNT_EINVAL otherwise); max_steps > 0 caps T. */
typedef struct {
  const char *machine, *input;
  long steps, max_steps;
  int attention;   /* nnt_tm_attention */
  double beta;     /* softmax only, > 0 */
  int precision;   /* nnt_tm_precision */
  int beta_search; /* also the smallest exact softmax beta, f64 and f32 */
  long trace_every; /* run: keep every K-th step's row for trace.csv (0: none) */
  const char *export_path;       /* compile: the net as .safetensors (nnt_tm_export), or NULL */
  const char *dump_dir;          /* compile: residuals and attention of every step (nnt_tm_dump), or NULL */
  long dump_step;                /* compile: the machine step whose attention the report draws (-1: T) */
  const char *version, *command; /* compile: provenance recorded in the export */
} nnt_tm_cfg;
/* nnt tm run without --steps: until the machine halts, at most this many steps */
#define NNT_TM_RUN_DEFAULT_MAX 10000000000L

/* The one place of the defaults; quick caps T at 200. */
void nnt_tm_cfg_default(nnt_tm_cfg *cfg, nnt_preset preset);

typedef struct {
  nnt_tm tm;
  nnt_tm_stream run;
  long T;
  double seconds;
} nnt_tm_sim_result;

/* The run's checks before any work (the machine read, the input set), NNT_EINVAL/EFORMAT as the run. */
int nnt_tm_sim_check(const nnt_tm_cfg *cfg);
int nnt_tm_sim_run(const nnt_tm_cfg *cfg, nnt_tm_sim_result *res);
void nnt_tm_sim_result_free(nnt_tm_sim_result *res);

typedef struct {
  nnt_tm tm;
  nnt_tm_net_stats s;
  nnt_tm_run_result r;
  long T, halt_step;
  /* beta_search: smallest exact softmax beta (relative precision 1e-3; -1 if above 1e6), and a
   * beta above it that was not exact (0: exact at 2x, 8x and 64x, as monotonicity predicts) */
  double beta64, beta32, not_monotone;
  double compile_s, peak_rss_mb;
  nnt_tm_dump_step dump;   /* with cfg->dump_dir: the chosen step's attention weights */
} nnt_tm_compile_result;

/* Compiles, runs the transformer (cfg's attention and precision) and checks every step against
 * the simulation; mismatches are a result (r.mismatches), not an error. */
int nnt_tm_compile_check(const nnt_tm_cfg *cfg);
int nnt_tm_compile_run(const nnt_tm_cfg *cfg, nnt_tm_compile_result *res);
void nnt_tm_compile_result_free(nnt_tm_compile_result *res);

/* ---- nnt bounds sm --tm: what Lemma 2.3 and Theorem 4.1 take from a compiled machine ----
 * The machine compiled for T steps, run and checked against the simulation; its all-layer margin
 * (eq. 2.1): certified lower bound by box and l2-ball bound propagation (T <= NNT_TM_MARGIN_MAX_T), attacked
 * upper bound by checked perturbations (random directions only up to the cap); then the net's
 * sizes for T = 10, 100, ..., 1e15, with the certified margin of each up to cert_max. The bounds'
 * formulas (nnt_bounds.h) are applied by the report: an area depends on core only. */
enum { NNT_TM_SM_SWEEP = 15 };
typedef struct {
  const char *machine;
  long T;        /* machine steps (> 0) */
  long cert_max; /* the T sweep certifies the margin up to this T (0: not at all) */
  uint64_t seed; /* the attack's random directions */
} nnt_tm_sm_cfg;

typedef struct {
  int k, nsym;
  nnt_tm_net_stats s;     /* the net compiled for T */
  nnt_tm_run_result r;    /* its checked run (steps_checked, mismatches, score gap, lambda, output) */
  int certified;          /* T <= NNT_TM_MARGIN_MAX_T: rho_lower was computed */
  double rho_lower;       /* certified lower bound on the margin */
  nnt_tm_margin_est upper;
  double margin_s;        /* seconds spent on the two margin bounds */
  int nsweep;
  double sweep_T[NNT_TM_SM_SWEEP];
  nnt_tm_net_stats sweep_s[NNT_TM_SM_SWEEP];
  double sweep_rho[NNT_TM_SM_SWEEP]; /* certified margin at that T (> 0), or -1: none */
} nnt_tm_sm_result;

/* The machine read (NNT_EINVAL/EFORMAT as nnt_tm_load) and T > 0, before any work. */
int nnt_tm_sm_check(const nnt_tm_sm_cfg *cfg);
int nnt_tm_sm_run(const nnt_tm_sm_cfg *cfg, nnt_tm_sm_result *res);

#endif
