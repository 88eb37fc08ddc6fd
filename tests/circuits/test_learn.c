/* The learnability trainer: learns a small circuit (Adam and SGD), is bit-reproducible for a seed, and the
 * exported float64 net predicts like the trained float32 net. */
#include <string.h>

#include "nnt_circuits.h"
#include "nnt_test.h"

int main(void) {
  const char *text = "INPUT(a)\nINPUT(b)\nINPUT(c)\nINPUT(d)\nOUTPUT(y)\ng = AND(a, b)\nh = XOR(c, d)\ny = OR(g, h)\n";
  nnt_circuit c;
  CHECK(nnt_circuit_parse_bench(text, strlen(text), "t", &c) == 0);
  uint8_t X[16 * 4], Y[16];
  for (int v = 0; v < 16; v++) { /* all 16 inputs as the test set */
    for (int i = 0; i < 4; i++) X[v * 4 + i] = (v >> i) & 1;
    nnt_circuit_eval(&c, X + v * 4, Y + v);
  }
  nnt_circuit_train_opts o = {.depth = 2, .steps = 400, .batch = 16, .lr = 1e-2, .seed = 7};
  nnt_circuit_train_result r1, r2;
  nnt_mlp net;
  CHECK(nnt_circuit_train(&c, 0, 16, 256, &o, 3, X, Y, 16, &r1, &net) == 0);
  CHECK(nnt_circuit_train(&c, 0, 16, 256, &o, 3, X, Y, 16, &r2, NULL) == 0);
  CHECK_MSG(r1.test_err == 0 && r1.train_err == 0, "test error %g, train error %g", r1.test_err, r1.train_err);
  CHECK(r1.test_err == r2.test_err && r1.train_loss == r2.train_loss); /* bit-reproducible */
  CHECK(nnt_mlp_input_dim(&net) == 4 && nnt_mlp_output_dim(&net) == 1);
  for (int v = 0; v < 16; v++) { /* logit difference > 0 <=> predicts 1 */
    double x[4], y;
    for (int i = 0; i < 4; i++) x[i] = X[v * 4 + i];
    nnt_mlp_forward(&net, x, &y);
    CHECK_MSG((y > 0) == (Y[v] != 0), "input %d: logit difference %g, label %d", v, y, Y[v]);
  }
  nnt_mlp_free(&net);

  /* plain SGD (momentum 0.9) learns it too, and differs from Adam's run */
  nnt_circuit_train_opts s = {.depth = 2, .steps = 600, .batch = 16, .lr = 5e-2, .seed = 7, .sgd = 1};
  nnt_circuit_train_result r3;
  CHECK(nnt_circuit_train(&c, 0, 16, 256, &s, 3, X, Y, 16, &r3, NULL) == 0);
  CHECK_MSG(r3.test_err == 0, "SGD test error %g", r3.test_err);
  CHECK(r3.train_loss != r1.train_loss);
  nnt_circuit_free(&c);
  TEST_MAIN_END();
}
