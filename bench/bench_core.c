/* nnt bench core — GFLOP/s of nnt_sgemm against OpenBLAS's sgemm. */
#include <cblas.h>
#include <stdlib.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_progress.h"
#include "nnt_rng.h"

static double gflops(int n, int use_blas, float *A, float *B, float *C) {
  double flop = 2.0 * n * n * n, t0 = nnt_now(), el;
  int reps = 0;
  do {
    if (use_blas) cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A, n, B, n, 0, C, n);
    else nnt_sgemm(0, 0, n, n, n, 1, A, n, B, n, 0, C, n);
    reps++;
    el = nnt_now() - t0;
  } while (el < 0.3);
  return flop * reps / el * 1e-9;
}

int bench_core(int argc, char **argv) {
  nnt_common co;
  nnt_common_init(&co, NULL);
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {0, 0, 0, 0}};
  nnt_cli_reset();
  int c, st;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1)
    if ((st = nnt_cli_common(c, argv, &co))) return st;
  if (co.help) return puts("usage: nnt bench core [--threads N]"), NNT_OK;
  if ((st = nnt_cli_begin(&co))) return st;
  nnt_rng r;
  nnt_rng_init(&r, co.seed, 0);
  printf("matmul (C = A B, square, float32), %d thread(s)\n%6s %14s %14s\n", nnt_threads_get(), "n",
         "nnt GFLOP/s", "OpenBLAS");
  static const int sizes[] = {64, 256, 1024};
  for (int i = 0; i < 3; i++) {
    int n = sizes[i];
    float *A = malloc(sizeof(float) * n * n), *B = malloc(sizeof(float) * n * n), *C = malloc(sizeof(float) * n * n);
    nnt_rng_fill_normal_f32(&r, A, (size_t)n * n, 0, 1);
    nnt_rng_fill_normal_f32(&r, B, (size_t)n * n, 0, 1);
    printf("%6d %14.1f %14.1f\n", n, gflops(n, 0, A, B, C), gflops(n, 1, A, B, C));
    free(A), free(B), free(C);
  }
  return NNT_OK;
}
