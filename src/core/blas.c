#include "nnt_blas.h"

#include <cblas.h>
#include <omp.h>
#include <unistd.h>

long nnt_gemm_blas_threshold = 48L * 48 * 48;
static int nthreads = 1;

/* C[M,N] = beta*C + alpha * op(A)[M,K] op(B)[K,N]; the inner loop always runs over a contiguous
 * row so it vectorises: for op(B) = B we stream rows of B, for op(B) = B^T we take dot products. */
#define GEMM_LOOPS(T)                                                                           \
  for (int i = 0; i < M; i++) {                                                                 \
    T *c = C + (size_t)i * ldc;                                                                 \
    if (beta == 0) for (int j = 0; j < N; j++) c[j] = 0;                                        \
    else if (beta != 1) for (int j = 0; j < N; j++) c[j] *= beta;                               \
    if (!transB) {                                                                              \
      for (int k = 0; k < K; k++) {                                                             \
        T a = alpha * (transA ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k]);               \
        const T *b = B + (size_t)k * ldb;                                                       \
        for (int j = 0; j < N; j++) c[j] += a * b[j];                                           \
      }                                                                                         \
    } else if (!transA) {                                                                       \
      const T *a = A + (size_t)i * lda;                                                         \
      for (int j = 0; j < N; j++) {                                                             \
        const T *b = B + (size_t)j * ldb;                                                       \
        T s = 0;                                                                                \
        for (int k = 0; k < K; k++) s += a[k] * b[k];                                           \
        c[j] += alpha * s;                                                                      \
      }                                                                                         \
    } else {                                                                                    \
      for (int j = 0; j < N; j++) {                                                             \
        const T *b = B + (size_t)j * ldb;                                                       \
        T s = 0;                                                                                \
        for (int k = 0; k < K; k++) s += A[(size_t)k * lda + i] * b[k];                         \
        c[j] += alpha * s;                                                                      \
      }                                                                                         \
    }                                                                                           \
  }

void nnt_sgemm_loops(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
                     const float *B, int ldb, float beta, float *C, int ldc) {
  GEMM_LOOPS(float)
}

void nnt_dgemm_loops(int transA, int transB, int M, int N, int K, double alpha, const double *A,
                     int lda, const double *B, int ldb, double beta, double *C, int ldc) {
  GEMM_LOOPS(double)
}

void nnt_sgemm(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
               const float *B, int ldb, float beta, float *C, int ldc) {
  if (M <= 0 || N <= 0) return;
  if ((long)M * N * K < nnt_gemm_blas_threshold) {
    nnt_sgemm_loops(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, M,
              N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void nnt_dgemm(int transA, int transB, int M, int N, int K, double alpha, const double *A, int lda,
               const double *B, int ldb, double beta, double *C, int ldc) {
  if (M <= 0 || N <= 0) return;
  if ((long)M * N * K < nnt_gemm_blas_threshold) {
    nnt_dgemm_loops(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, M,
              N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void nnt_threads_set(int n) {
  if (n <= 0) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  nthreads = n;
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

int nnt_threads_get(void) { return nthreads; }
