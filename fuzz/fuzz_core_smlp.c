/* libFuzzer target: the sparse network reader (nnt_smlp_load, format nnt-mlp-sparse; it hands dense
 * nnt-mlp files to the dense reader). Every rejection carries a message; an accepted network must
 * save and load back identical, bit for bit. */
#include <string.h>

#include "fuzz_file.h"
#include "nnt_error.h"
#include "nnt_mlp.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int same_smlp(const nnt_smlp *a, const nnt_smlp *b) {
  if (a->nlayers != b->nlayers) return 0;
  for (int l = 0; l < a->nlayers; l++) {
    const nnt_smlp_layer *x = &a->layers[l], *y = &b->layers[l];
    if (x->in != y->in || x->out != y->out || x->act != y->act || x->nnz != y->nnz ||
        memcmp(x->row_start, y->row_start, sizeof(long) * ((size_t)x->out + 1)) ||
        memcmp(x->col, y->col, sizeof(int) * (size_t)x->nnz) || memcmp(x->val, y->val, sizeof(double) * (size_t)x->nnz) ||
        memcmp(x->b, y->b, sizeof(double) * (size_t)x->out))
      return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *in = fuzz_file(0, "smlp", data, size), *out = fuzz_out_path(1, "smlp");
  nnt_smlp m, back;
  if (nnt_smlp_load(in, &m) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  if (nnt_smlp_save(&m, out) != NNT_OK || nnt_smlp_load(out, &back) != NNT_OK) abort();
  if (!same_smlp(&m, &back)) abort();
  nnt_smlp_free(&back);
  nnt_smlp_free(&m);
  return 0;
}
