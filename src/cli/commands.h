/* commands.h — the registry of what the nnt executable wires: one record per area present in the
 * build (the core included), listed by CMake, and the benchmarks that need several areas. Adding an
 * area adds its record file src/cli/area_<area>.c; nothing here or in main/tour/bench changes. */
#ifndef NNT_COMMANDS_H
#define NNT_COMMANDS_H
#include "cli.h"

/* A benchmark, `const cli_bench cli_bench_<name>` in bench/bench_<name>.c. An area's own is named
 * after it and is its record's; any other is one of several areas, and the line
 * " * needs: <area> <area> ..." in its file's head comment tells CMake when to build it. */
typedef struct {
  const char *name; /* nnt bench <name> */
  int (*run)(int argc, char **argv);
} cli_bench;

/* What report.html says before a tour section's tables, for a reader who has not read the paper:
 * the paper's claim and what nnt ran, each a plain sentence or two (the outcome comes from the
 * run, cli_tour_outcome), and a glossary of the terms the section uses. */
typedef struct {
  const char *claim;            /* what the paper claims */
  const char *ran;              /* what nnt runs to test it */
  const char *const *glossary;  /* term, explanation, term, explanation, ..., NULL */
} cli_tour_guide;

/* An area's place in the executable, `const cli_area cli_area_<area>` in src/cli/area_<area>.c.
 * command, tour and bench may each be absent (NULL). */
typedef struct {
  const char *name;    /* the folder src/<name>/; also its tour section's and benchmark's name */
  int order;           /* place in --help, the tour and the benchmarks, lowest first (core: 0) */
  const char *command; /* nnt <command> */
  const char *summary; /* its line in nnt --help */
  int (*run)(int argc, char **argv);
  int (*tour)(cli_tour *t);
  const cli_bench *bench;
  const cli_sub *more; /* further commands of the area (nnt <name>), ended by {0}; may be NULL */
  const cli_tour_guide *guide; /* its tour section's introduction in report.html; may be NULL */
} cli_area;

/* The records of this build's areas in their order, then NULL. */
const cli_area *const *cli_areas(void);
/* This build's benchmarks of several areas, then NULL; they come after the areas' own. */
extern const cli_bench *const cli_benches[];

int cmd_tour(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
