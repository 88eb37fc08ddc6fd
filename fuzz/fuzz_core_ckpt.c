/* libFuzzer target: the checkpoint reader (nnt_ckpt_info_read, nnt_ckpt_load) against a fixed
 * registry (float32 "w" [2, 3], float64 "b" [3]). The first input byte picks the mode: odd, the
 * rest is a checkpoint whose size field and checksum the harness fills in (so mutations reach the
 * body instead of dying at the checksum); even, the rest is the file as is. Every rejection
 * carries a message, and a file that loads must be written back by nnt_ckpt_save byte for byte. */
#include <stdint.h>
#include <string.h>

#include "fuzz_file.h"
#include "nnt_ckpt.h"
#include "nnt_error.h"
#include "nnt_file.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void reject_ok(void) {
  if (!*nnt_errmsg()) abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1 || size > (1 << 20)) return 0;
  size_t n = size - 1;
  unsigned char *file = malloc(n + 8);
  memcpy(file, data + 1, n);
  if (data[0] & 1) {
    uint64_t total = n + 8;
    if (n >= 20) memcpy(file + 12, &total, 8);
    uint64_t h = nnt_fnv1a64(NNT_FNV64_INIT, file, n);
    memcpy(file + n, &h, 8);
    n += 8;
  }
  const char *in = fuzz_file(0, "ckpt", file, n), *out = fuzz_out_path(1, "ckpt");
  nnt_ckpt_info info;
  int st = nnt_ckpt_info_read(in, &info);
  if (st) {
    reject_ok();
    free(file);
    return 0;
  }
  nnt_params P;
  nnt_params_init(&P);
  nnt_params_add_f32(&P, "w", 2, 2, 3);
  nnt_params_add_f64(&P, "b", 1, 3);
  nnt_params_alloc(&P);
  nnt_optim opt;
  nnt_optim_config oc = info.optim_kind == NNT_OPT_SGD ? nnt_sgd_defaults(0.1)
                        : info.optim_kind == NNT_OPT_ADAM ? nnt_adam_defaults()
                                                          : nnt_adamw_defaults();
  if (nnt_optim_init(&opt, &P, oc)) abort();
  long long step = 0;
  char *meta = NULL;
  st = nnt_ckpt_load(in, "fuzz", &P, info.has_optim ? &opt : NULL, &step, &meta);
  if (st) reject_ok();
  else {
    /* what loaded is the whole file: saving it again gives the same bytes */
    if (nnt_ckpt_save(out, "fuzz", &P, info.has_optim ? &opt : NULL, step, meta)) abort();
    char *again;
    size_t len;
    if (nnt_file_read(out, n + 1, &again, &len) || len != n || memcmp(again, file, n)) abort();
    free(again);
  }
  free(meta);
  nnt_optim_free(&opt);
  nnt_params_free(&P);
  nnt_ckpt_info_free(&info);
  free(file);
  return 0;
}
