/* nnt_qstr.h — q-sparse token retrieval (seed 001, Mousavi-Hosseini, Sanford, Wu, Erdogdu 2025).
 *
 * The qSTR task generator, the models of the paper's experiments and theory (transformer with
 * PyTorch multi-head-attention semantics, the theory's H-head merged-QK transformer, the FFN on
 * flattened tokens, bidirectional GRU and ReLU RNN) with fused forward/backward kernels, the
 * online AdamW trainer that measures "samples needed", and the theory calculators (eq. A.2
 * construction, Theorem 6 min-norm least squares, head lower bounds). Spec:
 * shared/specs/seed_001_qstr.md; docs/qstr.md.
 *
 * Layouts (row-major): a batch of B prompts is X[B][N][D] (token i of prompt b is the D-vector
 * z_i = [x_i, codes]; the FFN reads the same memory as B rows of length N*D) and labels y[B][N].
 * Model parameters live in one flat vector (weights and biases of every layer, see the offsets in
 * nnt_qstr_model): the float32 block of a parameter registry (nnt_qstr_model_params), so AdamW
 * steps it in one loop and checkpoints name its tensors.
 */
#ifndef NNT_QSTR_H
#define NNT_QSTR_H
#include <stddef.h>
#include <stdint.h>

#include "nnt_params.h"
#include "nnt_rng.h"
#include "nnt_sweep.h"

/* ---------------------------------------------------------------- task generator */
typedef enum { NNT_QSTR_LINK_LINEAR = 0, NNT_QSTR_LINK_NORMSQ, NNT_QSTR_LINK_RELU } nnt_qstr_link;
typedef enum { NNT_QSTR_LAW_UNIFORM = 0, NNT_QSTR_LAW_ADVERSARIAL } nnt_qstr_law;
typedef enum { NNT_QSTR_ENC_CODE = 0, NNT_QSTR_ENC_PAPER } nnt_qstr_enc;

typedef struct {
  int N, d, q, de;     /* tokens, token dim, sparsity, code dim (0 -> floor(5 ln N)) */
  int simple;          /* 1: one index tuple t shared by all positions (simple-qSTR) */
  nnt_qstr_link link;
  nnt_qstr_law law;    /* adversarial: tokens i >= N/2 are 0 and point at (0..q-1) (Prop. 3) */
  nnt_qstr_enc enc;    /* code: [x, E[i], E[t_i1..q]]; paper: codes scaled by sqrt(d/q) */
  double noise;        /* std of Gaussian label noise (extension; 0 = the paper) */
  int no_dup_codes;    /* redraw E until its rows are distinct */
  int teacher_m;       /* width of the random ReLU teacher (link relu) */
} nnt_qstr_task_cfg;

typedef struct {
  nnt_qstr_task_cfg c;
  int D;               /* d + (q+1) de */
  double *E;           /* N x de code vectors, entries +-1/sqrt(de) */
  double *u;           /* q x d unit vectors of the linear link (u_j = u for all j, see docs) */
  double *tw, *tb, *ta;/* teacher: m x qd, m, m */
  double tmean, tstd;  /* teacher output normalisation (Monte Carlo, fixed) */
} nnt_qstr_task;

void nnt_qstr_task_cfg_default(nnt_qstr_task_cfg *c, int N);
int nnt_qstr_default_de(int N); /* floor(5 ln N) */
/* Validates c (NNT_EINVAL with a message) and draws the shared randomness: E from stream
 * (seed, N) and u from a stream that does not depend on N (the released code's sharing). */
int nnt_qstr_task_init(nnt_qstr_task *t, const nnt_qstr_task_cfg *c, uint64_t seed);
void nnt_qstr_task_free(nnt_qstr_task *t);
/* B prompts into X[B][N][D] and y[B][N] (floats); simple = -1 follows the task, 0/1 overrides
 * the index law (the released code's test set is always simple). idx (optional) receives t as
 * [B][N][q]. */
void nnt_qstr_sample_f32(const nnt_qstr_task *t, nnt_rng *r, int B, int simple, float *X, float *y, int *idx);
void nnt_qstr_sample_f64(const nnt_qstr_task *t, nnt_rng *r, int B, int simple, double *X, double *y, int *idx);
/* g(xs) for the q retrieved tokens xs[q][d] (no noise); var[q]: the variance of each token's
 * entries, which the norm-squared link centres by (NULL: 1, as under the uniform law). */
double nnt_qstr_link_value(const nnt_qstr_task *t, const double *xs, const double *var);
/* Largest |<E_i, E_j>| over i != j, and whether two rows coincide. */
double nnt_qstr_code_coherence(const nnt_qstr_task *t, int *has_dup);

/* ---------------------------------------------------------------- models */
typedef enum { NNT_QSTR_TR = 0, NNT_QSTR_TRP, NNT_QSTR_FFN, NNT_QSTR_GRU, NNT_QSTR_RNN } nnt_qstr_arch;
extern const char *const nnt_qstr_arch_names[]; /* "tr", "trp", "ffn", "rnn" (the paper's biGRU, as the released code names it), "relurnn", NULL */

enum { NNT_QSTR_MAXL = 4 };
typedef struct {
  nnt_qstr_arch arch;
  int N, D;           /* tokens, token width */
  int m;              /* tr/trp: width of the ReLU MLP (100 / m_g) */
  int H;              /* trp: heads; gru/rnn: hidden size per direction */
  int nl, width[NNT_QSTR_MAXL + 2]; /* ffn: widths N*D, hidden..., N */
  size_t np;          /* number of parameters */
  /* offsets into the flat parameter vector */
  size_t win, bin, wo, bo, w1, b1, w2, b2;        /* tr: in-proj 3DxD, 3D; out DxD, D; mlp mxD, m, m, 1 */
  size_t wqk;                                     /* trp: H x D x D (then w1 m x HD, b1 m, w2 m) */
  size_t fw[NNT_QSTR_MAXL + 1], fb[NNT_QSTR_MAXL + 1]; /* ffn layers */
  size_t gwi[2], gwh[2], gbi[2], gbh[2];          /* gru/rnn per direction (gates r,z,n stacked) */
} nnt_qstr_model;

/* tr: m = MLP width. trp: H heads, m width. ffn: hidden list (n_hidden values). gru/rnn: H hidden. */
int nnt_qstr_model_setup(nnt_qstr_model *mo, nnt_qstr_arch arch, int N, int D, int m, int H,
                         int n_hidden, const int *hidden);
/* PyTorch default initialisation (xavier_uniform over the stacked in-projection with zero
 * in/out biases; U(+-1/sqrt(fan_in)) for Linear weights and biases; U(+-1/sqrt(H)) for GRU/RNN);
 * trp uses U(+-1/sqrt(D)) for each W^(h) and Linear defaults for the MLP. */
void nnt_qstr_model_init(const nnt_qstr_model *mo, nnt_rng *r, double *p);
/* Registers the model's tensors (PyTorch's names and shapes, e.g. "attn.in_proj_weight" [3D, D])
 * in a fresh float32 registry and allocates it: its flat float32 block (nnt_params_flat_f32) is
 * the flat parameter vector, offsets as in mo, so the kernels, AdamW and checkpoints share it. */
void nnt_qstr_model_params(const nnt_qstr_model *mo, nnt_params *P);

/* Workspaces hold the activations of one batch of up to Bmax prompts (kept for backward). */
typedef struct nnt_qstr_ws_f32 nnt_qstr_ws_f32;
typedef struct nnt_qstr_ws_f64 nnt_qstr_ws_f64;
nnt_qstr_ws_f32 *nnt_qstr_ws_new_f32(const nnt_qstr_model *mo, int Bmax);
nnt_qstr_ws_f64 *nnt_qstr_ws_new_f64(const nnt_qstr_model *mo, int Bmax);
void nnt_qstr_ws_free_f32(nnt_qstr_ws_f32 *w);
void nnt_qstr_ws_free_f64(nnt_qstr_ws_f64 *w);
/* The elements (reals, plus the FFN's int indices) nnt_qstr_ws_new_* allocates for mo and Bmax:
 * the size estimates' part for a workspace (times sizeof(float) or sizeof(double)). */
double nnt_qstr_ws_elems(const nnt_qstr_model *mo, int Bmax);
/* yhat[B][N] for X[B][N][D]; activations stay in ws for the backward pass. */
void nnt_qstr_forward_f32(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, const float *p, const float *X, int B, float *yhat);
void nnt_qstr_forward_f64(const nnt_qstr_model *mo, nnt_qstr_ws_f64 *ws, const double *p, const double *X, int B, double *yhat);
/* grad = d(sum_b,i dy[b][i] * yhat[b][i]) / dp (every entry written), after a forward on the same X. */
void nnt_qstr_backward_f32(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, const float *p, const float *X, int B, const float *dy, float *grad);
void nnt_qstr_backward_f64(const nnt_qstr_model *mo, nnt_qstr_ws_f64 *ws, const double *p, const double *X, int B, const double *dy, double *grad);
/* float32 products of at least `macs` multiply-adds go to OpenBLAS (default: none); for tuning.
 * Multiply-adds are counted by nnt_gemm_macs_done (nnt_blas.h), the structure-aware evaluation's
 * loops included; elementwise work is not. */
void nnt_qstr_set_blas_min(long macs);
/* Attention weights of head h for prompt b of the last forward (tr, trp): N x N, row = query. */
const float *nnt_qstr_attention_f32(const nnt_qstr_model *mo, const nnt_qstr_ws_f32 *ws, int b, int h);

/* ---------------------------------------------------------------- online trainer */
typedef struct {
  int batch;           /* 64 */
  double lr, wd;       /* 1e-3, 0.01 */
  double threshold;    /* test MSE to reach */
  int check_every;     /* steps between test evaluations */
  int n_test;          /* fixed test prompts */
  int test_simple;     /* 1: test prompts use the simple law (released code), 0: same as training */
  long max_samples;    /* budget; a run that does not cross is censored */
  int keep_params;     /* copy the final parameters to the result */
} nnt_qstr_train_cfg;

/* Where a training run's time goes: drawing prompts, forward passes, backward passes with the
 * AdamW step, test evaluations. */
typedef enum { NNT_QSTR_PHASE_DATA = 0, NNT_QSTR_PHASE_FWD, NNT_QSTR_PHASE_BWD, NNT_QSTR_PHASE_EVAL, NNT_QSTR_NPHASE } nnt_qstr_phase;
extern const char *const nnt_qstr_phase_names[]; /* "draw prompts", "train forward", ... */

typedef struct {
  long samples;        /* prompts seen when the test MSE first fell below the threshold */
  int censored;        /* 1: budget exhausted without crossing */
  int diverged;        /* 1: loss became NaN/Inf (then censored too) */
  long steps;
  double final_mse, wall_s;
  double phase_s[NNT_QSTR_NPHASE];    /* seconds per phase */
  double phase_macs[NNT_QSTR_NPHASE]; /* multiply-adds per phase (nnt_gemm_macs_done) */
  float *params;       /* when keep_params: the trained flat vector (caller frees) */
} nnt_qstr_result;

void nnt_qstr_train_cfg_default(nnt_qstr_train_cfg *c);
/* One run: init stream, train-data stream and test-data stream are (seed, 8*point+k), so a point
 * gives the same result whatever thread runs it. */
void nnt_qstr_train_online(const nnt_qstr_task *task, const nnt_qstr_model *mo, const nnt_qstr_train_cfg *c,
                           uint64_t seed, uint64_t point, nnt_qstr_result *res);
/* Test MSE (mean over prompts and positions) of params p on the n prompts X, y. */
double nnt_qstr_eval_f32(const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, int Bmax, const float *p,
                         const float *X, const float *y, int n);

/* Fixed-dataset epoch trainer (Figure 2's script): n_train prompts drawn once (law `simple` as in
 * nnt_qstr_sample), shuffled mini-batches, AdamW, at most max_epochs, stopping when the epoch's
 * mean training loss is below stop_loss; then the test MSE on n_test fresh prompts.
 * res->samples = prompts processed, res->steps = epochs run, res->params = trained weights. */
void nnt_qstr_train_fixed(const nnt_qstr_task *task, const nnt_qstr_model *mo, int simple, int n_train, int n_test,
                          int max_epochs, int batch, double lr, double wd, double stop_loss, uint64_t seed,
                          uint64_t point, nnt_qstr_result *res, double *train_loss);

/* Structure-aware test evaluation (fast_eval_isa.c): code parts of the tokens become per-position
 * and per-index tables, and tr's attention/value/out/MLP products are folded. ok: this model can
 * use it. Returns the sum of squared errors over n prompts (idx: their indices [n][N][q]), in prompt
 * order, stopping once above `bound` (*complete = 0; the partial sum is then above the bound and
 * only good for that comparison). fs: the test set's state from nnt_qstr_fast_prepare (each
 * prompt's last error, to visit the worst first next time: a bounded evaluation that will not pass
 * stops sooner); NULL: a fresh one here. */
typedef struct nnt_qstr_fast_set nnt_qstr_fast_set;
int nnt_qstr_fast_eval_ok(const nnt_qstr_model *mo, const nnt_qstr_task *t);
double nnt_qstr_fast_sse(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *p, const float *X,
                         nnt_qstr_fast_set *fs, const int *idx, const float *y, int n, double bound, int *complete);
/* A test set of n prompts (X, labels y) as the model's fast evaluation reads it: its x parts, and
 * the state that orders the visits; _free releases it. */
nnt_qstr_fast_set *nnt_qstr_fast_prepare(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *X, const float *y,
                                         int n);
void nnt_qstr_fast_free(nnt_qstr_fast_set *fs);

/* ---------------------------------------------------------------- experiments
 * Each experiment is config -> run -> result: ..._cfg_default(&cfg, preset) is the one place for
 * its defaults (full: the paper's setting; quick: seconds, for tests and the tour), ..._run
 * validates the config (NNT_EINVAL, one line) before any work. The CLI writes the reports. */

/* Figure 1: samples needed to reach a test-MSE threshold, for each N and repetition. */
typedef struct {
  nnt_qstr_arch arch;
  nnt_qstr_task_cfg task;  /* template; N is set per point */
  nnt_qstr_train_cfg train;
  int m;                   /* tr/trp MLP width */
  int heads;               /* trp heads */
  int hidden_size;         /* gru/rnn hidden size per direction */
  int n_hidden, hidden[NNT_QSTR_MAXL]; /* ffn; a value 0 means N*d (the released code's first layer) */
  int nN, Ns[64], reps;
  uint64_t seed;
  int figure;              /* the panel whose protocol nnt_qstr_sweep_figure set (0: none, 1: 1a, 2: 1b); a label */
  /* how it runs, not what it computes */
  int progress;            /* progress on stderr */
  int threads;             /* 0: nnt_threads_get() */
  const char *dir;         /* results.sqlite goes here (NULL: not stored) */
  int resume;              /* keep the points stored in dir */
} nnt_qstr_sweep_cfg;

typedef struct {
  int N, rep, de, D;
  int64_t np;
  nnt_qstr_result r;
} nnt_qstr_point;

typedef struct {
  int n;                   /* nN * reps points, ordered by N then rep */
  nnt_qstr_point *pts;
  int stored, computed;    /* points found in dir/results.sqlite, points computed by this run */
  double wall_s;
} nnt_qstr_sweep_result;

void nnt_qstr_sweep_cfg_default(nnt_qstr_sweep_cfg *s, nnt_preset preset);
/* The protocol of a panel of Figure 1, as the released code ran it (spec §4.7, §5.4): 1a = 1STR
 * trained, simple-1STR tested, N = 2..12, threshold 0.7, a test every 10 steps; 1b = simple-1STR,
 * N = 25..33 odd, threshold 0.02, a test every 100 steps; both 5 repetitions, 5000 test prompts, a
 * budget of 10^6 samples, the biGRU 500 wide. The quick preset keeps the protocol's task, test law,
 * threshold and check interval at small N (1a: 2, 4, 6; 1b: 8, 10), 1 repetition, 1000 test prompts,
 * the biGRU 64 wide (1b: budget 128,000). Sets the fields it names and s->figure; the model is kept. */
void nnt_qstr_sweep_figure(nnt_qstr_sweep_cfg *s, int figure, nnt_preset preset);
/* Validates the task and model of every N (NNT_EINVAL), and its memory (nnt_mem_check: the
 * parameters with gradients and Adam moments, the workspaces, the test set), naming what to lower. */
int nnt_qstr_sweep_check(const nnt_qstr_sweep_cfg *s);
/* An upper bound of the sweep's time in seconds, should no run reach the threshold before
 * --max-samples: forward and backward (about 2.6 forward passes, as measured) of every sample
 * and a forward pass of the test set at every check, at NNT_QSTR_MACS_PER_S multiply-adds a second
 * a thread (measured with the tr model on a loaded 2-core x86-64), the points spread over threads.
 * nnt_qstr_sweep_run announces it (nnt_time_notice) when progress is on. */
enum { NNT_QSTR_MACS_PER_S = 4000000000 };
double nnt_qstr_sweep_seconds(const nnt_qstr_sweep_cfg *s);
/* Builds the model of s at length N. */
int nnt_qstr_sweep_model(const nnt_qstr_sweep_cfg *s, int N, int D, nnt_qstr_model *mo);
/* Runs every (N, rep) point through the sweep engine (nnt_sweep.h); point ids are N * 1024 + rep,
 * so results do not depend on the thread count, and a resumed sweep reuses the points stored for
 * the same config (any N list: only the new points are computed). */
int nnt_qstr_sweep_run(const nnt_qstr_sweep_cfg *s, nnt_qstr_sweep_result *res);
void nnt_qstr_sweep_result_free(nnt_qstr_sweep_result *res);
/* Median, min and max of the samples of N index k (censored runs count at their budget), and the
 * number of censored runs. */
void nnt_qstr_sweep_stats(const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *res, int k, double *med,
                          double *lo, double *hi, int *censored);
/* Least-squares fit of log y = slope log x + c over the n points with x, y > 0 (the growth exponent
 * of a sample-complexity curve). Returns the slope (NAN with fewer than two such points and distinct
 * x); optional: *r2 the fit's coefficient of determination, *se the slope's standard error (NAN
 * below three points), *used the points it used. */
double nnt_qstr_loglog_slope(int n, const double *x, const double *y, double *r2, double *se, int *used);

/* Figure 2: tr trained on a fixed set; how much of W_q^T W_k is the eq. (A.2) solution block. */
typedef struct {
  double block_share;  /* share of the Frobenius mass in the block (query's code of t_i x key's own code) */
  double diag_ratio;   /* mean |diagonal| / mean |off-diagonal| inside the block */
  double cosine;       /* cosine with the identity template of eq. (A.2) */
  double random_share; /* the block's share of the entries: block_share of a structureless matrix */
} nnt_qstr_attn_score;
/* Scores the D x D matrix M of a task with token width d and code width de. */
nnt_qstr_attn_score nnt_qstr_attention_score(const double *M, int D, int d, int de);

typedef struct {
  int N, n_train, epochs, n_test, batch, m;
  double lr, wd, stop_loss;
  int simple;              /* train on simple-1STR (the released script) */
  nnt_qstr_task_cfg task;  /* d, de, no_dup_codes are used */
  uint64_t seed;
} nnt_qstr_attention_cfg;
typedef struct {
  int D, d, de;
  long epochs;
  double train_loss, test_mse;
  double *wqk;             /* D x D, W_q^T W_k after training */
  nnt_qstr_attn_score score, init_score; /* trained, and the initial random matrix */
} nnt_qstr_attention_result;
void nnt_qstr_attention_cfg_default(nnt_qstr_attention_cfg *c, nnt_preset preset);
/* Checks the config and its memory (the training set is held whole): NNT_EINVAL naming the option. */
int nnt_qstr_attention_check(const nnt_qstr_attention_cfg *c);
int nnt_qstr_attention_run(const nnt_qstr_attention_cfg *c, nnt_qstr_attention_result *r);
void nnt_qstr_attention_result_free(nnt_qstr_attention_result *r);

/* Props. 3 / 21: the trained error of the H-head merged-QK transformer on the norm-squared link
 * for each H, against the bounds, and the construction's error with q heads. One sweep point per H.
 * Under the adversarial law (the default: the law Prop. 3 proves its bound for) a trained error
 * below 1 - H(q+d)/(qd) by more than 5 standard errors is a failure (NNT_ECHECK): the bound holds
 * for every weight setting of the model. Prop. 21's 1 - H/q (d = 1) assumes block-diagonal W^(h),
 * which the trained model is not held to: shown, not checked. */
typedef struct {
  int q, d, N, m, de, nH, Hs[16], batch, n_test, check_every, cons_n;
  long samples;
  double lr, wd;
  nnt_qstr_law law;        /* index law of training and test prompts */
  uint64_t seed;
  int threads;             /* 0: nnt_threads_get() */
  const char *dir;         /* results.sqlite (NULL: not stored) */
  int resume;
} nnt_qstr_heads_cfg;
typedef struct {
  int nH, Hs[16];          /* the head counts run */
  double mse[16], se[16];  /* trained test MSE on n_test fresh prompts of the law, its standard error */
  double bound[16], bound_exact[16]; /* 1 - H(q+d)/(qd); 1 - H/q where d = 1 (else NAN) */
  int checked;             /* 1: the law is adversarial, so bound[] is proven for the trained model */
  int below[16], violations; /* mse[h] + 5 se[h] < bound[h] (only when checked) */
  double construction_mse; /* eq. (A.2) attention with q heads, alpha 20, exact link */
} nnt_qstr_heads_result;
void nnt_qstr_heads_cfg_default(nnt_qstr_heads_cfg *c, nnt_preset preset);
/* NNT_ECHECK (after filling r) when a trained error falls below a proven bound. */
int nnt_qstr_heads_run(const nnt_qstr_heads_cfg *c, nnt_qstr_heads_result *r);
/* The check of nnt_qstr_heads_run on r's errors and bounds: sets below[] and violations and
 * returns NNT_ECHECK (with a message) when there is one. */
int nnt_qstr_heads_judge(nnt_qstr_heads_result *r);
/* The memory a heads run holds at its peak on `threads` threads, in bytes, and (seconds not NULL)
 * an upper bound of its time at NNT_QSTR_MACS_PER_S; check: NNT_EINVAL naming the option to change
 * when a size is bad or the run cannot fit in the memory available (nnt_mem_check). */
double nnt_qstr_heads_bytes(const nnt_qstr_heads_cfg *c, int threads, double *seconds);
int nnt_qstr_heads_check(const nnt_qstr_heads_cfg *c);

/* Eq. (A.2): closed-form MSE against Monte Carlo through the forward pass, per sharpness alpha. */
typedef struct {
  nnt_qstr_task_cfg task;
  int nalpha, n;
  double alphas[32];
  uint64_t seed;
} nnt_qstr_construct_cfg;
typedef struct {
  double closed[32], mc[32], se[32];
  int agree;               /* alphas whose Monte Carlo is within 5 standard errors of the closed form */
  int decreasing;          /* the closed form decreases in alpha */
  int de;
} nnt_qstr_construct_result;
void nnt_qstr_construct_cfg_default(nnt_qstr_construct_cfg *c, nnt_preset preset);
/* NNT_ECHECK (after filling r) when the two disagree. */
int nnt_qstr_construct_run(const nnt_qstr_construct_cfg *c, nnt_qstr_construct_result *r);
/* The memory a construct run holds at its peak (the model, a 256-prompt workspace and batch), in
 * bytes; NNT_EINVAL naming --N, --q or --d when it exceeds the memory available (nnt_mem_check). */
double nnt_qstr_construct_bytes(const nnt_qstr_construct_cfg *c);
int nnt_qstr_construct_check(const nnt_qstr_construct_cfg *c);

/* Theorem 6: min-norm least squares on simple-1STR against 1 - n/(Nd), per training-set size n. */
typedef struct {
  int N, d, nn, ns[256], trials, n_test;  /* nn = 0: n = 0, Nd/10, ..., Nd */
  uint64_t seed;
} nnt_qstr_ffn_bound_cfg;
typedef struct {
  int nn, ns[256];
  double measured[256], se[256], formula[256];
  int off;                 /* points farther than 5 standard errors + 0.02 from the formula */
} nnt_qstr_ffn_bound_result;
void nnt_qstr_ffn_bound_cfg_default(nnt_qstr_ffn_bound_cfg *c, nnt_preset preset);
/* The memory the run holds at its largest n (an n x Nd matrix, the n x n Gram matrix, N x Nd
 * coefficients), in bytes, and (seconds not NULL) its time at 10^9 multiply-adds a second; check:
 * NNT_EINVAL naming --N, --d or --n when the sizes are bad or it exceeds the memory available. */
double nnt_qstr_ffn_bound_bytes(const nnt_qstr_ffn_bound_cfg *c, const int *ns, int nn, double *seconds);
int nnt_qstr_ffn_bound_check(const nnt_qstr_ffn_bound_cfg *c);
/* NNT_ECHECK (after filling r) when a point is off the formula. */
int nnt_qstr_ffn_bound_run(const nnt_qstr_ffn_bound_cfg *c, nnt_qstr_ffn_bound_result *r);

/* Theorem 7 / Prop. 28 / App. C and Prop. 8 / Theorem 9 (rnn_oracle.c). For each N: the oracle
 * bidirectional RNN for simple-qSTR (width qd, transitions that ignore the state, alpha_N = 0) built
 * as an explicit ReLU network and measured against the task (exit 1 unless its MSE is <= 1e-12), its
 * size and weight norm; and for 1STR the smallest width per direction an RNN whose state is linear
 * in the tokens needs for MSE <= target, from the exact bound (N-1-r)(N-r)/N^2, with a
 * shift-register RNN of that width (and one less) measured against the bound (exit 1 when more
 * than 5 standard errors off). */
typedef struct {
  int nN, Ns[32];
  int d, q;
  nnt_qstr_link link;      /* linear or relu (exact two-layer ReLU links) */
  double B;                /* token bound r_x: the network is exact while every |x_k| <= B */
  double target;           /* the MSE the 1STR width must reach */
  int n;                   /* prompts per measurement */
  double bound_scale;      /* 1: the linear-state bound as derived; any other value scales the bound the shift
                              register is checked against (a fault injection: the two-sided check must fail) */
  uint64_t seed;
} nnt_qstr_rnn_oracle_cfg;
typedef struct {
  int nN, Ns[32], de[32], width[32];
  long params[32];
  double norm[32], coherence[32];
  double mse[32], se[32];               /* on simple-qSTR (the oracle's task) */
  double mse_general[32], se_general[32]; /* the same network on general qSTR (shown) */
  int exact_fail;
  int rmin[32];                         /* smallest r with (N-1-r)(N-r)/N^2 <= target */
  int shift_width[32][2];               /* rmin - 1 and rmin */
  double shift_bound[32][2], shift_mse[32][2], shift_se[32][2]; /* shift_bound: the bound x bound_scale */
  int width_off;
  double rmin_slope;                    /* log-log slope of rmin against N */
} nnt_qstr_rnn_oracle_result;
void nnt_qstr_rnn_oracle_cfg_default(nnt_qstr_rnn_oracle_cfg *c, nnt_preset preset);
/* NNT_ECHECK (after filling r) when the oracle is not exact or the shift register is off the bound. */
int nnt_qstr_rnn_oracle_run(const nnt_qstr_rnn_oracle_cfg *c, nnt_qstr_rnn_oracle_result *r);
/* The memory a rnn-oracle run holds at its largest N, in bytes, and (seconds not NULL) its time at
 * 10^9 multiply-adds a second; check: NNT_EINVAL naming the option when a value is bad or the run
 * cannot fit in the memory available. */
double nnt_qstr_rnn_oracle_bytes(const nnt_qstr_rnn_oracle_cfg *c, double *seconds);
int nnt_qstr_rnn_oracle_check(const nnt_qstr_rnn_oracle_cfg *c);

/* Theorem 9 (rnn_minnorm.c): min-norm ERM of a bidirectional RNN on 1STR (q = 1, linear link) needs
 * n >= c2 N^c1 training prompts, with absolute constants the theorem does not give. The RNN: both
 * transitions frozen as full shift registers (width N - 1 per direction, a state linear in the tokens
 * holding every token, so Prop. 8's floor is 0), the readout linear in (h->_i, x_i, h<-_i) with its
 * coefficients chosen by the position encoding f_P(t_i, i) = one-hot(t_i - i): y^_i = sum_k
 * <M[t_i - i][k], x_{i+k}>. Min-norm ERM over M (every label interpolated, ||M||_F least) is exact.
 * Per N the exact test MSE after n = 0, 1, ..., budget (2N - 1) d prompts, the smallest n reaching the
 * target (n*), ||M^||_F there against ||M*||_F = sqrt(2N - 1) of the readout that generalises, and
 * the log-log slope of n* against N with its standard error: exit 1 (NNT_ECHECK) unless it is above
 * 0 by more than 5 standard errors. retrieve = 1 is the control outside the theorem: the readout
 * sees x_{t_i} itself (what attention retrieves), n* does not grow and the check fails. */
typedef struct {
  int nN, Ns[32];
  int d;
  double target;           /* exact test MSE n* must reach (0.5; the zero predictor's is 1) */
  double budget;           /* prompts per N: budget x (2N - 1) d (the readout's inputs per offset) */
  int retrieve;            /* 1: the control readout <w, x_{t_i}> (budget x d prompts) */
  uint64_t seed;
} nnt_qstr_rnn_minnorm_cfg;
typedef struct {
  int nN, Ns[32], n_max[32];
  int nstar[32], censored[32], ncensored; /* censored: the budget did not reach the target (n* = budget) */
  double risk_at[32], norm_at[32], norm_true[32]; /* at n*: exact test MSE, ||M^||_F; ||M*||_F */
  double *risk[32], *norm[32];            /* per N: exact test MSE and ||M^||_F after n = 0..n_max prompts */
  double slope, slope_se;                 /* log n* = a + slope log N */
  int grows;                              /* slope - 5 slope_se > 0 */
} nnt_qstr_rnn_minnorm_result;
void nnt_qstr_rnn_minnorm_cfg_default(nnt_qstr_rnn_minnorm_cfg *c, nnt_preset preset);
/* NNT_EINVAL naming the option when a value is bad or the run cannot fit in memory. */
int nnt_qstr_rnn_minnorm_check(const nnt_qstr_rnn_minnorm_cfg *c);
/* Peak bytes, and (seconds not NULL) its time at 10^9 multiply-adds a second. */
double nnt_qstr_rnn_minnorm_bytes(const nnt_qstr_rnn_minnorm_cfg *c, double *seconds);
/* NNT_ECHECK (after filling r) when n* does not grow with N; r's curves are freed by result_free. */
int nnt_qstr_rnn_minnorm_run(const nnt_qstr_rnn_minnorm_cfg *c, nnt_qstr_rnn_minnorm_result *r);
void nnt_qstr_rnn_minnorm_result_free(nnt_qstr_rnn_minnorm_result *r);
/* n 1STR prompts from the task generator: tokens X[n][N][d], labels y[n][N], indices t[n][N], u[d]. */
typedef struct {
  int N, d, n;
  double *X, *y, *u;
  int *t;
} nnt_qstr_minnorm_data;
int nnt_qstr_minnorm_data_draw(const nnt_qstr_task *t, nnt_rng *r, int n, nnt_qstr_minnorm_data *s);
void nnt_qstr_minnorm_data_free(nnt_qstr_minnorm_data *s);
/* The min-norm interpolating readout on the first b prompts of s for b = 0..s->n, from the labels
 * alone (one orthonormal basis per offset, a sample at a time): risk[b] its exact test MSE
 * sum_delta sum_k #{i : i, i + delta, i + k in [0, N)} / N^2 |M^[delta][k] - M*[delta][k]|^2,
 * norm2[b] = ||M^||_F^2; M (optional, (2N - 1) x (2N - 1) x d, retrieve: d) the readout after all n. */
int nnt_qstr_minnorm_curve(const nnt_qstr_minnorm_data *s, int retrieve, double *risk, double *norm2, double *M);

/* ---------------------------------------------------------------- theory */
/* Eq. (A.2) construction as a trp model: H = q heads, W^(h) = alpha I in rows of the query's
 * code of t_ih and columns of the key's own code, 2NN a = (1, -1), W = (u; -u)/sqrt(q) on each
 * head's x part (needs the linear link, uniform law). Sets up mo and p (caller frees p). */
int nnt_qstr_construct(const nnt_qstr_task *t, double alpha, nnt_qstr_model *mo, double **p);
/* For n prompts: the closed form (1/q) sum_j (sum_h [j = t_ih] - A^h_ij)^2 of the conditional MSE
 * given the indices (attention weights computed directly from the codes), and the Monte-Carlo MSE
 * of the constructed model on the same prompts (forward pass, Gaussian tokens), with its
 * standard error. */
void nnt_qstr_construct_mse(const nnt_qstr_task *t, double alpha, nnt_rng *r, int n, double *closed, double *mc,
                            double *mc_se);
/* MSE of the eq. (A.2) attention (q heads, sharpness alpha) followed by the exact link applied to
 * the retrieved mixtures sum_j A^h_ij x_j: the construction's error for any link and either law. */
double nnt_qstr_construct_link_mse(const nnt_qstr_task *t, double alpha, nnt_rng *r, int n);
/* Theorem 6 mechanism: n simple-1STR training inputs x in R^{Nd} (tokens only), u uniform on the
 * sphere; for each index t the min-norm least-squares fit of y = <u, x_t> on those inputs (the
 * best a first layer in their span can do). Returns the Monte-Carlo test MSE on n_test fresh
 * prompts with uniform t, averaged over `trials` draws (expect 1 - n/(Nd) for n <= Nd); *se is
 * the standard error between the trials' means (their test points share u and X). */
double nnt_qstr_ffn_minnorm_mse(int N, int d, int n, int n_test, int trials, nnt_rng *r, double *se);
/* The oracle RNN of Prop. 28 / App. C for simple-qSTR: Psi(z) = (x 1[t_l = i])_l as a ReLU net
 * z (D) -> 2d + 2q d_e -> 2d + 2q -> 2qd -> qd (linear), the transitions h <- Pi_rh(h + Psi(z)) in
 * both directions, the readout f_y(h-> + h<- + Psi(z_i)) = a^T relu(Wy v + by) + cy the link as a
 * two-layer ReLU net. W[l], b[l]: layer l, rows x cols. */
typedef struct {
  int N, d, q, de, D, dh, m;
  double B, rh;
  int rows[4], cols[4];
  double *W[4], *b[4];
  double *Wy, *by, *ay, cy;
} nnt_qstr_oracle;
/* Needs simple-qSTR, the uniform law and a linear or relu link; exact for distinct codes. */
int nnt_qstr_oracle_build(const nnt_qstr_task *t, double B, nnt_qstr_oracle *o);
void nnt_qstr_oracle_free(nnt_qstr_oracle *o);
/* yhat[N] for one prompt X[N][D]. */
void nnt_qstr_oracle_forward(const nnt_qstr_oracle *o, const double *X, double *yhat);
/* Number of parameters (every entry of every weight matrix and bias) and their Euclidean norm. */
void nnt_qstr_oracle_size(const nnt_qstr_oracle *o, long *params, double *norm);
/* 1STR, linear link: the MSE floor (N-1-r)(N-r)/N^2 of a bidirectional RNN with r numbers per
 * direction of state linear in the tokens (any readout), and the smallest r meeting c. */
double nnt_qstr_rnn_linear_bound(int N, int r);
int nnt_qstr_rnn_min_width(int N, double c);
/* MSE of the shift-register RNN of width r on n 1STR prompts of t (q = 1, linear link). */
double nnt_qstr_rnn_shift_mse(const nnt_qstr_task *t, int r, nnt_rng *g, int n, double *se);
/* Head lower bounds: 1 - H(q+d)/(qd) (Prop. 3) and 1 - H/q (Prop. 21), clipped at 0. */
double nnt_qstr_heads_bound(int H, int q, int d);
double nnt_qstr_heads_bound_exact(int H, int q);

#endif
