/* Theorem D.6's (D.5) for compiled circuits: every constant of a two-gate circuit computed by hand,
 * the correction radius read from the weights, and soundness by direct simulation (perturbations
 * of every parameter below gamma_D5 never flip the readout; the attack's flip is never below it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_test.h"

static void compile_text(const char *text, int j, nnt_mlp *net, int *m) {
  nnt_circuit c;
  nnt_circuit_layered L;
  CHECK(nnt_circuit_parse_bench(text, strlen(text), "test", &c) == 0);
  nnt_circuit_layer(&c, &L);
  nnt_circuit_compile(&L, 1, net);
  nnt_mlp_layer *H = nnt_mlp_add(net, c.noutputs, 1, NNT_ACT_IDENTITY); /* the readout 2 z_j - 1 */
  H->W[j] = 2, H->b[0] = -1;
  *m = c.ninputs;
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
}

static const char *two_gates = "INPUT(a)\nOUTPUT(z)\nb = BUFF(a)\nz = NOT(b)\n";

/* z = NOT(BUF(a)): f_0 = BUF's block (x -> relu(x) -> relu), zeta_0 = round (C = [3; 3], c = (-1, -2),
 * D = [1, -1]), f_1 = NOT's block (h -> relu(1 - h) -> relu) then the readout (w = 2, b = -1).
 * Every ||W||_2 is 1 except C (sqrt 18), D (sqrt 2) and the readout (2). Layer values: x = 0 gives
 * h_0 = 0, h_1 = 1, F = 1; x = 1 gives h_0 = 1, h_1 = 0, F = -1; so lambda = 1. */
static void test_hand(void) {
  nnt_mlp net;
  int m;
  compile_text(two_gates, 0, &net, &m);
  CHECK(net.nlayers == 7);
  const double X[2] = {0, 1}, s = 0.01, t = 0.02;
  nnt_circuit_d5 k;
  CHECK(nnt_circuit_d5_at(&net, X, 2, s, t, &k) == 0);
  /* f_0 at x = 1: layer inputs ||x|| = 1, ||relu(x)|| = 1: (1 + 1)(1 + s)^2 + (1 + 1) */
  double mu0 = sqrt(2 * (1 + s) * (1 + s) + 2);
  /* f_1 (three layers: 1, 1, 2) at h_0 = 0: inputs 0, 1, 1; at h_0 = 1: inputs 1, 0, 0 */
  double A = (1 + s) * (1 + s) * (2 + s) * (2 + s) + 2 * (2 + s) * (2 + s) + 2;
  double B = 2 * (1 + s) * (1 + s) * (2 + s) * (2 + s) + (2 + s) * (2 + s) + 1;
  double kth = sqrt(A > B ? A : B), mu = (1 + s) * (1 + s) * (2 + s);
  double kxi = sqrt(2 * (sqrt(2) + t) * (sqrt(2) + t) + 18 + 1), sz = 1.0 / 3;
  CHECK(k.d == 1);
  CHECK_CLOSE(k.sigma_zeta, sz, 1e-15);
  CHECK_CLOSE(k.mu0, mu0, 1e-14);
  CHECK_CLOSE(k.kappa_theta, kth, 1e-14);
  CHECK_CLOSE(k.mu, mu, 1e-14);
  CHECK_CLOSE(k.kappa_xi, kxi, 1e-14);
  CHECK_CLOSE(k.lambda, 1, 1e-15);
  CHECK(isinf(k.sigma_h));
  const double want[NNT_CIRCUIT_D5_TERMS] = {1 / mu0, sz / mu0, s, t, 1 / (2 * kth), sz / (2 * kth), INFINITY,
                                             sz / (4 * mu * kxi), 1 / (4 * mu * kxi)};
  for (int i = 0; i < NNT_CIRCUIT_D5_TERMS; i++)
    if (isinf(want[i])) CHECK_MSG(isinf(k.term[i]), "term %d = %g", i, k.term[i]);
    else CHECK_CLOSE(k.term[i], want[i], 1e-14);
  /* sigma_zeta/(4 lambda mu kappa_xi) = 0.00845 binds here */
  CHECK_CLOSE(k.gamma, sz / (4 * mu * kxi), 1e-14);
  CHECK(k.gamma < s && k.gamma < 1 / (4 * mu * kxi));
  /* the optimised radii are on the grid and no worse than this point; at them the terms agree */
  nnt_circuit_d5 best, again;
  CHECK(nnt_circuit_d5_eval(&net, X, 2, &best) == 0);
  CHECK(best.gamma >= k.gamma);
  CHECK(nnt_circuit_d5_at(&net, X, 2, best.sigma_theta, best.sigma_xi, &again) == 0);
  CHECK(again.gamma == best.gamma);
  nnt_mlp_free(&net);
}

/* The correction radius comes from the weights: slope 3 with biases (-1.5, -2.5) is exact within
 * min(1.5/3, 1 - 2.5/3) = 1/6; a pair whose plateau is not 1 is no correction at all (d = 0). */
static void test_radius(void) {
  nnt_mlp net;
  int m;
  compile_text(two_gates, 0, &net, &m);
  const double X[2] = {0, 1};
  nnt_circuit_d5 k;
  net.layers[2].b[0] = -1.5, net.layers[2].b[1] = -2.5;
  CHECK(nnt_circuit_d5_at(&net, X, 2, 0.01, 0.01, &k) == 0);
  CHECK_CLOSE(k.sigma_zeta, 1.0 / 6, 1e-15);
  net.layers[2].b[1] = -2;
  CHECK(nnt_circuit_d5_at(&net, X, 2, 0.01, 0.01, &k) != 0); /* one long layer: its output is not +-1 */
  nnt_mlp_free(&net);
  /* from the weights alone: a value before the correction that is not 0/1 (BUF's output shifted by
   * 1/2) is refused; unshifted, BUF's output ranges over {0, 1} and the readout over {-1, 1} */
  compile_text(two_gates, 0, &net, &m);
  double lo[16], hi[16];
  CHECK(nnt_circuit_d5_ranges(&net, lo, hi) == 0);
  CHECK(lo[1] == 0 && hi[1] == 1 && lo[7] == -1 && hi[7] == 1); /* BUF's output; the readout (unit 7 of 8) */
  net.layers[1].b[0] += 0.5;
  CHECK(nnt_circuit_d5_ranges(&net, lo, hi) != 0);
  CHECK(strstr(nnt_errmsg(), "not shown to be 0/1") != NULL);
  CHECK(nnt_circuit_d5_eval_all(&net, &k) != 0);
  nnt_mlp_free(&net);
}

static double output(nnt_mlp *net, const double *x) {
  double y;
  nnt_mlp_forward(net, x, &y);
  return y;
}

/* Random perturbations of every parameter of norm 0.999 gamma_D5 (spread over all layers, or all in
 * one layer) never change the readout's sign on any input; the attack's flip is never below it. */
static void test_sound(void) {
  const char *fa = "INPUT(a)\nINPUT(b)\nINPUT(c)\nOUTPUT(s)\nOUTPUT(co)\nt = XOR(a, b)\ns = XOR(t, c)\n"
                   "u = AND(a, b)\nv = AND(t, c)\nco = OR(u, v)\n";
  for (int j = 0; j < 2; j++) {
    nnt_mlp net, work;
    int m;
    compile_text(fa, j, &net, &m);
    double X[8 * 3];
    for (int v = 0; v < 8; v++)
      for (int i = 0; i < 3; i++) X[v * 3 + i] = (v >> i) & 1;
    nnt_circuit_d5 k, kall;
    CHECK(nnt_circuit_d5_eval(&net, X, 8, &k) == 0);
    CHECK(k.d == 2 && k.gamma > 0 && isfinite(k.gamma));
    /* the weights-alone bound: proven at every input, so also at these 8 */
    CHECK(nnt_circuit_d5_eval_all(&net, &kall) == 0);
    CHECK(kall.gamma > 0 && kall.gamma <= k.gamma);
    nnt_mlp_init(&work);
    nnt_mlp_copy(&work, &net);
    nnt_rng r;
    nnt_rng_init(&r, 7, (uint64_t)j);
    long P = nnt_mlp_stats_of(&net).params, flips = 0;
    double *dir = malloc(sizeof(double) * (size_t)P);
    for (int trial = 0; trial < 800; trial++) { /* 400 at 0.999 gamma_D5, 400 at 0.999 gamma_D5(all inputs) */
      double gam = trial < 400 ? k.gamma : kall.gamma;
      int only = trial % 2 ? (int)nnt_rng_below(&r, (uint64_t)net.nlayers) : -1;
      nnt_rng_fill_normal_f64(&r, dir, (size_t)P, 0, 1);
      double nn = 0;
      for (int l = 0, off = 0; l < net.nlayers; l++) {
        int sz = net.layers[l].out * (net.layers[l].in + 1);
        for (int i = off; i < off + sz; i++) dir[i] = only < 0 || only == l ? dir[i] : 0, nn += dir[i] * dir[i];
        off += sz;
      }
      double scale = 0.999 * gam / sqrt(nn);
      for (int l = 0, off = 0; l < net.nlayers; l++) {
        nnt_mlp_layer *W = &work.layers[l], *O = &net.layers[l];
        for (int i = 0; i < W->out * W->in; i++) W->W[i] = O->W[i] + scale * dir[off + i];
        off += W->out * W->in;
        for (int i = 0; i < W->out; i++) W->b[i] = O->b[i] + scale * dir[off + i];
        off += W->out;
      }
      for (int v = 0; v < 8; v++) flips += (output(&work, X + v * 3) > 0) != (output(&net, X + v * 3) > 0);
    }
    CHECK_MSG(flips == 0, "output %d: %ld flips below gamma_D5 = %g (all inputs %g)", j, flips, k.gamma, kall.gamma);
    nnt_circuit_margin_opts o;
    nnt_circuit_margin_opts_default(&o);
    for (int v = 0; v < 8; v++) {
      double F = output(&net, X + v * 3), up = nnt_circuit_margin_upper(&net, X + v * 3, 0, F > 0, &o).rho;
      CHECK_MSG(k.gamma <= up, "output %d input %d: gamma_D5 %g above the attack's %g", j, v, k.gamma, up);
    }
    free(dir);
    nnt_mlp_free(&work), nnt_mlp_free(&net);
  }
}

/* An n x n array multiplier in .bench, written here: partial products a_i b_j added row by row
 * with ripple-carry half and full adders; output w is bit w of a * b (a: inputs 0..n-1, b: n..2n-1). */
static void put_adder(char **p, char acc[][16], int w, const char *x, const char *y, const char *z, char *carry, int *g) {
  const char *in[3] = {x, y, z};
  int k = 0;
  const char *bits[3] = {"", "", ""};
  for (int i = 0; i < 3; i++)
    if (in[i] && in[i][0]) bits[k++] = in[i];
  carry[0] = 0;
  if (k == 1) {
    snprintf(acc[w], 16, "%.15s", bits[0]);
    return;
  }
  int id = (*g)++;
  if (k == 2) {
    *p += sprintf(*p, "s%d = XOR(%s, %s)\nc%d = AND(%s, %s)\n", id, bits[0], bits[1], id, bits[0], bits[1]);
  } else {
    *p += sprintf(*p, "t%d = XOR(%s, %s)\ns%d = XOR(t%d, %s)\nu%d = AND(%s, %s)\nv%d = AND(t%d, %s)\nc%d = OR(u%d, v%d)\n", id,
                  bits[0], bits[1], id, id, bits[2], id, bits[0], bits[1], id, id, bits[2], id, id, id);
  }
  snprintf(acc[w], 16, "s%d", id);
  snprintf(carry, 16, "c%d", id);
}

static void write_multiplier(const char *path, int n) {
  char *text = malloc(1 << 16), *p = text, acc[64][16], carry[16] = "", pp[32];
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < 2 * n; i++) p += sprintf(p, "INPUT(x%d)\n", i);
  for (int w = 0; w < 2 * n; w++) p += sprintf(p, "OUTPUT(p%d)\n", w);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) p += sprintf(p, "pp%d_%d = AND(x%d, x%d)\n", i, j, i, n + j);
  int g = 0;
  for (int j = 0; j < n; j++) {
    carry[0] = 0;
    for (int i = 0; i < n; i++) {
      char c[16];
      snprintf(pp, sizeof pp, "pp%d_%d", i, j);
      put_adder(&p, acc, i + j, acc[i + j], pp, carry, c, &g);
      memcpy(carry, c, sizeof c);
    }
    if (carry[0]) memcpy(acc[j + n], carry, 16);
  }
  for (int w = 0; w < 2 * n; w++) p += sprintf(p, "p%d = BUFF(%s)\n", w, acc[w]);
  FILE *f = fopen(path, "w");
  CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
  free(text);
}

/* (D.5) on a 4 x 4 multiplier (written above, checked against integer products): every input for
 * the constants and the certificate, the attack on 3 sampled inputs over the last two blocks.
 * gamma_D5 <= the attack's flip; the printed flip, put into the dense net compiled here and
 * evaluated directly, changes the readout's sign and has the printed norm; --scale is caught. */
static void test_multiplier(void) {
  char dir[] = "/tmp/nnt_test_d5_XXXXXX", path[64];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/mul4.bench", dir);
  const int n = 4, j = 4;
  write_multiplier(path, n);
  nnt_circuit c;
  CHECK(nnt_circuit_read(path, &c) == 0);
  CHECK(c.ninputs == 2 * n && c.noutputs == 2 * n);
  for (int v = 0; v < 1 << (2 * n); v++) {
    uint8_t xb[8], yb[8];
    for (int i = 0; i < 2 * n; i++) xb[i] = (v >> i) & 1;
    nnt_circuit_eval(&c, xb, yb);
    int prod = (v & 15) * (v >> 4);
    for (int w = 0; w < 2 * n; w++) CHECK_MSG(yb[w] == ((prod >> w) & 1), "the test's multiplier: %d bit %d", v, w);
  }
  nnt_circuit_d5_cfg cfg;
  nnt_circuit_d5_cfg_default(&cfg, 0);
  cfg.file = path, cfg.output = j, cfg.inputs = 256, cfg.attack_inputs = 3, cfg.attack_blocks = 2;
  nnt_circuit_d5_result r;
  CHECK(nnt_circuit_d5_run(&cfg, &r) == 0);
  CHECK(r.exhaustive && r.n == 256 && r.nattack == 3 && r.k.d >= 2 && r.attack_from > 0);
  CHECK(r.gamma_d5 > 0 && r.certified > 0 && isfinite(r.attack) && r.flip && r.flip_input >= 0);
  CHECK_MSG(r.gamma_d5 <= r.attack && !r.contradiction, "gamma_D5 %g above the attack's %g", r.gamma_d5, r.attack);
  /* the flip, checked on the dense net built here */
  nnt_circuit_layered L;
  nnt_mlp net;
  nnt_circuit_layer(&c, &L);
  nnt_circuit_compile(&L, 1, &net);
  nnt_mlp_layer *H = nnt_mlp_add(&net, c.noutputs, 1, NNT_ACT_IDENTITY);
  H->W[j] = 2, H->b[0] = -1;
  CHECK(net.nlayers == r.nlayers);
  int v = r.flip_input, prod = (v & 15) * (v >> 4);
  double x[8], F0 = 0, F1 = 0, nn = 0;
  for (int i = 0; i < 2 * n; i++) {
    x[i] = (v >> i) & 1;
    CHECK(r.flip_x[i] == x[i]);
  }
  nnt_mlp_forward(&net, x, &F0);
  CHECK(F0 == ((prod >> j) & 1 ? 1 : -1));
  long k = 0;
  for (int l = r.attack_from; l < net.nlayers; l++) {
    nnt_mlp_layer *W = &net.layers[l];
    for (int i = 0; i < W->out * W->in; i++, k++) W->W[i] += r.flip[k], nn += r.flip[k] * r.flip[k];
    for (int i = 0; i < W->out; i++, k++) W->b[i] += r.flip[k], nn += r.flip[k] * r.flip[k];
  }
  CHECK(k == r.attack_params);
  nnt_mlp_forward(&net, x, &F1);
  CHECK_MSG(F0 * F1 <= 0, "the attack's flip leaves the readout at %g (unperturbed %g)", F1, F0);
  CHECK_CLOSE(sqrt(nn), r.attack, 1e-12 * r.attack);
  nnt_circuit_d5_result_free(&r);
  /* the fault injection: gamma_D5 x 1000 lies above the flip */
  cfg.scale = 1000;
  CHECK(nnt_circuit_d5_run(&cfg, &r) == 0);
  CHECK(r.contradiction);
  nnt_circuit_d5_result_free(&r);
  /* fewer inputs than 2^m: sampled, and said so */
  cfg.scale = 1, cfg.inputs = 16;
  CHECK(nnt_circuit_d5_run(&cfg, &r) == 0);
  CHECK(!r.exhaustive && r.n == 16 && r.nattack == 3 && !r.contradiction);
  nnt_circuit_d5_result_free(&r);
  nnt_mlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  unlink(path), rmdir(dir);
}

/* FILE compiled dense with corrections and the readout of output j (as nnt circuit d5 builds it). */
static int compile_file(const char *path, int j, nnt_mlp *net, int *m, int *nout) {
  nnt_circuit_src src;
  if (nnt_circuit_src_open(path, NULL, &src)) return -1;
  nnt_circuit c;
  nnt_circuit_layered L;
  CHECK(nnt_circuit_read(src.path, &c) == 0);
  nnt_circuit_src_close(&src);
  nnt_circuit_layer(&c, &L);
  nnt_circuit_compile(&L, 1, net);
  nnt_mlp_layer *H = nnt_mlp_add(net, c.noutputs, 1, NNT_ACT_IDENTITY);
  H->W[j] = 2, H->b[0] = -1;
  *m = c.ninputs, *nout = c.noutputs;
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return 0;
}

/* Check (a)'s containment, written here (not d5.c's forward pass): every layer value of the sparse
 * copy sn at each of the n inputs X lies in [lo, hi]; the number of values outside. */
static long outside_ranges(const nnt_smlp *sn, const double *X, int n, const double *lo, const double *hi, int first_only) {
  int wmax = sn->layers[0].in;
  for (int l = 0; l < sn->nlayers; l++) wmax = sn->layers[l].out > wmax ? sn->layers[l].out : wmax;
  double *a = malloc(sizeof(double) * (size_t)wmax), *b = malloc(sizeof(double) * (size_t)wmax);
  long bad = 0;
  for (int v = 0; v < n; v++) {
    memcpy(a, X + (size_t)v * sn->layers[0].in, sizeof(double) * (size_t)sn->layers[0].in);
    for (int l = 0, u = 0; l < sn->nlayers; l++) {
      const nnt_smlp_layer *L = &sn->layers[l];
      for (int o = 0; o < L->out; o++, u++) {
        double z = L->b[o];
        for (long e = L->row_start[o]; e < L->row_start[o + 1]; e++) z += L->val[e] * a[L->col[e]];
        b[o] = L->act == NNT_ACT_RELU ? (z > 0 ? z : 0) : z;
        bad += !(b[o] >= lo[u] && b[o] <= hi[u]);
      }
      double *t = a;
      a = b, b = t;
    }
    if (first_only && bad) break;
  }
  free(a), free(b);
  return bad;
}

/* (D.5) from the weights alone against every input, on each circuit small enough to enumerate:
 * every layer value at every x inside the ranges; gamma from the weights <= gamma over all 2^m
 * inputs at the same radii (and each constant >= its value there, every term but lambda/mu0 <=);
 * a range narrowed by a quarter of its width at one
 * unit is caught. mult8.v (output 8, 65 536 inputs, when yosys is installed) runs alone under the
 * argument "mult8" (ctest circuits/test_d5_mult8, label slow: a minute and more under the sanitizers). */
static void test_all_inputs(int from, int to) {
  const char *files[] = {"fulladder.bench", "mux4.blif", "majority5.blif", "compare4.aag", "mult8.v"};
  for (int f = from; f < to; f++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", NNT_EXAMPLES_DIR, files[f]);
    for (int j = 0;; j++) {
      nnt_mlp net;
      int m, nout;
      if (f == 4) j = j ? 99 : 8; /* mult8: product bit 8 only (the CLI tests' output) */
      if (j == 99) break;
      if (compile_file(path, j, &net, &m, &nout)) {
        printf("skipped %s (no yosys): %s\n", files[f], nnt_errmsg());
        break;
      }
      nnt_smlp sn;
      nnt_smlp_from_dense(&sn, &net);
      long tot = 0;
      for (int l = 0; l < net.nlayers; l++) tot += net.layers[l].out;
      double *lo = malloc(sizeof(double) * (size_t)tot), *hi = malloc(sizeof(double) * (size_t)tot);
      CHECK_MSG(nnt_circuit_d5_ranges(&net, lo, hi) == 0, "%s: %s", files[f], nnt_errmsg());
      int n = 1 << m;
      double *X = malloc(sizeof(double) * (size_t)n * (size_t)m);
      for (int v = 0; v < n; v++)
        for (int i = 0; i < m; i++) X[(size_t)v * m + i] = (v >> i) & 1;
      long bad = outside_ranges(&sn, X, n, lo, hi, 0);
      CHECK_MSG(bad == 0, "%s output %d: %ld layer values outside their weights-alone ranges", files[f], j, bad);
      /* over every input at the weights-alone bound's radii: no term below it there, hence the
       * enumerated bound's best radii give no less either (one pass over the inputs, not the grid) */
      nnt_circuit_d5 all, en;
      CHECK(nnt_circuit_d5_eval_all(&net, &all) == 0);
      CHECK(nnt_circuit_d5_at(&net, X, n, all.sigma_theta, all.sigma_xi, &en) == 0);
      CHECK_MSG(all.gamma > 0 && all.gamma <= en.gamma, "%s output %d: gamma from the weights %g, over every input %g", files[f], j,
                all.gamma, en.gamma);
      CHECK(all.lambda >= en.lambda && all.mu0 >= en.mu0 && all.kappa_theta >= en.kappa_theta);
      for (int t = 0; t < NNT_CIRCUIT_D5_TERMS; t++) CHECK(all.term[t] <= en.term[t] || t == 0);
      /* the fault: the first unit of layer 1 whose range is wide, narrowed from above by a quarter */
      int u0 = net.layers[0].out, u = u0;
      while (u < u0 + net.layers[1].out && !(hi[u] > lo[u])) u++;
      CHECK(u < u0 + net.layers[1].out);
      hi[u] -= (hi[u] - lo[u]) / 4;
      CHECK_MSG(outside_ranges(&sn, X, n, lo, hi, 1) > 0, "%s: the narrowed range was not caught", files[f]);
      free(X), free(lo), free(hi);
      nnt_smlp_free(&sn), nnt_mlp_free(&net);
      if (j + 1 >= nout) break;
    }
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "mult8")) {
    test_all_inputs(4, 5);
    TEST_MAIN_END();
  }
  test_hand();
  test_radius();
  test_sound();
  test_multiplier();
  test_all_inputs(0, 4);
  TEST_MAIN_END();
}
