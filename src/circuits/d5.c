/* d5.c — Theorem D.6's all-layer margin bound (D.5) evaluated for a compiled circuit: the net is
 * cut into Definition D.1's layers and corrections, Condition D.3's constants are computed from
 * its weights and layer values (nnt_circuits.h), and the run sets the bound beside the certified
 * lower bound and the attack's upper bound of nnt circuit margin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_circuits.h"
#include "nnt_error.h"

const char *const nnt_circuit_d5_term_names[NNT_CIRCUIT_D5_TERMS] = {
    "lambda/mu0",     "sigma_zeta/mu0", "sigma_theta", "sigma_xi", "1/(2kappa_theta)", "sigma_zeta/(2kappa_theta*lambda)",
    "sigma_h/(2kappa_xi*lambda)", "sigma_zeta/(4lambda*mu*kappa_xi)", "1/(4mu*kappa_xi)"};

/* The net cut into D.1's pieces, and what the constants need of it. */
typedef struct {
  int d, nlayers;
  int *fs, *fe;             /* f_i = layers [fs[i], fe[i]), i = 0..d */
  double *opn;              /* per layer: an upper bound on ||W||_2 */
  double *zc, *zd;          /* per correction: ||C||_2 + ||c_+||_2 (first layer), ||D||_2 (second) */
  double sigma_zeta;
  int n;                    /* inputs */
  double *ain;              /* [n, nlayers] ||input of layer l|| at x_v, unperturbed */
  double *hn;               /* [n, d + 1] ||h_i(x_v)|| */
} d5_net;

static double frob(const nnt_mlp_layer *L) {
  double s = 0;
  for (long i = 0; i < (long)L->in * L->out; i++) s += L->W[i] * L->W[i];
  return sqrt(s);
}

/* Layers l, l+1 a correction relu(u1 - u2), u1 = relu(a z + c1), u2 = relu(a z + c2) per unit with
 * a > 0 and c1 - c2 = 1? It is 0 for z <= -c1/a and 1 for z >= -c2/a, so it maps every point within
 * min(-c1/a, 1 + c2/a) of a binary vector (l_inf, hence l_2) back onto it: *radius (> 0). */
static int correction_at(const nnt_mlp *net, int l, double *radius) {
  if (l + 1 >= net->nlayers) return 0;
  const nnt_mlp_layer *A = &net->layers[l], *B = &net->layers[l + 1];
  int n = A->in;
  if (A->out != 2 * n || B->in != 2 * n || B->out != n || A->act != NNT_ACT_RELU || B->act != NNT_ACT_RELU) return 0;
  double r = INFINITY;
  for (int k = 0; k < n; k++) {
    double a = A->W[(size_t)k * n + k], c1 = A->b[k], c2 = A->b[n + k];
    if (!(a > 0) || A->W[(size_t)(n + k) * n + k] != a || c1 - c2 != 1 || B->b[k] != 0) return 0;
    for (int i = 0; i < n; i++)
      if (i != k && (A->W[(size_t)k * n + i] != 0 || A->W[(size_t)(n + k) * n + i] != 0)) return 0;
    for (int i = 0; i < 2 * n; i++)
      if (B->W[(size_t)k * 2 * n + i] != (i == k ? 1 : i == n + k ? -1 : 0)) return 0;
    double rk = fmin(-c1 / a, 1 + c2 / a);
    r = rk < r ? rk : r;
  }
  *radius = r;
  return r > 0;
}

static void d5_net_free(d5_net *s) {
  free(s->fs), free(s->fe), free(s->opn), free(s->zc), free(s->zd), free(s->ain), free(s->hn);
  memset(s, 0, sizeof *s);
}

static int d5_net_init(const nnt_mlp *net, const double *X, int n, d5_net *s) {
  memset(s, 0, sizeof *s);
  int L = s->nlayers = net->nlayers, m = L ? net->layers[0].in : 0;
  if (L < 1 || n < 1) return nnt_fail(NNT_EINVAL, "(D.5): an empty net or no inputs");
  if (net->layers[L - 1].out != 1) return nnt_fail(NNT_EINVAL, "(D.5): the net must end with a scalar readout");
  s->fs = nnt_xmalloc(sizeof(int) * (size_t)L), s->fe = nnt_xmalloc(sizeof(int) * (size_t)L);
  s->zc = nnt_xmalloc(sizeof(double) * (size_t)L), s->zd = nnt_xmalloc(sizeof(double) * (size_t)L);
  s->opn = nnt_xmalloc(sizeof(double) * (size_t)L);
  s->sigma_zeta = INFINITY;
  int st = NNT_OK, start = 0;
  for (int l = 0; l < L && !st; l++) {
    const nnt_mlp_layer *Ly = &net->layers[l];
    if (Ly->act != NNT_ACT_RELU && Ly->act != NNT_ACT_IDENTITY)
      st = nnt_fail(NNT_EINVAL, "(D.5): layer %d is %s; relu or identity needed", l, nnt_act_name(Ly->act));
    double f = frob(Ly), g = nnt_circuit_opnorm_bound(Ly);
    s->opn[l] = f < g ? f : g;
  }
  for (int l = 0; l < L && !st;) {
    double r;
    if (!correction_at(net, l, &r)) {
      l++;
      continue;
    }
    if (l == start) st = nnt_fail(NNT_EINVAL, "(D.5): a correction at layer %d follows no layer", l);
    const nnt_mlp_layer *C = &net->layers[l];
    double cplus = 0;
    for (int o = 0; o < C->out; o++) cplus += C->b[o] > 0 ? C->b[o] * C->b[o] : 0;
    s->fs[s->d] = start, s->fe[s->d] = l;
    s->zc[s->d] = s->opn[l] + sqrt(cplus), s->zd[s->d] = s->opn[l + 1];
    s->d++;
    s->sigma_zeta = r < s->sigma_zeta ? r : s->sigma_zeta;
    start = l += 2;
  }
  if (!st && start >= L) st = nnt_fail(NNT_EINVAL, "(D.5): the net ends with a correction, not a readout");
  if (st) return d5_net_free(s), st;
  s->fs[s->d] = start, s->fe[s->d] = L;
  /* no correction: the last step of the proof needs only |F^ - F| < 1 */
  if (s->d == 0) s->sigma_zeta = 1;
  s->n = n;
  s->ain = nnt_xmalloc(sizeof(double) * (size_t)n * L);
  s->hn = nnt_xmalloc(sizeof(double) * (size_t)n * (s->d + 1));
  double **acts = nnt_xmalloc(sizeof(double *) * (size_t)L);
  for (int l = 0; l < L; l++) acts[l] = nnt_xmalloc(sizeof(double) * (size_t)net->layers[l].out);
  for (int v = 0; v < n && !st; v++) {
    const double *x = X + (size_t)v * m;
    nnt_mlp_forward_trace(net, x, acts);
    for (int l = 0; l < L; l++) {
      const double *in = l ? acts[l - 1] : x;
      double q = 0;
      for (int i = 0; i < net->layers[l].in; i++) q += in[i] * in[i];
      s->ain[(size_t)v * L + l] = sqrt(q);
    }
    for (int i = 0; i <= s->d && !st; i++) {
      const double *h = acts[s->fe[i] - 1];
      int w = net->layers[s->fe[i] - 1].out;
      double q = 0;
      for (int k = 0; k < w && !st; k++) {
        q += h[k] * h[k];
        int ok = i < s->d ? h[k] == 0 || h[k] == 1 : h[k] == 1 || h[k] == -1;
        if (!ok)
          st = nnt_fail(NNT_EINVAL, "(D.5): input %d: %s %d is %g, not %s", v, i < s->d ? "the value before correction" : "the readout",
                        k, h[k], i < s->d ? "0 or 1" : "+-1");
      }
      s->hn[(size_t)v * (s->d + 1) + i] = sqrt(q);
    }
  }
  for (int l = 0; l < L; l++) free(acts[l]);
  free(acts);
  if (st) d5_net_free(s);
  return st;
}

/* Condition D.3's theta-side constants at radius st: mu0, kappa_theta, mu; and lambda. The output
 * error of a segment with per-layer perturbation norms t_l is at most sum_l t_l c_l with
 * c_l = sqrt(||a_l||^2 + 1) prod_{m > l} (||W_m||_2 + st) (a_l: the unperturbed input of layer l),
 * hence at most ||t|| sqrt(sum_l c_l^2) (Cauchy-Schwarz). */
static void theta_side(const d5_net *s, double st, nnt_circuit_d5 *k) {
  k->mu0 = k->kappa_theta = k->mu = 0, k->lambda = 1;
  for (int i = 1; i <= s->d; i++) {
    double p = 1;
    for (int l = s->fs[i]; l < s->fe[i]; l++) p *= s->opn[l] + st;
    k->mu = p > k->mu ? p : k->mu;
  }
  for (int v = 0; v < s->n; v++) {
    const double *a = s->ain + (size_t)v * s->nlayers, *h = s->hn + (size_t)v * (s->d + 1);
    double hmax = 1; /* max(|||(h_0 .. h_{i-1})|||, 1) */
    for (int i = 0; i <= s->d; i++) {
      double acc = 0, p = 1;
      for (int l = s->fe[i] - 1; l >= s->fs[i]; l--) acc += (a[l] * a[l] + 1) * p * p, p *= s->opn[l] + st;
      double S = sqrt(acc);
      if (i == 0) k->mu0 = S > k->mu0 ? S : k->mu0;
      else k->kappa_theta = S / hmax > k->kappa_theta ? S / hmax : k->kappa_theta;
      hmax = h[i] > hmax ? h[i] : hmax;
    }
    k->lambda = hmax > k->lambda ? hmax : k->lambda;
  }
}

/* kappa_xi at radius sx: for zeta(h) = relu(D relu(C h + c) + d), any h, M = max(||h||, 1):
 * ||u^ - u|| <= t1 sqrt(||h||^2 + 1) <= t1 sqrt2 M and ||u|| <= (||C|| + ||c_+||) M, so the output
 * moves by at most M (t1 sqrt2 (||D|| + sx) + t2 sqrt((||C|| + ||c_+||)^2 + 1)). */
static double kappa_xi(const d5_net *s, double sx) {
  double kx = 0;
  for (int j = 0; j < s->d; j++) {
    double D = s->zd[j] + sx, v = sqrt(2 * D * D + s->zc[j] * s->zc[j] + 1);
    kx = v > kx ? v : kx;
  }
  return kx;
}

static void terms(nnt_circuit_d5 *k) {
  double lam = k->lambda, sz = k->sigma_zeta, inf = INFINITY;
  int d = k->d;
  double t[NNT_CIRCUIT_D5_TERMS] = {lam / k->mu0,
                                    sz / k->mu0,
                                    k->sigma_theta,
                                    d ? k->sigma_xi : inf,
                                    d ? 1 / (2 * k->kappa_theta) : inf,
                                    d ? sz / (2 * k->kappa_theta * lam) : inf,
                                    d ? k->sigma_h / (2 * k->kappa_xi * lam) : inf,
                                    d ? sz / (4 * lam * k->mu * k->kappa_xi) : inf,
                                    d ? 1 / (4 * k->mu * k->kappa_xi) : inf};
  k->gamma = inf;
  for (int i = 0; i < NNT_CIRCUIT_D5_TERMS; i++) k->term[i] = t[i], k->gamma = t[i] < k->gamma ? t[i] : k->gamma;
}

static void fill(const d5_net *s, double st, double sx, nnt_circuit_d5 *k) {
  memset(k, 0, sizeof *k);
  k->d = s->d, k->sigma_zeta = s->sigma_zeta, k->sigma_theta = st, k->sigma_h = INFINITY;
  k->sigma_xi = s->d ? sx : INFINITY;
  theta_side(s, st, k);
  k->kappa_xi = kappa_xi(s, sx);
  terms(k);
}

int nnt_circuit_d5_at(const nnt_mlp *net, const double *X, int n, double sigma_theta, double sigma_xi, nnt_circuit_d5 *k) {
  if (!(sigma_theta > 0) || !(sigma_xi > 0) || !isfinite(sigma_theta) || !isfinite(sigma_xi))
    return nnt_fail(NNT_EINVAL, "(D.5): the radii must be positive and finite");
  d5_net s;
  int st = d5_net_init(net, X, n, &s);
  if (st) return st;
  fill(&s, sigma_theta, sigma_xi, k);
  d5_net_free(&s);
  return NNT_OK;
}

int nnt_circuit_d5_eval(const nnt_mlp *net, const double *X, int n, nnt_circuit_d5 *k) {
  d5_net s;
  int st = d5_net_init(net, X, n, &s);
  if (st) return st;
  enum { G = 121 };
  double best = -1, bt = 0, bx = 0;
  for (int a = 0; a < G; a++) {
    double sth = pow(10, -6 + a / 20.0);
    nnt_circuit_d5 th;
    memset(&th, 0, sizeof th);
    th.d = s.d, th.sigma_zeta = s.sigma_zeta, th.sigma_theta = sth, th.sigma_h = INFINITY;
    theta_side(&s, sth, &th);
    for (int b = 0; b < G; b++) {
      th.sigma_xi = pow(10, -6 + b / 20.0);
      th.kappa_xi = kappa_xi(&s, th.sigma_xi);
      terms(&th);
      if (th.gamma > best) best = th.gamma, bt = th.sigma_theta, bx = th.sigma_xi;
    }
  }
  fill(&s, bt, bx, k);
  d5_net_free(&s);
  return NNT_OK;
}

void nnt_circuit_d5_cfg_default(nnt_circuit_d5_cfg *cfg, nnt_preset preset) {
  memset(cfg, 0, sizeof *cfg);
  cfg->inputs = preset == NNT_PRESET_QUICK ? 4 : 16; /* as nnt circuit margin */
  cfg->scale = 1;
  cfg->seed = 1;
}

int nnt_circuit_d5_run(const nnt_circuit_d5_cfg *cfg, nnt_circuit_d5_result *res) {
  memset(res, 0, sizeof *res);
  if (!cfg->file) return nnt_fail(NNT_EINVAL, "(D.5) needs a circuit file");
  if (cfg->inputs < 1) return nnt_fail(NNT_EINVAL, "--inputs: %d, need at least 1", cfg->inputs);
  if (!(cfg->scale > 0) || !isfinite(cfg->scale)) return nnt_fail(NNT_EINVAL, "--scale: %g, need a positive number", cfg->scale);
  nnt_circuit c;
  int st = nnt_circuit_read(cfg->file, &c);
  if (st) return st;
  if (cfg->output < 0 || cfg->output >= c.noutputs) {
    st = nnt_fail(NNT_EINVAL, "--output: the circuit has %d outputs", c.noutputs);
    nnt_circuit_free(&c);
    return st;
  }
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_mlp net;
  nnt_circuit_compile(&L, 1, &net);
  nnt_circuit_add_readout(&net, cfg->output);
  int m = c.ninputs, n = cfg->inputs, all = m < 30 && (1L << m) <= n;
  if (all) n = 1 << m;
  res->ninputs = m, res->depth = L.depth, res->width_max = L.width_max, res->n = n;
  res->params = nnt_mlp_stats_of(&net).params;
  double *X = nnt_xmalloc(sizeof(double) * (size_t)n * (m ? m : 1));
  uint8_t *xb = nnt_xmalloc((size_t)(m ? m : 1)), *yb = nnt_xmalloc((size_t)c.noutputs);
  nnt_rng rng;
  nnt_rng_init(&rng, cfg->seed, 0);
  nnt_circuit_margin_opts mo;
  nnt_circuit_margin_opts_default(&mo);
  res->certified = res->attack = INFINITY;
  for (int v = 0; v < n; v++) { /* the inputs and attack seeds of nnt circuit margin (kind 1) */
    double *x = X + (size_t)v * m;
    for (int i = 0; i < m; i++) xb[i] = all ? (uint8_t)((v >> i) & 1) : (uint8_t)nnt_rng_below(&rng, 2), x[i] = xb[i];
    nnt_circuit_eval(&c, xb, yb);
    int y = yb[cfg->output];
    mo.seed = cfg->seed * 1000003ULL + (uint64_t)v * 3 + 1;
    double up = nnt_circuit_margin_upper(&net, x, 0, y, &mo).rho, lo = nnt_circuit_margin_lower(&net, x, 0, y);
    res->attack = up < res->attack ? up : res->attack;
    res->certified = lo < res->certified ? lo : res->certified;
  }
  st = nnt_circuit_d5_eval(&net, X, n, &res->k);
  if (!st) {
    res->gamma_d5 = res->k.gamma * cfg->scale;
    res->contradiction = res->gamma_d5 > res->attack;
  }
  free(X), free(xb), free(yb);
  nnt_mlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}
