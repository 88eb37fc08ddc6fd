/* report_approx.c — console tables, CSV, plots and tour tables of the approx demos' results. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_approx.h"

static void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *f, const char *fmt, ...) {
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
}

static void add_curve(nnt_plot *p, const nnt_approx_curve *c, const char *label) {
  if (c->n > 0) nnt_plot_add(p, c->n, c->x, c->y, label, NNT_PLOT_LINE);
}

/* ------------------------------------------------------------------ check */

/* A Markdown table cell: '|' inside the text (|x|, norms) would end the cell. */
static void md_cell(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', f);
    fputc(*s, f);
  }
}

static void print_check(FILE *f, const nnt_approx_check_result *t, int markdown) {
  if (markdown) fprintf(f, "| id | reference | claim | bound | measured | result | erratum (draft vs fix) |\n|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < t->n; i++) {
    const nnt_approx_check_row *r = &t->rows[i];
    if (markdown) {
      const char *cells[5] = {r->id, r->ref, r->claim, r->bound, r->measured};
      for (int c = 0; c < 5; c++) {
        fputs("| ", f);
        md_cell(f, cells[c]);
        fputc(' ', f);
      }
      fprintf(f, "| %s | %s", r->pass ? "PASS" : "**FAIL**", r->erratum ? "erratum: " : "");
      md_cell(f, r->note);
      fputs(" |\n", f);
    } else
      fprintf(f, "%-6s %-22s %-4s %s\n       claim: %s\n       bound: %s | measured: %s\n%s%s%s", r->id, r->ref,
              r->pass ? "PASS" : "FAIL", r->erratum ? "erratum" : "", r->claim, r->bound, r->measured,
              *r->note ? "       note: " : "", r->note, *r->note ? "\n" : "");
  }
}

int nnt_report_approx_check(const char *dir, const nnt_approx_check_result *t, FILE *con, FILE *md) {
  if (con) print_check(con, t, 0);
  if (md) print_check(md, t, 1);
  if (dir) {
    nnt_csv c;
    int st = nnt_csv_open(&c, dir, "check.csv", "id,reference,claim,bound,measured,result,erratum,note");
    if (st) return st;
    for (int i = 0; i < t->n; i++) {
      const nnt_approx_check_row *r = &t->rows[i];
      nnt_csv_row(&c, "%s,\"%s\",\"%s\",\"%s\",\"%s\",%s,%d,\"%s\"", r->id, r->ref, r->claim, r->bound, r->measured,
                  r->pass ? "PASS" : "FAIL", r->erratum, r->note);
    }
    if ((st = nnt_csv_close(&c))) return st;
  }
  return t->fails ? nnt_fail(NNT_ECHECK, "%d proven statement(s) violated", t->fails) : NNT_OK;
}

/* ------------------------------------------------------------------ square */

int nnt_report_approx_square(const char *dir, const nnt_approx_square_result *res, FILE *con, FILE *md) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "square.csv",
                        "i,pieces,hidden_layers,relus,params,sup_err,claimed_4^-i-1,l2sq,claimed_2^-4i/30,thm46_lb");
  if (st) return st;
  say(con, "Yarotsky's h_i (Thm 4.2): exact errors from the PWL engine\n");
  say(con, "%3s %8s %7s %6s %7s %14s %14s %13s %13s %11s\n", "i", "pieces", "layers", "relus", "params", "sup|h-x^2|",
      "4^{-i-1}", "L2^2", "2^{-4i}/30", "Thm4.6 lb");
  say(md, "| i | pieces | hidden layers | ReLUs | sup\\|h_i − x²\\| | 4^(−i−1) | ∫(h_i − x²)² | 2^(−4i)/30 |\n|---|---|---|---|---|---|---|---|\n");
  nnt_plot *p1 = nnt_plot_new("Figure 4.1: affine interpolation of x^2 at different scales", "x", "y");
  nnt_plot *p2 = nnt_plot_new("Figure 4.2: the difference h_{i+1} - h_i = -Delta^{i+1}/4^{i+1}", "x", "y");
  double xs[201], ys[201];
  for (int k = 0; k <= 200; k++) xs[k] = k / 200.0, ys[k] = xs[k] * xs[k];
  nnt_plot_add(p1, 201, xs, ys, "x^2", NNT_PLOT_LINE | NNT_PLOT_DASHED);
  for (int q = 0; q < res->n; q++) {
    const nnt_approx_square_row *r = &res->rows[q];
    const nnt_approx_square_error *e = &r->err;
    say(con, "%3d %8ld %7d %6ld %7ld %14.6e %14.6e %13.6e %13.6e %11.3e\n", r->i, e->pieces, r->hidden_layers, r->relus,
        r->params, e->sup, r->sup_claim, e->l2sq, r->l2sq_claim, r->thm46_lb);
    nnt_csv_row(&csv, "%d,%ld,%d,%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.6g", r->i, e->pieces, r->hidden_layers, r->relus,
                r->params, e->sup, r->sup_claim, e->l2sq, r->l2sq_claim, r->thm46_lb);
    say(md, "| %d | %ld | %d | %ld | %.6e | %.6e | %.6e | %.6e |\n", r->i, e->pieces, r->hidden_layers, r->relus, e->sup,
        r->sup_claim, e->l2sq, r->l2sq_claim);
    char lab[32];
    snprintf(lab, sizeof lab, "h_%d", r->i);
    add_curve(p1, &r->h, lab);
    snprintf(lab, sizeof lab, "h_%d - h_%d", r->i + 1, r->i);
    add_curve(p2, &r->diff, lab);
  }
  if (!(st = nnt_csv_close(&csv)) && !(st = nnt_plot_save(p1, dir, "fig4_1_square")))
    st = nnt_plot_save(p2, dir, "fig4_2_differences");
  nnt_plot_free(p1), nnt_plot_free(p2);
  if (!st && dir) say(con, "wrote %s/square.csv, fig4_1_square.{png,svg}, fig4_2_differences.{png,svg}\n", dir);
  return st;
}

/* ------------------------------------------------------------------ triangle */

int nnt_report_approx_triangle(const char *dir, const nnt_approx_triangle_result *res, FILE *con, FILE *md) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "triangle.csv", "L,pieces_01,claimed_2^L,pieces_R,claimed_2^L+2,regions,seconds,peak_rss_mb");
  if (st) return st;
  say(con, "Delta^L (Prop 4.1): exact pieces by the PWL sweep\n%3s %10s %10s %10s %10s %9s %9s\n", "L", "[0,1]", "2^L", "R",
      "2^L+2", "seconds", "rss MB");
  say(md, "| L | pieces on [0,1] | 2^L | pieces on R | sweep s | peak RSS MB |\n|---|---|---|---|---|---|\n");
  for (int q = 0; q < res->n; q++) {
    const nnt_approx_triangle_row *r = &res->rows[q];
    int L = r->L;
    say(con, "%3d %10ld %10ld %10ld %10ld %9.3f %9.1f\n", L, r->pieces_01, 1L << L, r->pieces_R, (1L << L) + 2, r->seconds,
        r->peak_rss_mb);
    nnt_csv_row(&csv, "%d,%ld,%ld,%ld,%ld,%ld,%.4f,%.1f", L, r->pieces_01, 1L << L, r->pieces_R, (1L << L) + 2, r->regions,
                r->seconds, r->peak_rss_mb);
    say(md, "| %s%d | %ld | %ld | %ld | %.3f | %.1f |\n", r->ok ? "" : "**FAIL** ", L, r->pieces_01, 1L << L, r->pieces_R,
        r->seconds, r->peak_rss_mb);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Delta, Delta^2, Delta^3 (exact breakpoints)", "x", "Delta^L(x)");
  for (int L = 1; L <= 3; L++) {
    char lab[32];
    snprintf(lab, sizeof lab, "Delta^%d", L);
    add_curve(p, &res->delta[L - 1], lab);
  }
  st = nnt_plot_save(p, dir, "delta_powers");
  nnt_plot_free(p);
  if (!st && res->bad) st = nnt_fail(NNT_ECHECK, "piece counts differ from 2^L / 2^L + 2 for %d depth(s)", res->bad);
  return st;
}

/* ------------------------------------------------------------------ separation */

int nnt_report_approx_separation(const char *dir, const nnt_approx_separation_cfg *cfg,
                                 const nnt_approx_separation_result *res, FILE *con) {
  const nnt_approx_sep_result *r = &res->sep;
  int n = cfg->n, L = res->L;
  say(con, "Depth separation (Thm 4.4): g = %s against Delta^%d on [0,1]\n", cfg->net ? cfg->net : "trained net", n);
  if (isfinite(res->train_mse))
    say(con, "  trained: Adam lr %g, %d steps, %d samples, final MSE %.5f (the constant 1/2 has MSE 1/12 = 0.08333)\n", cfg->lr,
        cfg->steps, cfg->samples, res->train_mse);
  say(con, "  g: %d hidden layers, %ld ReLUs, P = %ld affine pieces on [0,1] (exact)\n", r->hidden_layers, r->relus, r->pieces);
  say(con, "  int_0^1 |Delta^n - g| = %.6f (exact, piecewise)\n", r->l1);
  say(con, "  lb(n,P) = (2^{n-1} - P - 1)/2^{n+2} = %.6f -> %s\n", r->lb, r->l1 >= r->lb ? "holds" : "VIOLATED");
  if (res->thm44) say(con, "  within Thm 4.4's budget (L = %d): claimed >= 1/32 = 0.03125 -> %s\n", L, r->l1 >= 1.0 / 32 ? "holds" : "VIOLATED");
  else say(con, "  Thm 4.4's 1/32 applies for n = L^2+2 and g with <= 2^L ReLUs in <= L layers: not the case here\n");
  say(con, "  Note: a trained small net collapsing to the constant 1/2 (L1 = 1/4) is not evidence of the theorem;\n"
           "  the exact piece count and the bound above are.\n");
  say(con, "  Thm 4.6: int_0^1 (g - x^2)^2 = %.6g >= 1/(5760 P^4) = %.6g -> %s\n", res->sq.l2sq, res->thm46_lb,
      res->sq.l2sq >= res->thm46_lb ? "holds" : "VIOLATED");
  say(con, "  best L2 continuous PWL fits with P uniform pieces (hat projection, exact L1 by the engine):\n"
           "    %8s %16s %10s %12s %10s\n", "P", "max|g(t_i)-1/2|", "L1", "L2^2", "lb(n,P)");
  for (int q = 0; q < res->nfit; q++) {
    const nnt_approx_sep_fit *f = &res->fit[q];
    say(con, "    %8ld %16.2e %10.6f %12.6g %10.6f\n", f->P, f->dev, f->l1, f->l2sq, f->lb);
  }
  say(con, "  capacity (exact breakpoint counts): k, interior breakpoints of Delta^k = shallow ReLUs needed, deep ReLUs\n");
  for (int k = 1; k <= res->ncap; k++) say(con, "    %2d %8ld %4d\n", k, res->cap_breaks[k - 1], 3 * k);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "separation.csv", "n,hidden_layers,relus,pieces,l1,lb,thm44_applies");
  if (st) return st;
  nnt_csv_row(&csv, "%d,%d,%ld,%ld,%.17g,%.17g,%d", n, r->hidden_layers, r->relus, r->pieces, r->l1, r->lb, res->thm44);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Delta^n vs g on [0,1]", "x", "y");
  nnt_plot_add(p, res->nplot, res->x, res->delta_n, "Delta^n (sampled)", NNT_PLOT_LINE);
  nnt_plot_add(p, res->nplot, res->x, res->gx, "g", NNT_PLOT_LINE);
  st = nnt_plot_save(p, dir, "separation");
  nnt_plot_free(p);
  char tp[1024];
  if (!st && dir && isfinite(res->train_mse)) st = nnt_mlp_save(&res->g, nnt_path(tp, sizeof tp, dir, "trained_net.json"));
  if (!st && res->violated) st = nnt_fail(NNT_ECHECK, "the proven lower bound is violated");
  return st;
}

/* ------------------------------------------------------------------ ntk */

int nnt_report_approx_ntk(const char *dir, const nnt_approx_ntk_cfg *cfg, const nnt_approx_ntk_result *res, FILE *con,
                          FILE *md) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "ntk.csv", "m,mean_abs_km_minus_kinf,sqrt_m_times_err");
  if (st) return st;
  say(con, "Empirical inner-layer NTK vs k_inf = <x,x'>(pi - arccos<x,x'>)/(2pi) (Prop 3.23), d = %d, %d pairs%s\n", cfg->d,
      cfg->pairs, cfg->pad ? ", padded inputs (u,1)/sqrt2" : "");
  say(con, "%10s %16s %14s\n", "m", "mean|k_m-k_inf|", "sqrt(m)*err");
  say(md, "| m | mean \\|k_m − k∞\\| | √m · err |\n|---|---|---|\n");
  int nm = res->nw;
  double *x = nnt_xmalloc(sizeof(double) * nm), *ref = nnt_xmalloc(sizeof(double) * nm);
  for (int q = 0; q < nm; q++) {
    long m = res->m[q];
    double e = res->err[q];
    say(con, "%10ld %16.4e %14.4f\n", m, e, e * sqrt((double)m));
    nnt_csv_row(&csv, "%ld,%.6e,%.6f", m, e, e * sqrt((double)m));
    say(md, "| %ld | %.3e | %.3f |\n", m, e, e * sqrt((double)m));
    x[q] = (double)m, ref[q] = res->err[0] * sqrt((double)res->m[0] / m);
  }
  if ((st = nnt_csv_close(&csv))) goto done;
  say(con, "fitted log-log slope %.3f (claim: -1/2; accepted range [-0.6, -0.4])\n", res->slope);
  for (int pad = 0; pad < 2 && !st; pad++)
    st = nnt_heatmap_save(res->gram[pad], NNT_APPROX_NTK_NCIRCLE, NNT_APPROX_NTK_NCIRCLE,
                          pad ? "k_inf Gram, 12 circle points, padded (x,1)/sqrt2" : "k_inf Gram, 12 circle points, no padding",
                          "j", "i", dir, pad ? "gram_padded" : "gram_plain");
  if (st) goto done;
  say(con, "Gram matrices (k_inf, 12 circle points): %d of 12 eigenvalues vanish without padding, %d with padding "
           "(gram_plain/gram_padded.png)\n", res->nzero[0], res->nzero[1]);
  say(con, "padding (Remark 3.24/P15): kernel ridge on 12 circle points, target sin 3theta: train MSE %.3f without "
           "padding (odd frequencies >= 3 missing), %.1e with x -> (x,1)/sqrt2\n", res->ridge_mse[0], res->ridge_mse[1]);
  say(md, "\nFitted slope %.3f (claim −½). Padding: kernel ridge on 12 circle points with target sin 3θ leaves "
          "train MSE %.3f without padding and %.1e with it.\n", res->slope, res->ridge_mse[0], res->ridge_mse[1]);
  nnt_plot *p = nnt_plot_new("NTK: |k_m - k_inf| vs width m", "m", "mean |k_m - k_inf|");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, nm, x, res->err, "measured", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, nm, x, ref, "1/sqrt(m) reference", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, dir, "ntk_convergence");
  nnt_plot_free(p);
  if (!st && !res->slope_ok) st = nnt_fail(NNT_ECHECK, "NTK slope %.3f outside [-0.6, -0.4]", res->slope);
done:
  free(x), free(ref);
  return st;
}

/* ------------------------------------------------------------------ maurey */

int nnt_report_approx_maurey(const char *dir, const nnt_approx_maurey_result *res, FILE *con) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "maurey.csv", "k,trials,mean_sq_err,stderr,exact_7.5/k,bound_16/k");
  if (st) return st;
  say(con, "Maurey sampling of sin(2 pi x) = int 1[x >= b] g'(b) db (Prop 2.8, Lemma 2.16), P = U[0,1]\n");
  say(con, "%8s %14s %12s %14s %12s\n", "k", "E||.||^2", "stderr", "exact 7.5/k", "bound 16/k");
  double x[5], meas[5], exact[5], bound[5], gx[4], gy[4], gb[4];
  for (int q = 0; q < res->nk; q++) {
    const nnt_approx_maurey_row *r = &res->sin[q];
    say(con, "%8d %14.4e %12.2e %14.4e %12.4e\n", r->k, r->mse, r->se, r->exact, r->bound);
    nnt_csv_row(&csv, "%d,%d,%.6e,%.3e,%.6e,%.6e", r->k, r->trials, r->mse, r->se, r->exact, r->bound);
    x[q] = r->k, meas[q] = r->mse, exact[q] = r->exact, bound[q] = r->bound;
  }
  say(con, "largest |measured - exact| / stderr = %.2f (the identity is exact; expect <= 3-4)\n", res->zmax);
  if ((st = nnt_csv_close(&csv))) return st;
  say(con, "\nBarron/Fourier threshold net for exp(-pi|x|^2), d = 2 (Thm 2.12, exact sampler), P = U(unit disk)\n"
           "|mu|_1 = %.5f (quadrature) <= 2 pi = %.5f\n%8s %14s %14s\n", res->mass, 2 * M_PI, "k", "E||.||^2", "bound M^2/k");
  if ((st = nnt_csv_open(&csv, dir, "maurey_gauss.csv", "k,trials,mean_sq_err,bound_M2_over_k"))) return st;
  for (int q = 0; q < res->ng; q++) {
    const nnt_approx_maurey_row *r = &res->gauss[q];
    say(con, "%8d %14.4e %14.4e\n", r->k, r->mse, r->bound);
    nnt_csv_row(&csv, "%d,%d,%.6e,%.6e", r->k, r->trials, r->mse, r->bound);
    gx[q] = r->k, gy[q] = r->mse, gb[q] = r->bound;
  }
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Maurey sampling: error vs number of units k", "k (units)", "E ||f_k - g||^2");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, res->nk, x, meas, "sin 2 pi x measured", NNT_PLOT_POINTS | NNT_PLOT_LINE);
  nnt_plot_add(p, res->nk, x, exact, "sin: exact (E|V|^2 - |X|^2)/k", NNT_PLOT_LINE);
  nnt_plot_add(p, res->nk, x, bound, "sin: bound |mu|_1^2/k", NNT_PLOT_DASHED);
  nnt_plot_add(p, res->ng, gx, gy, "Gaussian d=2 (Barron sampler) measured", NNT_PLOT_POINTS | NNT_PLOT_LINE);
  nnt_plot_add(p, res->ng, gx, gb, "Gaussian bound |mu|_1^2/k", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, dir, "maurey");
  nnt_plot_free(p);
  if (!st && (res->zmax > 5 || res->gauss_over))
    st = nnt_fail(NNT_ECHECK, "Maurey identity or bound violated (z = %.1f, %d Gaussian width(s) above M^2/k)", res->zmax,
                  res->gauss_over);
  return st;
}

/* ------------------------------------------------------------------ planting */

int nnt_report_approx_planting(const char *dir, const nnt_approx_planting_cfg *cfg, const nnt_approx_planting_result *res,
                               FILE *con) {
  const nnt_approx_plant_result *r = &res->plant;
  say(con, "Thm 3.10 planting, d = 2, tau = %g, delta = %g: m = %ld, |U_i| = %ld, min |S_i| = %ld\n", cfg->tau, cfg->delta, r->m,
      r->usz, r->min_S);
  say(con, "%-28s %14s %14s %14s\n", "quantity", "proof", "statement", "measured");
  say(con, "%-28s %14.1f %14.1f %14.1f\n", "scale of planted g", r->c0, r->scale_statement, r->scale_fit);
  say(con, "%-28s %14.2f %14.2f %14.2f\n", "||V - V0||_F", r->fro_proof, r->fro_statement, r->fro);
  say(con, "%-28s %14.3f %14s %14.3f\n", "max_j ||v_j - v0_j||", r->rowmax_proof, "-", r->rowmax);
  say(con, "max |F - F0| / (1+|F|) = %.1e (claim: F(x;V) = F0(x;V) exactly; the draft's 'F0(x;V0)' is a typo)\n", r->max_F_F0_rel);
  say(con, "max |F - c0 g| = %.1f vs max |F(x;w0)| = %.1f; allowed |F(x;w0)| + sqrt(m)|alpha|_1 (excess %.1f <= 0)\n",
      r->max_dev, r->max_noise, r->max_excess);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "planting.csv", "theta,F_over_c0,g,F_w0_over_c0");
  if (st) return st;
  for (int e = 0; e < res->neval; e++)
    nnt_csv_row(&csv, "%.6f,%.6e,%.6e,%.6e", res->theta[e], res->F_c0[e], res->g[e], res->Fw0_c0[e]);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Thm 3.10: F(x;V)/c0 vs planted g on |x| = 0.8", "theta", "value");
  nnt_plot_add(p, res->neval, res->theta, res->g, "g(x)", NNT_PLOT_LINE);
  nnt_plot_add(p, res->neval, res->theta, res->F_c0, "F(x;V)/c0", NNT_PLOT_LINE);
  nnt_plot_add(p, res->neval, res->theta, res->Fw0_c0, "F(x;w0)/c0 (init noise)", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, dir, "planting");
  nnt_plot_free(p);
  if (!st && res->violated) st = nnt_fail(NNT_ECHECK, "a planting guarantee of the proof is violated");
  return st;
}

/* ------------------------------------------------------------------ sobolev */

int nnt_report_approx_sobolev(const char *dir, const nnt_approx_sobolev_cfg *cfg, const nnt_approx_sobolev_result *res,
                              FILE *con) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "sobolev.csv", "d,r,s,k,grid_points,relus,params,hidden_layers,sup_err,bound");
  if (st) return st;
  say(con, "Sobolev approximator (Thm '5.4', corrected): g = (2 + sin 2x1 cos 3x2)/4 on [0,1]^%d, k = %d\n", cfg->d, cfg->k);
  say(con, "%2s %3s %6s %9s %10s %7s %12s %12s\n", "r", "s", "points", "ReLUs", "params", "layers", "sup|f-g|", "bound");
  double xs[2][4], ys[2][4], bs[2][4];
  for (int i = 0; i < res->n; i++) {
    const nnt_approx_sobolev_row *r = &res->rows[i];
    const nnt_approx_sobolev_report *rep = &r->rep;
    say(con, "%2d %3d %6d %9ld %10ld %7d %12.3e %12.3e\n", r->r, r->s, rep->nv, rep->stats.hidden_units, rep->stats.params,
        rep->stats.layers - 1, rep->sup, rep->bound);
    nnt_csv_row(&csv, "%d,%d,%d,%d,%d,%ld,%ld,%d,%.6e,%.6e", r->d, r->r, r->s, r->k, rep->nv, rep->stats.hidden_units,
                rep->stats.params, rep->stats.layers - 1, rep->sup, rep->bound);
    xs[r->r - 2][i % res->ns] = r->s, ys[r->r - 2][i % res->ns] = rep->sup, bs[r->r - 2][i % res->ns] = rep->bound;
  }
  if ((st = nnt_csv_close(&csv))) return st;
  say(con, "the draft's bound (degree-r Taylor, unclipped products) is not used: see docs/approx.md\n");
  nnt_plot *p = nnt_plot_new("Sobolev approximator: sup error vs grid s", "s", "sup |f - g|");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, res->ns, xs[0], ys[0], "r=2 (affine Taylor) measured", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, res->ns, xs[0], bs[0], "r=2 bound", NNT_PLOT_DASHED);
  nnt_plot_add(p, res->ns, xs[1], ys[1], "r=3 (quadratic Taylor) measured", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, res->ns, xs[1], bs[1], "r=3 bound", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, dir, "sobolev");
  nnt_plot_free(p);
  if (!st && res->bad) st = nnt_fail(NNT_ECHECK, "%d configuration(s) exceed the proven bound", res->bad);
  return st;
}

/* ------------------------------------------------------------------ lazy training [ext] */

int nnt_report_approx_lazy(const char *dir, const nnt_approx_lazy_cfg *cfg, const nnt_approx_lazy_result *res, FILE *con) {
  say(con, "[beyond the book: ch. 5 of the draft is empty] lazy training: GD on the inner layer of\n"
           "(1/sqrt m) sum_j a_j relu(v_j.x), symmetric init, 12 padded circle points, target cos t + sin(2t)/2,\n"
           "%d steps of GD vs the linearised model (init NTK) trained by the same steps\n", cfg->steps);
  say(con, "%8s %10s %12s %8s %14s %11s\n", "m", "||V-V0||_F", "max row move", "flips", "max|f_GD-f_lin|", "train MSE");
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "lazy.csv", "m,steps,eta,fro,max_row,flip_fraction,max_gap,train_mse");
  if (st) return st;
  int n = res->n;
  double *x = nnt_xmalloc(sizeof(double) * n * 4), *gap = x + n, *row = x + 2 * n, *ref = x + 3 * n;
  for (int q = 0; q < n; q++) {
    const nnt_approx_lazy_stats *L = &res->rows[q];
    say(con, "%8ld %10.3f %12.4f %7.2f%% %14.4e %11.2e\n", L->m, L->fro, L->rowmax, 100 * L->flips, L->gap, L->train_mse);
    nnt_csv_row(&csv, "%ld,%d,%.4f,%.6f,%.6f,%.6f,%.6e,%.3e", L->m, L->steps, L->eta, L->fro, L->rowmax, L->flips, L->gap, L->train_mse);
    x[q] = (double)L->m, gap[q] = L->gap, row[q] = L->rowmax, ref[q] = row[0] * sqrt(x[0] / x[q]);
  }
  if (!(st = nnt_csv_close(&csv))) {
    nnt_plot *p = nnt_plot_new("Lazy training [ext]: movement and gap to the NTK model", "m", "value");
    nnt_plot_log(p, 1, 1);
    nnt_plot_add(p, n, x, row, "max_j ||v_j - v0_j||", NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_add(p, n, x, gap, "max |f_GD - f_lin|", NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_add(p, n, x, ref, "1/sqrt(m) reference", NNT_PLOT_DASHED);
    st = nnt_plot_save(p, dir, "lazy");
    nnt_plot_free(p);
  }
  free(x);
  return st;
}
