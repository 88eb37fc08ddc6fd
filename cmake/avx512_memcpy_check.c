/* Configure-time guard (cmake/isa.cmake): GCC 12.2 under -mavx512f expands a memcpy of a constant
 * double table, or a loop copying it, into one broadcast of its first value (12 of 18 values
 * wrong). Exit 0: copies are right; 1: miscompiled; 77: this CPU cannot run AVX-512 code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double B[18] = {.5, .5, 0, 0, 0, 0, 0, 0, .5, .5, 0, 0, 0, 0, 0, 0, .5, .5};

__attribute__((noinline)) static double *get(size_t n) { return calloc(n, sizeof(double)); }

__attribute__((noinline)) static int wrong(const double *w) {
  int bad = 0;
  for (int i = 0; i < 18; i++) bad += w[i] != B[i];
  return bad;
}

__attribute__((noinline)) static int by_memcpy(void) {
  double *w = get(18);
  memcpy(w, B, sizeof B);
  int bad = wrong(w);
  free(w);
  return bad;
}

__attribute__((noinline)) static int by_loop(void) {
  double *w = get(18);
  for (int i = 0; i < 18; i++) w[i] = B[i];
  int bad = wrong(w);
  free(w);
  return bad;
}

int main(void) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f")) return 77;
  int a = by_memcpy(), b = by_loop();
  printf("memcpy: %d of 18 wrong, loop: %d of 18 wrong\n", a, b);
  return a || b;
}
