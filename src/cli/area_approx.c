/* The approx area's record (seed 004). */
#include "commands.h"

int cmd_approx(int argc, char **argv);
int tour_approx(cli_tour *t);

const cli_area cli_area_approx = {.name = "approx", .order = 20, .command = "approx",
                                  .summary = "constructive approximation, NTK, depth separation (seed 004)",
                                  .run = cmd_approx, .tour = tour_approx};
