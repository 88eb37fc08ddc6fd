/* Configure-time probe (cmake/isa.cmake): prints the instruction-set levels the build machine
 * runs, for the tests that repeat at every level. Same criteria as src/core/cpu.c. */
#include <stdio.h>

int main(void) {
  __builtin_cpu_init();
  int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  int avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  printf("generic%s%s", avx2 ? ";avx2" : "", avx512 ? ";avx512" : "");
  return 0;
}
