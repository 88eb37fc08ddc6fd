/* Training the GPT-2 in-context learner: the loss falls (the micro preset's: tests.cmake), a run
 * stopped at a checkpoint and resumed (at another thread count) ends with the same checkpoint
 * bytes as an uninterrupted one, the checkpoint loads for prediction, and bad checkpoints, other
 * configs and a diverging loss are refused without touching the last checkpoint. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnt_blas.h"
#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "nnt_icl_gpt.h"
#include "nnt_test.h"

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc(*n ? *n : 1);
  if (fread(b, 1, *n, f) != *n) *n = 0;
  fclose(f);
  return b;
}

static int same_file(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  char *x = slurp(a, &na), *y = slurp(b, &nb);
  int same = x && y && na == nb && na > 0 && !memcmp(x, y, na);
  free(x), free(y);
  return same;
}

static char root[] = "/tmp/nnt-icl-train-XXXXXX";

static const char *sub(const char *name) {
  static char buf[4][256];
  static int k;
  char *p = buf[k++ % 4];
  snprintf(p, 256, "%s/%s", root, name);
  mkdir(p, 0755);
  return p;
}

/* Smaller than the micro preset, so that the test stays fast at every kernel level (the generic
 * level's exact FMA runs at ~1 GFLOP/s); the micro preset itself is trained by the CLI tests. */
static void tiny(nnt_icl_train_cfg *c, nnt_attn_score attn, long long steps) {
  nnt_icl_train_cfg_default(c, NNT_ICL_PRESET_MICRO);
  c->arch.attn = attn;
  c->arch.n_embd = 16, c->arch.n_layer = 1, c->arch.n_head = 2, c->arch.n_pos = 24;
  c->task.n = 10, c->batch = 8;
  c->steps = steps, c->ckpt_every = 20, c->log_every = 10;
}
#define micro(c, steps) tiny(c, NNT_ATTN_SOFTMAX, steps)

static void test_loss_falls(nnt_attn_score attn) {
  nnt_icl_train_cfg c;
  tiny(&c, attn, 150);
  nnt_icl_train_result r;
  CHECK(nnt_icl_train_run(&c, sub(attn ? "fall-relu" : "fall-softmax"), 0, &r) == NNT_OK);
  CHECK(r.nlog == 15);
  double first = (r.log_loss[0] + r.log_loss[1] + r.log_loss[2]) / 3;
  double last = (r.log_loss[12] + r.log_loss[13] + r.log_loss[14]) / 3;
  CHECK_MSG(last < 0.6 * first, "%s: loss %.3f over the first 30 steps, %.3f over the last 30", nnt_icl_attn_names[attn],
            first, last);
  nnt_icl_train_result_free(&r);
}

static void test_resume(void) {
  nnt_icl_train_cfg c;
  nnt_icl_train_result r, r2;
  micro(&c, 60);
  const char *A = sub("whole"), *B = sub("stopped");
  nnt_threads_set(1);
  CHECK(nnt_icl_train_run(&c, A, 0, &r) == NNT_OK);
  micro(&c, 40);
  CHECK(nnt_icl_train_run(&c, B, 0, &r2) == NNT_OK);
  nnt_icl_train_result_free(&r2);
  micro(&c, 60);
  nnt_threads_set(2);
  CHECK(nnt_icl_train_run(&c, B, 1, &r2) == NNT_OK);
  nnt_threads_set(1);
  CHECK(r2.first_step == 40 && r2.nlog == r.nlog);
  for (int i = 0; i < r.nlog && i < r2.nlog; i++)
    CHECK_MSG(r.log_loss[i] == r2.log_loss[i] && r.log_step[i] == r2.log_step[i], "row %d: %lld %.17g vs %lld %.17g", i,
              r.log_step[i], r.log_loss[i], r2.log_step[i], r2.log_loss[i]);
  char pa[300], pb[300];
  snprintf(pa, sizeof pa, "%s/model.ckpt", A), snprintf(pb, sizeof pb, "%s/model.ckpt", B);
  CHECK_MSG(same_file(pa, pb), "the resumed run's checkpoint differs from the uninterrupted run's");
  nnt_icl_train_result_free(&r2);
  /* resuming a finished run is a no-op that reports the same log */
  CHECK(nnt_icl_train_run(&c, B, 1, &r2) == NNT_OK && r2.first_step == 60 && r2.nlog == r.nlog);
  nnt_icl_train_result_free(&r2);

  /* the checkpoint loads for prediction */
  nnt_icl_gpt *m = NULL;
  CHECK(nnt_icl_gpt_load(pa, &m) == NNT_OK);
  if (m) {
    const nnt_icl_task *t = nnt_icl_gpt_task(m);
    CHECK(t->d == c.task.d && t->n == c.task.n && t->depth == 3 && nnt_icl_gpt_arch_of(m)->n_pos == c.arch.n_pos);
    int n = c.arch.n_pos / 2, d = t->d; /* the longest prompt the slots allow */
    float *xs = calloc((size_t)2 * n * d, sizeof(float)), *ys = calloc(2 * n, sizeof(float)), *p = calloc(2 * n, sizeof(float));
    CHECK(nnt_icl_gpt_predict(m, xs, ys, 2, n, p) == NNT_OK && isfinite(p[2 * n - 1]));
    CHECK(nnt_icl_gpt_predict(m, xs, ys, 2, n + 1, p) == NNT_EINVAL);
    free(xs), free(ys), free(p);
    nnt_icl_gpt_free(m);
  }

  /* another config (lr, depth) is refused; the file is left as it was */
  micro(&c, 80);
  c.lr *= 2;
  CHECK(nnt_icl_train_run(&c, B, 1, &r2) == NNT_EINVAL);
  micro(&c, 80);
  c.task.depth = 4;
  CHECK(nnt_icl_train_run(&c, B, 1, &r2) == NNT_EINVAL);
  CHECK(same_file(pa, pb));

  /* a truncated checkpoint: load and resume refuse it (one line, EFORMAT) */
  size_t n;
  char *bytes = slurp(pb, &n);
  char pt[300];
  snprintf(pt, sizeof pt, "%s/model.ckpt", sub("truncated"));
  FILE *f = fopen(pt, "wb");
  fwrite(bytes, 1, n - 100, f), fclose(f), free(bytes);
  CHECK(nnt_icl_gpt_load(pt, &m) == NNT_EFORMAT && !m);
  micro(&c, 60);
  CHECK(nnt_icl_train_run(&c, sub("truncated"), 1, &r2) == NNT_EFORMAT);
  CHECK(strstr(nnt_errmsg(), "model.ckpt") != NULL);
  nnt_icl_train_result_free(&r);
}

/* A learning rate that blows the model up: NNT_ENUMERIC at the first non-finite loss or
 * gradient, and the checkpoint of the step before stays loadable. */
static void test_nan(void) {
  nnt_icl_train_cfg c;
  micro(&c, 50);
  c.lr = 1e9, c.ckpt_every = 1, c.log_every = 1;
  nnt_icl_train_result r;
  const char *D = sub("nan");
  CHECK(nnt_icl_train_run(&c, D, 0, &r) == NNT_ENUMERIC);
  CHECK(strstr(nnt_errmsg(), "non-finite loss") != NULL || strstr(nnt_errmsg(), "non-finite gradient") != NULL);
  char p[300];
  snprintf(p, sizeof p, "%s/model.ckpt", D);
  nnt_icl_gpt *m = NULL;
  CHECK(nnt_icl_gpt_load(p, &m) == NNT_OK);
  nnt_icl_gpt_free(m);
}

/* Checkpoint metadata that is JSON but not a config nnt icl train writes: refused with one line
 * (found by fuzz/fuzz_icl_meta: a count beyond int was cast, undefined behaviour). */
static void test_bad_meta(void) {
  static const char *good = "{\"arch\":{\"d\":5,\"n_embd\":16,\"n_layer\":2,\"n_head\":2,\"n_pos\":80,\"attn\":\"softmax\","
                            "\"relu_norm\":\"visible\"},\"task\":{\"d\":5,\"n\":20,\"depth\":3,\"width\":32,\"w_mean\":0,"
                            "\"w_std\":0,\"y_scale\":1,\"mix2\":0,\"mu\":2},\"train\":{\"batch\":16,\"steps\":400,"
                            "\"lr\":0.001,\"seed\":\"1\",\"log_every\":10},\"log\":{\"step\":[10,20],\"loss\":[1.5,0.75],"
                            "\"wsum\":0.25,\"wcount\":2}}";
  static const char *const edits[][2] = {{"\"n_head\":2,", "\"n_head\":222222222222222222222222222222222222222222222222222222222222222,"},
                                         {"\"n_embd\":16", "\"n_embd\":16.5"},
                                         {"\"steps\":400", "\"steps\":1e300"},
                                         {"[10,20]", "[10,1e300]"},
                                         {"[1.5,0.75]", "[1.5,\"x\"]"},
                                         {"\"seed\":\"1\"", "\"seed\":\"x1\""},
                                         {"\"softmax\"", "\"re,u\""}};
  char p[300], meta[2048];
  snprintf(p, sizeof p, "%s/model.ckpt", sub("bad-meta"));
  nnt_params P;
  nnt_params_init(&P);
  nnt_icl_gpt *m = NULL;
  /* the unedited text passes the metadata and fails on the (absent) tensors */
  CHECK(nnt_ckpt_save(p, "icl-gpt2", &P, NULL, 0, good) == NNT_OK);
  CHECK(nnt_icl_gpt_load(p, &m) == NNT_EFORMAT && !m && strstr(nnt_errmsg(), "0 tensors"));
  for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
    const char *at = strstr(good, edits[i][0]);
    CHECK(at != NULL);
    snprintf(meta, sizeof meta, "%.*s%s%s", (int)(at - good), good, edits[i][1], at + strlen(edits[i][0]));
    CHECK(nnt_ckpt_save(p, "icl-gpt2", &P, NULL, 0, meta) == NNT_OK);
    CHECK_MSG(nnt_icl_gpt_load(p, &m) == NNT_EFORMAT && !m && strstr(nnt_errmsg(), "not a checkpoint of nnt icl train"),
              "edit %zu: %s", i, nnt_errmsg());
  }
  /* a config of the right form that nnt icl train refuses: the reason, once, after the path */
  const char *at = strstr(good, "\"n_head\":2,");
  snprintf(meta, sizeof meta, "%.*s\"n_head\":3,%s", (int)(at - good), good, at + strlen("\"n_head\":2,"));
  CHECK(nnt_ckpt_save(p, "icl-gpt2", &P, NULL, 0, meta) == NNT_OK);
  CHECK(nnt_icl_gpt_load(p, &m) == NNT_EFORMAT);
  CHECK_MSG(strstr(nnt_errmsg(), "model.ckpt: its config is invalid (") && !strstr(nnt_errmsg(), "invalid (/"), "%s", nnt_errmsg());
  nnt_params_free(&P);
}

int main(void) {
  if (!mkdtemp(root)) return 1;
  test_bad_meta();
  nnt_threads_set(1);
  test_loss_falls(NNT_ATTN_SOFTMAX);
  test_loss_falls(NNT_ATTN_RELU);
  test_resume();
  test_nan();
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", root);
  TEST_MAIN_END();
}
