/* The qstr area's record (seed 001). */
#include "commands.h"

int cmd_qstr(int argc, char **argv);
int tour_qstr(cli_tour *t);
extern const cli_bench cli_bench_qstr; /* bench/bench_qstr.c */

const cli_area cli_area_qstr = {.name = "qstr", .order = 10, .command = "qstr",
                                .summary = "q-sparse token retrieval: transformer vs RNN vs FFN (seed 001)",
                                .run = cmd_qstr, .tour = tour_qstr, .bench = &cli_bench_qstr};
