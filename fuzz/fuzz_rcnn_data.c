/* libFuzzer target: the labelled-data reader of nnt rcnn tm2d --data (nnt_rcnn_tm2d_data_load).
 * Every rejection carries a message; accepted data, written back one example a line, loads again
 * to the same examples. */
#include <string.h>

#include "fuzz_file.h"
#include "nnt_error.h"
#include "nnt_rcnn_tm2d.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *in = fuzz_file(0, "data", data, size), *out = fuzz_out_path(1, "data");
  int m, d, m2, d2;
  signed char *X, *y, *X2, *y2;
  if (nnt_rcnn_tm2d_data_load(in, &m, &d, &X, &y) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  if (m < 1 || d < 1) abort();
  FILE *f = fopen(out, "w");
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < d; j++) fprintf(f, "%d ", X[(size_t)i * d + j]);
    fprintf(f, "%d\n", y[i]);
  }
  fclose(f);
  if (nnt_rcnn_tm2d_data_load(out, &m2, &d2, &X2, &y2) != NNT_OK) abort();
  if (m2 != m || d2 != d || memcmp(X, X2, (size_t)m * d) || memcmp(y, y2, (size_t)m)) abort();
  free(X), free(y), free(X2), free(y2);
  return 0;
}
