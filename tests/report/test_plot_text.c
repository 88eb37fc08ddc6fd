/* Plot text: the TeX-like notation of titles, axis labels and legends becomes PLplot's escapes
 * (#u/#d scripts, #g Greek, ## for '#'), and a plot with such text, a labelled band and a dashed
 * curve is written whole. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_plot.h"
#include "nnt_test.h"

static void expect(const char *tex, const char *want) {
  char out[256];
  nnt_plot_text(tex, out, sizeof out);
  CHECK_MSG(!strcmp(out, want), "'%s' -> '%s', want '%s'", tex, out, want);
}

int main(void) {
  /* the approx Figure 4.2 title, and every form it is built from */
  expect("h_{i+1} - h_i = -Delta^{i+1}/4^{i+1}", "h#di+1#u - h#di#u = -#gD#ui+1#d/4#ui+1#d");
  expect("x^2", "x#u2#d");
  expect("M^-2", "M#u-2#d");
  expect("4^-k", "4#u-k#d");
  expect("k_m - k_inf", "k#dm#u - k#dinf#u");
  expect("|W_q^T W_k|", "|W#dq#u#uT#d W#dk#u|");
  expect("|mu|_1^2/k", "|#gm|#d1#u#u2#d/k");
  expect("e^{x_{1}}", "e#ux#d1#u#d");             /* nested groups */
  expect("Delta^L(x)", "#gD#uL#d(x)");
  expect("sin 2 pi x", "sin 2 #gp x");
  expect("sharpness alpha", "sharpness #ga");
  expect("x ~ 0.5 N(-mu,I)", "x ~ 0.5 N(-#gm,I)");
  /* left as written: words that contain a Greek name, long or decimal scripts, stray marks */
  expect("alphabet sum pin Deltas", "alphabet sum pin Deltas");
  expect("mix0.1_wmean0.5", "mix0.1_wmean0.5");
  expect("x_1.5", "x_1.5");
  expect("^2 a_ b^", "^2 a_ b^");
  expect("a^{b", "a^{b");
  expect("R² (pooled)", "R² (pooled)");
  expect("100% #1", "100% ##1");
  expect("", "");
  /* truncation keeps a terminated string */
  char small[4];
  nnt_plot_text("abcdefgh", small, sizeof small);
  CHECK(!strcmp(small, "abc"));
  nnt_plot_text(NULL, small, sizeof small);
  CHECK(!strcmp(small, ""));

  /* a plot using all of it is written, PNG and SVG, and nothing else stays in the folder */
  char dir[] = "/tmp/nnt_test_plot_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  double x[3] = {1, 2, 3}, y[3] = {1e5, 2e5, 3e5}, lo[3] = {0.5e5, 1.5e5, 2.5e5}, hi[3] = {1.5e5, 2.5e5, 3.5e5};
  nnt_plot *p = nnt_plot_new("h_{i+1} - h_i = -Delta^{i+1}/4^{i+1}", "x", "y (x10^5 exponent)");
  int s = nnt_plot_add(p, 3, x, y, "h_6", NNT_PLOT_LINE);
  nnt_plot_add(p, 3, x, y, "x^2", NNT_PLOT_DASHED);
  nnt_plot_band(p, 3, x, lo, hi, s, "h_6: 10%-90% quantiles");
  CHECK(nnt_plot_save(p, dir, "t") == NNT_OK);
  nnt_plot_free(p);
  if (!nnt_plot_available()) { /* a build without PLplot (-DNNT_PLPLOT=OFF) writes nothing */
    CHECK(rmdir(dir) == 0);
    TEST_MAIN_END();
  }
  char path[512];
  snprintf(path, sizeof path, "%s/t.png", dir);
  CHECK(nnt_file_exists(path));
  remove(path);
  snprintf(path, sizeof path, "%s/t.svg", dir);
  CHECK(nnt_file_exists(path));
  remove(path);
  CHECK(rmdir(dir) == 0); /* no temporary left behind */
  TEST_MAIN_END();
}
