/* nnt_blas.h — matrix products and thread control.
 *
 * nnt_sgemm / nnt_dgemm compute C = alpha * op(A) op(B) + beta * C, row-major, op = transpose when
 * the flag is set. Small products (qSTR sizes: D 16–56, T 2–100) run in loops the compiler
 * vectorises, because OpenBLAS's per-call overhead dominates there; large ones go to cblas.
 */
#ifndef NNT_BLAS_H
#define NNT_BLAS_H

void nnt_sgemm(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
               const float *B, int ldb, float beta, float *C, int ldc);
void nnt_dgemm(int transA, int transB, int M, int N, int K, double alpha, const double *A, int lda,
               const double *B, int ldb, double beta, double *C, int ldc);
/* The loop path alone (used below the BLAS threshold; exposed for the benchmark and tests). */
void nnt_sgemm_loops(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
                     const float *B, int ldb, float beta, float *C, int ldc);
void nnt_dgemm_loops(int transA, int transB, int M, int N, int K, double alpha, const double *A, int lda,
                     const double *B, int ldb, double beta, double *C, int ldc);
/* M*N*K at or above which nnt_sgemm / nnt_dgemm call OpenBLAS (measured: docs/core_layers.md). */
extern long nnt_gemm_blas_threshold;

/* Sets the thread count of OpenMP regions and of OpenBLAS (n <= 0: number of cores). */
void nnt_threads_set(int n);
int nnt_threads_get(void);

#endif
