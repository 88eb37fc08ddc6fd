#define _GNU_SOURCE /* sched_getaffinity */
#include "nnt_blas.h"

#include <cblas.h>
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long nnt_gemm_blas_threshold = 200L * 200 * 200;
static int nthreads = 1;
static _Thread_local double macs;

double nnt_gemm_macs_done(void) { return macs; }
void nnt_gemm_macs_add(double m) { macs += m; }

void nnt_sgemm_min(long blas_min, int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc) {
  if (M <= 0 || N <= 0) return;
  macs += (double)M * N * K;
  if ((long)M * N * K < blas_min) {
    nnt_sgemm_loops(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, M,
              N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void nnt_sgemm(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
               const float *B, int ldb, float beta, float *C, int ldc) {
  nnt_sgemm_min(nnt_gemm_blas_threshold, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void nnt_dgemm(int transA, int transB, int M, int N, int K, double alpha, const double *A, int lda,
               const double *B, int ldb, double beta, double *C, int ldc) {
  if (M <= 0 || N <= 0) return;
  macs += (double)M * N * K;
  if ((long)M * N * K < nnt_gemm_blas_threshold) {
    nnt_dgemm_loops(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, M,
              N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* The default team: OMP_NUM_THREADS when set, else the cores this process may run on (its
 * affinity mask: taskset, mpirun's binding, a Slurm allocation), not every core of the machine. */
static int threads_default(void) {
  const char *e = getenv("OMP_NUM_THREADS");
  char *end;
  long v = e ? strtol(e, &end, 10) : 0;
  if (e && *e && !*end && v > 0 && v <= 1024) return (int)v;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void nnt_threads_set(int n) {
  if (n <= 0) n = threads_default();
  if (n < 1) n = 1;
  nthreads = n;
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

int nnt_threads_get(void) { return nthreads; }
