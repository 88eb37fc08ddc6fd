/* construct_bound.c — Theorem 1's error bound for the construction, evaluated with its actual
 * constants (spec §4; the paper's Lemmas 2–6 and Corollary 1.1): per GD step, a bound on the
 * gradient error ‖∇̂ − ∇L_n(ŵ)‖₂ from the interpolation errors of r and r′ (M pieces on [−R, R])
 * carried through the forward pass, the derivative layer, the loss MLP and the s-recursion, and
 * from it a bound on ‖ŵ − w_GD‖₂ after the step. Only triangle inequalities and sup bounds are
 * used, so the bound holds whatever the draw (tests/icl/test_construct.c checks it on every step
 * and sees it fail when a constant is made too small). */
#include <math.h>

#include "nnt_icl_construct.h"

/* sup |r′|, sup |r″|, sup |r‴| over R: the Lipschitz constants of r and r′ and the curvature
 * constants of their interpolation errors. 0 for an activation Theorem 1 does not cover (ReLU:
 * not C⁴; GELU: not evaluated). */
static int act_consts(nnt_icl_act a, double c[3]) {
  switch (a) {
  case NNT_ICL_ACT_IDENTITY: c[0] = 1, c[1] = 0, c[2] = 0; return 1;
  case NNT_ICL_ACT_SIGMOID: c[0] = 0.25, c[1] = 1 / (6 * sqrt(3.0)), c[2] = 0.125; return 1;
  case NNT_ICL_ACT_TANH: c[0] = 1, c[1] = 4 / (3 * sqrt(3.0)), c[2] = 2; return 1;
  case NNT_ICL_ACT_SOFTPLUS: c[0] = 1, c[1] = 0.25, c[2] = 1 / (6 * sqrt(3.0)); return 1;
  default: return 0;
  }
}

int nnt_icl_bound_covered(const nnt_icl_net *net) {
  double c[3];
  return act_consts(net->act, c);
}

/* Error of the piecewise-linear interpolant of f (|f″| <= c2) with knots h = 2R/M apart on [−R, R]
 * and its end segments extended, anywhere on [−T, T]: c2·h²/8 inside; beyond R the extension's
 * slope is f′ somewhere in the last segment, so the error grows by at most c2·((T−R)²/2 + h(T−R)). */
static double pwl_err(double c2, int M, double R, double T) {
  const double h = 2 * R / M, in = c2 * h * h / 8;
  if (T <= R) return in;
  const double out = c2 * (0.5 * (T - R) * (T - R) + h * (T - R));
  return out > in ? out : in;
}

/* sup |r| and sup |r′| over [−T, T] (the four covered activations are monotone; r′ is largest at
 * 0, but for softplus, whose r′ = σ grows). */
static double sup_r(nnt_icl_act a, double T) {
  const double p = fabs(nnt_icl_act_eval(a, T, NULL)), m = fabs(nnt_icl_act_eval(a, -T, NULL));
  return p > m ? p : m;
}
static double sup_rp(nnt_icl_act a, double T, const double c[3]) {
  double d;
  if (a != NNT_ICL_ACT_SOFTPLUS) return c[0];
  nnt_icl_act_eval(a, T, &d);
  return d;
}

double nnt_icl_bound_grad(const nnt_icl_construct_cfg *c, const double *w, const double *X, const double *Y) {
  const nnt_icl_net *net = &c->net;
  const int N = net->N, n = c->n;
  enum { MAXN = 64 };
  double ca[3], ci[3];
  if (!act_consts(net->act, ca) || N > MAXN) return NAN;
  act_consts(NNT_ICL_ACT_IDENTITY, ci);
  /* B_x, B_y over the n examples (the query's gradient share is gated to 0) */
  double Bx = 0, By = 0;
  for (int i = 0; i < n; i++) {
    double sx = 0, sy = 0;
    for (int q = 0; q < net->dx; q++) sx += X[(size_t)i * net->dx + q] * X[(size_t)i * net->dx + q];
    for (int q = 0; q < net->dy; q++) sy += Y[(size_t)i * net->dy + q] * Y[(size_t)i * net->dy + q];
    Bx = sqrt(sx) > Bx ? sqrt(sx) : Bx, By = sqrt(sy) > By ? sqrt(sy) : By;
  }
  /* per layer: B_v (largest row norm), ‖V_j‖_F; forward bounds P (true p(j)), E (‖p̂(j) − p(j)‖,
   * Lemma 2), D (sup |r′| at the true pre-activations), rho (|r̂′ − r′| per unit, Lemma 3) */
  double Bv[MAXN + 1], F[MAXN + 1], P[MAXN + 1], E[MAXN + 1], D[MAXN + 1], rho[MAXN + 1];
  P[0] = Bx, E[0] = 0;
  for (int j = 1; j <= N; j++) {
    const int fi = nnt_icl_net_fan_in(net, j), u = nnt_icl_net_units(net, j);
    const double *v = w + nnt_icl_net_layer_offset(net, j);
    double fro = 0, bv = 0;
    for (int k = 0; k < u; k++) {
      double s = 0;
      for (int q = 0; q < fi; q++) s += v[(size_t)k * fi + q] * v[(size_t)k * fi + q];
      fro += s, bv = sqrt(s) > bv ? sqrt(s) : bv;
    }
    Bv[j] = bv, F[j] = sqrt(fro);
    const int lin = j == N && !net->out_act;
    const nnt_icl_act a = lin ? NNT_ICL_ACT_IDENTITY : net->act;
    const double *k3 = lin ? ci : ca;
    const double T = Bv[j] * P[j - 1], That = Bv[j] * (P[j - 1] + E[j - 1]);
    const double er = c->bound_scale * pwl_err(k3[1], c->M, c->R, That);  /* r̂ vs r */
    const double erp = c->bound_scale * pwl_err(k3[2], c->M, c->R, That); /* r̂′ vs r′ */
    P[j] = sqrt((double)u) * sup_r(a, T);
    E[j] = sqrt((double)u) * er + k3[0] * F[j] * E[j - 1];
    D[j] = sup_rp(a, T, k3);
    rho[j] = erp + k3[1] * Bv[j] * E[j - 1];
  }
  /* Lemma 4 (exact for the squared loss): g = 2(p(N) − y), ‖ĝ − g‖ <= 2E_N. Lemmas 5–6: the
   * s-recursion with its error, S (‖s(j)‖) and dS (‖ŝ(j) − s(j)‖), one token at a time. */
  const double G = 2 * (P[N] + By), dG = 2 * E[N];
  double S = D[N] * G, dS = rho[N] * (G + dG) + D[N] * dG, sum = 0;
  for (int j = N; j >= 1; j--) {
    if (j < N) {
      const double W = F[j + 1], S1 = S, dS1 = dS;
      S = D[j] * W * S1;
      dS = rho[j] * W * (S1 + dS1) + D[j] * W * dS1;
    }
    /* ∇_{V_j} = (1/(2n)) Σ_i s_i(j) p_i(j−1)ᵀ: per token ‖ŝp̂ᵀ − spᵀ‖ <= dS(P + E) + S·E */
    const double e = 0.5 * (dS * (P[j - 1] + E[j - 1]) + S * E[j - 1]);
    sum += e * e;
  }
  return sqrt(sum);
}
