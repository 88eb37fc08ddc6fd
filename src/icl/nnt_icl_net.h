/* nnt_icl_net.h — the N-layer networks of seed 003 (Definition 1 / App. E), double precision:
 * forward pass, empirical squared loss and its gradient by the s-recursion (Lemma 1 / Def. 3),
 * initialisation, and projected GD onto a box (the construction's Proj_W). */
#ifndef NNT_ICL_NET_H
#define NNT_ICL_NET_H
#include <stddef.h>

#include "nnt_rng.h"

typedef enum { NNT_ICL_ACT_IDENTITY, NNT_ICL_ACT_SIGMOID, NNT_ICL_ACT_TANH, NNT_ICL_ACT_SOFTPLUS,
               NNT_ICL_ACT_GELU, NNT_ICL_ACT_RELU } nnt_icl_act;
extern const char *const nnt_icl_act_names[]; /* "identity","sigmoid",...; NULL-terminated (CLI_CHOICE) */
typedef struct {
  int N;           /* layers: N-1 hidden of width K, then the output layer; N >= 2 */
  int K, dx, dy;
  nnt_icl_act act; /* on every hidden layer */
  int out_act;     /* 1: act also on the output layer (Definition 1); 0: linear output */
  int bias;        /* 1: one bias per unit; w layout: layer by layer, unit by unit, each unit's
                      weights then (if bias) its bias */
} nnt_icl_net;
int nnt_icl_net_check(const nnt_icl_net *s);            /* NNT_EINVAL with one line */
size_t nnt_icl_net_nparams(const nnt_icl_net *s);       /* D_N (+ biases) */
size_t nnt_icl_net_ws_size(const nnt_icl_net *s, int n);/* doubles of workspace for n points */
/* Y (n×dy) = f(w, X (n×dx)). */
void nnt_icl_net_forward(const nnt_icl_net *s, const double *w, const double *X, int n, double *Y, double *ws);
/* L_n(w) = (1/(2n)) Σ_i ||f(w,x_i) - y_i||²; grad (may be NULL) = ∇L_n, overwritten (s-recursion). */
double nnt_icl_net_loss_grad(const nnt_icl_net *s, const double *w, const double *X, const double *Y, int n,
                             double *grad, double *ws);
/* w ~ N(mean, std²) per weight; std <= 0 means He scaling sqrt(2/fan_in) per layer; biases 0. */
void nnt_icl_net_init(const nnt_icl_net *s, double *w, double mean, double std, nnt_rng *r);

/* Additions beyond the shared API. */
/* r(z) of an activation, and r'(z) in *deriv (if not NULL; ReLU: 1 for z > 0, else 0). */
double nnt_icl_act_eval(nnt_icl_act a, double z, double *deriv);
/* Layer j (1..N): inputs (dx or K) and units (K or dy); offset of its first parameter in w. */
int nnt_icl_net_fan_in(const nnt_icl_net *s, int j);
int nnt_icl_net_units(const nnt_icl_net *s, int j);
size_t nnt_icl_net_layer_offset(const nnt_icl_net *s, int j);
/* One projected GD step: w <- clip(w - eta ∇L_n(w), [-B, B]) (coordinate clipping, an exact
 * projection onto the box; B <= 0: no projection). Returns L_n(w) before the step; grad (nparams
 * doubles) receives ∇L_n(w) at the old w. */
double nnt_icl_net_gd_step(const nnt_icl_net *s, double *w, const double *X, const double *Y, int n, double eta,
                           double B, double *grad, double *ws);
#endif
