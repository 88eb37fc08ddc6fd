/* snapshot.c — grids of the rule-level RCNN at chosen layers (the paper's Figure 3): the memory
 * layer's output (the XOR tape), a layer of the memorisation phase during SGD, a layer of the
 * compute phase while the TM runs, and the final grid. */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_rule.h"
#include "nnt_rng.h"

void nnt_rcnn_snapshot_cfg_default(nnt_rcnn_snapshot_cfg *c, nnt_preset preset) {
  (void)preset;
  *c = (nnt_rcnn_snapshot_cfg){.learner = 3, .d = 4, .m = 8, .work = 4, .seed = 1};
}

static double *grab(const nnt_rcnn_rule_net *net) {
  size_t n = (size_t)net->rows * net->cols;
  double *g = nnt_xmalloc(sizeof *g * n);
  for (size_t i = 0; i < n; i++) g[i] = nnt_rcnn_tern_to_double(&net->tern, net->cur[i]);
  return g;
}

int nnt_rcnn_snapshot_run(const nnt_rcnn_snapshot_cfg *c, nnt_rcnn_snapshot_result *r) {
  memset(r, 0, sizeof *r);
  int nl = 0;
  while (nnt_rcnn_tm2d_learner_names[nl]) nl++;
  if (c->learner < 0 || c->learner >= nl || c->d < 1 || c->d > 32 || c->m < 1 || c->m > 128 || c->work < 1 || c->work > 256 ||
      c->step < 0 || c->step > c->m + 1 || c->mem_layer < 0 || c->compute_layer < 0)
    return nnt_fail(NNT_EINVAL, "rcnn snapshot: need 1 <= d <= 32, 1 <= m <= 128, 1 <= work <= 256, 0 <= step <= m+1, layers >= 0");
  int d = c->d, m = c->m, st;
  nnt_rcnn_tm2d tm;
  if ((st = nnt_rcnn_tm2d_learner(&tm, nnt_rcnn_tm2d_learner_names[c->learner]))) return st;
  signed char *X = nnt_xmalloc((size_t)m * d), *y = nnt_xmalloc(m), *x = nnt_xmalloc(d);
  uint64_t secret;
  nnt_rcnn_tm2d_parity(d, m, c->seed, X, y, x, &secret);
  nnt_rcnn_tm2d_tape tape;
  nnt_rcnn_tm2d_result tr;
  if (!(st = nnt_rcnn_tm2d_tape_xor(&tape, m, d, c->work, X, y, x)))
    st = nnt_rcnn_tm2d_run(&tm, &tape, 100000000, &tr), nnt_rcnn_tm2d_tape_free(&tape);
  nnt_rcnn_rule_net net;
  if (!st) {
    r->t = (int)tr.steps, r->L = m + d + 1 > r->t + 1 ? m + d + 1 : r->t + 1;
    r->step = c->step ? c->step : (m + 2) / 2;
    r->mem_layer = c->mem_layer ? c->mem_layer : (m + 2 - r->step) / 2 + 1;
    r->compute_layer = c->compute_layer ? c->compute_layer : r->t / 2;
    if (r->mem_layer > r->L || r->compute_layer > r->L)
      st = nnt_fail(NNT_EINVAL, "rcnn snapshot: a layer beyond L = %d", r->L);
  }
  if (!st && !(st = nnt_rcnn_rule_init(&net, &tm, m, d, c->work, r->L))) {
    r->rows = net.rows, r->cols = net.cols;
    signed char *z = nnt_xmalloc(d);
    int64_t F;
    /* SGD step `step`: W^(step) from the steps before it, then `mem_layer` layers on its input */
    st = nnt_rcnn_rule_train_steps(&net, X, y, r->step - 1, NULL);
    for (int b = 0; b < d; b++) z[b] = r->step <= m ? X[(size_t)(r->step - 1) * d + b] : 1;
    if (!st) net.L = r->mem_layer, st = nnt_rcnn_rule_forward(&net, z, &F), r->memorise = grab(&net);
    /* after training: the memory layer (0 layers), a compute layer, the final grid */
    net.L = r->L;
    if (!st) st = nnt_rcnn_rule_train(&net, X, y, NULL);
    if (!st) net.L = 0, st = nnt_rcnn_rule_forward(&net, x, &F), r->memory = grab(&net);
    if (!st) net.L = r->compute_layer, st = nnt_rcnn_rule_forward(&net, x, &F), r->compute = grab(&net);
    if (!st) net.L = r->L, st = nnt_rcnn_rule_forward(&net, x, &F), r->final = grab(&net);
    free(z);
    nnt_rcnn_rule_free(&net);
  }
  free(X), free(y), free(x);
  nnt_rcnn_tm2d_free(&tm);
  if (st) nnt_rcnn_snapshot_result_free(r);
  return st;
}

void nnt_rcnn_snapshot_result_free(nnt_rcnn_snapshot_result *r) {
  free(r->memory), free(r->memorise), free(r->compute), free(r->final);
  r->memory = r->memorise = r->compute = r->final = NULL;
}
