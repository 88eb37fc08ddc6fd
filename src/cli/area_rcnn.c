/* The rcnn area's record (seed 002): nnt rcnn, and further commands (nnt tm2d, nnt parity). */
#include "commands.h"

int cmd_rcnn(int argc, char **argv);
int cmd_tm2d(int argc, char **argv);
int cmd_parity(int argc, char **argv);
int tour_rcnn(cli_tour *t); /* tour_rcnn.c */

static const cli_tour_guide guide = {
    .claim = "Goel, Kakade, Kalai and Zhang (seed 002) show that a recurrent convolutional network trained by "
        "SGD on its memory layer first stores its training set and then, by applying one shared 3×3 "
        "convolution L times, runs any small Turing-machine learner on it; so such a network can learn "
        "parity, which SGD on a plain MLP does not at these sizes.",
    .ran = "The 65-state 2-D Turing machine gauss-parity against GF(2) elimination; the whole RCNN at the "
        "rule level (exact arithmetic) and as a ReLU network; and a small parity benchmark.",
    .glossary = (const char *const[]){
        "parity",
        "The label is the XOR of a hidden subset of the d input bits.",
        "GF(2) elimination",
        "Gaussian elimination on bits (addition is XOR): it finds the hidden subset exactly once the "
        "examples determine it.",
        "determined",
        "The examples pin down the test point's label (the point lies in the span of the examples).",
        "2-D Turing machine",
        "A Turing machine working on a grid instead of a tape; here the grid holds the stored examples, "
        "one per row.",
        "RCNN",
        "Recurrent convolutional network: a memory layer writes a grid, the same 3×3 convolution is "
        "applied L times, a per-cell head reads it and the outputs are summed.",
        "Lemma 3, η = 1/54",
        "After one SGD pass with step size η = 1/54 the memory weights equal (1/3)[y·x, y] exactly: the "
        "examples are stored.",
        "rule level, ReLU network",
        "The cell update as an exact rule on balanced-ternary integers, and the same rule (f̄) compiled "
        "into a sparse ReLU MLP run in float64.",
        "f, f̄",
        "f: the network's output during SGD; f̄: the paper's cell rule.",
        NULL}};

const cli_area cli_area_rcnn = {
    .name = "rcnn",
    .order = 60,
    .command = "rcnn",
    .run = cmd_rcnn,
    .summary = "recurrent-convolutional TM learner: rule-level RCNN (seed 002)",
    .tour = tour_rcnn,
    .more = (const cli_sub[]){{"tm2d", cmd_tm2d, "2-D Turing machines: run, check, export learners (seed 002)"},
                              {"parity", cmd_parity, "parity learners: GF(2) elimination vs SGD on a ReLU MLP (seed 002)"},
                              {0}}, .guide = &guide};
