/* nnt_icl_construct.h — the explicit Theorem-1 transformer of seed 003 (spec §4): a transformer
 * whose forward pass runs projected gradient descent on an N-layer network (Definition 1, no
 * biases) stored in every token of the prompt.
 *
 * Engine: double precision, tokens as rows of H (T × D, T = n+1: n examples and the query), three
 * layer types exactly as defined (Defs. 5–8), every head's Q, K, V stored sparsely:
 *   ReLU attention  h_i += (1/T) Σ_heads Σ_s σ(⟨Q h_i, K h_s⟩) V h_s   (full Σ over all T tokens)
 *   EWML            h_i += Σ_heads ⟨Q h_i, K h_i⟩ V h_i                 (self-score, no σ)
 *   MLP             h_i += W₂ σ(W₁ h_i)                                 (one "head" per hidden unit)
 * One GD step is 2N+4 layers (spec §4.3); an optional N+1 readout layers write the query
 * prediction into the query's y slot. */
#ifndef NNT_ICL_CONSTRUCT_H
#define NNT_ICL_CONSTRUCT_H
#include <stdint.h>

#include "nnt_icl_net.h"
#include "nnt_sweep.h"

/* ---------------------------------------------------------------- token layout (spec §3.4)
 * [x dx | y dy | w D_N | p̂ U | r̂′ U | g dy | ŝ U | 1 | t],  U = (N−1)K + dy units.
 * p̂(j) (j = 1..N) at p + (j−1)K; r̂′(j−1) (j = 1..N) at rp + (j−1)K; ŝ(N) at s, ŝ(j) (j < N) at
 * s + dy + (N−1−j)K. */
typedef struct {
  int D, U;
  int x, y, w, p, rp, g, s, one, t;
} nnt_icl_layout;
void nnt_icl_layout_init(nnt_icl_layout *L, const nnt_icl_net *net);
int nnt_icl_layout_p(const nnt_icl_layout *L, const nnt_icl_net *net, int j);   /* p̂(j), j = 0..N (0: x) */
int nnt_icl_layout_rp(const nnt_icl_layout *L, const nnt_icl_net *net, int j);  /* r̂′(j−1), j = 1..N */
int nnt_icl_layout_s(const nnt_icl_layout *L, const nnt_icl_net *net, int j);   /* ŝ(j), j = 1..N */

/* ---------------------------------------------------------------- layer engine */
typedef enum { NNT_ICL_ATTN, NNT_ICL_EWML, NNT_ICL_MLP } nnt_icl_ltype;
extern const char *const nnt_icl_ltype_names[];
typedef struct {
  int r, c;
  double v;
} nnt_icl_ent; /* matrix entry: row r, column c (a token coordinate), value v */
/* A head: entries [q, q+nq) of Q, [k, k+nk) of K, [v, v+nv) of V in the layer's entry array;
 * dk = rows of Q and K. MLP unit: Q holds the W₁ row (r = 0), V the W₂ column (c unused). */
typedef struct {
  int dk, q, nq, k, nk, v, nv;
} nnt_icl_head;
typedef struct {
  nnt_icl_ltype type;
  const char *what; /* the layer's role, for the layer table */
  int nheads, nent, cap_heads, cap_ent;
  nnt_icl_head *heads;
  nnt_icl_ent *ent;
} nnt_icl_layer;
typedef struct {
  nnt_icl_net net;
  nnt_icl_layout L;
  int nstep;            /* 2N+4 layers of one GD step */
  int nlayers;          /* nstep + (readout ? N+1 : 0) */
  nnt_icl_layer *layer; /* one GD step, then the readout */
} nnt_icl_tf;
/* Applies layer l to H (T × D) in place; ws: nnt_icl_tf_ws_size doubles. T must be the n+1 the
 * transformer was built for (the GD layer's factor η(n+1)/(2n) depends on it). */
size_t nnt_icl_tf_ws_size(const nnt_icl_tf *tf, int T);
void nnt_icl_tf_apply(const nnt_icl_tf *tf, int l, double *H, int T, double *ws);
long nnt_icl_tf_heads(const nnt_icl_tf *tf, int from, int to); /* heads (MLP: hidden units) in layers [from, to) */
void nnt_icl_tf_free(nnt_icl_tf *tf);

/* ---------------------------------------------------------------- sum-of-ReLU interpolation
 * f̂(t) = Σ_h c_h σ(a_h t + b_h): the piecewise-linear interpolant of f at M+1 equispaced knots on
 * [−R, R] (spec §4.2), extended linearly on both sides (one head more than the spec's formula, so
 * that a linear f, e.g. the identity, is represented exactly everywhere). Pieces with c = 0 are
 * dropped. At most M+2 pieces. */
typedef struct {
  int np;
  double *a, *b, *c;
} nnt_icl_pwl;
/* deriv = 0: f = r; deriv = 1: f = r′. A linear output layer uses identity. */
void nnt_icl_pwl_build(nnt_icl_pwl *p, nnt_icl_act act, int deriv, int M, double R);
double nnt_icl_pwl_eval(const nnt_icl_pwl *p, double t);
void nnt_icl_pwl_free(nnt_icl_pwl *p);

/* ---------------------------------------------------------------- config → run → result */
typedef struct {
  nnt_icl_net net;     /* bias must be 0 (the theory's network) */
  int n;               /* in-context examples; the prompt has n+1 tokens (the last is the query) */
  int steps;           /* GD steps L; the transformer has (2N+4)L layers (+N+1 readout) */
  int M;               /* ReLU pieces per interpolated function (r and r′) */
  double R;            /* interpolation range [−R, R] */
  double eta, B;       /* step size; clip box [−B, B] (the projection) */
  double w0_std;       /* ŵ⁰ ~ N(0, w0_std²) written in the w slot; 0: ŵ⁰ = 0 (degenerate) */
  double teacher_std;  /* labels y = f(w*, x), w* ~ N(0, teacher_std²); x ~ N(0, I) */
  double gate;         /* G: query gate of the loss and readout MLPs; must exceed |p̂(N) − y| */
  int readout;         /* 1: N+1 readout layers after each step give the query prediction */
  double bound_scale;  /* 1: Theorem 1's bound as derived; < 1 scales its interpolation constants
                          down (a fault injection: the bound must then fail the check) */
  uint64_t seed;
  const char *export_path;       /* run: the transformer and its prompt as .safetensors, or NULL */
  const char *version, *command; /* provenance recorded in the export */
} nnt_icl_construct_cfg;
/* The spec §5 reference configuration (quick: 5 steps). */
void nnt_icl_construct_cfg_default(nnt_icl_construct_cfg *c, nnt_preset p);
int nnt_icl_construct_check(const nnt_icl_construct_cfg *c); /* NNT_EINVAL with one line */

/* The prompt: X ((n+1) × dx), Y ((n+1) × dy, the query's row 0), ŵ⁰ (D_N), drawn from seed. */
typedef struct {
  int n;
  double *X, *Y, *w0, *wstar;
} nnt_icl_construct_data;
void nnt_icl_construct_data_draw(const nnt_icl_construct_cfg *c, nnt_icl_construct_data *d);
void nnt_icl_construct_data_free(nnt_icl_construct_data *d);
/* H ((n+1) × D): each token [x; y; ŵ⁰; 0; 1; t], t = 0 on the query only. */
void nnt_icl_construct_embed(const nnt_icl_tf *tf, const nnt_icl_construct_data *d, double *H);
/* Builds the 2N+4 layers of one step for n examples (and the readout if c->readout). */
int nnt_icl_tf_build(const nnt_icl_construct_cfg *c, nnt_icl_tf *tf);
/* Checks after a block: all token copies of w bitwise identical, scratch exactly 0. */
int nnt_icl_construct_copies_identical(const nnt_icl_tf *tf, const double *H, int T);
int nnt_icl_construct_scratch_zero(const nnt_icl_tf *tf, const double *H, int T);

typedef struct {
  double err2, errinf;   /* ‖ŵ_TF − w_GD‖₂, ‖·‖∞ after the step */
  double grad_err;       /* ‖∇̂ − ∇L_n(ŵ)‖₂: ∇̂ read from the w slot before the projection */
  double loss_tf, loss_gd; /* L_n at ŵ_TF and w_GD after the step */
  double pred_tf, pred_gd; /* query prediction: readout (first output), f(w_GD, x_q) */
  double grad_bound;     /* Lemmas 2–6: bound on grad_err (NAN: activation not covered) */
  double err_bound;      /* Corollary 1.1: bound on err2 */
  double lip;            /* L_f along the step: ‖∇L_n(ŵ) − ∇L_n(w_GD)‖/‖ŵ − w_GD‖ at its start */
  int copies_ok, scratch_ok;
} nnt_icl_construct_step;
typedef struct {
  int D, layers_per_step, layers, readout_layers;
  long heads_per_step, max_heads_layer;
  double wgd_norm;        /* ‖w_GD‖₂ at the end */
  double max_err;         /* max over steps of ‖ŵ_TF − w_GD‖∞ */
  double max_err2;        /* max over steps of ‖ŵ_TF − w_GD‖₂ */
  double max_range;       /* largest |pre-activation| the interpolants saw (vs R) */
  int invariants_ok;      /* copies identical and scratch zero after every block */
  double max_bound;       /* max over steps of err_bound (NAN: not covered) */
  int bound_ok;           /* every step: grad_err <= grad_bound and err2 <= err_bound (1 if not covered) */
  int bound_step;         /* the first step where a bound failed (0: none) */
  double seconds;
  int steps;
  nnt_icl_construct_step *step;
  double *w_tf, *w_gd;    /* final weights, D_N each */
} nnt_icl_construct_result;
int nnt_icl_construct_run(const nnt_icl_construct_cfg *c, nnt_icl_construct_result *r);
/* The transformer (one GD step's layers, then the readout) and the prompt as a .safetensors file
 * (docs/export.md): layers.L.W_Q, W_K [heads, dk, D], W_V [heads, D, D] (attention, EWML) or
 * layers.L.W_1 [units, D], W_2 [D, units] (MLP), float64; prompt.H (the embedded tokens), prompt.X,
 * prompt.Y, prompt.w0; __metadata__ kind "icgd", arch (JSON: net, layout, layer types, eta, B,
 * steps, the run's max_err). Called by nnt_icl_construct_run when c->export_path is set. */
int nnt_icl_construct_export(const nnt_icl_construct_cfg *c, const nnt_icl_tf *tf, const nnt_icl_construct_data *d,
                             const nnt_icl_construct_result *r, const char *path);

/* ---------------------------------------------------------------- Theorem 1's bound (construct_bound.c)
 * Per step, at the step's start ŵ (D_N), the n examples X (n × dx) and labels Y (n × dy): a bound
 * on ‖∇̂ − ∇L_n(ŵ)‖₂ (Lemmas 2–6 with the actual constants: the interpolation errors of r and r′
 * for M pieces on [−R, R], extended beyond R; B_x, B_y; each layer's largest row norm B_v and
 * Frobenius norm; the Lipschitz and curvature constants of r), times cfg->bound_scale on the
 * interpolation errors. Corollary 1.1 then gives, the projection being non-expansive,
 *   ‖ŵ^l − w_GD^l‖₂ <= η(ε_g^l + a_g) + (1 + η L_f^l) B^{l−1} + a_w,   B^0 = 0,
 * with L_f^l the secant Lipschitz constant of ∇L_n between ŵ^{l−1} and w_GD^{l−1} (so the step
 * inequality holds exactly) and a_g, a_w = 1e-9·(1 + norm) allowances for double rounding, which
 * the theorem does not model. NAN where the activation is outside the theorem (ReLU, GELU). */
double nnt_icl_bound_grad(const nnt_icl_construct_cfg *c, const double *w, const double *X, const double *Y);
int nnt_icl_bound_covered(const nnt_icl_net *net); /* identity, sigmoid, tanh, softplus */
void nnt_icl_construct_result_free(nnt_icl_construct_result *r);

/* icl construct-sweep: the construction for every combination of the lists N, K, n and M (N, K, n
 * outer, M inner: groups of nM points per shape), each point with base's other settings. */
enum { NNT_ICL_SWEEP_MAX = 64 };
typedef struct {
  nnt_icl_construct_cfg base;
  int Ns[NNT_ICL_SWEEP_MAX], nN, Ks[NNT_ICL_SWEEP_MAX], nK, ns[NNT_ICL_SWEEP_MAX], nn, Ms[NNT_ICL_SWEEP_MAX], nM;
} nnt_icl_construct_sweep_cfg;
typedef struct {
  int np, nM;
  nnt_icl_construct_cfg *cfg;     /* the points' configs */
  nnt_icl_construct_result *res;  /* their results */
  double seconds;
} nnt_icl_construct_sweep_result;
/* The base of the preset, its N, K and n, and M = 8, 16, ..., 256. */
void nnt_icl_construct_sweep_cfg_default(nnt_icl_construct_sweep_cfg *c, nnt_preset p);
int nnt_icl_construct_sweep_check(const nnt_icl_construct_sweep_cfg *c);
int nnt_icl_construct_sweep_run(const nnt_icl_construct_sweep_cfg *c, nnt_icl_construct_sweep_result *r);
void nnt_icl_construct_sweep_result_free(nnt_icl_construct_sweep_result *r);

#endif
