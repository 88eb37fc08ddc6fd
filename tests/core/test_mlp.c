/* nnt_mlp: forward against hand-computed values, batch path against the single path, counts,
 * JSON round trip, and malformed files rejected with a message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_mlp.h"
#include "nnt_rng.h"
#include "nnt_test.h"

int main(void) {
  /* |x| = relu(x) + relu(-x) */
  nnt_mlp m;
  nnt_mlp_init(&m);
  nnt_mlp_layer *L = nnt_mlp_add(&m, 1, 2, NNT_ACT_RELU);
  L->W[0] = 1, L->W[1] = -1;
  L = nnt_mlp_add(&m, 2, 1, NNT_ACT_IDENTITY);
  L->W[0] = 1, L->W[1] = 1, L->b[0] = 0.5;
  double x = -3, y;
  nnt_mlp_forward(&m, &x, &y);
  CHECK_CLOSE(y, 3.5, 1e-15);
  nnt_mlp_stats s = nnt_mlp_stats_of(&m);
  CHECK(s.layers == 2 && s.hidden_units == 2 && s.params == 7 && s.nonzero_params == 5);
  CHECK_CLOSE(s.l1_norm, 4.5, 1e-15);

  /* random deep net: batch == single */
  nnt_rng r;
  nnt_rng_init(&r, 3, 0);
  nnt_mlp d;
  nnt_mlp_init(&d);
  int widths[] = {5, 60, 1, 40, 3};
  for (int l = 0; l < 4; l++) {
    nnt_mlp_layer *Ld = nnt_mlp_add(&d, widths[l], widths[l + 1], l < 3 ? NNT_ACT_RELU : NNT_ACT_IDENTITY);
    nnt_rng_fill_normal_f64(&r, Ld->W, (size_t)Ld->in * Ld->out, 0, 1);
    nnt_rng_fill_normal_f64(&r, Ld->b, (size_t)Ld->out, 0, 1);
  }
  enum { B = 50 };
  double X[B * 5], Y[B * 3], y1[3];
  nnt_rng_fill_normal_f64(&r, X, B * 5, 0, 1);
  nnt_mlp_forward_batch(&d, B, X, Y);
  double err = 0;
  for (int b = 0; b < B; b++) {
    nnt_mlp_forward(&d, X + 5 * b, y1);
    for (int k = 0; k < 3; k++) err = fmax(err, fabs(y1[k] - Y[3 * b + k]));
  }
  CHECK(err < 1e-10);

  /* a batch wider than the activation cap runs in chunks of rows: still == single */
  nnt_mlp wide;
  nnt_mlp_init(&wide);
  nnt_mlp_layer *Lw = nnt_mlp_add(&wide, 2, 10000, NNT_ACT_RELU);
  nnt_rng_fill_normal_f64(&r, Lw->W, 20000, 0, 1), nnt_rng_fill_normal_f64(&r, Lw->b, 10000, 0, 1);
  Lw = nnt_mlp_add(&wide, 10000, 1, NNT_ACT_IDENTITY);
  nnt_rng_fill_normal_f64(&r, Lw->W, 10000, 0, 1e-2);
  enum { BW = 500 }; /* 5e6 activations > the 2^22 cap: two chunks */
  double *XW = malloc(sizeof(double) * BW * 2), *YW = malloc(sizeof(double) * BW);
  nnt_rng_fill_normal_f64(&r, XW, BW * 2, 0, 1);
  nnt_mlp_forward_batch(&wide, BW, XW, YW);
  err = 0;
  for (int b = 0; b < BW; b++) {
    nnt_mlp_forward(&wide, XW + 2 * b, y1);
    err = fmax(err, fabs(y1[0] - YW[b]));
  }
  CHECK_MSG(err < 1e-10, "chunked batch differs from single by %g", err);
  free(XW), free(YW), nnt_mlp_free(&wide);

  char path[] = "/tmp/nnt_test_mlp_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(nnt_mlp_save(&d, path) == NNT_OK);
  nnt_mlp back;
  CHECK(nnt_mlp_load(path, &back) == NNT_OK);
  nnt_mlp_forward(&back, X, y1);
  double y0[3];
  nnt_mlp_forward(&d, X, y0);
  for (int k = 0; k < 3; k++) CHECK(y0[k] == y1[k]); /* %.17g round trip is exact */
  nnt_mlp_free(&back);

  static const char *bad[] = {
      "{\"format\":\"nnt-mlp\",\"version\":1,\"layers\":[{\"activation\":\"relu\",\"W\":[[1,2]],\"b\":[0]},"
      "{\"activation\":\"identity\",\"W\":[[1,2]],\"b\":[0]}]}",
      "{\"format\":\"nnt-mlp\",\"version\":1,\"layers\":[{\"activation\":\"swish\",\"W\":[[1]],\"b\":[0]}]}",
      "{\"format\":\"nnt-mlp\",\"version\":1,\"layers\":[{\"activation\":\"relu\",\"W\":[[1]],\"b\":[0,1]}]}",
      "{\"format\":\"other\",\"version\":1,\"layers\":[]}",
      "{\"format\":\"nnt-mlp\",\"version\":1,\"layers\":[{\"activation\":\"relu\",\"W\":[[1,\"a\"]],\"b\":[0]}]}",
      "{\"format\":\"nnt-mlp\",\n\"version\":1,",
  };
  for (int i = 0; i < 6; i++) {
    FILE *f = fopen(path, "w");
    fputs(bad[i], f);
    fclose(f);
    int st = nnt_mlp_load(path, &back);
    CHECK_MSG(st == NNT_EFORMAT && strstr(nnt_errmsg(), path), "case %d: %d %s", i, st, nnt_errmsg());
  }
  remove(path);
  nnt_mlp_free(&m);
  nnt_mlp_free(&d);
  TEST_MAIN_END();
}
