/* nnt approx — constructive approximation, near-initialisation/NTK and depth separation (seed 004,
 * Telgarsky's "Deep learning theory" ch. 2-4). Every demo prints claimed vs measured numbers.
 * The demos' runs and presets live in the approx library (nnt_approx.h), their writers in
 * src/report/report_approx.c; here each demo is a descriptor (option table and the area's
 * functions) that cli_drive runs. */
#include "commands.h"
#include "nnt_approx.h"
#include "nnt_io.h"
#include "nnt_progress.h"
#include "report_approx.h"

/* ------------------------------------------------------------------ options, one table per demo */

static const cli_opt no_opts[] = {{0}};
static const cli_opt square_opts[] = {
    CLI_INTS("i", nnt_approx_square_cfg, i, ni, 0, NNT_APPROX_SQUARE_MAX_I, "depths i of h_i"),
    CLI_STR("export", nnt_approx_square_cfg, export_path, "also write the net h_i of the last i to FILE.safetensors or FILE.onnx (python/nnt loads the former, docs/export.md)"),
    {0}};
static const cli_opt triangle_opts[] = {
    CLI_INTS("L", nnt_approx_triangle_cfg, L, nL, 1, NNT_APPROX_TRIANGLE_MAX_L, "depths L of Delta^L"),
    CLI_STR("export", nnt_approx_triangle_cfg, export_path, "also write the net Delta^L of the last L to FILE.safetensors or FILE.onnx (python/nnt loads the former, docs/export.md)"),
    {0}};
static const cli_opt separation_opts[] = {
    CLI_INT("n", nnt_approx_separation_cfg, n, 1, NNT_APPROX_SEP_MAX_N, "the target is Delta^N (required, no default; --quick alone: 6 with --train 8,8)"),
    CLI_STR("net", nnt_approx_separation_cfg, net, "a 1-D network g (nnt-mlp JSON file), or"),
    CLI_INTS("train", nnt_approx_separation_cfg, train, ntrain, 1, 4096, "hidden widths W1,W2,.. of a g trained by Adam"),
    CLI_INT("steps", nnt_approx_separation_cfg, steps, 0, 1000000, "Adam steps"),
    CLI_INT("samples", nnt_approx_separation_cfg, samples, 1, 1000000, "uniform training points (full batch)"),
    CLI_DOUBLE("lr", nnt_approx_separation_cfg, lr, 1e-9, 10, "Adam learning rate"),
    CLI_STR("export", nnt_approx_separation_cfg, export_path, "also write the network g (loaded or trained) to FILE.safetensors or FILE.onnx (python/nnt loads the former, docs/export.md)"),
    {0}};
static const cli_opt ntk_opts[] = {
    CLI_INTS("widths", nnt_approx_ntk_cfg, widths, nw, 1, 10000000, "widths m"),
    CLI_INT("pairs", nnt_approx_ntk_cfg, pairs, 1, 10000, "random input pairs"),
    CLI_INT("d", nnt_approx_ntk_cfg, d, 2, 1000, "input dimension"),
    CLI_FLAG("pad", nnt_approx_ntk_cfg, pad, "padded inputs (u,1)/sqrt2 (Remark 3.24)"), {0}};
static const cli_opt maurey_opts[] = {
    CLI_INT("trials", nnt_approx_maurey_cfg, trials, 2, 100000, "draws per width for sin 2 pi x"), {0}};
static const cli_opt planting_opts[] = {
    CLI_DOUBLE("tau", nnt_approx_planting_cfg, tau, 0.02, 0.4, "margin tau of Thm 3.10"), {0}};
static const cli_opt sobolev_opts[] = {
    CLI_INT("d", nnt_approx_sobolev_cfg, d, 1, 2, "input dimension"),
    CLI_INT("k", nnt_approx_sobolev_cfg, k, 1, 20, "depth k of the products (error 4^-k each)"), {0}};
static const cli_opt lazy_opts[] = {
    CLI_INTS("widths", nnt_approx_lazy_cfg, widths, nw, 2, 1000000, "widths m"), {0}};

/* ------------------------------------------------------------------ the demos as descriptors */

/* Each demo: cfg_default, validate (the seed, then the area's config check, the run's first step),
 * run, report (console; CSV and plots into --out when given) and result_free, from the area's
 * names nnt_approx_<demo>_*. */
#define UNSEEDED(demo)                                                                           \
  static int demo##_validate(void *cfg, const cli_run *r) { return (void)r, nnt_approx_##demo##_check(cfg); }
#define SEEDED(demo)                                                                             \
  static int demo##_validate(void *cfg, const cli_run *r) {                                      \
    ((nnt_approx_##demo##_cfg *)cfg)->seed = r->seed;                                            \
    return nnt_approx_##demo##_check(cfg);                                                       \
  }
#define DEMO(demo, report_call)                                                                  \
  static void demo##_default(void *cfg, nnt_preset p) { nnt_approx_##demo##_cfg_default(cfg, p); } \
  static int demo##_run(void *cfg, const cli_run *r, void *res) {                               \
    return (void)r, nnt_approx_##demo##_run(cfg, res);                                          \
  }                                                                                              \
  static int demo##_report(const void *cfg_, const void *res, const cli_run *r) {               \
    const nnt_approx_##demo##_cfg *cfg = cfg_;                                                   \
    (void)cfg;                                                                                   \
    return report_call;                                                                          \
  }                                                                                              \
  static void demo##_free(void *res) { nnt_approx_##demo##_result_free(res); }
#define CMD(demo, about_, opts_, example_)                                                       \
  static const cli_cmd demo##_cmd = {.name = "approx " #demo, .about = about_, .opts = opts_,   \
      .cfg_size = sizeof(nnt_approx_##demo##_cfg), .res_size = sizeof(nnt_approx_##demo##_result), \
      .cfg_default = demo##_default, .validate = demo##_validate, .run = demo##_run,             \
      .report = demo##_report, .result_free = demo##_free, .common = CLI_OUT, .example = example_}; \
  static int demo_##demo(int argc, char **argv) { return cli_drive(&demo##_cmd, argc, argv); }

/* The demos whose networks --export writes: provenance into the config before its check; the file
 * after the report (also when a bound is violated: the net is what the run measured). */
static char command_line[4096];
#define EXPORTS(demo, set_seed)                                                                  \
  static int demo##_validate(void *cfg_, const cli_run *r) {                                     \
    nnt_approx_##demo##_cfg *cfg = cfg_;                                                         \
    if (set_seed) separation_quick(cfg_, r);                                                     \
    cfg->version = nnt_version(), cfg->command = cli_command_line(command_line, sizeof command_line, "nnt approx", r->argc, r->argv); \
    return nnt_approx_##demo##_check(cfg);                                                       \
  }
/* separation: the seed; --quick alone (no --n, --net or --train) runs the first example's
 * settings with a trained g: Delta^6 against --train 8,8 */
static void separation_quick(nnt_approx_separation_cfg *c, const cli_run *r) {
  c->seed = r->seed;
  if (r->quick && !c->n && !c->net && !c->ntrain) c->n = 6, c->ntrain = 2, c->train[0] = c->train[1] = 8;
}
static int exported(int st, int est, const char *path) {
  if (est) return est;
  if (path) printf("wrote %s (%s)\n", path, nnt_export_format(path) == 2 ? "ONNX" : "safetensors");
  return st;
}

static int check_validate(void *cfg, const cli_run *r) {
  ((nnt_approx_check_cfg *)cfg)->seed = r->seed;
  return NNT_OK; /* no options to check beyond the parser's */
}
static int check_summary(const nnt_approx_check_cfg *cfg, const nnt_approx_check_result *res, const cli_run *r) {
  int st = nnt_report_approx_check(r->out, res, stdout, NULL);
  printf("\n%d statements, %d PASS, %d FAIL (%s, %.1f s)\n", res->n, res->n - res->fails, res->fails,
         cfg->quick ? "quick" : "full", r->seconds);
  return st;
}
EXPORTS(square, 0)
EXPORTS(triangle, 0)
EXPORTS(separation, 1)
SEEDED(ntk)
SEEDED(maurey)
SEEDED(planting)
SEEDED(sobolev)
SEEDED(lazy)
DEMO(check, check_summary(cfg, res, r))
static int square_out(const nnt_approx_square_cfg *cfg, const nnt_approx_square_result *res, const cli_run *r) {
  int st = nnt_report_approx_square(r->out, res, stdout, NULL);
  return st && st != NNT_ECHECK ? st : exported(st, nnt_approx_square_export(cfg), cfg->export_path);
}
static int triangle_out(const nnt_approx_triangle_cfg *cfg, const nnt_approx_triangle_result *res, const cli_run *r) {
  int st = nnt_report_approx_triangle(r->out, res, stdout, NULL);
  return st && st != NNT_ECHECK ? st : exported(st, nnt_approx_triangle_export(cfg), cfg->export_path);
}
static int separation_out(const nnt_approx_separation_cfg *cfg, const nnt_approx_separation_result *res, const cli_run *r) {
  int st = nnt_report_approx_separation(r->out, cfg, res, stdout);
  return st && st != NNT_ECHECK ? st : exported(st, nnt_approx_separation_export(cfg, res), cfg->export_path);
}
DEMO(square, square_out(cfg, res, r))
DEMO(triangle, triangle_out(cfg, res, r))
DEMO(separation, separation_out(cfg, res, r))
DEMO(ntk, nnt_report_approx_ntk(r->out, cfg, res, stdout, NULL))
DEMO(maurey, nnt_report_approx_maurey(r->out, res, stdout))
DEMO(planting, nnt_report_approx_planting(r->out, cfg, res, stdout))
DEMO(sobolev, nnt_report_approx_sobolev(r->out, cfg, res, stdout))
DEMO(lazy, nnt_report_approx_lazy(r->out, cfg, res, stdout))

CMD(check, "Every checkable statement (Q1..Q37): claimed vs measured, PASS/FAIL.", no_opts,
        "nnt approx check --quick --out runs/approx-check")
CMD(square, "Yarotsky's h_i: Figures 4.1/4.2 and the exact error table.", square_opts,
        "nnt approx square --i 0..6 --out runs/square")
CMD(triangle, "Delta^L: exact piece counts, sweep time, memory; plot of Delta^1..3.", triangle_opts,
        "nnt approx triangle --L 1,2,4,...,16 --out runs/triangle")
CMD(separation, "Thm 4.4 lower bound lb(n,P) and Thm 4.6 for a 1-D network g, from a file (--net) or trained by Adam\n"
                    "(--train); best uniform PWL fits and the shallow-vs-deep capacity table.", separation_opts,
        "nnt approx separation --n 6 --net examples/nets/delta6.json\n"
        "nnt approx separation --n 6 --train 8,8 --steps 500 --out runs/separation")
CMD(ntk, "|k_m - k_inf| vs m with the 1/sqrt(m) line; padding demo (Gram spectra, kernel ridge).", ntk_opts,
        "nnt approx ntk --widths 10,100,...,100000 --pairs 20 --pad --out runs/ntk")
CMD(maurey, "Maurey sampling: exact identity (E|V|^2-|X|^2)/k vs measured; Barron sampler.", maurey_opts,
        "nnt approx maurey --trials 500 --out runs/maurey")
CMD(planting, "Thm 3.10 planting near initialisation: proof vs statement constants.", planting_opts,
        "nnt approx planting --tau 0.05")
CMD(sobolev, "Sobolev-ball approximator (Taylor x partition of unity): error vs grid.", sobolev_opts,
        "nnt approx sobolev --d 1 --k 12")
CMD(lazy, "[beyond the book] GD on a wide 2-layer net vs its NTK linearisation.", lazy_opts,
        "nnt approx lazy --widths 100,1000,10000 --out runs/lazy")


/* ------------------------------------------------------------------ dispatch and tour */

static const cli_sub demos[] = {
    {"check", demo_check, "every checkable statement (Q1..Q37): claimed vs measured, PASS/FAIL"},
    {"square", demo_square, "Yarotsky's h_i: Figures 4.1/4.2 and the exact error table"},
    {"triangle", demo_triangle, "Delta^L: exact piece counts, sweep time, memory; plot of Delta^1..3"},
    {"separation", demo_separation, "Thm 4.4 lower bound lb(n,P) for a network file or a net trained by Adam"},
    {"ntk", demo_ntk, "|k_m - k_inf| vs m, 1/sqrt(m) line; padding demo"},
    {"maurey", demo_maurey, "Maurey sampling: exact identity (E|V|^2-|X|^2)/k vs measured"},
    {"planting", demo_planting, "Thm 3.10 planting near initialisation: proof vs statement constants"},
    {"sobolev", demo_sobolev, "Sobolev-ball approximator (Taylor x partition of unity): error vs grid"},
    {"lazy", demo_lazy, "[beyond the book] GD on a wide 2-layer net vs its NTK linearisation"}};

int cmd_approx(int argc, char **argv) { return cli_dispatch("approx", demos, sizeof demos / sizeof demos[0], argc, argv); }

int tour_approx(cli_tour *t) {
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "approx");
  cli_tour_printf(t, "## Approximation (seed 004: Telgarsky, Deep learning theory, ch. 2-4)\n\n"
                     "Every construction is a real nnt_mlp network; the exact piecewise-linear engine sweeps 1-D ReLU nets "
                     "(pieces, exact integrals, sup). Figure 4.1 (x² and Yarotsky's h_i) and Figure 4.2 (h_{i+1} − h_i):\n\n");
  nnt_approx_square_cfg sc;
  nnt_approx_square_result sr;
  nnt_approx_square_cfg_default(&sc, NNT_PRESET_QUICK);
  int st = nnt_approx_square_run(&sc, &sr);
  if (st) return st;
  st = nnt_report_approx_square(dir, &sr, NULL, t->report);
  nnt_approx_square_result_free(&sr);
  if (st) return st;
  cli_tour_printf(t, "\n![Figure 4.1](approx/fig4_1_square.png)\n![Figure 4.2](approx/fig4_2_differences.png)\n\n"
                     "Δ^L by the exact sweep (2^L pieces on [0,1], 2^L + 2 on ℝ):\n\n");
  nnt_approx_triangle_cfg tc = {.L = {1, 4, 8, 16, 20}, .nL = 5};
  nnt_approx_triangle_result tr;
  if ((st = nnt_approx_triangle_run(&tc, &tr))) return st;
  st = cli_tour_checked(t, nnt_report_approx_triangle(dir, &tr, NULL, t->report));
  nnt_approx_triangle_result_free(&tr);
  if (st) return st;
  cli_tour_printf(t, "\n![Delta powers](approx/delta_powers.png)\n\nNTK convergence:\n\n");
  nnt_approx_ntk_cfg nc;
  nnt_approx_ntk_result nr;
  nnt_approx_ntk_cfg_default(&nc, NNT_PRESET_QUICK);
  nc.nw = 5, nc.seed = t->seed; /* up to m = 10^5 */
  if ((st = nnt_approx_ntk_run(&nc, &nr))) return st;
  st = cli_tour_checked(t, nnt_report_approx_ntk(dir, &nc, &nr, NULL, t->report));
  nnt_approx_ntk_result_free(&nr);
  if (st) return st;
  cli_tour_printf(t, "\n![NTK](approx/ntk_convergence.png)\n\nThe padding demo's Gram matrices (kernel values between "
                     "the 12 circle points), without and with padding:\n\n"
                     "![Gram matrix, plain](approx/gram_plain.png) ![Gram matrix, padded](approx/gram_padded.png)\n\n"
                     "### Checkable statements (`nnt approx check --quick`)\n\n"
                     "PASS means the proven statement (in its corrected form) holds as measured; rows marked erratum "
                     "also measure the draft's wrong form.\n\n");
  nnt_approx_check_cfg cc;
  nnt_approx_check_result cr;
  nnt_approx_check_cfg_default(&cc, NNT_PRESET_QUICK);
  cc.seed = t->seed;
  if ((st = nnt_approx_check_run(&cc, &cr))) return st;
  st = nnt_report_approx_check(dir, &cr, NULL, t->report);
  cli_tour_checks(t, cr.n - cr.fails, cr.fails);
  cli_tour_printf(t, "\n%d statements, %d FAIL.\n", cr.n, cr.fails);
  cli_tour_outcome(t, "%d of the book's %d checkable statements held as measured, in their corrected form where the "
                   "draft has an erratum.", cr.n - cr.fails, cr.n);
  nnt_approx_check_result_free(&cr);
  return st == NNT_ECHECK ? NNT_OK : st;
}
