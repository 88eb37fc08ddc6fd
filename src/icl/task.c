/* The prompt distribution of the ICL experiments (§7.2–7.3): random ReLU targets, mixture inputs. */
#include <math.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_icl_task.h"

void nnt_icl_task_default(nnt_icl_task *t, int d, int n, int depth) {
  *t = (nnt_icl_task){.d = d, .n = n, .depth = depth, .width = 32, .w_mean = 0, .w_std = 0,
                      .y_scale = 1, .mix2 = 0, .mu = 2, .mu2 = 2, .noise = 0, .act = NNT_ICL_ACT_RELU,
                      .per_prompt = 0, .d_active = 0};
}

int nnt_icl_task_check(const nnt_icl_task *t) {
  if (t->d < 1) return nnt_fail(NNT_EINVAL, "task: d must be >= 1 (got %d)", t->d);
  if (t->n < 1) return nnt_fail(NNT_EINVAL, "task: n must be >= 1 (got %d)", t->n);
  if (t->depth < 2) return nnt_fail(NNT_EINVAL, "task: target depth must be >= 2 (got %d)", t->depth);
  if (t->width < 1) return nnt_fail(NNT_EINVAL, "task: target width must be >= 1 (got %d)", t->width);
  if (!(t->mix2 >= 0 && t->mix2 <= 1)) return nnt_fail(NNT_EINVAL, "task: mix2 must be in [0, 1] (got %g)", t->mix2);
  if (!isfinite(t->w_mean) || !isfinite(t->w_std) || !isfinite(t->y_scale) || !isfinite(t->mu) || !isfinite(t->mu2))
    return nnt_fail(NNT_EINVAL, "task: w_mean, w_std, y_scale and the mixture centres must be finite");
  if (!(t->noise >= 0 && isfinite(t->noise))) return nnt_fail(NNT_EINVAL, "task: label noise must be >= 0 (got %g)", t->noise);
  if ((unsigned)t->act > NNT_ICL_ACT_RELU) return nnt_fail(NNT_EINVAL, "task: unknown target activation %d", t->act);
  if (t->per_prompt != 0 && t->per_prompt != 1) return nnt_fail(NNT_EINVAL, "task: per_prompt must be 0 or 1");
  if (t->d_active < 0 || t->d_active > t->d)
    return nnt_fail(NNT_EINVAL, "task: d_active must be in 0..d = %d (got %d)", t->d, t->d_active);
  if (t->y_scale == 0) return nnt_fail(NNT_EINVAL, "task: y_scale must be non-zero");
  return NNT_OK;
}

int nnt_icl_task_same(const nnt_icl_task *a, const nnt_icl_task *b, int ignore_n) {
  return a->d == b->d && (ignore_n || a->n == b->n) && a->depth == b->depth && a->width == b->width &&
         a->w_mean == b->w_mean && a->w_std == b->w_std && a->y_scale == b->y_scale && a->mix2 == b->mix2 &&
         a->mu == b->mu && a->mu2 == b->mu2 && a->noise == b->noise && a->act == b->act &&
         a->per_prompt == b->per_prompt && a->d_active == b->d_active;
}

nnt_icl_net nnt_icl_task_net(const nnt_icl_task *t) {
  return (nnt_icl_net){.N = t->depth, .K = t->width, .dx = t->d, .dy = 1, .act = (nnt_icl_act)t->act,
                       .out_act = 0, .bias = 0};
}

/* Layer by layer (fan-in f inputs per unit, no bias): N(m_j, s_j²) as in the header. */
static void draw_weights(const nnt_icl_task *t, double *w, nnt_rng *r) {
  size_t o = 0;
  for (int j = 1; j <= t->depth; j++) {
    int fan = j == 1 ? t->d : t->width, units = j == t->depth ? 1 : t->width;
    double s = t->w_std > 0 ? t->w_std : sqrt((j == t->depth ? 1.0 : 2.0) / fan);
    double m = t->w_std > 0 ? t->w_mean : t->w_mean * s;
    for (size_t i = 0; i < (size_t)fan * units; i++) w[o++] = m + s * nnt_rng_normal(r);
  }
}

static int prompt_ws(const nnt_icl_task *t, uint64_t seed, uint64_t prompt, double *w, double *x, double *y,
                     double *ws) {
  nnt_rng r;
  nnt_rng_init(&r, seed, prompt);
  nnt_icl_net net = nnt_icl_task_net(t);
  draw_weights(t, w, &r);
  const int da = t->d_active ? t->d_active : t->d;
  int first = 0; /* per prompt: every point takes the first point's component */
  for (int i = 0; i < t->n; i++) {
    const int s = nnt_rng_uniform(&r) < t->mix2;
    if (i == 0) first = s;
    const double c = (t->per_prompt ? first : s) ? t->mu2 : -t->mu;
    for (int k = 0; k < t->d; k++) {
      const double z = nnt_rng_normal(&r);
      x[(size_t)i * t->d + k] = k < da ? c + z : 0;
    }
  }
  nnt_icl_net_forward(&net, w, x, t->n, y, ws);
  for (int i = 0; i < t->n; i++) {
    y[i] *= t->y_scale;
    if (t->noise > 0) y[i] += t->noise * nnt_rng_normal(&r);
    if (!isfinite(y[i])) return nnt_fail(NNT_ENUMERIC, "task: target output is not finite (prompt %llu)", (unsigned long long)prompt);
  }
  return NNT_OK;
}

int nnt_icl_task_prompt(const nnt_icl_task *t, uint64_t seed, uint64_t prompt, double *w, double *x, double *y) {
  int st = nnt_icl_task_check(t);
  if (st) return st;
  nnt_icl_net net = nnt_icl_task_net(t);
  double *wt = w ? w : nnt_xmalloc(nnt_icl_net_nparams(&net) * sizeof *wt);
  double *ws = nnt_xmalloc(nnt_icl_net_ws_size(&net, t->n) * sizeof *ws);
  st = prompt_ws(t, seed, prompt, wt, x, y, ws);
  free(ws);
  if (!w) free(wt);
  return st;
}

int nnt_icl_task_sample(const nnt_icl_task *t, uint64_t seed, uint64_t first_prompt, int B, float *xs, float *ys) {
  int st = nnt_icl_task_check(t);
  if (st) return st;
  if (B < 0) return nnt_fail(NNT_EINVAL, "task: batch must be >= 0 (got %d)", B);
  nnt_icl_net net = nnt_icl_task_net(t);
  const size_t nx = (size_t)t->n * t->d, nw = nnt_icl_net_nparams(&net), nws = nnt_icl_net_ws_size(&net, t->n);
  int failed = B; /* the first prompt that failed: its message is recorded again on this thread below */
  /* Every prompt draws from its own stream (seed, prompt), so the prompts are independent and the
   * batch is the same at any thread count; at d = 20 with width-200 targets drawing them was a
   * third of a training step on one thread. */
#pragma omp parallel if (B > 1 && nw * (size_t)t->n >= 100000)
  {
    double *w = nnt_xmalloc(nw * sizeof *w), *x = nnt_xmalloc(nx * sizeof *x), *y = nnt_xmalloc((size_t)t->n * sizeof *y),
           *ws = nnt_xmalloc(nws * sizeof *ws);
#pragma omp for schedule(dynamic, 1)
    for (int b = 0; b < B; b++) {
      if (prompt_ws(t, seed, first_prompt + (uint64_t)b, w, x, y, ws)) {
#pragma omp critical(nnt_icl_task_failed)
        if (b < failed) failed = b;
        continue;
      }
      for (size_t i = 0; i < nx; i++) xs[(size_t)b * nx + i] = (float)x[i];
      for (int i = 0; i < t->n; i++) ys[(size_t)b * t->n + i] = (float)y[i];
    }
    free(w), free(x), free(y), free(ws);
  }
  if (failed == B) return NNT_OK;
  double *x = nnt_xmalloc(nx * sizeof *x), *y = nnt_xmalloc((size_t)t->n * sizeof *y);
  st = nnt_icl_task_prompt(t, seed, first_prompt + (uint64_t)failed, NULL, x, y);
  free(x), free(y);
  return st;
}
