#include "nnt_train.h"

#include <math.h>

#include "nnt_error.h"

static const char *nonfinite_name(double x) { return isnan(x) ? "NaN" : x > 0 ? "+Inf" : "-Inf"; }

int nnt_train_check_loss(long long step, double loss) {
  if (isfinite(loss)) return NNT_OK;
  return nnt_fail(NNT_ENUMERIC, "loss is %s at step %lld", nonfinite_name(loss), step);
}

int nnt_train_check_grad_norm(long long step, double norm) {
  if (isfinite(norm)) return NNT_OK;
  return nnt_fail(NNT_ENUMERIC, "gradient norm is %s at step %lld", nonfinite_name(norm), step);
}

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
