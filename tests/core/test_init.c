/* PyTorch default initialisations: bounds, means and variances of every law (statistical tests
 * with tolerances of 5-7 standard errors, so a wrong bound or fan, which moves the variance by a
 * factor, always fails), fans and gains against torch.nn.init's tables, determinism per seed. */
#include <math.h>
#include <string.h>

#include "nnt_init.h"
#include "nnt_test.h"

typedef struct {
  double mean, var, maxabs, frac_within_1sd;
} moments;

static moments moments_of(const nnt_tensor *t) {
  moments m = {0, 0, 0, 0};
  double s = 0, s2 = 0;
  for (size_t i = 0; i < t->numel; i++) {
    double x = t->dtype == NNT_F32 ? nnt_f32(t)[i] : nnt_f64(t)[i];
    s += x, s2 += x * x;
    if (fabs(x) > m.maxabs) m.maxabs = fabs(x);
  }
  m.mean = s / t->numel;
  m.var = s2 / t->numel - m.mean * m.mean;
  double sd = sqrt(m.var);
  for (size_t i = 0; i < t->numel; i++) {
    double x = t->dtype == NNT_F32 ? nnt_f32(t)[i] : nnt_f64(t)[i];
    m.frac_within_1sd += fabs(x - m.mean) <= sd;
  }
  m.frac_within_1sd /= t->numel;
  return m;
}

/* U(-b, b): every |x| <= b, max near b, mean 0 (se b/sqrt(3n)), var b^2/3 (relative se
 * sqrt(0.8/n) since Var(x^2) = 4 b^4 / 45), about 57.7% within one sd. */
static void check_uniform(const char *what, const nnt_tensor *t, double b) {
  moments m = moments_of(t);
  double n = (double)t->numel, v = b * b / 3;
  CHECK_MSG(m.maxabs <= b * (1 + 1e-7), "%s: max |x| %.9g > bound %.9g", what, m.maxabs, b);
  CHECK_MSG(m.maxabs >= b * (1 - 20 / n), "%s: max |x| %.9g far below bound %.9g", what, m.maxabs, b);
  CHECK_MSG(fabs(m.mean) <= 6 * sqrt(v / n), "%s: mean %.3g", what, m.mean);
  CHECK_MSG(fabs(m.var / v - 1) <= 6 * sqrt(0.8 / n), "%s: var %.6g, expected %.6g", what, m.var, v);
  CHECK_MSG(fabs(m.frac_within_1sd - 1 / sqrt(3.0)) <= 0.02, "%s: %.4f within one sd (uniform: 0.5774)", what,
            m.frac_within_1sd);
}

/* N(0, s^2): mean (se s/sqrt(n)), var (relative se sqrt(2/n)), 68.3% within one sd (not 57.7%). */
static void check_normal(const char *what, const nnt_tensor *t, double s) {
  moments m = moments_of(t);
  double n = (double)t->numel;
  CHECK_MSG(fabs(m.mean) <= 6 * s / sqrt(n), "%s: mean %.3g", what, m.mean);
  CHECK_MSG(fabs(m.var / (s * s) - 1) <= 6 * sqrt(2 / n), "%s: var %.6g, expected %.6g", what, m.var, s * s);
  CHECK_MSG(fabs(m.frac_within_1sd - 0.6827) <= 0.02, "%s: %.4f within one sd (normal: 0.6827)", what,
            m.frac_within_1sd);
}

static int all_equal(const nnt_tensor *t, double v) {
  for (size_t i = 0; i < t->numel; i++)
    if ((t->dtype == NNT_F32 ? nnt_f32(t)[i] : nnt_f64(t)[i]) != v) return 0;
  return 1;
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 2024, 0);

  /* fans and gains (torch.nn.init._calculate_fan_in_and_fan_out, calculate_gain) */
  nnt_tensor w2, w3, w4;
  nnt_tensor_f32(&w2, 2, 7, 5);
  nnt_tensor_f32(&w3, 3, 6, 4, 3);
  nnt_tensor_f32(&w4, 4, 8, 3, 5, 5);
  int fi, fo;
  nnt_init_fans(&w2, &fi, &fo);
  CHECK(fi == 5 && fo == 7);
  nnt_init_fans(&w3, &fi, &fo);
  CHECK(fi == 12 && fo == 18);
  nnt_init_fans(&w4, &fi, &fo);
  CHECK(fi == 75 && fo == 200);
  nnt_tensor_free(&w2), nnt_tensor_free(&w3), nnt_tensor_free(&w4);
  CHECK_CLOSE(nnt_init_gain("relu", 0), sqrt(2.0), 1e-15);
  CHECK_CLOSE(nnt_init_gain("tanh", 0), 5.0 / 3, 1e-15);
  CHECK_CLOSE(nnt_init_gain("linear", 0), 1.0, 0);
  CHECK_CLOSE(nnt_init_gain("leaky_relu", sqrt(5.0)), 1 / sqrt(3.0), 1e-15);
  CHECK(nnt_init_gain("swish", 0) == -1);

  /* nn.Linear(250, 400): weight and bias U(+-1/sqrt(250)) */
  nnt_tensor W, b;
  nnt_tensor_f32(&W, 2, 400, 250);
  nnt_tensor_f32(&b, 1, 400);
  nnt_init_linear(&r, &W, &b);
  check_uniform("linear weight", &W, 1 / sqrt(250.0));
  moments mb = moments_of(&b);
  CHECK(mb.maxabs <= 1 / sqrt(250.0) && mb.maxabs > 0.9 / sqrt(250.0)); /* bias bound uses fan_in, not 400 */
  nnt_tensor_free(&W), nnt_tensor_free(&b);

  /* the same in float64, and the same seed gives the same numbers in both dtypes */
  nnt_tensor Wd, Wf;
  nnt_tensor_f64(&Wd, 2, 300, 200);
  nnt_tensor_f32(&Wf, 2, 300, 200);
  nnt_rng r1, r2;
  nnt_rng_init(&r1, 9, 3), nnt_rng_init(&r2, 9, 3);
  nnt_init_linear(&r1, &Wd, NULL);
  nnt_init_linear(&r2, &Wf, NULL);
  check_uniform("linear weight f64", &Wd, 1 / sqrt(200.0));
  int same = 1;
  for (size_t i = 0; i < Wd.numel; i++) same &= (float)nnt_f64(&Wd)[i] == nnt_f32(&Wf)[i];
  CHECK(same);
  nnt_tensor_free(&Wd), nnt_tensor_free(&Wf);

  /* nn.Conv2d(32, 64, 3): fan_in = 32*9 */
  nnt_tensor K, kb;
  nnt_tensor_f32(&K, 4, 64, 32, 3, 3);
  nnt_tensor_f32(&kb, 1, 64);
  nnt_init_conv2d(&r, &K, &kb);
  check_uniform("conv2d weight", &K, 1 / sqrt(288.0));
  CHECK(moments_of(&kb).maxabs <= 1 / sqrt(288.0));
  nnt_tensor_free(&K), nnt_tensor_free(&kb);

  /* nn.MultiheadAttention(128): in_proj [384, 128] xavier U(+-sqrt(6/(128+384))), out_proj as
   * Linear(128, 128), both biases zero */
  int E = 128;
  nnt_tensor ipw, ipb, opw, opb;
  nnt_tensor_f32(&ipw, 2, 3 * E, E);
  nnt_tensor_f32(&ipb, 1, 3 * E);
  nnt_tensor_f32(&opw, 2, E, E);
  nnt_tensor_f32(&opb, 1, E);
  nnt_init_constant(&ipb, 5), nnt_init_constant(&opb, 5);
  nnt_init_mha(&r, &ipw, &ipb, &opw, &opb);
  check_uniform("mha in_proj", &ipw, sqrt(6.0 / (E + 3 * E)));
  check_uniform("mha out_proj", &opw, 1 / sqrt((double)E));
  CHECK(all_equal(&ipb, 0) && all_equal(&opb, 0));
  nnt_tensor_free(&ipw), nnt_tensor_free(&ipb), nnt_tensor_free(&opw), nnt_tensor_free(&opb);

  /* nn.GRU(input 40, hidden 100): W_ih [300, 40], W_hh [300, 100], biases [300], all U(+-0.1) */
  nnt_tensor wih, whh, bih;
  nnt_tensor_f64(&wih, 2, 300, 40);
  nnt_tensor_f64(&whh, 2, 300, 100);
  nnt_tensor_f64(&bih, 1, 300);
  nnt_init_recurrent(&r, &wih, 100);
  nnt_init_recurrent(&r, &whh, 100);
  nnt_init_recurrent(&r, &bih, 100);
  check_uniform("gru W_ih", &wih, 0.1);
  check_uniform("gru W_hh", &whh, 0.1);
  CHECK(moments_of(&bih).maxabs <= 0.1);
  nnt_tensor_free(&wih), nnt_tensor_free(&whh), nnt_tensor_free(&bih);

  /* nn.Embedding: N(0, 1) */
  nnt_tensor emb;
  nnt_tensor_f32(&emb, 2, 500, 100);
  nnt_init_embedding(&r, &emb);
  check_normal("embedding", &emb, 1.0);
  nnt_tensor_free(&emb);

  /* nn.LayerNorm: ones and zeros */
  nnt_tensor g, be;
  nnt_tensor_f32(&g, 1, 33);
  nnt_tensor_f32(&be, 1, 33);
  nnt_init_constant(&be, 3);
  nnt_init_layernorm(&g, &be);
  CHECK(all_equal(&g, 1) && all_equal(&be, 0));
  nnt_tensor_free(&g), nnt_tensor_free(&be);

  /* helpers: xavier_normal std = gain sqrt(2/(fan_in+fan_out)); kaiming_normal (relu, fan_in)
   * std = sqrt(2/fan_in); kaiming_uniform (relu, fan_out) bound = sqrt(6/fan_out);
   * xavier_uniform with gain */
  nnt_tensor X;
  nnt_tensor_f64(&X, 2, 200, 300);
  nnt_init_xavier_normal(&r, &X, 2.0);
  check_normal("xavier_normal", &X, 2.0 * sqrt(2.0 / 500));
  nnt_init_kaiming_normal(&r, &X, 0, 0);
  check_normal("kaiming_normal", &X, sqrt(2.0 / 300));
  nnt_init_kaiming_uniform(&r, &X, 0, 1);
  check_uniform("kaiming_uniform fan_out", &X, sqrt(6.0 / 200));
  nnt_init_xavier_uniform(&r, &X, 5.0 / 3);
  check_uniform("xavier_uniform tanh", &X, 5.0 / 3 * sqrt(6.0 / 500));
  nnt_tensor_free(&X);
  TEST_MAIN_END();
}
