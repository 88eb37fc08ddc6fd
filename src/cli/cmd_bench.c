/* nnt bench <name> — benchmarks; their code lives in bench/. */
#include "commands.h"

enum { MAX_BENCH = 32 };

/* The benchmarks as subcommands: the areas' own in their order, then those of several areas. */
int cmd_bench(int argc, char **argv) {
  cli_sub subs[MAX_BENCH];
  char about[MAX_BENCH][64];
  int n = 0;
  for (const cli_area *const *a = cli_areas(); *a; a++)
    if ((*a)->bench && n < MAX_BENCH) {
      snprintf(about[n], sizeof about[n], "the %s area's benchmark", (*a)->name);
      subs[n] = (cli_sub){(*a)->bench->name, (*a)->bench->run, about[n]}, n++;
    }
  for (const cli_bench *const *b = cli_benches; *b && n < MAX_BENCH; b++)
    subs[n++] = (cli_sub){(*b)->name, (*b)->run, "a benchmark of several areas"};
  return cli_dispatch("bench", subs, n, argc, argv);
}
