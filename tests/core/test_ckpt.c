/* Checkpoints: the documented byte layout (read back independently), bit-exact round trip of
 * parameters and optimizer state, resumption giving the uninterrupted trajectory bit for bit,
 * and one clear NNT_EFORMAT error for every kind of bad file, leaving the model untouched. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_test.h"

static char dir[] = "/tmp/nnt_test_ckpt_XXXXXX";

static void build(nnt_params *P, int wrong_shape) {
  nnt_params_init(P);
  if (wrong_shape) nnt_params_add_f32(P, "w", 2, 4, 3);
  else nnt_params_add_f32(P, "w", 2, 3, 4);
  nnt_params_add_f64(P, "b", 1, 5);
  nnt_params_add_f32(P, "k", 4, 2, 2, 2, 2);
  nnt_params_alloc(P);
}

static void randomise(nnt_params *P, uint64_t seed) {
  nnt_rng r;
  nnt_rng_init(&r, seed, 0);
  for (int i = 0; i < P->n; i++)
    for (size_t k = 0; k < P->items[i]->value.numel; k++) nnt_tensor_set(&P->items[i]->value, k, nnt_rng_normal(&r));
}

/* grad of sum(0.5 (p - 0.3)^2 + 0.05 p^4): depends on p, so a trajectory depends on all state */
static void grads(nnt_params *P) {
  for (int i = 0; i < P->n; i++)
    for (size_t k = 0; k < P->items[i]->value.numel; k++) {
      double p = nnt_tensor_get(&P->items[i]->value, k);
      nnt_tensor_set(&P->items[i]->grad, k, (p - 0.3) + 0.2 * p * p * p);
    }
}

static void train(nnt_params *P, nnt_optim *o, int steps) {
  for (int s = 0; s < steps; s++) {
    grads(P);
    nnt_optim_step(o);
  }
}

static int same_values(const nnt_params *A, const nnt_params *B) {
  for (int i = 0; i < A->n; i++)
    if (memcmp(A->items[i]->value.data, B->items[i]->value.data, nnt_tensor_bytes(&A->items[i]->value))) return 0;
  return 1;
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  unsigned char *b = malloc(1 << 20);
  *n = f ? fread(b, 1, 1 << 20, f) : 0;
  if (f) fclose(f);
  return b;
}

static void spit(const char *path, const unsigned char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
}

/* independent FNV-1a 64 (the published constants) */
static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/* Loads path into a fresh model and expects NNT_EFORMAT with `needle` in the message. */
static void expect_bad(const char *path, const char *kind, int wrong_shape, int with_opt, nnt_optim_kind ok,
                       const char *needle) {
  nnt_params P;
  build(&P, wrong_shape);
  randomise(&P, 5);
  nnt_params Before;
  build(&Before, wrong_shape);
  nnt_params_copy_values(&Before, &P);
  nnt_optim o;
  nnt_optim_config c = ok == NNT_OPT_ADAM ? nnt_adam_defaults() : nnt_adamw_defaults();
  nnt_optim_init(&o, &P, c);
  long long step = -1;
  int st = nnt_ckpt_load(path, kind, &P, with_opt ? &o : NULL, &step, NULL);
  CHECK_MSG(st == NNT_EFORMAT && strstr(nnt_errmsg(), needle) && strstr(nnt_errmsg(), path),
            "status %d, message '%s', expected '%s'", st, nnt_errmsg(), needle);
  CHECK(same_values(&P, &Before) && step == -1 && o.step == 0); /* nothing was touched */
  nnt_optim_free(&o);
  nnt_params_free(&P);
  nnt_params_free(&Before);
}

int main(void) {
  CHECK(mkdtemp(dir) != NULL);
  char path[256], bad[256], tmp[300];
  snprintf(path, sizeof path, "%s/model.ckpt", dir);
  snprintf(bad, sizeof bad, "%s/bad.ckpt", dir);

  /* FNV-1a 64 test vectors */
  CHECK(nnt_fnv1a64(NNT_FNV64_INIT, "", 0) == 0xcbf29ce484222325ull);
  CHECK(nnt_fnv1a64(NNT_FNV64_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
  CHECK(nnt_fnv1a64(NNT_FNV64_INIT, "foobar", 6) == 0x85944171f73967e8ull);

  /* reference run: 10 uninterrupted AdamW steps */
  nnt_params R;
  build(&R, 0);
  randomise(&R, 1);
  nnt_optim ro;
  nnt_optim_config cfg = nnt_adamw_defaults();
  cfg.lr = 0.02, cfg.weight_decay = 0.1;
  CHECK(nnt_optim_init(&ro, &R, cfg) == NNT_OK);
  train(&R, &ro, 10);

  /* interrupted run: 5 steps, save, 5 more in the same process (must match the reference) */
  nnt_params P;
  build(&P, 0);
  randomise(&P, 1);
  nnt_optim po;
  CHECK(nnt_optim_init(&po, &P, cfg) == NNT_OK);
  train(&P, &po, 5);
  const char *meta = "{\"model\": \"test\", \"width\": 3}";
  CHECK(nnt_ckpt_save(path, "test-model", &P, &po, 5, meta) == NNT_OK);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  CHECK(!nnt_file_exists(tmp));

  /* resume in a fresh model and a fresh optimizer with other settings: everything comes back */
  nnt_params Q;
  build(&Q, 0);
  nnt_optim qo;
  CHECK(nnt_optim_init(&qo, &Q, nnt_adamw_defaults()) == NNT_OK);
  long long step = 0;
  char *m = NULL;
  CHECK(nnt_ckpt_load(path, "test-model", &Q, &qo, &step, &m) == NNT_OK);
  CHECK(step == 5 && m && !strcmp(m, meta));
  free(m);
  CHECK(same_values(&P, &Q));
  CHECK(qo.step == 5 && qo.cfg.lr == 0.02 && qo.cfg.weight_decay == 0.1);
  CHECK(!memcmp(po.m, qo.m, P.bytes) && !memcmp(po.v, qo.v, P.bytes));
  train(&Q, &qo, 5);
  CHECK(same_values(&Q, &R)); /* resumed trajectory == uninterrupted, bit for bit */
  /* and without the restored state it would differ (the check above can fail) */
  nnt_params Z;
  build(&Z, 0);
  nnt_optim zo;
  nnt_optim_init(&zo, &Z, cfg);
  CHECK(nnt_ckpt_load(path, "test-model", &Z, NULL, NULL, NULL) == NNT_OK);
  train(&Z, &zo, 5);
  CHECK(!same_values(&Z, &R));
  nnt_optim_free(&zo);
  nnt_params_free(&Z);

  /* SGD with momentum: the buffer's first-step rule must survive a resume too */
  {
    nnt_params A, B;
    build(&A, 0), build(&B, 0);
    randomise(&A, 2), randomise(&B, 2);
    nnt_optim_config s = nnt_sgd_defaults(0.05);
    s.momentum = 0.9, s.dampening = 0.2;
    nnt_optim ao, bo;
    nnt_optim_init(&ao, &A, s), nnt_optim_init(&bo, &B, nnt_sgd_defaults(1.0));
    train(&A, &ao, 3);
    CHECK(nnt_ckpt_save(bad, "sgd-model", &A, &ao, 3, NULL) == NNT_OK);
    train(&A, &ao, 4);
    CHECK(nnt_ckpt_load(bad, "sgd-model", &B, &bo, NULL, NULL) == NNT_OK);
    CHECK(bo.cfg.momentum == 0.9 && bo.m && !bo.v);
    train(&B, &bo, 4);
    CHECK(same_values(&A, &B));
    nnt_optim_free(&ao), nnt_optim_free(&bo);
    nnt_params_free(&A), nnt_params_free(&B);
  }

  /* the byte layout of docs/core.md, read back by hand */
  size_t n;
  unsigned char *file = slurp(path, &n);
  uint32_t u32;
  uint64_t u64;
  int64_t i64;
  CHECK(!memcmp(file, "NNTCKPT\0", 8));
  memcpy(&u32, file + 8, 4);
  CHECK(u32 == 1);
  memcpy(&u64, file + 12, 8);
  CHECK(u64 == n);
  memcpy(&u32, file + 20, 4);
  CHECK(u32 == 10 && !memcmp(file + 24, "test-model", 10));
  memcpy(&i64, file + 34, 8);
  CHECK(i64 == 5);
  memcpy(&u32, file + 42, 4);
  CHECK(u32 == strlen(meta) && !memcmp(file + 46, meta, u32));
  size_t off = 46 + strlen(meta);
  memcpy(&u32, file + off, 4);
  CHECK(u32 == 3);
  memcpy(&u32, file + off + 4, 4);
  CHECK(u32 == 1 && file[off + 8] == 'w');
  uint32_t dims[4];
  memcpy(dims, file + off + 9, 16); /* dtype, ndim, 3, 4 */
  CHECK(dims[0] == 0 && dims[1] == 2 && dims[2] == 3 && dims[3] == 4);
  CHECK(!memcmp(file + off + 25, P.items[0]->value.data, 48));
  memcpy(&u64, file + n - 8, 8);
  CHECK(u64 == fnv(file, n - 8));
  /* size: header 46 + meta + 4; tensors (4+1+8+8+48) + (4+1+8+4+40) + (4+1+8+16+64);
   * optimizer (has_optim, kind, 7 f64, nesterov, step, has_m, has_v) 84 + 2*(48+40+64); checksum 8 */
  CHECK(n == 46 + strlen(meta) + 4 + 69 + 57 + 93 + 84 + 2 * 152 + 8);

  /* info without a registry */
  nnt_ckpt_info info;
  CHECK(nnt_ckpt_info_read(path, &info) == NNT_OK);
  CHECK(!strcmp(info.kind, "test-model") && info.step == 5 && info.ntensors == 3 && info.nscalars == 12 + 5 + 16 &&
        info.has_optim && info.optim_kind == NNT_OPT_ADAMW && !strcmp(info.meta_json, meta));
  nnt_ckpt_info_free(&info);

  /* bad files */
  size_t cuts[] = {0, 5, 8, 19, 30, n / 2, n - 9, n - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    spit(bad, file, cuts[i]);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "truncated");
  }
  unsigned char *copy = malloc(n + 1);
  size_t flips[] = {60, off + 30, n / 2, n - 20, n - 3};
  for (size_t i = 0; i < sizeof flips / sizeof *flips; i++) {
    memcpy(copy, file, n);
    copy[flips[i]] ^= 0x10;
    spit(bad, copy, n);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "checksum mismatch");
  }
  memcpy(copy, file, n);
  copy[3] = 'X';
  spit(bad, copy, n);
  expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "bad magic");
  memcpy(copy, file, n);
  copy[8] = 2;
  spit(bad, copy, n);
  expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "version 2");
  memcpy(copy, file, n);
  copy[n] = 0;
  spit(bad, copy, n + 1);
  expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "unexpected bytes");
  /* a well-formed file (valid checksum) whose stored lr is negative */
  {
    size_t lr_at = off + 4 + 69 + 57 + 93 + 4 + 4;
    double lr;
    memcpy(&lr, file + lr_at, 8);
    CHECK(lr == 0.02);
    memcpy(copy, file, n);
    lr = -1;
    memcpy(copy + lr_at, &lr, 8);
    uint64_t h = fnv(copy, n - 8);
    memcpy(copy + n - 8, &h, 8);
    spit(bad, copy, n);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "stored optimizer settings are invalid (adamw: learning rate -1");
  }
  /* found by fuzz/fuzz_core_ckpt: files with a valid checksum that nnt_ckpt_save never writes, so
   * that saving what loaded gave other bytes: metadata that is not JSON, a nesterov flag not 0 or 1 */
  {
    memcpy(copy, file, n);
    CHECK(copy[46] == '{');
    copy[46] = 0xa2;
    uint64_t h = fnv(copy, n - 8);
    memcpy(copy + n - 8, &h, 8);
    spit(bad, copy, n);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "checkpoint metadata is not valid JSON");
    memcpy(copy, file, n);
    copy[46 + strlen(meta) - 1] = 0; /* a NUL inside the text */
    h = fnv(copy, n - 8);
    memcpy(copy + n - 8, &h, 8);
    spit(bad, copy, n);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "checkpoint metadata is not valid JSON");
    size_t nesterov_at = off + 4 + 69 + 57 + 93 + 4 + 4 + 7 * 8;
    uint32_t nv = 0x10000;
    memcpy(copy, file, n);
    memcpy(copy + nesterov_at, &nv, 4);
    h = fnv(copy, n - 8);
    memcpy(copy + n - 8, &h, 8);
    spit(bad, copy, n);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "malformed checkpoint body");
    nv = 0; /* the same file with the flag 0 loads: the offset is the flag's */
    memcpy(copy + nesterov_at, &nv, 4);
    h = fnv(copy, n - 8);
    memcpy(copy + n - 8, &h, 8);
    spit(bad, copy, n);
    CHECK(nnt_ckpt_load(bad, "test-model", &Q, &qo, NULL, NULL) == NNT_OK);
  }
  /* non-finite values, which nnt never saves (a checkpoint edited or made elsewhere): each refused
   * with the tensor or field named, even with a valid checksum */
  {
    size_t opt_at = off + 4 + 69 + 57 + 93;
    struct {
      size_t at;
      int f64;
      double x;
      const char *needle;
    } cases[] = {
        {off + 25 + 4 * 5, 0, INFINITY, "tensor w: element 5 is not a finite number"},
        {off + 4 + 69 + 17 + 8 * 2, 1, NAN, "tensor b: element 2 is not a finite number"},
        {opt_at + 84 + 4 * 1, 0, -INFINITY, "tensor w (optimizer m): element 1 is not a finite number"},
        {opt_at + 84 + 48 + 4 * 4, 0, INFINITY, "tensor w (optimizer v): element 4 is not a finite number"},
        {opt_at + 8, 1, INFINITY, "optimizer lr is not a finite number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      memcpy(copy, file, n);
      if (cases[i].f64) memcpy(copy + cases[i].at, &cases[i].x, 8);
      else {
        float f = (float)cases[i].x;
        memcpy(copy + cases[i].at, &f, 4);
      }
      uint64_t h = fnv(copy, n - 8);
      memcpy(copy + n - 8, &h, 8);
      spit(bad, copy, n);
      expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, cases[i].needle);
    }
    memcpy(copy, file, n);
    CHECK(!memcmp(copy + 46 + 10, "\"test\"", 6));
    memcpy(copy + 46 + 10, "1e999 ", 6); /* {"model": 1e999 , "width": 3} */
    uint64_t h = fnv(copy, n - 8);
    memcpy(copy + n - 8, &h, 8);
    spit(bad, copy, n);
    expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "metadata: field model is not a finite number (it reads as +Inf)");
    nnt_ckpt_info bi;
    CHECK(nnt_ckpt_info_read(bad, &bi) == NNT_EFORMAT && strstr(nnt_errmsg(), "field model is not a finite"));
  }
  expect_bad(path, "other-model", 0, 1, NNT_OPT_ADAMW, "model kind 'test-model', expected 'other-model'");
  expect_bad(path, "test-model", 1, 1, NNT_OPT_ADAMW, "tensor 'w' is float32 [3, 4], the model's is float32 [4, 3]");
  expect_bad(path, "test-model", 0, 1, NNT_OPT_ADAM, "optimizer state is adamw, expected adam");
  CHECK(nnt_ckpt_save(bad, "test-model", &P, NULL, 5, NULL) == NNT_OK);
  expect_bad(bad, "test-model", 0, 1, NNT_OPT_ADAMW, "no optimizer state");
  {
    nnt_params W;
    nnt_params_init(&W);
    nnt_params_add_f32(&W, "w", 2, 3, 4);
    nnt_params_add_f32(&W, "bias", 1, 5);
    nnt_params_add_f32(&W, "k", 4, 2, 2, 2, 2);
    CHECK(nnt_ckpt_load(path, "test-model", &W, NULL, NULL, NULL) == NNT_EINVAL &&
          strstr(nnt_errmsg(), "not allocated"));
    nnt_params_alloc(&W);
    CHECK(nnt_ckpt_load(path, "test-model", &W, NULL, NULL, NULL) == NNT_EFORMAT &&
          strstr(nnt_errmsg(), "tensor 1 is 'b', the model's is 'bias'"));
    nnt_params_free(&W);
    nnt_params_init(&W);
    nnt_params_add_f32(&W, "w", 2, 3, 4);
    nnt_params_add_f64(&W, "b", 1, 5);
    nnt_params_add_f32(&W, "k", 4, 2, 2, 2, 2);
    nnt_params_add_f32(&W, "extra", 1, 1);
    nnt_params_alloc(&W);
    CHECK(nnt_ckpt_load(path, "test-model", &W, NULL, NULL, NULL) == NNT_EFORMAT &&
          strstr(nnt_errmsg(), "3 tensors, the model has 4"));
    nnt_params_free(&W);
  }
  snprintf(tmp, sizeof tmp, "%s/missing.ckpt", dir);
  CHECK(nnt_ckpt_load(tmp, "test-model", &P, NULL, NULL, NULL) == NNT_EIO);
  CHECK(nnt_ckpt_save(tmp, "test-model", &P, NULL, 0, "{not json") == NNT_EINVAL && !nnt_file_exists(tmp));
  CHECK(nnt_ckpt_save(tmp, "test-model", &P, NULL, 0, "{} trailing") == NNT_EINVAL && !nnt_file_exists(tmp));

  /* Fuzz the parser behind the checksum: random byte changes in the body with file_size and
   * checksum recomputed, so every structural check is exercised (under ASan in `make test`).
   * A load must either succeed (a changed payload byte) or fail with NNT_EFORMAT. */
  {
    nnt_rng fr;
    nnt_rng_init(&fr, 77, 0);
    nnt_params F;
    build(&F, 0);
    nnt_optim fo;
    nnt_optim_init(&fo, &F, cfg);
    int ok = 0, rejected = 0, other = 0;
    for (int it = 0; it < 1000; it++) {
      size_t len = n;
      memcpy(copy, file, n);
      int changes = 1 + (int)nnt_rng_below(&fr, 4);
      for (int k = 0; k < changes; k++) {
        size_t at = 20 + nnt_rng_below(&fr, n - 28);
        copy[at] = it % 3 ? (unsigned char)nnt_rng_below(&fr, 256) : (unsigned char)(copy[at] + 1);
      }
      if (it % 5 == 0) len = 20 + nnt_rng_below(&fr, n - 28) + 8; /* cut the body short */
      uint64_t sz = len, h;
      memcpy(copy + 12, &sz, 8);
      h = fnv(copy, len - 8);
      memcpy(copy + len - 8, &h, 8);
      spit(bad, copy, len);
      int st = nnt_ckpt_load(bad, "test-model", &F, &fo, NULL, NULL);
      ok += st == NNT_OK, rejected += st == NNT_EFORMAT, other += st != NNT_OK && st != NNT_EFORMAT;
    }
    CHECK_MSG(other == 0 && ok > 0 && rejected > 0, "fuzz: %d loaded, %d rejected, %d other", ok, rejected, other);
    printf("fuzz: %d loaded, %d rejected\n", ok, rejected);
    nnt_optim_free(&fo);
    nnt_params_free(&F);
  }

  free(copy);
  free(file);
  unlink(path), unlink(bad);
  rmdir(dir);
  nnt_optim_free(&ro), nnt_optim_free(&po), nnt_optim_free(&qo);
  nnt_params_free(&R), nnt_params_free(&P), nnt_params_free(&Q);
  TEST_MAIN_END();
}
