/* Circuits: readers, layering, the Lemma B.1 compiler and correction layers, checked against
 * independent references (truth tables written here, bitwise evaluation, a layered simulator). */
#include <stdlib.h>
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_test.h"

static int parse(int (*fn)(const char *, size_t, const char *, nnt_circuit *), const char *text, nnt_circuit *c) {
  return fn(text, strlen(text), "t", c);
}

/* Reference truth of a gate on the bits of v (k inputs), written without the library. */
static int truth(nnt_circuit_gate_type t, int k, unsigned v) {
  int ones = __builtin_popcount(v), all = ones == k, any = ones > 0;
  switch (t) {
    case NNT_CIRCUIT_GATE_BUF: return v & 1;
    case NNT_CIRCUIT_GATE_NOT: return !(v & 1);
    case NNT_CIRCUIT_GATE_AND: return all;
    case NNT_CIRCUIT_GATE_NAND: return !all;
    case NNT_CIRCUIT_GATE_OR: return any;
    case NNT_CIRCUIT_GATE_NOR: return !any;
    case NNT_CIRCUIT_GATE_XOR: return ones & 1;
    case NNT_CIRCUIT_GATE_XNOR: return !(ones & 1);
    default: return -1;
  }
}

/* Every gate formula of the compiler, 1..6 inputs, exact on all {0,1} inputs (acceptance 1). */
static void test_gate_formulas(void) {
  static const nnt_circuit_gate_type types[] = {NNT_CIRCUIT_GATE_BUF, NNT_CIRCUIT_GATE_NOT, NNT_CIRCUIT_GATE_AND, NNT_CIRCUIT_GATE_NAND,
                                        NNT_CIRCUIT_GATE_OR,  NNT_CIRCUIT_GATE_NOR, NNT_CIRCUIT_GATE_XOR, NNT_CIRCUIT_GATE_XNOR};
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
    for (int k = 1; k <= 6; k++) {
      nnt_circuit_gate_type t = types[ti];
      if ((t == NNT_CIRCUIT_GATE_BUF || t == NNT_CIRCUIT_GATE_NOT) && k > 1) continue;
      char text[512];
      int n = 0;
      for (int i = 0; i < k; i++) n += snprintf(text + n, sizeof text - n, "INPUT(x%d)\n", i);
      n += snprintf(text + n, sizeof text - n, "OUTPUT(y)\ny = %s(", t == NNT_CIRCUIT_GATE_BUF ? "BUFF" : nnt_circuit_gate_name(t));
      for (int i = 0; i < k; i++) n += snprintf(text + n, sizeof text - n, "%sx%d", i ? ", " : "", i);
      snprintf(text + n, sizeof text - n, ")\n");
      nnt_circuit c;
      CHECK(parse(nnt_circuit_parse_bench, text, &c) == NNT_OK);
      nnt_circuit_layered L;
      nnt_circuit_layer(&c, &L);
      CHECK(L.depth == 1 && L.width[1] == 1);
      for (int corr = 0; corr < 2; corr++) {
        nnt_mlp net;
        nnt_circuit_compile(&L, corr, &net);
        CHECK(net.nlayers == 2); /* one circuit layer: no correction (it sits between layers) */
        for (unsigned v = 0; v < (1u << k); v++) {
          double x[8], y;
          uint8_t xb[8], yb;
          for (int i = 0; i < k; i++) x[i] = xb[i] = (v >> i) & 1;
          nnt_mlp_forward(&net, x, &y);
          nnt_circuit_eval(&c, xb, &yb);
          int want = truth(t, k, v);
          CHECK_MSG(y == want, "%s k=%d v=%u: net %g, truth %d", nnt_circuit_gate_name(t), k, v, y, want);
          CHECK_MSG(yb == want, "%s k=%d v=%u: eval %d, truth %d", nnt_circuit_gate_name(t), k, v, yb, want);
        }
        nnt_mlp_free(&net);
      }
      nnt_circuit_layered_free(&L);
      nnt_circuit_free(&c);
    }
}

/* round(z) = relu(3z-1) - relu(3z-2): 0 / 3z-1 / 1 on its three pieces (acceptance 3). */
static void test_round(void) {
  nnt_circuit c;
  CHECK(parse(nnt_circuit_parse_bench, "INPUT(a)\nOUTPUT(y)\nn = NOT(a)\ny = NOT(n)\n", &c) == NNT_OK);
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_mlp net, corr;
  nnt_circuit_compile(&L, 1, &net);
  CHECK(L.depth == 2 && net.nlayers == 6);
  nnt_mlp_init(&corr);
  for (int l = 2; l < 4; l++) { /* the correction between the two blocks */
    const nnt_mlp_layer *s = &net.layers[l];
    nnt_mlp_layer *d = nnt_mlp_add(&corr, s->in, s->out, s->act);
    memcpy(d->W, s->W, sizeof(double) * (size_t)s->in * s->out);
    memcpy(d->b, s->b, sizeof(double) * (size_t)s->out);
  }
  for (int i = -40; i <= 40; i++) {
    double z = i / 20.0, y, want = z <= 1.0 / 3 ? 0 : z >= 2.0 / 3 ? 1 : 3 * z - 1;
    nnt_mlp_forward(&corr, &z, &y);
    CHECK_CLOSE(y, want, 1e-12);
  }
  for (int v = 0; v < 2; v++) {
    double x = v, y;
    nnt_mlp_forward(&net, &x, &y);
    CHECK(y == v);
  }
  nnt_mlp_free(&corr), nnt_mlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
}

static const char *fa_bench =
    "# full adder\nINPUT(a)\nINPUT(b)\nINPUT(cin)\nOUTPUT(s)\nOUTPUT(cout)\n"
    "s = XOR(p, cin)\np = xor(a, b)\ng = AND(a, b)\nt = AND(p, cin)\ncout = OR(g, t)\n";
static const char *fa_blif =
    ".model fa\n.inputs a b \\\n cin\n.outputs s cout\n.names a b cin s\n100 1\n010 1\n001 1\n111 1\n"
    ".names a b cin cout # majority\n11- 1\n1-1 1\n-11 1\n.end\n";
static const char *fa_aag = "aag 12 3 0 2 9\n2\n4\n6\n19\n25\n8 2 5\n10 3 4\n12 9 11\n14 13 7\n16 12 6\n18 15 17\n"
                            "20 2 4\n22 13 6\n24 21 23\ni0 a\ni1 b\ni2 cin\no0 s\no1 cout\nc\ncomment\n";

/* The three readers give the same function, and it is the full adder's truth table. */
static void test_three_formats(void) {
  nnt_circuit c[3];
  CHECK(parse(nnt_circuit_parse_bench, fa_bench, &c[0]) == NNT_OK);
  CHECK(parse(nnt_circuit_parse_blif, fa_blif, &c[1]) == NNT_OK);
  CHECK(parse(nnt_circuit_parse_aag, fa_aag, &c[2]) == NNT_OK);
  for (int f = 0; f < 3; f++) {
    CHECK(c[f].ninputs == 3 && c[f].noutputs == 2);
    for (int v = 0; v < 8; v++) {
      uint8_t x[3] = {v & 1, (v >> 1) & 1, (v >> 2) & 1}, y[2];
      nnt_circuit_eval(&c[f], x, y);
      int sum = x[0] + x[1] + x[2];
      CHECK_MSG(y[0] == (sum & 1) && y[1] == (sum >> 1), "format %d input %d", f, v);
    }
    for (int corr = 0; corr < 2; corr++) {
      nnt_circuit_layered L;
      nnt_smlp net;
      nnt_circuit_layer(&c[f], &L);
      nnt_circuit_compile_sparse(&L, corr, &net);
      nnt_circuit_verify_counts r = nnt_circuit_verify(&c[f], &net, 20, 0, 1);
      CHECK(r.exhaustive && r.checked == 8 && r.mismatches == 0 && r.max_abs_err == 0);
      nnt_smlp_free(&net), nnt_circuit_layered_free(&L);
    }
    nnt_circuit_free(&c[f]);
  }
}

/* Simulates a layered circuit node by node (independent of the net and of eval64). */
static void layered_eval(const nnt_circuit_layered *L, const uint8_t *x, uint8_t *y) {
  uint8_t prev[4096], cur[4096];
  memcpy(prev, x, (size_t)L->width[0]);
  for (int l = 1; l <= L->depth; l++) {
    for (int k = 0; k < L->width[l]; k++) {
      const nnt_circuit_lnode *n = &L->nodes[l][k];
      unsigned v = 0;
      for (int i = 0; i < n->nin; i++) v |= (unsigned)prev[n->in[i]] << i;
      cur[k] = n->type == NNT_CIRCUIT_GATE_CONST0 ? 0 : n->type == NNT_CIRCUIT_GATE_CONST1 ? 1 : (uint8_t)truth(n->type, n->nin, v);
    }
    memcpy(prev, cur, (size_t)L->width[l]);
  }
  memcpy(y, prev, (size_t)L->width[L->depth]);
}

/* Random layered circuits: layering is well formed and preserves the function; the compiled
 * nets (with and without corrections) are exact on every input. */
static void test_random_circuits(void) {
  for (int s = 0; s < 20; s++) {
    int m = 3 + s % 6, q = 1 + s % 7, r = 2 + s % 5;
    nnt_circuit c;
    nnt_circuit_random(m, q, r, 7, (uint64_t)s, &c);
    nnt_circuit_layered L;
    nnt_circuit_layer(&c, &L);
    CHECK(L.depth == q && L.width[L.depth] == 1 && L.width[0] == m);
    for (int l = 1; l <= L.depth; l++)
      for (int k = 0; k < L.width[l]; k++)
        for (int i = 0; i < L.nodes[l][k].nin; i++) CHECK(L.nodes[l][k].in[i] >= 0 && L.nodes[l][k].in[i] < L.width[l - 1]);
    for (unsigned v = 0; v < (1u << m); v++) {
      uint8_t x[16], y1, y2;
      for (int i = 0; i < m; i++) x[i] = (v >> i) & 1;
      nnt_circuit_eval(&c, x, &y1);
      layered_eval(&L, x, &y2);
      CHECK(y1 == y2);
    }
    for (int corr = 0; corr < 2; corr++) {
      nnt_smlp net;
      nnt_circuit_compile_sparse(&L, corr, &net);
      CHECK(net.nlayers == 2 * q + (corr ? 2 * (q - 1) : 0));
      nnt_circuit_verify_counts res = nnt_circuit_verify(&c, &net, 20, 0, 1);
      CHECK(res.mismatches == 0 && res.checked == (1L << m));
      /* the dense form's own batched forward (dgemm / its compressed rows) gives the same numbers */
      nnt_mlp dense;
      nnt_circuit_compile(&L, corr, &dense);
      int B = 1 << m;
      double *X = nnt_xmalloc(sizeof(double) * (size_t)B * m), Yd[256], Ys[256];
      for (int v = 0; v < B; v++)
        for (int i = 0; i < m; i++) X[(size_t)v * m + i] = (v >> i) & 1;
      nnt_mlp_forward_batch(&dense, B, X, Yd);
      nnt_smlp_forward_batch(&net, B, X, Ys);
      CHECK(!memcmp(Yd, Ys, sizeof(double) * (size_t)B));
      free(X);
      nnt_mlp_free(&dense), nnt_smlp_free(&net);
    }
    nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  }
}

/* Layering details: outputs that are inputs, repeated outputs, constants, dead gates. */
static void test_layering_edges(void) {
  const char *blif = ".model e\n.inputs a b\n.outputs a y y k z\n.names a b y\n11 1\n.names k\n1\n"
                     ".names a dead\n0 1\n.names z\n.end\n";
  nnt_circuit c;
  CHECK(parse(nnt_circuit_parse_blif, blif, &c) == NNT_OK);
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  CHECK(L.width[L.depth] == 5);
  nnt_mlp net;
  nnt_circuit_compile(&L, 1, &net);
  for (int v = 0; v < 4; v++) {
    double x[2] = {v & 1, v >> 1}, y[5];
    nnt_mlp_forward(&net, x, y);
    int a = v & 1, b = v >> 1;
    CHECK(y[0] == a && y[1] == (a & b) && y[2] == (a & b) && y[3] == 1 && y[4] == 0);
  }
  CHECK(L.orig_gates == 3); /* y, k, z: 'dead' is outside the outputs' cone */
  nnt_mlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
}

/* One error line with file and line for every kind of bad input (acceptance 7). */
static void expect_err(int (*fn)(const char *, size_t, const char *, nnt_circuit *), const char *text, const char *frag) {
  nnt_circuit c;
  int st = parse(fn, text, &c);
  CHECK_MSG(st == NNT_EFORMAT && strstr(nnt_errmsg(), frag), "want '%s', got %d '%s'", frag, st, nnt_errmsg());
  if (st == NNT_OK) nnt_circuit_free(&c);
}

static void test_errors(void) {
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\nOUTPUT(y)\nx = AND(a, y)\ny = NOT(x)\n", "t:4: combinational cycle through signal 'y'");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\nOUTPUT(y)\ny = AND(a, b)\n", "t:3: signal 'b' is used but never defined");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\nOUTPUT(q)\nq = DFF(a)\n", "t:3: flip-flop DFF");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\n\nOUTPUT(y)\ny = MAJ(a)\n", "t:4: unknown gate type 'MAJ'");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\nOUTPUT(y)\ny = AND(a,\n", "t:3:");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\nINPUT(a)\nOUTPUT(a)\n", "t:2: signal 'a' is defined twice");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\nOUTPUT(y)\ny = NOT(a, a)\n", "t:3: NOT takes exactly one input");
  expect_err(nnt_circuit_parse_bench, "INPUT(a)\n", "declares no outputs");
  expect_err(nnt_circuit_parse_blif, ".model m\n.inputs a\n.outputs q\n.latch a q 0\n.end\n", "t:4: .latch: sequential");
  expect_err(nnt_circuit_parse_blif, ".model m\n.inputs a b\n.outputs y\n.names a b y\n1x 1\n", "t:5: cube character 'x'");
  expect_err(nnt_circuit_parse_blif, ".model m\n.inputs a\n.outputs y\n.names a z y\n11 1\n", "t:4: signal 'z' is used but never defined");
  expect_err(nnt_circuit_parse_blif, ".inputs a\n.outputs y\n.names a y\n1 1\n0 0\n", "t:5: cover mixes");
  expect_err(nnt_circuit_parse_blif, ".inputs a\n.outputs y\n.subckt f a=a y=y\n", "t:3: unsupported BLIF construct '.subckt'");
  expect_err(nnt_circuit_parse_blif, ".inputs a\n.outputs y\n.names a y\n1 1\n.names y a\n1 1\n", "t:5: signal 'a' is defined twice");
  expect_err(nnt_circuit_parse_blif, ".inputs a\n.outputs y\n.names a x y\n11 1\n.names y x\n1 1\n", "combinational cycle");
  expect_err(nnt_circuit_parse_aag, "aag 3 1 1 1 1\n2\n4 6\n6\n6 2 4\n", "t:1: 1 latches");
  expect_err(nnt_circuit_parse_aag, "aag 3 1 0 1 2\n2\n6\n4 2 6\n6 4 2\n", "combinational cycle");
  expect_err(nnt_circuit_parse_aag, "aag 3 1 0 1 1\n2\n6\n6 2 8\n", "t:4: literal 8 exceeds");
  expect_err(nnt_circuit_parse_aag, "aag 3 1 0 1 1\n2\n6\n", "t:4: unexpected end of file");
  expect_err(nnt_circuit_parse_aag, "aag 3 1 0 1 1\n2\n6\n6 2 4\n", "signal 'v2' is used but never defined");
  expect_err(nnt_circuit_parse_aag, "aag 3 1 0 1 1\n3\n6\n6 2 2\n", "t:2: input literal 3");
  expect_err(nnt_circuit_parse_aag, "aig 3 1 0 1 1\n", "binary AIGER is not supported");
}

/* Bitwise evaluation of 64 vectors at once equals one-at-a-time evaluation. */
static void test_eval64(void) {
  nnt_circuit c;
  nnt_circuit_random(10, 6, 6, 3, 0, &c);
  nnt_rng r;
  nnt_rng_init(&r, 5, 0);
  uint64_t X[10], Y[1];
  for (int i = 0; i < 10; i++) X[i] = nnt_rng_u64(&r);
  nnt_circuit_eval64(&c, X, Y);
  for (int k = 0; k < 64; k++) {
    uint8_t x[10], y;
    for (int i = 0; i < 10; i++) x[i] = (X[i] >> k) & 1;
    nnt_circuit_eval(&c, x, &y);
    CHECK(y == ((Y[0] >> k) & 1));
  }
  nnt_circuit_free(&c);
}

int main(void) {
  test_gate_formulas();
  test_round();
  test_three_formats();
  test_random_circuits();
  test_layering_edges();
  test_errors();
  test_eval64();
  TEST_MAIN_END();
}
