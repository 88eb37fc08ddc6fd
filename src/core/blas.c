#include "nnt_blas.h"

#include <cblas.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long nnt_gemm_blas_threshold = 200L * 200 * 200;
static int nthreads = 1;

/* The loop path: a register-blocked kernel (nn_gemm.inc) for float and double. Vectors are GCC
 * vector extensions; fused multiply-add comes from the FMA intrinsics when the target has them
 * (ISO C mode does not contract a*b+c on its own). */
#define GLUE_(a, b) a##b
#define GLUE(a, b) GLUE_(a, b)
typedef float nnt_v8f __attribute__((vector_size(32), aligned(4), __may_alias__));
typedef double nnt_v4d __attribute__((vector_size(32), aligned(8), __may_alias__));
#if defined(__FMA__) && defined(__AVX__)
#include <immintrin.h>
#define FMA_F(a, b, c) ((nnt_v8f)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#define FMA_D(a, b, c) ((nnt_v4d)_mm256_fmadd_pd((__m256d)(a), (__m256d)(b), (__m256d)(c)))
#else
#define FMA_F(a, b, c) ((a) * (b) + (c))
#define FMA_D(a, b, c) ((a) * (b) + (c))
#endif

#define GT float
#define GV nnt_v8f
#define GL 8
#define GFMA FMA_F
#define GSPLAT(x) ((nnt_v8f){(x), (x), (x), (x), (x), (x), (x), (x)})
#define GNAME nnt_sgemm_loops
#include "nn_gemm.inc"
#undef GT
#undef GV
#undef GL
#undef GFMA
#undef GSPLAT
#undef GNAME
#define GT double
#define GV nnt_v4d
#define GL 4
#define GFMA FMA_D
#define GSPLAT(x) ((nnt_v4d){(x), (x), (x), (x)})
#define GNAME nnt_dgemm_loops
#include "nn_gemm.inc"

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
