/* nnt_cli.h — the nnt command line as a library call (libnnt_cli): the executable's main and
 * Python's `import nnt` run a command through the very same driver.
 *
 * nnt_cli_run(argc, argv) runs `nnt argv[1] argv[2] ...` (argv[0] is the program's name) and
 * returns its nnt status (nnt_error.h; nnt_exit_code maps it to the exit code: 0, 1 for a failed
 * verification, 2 for bad input). It prints what the command prints, its error as one line on
 * stderr, and never exits or aborts: --help, --check-options and bad input return too. A call keeps
 * no state that changes the result of a later one. Not thread-safe: one call at a time. */
#ifndef NNT_CLI_H
#define NNT_CLI_H

int nnt_cli_run(int argc, char **argv);

#endif
