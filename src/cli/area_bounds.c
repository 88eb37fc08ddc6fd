/* The bounds area's record (seed 000): a subcommand, no tour section. */
#include "commands.h"

int cmd_bounds(int argc, char **argv);

const cli_area cli_area_bounds = {.name = "bounds", .order = 50, .command = "bounds",
                                  .summary = "sample-complexity bound calculators (seed 000)", .run = cmd_bounds};
