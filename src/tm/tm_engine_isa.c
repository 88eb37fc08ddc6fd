/* Runs a compiled transformer in float64 or float32 and checks it against a direct simulation.
 * Plain C compiled once per instruction-set level (nnt_cpu.h): the sparse products and the
 * attention over the growing cache vectorise to the CPU's width, with the same operations, so
 * the same results, at every level. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

#define NNT_REAL_BITS 64
#include "nnt_real.h"
#include "tm_engine_impl.h"
#undef NNT_REAL_BITS
#define NNT_REAL_BITS 32
#include "nnt_real.h"
#include "tm_engine_impl.h"
#undef NNT_REAL_BITS
#include "nnt_real.h"

int NNT_ISA_FN(nnt_tm_net_run)(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr,
                               const nnt_tm_run_opts *o, nnt_tm_run_result *res) {
  return o->precision == NNT_TM_F32 ? run_f32(net, tm, tr, o, res) : run_f64(net, tm, tr, o, res);
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(int, nnt_tm_net_run, (const nnt_tm_net *, const nnt_tm *, const nnt_tm_trace *,
                                      const nnt_tm_run_opts *, nnt_tm_run_result *));

int nnt_tm_net_run(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, const nnt_tm_run_opts *o,
                   nnt_tm_run_result *res) {
  memset(res, 0, sizeof *res);
  if (tr->T > net->T) return nnt_fail(NNT_EINVAL, "the net was compiled for %ld steps, asked for %ld", net->T, tr->T);
  if (tm->m != net->m) return nnt_fail(NNT_EINVAL, "the net was compiled for input length %d, got %d", net->m, tm->m);
  if (o->attention == NNT_TM_SOFTMAX && !(o->beta > 0)) return nnt_fail(NNT_EINVAL, "softmax needs beta > 0");
  return NNT_ISA_PICK(nnt_tm_net_run)(net, tm, tr, o, res);
}
#endif
