/* libFuzzer target: the 2-D TM text format (nnt_rcnn_tm2d_load). Every rejection carries a message;
 * an accepted machine, written with nnt_rcnn_tm2d_write, parses back to the same machine and the
 * same text. */
#include <string.h>

#include "fuzz_file.h"
#include "nnt_error.h"
#include "nnt_rcnn_tm2d.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char *written(const nnt_rcnn_tm2d *tm) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  nnt_rcnn_tm2d_write(tm, f);
  fclose(f);
  return s;
}

static int same_tm(const nnt_rcnn_tm2d *a, const nnt_rcnn_tm2d *b) {
  if (a->nstates != b->nstates) return 0;
  for (int q = 0; q < a->nstates; q++) {
    if (strcmp(a->names[q], b->names[q]) || a->halting[q] != b->halting[q]) return 0;
    for (int s = 0; s < 3 && !a->halting[q]; s++) {
      const nnt_rcnn_tm2d_rule *x = &a->delta[3 * q + s], *y = &b->delta[3 * q + s];
      if ((x->line < 0) != (y->line < 0)) return 0;
      if (x->line >= 0 && (x->next != y->next || x->write != y->write || x->move != y->move ||
                           (x->move != NNT_RCNN_TM2D_N && x->blocked != y->blocked)))
        return 0;
    }
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *in = fuzz_file(0, "tm2d", data, size);
  nnt_rcnn_tm2d tm, back;
  if (nnt_rcnn_tm2d_load(&tm, in) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  char *t1 = written(&tm);
  if (nnt_rcnn_tm2d_parse(&back, t1, "written") != NNT_OK) abort();
  char *t2 = written(&back);
  if (!same_tm(&tm, &back) || strcmp(t1, t2)) abort();
  free(t1), free(t2);
  nnt_rcnn_tm2d_free(&back);
  nnt_rcnn_tm2d_free(&tm);
  return 0;
}
