/* icl figures' plots (report_icl.c), built from a panel of known values: every plotted point is the
 * panel's R² (clipped at the axis' -1.5), the training length's dashed line stands strictly inside
 * the x axis whether the evaluation ends before, at or after it, and the weight-shift panel shows
 * exactly the shifted conditions and the unshifted one of their mixture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_plot.h"
#include "nnt_test.h"
#include "report_icl.h"

/* conditions: mix 0, 0.3 at weight mean 0, then mix 0 at -0.5 and +0.5 (as icl eval --w-shift writes them) */
static nnt_icl_fig_panel make_panel(int npos, int n_train, int shift) {
  nnt_icl_fig_panel p = {.attn = NNT_ATTN_SOFTMAX, .layers = 6, .depth = 3, .n_train = n_train, .npos = npos};
  const double mix[4] = {0, 0.3, 0, 0}, wm[4] = {0, 0, -0.5, 0.5};
  p.ncond = shift ? 4 : 2;
  for (int c = 0; c < p.ncond; c++) p.mix[c] = mix[c], p.wmean[c] = wm[c];
  size_t m = (size_t)p.ncond * NNT_ICL_NPRED * npos;
  p.r2 = malloc(sizeof(double) * m);
  for (size_t i = 0; i < m; i++) p.r2[i] = 0.9 - 0.37 * (double)(i % 7) + 0.001 * (double)i; /* some below -1.5 */
  for (int k = 0; k < npos; k++) /* direct training only at a few k */
    for (int c = 0; c < p.ncond; c++)
      if (k != 2 && k != 10) p.r2[nnt_icl_fig_at(&p, c, NNT_ICL_PRED_DIRECT_BEST, k)] = NAN;
  return p;
}

/* The curve labelled lab holds exactly the panel's defined values of (c, q), clipped at -1.5. */
static void check_curve(const nnt_plot *pl, const nnt_icl_fig_panel *p, const char *lab, int c, int q) {
  const double *x, *y;
  int n = nnt_plot_find(pl, lab, &x, &y), m = 0;
  CHECK_MSG(n > 0, "no curve '%s'", lab);
  for (int k = 0; k < p->npos; k++) {
    double v = p->r2[nnt_icl_fig_at(p, c, q, k)];
    if (isnan(v)) continue;
    CHECK_MSG(m < n && x[m] == k && y[m] == (v < -1.5 ? -1.5 : v), "'%s' point %d: (%g, %g), want (%d, %g)", lab, m,
              m < n ? x[m] : NAN, m < n ? y[m] : NAN, k, v);
    m++;
  }
  CHECK_MSG(m == n, "'%s': %d points, want %d", lab, n, m);
}

/* The training-length line is at k_train and strictly inside the x range; the range reaches the last k. */
static void check_training_length(const nnt_plot *pl, int last_k, int k_train) {
  char lab[64];
  snprintf(lab, sizeof lab, "training length (k = %d)", k_train);
  const double *x;
  CHECK_MSG(nnt_plot_find(pl, lab, &x, NULL) == 2 && x[0] == k_train && x[1] == k_train, "no line '%s'", lab);
  double r[4];
  nnt_plot_ranges(pl, r);
  CHECK_MSG(r[0] == 0 && r[1] >= last_k && r[1] > k_train + 0.5, "x axis %g..%g, training length %d, last k %d", r[0], r[1],
            k_train, last_k);
  CHECK(r[2] == -1.5 && r[3] == 1.05);
}

int main(void) {
  /* evaluated to k = 30, trained on 50 examples: the axis goes past 50; to k = 50: the same; to
   * k = 75: the axis is the data's (0..75), the line inside it */
  const int cases[3][2] = {{31, 51}, {51, 51}, {76, 51}};
  for (int t = 0; t < 3; t++) {
    nnt_icl_fig_panel p = make_panel(cases[t][0], cases[t][1], t == 0);
    nnt_plot *pl = nnt_report_icl_fig_plot(&p);
    check_training_length(pl, p.npos - 1, p.n_train - 1);
    if (t == 2) {
      double r[4];
      nnt_plot_ranges(pl, r);
      CHECK(r[1] == 75);
    }
    check_curve(pl, &p, "N(-2,I) (training)", 0, NNT_ICL_PRED_MODEL);
    check_curve(pl, &p, "0.7/0.3 mixture", 1, NNT_ICL_PRED_MODEL);
    check_curve(pl, &p, "direct training (best epoch)", 0, NNT_ICL_PRED_DIRECT_BEST);
    check_curve(pl, &p, "prompt mean", 0, NNT_ICL_PRED_MEAN);
    check_curve(pl, &p, "ridge", 0, NNT_ICL_PRED_RIDGE);
    CHECK(nnt_plot_find(pl, "1/0 mixture", NULL, NULL) < 0); /* the shifted conditions are not in Figure 2 */
    nnt_plot_free(pl);
    /* which conditions each figure shows */
    for (int c = 0; c < p.ncond; c++) {
      CHECK(nnt_icl_fig_in_main(&p, c) == (c < 2));
      CHECK(nnt_icl_fig_in_shift(&p, c) == (p.ncond == 4 && c != 1));
    }
    if (p.ncond == 4) {
      pl = nnt_report_icl_fig_shift_plot(&p);
      check_training_length(pl, p.npos - 1, p.n_train - 1);
      const int conds[3] = {0, 2, 3};
      const char *wm[3] = {"0", "-0.5", "0.5"};
      for (int j = 0; j < 3; j++) {
        char lab[96];
        snprintf(lab, sizeof lab, "model (m = %s)", wm[j]);
        check_curve(pl, &p, lab, conds[j], NNT_ICL_PRED_MODEL);
        snprintf(lab, sizeof lab, "direct (m = %s)", wm[j]);
        check_curve(pl, &p, lab, conds[j], NNT_ICL_PRED_DIRECT_BEST);
        snprintf(lab, sizeof lab, "prompt mean (m = %s)", wm[j]);
        check_curve(pl, &p, lab, conds[j], NNT_ICL_PRED_MEAN);
      }
      nnt_plot_free(pl);
    }
    free(p.r2);
  }
  TEST_MAIN_END();
}
