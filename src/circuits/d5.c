/* d5.c — Theorem D.6's all-layer margin bound (D.5) evaluated for a compiled circuit: the net
 * (stored sparse) is cut into Definition D.1's layers and corrections, Condition D.3's constants
 * are computed from its weights and layer values (nnt_circuits.h), and the run sets the bound
 * beside the certified lower bound and the attack's upper bound of nnt circuit margin (dense only
 * over the layers it perturbs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_circuits.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_progress.h"

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
  const double *hlo;        /* NULL, or [n, d + 1] lower bounds on ||h_i||, for kappa_theta's denominator (else hn) */
  const double *arat;       /* NULL, or [nlayers] (n = 1) bounds on ||a_l|| / max(|||(h_0 .. h_{i-1})|||, 1) in f_i, i >= 1 */
} d5_net;

static double frob(const nnt_smlp_layer *L) {
  double s = 0;
  for (long e = 0; e < L->nnz; e++) s += L->val[e] * L->val[e];
  return sqrt(s);
}


/* Layers l, l+1 a correction relu(u1 - u2), u1 = relu(a z + c1), u2 = relu(a z + c2) per unit with
 * a > 0 and c1 - c2 = 1? It is 0 for z <= -c1/a and 1 for z >= -c2/a, so it maps every point within
 * min(-c1/a, 1 + c2/a) of a binary vector (l_inf, hence l_2) back onto it: *radius (> 0). A row
 * stores no zeros, so "exactly these entries" is the pattern. */
static int correction_at(const nnt_smlp *net, int l, double *radius) {
  if (l + 1 >= net->nlayers) return 0;
  const nnt_smlp_layer *A = &net->layers[l], *B = &net->layers[l + 1];
  int n = A->in;
  if (A->out != 2 * n || B->in != 2 * n || B->out != n || A->act != NNT_ACT_RELU || B->act != NNT_ACT_RELU) return 0;
  double r = INFINITY;
  for (int k = 0; k < n; k++) {
    long e1 = A->row_start[k], e2 = A->row_start[n + k], eb = B->row_start[k];
    if (A->row_start[k + 1] != e1 + 1 || A->row_start[n + k + 1] != e2 + 1 || A->col[e1] != k || A->col[e2] != k) return 0;
    double a = A->val[e1], c1 = A->b[k], c2 = A->b[n + k];
    if (!(a > 0) || A->val[e2] != a || c1 - c2 != 1 || B->b[k] != 0) return 0;
    if (B->row_start[k + 1] != eb + 2 || B->col[eb] != k || B->val[eb] != 1 || B->col[eb + 1] != n + k || B->val[eb + 1] != -1)
      return 0;
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

/* The cut and the weights' norms (no inputs yet). */
static int d5_net_cut(const nnt_smlp *net, d5_net *s) {
  memset(s, 0, sizeof *s);
  int L = s->nlayers = net->nlayers;
  if (L < 1) return nnt_fail(NNT_EINVAL, "(D.5): an empty net");
  if (net->layers[L - 1].out != 1) return nnt_fail(NNT_EINVAL, "(D.5): the net must end with a scalar readout");
  s->fs = nnt_xmalloc(sizeof(int) * (size_t)L), s->fe = nnt_xmalloc(sizeof(int) * (size_t)L);
  s->zc = nnt_xmalloc(sizeof(double) * (size_t)L), s->zd = nnt_xmalloc(sizeof(double) * (size_t)L);
  s->opn = nnt_xmalloc(sizeof(double) * (size_t)L);
  s->sigma_zeta = INFINITY;
  int st = NNT_OK, start = 0;
  for (int l = 0; l < L && !st; l++) {
    const nnt_smlp_layer *Ly = &net->layers[l];
    if (Ly->act != NNT_ACT_RELU && Ly->act != NNT_ACT_IDENTITY)
      st = nnt_fail(NNT_EINVAL, "(D.5): layer %d is %s; relu or identity needed", l, nnt_act_name(Ly->act));
    double f = frob(Ly), g = nnt_circuit_opnorm_bound_csr(Ly);
    s->opn[l] = f < g ? f : g;
  }
  for (int l = 0; l < L && !st;) {
    double r;
    if (!correction_at(net, l, &r)) {
      l++;
      continue;
    }
    if (l == start) st = nnt_fail(NNT_EINVAL, "(D.5): a correction at layer %d follows no layer", l);
    const nnt_smlp_layer *C = &net->layers[l];
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
  return NNT_OK;
}

/* Check (a) of the weights-alone ranges: every layer value at the inputs used inside its range. */
typedef struct {
  const long *off;
  const double *lo, *hi;
  long checked, outside;
  int layer, unit, input; /* the first value outside */
  double value;
} range_check;

/* The layer values the constants need at the inputs X[n, m]; acts: one buffer per layer; rc: NULL,
 * or ranges to check every value against. */
static int d5_net_values(const nnt_smlp *net, const double *X, int n, d5_net *s, double **acts, range_check *rc) {
  int L = s->nlayers, m = net->layers[0].in, st = NNT_OK;
  if (n < 1) return nnt_fail(NNT_EINVAL, "(D.5): no inputs");
  s->n = n;
  s->ain = nnt_xmalloc(sizeof(double) * (size_t)n * L);
  s->hn = nnt_xmalloc(sizeof(double) * (size_t)n * (s->d + 1));
  for (int v = 0; v < n && !st; v++) {
    const double *x = X + (size_t)v * m;
    for (int l = 0; l < L; l++) {
      const double *in = l ? acts[l - 1] : x;
      double q = 0;
      for (int i = 0; i < net->layers[l].in; i++) q += in[i] * in[i];
      s->ain[(size_t)v * L + l] = sqrt(q);
      nnt_smlp_layer_forward(&net->layers[l], in, acts[l]);
      for (int k = 0; rc && k < net->layers[l].out; k++) {
        double a = acts[l][k], lo = rc->lo[rc->off[l] + k], hi = rc->hi[rc->off[l] + k];
        rc->checked++;
        if (!(a >= lo && a <= hi) && rc->outside++ == 0) rc->layer = l, rc->unit = k, rc->input = v, rc->value = a;
      }
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
  return st;
}

static double **acts_alloc(const nnt_smlp *net) {
  double **acts = nnt_xmalloc(sizeof(double *) * (size_t)net->nlayers);
  for (int l = 0; l < net->nlayers; l++) acts[l] = nnt_xmalloc(sizeof(double) * (size_t)net->layers[l].out);
  return acts;
}

static void acts_free(const nnt_smlp *net, double **acts) {
  for (int l = 0; l < net->nlayers; l++) free(acts[l]);
  free(acts);
}

static int d5_net_init(const nnt_smlp *net, const double *X, int n, d5_net *s) {
  int st = d5_net_cut(net, s);
  if (st) return st;
  double **acts = acts_alloc(net);
  st = d5_net_values(net, X, n, s, acts, NULL);
  acts_free(net, acts);
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
    const double *hl = s->hlo ? s->hlo + (size_t)v * (s->d + 1) : h;
    double hmax = 1, hden = 1; /* max(|||(h_0 .. h_{i-1})|||, 1): from above (lambda), from below (kappa_theta) */
    for (int i = 0; i <= s->d; i++) {
      double acc = 0, p = 1;
      for (int l = s->fe[i] - 1; l >= s->fs[i]; l--) {
        /* with arat: (||a_l||^2 + 1) / M^2 <= arat_l^2 + 1 / hden^2, M >= hden */
        double q = s->arat && i ? s->arat[l] * s->arat[l] + 1 / (hden * hden) : a[l] * a[l] + 1;
        acc += q * p * p, p *= s->opn[l] + st;
      }
      double S = sqrt(acc), kt = s->arat ? S : S / hden;
      if (i == 0) k->mu0 = S > k->mu0 ? S : k->mu0;
      else k->kappa_theta = kt > k->kappa_theta ? kt : k->kappa_theta;
      hmax = h[i] > hmax ? h[i] : hmax, hden = hl[i] > hden ? hl[i] : hden;
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

/* the layer values of a dense net's inputs X (the sparse copy is needed only while they are taken) */
static int d5_net_from_dense(const nnt_mlp *net, const double *X, int n, d5_net *s) {
  nnt_smlp sn;
  nnt_smlp_from_dense(&sn, net);
  int st = d5_net_init(&sn, X, n, s);
  nnt_smlp_free(&sn);
  return st;
}

int nnt_circuit_d5_at(const nnt_mlp *net, const double *X, int n, double sigma_theta, double sigma_xi, nnt_circuit_d5 *k) {
  if (!(sigma_theta > 0) || !(sigma_xi > 0) || !isfinite(sigma_theta) || !isfinite(sigma_xi))
    return nnt_fail(NNT_EINVAL, "(D.5): the radii must be positive and finite");
  d5_net s;
  int st = d5_net_from_dense(net, X, n, &s);
  if (st) return st;
  fill(&s, sigma_theta, sigma_xi, k);
  d5_net_free(&s);
  return NNT_OK;
}

/* The radii that maximise (D.5) on the grid, and the constants there. */
static void best_radii(const d5_net *s, nnt_circuit_d5 *k) {
  enum { G = 121 };
  double best = -1, bt = 0, bx = 0;
  for (int a = 0; a < G; a++) {
    double sth = pow(10, -6 + a / 20.0);
    nnt_circuit_d5 th;
    memset(&th, 0, sizeof th);
    th.d = s->d, th.sigma_zeta = s->sigma_zeta, th.sigma_theta = sth, th.sigma_h = INFINITY;
    theta_side(s, sth, &th);
    for (int b = 0; b < G; b++) {
      th.sigma_xi = pow(10, -6 + b / 20.0);
      th.kappa_xi = kappa_xi(s, th.sigma_xi);
      terms(&th);
      if (th.gamma > best) best = th.gamma, bt = th.sigma_theta, bx = th.sigma_xi;
    }
  }
  fill(s, bt, bx, k);
}

int nnt_circuit_d5_eval(const nnt_mlp *net, const double *X, int n, nnt_circuit_d5 *k) {
  d5_net s;
  int st = d5_net_from_dense(net, X, n, &s);
  if (st) return st;
  best_radii(&s, k);
  d5_net_free(&s);
  return NNT_OK;
}

/* ---- The weights alone: every layer value bounded over all x in {0,1}^m, without enumerating x ----
 * The net is walked segment by segment (the blocks f_i and the corrections between). A segment reads
 * a layer whose unit c takes one of two values v0[c], v1[c] at every input x: x itself (0, 1), and
 * by induction each later segment's input. A unit of the segment depends on few of those (a gate's
 * fan-in), its support; all 2^s assignments of the support, evaluated with nnt_smlp_layer_forward's sums in
 * its order, give every value the unit takes at any x, exactly (the support may take more
 * combinations than the circuit ever does: sound, possibly loose). A support over RANGE_SUPPORT_MAX
 * falls back to interval arithmetic on the layer before (sound; the unit is then not known to take
 * two values, so it may not feed the next segment). The values before each correction must be
 * exactly 0/1 and the readout +-1 at every x, as (D.5) needs: checked here for all x at once. */
enum { RANGE_SUPPORT_MAX = 16 };

typedef struct {
  int *mark, *list;   /* mark[u] == stamp: u is in the cone; list: those units */
  int nlist;
  double *val;        /* values under the current assignment (cone units only) */
} cone_layer;

/* The units a segment's output takes: each unit's (up to) two values, n > 2 when it takes more. */
typedef struct {
  double *v0, *v1;
  int *n;
} two_vals;

static void note_value(two_vals *t, int k, double v) {
  if (t->n[k] == 0) t->v0[k] = t->v1[k] = v, t->n[k] = 1;
  else if (v != t->v0[k] && v != t->v1[k]) {
    if (t->n[k] == 1) t->v1[k] = v, t->n[k] = 2;
    else t->n[k] = 3;
  }
}

/* Layers [a, b) of net, reading a layer with two values per unit (in); their units' ranges into
 * lo/hi (layer l at off[l]); the last layer's values into out. */
static void segment_ranges(const nnt_smlp *net, int a, int b, const two_vals *in, const long *off, double *lo, double *hi,
                          two_vals *out) {
  int w = net->layers[a].in, nl = b - a;
  cone_layer *cl = nnt_xcalloc((size_t)nl + 1, sizeof(cone_layer)); /* cl[0]: the input, cl[t + 1]: layer a + t */
  for (int t = 0; t <= nl; t++) {
    int wt = t ? net->layers[a + t - 1].out : w;
    cl[t].mark = nnt_xcalloc((size_t)wt, sizeof(int)), cl[t].list = nnt_xmalloc(sizeof(int) * (size_t)wt);
    cl[t].val = nnt_xmalloc(sizeof(double) * (size_t)wt);
  }
  int wout = net->layers[b - 1].out, stamp = 0;
  for (int k = 0; k < wout; k++) out->n[k] = 0;
  for (int t = 1; t <= nl; t++) {
    const nnt_smlp_layer *Ly = &net->layers[a + t - 1];
    double *llo = lo + off[a + t - 1], *lhi = hi + off[a + t - 1];
    for (int k = 0; k < Ly->out; k++) {
      /* the cone of unit k: its ancestors in every layer of the segment, down to the input */
      stamp++;
      cl[t].nlist = 1, cl[t].list[0] = k, cl[t].mark[k] = stamp;
      for (int u = t; u >= 1; u--) {
        const nnt_smlp_layer *U = &net->layers[a + u - 1];
        cone_layer *prev = &cl[u - 1];
        prev->nlist = 0;
        for (int q = 0; q < cl[u].nlist; q++) {
          int r = cl[u].list[q];
          for (long e = U->row_start[r]; e < U->row_start[r + 1]; e++)
            if (prev->mark[U->col[e]] != stamp) prev->mark[U->col[e]] = stamp, prev->list[prev->nlist++] = U->col[e];
        }
      }
      int sup[RANGE_SUPPORT_MAX], ns = 0, wide = 0;
      for (int q = 0; q < cl[0].nlist; q++) {
        int c = cl[0].list[q];
        cl[0].val[c] = in->v0[c];
        if (in->n[c] == 2) {
          if (ns == RANGE_SUPPORT_MAX) wide = 1;
          else sup[ns++] = c;
        }
      }
      int last = t == nl;
      if (wide) { /* interval arithmetic on the layer before */
        const double *plo = t > 1 ? lo + off[a + t - 2] : NULL, *phi = t > 1 ? hi + off[a + t - 2] : NULL;
        double zl = Ly->b[k], zh = Ly->b[k];
        for (long e = Ly->row_start[k]; e < Ly->row_start[k + 1]; e++) {
          int c = Ly->col[e];
          double pl = plo ? plo[c] : fmin(in->v0[c], in->v1[c]), ph = phi ? phi[c] : fmax(in->v0[c], in->v1[c]);
          double x1 = Ly->val[e] * pl, x2 = Ly->val[e] * ph;
          zl += fmin(x1, x2), zh += fmax(x1, x2);
        }
        llo[k] = nnt_act_apply(Ly->act, zl), lhi[k] = nnt_act_apply(Ly->act, zh);
        if (last) out->n[k] = 3;
        continue;
      }
      double mn = INFINITY, mx = -INFINITY;
      for (long as = 0; as < 1L << ns; as++) {
        for (int j = 0; j < ns; j++) cl[0].val[sup[j]] = (as >> j) & 1 ? in->v1[sup[j]] : in->v0[sup[j]];
        for (int u = 1; u <= t; u++) {
          const nnt_smlp_layer *U = &net->layers[a + u - 1];
          for (int q = 0; q < cl[u].nlist; q++) {
            int r = cl[u].list[q];
            double z = U->b[r];
            for (long e = U->row_start[r]; e < U->row_start[r + 1]; e++) z += U->val[e] * cl[u - 1].val[U->col[e]];
            cl[u].val[r] = nnt_act_apply(U->act, z);
          }
        }
        double v = cl[t].val[k];
        mn = v < mn ? v : mn, mx = v > mx ? v : mx;
        if (last) note_value(out, k, v);
      }
      llo[k] = mn, lhi[k] = mx;
    }
  }
  for (int t = 0; t <= nl; t++) free(cl[t].mark), free(cl[t].list), free(cl[t].val);
  free(cl);
}

static long units_total(const nnt_smlp *net, long *off) {
  long tot = 0;
  for (int l = 0; l < net->nlayers; l++) off[l] = tot, tot += net->layers[l].out;
  return tot;
}

/* Every layer's range over all x in {0,1}^m (lo/hi: layer l at off[l]); NNT_EINVAL when a value
 * before a correction is not shown to be 0/1 at every x, or the readout +-1. */
static int ranges_of(const nnt_smlp *net, const d5_net *s, const long *off, double *lo, double *hi) {
  int m = net->layers[0].in, wmax = m, st = NNT_OK;
  for (int l = 0; l < net->nlayers; l++) wmax = net->layers[l].out > wmax ? net->layers[l].out : wmax;
  two_vals tv[2];
  for (int q = 0; q < 2; q++) {
    tv[q].v0 = nnt_xmalloc(sizeof(double) * (size_t)wmax), tv[q].v1 = nnt_xmalloc(sizeof(double) * (size_t)wmax);
    tv[q].n = nnt_xmalloc(sizeof(int) * (size_t)wmax);
  }
  for (int i = 0; i < m; i++) tv[0].v0[i] = 0, tv[0].v1[i] = 1, tv[0].n[i] = 2;
  int cur = 0;
  /* the segments: f_0, zeta_0, f_1, ..., zeta_{d-1}, f_d */
  for (int i = 0; i <= s->d && !st; i++) {
    for (int z = 0; z < 2 && !st; z++) {
      if (z && i == s->d) break;
      int a = z ? s->fe[i] : s->fs[i], b = z ? s->fs[i + 1] : s->fe[i];
      segment_ranges(net, a, b, &tv[cur], off, lo, hi, &tv[1 - cur]);
      cur = 1 - cur;
      const two_vals *o = &tv[cur];
      int w = net->layers[b - 1].out;
      for (int k = 0; k < w && !st; k++) {
        int binary = o->n[k] <= 2 && (o->v0[k] == 0 || o->v0[k] == 1) && (o->v1[k] == 0 || o->v1[k] == 1);
        int pm1 = o->n[k] <= 2 && (o->v0[k] == 1 || o->v0[k] == -1) && (o->v1[k] == 1 || o->v1[k] == -1);
        if (!z && i < s->d && !binary)
          st = nnt_fail(NNT_EINVAL, "(D.5) from the weights: unit %d before correction %d is not shown to be 0/1 at every input%s", k, i,
                        o->n[k] > 2 ? " (it depends on too many inputs or takes more values)" : "");
        else if (!z && i == s->d && !pm1)
          st = nnt_fail(NNT_EINVAL, "(D.5) from the weights: the readout is not shown to be +-1 at every input");
        else if (z && !(o->n[k] == tv[1 - cur].n[k] && o->v0[k] == tv[1 - cur].v0[k] && o->v1[k] == tv[1 - cur].v1[k]))
          st = nnt_fail(NNT_EINVAL, "(D.5) from the weights: correction %d's unit %d does not return its 0/1 input", i, k);
      }
    }
  }
  for (int q = 0; q < 2; q++) free(tv[q].v0), free(tv[q].v1), free(tv[q].n);
  return st;
}

/* The constants' layer norms from the ranges, as one virtual input: ||a_l|| and ||h_i|| from above
 * (the largest magnitude of every unit), ||h_i|| from below (the smallest) for kappa_theta's
 * denominator. The input x: ||x|| <= sqrt(m). */
static void norms_of_ranges(const nnt_smlp *net, const d5_net *s, const long *off, const double *lo, const double *hi,
                            double *ain, double *hn, double *hlo) {
  for (int l = 0; l < s->nlayers; l++) {
    double q = 0;
    if (l == 0) q = net->layers[0].in;
    else
      for (int k = 0; k < net->layers[l - 1].out; k++) {
        double a = fmax(fabs(lo[off[l - 1] + k]), fabs(hi[off[l - 1] + k]));
        q += a * a;
      }
    ain[l] = sqrt(q);
  }
  for (int i = 0; i <= s->d; i++) {
    int l = s->fe[i] - 1;
    double qa = 0, qb = 0;
    for (int k = 0; k < net->layers[l].out; k++) {
      double a = lo[off[l] + k], b = hi[off[l] + k], big = fmax(fabs(a), fabs(b)), small = a > 0 ? a : b < 0 ? -b : 0;
      qa += big * big, qb += small * small;
    }
    hn[i] = sqrt(qa), hlo[i] = sqrt(qb);
  }
}

/* (D.5) over every input from the ranges (range_scale multiplies them first: 1, or < 1 a fault) */
static void best_radii_ranges(const nnt_smlp *net, const d5_net *s, const long *off, double *lo, double *hi, long tot,
                              double range_scale, nnt_circuit_d5 *k) {
  for (long u = 0; u < tot; u++) lo[u] = lo[u] < 0 ? lo[u] * range_scale : lo[u], hi[u] = hi[u] > 0 ? hi[u] * range_scale : hi[u];
  d5_net w = *s;
  double *ain = nnt_xmalloc(sizeof(double) * (size_t)s->nlayers), *hn = nnt_xmalloc(sizeof(double) * (size_t)(s->d + 1));
  double *hl = nnt_xmalloc(sizeof(double) * (size_t)(s->d + 1));
  norms_of_ranges(net, s, off, lo, hi, ain, hn, hl);
  /* kappa_theta's ratio per layer of f_i (i >= 1), M = max(|||(h_0 .. h_{i-1})|||, 1) >= max(hlo_j, 1):
   * ||a_l|| / M <= ain_l / max(hlo_j, 1), and, since f_i's input is h_{i-1} itself (each correction
   * returns its 0/1 input, checked in ranges_of), ||a_l|| <= g_l M with g = 1 at f_i's input and
   * g_{l+1} = ||W_l||_2 g_l + ||b_l+|| (relu(Wa + b) <= relu(Wa) + relu(b); ||b|| for identity). */
  double *ar = nnt_xmalloc(sizeof(double) * (size_t)s->nlayers), mlo = 1;
  for (int l = 0; l < s->nlayers; l++) ar[l] = ain[l];
  for (int i = 1; i <= s->d; i++) {
    mlo = hl[i - 1] > mlo ? hl[i - 1] : mlo;
    double g = 1;
    for (int l = s->fs[i]; l < s->fe[i]; l++) {
      const nnt_smlp_layer *Ly = &net->layers[l];
      ar[l] = fmin(ain[l] / mlo, g);
      double bb = 0;
      for (int o = 0; o < Ly->out; o++) bb += Ly->act == NNT_ACT_RELU && Ly->b[o] < 0 ? 0 : Ly->b[o] * Ly->b[o];
      g = s->opn[l] * g + sqrt(bb);
    }
  }
  w.n = 1, w.ain = ain, w.hn = hn, w.hlo = hl, w.arat = ar;
  best_radii(&w, k);
  free(ain), free(hn), free(hl), free(ar);
}

int nnt_circuit_d5_ranges(const nnt_mlp *net, double *lo, double *hi) {
  nnt_smlp sn;
  nnt_smlp_from_dense(&sn, net);
  d5_net s;
  long *off = nnt_xmalloc(sizeof(long) * (size_t)(net->nlayers ? net->nlayers : 1));
  units_total(&sn, off);
  int st = d5_net_cut(&sn, &s);
  if (!st) st = ranges_of(&sn, &s, off, lo, hi), d5_net_free(&s);
  free(off), nnt_smlp_free(&sn);
  return st;
}

int nnt_circuit_d5_eval_all(const nnt_mlp *net, nnt_circuit_d5 *k) {
  nnt_smlp sn;
  nnt_smlp_from_dense(&sn, net);
  d5_net s;
  long *off = nnt_xmalloc(sizeof(long) * (size_t)(net->nlayers ? net->nlayers : 1)), tot = units_total(&sn, off);
  double *lo = nnt_xmalloc(sizeof(double) * (size_t)(tot ? tot : 1)), *hi = nnt_xmalloc(sizeof(double) * (size_t)(tot ? tot : 1));
  int st = d5_net_cut(&sn, &s);
  if (!st) {
    if (!(st = ranges_of(&sn, &s, off, lo, hi))) best_radii_ranges(&sn, &s, off, lo, hi, tot, 1, k);
    d5_net_free(&s);
  }
  free(off), free(lo), free(hi), nnt_smlp_free(&sn);
  return st;
}

void nnt_circuit_d5_cfg_default(nnt_circuit_d5_cfg *cfg, nnt_preset preset) {
  memset(cfg, 0, sizeof *cfg);
  cfg->inputs = preset == NNT_PRESET_QUICK ? 4 : 16; /* as nnt circuit margin */
  cfg->attack_inputs = preset == NNT_PRESET_QUICK ? 4 : 16;
  cfg->attack_blocks = -1;
  cfg->scale = 1;
  cfg->range_scale = 1;
  cfg->seed = 1;
}

void nnt_circuit_d5_result_free(nnt_circuit_d5_result *res) {
  free(res->flip), free(res->flip_x);
  res->flip = res->flip_x = NULL;
}

/* Layers [from, L) of net as a dense net: what the attack perturbs. */
static void dense_tail(const nnt_smlp *net, int from, nnt_mlp *out) {
  nnt_smlp tail = {net->nlayers - from, net->nlayers - from, net->layers + from};
  nnt_smlp_to_dense(out, &tail);
}

/* The attack: the dense search of nnt circuit margin on layers [from, L), at inputs idx[0..na),
 * each read up to layer `from` (exact: the layers before are not perturbed). Any flip it finds is a
 * flip of the whole net, so the smallest is an upper bound on the all-layer margin at that input,
 * hence on the smallest margin over any set of inputs that contains it. */
static void attack(const nnt_smlp *net, int from, const double *X, const uint8_t *y, const int *idx, int na, uint64_t seed,
                   double **acts, nnt_circuit_d5_result *res) {
  int m = net->layers[0].in;
  nnt_mlp tail;
  dense_tail(net, from, &tail);
  res->attack_params = nnt_mlp_stats_of(&tail).params;
  double *flip = nnt_xmalloc(sizeof(double) * (size_t)res->attack_params);
  res->flip = nnt_xmalloc(sizeof(double) * (size_t)res->attack_params);
  res->flip_x = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1));
  nnt_circuit_margin_opts mo;
  nnt_circuit_margin_opts_default(&mo);
  mo.flip = flip;
  for (int a = 0; a < na; a++) {
    int v = idx[a];
    const double *x = X + (size_t)v * m;
    for (int l = 0; l < from; l++) nnt_smlp_layer_forward(&net->layers[l], l ? acts[l - 1] : x, acts[l]);
    mo.seed = seed * 1000003ULL + (uint64_t)v * 3 + 1; /* nnt circuit margin's seed of input v (kind 1) */
    double up = nnt_circuit_margin_upper(&tail, from ? acts[from - 1] : x, 0, y[v], &mo).rho;
    if (up < res->attack) {
      res->attack = up, res->flip_input = v;
      memcpy(res->flip, flip, sizeof(double) * (size_t)res->attack_params);
      memcpy(res->flip_x, x, sizeof(double) * (size_t)m);
    }
  }
  if (!isfinite(res->attack)) free(res->flip), free(res->flip_x), res->flip = res->flip_x = NULL;
  free(flip);
  nnt_mlp_free(&tail);
}

/* What n inputs cost (X, the labels, the attack's index, the constants' layer norms ain and hn),
 * refused before any of it is allocated. */
static int d5_mem_check(int m, int n, int nlayers) {
  double per_input = 8.0 * m + 1 + 4 + 8.0 * nlayers + 8.0 * nlayers;
  return nnt_mem_check(per_input * n, "(D.5) over the inputs", "lower --inputs");
}

int nnt_circuit_d5_check(const nnt_circuit_d5_cfg *cfg) {
  nnt_circuit c;
  int st = cfg->file ? nnt_circuit_read(cfg->file, &c) : nnt_fail(NNT_EINVAL, "(D.5) needs a circuit file");
  if (st) return st;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_smlp net;
  nnt_circuit_compile_sparse(&L, 1, &net);
  int m = c.ninputs, n = cfg->inputs;
  if (m < 30 && (1L << m) <= n) n = 1 << m;
  st = d5_mem_check(m, n, net.nlayers + 1); /* with the readout */
  nnt_smlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}

int nnt_circuit_d5_run(const nnt_circuit_d5_cfg *cfg, nnt_circuit_d5_result *res) {
  memset(res, 0, sizeof *res);
  if (!cfg->file) return nnt_fail(NNT_EINVAL, "(D.5) needs a circuit file");
  if (cfg->inputs < 1) return nnt_fail(NNT_EINVAL, "--inputs: %d, need at least 1", cfg->inputs);
  if (cfg->attack_inputs < 1) return nnt_fail(NNT_EINVAL, "--attack-inputs: %d, need at least 1", cfg->attack_inputs);
  if (cfg->attack_blocks < -1) return nnt_fail(NNT_EINVAL, "--attack-blocks: %d, need 0 (all), a count, or -1 (auto)", cfg->attack_blocks);
  if (!(cfg->scale > 0) || !isfinite(cfg->scale)) return nnt_fail(NNT_EINVAL, "--scale: %g, need a positive number", cfg->scale);
  if (!(cfg->range_scale > 0) || !isfinite(cfg->range_scale))
    return nnt_fail(NNT_EINVAL, "--range-scale: %g, need a positive number", cfg->range_scale);
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
  nnt_smlp net;
  nnt_circuit_compile_sparse(&L, 1, &net);
  { /* the readout z -> 2 z_j - 1 */
    int row = 0, col = cfg->output;
    double w = 2, b = -1;
    nnt_smlp_add_coo(&net, nnt_smlp_output_dim(&net), 1, NNT_ACT_IDENTITY, 1, &row, &col, &w, &b);
  }
  int m = c.ninputs, n = cfg->inputs, all = m < 30 && (1L << m) <= n;
  if (all) n = 1 << m;
  res->ninputs = m, res->depth = L.depth, res->width_max = L.width_max, res->n = n, res->exhaustive = all;
  res->params = nnt_smlp_stats_of(&net).params, res->nlayers = net.nlayers;
  if ((st = d5_mem_check(m, n, net.nlayers))) {
    nnt_smlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
    return st;
  }
  double *X = nnt_xmalloc(sizeof(double) * (size_t)n * (m ? m : 1));
  uint8_t *xb = nnt_xmalloc((size_t)(m ? m : 1)), *yb = nnt_xmalloc((size_t)c.noutputs), *y = nnt_xmalloc((size_t)n);
  nnt_rng rng;
  nnt_rng_init(&rng, cfg->seed, 0);
  for (int v = 0; v < n; v++) { /* the inputs of nnt circuit margin */
    double *x = X + (size_t)v * m;
    for (int i = 0; i < m; i++) xb[i] = all ? (uint8_t)((v >> i) & 1) : (uint8_t)nnt_rng_below(&rng, 2), x[i] = xb[i];
    nnt_circuit_eval(&c, xb, yb);
    y[v] = yb[cfg->output];
  }
  double **acts = acts_alloc(&net), t0 = nnt_now();
  d5_net s;
  /* the weights alone: the ranges of every layer value over all 2^m inputs, and (D.5) from them */
  long *off = nnt_xmalloc(sizeof(long) * (size_t)net.nlayers), tot = units_total(&net, off);
  double *lo = nnt_xmalloc(sizeof(double) * (size_t)tot), *hi = nnt_xmalloc(sizeof(double) * (size_t)tot);
  range_check rc = {off, lo, hi, 0, 0, -1, -1, -1, 0};
  if (!(st = d5_net_cut(&net, &s))) {
    if ((res->all_ok = !ranges_of(&net, &s, off, lo, hi))) {
      best_radii_ranges(&net, &s, off, lo, hi, tot, cfg->range_scale, &res->kall);
      res->gamma_all = res->kall.gamma * cfg->scale;
    } else snprintf(res->all_why, sizeof res->all_why, "%s", nnt_errmsg());
    res->seconds[3] = nnt_now() - t0, t0 = nnt_now();
    if ((st = d5_net_values(&net, X, n, &s, acts, res->all_ok ? &rc : NULL))) d5_net_free(&s);
  }
  res->range_checked = rc.checked, res->range_outside = rc.outside;
  res->range_layer = rc.layer, res->range_unit = rc.unit, res->range_input = rc.input, res->range_value = rc.value;
  if (rc.outside) res->range_lo = lo[off[rc.layer] + rc.unit], res->range_hi = hi[off[rc.layer] + rc.unit];
  free(off), free(lo), free(hi);
  if (!st) {
    best_radii(&s, &res->k);
    res->gamma_d5 = res->k.gamma * cfg->scale;
    res->all_above = res->all_ok && res->kall.gamma > res->k.gamma;
    double t1 = nnt_now();
    res->seconds[0] = t1 - t0;
    double *opb = nnt_xmalloc(sizeof(double) * (size_t)net.nlayers);
    for (int l = 0; l < net.nlayers; l++) opb[l] = nnt_circuit_opnorm_bound_csr(&net.layers[l]);
    res->certified = nnt_circuit_margin_lower_min(&net, X, n, y, 0, opb);
    free(opb);
    double t2 = nnt_now();
    res->seconds[1] = t2 - t1;
    /* the attack's inputs: all of them, or attack_inputs distinct ones drawn from (seed, stream 2) */
    int na = cfg->attack_inputs < n ? cfg->attack_inputs : n, *idx = nnt_xmalloc(sizeof(int) * (size_t)n);
    for (int v = 0; v < n; v++) idx[v] = v;
    nnt_rng_init(&rng, cfg->seed, 2);
    for (int a = 0; a < na && na < n; a++) {
      int b = a + (int)nnt_rng_below(&rng, (uint64_t)(n - a)), t = idx[a];
      idx[a] = idx[b], idx[b] = t;
    }
    int blocks = cfg->attack_blocks;
    if (blocks < 0) blocks = res->params <= 1000000 ? 0 : 2; /* auto: the dense search over every layer up to 10^6 parameters */
    res->attack_from = blocks == 0 || blocks > s.d ? 0 : s.fs[s.d + 1 - blocks];
    res->nattack = na, res->attack = INFINITY, res->flip_input = -1;
    attack(&net, res->attack_from, X, y, idx, na, cfg->seed, acts, res);
    free(idx);
    res->seconds[2] = nnt_now() - t2;
    res->contradiction = res->gamma_d5 > res->attack || (res->all_ok && res->gamma_all > res->attack);
    d5_net_free(&s);
  }
  acts_free(&net, acts);
  free(X), free(xb), free(yb), free(y);
  nnt_smlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}
