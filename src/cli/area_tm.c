/* The tm area's record (seed 000). */
#include "commands.h"

int cmd_tm(int argc, char **argv);
int tour_tm(cli_tour *t);

const cli_area cli_area_tm = {.name = "tm", .order = 40, .command = "tm",
                              .summary = "Turing machines simulated and compiled into transformers (seed 000)",
                              .run = cmd_tm, .tour = tour_tm};
