/* The rcnn area's record (seed 002): nnt rcnn, and further commands (nnt tm2d, nnt parity). */
#include "commands.h"

int cmd_rcnn(int argc, char **argv);
int cmd_tm2d(int argc, char **argv);
int cmd_parity(int argc, char **argv);
int tour_rcnn(cli_tour *t); /* tour_rcnn.c */

const cli_area cli_area_rcnn = {
    .name = "rcnn",
    .order = 60,
    .command = "rcnn",
    .run = cmd_rcnn,
    .summary = "recurrent-convolutional TM learner: rule-level RCNN (seed 002)",
    .tour = tour_rcnn,
    .more = (const cli_sub[]){{"tm2d", cmd_tm2d, "2-D Turing machines: run, check, export learners (seed 002)"},
                              {"parity", cmd_parity, "parity learners: GF(2) elimination vs SGD on a ReLU MLP (seed 002)"},
                              {0}}};
