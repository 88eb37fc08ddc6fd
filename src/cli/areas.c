/* areas.c — the records of this build, from the list CMake writes (cli_areas.inc: NNT_AREA(name)
 * for each area present, NNT_BENCH(name) for each benchmark of several areas whose areas are). */
#include <stdlib.h>

#include "commands.h"

#define NNT_AREA(a) extern const cli_area cli_area_##a;
#define NNT_BENCH(b) extern const cli_bench cli_bench_##b;
#include "cli_areas.inc"
#undef NNT_AREA
#undef NNT_BENCH

#define NNT_AREA(a) &cli_area_##a,
#define NNT_BENCH(b)
static const cli_area *areas[] = {
#include "cli_areas.inc"
    NULL};
#undef NNT_AREA
#undef NNT_BENCH

#define NNT_AREA(a)
#define NNT_BENCH(b) &cli_bench_##b,
const cli_bench *const cli_benches[] = {
#include "cli_areas.inc"
    NULL};
#undef NNT_AREA
#undef NNT_BENCH

static int by_order(const void *a, const void *b) {
  return (*(const cli_area *const *)a)->order - (*(const cli_area *const *)b)->order;
}

/* CMake lists the records by file name; the order the user sees is the records' own. */
const cli_area *const *cli_areas(void) {
  static int sorted;
  if (!sorted) qsort(areas, sizeof areas / sizeof *areas - 1, sizeof *areas, by_order), sorted = 1;
  return areas;
}
