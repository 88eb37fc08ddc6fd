/* The ICL task sampler: target scale (acceptance 16) against its closed forms, the per-point
 * mixture, an independent forward pass, determinism across batchings, coupling across mixtures;
 * the task options: per-prompt mixtures, separate centres, label noise, the curriculum's
 * truncation (d_active, fewer points) and the targets' activation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../nnt_test.h"
#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_icl_task.h"

/* E[y²] and its log10(std) over prompts × points. */
static double mean_y2(const nnt_icl_task *t, int prompts, uint64_t seed) {
  float *xs = malloc(sizeof(float) * prompts * t->n * t->d), *ys = malloc(sizeof(float) * prompts * t->n);
  CHECK(nnt_icl_task_sample(t, seed, 0, prompts, xs, ys) == NNT_OK);
  double s = 0;
  for (int i = 0; i < prompts * t->n; i++) s += (double)ys[i] * ys[i];
  free(xs), free(ys);
  return s / (prompts * t->n);
}

static double relu(double z) { return z > 0 ? z : 0; }

int main(void) {
  /* He scaling: E[y²] = mu² + 1 for every depth and mixture (ReLU halves, sqrt(2/f) restores;
   * the linear output uses sqrt(1/f)). A factor-2 slip on the output layer doubles it. */
  for (int depth = 3; depth <= 6; depth++) {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 4, depth);
    double m = mean_y2(&t, 3000, 7);
    CHECK_MSG(fabs(m / 5.0 - 1) < 0.1, "He depth %d: E[y^2] = %g, expected 5", depth, m);
    t.mix2 = 0.5, t.mu = t.mu2 = 1, t.y_scale = 3;
    m = mean_y2(&t, 3000, 8);
    CHECK_MSG(fabs(m / 18.0 - 1) < 0.1, "He mix depth %d: E[y^2] = %g, expected 9*2", depth, m);
  }
  /* Literal N(0, 1) weights at the paper's size (d = 20, width 200): E[y²] = d(mu²+1)(K/2)^(N-1),
   * std(y) ≈ 1e3, 1e4, 1e6 for N = 3, 4, 6 (acceptance 16). */
  const int depths[3] = {3, 4, 6};
  const double expect_log10[3] = {3, 4, 6};
  for (int i = 0; i < 3; i++) {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 20, 4, depths[i]);
    t.width = 200, t.w_std = 1;
    double lg = 0.5 * log10(mean_y2(&t, 60, 9));
    CHECK_MSG(fabs(lg - expect_log10[i]) < 0.3, "literal N=%d: log10 std(y) = %g", depths[i], lg);
  }
  /* The mixture is drawn per point: component fraction, component means, unit variance. */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 20, 3);
    t.mix2 = 0.3;
    int P = 500, plus = 0, mixed_prompts = 0;
    float *xs = malloc(sizeof(float) * P * t.n * t.d), *ys = malloc(sizeof(float) * P * t.n);
    CHECK(nnt_icl_task_sample(&t, 3, 0, P, xs, ys) == NNT_OK);
    double s[2] = {0, 0}, s2[2] = {0, 0};
    long cnt[2] = {0, 0};
    for (int b = 0; b < P; b++) {
      int np = 0;
      for (int i = 0; i < t.n; i++) {
        const float *x = xs + ((size_t)b * t.n + i) * t.d;
        double mx = 0;
        for (int k = 0; k < t.d; k++) mx += x[k] / t.d;
        int c = mx > 0;
        np += c;
        for (int k = 0; k < t.d; k++) s[c] += x[k], s2[c] += (double)x[k] * x[k], cnt[c]++;
      }
      plus += np, mixed_prompts += np > 0 && np < t.n;
    }
    double frac = (double)plus / (P * t.n);
    CHECK_MSG(fabs(frac - 0.3) < 0.015, "fraction of +mu points %g", frac);
    CHECK(mixed_prompts > P * 9 / 10);
    for (int c = 0; c < 2; c++) {
      double m = s[c] / cnt[c], v = s2[c] / cnt[c] - m * m;
      CHECK_CLOSE(m, c ? 2.0 : -2.0, 0.01);
      CHECK_CLOSE(v, 1.0, 0.03);
    }
    free(xs), free(ys);
  }
  /* An independent forward pass of the target (d = 3, K = 4, N = 3: W1 4×3, W2 4×4, w3 1×4). */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 3, 5, 3);
    t.width = 4;
    double w[12 + 16 + 4], x[15], y[5];
    CHECK(nnt_icl_task_prompt(&t, 11, 42, w, x, y) == NNT_OK);
    for (int i = 0; i < 5; i++) {
      double h1[4], h2[4], out = 0;
      for (int u = 0; u < 4; u++) {
        h1[u] = 0;
        for (int k = 0; k < 3; k++) h1[u] += w[u * 3 + k] * x[i * 3 + k];
        h1[u] = relu(h1[u]);
      }
      for (int u = 0; u < 4; u++) {
        h2[u] = 0;
        for (int k = 0; k < 4; k++) h2[u] += w[12 + u * 4 + k] * h1[k];
        out += w[28 + u] * relu(h2[u]);
      }
      CHECK_CLOSE(y[i], out, 1e-12);
    }
  }
  /* Determinism: a prompt is the same in any batching; float = rounded double; conditions that
   * differ in mix2 share weights and input noise. */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 10, 4);
    enum { P = 10 };
    size_t nx = (size_t)t.n * t.d;
    float xa[P * 80], ya[P * 10], xb[P * 80], yb[P * 10];
    CHECK(nnt_icl_task_sample(&t, 5, 100, P, xa, ya) == NNT_OK);
    CHECK(nnt_icl_task_sample(&t, 5, 100, 3, xb, yb) == NNT_OK);
    CHECK(nnt_icl_task_sample(&t, 5, 103, P - 3, xb + 3 * nx, yb + 3 * t.n) == NNT_OK);
    CHECK(!memcmp(xa, xb, sizeof xa) && !memcmp(ya, yb, sizeof ya));
    double x[80], y[10], w1[8 * 32 + 2 * 32 * 32 + 32], w2[sizeof w1 / sizeof(double)];
    CHECK(nnt_icl_task_prompt(&t, 5, 107, w1, x, y) == NNT_OK);
    int same = 1;
    for (size_t i = 0; i < nx; i++) same &= xa[7 * nx + i] == (float)x[i];
    for (int i = 0; i < t.n; i++) same &= ya[7 * t.n + i] == (float)y[i];
    CHECK(same);
    float xc[80], yc[10];
    CHECK(nnt_icl_task_sample(&t, 6, 100, 1, xc, yc) == NNT_OK);
    CHECK(memcmp(xa, xc, sizeof xc) != 0); /* another seed, another prompt */
    nnt_icl_task u = t;
    u.mix2 = 1;
    double xu[80], yu[10];
    CHECK(nnt_icl_task_prompt(&u, 5, 107, w2, xu, yu) == NNT_OK);
    CHECK(!memcmp(w1, w2, sizeof w1));
    CHECK_CLOSE(xu[0] - x[0], 4.0, 1e-12); /* the same noise, the other component */
  }
  /* Per-prompt mixture: every point of a prompt in one component, the component's share over
   * prompts mix2, the input noise the per-point prompt's (coupled), the other centre at +mu2. */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 20, 3);
    t.mix2 = 0.3, t.per_prompt = 1, t.mu2 = 5;
    int P = 2000, plus = 0, mixed = 0;
    float *xs = malloc(sizeof(float) * P * t.n * t.d), *ys = malloc(sizeof(float) * P * t.n);
    CHECK(nnt_icl_task_sample(&t, 3, 0, P, xs, ys) == NNT_OK);
    double s2 = 0;
    long c2 = 0;
    for (int b = 0; b < P; b++) {
      int np = 0;
      for (int i = 0; i < t.n; i++) {
        const float *x = xs + ((size_t)b * t.n + i) * t.d;
        double mx = 0;
        for (int k = 0; k < t.d; k++) mx += x[k] / t.d;
        np += mx > 0;
        if (mx > 0)
          for (int k = 0; k < t.d; k++) s2 += x[k], c2++;
      }
      plus += np == t.n, mixed += np > 0 && np < t.n;
    }
    CHECK_MSG(mixed == 0, "%d prompts mix the components", mixed);
    CHECK_MSG(fabs((double)plus / P - 0.3) < 0.035, "share of +mu2 prompts %g", (double)plus / P);
    CHECK_CLOSE(s2 / c2, 5.0, 0.02);
    free(xs), free(ys);
    double w1[8 * 32 + 32 * 32 + 32], w2[sizeof w1 / sizeof(double)], x1[160], x2[160], y1[20], y2[20];
    nnt_icl_task u = t;
    u.per_prompt = 0, u.mix2 = 0; /* per point, all in the first component */
    t.mix2 = 0;                   /* per prompt, likewise: the same prompt */
    CHECK(nnt_icl_task_prompt(&t, 3, 9, w1, x1, y1) == NNT_OK && nnt_icl_task_prompt(&u, 3, 9, w2, x2, y2) == NNT_OK);
    CHECK(!memcmp(x1, x2, sizeof x1) && !memcmp(y1, y2, sizeof y1));
  }
  /* Label noise: y moves by noise·z with z ~ N(0, 1) drawn after the inputs (the same weights and x). */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 4, 400, 3);
    nnt_icl_task u = t;
    u.noise = 0.5;
    static double w1[4 * 32 + 32 * 32 + 32], w2[sizeof w1 / sizeof(double)], x1[1600], x2[1600], y1[400], y2[400];
    CHECK(nnt_icl_task_prompt(&t, 2, 1, w1, x1, y1) == NNT_OK && nnt_icl_task_prompt(&u, 2, 1, w2, x2, y2) == NNT_OK);
    CHECK(!memcmp(w1, w2, sizeof w1) && !memcmp(x1, x2, sizeof x1));
    double m = 0, v = 0;
    for (int i = 0; i < 400; i++) m += (y2[i] - y1[i]) / 400;
    for (int i = 0; i < 400; i++) v += (y2[i] - y1[i] - m) * (y2[i] - y1[i] - m) / 399;
    CHECK_MSG(fabs(m) < 0.1 && fabs(sqrt(v) - 0.5) < 0.06, "noise mean %g sd %g", m, sqrt(v));
    u.noise = -1;
    CHECK(nnt_icl_task_prompt(&u, 2, 1, w2, x2, y2) == NNT_EINVAL);
  }
  /* The curriculum's truncation: d_active = 3 zeroes coordinates 3..7 and labels the prompt from
   * the zeroed x (an independent evaluation with the tail columns of W1 dropped); fewer points
   * are the same prompt cut short. */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 10, 3);
    t.width = 4;
    double w[8 * 4 + 16 + 4], x[80], y[10], wf[sizeof w / sizeof(double)], xf[80], yf[10];
    CHECK(nnt_icl_task_prompt(&t, 4, 2, wf, xf, yf) == NNT_OK);
    t.d_active = 3;
    CHECK(nnt_icl_task_prompt(&t, 4, 2, w, x, y) == NNT_OK);
    CHECK(!memcmp(w, wf, sizeof w));
    for (int i = 0; i < 10; i++) {
      double h1[4], out = 0;
      for (int k = 0; k < 8; k++) CHECK(k < 3 ? x[i * 8 + k] == xf[i * 8 + k] : x[i * 8 + k] == 0);
      for (int u = 0; u < 4; u++) {
        h1[u] = 0;
        for (int k = 0; k < 3; k++) h1[u] += w[u * 8 + k] * xf[i * 8 + k];
        h1[u] = relu(h1[u]);
      }
      for (int u = 0; u < 4; u++) {
        double h2 = 0;
        for (int k = 0; k < 4; k++) h2 += w[32 + u * 4 + k] * h1[k];
        out += w[48 + u] * relu(h2);
      }
      CHECK_CLOSE(y[i], out, 1e-12);
    }
    nnt_icl_task s = t;
    s.n = 4;
    double xs[32], ys[4];
    CHECK(nnt_icl_task_prompt(&s, 4, 2, NULL, xs, ys) == NNT_OK);
    CHECK(!memcmp(xs, x, sizeof xs) && !memcmp(ys, y, sizeof ys));
    t.d_active = 9;
    CHECK(nnt_icl_task_prompt(&t, 4, 2, w, x, y) == NNT_EINVAL);
  }
  /* The targets' activation: tanh hidden layers (an independent evaluation). */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 2, 3, 2);
    t.width = 3, t.act = NNT_ICL_ACT_TANH;
    double w[6 + 3], x[6], y[3];
    CHECK(nnt_icl_task_prompt(&t, 8, 1, w, x, y) == NNT_OK);
    for (int i = 0; i < 3; i++) {
      double out = 0;
      for (int u = 0; u < 3; u++) out += w[6 + u] * tanh(w[u * 2] * x[i * 2] + w[u * 2 + 1] * x[i * 2 + 1]);
      CHECK_CLOSE(y[i], out, 1e-12);
    }
  }
  /* The paper's size (d = 20, width 200, 51 points), where the batch is drawn in parallel: the same
   * bits on 1 and 2 threads, each target output equal to a direct evaluation summed in the same
   * order (width 200 = 50 blocks of the forward pass's four units; width 7 below adds a remainder). */
  for (int width = 200; width >= 7; width -= 193) {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 20, 51, 3);
    t.width = width;
    enum { B = 5 };
    const size_t nx = (size_t)B * 51 * 20;
    float *x1 = malloc(sizeof(float) * nx), *x2 = malloc(sizeof(float) * nx), y1[B * 51], y2[B * 51];
    const int threads = nnt_threads_get();
    nnt_threads_set(1);
    CHECK(nnt_icl_task_sample(&t, 3, 10, B, x1, y1) == NNT_OK);
    nnt_threads_set(2);
    CHECK(nnt_icl_task_sample(&t, 3, 10, B, x2, y2) == NNT_OK);
    nnt_threads_set(threads);
    CHECK(!memcmp(x1, x2, sizeof(float) * nx) && !memcmp(y1, y2, sizeof y1));
    const nnt_icl_net net = nnt_icl_task_net(&t);
    double *w = malloc(sizeof(double) * nnt_icl_net_nparams(&net)), x[51 * 20], y[51], h1[200], h2[200];
    CHECK(nnt_icl_task_prompt(&t, 3, 12, w, x, y) == NNT_OK);
    int exact = 1;
    for (int i = 0; i < 51; i++) {
      const double *v = w;
      for (int u = 0; u < width; u++, v += 20) {
        double a = 0;
        for (int k = 0; k < 20; k++) a += v[k] * x[i * 20 + k];
        h1[u] = relu(a);
      }
      for (int u = 0; u < width; u++, v += width) {
        double a = 0;
        for (int k = 0; k < width; k++) a += v[k] * h1[k];
        h2[u] = relu(a);
      }
      double out = 0;
      for (int k = 0; k < width; k++) out += v[k] * h2[k];
      exact &= out == y[i] && (float)out == y1[2 * 51 + i];
    }
    CHECK_MSG(exact, "width %d: a target output differs from the direct evaluation", width);
    free(x1), free(x2), free(w);
  }
  /* A prompt whose targets overflow fails with its own number, also when the batch is drawn in
   * parallel (the message is recorded on the calling thread). */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 20, 51, 3);
    t.width = 200, t.y_scale = 1e308;
    float *x = malloc(sizeof(float) * 4 * 51 * 20), y[4 * 51];
    CHECK(nnt_icl_task_sample(&t, 3, 10, 4, x, y) == NNT_ENUMERIC);
    CHECK_MSG(strstr(nnt_errmsg(), "prompt 10)") != NULL, "message: %s", nnt_errmsg());
    free(x);
  }
  /* Bad input. */
  {
    nnt_icl_task t;
    nnt_icl_task_default(&t, 8, 10, 3);
    t.mix2 = 1.5;
    float x[80], y[10];
    CHECK(nnt_icl_task_sample(&t, 1, 0, 1, x, y) == NNT_EINVAL);
    nnt_icl_task_default(&t, 8, 10, 1);
    CHECK(nnt_icl_task_sample(&t, 1, 0, 1, x, y) == NNT_EINVAL);
  }
  TEST_MAIN_END();
}
