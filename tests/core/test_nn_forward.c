/* Forward passes of nnt_nn against independent naive implementations written from the PyTorch
 * equations (direct sums, no gemm), reference values computed with Python's math module, the
 * float32 layers against the float64 ones, and bit-identical attention for 1 and 2 threads. */
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_nn.h"
#include "nnt_rng.h"
#include "nnt_test.h"

static nnt_rng rng;
/* e = max(e, d), where a NaN d makes e infinite (fmax would skip it) */
#define ACC(e, d) ((e) = isnan(d) ? INFINITY : fmax((e), (d)))

static double *randn(size_t n, double std) {
  double *x = malloc(sizeof(double) * (n ? n : 1));
  nnt_rng_fill_normal_f64(&rng, x, n, 0, std);
  return x;
}
static float *to_f32(const double *x, size_t n) {
  float *y = malloc(sizeof(float) * (n ? n : 1));
  for (size_t i = 0; i < n; i++) y[i] = (float)x[i];
  return y;
}
static double maxdiff(const double *a, const double *b, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(a[i] - b[i])) return INFINITY; /* fmax would skip a NaN */
    m = fmax(m, fabs(a[i] - b[i]));
  }
  return m;
}
/* max|a - b| / max|b| for a float32 result against the float64 one. */
static double relerr32(const float *a, const double *b, size_t n) {
  double m = 0, s = 1e-30;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(a[i] - b[i])) return INFINITY;
    m = fmax(m, fabs(a[i] - b[i])), s = fmax(s, fabs(b[i]));
  }
  return m / s;
}
static double sigm(double x) { return 1 / (1 + exp(-x)); }

static void test_values(void) {
  /* gelu_erf, gelu_tanh at 1, -0.5, 3 and softplus at 1, -30, 25 (Python math, float64) */
  double x[3] = {1, -0.5, 3}, y[3], ge[3] = {0.8413447460685429, -0.15426876936299344, 2.99595030590511};
  double gt[3] = {0.8411919906082768, -0.15428599017485606, 2.996362607918227};
  nnt_gelu_forward_f64(y, x, 3, NNT_GELU_ERF);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(y[i], ge[i], 1e-15);
  nnt_gelu_forward_f64(y, x, 3, NNT_GELU_TANH);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(y[i], gt[i], 1e-15);
  double sx[3] = {1, -30, 25}, sp[3] = {1.3132616875182228, 9.357622968839737e-14, 25};
  nnt_softplus_forward_f64(y, sx, 3);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(y[i], sp[i], 1e-15);
}

/* The float layers' own tanh (Cephes tanhf) against double tanh: at most 2 ulp on [-10, 10],
 * exact limits, NaN kept. */
static void test_tanh_f32(void) {
  int n = 200001;
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
  for (int i = 0; i < n; i++) x[i] = (float)(-10 + 20.0 * i / (n - 1));
  nnt_tanh_forward(y, x, n);
  double worst = 0;
  for (int i = 0; i < n; i++) {
    double ref = tanh((double)x[i]), ulp = nextafterf((float)fabs(ref), INFINITY) - (float)fabs(ref);
    ACC(worst, fabs(y[i] - ref) / ulp);
  }
  CHECK_MSG(worst <= 2, "float tanh: %g ulp", worst);
  float sp[4] = {INFINITY, -INFINITY, NAN, 1e-30f}, o[4];
  nnt_tanh_forward(o, sp, 4);
  CHECK(o[0] == 1 && o[1] == -1 && isnan(o[2]) && o[3] == 1e-30f);
  free(x), free(y);
}

static void test_linear_layernorm_losses(void) {
  int N = 5, C = 7, OC = 4, V = 6;
  double *x = randn(N * C, 1), *W = randn(OC * C, 1), *b = randn(OC, 1), *y = malloc(sizeof(double) * N * OC);
  nnt_linear_forward_f64(y, x, W, b, N, C, OC);
  double e = 0;
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      double s = b[o];
      for (int c = 0; c < C; c++) s += x[n * C + c] * W[o * C + c];
      ACC(e, fabs(s - y[n * OC + o]));
    }
  CHECK_MSG(e < 1e-13, "linear vs direct sum: %g", e);

  double *g = randn(C, 1), *be = randn(C, 1), *z = malloc(sizeof(double) * N * C), mean[5], rstd[5];
  nnt_layernorm_forward_f64(z, mean, rstd, x, g, be, N, C);
  e = 0;
  for (int n = 0; n < N; n++) {
    double m = 0, v = 0;
    for (int c = 0; c < C; c++) m += x[n * C + c] / C;
    for (int c = 0; c < C; c++) v += (x[n * C + c] - m) * (x[n * C + c] - m) / C;
    for (int c = 0; c < C; c++) ACC(e, fabs((x[n * C + c] - m) / sqrt(v + 1e-5) * g[c] + be[c] - z[n * C + c]));
  }
  CHECK_MSG(e < 1e-13, "layernorm vs direct: %g", e);

  double *lg = randn(N * V, 3), *pr = malloc(sizeof(double) * N * V), *sm = malloc(sizeof(double) * N * V);
  int tg[5] = {0, 5, 2, 2, 3};
  double ce = nnt_crossentropy_forward_f64(pr, lg, tg, N, V), ref = 0;
  nnt_softmax_forward_f64(sm, lg, N, V);
  e = 0;
  for (int n = 0; n < N; n++) {
    double s = 0;
    for (int v = 0; v < V; v++) s += exp(lg[n * V + v]);
    ref -= log(exp(lg[n * V + tg[n]]) / s) / N;
    for (int v = 0; v < V; v++) ACC(e, fabs(exp(lg[n * V + v]) / s - sm[n * V + v]));
  }
  CHECK_CLOSE(ce, ref, 1e-13);
  CHECK_MSG(e < 1e-15 && maxdiff(pr, sm, N * V) < 1e-15, "softmax vs direct: %g", e);
  double mse = nnt_mse_forward_f64(x, lg, N * C < N * V ? N * C : N * V), mref = 0;
  int nm = N * C < N * V ? N * C : N * V;
  for (int i = 0; i < nm; i++) mref += (x[i] - lg[i]) * (x[i] - lg[i]) / nm;
  CHECK_CLOSE(mse, mref, 1e-14);
  free(x), free(W), free(b), free(y), free(g), free(be), free(z), free(lg), free(pr), free(sm);
}

/* Direct triple loop for one configuration. */
static void naive_attention(double *out, const double *qkv, int B, int T, int C, int H, const nnt_attn_cfg *cfg) {
  int hs = C / H;
  double sc = cfg->scale ? cfg->scale : 1 / sqrt(hs);
  double *s = malloc(sizeof(double) * T);
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int t = 0; t < T; t++) {
        const double *q = qkv + (b * T + t) * 3 * C + h * hs;
        double mx = -1e300, sum = 0;
        for (int u = 0; u < T; u++) {
          const double *k = qkv + (b * T + u) * 3 * C + C + h * hs;
          double d = 0;
          for (int i = 0; i < hs; i++) d += q[i] * k[i];
          s[u] = sc * d;
          if (!(cfg->causal && u > t)) mx = fmax(mx, s[u]);
        }
        for (int u = 0; u < T; u++) {
          int masked = cfg->causal && u > t;
          if (cfg->score == NNT_ATTN_RELU) {
            double norm = cfg->causal && cfg->relu_norm == NNT_RELU_NORM_VISIBLE ? t + 1 : T;
            s[u] = masked ? 0 : fmax(s[u], 0) / norm;
          } else {
            s[u] = masked ? 0 : exp(s[u] - mx);
            sum += s[u];
          }
        }
        for (int i = 0; i < hs; i++) {
          double o = 0;
          for (int u = 0; u < T; u++) o += s[u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + i];
          out[(b * T + t) * C + h * hs + i] = cfg->score == NNT_ATTN_RELU ? o : o / sum;
        }
      }
  free(s);
}

static void test_attention(void) {
  int B = 3, T = 6, H = 2, C = 8;
  double *qkv = randn(B * T * 3 * C, 1), *out = malloc(sizeof(double) * B * T * C), *ref = malloc(sizeof(double) * B * T * C);
  double *att = malloc(sizeof(double) * NNT_ATTN_WS(B, H, T));
  for (int variant = 0; variant < 8; variant++) {
    nnt_attn_cfg cfg = {.score = variant & 1 ? NNT_ATTN_RELU : NNT_ATTN_SOFTMAX, .causal = (variant >> 1) & 1,
                        .relu_norm = variant >= 4 ? NNT_RELU_NORM_VISIBLE : NNT_RELU_NORM_T, .scale = variant == 6 ? 1 : 0};
    nnt_attention_forward_f64(out, att, qkv, B, T, C, H, &cfg);
    naive_attention(ref, qkv, B, T, C, H, &cfg);
    double e = maxdiff(out, ref, B * T * C);
    CHECK_MSG(e < 1e-14, "attention variant %d vs triple loop: %g", variant, e);
    if (cfg.causal) { /* causality: perturbing the last token leaves earlier outputs unchanged */
      double *q2 = malloc(sizeof(double) * B * T * 3 * C), *o2 = malloc(sizeof(double) * B * T * C);
      memcpy(q2, qkv, sizeof(double) * B * T * 3 * C);
      for (int b = 0; b < B; b++)
        for (int i = 0; i < 3 * C; i++) q2[(b * T + T - 1) * 3 * C + i] += 1;
      nnt_attention_forward_f64(o2, att, q2, B, T, C, H, &cfg);
      int same = 1;
      for (int b = 0; b < B; b++)
        for (int i = 0; i < (T - 1) * C; i++) same &= o2[b * T * C + i] == out[b * T * C + i];
      CHECK_MSG(same, "causal attention variant %d: earlier outputs changed", variant);
      free(q2), free(o2);
    }
  }
  free(qkv), free(out), free(ref), free(att);
}

/* One step of torch.nn.GRU written out per unit. */
static void naive_gru_step(double *hn, const double *x, const double *h, const double *Wih, const double *Whh,
                           const double *bih, const double *bhh, int I, int H) {
  for (int j = 0; j < H; j++) {
    double a[3], c[3]; /* W_i* x + b_i*, W_h* h + b_h* for r, z, n */
    for (int gt = 0; gt < 3; gt++) {
      int row = gt * H + j;
      a[gt] = bih[row], c[gt] = bhh[row];
      for (int i = 0; i < I; i++) a[gt] += Wih[row * I + i] * x[i];
      for (int i = 0; i < H; i++) c[gt] += Whh[row * H + i] * h[i];
    }
    double r = sigm(a[0] + c[0]), z = sigm(a[1] + c[1]), n = tanh(a[2] + r * c[2]);
    hn[j] = (1 - z) * n + z * h[j];
  }
}

static void naive_rnn_step(double *hn, const double *x, const double *h, const double *Wih, const double *Whh,
                           const double *bih, const double *bhh, int I, int H, nnt_rnn_act act) {
  for (int j = 0; j < H; j++) {
    double a = bih[j] + bhh[j];
    for (int i = 0; i < I; i++) a += Wih[j * I + i] * x[i];
    for (int i = 0; i < H; i++) a += Whh[j * H + i] * h[i];
    hn[j] = act == NNT_RNN_RELU ? fmax(a, 0) : tanh(a);
  }
}

/* Runs the naive cell over [B,T,I] in one direction into out[B,T,ld] at column offset off. */
static void naive_seq(double *out, int ld, int off, const double *x, const double *h0, const double *const p[4], int B,
                      int T, int I, int H, int gru, nnt_rnn_act act, int reverse) {
  double *h = malloc(sizeof(double) * H), *hn = malloc(sizeof(double) * H);
  for (int b = 0; b < B; b++) {
    for (int j = 0; j < H; j++) h[j] = h0 ? h0[b * H + j] : 0;
    for (int s = 0; s < T; s++) {
      int t = reverse ? T - 1 - s : s;
      if (gru) naive_gru_step(hn, x + (b * T + t) * I, h, p[0], p[1], p[2], p[3], I, H);
      else naive_rnn_step(hn, x + (b * T + t) * I, h, p[0], p[1], p[2], p[3], I, H, act);
      memcpy(h, hn, sizeof(double) * H);
      memcpy(out + (b * T + t) * ld + off, h, sizeof(double) * H);
    }
  }
  free(h), free(hn);
}

static void test_recurrent(void) {
  int B = 3, T = 5, I = 4, H = 6;
  for (int gru = 0; gru < 2; gru++)
    for (int a = 0; a < 2; a++) {
      if (gru && a) continue;
      nnt_rnn_act act = a ? NNT_RNN_RELU : NNT_RNN_TANH;
      int G = gru ? 3 * H : H;
      double *x = randn(B * T * I, 1), *h0 = randn(2 * B * H, 1), *w[2][4];
      for (int d = 0; d < 2; d++)
        w[d][0] = randn(G * I, 0.5), w[d][1] = randn(G * H, 0.5), w[d][2] = randn(G, 0.5), w[d][3] = randn(G, 0.5);
      double *out = malloc(sizeof(double) * B * T * 2 * H), *ref = malloc(sizeof(double) * B * T * 2 * H);
      double *cache = malloc(sizeof(double) * 2 * NNT_GRU_CACHE(B, T, H));
      for (int rev = 0; rev < 2; rev++)
        for (int with_h0 = 0; with_h0 < 2; with_h0++) {
          const double *hh = with_h0 ? h0 : NULL;
          if (gru) nnt_gru_forward_f64(out, cache, x, hh, w[0][0], w[0][1], w[0][2], w[0][3], B, T, I, H, rev);
          else nnt_rnn_forward_f64(out, x, hh, w[0][0], w[0][1], w[0][2], w[0][3], B, T, I, H, act, rev);
          naive_seq(ref, H, 0, x, hh, (const double *const *)w[0], B, T, I, H, gru, act, rev);
          double e = maxdiff(out, ref, B * T * H);
          CHECK_MSG(e < 1e-14, "%s act %d reverse %d h0 %d vs step equations: %g", gru ? "gru" : "rnn", a, rev, with_h0, e);
        }
      nnt_rnn_params_f64 p[2];
      for (int d = 0; d < 2; d++) p[d] = (nnt_rnn_params_f64){w[d][0], w[d][1], w[d][2], w[d][3]};
      if (gru) nnt_bigru_forward_f64(out, cache, x, h0, p, B, T, I, H);
      else nnt_birnn_forward_f64(out, x, h0, p, B, T, I, H, act);
      for (int d = 0; d < 2; d++)
        naive_seq(ref, 2 * H, d * H, x, h0 + d * B * H, (const double *const *)w[d], B, T, I, H, gru, act, d);
      double e = maxdiff(out, ref, B * T * 2 * H);
      CHECK_MSG(e < 1e-14, "bidirectional %s act %d vs two naive runs: %g", gru ? "gru" : "rnn", a, e);
      free(x), free(h0), free(out), free(ref), free(cache);
      for (int d = 0; d < 2; d++)
        for (int k = 0; k < 4; k++) free(w[d][k]);
    }
}

static void test_conv(void) {
  int B = 2, C = 3, OC = 4, H = 5, W = 6;
  double *x = randn(B * C * H * W, 1), *w = randn(OC * C * 9, 1), *bias = randn(OC, 1);
  double *out = malloc(sizeof(double) * B * OC * H * W), *ws = malloc(sizeof(double) * NNT_CONV3_WS(C, H, W));
  nnt_conv3x3_forward_f64(out, x, w, bias, ws, B, C, OC, H, W);
  double e = 0;
  for (int b = 0; b < B; b++)
    for (int o = 0; o < OC; o++)
      for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
          double s = bias[o];
          for (int c = 0; c < C; c++)
            for (int di = -1; di <= 1; di++)
              for (int dj = -1; dj <= 1; dj++)
                if (i + di >= 0 && i + di < H && j + dj >= 0 && j + dj < W)
                  s += w[((o * C + c) * 3 + di + 1) * 3 + dj + 1] * x[((b * C + c) * H + i + di) * W + j + dj];
          ACC(e, fabs(s - out[((b * OC + o) * H + i) * W + j]));
        }
  CHECK_MSG(e < 1e-13, "conv3x3 vs direct sum: %g", e);
  free(x), free(w), free(bias), free(out), free(ws);
}

/* float32 against float64: forward outputs and accumulated gradients of linear -> gelu ->
 * attention -> GRU -> layer norm -> MSE, and of the convolution with cross-entropy. */
static void test_f32_vs_f64(void) {
  int B = 4, T = 7, C = 12, Hh = 3, I = 3 * C, HG = 5, N = B * T;
  nnt_attn_cfg cfgs[2] = {{.score = NNT_ATTN_SOFTMAX, .causal = 1}, {.score = NNT_ATTN_RELU, .causal = 1, .relu_norm = NNT_RELU_NORM_VISIBLE}};
  for (int ci = 0; ci < 2; ci++) {
    /* float64 pipeline */
    double *x = randn(N * C, 1), *W = randn(I * C, 0.3), *b = randn(I, 0.1), *Wih = randn(3 * HG * C, 0.4),
           *Whh = randn(3 * HG * HG, 0.4), *bih = randn(3 * HG, 0.1), *bhh = randn(3 * HG, 0.1), *tg = randn(N * HG, 1);
    double *a1 = malloc(sizeof(double) * N * I), *a2 = malloc(sizeof(double) * N * I), *att = malloc(sizeof(double) * NNT_ATTN_WS(B, Hh, T));
    double *a3 = malloc(sizeof(double) * N * C), *hs = malloc(sizeof(double) * N * HG), *cache = malloc(sizeof(double) * NNT_GRU_CACHE(B, T, HG));
    double *ln = malloc(sizeof(double) * N * HG), mean[28], rstd[28];
    float *xf = to_f32(x, N * C), *Wf = to_f32(W, I * C), *bf = to_f32(b, I), *Wihf = to_f32(Wih, 3 * HG * C),
          *Whhf = to_f32(Whh, 3 * HG * HG), *bihf = to_f32(bih, 3 * HG), *bhhf = to_f32(bhh, 3 * HG), *tgf = to_f32(tg, N * HG);
    float *a1f = malloc(sizeof(float) * N * I), *a2f = malloc(sizeof(float) * N * I), *attf = malloc(sizeof(float) * NNT_ATTN_WS(B, Hh, T));
    float *a3f = malloc(sizeof(float) * N * C), *hsf = malloc(sizeof(float) * N * HG), *cachef = malloc(sizeof(float) * NNT_GRU_CACHE(B, T, HG));
    float *lnf = malloc(sizeof(float) * N * HG), meanf[28], rstdf[28];

    nnt_linear_forward_f64(a1, x, W, b, N, C, I);
    nnt_gelu_forward_f64(a2, a1, N * I, NNT_GELU_TANH);
    nnt_attention_forward_f64(a3, att, a2, B, T, C, Hh, &cfgs[ci]);
    nnt_gru_forward_f64(hs, cache, a3, NULL, Wih, Whh, bih, bhh, B, T, C, HG, 1);
    nnt_layernorm_forward_f64(ln, mean, rstd, hs, NULL, NULL, N, HG);
    double loss = nnt_mse_forward_f64(ln, tg, N * HG);
    nnt_linear_forward(a1f, xf, Wf, bf, N, C, I);
    nnt_gelu_forward(a2f, a1f, N * I, NNT_GELU_TANH);
    nnt_attention_forward(a3f, attf, a2f, B, T, C, Hh, &cfgs[ci]);
    nnt_gru_forward(hsf, cachef, a3f, NULL, Wihf, Whhf, bihf, bhhf, B, T, C, HG, 1);
    nnt_layernorm_forward(lnf, meanf, rstdf, hsf, NULL, NULL, N, HG);
    float lossf = nnt_mse_forward(lnf, tgf, N * HG);
    CHECK_MSG(relerr32(a3f, a3, N * C) < 1e-5 && relerr32(lnf, ln, N * HG) < 1e-4 && fabs(lossf - loss) < 1e-4 * loss,
              "f32 vs f64 forward (cfg %d): attention %g, output %g, loss %g", ci, relerr32(a3f, a3, N * C),
              relerr32(lnf, ln, N * HG), fabs(lossf - loss) / loss);

    double *dln = calloc(N * HG, sizeof(double)), *dhs = calloc(N * HG, sizeof(double)), *da3 = calloc(N * C, sizeof(double));
    double *da2 = calloc(N * I, sizeof(double)), *da1 = calloc(N * I, sizeof(double)), *dx = calloc(N * C, sizeof(double));
    double *dW = calloc(I * C, sizeof(double)), *dWih = calloc(3 * HG * C, sizeof(double)), *dWhh = calloc(3 * HG * HG, sizeof(double));
    double *ws = malloc(sizeof(double) * NNT_GRU_WS(B, HG));
    float *dlnf = calloc(N * HG, sizeof(float)), *dhsf = calloc(N * HG, sizeof(float)), *da3f = calloc(N * C, sizeof(float));
    float *da2f = calloc(N * I, sizeof(float)), *da1f = calloc(N * I, sizeof(float)), *dxf = calloc(N * C, sizeof(float));
    float *dWf = calloc(I * C, sizeof(float)), *dWihf = calloc(3 * HG * C, sizeof(float)), *dWhhf = calloc(3 * HG * HG, sizeof(float));
    float *wsf = malloc(sizeof(float) * NNT_GRU_WS(B, HG));
    nnt_mse_backward_f64(dln, ln, tg, N * HG, 1);
    nnt_layernorm_backward_f64(dhs, NULL, NULL, dln, hs, NULL, mean, rstd, N, HG);
    nnt_gru_backward_f64(da3, NULL, dWih, dWhh, NULL, NULL, dhs, hs, cache, a3, NULL, Wih, Whh, ws, B, T, C, HG, 1);
    nnt_attention_backward_f64(da2, da3, att, a2, B, T, C, Hh, &cfgs[ci]);
    nnt_gelu_backward_f64(da1, da2, a1, N * I, NNT_GELU_TANH);
    nnt_linear_backward_f64(dx, dW, NULL, da1, x, W, N, C, I);
    nnt_mse_backward(dlnf, lnf, tgf, N * HG, 1);
    nnt_layernorm_backward(dhsf, NULL, NULL, dlnf, hsf, NULL, meanf, rstdf, N, HG);
    nnt_gru_backward(da3f, NULL, dWihf, dWhhf, NULL, NULL, dhsf, hsf, cachef, a3f, NULL, Wihf, Whhf, wsf, B, T, C, HG, 1);
    nnt_attention_backward(da2f, da3f, attf, a2f, B, T, C, Hh, &cfgs[ci]);
    nnt_gelu_backward(da1f, da2f, a1f, N * I, NNT_GELU_TANH);
    nnt_linear_backward(dxf, dWf, NULL, da1f, xf, Wf, N, C, I);
    double ex = relerr32(dxf, dx, N * C), ew = relerr32(dWf, dW, I * C), eh = relerr32(dWhhf, dWhh, 3 * HG * HG);
    CHECK_MSG(ex < 1e-3 && ew < 1e-3 && eh < 1e-3, "f32 vs f64 gradients (cfg %d): dx %g dW %g dWhh %g", ci, ex, ew, eh);

    free(x), free(W), free(b), free(Wih), free(Whh), free(bih), free(bhh), free(tg), free(a1), free(a2), free(att), free(a3);
    free(hs), free(cache), free(ln), free(xf), free(Wf), free(bf), free(Wihf), free(Whhf), free(bihf), free(bhhf), free(tgf);
    free(a1f), free(a2f), free(attf), free(a3f), free(hsf), free(cachef), free(lnf), free(dln), free(dhs), free(da3), free(da2);
    free(da1), free(dx), free(dW), free(dWih), free(dWhh), free(ws), free(dlnf), free(dhsf), free(da3f), free(da2f);
    free(da1f), free(dxf), free(dWf), free(dWihf), free(dWhhf), free(wsf);
  }
  /* convolution + cross-entropy over channels at each cell */
  int Bc = 2, Cc = 3, OC = 5, H = 6, Wd = 7, HW = H * Wd;
  double *x = randn(Bc * Cc * HW, 1), *w = randn(OC * Cc * 9, 0.3), *out = malloc(sizeof(double) * Bc * OC * HW);
  double *ws = malloc(sizeof(double) * NNT_CONV3_WS(Cc, H, Wd)), *dw = calloc(OC * Cc * 9, sizeof(double));
  float *xf = to_f32(x, Bc * Cc * HW), *wf = to_f32(w, OC * Cc * 9), *outf = malloc(sizeof(float) * Bc * OC * HW);
  float *wsf = malloc(sizeof(float) * NNT_CONV3_WS(Cc, H, Wd)), *dwf = calloc(OC * Cc * 9, sizeof(float));
  nnt_conv3x3_forward_f64(out, x, w, NULL, ws, Bc, Cc, OC, H, Wd);
  nnt_conv3x3_forward(outf, xf, wf, NULL, wsf, Bc, Cc, OC, H, Wd);
  CHECK_MSG(relerr32(outf, out, Bc * OC * HW) < 1e-5, "conv f32 vs f64: %g", relerr32(outf, out, Bc * OC * HW));
  int NR = Bc * HW, *tg = malloc(sizeof(int) * NR); /* out read as NR rows of OC logits */
  for (int i = 0; i < NR; i++) tg[i] = (int)nnt_rng_below(&rng, OC);
  double *pr = malloc(sizeof(double) * NR * OC), *dl = calloc(NR * OC, sizeof(double));
  float *prf = malloc(sizeof(float) * NR * OC), *dlf = calloc(NR * OC, sizeof(float));
  double l = nnt_crossentropy_forward_f64(pr, out, tg, NR, OC);
  float lf = nnt_crossentropy_forward(prf, outf, tg, NR, OC);
  CHECK_CLOSE(lf, l, 1e-5);
  nnt_crossentropy_backward_f64(dl, pr, tg, NR, OC, 1);
  nnt_crossentropy_backward(dlf, prf, tg, NR, OC, 1);
  nnt_conv3x3_backward_f64(NULL, dw, NULL, dl, x, w, ws, Bc, Cc, OC, H, Wd);
  nnt_conv3x3_backward(NULL, dwf, NULL, dlf, xf, wf, wsf, Bc, Cc, OC, H, Wd);
  CHECK_MSG(relerr32(dwf, dw, OC * Cc * 9) < 1e-4, "conv dweight f32 vs f64: %g", relerr32(dwf, dw, OC * Cc * 9));
  free(x), free(w), free(out), free(ws), free(dw), free(xf), free(wf), free(outf), free(wsf), free(dwf);
  free(pr), free(dl), free(prf), free(dlf), free(tg);
}

/* float32 against float64 for the layers the pipelines above do not cover. */
typedef void (*fw64)(double *, const double *, size_t);
typedef void (*fw32)(float *, const float *, size_t);
typedef void (*bw64)(double *, const double *, const double *, size_t);
typedef void (*bw32)(float *, const float *, const float *, size_t);

static void test_f32_vs_f64_rest(void) {
  static const struct {
    const char *name;
    fw64 f64;
    fw32 f32;
    bw64 b64;
    bw32 b32;
    int reads_out; /* the backward reads the output (sigmoid, tanh) rather than the input */
  } ew[] = {{"relu", nnt_relu_forward_f64, nnt_relu_forward, nnt_relu_backward_f64, nnt_relu_backward, 0},
            {"sigmoid", nnt_sigmoid_forward_f64, nnt_sigmoid_forward, nnt_sigmoid_backward_f64, nnt_sigmoid_backward, 1},
            {"tanh", nnt_tanh_forward_f64, nnt_tanh_forward, nnt_tanh_backward_f64, nnt_tanh_backward, 1},
            {"softplus", nnt_softplus_forward_f64, nnt_softplus_forward, nnt_softplus_backward_f64, nnt_softplus_backward, 0}};
  size_t n = 300;
  double *x = randn(n, 8), *dy = randn(n, 1), *y = malloc(sizeof(double) * n), *dx = malloc(sizeof(double) * n);
  float *xf = to_f32(x, n), *dyf = to_f32(dy, n), *yf = malloc(sizeof(float) * n), *dxf = malloc(sizeof(float) * n);
  for (int k = 0; k < 4; k++) {
    memset(dx, 0, sizeof(double) * n), memset(dxf, 0, sizeof(float) * n);
    ew[k].f64(y, x, n), ew[k].f32(yf, xf, n);
    ew[k].b64(dx, dy, ew[k].reads_out ? y : x, n), ew[k].b32(dxf, dyf, ew[k].reads_out ? yf : xf, n);
    CHECK_MSG(relerr32(yf, y, n) < 1e-6 && relerr32(dxf, dx, n) < 1e-6, "%s f32 vs f64: %g %g", ew[k].name,
              relerr32(yf, y, n), relerr32(dxf, dx, n));
  }
  memset(dx, 0, sizeof(double) * n), memset(dxf, 0, sizeof(float) * n);
  nnt_gelu_forward_f64(y, x, n, NNT_GELU_ERF), nnt_gelu_forward(yf, xf, n, NNT_GELU_ERF);
  nnt_gelu_backward_f64(dx, dy, x, n, NNT_GELU_ERF), nnt_gelu_backward(dxf, dyf, xf, n, NNT_GELU_ERF);
  CHECK_MSG(relerr32(yf, y, n) < 1e-6 && relerr32(dxf, dx, n) < 1e-6, "gelu erf f32 vs f64");
  memset(dx, 0, sizeof(double) * n), memset(dxf, 0, sizeof(float) * n);
  nnt_softmax_forward_f64(y, x, 20, 15), nnt_softmax_forward(yf, xf, 20, 15);
  nnt_softmax_backward_f64(dx, dy, y, 20, 15), nnt_softmax_backward(dxf, dyf, yf, 20, 15);
  CHECK_MSG(relerr32(yf, y, n) < 1e-5 && relerr32(dxf, dx, n) < 1e-5, "softmax f32 vs f64");
  int idx[30];
  for (int i = 0; i < 30; i++) idx[i] = (int)nnt_rng_below(&rng, 10);
  memset(dx, 0, sizeof(double) * n), memset(dxf, 0, sizeof(float) * n);
  nnt_embedding_forward_f64(y, idx, x, 30, 10), nnt_embedding_forward(yf, idx, xf, 30, 10);
  nnt_embedding_backward_f64(dx, dy, idx, 30, 10), nnt_embedding_backward(dxf, dyf, idx, 30, 10);
  CHECK_MSG(relerr32(yf, y, n) < 1e-7 && relerr32(dxf, dx, 100) < 1e-6, "embedding f32 vs f64");
  free(x), free(dy), free(y), free(dx), free(xf), free(dyf), free(yf), free(dxf);

  /* bidirectional GRU and ReLU RNN: outputs, dx, dWhh of the reverse direction */
  int B = 3, T = 6, I = 5, H = 7;
  for (int gru = 0; gru < 2; gru++) {
    int G = gru ? 3 * H : H;
    size_t nx = (size_t)B * T * I, no = (size_t)B * T * 2 * H;
    double *xs = randn(nx, 1), *w[2][4], *g[2][4], *out = malloc(sizeof(double) * no), *dout = randn(no, 1);
    double *cache = malloc(sizeof(double) * 2 * NNT_GRU_CACHE(B, T, H)), *ws = malloc(sizeof(double) * NNT_GRU_WS(B, H));
    double *dxs = calloc(nx, sizeof(double));
    float *wf[2][4], *gf[2][4], *xsf = to_f32(xs, nx), *outf = malloc(sizeof(float) * no), *doutf = to_f32(dout, no);
    float *cachef = malloc(sizeof(float) * 2 * NNT_GRU_CACHE(B, T, H)), *wsf = malloc(sizeof(float) * NNT_GRU_WS(B, H));
    float *dxsf = calloc(nx, sizeof(float));
    size_t sz[4] = {(size_t)G * I, (size_t)G * H, (size_t)G, (size_t)G};
    nnt_rnn_params_f64 p[2];
    nnt_rnn_grads_f64 dp[2];
    nnt_rnn_params pf[2];
    nnt_rnn_grads dpf[2];
    for (int d = 0; d < 2; d++) {
      for (int k = 0; k < 4; k++) {
        w[d][k] = randn(sz[k], 0.4), g[d][k] = calloc(sz[k], sizeof(double));
        wf[d][k] = to_f32(w[d][k], sz[k]), gf[d][k] = calloc(sz[k], sizeof(float));
      }
      p[d] = (nnt_rnn_params_f64){w[d][0], w[d][1], w[d][2], w[d][3]};
      dp[d] = (nnt_rnn_grads_f64){g[d][0], g[d][1], g[d][2], g[d][3]};
      pf[d] = (nnt_rnn_params){wf[d][0], wf[d][1], wf[d][2], wf[d][3]};
      dpf[d] = (nnt_rnn_grads){gf[d][0], gf[d][1], gf[d][2], gf[d][3]};
    }
    if (gru) {
      nnt_bigru_forward_f64(out, cache, xs, NULL, p, B, T, I, H);
      nnt_bigru_forward(outf, cachef, xsf, NULL, pf, B, T, I, H);
      nnt_bigru_backward_f64(dxs, NULL, dp, dout, out, cache, xs, NULL, p, ws, B, T, I, H);
      nnt_bigru_backward(dxsf, NULL, dpf, doutf, outf, cachef, xsf, NULL, pf, wsf, B, T, I, H);
    } else {
      nnt_birnn_forward_f64(out, xs, NULL, p, B, T, I, H, NNT_RNN_RELU);
      nnt_birnn_forward(outf, xsf, NULL, pf, B, T, I, H, NNT_RNN_RELU);
      nnt_birnn_backward_f64(dxs, NULL, dp, dout, out, xs, NULL, p, ws, B, T, I, H, NNT_RNN_RELU);
      nnt_birnn_backward(dxsf, NULL, dpf, doutf, outf, xsf, NULL, pf, wsf, B, T, I, H, NNT_RNN_RELU);
    }
    double eo = relerr32(outf, out, no), ex = relerr32(dxsf, dxs, nx), ew = relerr32(gf[1][1], g[1][1], sz[1]);
    CHECK_MSG(eo < 1e-5 && ex < 1e-4 && ew < 1e-4, "%s f32 vs f64: out %g dx %g dWhh_rev %g", gru ? "bigru" : "birnn",
              eo, ex, ew);
    for (int d = 0; d < 2; d++)
      for (int k = 0; k < 4; k++) free(w[d][k]), free(g[d][k]), free(wf[d][k]), free(gf[d][k]);
    free(xs), free(out), free(dout), free(cache), free(ws), free(dxs), free(xsf), free(outf), free(doutf), free(cachef);
    free(wsf), free(dxsf);
  }
}

/* The attention splits (batch, head) pairs over threads: results must not depend on their number. */
static void test_threads(void) {
  int B = 32, T = 40, C = 64, H = 4; /* B*H*T*T*hs = 3.3M: above the parallel threshold */
  double *qkv = randn(B * T * 3 * C, 1);
  float *qf = to_f32(qkv, B * T * 3 * C), *o[2], *att = malloc(sizeof(float) * NNT_ATTN_WS(B, H, T));
  float *dq[2];
  for (int k = 0; k < 2; k++) {
    nnt_threads_set(k + 1);
    o[k] = malloc(sizeof(float) * B * T * C), dq[k] = calloc(B * T * 3 * C, sizeof(float));
    nnt_attn_cfg cfg = {.score = NNT_ATTN_SOFTMAX, .causal = 1};
    nnt_attention_forward(o[k], att, qf, B, T, C, H, &cfg);
    nnt_attention_backward(dq[k], o[k], att, qf, B, T, C, H, &cfg);
  }
  CHECK(memcmp(o[0], o[1], sizeof(float) * B * T * C) == 0);
  CHECK(memcmp(dq[0], dq[1], sizeof(float) * B * T * 3 * C) == 0);
  free(qkv), free(qf), free(att);
  for (int k = 0; k < 2; k++) free(o[k]), free(dq[k]);
}

int main(void) {
  nnt_rng_init(&rng, 7, 0);
  test_values();
  test_tanh_f32();
  test_linear_layernorm_losses();
  test_attention();
  test_recurrent();
  test_conv();
  test_f32_vs_f64();
  test_f32_vs_f64_rest();
  test_threads();
  TEST_MAIN_END();
}
