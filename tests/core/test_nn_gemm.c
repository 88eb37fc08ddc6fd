/* The register-blocked loop kernel (nnt_sgemm_loops / nnt_dgemm_loops) against a naive triple
 * loop on every tile edge case: rows 1..13 (row blocks of 6 and their remainders), columns
 * around the panel widths (8 and 16 floats, 4 and 8 doubles), K = 0 and 1, padded leading
 * dimensions, all transpose flags and alpha/beta cases (beta = 0 must not read C: it starts NaN).
 * Pass 1 runs nnt_sgemm / nnt_dgemm with the BLAS threshold at 0, so the OpenBLAS path is checked
 * the same way (K = 0 excluded there: cblas rejects a leading dimension of 0). */
#include <stdlib.h>

#include "nnt_blas.h"
#include "nnt_rng.h"
#include "nnt_test.h"

static void naive(int ta, int tb, int M, int N, int K, double alpha, const double *A, int lda, const double *B, int ldb,
                  double beta, double *C, int ldc) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (ta ? A[k * lda + i] : A[i * lda + k]) * (tb ? B[j * ldb + k] : B[k * ldb + j]);
      C[i * ldc + j] = beta == 0 ? alpha * s : alpha * s + beta * C[i * ldc + j];
    }
}

/* |a - b|, with NaN = NaN (untouched padding) and NaN against a number = infinity */
static double diff(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INFINITY;
  return fabs(a - b);
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 3, 0);
  static const int Ms[] = {1, 2, 5, 6, 7, 13}, Ns[] = {1, 3, 4, 5, 8, 9, 15, 16, 17, 24, 33}, Ks[] = {0, 1, 2, 7, 40};
  static const double ab[][2] = {{1, 0}, {0.5, 1}, {-1.5, 0.25}, {0, 2}};
  int bad = 0, cases = 0;
  for (int pass = 0; pass < 2; pass++)
  for (int mi = 0; mi < 6; mi++)
    for (int ni = 0; ni < 11; ni++)
      for (int ki = 0; ki < 5; ki++)
        for (int t = 0; t < 4; t++) {
          int M = Ms[mi], N = Ns[ni], K = Ks[ki], ta = t & 1, tb = t >> 1, pad = (mi + ni + ki) % 3;
          if (pass == 1 && K == 0) continue;
          int lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad, ldc = N + pad;
          int ar = ta ? K : M, br = tb ? N : K; /* stored rows of A and B */
          const double *al = ab[(mi + ni + ki + t) % 4];
          size_t na = (size_t)(ar ? ar : 1) * lda + 1, nb = (size_t)(br ? br : 1) * ldb + 1, nc = (size_t)M * ldc;
          double *A = malloc(sizeof(double) * na), *B = malloc(sizeof(double) * nb), *C = malloc(sizeof(double) * nc);
          double *Cd = malloc(sizeof(double) * nc);
          float *Af = malloc(sizeof(float) * na), *Bf = malloc(sizeof(float) * nb), *Cf = malloc(sizeof(float) * nc);
          nnt_rng_fill_normal_f64(&r, A, na, 0, 1);
          nnt_rng_fill_normal_f64(&r, B, nb, 0, 1);
          nnt_rng_fill_normal_f64(&r, C, nc, 0, 1);
          if (al[1] == 0)
            for (size_t i = 0; i < nc; i++) C[i] = NAN;
          for (size_t i = 0; i < na; i++) Af[i] = (float)A[i];
          for (size_t i = 0; i < nb; i++) Bf[i] = (float)B[i];
          for (size_t i = 0; i < nc; i++) Cf[i] = (float)C[i], Cd[i] = C[i];
          if (pass == 0) {
            nnt_sgemm_loops(ta, tb, M, N, K, (float)al[0], Af, lda, Bf, ldb, (float)al[1], Cf, ldc);
            nnt_dgemm_loops(ta, tb, M, N, K, al[0], A, lda, B, ldb, al[1], Cd, ldc);
          } else {
            long keep = nnt_gemm_blas_threshold;
            nnt_gemm_blas_threshold = 0;
            nnt_sgemm(ta, tb, M, N, K, (float)al[0], Af, lda, Bf, ldb, (float)al[1], Cf, ldc);
            nnt_dgemm(ta, tb, M, N, K, al[0], A, lda, B, ldb, al[1], Cd, ldc);
            nnt_gemm_blas_threshold = keep;
          }
          naive(ta, tb, M, N, K, al[0], A, lda, B, ldb, al[1], C, ldc);
          double ef = 0, ed = 0;
          for (int i = 0; i < M; i++)
            for (int j = 0; j < ldc; j++) { /* the padding columns must stay untouched */
              size_t q = (size_t)i * ldc + j;
              double want = C[q];
              ef = fmax(ef, diff(Cf[q], want)), ed = fmax(ed, diff(Cd[q], want));
            }
          if (!(ef < 1e-4 * (K + 1) && ed < 1e-13 * (K + 1))) {
            bad++;
            fprintf(stderr, "%s M %d N %d K %d ta %d tb %d alpha %g beta %g: f32 err %g f64 err %g\n",
                    pass ? "blas" : "loops", M, N, K, ta, tb, al[0], al[1], ef, ed);
          }
          cases++;
          free(A), free(B), free(C), free(Cd), free(Af), free(Bf), free(Cf);
        }
  CHECK_MSG(bad == 0, "%d of %d kernel cases wrong", bad, cases);
  TEST_MAIN_END();
}
