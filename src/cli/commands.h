/* commands.h — every subcommand, tour section and benchmark the nnt executable wires.
 * An area's entries exist only when its folder src/<area>/ is built (NNT_HAVE_<AREA>). */
#ifndef NNT_COMMANDS_H
#define NNT_COMMANDS_H
#include "cli.h"

int cmd_tour(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int bench_core(int argc, char **argv);
int tour_core(cli_tour *t);
#if defined(NNT_HAVE_CIRCUITS) && defined(NNT_HAVE_TM) && defined(NNT_HAVE_APPROX)
int bench_exact(int argc, char **argv);
#endif

#ifdef NNT_HAVE_QSTR
int cmd_qstr(int argc, char **argv);
int tour_qstr(cli_tour *t);
int bench_qstr(int argc, char **argv);
#endif
#ifdef NNT_HAVE_APPROX
int cmd_approx(int argc, char **argv);
int tour_approx(cli_tour *t);
#endif
#ifdef NNT_HAVE_CIRCUITS
int cmd_circuit(int argc, char **argv);
int tour_circuits(cli_tour *t);
#endif
#ifdef NNT_HAVE_TM
int cmd_tm(int argc, char **argv);
int tour_tm(cli_tour *t);
#endif
#ifdef NNT_HAVE_BOUNDS
int cmd_bounds(int argc, char **argv);
#endif
#ifdef NNT_HAVE_RCNN
int cmd_rcnn(int argc, char **argv);
int tour_rcnn(cli_tour *t);
#endif
#ifdef NNT_HAVE_ICL
int cmd_icl(int argc, char **argv);
int tour_icl(cli_tour *t);
#endif

#endif
