/* nnt_blas.h — matrix products and thread control.
 *
 * nnt_sgemm / nnt_dgemm compute C = alpha * op(A) op(B) + beta * C, row-major, op = transpose when
 * the flag is set. Small products (qSTR sizes: D 16–56, T 2–100) run in the register-blocked
 * loops, because OpenBLAS's per-call overhead dominates there; large ones go to cblas. The loops
 * round alike on every CPU, OpenBLAS does not (its kernels depend on the CPU it detects).
 */
#ifndef NNT_BLAS_H
#define NNT_BLAS_H

#include <stddef.h>

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
/* The loop path with op(B) packed once and reused by many products that share it (a layer's
 * weights across its row chunks, an attention head's keys across its query blocks): P holds
 * nnt_sgemm_pack_size(N, K) elements (the layout depends on the CPU level, so size it with this
 * call), filled by nnt_sgemm_pack from op(B) [K,N]. nnt_sgemm_packed computes C = alpha op(A)
 * op(B') + beta C, where op(B') [K',N'] is rows k0 .. k0+K'-1 and the first N' columns of that
 * op(B) (Kp: the pack's K), with exactly nnt_sgemm_loops's bits; it counts its multiply-adds in
 * nnt_gemm_macs_done. */
size_t nnt_sgemm_pack_size(int N, int K);
void nnt_sgemm_pack(int transB, int N, int K, const float *B, int ldb, float *P);
void nnt_sgemm_packed(int transA, int M, int N, int K, float alpha, const float *A, int lda, const float *P, int Kp,
                      int k0, float beta, float *C, int ldc);
size_t nnt_dgemm_pack_size(int N, int K);
void nnt_dgemm_pack(int transB, int N, int K, const double *B, int ldb, double *P);
void nnt_dgemm_packed(int transA, int M, int N, int K, double alpha, const double *A, int lda, const double *P, int Kp,
                      int k0, double beta, double *C, int ldc);
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
