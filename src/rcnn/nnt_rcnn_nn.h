/* nnt_rcnn_nn.h — seed 002's RCNN as a real ReLU network (spec §3.1, §4.4, §4.8, §7 items 4–5):
 * the structured "default + corrections" compiler that turns f̄_Conv2D into one sparse
 * 3-affine / 2-ReLU MLP per cell, the 4-ReLU head, and the Definition-5 network built from them —
 * forward pass with the weights shared over cells and layers, reverse-mode backprop to W only, and
 * Algorithm 1 with real float64 gradients. The rule-level automaton (nnt_rcnn_rule.h) is its
 * reference, never its implementation: the compiler reads only the machine δ and the codec.
 *
 * The cell MLP (Definition-5 layout, input the 3×3 patch row-major, out-of-grid entries p = 1/6):
 *   h1 = σ(V1·patch + b1)      V1: H1×9, one weight 1 per row; the 4 diagonal columns are empty
 *   ft = V3·h1                 V3: NF×H1, the features (no bias, no ReLU: V4·V3 is one affine map)
 *   h2 = σ(V4·ft + b4)         V4: H2×NF
 *   out = V5·h2                V5: 1×H2
 * Layer 1 holds 4 ReLUs σ(x_pos − b) per position (centre, up, down, left, right) and value v of
 * the universe (nnt_rcnn_tern_universe; p for the neighbours only), breakpoints v−2Δ, v−Δ, v+Δ,
 * v+2Δ with Δ = 0.05·3^-K. A feature is the flat bump ψ_v (Lemma 5's ψ^(0): 1 on (v−Δ, v+Δ), 0
 * beyond v±2Δ), so at a domain point exactly one indicator per position is 1 and all are locally
 * constant; two more features pass σ(c − (v−Δ)) through for v = −1/9 and 0, the centre values
 * whose rules carry ∂/∂x00 = 1. Layer 2 holds one unit per term of a first-match decision list
 * compiled into disjoint conjunctions of "x_pos ∈ S_pos": σ(Σ_pos [x_pos ∈ S_pos] − k + ½), k the
 * constrained positions, weight 2y in V5 — one default term per centre value (its value when no
 * rule fires) plus correction terms (f̄_msg rules 1–4, the head's blocked move, a receiving cell's
 * head) worth the difference. A term with slope 1 adds σ(c − (v−Δ) + 4(Σ − k)), weight 1, so
 * ∂out/∂x00 is exactly 1 in floating point and the memorisation identity does not drift over L
 * layers. Every neighbour partial is exactly 0 at domain points (the bumps are flat there).
 *
 * On the box |x − x0| < Δ around a domain point x0 the MLP is affine (no breakpoint inside), so
 * the optional patch cache — an acceleration, off by default — stores value and gradient at x0
 * and returns value + gradient·(x − x0); a hit and a miss return the same numbers.
 */
#ifndef NNT_RCNN_NN_H
#define NNT_RCNN_NN_H
#include <stdint.h>

#include "nnt_rcnn_rule.h"

typedef struct {
  int rows, cols, nnz;
  int *rp, *ci; /* CSR */
  double *v;
} nnt_rcnn_csr;
typedef struct {
  nnt_rcnn_csr *m;
  int cap;
} nnt_rcnn_csr_b; /* builds a CSR row by row: add entries, then close the row */
void nnt_rcnn_csr_begin(nnt_rcnn_csr_b *b, nnt_rcnn_csr *m, int cols);
void nnt_rcnn_csr_add(nnt_rcnn_csr_b *b, int col, double v);
void nnt_rcnn_csr_row(nnt_rcnn_csr_b *b);
void nnt_rcnn_csr_free(nnt_rcnn_csr *m);

typedef struct {
  nnt_rcnn_tern tern;     /* the codec the compiler used (K from the machine's state count) */
  int nvals;              /* the universe in ascending order, p (1/6) included in its place */
  int32_t *vals;
  double delta;
  int h1, nf, h2;         /* widths: layer-1 ReLUs, features, layer-2 ReLUs */
  int nind, nterms, nslope; /* indicators, terms (rule units), slope units */
  nnt_rcnn_csr V1, V3, V4;
  double *b1, *b4, *v5;
  double hu[4], hb[4], hw[4], hc; /* head g(u) = hc + Σ hw_j σ(hu_j u + hb_j) */
  int v3_pairs;                   /* V3 row r holds columns 2r, 2r+1 (a faster loop, the same sums) */
} nnt_rcnn_cnet;

/* Compiles tm's f̄_Conv2D; NNT_EINVAL for a machine that fails its check. */
int nnt_rcnn_cnet_compile(nnt_rcnn_cnet *n, const nnt_rcnn_tm2d *tm);
void nnt_rcnn_cnet_free(nnt_rcnn_cnet *n);
/* Workspace floats a thread needs for one cell (forward and backward). */
int nnt_rcnn_cnet_ws(const nnt_rcnn_cnet *n);
/* out = MLP(patch[9]); grad (may be NULL) = ∂out/∂patch[9] by reverse mode. ws: cnet_ws doubles. */
double nnt_rcnn_cnet_cell(const nnt_rcnn_cnet *n, const double *patch, double *grad, double *ws);
/* The head's 4-ReLU net and its derivative (σ'(0) = 0). */
double nnt_rcnn_cnet_head(const nnt_rcnn_cnet *n, double u, double *slope);
/* Nonzero weights and biases in all maps, head included, and how many distinct values they take
 * (compared exactly: the finite weight-value set). */
void nnt_rcnn_cnet_stats(const nnt_rcnn_cnet *n, long *nonzeros, long *nvalues);

/* ---- the Definition-5 network over a grid */
typedef struct {
  const nnt_rcnn_cnet *cn;
  const nnt_rcnn_rule_net *ref; /* the rule level: each evaluated patch is checked against f̄ */
  int m, d, work, rows, cols, L;
  int cache;            /* patch cache on (an acceleration) */
  double *W;            /* (m+1)×(d+1) */
  double *Z;            /* (L+1)×rows×cols, every layer's grid (the backward pass reads them) */
  double *adj, *adj2;   /* rows×cols */
  double *jac;          /* rows×cols×5: a layer's local Jacobians in the backward pass */
  double *ws;           /* threads × cnet_ws */
  int nthreads;         /* at most 64; 1 with the cache; a layer runs in parallel from 1024 cells */
  void *tab;            /* the cache */
  long ncache, nlookup, nhit;
  long nchecked;        /* patch evaluations compared with f̄ (with the cache: distinct patches) */
  double max_verr, max_gerr; /* against f̄'s value and its ∂/∂x00 flag, neighbour partials 0 */
  long offgrid;         /* patches that did not snap to the value grid (must stay 0) */
} nnt_rcnn_nn;

/* NNT_EINVAL when the stored layers would exceed 4 GiB or sizes are bad (before allocating). */
int nnt_rcnn_nn_init(nnt_rcnn_nn *net, const nnt_rcnn_cnet *cn, const nnt_rcnn_rule_net *ref, int m, int d, int work, int L,
                     int cache);
void nnt_rcnn_nn_free(nnt_rcnn_nn *net);
/* Memory layer X = W·diag([x, 1]), the 1s region, L layers, f = Σ over the main grid of g. */
double nnt_rcnn_nn_forward(nnt_rcnn_nn *net, const signed char *x);
/* After a forward pass: dW = ∂f/∂W ((m+1)×(d+1)) by reverse mode through the L layers. */
void nnt_rcnn_nn_backward(nnt_rcnn_nn *net, const signed char *x, double *dW);
/* Algorithm 1 with real gradients (W = 0, one pass, dummy last, η = 1/54); f[i] the output at step
 * i (m+1 entries, may be NULL). */
void nnt_rcnn_nn_train(nnt_rcnn_nn *net, const signed char *X, const signed char *y, double *f);
/* max |W − (1/3)[y·x, y]| (dummy row (1/3)[1_d, 1]). */
double nnt_rcnn_nn_w_err(const nnt_rcnn_nn *net, const signed char *X, const signed char *y);

/* The RCNN as a learner (the parity benchmark): learner `name` inside the RCNN, L from the direct
 * TM's largest step count over the n queries xs, Algorithm 1 on (X, y), then pred[j] (±1, 0 when f
 * is not ±1) and the direct TM's output tm_out[j] per query. nn: the compiled network with the
 * patch cache, else the rule level. */
int nnt_rcnn_learn_points(const char *name, int nn, int m, int d, const signed char *X, const signed char *y, int n,
                          const signed char *xs, int *pred, int *tm_out);

/* ---- Corollary 2's restarts and validation (Algorithm 2's argmin selection), run (restarts.c).
 * Toy: a restart draws the RCNN's learner uniformly from the K bundled TMs, runs Algorithm 1 and
 * predicts at rule level; it succeeds when its exact population error (all 2^d inputs) is within
 * eps/2 of the best of the K on the trial's data (opt), so p >= 1/K whatever the data. M and N are
 * the corrected formulas (spec §6): M = ceil(ln(2/delta) / p), so (1-p)^M <= delta/2, and
 * N = ceil(2 ln(2M/delta) / eps^2), so the argmin over N validation points is within eps of the
 * best restart with probability >= 1 - delta/2. Each trial draws a parity (d, m; stream 0 of
 * seed*1000003 + trial), N validation points, runs the K learners once (a restart with the same
 * learner gives the same hypothesis) and then the wrapper `seqs` times. */
typedef struct {
  int d, m;
  double eps, delta;
  int trials, seqs;
  long restarts, validation; /* 0: Corollary 2's M and N; else these (to watch too few fail) */
  uint64_t seed;
} nnt_rcnn_restarts_cfg;
void nnt_rcnn_restarts_cfg_default(nnt_rcnn_restarts_cfg *c, nnt_preset preset);
typedef struct {
  int K;
  double p_lb;            /* 1/K */
  long M, N, M_formula, N_formula;
  long seqs, learner_ok, opt_zero, disagree; /* wrapper runs; successful (trial, learner) pairs; trials with opt = 0; RCNN != TM */
  double p_hat;           /* restarts that succeeded */
  double q_hat, q_exact;  /* runs with no successful restart; its expectation, mean over trials of (1 - s/K)^M */
  double select_hat;      /* runs whose selected restart is more than eps worse than their best restart */
  double fail_hat;        /* runs whose output is more than eps worse than opt: Corollary 2's failure, <= delta */
  int p_ok, q_ok, select_ok, fail_ok; /* each within 4 binomial standard deviations (+1/n) of its bound */
  double seconds;
} nnt_rcnn_restarts_result;
int nnt_rcnn_restarts_run(const nnt_rcnn_restarts_cfg *c, nnt_rcnn_restarts_result *r);

/* ---- the paper's generic compiler (Lemma 5, with Lemma 6's split into five linear maps), for a
 * small finite domain X ⊂ ℝ^{d_in}: values f (|X|×d_out) and partials g (|X|×d_out×d_in) matched
 * on X exactly as the proof builds them: Δ = min(1, smallest gap of X_i)/10; W1: 5 ReLUs per
 * (coordinate i, γ ∈ {0,1}, x0 ∈ X_i) at ζ0, x0±Δ, x0±2Δ; W1′: the bumps ψ_{x0}^(γ); W1⁺: per
 * (x0 ∈ X, output j, i′) the sum Σ_i ψ_{(x0)_i}^([i=i′])(x_i) into 3 ReLUs at ζ0′, d_in−2Δ, d_in−Δ;
 * W2′: the thresholds τ with value f(x0)_j·[i′=1] and slope g(x0, j, i′); W2⁺: the sums. ReLUs
 * after W1 and W1⁺. X_i is the set of values of every coordinate (Lemma 6). */
typedef struct {
  int din, dout, npts, nxi;
  double *xi;           /* X_i, ascending */
  double delta, zeta0, zeta0t;
  nnt_rcnn_csr W1, W1p, W1plus, W2p, W2plus;
  double *b1, *b1p, *b1plus, *b2p, *b2plus;
} nnt_rcnn_lemma5;
/* X: npts distinct points (row-major); NNT_EINVAL when d_in·d_out·|X| > 1e7. */
int nnt_rcnn_lemma5_build(nnt_rcnn_lemma5 *n, int din, int dout, int npts, const double *X, const double *f, const double *g);
void nnt_rcnn_lemma5_free(nnt_rcnn_lemma5 *n);
/* out (d_out) at x; jac (d_out × d_in, may be NULL) by forward mode through the five maps. */
void nnt_rcnn_lemma5_eval(const nnt_rcnn_lemma5 *n, const double *x, double *out, double *jac);
/* Lemma 6: the sets U(W) for W1, W1′, W1⁺, W2′, W2⁺ built from (X_i, Y_i, G) alone, their sizes
 * against the lemma's bounds, and whether every nonzero weight and bias of each map is in its set. */
typedef struct {
  long size[5], bound[5], nnz[5];
  int within[5];
} nnt_rcnn_lemma6;
void nnt_rcnn_lemma6_check(const nnt_rcnn_lemma5 *n, int nyi, const double *yi, int ng, const double *G, nnt_rcnn_lemma6 *r);

/* ---- nnt rcnn compile: the compiled net checked on every patch a small roll-out visits */
typedef struct {
  const char *learner; /* a bundled learner's name or a .tm2d file (nnt_rcnn_tm2d_learner_open) */
  int d, m, tests;
  int compiler;     /* 0: structured (default + corrections); 1: the paper's Lemma 5/6 on the visited patches */
  uint64_t seed;
  const char *export_path, *version, *command; /* --export FILE (structured only): nnt_rcnn_cnet_export */
} nnt_rcnn_compile_cfg;
void nnt_rcnn_compile_cfg_default(nnt_rcnn_compile_cfg *c, nnt_preset preset);
/* The config's sizes, compiler and export path (NNT_EINVAL with one line), before any work. */
int nnt_rcnn_compile_check(const nnt_rcnn_compile_cfg *c);

/* The compiled network as .safetensors or .onnx (docs/export.md), kind "rcnn-cell": the cell MLP as
 * four CSR layers on the 3x3 patch row-major (x [batch, 9] -> y [batch, 1]): V1 + b1, ReLU; V3, no
 * bias; V4 + b4, ReLU; V5. The .safetensors file also holds the head g(u) = c + sum_j w_j relu(u_j u
 * + b_j) ("head.u", "head.b", "head.w" [4], "head.c" [1]) and the reference the command checked
 * the net against: "check.patches" [n, 9] (every distinct patch the rule-level roll-outs visited,
 * the unread diagonal entries 0), "check.values" [n] and "check.grad00" [n] (f̄'s value and its
 * ∂/∂x00 flag there). __metadata__: learner, the codec (K, 3^K, Δ, p = 1/6) and the grid layout in
 * "rcnn", nnt_version, command (meta: more key, value pairs, NULL-terminated). */
int nnt_rcnn_cnet_export(const nnt_rcnn_cnet *cn, const char *learner, long n, const double *patches, const double *values,
                         const double *grad00, const char *const *meta, const char *path);

typedef struct {
  int nstates, K, nvals;
  int h1, nf, nind, h2, nterms, nslope;
  long nnz_v1, nnz_v3, nnz_v4, nnz_v5, nonzeros, nweight_values;
  long patches;          /* distinct patches visited by the rule-level roll-outs */
  double max_verr, max_gerr, max_fd_err; /* value, gradient vs f̄; backprop vs finite differences */
  double compile_s, check_s;
  /* compiler 1 */
  int l_d1, l_d1p, l_d2, l_d2p, l_nxi, l_nyi;
  nnt_rcnn_lemma6 l6;
} nnt_rcnn_compile_result;
/* Runs Algorithm 1 and `tests` predictions at rule level on a drawn parity, compiles the learner's
 * f̄ (structured: the whole value universe; lemma: the visited patches as the domain X, d_in = 5,
 * g = f̄'s flags) and evaluates the net on every distinct patch the roll-outs visited. */
int nnt_rcnn_compile_run(const nnt_rcnn_compile_cfg *c, nnt_rcnn_compile_result *r);

#endif
