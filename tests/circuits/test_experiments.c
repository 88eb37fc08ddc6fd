/* The circuit experiments run from their configs: verify, margin (one circuit and the depth sweep)
 * and learn, including learn's resume after an interruption, checked against direct evaluation,
 * each other and an uninterrupted run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_test.h"

static char dir[] = "/tmp/nnt_test_circuits_XXXXXX";

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void test_verify(const char *fa) {
  nnt_circuit_verify_cfg cfg;
  nnt_circuit_verify_cfg_default(&cfg, 0);
  cfg.file = fa, cfg.correct = 1;
  nnt_circuit_verify_result r;
  CHECK(nnt_circuit_verify_run(&cfg, &r) == 0);
  CHECK(r.counts.exhaustive && r.counts.checked == 8 && r.counts.mismatches == 0);
  nnt_mlp net; /* the dense form, for the single-input forward and the margins */
  nnt_smlp_to_dense(&net, &r.net);
  /* the net's outputs are the circuit's bits on every input (direct evaluation here) */
  for (int v = 0; v < 8; v++) {
    uint8_t xb[3], yb[2];
    double x[3], y[2];
    for (int i = 0; i < 3; i++) xb[i] = (v >> i) & 1, x[i] = xb[i];
    nnt_circuit_eval(&r.c, xb, yb);
    nnt_mlp_forward(&net, x, y);
    CHECK(y[0] == yb[0] && y[1] == yb[1]);
  }
  /* the certified margin: the smallest bound over all 8 inputs and both outputs, each read z -> 2z - 1 */
  long count;
  double cert = nnt_circuit_margin_certified(&net, 3, 1, &count), ref = INFINITY;
  for (int j = 0; j < 2; j++) {
    nnt_mlp h;
    nnt_mlp_init(&h);
    nnt_mlp_copy(&h, &net);
    nnt_mlp_layer *H = nnt_mlp_add(&h, 2, 1, NNT_ACT_IDENTITY);
    H->W[j] = 2, H->b[0] = -1;
    for (int v = 0; v < 8; v++) {
      double x[3] = {v & 1, (v >> 1) & 1, (v >> 2) & 1};
      int y = j ? (v == 3 || v >= 5) : __builtin_popcount(v) & 1; /* carry, sum */
      double g = nnt_circuit_margin_lower(&h, x, 0, y);
      ref = g < ref ? g : ref;
    }
    nnt_mlp_free(&h);
  }
  CHECK(count == 8 && cert == ref && cert > 0);
  CHECK(nnt_circuit_net_lambda(&net, 3, 1) >= sqrt(3)); /* the input 111 itself */
  nnt_mlp_free(&net);
  nnt_circuit_verify_result_free(&r);
  cfg.file = "/nonexistent.bench";
  CHECK(nnt_circuit_verify_run(&cfg, &r) == NNT_EIO);
}

static double median_ref(const double *v, int n) {
  double *w = malloc(sizeof(double) * (size_t)n);
  memcpy(w, v, sizeof(double) * (size_t)n);
  qsort(w, (size_t)n, sizeof(double), cmp_double);
  double m = n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
  free(w);
  return m;
}

static void test_margin_file(const char *fa) {
  nnt_circuit_margin_cfg cfg;
  nnt_circuit_margin_cfg_default(&cfg, 1);
  cfg.file = fa, cfg.inputs = 8, cfg.output = 1; /* the carry */
  nnt_circuit_margin_result r;
  CHECK(nnt_circuit_margin_run(&cfg, &r) == 0);
  CHECK(r.n == 8 && r.nkinds == 2 && r.ninputs == 3);
  int seen = 0;
  double rho[2][8];
  for (int v = 0; v < r.n; v++) {
    const uint8_t *x = r.x + v * 3;
    seen |= 1 << (x[0] | x[1] << 1 | x[2] << 2);
    int carry = (x[0] & x[1]) | (x[2] & (x[0] ^ x[1]));
    CHECK(r.label[v] == carry);
    for (int k = 0; k < 2; k++) {
      const nnt_circuit_margin_est *e = &r.est[v * 2 + k];
      CHECK(e->output == 2 * carry - 1); /* the readout z -> 2z - 1 of an exact net */
      CHECK_MSG(r.lower[v * 2 + k] > 0 && r.lower[v * 2 + k] <= e->rho, "lower %g, upper %g", r.lower[v * 2 + k], e->rho);
      rho[k][v] = e->rho;
    }
  }
  CHECK(seen == 0xff); /* 2^3 <= inputs: every input once */
  for (int k = 0; k < 2; k++) {
    CHECK(r.rho_med[k] == median_ref(rho[k], 8));
    CHECK(r.rho_min[k] <= r.rho_med[k] && r.rho_med[k] <= r.rho_max[k]);
  }
  nnt_circuit_margin_result_free(&r);
  cfg.output = 2;
  CHECK(nnt_circuit_margin_run(&cfg, &r) == NNT_EINVAL);
}

/* The chain of ID gates (Claim 3.5): the identity, so the label is the input; without corrections
 * the margin falls with depth. Summaries agree with the rows. */
static void test_margin_sweep(void) {
  nnt_circuit_margin_cfg cfg;
  nnt_circuit_margin_cfg_default(&cfg, 1);
  cfg.ndepths = 3, cfg.depths[0] = 1, cfg.depths[1] = 4, cfg.depths[2] = 16;
  nnt_circuit_margin_sweep_result r;
  CHECK(nnt_circuit_margin_sweep_run(&cfg, &r) == 0);
  CHECK(r.ndepths == 3 && r.circuits == 1 && r.inputs == 2 && r.nrows == 3 * 2 * 2);
  for (int i = 0; i < r.nrows; i++) {
    const nnt_circuit_margin_row *w = &r.rows[i];
    CHECK(w->label == w->input && w->depth == cfg.depths[i / 4] && w->kind == i % 2);
    CHECK(w->lower > 0 && w->lower <= w->rho);
  }
  for (int d = 0; d < 3; d++)
    for (int k = 0; k < 2; k++) {
      double v[2] = {r.rows[d * 4 + k].rho, r.rows[d * 4 + 2 + k].rho};
      CHECK(r.med[k][d] == median_ref(v, 2));
    }
  CHECK_MSG(r.med[0][2] < r.med[0][0], "uncorrected margin %g at depth 16, %g at depth 1", r.med[0][2], r.med[0][0]);
  nnt_circuit_margin_sweep_result_free(&r);
  cfg.depths[1] = 0;
  CHECK(nnt_circuit_margin_sweep_run(&cfg, &r) == NNT_EINVAL);
}

static int same_net(const nnt_mlp *a, const nnt_mlp *b) {
  if (a->nlayers != b->nlayers) return 0;
  for (int l = 0; l < a->nlayers; l++) {
    const nnt_mlp_layer *x = &a->layers[l], *y = &b->layers[l];
    if (x->in != y->in || x->out != y->out || memcmp(x->W, y->W, sizeof(double) * (size_t)x->in * x->out) ||
        memcmp(x->b, y->b, sizeof(double) * (size_t)x->out))
      return 0;
  }
  return 1;
}

static int same_result(const nnt_circuit_learn_result *a, const nnt_circuit_learn_result *b, int nw) {
  if (a->npoints != b->npoints || a->nneed != b->nneed) return 0;
  for (int i = 0; i < a->npoints; i++) {
    const nnt_circuit_learn_point *p = &a->points[i], *q = &b->points[i];
    if (p->width != q->width || p->n != q->n || p->test_err != q->test_err || p->train_err != q->train_err ||
        p->train_loss != q->train_loss)
      return 0;
  }
  for (int wi = 0; wi < nw; wi++)
    if (!same_net(&a->trained[wi], &b->trained[wi])) return 0;
  return 1;
}

/* A learn run stopped part-way (as a kill would) and resumed from its checkpoints ends bit for bit
 * where an uninterrupted run ends; a second resume reads every point back. */
static void test_learn_resume(const char *fa) {
  nnt_circuit_learn_cfg cfg;
  nnt_circuit_learn_cfg_default(&cfg, 1);
  cfg.file = fa, cfg.bit = 1;
  cfg.nwidths = 2, cfg.widths[0] = 1, cfg.widths[1] = 2;
  cfg.nns = 2, cfg.ns[0] = 16, cfg.ns[1] = 64;
  cfg.steps = 60, cfg.ntest = 64, cfg.ckpt_every = 25;
  nnt_circuit_learn_result ref, got;
  CHECK(nnt_circuit_learn_run(&cfg, &ref) == 0);
  CHECK(ref.npoints == 4 && !ref.stopped && !ref.resumed);
  CHECK(ref.points[0].width == ref.r && ref.points[2].width == 2 * ref.r);
  for (int i = 0; i < 4; i++) CHECK(ref.err[i] == ref.points[i].test_err); /* one rep: the mean is the point */
  for (int i = 0; i < ref.nneed; i++) CHECK(ref.need_w[i] == ref.r || ref.need_w[i] == 2 * ref.r);

  char ck[300];
  snprintf(ck, sizeof ck, "%s/ckpt", dir);
  cfg.ckpt_dir = ck;
  cfg.stop_at = 100; /* point 1 done (60 steps), point 2 stopped at 40 with a checkpoint at 25 */
  CHECK(nnt_circuit_learn_run(&cfg, &got) == 0);
  CHECK(got.stopped && got.npoints == 1);
  nnt_circuit_learn_result_free(&got);
  cfg.stop_at = 0, cfg.resume = 1;
  CHECK(nnt_circuit_learn_run(&cfg, &got) == 0);
  CHECK(got.resumed == 1 && !got.stopped);
  CHECK(same_result(&ref, &got, 2));
  nnt_circuit_learn_result_free(&got);
  CHECK(nnt_circuit_learn_run(&cfg, &got) == 0);
  CHECK(got.resumed == 4 && same_result(&ref, &got, 2));
  nnt_circuit_learn_result_free(&got);
  cfg.steps = 61; /* other settings: the checkpoints are refused */
  CHECK(nnt_circuit_learn_run(&cfg, &got) == NNT_EINVAL);
  nnt_circuit_learn_result_free(&ref);
}

int main(void) {
  CHECK(mkdtemp(dir) != NULL);
  char fa[256];
  snprintf(fa, sizeof fa, "%s/fa.bench", dir);
  write_file(fa, "INPUT(a)\nINPUT(b)\nINPUT(c)\nOUTPUT(s)\nOUTPUT(co)\nt = XOR(a, b)\ns = XOR(t, c)\n"
                 "u = AND(a, b)\nv = AND(t, c)\nco = OR(u, v)\n");
  test_verify(fa);
  test_margin_file(fa);
  test_margin_sweep();
  test_learn_resume(fa);
  TEST_MAIN_END();
}
