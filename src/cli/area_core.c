/* The core's record: the first tour section and benchmark; its commands are tour and bench. */
#include "commands.h"

int tour_core(cli_tour *t);         /* tour_core.c */
extern const cli_bench cli_bench_core; /* bench/bench_core.c */

const cli_area cli_area_core = {.name = "core", .order = 0, .tour = tour_core, .bench = &cli_bench_core};
