/* nnt_train.h — guards and gradient utilities for training loops.
 *
 * A trainer calls nnt_train_check_loss every step; on NaN/Inf it gets NNT_ENUMERIC with the
 * message "loss is NaN at step 812", stops, and the CLI prints that line (exit status 2).
 *
 *   double norm = nnt_clip_grad_norm(&P, 1.0);
 *   if ((st = nnt_train_check_loss(step, loss)) || (st = nnt_train_check_grad_norm(step, norm))) return st;
 *   nnt_optim_step(&opt);
 */
#ifndef NNT_TRAIN_H
#define NNT_TRAIN_H
#include "nnt_params.h"

/* NNT_OK for a finite loss; NNT_ENUMERIC "loss is NaN at step N" (or +Inf / -Inf) otherwise. */
int nnt_train_check_loss(long long step, double loss);
/* The same for a gradient norm: "gradient norm is NaN at step N". */
int nnt_train_check_grad_norm(long long step, double norm);

/* Euclidean norm of all gradients together (sqrt of the sum of squares over every element of
 * every grad), accumulated in double; NaN/Inf when any gradient element is. */
double nnt_grad_norm(const nnt_params *P);
/* torch.nn.utils.clip_grad_norm_(parameters, max_norm) with norm_type 2: total = nnt_grad_norm;
 * every grad is multiplied by min(1, max_norm / (total + 1e-6)); returns total (before
 * clipping). As in PyTorch (error_if_nonfinite=False), a NaN/Inf total propagates into the grads,
 * so check the returned norm with nnt_train_check_grad_norm. Unlike PyTorch's float32 path, the
 * norm of float32 grads is accumulated in double (differences at float32 rounding level). */
double nnt_clip_grad_norm(nnt_params *P, double max_norm);

#endif
