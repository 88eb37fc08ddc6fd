/* gradcheck.h — finite-difference gradient checks for float64 layers and models (any area).
 *
 * Usage: put every differentiable array (inputs and parameters) in a gc_slot {name, x, dx, n}
 * and write two callbacks over a context: obj(ctx) runs the forward pass and returns a scalar,
 * usually <w, y> with a fixed random projection w of the output y; grad(ctx) runs the forward
 * and the backward pass with dy = w, ADDING into the slots' dx (nnt's backward convention).
 * gc_run fills every dx with random values first and compares (dx after - dx before) with
 * central differences (f(x+h) - f(x-h)) / 2h, so a backward that overwrites instead of
 * accumulating fails too. The error of a slot is max|analytic - numeric| / max(max|numeric|,
 * max|analytic|, 1e-12): with h = 1e-6 in float64 the truncation error (h^2 f''') and the
 * rounding error (1e-16 / h) are both near 1e-10, so tolerances of 1e-6 leave a wide margin.
 */
#ifndef NNT_GRADCHECK_H
#define NNT_GRADCHECK_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_rng.h"

typedef struct {
  const char *name;
  double *x;  /* the values (perturbed in place, then restored); NULL: slot skipped */
  double *dx; /* where grad() accumulates the gradient of x */
  size_t n;
} gc_slot;

static inline double gc_dot(const double *a, const double *b, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

static inline double *gc_randn(nnt_rng *r, size_t n, double std) {
  double *x = (double *)malloc(sizeof(double) * (n ? n : 1));
  nnt_rng_fill_normal_f64(r, x, n, 0, std);
  return x;
}

/* Largest relative error over one slot (see the header comment). */
static inline double gc_slot_error(double (*obj)(void *), void *ctx, const gc_slot *s, const double *analytic,
                                   double h) {
  double maxdiff = 0, maxnum = 0, maxana = 0;
  for (size_t i = 0; i < s->n; i++) {
    double save = s->x[i];
    s->x[i] = save + h;
    double fp = obj(ctx);
    s->x[i] = save - h;
    double fm = obj(ctx);
    s->x[i] = save;
    double num = (fp - fm) / (2 * h);
    if (!isfinite(num) || !isfinite(analytic[i])) return INFINITY; /* fmax would skip a NaN */
    maxdiff = fmax(maxdiff, fabs(num - analytic[i]));
    maxnum = fmax(maxnum, fabs(num));
    maxana = fmax(maxana, fabs(analytic[i]));
  }
  return maxdiff / fmax(fmax(maxnum, maxana), 1e-12);
}

/* Checks every slot; prints one line per failing slot (error > tol) and returns their number. */
static inline int gc_run(const char *label, double (*obj)(void *), void (*grad)(void *), void *ctx, gc_slot *slots,
                         int nslots, double tol, nnt_rng *r) {
  double **before = (double **)calloc((size_t)nslots, sizeof(double *));
  for (int k = 0; k < nslots; k++) {
    if (!slots[k].x) continue;
    before[k] = (double *)malloc(sizeof(double) * (slots[k].n ? slots[k].n : 1));
    nnt_rng_fill_normal_f64(r, slots[k].dx, slots[k].n, 0, 1);
    memcpy(before[k], slots[k].dx, sizeof(double) * slots[k].n);
  }
  grad(ctx);
  int fails = 0;
  for (int k = 0; k < nslots; k++) {
    if (!slots[k].x) continue;
    double *ana = before[k];
    for (size_t i = 0; i < slots[k].n; i++) ana[i] = slots[k].dx[i] - ana[i];
    double err = gc_slot_error(obj, ctx, &slots[k], ana, 1e-6);
    if (!(err <= tol)) {
      fails++;
      fprintf(stderr, "gradcheck %s: d/d%s relative error %.3g > %.3g\n", label, slots[k].name, err, tol);
    }
    free(ana);
  }
  free(before);
  return fails;
}

#endif
