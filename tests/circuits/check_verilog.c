/* check_verilog NET DESIGN — the ReLU net that `nnt circuit compile examples/circuits/DESIGN.v`
 * wrote, checked against the design's integer arithmetic written out here in C: the reference
 * owes nothing to yosys or to nnt's circuit readers and evaluator (only the forward pass is nnt's).
 * Input bit i of the net is the i-th Verilog bit of `nnt circuit compile`'s "net bits" line (the
 * tests check that line): ports in declaration order, least significant bit first.
 *   mult8: x = a[0..7] b[0..7] -> p[0..15] = a * b, all 2^16 inputs
 *   alu8:  x = a b op[0..1] -> y[0..7] c z (add/carry, subtract/borrow, and, xor; z = (y == 0)),
 *          all 2^18 inputs
 *   cmp16: x = a[0..15] b[0..15] -> lt eq gt, 2^18 random pairs (xorshift64, fixed seed), every
 *          pair a = b, and a = b +- 1 (2^32 pairs in all is too many for a test)
 * Prints checked=N mismatches=M; exit 0 when M = 0, 1 on a mismatch, 2 on bad use. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_mlp.h"

enum { CHUNK = 4096 };

/* The expected outputs of input vector v (bits as the net reads them), as a bit mask. */
static uint32_t mult8(uint64_t v) { return (uint32_t)((v & 0xff) * ((v >> 8) & 0xff)); }

static uint32_t alu8(uint64_t v) {
  uint32_t a = v & 0xff, b = (v >> 8) & 0xff, op = (v >> 16) & 3, r;
  switch (op) {
    case 0: r = a + b; break;              /* bit 8: carry */
    case 1: r = (a - b) & 0x1ff; break;    /* bit 8: borrow */
    case 2: r = a & b; break;
    default: r = a ^ b; break;
  }
  return r | (uint32_t)((r & 0xff) == 0) << 9;
}

static uint32_t cmp16(uint64_t v) {
  uint32_t a = v & 0xffff, b = (v >> 16) & 0xffff;
  return (uint32_t)(a < b) | (uint32_t)(a == b) << 1 | (uint32_t)(a > b) << 2;
}

static uint64_t xorshift(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

/* The n-th input vector of the design's list. */
static uint64_t cmp16_input(long n, uint64_t *rng) {
  if (n < 1L << 18) return xorshift(rng) & 0xffffffffu;
  uint32_t b = (uint32_t)(n - (1L << 18)) / 3, k = (uint32_t)(n - (1L << 18)) % 3;
  uint32_t a = (b + (k == 1) - (k == 2)) & 0xffff;
  return a | (uint64_t)b << 16;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: check_verilog NET mult8|alu8|cmp16\n");
    return 2;
  }
  int nin, nout;
  long total;
  uint32_t (*ref)(uint64_t);
  if (!strcmp(argv[2], "mult8")) nin = 16, nout = 16, total = 1L << 16, ref = mult8;
  else if (!strcmp(argv[2], "alu8")) nin = 18, nout = 10, total = 1L << 18, ref = alu8;
  else if (!strcmp(argv[2], "cmp16")) nin = 32, nout = 3, total = (1L << 18) + 3 * 65536L, ref = cmp16;
  else {
    fprintf(stderr, "check_verilog: unknown design '%s'\n", argv[2]);
    return 2;
  }
  nnt_mlp net;
  if (nnt_mlp_load(argv[1], &net)) {
    fprintf(stderr, "check_verilog: %s\n", nnt_errmsg());
    return 2;
  }
  if (nnt_mlp_input_dim(&net) != nin || nnt_mlp_output_dim(&net) != nout) {
    fprintf(stderr, "check_verilog: the net maps %d inputs to %d outputs; %s has %d and %d\n", nnt_mlp_input_dim(&net),
            nnt_mlp_output_dim(&net), argv[2], nin, nout);
    return 2;
  }
  double *X = malloc(sizeof(double) * CHUNK * (size_t)nin), *Y = malloc(sizeof(double) * CHUNK * (size_t)nout);
  uint64_t *V = malloc(sizeof(uint64_t) * CHUNK), rng = 0x9e3779b97f4a7c15ULL;
  long mismatches = 0;
  for (long n0 = 0; n0 < total; n0 += CHUNK) {
    int B = (int)(total - n0 < CHUNK ? total - n0 : CHUNK);
    for (int k = 0; k < B; k++) {
      V[k] = ref == cmp16 ? cmp16_input(n0 + k, &rng) : (uint64_t)(n0 + k);
      for (int i = 0; i < nin; i++) X[(size_t)k * nin + i] = (double)((V[k] >> i) & 1);
    }
    nnt_mlp_forward_batch(&net, B, X, Y);
    for (int k = 0; k < B; k++) {
      uint32_t want = ref(V[k]);
      int bad = 0;
      for (int j = 0; j < nout; j++) bad |= Y[(size_t)k * nout + j] != (double)((want >> j) & 1);
      if (bad && !mismatches++) {
        printf("first mismatch: input 0x%llx, expected 0x%x, net", (unsigned long long)V[k], (unsigned)want);
        for (int j = nout - 1; j >= 0; j--) printf(" %g", Y[(size_t)k * nout + j]);
        printf(" (output %d first)\n", nout - 1);
      }
    }
  }
  printf("%s: checked=%ld mismatches=%ld\n", argv[2], total, mismatches);
  free(X), free(Y), free(V);
  nnt_mlp_free(&net);
  return mismatches ? 1 : 0;
}
