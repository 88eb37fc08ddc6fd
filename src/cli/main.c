/* nnt — neural network theory, executable. git-style subcommands, run by nnt_cli_run (nnt_cli.h). */
#include <stdio.h>

#include "nnt_cli.h"
#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_mpi.h"

/* Under mpirun every rank runs the command; the sweep engine shares out its points and data-parallel
 * training its batches (nnt_mpi.h). Rank 0 alone writes files and stdout. */
int main(int argc, char **argv) {
  nnt_mpi_init(&argc, &argv);
  if (nnt_mpi_rank() && !freopen("/dev/null", "w", stdout)) return 2;
  nnt_stdout_begin();
  int code = nnt_exit_code(nnt_cli_run(argc, argv));
  if (nnt_stdout_end() && !code) fprintf(stderr, "nnt: %s\n", nnt_errmsg()), code = 2; /* a lost result is a failure */
  nnt_mpi_finalize(code, code);
  return code;
}
