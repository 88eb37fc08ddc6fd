/* Shared by the rcnn tests: a parity dataset with test points, and the two independent references
 * the RCNN is checked against — the direct 2-D TM simulator and GF(2) elimination. */
#ifndef RCNN_TEST_DATA_H
#define RCNN_TEST_DATA_H
#include <stdint.h>
#include <stdlib.h>

#include "nnt_rcnn_parity.h"
#include "nnt_rcnn_tm2d.h"
#include "nnt_rng.h"

typedef struct {
  int m, d;
  signed char *X, *y, *x; /* x: n test points */
  int n;
  uint64_t secret;
} data;

static void draw(data *D, int d, int m, int n, uint64_t seed) {
  *D = (data){m, d, malloc((size_t)m * d), malloc(m), malloc((size_t)n * d), n, 0};
  nnt_rcnn_tm2d_parity(d, m, seed, D->X, D->y, D->x, &D->secret);
  nnt_rng g;
  nnt_rng_init(&g, seed, 9);
  for (int i = d; i < n * d; i++) D->x[i] = (signed char)(nnt_rng_u64(&g) >> 63 ? -1 : 1);
}
static void undraw(data *D) { free(D->X), free(D->y), free(D->x); }

/* The direct simulator's output and steps on test point j. */
static int direct(const nnt_rcnn_tm2d *tm, const data *D, int j, int work, long *steps) {
  nnt_rcnn_tm2d_tape tape;
  nnt_rcnn_tm2d_result r;
  nnt_rcnn_tm2d_tape_xor(&tape, D->m, D->d, work, D->X, D->y, D->x + (size_t)j * D->d);
  nnt_rcnn_tm2d_run(tm, &tape, 100000000, &r);
  nnt_rcnn_tm2d_tape_free(&tape);
  *steps = r.steps;
  return r.output;
}

static int depth_for(const nnt_rcnn_tm2d *tm, const data *D, int work) {
  long t, tmax = 0;
  for (int j = 0; j < D->n; j++) direct(tm, D, j, work, &t), tmax = t > tmax ? t : tmax;
  long L = D->m + D->d + 1 > tmax + 1 ? D->m + D->d + 1 : tmax + 1;
  return (int)L;
}

/* GF(2) elimination's prediction on test point j, ±1. */
static int gf2(const data *D, int j) {
  nnt_rcnn_parity_data pd = {D->d, 1, D->m, calloc(D->m, 8), calloc(D->m, 1)};
  for (int i = 0; i < D->m; i++) {
    for (int b = 0; b < D->d; b++) pd.x[i] |= (uint64_t)(D->X[i * D->d + b] < 0) << b;
    pd.y[i] = D->y[i] < 0;
  }
  nnt_rcnn_parity_gauss g;
  nnt_rcnn_parity_gauss_fit(&g, &pd);
  uint64_t q = 0;
  for (int b = 0; b < D->d; b++) q |= (uint64_t)(D->x[j * D->d + b] < 0) << b;
  int out = nnt_rcnn_parity_gauss_predict(&g, &q) ? -1 : 1;
  nnt_rcnn_parity_gauss_free(&g);
  free(pd.x), free(pd.y);
  return out;
}

#endif
