/* The tour's seed-003 section: the construction check (construct helper), then a micro ICL
 * training run (gpt helper). Each part is one static function called from tour_icl(). */
#include "commands.h"

static int tour_construct(cli_tour *t) {
  cli_tour_printf(t, "## icl: in-context gradient descent on N-layer networks (seed 003)\n\n");
  return NNT_OK;
}

int tour_icl(cli_tour *t) {
  int st = tour_construct(t);
  return st;
}
