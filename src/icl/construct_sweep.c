/* icl construct-sweep as an area run (nnt_icl_construct.h): the construction over a grid of shapes and M. */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_icl_construct.h"
#include "nnt_progress.h"

void nnt_icl_construct_sweep_cfg_default(nnt_icl_construct_sweep_cfg *c, nnt_preset p) {
  memset(c, 0, sizeof *c);
  nnt_icl_construct_cfg_default(&c->base, p);
  for (int M = 8; M <= 256; M *= 2) c->Ms[c->nM++] = M;
  c->Ns[0] = c->base.net.N, c->Ks[0] = c->base.net.K, c->ns[0] = c->base.n, c->nN = c->nK = c->nn = 1;
}

/* Point i's config: N, K, n outer, M inner. */
static nnt_icl_construct_cfg point(const nnt_icl_construct_sweep_cfg *c, int i) {
  nnt_icl_construct_cfg p = c->base;
  p.net.N = c->Ns[i / (c->nK * c->nn * c->nM)], p.net.K = c->Ks[i / (c->nn * c->nM) % c->nK];
  p.n = c->ns[i / c->nM % c->nn], p.M = c->Ms[i % c->nM];
  return p;
}

int nnt_icl_construct_sweep_check(const nnt_icl_construct_sweep_cfg *c) {
  if (c->nN < 1 || c->nK < 1 || c->nn < 1 || c->nM < 1) return nnt_fail(NNT_EINVAL, "construct-sweep: an empty list");
  const int np = c->nN * c->nK * c->nn * c->nM;
  int st = NNT_OK;
  for (int i = 0; i < np && !st; i++) {
    nnt_icl_construct_cfg p = point(c, i);
    st = nnt_icl_construct_check(&p);
  }
  return st;
}

int nnt_icl_construct_sweep_run(const nnt_icl_construct_sweep_cfg *c, nnt_icl_construct_sweep_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_icl_construct_sweep_check(c);
  if (st) return st;
  r->nM = c->nM;
  const int np = c->nN * c->nK * c->nn * c->nM;
  r->cfg = nnt_xcalloc((size_t)np, sizeof *r->cfg), r->res = nnt_xcalloc((size_t)np, sizeof *r->res);
  double t0 = nnt_now();
  for (; r->np < np && !st; r->np++) {
    r->cfg[r->np] = point(c, r->np);
    st = nnt_icl_construct_run(&r->cfg[r->np], &r->res[r->np]);
    if (st) break;
  }
  r->seconds = nnt_now() - t0;
  if (st) nnt_icl_construct_sweep_result_free(r);
  return st;
}

void nnt_icl_construct_sweep_result_free(nnt_icl_construct_sweep_result *r) {
  for (int i = 0; i < r->np; i++) nnt_icl_construct_result_free(&r->res[i]);
  free(r->cfg), free(r->res);
  memset(r, 0, sizeof *r);
}
