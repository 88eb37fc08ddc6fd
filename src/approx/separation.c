/* separation.c — depth separation (Thms 4.4, 4.6): the rigorous triangle-counting lower bound for
 * any 1-D net, evaluated with the exact PWL engine, and the shallow-capacity construction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_approx.h"
#include "nnt_error.h"
#include "nnt_init.h"
#include "nnt_nn.h"
#include "nnt_optim.h"
#include "nnt_params.h"
#include "nnt_train.h"

double nnt_approx_sep_lb(int n, long P) { return (ldexp(1, n - 1) - P - 1) / ldexp(1, n + 2); }

int nnt_approx_sep_check(const nnt_mlp *g, int n, nnt_approx_sep_result *res) {
  nnt_mlp f;
  nnt_approx_build_delta(&f, n);
  nnt_approx_pwl_summary sg, sd;
  int st = nnt_approx_pwl_summarize(g, NULL, 0, 1, &sg);
  if (!st) st = nnt_approx_pwl_summarize(&f, g, 0, 1, &sd);
  nnt_mlp_free(&f);
  if (st) return st;
  nnt_mlp_stats ms = nnt_mlp_stats_of(g);
  res->n = n;
  res->pieces = sg.pieces;
  res->hidden_layers = ms.layers - 1;
  res->relus = ms.hidden_units;
  res->l1 = sd.l1;
  res->lb = nnt_approx_sep_lb(n, sg.pieces);
  return NNT_OK;
}

/* One hidden layer: g(x) = c + sum_i w_i s(x - t_i) reproducing the pieces of f on [0,1]
 * (t_0 = 0 carries the first slope; every interior breakpoint adds one ReLU). */
int nnt_approx_shallow_from_pieces(nnt_mlp *out, const nnt_mlp *f) {
  long max = 1L << 24;
  nnt_approx_piece *p = nnt_xmalloc(sizeof *p * max);
  long n = nnt_approx_pwl_collect(f, NULL, 0, 1, p, max);
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

/* Gradient training of a 1-D ReLU net on Delta^n (illustration only, P28): hidden widths w[0..nh-1],
 * PyTorch default init, Adam on the MSE over `samples` uniform points of [0,1], full batch. The
 * trained weights are copied into an nnt_mlp for the exact check. */

int nnt_approx_sep_train(const int *w, int nh, int n, int steps, double lr, int samples, uint64_t seed, nnt_mlp *out,
                  double *final_mse) {
  nnt_rng r;
  nnt_rng_init(&r, seed, 4404);
  nnt_params P;
  nnt_params_init(&P);
  int L = nh + 1, width[16];
  width[0] = 1;
  for (int l = 0; l < nh; l++) width[l + 1] = w[l];
  width[L] = 1;
  nnt_param *Wp[16], *bp[16];
  for (int l = 0; l < L; l++) {
    char nw[32], nb[32];
    snprintf(nw, sizeof nw, "l%d.weight", l), snprintf(nb, sizeof nb, "l%d.bias", l);
    Wp[l] = nnt_params_add_f64(&P, nw, 2, width[l + 1], width[l]);
    bp[l] = nnt_params_add_f64(&P, nb, 1, width[l + 1]);
  }
  nnt_params_alloc(&P);
  for (int l = 0; l < L; l++) nnt_init_linear(&r, &Wp[l]->value, &bp[l]->value);
  nnt_optim opt;
  nnt_optim_config cfg = nnt_adam_defaults();
  cfg.lr = lr;
  int st = nnt_optim_init(&opt, &P, cfg);
  if (st) return nnt_params_free(&P), st;
  int N = samples, maxw = 1;
  for (int l = 0; l <= L; l++) maxw = width[l] > maxw ? width[l] : maxw;
  double *X = nnt_xmalloc(sizeof(double) * N), *Y = nnt_xmalloc(sizeof(double) * N);
  nnt_mlp target;
  nnt_approx_build_delta(&target, n);
  for (int i = 0; i < N; i++) X[i] = nnt_rng_uniform(&r);
  nnt_mlp_forward_batch(&target, N, X, Y);
  nnt_mlp_free(&target);
  double *pre[16], *post[17], *dpost = nnt_xmalloc(sizeof(double) * N * maxw), *dpre = nnt_xmalloc(sizeof(double) * N * maxw);
  post[0] = X;
  for (int l = 0; l < L; l++) {
    pre[l] = nnt_xmalloc(sizeof(double) * N * width[l + 1]);
    post[l + 1] = nnt_xmalloc(sizeof(double) * N * width[l + 1]);
  }
  double mse = NAN;
  for (int t = 0; t <= steps; t++) {
    for (int l = 0; l < L; l++) {
      nnt_linear_forward_f64(pre[l], post[l], Wp[l]->value.data, bp[l]->value.data, N, width[l], width[l + 1]);
      if (l < L - 1) nnt_relu_forward_f64(post[l + 1], pre[l], (size_t)N * width[l + 1]);
      else memcpy(post[l + 1], pre[l], sizeof(double) * N);
    }
    mse = nnt_mse_forward_f64(post[L], Y, N);
    if (!isfinite(mse)) break;
    if (t == steps) break;
    nnt_params_zero_grad(&P);
    memset(dpre, 0, sizeof(double) * N);
    nnt_mse_backward_f64(dpre, post[L], Y, N, 1.0);
    for (int l = L - 1; l >= 0; l--) {
      memset(dpost, 0, sizeof(double) * N * width[l]);
      nnt_linear_backward_f64(l ? dpost : NULL, Wp[l]->grad.data, bp[l]->grad.data, dpre, post[l], Wp[l]->value.data, N,
                              width[l], width[l + 1]);
      if (l) {
        memset(dpre, 0, sizeof(double) * N * width[l]);
        nnt_relu_backward_f64(dpre, dpost, pre[l - 1], (size_t)N * width[l]);
      }
    }
    if ((st = nnt_train_check_step(&P, t + 1, mse))) break;
    nnt_optim_step(&opt);
  }
  if (!st && isfinite(mse)) {
    nnt_mlp_init(out);
    for (int l = 0; l < L; l++) {
      nnt_mlp_layer *A = nnt_mlp_add(out, width[l], width[l + 1], l < L - 1 ? NNT_ACT_RELU : NNT_ACT_IDENTITY);
      memcpy(A->W, Wp[l]->value.data, sizeof(double) * width[l] * width[l + 1]);
      memcpy(A->b, bp[l]->value.data, sizeof(double) * width[l + 1]);
    }
  }
  for (int l = 0; l < L; l++) free(pre[l]), free(post[l + 1]);
  free(X), free(Y), free(dpost), free(dpre);
  nnt_optim_free(&opt);
  nnt_params_free(&P);
  *final_mse = mse;
  if (st) return st;
  return isfinite(mse) ? NNT_OK : nnt_fail(NNT_ENUMERIC, "training diverged (loss %g)", mse);
}

/* Best L2 continuous piecewise-linear fit of Delta^n with P uniform pieces (P a power of two,
 * P <= 2^n): hat-basis projection, right-hand sides by Simpson's rule on the 2^-n grid (exact: the
 * product of two affine functions on each cell is quadratic; Delta^n from its closed form), the
 * tridiagonal mass matrix solved by its L D L^T factorisation (the steps of LAPACK's dpttrf and
 * dptts2, written here without fused multiply-adds: OpenBLAS's dptsv is compiled per architecture and
 * gave other last bits on aarch64). Returned as a one-hidden-layer ReLU net. */
int nnt_approx_sep_best_fit(int n, long P, nnt_mlp *out) {
  if (P < 1 || P > (1L << n) || (P & (P - 1)))
    return nnt_fail(NNT_EINVAL, "best fit: P = %ld must be a power of two <= 2^%d", P, n);
  long cells = 1L << n, per = cells / P;
  double h = 1.0 / P, dlt = 1.0 / cells;
  double *b = nnt_xcalloc(P + 1, sizeof(double)), *c = nnt_xmalloc(sizeof(double) * (P + 1));
  for (long k = 0; k < cells; k++) {
    long i = k / per; /* the cell lies in [t_i, t_{i+1}] */
    double x0 = k * dlt, xm = x0 + dlt / 2, x1 = x0 + dlt, ti = i * h;
    double f0 = nnt_approx_delta_pow_closed(n, x0), fm = nnt_approx_delta_pow_closed(n, xm), f1 = x1 >= 1 ? 0 : nnt_approx_delta_pow_closed(n, x1);
    /* phi_{i+1} = (x - t_i)/h, phi_i = 1 - that, on the cell */
    double u0 = (x0 - ti) / h, um = (xm - ti) / h, u1 = (x1 - ti) / h;
    b[i + 1] += dlt / 6 * (f0 * u0 + 4 * fm * um + f1 * u1);
    b[i] += dlt / 6 * (f0 * (1 - u0) + 4 * fm * (1 - um) + f1 * (1 - u1));
  }
  /* mass matrix: diagonal 2h/3 (h/3 at the ends), off-diagonal h/6, positive definite */
  double *dg = nnt_xmalloc(sizeof(double) * (P + 1)), *off = nnt_xmalloc(sizeof(double) * P);
  for (long i = 0; i <= P; i++) dg[i] = (i == 0 || i == P) ? h / 3 : 2 * h / 3;
  for (long i = 0; i < P; i++) off[i] = h / 6;
  memcpy(c, b, sizeof(double) * (P + 1));
  for (long i = 0; i < P; i++) { /* L D L^T: off becomes L's subdiagonal, dg D */
    double e = off[i];
    off[i] = e / dg[i];
    dg[i + 1] = dg[i + 1] - off[i] * e;
  }
  for (long i = 1; i <= P; i++) c[i] = c[i] - c[i - 1] * off[i - 1];
  c[P] = c[P] / dg[P];
  for (long i = P - 1; i >= 0; i--) c[i] = c[i] / dg[i] - c[i + 1] * off[i];
  nnt_mlp_init(out);
  nnt_mlp_layer *A = nnt_mlp_add(out, 1, (int)P, NNT_ACT_RELU), *B = nnt_mlp_add(out, (int)P, 1, NNT_ACT_IDENTITY);
  double prev = 0;
  for (long i = 0; i < P; i++) {
    double s = (c[i + 1] - c[i]) / h;
    A->W[i] = 1, A->b[i] = -i * h;
    B->W[i] = s - prev;
    prev = s;
  }
  B->b[0] = c[0];
  free(b), free(c), free(dg), free(off);
  return NNT_OK;
}
