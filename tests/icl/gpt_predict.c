/* gpt_predict CKPT B N SEED OUT.safetensors: nnt's predictions for the test's comparison with
 * PyTorch (tests/icl/test_export_torch.py): B test prompts of N points of the model's task
 * (stream NNT_ICL_TEST_FIRST + b), predicted by nnt_icl_gpt_predict, written as xs [B, N, d],
 * ys [B, N] and pred [B, N] (float32). */
#include <stdio.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_icl_gpt.h"
#include "nnt_safetensors.h"

int main(int argc, char **argv) {
  if (argc != 6) return fprintf(stderr, "usage: gpt_predict CKPT B N SEED OUT.safetensors\n"), 2;
  int B = atoi(argv[2]), n = atoi(argv[3]);
  nnt_icl_gpt *m;
  nnt_st_writer *w = NULL;
  int st = nnt_icl_gpt_load(argv[1], &m);
  if (st) return fprintf(stderr, "%s\n", nnt_errmsg()), 1;
  nnt_icl_task t = *nnt_icl_gpt_task(m);
  t.n = n;
  int d = t.d;
  float *xs = nnt_xmalloc(sizeof(float) * (size_t)B * n * d), *ys = nnt_xmalloc(sizeof(float) * (size_t)B * n);
  float *pred = nnt_xmalloc(sizeof(float) * (size_t)B * n);
  st = nnt_icl_task_sample(&t, strtoull(argv[4], NULL, 10), NNT_ICL_TEST_FIRST, B, xs, ys);
  if (!st) st = nnt_icl_gpt_predict(m, xs, ys, B, n, pred);
  if (!st) st = nnt_st_writer_alloc(&w);
  if (!st) st = nnt_st_add(w, "xs", NNT_ST_F32, 3, (const long long[]){B, n, d}, xs);
  if (!st) st = nnt_st_add(w, "ys", NNT_ST_F32, 2, (const long long[]){B, n}, ys);
  if (!st) st = nnt_st_add(w, "pred", NNT_ST_F32, 2, (const long long[]){B, n}, pred);
  if (!st) st = nnt_st_write(w, argv[5]);
  if (st) fprintf(stderr, "%s\n", nnt_errmsg());
  nnt_st_writer_free(w);
  free(xs), free(ys), free(pred);
  nnt_icl_gpt_free(m);
  return st ? 1 : 0;
}
