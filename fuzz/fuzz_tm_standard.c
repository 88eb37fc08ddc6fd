/* libFuzzer target: the busy-beaver standard notation reader on arbitrary bytes (checks in fuzz_tm.h). */
#include "fuzz_tm.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) { return fuzz_tm_reader(nnt_tm_parse_standard, data, size); }
