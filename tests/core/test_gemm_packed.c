/* nnt_sgemm_pack / nnt_sgemm_packed (and the float64 pair): a product on rows k0 .. k0+K-1 and the
 * first N columns of a larger packed op(B) must give exactly the bits of nnt_sgemm_loops on that
 * sub-matrix — every transpose flag, row and column edge, k0 at 0 and inside, alpha/beta cases
 * (beta = 0 must not read C: it starts NaN) — and the padding columns of C stay untouched. Run at
 * every instruction-set level (the NAME@LEVEL tests), where the pack layout differs. */
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_rng.h"
#include "nnt_test.h"

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 5, 0);
  static const int Ms[] = {1, 5, 6, 13}, Ns[] = {1, 7, 16, 17, 33}, Ks[] = {0, 1, 9, 40}, K0s[] = {0, 3};
  static const double ab[][2] = {{1, 0}, {0.5, 1}, {-1.5, 0.25}, {0, 2}};
  int bad = 0, cases = 0;
  for (int mi = 0; mi < 4; mi++)
    for (int ni = 0; ni < 5; ni++)
      for (int ki = 0; ki < 4; ki++)
        for (int k0i = 0; k0i < 2; k0i++)
          for (int t = 0; t < 4; t++) {
            int M = Ms[mi], N = Ns[ni], K = Ks[ki], k0 = K0s[k0i], ta = t & 1, tb = t >> 1;
            int Np = N + 5, Kp = k0 + K + 2;                /* the packed op(B) is larger on both sides */
            int lda = (ta ? M : K) + 1, ldb = (tb ? Kp : Np) + 2, ldc = N + 1;
            size_t na = (size_t)(ta ? K : M) * lda + 1, nb = (size_t)(tb ? Np : Kp) * ldb, nc = (size_t)M * ldc;
            const double *al = ab[(mi + ni + ki + t) % 4];
            double *A = malloc(sizeof(double) * na), *B = malloc(sizeof(double) * nb);
            double *Cd[2] = {malloc(sizeof(double) * nc), malloc(sizeof(double) * nc)};
            float *Af = malloc(sizeof(float) * na), *Bf = malloc(sizeof(float) * nb);
            float *Cf[2] = {malloc(sizeof(float) * nc), malloc(sizeof(float) * nc)};
            double *Pd = malloc(sizeof(double) * nnt_dgemm_pack_size(Np, Kp));
            float *Pf = malloc(sizeof(float) * nnt_sgemm_pack_size(Np, Kp));
            nnt_rng_fill_normal_f64(&r, A, na, 0, 1);
            nnt_rng_fill_normal_f64(&r, B, nb, 0, 1);
            nnt_rng_fill_normal_f64(&r, Cd[0], nc, 0, 1);
            if (al[1] == 0)
              for (size_t i = 0; i < nc; i++) Cd[0][i] = NAN;
            for (size_t i = 0; i < na; i++) Af[i] = (float)A[i];
            for (size_t i = 0; i < nb; i++) Bf[i] = (float)B[i];
            for (size_t i = 0; i < nc; i++) Cf[0][i] = (float)Cd[0][i];
            memcpy(Cd[1], Cd[0], sizeof(double) * nc), memcpy(Cf[1], Cf[0], sizeof(float) * nc);
            size_t off = tb ? (size_t)k0 : (size_t)k0 * ldb; /* op(B) row k0 in storage */
            nnt_sgemm_loops(ta, tb, M, N, K, (float)al[0], Af, lda, Bf + off, ldb, (float)al[1], Cf[0], ldc);
            nnt_dgemm_loops(ta, tb, M, N, K, al[0], A, lda, B + off, ldb, al[1], Cd[0], ldc);
            nnt_sgemm_pack(tb, Np, Kp, Bf, ldb, Pf);
            nnt_dgemm_pack(tb, Np, Kp, B, ldb, Pd);
            nnt_sgemm_packed(ta, M, N, K, (float)al[0], Af, lda, Pf, Kp, k0, (float)al[1], Cf[1], ldc);
            nnt_dgemm_packed(ta, M, N, K, al[0], A, lda, Pd, Kp, k0, al[1], Cd[1], ldc);
            if (memcmp(Cf[0], Cf[1], sizeof(float) * nc) || memcmp(Cd[0], Cd[1], sizeof(double) * nc)) {
              bad++;
              fprintf(stderr, "M %d N %d K %d k0 %d ta %d tb %d alpha %g beta %g: packed differs from loops\n", M, N, K,
                      k0, ta, tb, al[0], al[1]);
            }
            cases++;
            free(A), free(B), free(Cd[0]), free(Cd[1]), free(Af), free(Bf), free(Cf[0]), free(Cf[1]), free(Pd), free(Pf);
          }
  CHECK_MSG(bad == 0, "%d of %d packed cases differ from the loops", bad, cases);
  TEST_MAIN_END();
}
