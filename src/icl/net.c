/* The N-layer network of Definition 1 / App. E in double precision. The gradient is the
 * s-recursion of Lemma 1 / Definition 3, i.e. reverse-mode backprop, one point at a time:
 *   s(N) = r'(z_N) ⊙ u,  u = 2(f - y)        (r' = 1 on a linear output)
 *   s(j) = r'(z_j) ⊙ (V_{j+1}ᵀ s(j+1)),  j = N-1..1
 *   ∂ℓ/∂v_{j,k} = s(j)[k] p(j-1),  ∂ℓ/∂b_{j,k} = s(j)[k],  ∇L_n = (1/(2n)) Σ_i ∂ℓ_i. */
#include <math.h>
#include <string.h>

#include "nnt_dmath.h"
#include "nnt_error.h"
#include "nnt_icl_net.h"

const char *const nnt_icl_act_names[] = {"identity", "sigmoid", "tanh", "softplus", "gelu", "relu", NULL};

double nnt_icl_act_eval(nnt_icl_act a, double z, double *deriv) {
  double f, d;
  switch (a) {
  case NNT_ICL_ACT_SIGMOID:
    f = 1 / (1 + nnt_dmath_exp(-z)), d = f * (1 - f);
    break;
  case NNT_ICL_ACT_TANH:
    f = nnt_dmath_tanh(z), d = 1 - f * f;
    break;
  case NNT_ICL_ACT_SOFTPLUS: /* log(1 + e^z) without overflow */
    f = z > 0 ? z + nnt_dmath_log1p(nnt_dmath_exp(-z)) : nnt_dmath_log1p(nnt_dmath_exp(z)), d = 1 / (1 + nnt_dmath_exp(-z));
    break;
  case NNT_ICL_ACT_GELU: { /* exact: z Φ(z) (libm's erf and exp: not yet the same bits on every CPU) */
    double Phi = 0.5 * (1 + erf(z * M_SQRT1_2));
    f = z * Phi, d = Phi + z * exp(-0.5 * z * z) / sqrt(2 * M_PI);
    break;
  }
  case NNT_ICL_ACT_RELU:
    f = z > 0 ? z : 0, d = z > 0;
    break;
  default:
    f = z, d = 1;
  }
  if (deriv) *deriv = d;
  return f;
}

int nnt_icl_net_check(const nnt_icl_net *s) {
  if (s->N < 2) return nnt_fail(NNT_EINVAL, "network depth N must be >= 2 (got %d)", s->N);
  if (s->K < 1 || s->dx < 1 || s->dy < 1)
    return nnt_fail(NNT_EINVAL, "network widths must be >= 1 (got K=%d dx=%d dy=%d)", s->K, s->dx, s->dy);
  if ((int)s->act < 0 || s->act > NNT_ICL_ACT_RELU) return nnt_fail(NNT_EINVAL, "unknown activation %d", (int)s->act);
  if ((double)s->K * s->K * s->N > 1e9) return nnt_fail(NNT_EINVAL, "network too large (N=%d K=%d)", s->N, s->K);
  return NNT_OK;
}

int nnt_icl_net_fan_in(const nnt_icl_net *s, int j) { return j == 1 ? s->dx : s->K; }
int nnt_icl_net_units(const nnt_icl_net *s, int j) { return j == s->N ? s->dy : s->K; }

size_t nnt_icl_net_layer_offset(const nnt_icl_net *s, int j) {
  size_t off = 0;
  for (int l = 1; l < j; l++) off += (size_t)nnt_icl_net_units(s, l) * (nnt_icl_net_fan_in(s, l) + (s->bias != 0));
  return off;
}

size_t nnt_icl_net_nparams(const nnt_icl_net *s) { return nnt_icl_net_layer_offset(s, s->N + 1); }

/* Per point: z and p of every layer (N-1)K + dy each, and two s vectors of the widest layer. */
size_t nnt_icl_net_ws_size(const nnt_icl_net *s, int n) {
  (void)n; /* the points are processed one at a time */
  size_t units = (size_t)(s->N - 1) * s->K + s->dy, wide = (size_t)(s->K > s->dy ? s->K : s->dy);
  return 2 * units + 2 * wide;
}

/* One point x: fills z and p (layer j at offset (j-1)K); returns p(N). */
static const double *forward1(const nnt_icl_net *s, const double *w, const double *x, double *z, double *p) {
  const double *in = x;
  const int hb = s->bias != 0;
  for (int j = 1; j <= s->N; j++) {
    const int fi = nnt_icl_net_fan_in(s, j), nu = nnt_icl_net_units(s, j), act = j < s->N || s->out_act;
    const double *v = w + nnt_icl_net_layer_offset(s, j);
    double *zj = z + (size_t)(j - 1) * s->K, *pj = p + (size_t)(j - 1) * s->K;
    int k = 0;
    /* four units at a time: each sum keeps its own order, and the four chains of additions
     * overlap instead of each waiting on the last (a third of an ICL step at width 200) */
    for (const int st = fi + hb; k + 4 <= nu; k += 4, v += 4 * st) {
      double a0 = hb ? v[fi] : 0, a1 = hb ? v[st + fi] : 0, a2 = hb ? v[2 * st + fi] : 0, a3 = hb ? v[3 * st + fi] : 0;
      for (int i = 0; i < fi; i++) {
        const double u = in[i];
        a0 += v[i] * u, a1 += v[st + i] * u, a2 += v[2 * st + i] * u, a3 += v[3 * st + i] * u;
      }
      zj[k] = a0, zj[k + 1] = a1, zj[k + 2] = a2, zj[k + 3] = a3;
    }
    for (; k < nu; k++, v += fi + hb) {
      double a = hb ? v[fi] : 0;
      for (int i = 0; i < fi; i++) a += v[i] * in[i];
      zj[k] = a;
    }
    for (k = 0; k < nu; k++) pj[k] = act ? nnt_icl_act_eval(s->act, zj[k], NULL) : zj[k];
    in = pj;
  }
  return p + (size_t)(s->N - 1) * s->K;
}

void nnt_icl_net_forward(const nnt_icl_net *s, const double *w, const double *X, int n, double *Y, double *ws) {
  const size_t units = (size_t)(s->N - 1) * s->K + s->dy;
  for (int i = 0; i < n; i++) {
    const double *f = forward1(s, w, X + (size_t)i * s->dx, ws, ws + units);
    memcpy(Y + (size_t)i * s->dy, f, sizeof(double) * s->dy);
  }
}

double nnt_icl_net_loss_grad(const nnt_icl_net *s, const double *w, const double *X, const double *Y, int n,
                             double *grad, double *ws) {
  const size_t units = (size_t)(s->N - 1) * s->K + s->dy, wide = (size_t)(s->K > s->dy ? s->K : s->dy);
  const int hb = s->bias != 0;
  double *z = ws, *p = ws + units, *sa = p + units, *sb = sa + wide;
  if (grad) memset(grad, 0, sizeof(double) * nnt_icl_net_nparams(s));
  double loss = 0;
  for (int i = 0; i < n; i++) {
    const double *x = X + (size_t)i * s->dx, *y = Y + (size_t)i * s->dy;
    const double *f = forward1(s, w, x, z, p);
    const double *zN = z + (size_t)(s->N - 1) * s->K;
    for (int k = 0; k < s->dy; k++) {
      double e = f[k] - y[k], d = 1;
      loss += e * e;
      if (s->out_act) nnt_icl_act_eval(s->act, zN[k], &d);
      sa[k] = d * 2 * e; /* s(N) = r'(z_N) ⊙ u */
    }
    if (!grad) continue;
    for (int j = s->N; j >= 1; j--) { /* sa = s(j); accumulate the layer's block, then s(j-1) */
      const int fi = nnt_icl_net_fan_in(s, j), nu = nnt_icl_net_units(s, j);
      const size_t off = nnt_icl_net_layer_offset(s, j);
      const double *in = j == 1 ? x : p + (size_t)(j - 2) * s->K, *v = w + off;
      double *g = grad + off;
      for (int k = 0; k < nu; k++, g += fi + hb) {
        for (int q = 0; q < fi; q++) g[q] += sa[k] * in[q];
        if (hb) g[fi] += sa[k];
      }
      if (j == 1) break;
      const double *zp = z + (size_t)(j - 2) * s->K;
      for (int q = 0; q < fi; q++) {
        double a = 0, d;
        for (int k = 0; k < nu; k++) a += v[(size_t)k * (fi + hb) + q] * sa[k];
        nnt_icl_act_eval(s->act, zp[q], &d);
        sb[q] = d * a;
      }
      double *t = sa;
      sa = sb, sb = t;
    }
  }
  if (grad) {
    const size_t D = nnt_icl_net_nparams(s);
    for (size_t q = 0; q < D; q++) grad[q] /= 2.0 * n;
  }
  return loss / (2.0 * n);
}

void nnt_icl_net_init(const nnt_icl_net *s, double *w, double mean, double std, nnt_rng *r) {
  const int hb = s->bias != 0;
  for (int j = 1; j <= s->N; j++) {
    const int fi = nnt_icl_net_fan_in(s, j), nu = nnt_icl_net_units(s, j);
    const double sd = std > 0 ? std : sqrt(2.0 / fi);
    double *v = w + nnt_icl_net_layer_offset(s, j);
    for (int k = 0; k < nu; k++, v += fi + hb) {
      for (int q = 0; q < fi; q++) v[q] = mean + sd * nnt_rng_normal(r);
      if (hb) v[fi] = 0;
    }
  }
}

double nnt_icl_net_gd_step(const nnt_icl_net *s, double *w, const double *X, const double *Y, int n, double eta,
                           double B, double *grad, double *ws) {
  const double loss = nnt_icl_net_loss_grad(s, w, X, Y, n, grad, ws);
  const size_t D = nnt_icl_net_nparams(s);
  for (size_t q = 0; q < D; q++) {
    double v = w[q] - eta * grad[q];
    if (B > 0) v = v > B ? B : v < -B ? -B : v;
    w[q] = v;
  }
  return loss;
}
