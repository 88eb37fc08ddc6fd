/* nnt_approx.h — constructive approximation (Telgarsky, "Deep learning theory", ch. 2-4; seed 004).
 *
 * Four parts, each verified against an independent reference in tests/approx and `nnt approx check`:
 *  - the exact piecewise-linear (PWL) engine for 1-D-input ReLU/identity networks (pwl.c);
 *  - builders that emit real nnt_mlp networks for the book's constructions (build_*.c);
 *  - samplers of infinite-width networks and Maurey's lemma (sampling.c);
 *  - near-initialisation / NTK experiments (ntk.c) and depth separation (separation.c).
 * Errata of the draft are fixed as the spec (shared/specs/seed_004_approximation.md) describes;
 * docs/approx.md lists them.
 */
#ifndef NNT_APPROX_H
#define NNT_APPROX_H
#include <stdint.h>

#include "nnt_mlp.h"
#include "nnt_rng.h"
#include "nnt_sweep.h"

/* ---------------------------------------------------------------- exact PWL engine (pwl.c) */

/* One affine piece f(x) = a x + c on [x0, x1] (x0 = -inf / x1 = +inf for the rays). */
typedef struct {
  double x0, x1, a, c;
} nnt_approx_piece;

/* Streams the maximal affine pieces of f (or of f - g) over [lo, hi] from left to right, without
 * storing them: memory is O(network size). The sweep keeps every ReLU's on/off pattern, computes
 * each unit's affine function of x for the current pattern, and jumps to the nearest zero crossing
 * of any pre-activation; consecutive regions with equal affine output are merged (relative
 * tolerance 1e-12), so the count is N_A (Def 4.8), the minimum number of intervals. */
typedef struct nnt_approx_pwl_iter nnt_approx_pwl_iter;

/* f must map R -> R with identity/relu layers only; g (may be NULL) likewise. lo < hi, either may be
 * infinite. NNT_EINVAL with a message otherwise. */
int nnt_approx_pwl_open(nnt_approx_pwl_iter **it, const nnt_mlp *f, const nnt_mlp *g, double lo, double hi);
/* 1 and the next maximal piece, or 0 at the end. */
int nnt_approx_pwl_next(nnt_approx_pwl_iter *it, nnt_approx_piece *p);
/* Activation-pattern regions visited so far (>= pieces). */
long nnt_approx_pwl_regions(const nnt_approx_pwl_iter *it);
void nnt_approx_pwl_close(nnt_approx_pwl_iter *it);

typedef struct {
  long pieces;    /* maximal affine pieces on [lo, hi] (N_A of the restriction) */
  long regions;   /* activation-pattern regions swept */
  double integral; /* int f (finite intervals only; otherwise NAN) */
  double l1;      /* int |f| */
  double l2sq;    /* int f^2 */
  double sup_abs; /* max |f| over the interval (over the finite endpoints of rays) */
  double fmin, fmax;
} nnt_approx_pwl_summary;

/* Summary of f - g (g may be NULL) over [lo, hi]; integrals are NAN on infinite intervals. */
int nnt_approx_pwl_summarize(const nnt_mlp *f, const nnt_mlp *g, double lo, double hi, nnt_approx_pwl_summary *s);
/* Collects at most max pieces into out (returns the number, or -1 with NNT_EINVAL if more). */
long nnt_approx_pwl_collect(const nnt_mlp *f, const nnt_mlp *g, double lo, double hi, nnt_approx_piece *out, long max);

/* f - x^2 on [0,1] for a 1-D PWL net f, exactly from its pieces (the error is a concave quadratic on
 * each piece): sup |f - x^2|, int (f - x^2)^2 and min (f - x^2). NNT_EINVAL as nnt_approx_pwl_open. */
typedef struct {
  long pieces;
  double sup, l2sq, min;
} nnt_approx_square_error;
int nnt_approx_square_error_of(const nnt_mlp *f, nnt_approx_square_error *e);

/* ---------------------------------------------------------------- network algebra (build_util.c) */

/* A single affine layer x -> W x + b (identity activation); W is out x in row-major. */
void nnt_approx_net_affine(nnt_mlp *m, int in, int out, const double *W, const double *b);
/* a then b, merging a's affine output layer into b's first layer (so no extra layer is counted). */
void nnt_approx_net_compose(nnt_mlp *out, const nnt_mlp *a, const nnt_mlp *b);
/* Block-diagonal stack of n networks with equal numbers of layers: inputs and outputs concatenated. */
void nnt_approx_net_parallel(nnt_mlp *out, const nnt_mlp *const *nets, int n);
/* Carries dim values through `hidden` ReLU layers exactly: sigma(x) for nonnegative values
 * (signed = 0; 1 unit each) or sigma(x) - sigma(-x) (signed = 1; 2 units each). hidden = 0 gives
 * the identity affine layer. */
void nnt_approx_net_carry(nnt_mlp *m, int dim, int hidden, int is_signed);

/* ---------------------------------------------------------------- builders (build_depth.c, build_shallow.c) */

/* Delta(x) = 2s(x) - 4s(x-1/2) + 2s(x-1) composed L times: L hidden layers of width 3. L >= 1. */
void nnt_approx_build_delta(nnt_mlp *m, int L);
/* Yarotsky's h_i (affine interpolant of x^2 on k/2^i): i hidden layers of width 4; i = 0 is the
 * identity. Equal to x - sum_j Delta^j(x)/4^j on [0,1]. */
void nnt_approx_build_square(nnt_mlp *m, int i);
/* Closed forms used as references: Delta(<2^{L-1} x>) (Prop 4.1) and x - sum_j Delta^j/4^j. */
double nnt_approx_delta_pow_closed(int L, double x);
double nnt_approx_square_closed(int i, double x);
/* The draft's product g_i = (4h((x+y)/2) - h(x) - h(y))/2 (erratum: not 0 on the axes). */
void nnt_approx_build_product_draft(nnt_mlp *m, int i);
/* Fixed product on [0,1]^2: 2(h((x+y)/2) - h(x/2) - h(y/2)), exactly 0 when x or y is 0,
 * |prod - xy| <= 4^{-i}. signed_ = 1: 2(h(|x+y|/2) - h(|x|/2) - h(|y|/2)) on [-1,1]^2. */
void nnt_approx_build_product(nnt_mlp *m, int i, int signed_);
/* prod_{k,l}(x_1..x_l) = prod(clip(prod_{k,l-1}), x_l) with clipping to [0,1] (or [-1,1] if
 * signed_); error <= (l-1) 4^{-k}. l >= 1. */
void nnt_approx_build_product_l(nnt_mlp *m, int k, int l, int signed_);
/* Parity of x in {-1,+1}^d (d <= 2^L, L = ceil(log2 d)): (-1)^d (1 - 2 Delta^L(p / 2^L)),
 * p = (d + sum x)/2; equals 1 - 2 Delta^L((d + sum x)/(2d)) when d = 2^L. draft = 1 builds the
 * draft's Delta^{L-1}((d + sum x)/(2d)) (wrong). d in [1, 30]. */
void nnt_approx_build_parity(nnt_mlp *m, int d, int draft);
/* Monomial prod_j y_j^{alpha_j} of y = x - v in [-1,1]^d (signed products, clipping); deg >= 1. */
void nnt_approx_build_monomial(nnt_mlp *m, int d, const int *alpha, const double *v, int k);
/* Partition-of-unity element phi_v(x) = prod_k(hat(x_1 - v_1), ..., hat(x_d - v_d)),
 * hat(a) = s(sa+1) - 2s(sa) + s(sa-1). */
void nnt_approx_build_partition(nnt_mlp *m, int d, int s, const double *v, int k);

/* Prop 2.1: f(x) = sum_i a_i 1[x >= b_i], b_i = (i-1) eps/rho, m = ceil(rho/eps) step units. */
typedef double (*nnt_approx_fn1)(double x, void *ctx);
void nnt_approx_build_steps(nnt_mlp *m, nnt_approx_fn1 g, void *ctx, double rho, double eps);

/* Thm 2.3 box network on [0,1]^d with k cubes per axis (k = ceil(rho sqrt(d)/eps) corrected,
 * ceil(rho/(eps sqrt d)) in the draft), shared first layer (4dk ReLUs), k^d box ReLUs, closed-form
 * gamma. Returns gamma (0 and the zero net when sum |a_j| = 0). */
typedef double (*nnt_approx_fnd)(const double *x, int d, void *ctx);
double nnt_approx_build_boxes(nnt_mlp *m, nnt_approx_fnd g, void *ctx, int d, int k, double eps);
/* The same network in compressed rows (the dense one is this, expanded): the box layer stores 4d
 * entries per cube, so d = 3, 4 nets with 10^5 cubes fit where the dense k^d x 4dk matrix does not. */
double nnt_approx_build_boxes_sparse(nnt_smlp *m, nnt_approx_fnd g, void *ctx, int d, int k, double eps);
int nnt_approx_box_k(double rho, double eps, int d, int draft);

/* ---------------------------------------------------------------- Sobolev (build_sobolev.c) */

/* f(x) = sum_v prod2(clip_[-1,1](f_v(x)), phi_v(x)), f_v the degree-(r-1) Taylor polynomial of g at
 * the grid point v in {0,1/s,..,1}^d (signed-product monomials of x - v), phi_v the partition of
 * unity. d in {1,2}, r in {1,2,3}. derivs(v, d, out, ctx) fills: value; d/dx_j (j < d);
 * d2/dx_j dx_l (j <= l). The network is block diagonal: one sub-network per grid point, summed. */
typedef void (*nnt_approx_derivs)(const double *v, int d, double *out, void *ctx);
typedef struct {
  int d, r, s, k, nv;
  nnt_mlp *parts; /* nv sub-networks d -> 1 */
} nnt_approx_sobolev;
void nnt_approx_sobolev_build(nnt_approx_sobolev *S, nnt_approx_derivs derivs, void *ctx, int d, int r, int s, int k);
void nnt_approx_sobolev_eval(const nnt_approx_sobolev *S, int n, const double *X, double *Y);
nnt_mlp_stats nnt_approx_sobolev_stats(const nnt_approx_sobolev *S);
void nnt_approx_sobolev_free(nnt_approx_sobolev *S);
/* Provable sup bound: 2^d 4^-k (products) + 2^d (d-1) 4^-k (partition) + max_v sum|quadratic
 * coefficients| 4^-k (r = 3 monomials) + M d^r / (r! s^r) (Taylor remainder), valid when the
 * Taylor polynomials stay within [-1,1] near their grid point. */
double nnt_approx_sobolev_bound(int d, int r, int s, int k, double M, double max_quad_coef);
double nnt_approx_sobolev_demo_g(const double *x, int d);
void nnt_approx_sobolev_demo_derivs(const double *v, int d, double *out, void *ctx);
typedef struct {
  double sup, bound; /* measured sup |f - g| at random points (all sub-networks' forward), bound */
  int nv;
  nnt_mlp_stats stats;
} nnt_approx_sobolev_report;
void nnt_approx_sobolev_measure(int d, int r, int s, int k, int npts, nnt_rng *rg, nnt_approx_sobolev_report *rep);

/* ---------------------------------------------------------------- sampling (sampling.c) */

/* Prop 2.8 for g(x) = sin(2 pi x): m threshold units drawn from |g'|/Z, Z = 4. Writes b, a. */
void nnt_approx_sample_sin_thresholds(nnt_rng *r, int m, double *b, double *a);
/* Exact Barron sampler for g(x) = exp(-pi |x|^2) in d dims (C6): unit k is s_k M 1[w_k.x >= b_k]/k.
 * W is m x d. Returns the mass M = |mu|_1 computed by quadrature. */
double nnt_approx_barron_gauss_mass(int d);
void nnt_approx_sample_barron_gauss(nnt_rng *r, int d, int m, double *W, double *b, double *s);
/* Draws one such net of k units in d = 2 (M = nnt_approx_barron_gauss_mass(2); W, b, s: scratch for k
 * units) and returns its mean squared error against g - g(0) = exp(-pi |x|^2) - 1 over the ne
 * points X (ne x 2). */
double nnt_approx_barron_gauss_sample_mse(nnt_rng *r, int k, double M, int ne, const double *X, double *W, double *b,
                                   double *s);

/* Thm 2.12 from a tabulated Fourier transform (any real g, d in {1, 2}): g~ is evaluated at the
 * centres w_c of the n^d cells of [-W, W]^d (n even, side h = 2W/n), so g is represented by the
 * Riemann sum g_h(x) = sum_c h^d |g~_c| cos(2 pi (w_c.x + theta_c)) and, for |x| <= 1, exactly
 * g_h(x) - g_h(0) = sum_c h^d int_0^|w_c| q_c(b) 1[w_c.x >= b] db, q_c(b) = -4 pi |g~_c| sin 2 pi (b + theta_c).
 * The sampler draws a cell with probability proportional to |g~_c| |w_c| (inverse CDF), b ~ U[0, |w_c|],
 * and accepts with probability |sin 2 pi (b + theta_c)| (else draws again): (c, b) ~ |q|/mass. g~ must
 * not vanish on the whole grid. */
typedef void (*nnt_approx_ft)(const double *w, int d, void *ctx, double *re, double *im);
typedef struct {
  int d, n;
  long cells;
  double W, h;
  double *amp, *theta; /* |g~| and its phase in turns at the cell centres */
  double *cdf;         /* cumulative |g~_c| |w_c|, normalised to end at 1 */
  double mass;         /* sum_c 4 pi h^d |g~_c| int_0^|w_c| |sin 2 pi (b + theta_c)| db = |mu|_1 */
  double mass_bound;   /* 4 pi sum_c h^d |w_c| |g~_c| (the statement's bound on |mu|_1) */
} nnt_approx_barron_table;
void nnt_approx_barron_table_build(nnt_approx_barron_table *T, int d, int n, double W, nnt_approx_ft ft, void *ctx);
void nnt_approx_barron_table_free(nnt_approx_barron_table *T);
/* m units: unit k is s_k mass 1[w_k.x >= b_k] / m (W: m x d). */
void nnt_approx_barron_table_sample(const nnt_approx_barron_table *T, nnt_rng *r, int m, double *W, double *b, double *s);
/* Maurey's rate for the sampled nets against g - g(0) (g real, the function T tabulates): at npts
 * points uniform in the unit ball, the RMS error sqrt(E ||f - g + g(0)||^2) over `trials` nets for
 * each width ns[q] (rms[q]); holds when rms[q] <= mass / sqrt(ns[q]) for every width and the
 * log-log slope of rms over ns is within 0.1 of -1/2 (a wrong density or phase leaves a bias that
 * flattens it). nn <= 6. */
typedef struct {
  double rms[6], slope;
} nnt_approx_barron_maurey_stats;
int nnt_approx_barron_maurey_measure(const nnt_approx_barron_table *T, nnt_approx_fnd g, void *ctx, nnt_rng *r,
                                     const int *ns, int nn, int trials, int npts, nnt_approx_barron_maurey_stats *s);

/* ||f - sin 2 pi x||^2_{L2[0,1]} exactly for f = sum_j a_j 1[x >= b_j]. */
double nnt_approx_sin_threshold_l2sq(int m, const double *b, const double *a);
/* Simpson's rule with n (even) intervals. */
double nnt_approx_simpson(double (*f)(double, void *), void *ctx, double lo, double hi, int n);
/* The d = 2 mass by the integration-by-parts form 4 pi int e^{-pi r^2} |sin 2 pi r| dr. */
double nnt_approx_barron_gauss_mass_2d_parts(void);

/* ---------------------------------------------------------------- near initialisation, NTK (ntk.c) */

/* Closed-form ReLU NTK (Prop 3.23, rho = 1): <x,y> (pi - arccos(cos angle)) / (2 pi). */
double nnt_approx_ntk_kinf(const double *x, const double *y, int d);
/* Empirical inner-layer NTK k_m = (1/m) sum_j <x,y> 1[v_j.x >= 0] 1[v_j.y >= 0] for n pairs
 * (X, Y: n x d), one draw of m rows v_j ~ N(0, I_d) shared by the pairs. */
void nnt_approx_ntk_km(nnt_rng *r, long m, int d, int n, const double *X, const double *Y, double *km);
void nnt_approx_random_unit(nnt_rng *r, int d, double *x);
/* mean |k_m - k_inf| over npairs random pairs for each width ms[q] (into mean_err) and the fitted
 * log-log slope; pad = 1 draws padded inputs (u, 1)/sqrt2, u a unit vector of R^{d-1}. */
double nnt_approx_ntk_slope(nnt_rng *rg, const long *ms, int nm, int d, int npairs, int pad, double *mean_err);
double nnt_approx_relu_adversarial_gap(nnt_rng *r, long m, double B, double *gap_direct);
double nnt_approx_prop37_bound(long m, double B, double delta);
double nnt_approx_prop34_worst_ratio(nnt_rng *r, int m, int d, double B, int trials);
/* |F(x;w0)| / sqrt(m) = |sum_j a_j s(v_j.x)| / sqrt(m) over `samples` draws (x a random unit vector of
 * R^d, v_j ~ N(0, I_d), a_j = +1 with probability p_plus, else -1; 1/2 at initialisation): its RMS
 * and 99th percentile. */
void nnt_approx_lemma315_stats(nnt_rng *r, int m, int d, int samples, double p_plus, double *std_over_sqrtm,
                               double *q99_over_sqrtm);

typedef struct {
  long m, usz, min_S;          /* width, |U_i| = floor(m tau_d), min_i |S_i| */
  double c0, scale_fit, scale_statement;
  double fro, fro_proof, fro_statement, rowmax, rowmax_proof;
  double max_F_F0_rel;         /* max |F(x;V) - F0(x;V)| / (1 + |F|) */
  double max_dev, max_noise, max_excess; /* |F - c0 g|, |F(x;w0)|, dev - (|F(x;w0)| + sqrt(m)|alpha|_1) */
} nnt_approx_plant_result;
/* Thm 3.10 in d = 2: targets beta (k x 2 unit rows), alpha; m = ceil(4^{d+2} ln(1/delta)/tau^{2d-2}).
 * ntest random points of the unit disk give the statistics; F(x;V) and F(x;w0) are also returned
 * at the neval points Xe (neval x 2) when neval > 0. */
int nnt_approx_plant(nnt_rng *r, int k, const double *beta, const double *alpha, double tau, double delta, int ntest,
              nnt_approx_plant_result *res, int neval, const double *Xe, double *Fe, double *Fw0e);
void nnt_approx_transport(nnt_rng *r, long m, double *corrected, double *draft);
/* Thm 3.14 for a bounded field T: R^d -> R^d. Draws v0_j ~ N(0, I_d), a_j = +-1 (j < m), moves
 * v_j = v0_j + a_j T(v0_j)/(rho sqrt m) (the corrected eq. 3.13, rho = 1/ln(1+m)^2) and returns
 * (rho/sqrt m) F0(x; V) with F0 the ReLU net's Taylor model at V0, which tends to
 * F_inf(x) = E_v[T(v).x 1[v.x > 0]]; *se is its Monte-Carlo standard error, *draft the same with
 * the draft's v_j = v0_j + a_j rho T(v0_j)/sqrt m. */
typedef void (*nnt_approx_field)(const double *v, int d, void *ctx, double *Tv);
double nnt_approx_transport_field(nnt_rng *r, long m, int d, nnt_approx_field T, void *ctx, const double *x,
                                  double *se, double *draft);
/* Q15.2's three fields (a constant, sign(v_1) e_2, tanh) at m neurons against F_inf computed
 * without sampling; _pass: within 4 se + 1e-3, and the draft scaling's value below F_inf/4. */
typedef struct {
  const char *name;
  double exact, mc, se, draft;
} nnt_approx_transport_case;
void nnt_approx_check_transport_fields(nnt_rng *rg, long m, nnt_approx_transport_case out[3]);
int nnt_approx_transport_case_pass(const nnt_approx_transport_case *c);
/* [ext] lazy training on 12 padded circle points (see ntk.c): GD on the inner layer vs the
 * linearised (init-NTK) model trained by the same steps. */
typedef struct {
  long m;
  int steps;
  double eta, fro, rowmax, flips, gap, train_mse;
} nnt_approx_lazy_stats;
void nnt_approx_lazy_train(nnt_rng *r, long m, int steps, nnt_approx_lazy_stats *res);

/* ---------------------------------------------------------------- bounds measured themselves (statements.c)
 * Each returns 1 when the statement holds for the object it is given (a network, an init scale, a
 * constant), so a test can hand it a faulty one and see 0. */

/* Lemma 3.8 (corrected form): with probability >= 1 - delta over v_j ~ N(0, I_d),
 * #{j <= m : |v_j.x| <= tau ||x||} <= m tau + sqrt((m/2) ln(1/delta)). `trials` draws (fresh x of norm
 * in [0.5, 2] each, v_j ~ N(0, sigma^2 I_d): sigma = 1 is the lemma's setting); for each delta the
 * empirical (1 - delta)-quantile of the count and the fraction of draws above the bound. Holds when
 * every quantile is <= its bound, that fraction <= delta, and the mean count is within 5 standard
 * errors of m erf(tau/sqrt2). d <= 16, nd <= 4. */
typedef struct {
  double quantile[4], bound[4], bound_draft[4], over[4]; /* bound_draft: m tau + sqrt(m/2) ln(1/delta) */
  double mean, mean_z, max_ratio;                        /* max quantile/bound */
} nnt_approx_lemma38_stats;
int nnt_approx_lemma38_measure(nnt_rng *r, int m, int d, double tau, const double *deltas, int nd, int trials,
                               double sigma, nnt_approx_lemma38_stats *s);
/* Lemma 3.15's sqrt(m) scaling: the 99th percentile of |F(x;w0)| (nnt_approx_lemma315_stats) at the widths
 * ms (q99[q] is that percentile over sqrt(m)) and the fitted log-log slope; holds when |slope - 1/2| <= 0.1. */
int nnt_approx_lemma315_scaling(nnt_rng *r, const int *ms, int nm, int d, int samples, double p_plus, double *q99,
                                double *slope);
/* Thm 4.4's network for Delta^{L^2+2}: 3L^2 + 6 ReLUs, L^2 + 2 ReLU layers (2L^2 + 4 when each Delta's
 * output combination is counted as its own layer, the draft's convention), and exactly Delta^{L^2+2} on
 * [0,1]: 2^n pieces with breakpoints k/2^n and the closed form's values there. */
typedef struct {
  int n, relu_layers;
  long nodes, pieces, bad_breaks;
} nnt_approx_thm44_size_stats;
int nnt_approx_thm44_size_measure(const nnt_mlp *f, int L, nnt_approx_thm44_size_stats *s);
/* Thm 4.6 for one 1-D net f with L ReLU layers and N ReLUs: int_0^1 (f - x^2)^2 (exact) against
 * 1/(C (2N/L)^{4L}) (the statement, C = 5760) and 1/(C N_A^4) with N_A counted on [0,1] (the proof's
 * form). Holds when both ratios are >= 1; -1 when f is not a 1-D PWL net. */
typedef struct {
  int L;
  long N, pieces;
  double l2sq, log10_ratio_stated, ratio_na;
} nnt_approx_thm46_stats;
int nnt_approx_thm46_measure(const nnt_mlp *f, double C, nnt_approx_thm46_stats *s);
/* h_i - 4^{-i}/6: the L2-best PWL fit of x^2 on the 2^i uniform pieces, error 1/(180 N_A^4), i.e. 32
 * times Thm 4.6's 1/(5760 N_A^4). */
void nnt_approx_build_square_shifted(nnt_mlp *m, int i);
/* Lemma 4.11 for 1-D nets f, g with fg = f o g and fpg = f + g as networks: N_A on R of each by the
 * engine, and of f o g and f + g independently from the pieces of f and g (cut each piece of g where
 * it crosses a breakpoint of f; union of breakpoints), merged. Holds when the engine's pieces of fg and
 * fpg match the independent ones (count, breakpoints within 1e-9) and N_A(f o g) <= N_A(f) N_A(g),
 * N_A(f + g) <= N_A(f) + N_A(g). */
typedef struct {
  long na_f, na_g, na_fg, na_fg_ref, na_sum, na_sum_ref;
  double gap_fg, gap_sum; /* largest breakpoint difference (INFINITY when the counts differ) */
} nnt_approx_lemma411_stats;
int nnt_approx_lemma411_measure(const nnt_mlp *f, const nnt_mlp *g, const nnt_mlp *fg, const nnt_mlp *fpg,
                                nnt_approx_lemma411_stats *s);
/* Best continuous PWL fit of Delta^n in L1 on [0,1] with exactly p pieces (p = 1..P) among those whose
 * breakpoints lie on the grid k/2^{n+1} and whose values there lie on {0, 1/(V-1), .., 1}, by dynamic
 * programming over (breakpoint, value) with exact segment integrals: l1[p-1] (an upper bound on the
 * unrestricted best) and, when fit is not NULL, that fit as a one-hidden-layer net fit[p-1] (p ReLUs).
 * n in [1, 6], P in [1, 2^{n+1}], V in [2, 17]; NNT_EINVAL otherwise. */
int nnt_approx_sep_grid_fit(int n, int P, int V, double *l1, nnt_mlp *fit);
/* Lemma 2.7 (existence by Stone-Weierstrass in the book): a 2-layer exp network
 * f(x) = sum_j a_j exp(vscale v_j . x), v_j in {0, .., K}^d ((K+1)^d units; vscale = 1), fitted to g by
 * least squares (QR) at the (4(K+1))^d cell centres of [0,1]^d. Writes a ((K+1)^d) and returns
 * sup |f - g| on the 97^d grid with both ends, evaluated term by term (INFINITY if the fit is not
 * finite). d in {1, 2}, K <= 10. */
double nnt_approx_exp_fit(int d, int K, double vscale, nnt_approx_fnd g, void *ctx, double *a);
/* The same fit for any m frequencies V (m x d), least squares at the G^d cell centres. */
double nnt_approx_exp_fit_v(int d, int m, const double *V, int G, nnt_approx_fnd g, void *ctx, double *a);
/* Thm 2.5, step 2 for sigma = ReLU: h(x) = sum_j a_j exp(v_j . x) on [0,1]^d becomes
 * f(x) = sum_j a_j p(v_j . x), p the interpolant of e^r on n uniform knots of the range [lo, hi] of
 * v_j . x, with n the least for which (hi-lo)^2 e^hi / (8 n^2) <= eps/(1 + 2 sum|a_j|), so that
 * |f - h| <= eps/2. One hidden layer of n ReLUs per nonzero v_j. Returns n, or -1 with an
 * NNT_EINVAL message (out untouched) when that is more than 2^26 ReLUs or not finite. */
long nnt_approx_thm25_relu(nnt_mlp *out, int d, int m, const double *V, const double *a, double eps);
/* Thm 2.5 for such an f: sup |f - h| (h term by term) and sup |f - g| on the grid of E points per
 * axis with both ends, f by its forward pass; holds when they are <= eps/2 and eps. */
typedef struct {
  long relus;
  double sup_g, sup_h;
} nnt_approx_thm25_stats;
int nnt_approx_thm25_measure(const nnt_mlp *f, int d, int m, const double *V, const double *a, nnt_approx_fnd g, void *ctx,
                             double eps, int E, nnt_approx_thm25_stats *s);
/* Thm 2.3 for a (sparse) box net m of k cubes per axis built for g with eps, gamma: at npts random
 * points 1.5 gamma inside the upper corner of their cube (where the net must equal a_j = g(lower
 * corner)), sup |f - g| (<= eps when k >= rho sqrt(d)/eps) and max |f - a_j| (<= 1e-6: 1/gamma-sized weights); the Monte-Carlo L1 error
 * at npts uniform points (<= 2 eps); and the size: 4dk shared ReLUs + k^d box ReLUs (the statement's
 * (4d+1) k^d unshared), 4d k^d stored box weights, 3 layers. All through nnt_smlp_forward_batch. */
typedef struct {
  long relus, relus_stated, nnz_box;
  double sup, dev, l1;
} nnt_approx_thm23_stats;
int nnt_approx_thm23_measure(const nnt_smlp *m, int d, int k, double gamma, double eps, nnt_approx_fnd g, void *ctx,
                             nnt_rng *r, int npts, nnt_approx_thm23_stats *s);
/* x -> f(x) + g(x) as one network (f, g: 1-D nets with equal numbers of layers). */
void nnt_approx_net_sum(nnt_mlp *out, const nnt_mlp *f, const nnt_mlp *g);
/* A random 1-D net with hidden widths w[0..nh-1]: N(0,1) weights, first-layer kinks uniform in [0,1]. */
void nnt_approx_random_1d_net(nnt_mlp *m, nnt_rng *r, const int *w, int nh);

/* ---------------------------------------------------------------- depth separation (separation.c) */

/* lb(n, P) = (2^{n-1} - P - 1) / 2^{n+2}: int_0^1 |Delta^n - g| >= lb for any continuous g with
 * P affine pieces on [0,1]. */
double nnt_approx_sep_lb(int n, long P);
typedef struct {
  int n, hidden_layers;
  long pieces, relus;
  double l1, lb;
} nnt_approx_sep_result;
int nnt_approx_sep_check(const nnt_mlp *g, int n, nnt_approx_sep_result *res);
/* One-hidden-layer net equal to f on [0,1] (one ReLU per piece). */
int nnt_approx_shallow_from_pieces(nnt_mlp *out, const nnt_mlp *f);
/* Best L2 continuous PWL fit of Delta^n on [0,1] with P uniform pieces (P a power of two <= 2^n),
 * as a one-hidden-layer ReLU net (P units). For P < 2^n it is the constant 1/2 (aliasing). */
int nnt_approx_sep_best_fit(int n, long P, nnt_mlp *out);
/* Adam on the MSE to Delta^n over `samples` uniform points (full batch), hidden widths w[0..nh-1]
 * (nh <= 14), PyTorch default init; the result as an nnt_mlp. Illustration only: training that
 * collapses to 1/2 is not evidence of Thm 4.4. NNT_ENUMERIC if the loss is not finite. */
int nnt_approx_sep_train(const int *w, int nh, int n, int steps, double lr, int samples, uint64_t seed, nnt_mlp *out,
                  double *final_mse);

/* ---------------------------------------------------------------- the demos of `nnt approx` (run_*.c, checks.c)
 * Each demo is a run from a config to a result: nnt_approx_<demo>_cfg_default(&cfg, preset) is the one
 * place of its defaults (NNT_PRESET_FULL or NNT_PRESET_QUICK, the --quick preset); nnt_approx_<demo>_run(&cfg, &res) checks the
 * config (NNT_EINVAL with a one-line message, res untouched), computes and fills res, and writes no
 * file; a violated bound is a result (res.violated and the like), not an error status. Free res
 * with nnt_approx_<demo>_result_free. nnt_approx_<demo>_check(&cfg) is that config check alone (no
 * work; the check demo has none), for --check-options. */

enum { NNT_APPROX_LIST_MAX = 64 }; /* list options of the demos (widths, depths) */

/* A piecewise-linear function on [0,1] by its breakpoints (for plots). */
typedef struct {
  int n;
  double *x, *y;
} nnt_approx_curve;

/* check: every checkable statement Q1..Q37 (quick: smaller sizes). */
typedef struct {
  char id[12], ref[32], claim[128], bound[48], measured[160], note[160];
  int pass, erratum;
} nnt_approx_check_row;
typedef struct {
  int quick;
  uint64_t seed;
} nnt_approx_check_cfg;
typedef struct {
  nnt_approx_check_row *rows;
  int n, cap, fails;
} nnt_approx_check_result;
void nnt_approx_check_cfg_default(nnt_approx_check_cfg *cfg, nnt_preset preset);
int nnt_approx_check_run(const nnt_approx_check_cfg *cfg, nnt_approx_check_result *res);
void nnt_approx_check_result_free(nnt_approx_check_result *res);

/* square: Yarotsky's h_i against x^2 (Thm 4.2, Figures 4.1/4.2). */
enum { NNT_APPROX_SQUARE_MAX_I = 24, NNT_APPROX_SQUARE_PLOT_MAX_I = 10 };
typedef struct {
  int i[NNT_APPROX_LIST_MAX], ni;
  const char *export_path, *version, *command; /* --export FILE: h_i of the last i (nnt_approx_square_export) */
} nnt_approx_square_cfg;
typedef struct {
  int i, hidden_layers;
  long relus, params;
  nnt_approx_square_error err;
  double sup_claim, l2sq_claim, thm46_lb; /* 4^{-i-1}, 2^{-4i}/30, 1/(5760 P^4) */
  nnt_approx_curve h, diff;               /* h_i and h_{i+1} - h_i (i <= NNT_APPROX_SQUARE_PLOT_MAX_I) */
} nnt_approx_square_row;
typedef struct {
  int n;
  nnt_approx_square_row *rows;
} nnt_approx_square_result;
void nnt_approx_square_cfg_default(nnt_approx_square_cfg *cfg, nnt_preset preset);
int nnt_approx_square_run(const nnt_approx_square_cfg *cfg, nnt_approx_square_result *res);
int nnt_approx_square_check(const nnt_approx_square_cfg *cfg);
void nnt_approx_square_result_free(nnt_approx_square_result *res);

/* triangle: Delta^L by the exact sweep (Prop 4.1): 2^L pieces on [0,1], 2^L + 2 on R. */
enum { NNT_APPROX_TRIANGLE_MAX_L = 26 };
typedef struct {
  int L[NNT_APPROX_LIST_MAX], nL;
  const char *export_path, *version, *command; /* --export FILE: Delta^L of the last L */
} nnt_approx_triangle_cfg;
typedef struct {
  int L, ok; /* ok: both counts as claimed */
  long pieces_01, pieces_R, regions;
  double seconds, peak_rss_mb; /* the [0,1] sweep; the process's peak RSS after both */
} nnt_approx_triangle_row;
typedef struct {
  int n, bad;
  nnt_approx_triangle_row *rows;
  nnt_approx_curve delta[3]; /* Delta^1..3 */
} nnt_approx_triangle_result;
void nnt_approx_triangle_cfg_default(nnt_approx_triangle_cfg *cfg, nnt_preset preset);
int nnt_approx_triangle_run(const nnt_approx_triangle_cfg *cfg, nnt_approx_triangle_result *res);
int nnt_approx_triangle_check(const nnt_approx_triangle_cfg *cfg);
void nnt_approx_triangle_result_free(nnt_approx_triangle_result *res);

/* separation: Thm 4.4's lb(n, P) and Thm 4.6 for a 1-D network g, loaded from an nnt-mlp JSON file or
 * trained by Adam (exactly one of net, ntrain); best uniform fits and the capacity table. */
enum { NNT_APPROX_SEP_MAX_N = 24, NNT_APPROX_SEP_MAX_LAYERS = 14 };
typedef struct {
  int n;           /* target Delta^n (required: 0 in the defaults) */
  const char *net; /* file of g, or NULL */
  int train[NNT_APPROX_SEP_MAX_LAYERS], ntrain; /* hidden widths of a trained g */
  int steps, samples;
  double lr;
  uint64_t seed;
  const char *export_path, *version, *command; /* --export FILE: g */
} nnt_approx_separation_cfg;
typedef struct {
  long P;
  double dev, l1, l2sq, lb; /* max |fit(t_i) - 1/2| at the knots, int |Delta^n - fit|, int (.)^2, lb(n,P) */
} nnt_approx_sep_fit;
typedef struct {
  nnt_mlp g;
  double train_mse; /* NAN for a loaded g */
  nnt_approx_sep_result sep;
  int L, thm44; /* Thm 4.4 applies: n = L^2 + 2 (L >= 2), g within 2^L ReLUs and L layers */
  nnt_approx_square_error sq;
  double thm46_lb; /* 1/(5760 P^4) for int (g - x^2)^2 */
  int nfit, ncap;
  nnt_approx_sep_fit fit[15];      /* P = 1, 2, 4, .. <= min(2^n, 2^14) */
  long cap_breaks[16];             /* interior breakpoints of Delta^k, k = 1..ncap (deep: 3k ReLUs) */
  int nplot;
  double *x, *delta_n, *gx;        /* Delta^n and g sampled on [0,1] */
  int violated;
} nnt_approx_separation_result;
void nnt_approx_separation_cfg_default(nnt_approx_separation_cfg *cfg, nnt_preset preset);
int nnt_approx_separation_run(const nnt_approx_separation_cfg *cfg, nnt_approx_separation_result *res);
int nnt_approx_separation_check(const nnt_approx_separation_cfg *cfg);
/* The memory --train's full-batch training holds, in bytes, and its time at 10^9 multiply-adds a
 * second (0 without --train); the check refuses what does not fit (nnt_mem_check). */
double nnt_approx_separation_bytes(const nnt_approx_separation_cfg *cfg, double *seconds);
void nnt_approx_separation_result_free(nnt_approx_separation_result *res);

/* ntk: |k_m - k_inf| against the width m (Prop 3.23) and the padding demo (Remark 3.24): the k_inf
 * Gram matrices of 12 circle points without and with padding (x,1)/sqrt2, their eigenvalues, and
 * kernel ridge on the target sin 3 theta. */
typedef struct {
  int widths[NNT_APPROX_LIST_MAX], nw;
  int pairs, d, pad;
  uint64_t seed;
} nnt_approx_ntk_cfg;
enum { NNT_APPROX_NTK_NCIRCLE = 12 };
typedef struct {
  int nw;
  long *m;
  double *err; /* mean |k_m - k_inf| per width */
  double slope; /* fitted log-log slope; claim -1/2 */
  int slope_ok; /* in [-0.6, -0.4], or fewer than three widths */
  double gram[2][NNT_APPROX_NTK_NCIRCLE * NNT_APPROX_NTK_NCIRCLE]; /* [0] plain, [1] padded */
  double eig[2][NNT_APPROX_NTK_NCIRCLE];  /* ascending */
  int nzero[2];                           /* eigenvalues below 1e-12 of the largest */
  double ridge_mse[2];                    /* train MSE of kernel ridge (lambda 1e-10) */
} nnt_approx_ntk_result;
void nnt_approx_ntk_cfg_default(nnt_approx_ntk_cfg *cfg, nnt_preset preset);
int nnt_approx_ntk_run(const nnt_approx_ntk_cfg *cfg, nnt_approx_ntk_result *res);
int nnt_approx_ntk_check(const nnt_approx_ntk_cfg *cfg);
/* The run's time at 10^9 multiply-adds a second (announced when a minute or more). */
double nnt_approx_ntk_seconds(const nnt_approx_ntk_cfg *cfg);
void nnt_approx_ntk_result_free(nnt_approx_ntk_result *res);

/* maurey: sampling sin 2 pi x by threshold units (exact identity 7.5/k, bound 16/k) and the Barron
 * sampler for exp(-pi |x|^2) - 1 on the unit disk (bound M^2/k). */
typedef struct {
  int ks[5], nk, trials;           /* sin: widths, draws per width */
  int gks[4], ng, gtrials, gpoints; /* Gaussian: widths, draws, evaluation points */
  uint64_t seed;
} nnt_approx_maurey_cfg;
typedef struct {
  int k, trials;
  double mse, se, exact, bound; /* se and exact: NAN for the Gaussian */
} nnt_approx_maurey_row;
typedef struct {
  nnt_approx_maurey_row sin[5], gauss[4];
  int nk, ng;
  double zmax;    /* largest |measured - exact| / stderr (sin) */
  double mass;    /* |mu|_1 of the Gaussian, by quadrature */
  int gauss_over; /* Gaussian widths above their bound */
} nnt_approx_maurey_result;
void nnt_approx_maurey_cfg_default(nnt_approx_maurey_cfg *cfg, nnt_preset preset);
int nnt_approx_maurey_run(const nnt_approx_maurey_cfg *cfg, nnt_approx_maurey_result *res);
int nnt_approx_maurey_check(const nnt_approx_maurey_cfg *cfg);
void nnt_approx_maurey_result_free(nnt_approx_maurey_result *res);

/* planting: Thm 3.10 in d = 2 with three planted ReLUs; F(x;V)/c0 against g on the circle |x| = 0.8. */
typedef struct {
  double tau, delta;
  int ntest, neval;
  uint64_t seed;
} nnt_approx_planting_cfg;
typedef struct {
  nnt_approx_plant_result plant;
  int neval;
  double *theta, *F_c0, *g, *Fw0_c0; /* at the neval circle points */
  int violated; /* F != F0, excess > 0 or min |S_i| < |U_i| */
} nnt_approx_planting_result;
void nnt_approx_planting_cfg_default(nnt_approx_planting_cfg *cfg, nnt_preset preset);
int nnt_approx_planting_run(const nnt_approx_planting_cfg *cfg, nnt_approx_planting_result *res);
int nnt_approx_planting_check(const nnt_approx_planting_cfg *cfg);
void nnt_approx_planting_result_free(nnt_approx_planting_result *res);

/* sobolev: the approximator of nnt_approx_sobolev_measure for r = 2, 3 on grids s = s[0..ns_d-1],
 * ns_d = ns[d - 1] (the d = 2 nets grow as s^2). */
typedef struct {
  int d, k, npts;
  int s[4], ns[2];
  uint64_t seed;
} nnt_approx_sobolev_cfg;
typedef struct {
  int d, r, s, k;
  nnt_approx_sobolev_report rep;
} nnt_approx_sobolev_row;
typedef struct {
  int n, ns, bad; /* rows r = 2 then r = 3, ns grids each; bad: rows above the bound */
  nnt_approx_sobolev_row rows[8];
} nnt_approx_sobolev_result;
void nnt_approx_sobolev_cfg_default(nnt_approx_sobolev_cfg *cfg, nnt_preset preset);
int nnt_approx_sobolev_run(const nnt_approx_sobolev_cfg *cfg, nnt_approx_sobolev_result *res);
int nnt_approx_sobolev_check(const nnt_approx_sobolev_cfg *cfg);
void nnt_approx_sobolev_result_free(nnt_approx_sobolev_result *res);

/* lazy [ext]: nnt_approx_lazy_train for each width. */
typedef struct {
  int widths[NNT_APPROX_LIST_MAX], nw;
  int steps;
  uint64_t seed;
} nnt_approx_lazy_cfg;
typedef struct {
  int n;
  nnt_approx_lazy_stats *rows;
} nnt_approx_lazy_result;
void nnt_approx_lazy_cfg_default(nnt_approx_lazy_cfg *cfg, nnt_preset preset);
int nnt_approx_lazy_run(const nnt_approx_lazy_cfg *cfg, nnt_approx_lazy_result *res);
int nnt_approx_lazy_check(const nnt_approx_lazy_cfg *cfg);
void nnt_approx_lazy_result_free(nnt_approx_lazy_result *res);

/* --export FILE (docs/export.md): the network a demo built, as .safetensors or .onnx by the
 * extension (nnt_smlp_export: dense float64 layers, kind "mlp"): square's h_i and triangle's Delta^L
 * for the last value of their lists, separation's g (loaded or trained). __metadata__ adds source
 * "approx", the construction, its parameters, the function it approximates and where (target,
 * domain), nnt_version and command from the config. NNT_OK and no file when export_path is NULL.
 * nnt_approx_export_check(path): NNT_EINVAL with one line unless path ends in .safetensors or .onnx
 * (each demo's check calls it, so a bad name is refused before any work). */
int nnt_approx_export_check(const char *path);
int nnt_approx_square_export(const nnt_approx_square_cfg *cfg);
int nnt_approx_triangle_export(const nnt_approx_triangle_cfg *cfg);
int nnt_approx_separation_export(const nnt_approx_separation_cfg *cfg, const nnt_approx_separation_result *res);

/* A list option of a run's config: 1..NNT_APPROX_LIST_MAX values, each in [lo, hi]; NNT_EINVAL
 * "what: ..." otherwise. */
int nnt_approx_check_list(const char *what, const int *v, int n, long lo, long hi);

#endif
