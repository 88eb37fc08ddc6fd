/* Sparse nnt-mlp: the batched CSR forward against the dense single-input forward bit for bit on
 * random nets of every density and activation (chunk edges included), triplet assembly against
 * dense accumulation, statistics, the file format's round trips (sparse <-> dense), and malformed
 * files rejected with a message naming the array. A perturbed weight must be seen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_mlp.h"
#include "nnt_rng.h"
#include "nnt_test.h"

/* A random dense net: each weight nonzero with probability p (some rows empty at small p). */
static void random_net(nnt_mlp *d, nnt_rng *r, int nl, const int *widths, double p) {
  nnt_mlp_init(d);
  for (int l = 0; l < nl; l++) {
    nnt_act act = (nnt_act)(l == nl - 1 ? NNT_ACT_IDENTITY : nnt_rng_below(r, 5));
    nnt_mlp_layer *L = nnt_mlp_add(d, widths[l], widths[l + 1], act);
    for (int i = 0; i < L->in * L->out; i++) L->W[i] = nnt_rng_bernoulli(r, p) ? nnt_rng_uniform(r) * 2 - 1 : 0;
    for (int o = 0; o < L->out; o++) L->b[o] = nnt_rng_uniform(r) - 0.5;
  }
}

/* Y of the sparse batch equals nnt_mlp_forward row by row, exactly. */
static long mismatches(const nnt_mlp *d, const nnt_smlp *s, int B, const double *X) {
  int in = nnt_mlp_input_dim(d), out = nnt_mlp_output_dim(d);
  double *Y = nnt_xmalloc(sizeof(double) * (size_t)B * out), *y = nnt_xmalloc(sizeof(double) * (size_t)out);
  nnt_smlp_forward_batch(s, B, X, Y);
  long bad = 0;
  for (int b = 0; b < B; b++) {
    nnt_mlp_forward(d, X + (size_t)b * in, y);
    for (int j = 0; j < out; j++) bad += y[j] != Y[(size_t)b * out + j];
  }
  free(Y), free(y);
  return bad;
}

static void test_forward(void) {
  nnt_rng r;
  nnt_rng_init(&r, 11, 0);
  static const double dens[] = {1.0, 0.3, 0.05, 0.01};
  static const int Bs[] = {1, 255, 256, 257, 600};
  for (int t = 0; t < 8; t++) {
    int widths[6] = {7, 40 + t * 13, 1, 90, 25, 5};
    nnt_mlp d;
    random_net(&d, &r, 5, widths, dens[t % 4]);
    nnt_smlp s;
    nnt_smlp_from_dense(&s, &d);
    int B = Bs[t % 5];
    double *X = nnt_xmalloc(sizeof(double) * (size_t)B * 7);
    nnt_rng_fill_normal_f64(&r, X, (size_t)B * 7, 0, 2);
    CHECK_MSG(mismatches(&d, &s, B, X) == 0, "net %d, B = %d", t, B);
    /* stats as the dense ones, bit for bit */
    nnt_mlp_stats a = nnt_mlp_stats_of(&d), b = nnt_smlp_stats_of(&s);
    CHECK(a.params == b.params && a.nonzero_params == b.nonzero_params && a.l1_norm == b.l1_norm && a.max_abs == b.max_abs &&
          a.hidden_units == b.hidden_units && a.max_width == b.max_width && a.layers == b.layers);
    /* back to dense: the same matrices */
    nnt_mlp d2;
    nnt_smlp_to_dense(&d2, &s);
    for (int l = 0; l < d.nlayers; l++)
      CHECK(!memcmp(d.layers[l].W, d2.layers[l].W, sizeof(double) * (size_t)d.layers[l].in * d.layers[l].out) &&
            !memcmp(d.layers[l].b, d2.layers[l].b, sizeof(double) * (size_t)d.layers[l].out) && d.layers[l].act == d2.layers[l].act);
    /* fault: one stored weight of the output layer changed by one ulp must show in some output */
    if (t == 2) {
      nnt_smlp_layer *L = &s.layers[4];
      CHECK(L->nnz > 0);
      L->val[0] = nextafter(L->val[0], 2.0);
      CHECK(mismatches(&d, &s, B, X) > 0);
    }
    free(X);
    nnt_mlp_free(&d), nnt_mlp_free(&d2), nnt_smlp_free(&s);
  }
}

/* Triplets in random order with duplicates and cancelling pairs = dense accumulation. */
static void test_coo(void) {
  nnt_rng r;
  nnt_rng_init(&r, 12, 0);
  enum { IN = 30, OUT = 20, N = 400 };
  int row[N], col[N];
  double val[N], W[OUT * IN] = {0}, b[OUT];
  for (int i = 0; i < N - 2; i++) {
    row[i] = (int)nnt_rng_below(&r, OUT), col[i] = (int)nnt_rng_below(&r, IN / 3); /* many repeats */
    val[i] = (double)((int)nnt_rng_below(&r, 7) - 3);
    W[row[i] * IN + col[i]] += val[i];
  }
  row[N - 2] = row[N - 1] = 4, col[N - 2] = col[N - 1] = 29, val[N - 2] = 2, val[N - 1] = -2; /* cancels: not stored */
  for (int o = 0; o < OUT; o++) b[o] = o - 10;
  nnt_smlp s;
  nnt_smlp_init(&s);
  nnt_smlp_layer *L = nnt_smlp_add_coo(&s, IN, OUT, NNT_ACT_RELU, N, row, col, val, b);
  long nz = 0;
  for (int i = 0; i < OUT * IN; i++) nz += W[i] != 0;
  CHECK(L->nnz == nz);
  for (int o = 0; o < OUT; o++)
    for (long e = L->row_start[o]; e < L->row_start[o + 1]; e++) CHECK(e == L->row_start[o] || L->col[e] > L->col[e - 1]);
  nnt_mlp d;
  nnt_smlp_to_dense(&d, &s);
  CHECK(!memcmp(d.layers[0].W, W, sizeof W) && !memcmp(d.layers[0].b, b, sizeof b));
  nnt_mlp_free(&d), nnt_smlp_free(&s);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void test_files(void) {
  nnt_rng r;
  nnt_rng_init(&r, 13, 0);
  int widths[4] = {6, 50, 30, 4};
  nnt_mlp d;
  random_net(&d, &r, 3, widths, 0.1);
  nnt_smlp s, back;
  nnt_smlp_from_dense(&s, &d);
  char path[] = "/tmp/nnt_test_smlp_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  /* sparse -> file -> sparse: every array bit for bit */
  CHECK(nnt_smlp_save(&s, path) == NNT_OK);
  CHECK(nnt_smlp_load(path, &back) == NNT_OK);
  CHECK(back.nlayers == s.nlayers);
  for (int l = 0; l < s.nlayers; l++) {
    const nnt_smlp_layer *A = &s.layers[l], *B = &back.layers[l];
    CHECK(A->in == B->in && A->out == B->out && A->act == B->act && A->nnz == B->nnz);
    CHECK(!memcmp(A->row_start, B->row_start, sizeof(long) * ((size_t)A->out + 1)) &&
          !memcmp(A->col, B->col, sizeof(int) * (size_t)A->nnz) && !memcmp(A->val, B->val, sizeof(double) * (size_t)A->nnz) &&
          !memcmp(A->b, B->b, sizeof(double) * (size_t)A->out));
  }
  nnt_smlp_free(&back);
  /* the dense loader reads the sparse file; the sparse loader reads a dense file */
  nnt_mlp dd;
  CHECK(nnt_mlp_load(path, &dd) == NNT_OK);
  for (int l = 0; l < d.nlayers; l++)
    CHECK(!memcmp(d.layers[l].W, dd.layers[l].W, sizeof(double) * (size_t)d.layers[l].in * d.layers[l].out));
  nnt_mlp_free(&dd);
  CHECK(nnt_mlp_save(&d, path) == NNT_OK);
  CHECK(nnt_smlp_load(path, &back) == NNT_OK);
  double X[6 * 10];
  nnt_rng_fill_normal_f64(&r, X, 60, 0, 1);
  CHECK(mismatches(&d, &back, 10, X) == 0);
  nnt_smlp_free(&back);

#define HEAD "{\"format\":\"nnt-mlp-sparse\",\"version\":1,\"layers\":[{\"activation\":\"relu\",\"in\":3,\"out\":2,"
  static const struct {
    const char *text, *msg;
  } bad[] = {
      {HEAD "\"row_start\":[0,2,3],\"col\":[0,2,1],\"val\":[1,-1,2],\"b\":[0,1]},"
            "{\"activation\":\"identity\",\"in\":3,\"out\":1,\"row_start\":[0,0],\"col\":[],\"val\":[],\"b\":[0]}]}",
       "layers[1].in is 3, the previous layer has 2 outputs"},
      {HEAD "\"row_start\":[0,3,2],\"col\":[0,2,1],\"val\":[1,-1,2],\"b\":[0,1]}]}", "layers[0].row_start[2]"},
      {HEAD "\"row_start\":[0,2,3],\"col\":[0,2,1],\"val\":[1,-1,2],\"b\":[0,1,2]}]}", "layers[0].b must hold 2"},
      {HEAD "\"row_start\":[0,2,3],\"col\":[0,3,1],\"val\":[1,-1,2],\"b\":[0,1]}]}", "layers[0].col[1]: must be in 0..2"},
      {HEAD "\"row_start\":[0,2,3],\"col\":[2,0,1],\"val\":[1,-1,2],\"b\":[0,1]}]}", "layers[0].col[1]: columns must increase"},
      {HEAD "\"row_start\":[0,2,3],\"col\":[0,2,1],\"val\":[1,0,2],\"b\":[0,1]}]}", "layers[0].val[1]: stored values must be non-zero"},
      {HEAD "\"row_start\":[0,2,3],\"col\":[0,2,1],\"val\":[1,2],\"b\":[0,1]}]}", "layers[0].val must hold 3"},
      {HEAD "\"row_start\":[0,2,4],\"col\":[0,2,1],\"val\":[1,-1,2],\"b\":[0,1]}]}", "layers[0].row_start[2]"},
      {HEAD "\"row_start\":[0,2],\"col\":[0,2,1],\"val\":[1,-1,2],\"b\":[0,1]}]}", "layers[0].row_start must hold 3"},
      {"{\"format\":\"nnt-mlp-sparse\",\"version\":1,\"layers\":[{\"activation\":\"relu\",\"in\":0,\"out\":2}]}", ".in and .out"},
      {"{\"format\":\"nnt-mlp-sparse\",\"version\":2,\"layers\":[]}", "version"},
      {"{\"format\":\"mlp\",\"version\":1,\"layers\":[]}", "\"format\" must be"},
      {"{\"format\":\"nnt-mlp-sparse\",\n\"version\":1,", "malformed"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_text(path, bad[i].text);
    int st = nnt_smlp_load(path, &back);
    CHECK_MSG(st == NNT_EFORMAT && strstr(nnt_errmsg(), path) && strstr(nnt_errmsg(), bad[i].msg), "case %zu: %d %s", i, st,
              nnt_errmsg());
    nnt_mlp m2;
    CHECK(nnt_mlp_load(path, &m2) == NNT_EFORMAT); /* through the dense loader as well */
  }
  /* the well-formed one of the cases above (first layer alone) loads */
  write_text(path, HEAD "\"row_start\":[0,2,3],\"col\":[0,2,1],\"val\":[1,-1,2],\"b\":[0,1]}]}");
  CHECK(nnt_smlp_load(path, &back) == NNT_OK);
  double x[3] = {1, 2, 3}, y[2];
  nnt_smlp_forward_batch(&back, 1, x, y);
  CHECK(y[0] == 0 && y[1] == 5); /* relu(1 - 3) , relu(2*2 + 1) */
  nnt_smlp_free(&back);
  /* 100 bytes declaring a 1 x 10^9 layer (found by fuzz/fuzz_core_mlp): the sparse loader takes
   * it, the dense one refuses it with a line instead of allocating 8 GB */
  write_text(path, "{\"format\":\"nnt-mlp-sparse\",\"version\":1,\"layers\":[{\"activation\":\"relu\",\"in\":1000000000,"
                   "\"out\":1,\"row_start\":[0,0],\"col\":[],\"val\":[],\"b\":[0]}]}");
  CHECK(nnt_smlp_load(path, &back) == NNT_OK && back.layers[0].in == 1000000000);
  nnt_smlp_free(&back);
  nnt_mlp m3;
  CHECK(nnt_mlp_load(path, &m3) == NNT_EFORMAT && strstr(nnt_errmsg(), "layers[0] is 1 x 1000000000, too large for a dense network"));
  remove(path);
  nnt_mlp_free(&d), nnt_smlp_free(&s);
}

int main(void) {
  test_forward();
  test_coo();
  test_files();
  TEST_MAIN_END();
}
