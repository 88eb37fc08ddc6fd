/* The circuits area's record (seed 000); its subcommand is singular, nnt circuit (cmd_circuit.c). */
#include "commands.h"

int cmd_circuit(int argc, char **argv);
int tour_circuits(cli_tour *t);

const cli_area cli_area_circuits = {.name = "circuits", .order = 30, .command = "circuit",
                                    .summary = "boolean circuits compiled into ReLU nets (seed 000)",
                                    .run = cmd_circuit, .tour = tour_circuits};
