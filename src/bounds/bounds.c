/* Sample-complexity formulas of seed 000 (see nnt_bounds.h for what is and is not specified). */
#include <math.h>
#include <string.h>

#include "nnt_bounds.h"

double nnt_bounds_lemma23_n(double alpha, double p, double gamma, double eps) {
  return (alpha * alpha * log(p) / (gamma * gamma) + 1) / (eps * eps);
}

double nnt_bounds_lemma23_eps(double alpha, double p, double gamma, double n) {
  return sqrt((alpha * alpha * log(p) / (gamma * gamma) + 1) / n);
}

double nnt_bounds_vc_n(double vc, double eps) { return vc / (eps * eps); }
double nnt_bounds_vc_eps(double vc, double n) { return sqrt(vc / n); }
double nnt_bounds_vc_relu(double params, double depth) { return params * depth * log2(params); }
double nnt_bounds_vc_transformer(double width, double steps) { return width * steps; }
double nnt_bounds_gamma_default(double lambda) { return NNT_BOUNDS_SIGMA_ZETA / (2 * (lambda > 1 ? lambda : 1)); }

double nnt_bounds_ratio(const nnt_bounds_model *m) {
  return nnt_bounds_lemma23_n(m->alpha, m->params, m->gamma, 1) / nnt_bounds_vc_n(m->vc, 1);
}

double nnt_bounds_relu_params(double m, double W, double d, double out) {
  return m * W + W + (d - 2) * (W * W + W) + W * out + out;
}

void nnt_bounds_curve(const nnt_bounds_model *m, double *n, double *eps_lemma23, double *eps_vc) {
  for (int k = 0; k < NNT_BOUNDS_CURVE; k++) {
    n[k] = pow(10, 2 * (k + 1));
    eps_lemma23[k] = nnt_bounds_lemma23_eps(m->alpha, m->params, m->gamma, n[k]);
    eps_vc[k] = nnt_bounds_vc_eps(m->vc, n[k]);
  }
}

void nnt_bounds_sm_cfg_default(nnt_bounds_sm_cfg *cfg, nnt_preset preset) {
  memset(cfg, 0, sizeof *cfg);
  cfg->T = -1;
  cfg->max_T = preset == NNT_PRESET_QUICK ? 200 : 0;
  cfg->eps = 0.1;
}
