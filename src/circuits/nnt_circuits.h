/* nnt_circuits.h — boolean circuits: readers (ISCAS .bench, BLIF, AIGER .aag), layering, direct
 * evaluation, the compiler to the feedforward ReLU net of Wei, Chen & Ma (Lemma 3.2 / B.1) with
 * optional correction layers (Lemma 3.3, Definition D.1), verification, and the parameter-space
 * all-layer margin (eq. 2.1) of any nnt_mlp.
 *
 * A circuit is a DAG of gates stored in topological order (every gate's fan-in comes before it).
 * Inputs are gates of type NNT_CIRCUIT_GATE_INPUT; outputs are a list of gate indices (a gate may be
 * listed more than once). Readers return NNT_EFORMAT with "file:line: what" on malformed,
 * cyclic, sequential (latches) or incomplete (undefined signals) circuits.
 */
#ifndef NNT_CIRCUITS_H
#define NNT_CIRCUITS_H
#include <stddef.h>
#include <stdint.h>

#include "nnt_mlp.h"
#include "nnt_rng.h"
#include "nnt_sweep.h" /* nnt_preset */

typedef enum {
  NNT_CIRCUIT_GATE_INPUT = 0,
  NNT_CIRCUIT_GATE_CONST0,
  NNT_CIRCUIT_GATE_CONST1,
  NNT_CIRCUIT_GATE_BUF, /* ID gate */
  NNT_CIRCUIT_GATE_NOT,
  NNT_CIRCUIT_GATE_AND,
  NNT_CIRCUIT_GATE_NAND,
  NNT_CIRCUIT_GATE_OR,
  NNT_CIRCUIT_GATE_NOR,
  NNT_CIRCUIT_GATE_XOR,
  NNT_CIRCUIT_GATE_XNOR,
  NNT_CIRCUIT_GATE_NTYPES
} nnt_circuit_gate_type;

typedef struct {
  nnt_circuit_gate_type type;
  int nin;
  int *in; /* fan-in gate indices, all smaller than this gate's index */
  char *name;
} nnt_circuit_gate;

typedef struct {
  int ngates;
  nnt_circuit_gate *gates;
  int ninputs, noutputs;
  int *inputs;  /* gate indices, in declaration order: input bit i of x */
  int *outputs; /* gate indices, in declaration order: output bit j */
} nnt_circuit;

const char *nnt_circuit_gate_name(nnt_circuit_gate_type t);
void nnt_circuit_free(nnt_circuit *c);

/* Readers. `name` labels error messages ("name:line: what"). The text need not be
 * NUL-terminated. read_file picks the format from the extension (.bench, .blif, .aag). */
int nnt_circuit_parse_bench(const char *text, size_t len, const char *name, nnt_circuit *c);
int nnt_circuit_parse_blif(const char *text, size_t len, const char *name, nnt_circuit *c);
int nnt_circuit_parse_aag(const char *text, size_t len, const char *name, nnt_circuit *c);
int nnt_circuit_read(const char *path, nnt_circuit *c);

/* A random layered circuit with m inputs, depth q and width r (Section 3's class G_{q,r,s}):
 * layers 1..q-1 hold r gates, layer q the single output gate; each gate is NOT of one gate of
 * the previous layer (probability 1/6) or AND/OR/NAND/NOR/XOR of two distinct ones, all drawn
 * from (seed, stream). Gates outside the output's cone are removed by layering. */
void nnt_circuit_random(int m, int q, int r, uint64_t seed, uint64_t stream, nnt_circuit *c);

/* Direct evaluation on 64 inputs at once: X[i] holds input bit i of the 64 input vectors (bit k
 * = vector k), Y[j] receives output bit j. */
void nnt_circuit_eval64(const nnt_circuit *c, const uint64_t *X, uint64_t *Y);
/* One input vector x[ninputs] in {0,1}; y[noutputs]. */
void nnt_circuit_eval(const nnt_circuit *c, const uint8_t *x, uint8_t *y);

/* A layered circuit (Section 3): layer 0 is the inputs; every node of layer l >= 1 reads only
 * nodes of layer l-1; ID (BUF) nodes carry signals across layers; the last layer q holds the
 * outputs in declaration order. Gates outside the outputs' cone are dropped. */
typedef struct {
  nnt_circuit_gate_type type;
  int nin;
  int *in; /* node indices within the previous layer */
} nnt_circuit_lnode;

typedef struct {
  int depth;       /* q: layers after the input layer */
  int *width;      /* width[l], l = 0..depth; width[0] = number of inputs */
  nnt_circuit_lnode **nodes; /* nodes[l][k], l = 1..depth */
  int width_max;   /* r (including the input layer, as in the paper) */
  long size;       /* s: nodes of layers 1..q, ID gates included */
  long id_gates;   /* ID gates inserted by layering */
  long orig_gates; /* gates of the circuit kept (cone of the outputs, inputs excluded) */
} nnt_circuit_layered;

void nnt_circuit_layer(const nnt_circuit *c, nnt_circuit_layered *L);
void nnt_circuit_layered_free(nnt_circuit_layered *L);

/* The compiled net (Lemma B.1): each circuit layer becomes two ReLU layers
 * f(h) = relu(W2 relu(W1 h + b1) + b2); with `correct`, the correction round(z) =
 * relu(3z - 1) - relu(3z - 2) follows every block but the last, as two more ReLU layers
 * (Lemma 3.3). Output j of the net is output bit j of the circuit, exactly 0 or 1. */
void nnt_circuit_compile(const nnt_circuit_layered *L, int correct, nnt_mlp *net);
/* The same net built sparse (CSR, nnt_mlp.h) without the dense matrices: what verify evaluates;
 * nnt_circuit_compile is this expanded to dense. */
void nnt_circuit_compile_sparse(const nnt_circuit_layered *L, int correct, nnt_smlp *net);

/* Compares the net's sparse batched forward pass with direct evaluation: every input when
 * ninputs <= exhaustive_max (checked = 2^ninputs), else `samples` uniform random inputs drawn
 * from (seed, stream 0). Counts input vectors with any output differing from the circuit's bit
 * (the net must give exactly 0.0 or 1.0). */
typedef struct {
  long checked, mismatches;
  int exhaustive;
  double max_abs_err; /* max |net - circuit| over all outputs checked */
  long first_bad;     /* index of the first mismatching vector in enumeration order, -1 if none */
} nnt_circuit_verify_counts;

nnt_circuit_verify_counts nnt_circuit_verify(const nnt_circuit *c, const nnt_smlp *net, int exhaustive_max,
                                      long samples, uint64_t seed);

/* The verification experiment (nnt circuit verify): reads `file`, layers it, compiles it (with
 * correction layers when `correct`) or loads the `net` file (nnt-mlp or nnt-mlp-sparse), checks the net's shape and then
 * compares it with direct evaluation (nnt_circuit_verify). The result owns the circuit, its
 * layering and the net. */
typedef struct {
  const char *file, *net;
  int correct, exhaustive_max;
  long samples;
  uint64_t seed;
  int format; /* nnt circuit compile's file: 0 auto (dense up to 10^6 parameters), 1 dense, 2 sparse */
} nnt_circuit_verify_cfg;

void nnt_circuit_verify_cfg_default(nnt_circuit_verify_cfg *cfg, nnt_preset preset);

typedef struct {
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_smlp net;
  nnt_circuit_verify_counts counts;
  double seconds; /* of the comparison */
} nnt_circuit_verify_result;

int nnt_circuit_verify_run(const nnt_circuit_verify_cfg *cfg, nnt_circuit_verify_result *res);
void nnt_circuit_verify_result_free(nnt_circuit_verify_result *res);

/* ---- All-layer margin (eq. 2.1), parameter space ----
 * rho(theta, x, y) = min ||delta||_2 subject to (y - 0.5) * F_j(x, theta + delta) <= 0, over all
 * weights and biases of every layer of an nnt_mlp whose activations are relu or identity, for
 * output coordinate j. The estimate is an UPPER bound: the norm of an explicit perturbation that
 * was checked (by a forward pass) to flip the decision. It is the minimum over:
 *   - DeepFool-style linearised steps on all layers jointly and on each layer alone,
 *   - projected gradient descent on the sphere of radius r from random starts, with bisection
 *     on r (all layers jointly), which also works where the gradient at theta vanishes,
 *   - each successful perturbation shrunk by bisection along its ray.
 * Returns 0 if the net already misclassifies x, INFINITY if no flip was found. */
typedef struct {
  int restarts;     /* random starts per radius (default 4) */
  int steps;        /* PGD steps per start (default 40) */
  int bisections;   /* radius bisection steps (default 12) */
  int deepfool_its; /* DeepFool iterations (default 60) */
  uint64_t seed;
  double *flip;     /* non-NULL: receives the best flip found (nnt_circuit_output_grad's layout), untouched when none (default NULL) */
} nnt_circuit_margin_opts;

typedef struct {
  double rho;        /* upper bound on the all-layer margin */
  double output;     /* F_j(x, theta) */
  int best_layer;    /* layer holding most of the best perturbation's squared norm */
  long forward_passes;
} nnt_circuit_margin_est;

void nnt_circuit_margin_opts_default(nnt_circuit_margin_opts *o);
nnt_circuit_margin_est nnt_circuit_margin_upper(const nnt_mlp *net, const double *x, int j, int y, const nnt_circuit_margin_opts *o);
/* The same search over the stored entries and biases of a sparse net, every layer, at a cost
 * linear in the nonzeros (a flip: layer by layer the stored values in row order, then b). The
 * entries a sparse net does not store stay 0, so this is a restricted perturbation: still an
 * upper bound on the all-layer margin. On a net that stores every entry (no zero weights) it is
 * the dense search, the same bits. */
nnt_circuit_margin_est nnt_circuit_margin_upper_sparse(const nnt_smlp *net, const double *x, int j, int y,
                                                       const nnt_circuit_margin_opts *o);

/* A certified LOWER bound on the same margin from layerwise Lipschitz constants: with every
 * layer's perturbation (dW_l, db_l) of Frobenius norm <= eps, the error of layer l obeys
 *   e_l <= ||W_l||_2 e_{l-1} + eps * sqrt((||h_{l-1}||_2 + e_{l-1})^2 + 1),  e_0 = 0
 * (relu and identity are 1-Lipschitz; ||W||_2 <= sqrt(||W||_1 ||W||_inf)); the largest eps
 * with e_L < |F_j| (bisection) cannot flip the decision. Like the norm-based bounds the paper
 * contrasts with (Theorem 3.1's discussion), it multiplies operator norms across layers and is
 * blind to the correction layers' saturation. Returns 0 for a misclassified x. */
double nnt_circuit_margin_lower(const nnt_mlp *net, const double *x, int j, int y);
/* The smallest over the inputs X[n, in] with labels y[n] (INFINITY when n = 0) for a net stored
 * sparse; opn: the per-layer bounds on ||W_l||_2 when the caller has them (NULL: computed). The
 * bisection runs only where the certificate fails at the smallest radius so far, so the result
 * can differ from the minimum of the per-input values in the last bits (its resolution), no more. */
double nnt_circuit_margin_lower_min(const nnt_smlp *net, const double *X, int n, const uint8_t *y, int j, const double *opn);

/* Gradient of F_j(x, theta) with respect to every parameter, laid out layer by layer as
 * (W row-major, then b); returns F_j. grad holds nnt_mlp_stats_of(net).params doubles.
 * Exposed for the finite-difference check. */
double nnt_circuit_output_grad(const nnt_mlp *net, const double *x, int j, double *grad);

/* ---- The margin experiments (nnt circuit margin) ----
 * With `file`: the margin bounds of the circuit's compiled net without and with correction layers
 * (and of the nnt-mlp `net`), each with the paper's readout z -> 2 z_j - 1 (proof of Theorem 3.1;
 * a `logit` net is read at 0 as it is), per input: every input when 2^m <= inputs, else `inputs`
 * uniform draws from (seed, stream 0). Without `file`: the sweep over circuit depths (family 0: a
 * chain of ID gates, Claim 3.5, inputs 0 and 1; family 1: `circuits` random layered circuits of
 * `width` inputs and gates per depth, `inputs` random inputs each): the margin without corrections
 * falls with depth, with corrections it stays put (Lemma 3.3, Theorem D.6). */
typedef struct {
  const char *file, *net;
  int logit, output, inputs;
  /* FILE: the compiled nets and the net file are held sparse (a dense file compressed on load);
   * per net, the attack perturbs the layers of its last attack_blocks blocks and the readout, made
   * dense, 0: every layer, -1 (default): every layer when the dense net has <= 10^6 parameters,
   * else 2. A compiled net's block is a circuit block with the correction after it; a net file with
   * the layer count of a compiled net of the circuit (2q or 4q - 2 before the readout) has the same
   * blocks, any other a block per layer. Restricted, the attack's rho is the smaller of that search
   * and nnt_circuit_margin_upper_sparse (every layer, the stored entries and biases only). A flip
   * of some parameters is a flip of the net, so rho stays an upper bound on the all-layer margin;
   * the certified lower bound always covers every layer. */
  int attack_blocks;
  int family, depths[32], ndepths, width, circuits;
  uint64_t seed;
  /* the sweep: how it runs, not what it computes (nnt_sweep.h; one point per circuit input) */
  const char *dir;   /* results.sqlite (NULL: not stored) */
  int resume, progress, threads;
} nnt_circuit_margin_cfg;

/* The one place of the defaults; quick: the small preset of the tests and the tour. */
void nnt_circuit_margin_cfg_default(nnt_circuit_margin_cfg *cfg, nnt_preset preset);

typedef struct {
  int n, nkinds, ninputs;          /* n input vectors; kinds: compiled, compiled+correction, net */
  uint8_t *x, *label;              /* [n, ninputs] inputs, [n] the circuit's output bit */
  nnt_circuit_margin_est *est;     /* [n, nkinds] upper bounds */
  double *lower;                   /* [n, nkinds] certified lower bounds */
  double rho_min[3], rho_med[3], rho_max[3], lower_min[3];
  int depth;                       /* q: circuit blocks */
  int nlayers[3], attack_from[3];  /* per kind: layers (readout included), first layer the attack perturbs */
  int attack_blocks[3], nblocks[3]; /* blocks the attack perturbs (0: every layer), of the net's nblocks (q when compiled) */
  long params[3], attack_params[3]; /* dense parameter counts of the net and of the attacked layers */
  long stored[3];                   /* restricted: the stored entries and biases of every layer, searched too */
  int stored_wins[3];               /* inputs where that search found the smaller flip */
} nnt_circuit_margin_result;

/* Refuses (NNT_EINVAL, one line, nothing allocated beyond the sparse nets) a cfg whose attack or
 * per-input results cannot fit in memory, or whose net file is malformed (its loader's error),
 * does not fit the circuit or has an activation other than relu or identity: what the CLI calls
 * before any work. */
int nnt_circuit_margin_check(const nnt_circuit_margin_cfg *cfg);

int nnt_circuit_margin_run(const nnt_circuit_margin_cfg *cfg, nnt_circuit_margin_result *res);
void nnt_circuit_margin_result_free(nnt_circuit_margin_result *res);

typedef struct {
  int depth, circuit, input, label, kind, layers, best_layer;
  double l1_norm, rho, lower;
} nnt_circuit_margin_row;

typedef struct {
  int ndepths, circuits, inputs; /* as run (the chain: one circuit, both inputs) */
  double depth[32];
  double med[2][32], lo[2][32], hi[2][32]; /* upper bounds per kind: median, 10% and 90% quantiles */
  double low[2][32];                       /* median certified lower bound */
  int nrows;
  nnt_circuit_margin_row *rows;            /* depth, circuit, input, kind */
} nnt_circuit_margin_sweep_result;

int nnt_circuit_margin_sweep_run(const nnt_circuit_margin_cfg *cfg, nnt_circuit_margin_sweep_result *res);
void nnt_circuit_margin_sweep_result_free(nnt_circuit_margin_sweep_result *res);

/* For the sample-complexity report (nnt bounds sm): the largest ||h||_2 over the input and every
 * layer's output, on every input (m <= 12) or 4096 random ones from (seed, stream 0); and the
 * smallest certified lower bound (nnt_circuit_margin_lower) over the outputs, each read through
 * z -> 2z - 1 (the proof of Theorem 3.1), and over the inputs (all when m <= 8, else 64 random
 * ones from (seed, stream 1); *count receives their number). */
double nnt_circuit_net_lambda(const nnt_mlp *net, int m, uint64_t seed);
double nnt_circuit_margin_certified(const nnt_mlp *net, int m, uint64_t seed, long *count);

/* The middle value of v[n] (mean of the two middle ones for even n; NAN for n = 0); sorts v. */
double nnt_circuit_median(double *v, int n);

/* ---- Learnability (beyond the paper): SGD-trained ReLU nets on circuit-labelled samples ----
 * A net of `depth` hidden ReLU layers of width `width` and two output logits (float32, PyTorch's
 * nn.Linear initialisation) is trained with Adam, or plain SGD with momentum 0.9 when `sgd` is
 * set, on softmax cross-entropy over n samples
 * x ~ U({0,1}^m) labelled by output bit `bit` of the circuit, for `steps` minibatch steps of
 * size min(batch, n), all drawn from (seed, stream). Test error is measured on the given set. */
typedef struct {
  int depth, steps, batch;
  double lr;
  uint64_t seed;
  int sgd;
  /* Checkpoints (NULL: none): every ckpt_every steps the weights, the optimizer state and the step
   * go to `ckpt` through core's nnt_ckpt; a finished run leaves its results and final weights
   * there. With `resume`, a checkpoint carrying the same `tag` (the caller's name for everything
   * the run depends on) continues the run bit for bit, or hands back a finished run's results. */
  const char *ckpt, *tag;
  int ckpt_every, resume;
  long stop_at; /* > 0: stop after this many steps of this call, as a kill would (tests of resume) */
} nnt_circuit_train_opts;

typedef struct {
  double test_err, train_err, train_loss, seconds; /* seconds: of the call that finished it */
  long steps_run;                                  /* optimizer steps this call made */
  int stopped;                                     /* by stop_at: no results */
} nnt_circuit_train_result;

/* X holds ntest input vectors as 0/1 bytes [ntest, m], Y their labels. When `trained` is not
 * NULL it receives the net in float64 with one output, the logit difference (class 1 minus
 * class 0): positive = predicts 1 (not when stopped early). NNT_ENUMERIC if the loss becomes
 * NaN/Inf; NNT_EINVAL/NNT_EFORMAT for a checkpoint of another run. */
int nnt_circuit_train(const nnt_circuit *c, int bit, int width, int n, const nnt_circuit_train_opts *o, uint64_t stream,
                      const uint8_t *X, const uint8_t *Y, int ntest, nnt_circuit_train_result *res, nnt_mlp *trained);
/* n inputs drawn from (seed, stream) with their labels (output bit `bit`). */
void nnt_circuit_sample(const nnt_circuit *c, int bit, int n, uint64_t seed, uint64_t stream, uint8_t *X, uint8_t *Y);

/* ---- The learnability experiment (nnt circuit learn) ----
 * Nets of width w = r x widths[i] (r: the circuit's widest gate layer) trained on n = ns[j]
 * samples, reps times each (stream (i * 1000 + j) * 1000 + rep), tested on ntest inputs (stream
 * 1). The circuit is `file`, or the first random layered circuit (16 inputs, depth 4, 8 gates per
 * layer; stream 5000 + k) whose test labels are between 1/4 and 3/4 ones. With ckpt_dir, every
 * point checkpoints there (one file per point, every ckpt_every steps): with `resume` a killed
 * run continues where it stopped, finished points read back, to identical results. */
typedef struct {
  const char *file;
  const char *name; /* names the circuit in results and checkpoints (NULL: file), e.g. the Verilog
                       source of a synthesised temporary file */
  int bit;
  int widths[16], nwidths, ns[32], nns;
  int steps, hidden, batch, reps, ntest, sgd;
  double lr;  /* 0: 1e-3 for Adam, 0.05 for SGD */
  double eps; /* target test error of the samples-to-reach view */
  uint64_t seed;
  const char *ckpt_dir;
  int ckpt_every, resume;
  long stop_at; /* > 0: stop after this many optimizer steps in all, as a kill would (tests of resume) */
} nnt_circuit_learn_cfg;

void nnt_circuit_learn_cfg_default(nnt_circuit_learn_cfg *cfg, nnt_preset preset);

typedef struct {
  int width, mult, n, rep;
  double test_err, train_err, train_loss, seconds;
} nnt_circuit_learn_point;

typedef struct {
  const char *circuit;  /* cfg->file or a description of the random circuit */
  int r, ninputs, nwidths;
  double lr;            /* as used */
  int npoints;
  nnt_circuit_learn_point *points; /* width-major, then n, then rep */
  double *err;          /* [nwidths, nns] test error, mean over reps */
  nnt_mlp *trained;     /* [nwidths] the net trained on the largest n, rep 0 */
  int nneed;            /* widths that reach test error <= eps on the grid of n: */
  double need_w[16], need_n[16]; /* the width and the smallest such n */
  int resumed;          /* points finished by an earlier run, read back from their checkpoints */
  int stopped;          /* a point stopped at stop_at: the result is incomplete */
} nnt_circuit_learn_result;

int nnt_circuit_learn_run(const nnt_circuit_learn_cfg *cfg, nnt_circuit_learn_result *res);
/* The memory a learn run holds at its peak (a point's net, batch and training set, the nets kept)
 * and its time at 2·10^9 multiply-adds a second (the file read to find r); check: NNT_EINVAL
 * naming the option when a value is bad or the run cannot fit in the memory available. */
int nnt_circuit_learn_size(const nnt_circuit_learn_cfg *cfg, double *bytes, double *seconds);
int nnt_circuit_learn_check(const nnt_circuit_learn_cfg *cfg);
void nnt_circuit_learn_result_free(nnt_circuit_learn_result *res);

/* ---- Claim 3.5 as the paper states it (claim35.c): the scalar toy f = (W_d..W_1) x - 1/2, all
 * W_i = 1, x = 1, perturbed in (W_1..W_d), without and with round between the layers (round's
 * own parameters unperturbed). Per depth: whether the claim's delta_i = -1/d (norm 1/sqrt(d))
 * flips; the exact uncorrected margin, bisected along the symmetric direction (plain) and in
 * closed form sqrt(d)(1 - 2^(-1/d)); for the corrected toy, perturbations of norm (1/3)(1 - 1e-9)
 * along every coordinate, the symmetric direction and `samples` random directions (both signs)
 * that flip it (the claim: none), and the smallest flip found along those directions. */
typedef struct {
  int d;
  int claim_flips;        /* the claim's perturbation flips the uncorrected toy */
  double claim_norm;      /* 1/sqrt(d) */
  double plain, plain_closed;
  long corr_tried, corr_below_flips;
  double corr_upper;      /* smallest flip found with corrections (an upper bound on its margin) */
  int corr_keeps;         /* unperturbed, the corrected toy outputs 1/2 (round(1) = 1) */
} nnt_circuit_claim35_row;
int nnt_circuit_claim35(const int *depths, int n, int samples, uint64_t seed, nnt_circuit_claim35_row *rows);

/* ---- Theorem D.6's margin (D.5) evaluated for a compiled net (d5.c) ----
 * The net must be a circuit's compiled net with correction layers followed by the readout
 * z -> 2 z_j - 1: it is cut into D.1's layers f_0 .. f_d (the blocks between corrections; f_0
 * reads x, f_d ends with the readout) and corrections zeta_0 .. zeta_{d-1} (layer pairs
 * relu(a z + c1), relu(a z + c2) -> relu(u1 - u2) with c1 - c2 = 1, as round is), and Condition
 * D.3's constants are computed from its weights and from its layer values on the inputs X:
 *   sigma_zeta  min over units of min(-c1/a, 1 + c2/a): the radius where every zeta is exact;
 *   mu0         ||f_0(x, th^) - f_0(x, th)|| <= mu0 ||th^ - th|| for ||th^ - th|| <= sigma_theta;
 *   kappa_theta ||f_i(H, th^) - f_i(H, th)|| <= kappa_theta ||th^ - th|| max(|||H|||, 1), i >= 1;
 *   mu          ||f_i(H^, th^) - f_i(H, th^)|| <= mu |||H^ - H||| for every H^ (sigma_h = inf);
 *   kappa_xi    ||zeta(h, xi^) - zeta(h, xi)|| <= kappa_xi max(||h||, 1) ||xi^ - xi||, any h;
 *   lambda      max(||h_i(x)||, 1) over i and X (Condition D.4),
 * with ||W^||_2 <= min(||W||_F, sqrt(||W||_1 ||W||_inf)) + sigma and the activations relu or
 * identity (1-Lipschitz). (D.5) is the minimum of its nine terms (docs/circuits_tm.md, errata). */
enum { NNT_CIRCUIT_D5_TERMS = 9 };
typedef struct {
  int d;                                         /* corrections */
  double sigma_zeta, sigma_theta, sigma_xi, sigma_h;
  double kappa_theta, kappa_xi, mu, mu0, lambda;
  /* lambda/mu0, sigma_zeta/mu0, sigma_theta, sigma_xi, 1/(2 kappa_theta),
   * sigma_zeta/(2 kappa_theta lambda), sigma_h/(2 kappa_xi lambda), sigma_zeta/(4 lambda mu kappa_xi),
   * 1/(4 mu kappa_xi); a term that does not arise (d = 0) is INFINITY */
  double term[NNT_CIRCUIT_D5_TERMS];
  double gamma;                                  /* (D.5): the smallest term */
} nnt_circuit_d5;
extern const char *const nnt_circuit_d5_term_names[NNT_CIRCUIT_D5_TERMS];

/* The constants at the radii sigma_theta, sigma_xi (> 0) over the inputs X[n, m]. NNT_EINVAL when
 * the net is not of that form or a layer value is not what D.1 needs (binary before a correction,
 * +-1 at the readout). */
int nnt_circuit_d5_at(const nnt_mlp *net, const double *X, int n, double sigma_theta, double sigma_xi, nnt_circuit_d5 *k);
/* The same with the radii that maximise (D.5) over a log grid 1e-6 .. 1 (121 x 121 points): D.3 holds
 * for any radii, so every grid point is a valid bound. */
int nnt_circuit_d5_eval(const nnt_mlp *net, const double *X, int n, nnt_circuit_d5 *k);
/* The weights alone, for every x in {0,1}^m at once: each layer value's range (lo/hi: one entry per
 * unit, layer l's units after those of layers 0 .. l-1). The net is walked block by block; a block
 * reads a layer whose units take two values each at every x (x itself, then the corrections'
 * outputs), and each unit's values are found by evaluating it on all assignments of the inputs it
 * depends on (its cone: a gate's fan-in; interval arithmetic on the layer before when that exceeds
 * 16 inputs). The values before each correction are shown 0/1 at every x and the readout +-1, as
 * (D.5) needs; NNT_EINVAL when they cannot be. */
int nnt_circuit_d5_ranges(const nnt_mlp *net, double *lo, double *hi);
/* (D.5) for every input from those ranges: ||a_l|| and lambda from each unit's largest magnitude,
 * kappa_theta's denominator max(|||(h_0..h_{i-1})|||, 1) from its smallest; the radii as
 * nnt_circuit_d5_eval. A valid lower bound at every x in {0,1}^m, <= nnt_circuit_d5_eval's over
 * any inputs. */
int nnt_circuit_d5_eval_all(const nnt_mlp *net, nnt_circuit_d5 *k);

/* The run (nnt circuit d5): FILE compiled with corrections and the readout of output bit `output`
 * (built sparse: nothing dense but the layers the attack perturbs). The inputs: every input when
 * 2^m <= inputs, else `inputs` random ones from (seed, stream 0) (those of nnt circuit margin).
 * (D.5)'s constants and the certified lower bound are taken over all of them: proven at each, so
 * for every input of the circuit only when `exhaustive`. The attack runs on attack_inputs of them
 * (all when there are no more; else distinct ones drawn from (seed, stream 2)), with nnt circuit
 * margin's seeds, perturbing the layers of the last attack_blocks blocks f_i and the corrections
 * between (0: every layer; -1: every layer when the net has <= 10^6 parameters, else 2): a flip
 * there is a flip of the net, so its norm bounds the margin at that input, and the smallest
 * margin over any input set containing it, from above whatever was sampled. `scale` multiplies
 * gamma_D5 (1; > 1 is a fault injection): a proven lower bound above a found flip is a
 * contradiction. Beside it, (D.5) from the weights alone (nnt_circuit_d5_eval_all), valid at every
 * input however few were used, with check (a): every layer value at the inputs used lies inside its
 * weights-alone range, and that gamma is not above the one over the inputs. Per-input memory is
 * estimated first: an N that cannot fit is refused before anything is allocated. */
typedef struct {
  const char *file;
  int output, inputs, attack_inputs, attack_blocks;
  double scale;
  double range_scale; /* multiplies the weights-alone ranges (1; < 1 narrows them: a fault check (a) must catch) */
  uint64_t seed;
} nnt_circuit_d5_cfg;
void nnt_circuit_d5_cfg_default(nnt_circuit_d5_cfg *cfg, nnt_preset preset);
/* Reads and compiles cfg->file and refuses (NNT_EINVAL, one line) inputs whose memory cannot fit,
 * before the run allocates them (the run checks again). */
int nnt_circuit_d5_check(const nnt_circuit_d5_cfg *cfg);
typedef struct {
  int ninputs, depth, width_max, n; /* m, q, r; inputs evaluated */
  int exhaustive;                   /* n = 2^m: every input of the circuit */
  int nlayers;
  long params;                      /* of the dense form */
  nnt_circuit_d5 k;
  double gamma_d5;                  /* k.gamma * scale */
  double certified, attack;         /* smallest over the inputs (the attack: over its inputs) */
  int contradiction;                /* gamma_d5 > attack */
  int nattack, attack_from;         /* the attack's inputs; it perturbs layers attack_from .. nlayers - 1 */
  long attack_params;               /* their parameters */
  /* the smallest flip found (attack_params doubles, nnt_circuit_output_grad's layout over those
   * layers; NULL when the attack found none), at input flip_input, X = flip_x (m doubles) */
  double *flip, *flip_x;
  int flip_input;
  /* the weights alone (nnt_circuit_d5_eval_all): valid at every input of the circuit */
  int all_ok;                       /* 0: not available, all_why says why */
  char all_why[256];
  nnt_circuit_d5 kall;
  double gamma_all;                 /* kall.gamma * scale */
  int all_above;                    /* kall.gamma > k.gamma: impossible for sound ranges */
  /* check (a): every layer value at the n inputs inside its weights-alone range */
  long range_checked, range_outside;
  int range_layer, range_unit, range_input; /* the first value outside, and its range */
  double range_value, range_lo, range_hi;
  double seconds[4];                /* constants, certificate, attack, the weights-alone ranges (wall) */
} nnt_circuit_d5_result;
int nnt_circuit_d5_run(const nnt_circuit_d5_cfg *cfg, nnt_circuit_d5_result *res);
void nnt_circuit_d5_result_free(nnt_circuit_d5_result *res);

/* ---- nnt bounds sm --circuit: what Lemma 2.3 and Theorem 3.1 take from a compiled circuit ----
 * The circuit read, layered and compiled with correction layers; the net checked (every input up
 * to 16 inputs, else 20000 random ones); its sizes, lambda = max ||h||_2 (nnt_circuit_net_lambda)
 * and certified margin (nnt_circuit_margin_certified). The bounds' formulas are the report's. */
typedef struct {
  const char *file; /* the file the reader reads (a Verilog design: its synthesised BLIF) */
  uint64_t seed;
} nnt_circuit_sm_cfg;
typedef struct {
  int ninputs, depth, width_max;  /* m, q, r */
  long size, id_gates;            /* s, ID gates */
  nnt_circuit_verify_counts v;
  nnt_mlp_stats s;                /* the net with correction layers */
  double lambda, certified;       /* certified: the margin's lower bound (<= 0: nothing certified) */
  long certified_count;           /* inputs it is the minimum over */
} nnt_circuit_sm_result;
/* The circuit read (then freed): a bad file is refused before any work. */
int nnt_circuit_sm_check(const nnt_circuit_sm_cfg *cfg);
int nnt_circuit_sm_run(const nnt_circuit_sm_cfg *cfg, nnt_circuit_sm_result *res);

/* The compiled net as safetensors or ONNX (by path's extension, nnt_smlp_export), its metadata the
 * circuit's input and output names in declaration order (JSON arrays), file, version, command. */
int nnt_circuit_export(const nnt_circuit *c, const nnt_smlp *net, int sparse, const char *file, const char *version,
                       const char *command, const char *path);

/* ---- Circuit FILEs of any format (verilog.c): a Verilog design (.v, .sv) is synthesised by yosys
 * (an optional external program) into BLIF in a private temporary folder, which the readers then
 * read like any .blif file. */
typedef struct {
  const char *path; /* the file the readers read: FILE itself, or the synthesised .blif */
  char dir[1024];   /* the temporary folder ("" when FILE is not Verilog) */
  char blif[1200];  /* the synthesised .blif inside dir */
  char top[256];    /* the synthesised top module */
  char ports[2048]; /* "x0..x15 = a[0..7] b[0..7], y0..y15 = p[0..15]": net bits, Verilog names */
  char version[128]; /* yosys's version line */
} nnt_circuit_src;

/* Fills s for FILE. top: the top module of a Verilog FILE (NULL: yosys picks it); an error for any
 * other FILE. Fails with one line (yosys missing, yosys's first error line, a bad name) and leaves
 * nothing behind; on success call nnt_circuit_src_close once the circuit is read. */
int nnt_circuit_src_open(const char *file, const char *top, nnt_circuit_src *s);
/* The line "verilog: top=... (yosys ...) net inputs/outputs = Verilog bits" (nothing for others). */
void nnt_circuit_src_print(const nnt_circuit_src *s);
/* Removes the temporary folder (s->path is then gone; top, ports and version stay). */
void nnt_circuit_src_close(nnt_circuit_src *s);

/* FILE opened as above and parsed by the circuits area's reader (then freed): a bad circuit is
 * refused before --check-options stops and before any work. *path: the file the run reads; s is
 * closed by the command's cfg_free. */
int nnt_circuit_src_read(const char *file, const char *top, nnt_circuit_src *s, const char **path);

#endif
