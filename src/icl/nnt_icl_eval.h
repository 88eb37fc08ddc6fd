/* nnt_icl_eval.h — R²-versus-k evaluation of in-context predictors on the ICL task (§7.6–7.10).
 *
 * Predictors read the first k pairs (x_1, y_1 .. x_k, y_k) of a prompt and predict y at x_{k+1},
 * for every position k = 0..n-1 (k in-context examples). The trivial baselines run in double
 * precision on the same float prompts a model sees: the prompt mean of the k seen y's, ridge
 * with intercept (the intercept unpenalised), 3-NN (fewer neighbours while k < 3), and direct
 * training of a fresh net per prompt and k (§7.7, Garg's GDModel: ReLU net of the target depth
 * with biases, PyTorch-default init U(±1/sqrt(fan_in)), Adam on the MSE, full batch), whose
 * query R² is reported at the best epoch (the paper's oracle choice, per batch of prompts) and
 * at the final epoch. At k = 0 every baseline predicts 0.
 *
 * R²_k is computed across prompts at each position (§7.8), in two variants: per batch
 * (1 − SSE_b/SS_b for each batch of `batch` prompts, then the mean and std over batches) and
 * pooled over all prompts. Where the targets have (numerically) zero variance R² is undefined:
 * the result flags it (defined = 0, value 0), never NaN.
 *
 * The work runs on the sweep engine, one point per (test condition, batch of prompts), so a run
 * resumes (--resume) and is the same for any thread count. */
#ifndef NNT_ICL_EVAL_H
#define NNT_ICL_EVAL_H
#include <stdint.h>

#include "nnt_icl_task.h"
#include "nnt_sweep.h"

/* ---------------------------------------------------------------- baselines on one prompt */
/* Mean of y[0..k-1] (0 at k = 0). */
double nnt_icl_pred_mean(const double *y, int k);
/* Ridge regression with intercept on (x (k×d), y): minimises Σ(y - a - bᵀx)² + lambda|b|², a
 * unpenalised, by the Cholesky factor of the centred normal equations (plain C, so the same bits
 * on every CPU); lambda > 0; returns a + bᵀxq (0 at k = 0). */
double nnt_icl_pred_ridge(const double *x, const double *y, int k, int d, double lambda, const double *xq);
/* Mean y of the 3 nearest (Euclidean; ties to the earlier point) of the k points (0 at k = 0). */
double nnt_icl_pred_knn3(const double *x, const double *y, int k, int d, const double *xq);

/* Adam (Kingma & Ba, beta1 0.9, beta2 0.999, eps 1e-8) over a flat parameter vector. */
typedef struct {
  double lr;
  long t;
  double *m, *v;
  size_t n;
} nnt_icl_adam;
void nnt_icl_adam_init(nnt_icl_adam *a, size_t n, double lr);
void nnt_icl_adam_step(nnt_icl_adam *a, double *w, const double *g);
void nnt_icl_adam_free(nnt_icl_adam *a);

typedef struct {
  int depth, width; /* the fresh net (biases on, ReLU hidden, linear output) */
  int steps;        /* full-batch Adam steps = the paper's "epochs" (100) */
  double lr;        /* 5e-3 */
} nnt_icl_direct_cfg;
/* Trains a fresh net (init from r) on the k pairs and writes the query prediction after each step
 * into pred[0..steps-1]; returns the final training MSE. k = 0: pred = 0. */
double nnt_icl_direct_train(const nnt_icl_direct_cfg *c, const double *x, const double *y, int k, int d,
                            const double *xq, nnt_rng *r, double *pred);

/* ---------------------------------------------------------------- R² across prompts */
/* Sufficient statistics of one batch at one position: count, mean and centred sum of squares of
 * y, and the SSE of a predictor. */
typedef struct {
  double n, mean, m2, sse;
} nnt_icl_r2_acc;
/* Adds batch b into the pooled accumulator a (Chan et al.'s parallel update). */
void nnt_icl_r2_merge(nnt_icl_r2_acc *a, const nnt_icl_r2_acc *b);
/* R² = 1 - sse/m2; returns 0 (undefined) when m2 <= 1e-14·n·(mean² + m2/n) or n < 2. */
int nnt_icl_r2(const nnt_icl_r2_acc *a, double *r2);

/* ---------------------------------------------------------------- the evaluation run */
enum { NNT_ICL_PRED_MEAN, NNT_ICL_PRED_RIDGE, NNT_ICL_PRED_KNN3, NNT_ICL_PRED_DIRECT_BEST,
       NNT_ICL_PRED_DIRECT_FINAL, NNT_ICL_PRED_MODEL, NNT_ICL_NPRED };
extern const char *const nnt_icl_pred_names[]; /* "mean","ridge","knn3","direct_best","direct_final","model" */

enum { NNT_ICL_MAXCOND = 16, NNT_ICL_MAXK = 64 };
/* A model to evaluate: pred (B×n) = its prediction of y at every position of B float prompts.
 * Called from one thread at a time. */
typedef int (*nnt_icl_model_fn)(void *ctx, const float *xs, const float *ys, int B, int n, float *pred);

typedef struct {
  nnt_icl_task task; /* d, n (test positions), target; mix2 and w_mean are set per condition */
  int nmix;
  double mix[NNT_ICL_MAXCOND]; /* test mixtures mix2 (0, 0.1, 0.3, 0.5) */
  double w_shift;    /* > 0: also target weight mean -w_shift and +w_shift (mix2 = mix[0]) */
  int prompts, batch; /* test prompts, a multiple of batch (6400 and 64 in the paper) */
  double ridge;      /* ridge lambda */
  int direct;        /* run the direct-training baseline */
  nnt_icl_direct_cfg dc; /* its net and optimiser; depth 0 = the target depth */
  int nk;
  int ks[NNT_ICL_MAXK]; /* positions k where direct training runs (it costs Σk·steps per prompt) */
  nnt_icl_model_fn model; /* NULL: baselines only */
  void *model_ctx;
  const char *model_tag; /* identifies the model in the sweep's config text (e.g. its path) */
  double model_bytes;    /* the model's memory for one batch (nnt_icl_gpt_train_bytes; 0: no model) */
  uint64_t seed;     /* test prompts are streams (seed, NNT_ICL_TEST_FIRST + i) */
  int threads, progress;
  const char *dir;   /* results.sqlite; NULL: in memory */
  int resume;
} nnt_icl_eval_cfg;

void nnt_icl_eval_cfg_default(nnt_icl_eval_cfg *c, nnt_preset p);
/* Every value, and the memory the evaluation holds (a batch of prompts per thread, the model's)
 * against the memory available: NNT_EINVAL with one line naming the option to change. */
int nnt_icl_eval_check(const nnt_icl_eval_cfg *c);

typedef struct {
  double mix2, w_mean;
} nnt_icl_cond;

typedef struct {
  int ncond, npos, nbatch;
  nnt_icl_cond cond[NNT_ICL_MAXCOND];
  int has[NNT_ICL_NPRED]; /* the predictor ran */
  /* [(cond*NPRED + pred)*npos + k]; defined flags: pooled 0/1, per batch the number of batches
   * with a defined R² (mean and sd over those). A predictor not run at k has 0 batches. */
  double *pooled, *batch_mean, *batch_sd;
  int *pooled_ok, *batch_ok;
  double *y_mean, *y_sd; /* [cond*npos + k]: the targets' pooled mean and std */
  nnt_sweep_stats stats;
} nnt_icl_eval_result;

int nnt_icl_eval_run(const nnt_icl_eval_cfg *c, nnt_icl_eval_result *r);
void nnt_icl_eval_result_free(nnt_icl_eval_result *r);
/* Index into the result arrays. */
static inline int nnt_icl_eval_at(const nnt_icl_eval_result *r, int cond, int pred, int k) {
  return (cond * NNT_ICL_NPRED + pred) * r->npos + k;
}

#endif
