#include "nnt_train.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"

static const char *nonfinite_name(double x) { return isnan(x) ? "NaN" : x > 0 ? "+Inf" : "-Inf"; }

double nnt_grad_norm(const nnt_params *P) {
  double s = 0;
  for (int i = 0; i < P->n; i++) {
    const nnt_tensor *g = &P->items[i]->grad;
    if (g->dtype == NNT_F32) {
      const float *x = g->data;
      for (size_t k = 0; k < g->numel; k++) s += (double)x[k] * x[k];
    } else {
      const double *x = g->data;
      for (size_t k = 0; k < g->numel; k++) s += x[k] * x[k];
    }
  }
  return sqrt(s);
}

double nnt_clip_grad_norm(nnt_params *P, double max_norm) {
  double total = nnt_grad_norm(P);
  double coef = max_norm / (total + 1e-6);
  if (coef < 1 || isnan(coef)) {
    for (int i = 0; i < P->n; i++) {
      nnt_tensor *g = &P->items[i]->grad;
      if (g->dtype == NNT_F32) {
        float *x = g->data, c = (float)coef;
        for (size_t k = 0; k < g->numel; k++) x[k] *= c;
      } else {
        double *x = g->data;
        for (size_t k = 0; k < g->numel; k++) x[k] *= coef;
      }
    }
  }
  return total;
}

/* 1 when any of the n floats is NaN or Inf: an all-ones exponent. An OR over integers, so the loop
 * vectorises without fast-math (a float sum would not), and there is no branch per element. */
static int any_nonfinite_f32(const float *x, size_t n) {
  uint32_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t u;
    memcpy(&u, x + i, sizeof u); /* the bits, without breaking aliasing rules (compiles to a load) */
    bad |= (u & 0x7f800000u) == 0x7f800000u;
  }
  return bad != 0;
}

static int any_nonfinite_f64(const double *x, size_t n) {
  uint64_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, x + i, sizeof u);
    bad |= (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull;
  }
  return bad != 0;
}

int nnt_train_check_step(nnt_params *P, long long step, double loss) {
  const char *fault = getenv("NNT_FAULT_NAN_STEP");
  if (fault && P->n && strtoll(fault, NULL, 10) == step) nnt_tensor_set(&P->items[P->n - 1]->grad, 0, NAN);
  if (!isfinite(loss)) return nnt_fail(NNT_ENUMERIC, "step %lld, loss: non-finite loss (%s)", step, nonfinite_name(loss));
  size_t n32, n64;
  const float *g32 = nnt_params_flat_grad_f32(P, &n32);
  const double *g64 = nnt_params_flat_grad_f64(P, &n64);
  if (!any_nonfinite_f32(g32, n32) && !any_nonfinite_f64(g64, n64)) return NNT_OK;
  for (int i = 0; i < P->n; i++) { /* the rare path: find the first bad element and name its tensor */
    const nnt_tensor *g = &P->items[i]->grad;
    for (size_t k = 0; k < g->numel; k++) {
      double x = nnt_tensor_get(g, k);
      if (!isfinite(x))
        return nnt_fail(NNT_ENUMERIC, "step %lld, tensor %s: non-finite gradient (%s at element %zu)", step,
                        P->items[i]->name, nonfinite_name(x), k);
    }
  }
  return NNT_OK; /* unreachable: the pass found one */
}
