/* nnt_plot.h — line plots and heatmaps written as PNG and SVG through PLplot (cairo devices).
 *
 * Build a plot from series, then nnt_plot_save(p, dir, "name") writes name.png and name.svg
 * (dir NULL: nothing, for a command run without --out).
 * Data are copied in; log axes take positive values and are drawn with decade ticks.
 */
#ifndef NNT_PLOT_H
#define NNT_PLOT_H
#include <stddef.h>

enum { NNT_PLOT_LINE = 1, NNT_PLOT_POINTS = 2, NNT_PLOT_DASHED = 4 };

typedef struct nnt_plot nnt_plot;

/* Titles, axis labels and legend labels are written in a little TeX (nnt_plot_text). */
nnt_plot *nnt_plot_new(const char *title, const char *xlabel, const char *ylabel);
void nnt_plot_log(nnt_plot *p, int logx, int logy);
/* Fixes an axis range (otherwise fitted to the data). */
void nnt_plot_xrange(nnt_plot *p, double lo, double hi);
void nnt_plot_yrange(nnt_plot *p, double lo, double hi);
/* Adds a series; returns its index, which also picks its colour. label may be NULL (no legend). */
int nnt_plot_add(nnt_plot *p, int n, const double *x, const double *y, const char *label, int style);
/* A shaded band between lo and hi in the colour of series `color_of`, drawn under the curves;
 * label (may be NULL) gives it a legend entry, a shaded box, saying what the band is. */
void nnt_plot_band(nnt_plot *p, int n, const double *x, const double *lo, const double *hi, int color_of, const char *label);
int nnt_plot_save(const nnt_plot *p, const char *dir, const char *base);
/* The ranges the plot is drawn with, {x0, x1, y0, y1}: the fixed ones, else fitted to the data
 * (bands included; a fitted y range padded by 5%). For tests of what a writer draws. */
void nnt_plot_ranges(const nnt_plot *p, double r[4]);
/* The curve labelled label (as given to nnt_plot_add; bands are not searched): its points in *x,
 * *y (either may be NULL), valid until the plot is freed; returns their number, or -1 if none. */
int nnt_plot_find(const nnt_plot *p, const char *label, const double **x, const double **y);
void nnt_plot_free(nnt_plot *p);
/* 1, or 0 in a build without PLplot (-DNNT_PLPLOT=OFF), where the saves write nothing and succeed. */
int nnt_plot_available(void);

/* z is rows x cols row-major; row 0 is drawn at the top. Diverging colours centred at 0 when the
 * data have both signs, sequential otherwise; the colour bar gives the scale. */
int nnt_heatmap_save(const double *z, int rows, int cols, const char *title, const char *xlabel,
                     const char *ylabel, const char *dir, const char *base);

/* TeX-like plot text to PLplot's escapes: superscripts x^2, M^-2, 4^{i+1} (#u..#d); subscripts
 * h_i, k_inf, h_{i+1} (#d..#u); an unbraced script is a token of at most 3 letters or digits
 * ("mix0.1_wmean0.5" stays as written); the Greek names alpha..omega and Gamma, Delta, Theta,
 * Lambda, Sigma, Phi, Psi, Omega as whole words (#gD for Delta); '#' doubled. Truncates to n. */
void nnt_plot_text(const char *tex, char *out, size_t n);

#endif
