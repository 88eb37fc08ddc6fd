/* The qstr area's record (seed 001). */
#include "commands.h"

int cmd_qstr(int argc, char **argv);
int tour_qstr(cli_tour *t);
extern const cli_bench cli_bench_qstr; /* bench/bench_qstr.c */

static const cli_tour_guide guide = {
    .claim = "Mousavi-Hosseini, Sanford, Wu and Erdogdu (seed 001) prove that on q-sparse token regression a "
        "one-layer transformer needs a number of training prompts that grows only polylogarithmically "
        "with the sequence length N, while a feedforward network (FFN) needs at least N·d of them.",
    .ran = "A quick version of their Figure 1a: a transformer and an FFN trained online on 1STR for N = 2 to "
        "12, counting the samples each needs; the hand-built transformer of Eq. (A.2); and the Theorem 6 "
        "bound for an FFN fitted by min-norm least squares.",
    .glossary = (const char *const[]){
        "qSTR (q-sparse token regression)",
        "A prompt holds N tokens, vectors x_i of dimension d; the label at each position depends on q of "
        "the tokens, and the prompt itself says which ones (an index tuple t_i per position).",
        "1STR / simple-1STR",
        "q = 1: the label at position i is ⟨u, x_{t_i}⟩ for a fixed unit vector u. In 1STR every position "
        "points to its own random token; in simple-1STR all positions point to the same one.",
        "d_e = ⌊5 ln N⌋",
        "The length of the random ±1/√d_e code vectors that tell the model which position is which: 5 "
        "times the natural log of N, rounded down, so it grows only like log N.",
        "samples needed",
        "Training prompts seen by online AdamW until the test mean squared error falls below 0.7 (always "
        "predicting 0 gives 1).",
        "Eq. (A.2)",
        "The paper's explicit attention weights: a block α·I that makes each head look at the token the "
        "index points to; the larger the sharpness α, the smaller the error.",
        "Theorem 6",
        "An FFN whose first layer reads the concatenated tokens cannot get below test error 1 − n/(Nd) "
        "from n training prompts, however wide it is, so it needs n ≥ N·d.",
        "closed form vs Monte Carlo",
        "The error computed exactly from a formula, next to its average over random prompts (± one "
        "standard error).",
        NULL}};

const cli_area cli_area_qstr = {.name = "qstr", .order = 10, .command = "qstr",
                                .summary = "q-sparse token retrieval: transformer vs RNN vs FFN (seed 001)",
                                .run = cmd_qstr, .tour = tour_qstr, .bench = &cli_bench_qstr, .guide = &guide};
