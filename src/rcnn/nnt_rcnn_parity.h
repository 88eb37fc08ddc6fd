/* nnt_rcnn_parity.h — the parity benchmark of seed 002 (Goel, Kakade, Kalai & Zhang, spec §7.6):
 * learning a full or k-sparse parity over d bits from m examples, by Gaussian elimination over
 * GF(2), by SGD on a 2-layer ReLU MLP, and by the majority baseline.
 *
 * Conventions. An input x ∈ {0,1}^d is a bitset (bit j of word j/64 is x_j; the paper's ±1 input
 * is (−1)^{x_j}); a label y ∈ {0,1} is ⟨w, x⟩ mod 2 for the secret w (the paper's ±1 label is
 * (−1)^y). Label noise flips each training label independently; test labels are noiseless, so an
 * accuracy of 1 is reachable under noise too.
 */
#ifndef NNT_RCNN_PARITY_H
#define NNT_RCNN_PARITY_H
#include <stdint.h>

#include "nnt_rng.h"
#include "nnt_sweep.h"

enum { NNT_RCNN_PARITY_MAX_D = 4096 };

/* Words of a d-bit set. */
static inline int nnt_rcnn_parity_words(int d) { return (d + 63) / 64; }
/* ⟨a, b⟩ mod 2 over nw words. */
int nnt_rcnn_parity_dot(const uint64_t *a, const uint64_t *b, int nw);

/* ---------------------------------------------------------------- data */
/* A secret over d bits: all d bits (k = 0 or k = d, the full parity) or a uniform k-subset. */
void nnt_rcnn_parity_secret(int d, int k, nnt_rng *r, uint64_t *w);

typedef struct {
  int d, nw, n;
  uint64_t *x; /* n × nw words, uniform on {0,1}^d */
  uint8_t *y;  /* n labels ⟨w, x⟩ mod 2, each flipped with probability noise */
} nnt_rcnn_parity_data;
void nnt_rcnn_parity_data_make(nnt_rcnn_parity_data *D, int d, int n, const uint64_t *w, double noise, nnt_rng *r);
void nnt_rcnn_parity_data_free(nnt_rcnn_parity_data *D);

/* ---------------------------------------------------------------- learners */
/* The RCNN learners of spec §7.6: the RCNN running the gauss-parity TM after Algorithm 1, at rule
 * level (iii) and as the compiled ReLU network with the patch cache (iv, small d). */
typedef enum {
  NNT_RCNN_PARITY_GAUSS, NNT_RCNN_PARITY_MLP, NNT_RCNN_PARITY_MAJORITY, NNT_RCNN_PARITY_RCNN, NNT_RCNN_PARITY_RCNN_NN,
  NNT_RCNN_PARITY_MLP_ONLINE, /* the MLP in the online regime: one SGD pass, every example used once */
  NNT_RCNN_PARITY_NLEARNERS
} nnt_rcnn_parity_learner;
extern const char *const nnt_rcnn_parity_learner_names[]; /* "gauss", "mlp", "majority", "rcnn", "rcnn-nn", "mlp-online", NULL */
/* "gauss,mlp" → out[*n]; NNT_EINVAL with one line on an unknown or repeated name. */
int nnt_rcnn_parity_learners_parse(const char *s, int *out, int *n);

/* Gaussian elimination over GF(2), one example at a time: each example is reduced against the pivot
 * rows kept so far (augmented with the label bit); a nonzero remainder becomes a new pivot row, a
 * zero remainder with label 1 is an inconsistent example (only under label noise) and is dropped.
 * The hypothesis is the solution w of the kept rows with every free coordinate (non-pivot column)
 * set to 0: it is consistent with every kept example, and when the examples span {0,1}^d it is the
 * secret itself. On a query x outside the span of the examples the prediction is ⟨w, x⟩ all the
 * same, i.e. that of this particular consistent hypothesis (_determined says whether every
 * consistent parity would agree). */
typedef struct {
  int d, nw, nwa;  /* nwa: words of an augmented row (d + 1 bits, the label at bit d) */
  int rank, inconsistent;
  int *pivot_row;  /* column → row index in rows, or -1 */
  uint64_t *rows;  /* rank × nwa */
  uint64_t *w;     /* the hypothesis, nw words */
} nnt_rcnn_parity_gauss;
void nnt_rcnn_parity_gauss_fit(nnt_rcnn_parity_gauss *g, const nnt_rcnn_parity_data *D);
int nnt_rcnn_parity_gauss_predict(const nnt_rcnn_parity_gauss *g, const uint64_t *x);
/* 1 when x lies in the span of the kept examples, so every parity consistent with them agrees. */
int nnt_rcnn_parity_gauss_determined(const nnt_rcnn_parity_gauss *g, const uint64_t *x);
void nnt_rcnn_parity_gauss_free(nnt_rcnn_parity_gauss *g);

/* 2-layer ReLU MLP f(x) = v·relu(W u + b) + c on u = (−1)^x ∈ {±1}^d, trained by plain SGD (batch 1)
 * on the logistic loss ln(1 + exp(−ỹ f)), ỹ = (−1)^y, for `epochs` passes over the m training
 * examples in a fresh random order each pass (the sample-limited regime). Init: W ~ N(0, 2/d)
 * (He), v ~ N(0, 1/h), b = c = 0. Predicts y = 1 when f < 0. */
typedef struct {
  int hidden, epochs;
  double lr;
} nnt_rcnn_parity_mlp_cfg;
typedef struct {
  int d, h;
  double *p; /* W (h × d, row-major), b (h), v (h), c (1): h(d + 2) + 1 values */
} nnt_rcnn_parity_mlp;
void nnt_rcnn_parity_mlp_init(nnt_rcnn_parity_mlp *net, int d, int hidden, nnt_rng *r);
int nnt_rcnn_parity_mlp_nparams(const nnt_rcnn_parity_mlp *net);
double nnt_rcnn_parity_mlp_forward(const nnt_rcnn_parity_mlp *net, const uint64_t *x, double *hid /* h, may be NULL */);
/* Loss of one example and, if grad is not NULL, its gradient (nparams values) w.r.t. p. */
double nnt_rcnn_parity_mlp_loss_grad(const nnt_rcnn_parity_mlp *net, const uint64_t *x, int y, double *grad);
/* NNT_ENUMERIC when the loss stops being finite. */
int nnt_rcnn_parity_mlp_train(nnt_rcnn_parity_mlp *net, const nnt_rcnn_parity_data *D, const nnt_rcnn_parity_mlp_cfg *c, nnt_rng *r);
int nnt_rcnn_parity_mlp_predict(const nnt_rcnn_parity_mlp *net, const uint64_t *x);
void nnt_rcnn_parity_mlp_free(nnt_rcnn_parity_mlp *net);

/* Majority baseline: the more frequent training label (0 on a tie), whatever the input. */
int nnt_rcnn_parity_majority_fit(const nnt_rcnn_parity_data *D);

/* ---------------------------------------------------------------- the benchmark */
/* One grid point: learner trained on m examples of a d-bit parity, tested on `tests` fresh ones. */
typedef struct {
  int d, m, learner, rep;
  double acc;        /* test accuracy against the noiseless parity */
  double train_acc;  /* accuracy on the (noisy) training labels */
  double determined; /* gauss: fraction of test queries in the span of the examples; NaN otherwise */
  double agree_tm;   /* rcnn, rcnn-nn: fraction of test queries where the RCNN equals the direct TM; NaN otherwise */
  double wall_s;     /* training and testing time of the learner */
} nnt_rcnn_parity_point;

/* Mean over repetitions per (d, m, learner). */
typedef struct {
  int d, m, learner, reps;
  double acc_mean, acc_sd, wall_mean;
  double agree_tm;   /* mean of the points' agree_tm (NaN but for the RCNN learners) */
} nnt_rcnn_parity_agg;

typedef struct {
  int ds[16], nd;
  int ms[64], nm;
  int learners[NNT_RCNN_PARITY_NLEARNERS], nlearners;
  int reps, tests;
  int rcnn_tests; /* the RCNN learners predict only the first rcnn_tests test examples (each query re-runs the learner) */
  int k;          /* sparsity; 0 = full parity over all d bits */
  double noise;   /* training-label flip rate in [0, 1/2) */
  nnt_rcnn_parity_mlp_cfg mlp;
  uint64_t seed;
  int threads, progress;
  const char *dir; /* results.sqlite folder, or NULL */
  int resume;
} nnt_rcnn_parity_bench_cfg;

typedef struct {
  int npoints, nagg;
  nnt_rcnn_parity_point *points; /* in order d, m, learner, rep (the config's list orders) */
  nnt_rcnn_parity_agg *agg;      /* in order d, m, learner */
  double wall_s;
  int stored, computed;          /* points read from results.sqlite / computed by this run */
} nnt_rcnn_parity_bench_result;

void nnt_rcnn_parity_bench_cfg_default(nnt_rcnn_parity_bench_cfg *c, nnt_preset preset);
/* NNT_EINVAL with one line on an impossible config; nothing is computed. */
int nnt_rcnn_parity_bench_check(const nnt_rcnn_parity_bench_cfg *c);
int nnt_rcnn_parity_bench_run(const nnt_rcnn_parity_bench_cfg *c, nnt_rcnn_parity_bench_result *r);
void nnt_rcnn_parity_bench_result_free(nnt_rcnn_parity_bench_result *r);
/* One point, computed directly (what a sweep point runs): the data streams depend on (seed, d, m,
 * rep) only, so every learner of a repetition sees the same training and test sets. */
int nnt_rcnn_parity_bench_point(const nnt_rcnn_parity_bench_cfg *c, int d, int m, int learner, int rep, nnt_rcnn_parity_point *p);

#endif
