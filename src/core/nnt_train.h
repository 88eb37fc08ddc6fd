/* nnt_train.h — guards and gradient utilities for training loops.
 *
 * A trainer calls nnt_train_check_step after the backward pass and before the optimizer step,
 * with the 1-based number of the step (the step a checkpoint saved after it would record); on a
 * NaN/Inf loss or gradient it gets NNT_ENUMERIC with one line naming the step and the tensor,
 * stops without stepping or checkpointing, and the CLI prints that line (exit status 1). A NaN or
 * Inf in an activation reaches the loss or the gradients, so it is caught here too.
 *
 *   loss = forward_backward(...);
 *   if ((st = nnt_train_check_step(&P, step + 1, loss))) goto out;   (the last checkpoint stays good)
 *   nnt_optim_step(&opt);
 */
#ifndef NNT_TRAIN_H
#define NNT_TRAIN_H
#include "nnt_params.h"

/* NNT_OK when loss and every gradient in P's grad block are finite (one pass over the block,
 * about the cost of a memcpy of it). Otherwise NNT_ENUMERIC with "step S, loss: non-finite loss
 * (NaN)" or "step S, tensor NAME: non-finite gradient (+Inf at element 17)", NAME the registry's.
 * Fault injection for tests: with the environment variable NNT_FAULT_NAN_STEP=S, at step S the
 * first gradient element of P's last tensor is set to NaN before the pass (docs/reliability.md). */
int nnt_train_check_step(nnt_params *P, long long step, double loss);

/* Euclidean norm of all gradients together (sqrt of the sum of squares over every element of
 * every grad), accumulated in double; NaN/Inf when any gradient element is. */
double nnt_grad_norm(const nnt_params *P);
/* torch.nn.utils.clip_grad_norm_(parameters, max_norm) with norm_type 2: total = nnt_grad_norm;
 * every grad is multiplied by min(1, max_norm / (total + 1e-6)); returns total (before
 * clipping). As in PyTorch (error_if_nonfinite=False), a NaN/Inf total propagates into the grads,
 * which nnt_train_check_step then reports. Unlike PyTorch's float32 path, the
 * norm of float32 grads is accumulated in double (differences at float32 rounding level). */
double nnt_clip_grad_norm(nnt_params *P, double max_norm);

#endif
