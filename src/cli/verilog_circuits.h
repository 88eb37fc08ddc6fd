/* verilog_circuits.h — what nnt circuit and bounds sm --circuit share in the CLI: the help's
 * paragraph on FILE and --top (the Verilog reading itself is the circuits area's, nnt_circuit_src_*). */
#ifndef VERILOG_CIRCUITS_H
#define VERILOG_CIRCUITS_H
#include "nnt_circuits.h"

#include "cli.h"
/* The help's paragraph on FILE, and --top. */
#define CLI_CIRCUIT_FORMATS                                                                                  \
  "FILE is an ISCAS .bench, BLIF .blif or AIGER ASCII .aag circuit, or a Verilog design (.v, .sv) that\n" \
  "yosys synthesises (--top NAME picks its top module; docs/circuits_tm.md)."
#define CLI_CIRCUIT_TOP(T) CLI_STR("top", T, top, "Verilog FILE: its top module (default: the only one no module instantiates)")
extern const cli_cmd cli_circuit_margin_cmd, cli_circuit_learn_cmd, cli_circuit_d5_cmd;

#endif
