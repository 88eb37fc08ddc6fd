/* The circuits area's record (seed 000); its subcommand is singular, nnt circuit (cmd_circuits.c). */
#include "commands.h"

int cmd_circuit(int argc, char **argv);
int tour_circuits(cli_tour *t);

static const cli_tour_guide guide = {
    .claim = "Wei, Chen and Ma (seed 000) show that a Boolean circuit compiles into a ReLU network whose "
        "all-layer margin stays large when small correction layers round every hidden value back to 0 or "
        "1, so the samples needed grow with the circuit's size but only logarithmically with the "
        "network's width.",
    .ran = "An 8-bit adder compiled both ways and checked on all of its 65536 inputs, and the margin of a "
        "chain of ID gates measured for depths 1 to 16.",
    .glossary = (const char *const[]){
        "Lemma B.1 / 3.2",
        "The compiler: each layer of the circuit becomes two ReLU layers (AND = φ(x + y − 1), OR = 1 − "
        "φ(1 − x − y), NOT = 1 − x, with φ the ReLU).",
        "Lemma 3.3 (correction layers)",
        "After each layer, round(z) = 3φ(z − 1/3) − 3φ(z − 2/3) maps any value within 1/3 of 0 or 1 back "
        "to it, so small errors never build up.",
        "depth q, width r, size s",
        "The circuit arranged in layers that read only the layer before: q layers, at most r gates in "
        "one, s gates in all.",
        "ID gates",
        "Pass-through gates added so that a wire skipping layers is carried one layer at a time.",
        "‖θ‖₁",
        "The sum of the absolute values of all weights and biases (α in the paper).",
        "all-layer margin (eq. 2.1)",
        "The smallest change of all parameters together (Euclidean norm) that flips the network's answer "
        "on an input; the paper's generalisation bound (Lemma 2.3) pays 1/margin².",
        "Claim 3.5",
        "Without correction layers a chain of depth q has margin about 1/√q or less; with them the margin "
        "stays bounded away from 0.",
        "upper, lower",
        "Upper bounds come from perturbations found that do flip the output; lower bounds are certified "
        "from layer-wise Lipschitz constants.",
        NULL}};

const cli_area cli_area_circuits = {.name = "circuits", .order = 30, .command = "circuit",
                                    .summary = "boolean circuits compiled into ReLU nets (seed 000)",
                                    .run = cmd_circuit, .tour = tour_circuits, .guide = &guide};
