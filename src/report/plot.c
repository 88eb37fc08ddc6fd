#include "nnt_plot.h"

#include <ctype.h>
#include <math.h>
#ifndef NNT_NO_PLPLOT
#include <plplot.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_mpi.h"

#define MAX_SERIES 32

typedef struct {
  int n, style, color;
  double *x, *y, *hi; /* hi != NULL: a band from y to hi */
  char *label;
} series;

struct nnt_plot {
  char *title, *xlabel, *ylabel;
  int logx, logy, nseries, ncolors;
  int fix_x, fix_y;
  double x0, x1, y0, y1;
  series s[MAX_SERIES];
};

/* Colour-blind-safe palette (Okabe–Ito), indices 2.. of cmap0; 0 = white background, 1 = black. */
static const int palette[][3] = {{0, 114, 178}, {213, 94, 0},  {0, 158, 115}, {204, 121, 167},
                                 {230, 159, 0}, {86, 180, 233}, {0, 0, 0},     {240, 228, 66},
                                 /* beyond Okabe–Ito's eight, for plots of more series (parity bench: 9) */
                                 {136, 34, 85}, {17, 119, 51}, {136, 136, 136}, {102, 51, 0}};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))

/* ---------------------------------------------------------------- text */

typedef struct {
  char *out;
  size_t n, k; /* capacity, length */
} text_buf;

static void emit(text_buf *b, const char *s, size_t len) {
  for (size_t i = 0; i < len && b->k + 1 < b->n; i++) b->out[b->k++] = s[i];
  b->out[b->k] = 0;
}

/* PLplot's #g letters for the Greek names it translates (whole words only). */
static const struct {
  const char *name;
  char g;
} greek[] = {{"alpha", 'a'}, {"beta", 'b'},   {"gamma", 'g'}, {"delta", 'd'}, {"epsilon", 'e'}, {"zeta", 'z'},
             {"eta", 'y'},   {"theta", 'h'},  {"kappa", 'k'}, {"lambda", 'l'}, {"mu", 'm'},     {"pi", 'p'},
             {"rho", 'r'},   {"sigma", 's'},  {"tau", 't'},   {"phi", 'f'},    {"chi", 'x'},    {"psi", 'q'},
             {"omega", 'w'}, {"Gamma", 'G'},  {"Delta", 'D'}, {"Theta", 'H'},  {"Lambda", 'L'}, {"Sigma", 'S'},
             {"Phi", 'F'},   {"Psi", 'Q'},    {"Omega", 'W'}};

static void translate(text_buf *b, const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    if (c == '#') {
      emit(b, "##", 2), i++;
      continue;
    }
    if ((c == '^' || c == '_') && i > 0 && i + 1 < len) {
      const char *open = c == '^' ? "#u" : "#d", *close = c == '^' ? "#d" : "#u";
      if (s[i + 1] == '{') { /* a braced group, nested braces allowed */
        size_t e = i + 2;
        for (int depth = 1; e < len; e++) {
          depth += (s[e] == '{') - (s[e] == '}');
          if (!depth) break;
        }
        if (e < len) {
          emit(b, open, 2), translate(b, s + i + 2, e - i - 2), emit(b, close, 2);
          i = e + 1;
          continue;
        }
      } else { /* a short token: h_i, k_inf, x^2, M^-2; not "mix0.1_wmean0.5" or a decimal */
        size_t j = i + 1 + (c == '^' && s[i + 1] == '-'), t = j;
        while (t < len && isalnum((unsigned char)s[t])) t++;
        if (t > j && t - j <= 3 && !(t + 1 < len && s[t] == '.' && isdigit((unsigned char)s[t + 1]))) {
          emit(b, open, 2), emit(b, s + i + 1, t - i - 1), emit(b, close, 2);
          i = t;
          continue;
        }
      }
    }
    if (isalpha(c) && (i == 0 || !isalnum((unsigned char)s[i - 1]))) { /* a word: Greek or as it is */
      size_t w = i;
      while (w < len && isalpha((unsigned char)s[w])) w++;
      size_t g = 0, ng = sizeof greek / sizeof *greek;
      while (g < ng && (strlen(greek[g].name) != w - i || strncmp(greek[g].name, s + i, w - i))) g++;
      if (g < ng && !(w < len && isdigit((unsigned char)s[w]))) emit(b, (char[]){'#', 'g', greek[g].g}, 3);
      else emit(b, s + i, w - i);
      i = w;
      continue;
    }
    emit(b, s + i, 1), i++;
  }
}

void nnt_plot_text(const char *tex, char *out, size_t n) {
  if (!n) return;
  text_buf b = {out, n, 0};
  out[0] = 0;
  if (tex) translate(&b, tex, strlen(tex));
}

static char *plot_text(const char *tex) {
  char buf[1024];
  nnt_plot_text(tex, buf, sizeof buf);
  return nnt_xstrdup(buf);
}

/* Characters a PLplot text shows (an escape "#x" counts as none, "##" as one), for sizing. */
static int shown_length(const char *s) {
  int n = 0;
  for (; *s; s++) {
    if (*s == '#' && s[1]) s++, n += *s == '#';
    else n += ((unsigned char)*s & 0xC0) != 0x80; /* UTF-8: count characters, not bytes */
  }
  return n;
}

/* ---------------------------------------------------------------- plots */

nnt_plot *nnt_plot_new(const char *title, const char *xlabel, const char *ylabel) {
  nnt_plot *p = nnt_xcalloc(1, sizeof *p);
  p->title = plot_text(title);
  p->xlabel = plot_text(xlabel);
  p->ylabel = plot_text(ylabel);
  return p;
}

void nnt_plot_log(nnt_plot *p, int logx, int logy) {
  p->logx = logx;
  p->logy = logy;
}
void nnt_plot_xrange(nnt_plot *p, double lo, double hi) { p->fix_x = 1, p->x0 = lo, p->x1 = hi; }
void nnt_plot_yrange(nnt_plot *p, double lo, double hi) { p->fix_y = 1, p->y0 = lo, p->y1 = hi; }

static double *dup_values(const double *v, int n) { return memcpy(nnt_xmalloc(sizeof(double) * (size_t)n), v, sizeof(double) * (size_t)n); }

int nnt_plot_add(nnt_plot *p, int n, const double *x, const double *y, const char *label, int style) {
  if (p->nseries == MAX_SERIES) return -1;
  series *s = &p->s[p->nseries];
  s->n = n;
  s->style = style ? style : NNT_PLOT_LINE;
  s->color = p->ncolors++ % NPAL;
  s->x = dup_values(x, n);
  s->y = dup_values(y, n);
  s->label = label ? plot_text(label) : NULL;
  return p->nseries++;
}

void nnt_plot_band(nnt_plot *p, int n, const double *x, const double *lo, const double *hi, int color_of, const char *label) {
  if (p->nseries == MAX_SERIES) return;
  series *s = &p->s[p->nseries++];
  s->label = label ? plot_text(label) : NULL;
  s->n = n;
  s->color = color_of >= 0 && color_of < p->nseries ? p->s[color_of].color : 0;
  s->x = dup_values(x, n);
  s->y = dup_values(lo, n);
  s->hi = dup_values(hi, n);
}

void nnt_plot_free(nnt_plot *p) {
  if (!p) return;
  for (int i = 0; i < p->nseries; i++) free(p->s[i].x), free(p->s[i].y), free(p->s[i].hi), free(p->s[i].label);
  free(p->title), free(p->xlabel), free(p->ylabel), free(p);
}

static double tr(double v, int lg) { return lg ? log10(v) : v; }

/* The axes' ranges as drawn, in plotted units (log10 on a log axis): the data's extent (bands
 * included), or the fixed range; a degenerate range widened by ±0.5; a fitted y range padded 5%. */
static void fit_ranges(const nnt_plot *p, double t[4]) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (int i = 0; i < p->nseries; i++) {
    const series *s = &p->s[i];
    for (int k = 0; k < s->n; k++) {
      double xs[2] = {s->x[k], s->x[k]}, ys[2] = {s->y[k], s->hi ? s->hi[k] : s->y[k]};
      for (int m = 0; m < 2; m++) {
        if (!isfinite(xs[m]) || !isfinite(ys[m]) || (p->logx && xs[m] <= 0) || (p->logy && ys[m] <= 0)) continue;
        double xv = tr(xs[m], p->logx), yv = tr(ys[m], p->logy);
        x0 = fmin(x0, xv), x1 = fmax(x1, xv), y0 = fmin(y0, yv), y1 = fmax(y1, yv);
      }
    }
  }
  if (p->fix_x) x0 = tr(p->x0, p->logx), x1 = tr(p->x1, p->logx);
  if (p->fix_y) y0 = tr(p->y0, p->logy), y1 = tr(p->y1, p->logy);
  if (!(x0 < INFINITY)) x0 = 0, x1 = 1;
  if (!(y0 < INFINITY)) y0 = 0, y1 = 1;
  if (x1 - x0 < 1e-12) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 < 1e-12) y0 -= 0.5, y1 += 0.5;
  if (!p->fix_y) {
    double pad = 0.05 * (y1 - y0);
    y0 -= pad, y1 += pad;
  }
  t[0] = x0, t[1] = x1, t[2] = y0, t[3] = y1;
}

void nnt_plot_ranges(const nnt_plot *p, double r[4]) {
  fit_ranges(p, r);
  for (int i = 0; i < 4; i++)
    if (i < 2 ? p->logx : p->logy) r[i] = pow(10, r[i]);
}

int nnt_plot_find(const nnt_plot *p, const char *label, const double **x, const double **y) {
  char want[1024];
  nnt_plot_text(label, want, sizeof want);
  for (int i = 0; i < p->nseries; i++)
    if (p->s[i].label && !p->s[i].hi && !strcmp(p->s[i].label, want)) {
      if (x) *x = p->s[i].x;
      if (y) *y = p->s[i].y;
      return p->s[i].n;
    }
  return -1;
}

#ifdef NNT_NO_PLPLOT
/* Built without PLplot (cmake -DNNT_PLPLOT=OFF, for a cross build whose target has no PLplot:
 * docs/core.md, "aarch64"): every run works and writes its tables, but draws no plot. */
int nnt_plot_available(void) { return 0; }
int nnt_plot_save(const nnt_plot *p, const char *dir, const char *base) { return (void)p, (void)dir, (void)base, NNT_OK; }
int nnt_heatmap_save(const double *z, int rows, int cols, const char *title, const char *xlabel,
                     const char *ylabel, const char *dir, const char *base) {
  return (void)z, (void)rows, (void)cols, (void)title, (void)xlabel, (void)ylabel, (void)dir, (void)base, NNT_OK;
}
#else
int nnt_plot_available(void) { return 1; }

static void set_colours(void) {
  plscmap0n(2 + 2 * NPAL);
  plscol0(0, 255, 255, 255);
  plscol0(1, 0, 0, 0);
  for (int i = 0; i < NPAL; i++) {
    plscol0(2 + i, palette[i][0], palette[i][1], palette[i][2]);
    plscol0a(2 + NPAL + i, palette[i][0], palette[i][1], palette[i][2], 0.25);
  }
}

static int begin(const char *dev, const char *path) {
  PLINT strm;
  plmkstrm(&strm);
  if (strm < 0) return nnt_fail(NNT_EIO, "PLplot: cannot open a stream");
  plsdev(dev);
  plsfnam(path);
  plsetopt("geometry", "900x650");
  set_colours();
  plinit();
  plfontld(1);
  return NNT_OK;
}

/* One glyph for a series' points and its legend entry (a bullet; the legend used to show a star
 * beside curves drawn with dots). */
#define POINT_GLYPH "\xe2\x80\xa2"

/* The inside corner where the legend covers the least of the curves: each corner's box (the
 * legend's estimated size, as fractions of the plot area) is charged one per curve sample inside
 * it, sampling every segment at 8 points so that sparse lines count too; top-left wins ties.
 * *covered: the samples under the chosen corner's box (0: the legend covers no data there). */
static PLINT legend_corner(const nnt_plot *p, double x0, double x1, double y0, double y1, int nleg, int maxlen, long *covered) {
  static const PLINT pos[4] = {PL_POSITION_TOP | PL_POSITION_LEFT, PL_POSITION_TOP | PL_POSITION_RIGHT,
                               PL_POSITION_BOTTOM | PL_POSITION_RIGHT, PL_POSITION_BOTTOM | PL_POSITION_LEFT};
  double bw = fmin(0.9, 0.1 + 0.0125 * maxlen), bh = fmin(0.9, 0.03 + 0.065 * nleg);
  long hits[4] = {0, 0, 0, 0};
  for (int i = 0; i < p->nseries; i++) {
    const series *s = &p->s[i];
    if (s->hi) continue;
    for (int k = 0; k + 1 < s->n; k++) {
      if (!isfinite(s->y[k]) || !isfinite(s->y[k + 1]) || (p->logx && (s->x[k] <= 0 || s->x[k + 1] <= 0)) ||
          (p->logy && (s->y[k] <= 0 || s->y[k + 1] <= 0)))
        continue;
      double ua = (tr(s->x[k], p->logx) - x0) / (x1 - x0), va = (tr(s->y[k], p->logy) - y0) / (y1 - y0);
      double ub = (tr(s->x[k + 1], p->logx) - x0) / (x1 - x0), vb = (tr(s->y[k + 1], p->logy) - y0) / (y1 - y0);
      for (int j = 0; j < 8; j++) {
        double t = j / 8.0, u = ua + t * (ub - ua), v = va + t * (vb - va);
        hits[0] += u < bw && v > 1 - bh, hits[1] += u > 1 - bw && v > 1 - bh;
        hits[2] += u > 1 - bw && v < bh, hits[3] += u < bw && v < bh;
      }
    }
  }
  int best = 0;
  for (int c = 1; c < 4; c++)
    if (hits[c] < hits[best]) best = c;
  *covered = hits[best];
  return pos[best];
}

/* A linear axis' common power of ten, PLplot's rule: 0 unless its largest |value| is >= 1e5 or
 * below 1e-4. */
static int scale_exponent(double lo, double hi) {
  double m = fmax(fabs(lo), fabs(hi));
  if (!(m > 0) || (m >= 1e-4 && m < 1e5)) return 0;
  return (int)floor(log10(m));
}

typedef struct {
  int e[2]; /* x, y: tick labels show value / 10^e */
} axis_scale;

static void scaled_label(PLINT axis, PLFLT value, char *label, PLINT length, PLPointer data) {
  const axis_scale *sc = data;
  double v = value / pow(10, sc->e[axis == PL_Y_AXIS]);
  snprintf(label, (size_t)length, "%.6g", fabs(v) < 1e-9 ? 0.0 : v);
}

static void scaled_axis_label(const char *label, int e, char *out, size_t n) {
  if (e) snprintf(out, n, "%s (×10#u%d#d)", label, e);
  else snprintf(out, n, "%s", label);
}

static int render(const nnt_plot *p, const char *dev, const char *path) {
  int st = begin(dev, path);
  if (st) return st;
  double t[4];
  fit_ranges(p, t);
  double x0 = t[0], x1 = t[1], y0 = t[2], y1 = t[3];
  PLINT opts[MAX_SERIES], lcol[MAX_SERIES], lsty[MAX_SERIES], scol[MAX_SERIES], snum[MAX_SERIES], bcol[MAX_SERIES],
      bpat[MAX_SERIES];
  PLFLT lw[MAX_SERIES], ssc[MAX_SERIES], bsc[MAX_SERIES], blw[MAX_SERIES];
  const char *text[MAX_SERIES], *sym[MAX_SERIES];
  PLINT tcol[MAX_SERIES];
  int nleg = 0, maxlen = 0;
  for (int i = 0; i < p->nseries; i++) { /* the legend, in the order the series were added */
    const series *s = &p->s[i];
    if (!s->label) continue;
    if (s->hi) opts[nleg] = PL_LEGEND_COLOR_BOX;
    else
      opts[nleg] = (s->style & (NNT_PLOT_LINE | NNT_PLOT_DASHED) ? PL_LEGEND_LINE : 0) |
                   (s->style & NNT_PLOT_POINTS ? PL_LEGEND_SYMBOL : 0);
    lcol[nleg] = scol[nleg] = 2 + s->color;
    bcol[nleg] = 2 + NPAL + s->color, bpat[nleg] = 0, bsc[nleg] = 0.8, blw[nleg] = 1.0;
    tcol[nleg] = 1;
    lsty[nleg] = s->style & NNT_PLOT_DASHED ? 2 : 1;
    lw[nleg] = 2.0;
    ssc[nleg] = 1.0;
    snum[nleg] = 1;
    sym[nleg] = POINT_GLYPH;
    text[nleg] = s->label;
    maxlen = shown_length(s->label) > maxlen ? shown_length(s->label) : maxlen;
    nleg++;
  }
  /* the legend in the inside corner where it covers no data; where every corner covers some, to
   * the right of the plot, whose box narrows to make room */
  long covered = 0;
  PLINT corner = nleg ? legend_corner(p, x0, x1, y0, y1, nleg, maxlen, &covered) : 0;
  int outside = nleg && covered > 0;
  plcol0(1);
  plschr(0, 1.1);
  /* plenv's box, but a linear axis of large or small numbers gets its power of ten in its label
   * ("n (x10^5)"): PLplot would write it apart, above the box's top left, under the title */
  pladv(0);
  if (outside) plvpor(0.12, fmax(0.45, 0.96 - 0.1 - 0.0115 * maxlen), 0.12, 0.88);
  else plvsta();
  plwind(x0, x1, y0, y1);
  axis_scale sc = {{p->logx ? 0 : scale_exponent(x0, x1), p->logy ? 0 : scale_exponent(y0, y1)}};
  char xopt[16], yopt[16], xlabel[1100], ylabel[1100];
  int axes = !p->logx && !p->logy; /* the lines x = 0 and y = 0 */
  snprintf(xopt, sizeof xopt, "%sbcnst%s", axes ? "a" : "", p->logx ? "l" : sc.e[0] ? "o" : "");
  snprintf(yopt, sizeof yopt, "%sbcnstv%s", axes ? "a" : "", p->logy ? "l" : sc.e[1] ? "o" : "");
  /* a log axis spanning many decades is labelled every k-th decade, at most about 7 labels (PLplot
   * labels every decade: 30 decades of 10^k ran into each other), ticks staying at each decade */
  int kx = p->logx && x1 - x0 > 7 ? (int)ceil((x1 - x0) / 7) : 0, ky = p->logy && y1 - y0 > 7 ? (int)ceil((y1 - y0) / 7) : 0;
  if (kx) memmove(strchr(xopt, 'n'), strchr(xopt, 'n') + 1, strlen(strchr(xopt, 'n'))); /* no labels: drawn below */
  if (ky) memmove(strchr(yopt, 'n'), strchr(yopt, 'n') + 1, strlen(strchr(yopt, 'n')));
  plslabelfunc(scaled_label, &sc);
  plbox(xopt, 0, 0, yopt, 0, 0);
  for (int axis = 0; axis < 2; axis++) {
    int k = axis ? ky : kx;
    double lo = axis ? y0 : x0, hi = axis ? y1 : x1;
    for (long e = k ? (long)ceil(lo / k) * k : 0; k && e <= hi + 1e-9; e += k) {
      char text[32];
      snprintf(text, sizeof text, "10#u%ld#d", e);
      if (axis) plmtex("lv", 0.8, (e - lo) / (hi - lo), 1.0, text);
      else plmtex("b", 1.7, (e - lo) / (hi - lo), 0.5, text);
    }
  }
  plslabelfunc(NULL, NULL);
  scaled_axis_label(p->xlabel, sc.e[0], xlabel, sizeof xlabel);
  scaled_axis_label(p->ylabel, sc.e[1], ylabel, sizeof ylabel);
  pllab(xlabel, ylabel, p->title);

  /* bands under everything, then solid curves, then dashed ones: a dashed reference curve stays
   * visible where a curve lies on it (x^2 under h_6 in Figure 4.1) */
  for (int pass = 0; pass < 3; pass++)
    for (int i = 0; i < p->nseries; i++) {
      const series *s = &p->s[i];
      if (pass != (s->hi ? 0 : s->style & NNT_PLOT_DASHED ? 2 : 1)) continue;
      PLFLT *xs = nnt_xmalloc(sizeof(PLFLT) * 2 * (size_t)s->n), *ys = nnt_xmalloc(sizeof(PLFLT) * 2 * (size_t)s->n);
      int m = 0;
      if (s->hi) {
        for (int k = 0; k < s->n; k++) xs[m] = tr(s->x[k], p->logx), ys[m++] = tr(s->y[k], p->logy);
        for (int k = s->n - 1; k >= 0; k--) xs[m] = tr(s->x[k], p->logx), ys[m++] = tr(s->hi[k], p->logy);
        plcol0(2 + NPAL + s->color);
        if (m >= 3) plfill(m, xs, ys);
      } else {
        for (int k = 0; k < s->n; k++) {
          if ((p->logx && s->x[k] <= 0) || (p->logy && s->y[k] <= 0) || !isfinite(s->y[k])) continue;
          xs[m] = tr(s->x[k], p->logx), ys[m++] = tr(s->y[k], p->logy);
        }
        plcol0(2 + s->color);
        plwidth(2.0);
        pllsty(s->style & NNT_PLOT_DASHED ? 2 : 1);
        if (s->style & (NNT_PLOT_LINE | NNT_PLOT_DASHED)) plline(m, xs, ys);
        if (s->style & NNT_PLOT_POINTS) plstring(m, xs, ys, POINT_GLYPH);
        pllsty(1);
      }
      free(xs), free(ys);
    }
  plwidth(1.0);
  if (nleg) {
    PLFLT w, h;
    plschr(0, 0.9);
    pllegend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             outside ? PL_POSITION_OUTSIDE | PL_POSITION_RIGHT : corner | PL_POSITION_INSIDE,
             0.02, outside ? 0 : 0.02, 0.08, 0, 1, 1, 0, 0, nleg, opts, 1.0, 1.0, 2.0, 0.0, tcol, text, bcol, bpat, bsc, blw,
             lcol, lsty, lw, scol, ssc, snum, sym);
  }
  plend1();
  return NNT_OK;
}

/* Render to a temporary name and rename, so a failed run leaves no partial plot. */
static int save_both(const char *dir, const char *base, int (*draw)(const void *, const char *, const char *),
                     const void *arg) {
  if (nnt_mpi_rank() || !dir) return NNT_OK; /* rank 0 alone writes (nnt_mpi.h); no folder, no file */
  static const char *dev[2] = {"pngcairo", "svgcairo"}, *ext[2] = {"png", "svg"};
  for (int i = 0; i < 2; i++) {
    char path[1024], real[1024], tmp[1100];
    snprintf(path, sizeof path, "%s/%s.%s", dir, base, ext[i]);
    int inplace, st = nnt_file_target(path, real, sizeof real, &inplace);
    if (st) return st;
    /* PLplot writes through a file name and reports no write error: a device is not written */
    if (inplace) return nnt_fail(NNT_EIO, "cannot write %s: it is not a regular file, which a plot needs", path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", real, (long)getpid());
    st = draw(arg, dev[i], tmp);
    if (st || !nnt_file_exists(tmp) || rename(tmp, real) != 0) {
      remove(tmp);
      return st ? st : nnt_fail(NNT_EIO, "cannot write %s", path);
    }
  }
  return NNT_OK;
}

static int draw_plot(const void *p, const char *dev, const char *path) { return render(p, dev, path); }

int nnt_plot_save(const nnt_plot *p, const char *dir, const char *base) { return save_both(dir, base, draw_plot, p); }

typedef struct {
  const double *z;
  int rows, cols;
  const char *title, *xlabel, *ylabel;
} heat;

static int draw_heat(const void *arg, const char *dev, const char *path) {
  const heat *h = arg;
  int st = begin(dev, path);
  if (st) return st;
  double zmin = INFINITY, zmax = -INFINITY;
  for (int i = 0; i < h->rows * h->cols; i++) zmin = fmin(zmin, h->z[i]), zmax = fmax(zmax, h->z[i]);
  if (!(zmax > zmin)) zmax = zmin + 1;
  int diverging = zmin < 0 && zmax > 0;
  if (diverging) {
    double a = fmax(-zmin, zmax);
    zmin = -a, zmax = a;
    PLFLT pos[3] = {0, 0.5, 1}, r[3] = {0.02, 1, 0.70}, g[3] = {0.19, 1, 0.09}, b[3] = {0.38, 1, 0.17};
    plscmap1l(1, 3, pos, r, g, b, NULL);
  } else {
    PLFLT pos[2] = {0, 1}, r[2] = {1, 0.03}, g[2] = {1, 0.19}, b[2] = {1, 0.42};
    plscmap1l(1, 2, pos, r, g, b, NULL);
  }
  plcol0(1);
  pladv(0);
  plvpor(0.1, 0.82, 0.1, 0.9);
  plwind(0, h->cols, h->rows, 0); /* y grows downwards: row 0 at the top, as printed matrices */
  /* One filled cell per entry (plimage treats values as grid corners and drops a row and a column). */
  for (int i = 0; i < h->rows; i++)
    for (int j = 0; j < h->cols; j++) {
      PLFLT xs[4] = {j, j + 1, j + 1, j}, ys[4] = {i, i, i + 1, i + 1};
      plcol1((h->z[(size_t)i * h->cols + j] - zmin) / (zmax - zmin));
      plfill(4, xs, ys);
    }
  plcol0(1);
  plbox("bcnst", 0, 0, "bcnst", 0, 0);
  pllab(h->xlabel, h->ylabel, h->title);
  PLFLT cw, ch;
  PLINT lopt = PL_COLORBAR_LABEL_BOTTOM, nvals = 2, nax = 1;
  PLFLT vals[2] = {zmin, zmax};
  const PLFLT *vp[1] = {vals};
  const char *labs[1] = {""}, *axo[1] = {"bcvtm"};
  PLFLT ticks[1] = {0};
  PLINT sub[1] = {0};
  PLINT lo[1] = {lopt};
  plcolorbar(&cw, &ch, PL_COLORBAR_GRADIENT, PL_POSITION_RIGHT, 0.03, 0, 0.04, 0.8, 0, 1, 1, 0, 0, 0, 0, 1, lo, labs, nax, axo, ticks, sub, &nvals, (PLFLT_MATRIX)vp);
  plend1();
  return NNT_OK;
}

int nnt_heatmap_save(const double *z, int rows, int cols, const char *title, const char *xlabel,
                     const char *ylabel, const char *dir, const char *base) {
  char *t = plot_text(title), *xl = plot_text(xlabel), *yl = plot_text(ylabel);
  heat h = {z, rows, cols, t, xl, yl};
  int st = save_both(dir, base, draw_heat, &h);
  free(t), free(xl), free(yl);
  return st;
}
#endif
