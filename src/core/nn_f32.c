/* nn_f32.c — the float32 layers (nnt_<layer>_forward/_backward), from nn_layers.inc. */
#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_nn.h"
#include "nnt_vmath.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>
#undef I /* <tgmath.h> brings complex.h's imaginary unit I; here I is an input width */

#define NNT_REAL_BITS 32
#define NNT_SOFTMAX_ROW nnt_softmax_row_fast /* float32 only: 8 lanes, nnt_vmath's expf */
#define NNT_SOFTMAX_ROW_GRAD nnt_softmax_row_grad_fast
#define NNT_RELU_ROW_GRAD nnt_relu_row_grad_fast
#define NNT_LAYERNORM_FAST /* float32 only: nnt_layernorm_fast_forward/_backward, 8 lanes */
#include "nnt_real.h"
#include "nn_layers.inc"
