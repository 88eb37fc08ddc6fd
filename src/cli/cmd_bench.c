/* nnt bench <name> — benchmarks; their code lives in bench/. */
#include <string.h>

#include "commands.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
} bench;

static const bench benches[] = {
    {"core", bench_core},
#ifdef NNT_HAVE_QSTR
    {"qstr", bench_qstr},
#endif
#if defined(NNT_HAVE_CIRCUITS) && defined(NNT_HAVE_TM) && defined(NNT_HAVE_APPROX)
    {"exact", bench_exact},
#endif
};
#define NBENCH ((int)(sizeof benches / sizeof benches[0]))

int cmd_bench(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    FILE *f = argc < 2 ? stderr : stdout;
    fprintf(f, "usage: nnt bench <name> [options]   (nnt bench <name> --help)\nbenchmarks:");
    for (int i = 0; i < NBENCH; i++) fprintf(f, " %s", benches[i].name);
    fputc('\n', f);
    return argc < 2 ? nnt_fail(NNT_EINVAL, "missing benchmark name") : NNT_OK;
  }
  for (int i = 0; i < NBENCH; i++)
    if (!strcmp(argv[1], benches[i].name)) return benches[i].run(argc - 1, argv + 1);
  return nnt_fail(NNT_EINVAL, "unknown benchmark '%s'", argv[1]);
}
