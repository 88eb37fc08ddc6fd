/* libFuzzer target: the aag reader on arbitrary bytes; whatever it accepts must layer, compile
 * (with and without correction layers) and match direct evaluation exactly. */
#include <stdlib.h>

#include "nnt_circuits.h"
#include "nnt_error.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  nnt_circuit c;
  if (nnt_circuit_parse_aag((const char *)data, size, "fuzz.aag", &c) != NNT_OK) {
    if (!*nnt_errmsg()) abort(); /* every rejection carries a message */
    return 0;
  }
  if (c.ngates <= 400) {
    nnt_layered L;
    nnt_circuit_layer(&c, &L);
    if (L.size <= 4000)
      for (int corr = 0; corr < 2; corr++) {
        nnt_mlp net;
        nnt_circuit_compile(&L, corr, &net);
        nnt_verify_result r = nnt_circuit_verify(&c, &net, 8, 64, 1);
        if (r.mismatches) abort(); /* a compiler bug: the net disagrees with the circuit */
        nnt_mlp_free(&net);
      }
    nnt_layered_free(&L);
  }
  nnt_circuit_free(&c);
  return 0;
}
