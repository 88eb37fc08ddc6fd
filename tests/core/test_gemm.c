/* nnt_sgemm / nnt_dgemm against a naive triple loop for all transpose flags, both paths; the
 * explicit-threshold entry nnt_sgemm_min on both sides of its threshold; the multiply-add count. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_rng.h"
#include "nnt_test.h"

static void naive(int ta, int tb, int M, int N, int K, double alpha, const double *A, int lda, const double *B,
                  int ldb, double beta, double *C, int ldc) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (ta ? A[k * lda + i] : A[i * lda + k]) * (tb ? B[j * ldb + k] : B[k * ldb + j]);
      C[i * ldc + j] = alpha * s + beta * C[i * ldc + j];
    }
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 1, 0);
  static const int shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 1, 9}, {64, 48, 33}, {70, 80, 90}};
  for (int s = 0; s < 5; s++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) {
        int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
        int lda = ta ? M : K, ldb = tb ? K : N;
        double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
        double *C = malloc(sizeof(double) * M * N), *Cd = malloc(sizeof(double) * M * N);
        float *Af = malloc(sizeof(float) * M * K), *Bf = malloc(sizeof(float) * K * N), *Cf = malloc(sizeof(float) * M * N);
        nnt_rng_fill_normal_f64(&r, A, (size_t)M * K, 0, 1);
        nnt_rng_fill_normal_f64(&r, B, (size_t)K * N, 0, 1);
        nnt_rng_fill_normal_f64(&r, C, (size_t)M * N, 0, 1);
        for (int i = 0; i < M * K; i++) Af[i] = (float)A[i];
        for (int i = 0; i < K * N; i++) Bf[i] = (float)B[i];
        for (int i = 0; i < M * N; i++) Cf[i] = (float)C[i], Cd[i] = C[i];
        float *Cb = malloc(sizeof(float) * M * N), *Cl = malloc(sizeof(float) * M * N);
        memcpy(Cb, Cf, sizeof(float) * M * N), memcpy(Cl, Cf, sizeof(float) * M * N);
        double macs0 = nnt_gemm_macs_done();
        nnt_sgemm(ta, tb, M, N, K, 0.5f, Af, lda, Bf, ldb, 2.0f, Cf, N);
        nnt_dgemm(ta, tb, M, N, K, 0.5, A, lda, B, ldb, 2.0, Cd, N);
        CHECK(nnt_gemm_macs_done() - macs0 == 2.0 * M * N * K);
        nnt_sgemm_min(0, ta, tb, M, N, K, 0.5f, Af, lda, Bf, ldb, 2.0f, Cb, N);        /* always OpenBLAS */
        nnt_sgemm_min(LONG_MAX, ta, tb, M, N, K, 0.5f, Af, lda, Bf, ldb, 2.0f, Cl, N); /* always the loops */
        naive(ta, tb, M, N, K, 0.5, A, lda, B, ldb, 2.0, C, N);
        double ef = 0, ed = 0, eb = 0, el = 0;
        for (int i = 0; i < M * N; i++) {
          ef = fmax(ef, fabs(Cf[i] - C[i])), ed = fmax(ed, fabs(Cd[i] - C[i]));
          eb = fmax(eb, fabs(Cb[i] - C[i])), el = fmax(el, fabs(Cl[i] - C[i]));
        }
        CHECK_MSG(ef < 1e-3 * sqrt(K) && ed < 1e-11 * K, "shape %d ta %d tb %d: f32 err %g f64 err %g", s, ta, tb, ef, ed);
        CHECK_MSG(eb < 1e-3 * sqrt(K) && el < 1e-3 * sqrt(K), "shape %d ta %d tb %d: blas err %g loops err %g", s, ta,
                  tb, eb, el);
        free(A), free(B), free(C), free(Cd), free(Af), free(Bf), free(Cf), free(Cb), free(Cl);
      }
  TEST_MAIN_END();
}
