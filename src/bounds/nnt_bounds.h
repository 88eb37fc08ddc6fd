/* nnt_bounds.h — the evaluable parts of the sample-complexity statements of seed 000 (Wei, Chen &
 * Ma): Lemma 2.3 (all-layer-margin generalisation), Theorem 3.1 (circuits -> ReLU nets) and
 * Theorem 4.1 (Turing machines -> transformers), next to the VC-type bounds the paper argues
 * against. Pure formulas; the CLI (nnt bounds sm) feeds them measured sizes.
 *
 * What the paper leaves unspecified, and what nnt does about it:
 * - Lemma 2.3 is an Õ statement: n = Õ((α² log p / γ² + 1) / ε²) up to a constant and polylog
 *   factors in its arguments. nnt evaluates the expression inside with constant 1 and no polylog.
 * - The margin γ comes from Theorem D.6 as the minimum of nine terms in the Lipschitz constants of
 *   Condition D.3 (κθ, κξ, μ, μ0, σh, σθ, σξ) that the paper bounds only as poly(...), and the
 *   seed's rendering of (D.5) is partly unreadable. Here γ is an input (the illustrative scale
 *   σζ / (2λ), σζ = 1/3 the rounding radius, λ the largest layer norm, or a certified margin);
 *   for a compiled circuit the circuits area evaluates (D.5) itself (nnt_circuit_d5_eval).
 * - VC comparisons: ReLU nets, VC ≤ C p d log p (Bartlett, Harvey, Liaw & Mehrabian 2019), taken
 *   with C = 1; encoder-decoder transformers run for T steps, VC ≥ Ω(wT) (the paper, via RNNs),
 *   taken as w T. Both with n = VC / ε².
 */
#ifndef NNT_BOUNDS_H
#define NNT_BOUNDS_H

#include "nnt_sweep.h" /* nnt_preset */

/* The rounding correction round(z) = φ(3z-1) - φ(3z-2) restores a binary vector from any
 * perturbation smaller than this in every coordinate (hence in ℓ2). */
#define NNT_BOUNDS_SIGMA_ZETA (1.0 / 3.0)

/* Lemma 2.3 with constant 1: n(ε) = (α² ln p / γ² + 1) / ε², and its inverse ε(n). */
double nnt_bounds_lemma23_n(double alpha, double p, double gamma, double eps);
double nnt_bounds_lemma23_eps(double alpha, double p, double gamma, double n);
/* VC-type: n(ε) = vc / ε², ε(n) = sqrt(vc / n). */
double nnt_bounds_vc_n(double vc, double eps);
double nnt_bounds_vc_eps(double vc, double n);
/* VC dimension scales used for the comparison (constant 1). */
double nnt_bounds_vc_relu(double params, double depth);      /* p d log2 p */
double nnt_bounds_vc_transformer(double width, double steps); /* w T */
/* Default illustrative margin σζ / (2 λ). */
double nnt_bounds_gamma_default(double lambda);

/* The quantities a bound report shows for one compiled model. */
typedef struct {
  double width;   /* W: widest vector */
  double depth;   /* d: layers */
  double params;  /* p: parameters of the dense architecture F_{W,d} */
  double alpha;   /* ||θ||₁ of the construction */
  double lambda;  /* largest ||h||₂ (Condition D.4) */
  double gamma;   /* margin used in Lemma 2.3 */
  double vc;      /* VC scale for the comparison */
} nnt_bounds_model;

/* n_Lemma2.3 / n_VC for the model (both with constant 1): independent of ε, since both scale as
 * 1/ε²; below 1 the all-layer-margin bound is the smaller one. */
double nnt_bounds_ratio(const nnt_bounds_model *m);

/* Parameters of the dense ReLU architecture F_{W,d}: m inputs, d layers (d - 1 hidden of width W),
 * `out` outputs, weights and biases. */
double nnt_bounds_relu_params(double m, double W, double d, double out);

/* The bound as a function of n: n = 10^2, 10^4, ..., 10^30 (NNT_BOUNDS_CURVE points), ε of
 * Lemma 2.3 and of the VC-type bound for the model. */
enum { NNT_BOUNDS_CURVE = 15 };
void nnt_bounds_curve(const nnt_bounds_model *m, double *n, double *eps_lemma23, double *eps_vc);

/* nnt bounds sm: a machine run for T steps (tm) or a circuit, the margin gamma (<= 0: the
 * certified margin, else the illustrative default) and the target error eps. The measurements are
 * the tm and circuits areas' runs (nnt_tm_sm_run, nnt_circuit_sm_run: an area depends on core
 * only), the formulas applied to them this module's; the report (src/report) combines the two. */
typedef struct {
  const char *tm, *circuit;
  long T, max_T; /* T < 0: not given; max_T > 0 caps T */
  double gamma, eps;
} nnt_bounds_sm_cfg;

void nnt_bounds_sm_cfg_default(nnt_bounds_sm_cfg *cfg, nnt_preset preset);

/* What bounds sm found for one model: the bounds' inputs, where gamma came from, the margin's
 * certified lower bound and attacked upper bound (machines; rho_lower < 0: not computed), and the
 * sweep's first value where the Lemma 2.3 count is the smaller one (<= 0: none). */
typedef struct {
  nnt_bounds_model m;
  const char *gamma_src;
  double eps, rho_lower, rho_upper, cross;
} nnt_bounds_sm_summary;

/* ---------------------------------------------------------------- seed 002 (RCNNs)
 * Theorem 1 / Corollary 2 of Goel, Kakade, Kalai & Zhang, evaluated with the sizes the paper fixes
 * (spec §3.1, §6): Algorithm 1 instantiates F_RCNN^{d+1, m+1, 100s, 100, L}, the weights are drawn
 * from U_s with |U_s| = 24·16·s + 5 (Corollary 3), and the success probability is that of drawing
 * the constructed filter exactly, |U_s|^(−P) (Lemma 2's argument). Corollary 2's restart count and
 * validation size are the corrected ones (spec §6, pitfall 20): M = ln(2/δ) / P(success), so that
 * (1 − P(success))^M ≤ δ/2, and N = 2 ln(2M/δ) / ε². Everything is in log10 where it overflows. */
typedef struct {
  int s;             /* TM states */
  double eps, delta; /* Corollary 2's target error and failure probability */
  int d, m, k;       /* input bits, training examples, Corollary 2's exponent: t = (2dm)^k */
  double t;          /* TM steps; <= 0: (2dm)^k */
  double log10_M_obs;/* Observation 1: log10 of the second sample's size M */
} nnt_bounds_rcnn_cfg;

typedef struct {
  double d_rc, d_head;
  double shared_params;   /* 9 d_rc + 3 d_rc² + d_rc + 2 d_head (V1..V5, U1, U2) */
  double memory_params;   /* (m+1)(d+1), the trained W */
  double U;               /* |U_s| = 384 s + 5 */
  double log10_p_success; /* −shared_params · log10 |U_s| */
  double log10_restarts;  /* log10 M, M = ln(2/δ) / P(success) */
  double validation;      /* N = 2 ln(2M/δ) / ε² */
  double t, L;            /* TM steps used; depth L = max(m+1, m+d+1, t+1) (Lemma 2, pitfall 11) */
  double cells;           /* (m+1)(d+1+L): the grid with a work region of width l = L */
  int obs_r_log2;         /* Observation 1: r = 2^⌊−log2(M)/(3k)⌋ */
  double log10_obs_p;     /* Observation 1: log10 p(d,m,ε,δ), p = (εδ)^(−3k) + (4dm)^(3k) */
  double log10_alg2_r;    /* Algorithm 2: r = M^(1/10) (log10), loops over s, k, t = 1..r */
} nnt_bounds_rcnn;

void nnt_bounds_rcnn_cfg_default(nnt_bounds_rcnn_cfg *c, nnt_preset preset); /* one setting: pure formulas */
/* NNT_EINVAL with one line on an impossible input (s < 2, ε or δ outside (0,1), ...). */
int nnt_bounds_rcnn_eval(const nnt_bounds_rcnn_cfg *c, nnt_bounds_rcnn *r);
/* The pieces, for other callers. */
double nnt_bounds_rcnn_shared_params(int s);
double nnt_bounds_rcnn_U(int s);
double nnt_bounds_rcnn_depth(double m, double d, double t);
int nnt_bounds_rcnn_obs1_r_log2(double log10_M, int k);

#endif
