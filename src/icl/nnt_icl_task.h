/* nnt_icl_task.h — the in-context regression task of seed 003 (§7.2–7.3): prompts of n points
 * x ~ (1-mix2)·N(-mu·1, I) + mix2·N(+mu2·1, I), the component drawn per point (the default) or once
 * per prompt, labelled by a fresh random N-layer network per prompt (hidden layers of width K with
 * activation `act`, ReLU in the paper; linear scalar output, no bias), plus optional label noise.
 *
 * Prompt i is drawn from its own stream nnt_rng_init(seed, i): first the target's weights, then per
 * point a component draw (per prompt, every point takes the first point's) and the d coordinates,
 * then (noise > 0 only) one normal per label. So a prompt never depends on batching; two tasks
 * that differ only in mix2, w_mean, per_prompt, the centres or the noise share the same targets
 * and input noise — the test conditions of `icl eval` are coupled on purpose; and without noise a
 * prompt of fewer points, or with d_active < d, is the same prompt cut short.
 *
 * Weights: per layer j with fan-in f_j, N(m_j, s_j²) where
 *   w_std > 0  (literal, the paper's N(0, 1)): s_j = w_std, m_j = w_mean;
 *   w_std <= 0 (He scaling, the default):     s_j = sqrt(2/f_j) on the ReLU layers and sqrt(1/f_j)
 *              on the linear output layer, m_j = w_mean·s_j (a mean shift in units of the std).
 * With He scaling and w_mean = 0, E[y²] = y_scale²·E||x||²/d = y_scale²·(mu² + 1) for every depth
 * (std(y) ≈ 2.24 at mu = 2, the spec's "≈ 2.2"); literal N(0, 1) weights at width 200 give
 * std(y) ≈ 1e3 (N = 3), 1e4 (N = 4), 1e6 (N = 6). */
#ifndef NNT_ICL_TASK_H
#define NNT_ICL_TASK_H
#include <stdint.h>

#include "nnt_icl_net.h"

typedef struct {
  int d;            /* input dimension */
  int n;            /* points per prompt (in-context examples + the query) */
  int depth, width; /* target net: N layers of width K, ReLU hidden, linear output, no bias */
  double w_mean, w_std; /* target weights N(w_mean, w_std²); w_std <= 0: He scaling (see above) */
  double y_scale;   /* global multiplier on y */
  double mix2;      /* per point: N(+mu·1, I) with probability mix2, else N(-mu·1, I) */
  double mu;        /* the first component's centre is -mu·1 (2 in the paper) */
  double mu2;       /* the second component's centre is +mu2·1 (2 in the paper) */
  double noise;     /* label noise: y += noise·N(0, 1) after y_scale (0 in the paper) */
  int act;          /* the targets' hidden activation (nnt_icl_act; ReLU in the paper) */
  int per_prompt;   /* 1: one component per prompt, drawn with probability mix2; 0: per point */
  int d_active;     /* coordinates d_active..d-1 of x are 0 (the curriculum's truncation); 0: all d */
} nnt_icl_task;

/* Test prompts start at this stream id, so they never coincide with training prompts 0, 1, ... */
#define NNT_ICL_TEST_FIRST (UINT64_C(1) << 62)

/* The spec's scaled defaults (§9): width 32, He scaling, w_mean 0, y_scale 1, mix2 0, mu = mu2 = 2,
   ReLU targets, per-point mixture, no noise. */
void nnt_icl_task_default(nnt_icl_task *t, int d, int n, int depth);
int nnt_icl_task_check(const nnt_icl_task *t);
/* 1 if the two tasks draw the same prompts (every field equal; with ignore_n, every field but n). */
int nnt_icl_task_same(const nnt_icl_task *a, const nnt_icl_task *b, int ignore_n);
/* B prompts of stream (seed, first_prompt + b), b = 0..B-1 (prompt i is the same whatever the
   batching): xs B×n×d, ys B×n, float32. */
int nnt_icl_task_sample(const nnt_icl_task *t, uint64_t seed, uint64_t first_prompt, int B,
                        float *xs, float *ys);

/* Additions beyond the shared API. */
/* The target network's shape (N = depth, K = width, dx = d, dy = 1, ReLU, linear output, no bias). */
nnt_icl_net nnt_icl_task_net(const nnt_icl_task *t);
/* One prompt in double precision: the target's weights w (nnt_icl_net_nparams doubles, may be
 * NULL), x (n×d) and y (n). The float sampler rounds exactly these values. */
int nnt_icl_task_prompt(const nnt_icl_task *t, uint64_t seed, uint64_t prompt, double *w, double *x, double *y);

#endif
