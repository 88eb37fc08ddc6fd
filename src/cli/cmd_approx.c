/* nnt approx — constructive approximation, near-initialisation/NTK and depth separation (seed 004,
 * Telgarsky's "Deep learning theory" ch. 2-4). Every demo prints claimed vs measured numbers. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "commands.h"
#include "nnt_approx.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_progress.h"

static const char *help =
    "usage: nnt approx <demo> [options]\n"
    "Constructions of Telgarsky's 'Deep learning theory' ch. 2-4 as real networks, checked exactly.\n\n"
    "demos:\n"
    "  check [--quick]              every checkable statement (Q1..Q31): claimed vs measured, PASS/FAIL\n"
    "  square --i LIST              Yarotsky's h_i: Figures 4.1/4.2 and the exact error table\n"
    "  triangle --L LIST            Delta^L: exact piece counts, sweep time, memory; plot of Delta^1..3\n"
    "  separation --n N --net FILE  Thm 4.4 lower bound lb(n,P) for a 1-D network file (nnt-mlp JSON)\n"
    "  separation --n N --train W1,W2.. [--steps S --lr LR --samples N]   same for a net trained by Adam\n"
    "  ntk --widths LIST [--pairs P] [--d D] [--pad]   |k_m - k_inf| vs m, 1/sqrt(m) line; padding demo\n"
    "  maurey [--trials T]          Maurey sampling: exact identity (E|V|^2-|X|^2)/k vs measured\n"
    "  planting [--tau T]           Thm 3.10 planting near initialisation: proof vs statement constants\n"
    "  sobolev [--d 1|2] [--k K]    Sobolev-ball approximator (Taylor x partition of unity): error vs grid\n"
    "  lazy [--widths LIST]         [beyond the book] GD on a wide 2-layer net vs its NTK linearisation\n\n"
    "options:\n" NNT_COMMON_HELP;

static const struct option base_opts[] = {NNT_COMMON_OPTIONS, {0, 0, 0, 0}};

/* Parses the common options plus extra ones; extra handlers get (c, optarg). */
typedef int (*opt_fn)(int c, const char *arg, void *ctx);
static int parse(int argc, char **argv, cli_common *co, const struct option *opts, opt_fn fn, void *ctx) {
  cli_reset();
  int c;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    int st = cli_common_option(c, argv, co);
    if (st == -1) st = fn ? fn(c, optarg, ctx) : nnt_fail(NNT_EINVAL, "unknown option");
    if (st) return st;
  }
  return cli_positional(argc, argv, 0, "nnt approx <demo> [options]");
}

/* Console output of a runner; silent when it writes into the tour report instead. */
static void say(int quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int quiet, const char *fmt, ...) {
  if (quiet) return;
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
}

static double peak_rss_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

/* ------------------------------------------------------------------ check */

/* A Markdown table cell: '|' inside the text (|x|, norms) would end the cell. */
static void md_cell(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', f);
    fputc(*s, f);
  }
}

static void print_check(FILE *f, const nnt_approx_check_table *t, int markdown) {
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

static int write_check_csv(const char *dir, const nnt_approx_check_table *t) {
  nnt_csv c;
  int st = nnt_csv_open(&c, dir, "check.csv", "id,reference,claim,bound,measured,result,erratum,note");
  if (st) return st;
  for (int i = 0; i < t->n; i++) {
    const nnt_approx_check_row *r = &t->rows[i];
    nnt_csv_row(&c, "%s,\"%s\",\"%s\",\"%s\",\"%s\",%s,%d,\"%s\"", r->id, r->ref, r->claim, r->bound, r->measured,
                r->pass ? "PASS" : "FAIL", r->erratum, r->note);
  }
  return nnt_csv_close(&c);
}

static int demo_check(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, NULL);
  int st = parse(argc, argv, &co, base_opts, NULL, NULL);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  nnt_approx_check_table t;
  int fails = nnt_approx_check(co.quick, co.seed, &t);
  print_check(stdout, &t, 0);
  printf("\n%d statements, %d PASS, %d FAIL (%s, %.1f s)\n", t.n, t.n - fails, fails, co.quick ? "quick" : "full",
         nnt_now() - t0);
  if (co.out) {
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddBoolToObject(cfg, "quick", co.quick);
    if (!(st = write_check_csv(co.out, &t))) st = nnt_runinfo_write(co.out, "approx check", cfg, co.seed, co.threads, nnt_now() - t0);
    else cJSON_Delete(cfg);
  }
  nnt_approx_check_table_free(&t);
  if (st) return st;
  return fails ? nnt_fail(NNT_ECHECK, "%d proven statement(s) violated", fails) : NNT_OK;
}

/* ------------------------------------------------------------------ square */

typedef struct {
  long vals[64];
  int n;
} list_arg;

static int opt_list(int c, const char *arg, void *ctx, int code, const char *name, long lo, long hi) {
  list_arg *l = ctx;
  if (c != code) return nnt_fail(NNT_EINVAL, "unknown option");
  return cli_parse_int_list(name, arg, lo, hi, l->vals, 64, &l->n);
}
static int opt_i(int c, const char *arg, void *ctx) { return opt_list(c, arg, ctx, 'i', "--i", 0, 24); }

/* Plot points of a PWL function on [0,1]: its breakpoints (exact) */
static int pwl_points(const nnt_mlp *f, const nnt_mlp *g, double **x, double **y) {
  long max = 1 << 16;
  nnt_approx_piece *p = nnt_xmalloc(sizeof *p * max);
  long n = nnt_approx_pwl_collect(f, g, 0, 1, p, max);
  if (n < 0) {
    free(p);
    return -1;
  }
  *x = nnt_xmalloc(sizeof(double) * (n + 1)), *y = nnt_xmalloc(sizeof(double) * (n + 1));
  for (long k = 0; k < n; k++) (*x)[k] = p[k].x0, (*y)[k] = p[k].a * p[k].x0 + p[k].c;
  (*x)[n] = 1, (*y)[n] = p[n - 1].a + p[n - 1].c;
  free(p);
  return (int)n + 1;
}

/* exact sup and L2^2 of h - x^2 on [0,1] from the pieces */
static void sq_err(const nnt_mlp *h, double *sup, double *l2, long *P) {
  nnt_approx_pwl_iter *it;
  nnt_approx_pwl_open(&it, h, NULL, 0, 1);
  nnt_approx_piece p;
  long double L2 = 0;
  *sup = 0, *P = 0;
  while (nnt_approx_pwl_next(it, &p)) {
    double len = p.x1 - p.x0, e0 = p.a * p.x0 + p.c - p.x0 * p.x0, e1 = p.a * p.x1 + p.c - p.x1 * p.x1;
    double ts = fmin(1, fmax(0, 0.5 + (e1 - e0) / (2 * len * len)));
    *sup = fmax(*sup, fmax(e0 * (1 - ts) + e1 * ts + len * len * ts * (1 - ts), fmax(fabs(e0), fabs(e1))));
    L2 += (long double)len * ((e0 * e0 + e0 * e1 + e1 * e1) / 3 + len * len * (e0 + e1) / 6 + pow(len, 4) / 30);
    (*P)++;
  }
  nnt_approx_pwl_close(it);
  *l2 = (double)L2;
}

static int run_square(const char *out, const long *is, int n, FILE *md) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", out);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "square.csv",
                        "i,pieces,hidden_layers,relus,params,sup_err,claimed_4^-i-1,l2sq,claimed_2^-4i/30,thm46_lb");
  if (st) return st;
  say(md != NULL, "Yarotsky's h_i (Thm 4.2): exact errors from the PWL engine\n");
  say(md != NULL, "%3s %8s %7s %6s %7s %14s %14s %13s %13s %11s\n", "i", "pieces", "layers", "relus", "params", "sup|h-x^2|",
         "4^{-i-1}", "L2^2", "2^{-4i}/30", "Thm4.6 lb");
  if (md) fprintf(md, "| i | pieces | hidden layers | ReLUs | sup\\|h_i − x²\\| | 4^(−i−1) | ∫(h_i − x²)² | 2^(−4i)/30 |\n|---|---|---|---|---|---|---|---|\n");
  nnt_plot *p1 = nnt_plot_new("Figure 4.1: affine interpolation of x^2 at different scales", "x", "y");
  nnt_plot *p2 = nnt_plot_new("Figure 4.2: the difference h_{i+1} - h_i = -Delta^{i+1}/4^{i+1}", "x", "y");
  double xs[201], ys[201];
  for (int k = 0; k <= 200; k++) xs[k] = k / 200.0, ys[k] = xs[k] * xs[k];
  nnt_plot_add(p1, 201, xs, ys, "x^2", NNT_PLOT_LINE | NNT_PLOT_DASHED);
  for (int q = 0; q < n; q++) {
    int i = (int)is[q];
    nnt_mlp h, h1;
    nnt_approx_build_square(&h, i);
    nnt_approx_build_square(&h1, i + 1);
    double sup, l2;
    long P;
    sq_err(&h, &sup, &l2, &P);
    nnt_mlp_stats s = nnt_mlp_stats_of(&h);
    double c1 = pow(4, -i - 1), c2 = pow(2, -4 * i) / 30, lb = 1 / (5760 * pow((double)P, 4));
    say(md != NULL, "%3d %8ld %7d %6ld %7ld %14.6e %14.6e %13.6e %13.6e %11.3e\n", i, P, s.layers - 1, s.hidden_units, s.params,
           sup, c1, l2, c2, lb);
    nnt_csv_row(&csv, "%d,%ld,%d,%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.6g", i, P, s.layers - 1, s.hidden_units, s.params, sup,
                c1, l2, c2, lb);
    if (md) fprintf(md, "| %d | %ld | %d | %ld | %.6e | %.6e | %.6e | %.6e |\n", i, P, s.layers - 1, s.hidden_units, sup, c1, l2, c2);
    if (i <= 10) {
      double *x, *y;
      char lab[32];
      int np = pwl_points(&h, NULL, &x, &y);
      snprintf(lab, sizeof lab, "h_%d", i);
      if (np > 0) nnt_plot_add(p1, np, x, y, lab, NNT_PLOT_LINE), free(x), free(y);
      np = pwl_points(&h1, &h, &x, &y);
      snprintf(lab, sizeof lab, "h_%d - h_%d", i + 1, i);
      if (np > 0) nnt_plot_add(p2, np, x, y, lab, NNT_PLOT_LINE), free(x), free(y);
    }
    nnt_mlp_free(&h), nnt_mlp_free(&h1);
  }
  if (!(st = nnt_csv_close(&csv)) && !(st = nnt_plot_save(p1, dir, "fig4_1_square")))
    st = nnt_plot_save(p2, dir, "fig4_2_differences");
  nnt_plot_free(p1), nnt_plot_free(p2);
  return st;
}

static int demo_square(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-square");
  list_arg l = {{0, 1, 2, 3, 4, 5, 6}, 7};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"i", required_argument, 0, 'i'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_i, &l);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  if ((st = run_square(co.out, l.vals, l.n, NULL))) return st;
  printf("wrote %s/square.csv, fig4_1_square.{png,svg}, fig4_2_differences.{png,svg}\n", co.out);
  return nnt_runinfo_write(co.out, "approx square", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
}

/* ------------------------------------------------------------------ triangle */

static int opt_L(int c, const char *arg, void *ctx) { return opt_list(c, arg, ctx, 'L', "--L", 1, 26); }

static int run_triangle(const char *dir, const long *Ls, int n, FILE *md) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "triangle.csv", "L,pieces_01,claimed_2^L,pieces_R,claimed_2^L+2,regions,seconds,peak_rss_mb");
  if (st) return st;
  say(md != NULL, "Delta^L (Prop 4.1): exact pieces by the PWL sweep\n%3s %10s %10s %10s %10s %9s %9s\n", "L", "[0,1]", "2^L", "R",
         "2^L+2", "seconds", "rss MB");
  if (md) fprintf(md, "| L | pieces on [0,1] | 2^L | pieces on R | sweep s | peak RSS MB |\n|---|---|---|---|---|---|\n");
  int bad = 0;
  for (int q = 0; q < n; q++) {
    int L = (int)Ls[q];
    nnt_mlp d;
    nnt_approx_build_delta(&d, L);
    nnt_approx_pwl_summary s, sr;
    double t0 = nnt_now();
    nnt_approx_pwl_summarize(&d, NULL, 0, 1, &s);
    double sec = nnt_now() - t0;
    nnt_approx_pwl_summarize(&d, NULL, -INFINITY, INFINITY, &sr);
    double rss = peak_rss_mb();
    int wrong = s.pieces != (1L << L) || sr.pieces != (1L << L) + 2;
    bad += wrong;
    say(md != NULL, "%3d %10ld %10ld %10ld %10ld %9.3f %9.1f\n", L, s.pieces, 1L << L, sr.pieces, (1L << L) + 2, sec, rss);
    nnt_csv_row(&csv, "%d,%ld,%ld,%ld,%ld,%ld,%.4f,%.1f", L, s.pieces, 1L << L, sr.pieces, (1L << L) + 2, s.regions, sec, rss);
    if (md) fprintf(md, "| %s%d | %ld | %ld | %ld | %.3f | %.1f |\n", wrong ? "**FAIL** " : "", L, s.pieces, 1L << L,
                    sr.pieces, sec, rss);
    nnt_mlp_free(&d);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Delta, Delta^2, Delta^3 (exact breakpoints)", "x", "Delta^L(x)");
  for (int L = 1; L <= 3; L++) {
    nnt_mlp d;
    nnt_approx_build_delta(&d, L);
    double *x, *y;
    char lab[32];
    snprintf(lab, sizeof lab, "Delta^%d", L);
    int np = pwl_points(&d, NULL, &x, &y);
    if (np > 0) nnt_plot_add(p, np, x, y, lab, NNT_PLOT_LINE), free(x), free(y);
    nnt_mlp_free(&d);
  }
  st = nnt_plot_save(p, dir, "delta_powers");
  nnt_plot_free(p);
  if (!st && bad) st = nnt_fail(NNT_ECHECK, "piece counts differ from 2^L / 2^L + 2 for %d depth(s)", bad);
  return st;
}

static int demo_triangle(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-triangle");
  list_arg l = {{1, 2, 4, 8, 12, 16, 20, 22}, 8};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"L", required_argument, 0, 'L'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_L, &l);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  if ((st = run_triangle(co.out, l.vals, l.n, NULL))) return st;
  return nnt_runinfo_write(co.out, "approx triangle", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
}

/* ------------------------------------------------------------------ separation */

typedef struct {
  int n, steps, samples;
  const char *net;
  list_arg train;
  double lr;
} sep_args;

static int opt_sep(int c, const char *arg, void *ctx) {
  sep_args *a = ctx;
  if (c == 'n') return cli_parse_int("--n", arg, 1, 24, &a->n);
  if (c == 'N') {
    a->net = arg;
    return NNT_OK;
  }
  if (c == 't') {
    int st = cli_parse_int_list("--train", arg, 1, 4096, a->train.vals, 64, &a->train.n);
    if (!st && a->train.n > 14) st = nnt_fail(NNT_EINVAL, "--train: at most 14 hidden layers");
    return st;
  }
  if (c == 's') return cli_parse_int("--steps", arg, 0, 1000000, &a->steps);
  if (c == 'S') return cli_parse_int("--samples", arg, 1, 1000000, &a->samples);
  if (c == 'l') return cli_parse_double("--lr", arg, 1e-9, 10, &a->lr);
  return nnt_fail(NNT_EINVAL, "unknown option");
}

static int demo_separation(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-separation");
  sep_args a = {0, 3000, 2048, NULL, {{0}, 0}, 0.01};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"n", required_argument, 0, 'n'}, {"net", required_argument, 0, 'N'},
                                       {"train", required_argument, 0, 't'}, {"steps", required_argument, 0, 's'},
                                       {"samples", required_argument, 0, 'S'}, {"lr", required_argument, 0, 'l'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_sep, &a);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if (!a.n) return nnt_fail(NNT_EINVAL, "--n N is required (the target is Delta^N)");
  if (!a.net == !a.train.n) return nnt_fail(NNT_EINVAL, "give exactly one of --net FILE (nnt-mlp JSON, 1-D input) or --train W1,W2,..");
  nnt_mlp g;
  double mse = NAN;
  if (a.net && (st = nnt_mlp_load(a.net, &g))) return st;
  if (a.train.n) {
    int w[14];
    for (int i = 0; i < a.train.n; i++) w[i] = (int)a.train.vals[i];
    if ((st = nnt_approx_sep_train(w, a.train.n, a.n, a.steps, a.lr, a.samples, co.seed, &g, &mse))) return st;
    a.net = "trained net";
  }
  nnt_approx_sep_result r;
  if ((st = nnt_approx_sep_check(&g, a.n, &r))) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", nnt_errmsg());
    nnt_mlp_free(&g);
    return nnt_fail(NNT_EINVAL, "%s: %s", a.net, msg);
  }
  if ((st = cli_begin(&co))) return nnt_mlp_free(&g), st;
  double t0 = nnt_now();
  /* Thm 4.4's budget: n = L^2 + 2, at most 2^L ReLUs in at most L hidden layers */
  int L = (int)floor(sqrt(a.n - 2.0 > 0 ? a.n - 2.0 : 0));
  int thm44 = L >= 2 && L * L + 2 == a.n && r.relus <= (1L << L) && r.hidden_layers <= L;
  printf("Depth separation (Thm 4.4): g = %s against Delta^%d on [0,1]\n", a.net, a.n);
  if (isfinite(mse)) printf("  trained: Adam lr %g, %d steps, %d samples, final MSE %.5f (the constant 1/2 has MSE 1/12 = 0.08333)\n", a.lr, a.steps, a.samples, mse);
  printf("  g: %d hidden layers, %ld ReLUs, P = %ld affine pieces on [0,1] (exact)\n", r.hidden_layers, r.relus, r.pieces);
  printf("  int_0^1 |Delta^n - g| = %.6f (exact, piecewise)\n", r.l1);
  printf("  lb(n,P) = (2^{n-1} - P - 1)/2^{n+2} = %.6f -> %s\n", r.lb, r.l1 >= r.lb ? "holds" : "VIOLATED");
  if (thm44) printf("  within Thm 4.4's budget (L = %d): claimed >= 1/32 = 0.03125 -> %s\n", L, r.l1 >= 1.0 / 32 ? "holds" : "VIOLATED");
  else printf("  Thm 4.4's 1/32 applies for n = L^2+2 and g with <= 2^L ReLUs in <= L layers: not the case here\n");
  printf("  Note: a trained small net collapsing to the constant 1/2 (L1 = 1/4) is not evidence of the theorem;\n"
         "  the exact piece count and the bound above are.\n");
  /* Thm 4.6 for the same g against x^2 (exact, piecewise), with N_A = P */
  double sup_sq, l2_sq;
  long Psq;
  sq_err(&g, &sup_sq, &l2_sq, &Psq);
  printf("  Thm 4.6: int_0^1 (g - x^2)^2 = %.6g >= 1/(5760 P^4) = %.6g -> %s\n", l2_sq, 1 / (5760 * pow((double)Psq, 4)),
         l2_sq >= 1 / (5760 * pow((double)Psq, 4)) ? "holds" : "VIOLATED");
  /* best L2 fits with P uniform pieces: the constant 1/2 for every P < 2^n (aliasing), exact at 2^n */
  printf("  best L2 continuous PWL fits with P uniform pieces (hat projection, exact L1 by the engine):\n"
         "    %8s %16s %10s %12s %10s\n", "P", "max|g(t_i)-1/2|", "L1", "L2^2", "lb(n,P)");
  for (long P = 1; P <= (1L << a.n) && P <= (1L << 14); P *= 2) {
    nnt_mlp fit;
    nnt_approx_sep_best_fit(a.n, P, &fit);
    nnt_mlp dn;
    nnt_approx_build_delta(&dn, a.n);
    nnt_approx_pwl_summary sf;
    nnt_approx_pwl_summarize(&dn, &fit, 0, 1, &sf);
    double dev = 0;
    for (long i = 0; i <= P; i++) {
      double t = (double)i / P, y;
      nnt_mlp_forward(&fit, &t, &y);
      dev = fmax(dev, fabs(y - 0.5));
    }
    printf("    %8ld %16.2e %10.6f %12.6g %10.6f\n", P, dev, sf.l1, sf.l2sq, nnt_approx_sep_lb(a.n, P));
    nnt_mlp_free(&fit), nnt_mlp_free(&dn);
  }
  /* capacity: Delta^k has 2^k - 1 interior breakpoints on (0,1), so one hidden layer needs >= 2^k - 1
   * ReLUs, while the composition uses 3k (2k inside [0,1]) */
  printf("  capacity (exact breakpoint counts): k, interior breakpoints of Delta^k = shallow ReLUs needed, deep ReLUs\n");
  for (int k = 1; k <= (a.n < 16 ? a.n : 16); k++) {
    nnt_mlp dk;
    nnt_approx_build_delta(&dk, k);
    nnt_approx_pwl_summary sk;
    nnt_approx_pwl_summarize(&dk, NULL, 0, 1, &sk);
    printf("    %2d %8ld %4d\n", k, sk.pieces - 1, 3 * k);
    nnt_mlp_free(&dk);
  }
  nnt_csv csv;
  if (!(st = nnt_csv_open(&csv, co.out, "separation.csv", "n,hidden_layers,relus,pieces,l1,lb,thm44_applies"))) {
    nnt_csv_row(&csv, "%d,%d,%ld,%ld,%.17g,%.17g,%d", a.n, r.hidden_layers, r.relus, r.pieces, r.l1, r.lb, thm44);
    st = nnt_csv_close(&csv);
  }
  if (!st) {
    nnt_plot *p = nnt_plot_new("Delta^n vs g on [0,1]", "x", "y");
    nnt_mlp d;
    nnt_approx_build_delta(&d, a.n);
    int N = 4001;
    double *x = malloc(sizeof(double) * N), *yd = malloc(sizeof(double) * N), *yg = malloc(sizeof(double) * N);
    for (int k = 0; k < N; k++) {
      x[k] = k / (N - 1.0);
      nnt_mlp_forward(&d, &x[k], &yd[k]);
      nnt_mlp_forward(&g, &x[k], &yg[k]);
    }
    nnt_plot_add(p, N, x, yd, "Delta^n (sampled)", NNT_PLOT_LINE);
    nnt_plot_add(p, N, x, yg, "g", NNT_PLOT_LINE);
    st = nnt_plot_save(p, co.out, "separation");
    nnt_plot_free(p), nnt_mlp_free(&d), free(x), free(yd), free(yg);
  }
  char tp[1024];
  if (!st && isfinite(mse)) st = nnt_mlp_save(&g, nnt_path(tp, sizeof tp, co.out, "trained_net.json"));
  nnt_mlp_free(&g);
  if (!st) st = nnt_runinfo_write(co.out, "approx separation", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
  if (!st && (r.l1 < r.lb || (thm44 && r.l1 < 1.0 / 32) || l2_sq < 1 / (5760 * pow((double)Psq, 4)))) st = nnt_fail(NNT_ECHECK, "the proven lower bound is violated");
  return st;
}

/* ------------------------------------------------------------------ ntk */

typedef struct {
  list_arg w;
  int pairs, d, pad;
} ntk_args;

static int opt_ntk(int c, const char *arg, void *ctx) {
  ntk_args *a = ctx;
  if (c == 'w') return cli_parse_int_list("--widths", arg, 1, 10000000, a->w.vals, 64, &a->w.n);
  if (c == 'p') return cli_parse_int("--pairs", arg, 1, 10000, &a->pairs);
  if (c == 'd') return cli_parse_int("--d", arg, 2, 1000, &a->d);
  if (c == 'P') {
    a->pad = 1;
    return NNT_OK;
  }
  return nnt_fail(NNT_EINVAL, "unknown option");
}


/* P15: 12 circle points, target sin 3 theta; kernel ridge with k_inf with and without padding */
/* Eigenvalues of a symmetric n x n matrix (cyclic Jacobi; A is overwritten). */
static void sym_eigenvalues(double *A, int n, double *ev) {
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) off += A[p * n + q] * A[p * n + q];
    if (off < 1e-30) break;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) {
        if (fabs(A[p * n + q]) < 1e-300) continue;
        double th = (A[q * n + q] - A[p * n + p]) / (2 * A[p * n + q]);
        double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), sn = t * c;
        for (int k = 0; k < n; k++) { /* rotate columns p, q then rows p, q */
          double akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - sn * akq, A[k * n + q] = sn * akp + c * akq;
        }
        for (int k = 0; k < n; k++) {
          double apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - sn * aqk, A[q * n + k] = sn * apk + c * aqk;
        }
      }
  }
  for (int i = 0; i < n; i++) ev[i] = A[i * n + i];
}

/* gram[2][144]: the k_inf Gram matrices without and with padding */
static void padding_demo(double *res_plain, double *res_pad, double gram[2][144]) {
  enum { N = 12 };
  for (int pad = 0; pad < 2; pad++) {
    double X[N][3], K[N][N], y[N], al[N];
    for (int i = 0; i < N; i++) {
      double th = 2 * M_PI * i / N;
      X[i][0] = cos(th), X[i][1] = sin(th), X[i][2] = 1;
      if (pad)
        for (int q = 0; q < 3; q++) X[i][q] /= sqrt(2);
      y[i] = sin(3 * th);
    }
    int d = pad ? 3 : 2;
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) K[i][j] = nnt_approx_ntk_kinf(X[i], X[j], d) + (i == j ? 1e-10 : 0);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) gram[pad][i * N + j] = K[i][j] - (i == j ? 1e-10 : 0);
    /* Cholesky solve (K + lambda I) alpha = y */
    double Lc[N][N] = {{0}};
    for (int i = 0; i < N; i++)
      for (int j = 0; j <= i; j++) {
        double s = K[i][j];
        for (int k = 0; k < j; k++) s -= Lc[i][k] * Lc[j][k];
        Lc[i][j] = i == j ? sqrt(s) : s / Lc[j][j];
      }
    double z[N];
    for (int i = 0; i < N; i++) {
      double s = y[i];
      for (int k = 0; k < i; k++) s -= Lc[i][k] * z[k];
      z[i] = s / Lc[i][i];
    }
    for (int i = N - 1; i >= 0; i--) {
      double s = z[i];
      for (int k = i + 1; k < N; k++) s -= Lc[k][i] * al[k];
      al[i] = s / Lc[i][i];
    }
    double res = 0;
    for (int i = 0; i < N; i++) {
      double f = 0;
      for (int j = 0; j < N; j++) f += (K[i][j] - (i == j ? 1e-10 : 0)) * al[j];
      res += (f - y[i]) * (f - y[i]) / N;
    }
    *(pad ? res_pad : res_plain) = res;
  }
}

static int run_ntk(const char *dir, const long *ms, int nm, int pairs, int d, int pad, uint64_t seed, FILE *md) {
  nnt_rng rg;
  nnt_rng_init(&rg, seed, 316);
  double err[64];
  double slope = nnt_approx_ntk_slope(&rg, ms, nm, d, pairs, pad, err);
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "ntk.csv", "m,mean_abs_km_minus_kinf,sqrt_m_times_err");
  if (st) return st;
  say(md != NULL, "Empirical inner-layer NTK vs k_inf = <x,x'>(pi - arccos<x,x'>)/(2pi) (Prop 3.23), d = %d, %d pairs%s\n", d,
         pairs, pad ? ", padded inputs (u,1)/sqrt2" : "");
  say(md != NULL, "%10s %16s %14s\n", "m", "mean|k_m-k_inf|", "sqrt(m)*err");
  if (md) fprintf(md, "| m | mean \\|k_m − k∞\\| | √m · err |\n|---|---|---|\n");
  double x[64], yl[64], yr[64];
  for (int q = 0; q < nm; q++) {
    say(md != NULL, "%10ld %16.4e %14.4f\n", ms[q], err[q], err[q] * sqrt((double)ms[q]));
    nnt_csv_row(&csv, "%ld,%.6e,%.6f", ms[q], err[q], err[q] * sqrt((double)ms[q]));
    if (md) fprintf(md, "| %ld | %.3e | %.3f |\n", ms[q], err[q], err[q] * sqrt((double)ms[q]));
    x[q] = (double)ms[q], yl[q] = err[q], yr[q] = err[0] * sqrt((double)ms[0] / ms[q]);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  say(md != NULL, "fitted log-log slope %.3f (claim: -1/2; accepted range [-0.6, -0.4])\n", slope);
  double rp = 0, rq = 0, gram[2][144], ev[2][12];
  int nzero[2] = {0, 0};
  padding_demo(&rp, &rq, gram);
  for (int pad = 0; pad < 2; pad++) {
    double A[144], lmax = 0;
    memcpy(A, gram[pad], sizeof A);
    sym_eigenvalues(A, 12, ev[pad]);
    for (int i = 0; i < 12; i++) lmax = fmax(lmax, ev[pad][i]);
    for (int i = 0; i < 12; i++) nzero[pad] += ev[pad][i] < 1e-12 * lmax;
    char base[32];
    snprintf(base, sizeof base, "gram_%s", pad ? "padded" : "plain");
    if ((st = nnt_heatmap_save(gram[pad], 12, 12, pad ? "k_inf Gram, 12 circle points, padded (x,1)/sqrt2" : "k_inf Gram, 12 circle points, no padding",
                               "j", "i", dir, base)))
      return st;
  }
  say(md != NULL, "Gram matrices (k_inf, 12 circle points): %d of 12 eigenvalues vanish without padding, %d with padding "
         "(gram_plain/gram_padded.png)\n", nzero[0], nzero[1]);
  say(md != NULL, "padding (Remark 3.24/P15): kernel ridge on 12 circle points, target sin 3theta: train MSE %.3f without "
         "padding (odd frequencies >= 3 missing), %.1e with x -> (x,1)/sqrt2\n", rp, rq);
  if (md) fprintf(md, "\nFitted slope %.3f (claim −½). Padding: kernel ridge on 12 circle points with target sin 3θ leaves "
                  "train MSE %.3f without padding and %.1e with it.\n", slope, rp, rq);
  nnt_plot *p = nnt_plot_new("NTK: |k_m - k_inf| vs width m", "m", "mean |k_m - k_inf|");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, nm, x, yl, "measured", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, nm, x, yr, "1/sqrt(m) reference", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, dir, "ntk_convergence");
  nnt_plot_free(p);
  if (!st && nm >= 3 && (slope < -0.6 || slope > -0.4)) st = nnt_fail(NNT_ECHECK, "NTK slope %.3f outside [-0.6, -0.4]", slope);
  return st;
}

static int demo_ntk(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-ntk");
  ntk_args a = {{{10, 100, 1000, 10000, 100000, 1000000}, 6}, 40, 5, 0};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"widths", required_argument, 0, 'w'}, {"pairs", required_argument, 0, 'p'},
                                       {"d", required_argument, 0, 'd'}, {"pad", no_argument, 0, 'P'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_ntk, &a);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  if ((st = run_ntk(co.out, a.w.vals, a.w.n, a.pairs, a.d, a.pad, co.seed, NULL))) return st;
  return nnt_runinfo_write(co.out, "approx ntk", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
}

/* ------------------------------------------------------------------ maurey */

static int opt_trials(int c, const char *arg, void *ctx) {
  if (c == 't') return cli_parse_int("--trials", arg, 2, 100000, ctx);
  return nnt_fail(NNT_EINVAL, "unknown option");
}

static int demo_maurey(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-maurey");
  int trials = 200;
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"trials", required_argument, 0, 't'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_trials, &trials);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  static const int ks[5] = {10, 100, 1000, 10000, 100000};
  int nk = co.quick ? 4 : 5;
  double x[5], meas[5], exact[5], bound[5], zmax = 0;
  double *b = malloc(sizeof(double) * 100000), *a = malloc(sizeof(double) * 100000);
  nnt_csv csv;
  if ((st = nnt_csv_open(&csv, co.out, "maurey.csv", "k,trials,mean_sq_err,stderr,exact_7.5/k,bound_16/k"))) return free(a), free(b), st;
  printf("Maurey sampling of sin(2 pi x) = int 1[x >= b] g'(b) db (Prop 2.8, Lemma 2.16), P = U[0,1]\n");
  printf("%8s %14s %12s %14s %12s\n", "k", "E||.||^2", "stderr", "exact 7.5/k", "bound 16/k");
  for (int q = 0; q < nk; q++) {
    nnt_rng rg;
    double s = 0, s2 = 0;
    for (int t = 0; t < trials; t++) {
      nnt_rng_init(&rg, co.seed, (uint64_t)q * 1000003 + t);
      nnt_approx_sample_sin_thresholds(&rg, ks[q], b, a);
      double e = nnt_approx_sin_threshold_l2sq(ks[q], b, a);
      s += e, s2 += e * e;
    }
    double mean = s / trials, se = sqrt(fmax(0, s2 / trials - mean * mean) / trials);
    x[q] = ks[q], meas[q] = mean, exact[q] = 7.5 / ks[q], bound[q] = 16.0 / ks[q];
    zmax = fmax(zmax, fabs(mean - exact[q]) / se);
    printf("%8d %14.4e %12.2e %14.4e %12.4e\n", ks[q], mean, se, exact[q], bound[q]);
    nnt_csv_row(&csv, "%d,%d,%.6e,%.3e,%.6e,%.6e", ks[q], trials, mean, se, exact[q], bound[q]);
  }
  free(a), free(b);
  printf("largest |measured - exact| / stderr = %.2f (the identity is exact; expect <= 3-4)\n", zmax);
  if ((st = nnt_csv_close(&csv))) return st;
  /* Thm 2.12 + Lemma 2.17: exp(-pi |x|^2) - 1 on the unit disk from the exact Barron sampler */
  double M = nnt_approx_barron_gauss_mass(2), gx[4], gy[4], gb[4];
  int gk[4] = {10, 100, 1000, 10000}, ng = co.quick ? 3 : 4, gt = co.quick ? 5 : 20, ne = 400;
  printf("\nBarron/Fourier threshold net for exp(-pi|x|^2), d = 2 (Thm 2.12, exact sampler), P = U(unit disk)\n"
         "|mu|_1 = %.5f (quadrature) <= 2 pi = %.5f\n%8s %14s %14s\n", M, 2 * M_PI, "k", "E||.||^2", "bound M^2/k");
  double *E = malloc(sizeof(double) * 2 * ne), *W = malloc(sizeof(double) * 2 * 10000), *bb = malloc(sizeof(double) * 10000),
         *sg = malloc(sizeof(double) * 10000);
  nnt_rng er;
  nnt_rng_init(&er, co.seed, 2120);
  for (int e = 0; e < ne; e++) {
    double rad = sqrt(nnt_rng_uniform(&er)), th = 2 * M_PI * nnt_rng_uniform(&er);
    E[2 * e] = rad * cos(th), E[2 * e + 1] = rad * sin(th);
  }
  if ((st = nnt_csv_open(&csv, co.out, "maurey_gauss.csv", "k,trials,mean_sq_err,bound_M2_over_k"))) goto gauss_done;
  for (int q = 0; q < ng; q++) {
    double acc = 0;
    for (int t = 0; t < gt; t++) {
      nnt_rng_init(&er, co.seed, 2121 + (uint64_t)q * 1000 + t);
      double e2 = nnt_approx_barron_gauss_sample_mse(&er, gk[q], M, ne, E, W, bb, sg);
      acc += e2 / gt;
    }
    gx[q] = gk[q], gy[q] = acc, gb[q] = M * M / gk[q];
    printf("%8d %14.4e %14.4e\n", gk[q], acc, gb[q]);
    nnt_csv_row(&csv, "%d,%d,%.6e,%.6e", gk[q], gt, acc, gb[q]);
    if (acc > gb[q]) zmax = INFINITY;
  }
  st = nnt_csv_close(&csv);
gauss_done:
  free(E), free(W), free(bb), free(sg);
  if (st) return st;
  nnt_plot *p = nnt_plot_new("Maurey sampling: error vs number of units k", "k (units)", "E ||f_k - g||^2");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, nk, x, meas, "sin 2 pi x measured", NNT_PLOT_POINTS | NNT_PLOT_LINE);
  nnt_plot_add(p, nk, x, exact, "sin: exact (E|V|^2 - |X|^2)/k", NNT_PLOT_LINE);
  nnt_plot_add(p, nk, x, bound, "sin: bound |mu|_1^2/k", NNT_PLOT_DASHED);
  nnt_plot_add(p, ng, gx, gy, "Gaussian d=2 (Barron sampler) measured", NNT_PLOT_POINTS | NNT_PLOT_LINE);
  nnt_plot_add(p, ng, gx, gb, "Gaussian bound |mu|_1^2/k", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, co.out, "maurey");
  nnt_plot_free(p);
  if (!st) st = nnt_runinfo_write(co.out, "approx maurey", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
  if (!st && zmax > 5) st = nnt_fail(NNT_ECHECK, "Maurey identity or bound violated (z = %.1f)", zmax);
  return st;
}

/* ------------------------------------------------------------------ planting */

static int opt_tau(int c, const char *arg, void *ctx) {
  if (c == 'T') return cli_parse_double("--tau", arg, 0.02, 0.4, ctx);
  return nnt_fail(NNT_EINVAL, "unknown option");
}

static int demo_planting(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-planting");
  double tau = 0.1;
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"tau", required_argument, 0, 'T'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_tau, &tau);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  double beta[6], alpha[3] = {1, -0.6, 0.5};
  for (int i = 0; i < 3; i++) beta[2 * i] = cos(2 * M_PI * i / 3), beta[2 * i + 1] = sin(2 * M_PI * i / 3);
  enum { NE = 181 };
  double Xe[2 * NE], Fe[NE], F0e[NE], th[NE], ratio[NE], gv[NE], noise[NE];
  for (int e = 0; e < NE; e++) th[e] = 2 * M_PI * e / (NE - 1), Xe[2 * e] = 0.8 * cos(th[e]), Xe[2 * e + 1] = 0.8 * sin(th[e]);
  nnt_rng rg;
  nnt_rng_init(&rg, co.seed, 310);
  nnt_approx_plant_result r;
  nnt_approx_plant(&rg, 3, beta, alpha, tau, 0.1, co.quick ? 50 : 300, &r, NE, Xe, Fe, F0e);
  printf("Thm 3.10 planting, d = 2, tau = %g, delta = 0.1: m = %ld, |U_i| = %ld, min |S_i| = %ld\n", tau, r.m, r.usz, r.min_S);
  printf("%-28s %14s %14s %14s\n", "quantity", "proof", "statement", "measured");
  printf("%-28s %14.1f %14.1f %14.1f\n", "scale of planted g", r.c0, r.scale_statement, r.scale_fit);
  printf("%-28s %14.2f %14.2f %14.2f\n", "||V - V0||_F", r.fro_proof, r.fro_statement, r.fro);
  printf("%-28s %14.3f %14s %14.3f\n", "max_j ||v_j - v0_j||", r.rowmax_proof, "-", r.rowmax);
  printf("max |F - F0| / (1+|F|) = %.1e (claim: F(x;V) = F0(x;V) exactly; the draft's 'F0(x;V0)' is a typo)\n", r.max_F_F0_rel);
  printf("max |F - c0 g| = %.1f vs max |F(x;w0)| = %.1f; allowed |F(x;w0)| + sqrt(m)|alpha|_1 (excess %.1f <= 0)\n",
         r.max_dev, r.max_noise, r.max_excess);
  nnt_csv csv;
  if ((st = nnt_csv_open(&csv, co.out, "planting.csv", "theta,F_over_c0,g,F_w0_over_c0"))) return st;
  for (int e = 0; e < NE; e++) {
    double x0 = Xe[2 * e], x1 = Xe[2 * e + 1];
    gv[e] = 0;
    for (int i = 0; i < 3; i++) gv[e] += alpha[i] * fmax(0, beta[2 * i] * x0 + beta[2 * i + 1] * x1);
    ratio[e] = Fe[e] / r.c0, noise[e] = F0e[e] / r.c0;
    nnt_csv_row(&csv, "%.6f,%.6e,%.6e,%.6e", th[e], ratio[e], gv[e], noise[e]);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Thm 3.10: F(x;V)/c0 vs planted g on |x| = 0.8", "theta", "value");
  nnt_plot_add(p, NE, th, gv, "g(x)", NNT_PLOT_LINE);
  nnt_plot_add(p, NE, th, ratio, "F(x;V)/c0", NNT_PLOT_LINE);
  nnt_plot_add(p, NE, th, noise, "F(x;w0)/c0 (init noise)", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, co.out, "planting");
  nnt_plot_free(p);
  if (!st) st = nnt_runinfo_write(co.out, "approx planting", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
  if (!st && (r.max_F_F0_rel > 1e-9 || r.max_excess > 0 || r.min_S < r.usz))
    st = nnt_fail(NNT_ECHECK, "a planting guarantee of the proof is violated");
  return st;
}

/* ------------------------------------------------------------------ sobolev */

typedef struct {
  int d, k;
} sob_args;

static int opt_sob(int c, const char *arg, void *ctx) {
  sob_args *a = ctx;
  if (c == 'd') return cli_parse_int("--d", arg, 1, 2, &a->d);
  if (c == 'k') return cli_parse_int("--k", arg, 1, 20, &a->k);
  return nnt_fail(NNT_EINVAL, "unknown option");
}

static int demo_sobolev(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-sobolev");
  sob_args a = {2, 10};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"d", required_argument, 0, 'd'}, {"k", required_argument, 0, 'k'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_sob, &a);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  static const int ss[4] = {2, 4, 8, 16};
  int ns = co.quick ? 2 : (a.d == 1 ? 4 : 3);
  nnt_csv csv;
  if ((st = nnt_csv_open(&csv, co.out, "sobolev.csv", "d,r,s,k,grid_points,relus,params,hidden_layers,sup_err,bound"))) return st;
  printf("Sobolev approximator (Thm '5.4', corrected): g = (2 + sin 2x1 cos 3x2)/4 on [0,1]^%d, k = %d\n", a.d, a.k);
  printf("%2s %3s %6s %9s %10s %7s %12s %12s\n", "r", "s", "points", "ReLUs", "params", "layers", "sup|f-g|", "bound");
  double xs[2][4], ys[2][4], bs[2][4];
  int bad = 0;
  for (int ri = 0; ri < 2; ri++)
    for (int q = 0; q < ns; q++) {
      nnt_rng rg;
      nnt_rng_init(&rg, co.seed, 500 + ri * 10 + q);
      nnt_approx_sobolev_report rep;
      int r = 2 + ri;
      nnt_approx_sobolev_measure(a.d, r, ss[q], a.k, co.quick ? 500 : 2000, &rg, &rep);
      printf("%2d %3d %6d %9ld %10ld %7d %12.3e %12.3e\n", r, ss[q], rep.nv, rep.stats.hidden_units, rep.stats.params,
             rep.stats.layers - 1, rep.sup, rep.bound);
      nnt_csv_row(&csv, "%d,%d,%d,%d,%d,%ld,%ld,%d,%.6e,%.6e", a.d, r, ss[q], a.k, rep.nv, rep.stats.hidden_units,
                  rep.stats.params, rep.stats.layers - 1, rep.sup, rep.bound);
      xs[ri][q] = ss[q], ys[ri][q] = rep.sup, bs[ri][q] = rep.bound;
      bad += rep.sup > rep.bound;
    }
  if ((st = nnt_csv_close(&csv))) return st;
  printf("the draft's bound (degree-r Taylor, unclipped products) is not used: see docs/approx.md\n");
  nnt_plot *p = nnt_plot_new("Sobolev approximator: sup error vs grid s", "s", "sup |f - g|");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, ns, xs[0], ys[0], "r=2 (affine Taylor) measured", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, ns, xs[0], bs[0], "r=2 bound", NNT_PLOT_DASHED);
  nnt_plot_add(p, ns, xs[1], ys[1], "r=3 (quadratic Taylor) measured", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, ns, xs[1], bs[1], "r=3 bound", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, co.out, "sobolev");
  nnt_plot_free(p);
  if (!st) st = nnt_runinfo_write(co.out, "approx sobolev", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
  if (!st && bad) st = nnt_fail(NNT_ECHECK, "%d configuration(s) exceed the proven bound", bad);
  return st;
}

/* ------------------------------------------------------------------ lazy training [ext] */

static int opt_widths(int c, const char *arg, void *ctx) {
  if (c == 'w') {
    list_arg *l = ctx;
    return cli_parse_int_list("--widths", arg, 2, 1000000, l->vals, 64, &l->n);
  }
  return nnt_fail(NNT_EINVAL, "unknown option");
}

static int demo_lazy(int argc, char **argv) {
  cli_common co;
  cli_common_init(&co, "nnt-approx-lazy");
  list_arg l = {{100, 1000, 10000, 100000}, 4};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"widths", required_argument, 0, 'w'}, {0, 0, 0, 0}};
  int st = parse(argc, argv, &co, opts, opt_widths, &l);
  if (st || co.help) return co.help ? (fputs(help, stdout), NNT_OK) : st;
  if (co.quick && l.n == 4) l.n = 2;
  if ((st = cli_begin(&co))) return st;
  double t0 = nnt_now();
  printf("[beyond the book: ch. 5 of the draft is empty] lazy training: GD on the inner layer of\n"
         "(1/sqrt m) sum_j a_j relu(v_j.x), symmetric init, 12 padded circle points, target cos t + sin(2t)/2,\n"
         "500 steps of GD vs the linearised model (init NTK) trained by the same steps\n");
  printf("%8s %10s %12s %8s %14s %11s\n", "m", "||V-V0||_F", "max row move", "flips", "max|f_GD-f_lin|", "train MSE");
  nnt_csv csv;
  if ((st = nnt_csv_open(&csv, co.out, "lazy.csv", "m,steps,eta,fro,max_row,flip_fraction,max_gap,train_mse"))) return st;
  double x[64], gap[64], row_[64], ref[64];
  for (int q = 0; q < l.n; q++) {
    nnt_rng rg;
    nnt_rng_init(&rg, co.seed, 3100 + q);
    nnt_approx_lazy_result L;
    nnt_approx_lazy_train(&rg, l.vals[q], 500, &L);
    printf("%8ld %10.3f %12.4f %7.2f%% %14.4e %11.2e\n", L.m, L.fro, L.rowmax, 100 * L.flips, L.gap, L.train_mse);
    nnt_csv_row(&csv, "%ld,%d,%.4f,%.6f,%.6f,%.6f,%.6e,%.3e", L.m, L.steps, L.eta, L.fro, L.rowmax, L.flips, L.gap, L.train_mse);
    x[q] = (double)L.m, gap[q] = L.gap, row_[q] = L.rowmax, ref[q] = row_[0] * sqrt(x[0] / x[q]);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("Lazy training [ext]: movement and gap to the NTK model", "m", "value");
  nnt_plot_log(p, 1, 1);
  nnt_plot_add(p, l.n, x, row_, "max_j ||v_j - v0_j||", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, l.n, x, gap, "max |f_GD - f_lin|", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, l.n, x, ref, "1/sqrt(m) reference", NNT_PLOT_DASHED);
  st = nnt_plot_save(p, co.out, "lazy");
  nnt_plot_free(p);
  if (!st) st = nnt_runinfo_write(co.out, "approx lazy", cJSON_CreateObject(), co.seed, co.threads, nnt_now() - t0);
  return st;
}

/* ------------------------------------------------------------------ dispatch and tour */

typedef struct {
  const char *name;
  int (*run)(int, char **);
} demo;
static const demo demos[] = {{"check", demo_check},       {"square", demo_square}, {"triangle", demo_triangle},
                             {"separation", demo_separation}, {"ntk", demo_ntk},   {"maurey", demo_maurey},
                             {"planting", demo_planting}, {"sobolev", demo_sobolev}, {"lazy", demo_lazy}};

int cmd_approx(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    if (argc < 2) return nnt_fail(NNT_EINVAL, "missing demo (nnt approx --help lists them)");
    fputs(help, stdout);
    return NNT_OK;
  }
  for (size_t i = 0; i < sizeof demos / sizeof demos[0]; i++)
    if (!strcmp(argv[1], demos[i].name)) return demos[i].run(argc - 1, argv + 1);
  return nnt_fail(NNT_EINVAL, "unknown demo '%s' (nnt approx --help lists them)", argv[1]);
}

int tour_approx(cli_tour *t) {
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "approx");
  cli_tour_printf(t, "## Approximation (seed 004: Telgarsky, Deep learning theory, ch. 2-4)\n\n"
                     "Every construction is a real nnt_mlp network; the exact piecewise-linear engine sweeps 1-D ReLU nets "
                     "(pieces, exact integrals, sup). Figure 4.1 (x² and Yarotsky's h_i) and Figure 4.2 (h_{i+1} − h_i):\n\n");
  static const long is[7] = {0, 1, 2, 3, 4, 5, 6};
  int st = run_square(dir, is, 7, t->report);
  if (st) return st;
  cli_tour_printf(t, "\n![Figure 4.1](approx/fig4_1_square.png)\n![Figure 4.2](approx/fig4_2_differences.png)\n\n"
                     "Δ^L by the exact sweep (2^L pieces on [0,1], 2^L + 2 on ℝ):\n\n");
  static const long Ls[5] = {1, 4, 8, 16, 20};
  if ((st = cli_tour_checked(t, run_triangle(dir, Ls, 5, t->report)))) return st;
  cli_tour_printf(t, "\n![Delta powers](approx/delta_powers.png)\n\nNTK convergence:\n\n");
  static const long ms[5] = {10, 100, 1000, 10000, 100000};
  if ((st = cli_tour_checked(t, run_ntk(dir, ms, 5, 40, 5, 0, t->seed, t->report)))) return st;
  cli_tour_printf(t, "\n![NTK](approx/ntk_convergence.png)\n\n### Checkable statements (`nnt approx check --quick`)\n\n"
                     "PASS means the proven statement (in its corrected form) holds as measured; rows marked erratum "
                     "also measure the draft's wrong form.\n\n");
  nnt_approx_check_table tab;
  int fails = nnt_approx_check(1, t->seed, &tab);
  print_check(t->report, &tab, 1);
  cli_tour_checks(t, tab.n - fails, fails);
  cli_tour_printf(t, "\n%d statements, %d FAIL.\n", tab.n, fails);
  st = write_check_csv(dir, &tab);
  nnt_approx_check_table_free(&tab);
  return st;
}
