/* nnt icl — seed 003's subcommands. Each helper's subcommand is one line in subs[]. */
#include "commands.h"

int cli_icl_construct(int argc, char **argv);       /* construct_icl.c */
int cli_icl_construct_sweep(int argc, char **argv); /* construct_icl.c */
int cli_icl_train(int argc, char **argv);           /* train_icl.c */
int cli_icl_baselines(int argc, char **argv), cli_icl_eval(int argc, char **argv), cli_icl_sweep_depth(int argc, char **argv); /* eval_icl.c */

static const cli_sub subs[] = {
    {"construct", cli_icl_construct, "the explicit Theorem-1 transformer running projected GD, checked against direct GD"},
    {"construct-sweep", cli_icl_construct_sweep, "the construction's error against the number M of ReLU pieces"},
    {"train", cli_icl_train, "pretrain the GPT-2-style in-context learner (presets micro, mini, small, paper)"},
    {"baselines", cli_icl_baselines, "R² vs k of the prompt mean, ridge, 3-NN and direct training: how easy the task is"},
    {"eval", cli_icl_eval, "a trained model's R² vs k per test mixture, beyond its training length, baselines beside"},
    {"sweep-depth", cli_icl_sweep_depth, "R² at 15/30/45 examples vs transformer depth (Figure 3)"},
};

int cmd_icl(int argc, char **argv) { return cli_dispatch("icl", subs, (int)(sizeof subs / sizeof *subs), argc, argv); }
