/* qstr_sparse.h (internal) — the FFN's hidden layers on ReLU outputs, most of them zero (about 80%
 * in the Figure-1 sweeps), for the test evaluation and the training forward:
 *   Y[b][c] = act(sum_{k: X[b][k] != 0} X[b][k] W[c][k] + bias[c]),
 * each row's nonzero inputs listed once and every column summed over them only, the terms in
 * increasing k with fused multiply-adds as the core's dense product adds them, so the same bits: a
 * zero input adds an exact zero there (the sum starts at +0 and never becomes -0). */
#ifndef QSTR_SPARSE_H
#define QSTR_SPARSE_H
#include "nnt_cpu.h"

/* narrower layers keep the dense product (too few independent FMA chains) */
#define NNT_QSTR_SPARSE_MIN 64

/* WT's row length for `out` columns: whole blocks of 64 floats (four 512-bit vectors), and one
 * vector more where that is a multiple of 1 KiB: rows 4 KiB apart share the same L1 sets (an
 * evaluation at N = 12 ran 25% slower) */
static inline int nnt_qstr_sparse_width(int out) {
  int w = (out + 63) / 64 * 64;
  return w % 256 ? w : w + 16;
}

/* WT[k][c] = W[c][k] (W: out x in), columns out..outp zero */
NNT_ISA_DECLARE(void, nnt_qstr_pack_wt, (const float *W, int out, int in, int outp, float *WT));
/* Y (B x out, rows ldy apart) from X (B x in, rows ldx apart) and WT (in x outp): act(bias + sum),
 * act = ReLU when relu, else identity. Scratch: nzi, nzv B x in, nzc B. */
NNT_ISA_DECLARE(void, nnt_qstr_sparse_layer, (int B, int in, int ldx, int out, int outp, const float *X,
                                              const float *WT, const float *bias, int relu, float *Y, int ldy, int *nzi,
                                              float *nzv, int *nzc));
#endif
