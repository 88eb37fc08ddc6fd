/* The tour's core section: the matmul path at a sweep of sizes, loops vs OpenBLAS, plotted. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_io.h"
#include "nnt_tour.h"
#include "nnt_progress.h"
#include "nnt_rng.h"

static double time_gemm(int n, int blas, const float *A, const float *B, float *C) {
  double t0 = nnt_now(), el;
  long reps = 0;
  do {
    if (blas) cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, A, n, B, n, 0, C, n);
    else nnt_sgemm_loops(0, 0, n, n, n, 1, A, n, B, n, 0, C, n);
    reps++;
    el = nnt_now() - t0;
  } while (el < 0.05);
  return 2.0 * n * n * n * reps / el * 1e-9;
}

int tour_core(cli_tour *t) {
  static const int sizes[] = {8, 16, 32, 48, 64, 96, 128, 192, 256};
  enum { NS = sizeof sizes / sizeof sizes[0] };
  double x[NS], loops[NS], blas[NS];
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "core");
  nnt_rng r;
  nnt_rng_init(&r, t->seed, 0);
  for (int i = 0; i < NS; i++) {
    int n = sizes[i];
    float *A = malloc(sizeof(float) * n * n), *B = malloc(sizeof(float) * n * n), *C = malloc(sizeof(float) * n * n);
    nnt_rng_fill_normal_f32(&r, A, (size_t)n * n, 0, 1);
    nnt_rng_fill_normal_f32(&r, B, (size_t)n * n, 0, 1);
    x[i] = n;
    loops[i] = time_gemm(n, 0, A, B, C);
    blas[i] = time_gemm(n, 1, A, B, C);
    free(A), free(B), free(C);
  }
  int st = nnt_tour_write_gemm(dir, NS, x, loops, blas);
  if (st) return st;
  cli_tour_printf(t, "## Core: the matmul path\n\nnnt_sgemm runs its own loops below %ld multiply-adds "
                  "and OpenBLAS above. Measured here:\n\n| n | loops GFLOP/s | OpenBLAS GFLOP/s |\n|---|---|---|\n",
                  nnt_gemm_blas_threshold);
  for (int i = 0; i < NS; i++) cli_tour_printf(t, "| %d | %.2f | %.2f |\n", sizes[i], loops[i], blas[i]);
  /* the table in a sentence: where each path wins, and where nnt switches for square shapes */
  char loops_win[256] = "", blas_win[256] = "";
  for (int i = 0; i < NS; i++) {
    char *w = loops[i] >= blas[i] ? loops_win : blas_win;
    snprintf(w + strlen(w), 256 - strlen(w), "%s%d", *w ? ", " : "", sizes[i]);
  }
  int best = 0;
  for (int i = 1; i < NS; i++) best = loops[i] > loops[best] ? i : best;
  double switch_n = cbrt((double)nnt_gemm_blas_threshold);
  cli_tour_printf(t, "\nIn words: on this machine the loops were at least as fast as OpenBLAS at n = %s, OpenBLAS faster "
                  "at n = %s; the loops peak at %.1f GFLOP/s (n = %d). A square product switches to OpenBLAS from "
                  "n ≈ %.0f (n³ multiply-adds above the threshold). Timings on a shared machine are noisy.\n",
                  *loops_win ? loops_win : "none", *blas_win ? blas_win : "none", loops[best], sizes[best], switch_n);
  cli_tour_outcome(t, "The own loops peaked at %.1f GFLOP/s (n = %d), OpenBLAS at the same size gave %.1f GFLOP/s.",
                   loops[best], sizes[best], blas[best]);
  cli_tour_printf(t, "\n![gemm](core/gemm.png)\n");
  return NNT_OK;
}
