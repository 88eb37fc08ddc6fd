/* libFuzzer target: the aag reader on arbitrary bytes (checks in fuzz_circuits.h). */
#include "fuzz_circuits.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  return fuzz_circuit_reader(nnt_circuit_parse_aag, "fuzz.aag", data, size);
}
