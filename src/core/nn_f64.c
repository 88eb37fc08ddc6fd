/* nn_f64.c — the float64 layers (nnt_<layer>_forward_f64/_backward_f64), from nn_layers.inc. */
#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_nn.h"
#include "nnt_vmath.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>
#undef I /* <tgmath.h> brings complex.h's imaginary unit I; here I is an input width */

#define NNT_REAL_BITS 64
#include "nnt_real.h"
#include "nn_layers.inc"
