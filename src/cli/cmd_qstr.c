/* nnt qstr — q-sparse token retrieval (seed 001): descriptors (cli.h) on the qstr area's runs;
 * src/report/report_qstr.c writes the results. */
#include <string.h>

#include "commands.h"
#include "nnt_qstr.h"
#include "report_qstr.h"

static const char *const task_names[] = {"1str", "simple", NULL};
static const char *const testtask_names[] = {"same", "simple", NULL};
static const char *const enc_names[] = {"code", "paper", NULL};
static const char *const link_names[] = {"linear", "normsq", "relu", NULL};
static const char *const law_names[] = {"uniform", "adversarial", NULL};
static const char *const figure_names[] = {"none", "1a", "1b", NULL};

/* The area's functions as a descriptor's (cli.h); validate and report differ per experiment. */
#define EXPERIMENT(x)                                                                                          \
  static void x##_default(void *c, nnt_preset p) { nnt_qstr_##x##_cfg_default(c, p); }                       \
  static int x##_run(void *c, const cli_run *r, void *res) { return (void)r, nnt_qstr_##x##_run(c, res); }     \
  static int x##_report(const void *c, const void *res, const cli_run *r) { return nnt_report_qstr_##x(r->out, c, res); }
/* --figure 1a|1b is a preset: the panel's protocol becomes the defaults the other options override
 * (so --help and run.json's options show it); run_sweep finds it before the driver parses. */
static int sweep_figure;
static void sweep_default(void *c, nnt_preset p) {
  nnt_qstr_sweep_cfg_default(c, p);
  if (sweep_figure) nnt_qstr_sweep_figure(c, sweep_figure, p);
}
static int sweep_run(void *c, const cli_run *r, void *res) { return (void)r, nnt_qstr_sweep_run(c, res); }
static int sweep_report(const void *c, const void *res, const cli_run *r) { return nnt_report_qstr_sweep(r->out, c, res); }
EXPERIMENT(attention)
EXPERIMENT(heads)
EXPERIMENT(construct)
EXPERIMENT(ffn_bound)
EXPERIMENT(rnn_oracle)
EXPERIMENT(rnn_minnorm)
EXPERIMENT(rnn_width)
static void sweep_free(void *res) { nnt_qstr_sweep_result_free(res); }
static void attention_free(void *res) { nnt_qstr_attention_result_free(res); }
static void rnn_minnorm_free(void *res) { nnt_qstr_rnn_minnorm_result_free(res); }
/* the seed, then the area's checks (sizes against the memory available) */
#define CHECKED(x)                                                                                             \
  static int x##_validate(void *c, const cli_run *r) {                                                         \
    return ((nnt_qstr_##x##_cfg *)c)->seed = r->seed, nnt_qstr_##x##_check(c);                                  \
  }
CHECKED(attention)
CHECKED(construct)
CHECKED(ffn_bound)
CHECKED(rnn_oracle)
CHECKED(rnn_minnorm)
#define DRIVEN(x, ...) .cfg_default = x##_default, .validate = x##_validate, .run = x##_run, .report = x##_report, __VA_ARGS__

/* ---------------------------------------------------------------- sweep */
static int sweep_validate(void *c, const cli_run *r);
#define S nnt_qstr_sweep_cfg
static const cli_opt sweep_opts[] = {
    CLI_CHOICE("model", S, arch, nnt_qstr_arch_names, "model (required, but --quick alone runs tr; rnn is the paper's biGRU)"),
    CLI_CHOICE("task", S, task.simple, task_names, "training law: 1STR or simple-1STR"),
    CLI_INTS("N", S, Ns, nN, 2, 100000, "sequence lengths"),
    CLI_INT("reps", S, reps, 1, 1000, "repetitions per N"),
    CLI_DOUBLE("threshold", S, train.threshold, -1e300, 1e300, "test MSE to reach"),
    CLI_INT("check-every", S, train.check_every, 1, 100000000, "steps between test evaluations"),
    CLI_INT("n-test", S, train.n_test, 1, 10000000, "test prompts"),
    CLI_CHOICE("test-task", S, train.test_simple, testtask_names, "test law: the training one or simple-1STR"),
    CLI_INT("batch", S, train.batch, 1, 100000, "prompts per step"),
    CLI_DOUBLE("lr", S, train.lr, 1e-12, 10, "AdamW learning rate"),
    CLI_DOUBLE("wd", S, train.wd, 0, 10, "AdamW weight decay"),
    CLI_LONG("max-samples", S, train.max_samples, 1, 1000000000000L, "budget of training prompts per run"),
    CLI_INT("d", S, task.d, 1, 4096, "token dimension"),
    CLI_INT("de", S, task.de, 1, 4096, "code dimension (default floor(5 ln N))"),
    CLI_INT("q", S, task.q, 1, 64, "sparsity"),
    CLI_CHOICE("link", S, task.link, link_names, "link function g"),
    CLI_CHOICE("enc", S, task.enc, enc_names, "token encoding"),
    CLI_FLAG("no-duplicate-codes", S, task.no_dup_codes, "redraw the codes until they are distinct"),
    CLI_DOUBLE("noise", S, task.noise, 0, 1e6, "std of Gaussian label noise"),
    CLI_INT("m", S, m, 1, 100000, "tr/trp: MLP width"),
    CLI_INT("heads", S, heads, 1, 64, "trp: heads"),
    CLI_INTS("hidden", S, hidden, n_hidden, 0, 1000000, "ffn: hidden widths, 0 = N*d"),
    CLI_INT("hidden-size", S, hidden_size, 1, 100000, "rnn/relurnn: hidden size per direction"),
    CLI_CHOICE("figure", S, figure, figure_names, "a panel's protocol (options given as well override it)"),
    {0}};
#undef S
static const cli_cmd sweep_cmd = {
    .name = "qstr sweep",
    .example = "nnt qstr sweep --model tr --quick --out runs/tr\n"
               "nnt qstr sweep --model ffn --figure 1a --out runs/fig1a_ffn\n"
               "nnt qstr sweep --model rnn --figure 1b --quick --out runs/fig1b_rnn",
    .about = "Samples needed to reach a test-MSE threshold vs N (Figure 1). Writes samples.csv, summary.csv,\n"
    "samples.png, run.json and results.sqlite (every finished run, so --resume continues a killed sweep).",
    .opts = sweep_opts,
    .cfg_size = sizeof(nnt_qstr_sweep_cfg),
    .res_size = sizeof(nnt_qstr_sweep_result),
    DRIVEN(sweep, .result_free = sweep_free),
    .common = CLI_OUT | CLI_SWEEP};

static int sweep_validate(void *c, const cli_run *r) {
  nnt_qstr_sweep_cfg *s = c;
  if (!r->quick && !cli_given(r->cmd, r->args, "model")) return nnt_fail(NNT_EINVAL, "sweep: --model tr|trp|ffn|rnn|relurnn is required");
  s->seed = r->seed, s->threads = r->threads, s->progress = 1, s->dir = r->out, s->resume = r->resume;
  return nnt_qstr_sweep_check(s);
}
static int run_sweep(int argc, char **argv) {
  sweep_figure = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = !strcmp(argv[i], "--figure") && i + 1 < argc ? argv[i + 1] : !strncmp(argv[i], "--figure=", 9) ? argv[i] + 9 : NULL;
    if (v) sweep_figure = !strcmp(v, "1a") ? 1 : !strcmp(v, "1b") ? 2 : 0;
    else if (!strncmp(argv[i], "--fi", 4) && strcmp(argv[i], "--figure")) /* getopt would take the abbreviation */
      return nnt_fail(NNT_EINVAL, "%s: write it in full, --figure 1a or --figure 1b", argv[i]);
  }
  return cli_drive(&sweep_cmd, argc, argv);
}

/* ---------------------------------------------------------------- plot */
static const cli_opt no_opts[] = {{0}};
/* The sweeps' samples.csv files are read (and checked) in validate, before --out is made. */
typedef struct {
  nnt_report_qstr_curves *curves;
} plot_cfg;
static int plot_validate(void *c, const cli_run *r) {
  if (!r->out) return nnt_fail(NNT_EINVAL, "plot: --out DIR is required");
  return nnt_report_qstr_read(r->npos, r->pos, &((plot_cfg *)c)->curves);
}
static int plot_run(void *c, const cli_run *r, void *res) { return (void)c, (void)r, (void)res, NNT_OK; }
static int plot_report(const void *c, const void *res, const cli_run *r) {
  const nnt_report_qstr_curves *cv = ((const plot_cfg *)c)->curves;
  int st = nnt_report_qstr_plot(r->out, cv);
  if (!st) printf("plot: %d curve(s) -> %s/samples.png\n", nnt_report_qstr_curves_count(cv), r->out), nnt_report_qstr_slopes(cv);
  return (void)res, st;
}
static void plot_cfg_free(void *c) { nnt_report_qstr_curves_free(((plot_cfg *)c)->curves); }
static const cli_cmd plot_cmd = {
    .name = "qstr plot",
    .example = "nnt qstr sweep --model tr --quick --N 4,8 --out runs/tr\n"
               "nnt qstr sweep --model ffn --quick --N 4,8 --out runs/ffn\n"
               "nnt qstr plot runs/tr runs/ffn --out runs/tr-vs-ffn",
    .args = "DIR...",
    .about = "One plot of several sweeps' samples.csv (one colour per model) into --out.",
    .opts = no_opts,
    .cfg_size = sizeof(plot_cfg),
    .validate = plot_validate,
    .run = plot_run,
    .report = plot_report,
    .cfg_free = plot_cfg_free,
    .npos_min = 1,
    .npos_max = 64,
    .common = CLI_OUT};
static int run_plot(int argc, char **argv) { return cli_drive(&plot_cmd, argc, argv); }

/* ---------------------------------------------------------------- attention */
#define A nnt_qstr_attention_cfg
static const cli_opt attention_opts[] = {
    CLI_INT("N", A, N, 2, 100000, "sequence length"),
    CLI_INT("n-train", A, n_train, 1, 10000000, "training prompts (drawn once)"),
    CLI_INT("epochs", A, epochs, 1, 100000, "at most this many epochs"),
    CLI_INT("n-test", A, n_test, 1, 10000000, "test prompts"),
    CLI_CHOICE("task", A, simple, task_names, "training law"),
    CLI_DOUBLE("threshold", A, stop_loss, -1e300, 1e300, "stop once an epoch's mean training loss is below"),
    CLI_INT("batch", A, batch, 1, 100000, "prompts per step"),
    CLI_DOUBLE("lr", A, lr, 1e-12, 10, "AdamW learning rate"),
    CLI_DOUBLE("wd", A, wd, 0, 10, "AdamW weight decay"),
    CLI_INT("m", A, m, 1, 100000, "MLP width"),
    CLI_INT("d", A, task.d, 1, 4096, "token dimension"),
    CLI_INT("de", A, task.de, 1, 4096, "code dimension (default floor(5 ln N))"),
    CLI_FLAG("no-duplicate-codes", A, task.no_dup_codes, "redraw the codes until they are distinct"),
    {0}};
#undef A
static const cli_cmd attention_cmd = {
    .name = "qstr attention",
    .example = "nnt qstr attention --N 100 --out runs/attention",
    .about = "Figure 2: train tr on a fixed set, heatmap of |W_q^T W_k| and how much of it is the\n"
    "eq. (A.2) solution block (against the initial random matrix).",
    .opts = attention_opts,
    .cfg_size = sizeof(nnt_qstr_attention_cfg),
    .res_size = sizeof(nnt_qstr_attention_result),
    DRIVEN(attention, .result_free = attention_free),
    .common = CLI_OUT};

static int run_attention(int argc, char **argv) { return cli_drive(&attention_cmd, argc, argv); }

/* ---------------------------------------------------------------- heads */
static int heads_validate(void *c, const cli_run *r) {
  nnt_qstr_heads_cfg *h = c;
  h->seed = r->seed, h->threads = r->threads, h->dir = r->out, h->resume = r->resume;
  return nnt_qstr_heads_check(h);
}
#define H nnt_qstr_heads_cfg
static const cli_opt heads_opts[] = {
    CLI_INT("q", H, q, 1, 64, "sparsity"),
    CLI_INTS("H", H, Hs, nH, 1, 64, "head counts (default 1..q+1)"),
    CLI_INT("N", H, N, 2, 100000, "sequence length"),
    CLI_INT("d", H, d, 1, 4096, "token dimension"),
    CLI_INT("de", H, de, 1, 4096, "code dimension (default floor(5 ln N))"),
    CLI_LONG("samples", H, samples, 1, 1000000000000L, "training prompts per run"),
    CLI_INT("m", H, m, 1, 100000, "MLP width"),
    CLI_DOUBLE("lr", H, lr, 1e-12, 10, "AdamW learning rate"),
    CLI_DOUBLE("wd", H, wd, 0, 10, "AdamW weight decay"),
    CLI_INT("batch", H, batch, 1, 100000, "prompts per step"),
    CLI_INT("n-test", H, n_test, 1, 10000000, "test prompts"),
    CLI_INT("check-every", H, check_every, 1, 100000000, "steps between test evaluations"),
    CLI_CHOICE("law", H, law, law_names, "index law (adversarial: Prop. 3's, where its bound is proven and checked)"),
    {0}};
#undef H
static const cli_cmd heads_cmd = {
    .name = "qstr heads",
    .example = "nnt qstr heads --q 2 --H 1,2,3 --quick --out runs/heads",
    .about = "Trained error of the H-head merged-QK transformer (trp) on the norm-squared link vs the bounds\n"
    "1 - H(q+d)/(qd) (Prop. 3) and 1 - H/q (Prop. 21, d = 1); the construction's error for H >= q. Under the\n"
    "adversarial law (default) exit 1 when a trained error is below Prop. 3's bound by more than 5 standard errors.",
    .opts = heads_opts,
    .cfg_size = sizeof(nnt_qstr_heads_cfg),
    .res_size = sizeof(nnt_qstr_heads_result),
    DRIVEN(heads, .result_free = NULL),
    .common = CLI_OUT | CLI_SWEEP};

static int run_heads(int argc, char **argv) { return cli_drive(&heads_cmd, argc, argv); }

/* ---------------------------------------------------------------- construct */
#define C nnt_qstr_construct_cfg
static const cli_opt construct_opts[] = {
    CLI_INT("N", C, task.N, 2, 100000, "sequence length"),
    CLI_INT("q", C, task.q, 1, 64, "sparsity"),
    CLI_INT("d", C, task.d, 1, 4096, "token dimension"),
    CLI_INT("de", C, task.de, 1, 4096, "code dimension (default floor(5 ln N))"),
    CLI_CHOICE("enc", C, task.enc, enc_names, "token encoding"),
    CLI_DOUBLES("alpha", C, alphas, nalpha, 0, 1e6, "sharpness values"),
    CLI_INT("n", C, n, 2, 100000000, "prompts"),
    {0}};
#undef C
static const cli_cmd construct_cmd = {
    .name = "qstr construct",
    .example = "nnt qstr construct --N 8 --q 1 --alpha 0,0.5,1",
    .about = "Eq. (A.2) weights: closed-form MSE vs Monte Carlo through the forward pass, per sharpness alpha.",
    .opts = construct_opts,
    .cfg_size = sizeof(nnt_qstr_construct_cfg),
    .res_size = sizeof(nnt_qstr_construct_result),
    DRIVEN(construct, .result_free = NULL),
    .common = CLI_OUT};

static int run_construct(int argc, char **argv) { return cli_drive(&construct_cmd, argc, argv); }

/* ---------------------------------------------------------------- ffn-bound */
#define B nnt_qstr_ffn_bound_cfg
static const cli_opt bound_opts[] = {
    CLI_INT("N", B, N, 2, 100000, "sequence length"),
    CLI_INT("d", B, d, 1, 4096, "token dimension"),
    CLI_INTS("n", B, ns, nn, 0, 100000000, "training-set sizes (default 0, Nd/10, ..., Nd)"),
    CLI_INT("trials", B, trials, 1, 1000000, "draws averaged per n"),
    CLI_INT("n-test", B, n_test, 1, 10000000, "test prompts"),
    {0}};
#undef B
static const cli_cmd bound_cmd = {
    .name = "qstr ffn-bound",
    .example = "nnt qstr ffn-bound --N 4 --d 5 --out runs/ffn-bound",
    .about = "Theorem 6: min-norm least squares on simple-1STR, test MSE vs 1 - n/(Nd).",
    .opts = bound_opts,
    .cfg_size = sizeof(nnt_qstr_ffn_bound_cfg),
    .res_size = sizeof(nnt_qstr_ffn_bound_result),
    DRIVEN(ffn_bound, .result_free = NULL),
    .common = CLI_OUT};

static int run_bound(int argc, char **argv) { return cli_drive(&bound_cmd, argc, argv); }

/* ---------------------------------------------------------------- rnn-oracle */
#define O nnt_qstr_rnn_oracle_cfg
static const cli_opt oracle_opts[] = {
    CLI_INTS("N", O, Ns, nN, 2, 4096, "sequence lengths"),
    CLI_INT("d", O, d, 1, 4096, "token dimension"),
    CLI_INT("q", O, q, 1, 64, "sparsity (the oracle; the 1STR width table is q = 1)"),
    CLI_CHOICE("link", O, link, link_names, "link g (linear or relu: exact two-layer ReLU nets)"),
    CLI_DOUBLE("bound", O, B, 1e-6, 1e6, "token bound r_x (exact while every |x_k| <= bound)"),
    CLI_DOUBLE("target", O, target, 1e-9, 1, "the 1STR MSE the width table asks for"),
    CLI_INT("n", O, n, 2, 100000000, "prompts per measurement"),
    CLI_DOUBLE("bound-scale", O, bound_scale, 1e-300, 1e300,
               "scale the linear-state bound the shift register is checked against (!= 1: a fault injection the check must catch)"),
    {0}};
#undef O
static const cli_cmd oracle_cmd = {
    .name = "qstr rnn-oracle",
    .example = "nnt qstr rnn-oracle --quick\nnnt qstr rnn-oracle --N 4,8,16,32,64,128 --out runs/rnn-oracle",
    .about = "Theorem 7 / Prop. 28: the oracle bidirectional RNN for simple-qSTR as an explicit ReLU network, its error\n"
    "against the task (exit 1 above 1e-12), size and norm per N; Prop. 8: the width per direction an RNN with\n"
    "state linear in the tokens needs on 1STR, (N-1-r)(N-r)/N^2 <= target, met by a shift-register RNN (exit 1\n"
    "when its measured error is more than 5 standard errors off the bound).",
    .opts = oracle_opts,
    .cfg_size = sizeof(nnt_qstr_rnn_oracle_cfg),
    .res_size = sizeof(nnt_qstr_rnn_oracle_result),
    DRIVEN(rnn_oracle, .result_free = NULL),
    .common = CLI_OUT};
static int run_oracle(int argc, char **argv) { return cli_drive(&oracle_cmd, argc, argv); }

/* ---------------------------------------------------------------- rnn-minnorm */
#define M nnt_qstr_rnn_minnorm_cfg
static const cli_opt minnorm_opts[] = {
    CLI_INTS("N", M, Ns, nN, 2, 4096, "sequence lengths (at least 3)"),
    CLI_INT("d", M, d, 1, 4096, "token dimension"),
    CLI_DOUBLE("target", M, target, 1e-9, 1, "test MSE n* must reach"),
    CLI_DOUBLE("budget", M, budget, 1e-3, 1000, "prompts per N, in units of the readout's inputs per offset (2N-1)d"),
    CLI_FLAG("retrieve", M, retrieve, "control outside the theorem: the readout sees x_{t_i} (n* does not grow: exit 1)"),
    {0}};
#undef M
static const cli_cmd minnorm_cmd = {
    .name = "qstr rnn-minnorm",
    .example = "nnt qstr rnn-minnorm --quick\nnnt qstr rnn-minnorm --N 4,8,16,32,64,128 --out runs/rnn-minnorm",
    .about = "Theorem 9: min-norm ERM of a bidirectional RNN (shift-register state, readout chosen by t_i - i) on 1STR; the\n"
    "training prompts n* it needs to reach the target test MSE per N, and the log-log slope of n* with its standard error\n"
    "(exit 1 unless above 0 by 5 standard errors: the theorem gives no constants).",
    .opts = minnorm_opts,
    .cfg_size = sizeof(nnt_qstr_rnn_minnorm_cfg),
    .res_size = sizeof(nnt_qstr_rnn_minnorm_result),
    DRIVEN(rnn_minnorm, .result_free = rnn_minnorm_free),
    .common = CLI_OUT};
static int run_minnorm(int argc, char **argv) { return cli_drive(&minnorm_cmd, argc, argv); }

/* ---------------------------------------------------------------- rnn-width */
static int rnn_width_validate(void *c, const cli_run *r) {
  nnt_qstr_rnn_width_cfg *w = c;
  w->seed = r->seed, w->threads = r->threads, w->dir = r->out, w->resume = r->resume;
  return nnt_qstr_rnn_width_check(w);
}
#define W nnt_qstr_rnn_width_cfg
static const cli_opt width_opts[] = {
    CLI_INTS("N", W, Ns, nN, 2, 100000, "sequence lengths, increasing"),
    CLI_INTS("H", W, Hs, nH, 1, 100000, "biGRU widths per direction, increasing"),
    CLI_INT("d", W, d, 1, 4096, "token dimension"),
    CLI_DOUBLE("threshold", W, threshold, -1e300, 1e300, "test MSE to reach"),
    CLI_LONG("budget", W, budget, 1, 1000000000000L, "training prompts per (N, width)"),
    CLI_INT("n-test", W, n_test, 1, 10000000, "test prompts"),
    CLI_INT("check-every", W, check_every, 1, 100000000, "steps between test evaluations"),
    CLI_INT("batch", W, batch, 1, 100000, "prompts per step"),
    CLI_DOUBLE("lr", W, lr, 1e-12, 10, "AdamW learning rate"),
    CLI_DOUBLE("wd", W, wd, 0, 10, "AdamW weight decay"),
    CLI_FLAG("flat", W, flat, "control: every N trains on the first N's task (H_min cannot grow: exit 1)"),
    {0}};
#undef W
static const cli_cmd width_cmd = {
    .name = "qstr rnn-width",
    .example = "nnt qstr rnn-width --quick\nnnt qstr rnn-width --threads 2 --out runs/rnn-width",
    .about = "Prop. 8 beside training: the smallest width of the paper's biGRU whose 1STR test MSE falls below the threshold\n"
    "within the budget, per N (widths tried smallest first), beside the linear-state bound r_min(N) (proven for states\n"
    "linear in the tokens, not for the GRU: shown, not checked). Exit 1 unless H_min grows with N. Writes\n"
    "width_runs.csv, hmin.csv, hmin.png and one resumable sweep per width (H<width>/results.sqlite).",
    .opts = width_opts,
    .cfg_size = sizeof(nnt_qstr_rnn_width_cfg),
    .res_size = sizeof(nnt_qstr_rnn_width_result),
    DRIVEN(rnn_width, .result_free = NULL),
    .common = CLI_OUT | CLI_SWEEP};
static int run_width(int argc, char **argv) { return cli_drive(&width_cmd, argc, argv); }

int cmd_qstr(int argc, char **argv) {
  static const cli_sub subs[] = {
      {"sweep", run_sweep, "samples needed to reach a test-MSE threshold vs N (Figure 1)"},
      {"plot", run_plot, "one plot of several sweeps' samples.csv"},
      {"attention", run_attention, "Figure 2: the trained |W_q^T W_k| and its construction score"},
      {"heads", run_heads, "trained error of the H-head transformer vs the head lower bounds"},
      {"construct", run_construct, "eq. (A.2) weights: closed-form MSE vs Monte Carlo"},
      {"ffn-bound", run_bound, "Theorem 6: min-norm least squares vs 1 - n/(Nd)"},
      {"rnn-oracle", run_oracle, "Theorem 7 / Prop. 28 oracle RNN; Prop. 8 width on 1STR vs N"},
      {"rnn-minnorm", run_minnorm, "Theorem 9: prompts min-norm ERM of an RNN needs on 1STR vs N"},
      {"rnn-width", run_width, "Prop. 8 beside training: smallest biGRU width for 1STR vs N"},
  };
  return cli_dispatch("qstr", subs, (int)(sizeof subs / sizeof subs[0]), argc, argv);
}
