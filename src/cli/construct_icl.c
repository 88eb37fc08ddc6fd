/* nnt icl construct / construct-sweep: the explicit Theorem-1 transformer (being built). */
#include "commands.h"

int cli_icl_construct(int argc, char **argv) {
  (void)argc, (void)argv;
  return nnt_fail(NNT_EINVAL, "icl construct: not built yet");
}
int cli_icl_construct_sweep(int argc, char **argv) {
  (void)argc, (void)argv;
  return nnt_fail(NNT_EINVAL, "icl construct-sweep: not built yet");
}
