/* nnt_cli_run called several times in one process (libnnt_cli): a bad option, --help and
 * --check-options return their status instead of ending the process, and a run after them gives
 * the result it gives alone. Run from the source tree (examples/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_cli.h"
#include "nnt_error.h"

static int failures;

/* want: the exit code the status maps to (0, 1, 2) */
static void expect(int want, int argc, char **argv) {
  int got = nnt_exit_code(nnt_cli_run(argc, argv));
  fflush(stdout);
  if (got != want) {
    fprintf(stderr, "FAIL:");
    for (int i = 0; i < argc; i++) fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, ": exit code %d, expected %d\n", got, want);
    failures++;
  }
}

#define RUN(want, ...)                                                     \
  do {                                                                     \
    char *argv_[] = {"nnt", __VA_ARGS__};                                  \
    expect(want, (int)(sizeof argv_ / sizeof *argv_), argv_);             \
  } while (0)

int main(void) {
  RUN(2, "tm", "run", "--bogus", "1RB1LB_1LA1RZ");
  RUN(0, "tm", "run", "1RB1LB_1LA1RZ");
  RUN(0, "tm", "run", "--help");
  RUN(0, "tm", "compile", "1RB1LB_1LA1RZ", "--check-options");
  RUN(2, "tm", "compile", "/nonexistent.tm", "--check-options");
  RUN(2, "frobnicate");
  /* a --config of one call is not applied to the next */
  RUN(2, "tm", "run", "1RB1LB_1LA1RZ", "--config", "/nonexistent/run.json");
  RUN(0, "tm", "compile", "1RB1LB_1LA1RZ", "--steps", "6");
  RUN(0, "approx", "planting", "--quick");
  if (failures) return 1;
  printf("ok: nnt_cli_run called 9 times in one process\n");
  return 0;
}
