/* nnt_blas.h — matrix products and thread control.
 *
 * nnt_sgemm / nnt_dgemm compute C = alpha * op(A) op(B) + beta * C, row-major, op = transpose when
 * the flag is set. Small products (qSTR sizes: D 16–56, T 2–100) run in the register-blocked
 * loops, because OpenBLAS's per-call overhead dominates there; large ones go to cblas. The loops
 * round alike on every CPU, OpenBLAS does not (its kernels depend on the CPU it detects).
 */
#ifndef NNT_BLAS_H
#define NNT_BLAS_H

/* The one float32 entry: the loops below blas_min multiply-adds (M*N*K), OpenBLAS at or above
 * (LONG_MAX: never, so results do not depend on the machine). nnt_sgemm is this with
 * nnt_gemm_blas_threshold. */
void nnt_sgemm_min(long blas_min, int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc);
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

/* Multiply-adds of the products this thread has run through nnt_sgemm_min / nnt_sgemm /
 * nnt_dgemm (a roofline numerator); _add counts kernels that do their products otherwise. */
double nnt_gemm_macs_done(void);
void nnt_gemm_macs_add(double macs);

/* Sets the thread count of OpenMP regions and of OpenBLAS (n <= 0: number of cores). */
void nnt_threads_set(int n);
int nnt_threads_get(void);

#endif
