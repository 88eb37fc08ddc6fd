/* fuzz_file.h — for readers that take a path: the input bytes go to a file in the fuzzer's working
 * directory (one per process and tag), and a second path receives what a writer writes back. */
#ifndef NNT_FUZZ_FILE_H
#define NNT_FUZZ_FILE_H
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes n bytes to "fuzz-<tag>.<pid>" and returns that path (a static buffer per tag slot). */
static const char *fuzz_file(int slot, const char *tag, const void *data, size_t n) {
  static char path[4][64];
  snprintf(path[slot], sizeof path[slot], "fuzz-%s.%ld", tag, (long)getpid());
  FILE *f = fopen(path[slot], "wb");
  if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) abort();
  return path[slot];
}

/* The path a writer saves the round trip to. */
static const char *fuzz_out_path(int slot, const char *tag) {
  static char path[4][64];
  snprintf(path[slot], sizeof path[slot], "fuzz-%s-out.%ld", tag, (long)getpid());
  return path[slot];
}

#endif
