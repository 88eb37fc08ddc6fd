/* The icl area's record (seed 003): nnt icl — in-context gradient descent on N-layer networks. */
#include "commands.h"

int cmd_icl(int argc, char **argv);
int tour_icl(cli_tour *t); /* tour_icl.c */
extern const cli_bench cli_bench_icl; /* bench/bench_icl.c */

static const cli_tour_guide guide = {
    .claim = "Wu et al. (seed 003) prove that a transformer can run gradient descent on an N-layer neural "
        "network inside its forward pass: it learns from the examples in its prompt without changing its "
        "own weights.",
    .ran = "Their explicit transformer for a 3-layer network, built in double precision and compared step by "
        "step with direct projected gradient descent; and a small GPT-2-style model trained to learn in "
        "context.",
    .glossary = (const char *const[]){
        "in-context learning",
        "The model sees example pairs (x, y) and a query x in its prompt and predicts the query's y.",
        "projected GD",
        "Gradient descent whose weights are clipped back into a box [−B, B] after every step.",
        "N, K, dx, n",
        "The network's depth, its hidden width, the input dimension and the number of examples in the "
        "prompt.",
        "r, r', sum of M ReLUs",
        "The activation and its derivative, approximated by piecewise-linear functions with M pieces; the "
        "error should shrink like M^(−2).",
        "‖w_TF − w_GD‖∞",
        "The largest difference between the weights the transformer computes and those of direct gradient "
        "descent.",
        "invariants",
        "Bookkeeping the construction promises: every token's copy of the weights identical and its "
        "scratch space zero after every block.",
        "checkpoint",
        "model.ckpt: the trained weights saved and loaded back.",
        NULL}};

const cli_area cli_area_icl = {
    .name = "icl",
    .order = 70,
    .command = "icl",
    .run = cmd_icl,
    .summary = "transformers running gradient descent on N-layer nets in context (seed 003)",
    .tour = tour_icl,
    .bench = &cli_bench_icl,
    .guide = &guide,
};
