/* nnt tm — Turing machines: direct simulation, and compilation into the transformer of seed 000
 * (Section 4 / Appendix C) checked step by step against the simulation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "commands.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

static const char *help =
    "usage: nnt tm run MACHINE --steps T [--input S] [--out DIR]\n"
    "       nnt tm compile MACHINE --steps T [--attention hard|softmax --beta B] [--precision f32|f64]\n"
    "                      [--beta-search] [--input S] [--out DIR]\n"
    "MACHINE is a file (standard notation, or the multi-symbol format with 'states:') or a string in\n"
    "the busy-beaver standard notation, e.g. 1RB1LB_1LA1RZ (Z halts, --- undefined).\n"
    "run: simulate T steps directly. compile: build the encoder-decoder transformer of Wei, Chen & Ma\n"
    "(hard-max attention, binary positions, rounding layers), run it for T steps and check the decoded\n"
    "state, head, symbol under the head and written symbol against the simulation at every step;\n"
    "prints steps_checked=T mismatches=N and the sizes; exit 1 on a mismatch.\n\n" NNT_COMMON_HELP
    "  --steps T        machine steps (default: the halting step of the machine if it halts within\n"
    "                   10^4 steps, required otherwise)\n"
    "  --input S        input written on cells 0.. (one character per symbol)\n"
    "  --attention A    hard (default) or softmax\n"
    "  --beta B         softmax inverse temperature\n"
    "  --precision P    f64 (default) or f32\n"
    "  --beta-search    find the smallest softmax beta that keeps every step exact, f32 and f64\n"
    "  --quick          with compile: cap T at 200 and skip nothing else\n";

typedef struct {
  cli_common co;
  const char *machine, *input;
  long steps;
  int attention, precision, beta_search, have_beta;
  double beta;
} tm_opts;

static int parse(int argc, char **argv, tm_opts *o, int compile) {
  cli_common_init(&o->co, NULL);
  o->machine = o->input = NULL;
  o->steps = -1;
  o->attention = NNT_TM_HARD, o->precision = NNT_TM_F64, o->beta_search = 0, o->have_beta = 0, o->beta = 0;
  static const struct option opts[] = {NNT_COMMON_OPTIONS,
                                       {"steps", required_argument, 0, 'T'},
                                       {"input", required_argument, 0, 'I'},
                                       {"attention", required_argument, 0, 'A'},
                                       {"beta", required_argument, 0, 'B'},
                                       {"precision", required_argument, 0, 'P'},
                                       {"beta-search", no_argument, 0, 'S'},
                                       {0, 0, 0, 0}};
  static const char *const att[] = {"hard", "softmax", NULL}, *const prec[] = {"f64", "f32", NULL};
  cli_reset();
  int c, st;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
      /* compile keeps T keys per attention layer (about 0.7 KB per step): at most 10^6 steps */
      case 'T': st = cli_parse_long("--steps", optarg, 1, compile ? 1000000 : 10000000, &o->steps); break;
      case 'I': o->input = optarg, st = NNT_OK; break;
      case 'A': st = cli_parse_choice("--attention", optarg, att, &o->attention); break;
      case 'B': st = cli_parse_double("--beta", optarg, 1e-6, 1e9, &o->beta), o->have_beta = 1; break;
      case 'P': st = cli_parse_choice("--precision", optarg, prec, &o->precision); break;
      case 'S': o->beta_search = 1, st = NNT_OK; break;
      default: st = cli_common_option(c, argv, &o->co);
    }
    if (st) return st;
  }
  if (o->co.help) return NNT_OK;
  if ((st = cli_positional(argc, argv, 1, compile ? "nnt tm compile MACHINE --steps T" : "nnt tm run MACHINE --steps T")))
    return st;
  o->machine = argv[optind];
  if (!compile && (o->attention || o->have_beta || o->precision || o->beta_search))
    return nnt_fail(NNT_EINVAL, "--attention, --beta, --precision and --beta-search belong to 'nnt tm compile'");
  if (o->attention == NNT_TM_SOFTMAX && !o->have_beta) return nnt_fail(NNT_EINVAL, "--attention softmax needs --beta B");
  if (o->have_beta && o->attention != NNT_TM_SOFTMAX) return nnt_fail(NNT_EINVAL, "--beta needs --attention softmax");
  return NNT_OK;
}

/* Loads the machine and settles T (the halting step when --steps is absent). */
static int load(tm_opts *o, nnt_tm *tm) {
  int st = nnt_tm_load(o->machine, tm);
  if (st) return st;
  if (o->input && (st = nnt_tm_set_input(tm, o->input))) return nnt_tm_free(tm), st;
  if (o->steps < 0) {
    nnt_tm_trace tr;
    nnt_tm_simulate(tm, 10000, &tr);
    long h = tr.halt_step;
    nnt_tm_trace_free(&tr);
    if (h < 0) return nnt_tm_free(tm), nnt_fail(NNT_EINVAL, "the machine does not halt within 10^4 steps: give --steps T");
    o->steps = h > 0 ? h : 1;
  }
  if (o->co.quick && o->steps > 200) o->steps = 200;
  return NNT_OK;
}

static int cmd_run(int argc, char **argv) {
  tm_opts o;
  int st = parse(argc, argv, &o, 0);
  if (st || o.co.help) return st ? st : (fputs(help, stdout), NNT_OK);
  nnt_tm tm;
  if ((st = load(&o, &tm))) return st;
  if ((st = cli_begin(&o.co))) return nnt_tm_free(&tm), st;
  nnt_tm_trace tr;
  double t0 = nnt_now();
  nnt_tm_simulate(&tm, o.steps, &tr);
  double el = nnt_now() - t0;
  long T = o.steps;
  printf("machine %s: %d states, %d symbols, input length %d\n", o.machine, tm.k, tm.nsym, tm.m);
  if (tr.halt_step >= 0) printf("halted after %ld steps in state %s\n", tr.halt_step, tm.state_name[tr.state[T]]);
  else printf("running after %ld steps, state %s\n", T, tm.state_name[tr.state[T]]);
  printf("steps=%ld halt_step=%ld nonblank=%ld head=%ld cells_visited=[%ld,%ld] time=%.3f ms\n", T, tr.halt_step, tr.ones,
         tr.head[T], tr.min_head, tr.max_head, el * 1e3);
  if (o.co.out) {
    nnt_csv csv;
    if (!(st = nnt_csv_open(&csv, o.co.out, "trace.csv", "step,state,head,symbol_under_head,written"))) {
      for (long t = 0; t <= T; t++)
        nnt_csv_row(&csv, "%ld,%s,%ld,%s,%s", t, tm.state_name[tr.state[t]], tr.head[t], tm.sym_name[tr.sym[t]],
                    t ? tm.sym_name[tr.written[t]] : "");
      st = nnt_csv_close(&csv);
    }
    if (!st) {
      cJSON *cfg = cJSON_CreateObject();
      cJSON_AddStringToObject(cfg, "machine", o.machine);
      cJSON_AddNumberToObject(cfg, "steps", (double)T);
      cJSON_AddNumberToObject(cfg, "halt_step", (double)tr.halt_step);
      st = nnt_runinfo_write(o.co.out, "tm run", cfg, o.co.seed, o.co.threads, el);
    }
  }
  nnt_tm_trace_free(&tr);
  nnt_tm_free(&tm);
  return st;
}

static int exact_at(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, nnt_tm_precision p, double beta) {
  nnt_tm_run_opts ro = {NNT_TM_SOFTMAX, beta, p, 1};
  nnt_tm_run_result r;
  nnt_tm_net_run(net, tm, tr, &ro, &r);
  return r.mismatches == 0;
}

/* Smallest beta (relative precision 1e-3) at which the softmax run is exact at every step. The
 * error of a softmax layer falls like i e^{-beta gap}, so exactness is monotone in beta in practice;
 * the search doubles beta until exact, then bisects, then checks 2x, 8x and 64x the result (a
 * failing beta goes to *not_monotone). Returns -1 if not exact up to 1e6. */
static double beta_min(const nnt_tm_net *net, const nnt_tm *tm, const nnt_tm_trace *tr, nnt_tm_precision p,
                       double *not_monotone) {
  double lo = 0, hi = 0.25;
  while (!exact_at(net, tm, tr, p, hi)) {
    lo = hi, hi *= 2;
    if (hi > 1e6) return -1;
  }
  while (hi - lo > 1e-3 * hi) {
    double mid = 0.5 * (lo + hi);
    if (exact_at(net, tm, tr, p, mid)) hi = mid;
    else lo = mid;
  }
  /* spot-check the monotonicity the search assumes */
  static const double above[] = {2, 8, 64};
  for (int i = 0; i < 3; i++)
    if (!exact_at(net, tm, tr, p, hi * above[i])) *not_monotone = hi * above[i];
  return hi;
}

static double log2_ceil(long T) { return ceil(log2((double)T)); }

/* Compiles, runs and checks; fills the report numbers. Shared by the command and the tour. */
typedef struct {
  nnt_tm_net_stats s;
  nnt_tm_run_result r;
  long T, halt_step;
  double beta64, beta32, peak_rss_mb, compile_s, not_monotone;
} tm_compiled;

static int compile_check(const nnt_tm *tm, long T, const nnt_tm_run_opts *ro, int search, tm_compiled *out) {
  nnt_tm_trace tr;
  nnt_tm_net net;
  int st = nnt_tm_simulate(tm, T, &tr);
  if (st) return st;
  double t0 = nnt_now();
  if ((st = nnt_tm_compile(tm, T, &net))) return nnt_tm_trace_free(&tr), st;
  out->compile_s = nnt_now() - t0;
  out->s = nnt_tm_net_stats_of(&net);
  out->T = T, out->halt_step = tr.halt_step;
  st = nnt_tm_net_run(&net, tm, &tr, ro, &out->r);
  out->beta64 = out->beta32 = out->not_monotone = 0;
  if (!st && search) {
    out->beta64 = beta_min(&net, tm, &tr, NNT_TM_F64, &out->not_monotone);
    out->beta32 = beta_min(&net, tm, &tr, NNT_TM_F32, &out->not_monotone);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  out->peak_rss_mb = ru.ru_maxrss / 1024.0;
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  return st;
}

static void print_sizes(FILE *f, const nnt_tm *tm, const tm_compiled *c) {
  const nnt_tm_net_stats *s = &c->s;
  double lt = log2_ceil(c->T), scale = (double)tm->k * tm->nsym + lt;
  fprintf(f, "transformer: width w=%d (max vector width W=%d, FF hidden <= %d), layers d=%d (%d self-attention, "
          "%d enc-dec), wpos=%d, nonzero parameters %ld (dense F_{W,d}: %ld), ||theta||_1=%.0f, max |theta|=%.0f\n",
          s->w, s->max_width, s->ff_hidden_max, s->layers, s->self_attn_layers, s->enc_attn_layers, s->wpos, s->nonzero,
          s->params_dense, s->l1, s->max_abs);
  fprintf(f, "theorem 4.1 scales: k|A| + log2 T = %.0f -> w/(k|A|+log2 T) = %.2f; log2 T = %.0f -> d/log2 T = %.2f; "
          "alpha = ||theta||_1 = %.0f = %.2f (k|A|+log2 T)^2\n",
          scale, s->w / scale, lt, lt > 0 ? s->layers / lt : 0.0, s->l1, s->l1 / (scale * scale));
}

static int cmd_compile(int argc, char **argv) {
  tm_opts o;
  int st = parse(argc, argv, &o, 1);
  if (st || o.co.help) return st ? st : (fputs(help, stdout), NNT_OK);
  nnt_tm tm;
  if ((st = load(&o, &tm))) return st;
  if ((st = cli_begin(&o.co))) return nnt_tm_free(&tm), st;
  nnt_tm_run_opts ro = {(nnt_tm_attention)o.attention, o.beta, (nnt_tm_precision)o.precision, 0};
  tm_compiled c;
  double t0 = nnt_now();
  if ((st = compile_check(&tm, o.steps, &ro, o.beta_search, &c))) return nnt_tm_free(&tm), st;
  printf("machine %s: k=%d states, |A|=%d symbols, input length %d; T=%ld (%s)\n", o.machine, tm.k, tm.nsym, tm.m, c.T,
         c.halt_step >= 0 ? "halts within T" : "still running at T");
  print_sizes(stdout, &tm, &c);
  const nnt_tm_run_result *r = &c.r;
  int last = 9;
  while (last > 0 && r->step_us[last] == 0) last--;
  printf("run: %s attention%s, %s: %.3f s for %ld decoder steps (compile %.3f s); per decoded step %.2f us in the "
         "first tenth of t, %.2f us in the last (cost grows with the prefix); key/value cache %.2f MB, weights %.3f MB, "
         "peak RSS %.1f MB\n",
         o.attention ? "softmax" : "hard-max", o.attention ? "" : "", o.precision ? "float32" : "float64", r->seconds,
         c.T + 1, c.compile_s, r->step_us[0], r->step_us[last], r->cache_bytes / 1048576.0, r->weight_bytes / 1048576.0,
         c.peak_rss_mb);
  if (o.attention == NNT_TM_SOFTMAX) printf("softmax beta=%g\n", o.beta);
  if (o.attention == NNT_TM_HARD) printf("every o_t exactly binary: %s\n", r->nonbinary ? "no" : "yes");
  printf("smallest gap between the top two attention scores: %g (the proof needs >= 1); largest ||h||_2: %.3f\n",
         r->min_score_gap, r->lambda);
  printf("output theta_cls^T o_T: %s\n", r->output_sign > 0 ? "+1 (halted, accept)" : r->output_sign < 0 ? "-1 (reject)" : "0 (not halted)");
  if (o.beta_search) {
    printf("beta_min f64=%.4g f32=%.4g (smallest softmax inverse temperature exact at every step)\n", c.beta64, c.beta32);
    if (c.not_monotone > 0) printf("warning: not exact at beta=%g, above beta_min: the threshold is not monotone\n", c.not_monotone);
    else printf("also exact at 2x, 8x and 64x beta_min (both precisions)\n");
  }
  if (r->mismatches) printf("first mismatch at step %ld: %s\n", r->first_mismatch, r->first_what);
  printf("steps_checked=%ld mismatches=%ld\n", r->steps_checked, r->mismatches);
  if (o.co.out) {
    nnt_csv csv;
    if (!(st = nnt_csv_open(&csv, o.co.out, "step_cost.csv", "window,t_from,t_to,us_per_step"))) {
      for (int i = 0; i < 10; i++)
        nnt_csv_row(&csv, "%d,%ld,%ld,%.3f", i, i * (c.T + 1) / 10 + 1, (i + 1) * (c.T + 1) / 10, r->step_us[i]);
      st = nnt_csv_close(&csv);
    }
    if (!st) {
      cJSON *cfg = cJSON_CreateObject();
      cJSON_AddStringToObject(cfg, "machine", o.machine);
      cJSON_AddNumberToObject(cfg, "steps", (double)c.T);
      cJSON_AddStringToObject(cfg, "attention", o.attention ? "softmax" : "hard");
      cJSON_AddNumberToObject(cfg, "beta", o.beta);
      cJSON_AddStringToObject(cfg, "precision", o.precision ? "f32" : "f64");
      cJSON_AddNumberToObject(cfg, "width", c.s.w);
      cJSON_AddNumberToObject(cfg, "max_width", c.s.max_width);
      cJSON_AddNumberToObject(cfg, "layers", c.s.layers);
      cJSON_AddNumberToObject(cfg, "nonzero_params", (double)c.s.nonzero);
      cJSON_AddNumberToObject(cfg, "l1_norm", c.s.l1);
      cJSON_AddNumberToObject(cfg, "steps_checked", (double)r->steps_checked);
      cJSON_AddNumberToObject(cfg, "mismatches", (double)r->mismatches);
      if (o.beta_search) {
        cJSON_AddNumberToObject(cfg, "beta_min_f64", c.beta64);
        cJSON_AddNumberToObject(cfg, "beta_min_f32", c.beta32);
      }
      st = nnt_runinfo_write(o.co.out, "tm compile", cfg, o.co.seed, o.co.threads, nnt_now() - t0);
    }
  }
  nnt_tm_free(&tm);
  if (st) return st;
  if (r->mismatches) return nnt_fail(NNT_ECHECK, "%ld mismatches between the transformer and the simulation", r->mismatches);
  return NNT_OK;
}

int cmd_tm(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(help, argc < 2 ? stderr : stdout);
    return argc < 2 ? nnt_fail(NNT_EINVAL, "missing subcommand (run or compile)") : NNT_OK;
  }
  if (!strcmp(argv[1], "run")) return cmd_run(argc - 1, argv + 1);
  if (!strcmp(argv[1], "compile")) return cmd_compile(argc - 1, argv + 1);
  return nnt_fail(NNT_EINVAL, "unknown subcommand '%s' (run or compile)", argv[1]);
}

/* Tour: BB(4) compiled and checked up to its halting step, sizes, the softmax beta threshold, and
 * the per-step cost of a longer run. */
int tour_tm(cli_tour *t) {
  static const char *const bb[] = {"1RB1LB_1LA1RZ", "1RB1RZ_1LB0RC_1LC1LA", "1RB1LB_1LA0LC_1RZ1LD_1RD0RA"};
  static const char *const names[] = {"BB(2)", "BB(3)", "BB(4)"};
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "tm");
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "compiled.csv",
                        "machine,T,width,max_width,layers,nonzero_params,l1_norm,steps_checked,mismatches,"
                        "beta_min_f64,beta_min_f32,seconds");
  if (st) return st;
  cli_tour_printf(t, "## Turing machines → transformers (seed 000)\n\n"
                  "Each busy-beaver champion is compiled into the encoder-decoder transformer of Section 4 "
                  "(hard-max attention, binary positional encodings, rounding layers) and run for T = its "
                  "halting step; decoded state, head, symbol under the head and written symbol are compared "
                  "with a direct simulation at every step. β_min: smallest softmax inverse temperature with "
                  "every step still exact.\n\n"
                  "| machine | T | w | d | nonzero θ | ‖θ‖₁ | check | β_min f64 | β_min f32 |\n"
                  "|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < 3; i++) {
    nnt_tm tm;
    if ((st = nnt_tm_parse_standard(bb[i], names[i], &tm))) break;
    nnt_tm_trace tr;
    nnt_tm_simulate(&tm, 1000, &tr);
    long T = tr.halt_step;
    nnt_tm_trace_free(&tr);
    nnt_tm_run_opts ro = {NNT_TM_HARD, 0, NNT_TM_F64, 0};
    tm_compiled c;
    st = compile_check(&tm, T, &ro, 1, &c);
    nnt_tm_free(&tm);
    if (st) break;
    cli_tour_checks(t, !c.r.mismatches, !!c.r.mismatches);
    nnt_csv_row(&csv, "%s,%ld,%d,%d,%d,%ld,%.0f,%ld,%ld,%.4g,%.4g,%.4f", bb[i], T, c.s.w, c.s.max_width, c.s.layers,
                c.s.nonzero, c.s.l1, c.r.steps_checked, c.r.mismatches, c.beta64, c.beta32, c.r.seconds);
    cli_tour_printf(t, "| %s `%s` | %ld | %d | %d | %ld | %.0f | %s`steps_checked=%ld mismatches=%ld` | %.3g | %.3g |\n",
                    names[i], bb[i], T, c.s.w, c.s.layers, c.s.nonzero, c.s.l1, c.r.mismatches ? "**FAIL** " : "",
                    c.r.steps_checked, c.r.mismatches, c.beta64, c.beta32);
  }
  if (st) return nnt_csv_close(&csv), st;
  if ((st = nnt_csv_close(&csv))) return st;
  /* Per-step cost growth: a counter that never halts, T = 2000 (quick). */
  nnt_tm tm;
  if ((st = nnt_tm_parse_standard("1RB0LA_1LA0RB", "counter", &tm))) return st;
  long T = 2000;
  nnt_tm_run_opts ro = {NNT_TM_HARD, 0, NNT_TM_F64, 0};
  tm_compiled c;
  st = compile_check(&tm, T, &ro, 0, &c);
  nnt_tm_free(&tm);
  if (st) return st;
  cli_tour_checks(t, !c.r.mismatches, !!c.r.mismatches);
  double x[10], y[10];
  for (int i = 0; i < 10; i++) x[i] = (i + 0.5) * (T + 1) / 10.0, y[i] = c.r.step_us[i];
  nnt_plot *p = nnt_plot_new("compiled TM: cost per decoded step", "decoder step t", "microseconds per step");
  nnt_plot_add(p, 10, x, y, "hard attention, float64 (KV cache)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  st = nnt_plot_save(p, dir, "step_cost");
  nnt_plot_free(p);
  if (st) return st;
  cli_tour_printf(t, "\nA longer run (`1RB0LA_1LA0RB`, never halts, T = %ld): %s`steps_checked=%ld mismatches=%ld`, "
                  "w = %d, d = %d, %.2f s; per decoded step %.1f µs early and %.1f µs late — each step attends over "
                  "the whole prefix (cached keys and values, %.2f MB).\n\n![step cost](tm/step_cost.png)\n",
                  T, c.r.mismatches ? "**FAIL** " : "", c.r.steps_checked, c.r.mismatches, c.s.w, c.s.layers, c.r.seconds,
                  c.r.step_us[0], c.r.step_us[9], c.r.cache_bytes / 1048576.0);
  return NNT_OK;
}
