#include "nnt_plot.h"

#include <math.h>
#include <plplot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"

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
                                 {230, 159, 0}, {86, 180, 233}, {0, 0, 0},     {240, 228, 66}};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))

nnt_plot *nnt_plot_new(const char *title, const char *xlabel, const char *ylabel) {
  nnt_plot *p = nnt_xcalloc(1, sizeof *p);
  p->title = nnt_xstrdup(title ? title : "");
  p->xlabel = nnt_xstrdup(xlabel ? xlabel : "");
  p->ylabel = nnt_xstrdup(ylabel ? ylabel : "");
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
  s->label = label ? nnt_xstrdup(label) : NULL;
  return p->nseries++;
}

void nnt_plot_band(nnt_plot *p, int n, const double *x, const double *lo, const double *hi, int color_of) {
  if (p->nseries == MAX_SERIES) return;
  series *s = &p->s[p->nseries++];
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
 * it, sampling every segment at 8 points so that sparse lines count too; top-left wins ties. */
static PLINT legend_corner(const nnt_plot *p, double x0, double x1, double y0, double y1, int nleg, int maxlen) {
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
  return pos[best];
}

static int render(const nnt_plot *p, const char *dev, const char *path) {
  int st = begin(dev, path);
  if (st) return st;
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
  plcol0(1);
  plschr(0, 1.1);
  plenv(x0, x1, y0, y1, 0, (p->logx ? 10 : 0) + (p->logy ? 20 : 0) + (p->logx || p->logy ? 0 : 1));
  pllab(p->xlabel, p->ylabel, p->title);

  PLINT opts[MAX_SERIES], lcol[MAX_SERIES], lsty[MAX_SERIES], scol[MAX_SERIES], snum[MAX_SERIES];
  PLFLT lw[MAX_SERIES], ssc[MAX_SERIES];
  const char *text[MAX_SERIES], *sym[MAX_SERIES];
  PLINT tcol[MAX_SERIES];
  int nleg = 0, maxlen = 0;
  for (int i = 0; i < p->nseries; i++) {
    const series *s = &p->s[i];
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
      if (s->label) {
        opts[nleg] = (s->style & (NNT_PLOT_LINE | NNT_PLOT_DASHED) ? PL_LEGEND_LINE : 0) |
                     (s->style & NNT_PLOT_POINTS ? PL_LEGEND_SYMBOL : 0);
        lcol[nleg] = scol[nleg] = tcol[nleg] = 2 + s->color;
        tcol[nleg] = 1;
        lsty[nleg] = s->style & NNT_PLOT_DASHED ? 2 : 1;
        lw[nleg] = 2.0;
        ssc[nleg] = 1.0;
        snum[nleg] = 1;
        sym[nleg] = POINT_GLYPH;
        text[nleg] = s->label;
        maxlen = (int)strlen(s->label) > maxlen ? (int)strlen(s->label) : maxlen;
        nleg++;
      }
    }
    free(xs), free(ys);
  }
  plwidth(1.0);
  if (nleg) {
    PLFLT w, h;
    plschr(0, 0.9);
    pllegend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             legend_corner(p, x0, x1, y0, y1, nleg, maxlen) | PL_POSITION_INSIDE,
             0.02, 0.02, 0.08, 0, 1, 1, 0, 0, nleg, opts, 1.0, 1.0, 2.0, 0.0, tcol, text, NULL, NULL, NULL, NULL,
             lcol, lsty, lw, scol, ssc, snum, sym);
  }
  plend1();
  return NNT_OK;
}

/* Render to a temporary name and rename, so a failed run leaves no partial plot. */
static int save_both(const char *dir, const char *base, int (*draw)(const void *, const char *, const char *),
                     const void *arg) {
  static const char *dev[2] = {"pngcairo", "svgcairo"}, *ext[2] = {"png", "svg"};
  for (int i = 0; i < 2; i++) {
    char path[1024], tmp[1100];
    snprintf(path, sizeof path, "%s/%s.%s", dir, base, ext[i]);
    snprintf(tmp, sizeof tmp, "%s/.%s.%s.%ld.tmp", dir, base, ext[i], (long)getpid());
    int st = draw(arg, dev[i], tmp);
    if (st || !nnt_file_exists(tmp) || rename(tmp, path) != 0) {
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
  heat h = {z, rows, cols, title, xlabel, ylabel};
  return save_both(dir, base, draw_heat, &h);
}
