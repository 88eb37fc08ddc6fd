/* Random layered circuits for the margin and learnability experiments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_error.h"

void nnt_circuit_random(int m, int q, int r, uint64_t seed, uint64_t stream, nnt_circuit *c) {
  static const nnt_circuit_gate_type two[] = {NNT_CIRCUIT_GATE_AND, NNT_CIRCUIT_GATE_OR, NNT_CIRCUIT_GATE_NAND,
                                              NNT_CIRCUIT_GATE_NOR, NNT_CIRCUIT_GATE_XOR};
  nnt_rng rng;
  nnt_rng_init(&rng, seed, stream);
  nnt_circuit_cbuild b;
  nnt_circuit_cb_init(&b, "random");
  char name[64];
  int prev_n = m, *prev = nnt_xmalloc(sizeof(int) * (size_t)(m > r ? m : r)),
      *cur = nnt_xmalloc(sizeof(int) * (size_t)(m > r ? m : r));
  for (int i = 0; i < m; i++) {
    int n = snprintf(name, sizeof name, "x%d", i);
    prev[i] = nnt_circuit_cb_sig(&b, name, (size_t)n, 1);
    nnt_circuit_cb_input(&b, prev[i], 1);
  }
  for (int l = 1; l <= q; l++) {
    int w = l == q ? 1 : r;
    for (int k = 0; k < w; k++) {
      int n = l == q ? snprintf(name, sizeof name, "y") : snprintf(name, sizeof name, "g%d_%d", l, k);
      cur[k] = nnt_circuit_cb_sig(&b, name, (size_t)n, 1);
      int in[2];
      in[0] = prev[nnt_rng_below(&rng, (uint64_t)prev_n)];
      if (prev_n < 2 || nnt_rng_below(&rng, 6) == 0) {
        nnt_circuit_cb_define(&b, cur[k], NNT_CIRCUIT_GATE_NOT, 1, in, 1);
        continue;
      }
      do in[1] = prev[nnt_rng_below(&rng, (uint64_t)prev_n)];
      while (in[1] == in[0]);
      nnt_circuit_cb_define(&b, cur[k], two[nnt_rng_below(&rng, 5)], 2, in, 1);
    }
    int *t = prev;
    prev = cur, cur = t;
    prev_n = w;
  }
  nnt_circuit_cb_output(&b, prev[0], 1);
  free(prev), free(cur);
  nnt_circuit_cb_finish(&b, c); /* cannot fail: every signal is defined (line numbers are 1: 0 means undefined), layers are acyclic */
}
