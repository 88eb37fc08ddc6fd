/* qSTR models: central finite differences (float64) for every model's backward pass, float32 vs
 * float64 forward agreement, parameter counts of the spec, PyTorch-default init ranges. */
#include <stdlib.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_qstr.h"
#include "nnt_test.h"

/* L(p) = sum_b,i c[b,i] yhat[b,i]: backward with dy = c gives dL/dp */
static double objective(const nnt_qstr_model *mo, nnt_qstr_ws_f64 *ws, const double *p, const double *X, int B,
                        const double *c, double *yh) {
  nnt_qstr_forward_f64(mo, ws, p, X, B, yh);
  double s = 0;
  for (int k = 0; k < B * mo->N; k++) s += c[k] * yh[k];
  return s;
}

static void gradcheck(const char *name, nnt_qstr_arch arch, int N, int m, int H, int nh, const int *hid, int enc) {
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  tc.d = 3, tc.de = 3, tc.enc = enc, tc.q = arch == NNT_QSTR_TRP ? H : 1;
  nnt_qstr_task t;
  CHECK(nnt_qstr_task_init(&t, &tc, 5) == 0);
  nnt_qstr_model mo;
  CHECK(nnt_qstr_model_setup(&mo, arch, N, t.D, m, H, nh, hid) == 0);
  int B = 3, n = B * N * t.D;
  nnt_rng r;
  nnt_rng_init(&r, 11, arch);
  double *p = malloc(sizeof(double) * mo.np), *g = malloc(sizeof(double) * mo.np);
  for (size_t k = 0; k < mo.np; k++) g[k] = NAN; /* the backward writes every entry */
  nnt_qstr_model_init(&mo, &r, p);
  if (arch == NNT_QSTR_TRP) /* larger scores so the softmax is far from uniform */
    for (size_t k = mo.wqk; k < mo.w1; k++) p[k] *= 4;
  double *X = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * B * N), *yh = malloc(sizeof(double) * B * N);
  double *c = malloc(sizeof(double) * B * N);
  nnt_qstr_sample_f64(&t, &r, B, -1, X, y, NULL);
  for (int k = 0; k < B * N; k++) c[k] = nnt_rng_normal(&r);
  nnt_qstr_ws_f64 *ws = nnt_qstr_ws_new_f64(&mo, B);
  objective(&mo, ws, p, X, B, c, yh);
  nnt_qstr_backward_f64(&mo, ws, p, X, B, c, g);
  double worst = 0, gmax = 0;
  size_t stride = mo.np > 600 ? mo.np / 600 : 1;
  for (size_t k = 0; k < mo.np; k += stride) {
    double h = 1e-5, p0 = p[k];
    p[k] = p0 + h;
    double lp = objective(&mo, ws, p, X, B, c, yh);
    p[k] = p0 - h;
    double lm = objective(&mo, ws, p, X, B, c, yh);
    p[k] = p0;
    double fd = (lp - lm) / (2 * h), err = fabs(fd - g[k]) / (1e-4 + fabs(fd) + fabs(g[k]));
    worst = isnan(err) || isnan(worst) ? NAN : fmax(worst, err); /* a NaN (an entry never written) sticks */
    gmax = fmax(gmax, fabs(g[k]));
  }
  CHECK_MSG(worst < 1e-5, "%s: worst relative gradient error %.3g", name, worst);
  printf("%-28s params %7zu  worst rel. grad error %.2e (max |grad| %.2f)\n", name, mo.np, worst, gmax);
  CHECK(gmax > 1e-2);
  /* float32 forward agrees with float64 */
  float *pf = malloc(sizeof(float) * mo.np), *Xf = malloc(sizeof(float) * n), *yf = malloc(sizeof(float) * B * N);
  for (size_t k = 0; k < mo.np; k++) pf[k] = (float)p[k];
  for (int k = 0; k < n; k++) Xf[k] = (float)X[k];
  nnt_qstr_ws_f32 *wf = nnt_qstr_ws_new_f32(&mo, B);
  nnt_qstr_forward_f32(&mo, wf, pf, Xf, B, yf);
  objective(&mo, ws, p, X, B, c, yh);
  double fe = 0;
  for (int k = 0; k < B * N; k++) fe = fmax(fe, fabs(yf[k] - yh[k]));
  CHECK_MSG(fe < 1e-4, "%s: float32 vs float64 forward differ by %g", name, fe);
  nnt_qstr_ws_free_f32(wf);
  nnt_qstr_ws_free_f64(ws);
  nnt_qstr_task_free(&t);
  free(p), free(g), free(X), free(y), free(yh), free(c), free(pf), free(Xf), free(yf);
}

static void counts(void) {
  nnt_qstr_model mo;
  int hid[2] = {120, 1000};
  nnt_qstr_model_setup(&mo, NNT_QSTR_TR, 12, 34, 100, 1, 0, NULL);
  CHECK(mo.np == 8361);
  nnt_qstr_model_setup(&mo, NNT_QSTR_TR, 31, 44, 100, 1, 0, NULL);
  CHECK(mo.np == 12521);
  nnt_qstr_model_setup(&mo, NNT_QSTR_TR, 100, 56, 100, 1, 0, NULL);
  CHECK(mo.np == 18569);
  nnt_qstr_model_setup(&mo, NNT_QSTR_FFN, 12, 34, 0, 0, 2, hid);
  CHECK(mo.np == 182092);
  hid[0] = 250;
  nnt_qstr_model_setup(&mo, NNT_QSTR_FFN, 25, 42, 0, 0, 2, hid);
  CHECK(mo.np == 538775);
  nnt_qstr_model_setup(&mo, NNT_QSTR_GRU, 12, 34, 0, 500, 0, NULL);
  CHECK(mo.np > 1550000 && mo.np < 1640000);
  /* init ranges: in-projection within sqrt(1.5/D), zero biases; MLP within 1/sqrt(fan_in) */
  nnt_qstr_model_setup(&mo, NNT_QSTR_TR, 12, 34, 100, 1, 0, NULL);
  double *p = malloc(sizeof(double) * mo.np), mx = 0, mb = 0, m1 = 0;
  nnt_rng r;
  nnt_rng_init(&r, 1, 0);
  nnt_qstr_model_init(&mo, &r, p);
  for (size_t k = mo.win; k < mo.bin; k++) mx = fmax(mx, fabs(p[k]));
  for (size_t k = mo.bin; k < mo.wo; k++) mb = fmax(mb, fabs(p[k]));
  for (size_t k = mo.w1; k < mo.b1; k++) m1 = fmax(m1, fabs(p[k]));
  CHECK(mx <= sqrt(1.5 / 34) && mx > 0.9 * sqrt(1.5 / 34));
  CHECK(mb == 0 && p[mo.bo] == 0 && p[mo.bo + 33] == 0);
  CHECK(m1 <= 1 / sqrt(34.0) && m1 > 0.9 / sqrt(34.0));
  free(p);
}

/* the registry of a model: its float32 block is the flat vector, each named tensor at its offset */
static void registry(void) {
  nnt_qstr_model mo;
  nnt_params P;
  size_t n;
  int hid[2] = {9, 13};
  for (int arch = NNT_QSTR_TR; arch <= NNT_QSTR_RNN; arch++) {
    CHECK(nnt_qstr_model_setup(&mo, arch, 6, 11, 7, 3, 2, hid) == 0);
    nnt_qstr_model_params(&mo, &P);
    float *p = nnt_params_flat_f32(&P, &n);
    CHECK(n == mo.np && nnt_params_count(&P) == mo.np);
    const char *w2 = arch == NNT_QSTR_FFN ? "layers.2.weight" : arch >= NNT_QSTR_GRU ? "out.weight" : "mlp.2.weight";
    size_t off = arch == NNT_QSTR_FFN ? mo.fw[2] : mo.w2;
    nnt_param *q = nnt_params_find(&P, w2);
    CHECK_MSG(q && q->value.data == (void *)(p + off), "%s: %s not at its offset", nnt_qstr_arch_names[arch], w2);
    nnt_params_free(&P);
  }
  nnt_qstr_model_setup(&mo, NNT_QSTR_TR, 6, 11, 7, 1, 0, NULL);
  nnt_qstr_model_params(&mo, &P);
  nnt_param *q = nnt_params_find(&P, "attn.out_proj.weight");
  CHECK(q && q->value.shape[0] == 11 && q->value.shape[1] == 11 &&
        q->value.data == (void *)(nnt_params_flat_f32(&P, &n) + mo.wo));
  nnt_params_free(&P);
}

#if NNT_ISA_LEVELS >= 2
NNT_ISA_DECLARE(double, nnt_qstr_fast_sse, (const nnt_qstr_model *, const nnt_qstr_task *, const float *, const float *,
                                            nnt_qstr_fast_set *, const int *, const float *, int, double, int *));
#endif

/* the structure-aware evaluation equals the generic forward pass (float rounding aside), and every
 * level this CPU runs gives the generic level's bits; m = 100 (the paper's MLP width) runs the
 * 512-bit blocks of 32 columns at the AVX-512 level, m = 20 only the 256-bit ones; N = 7 and 13
 * put the queries in one 8-lane or one 16-lane group of the column softmax. n = 700 (q = 1) runs
 * the lane kernels on 43 whole units of 16 prompts (two 8-lane blocks each at AVX2) and a last unit
 * of 12 (one 8-lane block and 4 row-form prompts at AVX2, all 12 in row forms at AVX-512). */
static void fast_eval(nnt_qstr_arch arch, int enc, int q, int simple, int m, int N) {
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  tc.enc = enc, tc.q = q;
  nnt_qstr_task t;
  CHECK(nnt_qstr_task_init(&t, &tc, 4) == 0);
  nnt_qstr_model mo;
  int hid[2] = {9, 13}, wide[3] = {21, 70, 66}; /* m = 100: hidden layers wide enough for the sparse form */
  wide[0] = 3 * N;
  if (arch == NNT_QSTR_FFN && m == 100) nnt_qstr_model_setup(&mo, arch, N, t.D, 0, 0, 3, wide);
  else if (arch == NNT_QSTR_FFN) nnt_qstr_model_setup(&mo, arch, N, t.D, 0, 0, 2, hid);
  else nnt_qstr_model_setup(&mo, arch, N, t.D, m, 1, 0, NULL);
  CHECK(nnt_qstr_fast_eval_ok(&mo, &t));
  nnt_rng r;
  nnt_rng_init(&r, 9, arch * 100 + enc * 10 + q);
  double *p64 = malloc(sizeof(double) * mo.np);
  nnt_qstr_model_init(&mo, &r, p64);
  float *p = malloc(sizeof(float) * mo.np);
  for (size_t k = 0; k < mo.np; k++) p[k] = (float)(p64[k] * 3 + 0.05 * nnt_rng_normal(&r)); /* nonzero biases */
  int n = 700, D = t.D;
  float *X = malloc(sizeof(float) * n * N * D), *y = malloc(sizeof(float) * n * N);
  int *idx = malloc(sizeof(int) * n * N * q), complete;
  nnt_qstr_sample_f32(&t, &r, n, simple, X, y, idx);
  nnt_qstr_ws_f32 *ws = nnt_qstr_ws_new_f32(&mo, 500);
  double ref = nnt_qstr_eval_f32(&mo, ws, 500, p, X, y, n) * n * N;
  nnt_qstr_fast_set *xs = nnt_qstr_fast_prepare(&mo, &t, X, y, n);
  double fast = nnt_qstr_fast_sse(&mo, &t, p, X, xs, idx, y, n, INFINITY, &complete);
  CHECK(nnt_qstr_fast_sse(&mo, &t, p, X, NULL, idx, y, n, INFINITY, &complete) == fast); /* gathered here */
  CHECK_MSG(fabs(fast - ref) < 1e-5 * ref && complete, "%s enc %d q %d: fast %.8g vs generic %.8g",
            nnt_qstr_arch_names[arch], enc, q, fast, ref);
#if NNT_ISA_LEVELS >= 2
  double lv = nnt_qstr_fast_sse_generic(&mo, &t, p, X, xs, idx, y, n, INFINITY, &complete);
  CHECK_MSG(lv == fast, "%s m %d: generic level %a, dispatched %a", nnt_qstr_arch_names[arch], m, lv, fast);
  if (nnt_cpu_isa() >= NNT_ISA_AVX2) {
    lv = nnt_qstr_fast_sse_avx2(&mo, &t, p, X, xs, idx, y, n, INFINITY, &complete);
    CHECK_MSG(lv == fast, "%s m %d: avx2 level %a, dispatched %a", nnt_qstr_arch_names[arch], m, lv, fast);
  }
#if NNT_ISA_LEVELS >= 3
  if (nnt_cpu_isa() >= NNT_ISA_AVX512) {
    lv = nnt_qstr_fast_sse_avx512(&mo, &t, p, X, xs, idx, y, n, INFINITY, &complete);
    CHECK_MSG(lv == fast, "%s m %d: avx512 level %a, dispatched %a", nnt_qstr_arch_names[arch], m, lv, fast);
  }
#endif
#endif
  double part = nnt_qstr_fast_sse(&mo, &t, p, X, xs, idx, y, n, 0.1 * ref, &complete);
  CHECK(!complete && part > 0.1 * ref && part < ref);
  /* the bounded evaluations above reordered the units (worst first): a complete sum keeps its bits,
   * and a bound decides as the sum in prompt order would */
  CHECK(nnt_qstr_fast_sse(&mo, &t, p, X, xs, idx, y, n, INFINITY, &complete) == fast && complete);
  CHECK(nnt_qstr_fast_sse(&mo, &t, p, X, xs, idx, y, n, fast * (1 + 1e-9), &complete) == fast && complete);
  part = nnt_qstr_fast_sse(&mo, &t, p, X, xs, idx, y, n, fast * (1 - 1e-3), &complete);
  CHECK(complete ? part == fast : part > fast * (1 - 1e-3));
  nnt_qstr_ws_free_f32(ws);
  nnt_qstr_task_free(&t);
  nnt_qstr_fast_free(xs);
  free(p64), free(p), free(X), free(y), free(idx);
}

#if NNT_ISA_LEVELS >= 2
NNT_ISA_DECLARE(void, nnt_qstr_forward_f32, (const nnt_qstr_model *, nnt_qstr_ws_f32 *, const float *, const float *,
                                             int, float *));
NNT_ISA_DECLARE(void, nnt_qstr_backward_f32, (const nnt_qstr_model *, nnt_qstr_ws_f32 *, const float *, const float *,
                                              int, const float *, float *));

/* one training step's float32 forward and backward at one level */
static void step_at(int level, const nnt_qstr_model *mo, nnt_qstr_ws_f32 *ws, const float *p, const float *X, int B,
                    const float *dy, float *yh, float *g) {
  if (level == 0) nnt_qstr_forward_f32_generic(mo, ws, p, X, B, yh), nnt_qstr_backward_f32_generic(mo, ws, p, X, B, dy, g);
  if (level == 1) nnt_qstr_forward_f32_avx2(mo, ws, p, X, B, yh), nnt_qstr_backward_f32_avx2(mo, ws, p, X, B, dy, g);
#if NNT_ISA_LEVELS >= 3
  if (level == 2) nnt_qstr_forward_f32_avx512(mo, ws, p, X, B, yh), nnt_qstr_backward_f32_avx512(mo, ws, p, X, B, dy, g);
#endif
}

/* The float32 training kernels give the generic level's bits at every level this CPU runs: the
 * outputs and every gradient of a step at B = 67 (whole 16-row groups and a partial one; tr's
 * attention in lanes for 4 blocks of 16 prompts at AVX-512, 8 blocks of 8 at AVX2, and per prompt
 * for the other 3),
 * m = 100 and N = 13 (a row of 34 + 3 columns) for tr, wide hidden layers for the FFN. The quick
 * sweeps' CSVs print too few digits to see a last-bit drift; this sees it. */
static void levels_same(nnt_qstr_arch arch) {
  int N = 13;
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  nnt_qstr_task t;
  CHECK(nnt_qstr_task_init(&t, &tc, 4) == 0);
  nnt_qstr_model mo;
  int wide[2] = {3 * N, 70};
  if (arch == NNT_QSTR_FFN) CHECK(nnt_qstr_model_setup(&mo, arch, N, t.D, 0, 0, 2, wide) == 0);
  else if (arch == NNT_QSTR_GRU) CHECK(nnt_qstr_model_setup(&mo, arch, N, t.D, 0, 20, 0, NULL) == 0);
  else CHECK(nnt_qstr_model_setup(&mo, arch, N, t.D, 100, 1, 0, NULL) == 0);
  nnt_rng r;
  nnt_rng_init(&r, 11, arch);
  double *p64 = malloc(sizeof(double) * mo.np);
  nnt_qstr_model_init(&mo, &r, p64);
  int B = 67, n = B * N;
  float *p = malloc(sizeof(float) * mo.np), *X = malloc(sizeof(float) * n * t.D), *y = malloc(sizeof(float) * n);
  float *dy = malloc(sizeof(float) * n), *yh[3], *g[3];
  for (size_t k = 0; k < mo.np; k++) p[k] = (float)(p64[k] * 3 + 0.05 * nnt_rng_normal(&r));
  nnt_qstr_sample_f32(&t, &r, B, 0, X, y, NULL);
  for (int k = 0; k < n; k++) dy[k] = (float)nnt_rng_normal(&r) / n;
  nnt_qstr_ws_f32 *ws = nnt_qstr_ws_new_f32(&mo, B);
  int levels = nnt_cpu_isa() >= NNT_ISA_AVX512 && NNT_ISA_LEVELS >= 3 ? 3 : nnt_cpu_isa() >= NNT_ISA_AVX2 ? 2 : 1;
  for (int l = 0; l < levels; l++) {
    yh[l] = malloc(sizeof(float) * n), g[l] = malloc(sizeof(float) * mo.np);
    step_at(l, &mo, ws, p, X, B, dy, yh[l], g[l]);
    if (l)
      CHECK_MSG(!memcmp(yh[l], yh[0], sizeof(float) * n) && !memcmp(g[l], g[0], sizeof(float) * mo.np),
                "%s: level %d's step differs from the generic level's", nnt_qstr_arch_names[arch], l);
  }
  for (int l = 0; l < levels; l++) free(yh[l]), free(g[l]);
  nnt_qstr_ws_free_f32(ws);
  nnt_qstr_task_free(&t);
  free(p64), free(p), free(X), free(y), free(dy);
}
#endif

int main(void) {
#if NNT_ISA_LEVELS >= 2
  levels_same(NNT_QSTR_TR);
  levels_same(NNT_QSTR_FFN);
  levels_same(NNT_QSTR_GRU);
#endif
  for (int a = 0; a < 2; a++) {
    nnt_qstr_arch arch = a ? NNT_QSTR_FFN : NNT_QSTR_TR;
    fast_eval(arch, 0, 1, 0, 20, 7);
    fast_eval(arch, 0, 1, 1, 20, 7);
    fast_eval(arch, 1, 2, 0, 20, 7);
    fast_eval(arch, 0, 1, 1, 100, 7);
    fast_eval(arch, 0, 1, 0, 103, 13); /* N > 8: whole blocks of 8 scores, 16-lane columns, 3 x 4 queries + 1; m = 96 + 4 + 3 */
  }
  int hid[2] = {7, 5};
  gradcheck("tr (torch MHA + MLP)", NNT_QSTR_TR, 5, 6, 1, 0, NULL, 0);
  gradcheck("trp H=2 (merged QK)", NNT_QSTR_TRP, 5, 6, 2, 0, NULL, 1);
  gradcheck("ffn [7,5]", NNT_QSTR_FFN, 4, 0, 0, 2, hid, 0);
  gradcheck("bigru H=4", NNT_QSTR_GRU, 5, 0, 4, 0, NULL, 0);
  gradcheck("bigru H=20 (vector gates)", NNT_QSTR_GRU, 5, 0, 20, 0, NULL, 0); /* float32: 2 x 8 units + tail */
  gradcheck("birnn-relu H=4", NNT_QSTR_RNN, 5, 0, 4, 0, NULL, 0);
  counts();
  registry();
  TEST_MAIN_END();
}
