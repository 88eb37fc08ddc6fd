/* The core's record: the first tour section and benchmark, and nnt export (cmd_export.c); the
 * other commands of no area are tour and bench. */
#include "commands.h"

int tour_core(cli_tour *t);         /* tour_core.c */
int cmd_export(int argc, char **argv); /* cmd_export.c */
extern const cli_bench cli_bench_core; /* bench/bench_core.c */

static const cli_tour_guide guide = {
    .claim = "Not a paper: the numerical core every area uses. Every dense product goes through one matrix "
        "multiply, which runs nnt's own vectorised loops for small shapes and OpenBLAS for large ones.",
    .ran = "Square float32 products of size n = 8 to 256, timed both ways on this machine.",
    .glossary = (const char *const[]){
        "GFLOP/s",
        "Billions of floating-point operations per second; a product of two n × n matrices costs 2n³ of "
        "them.",
        "OpenBLAS",
        "A tuned linear-algebra library; fast on large matrices but with a fixed cost per call that small "
        "ones feel.",
        "kernels (ISA level)",
        "The instruction-set level nnt picked when it started (generic, avx2 or avx512); every level "
        "gives the same bits.",
        NULL}};

const cli_area cli_area_core = {.name = "core", .order = 0, .tour = tour_core, .bench = &cli_bench_core,
                                .guide = &guide, .command = "export", .run = cmd_export,
                                .summary = "convert a network file nnt wrote to .safetensors or .onnx"};
