/* fuzz_circuits.h — the body shared by the circuit-reader fuzz targets: whatever a reader accepts
 * must layer, compile (with and without correction layers) and match direct evaluation exactly;
 * every rejection carries a message. */
#ifndef NNT_FUZZ_CIRCUITS_H
#define NNT_FUZZ_CIRCUITS_H
#include <stdlib.h>

#include "nnt_circuits.h"
#include "nnt_error.h"

typedef int (*circuit_reader)(const char *text, size_t len, const char *name, nnt_circuit *c);

static int fuzz_circuit_reader(circuit_reader read, const char *name, const unsigned char *data, size_t size) {
  nnt_circuit c;
  if (read((const char *)data, size, name, &c) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  if (c.ngates <= 400) {
    nnt_circuit_layered L;
    nnt_circuit_layer(&c, &L);
    if (L.size <= 4000)
      for (int corr = 0; corr < 2; corr++) {
        nnt_smlp net;
        nnt_circuit_compile_sparse(&L, corr, &net);
        nnt_circuit_verify_counts r = nnt_circuit_verify(&c, &net, 8, 64, 1);
        if (r.mismatches) abort(); /* a compiler bug: the net disagrees with the circuit */
        nnt_smlp_free(&net);
      }
    nnt_circuit_layered_free(&L);
  }
  nnt_circuit_free(&c);
  return 0;
}

#endif
