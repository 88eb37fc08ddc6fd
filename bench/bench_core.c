/* nnt bench core — GFLOP/s of nnt's matmul path against OpenBLAS's sgemm (square sizes and the
 * small products of the qSTR models), and the step time (forward + backward + AdamW) of small
 * float32 models at qSTR sizes built from nnt_nn layers. */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_init.h"
#include "nnt_nn.h"
#include "nnt_optim.h"
#include "nnt_params.h"
#include "nnt_progress.h"
#include "nnt_rng.h"

typedef void (*gemm_fn)(int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);

static void openblas_sgemm(int ta, int tb, int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                           int ldb, float beta, float *C, int ldc) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N, K, alpha, A, lda, B,
              ldb, beta, C, ldc);
}

/* Best of 10 timed rounds of at least 0.02 s each: on a shared machine the best round is the
 * one least disturbed by other processes. */
static double gflops(gemm_fn f, int ta, int tb, int M, int N, int K, const float *A, const float *B, float *C) {
  int lda = ta ? M : K, ldb = tb ? K : N;
  double best = 0;
  for (int round = 0; round < 10; round++) {
    double t0 = nnt_now(), el;
    long reps = 0;
    do {
      f(ta, tb, M, N, K, 1, A, lda, B, ldb, 0, C, N);
      reps++;
      el = nnt_now() - t0;
    } while (el < 0.02);
    double g = 2.0 * M * N * K * reps / el * 1e-9;
    best = g > best ? g : best;
  }
  return best;
}

/* ---- models: per-token MLP, 1-layer attention model (TR-torch), biGRU + readout ---- */

typedef struct {
  int B, T, D, M; /* batch, tokens, width, MLP hidden */
  int kind;       /* 0 MLP, 1 attention, 2 biGRU */
  nnt_params P;
  nnt_optim opt;
  float *x, *y, *bufs[16], *dbufs[16];
} model;

static void param(model *m, const char *name, int ndim, int d0, int d1) {
  if (ndim == 1) nnt_params_add_f32(&m->P, name, 1, d0);
  else nnt_params_add_f32(&m->P, name, 2, d0, d1);
}
static float *grad(model *m, const char *name) { return nnt_params_find(&m->P, name)->grad.data; }
static float *buf(size_t n) { return calloc(n ? n : 1, sizeof(float)); }

static void model_init(model *m, int kind, int B, int T, int D, int M, nnt_rng *r) {
  memset(m, 0, sizeof *m);
  m->kind = kind, m->B = B, m->T = T, m->D = D, m->M = M;
  int N = B * T, H = M; /* biGRU hidden size: M */
  nnt_params_init(&m->P);
  if (kind == 1) {
    param(m, "qkv.weight", 2, 3 * D, D), param(m, "qkv.bias", 1, 3 * D, 0);
    param(m, "proj.weight", 2, D, D), param(m, "proj.bias", 1, D, 0);
  }
  if (kind == 2) {
    param(m, "gru.Wih", 2, 3 * H, D), param(m, "gru.Whh", 2, 3 * H, H), param(m, "gru.bih", 1, 3 * H, 0);
    param(m, "gru.bhh", 1, 3 * H, 0), param(m, "gru.Wih_rev", 2, 3 * H, D), param(m, "gru.Whh_rev", 2, 3 * H, H);
    param(m, "gru.bih_rev", 1, 3 * H, 0), param(m, "gru.bhh_rev", 1, 3 * H, 0);
    param(m, "out.weight", 2, 1, 2 * H), param(m, "out.bias", 1, 1, 0);
  } else {
    param(m, "fc1.weight", 2, M, D), param(m, "fc1.bias", 1, M, 0);
    param(m, "fc2.weight", 2, 1, M), param(m, "fc2.bias", 1, 1, 0);
  }
  nnt_params_alloc(&m->P);
  for (int i = 0; i < m->P.n; i++) /* U(-0.2, 0.2): the values do not matter for timing */
    nnt_init_uniform(r, &m->P.items[i]->value, -0.2, 0.2);
  nnt_optim_init(&m->opt, &m->P, nnt_adamw_defaults());
  m->x = buf((size_t)N * D), m->y = buf(N);
  nnt_rng_fill_normal_f32(r, m->x, (size_t)N * D, 0, 1);
  nnt_rng_fill_normal_f32(r, m->y, N, 0, 1);
  size_t sz[16] = {0};
  if (kind == 0) sz[0] = (size_t)N * M, sz[1] = (size_t)N * M, sz[2] = N;
  if (kind == 1) {
    sz[0] = (size_t)N * 3 * D, sz[1] = NNT_ATTN_WS(B, 1, T), sz[2] = (size_t)N * D, sz[3] = (size_t)N * D;
    sz[4] = (size_t)N * M, sz[5] = (size_t)N * M, sz[6] = N;
  }
  if (kind == 2) sz[0] = (size_t)N * 2 * H, sz[1] = 2 * NNT_GRU_CACHE(B, T, H), sz[2] = N, sz[3] = NNT_GRU_WS(B, H);
  for (int i = 0; i < 16; i++) m->bufs[i] = sz[i] ? buf(sz[i]) : NULL, m->dbufs[i] = sz[i] ? buf(sz[i]) : NULL;
}

static void model_free(model *m) {
  nnt_optim_free(&m->opt);
  nnt_params_free(&m->P);
  free(m->x), free(m->y);
  for (int i = 0; i < 16; i++) free(m->bufs[i]), free(m->dbufs[i]);
}

/* The MLP head D -> M -> ReLU -> 1 on N rows of h, MSE against y; adds dh. */
static void head_step(model *m, const float *h, float *dh, float *hid, float *act, float *out, float *dhid, float *dact,
                      float *dout) {
  int N = m->B * m->T, D = m->D, M = m->M;
  float *W1 = nnt_params_find(&m->P, "fc1.weight")->value.data, *b1 = nnt_params_find(&m->P, "fc1.bias")->value.data;
  float *W2 = nnt_params_find(&m->P, "fc2.weight")->value.data, *b2 = nnt_params_find(&m->P, "fc2.bias")->value.data;
  nnt_linear_forward(hid, h, W1, b1, N, D, M);
  nnt_relu_forward(act, hid, (size_t)N * M);
  nnt_linear_forward(out, act, W2, b2, N, M, 1);
  (void)nnt_mse_forward(out, m->y, N);
  memset(dout, 0, sizeof(float) * N), memset(dact, 0, sizeof(float) * N * M), memset(dhid, 0, sizeof(float) * N * M);
  nnt_mse_backward(dout, out, m->y, N, 1);
  nnt_linear_backward(dact, grad(m, "fc2.weight"), grad(m, "fc2.bias"), dout, act, W2, N, M, 1);
  nnt_relu_backward(dhid, dact, hid, (size_t)N * M);
  nnt_linear_backward(dh, grad(m, "fc1.weight"), grad(m, "fc1.bias"), dhid, h, W1, N, D, M);
}

static void model_step(model *m) {
  int B = m->B, T = m->T, N = B * T, D = m->D, H = m->M;
  float **b = m->bufs, **d = m->dbufs;
  nnt_params_zero_grad(&m->P);
  if (m->kind == 0) head_step(m, m->x, NULL, b[0], b[1], b[2], d[0], d[1], d[2]);
  if (m->kind == 1) {
    nnt_attn_cfg cfg = {0}; /* softmax, 1 head, scale 1/sqrt(D): nn.MultiheadAttention */
    float *Wq = nnt_params_find(&m->P, "qkv.weight")->value.data, *bq = nnt_params_find(&m->P, "qkv.bias")->value.data;
    float *Wp = nnt_params_find(&m->P, "proj.weight")->value.data, *bp = nnt_params_find(&m->P, "proj.bias")->value.data;
    nnt_linear_forward(b[0], m->x, Wq, bq, N, D, 3 * D);
    nnt_attention_forward(b[2], b[1], b[0], B, T, D, 1, &cfg);
    nnt_linear_forward(b[3], b[2], Wp, bp, N, D, D);
    memset(d[3], 0, sizeof(float) * N * D), memset(d[2], 0, sizeof(float) * N * D);
    memset(d[0], 0, sizeof(float) * N * 3 * D);
    head_step(m, b[3], d[3], b[4], b[5], b[6], d[4], d[5], d[6]);
    nnt_linear_backward(d[2], grad(m, "proj.weight"), grad(m, "proj.bias"), d[3], b[2], Wp, N, D, D);
    nnt_attention_backward(d[0], d[2], b[1], b[0], B, T, D, 1, &cfg);
    nnt_linear_backward(NULL, grad(m, "qkv.weight"), grad(m, "qkv.bias"), d[0], m->x, Wq, N, D, 3 * D);
  }
  if (m->kind == 2) {
    nnt_rnn_params p[2];
    nnt_rnn_grads g[2];
    static const char *nm[2][4] = {{"gru.Wih", "gru.Whh", "gru.bih", "gru.bhh"},
                                   {"gru.Wih_rev", "gru.Whh_rev", "gru.bih_rev", "gru.bhh_rev"}};
    for (int dir = 0; dir < 2; dir++) {
      nnt_param *q[4];
      for (int k = 0; k < 4; k++) q[k] = nnt_params_find(&m->P, nm[dir][k]);
      p[dir] = (nnt_rnn_params){q[0]->value.data, q[1]->value.data, q[2]->value.data, q[3]->value.data};
      g[dir] = (nnt_rnn_grads){q[0]->grad.data, q[1]->grad.data, q[2]->grad.data, q[3]->grad.data};
    }
    float *Wo = nnt_params_find(&m->P, "out.weight")->value.data, *bo = nnt_params_find(&m->P, "out.bias")->value.data;
    nnt_bigru_forward(b[0], b[1], m->x, NULL, p, B, T, D, H);
    nnt_linear_forward(b[2], b[0], Wo, bo, N, 2 * H, 1);
    (void)nnt_mse_forward(b[2], m->y, N);
    memset(d[2], 0, sizeof(float) * N), memset(d[0], 0, sizeof(float) * N * 2 * H);
    nnt_mse_backward(d[2], b[2], m->y, N, 1);
    nnt_linear_backward(d[0], grad(m, "out.weight"), grad(m, "out.bias"), d[2], b[0], Wo, N, 2 * H, 1);
    nnt_bigru_backward(NULL, NULL, g, d[0], b[0], b[1], m->x, NULL, p, b[3], B, T, D, H);
  }
  nnt_optim_step(&m->opt);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Times single steps for about a second (at least 5): the fastest and the median, in ms. */
static void step_ms(model *m, double *best, double *median) {
  enum { MAXSTEPS = 4096 };
  static double t[MAXSTEPS];
  int n = 0;
  model_step(m); /* warm-up */
  double start = nnt_now();
  while (n < MAXSTEPS && (n < 5 || nnt_now() - start < 1.0)) {
    double t0 = nnt_now();
    model_step(m);
    t[n++] = (nnt_now() - t0) * 1e3;
  }
  qsort(t, (size_t)n, sizeof(double), cmp_double);
  *best = t[0], *median = t[n / 2];
}

typedef struct {
  long blas_threshold;
} bench_cfg;
static void bench_default(void *c, nnt_preset preset) {
  (void)preset;
  ((bench_cfg *)c)->blas_threshold = -1;
}
static const cli_opt bench_opts[] = {
    CLI_LONG("blas-threshold", bench_cfg, blas_threshold, -1, 1L << 40,
             "products with M*N*K >= this go to OpenBLAS (-1: the built-in value)"),
    {0}};
/* The measurements are the console table, printed as they are taken. */
static int bench_run(void *cfg, const cli_run *cr, void *res) {
  long threshold = ((const bench_cfg *)cfg)->blas_threshold;
  (void)res;
  if (threshold >= 0) nnt_gemm_blas_threshold = threshold;
  nnt_rng r;
  nnt_rng_init(&r, cr->seed, 0);
  float *A = malloc(sizeof(float) * 1024 * 1024), *B = malloc(sizeof(float) * 1024 * 1024);
  float *C = malloc(sizeof(float) * 1024 * 1024);
  nnt_rng_fill_normal_f32(&r, A, 1024 * 1024, 0, 1);
  nnt_rng_fill_normal_f32(&r, B, 1024 * 1024, 0, 1);

  double peak = nnt_cpu_fma_peak(0.3);
  printf("float32 peak of one core (%s kernels, independent FMA chains): %.1f GFLOP/s\n\n", nnt_cpu_isa_name(nnt_cpu_isa()),
         peak);
  printf("matmul (C = A B, square, float32), %d thread(s), BLAS threshold M*N*K >= %ld\n%6s %14s %14s %14s %12s\n",
         nnt_threads_get(), nnt_gemm_blas_threshold, "n", "nnt GFLOP/s", "OpenBLAS", "nnt loops", "loops/peak");
  static const int sizes[] = {64, 256, 1024};
  for (int i = 0; i < 3; i++) {
    int n = sizes[i];
    double loops = gflops(nnt_sgemm_loops, 0, 0, n, n, n, A, B, C);
    printf("%6d %14.1f %14.1f %14.1f %11.0f%%\n", n, gflops(nnt_sgemm, 0, 0, n, n, n, A, B, C),
           gflops(openblas_sgemm, 0, 0, n, n, n, A, B, C), loops, 100 * loops / peak);
  }

  static const struct {
    const char *what;
    int M, N, K, ta, tb;
  } shapes[] = {{"linear fwd 768x34 -> 100", 768, 100, 34, 0, 1},  {"linear bwd dinp", 768, 34, 100, 0, 0},
                {"linear bwd dW", 100, 34, 768, 1, 0},             {"attn scores T=12 hs=34", 12, 12, 34, 0, 1},
                {"attn values T=12 hs=34", 12, 34, 12, 0, 0},      {"attn bwd dk", 12, 34, 12, 1, 0},
                {"GRU x-gates B=64 I=34 H=64", 64, 192, 34, 0, 1}, {"GRU h-gates B=64 H=64", 64, 192, 64, 0, 1},
                {"GRU h-gates B=64 H=500", 64, 1500, 500, 0, 1},   {"GRU bwd dWhh H=500", 1500, 500, 64, 1, 0},
                {"FFN N=12 eval 120 -> 1000", 128, 1000, 120, 0, 1}, {"FFN N=12 eval 1000 -> 12", 128, 12, 1000, 0, 1},
                {"FFN N=12 train 408 -> 120", 64, 120, 408, 0, 1},  {"FFN N=12 bwd dW 1000x120", 1000, 120, 64, 1, 0},
                {"FFN N=12 bwd dinp", 64, 120, 1000, 0, 0}};
  printf("\nsmall products (float32, GFLOP/s), %d thread(s)\n%-28s %5s %5s %5s %2s %2s %10s %10s %10s\n",
         nnt_threads_get(), "product", "M", "N", "K", "tA", "tB", "nnt", "OpenBLAS", "nnt loops");
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    int M = shapes[i].M, N = shapes[i].N, K = shapes[i].K, ta = shapes[i].ta, tb = shapes[i].tb;
    printf("%-28s %5d %5d %5d %2d %2d %10.1f %10.1f %10.1f\n", shapes[i].what, M, N, K, ta, tb,
           gflops(nnt_sgemm, ta, tb, M, N, K, A, B, C), gflops(openblas_sgemm, ta, tb, M, N, K, A, B, C),
           gflops(nnt_sgemm_loops, ta, tb, M, N, K, A, B, C));
  }
  free(A), free(B), free(C);

  printf("\nmodel step (forward + backward + AdamW, float32), B=64 T=12 D=34, %d thread(s)\n%-44s %12s %12s\n",
         nnt_threads_get(), "model", "best ms/step", "median ms");
  static const struct {
    const char *what;
    int kind, M;
  } models[] = {{"MLP 34 -> 100 -> 1 per token", 0, 100},
                {"attention (1 head) + MLP 34 -> 100 -> 1", 1, 100},
                {"biGRU H=64 + linear 128 -> 1", 2, 64}};
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
    model m;
    model_init(&m, models[i].kind, 64, 12, 34, models[i].M, &r);
    double best, median;
    step_ms(&m, &best, &median);
    printf("%-44s %12.3f %12.3f\n", models[i].what, best, median);
    model_free(&m);
  }
  return NNT_OK;
}

static const cli_cmd bench_cmd = {
    .name = "bench core",
    .example = "nnt bench core --threads 1",
    .about = "The core's kernels: this core's float32 FMA peak, matrix products (nnt's loops vs OpenBLAS),\n"
             "the FFN's product shapes.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_cfg),
    .cfg_default = bench_default,
    .run = bench_run,
    .common = CLI_OUT};

static int run(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

const cli_bench cli_bench_core = {"core", run};
