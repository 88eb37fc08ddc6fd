/* cli.h — what every subcommand shares: common options, value parsing, the tour hooks.
 *
 * A subcommand is `int cmd_X(int argc, char **argv)` (argv[0] is its own name). It validates every
 * option before it creates anything, then calls cli_begin(), and returns an nnt status: main
 * prints nnt_errmsg() as one line and exits with nnt_exit_code(status).
 */
#ifndef CLI_H
#define CLI_H
#include <getopt.h>
#include <stdio.h>

#include "nnt_error.h"

typedef struct {
  unsigned long long seed;
  int threads;     /* 0 = number of cores */
  const char *out; /* NULL when the command was given no --out */
  int quick;
  int help;
} cli_common;

/* Long options every subcommand accepts; put NNT_COMMON_OPTIONS first in its option table and
 * pass unhandled option characters to cli_common_option(). */
#define NNT_COMMON_OPTIONS                                                                          \
  {"seed", required_argument, 0, 0x101}, {"threads", required_argument, 0, 0x102},                   \
      {"out", required_argument, 0, 0x103}, {"quick", no_argument, 0, 0x104}, {"help", no_argument, 0, 'h'}
#define NNT_COMMON_HELP                                                                             \
  "  --seed S       random seed (default 1)\n"                                                      \
  "  --threads N    threads for OpenMP and OpenBLAS (default: all cores)\n"                         \
  "  --out DIR      write results (CSV, JSON, plots) into DIR\n"                                    \
  "  --quick        small preset (seconds) for tests and the tour\n"

void cli_common_init(cli_common *co, const char *default_out);
/* Handles a common option or getopt's '?'/':' (unknown option, missing value). Returns NNT_OK if
 * c was handled, NNT_EINVAL (message recorded) on a bad value, -1 if c is not a common option. */
int cli_common_option(int c, char **argv, cli_common *co);
/* Resets getopt for a subcommand's parse. */
void cli_reset(void);
/* Creates co->out (if set) and applies --threads. Call after every option is validated. */
int cli_begin(const cli_common *co);

/* Value parsers: NNT_EINVAL with "--opt: ..." on a bad value. */
int cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out);
int cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out);
int cli_parse_double(const char *opt, const char *s, double lo, double hi, double *out);
/* Integer lists: "2,4,6", ranges "0..6", mixes "1,4..6", and progressions "a,b,...,c" that
 * continue up to c: geometric when the values before "..." have a constant integer ratio (three or
 * more values) or when b/a >= 10 ("10,100,...,1000000"), arithmetic otherwise ("2,4,...,12").
 * At most max values. */
int cli_parse_int_list(const char *opt, const char *s, long lo, long hi, long *vals, int max, int *n);
int cli_parse_choice(const char *opt, const char *s, const char *const *choices, int *out);
/* Error for a stray positional argument or a missing one. */
int cli_positional(int argc, char **argv, int want, const char *usage);

/* The tour: each area contributes a section to report.md and its files under out/<area>/.
 * A hook returns NNT_OK when it ran to the end, whatever its checks found: a failed check is a
 * result, recorded with cli_tour_checks() and marked **FAIL** in its row, and the hook carries on.
 * Any other status means the section stopped early; the tour notes the error and goes on. */
typedef struct {
  const char *out;  /* tour folder */
  FILE *report;     /* the running section's part of report.md */
  unsigned long long seed;
  int threads;
  int passed, failed; /* the running section's checks, for the report's summary */
} cli_tour;

/* Writes a Markdown table row from a printf format: cli_tour_row(t, "| %d | %.3f |", ...). */
void cli_tour_printf(cli_tour *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Counts the running section's verifications for the summary. */
void cli_tour_checks(cli_tour *t, int passed, int failed);
/* For a step that computes, writes its results and then verifies them (NNT_ECHECK when the
 * verification fails): counts the check, writes "**FAIL**: <message>" into the section on failure
 * and returns NNT_OK so the section goes on; any other status is returned unchanged. */
int cli_tour_checked(cli_tour *t, int status);

#endif
