/* gpt_impl.h — what gpt.c and train.c share inside the icl library (not installed API). */
#ifndef NNT_ICL_GPT_IMPL_H
#define NNT_ICL_GPT_IMPL_H
#include "nnt_icl_gpt.h"

#define ICL_CKPT_KIND "icl-gpt2"

/* Checkpoint metadata: the training config and the loss log (rows at log_every boundaries) with
 * the running window (sum and count of the losses since the last row), so a resumed run's log is
 * bit-identical. Returns a malloc'd JSON text. */
char *nnt_icl_meta_write(const nnt_icl_train_cfg *c, int nlog, const long long *log_step, const double *log_loss,
                     double wsum, int wcount);
/* Parses it (path for messages): NNT_EFORMAT with one line when it is not an icl training meta.
 * log (may be NULL) receives malloc'd rows; the caller frees both arrays. */
typedef struct {
  int n;
  long long *step;
  double *loss;
  double wsum;
  int wcount;
} nnt_icl_meta_log;
int nnt_icl_meta_parse(const char *path, const char *json, nnt_icl_train_cfg *c, nnt_icl_meta_log *log);

#endif
