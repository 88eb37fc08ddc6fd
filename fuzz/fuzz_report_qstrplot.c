/* libFuzzer target: the samples.csv reader of nnt qstr plot DIR... (read_samples, which reads back
 * sweeps saved earlier, maybe by another nnt). Every rejection carries a message; every curve it
 * builds has 1 to 64 lengths N, and at each the minimum <= median <= maximum of the rows' samples.
 * report_qstr.c is included for its static reader (the archive's copy of it is then never linked). */
#include "../src/report/report_qstr.c"

#include <errno.h>
#include <sys/stat.h>

#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static char dir[64], path[128];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "%s", fuzz_out_path(0, "qstrplot"));
    if (mkdir(dir, 0777) && errno != EEXIST) abort();
    snprintf(path, sizeof path, "%s/samples.csv", dir);
  }
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) abort();
  curve *cv = nnt_xcalloc(16, sizeof *cv);
  int ncv = 0;
  if (read_samples(dir, cv, &ncv, 16) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
  } else {
    if (ncv < 1) abort();
    for (int c = 0; c < ncv; c++) {
      if (cv[c].nN < 1 || cv[c].nN > 64) abort();
      for (int k = 0; k < cv[c].nN; k++)
        if (!(cv[c].lo[k] <= cv[c].med[k] && cv[c].med[k] <= cv[c].hi[k])) abort();
    }
  }
  free(cv);
  unlink(path);
  return 0;
}
