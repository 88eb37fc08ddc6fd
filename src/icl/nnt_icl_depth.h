/* nnt_icl_depth.h — Figure 3 of seed 003 as one run: transformers of several depths (given as
 * checkpoints, or trained here one per depth), each evaluated in-distribution on the same seeded
 * prompts, R² at a few numbers of in-context examples with the prompt mean and ridge beside it. */
#ifndef NNT_ICL_DEPTH_H
#define NNT_ICL_DEPTH_H
#include "nnt_icl_eval.h"
#include "nnt_icl_gpt.h"

enum { NNT_ICL_DEPTH_MAXM = 32, NNT_ICL_DEPTH_MAXE = 8 };

typedef struct {
  nnt_icl_eval_cfg eval; /* prompts, batch, ridge, seed, progress; the task, mixture and model are the run's */
  int nexamples, examples[NNT_ICL_DEPTH_MAXE]; /* numbers of in-context examples reported */
  int n;                 /* test points per prompt: more than every example */
  int nmodels;           /* checkpoints of one task, or: */
  const char *models[NNT_ICL_DEPTH_MAXM];
  int ntrain;            /* models trained first into dir/L<layers>/ (resumable): one config per depth */
  nnt_icl_train_cfg train[NNT_ICL_DEPTH_MAXE];
  int preset;            /* nnt_icl_preset the training configs come from (named in messages) */
  const char *dir;       /* dir/model<i>/ keeps each evaluation (resumable); NULL: in memory (no training then) */
  int resume, force;
} nnt_icl_depth_cfg;

typedef struct {
  int nm;
  char *paths[NNT_ICL_DEPTH_MAXM];             /* the checkpoints evaluated */
  nnt_icl_gpt_arch arch[NNT_ICL_DEPTH_MAXM];
  nnt_icl_eval_result res[NNT_ICL_DEPTH_MAXM]; /* one condition: the models' training mixture */
  nnt_icl_eval_cfg used;                       /* the evaluation's settings (task included) */
  double wall;                                 /* seconds of evaluation */
} nnt_icl_depth_result;

/* Everything checked before any work: the lists, the training configs, the evaluation's settings,
 * and the given checkpoints loaded (one task, enough position slots). */
int nnt_icl_depth_check(const nnt_icl_depth_cfg *c);
int nnt_icl_depth_run(const nnt_icl_depth_cfg *c, nnt_icl_depth_result *r);
void nnt_icl_depth_result_free(nnt_icl_depth_result *r);

/* Points an evaluation at a loaded model: its predictions, and its identity in the sweep's config
 * (the path and a hash of the checkpoint's bytes, so a resumed evaluation never mixes points of a
 * retrained model with the old ones) written into tag (n >= strlen(path) + 18). */
void nnt_icl_eval_use_model(nnt_icl_eval_cfg *c, nnt_icl_gpt *m, const char *path, char *tag, size_t n);

#endif
