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
 *   seed's rendering of (D.5) is partly unreadable. nnt does not invent these constants: γ is an
 *   input; the default is the illustrative scale σζ / (2λ) (σζ = 1/3, the rounding radius; λ the
 *   largest layer norm), labelled as such.
 * - VC comparisons: ReLU nets, VC ≤ C p d log p (Bartlett, Harvey, Liaw & Mehrabian 2019), taken
 *   with C = 1; encoder-decoder transformers run for T steps, VC ≥ Ω(wT) (the paper, via RNNs),
 *   taken as w T. Both with n = VC / ε².
 */
#ifndef NNT_BOUNDS_H
#define NNT_BOUNDS_H

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
 * illustrative default) and the target error eps. The command combines the tm and circuits
 * areas, so its run is the CLI's; its defaults are here. */
typedef struct {
  const char *tm, *circuit;
  long T, max_T; /* T < 0: not given; max_T > 0 caps T */
  double gamma, eps;
} nnt_bounds_sm_cfg;

void nnt_bounds_sm_cfg_default(nnt_bounds_sm_cfg *cfg, int quick);

#endif
