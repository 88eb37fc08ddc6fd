/* cli.h — what every command shares: the experiment descriptor (cli_cmd) that the one driver runs
 * (driver.c), declarative options, value parsing, the tour hooks.
 *
 * A command is a cli_cmd value: its option table, its config's size and cfg_default(cfg, preset),
 * validate (every check of the config, input files opened and parsed), run, report and
 * result_free. cli_drive() does the rest, the same way for every command: parse -> validate ->
 * --check-options stops -> --out prepared -> thread count into the run -> run -> report -> run.json
 * (from the option table and the config actually used). It returns an nnt status; nnt_cli_run
 * (nnt_cli.h) prints nnt_errmsg() as one line and main maps the status to the exit code.
 */
#ifndef CLI_H
#define CLI_H
#include <stddef.h>
#include <stdio.h>

#include "nnt_error.h"
#include "nnt_sweep.h" /* nnt_preset */

typedef struct {
  unsigned long long seed;
  int threads;     /* 0 = number of cores */
  const char *out; /* NULL when the command was given no --out */
  int quick;
  int help;
  int resume;      /* sweeps: keep the points already in out/results.sqlite */
  int force;       /* sweeps: start afresh in a folder that holds results */
  int check;       /* --check-options (hidden): stop once everything is validated (cli_drive) */
} cli_common;

/* cli_drive's status under --check-options, having validated everything and run nothing
 * (nnt_cli_run: exit 0). */
enum { CLI_CHECKED = 100 };
/* Resolves a --threads value (0: the default) to the count a run uses, and applies it. */
int cli_threads(int threads);
/* The --out folder: created (with its parents) and checked writable; recorded for run.json. */
int cli_prepare_out(const char *out);
/* "family argv[0] argv[1] ..." into buf (truncated to n), for the provenance of exported files. */
char *cli_command_line(char *buf, size_t n, const char *family, int argc, char **argv);

/* ---------------------------------------------------------------- declarative options
 * A subcommand declares its options once, as a table of fields of its config struct, and itself
 * as a cli_cmd (designated initializers: fields left out are 0/NULL):
 *
 *   static const cli_opt sweep_opts[] = {
 *     CLI_INT("reps", nnt_qstr_sweep_cfg, reps, 1, 1000, "repetitions per N"),
 *     CLI_INTS("N", nnt_qstr_sweep_cfg, Ns, nN, 2, 1e6, "sequence lengths"), ..., {0}};
 *
 * cli_parse() then builds the getopt table, fills the config from the area's defaults for the
 * preset (--quick or full) and then from the options, checks every value against its range, records
 * which options were given, rejects any option the subcommand does not take, and writes --help
 * with each option's default read from the default config. Lists take "2,4,6", ranges "0..6" and
 * progressions "a,b,...,c" (cli_parse_int_list). */
typedef enum { CLI_K_INT, CLI_K_LONG, CLI_K_U64, CLI_K_DOUBLE, CLI_K_FLAG, CLI_K_CHOICE, CLI_K_STR, CLI_K_INTS, CLI_K_DOUBLES } cli_kind;

typedef struct {
  const char *name;            /* long option without "--" */
  cli_kind kind;
  size_t off, size;            /* the field: offset in the config and size (checked against kind) */
  double lo, hi;               /* accepted values (numbers, list elements) */
  const char *help;            /* "(default ...)" is appended unless the text gives its own */
  const char *const *choices;  /* CLI_K_CHOICE: names, NULL-terminated; the field holds the index */
  size_t count_off;            /* lists: offset of the int that receives the number of values */
} cli_opt;

#define CLI_FIELD_(T, f) offsetof(T, f), sizeof(((T *)0)->f)
#define CLI_INT(name, T, f, lo, hi, help) {name, CLI_K_INT, CLI_FIELD_(T, f), lo, hi, help, NULL, 0}
#define CLI_LONG(name, T, f, lo, hi, help) {name, CLI_K_LONG, CLI_FIELD_(T, f), lo, hi, help, NULL, 0}
#define CLI_U64(name, T, f, lo, hi, help) {name, CLI_K_U64, CLI_FIELD_(T, f), lo, hi, help, NULL, 0}
#define CLI_DOUBLE(name, T, f, lo, hi, help) {name, CLI_K_DOUBLE, CLI_FIELD_(T, f), lo, hi, help, NULL, 0}
#define CLI_FLAG(name, T, f, help) {name, CLI_K_FLAG, CLI_FIELD_(T, f), 0, 1, help, NULL, 0}
#define CLI_CHOICE(name, T, f, names, help) {name, CLI_K_CHOICE, CLI_FIELD_(T, f), 0, 0, help, names, 0}
#define CLI_STR(name, T, f, help) {name, CLI_K_STR, CLI_FIELD_(T, f), 0, 0, help, NULL, 0}
#define CLI_INTS(name, T, f, n, lo, hi, help) {name, CLI_K_INTS, CLI_FIELD_(T, f), lo, hi, help, NULL, offsetof(T, n)}
#define CLI_DOUBLES(name, T, f, n, lo, hi, help) {name, CLI_K_DOUBLES, CLI_FIELD_(T, f), lo, hi, help, NULL, offsetof(T, n)}

/* Common options a subcommand takes besides --help, --seed, --threads and --quick. */
enum { CLI_OUT = 1, CLI_SWEEP = 2 /* --resume, --force */ };

typedef struct cli_cmd cli_cmd;
typedef struct cli_args cli_args;

/* What the driver gives a command besides its config: the common options, resolved. Part of the
 * config actually used (run.json records it). */
typedef struct {
  const cli_cmd *cmd;
  const cli_args *args;    /* for cli_given */
  unsigned long long seed;
  int threads;             /* the thread count of this run (never 0: the default is resolved) */
  int quick;
  const char *out;         /* --out DIR, or NULL: the command writes no files (its console report only) */
  int resume, force;       /* sweeps */
  int npos;
  char **pos;              /* positional arguments */
  int argc;
  char **argv;             /* the command's own (argv[0]: its name), for provenance (cli_command_line) */
  double seconds;          /* for report: the wall time of run */
} cli_run;

struct cli_cmd {
  const char *name;    /* "qstr sweep" */
  const char *args;    /* positional arguments for the usage line, e.g. "FILE" (NULL if none) */
  const char *about;   /* what it does, a few lines */
  const cli_opt *opts; /* terminated by {0} */
  size_t cfg_size, res_size;
  /* The experiment. cfg_default fills the config for the preset (then the options are applied);
   * validate takes the positional arguments and the common options from run, checks the whole
   * config (files opened and parsed: a bad input is refused here, before --check-options stops and
   * before --out is created); run computes (no output but progress); report writes the console
   * report and, into run->out when given, the files (src/report); result_free frees what run made.
   * validate, report and result_free may be NULL. */
  void (*cfg_default)(void *cfg, nnt_preset preset);
  int (*validate)(void *cfg, const cli_run *run);
  int (*run)(void *cfg, const cli_run *run, void *res);
  int (*report)(const void *cfg, const void *res, const cli_run *run);
  void (*result_free)(void *res);
  void (*cfg_free)(void *cfg); /* what validate opened (a temporary file); called whenever validate was */
  /* the result summary run.json carries under "result" (src/report builds it; NULL: none) */
  struct cJSON *(*result_json)(const void *cfg, const void *res);
  int (*sweeps)(const void *cfg); /* CLI_SWEEP: does this config sweep (NULL: always)? Else --out is a plain folder */
  int npos_min, npos_max;
  unsigned common;     /* CLI_OUT | CLI_SWEEP */
  const char *out_default; /* --out when not given (NULL: none, the command writes no files) */
  int threads_default; /* --threads when not given (0: OMP_NUM_THREADS, else the usable cores) */
  const char *example; /* command lines ending the help, "nnt ...", one per line; each must pass
                        * --check-options as written, in a folder holding examples/ (tests/cli/examples.cmake) */
};

/* Runs cmd on argv (argv[0] is its own name), the same way for every command (see the top). */
int cli_drive(const cli_cmd *cmd, int argc, char **argv);

enum { CLI_MAXOPT = 64 };
struct cli_args {
  cli_common co;
  unsigned char given[CLI_MAXOPT]; /* given[i]: option i of the table was on the command line */
  int npos;
  char **pos;                      /* the positional arguments */
};

/* Fills cfg (defaults, then options) and a. NNT_OK with a->co.help set after printing --help;
 * NNT_EINVAL with a one-line message on anything wrong. */
int cli_parse(const cli_cmd *cmd, int argc, char **argv, void *cfg, cli_args *a);
/* Was the option `name` given? (name must be in the table: a typo aborts.) */
int cli_given(const cli_cmd *cmd, const cli_args *a, const char *name);
void cli_help(const cli_cmd *cmd, FILE *f);
/* A family of subcommands ("nnt qstr <sub>"): dispatch on argv[1], or list them for --help. */
typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} cli_sub;
int cli_dispatch(const char *family, const cli_sub *subs, int n, int argc, char **argv);
/* nnt help --list: while on, cli_parse prints its command's name (and returns NNT_EINVAL so
 * the command stops there) and cli_dispatch runs each of its subcommands so: every command once. */
void cli_list_mode(int on);

/* Value parsers: NNT_EINVAL with "--opt: ..." on a bad value. */
int cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out);
int cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out);
int cli_parse_double(const char *opt, const char *s, double lo, double hi, double *out);
/* Lists refuse empty items ("2,4,"). Integer lists: "2,4,6", ranges "0..6", mixes "1,4..6", and progressions "a,b,...,c" that
 * continue up to c: geometric when the values before "..." have a constant integer ratio (three or
 * more values) or when b/a >= 10 ("10,100,...,1000000"), arithmetic otherwise ("2,4,...,12").
 * At most max values. */
int cli_parse_int_list(const char *opt, const char *s, long lo, long hi, long *vals, int max, int *n);
int cli_parse_double_list(const char *opt, const char *s, double lo, double hi, double *vals, int max, int *n);
int cli_parse_choice(const char *opt, const char *s, const char *const *choices, int *out);

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
  char outcome[512];  /* the running section's result in a sentence (cli_tour_outcome) */
} cli_tour;

/* Writes a Markdown table row from a printf format: cli_tour_row(t, "| %d | %.3f |", ...). */
void cli_tour_printf(cli_tour *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Says in a plain sentence or two what the running section found, for report.html's introduction
 * of the section ("The transformer needed 20480 samples at N = 12, the FFN 143360."). */
void cli_tour_outcome(cli_tour *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Counts the running section's verifications for the summary. */
void cli_tour_checks(cli_tour *t, int passed, int failed);
/* For a step that computes, writes its results and then verifies them (NNT_ECHECK when the
 * verification fails): counts the check, writes "**FAIL**: <message>" into the section on failure
 * and returns NNT_OK so the section goes on; any other status is returned unchanged. */
int cli_tour_checked(cli_tour *t, int status);

#endif
