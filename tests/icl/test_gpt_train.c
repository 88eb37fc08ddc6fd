/* Training the GPT-2 in-context learner: the loss falls (the micro preset's: tests.cmake), a run
 * stopped at a checkpoint and resumed (at another thread count) ends with the same checkpoint
 * bytes as an uninterrupted one, with and without the curriculum, the checkpoint loads for
 * prediction, and bad checkpoints, other configs and a diverging loss are refused without
 * touching the last checkpoint. The curriculum: its schedule against Garg et al.'s update rule
 * (simulated step by step), and a run against a hand-written training loop that applies the
 * schedule step by step (the same losses, bit for bit). Format-1 checkpoint metadata still loads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnt_blas.h"
#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "gpt_impl.h"
#include "nnt_icl_gpt.h"
#include "nnt_optim.h"
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

/* Garg et al.'s Curriculum (src/curriculum.py) as they run it: the value used at step i is the
 * value after i updates, an update adding inc when the updated step count is a multiple of the
 * interval, capped at end. */
static void garg_simulate(int start, int inc, int end, int interval, int nsteps, int *val) {
  int v = start;
  for (int i = 0; i < nsteps; i++) {
    val[i] = v;
    v = (i + 1) % interval == 0 ? v + inc : v;
    v = v < end ? v : end;
  }
}

static void test_curriculum_schedule(void) {
  /* the paper's preset at Garg's task size (d = 20, 101 points, 500k steps) is Garg's schedule */
  nnt_icl_train_cfg c;
  nnt_icl_train_cfg_default(&c, NNT_ICL_PRESET_PAPER);
  CHECK(c.curriculum == NNT_ICL_CURRICULUM_GARG && c.steps == 500000 && c.task.d == 20);
  c.task.n = 101;
  enum { NS = 40000 };
  static int dims[NS], pts[NS];
  garg_simulate(5, 1, 20, 2000, NS, dims);
  garg_simulate(26, 5, 101, 2000, NS, pts);
  int bad = 0;
  for (int i = 0; i < NS; i++) {
    int d, p;
    nnt_icl_curriculum_at(&c, i, &d, &p);
    if ((d != dims[i] || p != pts[i]) && bad++ < 5)
      CHECK_MSG(0, "step %d: nnt %d dims %d points, Garg %d, %d", i, d, p, dims[i], pts[i]);
  }
  int d, p;
  nnt_icl_curriculum_at(&c, 499999, &d, &p);
  CHECK(d == 20 && p == 101);
  /* no curriculum: the full task at every step */
  c.curriculum = NNT_ICL_CURRICULUM_NONE;
  nnt_icl_curriculum_at(&c, 0, &d, &p);
  CHECK(d == 20 && p == 101);
  long long iv;
  int S;
  nnt_icl_curriculum_stages(&c, &iv, &S);
  CHECK(iv == 0 && S == 0);
}

/* A curriculum run's losses, step by step, against a loop written here: d = 5, 10 points and a
 * 12-step curriculum give stages of 12/3 = 4 steps: dims 2, 3, 4, 5 and points 4, 6, 8, 10. The
 * inactive coordinates of every prompt are 0. */
static void test_curriculum_run(void) {
  nnt_icl_train_cfg c;
  micro(&c, 20);
  c.curriculum = NNT_ICL_CURRICULUM_GARG, c.curriculum_steps = 12, c.log_every = 1;
  long long iv;
  int S;
  nnt_icl_curriculum_stages(&c, &iv, &S);
  CHECK(iv == 4 && S == 3);
  static const int want_d[] = {2, 3, 4, 5}, want_p[] = {4, 6, 8, 10};
  nnt_icl_gpt *m = NULL;
  CHECK(nnt_icl_gpt_new(&c.arch, &c.task, 0, &m) == NNT_OK);
  nnt_icl_gpt_init(m, c.seed);
  nnt_optim opt = {0};
  nnt_optim_config oc = nnt_adam_defaults();
  oc.lr = c.lr;
  CHECK(nnt_optim_init(&opt, nnt_icl_gpt_params(m), oc) == NNT_OK);
  const int B = c.batch, d = c.task.d;
  float *xs = malloc(sizeof(float) * B * c.task.n * d), *ys = malloc(sizeof(float) * B * c.task.n);
  double want[20];
  for (int i = 0; i < 20; i++) {
    int s = i / 4 < 3 ? i / 4 : 3, dd, pp;
    nnt_icl_curriculum_at(&c, i, &dd, &pp);
    CHECK_MSG(dd == want_d[s] && pp == want_p[s], "step %d: %d dims, %d points", i, dd, pp);
    nnt_icl_task t = c.task;
    t.n = want_p[s], t.d_active = want_d[s] < d ? want_d[s] : 0;
    CHECK(nnt_icl_task_sample(&t, c.seed, (uint64_t)i * B, B, xs, ys) == NNT_OK);
    int zero = 1;
    for (int q = 0; q < B * t.n; q++)
      for (int k = want_d[s]; k < d; k++) zero &= xs[(size_t)q * d + k] == 0;
    CHECK_MSG(zero, "step %d: a coordinate beyond %d is not 0", i, want_d[s]);
    CHECK(nnt_icl_gpt_loss_grad(m, xs, ys, B, t.n, &want[i]) == NNT_OK);
    nnt_optim_step(&opt);
  }
  free(xs), free(ys);
  nnt_optim_free(&opt);
  nnt_icl_gpt_free(m);
  nnt_icl_train_result r;
  CHECK(nnt_icl_train_run(&c, sub("curriculum"), 0, &r) == NNT_OK);
  CHECK(r.nlog == 20);
  for (int i = 0; i < r.nlog && i < 20; i++)
    CHECK_MSG(r.log_loss[i] == want[i], "step %d: the run's loss %.17g, the loop's %.17g", i + 1, r.log_loss[i], want[i]);
  /* the same run without the curriculum differs from the first step on */
  nnt_icl_train_result r0;
  c.curriculum = NNT_ICL_CURRICULUM_NONE;
  CHECK(nnt_icl_train_run(&c, sub("no-curriculum"), 0, &r0) == NNT_OK);
  CHECK(r0.log_loss[0] != r.log_loss[0]);
  nnt_icl_train_result_free(&r), nnt_icl_train_result_free(&r0);
}

/* Format-1 metadata (before the task options and the curriculum) loads with the fixed values of
 * that time; format 2 round-trips every new field. */
static void test_meta_formats(const char *format1) {
  nnt_icl_train_cfg c, back;
  CHECK(nnt_icl_meta_parse("old", format1, &c, NULL) == NNT_OK);
  CHECK(c.arch.mlp == 0 && c.task.mu2 == c.task.mu && c.task.noise == 0 && c.task.act == NNT_ICL_ACT_RELU &&
        c.task.per_prompt == 0 && c.curriculum == NNT_ICL_CURRICULUM_NONE);
  /* format 1's MLP width is 4 x n_embd: a width whose 4 x overflows int is refused (fuzz/fuzz_icl_meta) */
  char huge[1024];
  const char *at = strstr(format1, "\"n_embd\":16,");
  CHECK(at != NULL);
  if (at) {
    snprintf(huge, sizeof huge, "%.*s\"n_embd\":1000000000,%s", (int)(at - format1), format1, at + strlen("\"n_embd\":16,"));
    CHECK(nnt_icl_meta_parse("huge", huge, &back, NULL) == NNT_EFORMAT && strstr(nnt_errmsg(), "too large for the default MLP width"));
  }
  nnt_icl_train_cfg_default(&c, NNT_ICL_PRESET_PAPER);
  c.arch.attn = NNT_ATTN_RELU, c.task.depth = 4;
  c.task.mu2 = 3.25, c.task.noise = 0.125, c.task.act = NNT_ICL_ACT_TANH, c.task.per_prompt = 1, c.task.width = 17;
  c.curriculum_steps = 777;
  char *meta = nnt_icl_meta_write(&c, 0, NULL, NULL, 0, 0);
  CHECK(nnt_icl_meta_parse("new", meta, &back, NULL) == NNT_OK);
  CHECK(back.arch.mlp == 256 && back.arch.n_embd == 256 && back.arch.n_layer == 12 && back.arch.n_head == 8);
  CHECK(nnt_icl_task_same(&back.task, &c.task, 0) && back.curriculum == NNT_ICL_CURRICULUM_GARG &&
        back.curriculum_steps == 777);
  /* format 2 without one of its fields is refused */
  char *cut = strstr(meta, "\"noise\":");
  CHECK(cut != NULL);
  if (cut) memcpy(cut, "\"noize\"", 7);
  CHECK(nnt_icl_meta_parse("cut", meta, &back, NULL) == NNT_EFORMAT);
  free(meta);
}

static void test_resume_with(int curriculum) {
  nnt_icl_train_cfg c;
  nnt_icl_train_result r, r2;
  micro(&c, 60);
  c.curriculum = curriculum, c.curriculum_steps = 60;
  const char *A = sub(curriculum ? "whole-cur" : "whole"), *B = sub(curriculum ? "stopped-cur" : "stopped");
  nnt_threads_set(1);
  CHECK(nnt_icl_train_run(&c, A, 0, &r) == NNT_OK);
  micro(&c, 40);
  c.curriculum = curriculum, c.curriculum_steps = 60;
  CHECK(nnt_icl_train_run(&c, B, 0, &r2) == NNT_OK);
  nnt_icl_train_result_free(&r2);
  micro(&c, 60);
  c.curriculum = curriculum, c.curriculum_steps = 60;
  nnt_threads_set(2);
  CHECK(nnt_icl_train_run(&c, B, 1, &r2) == NNT_OK);
  nnt_threads_set(1);
  CHECK(r2.first_step == 40 && r2.nlog == r.nlog);
  if (curriculum) { /* the stop fell inside the schedule */
    int d40, p40, d60, p60;
    nnt_icl_curriculum_at(&c, 39, &d40, &p40), nnt_icl_curriculum_at(&c, 59, &d60, &p60);
    CHECK(d40 < d60 && p40 < p60);
  }
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
  test_meta_formats(good);
}

int main(void) {
  if (!mkdtemp(root)) return 1;
  test_bad_meta();
  nnt_threads_set(1);
  test_loss_falls(NNT_ATTN_SOFTMAX);
  test_loss_falls(NNT_ATTN_RELU);
  test_resume_with(NNT_ICL_CURRICULUM_NONE);
  test_resume_with(NNT_ICL_CURRICULUM_GARG);
  test_curriculum_schedule();
  test_curriculum_run();
  test_nan();
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", root);
  TEST_MAIN_END();
}
