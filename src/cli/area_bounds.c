/* The bounds area's record (seed 000): nnt bounds, and its tour section (cmd_bounds.c). */
#include "commands.h"

int cmd_bounds(int argc, char **argv);
int tour_bounds(cli_tour *t);

static const cli_tour_guide guide = {
    .claim = "Lemma 2.3 of seed 000 bounds the samples needed to learn to error ε by (α² ln p / γ² + 1) / ε², "
        "with α the norm of the parameters, p their number and γ the all-layer margin; Theorem 4.1 "
        "applies it to compiled Turing machines, where a VC-dimension bound would grow like w·T.",
    .ran = "BB(3)'s compiled transformer is run and checked, its sizes put into Lemma 2.3 with the constants "
        "the paper leaves open set to 1, next to the VC-type count, and the machine's step count T swept "
        "up to 10^15.",
    .glossary = (const char *const[]){
        "Lemma 2.3",
        "A generalisation bound for networks with a large all-layer margin: it depends on the norm α and "
        "only logarithmically on the parameter count p.",
        "α = ‖θ‖₁, p, W, d",
        "The sum of absolute parameter values of the construction; the parameter count of a dense network "
        "of the same widest layer W and depth d.",
        "γ, λ, σ_ζ",
        "γ: the margin used. For a Turing machine it is the certified all-layer margin: a radius within "
        "which no change of the parameters flips the decision (box and l2-ball bound propagation); for a circuit the "
        "illustrative σ_ζ / (2λ), as the paper gives the margin only as a polynomial. λ: the largest "
        "length of a hidden vector during the run; σ_ζ = 1/3: how far a value may move before rounding "
        "fails.",
        "VC-type count",
        "n = w·T / ε², the classic count for a transformer of width w run for T steps (constant 1).",
        "ε",
        "The target error, 0.1 here.",
        "ratio",
        "The Lemma 2.3 count divided by the VC-type count: below 1 the margin bound is the smaller one.",
        NULL}};

const cli_area cli_area_bounds = {.name = "bounds", .order = 50, .command = "bounds",
                                  .summary = "sample-complexity bound calculators (seed 000)", .run = cmd_bounds,
                                  .tour = tour_bounds, .guide = &guide};
