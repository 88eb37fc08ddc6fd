/* check_multiplier FILE N SAMPLES [ORDER]: FILE (examples/circuits/mulN.bench, ISCAS-85 c6288)
 * multiplies two N-bit numbers: input i is bit i of a for i < N, bit i - N of b after. On SAMPLES
 * random operand pairs, direct evaluation and the compiled nets (sparse forward, without and with
 * correction layers) must give the bits of a * b computed in integer arithmetic. Output j carries
 * product bit j, or bit ORDER[j] when ORDER (2N comma-separated indices) is given: c6288 lists
 * its two top bits as p31, p30. */
#include <stdio.h>
#include <stdlib.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_test.h"

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) return fprintf(stderr, "usage: check_multiplier FILE N SAMPLES [ORDER]\n"), 2;
  int n = atoi(argv[2]), S = atoi(argv[3]), bit[64];
  if (n < 2 || n > 32 || S <= 0) return fprintf(stderr, "check_multiplier: N in 2..32, SAMPLES > 0\n"), 2;
  for (int j = 0; j < 2 * n; j++) bit[j] = j;
  if (argc == 5) {
    char *s = argv[4];
    for (int j = 0; j < 2 * n; j++, s++) {
      bit[j] = (int)strtol(s, &s, 10);
      if (bit[j] < 0 || bit[j] >= 2 * n || !(*s == ',' || (*s == 0 && j == 2 * n - 1)))
        return fprintf(stderr, "check_multiplier: ORDER needs %d indices in 0..%d: %s\n", 2 * n, 2 * n - 1, argv[4]), 2;
    }
  }
  nnt_circuit c;
  if (nnt_circuit_read(argv[1], &c) != NNT_OK) return 2;
  if (c.ninputs != 2 * n || c.noutputs != 2 * n)
    return fprintf(stderr, "check_multiplier: %s has %d inputs and %d outputs, not %d\n", argv[1], c.ninputs, c.noutputs, 2 * n), 2;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  nnt_rng r;
  nnt_rng_init(&r, 7, 0);
  uint64_t *a = nnt_xmalloc(sizeof(uint64_t) * (size_t)S), *b = nnt_xmalloc(sizeof(uint64_t) * (size_t)S);
  double *X = nnt_xmalloc(sizeof(double) * (size_t)S * 2 * n), *Y = nnt_xmalloc(sizeof(double) * (size_t)S * 2 * n);
  uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1, XW[64], YW[64];
  long bad_eval = 0;
  for (int s0 = 0; s0 < S; s0 += 64) { /* direct evaluation, 64 pairs at once */
    for (int k = 0; k < 64 && s0 + k < S; k++) {
      a[s0 + k] = nnt_rng_u64(&r) & mask, b[s0 + k] = nnt_rng_u64(&r) & mask;
      if (k < 4 && s0 == 0) a[k] = k & 1 ? mask : 0, b[k] = k & 2 ? mask : 1; /* the extremes */
    }
    for (int i = 0; i < 2 * n; i++) {
      XW[i] = 0;
      for (int k = 0; k < 64 && s0 + k < S; k++) XW[i] |= ((i < n ? a[s0 + k] >> i : b[s0 + k] >> (i - n)) & 1) << k;
    }
    nnt_circuit_eval64(&c, XW, YW);
    for (int k = 0; k < 64 && s0 + k < S; k++) {
      uint64_t p = 0;
      for (int j = 0; j < 2 * n; j++) p |= ((YW[j] >> k) & 1) << bit[j];
      bad_eval += p != a[s0 + k] * b[s0 + k];
    }
  }
  CHECK_MSG(bad_eval == 0, "%s: direct evaluation differs from a * b on %ld of %d pairs", argv[1], bad_eval, S);
  for (int v = 0; v < S; v++)
    for (int i = 0; i < 2 * n; i++) X[(size_t)v * 2 * n + i] = (double)((i < n ? a[v] >> i : b[v] >> (i - n)) & 1);
  for (int corr = 0; corr < 2; corr++) {
    nnt_smlp net;
    nnt_circuit_compile_sparse(&L, corr, &net);
    nnt_smlp_forward_batch(&net, S, X, Y);
    long bad = 0;
    for (int v = 0; v < S; v++) {
      uint64_t p = 0;
      int exact = 1;
      for (int j = 0; j < 2 * n; j++) {
        double y = Y[(size_t)v * 2 * n + j];
        exact &= y == 0 || y == 1;
        p |= (uint64_t)(y == 1) << bit[j];
      }
      bad += !exact || p != a[v] * b[v];
    }
    CHECK_MSG(bad == 0, "%s correct=%d: the net differs from a * b on %ld of %d pairs", argv[1], corr, bad, S);
    nnt_smlp_free(&net);
  }
  printf("%s: %d random pairs, direct evaluation and both nets = a * b\n", argv[1], S);
  free(a), free(b), free(X), free(Y);
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  TEST_MAIN_END();
}
