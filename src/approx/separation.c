/* separation.c — depth separation (Thms 4.4, 4.6): the rigorous triangle-counting lower bound for
 * any 1-D net, evaluated with the exact PWL engine, and the shallow-capacity construction. */
#include <math.h>
#include <stdlib.h>

#include "nnt_approx.h"
#include "nnt_error.h"

double nnt_sep_lb(int n, long P) { return (ldexp(1, n - 1) - P - 1) / ldexp(1, n + 2); }

int nnt_sep_check(const nnt_mlp *g, int n, nnt_sep_result *res) {
  nnt_mlp f;
  nnt_build_delta(&f, n);
  nnt_pwl_summary sg, sd;
  int st = nnt_pwl_summarize(g, NULL, 0, 1, &sg);
  if (!st) st = nnt_pwl_summarize(&f, g, 0, 1, &sd);
  nnt_mlp_free(&f);
  if (st) return st;
  nnt_mlp_stats ms = nnt_mlp_stats_of(g);
  res->n = n;
  res->pieces = sg.pieces;
  res->hidden_layers = ms.layers - 1;
  res->relus = ms.hidden_units;
  res->l1 = sd.l1;
  res->lb = nnt_sep_lb(n, sg.pieces);
  return NNT_OK;
}

/* One hidden layer: g(x) = c + sum_i w_i s(x - t_i) reproducing the pieces of f on [0,1]
 * (t_0 = 0 carries the first slope; every interior breakpoint adds one ReLU). */
int nnt_shallow_from_pieces(nnt_mlp *out, const nnt_mlp *f) {
  long max = 1L << 24;
  nnt_piece *p = nnt_xmalloc(sizeof *p * max);
  long n = nnt_pwl_collect(f, NULL, 0, 1, p, max);
  if (n < 0) {
    free(p);
    return NNT_EINVAL;
  }
  nnt_mlp_init(out);
  nnt_mlp_layer *A = nnt_mlp_add(out, 1, (int)n, NNT_ACT_RELU);
  nnt_mlp_layer *B = nnt_mlp_add(out, (int)n, 1, NNT_ACT_IDENTITY);
  for (long i = 0; i < n; i++) {
    A->W[i] = 1, A->b[i] = -p[i].x0;
    B->W[i] = p[i].a - (i ? p[i - 1].a : 0);
  }
  B->b[0] = p[0].c; /* value at x = 0 */
  free(p);
  return NNT_OK;
}
