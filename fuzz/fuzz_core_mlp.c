/* libFuzzer target: the nnt-mlp network reader (nnt_mlp_load, JSON; it hands nnt-mlp-sparse files
 * to the sparse reader). Every rejection carries a message; an accepted network must save and
 * load back identical, bit for bit, and its sparse form must compute the same outputs. */
#include <math.h>
#include <string.h>

#include "fuzz_file.h"
#include "nnt_error.h"
#include "nnt_mlp.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int same_mlp(const nnt_mlp *a, const nnt_mlp *b) {
  if (a->nlayers != b->nlayers) return 0;
  for (int l = 0; l < a->nlayers; l++) {
    const nnt_mlp_layer *x = &a->layers[l], *y = &b->layers[l];
    if (x->in != y->in || x->out != y->out || x->act != y->act ||
        memcmp(x->W, y->W, sizeof(double) * (size_t)x->in * x->out) || memcmp(x->b, y->b, sizeof(double) * (size_t)x->out))
      return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *in = fuzz_file(0, "mlp", data, size), *out = fuzz_out_path(1, "mlp");
  nnt_mlp m, back;
  if (nnt_mlp_load(in, &m) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  nnt_mlp_stats s = nnt_mlp_stats_of(&m);
  /* The round trip of networks up to 2^22 weights: a few bytes of sparse file can declare a dense
   * one of 10^8 (the reader takes up to 2^28), whose JSON text alone exceeds the fuzzer's 2 GB. */
  if (s.params <= (1 << 22)) {
    if (nnt_mlp_save(&m, out) != NNT_OK || nnt_mlp_load(out, &back) != NNT_OK) abort(); /* written, then unreadable */
    if (!same_mlp(&m, &back)) abort();
    nnt_mlp_free(&back);
  }
  if (s.params <= 4096 && s.max_width <= 256 && s.input_dim <= 256) { /* dense and sparse forward passes agree bit for bit */
    int ni = nnt_mlp_input_dim(&m), no = nnt_mlp_output_dim(&m);
    double x[256], y1[256], y2[256];
    for (int i = 0; i < ni; i++) x[i] = (double)((i * 7 + (int)size) % 11) / 4 - 1.25;
    nnt_smlp sp;
    nnt_smlp_from_dense(&sp, &m);
    nnt_mlp_forward(&m, x, y1);
    nnt_smlp_forward_batch(&sp, 1, x, y2);
    for (int o = 0; o < no; o++)
      if (!(y1[o] == y2[o] || (isnan(y1[o]) && isnan(y2[o])))) abort();
    nnt_smlp_free(&sp);
  }
  nnt_mlp_free(&m);
  return 0;
}
