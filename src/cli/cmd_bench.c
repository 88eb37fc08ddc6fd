/* nnt bench <name> — benchmarks; their code lives in bench/. */
#include <string.h>

#include "commands.h"

/* The i-th benchmark: the areas' own in their order, then those of several areas; NULL past the last. */
static const cli_bench *bench_at(int i) {
  for (const cli_area *const *a = cli_areas(); *a; a++)
    if ((*a)->bench && i-- == 0) return (*a)->bench;
  for (const cli_bench *const *b = cli_benches; *b; b++)
    if (i-- == 0) return *b;
  return NULL;
}

int cmd_bench(int argc, char **argv) {
  const cli_bench *b;
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    FILE *f = argc < 2 ? stderr : stdout;
    fprintf(f, "usage: nnt bench <name> [options]   (nnt bench <name> --help)\nbenchmarks:");
    for (int i = 0; (b = bench_at(i)); i++) fprintf(f, " %s", b->name);
    fputc('\n', f);
    return argc < 2 ? nnt_fail(NNT_EINVAL, "missing benchmark name") : NNT_OK;
  }
  for (int i = 0; (b = bench_at(i)); i++)
    if (!strcmp(argv[1], b->name)) return b->run(argc - 1, argv + 1);
  return nnt_fail(NNT_EINVAL, "unknown benchmark '%s'", argv[1]);
}
