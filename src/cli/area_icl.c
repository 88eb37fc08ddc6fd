/* The icl area's record (seed 003): nnt icl — in-context gradient descent on N-layer networks. */
#include "commands.h"

int cmd_icl(int argc, char **argv);
int tour_icl(cli_tour *t); /* tour_icl.c */
extern const cli_bench cli_bench_icl; /* bench/bench_icl.c */

const cli_area cli_area_icl = {
    .name = "icl",
    .order = 70,
    .command = "icl",
    .run = cmd_icl,
    .summary = "transformers running gradient descent on N-layer nets in context (seed 003)",
    .tour = tour_icl,
    .bench = &cli_bench_icl,
};
