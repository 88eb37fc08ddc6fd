/* libFuzzer target: the metadata of nnt icl train checkpoints, which nnt_icl_gpt_load (nnt icl eval
 * --model) reads to rebuild the model before its tensors (nnt_icl_meta_parse). Every rejection carries
 * a message; an accepted config and loss log, written again by nnt_icl_meta_write, parse back equal;
 * a small accepted model saved with it loads through nnt_icl_gpt_load. */
#include <string.h>

#include "fuzz_file.h"
#include "gpt_impl.h"
#include "nnt_ckpt.h"
#include "nnt_error.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int same_cfg(const nnt_icl_train_cfg *a, const nnt_icl_train_cfg *b) {
  return !memcmp(&a->arch, &b->arch, sizeof a->arch) && nnt_icl_task_same(&a->task, &b->task, 0) &&
         a->curriculum == b->curriculum && a->curriculum_steps == b->curriculum_steps && a->batch == b->batch &&
         a->steps == b->steps && a->lr == b->lr && a->seed == b->seed &&
         a->log_every == b->log_every && a->ckpt_every == b->ckpt_every;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  nnt_icl_train_cfg c, c2;
  nnt_icl_meta_log log, log2;
  int st = nnt_icl_meta_parse("fuzz", text, &c, &log);
  free(text);
  if (st) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  char *again = nnt_icl_meta_write(&c, log.n, log.step, log.loss, log.wsum, log.wcount);
  if (nnt_icl_meta_parse("written", again, &c2, &log2)) abort();
  if (!same_cfg(&c, &c2) || log.n != log2.n || log.wsum != log2.wsum || log.wcount != log2.wcount ||
      memcmp(log.step, log2.step, sizeof *log.step * (size_t)log.n) || memcmp(log.loss, log2.loss, sizeof *log.loss * (size_t)log.n))
    abort();
  const nnt_icl_gpt_arch *a = &c.arch;
  if (a->d <= 16 && a->n_embd <= 32 && a->n_layer <= 3 && a->n_pos <= 128) { /* the loader's whole path */
    nnt_icl_gpt *m, *back;
    if (nnt_icl_gpt_new(a, &c.task, 0, &m)) abort();
    const char *path = fuzz_out_path(0, "icl");
    if (nnt_ckpt_save(path, ICL_CKPT_KIND, nnt_icl_gpt_params(m), NULL, 0, again) || nnt_icl_gpt_load(path, &back)) abort();
    nnt_icl_gpt_free(back);
    nnt_icl_gpt_free(m);
  }
  free(again);
  free(log.step), free(log.loss), free(log2.step), free(log2.loss);
  return 0;
}
