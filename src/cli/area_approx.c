/* The approx area's record (seed 004). */
#include "commands.h"

int cmd_approx(int argc, char **argv);
int tour_approx(cli_tour *t);

static const cli_tour_guide guide = {
    .claim = "Telgarsky's lecture notes (seed 004) prove how well ReLU networks approximate functions: shallow "
        "constructions (chapter 2), wide networks near their initialisation and the neural tangent kernel "
        "(chapter 3), and what depth buys, e.g. Yarotsky's network computing x² to within 4^(−i−1) with i "
        "layers (chapter 4).",
    .ran = "Each construction is built as a real network and measured exactly (a piecewise-linear engine "
        "counts pieces and integrates without sampling) or by Monte Carlo; the book's checkable "
        "statements are compared with their bounds, the draft's errata included.",
    .glossary = (const char *const[]){
        "h_i (Yarotsky)",
        "A ReLU network with i hidden layers that approximates x² on [0, 1] by linear interpolation with "
        "2^i pieces.",
        "Δ, Δ^L",
        "The tent map and its L-fold composition: a zigzag with 2^L pieces from only L layers, the book's "
        "example of what depth buys.",
        "pieces",
        "The number of linear pieces of a one-input ReLU network, counted exactly.",
        "sup",
        "The largest error over the whole interval, not at sample points.",
        "NTK, k_m, k∞",
        "The neural tangent kernel: the inner product of two inputs' parameter gradients. k_m is measured "
        "at width m and k∞ is its infinite-width limit; the gap should shrink like m^(−1/2).",
        "padding, Gram matrix",
        "Padding appends a constant coordinate to each input; the Gram matrix is the table of kernel "
        "values between all pairs of training points. Without padding the ReLU kernel cannot fit the "
        "target sin 3θ; with it, it can.",
        "erratum",
        "The draft states something wrong; the row measures both the wrong and the corrected form, and "
        "PASS means the corrected one holds.",
        "Q1.1, Q2, …",
        "nnt's numbering of the checkable statements; the reference column names the book's proposition, "
        "theorem or lemma.",
        NULL}};

const cli_area cli_area_approx = {.name = "approx", .order = 20, .command = "approx",
                                  .summary = "constructive approximation, NTK, depth separation (seed 004)",
                                  .run = cmd_approx, .tour = tour_approx, .guide = &guide};
