/* float32 instance of the qSTR model kernels (training and evaluation). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

#include <cblas.h>

/* Products from about 64^3 multiply-adds up go to OpenBLAS: measured faster than the core's loop
 * path for the qSTR shapes (nnt bench qstr); below, the loops avoid the call overhead. */
static long qstr_blas_min = 64L * 64 * 64;

static void qstr_sgemm(int ta, int tb, int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc) {
  if (M <= 0 || N <= 0) return;
  if ((long)M * N * K < qstr_blas_min) {
    nnt_sgemm_loops(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N, K, alpha, A, lda,
              B, ldb, beta, C, ldc);
}

void nnt_qstr_set_blas_min(long macs) { qstr_blas_min = macs; }

#define REAL float
#define SFX f32
#define GEMM qstr_sgemm
#include "models.inc"

const float *nnt_qstr_attention_f32(const nnt_qstr_model *mo, const nnt_qstr_ws_f32 *ws, int b, int h) {
  size_t NN = (size_t)mo->N * mo->N;
  return mo->arch == NNT_QSTR_TRP ? ws->att + ((size_t)b * mo->H + h) * NN : ws->att + (size_t)b * NN;
}
