/* Instruction-set levels (nnt_cpu.h): NNT_ISA is validated, and every compiled level of the GEMM
 * loop kernel that this CPU runs equals, bit for bit, an independent reference — each entry of C
 * the sequential fused sum over k (fmaf / fma), then alpha * sum (+ beta * C) — on tile edge
 * cases of every level's panel width (8/16 floats at AVX2, 16/32 at AVX-512). A level that
 * rounded differently (a multiply and an add instead of a fused one, a reordered sum) fails.
 * The arithmetic peak (nnt_cpu_fma_peak) of every level runs and returns a positive finite rate;
 * its value is no test's business (under qemu it says nothing about any CPU). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_rng.h"
#include "nnt_test.h"

typedef void sgemm_fn(int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void dgemm_fn(int, int, int, int, int, double, const double *, int, const double *, int, double, double *,
                      int);
NNT_ISA_DECLARE(void, nnt_sgemm_loops, (int, int, int, int, int, float, const float *, int, const float *, int,
                                        float, float *, int));
NNT_ISA_DECLARE(double, nnt_cpu_fma_peak, (double));
NNT_ISA_DECLARE(void, nnt_dgemm_loops, (int, int, int, int, int, double, const double *, int, const double *, int,
                                        double, double *, int));

static void ref_s(int ta, int tb, int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                  float beta, float *C, int ldc) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++) s = fmaf(ta ? A[k * lda + i] : A[i * lda + k], tb ? B[j * ldb + k] : B[k * ldb + j], s);
      float *c = C + (size_t)i * ldc + j;
      *c = K == 0 || alpha == 0 ? (beta == 0 ? 0 : beta * *c) : beta == 0 ? alpha * s : beta * *c + alpha * s;
    }
}

static void ref_d(int ta, int tb, int M, int N, int K, double alpha, const double *A, int lda, const double *B, int ldb,
                  double beta, double *C, int ldc) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < K; k++) s = fma(ta ? A[k * lda + i] : A[i * lda + k], tb ? B[j * ldb + k] : B[k * ldb + j], s);
      double *c = C + (size_t)i * ldc + j;
      *c = K == 0 || alpha == 0 ? (beta == 0 ? 0 : beta * *c) : beta == 0 ? alpha * s : beta * *c + alpha * s;
    }
}

static void check_env(void) {
  setenv("NNT_ISA", "sse9", 1);
  CHECK(nnt_cpu_check() == NNT_EINVAL && strstr(nnt_errmsg(), "unknown level"));
  CHECK(strstr(nnt_errmsg(), nnt_cpu_isa_choices()) != NULL);
  /* off x86-64 the x86 levels are another architecture's, not levels this CPU lacks */
#if defined(__x86_64__)
  const char *lacks = "at most";
#else
  const char *lacks = "an x86-64 level, not in this build";
#endif
  for (int l = NNT_ISA_GENERIC; l <= NNT_ISA_AVX512; l++) {
    setenv("NNT_ISA", nnt_cpu_isa_name((nnt_isa)l), 1);
    int st = nnt_cpu_check();
    CHECK_MSG(l <= (int)nnt_cpu_isa_max() ? st == NNT_OK : st == NNT_EINVAL && strstr(nnt_errmsg(), lacks),
              "NNT_ISA=%s: status %d (%s)", nnt_cpu_isa_name((nnt_isa)l), st, st ? nnt_errmsg() : "");
  }
  /* every name the build offers is a level of this architecture: chosen, or one this CPU lacks */
  char choices[64];
  snprintf(choices, sizeof choices, "%s", nnt_cpu_isa_choices());
  for (char *save = NULL, *name = strtok_r(choices, "|", &save); name; name = strtok_r(NULL, "|", &save)) {
    setenv("NNT_ISA", name, 1);
    int st = nnt_cpu_check();
    CHECK_MSG(st == NNT_OK || strstr(nnt_errmsg(), "at most"), "NNT_ISA=%s: %s", name, nnt_errmsg());
  }
#if defined(__x86_64__)
  setenv("NNT_ISA", "neon", 1);
  CHECK(nnt_cpu_check() == NNT_EINVAL && strstr(nnt_errmsg(), "NNT_ISA=neon: an aarch64 level, not in this build"));
#endif
  unsetenv("NNT_ISA");
  CHECK(nnt_cpu_check() == NNT_OK);
  CHECK(strcmp(nnt_cpu_isa_name(nnt_cpu_isa_max()), "?") != 0);
}

static void check_peak(void) {
  double (*peak[3])(double) = {nnt_cpu_fma_peak_generic};
#if NNT_ISA_LEVELS >= 2
  peak[1] = nnt_cpu_fma_peak_avx2;
#endif
#if NNT_ISA_LEVELS >= 3
  peak[2] = nnt_cpu_fma_peak_avx512;
#endif
  for (int level = 0; level <= (int)nnt_cpu_isa_max(); level++) {
    double p = peak[level](0.02);
    CHECK_MSG(p > 0 && isfinite(p), "%s: fma peak %g", nnt_cpu_isa_name((nnt_isa)level), p);
  }
  double p = nnt_cpu_fma_peak(0.02);
  CHECK_MSG(p > 0 && isfinite(p), "fma peak at the level in use: %g", p);
}

int main(void) {
  check_env();
  check_peak();
  printf("levels built %d, CPU maximum %s, flags %s\n", NNT_ISA_LEVELS, nnt_cpu_isa_name(nnt_cpu_isa_max()),
         nnt_cpu_flags());
  sgemm_fn *sf[3] = {nnt_sgemm_loops_generic};
  dgemm_fn *df[3] = {nnt_dgemm_loops_generic};
#if NNT_ISA_LEVELS >= 2
  sf[1] = nnt_sgemm_loops_avx2, df[1] = nnt_dgemm_loops_avx2;
#endif
#if NNT_ISA_LEVELS >= 3
  sf[2] = nnt_sgemm_loops_avx512, df[2] = nnt_dgemm_loops_avx512;
#endif
  nnt_rng r;
  nnt_rng_init(&r, 11, 0);
  /* M = 37 and 100 with op(A) = A^T run the narrow last panels (N = 33, 34, 36, 65) down the rows */
  static const int Ms[] = {1, 5, 6, 7, 13, 37, 100}, Ns[] = {1, 7, 8, 9, 16, 17, 31, 32, 33, 34, 36, 48, 65};
  static const int Ks[] = {0, 1, 3, 40, 300};
  static const float ab[][2] = {{1, 0}, {0.5f, 1}, {-1.5f, 0.25f}, {0, 2}};
  int cases = 0;
  for (int level = 0; level <= (int)nnt_cpu_isa_max(); level++)
    for (int mi = 0; mi < 7; mi++)
      for (int ni = 0; ni < 13; ni++)
        for (int ki = 0; ki < 5; ki++) {
          int M = Ms[mi], N = Ns[ni], K = Ks[ki], t = (mi + ni + ki) % 4, ta = t & 1, tb = t >> 1, pad = ki % 2;
          int lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad, ldc = N + pad;
          size_t na = (size_t)(ta ? K : M) * lda + 1, nb = (size_t)(tb ? N : K) * ldb + 1, nc = (size_t)M * ldc;
          const float *al = ab[(mi + ni) % 4];
          double *A = malloc(sizeof(double) * na), *B = malloc(sizeof(double) * nb), *C = malloc(sizeof(double) * nc);
          double *Cr = malloc(sizeof(double) * nc);
          float *Af = malloc(sizeof(float) * na), *Bf = malloc(sizeof(float) * nb);
          float *Cf = malloc(sizeof(float) * nc), *Cfr = malloc(sizeof(float) * nc);
          nnt_rng_fill_normal_f64(&r, A, na, 0, 1);
          nnt_rng_fill_normal_f64(&r, B, nb, 0, 1);
          nnt_rng_fill_normal_f64(&r, C, nc, 0, 1);
          for (size_t i = 0; i < na; i++) Af[i] = (float)A[i];
          for (size_t i = 0; i < nb; i++) Bf[i] = (float)B[i];
          for (size_t i = 0; i < nc; i++) Cf[i] = Cfr[i] = (float)C[i], Cr[i] = C[i];
          sf[level](ta, tb, M, N, K, al[0], Af, lda, Bf, ldb, al[1], Cf, ldc);
          ref_s(ta, tb, M, N, K, al[0], Af, lda, Bf, ldb, al[1], Cfr, ldc);
          df[level](ta, tb, M, N, K, al[0], A, lda, B, ldb, al[1], C, ldc);
          ref_d(ta, tb, M, N, K, al[0], A, lda, B, ldb, al[1], Cr, ldc);
          CHECK_MSG(!memcmp(Cf, Cfr, sizeof(float) * nc) && !memcmp(C, Cr, sizeof(double) * nc),
                    "%s M %d N %d K %d ta %d tb %d: not bit-identical to the fused reference",
                    nnt_cpu_isa_name((nnt_isa)level), M, N, K, ta, tb);
          free(A), free(B), free(C), free(Cr), free(Af), free(Bf), free(Cf), free(Cfr);
          cases++;
        }
  printf("%d products checked bit for bit\n", cases);
  TEST_MAIN_END();
}
