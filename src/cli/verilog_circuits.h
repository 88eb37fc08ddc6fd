/* verilog_circuits.h — circuit FILEs of nnt circuit and bounds sm --circuit: a Verilog design
 * (.v, .sv) is synthesised by yosys (an optional external program) into BLIF in a private
 * temporary folder, which the circuits area's readers then read like any .blif file. */
#ifndef VERILOG_CIRCUITS_H
#define VERILOG_CIRCUITS_H

typedef struct {
  const char *path; /* the file the readers read: FILE itself, or the synthesised .blif */
  char dir[1024];   /* the temporary folder ("" when FILE is not Verilog) */
  char blif[1200];  /* the synthesised .blif inside dir */
  char top[256];    /* the synthesised top module */
  char ports[2048]; /* "x0..x15 = a[0..7] b[0..7], y0..y15 = p[0..15]": net bits, Verilog names */
  char version[128]; /* yosys's version line */
} cli_circuit_src;

/* Fills s for FILE. top: the top module of a Verilog FILE (NULL: yosys picks it); an error for any
 * other FILE. Fails with one line (yosys missing, yosys's first error line, a bad name) and leaves
 * nothing behind; on success call cli_circuit_close once the circuit is read. */
int cli_circuit_open(const char *file, const char *top, cli_circuit_src *s);
/* The line "verilog: top=... (yosys ...) net inputs/outputs = Verilog bits" (nothing for others). */
void cli_circuit_print_src(const cli_circuit_src *s);
/* Removes the temporary folder (s->path is then gone; top, ports and version stay). */
void cli_circuit_close(cli_circuit_src *s);

/* FILE opened as above and parsed by the circuits area's reader (then freed): a bad circuit is
 * refused before --check-options stops and before any work. *path: the file the run reads; s is
 * closed by the command's cfg_free. */
int cli_circuit_open_read(const char *file, const char *top, cli_circuit_src *s, const char **path);
/* An nnt-mlp file (NULL: none) read and freed: refused here when malformed. */
int cli_circuit_check_net(const char *file);

#include "cli.h"
/* The help's paragraph on FILE, and --top. */
#define CLI_CIRCUIT_FORMATS                                                                                  \
  "FILE is an ISCAS .bench, BLIF .blif or AIGER ASCII .aag circuit, or a Verilog design (.v, .sv) that\n" \
  "yosys synthesises (--top NAME picks its top module; docs/circuits_tm.md)."
#define CLI_CIRCUIT_TOP(T) CLI_STR("top", T, top, "Verilog FILE: its top module (default: the only one no module instantiates)")
extern const cli_cmd cli_circuit_margin_cmd, cli_circuit_learn_cmd;

#endif
