/* The tm area's record (seed 000). */
#include "commands.h"

int cmd_tm(int argc, char **argv);
int tour_tm(cli_tour *t);
extern const cli_bench cli_bench_tm; /* bench/bench_tm.c */

static const cli_tour_guide guide = {
    .claim = "The same paper (seed 000) shows that a Turing machine run for T steps compiles into a "
        "transformer whose size grows only like log T, so that it, too, can be learned from few samples.",
    .ran = "The busy-beaver champions with 2, 3 and 4 states compiled and run, every step compared with a "
        "direct simulation; then a 2000-step run to measure the cost per step.",
    .glossary = (const char *const[]){
        "busy beaver BB(k)",
        "The k-state machine that runs longest before halting; small, well-known test machines.",
        "1RB1LB_1LA1RZ",
        "Standard notation for a machine: for each state, for symbols 0 and 1, the symbol written, the "
        "move (L or R) and the next state (Z halts).",
        "T, w, d",
        "Steps run; the transformer's residual width; its number of layers.",
        "hard-max attention",
        "Each attention head takes the single best-scoring position instead of a softmax-weighted "
        "average.",
        "β_min",
        "The smallest softmax inverse temperature (sharpness) at which softmax attention still reproduces "
        "every step exactly, in 64-bit and in 32-bit floating point.",
        "nonzero θ, ‖θ‖₁",
        "The number of nonzero parameters, and the sum of their absolute values.",
        "steps_checked, mismatches",
        "Steps compared with the direct simulation, and how many disagreed in state, head position or "
        "symbols.",
        NULL}};

const cli_area cli_area_tm = {.name = "tm", .order = 40, .command = "tm",
                              .summary = "Turing machines simulated and compiled into transformers (seed 000)",
                              .run = cmd_tm, .tour = tour_tm, .bench = &cli_bench_tm, .guide = &guide};
