/* Direct Turing-machine simulation: the independent reference the compiled transformer is
 * checked against. Two-way tape of 2T + m + 3 cells, cell c at index c + T + 1. */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_tm.h"

void nnt_tm_trace_free(nnt_tm_trace *tr) {
  free(tr->state), free(tr->head), free(tr->sym), free(tr->written);
  memset(tr, 0, sizeof *tr);
}

int nnt_tm_simulate(const nnt_tm *tm, long T, nnt_tm_trace *tr) {
  if (T < 0) return nnt_fail(NNT_EINVAL, "negative step count");
  long ncell = 2 * T + tm->m + 3, base = T + 1;
  int *tape = nnt_xcalloc((size_t)ncell, sizeof(int));
  for (int i = 0; i < tm->m; i++) tape[base + i] = tm->input[i];
  memset(tr, 0, sizeof *tr);
  tr->T = T;
  tr->state = nnt_xmalloc(sizeof(int) * (size_t)(T + 1));
  tr->head = nnt_xmalloc(sizeof(long) * (size_t)(T + 1));
  tr->sym = nnt_xmalloc(sizeof(int) * (size_t)(T + 1));
  tr->written = nnt_xmalloc(sizeof(int) * (size_t)(T + 1));
  int z = 0;
  long h = 0;
  tr->halt_step = -1;
  tr->state[0] = z, tr->head[0] = h, tr->sym[0] = tape[base], tr->written[0] = -1;
  tr->min_head = tr->max_head = 0;
  for (long t = 1; t <= T; t++) {
    int a = tape[base + h];
    if (z >= tm->k) { /* halted: nothing changes */
      tr->written[t] = a;
    } else {
      nnt_tm_rule r = tm->delta[z * tm->nsym + a];
      if (r.next == NNT_TM_UNDEF) { /* halts in place; not a transition */
        z = tm->k;
        tr->written[t] = a;
        tr->halt_step = t - 1;
      } else {
        tape[base + h] = r.write;
        tr->written[t] = r.write;
        h += r.move;
        z = r.next;
        if (z >= tm->k) tr->halt_step = t;
      }
    }
    if (h < tr->min_head) tr->min_head = h;
    if (h > tr->max_head) tr->max_head = h;
    tr->state[t] = z, tr->head[t] = h, tr->sym[t] = tape[base + h];
  }
  for (long c = 0; c < ncell; c++) tr->ones += tape[c] != 0;
  free(tape);
  return NNT_OK;
}
