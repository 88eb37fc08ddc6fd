/* The loop path of nnt_sgemm / nnt_dgemm at one instruction-set level (compiled once per level,
 * see nnt_cpu.h): the register-blocked kernel of nn_gemm.inc on GCC vectors of 32 bytes (generic,
 * AVX2) or 64 bytes (AVX-512). Every level computes each entry of C as the same sequential fused
 * sum over k — only the tile width changes — so the levels agree bit for bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_simd.h"

#define GLUE_(a, b) a##b
#define GLUE(a, b) GLUE_(a, b)

#if NNT_ISA_LEVEL == 2
typedef float gemm_vf __attribute__((vector_size(64), aligned(4), __may_alias__));
typedef double gemm_vd __attribute__((vector_size(64), aligned(8), __may_alias__));
#define LANES_F 16
#define LANES_D 8
#define FMA_F(a, b, c) ((gemm_vf)_mm512_fmadd_ps((__m512)(a), (__m512)(b), (__m512)(c)))
#define FMA_D(a, b, c) ((gemm_vd)_mm512_fmadd_pd((__m512d)(a), (__m512d)(b), (__m512d)(c)))
#define SPLAT_F(x) ((gemm_vf)_mm512_set1_ps(x))
#define SPLAT_D(x) ((gemm_vd)_mm512_set1_pd(x))
/* the first w lanes of a row (0 < w <= lanes) */
#define MASK_LOAD_F(p, w) ((gemm_vf)_mm512_maskz_loadu_ps((__mmask16)((1u << (w)) - 1), p))
#define MASK_STORE_F(p, w, v) _mm512_mask_storeu_ps(p, (__mmask16)((1u << (w)) - 1), (__m512)(v))
#define MASK_LOAD_D(p, w) ((gemm_vd)_mm512_maskz_loadu_pd((__mmask8)((1u << (w)) - 1), p))
#define MASK_STORE_D(p, w, v) _mm512_mask_storeu_pd(p, (__mmask8)((1u << (w)) - 1), (__m512d)(v))
#else
typedef float gemm_vf __attribute__((vector_size(32), aligned(4), __may_alias__));
typedef double gemm_vd __attribute__((vector_size(32), aligned(8), __may_alias__));
#define LANES_F 8
#define LANES_D 4
#define SPLAT_F(x) ((gemm_vf){(x), (x), (x), (x), (x), (x), (x), (x)})
#define SPLAT_D(x) ((gemm_vd){(x), (x), (x), (x)})
/* generic level (no FMA unit assumed): nnt_simd.h's exact emulations, one rounding like the
 * instruction (per-lane libm fmaf here was half the generic level's time) */
#if NNT_ISA_LEVEL == 0
#pragma GCC diagnostic ignored "-Wpsabi" /* static helpers: no ABI crosses a file */
#undef SPLAT_F /* GCC builds the initializer with four narrow stores and one wide load (a stall) */
#define SPLAT_F(x) ((gemm_vf)_mm256_set1_ps(x))
#endif
#define FMA_F(a, b, c) ((gemm_vf)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#define FMA_D(a, b, c) ((gemm_vd)_mm256_fmadd_pd((__m256d)(a), (__m256d)(b), (__m256d)(c)))
#endif

#if NNT_ISA_LEVEL >= 1 /* the transposing pack's 8 x 8 blocks through vector registers (the scalar loop
                        * was a fifth of the FFN's training step) */
#define GPACK_T8 nnt_simd_transpose8
#endif

#define NNT_REAL_BITS 32
#include "nnt_real.h"
#define GV gemm_vf
#define GL LANES_F
#define GFMA FMA_F
#define GSPLAT SPLAT_F
#if NNT_ISA_LEVEL == 1
#define GN __m256
#define GN_LOAD _mm256_loadu_ps
#define GN_FMA _mm256_fmadd_ps
#define GN_SPLAT _mm256_set1_ps
#endif
#if NNT_ISA_LEVEL == 2
#define GN __m512
#define GN_LOAD _mm512_loadu_ps
#define GN_FMA _mm512_fmadd_ps
#define GN_SPLAT _mm512_set1_ps
#define GMASK_LOAD MASK_LOAD_F
#define GMASK_STORE MASK_STORE_F
#endif
#define GEMM_PACK nnt_sgemm_pack
#define GEMM_PACK_SIZE nnt_sgemm_pack_size
#define GEMM_PACKED nnt_sgemm_packed
#include "nn_gemm.inc"
#undef GV
#undef GL
#undef GFMA
#undef GSPLAT
#undef GMASK_LOAD
#undef GMASK_STORE
#undef NNT_REAL_BITS
#undef GEMM_PACK
#undef GEMM_PACK_SIZE
#undef GEMM_PACKED
#undef GPACK_T8
#define NNT_REAL_BITS 64
#include "nnt_real.h"
#define GV gemm_vd
#define GL LANES_D
#define GFMA FMA_D
#define GSPLAT SPLAT_D
#if NNT_ISA_LEVEL == 1
#define GN __m256d
#define GN_LOAD _mm256_loadu_pd
#define GN_FMA _mm256_fmadd_pd
#define GN_SPLAT _mm256_set1_pd
#endif
#if NNT_ISA_LEVEL == 2
#define GN __m512d
#define GN_LOAD _mm512_loadu_pd
#define GN_FMA _mm512_fmadd_pd
#define GN_SPLAT _mm512_set1_pd
#define GMASK_LOAD MASK_LOAD_D
#define GMASK_STORE MASK_STORE_D
#endif
#define GEMM_PACK nnt_dgemm_pack
#define GEMM_PACK_SIZE nnt_dgemm_pack_size
#define GEMM_PACKED nnt_dgemm_packed
#include "nn_gemm.inc"

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(void, nnt_sgemm_loops, (int, int, int, int, int, float, const float *, int, const float *, int,
                                        float, float *, int));
NNT_ISA_DECLARE(void, nnt_dgemm_loops, (int, int, int, int, int, double, const double *, int, const double *, int,
                                        double, double *, int));

void nnt_sgemm_loops(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda,
                     const float *B, int ldb, float beta, float *C, int ldc) {
  NNT_ISA_PICK(nnt_sgemm_loops)(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void nnt_dgemm_loops(int transA, int transB, int M, int N, int K, double alpha, const double *A, int lda,
                     const double *B, int ldb, double beta, double *C, int ldc) {
  NNT_ISA_PICK(nnt_dgemm_loops)(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
NNT_ISA_DECLARE(size_t, nnt_sgemm_pack_size, (int, int));
NNT_ISA_DECLARE(size_t, nnt_dgemm_pack_size, (int, int));
NNT_ISA_DECLARE(void, nnt_sgemm_pack, (int, int, int, const float *, int, float *));
NNT_ISA_DECLARE(void, nnt_dgemm_pack, (int, int, int, const double *, int, double *));
NNT_ISA_DECLARE(void, nnt_sgemm_packed,
                (int, int, int, int, float, const float *, int, const float *, int, int, float, float *, int));
NNT_ISA_DECLARE(void, nnt_dgemm_packed,
                (int, int, int, int, double, const double *, int, const double *, int, int, double, double *, int));

size_t nnt_sgemm_pack_size(int N, int K) { return NNT_ISA_PICK(nnt_sgemm_pack_size)(N, K); }
size_t nnt_dgemm_pack_size(int N, int K) { return NNT_ISA_PICK(nnt_dgemm_pack_size)(N, K); }
void nnt_sgemm_pack(int transB, int N, int K, const float *B, int ldb, float *P) {
  NNT_ISA_PICK(nnt_sgemm_pack)(transB, N, K, B, ldb, P);
}
void nnt_dgemm_pack(int transB, int N, int K, const double *B, int ldb, double *P) {
  NNT_ISA_PICK(nnt_dgemm_pack)(transB, N, K, B, ldb, P);
}
void nnt_sgemm_packed(int transA, int M, int N, int K, float alpha, const float *A, int lda, const float *P, int Kp,
                      int k0, float beta, float *C, int ldc) {
  if (M > 0 && N > 0) nnt_gemm_macs_add((double)M * N * K);
  NNT_ISA_PICK(nnt_sgemm_packed)(transA, M, N, K, alpha, A, lda, P, Kp, k0, beta, C, ldc);
}
void nnt_dgemm_packed(int transA, int M, int N, int K, double alpha, const double *A, int lda, const double *P, int Kp,
                      int k0, double beta, double *C, int ldc) {
  if (M > 0 && N > 0) nnt_gemm_macs_add((double)M * N * K);
  NNT_ISA_PICK(nnt_dgemm_packed)(transA, M, N, K, alpha, A, lda, P, Kp, k0, beta, C, ldc);
}
#endif
