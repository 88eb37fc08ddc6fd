/* nn_f32.c — the float32 layers (nnt_<layer>_forward/_backward), from nn_layers.inc. */
#include "nnt_blas.h"
#include "nnt_nn.h"
#include "nnt_vmath.h"

#include <string.h>
#include <tgmath.h>
#undef I /* <tgmath.h> brings complex.h's imaginary unit I; here I is an input width */

#define nnt_real float
#define NNT_FN(name) name
#define NNT_GEMM nnt_sgemm
#define NNT_GEMM_LOOPS nnt_sgemm_loops
#include "nn_layers.inc"
