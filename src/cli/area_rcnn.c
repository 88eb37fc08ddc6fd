/* The rcnn area's record (seed 002). */
#include "commands.h"

int cmd_parity(int argc, char **argv);

const cli_area cli_area_rcnn = {.name = "rcnn", .order = 60, .more = (const cli_sub[]){{"parity", cmd_parity, "parity learners: GF(2) elimination vs SGD on a ReLU MLP (seed 002)"}, {0}}};
