/* The margin experiments: per-input margins of one circuit's compiled nets, and the sweep over depth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_circuits.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_sweep.h"

void nnt_circuit_margin_cfg_default(nnt_circuit_margin_cfg *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  static const int full_depths[] = {1, 2, 4, 8, 16, 32, 64}, quick_depths[] = {1, 2, 4, 8};
  memset(cfg, 0, sizeof *cfg);
  cfg->inputs = quick ? 4 : 16;
  cfg->width = 4;
  cfg->circuits = quick ? 2 : 4;
  cfg->ndepths = quick ? 4 : 7;
  memcpy(cfg->depths, quick ? quick_depths : full_depths, sizeof(int) * (size_t)cfg->ndepths);
  cfg->attack_blocks = -1;
  cfg->seed = 1;
}

double nnt_circuit_median(double *v, int n) {
  for (int i = 1; i < n; i++) /* insertion sort: n is small */
    for (int k = i; k > 0 && v[k] < v[k - 1]; k--) {
      double t = v[k];
      v[k] = v[k - 1], v[k - 1] = t;
    }
  return n ? (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])) : NAN;
}

/* The decision threshold is then 0, and the head's two parameters are perturbed with the rest. */
void nnt_circuit_add_readout(nnt_mlp *net, int j) {
  int o = nnt_mlp_output_dim(net);
  nnt_mlp_layer *H = nnt_mlp_add(net, o, 1, NNT_ACT_IDENTITY);
  H->W[j] = 2;
  H->b[0] = -1;
}

/* Input vector v of the sample: all inputs in order when `all`, else uniform draws. */
static void pick_input(const nnt_circuit *c, long v, int all, nnt_rng *r, double *x, uint8_t *xb) {
  for (int i = 0; i < c->ninputs; i++) {
    xb[i] = all ? (uint8_t)((v >> i) & 1) : (uint8_t)nnt_rng_below(r, 2);
    x[i] = xb[i];
  }
}

static int check_cfg(const nnt_circuit_margin_cfg *cfg) {
  if (cfg->inputs < 1) return nnt_fail(NNT_EINVAL, "--inputs: %d, need at least 1", cfg->inputs);
  if (cfg->output < 0) return nnt_fail(NNT_EINVAL, "--output: %d is negative", cfg->output);
  if (cfg->attack_blocks < -1)
    return nnt_fail(NNT_EINVAL, "--attack-blocks: %d, need 0 (all), a count, or -1 (auto)", cfg->attack_blocks);
  if (cfg->file) return NNT_OK;
  if (cfg->ndepths < 1 || cfg->ndepths > 32) return nnt_fail(NNT_EINVAL, "--depths: 1 to 32 depths, not %d", cfg->ndepths);
  for (int d = 0; d < cfg->ndepths; d++)
    if (cfg->depths[d] < 1 || cfg->depths[d] > 256) return nnt_fail(NNT_EINVAL, "--depths: %d is not in 1..256", cfg->depths[d]);
  if (cfg->width < 1 || cfg->width > 256) return nnt_fail(NNT_EINVAL, "--width: %d is not in 1..256", cfg->width);
  if (cfg->circuits < 1) return nnt_fail(NNT_EINVAL, "--circuits: %d, need at least 1", cfg->circuits);
  if (cfg->family != 0 && cfg->family != 1) return nnt_fail(NNT_EINVAL, "family %d: 0 (chain) or 1 (random)", cfg->family);
  return NNT_OK;
}

/* The readout z -> 2 z_j - 1 (as nnt_circuit_add_readout) on a sparse net. */
static void add_readout_sparse(nnt_smlp *net, int j) {
  int row = 0;
  double w = 2, b = -1;
  nnt_smlp_add_coo(net, nnt_smlp_output_dim(net), 1, NNT_ACT_IDENTITY, 1, &row, &j, &w, &b);
}

/* The attack's layers of each net: the last `blocks` of its nblocks blocks start at layer
 * per * (nblocks - blocks) (0: every layer). A net with the layer count of this circuit's compiled
 * nets (before the readout: 2q, or 4q - 2 with corrections, none after the last block) has q blocks
 * of per = 2 or 4 layers (the compiled nets, and a --net file compiled from the circuit); any
 * other has a block per layer. s[2]: the --net file, its readout added unless logit. */
typedef struct {
  nnt_smlp s[3];
  int nk, blocks[3], nblocks[3], from[3];
  long params[3], tail[3];
} margin_plan;

static long params_from(const nnt_smlp *net, int from) {
  long p = 0;
  for (int l = from; l < net->nlayers; l++) p += (long)net->layers[l].out * (net->layers[l].in + 1);
  return p;
}

static void plan_free(margin_plan *P) {
  for (int k = 0; k < P->nk; k++) nnt_smlp_free(&P->s[k]);
}

/* The --net file, sparse as stored (a dense file compressed), checked against the circuit. */
static int load_net(const nnt_circuit_margin_cfg *cfg, const nnt_circuit *c, nnt_smlp *net) {
  int st = nnt_smlp_load(cfg->net, net);
  if (st) return st;
  int in = nnt_smlp_input_dim(net), out = nnt_smlp_output_dim(net);
  if (in != c->ninputs || out <= cfg->output)
    st = nnt_fail(NNT_EINVAL, "%s: the net has %d inputs and %d outputs; the circuit has %d inputs", cfg->net, in, out, c->ninputs);
  for (int l = 0; l < net->nlayers && !st; l++)
    if (net->layers[l].act != NNT_ACT_RELU && net->layers[l].act != NNT_ACT_IDENTITY)
      st = nnt_fail(NNT_EINVAL, "%s: layer %d has activation %s; the margin needs relu or identity", cfg->net, l,
                    nnt_act_name(net->layers[l].act));
  if (st) nnt_smlp_free(net);
  else if (!cfg->logit) add_readout_sparse(net, cfg->output);
  return st;
}

/* Builds the nets sparse (both compiled ones, and --net) and sizes the attack; refuses, before
 * anything dense exists, an attack (its dense layers and nnt_circuit_margin_upper's copies of
 * their parameters) or n inputs' results that cannot fit. */
static int plan_make(const nnt_circuit_margin_cfg *cfg, const nnt_circuit *c, const nnt_circuit_layered *L, int n,
                     margin_plan *P) {
  int q = L->depth, m = c->ninputs, st;
  P->nk = 0;
  if (cfg->net) {
    if ((st = load_net(cfg, c, &P->s[2]))) return st;
  }
  for (int k = 0; k < 2; k++) nnt_circuit_compile_sparse(L, k, &P->s[k]), add_readout_sparse(&P->s[k], cfg->output);
  P->nk = cfg->net ? 3 : 2;
  double bytes = (double)n * ((double)m + 1 + 3.0 * (sizeof(nnt_circuit_margin_est) + sizeof(double))), big = 0;
  for (int k = 0; k < P->nk; k++) {
    int core = P->s[k].nlayers - (k < 2 || !cfg->logit), per = core == 2 * q ? 2 : core == 4 * q - 2 ? 4 : 1;
    P->params[k] = params_from(&P->s[k], 0);
    int b = cfg->attack_blocks < 0 ? (P->params[k] <= 1000000 ? 0 : 2) : cfg->attack_blocks;
    P->nblocks[k] = per == 1 ? core : q;
    P->blocks[k] = b >= P->nblocks[k] ? 0 : b;
    P->from[k] = P->blocks[k] ? per * (P->nblocks[k] - P->blocks[k]) : 0;
    P->tail[k] = params_from(&P->s[k], P->from[k]);
    /* every dense tail, and the largest search's six copies (work net, theta, grad, best, delta, and slack) */
    bytes += 8.0 * (double)P->tail[k];
    big = (double)P->tail[k] > big ? (double)P->tail[k] : big;
  }
  bytes += 8.0 * 6 * big;
  st = nnt_mem_check(bytes, "circuit margin's attack (dense over the layers it perturbs)", "lower --attack-blocks or --inputs");
  if (st) plan_free(P);
  return st;
}

/* The circuit's input count n: every input when 2^m <= inputs. */
static int inputs_of(const nnt_circuit_margin_cfg *cfg, int m, int *all) {
  *all = m < 30 && (1L << m) <= cfg->inputs;
  return *all ? 1 << m : cfg->inputs;
}

int nnt_circuit_margin_check(const nnt_circuit_margin_cfg *cfg) {
  int st = check_cfg(cfg);
  if (st) return st;
  if (!cfg->file) return NNT_OK;
  nnt_circuit c;
  if ((st = nnt_circuit_read(cfg->file, &c))) return st;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  int all;
  margin_plan P;
  if (cfg->output >= c.noutputs) st = nnt_fail(NNT_EINVAL, "--output: the circuit has %d outputs", c.noutputs);
  else if (!(st = plan_make(cfg, &c, &L, inputs_of(cfg, c.ninputs, &all), &P))) plan_free(&P);
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}

/* Layers [0, from) of net at x, sparse: the input of the attacked layers (x itself for from = 0). */
static const double *head_forward(const nnt_smlp *net, int from, const double *x, double *a, double *b) {
  const double *cur = x;
  for (int l = 0; l < from; l++) {
    double *dst = l % 2 ? b : a;
    nnt_smlp_layer_forward(&net->layers[l], cur, dst);
    cur = dst;
  }
  return cur;
}

int nnt_circuit_margin_run(const nnt_circuit_margin_cfg *cfg, nnt_circuit_margin_result *res) {
  memset(res, 0, sizeof *res);
  int st = check_cfg(cfg);
  if (st) return st;
  if (!cfg->file) return nnt_fail(NNT_EINVAL, "the margin of a circuit needs its file");
  nnt_circuit c;
  nnt_circuit_layered L;
  margin_plan P;
  nnt_mlp tails[3]; /* the attacked layers of each net, dense */
  int all;
  if ((st = nnt_circuit_read(cfg->file, &c))) return st;
  nnt_circuit_layer(&c, &L);
  if (cfg->output >= c.noutputs) {
    st = nnt_fail(NNT_EINVAL, "--output: the circuit has %d outputs", c.noutputs);
    goto out0;
  }
  int m = c.ninputs, n = inputs_of(cfg, m, &all);
  if ((st = plan_make(cfg, &c, &L, n, &P))) goto out0;
  int nk = P.nk;
  for (int k = 0; k < nk; k++) {
    nnt_smlp tail = {P.s[k].nlayers - P.from[k], P.s[k].nlayers - P.from[k], P.s[k].layers + P.from[k]};
    nnt_smlp_to_dense(&tails[k], &tail);
  }
  res->n = n, res->nkinds = nk, res->ninputs = m, res->depth = L.depth;
  for (int k = 0; k < nk; k++) {
    const nnt_smlp *sk = &P.s[k];
    res->nlayers[k] = sk->nlayers, res->params[k] = P.params[k];
    res->attack_from[k] = P.from[k], res->attack_blocks[k] = P.blocks[k], res->nblocks[k] = P.nblocks[k];
    res->attack_params[k] = P.tail[k];
    for (int l = 0; l < sk->nlayers && res->attack_from[k]; l++) res->stored[k] += sk->layers[l].nnz + sk->layers[l].out;
  }
  res->x = nnt_xmalloc((size_t)n * (size_t)(m ? m : 1));
  res->label = nnt_xmalloc((size_t)n);
  res->est = nnt_xmalloc(sizeof(nnt_circuit_margin_est) * (size_t)n * nk);
  res->lower = nnt_xmalloc(sizeof(double) * (size_t)n * nk);
  int w = m;
  double *opn[3];
  for (int k = 0; k < nk; k++) {
    const nnt_smlp *sk = &P.s[k];
    opn[k] = nnt_xmalloc(sizeof(double) * (size_t)sk->nlayers);
    for (int l = 0; l < sk->nlayers; l++) {
      opn[k][l] = nnt_circuit_opnorm_bound_csr(&sk->layers[l]);
      w = sk->layers[l].out > w ? sk->layers[l].out : w;
    }
  }
  double *x = nnt_xmalloc(sizeof(double) * (size_t)(m + 1)), *rho = nnt_xmalloc(sizeof(double) * (size_t)n);
  double *ha = nnt_xmalloc(sizeof(double) * (size_t)w), *hb = nnt_xmalloc(sizeof(double) * (size_t)w);
  uint8_t *yb = nnt_xmalloc((size_t)c.noutputs);
  nnt_rng rng;
  nnt_rng_init(&rng, cfg->seed, 0);
  nnt_circuit_margin_opts mo;
  nnt_circuit_margin_opts_default(&mo);
  nnt_progress pr;
  nnt_progress_start(&pr, "margin", (long)n * nk);
  for (int v = 0; v < n; v++) {
    uint8_t *xb = res->x + (size_t)v * m;
    pick_input(&c, v, all, &rng, x, xb);
    nnt_circuit_eval(&c, xb, yb);
    int y = res->label[v] = yb[cfg->output];
    for (int k = 0; k < nk; k++) {
      mo.seed = cfg->seed * 1000003ULL + (uint64_t)v * 3 + (uint64_t)k;
      int j = cfg->logit && k == 2 ? cfg->output : 0;
      nnt_circuit_margin_est *e = &res->est[v * nk + k];
      /* the attacked layers read the unperturbed head's output at x: a flip of them flips the net */
      *e = nnt_circuit_margin_upper(&tails[k], head_forward(&P.s[k], P.from[k], x, ha, hb), j, y, &mo);
      if (e->best_layer >= 0) e->best_layer += P.from[k];
      if (P.from[k]) { /* restricted: also every layer, its stored entries and biases only */
        nnt_circuit_margin_est f = nnt_circuit_margin_upper_sparse(&P.s[k], x, j, y, &mo);
        f.forward_passes += e->forward_passes;
        if (f.rho < e->rho) *e = f, res->stored_wins[k]++;
        else e->forward_passes = f.forward_passes;
      }
      uint8_t yy = (uint8_t)(y != 0);
      double lower = res->lower[v * nk + k] = nnt_circuit_margin_lower_min(&P.s[k], x, 1, &yy, j, opn[k]);
      res->lower_min[k] = v == 0 || lower < res->lower_min[k] ? lower : res->lower_min[k];
      nnt_progress_add(&pr, 1);
    }
  }
  nnt_progress_end(&pr);
  for (int k = 0; k < nk; k++) {
    for (int v = 0; v < n; v++) rho[v] = res->est[v * nk + k].rho;
    res->rho_med[k] = nnt_circuit_median(rho, n);
    res->rho_min[k] = rho[0], res->rho_max[k] = rho[n - 1];
  }
  for (int k = 0; k < nk; k++) free(opn[k]), nnt_mlp_free(&tails[k]);
  free(x), free(rho), free(yb), free(ha), free(hb);
  plan_free(&P);
out0:
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  if (st) nnt_circuit_margin_result_free(res);
  return st;
}

void nnt_circuit_margin_result_free(nnt_circuit_margin_result *res) {
  free(res->x), free(res->label), free(res->est), free(res->lower);
  memset(res, 0, sizeof *res);
}

/* A chain of q ID gates, x -> y: Claim 3.5's product network as the compiler builds it. */
static void chain_circuit(int q, nnt_circuit *c) {
  size_t cap = 64 + (size_t)q * 40, len = 0;
  char *s = nnt_xmalloc(cap);
  len += (size_t)snprintf(s, cap, "INPUT(g0)\nOUTPUT(g%d)\n", q);
  for (int i = 1; i <= q; i++) len += (size_t)snprintf(s + len, cap - len, "g%d = BUFF(g%d)\n", i, i - 1);
  nnt_circuit_parse_bench(s, len, "chain", c); /* well formed by construction */
  free(s);
}

/* One point of the sweep: input v of circuit ci at depth q, both nets. */
typedef struct {
  int depth, circuit, input, label, layers[2], best_layer[2];
  double l1_norm[2], rho[2], lower[2];
} sweep_rec;
#define SCOL(name, type, f) NNT_SWEEP_COL(name, type, sweep_rec, f)
static const nnt_sweep_col sweep_cols[] = {
    SCOL("depth", NNT_SWEEP_T_INT, depth), SCOL("circuit", NNT_SWEEP_T_INT, circuit), SCOL("input", NNT_SWEEP_T_INT, input),
    SCOL("label", NNT_SWEEP_T_INT, label),
    SCOL("layers", NNT_SWEEP_T_INT, layers[0]), SCOL("best_layer", NNT_SWEEP_T_INT, best_layer[0]),
    SCOL("l1_norm", NNT_SWEEP_T_DOUBLE, l1_norm[0]), SCOL("rho", NNT_SWEEP_T_DOUBLE, rho[0]),
    SCOL("lower", NNT_SWEEP_T_DOUBLE, lower[0]),
    SCOL("layers_corrected", NNT_SWEEP_T_INT, layers[1]), SCOL("best_layer_corrected", NNT_SWEEP_T_INT, best_layer[1]),
    SCOL("l1_norm_corrected", NNT_SWEEP_T_DOUBLE, l1_norm[1]), SCOL("rho_corrected", NNT_SWEEP_T_DOUBLE, rho[1]),
    SCOL("lower_corrected", NNT_SWEEP_T_DOUBLE, lower[1]),
};

typedef struct {
  const nnt_circuit_margin_cfg *cfg;
  int circuits, inputs;
} sweep_ctx;

static int sweep_point(void *ctx_, int i, void *rec_) {
  const sweep_ctx *sc = ctx_;
  const nnt_circuit_margin_cfg *cfg = sc->cfg;
  sweep_rec *rec = rec_;
  int family = cfg->family, m = family ? cfg->width : 1, per_depth = sc->circuits * sc->inputs;
  int q = cfg->depths[i / per_depth], ci = i % per_depth / sc->inputs, v = i % sc->inputs;
  uint64_t seed = cfg->seed;
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_mlp net[2];
  if (family) nnt_circuit_random(m, q, cfg->width, seed, (uint64_t)(q * 1000 + ci), &c);
  else chain_circuit(q, &c);
  nnt_circuit_layer(&c, &L);
  for (int k = 0; k < 2; k++) nnt_circuit_compile(&L, k, &net[k]), nnt_circuit_add_readout(&net[k], 0);
  /* the circuit's inputs come from one stream in turn: replay the draws of inputs 0..v */
  nnt_rng rng;
  nnt_rng_init(&rng, seed, (uint64_t)(q * 1000 + ci) + 1000000);
  double x[256];
  uint8_t xb[256], y;
  for (int u = 0; u <= v; u++) pick_input(&c, u, !family, &rng, x, xb);
  nnt_circuit_eval(&c, xb, &y);
  *rec = (sweep_rec){.depth = q, .circuit = ci, .input = v, .label = y};
  for (int k = 0; k < 2; k++) {
    nnt_circuit_margin_opts mo;
    nnt_circuit_margin_opts_default(&mo);
    mo.seed = seed ^ ((uint64_t)q << 40 | (uint64_t)ci << 20 | (uint64_t)v << 2 | (uint64_t)k);
    nnt_circuit_margin_est r = nnt_circuit_margin_upper(&net[k], x, 0, y, &mo);
    nnt_mlp_stats s = nnt_mlp_stats_of(&net[k]);
    rec->layers[k] = s.layers, rec->best_layer[k] = r.best_layer, rec->l1_norm[k] = s.l1_norm, rec->rho[k] = r.rho;
    rec->lower[k] = nnt_circuit_margin_lower(&net[k], x, 0, y);
  }
  nnt_mlp_free(&net[0]), nnt_mlp_free(&net[1]), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return NNT_OK;
}

int nnt_circuit_margin_sweep_run(const nnt_circuit_margin_cfg *cfg, nnt_circuit_margin_sweep_result *res) {
  memset(res, 0, sizeof *res);
  int st = check_cfg(cfg);
  if (st) return st;
  int family = cfg->family, circuits = family ? cfg->circuits : 1, inputs = family ? cfg->inputs : 2;
  int nd = cfg->ndepths, per_depth = circuits * inputs, n = nd * per_depth;
  if (circuits > 1000 || inputs >= 1 << 20) return nnt_fail(NNT_EINVAL, "sweep: at most 1000 circuits and 2^20 - 1 inputs");
  uint64_t *ids = nnt_xmalloc(sizeof(uint64_t) * (size_t)n);
  double *cost = nnt_xmalloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) {
    int q = cfg->depths[i / per_depth], ci = i % per_depth / inputs, v = i % inputs;
    ids[i] = (uint64_t)q << 40 | (uint64_t)ci << 20 | (uint64_t)v;
    cost[i] = q;
  }
  char config[256];
  snprintf(config, sizeof config, "family=%d width=%d circuits=%d inputs=%d seed=%llu", family, cfg->width, circuits, inputs,
           (unsigned long long)cfg->seed);
  sweep_ctx sc = {cfg, circuits, inputs};
  sweep_rec *recs = nnt_xmalloc(sizeof(sweep_rec) * (size_t)n);
  nnt_sweep sw = {.name = "margin sweep", .config = config, .npoints = n, .ids = ids, .cost = cost,
                  .rec_size = sizeof(sweep_rec), .cols = sweep_cols, .ncols = (int)(sizeof sweep_cols / sizeof sweep_cols[0]),
                  .nkeys = 3, .point = sweep_point, .ctx = &sc, .threads = cfg->threads, .progress = cfg->progress, .dir = cfg->dir,
                  .resume = cfg->resume};
  if ((st = nnt_sweep_run(&sw, recs, NULL))) {
    free(ids), free(cost), free(recs);
    return st;
  }
  res->ndepths = nd, res->circuits = circuits, res->inputs = inputs;
  res->rows = nnt_xmalloc(sizeof(nnt_circuit_margin_row) * (size_t)n * 2);
  double *per[2], *lows[2];
  for (int k = 0; k < 2; k++) {
    per[k] = nnt_xmalloc(sizeof(double) * (size_t)per_depth);
    lows[k] = nnt_xmalloc(sizeof(double) * (size_t)per_depth);
  }
  for (int di = 0; di < nd; di++) {
    for (int j = 0; j < per_depth; j++) {
      const sweep_rec *r = &recs[di * per_depth + j];
      for (int k = 0; k < 2; k++) {
        per[k][j] = r->rho[k], lows[k][j] = r->lower[k];
        res->rows[res->nrows++] = (nnt_circuit_margin_row){r->depth, r->circuit, r->input, r->label, k, r->layers[k],
                                                           r->best_layer[k], r->l1_norm[k], r->rho[k], r->lower[k]};
      }
    }
    res->depth[di] = cfg->depths[di];
    for (int k = 0; k < 2; k++) {
      res->med[k][di] = nnt_circuit_median(per[k], per_depth);
      res->lo[k][di] = per[k][per_depth / 10];
      res->hi[k][di] = per[k][per_depth - 1 - per_depth / 10];
      res->low[k][di] = nnt_circuit_median(lows[k], per_depth);
    }
  }
  for (int k = 0; k < 2; k++) free(per[k]), free(lows[k]);
  free(ids), free(cost), free(recs);
  return NNT_OK;
}

void nnt_circuit_margin_sweep_result_free(nnt_circuit_margin_sweep_result *res) {
  free(res->rows);
  memset(res, 0, sizeof *res);
}

double nnt_circuit_net_lambda(const nnt_mlp *net, int m, uint64_t seed) {
  int L = net->nlayers;
  double **acts = nnt_xmalloc(sizeof(double *) * (size_t)L), lam = 0;
  for (int l = 0; l < L; l++) acts[l] = nnt_xmalloc(sizeof(double) * (size_t)net->layers[l].out);
  double *x = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1));
  long count = m <= 12 ? 1L << m : 4096;
  nnt_rng rng;
  nnt_rng_init(&rng, seed, 0);
  for (long v = 0; v < count; v++) {
    double s = 0;
    for (int i = 0; i < m; i++) x[i] = m <= 12 ? (double)((v >> i) & 1) : (double)(nnt_rng_u64(&rng) & 1), s += x[i];
    if (sqrt(s) > lam) lam = sqrt(s);
    nnt_mlp_forward_trace(net, x, acts);
    for (int l = 0; l < L; l++) {
      s = 0;
      for (int i = 0; i < net->layers[l].out; i++) s += acts[l][i] * acts[l][i];
      if (sqrt(s) > lam) lam = sqrt(s);
    }
  }
  for (int l = 0; l < L; l++) free(acts[l]);
  free(acts), free(x);
  return lam;
}

double nnt_circuit_margin_certified(const nnt_mlp *net, int m, uint64_t seed, long *count) {
  int no = nnt_mlp_output_dim(net);
  *count = m <= 8 ? 1L << m : 64;
  double *x = nnt_xmalloc(sizeof(double) * (size_t)(m ? m : 1)), *y = nnt_xmalloc(sizeof(double) * (size_t)no), cert = INFINITY;
  nnt_mlp *ro = nnt_xmalloc(sizeof(nnt_mlp) * (size_t)no);
  for (int j = 0; j < no; j++) {
    nnt_mlp_init(&ro[j]);
    nnt_mlp_copy(&ro[j], net);
    nnt_circuit_add_readout(&ro[j], j);
  }
  nnt_rng rng;
  nnt_rng_init(&rng, seed, 1);
  for (long v = 0; v < *count; v++) {
    for (int i = 0; i < m; i++) x[i] = m <= 8 ? (double)((v >> i) & 1) : (double)(nnt_rng_u64(&rng) & 1);
    nnt_mlp_forward(net, x, y);
    for (int j = 0; j < no; j++) {
      double g = nnt_circuit_margin_lower(&ro[j], x, 0, y[j] > 0.5);
      if (g < cert) cert = g;
    }
  }
  for (int j = 0; j < no; j++) nnt_mlp_free(&ro[j]);
  free(ro), free(x), free(y);
  return cert;
}
