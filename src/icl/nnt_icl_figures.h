/* nnt_icl_figures.h — seed 003's Figures 1–3 as one run, from the outputs of finished runs.
 *
 * Every `icl eval` folder (r2.csv and run.json, whose model checkpoint gives the attention, the
 * model's layers, the target depth and the training length) found under a folder, two levels
 * deep, becomes a panel of Figure 1 (ReLU attention) or 2 (softmax): the model's R² against k for
 * each test mixture, the baselines of its in-distribution condition on the same axes; an eval run
 * with --w-shift also gives a weight-shift panel (ICML Figures 5–6). Every
 * `icl sweep-depth` folder (depth.csv) gives Figure 3's rows. The quick setting first trains and
 * evaluates micro models (2 attentions × target depths 3, 4, 6, and a depth sweep over 1–2
 * layers) into dir/runs/ (resumable) and draws from those results. */
#ifndef NNT_ICL_FIGURES_H
#define NNT_ICL_FIGURES_H
#include <stdint.h>

#include "nnt_icl_eval.h"

enum { NNT_ICL_FIG_MAXPANEL = 64 };

typedef struct {
  const char *runs; /* folder searched for eval and sweep-depth outputs (quick: dir/runs) */
  const char *dir;  /* the figures' folder; quick trains into dir/runs/ (NULL: in memory) */
  int quick;        /* train and evaluate micro models first */
  long steps;       /* quick: optimizer steps of each micro model */
  int resume, force;
  uint64_t seed;
  int threads;
} nnt_icl_figures_cfg;

typedef struct {
  char *path;                  /* the eval folder (quick: the model's name) */
  int attn, layers, depth;     /* the model's attention (nnt_attn_score) and layers; the target depth */
  int n_train;                 /* points per training prompt (the training length is n_train - 1 examples) */
  int ncond, npos;
  /* the test conditions in file order: mixture and target weight mean. The first condition's
   * weight mean is the panel's own (Figures 1–2 show the conditions that have it); the others
   * come from icl eval --w-shift and make the weight-shift panel (ICML Figures 5–6) together
   * with the condition of their mixture at the panel's own weight mean. */
  double mix[NNT_ICL_MAXCOND], wmean[NNT_ICL_MAXCOND];
  double *r2; /* pooled R² [(cond*NNT_ICL_NPRED + pred)*npos + k], NaN where none */
} nnt_icl_fig_panel;

typedef struct {
  char *source;            /* the depth.csv's folder */
  int attn, layers, k;
  double model, mean, ridge; /* pooled R² */
} nnt_icl_fig_depth;

typedef struct {
  int npanel;
  nnt_icl_fig_panel panel[NNT_ICL_FIG_MAXPANEL]; /* ReLU (Figure 1) then softmax, by target depth */
  int ndepth;
  nnt_icl_fig_depth *depth; /* Figure 3's rows, by attention, then layers, then k */
} nnt_icl_figures_result;

int nnt_icl_figures_check(const nnt_icl_figures_cfg *c);
int nnt_icl_figures_run(const nnt_icl_figures_cfg *c, nnt_icl_figures_result *r);
void nnt_icl_figures_result_free(nnt_icl_figures_result *r);

/* Reads one eval folder's r2.csv into p's curves (every condition); the caller sets attn, layers,
 * depth and n_train. */
int nnt_icl_fig_panel_read(const char *dir, nnt_icl_fig_panel *p);
/* Whether condition c is in Figures 1–2 (the panel's own weight mean) and whether it is in the
 * weight-shift panel (a shifted weight mean, or the own one at the shifted conditions' mixture). */
int nnt_icl_fig_in_main(const nnt_icl_fig_panel *p, int c);
int nnt_icl_fig_in_shift(const nnt_icl_fig_panel *p, int c);
/* Index into a panel's curves. */
static inline int nnt_icl_fig_at(const nnt_icl_fig_panel *p, int cond, int pred, int k) {
  return (cond * NNT_ICL_NPRED + pred) * p->npos + k;
}

#endif
