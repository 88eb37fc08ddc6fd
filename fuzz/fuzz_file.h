/* fuzz_file.h — for readers that take a path: the input bytes go to a file (one per process and
 * tag) in /dev/shm when there is one (a disk file costs most of an execution), else in the working
 * directory; a second path receives what a writer writes back. */
#ifndef NNT_FUZZ_FILE_H
#define NNT_FUZZ_FILE_H
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_paths[8][64]; /* slots 0-3 inputs, 4-7 outputs: removed at exit */

static void fuzz_cleanup(void) {
  for (int i = 0; i < 8; i++)
    if (fuzz_paths[i][0]) remove(fuzz_paths[i]); /* a file, or a folder left empty */
}

static const char *fuzz_name(int slot, const char *tag, const char *suffix) {
  static int registered;
  if (!registered) registered = 1, atexit(fuzz_cleanup);
  snprintf(fuzz_paths[slot], sizeof fuzz_paths[slot], "%snnt-fuzz-%s%s.%ld",
           access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : "", tag, suffix, (long)getpid());
  return fuzz_paths[slot];
}

/* Writes n bytes to "nnt-fuzz-<tag>.<pid>" and returns that path (slot 0-3). */
static inline const char *fuzz_file(int slot, const char *tag, const void *data, size_t n) {
  const char *path = fuzz_name(slot, tag, "");
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) abort();
  return path;
}

/* The path a writer saves the round trip to (slot 0-3). */
static inline const char *fuzz_out_path(int slot, const char *tag) { return fuzz_name(4 + slot, tag, "-out"); }

#endif
