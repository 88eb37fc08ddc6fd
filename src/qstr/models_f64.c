/* float64 instance of the qSTR model kernels (finite-difference gradient checks). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_dmath.h"
#include "nnt_error.h"
#include "nnt_qstr.h"

#define NNT_REAL_BITS 64
#include "nnt_real.h"
#include "models.inc"
