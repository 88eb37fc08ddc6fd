/* nnt — neural network theory, executable. git-style subcommands. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
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

/* --check-options given (and no --help, which ends a command before cli_begin)? */
static int check_only(int argc, char **argv) {
  int check = 0;
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 0;
    check |= !strcmp(argv[i], "--check-options");
  }
  return check;
}

static int run(int argc, char **argv);

/* Under mpirun every rank runs the command; the sweep engine shares out its points and data-parallel
 * training its batches (nnt_mpi.h). Rank 0 alone writes files and stdout. */
int main(int argc, char **argv) {
  /* cJSON's allocations fail as every other one does (one line, exit 2), not as a malformed file */
  cJSON_InitHooks(&(cJSON_Hooks){.malloc_fn = nnt_xmalloc, .free_fn = free});
  nnt_mpi_init(&argc, &argv);
  int rank = nnt_mpi_rank();
  if (rank && !freopen("/dev/null", "w", stdout)) return 2;
  nnt_stdout_begin();
  int code = run(argc, argv);
  if (nnt_stdout_end() && !code) fprintf(stderr, "nnt: %s\n", nnt_errmsg()), code = 2; /* a lost result is a failure */
  nnt_mpi_finalize(code, code);
  return code;
}

static int run(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  cli_sub c;
  if (!strcmp(cmd, "help") && argc == 3 && !strcmp(argv[2], "--list")) {
    /* every command, one per line (hidden: for tests/cli/examples.cmake and the manual) */
    cli_list_mode();
    for (int i = 0; command(i, &c); i++) c.run(1, (char *[]){(char *)c.name, NULL});
    return 0;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (nnt_cpu_check()) {
    fprintf(stderr, "nnt: %s\n", nnt_errmsg());
    return 2;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    nnt_isa isa = nnt_cpu_isa();
    printf("nnt %s (%s)\nkernels: %s (best here: %s; NNT_ISA=generic|avx2|avx512 chooses)\ncpu: %s\n",
           nnt_version(), nnt_git_commit(), nnt_cpu_isa_name(isa), nnt_cpu_isa_name(nnt_cpu_isa_max()),
           nnt_cpu_flags());
    return 0;
  }
  for (int i = 0; command(i, &c); i++) {
    if (strcmp(cmd, c.name)) continue;
    int st = c.run(argc - 1, argv + 1);
    if (!nnt_mpi_rank()) st = cli_record_finish(st); /* results.json beside the CSVs */
    if (st && nnt_mpi_rank()) {
      /* an error every rank meets (a bad option) is rank 0's to report, and its MPI_Abort ends
       * this rank in the meantime; an error of this rank alone is reported, then ends the job */
      sleep(2);
      fprintf(stderr, "nnt %s (rank %d): %s\n", cmd, nnt_mpi_rank(), *nnt_errmsg() ? nnt_errmsg() : "failed");
    } else if (st)
      fprintf(stderr, "nnt %s: %s\n", cmd, *nnt_errmsg() ? nnt_errmsg() : "failed");
    else if (check_only(argc, argv)) {
      /* under --check-options a command that accepts its options stops in cli_begin */
      fprintf(stderr, "nnt %s: --check-options: the command ended without reaching cli_begin\n", cmd);
      return 70;
    }
    return nnt_exit_code(st);
  }
  fprintf(stderr, "nnt: unknown command '%s' (see nnt --help)\n", cmd);
  return 2;
}
