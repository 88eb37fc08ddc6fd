/* float32 instance of the qSTR model kernels (training and evaluation). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

#define REAL float
#define SFX f32
#define GEMM nnt_sgemm
#include "models.inc"

const float *nnt_qstr_attention_f32(const nnt_qstr_model *mo, const nnt_qstr_ws_f32 *ws, int b, int h) {
  size_t NN = (size_t)mo->N * mo->N;
  return mo->arch == NNT_QSTR_TRP ? ws->att + ((size_t)b * mo->H + h) * NN : ws->att + (size_t)b * NN;
}
