/* nnt_cli.c — nnt_cli_run: the command table of nnt --help and the dispatch to a command. */
#include <cjson/cJSON.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "nnt_cli.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_mpi.h"
#include "record.h"

/* The i-th command in the order of nnt --help (tour, each area's own and further commands, bench);
 * 0 past the last. */
static int command(int i, cli_sub *c) {
  if (i-- == 0) return *c = (cli_sub){"tour", cmd_tour, "run the quick preset of every subsystem and write a report (main job)"}, 1;
  for (const cli_area *const *a = cli_areas(); *a; a++) {
    if ((*a)->command && i-- == 0) return *c = (cli_sub){(*a)->command, (*a)->run, (*a)->summary}, 1;
    for (const cli_sub *m = (*a)->more; m && m->name; m++)
      if (i-- == 0) return *c = *m, 1;
  }
  if (i == 0) return *c = (cli_sub){"bench", cmd_bench, "benchmarks (nnt bench core, ...)"}, 1;
  return 0;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: nnt <command> [options]\n"
          "       nnt <command> --help\n"
          "       nnt --version\n\ncommands:\n");
  cli_sub c;
  for (int i = 0; command(i, &c); i++) fprintf(f, "  %-9s %s\n", c.name, c.summary);
  fprintf(f, "\ncommon options: --seed S  --threads N  --out DIR  --quick  --config DIR/run.json\n");
}

/* --check-options given (and no --help, which ends a command before its check)? */
static int check_only(int argc, char **argv) {
  int check = 0;
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 0;
    check |= !strcmp(argv[i], "--check-options");
  }
  return check;
}

static int dispatch(const char *cmd, const cli_sub *c, int argc, char **argv) {
  int st = c->run(argc - 1, argv + 1);
  if (st == CLI_CHECKED) return NNT_OK; /* --check-options: validated, nothing run */
  if (!nnt_mpi_rank()) st = cli_record_finish(st); /* results.json beside the CSVs */
  if (st && nnt_mpi_rank()) {
    /* an error every rank meets (a bad option) is rank 0's to report, and its MPI_Abort ends
     * this rank in the meantime; an error of this rank alone is reported, then ends the job */
    sleep(2);
    fprintf(stderr, "nnt %s (rank %d): %s\n", cmd, nnt_mpi_rank(), *nnt_errmsg() ? nnt_errmsg() : "failed");
  } else if (st)
    fprintf(stderr, "nnt %s: %s\n", cmd, *nnt_errmsg() ? nnt_errmsg() : "failed");
  else if (check_only(argc, argv)) {
    /* under --check-options a command that accepts its options stops before its run: one that
     * ran instead is a defect of nnt, reported as a failed check */
    st = nnt_fail(NNT_ECHECK, "--check-options: the command ended without its check");
    fprintf(stderr, "nnt %s: %s\n", cmd, nnt_errmsg());
  }
  return st;
}

static int run_command(int argc, char **argv) {
  /* cJSON's allocations fail as every other one does (one line, exit 2), not as a malformed file */
  cJSON_InitHooks(&(cJSON_Hooks){.malloc_fn = nnt_xmalloc, .free_fn = free});
  cli_record_reset();
  nnt_interrupt_clear();
  cli_list_mode(0);
  if (argc < 2) {
    usage(stderr);
    return NNT_EINVAL;
  }
  const char *cmd = argv[1];
  cli_sub c;
  if (!strcmp(cmd, "help") && argc == 3 && !strcmp(argv[2], "--list")) {
    /* every command, one per line (hidden: for tests/cli/examples.cmake and the manual) */
    cli_list_mode(1);
    for (int i = 0; command(i, &c); i++) c.run(1, (char *[]){(char *)c.name, NULL});
    cli_list_mode(0);
    return NNT_OK;
  }
  int global = !strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help") || !strcmp(cmd, "--version") ||
               !strcmp(cmd, "version");
  if (global && argc > 2) {
    fprintf(stderr, "nnt: %s takes nothing after it (got '%s'; for a command's help: nnt COMMAND --help)\n", cmd, argv[2]);
    return NNT_EINVAL;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return NNT_OK;
  }
  if (nnt_cpu_check()) {
    fprintf(stderr, "nnt: %s\n", nnt_errmsg());
    return NNT_EINVAL;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    nnt_isa isa = nnt_cpu_isa();
    printf("nnt %s (%s)\nkernels: %s (best here: %s; NNT_ISA=%s chooses)\ncpu: %s\n", nnt_version(),
           nnt_git_commit(), nnt_cpu_isa_name(isa), nnt_cpu_isa_name(nnt_cpu_isa_max()), nnt_cpu_isa_choices(),
           nnt_cpu_flags());
    return NNT_OK;
  }
  for (int i = 0; command(i, &c); i++)
    if (!strcmp(cmd, c.name)) return dispatch(cmd, &c, argc, argv);
  fprintf(stderr, "nnt: unknown command '%s' (see nnt --help)\n", cmd);
  return NNT_EINVAL;
}

int nnt_cli_run(int argc, char **argv) {
  /* out of memory on this thread returns here (nnt_oom_point): one line, NNT_ENOMEM (exit 2), and
   * the host process (Python, a C program) goes on */
  nnt_oom_point p;
  nnt_oom_enter(&p);
  if (setjmp(p.env)) {
    nnt_oom_leave(&p);
    fprintf(stderr, "nnt %s: %s\n", argc > 1 ? argv[1] : "", nnt_errmsg());
    return NNT_ENOMEM;
  }
  int st = run_command(argc, argv);
  nnt_oom_leave(&p);
  return st;
}
