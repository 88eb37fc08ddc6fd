/* nnt_optim.h — SGD, Adam and AdamW with PyTorch's exact update rules.
 *
 * An optimizer steps every parameter of an allocated registry (nnt_params.h) from its grad, in
 * one vectorised loop per dtype over the registry's flat blocks; its state (m, v) lives in blocks
 * of the same layout. Updates follow
 * torch.optim (single-tensor path, maximize=False, amsgrad=False), with g the gradient, t the
 * step count after increment:
 *
 *   SGD:   g += wd * p;  if momentum: buf = (t == 1) ? g : momentum * buf + (1 - dampening) * g;
 *                                     g = nesterov ? g + momentum * buf : buf;
 *          p -= lr * g
 *   Adam:  g += wd * p                                   (L2 penalty folded into the gradient)
 *          m = b1 * m + (1 - b1) * g;  v = b2 * v + (1 - b2) * g * g
 *          p -= (lr / (1 - b1^t)) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
 *   AdamW: p *= 1 - lr * wd  (decoupled, before the Adam update), then Adam with wd = 0.
 *
 * Scalars (bias corrections, step size) are computed in double, as Python floats are in
 * PyTorch; element-wise arithmetic runs in the parameter's dtype (float32 or float64), in
 * torch 2.x's operation order (m via lerp_: m + (1-b1)(g - m); v via mul_ then addcmul_; the
 * step as addcdiv_), so float32 results agree with PyTorch's to rounding level. The lr
 * may be changed between steps (schedules): set o->cfg.lr. State (step, m, v / momentum
 * buffers, hyper-parameters) is saved and restored by nnt_ckpt for bit-exact resumption.
 */
#ifndef NNT_OPTIM_H
#define NNT_OPTIM_H
#include "nnt_params.h"

typedef enum { NNT_OPT_SGD = 0, NNT_OPT_ADAM = 1, NNT_OPT_ADAMW = 2 } nnt_optim_kind;

typedef struct {
  nnt_optim_kind kind;
  double lr;
  double weight_decay;
  /* SGD */
  double momentum, dampening;
  int nesterov; /* requires momentum > 0 and dampening == 0, as in PyTorch */
  /* Adam, AdamW */
  double beta1, beta2, eps;
} nnt_optim_config;

/* PyTorch's defaults: SGD(lr, momentum 0, dampening 0, wd 0, nesterov off);
 * Adam(lr 1e-3, betas (0.9, 0.999), eps 1e-8, wd 0); AdamW(same, wd 0.01). */
nnt_optim_config nnt_sgd_defaults(double lr);
nnt_optim_config nnt_adam_defaults(void);
nnt_optim_config nnt_adamw_defaults(void);

typedef struct {
  nnt_optim_config cfg;
  nnt_params *params; /* not owned; allocated (so complete) before nnt_optim_init */
  long long step;     /* number of steps taken */
  /* Blocks in the layout of params->values (the parameter at byte offset k of the value block
   * has its state at byte offset k here), or NULL when the optimizer keeps no such state. */
  void *m;            /* SGD momentum buffer, Adam first moment */
  void *v;            /* Adam second moment */
} nnt_optim;

/* Validates cfg (NNT_EINVAL naming the bad value: lr < 0, betas outside [0, 1), eps < 0, wd < 0,
 * nesterov without momentum or with dampening) and allocates zeroed state for every parameter.
 * P must be allocated (nnt_params_alloc; a programming error otherwise: abort). */
int nnt_optim_init(nnt_optim *o, nnt_params *P, nnt_optim_config cfg);
/* The validation alone (NNT_OK or NNT_EINVAL with the message). */
int nnt_optim_check(const nnt_optim_config *cfg);
void nnt_optim_free(nnt_optim *o);
/* One update of every parameter from its current grad (grads are left unchanged). float32 Adam
 * and AdamW run eight lanes at a time; the result is the same as the element-wise loop's. */
void nnt_optim_step(nnt_optim *o);
/* Does this optimizer keep a first / second state tensor per parameter? */
int nnt_optim_has_m(const nnt_optim_config *cfg);
int nnt_optim_has_v(const nnt_optim_config *cfg);
const char *nnt_optim_kind_name(nnt_optim_kind k); /* "sgd", "adam", "adamw" */

#endif
