/* Optimizers against hand-computed steps.
 *
 * 1. Literal values derived on paper for one parameter p0 = 1 with a given gradient sequence.
 * 2. A long double re-implementation of torch.optim's documented update rules, written
 *    independently of optim.c, run for 12 steps on a quadratic loss whose gradient depends on
 *    the parameters (so the whole trajectory is compared), for float64 and float32 parameters.
 * 3. The same runs done by torch.optim (numbers below).
 */
#include <math.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_simd.h"
#include "nnt_optim.h"
#include "nnt_test.h"

/* Runs `steps` steps on one scalar parameter (p0 = 1) with the gradient sequence g[]. */
static double run1(nnt_optim_config c, nnt_dtype dt, const double *g, int steps) {
  nnt_params P;
  nnt_params_init(&P);
  nnt_param *p = nnt_params_add(&P, "p", dt, 1, (int[]){1});
  nnt_params_alloc(&P);
  nnt_tensor_set(&p->value, 0, 1.0);
  nnt_optim o;
  CHECK(nnt_optim_init(&o, &P, c) == NNT_OK);
  for (int t = 0; t < steps; t++) {
    nnt_tensor_set(&p->grad, 0, g[t]);
    nnt_optim_step(&o);
  }
  double v = nnt_tensor_get(&p->value, 0);
  nnt_optim_free(&o);
  nnt_params_free(&P);
  return v;
}

static void literal_cases(nnt_dtype dt, double tol) {
  const double half[3] = {0.5, 0.5, 0.5};
  nnt_optim_config c = nnt_sgd_defaults(0.1);
  /* plain SGD: 1 - 0.1*0.5 = 0.95 */
  CHECK_CLOSE(run1(c, dt, half, 1), 0.95, tol);
  /* weight decay 0.1: g' = 0.5 + 0.1*1 = 0.6 -> 0.94; g' = 0.5 + 0.094 -> 0.94 - 0.0594 = 0.8806 */
  c.weight_decay = 0.1;
  CHECK_CLOSE(run1(c, dt, half, 2), 0.8806, tol);
  /* momentum 0.9: buf 0.5 -> p 0.95; buf 0.95 -> p 0.855; buf 1.355 -> p 0.7195 */
  c = nnt_sgd_defaults(0.1);
  c.momentum = 0.9;
  CHECK_CLOSE(run1(c, dt, half, 1), 0.95, tol);
  CHECK_CLOSE(run1(c, dt, half, 2), 0.855, tol);
  CHECK_CLOSE(run1(c, dt, half, 3), 0.7195, tol);
  /* dampening 0.5: the first step copies the gradient undamped (buf 0.5, p 0.95), then
   * buf = 0.9*0.5 + 0.5*0.5 = 0.7 -> p 0.88 */
  c.dampening = 0.5;
  CHECK_CLOSE(run1(c, dt, half, 2), 0.88, tol);
  /* nesterov: buf 0.5, g = 0.5 + 0.9*0.5 = 0.95 -> p 0.905; buf 0.95, g = 0.5 + 0.855 -> p 0.7695 */
  c.dampening = 0;
  c.nesterov = 1;
  CHECK_CLOSE(run1(c, dt, half, 2), 0.7695, tol);

  /* Adam lr 0.1, betas (0.9, 0.999), eps 1e-8. Step 1 with g = 0.5: m = 0.05, v = 0.00025,
   * m_hat = 0.5, v_hat = 0.25 (bias correction), p = 1 - 0.1*0.5/(0.5 + 1e-8) = 0.900000002 (-4e-17).
   * Without bias correction the step would be 0.1*0.05/sqrt(0.00025) = 0.316. */
  nnt_optim_config a = nnt_adam_defaults();
  a.lr = 0.1;
  CHECK_CLOSE(run1(a, dt, half, 1), 0.90000000199999996, tol);
  /* A constant gradient keeps m_hat = g and v_hat = g^2 at step 2 too: p = 0.800000004. */
  CHECK_CLOSE(run1(a, dt, half, 2), 0.80000000399999992, tol);
  /* Step 2 with g = -1: m = 0.045 - 0.1 = -11/200, v = 0.00024975 + 0.001 = 4999/4000000,
   * m_hat = m/0.19 = -11/38, v_hat = v/0.001999 = 4999/7996,
   * p = p1 + 0.1*(11/38)/(sqrt(4999/7996) + 1e-8) = 0.9366103542405656. */
  const double gs[2] = {0.5, -1};
  CHECK_CLOSE(run1(a, dt, gs, 2), 0.9366103542405656, tol);
  /* Adam's L2 weight decay 0.5 enters the moments: g' = 0.5 + 0.5*1 = 1, m_hat = 1, v_hat = 1,
   * p = 1 - 0.1/(1 + 1e-8). */
  a.weight_decay = 0.5;
  CHECK_CLOSE(run1(a, dt, half, 1), 1 - 0.1 / (1 + 1e-8), tol);
  /* AdamW defaults with lr 0.1 (wd 0.01): p = 1*(1 - 0.1*0.01) = 0.999, then the Adam step on the
   * raw gradient: 0.999 - 0.1*0.5/(0.5 + 1e-8) = 0.899000002. */
  nnt_optim_config w = nnt_adamw_defaults();
  w.lr = 0.1;
  CHECK_CLOSE(run1(w, dt, half, 1), 0.89900000199999996, tol);
}

/* ---- independent long double reference ---- */
enum { NP = 7, STEPS = 12 };
static const double A[NP] = {1.0, 0.3, 2.5, 0.05, 1.7, 0.8, 4.0}; /* curvatures */
static const double C[NP] = {0.4, -1.2, 0.9, 3.0, -0.2, 0.0, 0.7}; /* minimisers */
static const double P0[NP] = {1.0, 0.5, -0.8, 0.1, 2.0, -1.5, 0.25};

/* gradient of 0.5 a (p - c)^2 + 0.1 p^3 / 3: nonlinear, so trajectories differ if steps differ */
static long double grad_of(int i, long double p) { return A[i] * (p - C[i]) + 0.1L * p * p; }

static void reference(const nnt_optim_config *c, long double p[NP], const double *lr_of_step) {
  long double m[NP] = {0}, v[NP] = {0}, buf[NP] = {0};
  for (int i = 0; i < NP; i++) p[i] = P0[i];
  for (int t = 1; t <= STEPS; t++) {
    long double lr = lr_of_step[t - 1];
    for (int i = 0; i < NP; i++) {
      long double g = grad_of(i, p[i]);
      if (c->kind == NNT_OPT_SGD) {
        g += c->weight_decay * p[i];
        if (c->momentum != 0) {
          buf[i] = t == 1 ? g : c->momentum * buf[i] + (1 - c->dampening) * g;
          g = c->nesterov ? g + c->momentum * buf[i] : buf[i];
        }
        p[i] -= lr * g;
      } else {
        if (c->kind == NNT_OPT_ADAMW) p[i] *= 1 - lr * c->weight_decay;
        else g += c->weight_decay * p[i];
        m[i] = c->beta1 * m[i] + (1 - c->beta1) * g;
        v[i] = c->beta2 * v[i] + (1 - c->beta2) * g * g;
        long double mhat = m[i] / (1 - powl(c->beta1, t)), vhat = v[i] / (1 - powl(c->beta2, t));
        p[i] -= lr * mhat / (sqrtl(vhat) + c->eps);
      }
    }
  }
}

/* 3. The final parameters of the same 12-step runs by torch.optim itself (float64 and float32
 * parameters), printed by tests/core/optim_torch_ref.py (Debian's python3-torch). */
/* torch 1.13.0a0 */
static const double TORCH_F64[9][NP] = {
    {0.75102666131377571, 0.27731418330147195, 0.37875804563666571, 0.16382757775875575, 0.73999926225873081, -1.1055144651750521, 0.63086483125945492}, /* sgd */
    {0.69171260470359286, 0.24593429666972413, 0.38044362657387892, 0.15278618087488982, 0.6665239959157393, -1.0049501724094922, 0.60866714699214908}, /* sgd+wd */
    {0.484920488057902, -0.0035673298731871833, 1.2064368282824547, 0.24814890104880766, -0.39777859923613729, -0.63183002390886478, 0.76113501814775131}, /* sgd+momentum+dampening */
    {0.26031491831906961, -0.41361000369716894, 1.1210639423788904, 0.38328722899909606, -0.85614968832200233, -0.056855105196973864, 0.65903666315013154}, /* sgd+nesterov+wd */
    {0.57320227224341469, 0.056192871072860445, -0.35488280091045699, 0.5433687114235487, 1.554176510553682, -1.0546778378586126, 0.65863764544059977}, /* adam */
    {0.56865944626756015, 0.059959590743574334, -0.35528255843783912, 0.45080991865088255, 1.5541777651647188, -1.0550769639250916, 0.64801542750961783}, /* adam+l2 */
    {0.48354639115446646, 0.019817138462041025, -0.28087848252192121, 0.50502522362333369, 1.3294279402369893, -0.89319230107265368, 0.60994959805263771}, /* adamw */
    {0.99093114442888253, 0.49096434251172, -0.79093510981998782, 0.10898476542364044, 1.9908265578149795, -1.490871605134592, 0.25895004173149644}, /* adamw beta1 0.3 */
    {0.630518432824551, 0.12912538543214103, -0.36576546313967423, 0.35984987317680522, 1.5651474593913828, -1.0976445727964192, 0.63611144423480781}, /* adam eps 0.1 */
};
static const double TORCH_F32[9][NP] = {
    {0.7510266900062561, 0.27731412649154663, 0.37875804305076599, 0.1638275682926178, 0.73999911546707153, -1.1055145263671875, 0.63086479902267456}, /* sgd */
    {0.69171255826950073, 0.24593432247638702, 0.38044360280036926, 0.15278619527816772, 0.66652399301528931, -1.0049499273300171, 0.60866707563400269}, /* sgd+wd */
    {0.48492041230201721, -0.0035673363599926233, 1.2064368724822998, 0.24814891815185547, -0.39777863025665283, -0.63182997703552246, 0.7611350417137146}, /* sgd+momentum+dampening */
    {0.26031497120857239, -0.41361001133918762, 1.1210638284683228, 0.38328719139099121, -0.85614943504333496, -0.056855250149965286, 0.65903663635253906}, /* sgd+nesterov+wd */
    {0.57320219278335571, 0.056192893534898758, -0.35488280653953552, 0.54336875677108765, 1.5541765689849854, -1.0546778440475464, 0.6586376428604126}, /* adam */
    {0.56865942478179932, 0.059959612786769867, -0.35528269410133362, 0.45080989599227905, 1.5541777610778809, -1.0550771951675415, 0.64801543951034546}, /* adam+l2 */
    {0.48354637622833252, 0.019817151129245758, -0.28087854385375977, 0.50502520799636841, 1.3294284343719482, -0.89319223165512085, 0.60994964838027954}, /* adamw */
    {0.99093121290206909, 0.49096423387527466, -0.7909349799156189, 0.10898475348949432, 1.990825891494751, -1.4908709526062012, 0.25895002484321594}, /* adamw beta1 0.3 */
    {0.63051843643188477, 0.1291254460811615, -0.36576548218727112, 0.35984990000724792, 1.5651476383209229, -1.097644567489624, 0.63611143827438354}, /* adam eps 0.1 */
};

static double worst_torch_f64, worst_torch_f32;

static void compare(const char *what, nnt_optim_config c, nnt_dtype dt, double tol, const double *torch_ref,
                    double torch_tol) {
  double lrs[STEPS];
  for (int t = 0; t < STEPS; t++) lrs[t] = c.lr * (t < 6 ? 1.0 : 0.5); /* a step schedule */
  long double ref[NP];
  reference(&c, ref, lrs);

  nnt_params P;
  nnt_params_init(&P);
  /* the parameters split over two tensors of different shapes */
  nnt_param *a = nnt_params_add(&P, "a", dt, 2, (int[]){2, 2});
  nnt_param *b = nnt_params_add(&P, "b", dt, 1, (int[]){3});
  nnt_params_alloc(&P);
  nnt_param *ps[NP];
  size_t idx[NP];
  for (int i = 0; i < NP; i++) {
    ps[i] = i < 4 ? a : b;
    idx[i] = i < 4 ? (size_t)i : (size_t)(i - 4);
    nnt_tensor_set(&ps[i]->value, idx[i], P0[i]);
  }
  nnt_optim o;
  CHECK(nnt_optim_init(&o, &P, c) == NNT_OK);
  for (int t = 0; t < STEPS; t++) {
    o.cfg.lr = lrs[t];
    for (int i = 0; i < NP; i++) nnt_tensor_set(&ps[i]->grad, idx[i], (double)grad_of(i, nnt_tensor_get(&ps[i]->value, idx[i])));
    nnt_optim_step(&o);
  }
  CHECK(o.step == STEPS);
  for (int i = 0; i < NP; i++) {
    double got = nnt_tensor_get(&ps[i]->value, idx[i]);
    CHECK_MSG(fabs(got - (double)ref[i]) <= tol * (1 + fabsl(ref[i])), "%s %s p[%d] = %.17g, reference %.17Lg", what,
              dt == NNT_F32 ? "f32" : "f64", i, got, ref[i]);
  }
  for (int i = 0; i < NP; i++) {
    double got = nnt_tensor_get(&ps[i]->value, idx[i]), rel = fabs(got - torch_ref[i]) / (1 + fabs(torch_ref[i]));
    CHECK_MSG(rel <= torch_tol, "%s %s p[%d] = %.17g, torch %.17g", what, dt == NNT_F32 ? "f32" : "f64", i, got,
              torch_ref[i]);
    double *worst = dt == NNT_F32 ? &worst_torch_f32 : &worst_torch_f64;
    if (rel > *worst) *worst = rel;
  }
  /* moved away from the start (the test would be vacuous otherwise) */
  CHECK(fabs(nnt_tensor_get(&a->value, 0) - P0[0]) > 1e-3);
  nnt_optim_free(&o);
  nnt_params_free(&P);
}

/* A subnormal first moment is flushed, not carried (nnt_optim_step's FTZ/DAZ on x86), p is the
 * same as with the moment carried, and the caller's floating-point mode is left as it was. */
static void subnormal_moments(void) {
#if defined(__x86_64__) || defined(__i386__)
  nnt_params P;
  nnt_params_init(&P);
  nnt_param *w = nnt_params_add_f32(&P, "w", 1, 20);
  nnt_params_alloc(&P);
  nnt_optim o;
  CHECK(nnt_optim_init(&o, &P, nnt_adamw_defaults()) == NNT_OK);
  float *m = o.m, *v = o.v, *p = w->value.data;
  for (int k = 0; k < 20; k++) m[k] = 1e-40f * (k + 1), v[k] = 0, p[k] = 0.5f;
  unsigned csr = _mm_getcsr();
  nnt_optim_step(&o); /* g = 0: m = 0.9 m would stay subnormal */
  CHECK(_mm_getcsr() == csr);
  int flushed = 1;
  for (int k = 0; k < 20; k++) flushed &= m[k] == 0 && p[k] == (float)(0.5f * (float)(1 - 1e-3 * 0.01));
  CHECK_MSG(flushed, "subnormal moments carried: m[0] = %g, p[0] = %.9g", m[0], p[0]);
  nnt_optim_free(&o);
  nnt_params_free(&P);
#endif
}

int main(void) {
  subnormal_moments();
  literal_cases(NNT_F64, 1e-15);
  /* float32: p is stored with 24 bits, and Adam's eps = 1e-8 shift is below float32 resolution */
  literal_cases(NNT_F32, 3e-7);

  nnt_optim_config cfgs[9];
  const char *names[9] = {"sgd", "sgd+wd", "sgd+momentum+dampening", "sgd+nesterov+wd", "adam",
                          "adam+l2", "adamw", "adamw beta1 0.3", "adam eps 0.1"};
  cfgs[0] = nnt_sgd_defaults(0.05);
  cfgs[1] = nnt_sgd_defaults(0.05), cfgs[1].weight_decay = 0.2;
  cfgs[2] = nnt_sgd_defaults(0.05), cfgs[2].momentum = 0.8, cfgs[2].dampening = 0.3;
  cfgs[3] = nnt_sgd_defaults(0.05), cfgs[3].momentum = 0.9, cfgs[3].nesterov = 1, cfgs[3].weight_decay = 0.01;
  cfgs[4] = nnt_adam_defaults(), cfgs[4].lr = 0.05;
  cfgs[5] = nnt_adam_defaults(), cfgs[5].lr = 0.05, cfgs[5].weight_decay = 0.3;
  cfgs[6] = nnt_adamw_defaults(), cfgs[6].lr = 0.05, cfgs[6].weight_decay = 0.3;
  cfgs[7] = nnt_adamw_defaults(), cfgs[7].beta1 = 0.3, cfgs[7].beta2 = 0.9; /* the other lerp branch */
  cfgs[8] = nnt_adam_defaults(), cfgs[8].lr = 0.05, cfgs[8].eps = 0.1;     /* eps placement matters */
  for (int k = 0; k < 9; k++) {
    compare(names[k], cfgs[k], NNT_F64, 1e-12, TORCH_F64[k], 1e-14);
    /* float32 rounding errors of ~6e-8 per operation, amplified by up to 12 steps of Adam's
     * normalisation (|dp/dg| ~ lr/|g| for tiny g): 2e-5 relative is ~300 ulps, far below any
     * formula mistake (which moves p by >= lr * 1e-2 = 5e-4). */
    /* against torch itself: same operations in the same precision, so only a few ulps apart */
    compare(names[k], cfgs[k], NNT_F32, 2e-5, TORCH_F32[k], 1e-6);
  }
  printf("largest relative difference from torch.optim: %.2g (float64), %.2g (float32)\n", worst_torch_f64,
         worst_torch_f32);

  /* the checker rejects impossible settings with one message naming the value */
  nnt_params P;
  nnt_params_init(&P);
  nnt_params_add_f32(&P, "w", 1, 2);
  nnt_params_alloc(&P);
  nnt_optim o;
  nnt_optim_config bad = nnt_sgd_defaults(0.1);
  bad.nesterov = 1;
  CHECK(nnt_optim_init(&o, &P, bad) == NNT_EINVAL && strstr(nnt_errmsg(), "nesterov"));
  bad = nnt_adamw_defaults();
  bad.beta2 = 1.0;
  CHECK(nnt_optim_init(&o, &P, bad) == NNT_EINVAL && strstr(nnt_errmsg(), "beta2"));
  bad = nnt_adam_defaults();
  bad.lr = -1;
  CHECK(nnt_optim_init(&o, &P, bad) == NNT_EINVAL && strstr(nnt_errmsg(), "learning rate"));
  bad.lr = NAN;
  CHECK(nnt_optim_init(&o, &P, bad) == NNT_EINVAL);
  nnt_params_free(&P);
  TEST_MAIN_END();
}
