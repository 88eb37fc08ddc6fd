/* nnt_rcnn_rule.h — the exact rule-level RCNN of seed 002 (spec §3, §4.3–§4.6, §4.9): the
 * paper's f̄ as a synchronous cellular automaton over balanced-ternary cells (nnt_rcnn_tern.h),
 * trained by Algorithm 1 exactly.
 *
 * Grid: m+1 rows (the m examples, then the dummy example / test point) and d+1+work columns (the
 * main grid: features and label; then the 1s region), boundary padding p on all four sides. One
 * layer applies f̄_Conv2D to every cell's von Neumann neighbourhood: f̄_msg in the unknown phase
 * (memorisation and compute broadcasts, rule 3 at the bottom-RIGHT main cell), f̄_TM in the
 * compute phase (one step of the 2-D TM with collision sensing; the receiving cell takes the state
 * from the neighbour that holds the head), identity in the memorisation phase. Each cell also
 * yields its ∂/∂x00 flag (1 for the memorisation identity and f̄_msg rule 1, else 0; every other
 * partial is 0), so the L-layer Jacobian is diagonal, the AND of the flags over the layers.
 *
 * Output f = Σ over the main grid only of the head g (spec §4.4). Algorithm 1: W = 0 exactly;
 * one SGD pass over the examples and then the dummy (1_d, +1), loss ½(y - f)², η = 1/54, memory
 * layer X = W·diag(z), z = [x, 1]. Arithmetic is in integers: cells are n = a·3^K, W is held as
 * 54·3^K·W, so every update is exact.
 *
 * The roll-out evaluates, after layer 1, only the cells whose neighbourhood changed in the layer
 * before: f̄ is time-invariant, so an unchanged patch gives the same value and the same flag
 * (AND-ing it again changes nothing), and the result is that of the full sweep (full = 1). When
 * nothing changes the remaining layers are identities and are skipped.
 */
#ifndef NNT_RCNN_RULE_H
#define NNT_RCNN_RULE_H
#include <stdint.h>

#include "nnt_rcnn_tern.h"
#include "nnt_rcnn_tm2d.h"
#include "nnt_sweep.h"

typedef struct {
  const nnt_rcnn_tm2d *tm;
  nnt_rcnn_tern tern;
  int m, d, work, rows, cols, L;
  int full;                  /* evaluate every cell in every layer (the reference sweep) */
  int64_t *W;                /* (m+1)×(d+1), scaled by 54·3^K */
  int32_t *cur;              /* rows×cols */
  unsigned char *alive;      /* product of the ∂/∂x00 flags so far */
  int *list, *cand, *stamp;  /* changed cells, cells to evaluate, dedupe marks */
  int32_t *newval;
  nnt_rcnn_tern_set seen;    /* every value a cell held in any roll-out */
  long last_change;          /* last layer of the latest roll-out in which a cell changed */
  /* called for every cell evaluated (NULL: none): patch = c, up, down, left, right */
  void (*visit)(void *ctx, const int32_t *patch, int32_t out, int flag);
  void *visit_ctx;
} nnt_rcnn_rule_net;

/* A network for tm (kept by pointer) on m examples of dimension d with `work` 1s columns
 * (>= 1: rule 3 tests x_{0,1} == 1) and depth L. NNT_EINVAL on bad sizes. */
int nnt_rcnn_rule_init(nnt_rcnn_rule_net *net, const nnt_rcnn_tm2d *tm, int m, int d, int work, int L);
void nnt_rcnn_rule_free(nnt_rcnn_rule_net *net);

/* The head g = f̄_head scaled by 3^K, and its derivative (0 or ±18; at the kinks 0 and 1/9, the
 * 4-ReLU formula's with σ'(0) = 0). n must decode. */
int64_t nnt_rcnn_rule_head(const nnt_rcnn_tern *t, int32_t n);
int nnt_rcnn_rule_head_slope(const nnt_rcnn_tern *t, int32_t n);

/* f̄_Conv2D on one patch: c, up, down, left, right (p = NNT_RCNN_TERN_P); *flag = ∂/∂x00. */
int32_t nnt_rcnn_rule_cell(const nnt_rcnn_rule_net *net, int32_t c, int32_t up, int32_t down, int32_t left,
                           int32_t right, int *flag);

/* Memory layer for z = [x, 1] (x: d values ±1), L layers, then F = 3^K·f. NNT_ECHECK when a
 * memory value is off the codec's grid or a cell leaves the codec's range. */
int nnt_rcnn_rule_forward(nnt_rcnn_rule_net *net, const signed char *x, int64_t *F);

/* Algorithm 1 on X (m×d) and y. fzero[i] = 1 when f == 0 at SGD step i (m+1 entries, the dummy
 * last); may be NULL. */
int nnt_rcnn_rule_train(nnt_rcnn_rule_net *net, const signed char *X, const signed char *y, unsigned char *fzero);
/* The first `steps` SGD steps of Algorithm 1 only (W^(steps+1)); fzero as above. */
int nnt_rcnn_rule_train_steps(nnt_rcnn_rule_net *net, const signed char *X, const signed char *y, int steps, unsigned char *fzero);
/* Lemma 2, part 1: W == (1/3)[y·x, y] exactly, the dummy row (1/3)[1_d, 1]. */
int nnt_rcnn_rule_w_exact(const nnt_rcnn_rule_net *net, const signed char *X, const signed char *y);

/* ---- the experiment: a parity learned by a bundled TM inside the rule-level RCNN */
typedef struct {
  const char *learner; /* a bundled learner's name or a .tm2d file (nnt_rcnn_tm2d_learner_open) */
  int d, m, tests;
  uint64_t seed;
  int work;         /* 1s columns */
  int depth;        /* 0: L = max(m+1, m+d+1, t+1), t the direct TM's largest step count */
  int level;        /* 0: the rule level; 1: also the compiled ReLU network (nnt_rcnn_nn.h), whose outputs are reported */
  int nocache;      /* level 1: no patch cache (the cache, an acceleration, is on by default) */
} nnt_rcnn_learn_cfg;
void nnt_rcnn_learn_cfg_default(nnt_rcnn_learn_cfg *c, nnt_preset preset);
/* The config's checks before any work (the run calls it first): NNT_EINVAL naming the option. */
int nnt_rcnn_learn_check(const nnt_rcnn_learn_cfg *c);
/* The run's size at depth L: the memory it holds (bytes) and its time estimate (seconds; the
 * compiled network's roll-outs dominate, about NNT_RCNN_NN_CELLS_PER_S cell evaluations a second a
 * thread, measured on a loaded 2-core x86-64). The check uses the least depth (--depth, or m+d+1),
 * the run the real one once the direct TM's step counts are known: it refuses what does not fit
 * (NNT_EINVAL naming --m, --d, --tests or --level) and announces a long run (nnt_time_notice). */
enum { NNT_RCNN_NN_CELLS_PER_S = 3000000 };
void nnt_rcnn_learn_size(const nnt_rcnn_learn_cfg *c, long L, int threads, double *bytes, double *seconds);

typedef struct {
  int rcnn;         /* ±1, or 0 when f is not ±1 */
  double f;         /* the RCNN's output */
  int tm;           /* the direct simulator's output (0: no readout) */
  int truth;        /* the parity's label */
  long steps;       /* the direct TM's steps t */
  double f_rule;    /* level 1: the rule level's output (the reference of f) */
} nnt_rcnn_learn_point;

typedef struct {
  int nstates, K, L, work;
  long t_max;
  int w_exact;           /* W == (1/3)[y·x, y] after SGD */
  int fzero_steps;       /* SGD steps with f == 0 (of m+1) */
  long nvalues, nuniverse;
  int values_ok;         /* every value held is in the universe of 10 + 4|Q| */
  int tests, agree, correct;
  nnt_rcnn_learn_point *pt;
  double train_s, test_s;
  /* level 1: the compiled network */
  int h1, h2;
  long nonzeros;
  double w_err;          /* max |W − (1/3)[y·x, y]| after SGD */
  double f_sgd;          /* max |f| over the SGD steps */
  double f_err;          /* max |f − f_rule| over the test points */
  double max_verr, max_gerr; /* per patch evaluation against f̄ and its flags */
  long nchecked, offgrid, ncache, nlookup, nhit;
  double rule_s;         /* the rule level's training and predictions */
} nnt_rcnn_learn_result;

/* Draws the dataset (nnt_rcnn_tm2d_parity, stream 0 of seed) and `tests` test points (stream 1),
 * trains, and runs both the RCNN and the direct TM on every point. Level 1 trains the compiled
 * network too (real gradients) and reports its outputs; the rule level is its reference. NNT_OK whatever the
 * comparisons find; NNT_EINVAL on a bad config, NNT_ECHECK when a roll-out leaves the domain. */
int nnt_rcnn_learn_run(const nnt_rcnn_learn_cfg *c, nnt_rcnn_learn_result *r);
void nnt_rcnn_learn_result_free(nnt_rcnn_learn_result *r);

/* ---- grid snapshots (the paper's Figure 3): the cell values at chosen layers of two roll-outs */
typedef struct {
  int learner, d, m, work;
  uint64_t seed;
  int step;          /* SGD step shown in the memorisation phase (1..m+1; 0: the middle one) */
  int mem_layer;     /* layer of that roll-out shown (0: the step's row distance to the bottom, half way) */
  int compute_layer; /* layer of the first test point's roll-out shown (0: t/2) */
} nnt_rcnn_snapshot_cfg;
void nnt_rcnn_snapshot_cfg_default(nnt_rcnn_snapshot_cfg *c, nnt_preset preset);
typedef struct {
  int rows, cols, L, t, step, mem_layer, compute_layer;
  double *memory;    /* rows×cols: the memory layer's output at the test point after training (the XOR tape) */
  double *memorise;  /* the grid at mem_layer of SGD step `step` */
  double *compute;   /* the grid at compute_layer of the test point's roll-out */
  double *final;     /* the grid after all L layers of that roll-out */
} nnt_rcnn_snapshot_result;
int nnt_rcnn_snapshot_run(const nnt_rcnn_snapshot_cfg *c, nnt_rcnn_snapshot_result *r);
void nnt_rcnn_snapshot_result_free(nnt_rcnn_snapshot_result *r);

#endif
