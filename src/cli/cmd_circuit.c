/* nnt circuit — boolean circuits compiled into ReLU nets (seed 000, Section 3 and Appendices B, D). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_circuits.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_progress.h"

static const char *help =
    "usage: nnt circuit compile FILE [--correct] --out NET\n"
    "       nnt circuit verify FILE [--correct] [--net NET] [--samples N] [--exhaustive-max K]\n"
    "       nnt circuit margin FILE [--inputs N] [--output J] [--net NET [--logit]] [--out DIR]\n"
    "       nnt circuit margin [--depths LIST] [--width R] [--circuits C] [--inputs N] [--out DIR]\n"
    "       nnt circuit learn [FILE] [--widths LIST] [--samples LIST] [--steps S] [--out DIR]\n"
    "\nFILE is an ISCAS .bench, BLIF .blif or AIGER ASCII .aag circuit (docs/circuits_tm.md).\n"
    "compile  writes the ReLU net of Lemma B.1 (two ReLU layers per circuit layer) as an nnt-mlp\n"
    "         JSON file; --correct inserts the rounding layers of Lemma 3.3 between blocks.\n"
    "verify   compiles (or loads --net) and compares the net's forward pass with direct\n"
    "         evaluation on every input (up to K = 20 inputs) or on N random inputs (default\n"
    "         100000); prints sizes and inputs_checked=... mismatches=...; exit 1 on a mismatch.\n"
    "margin   upper bounds (checked perturbations) and certified lower bounds on the parameter-space\n"
    "         all-layer margin (eq. 2.1) of the compiled net\n"
    "         without and with correction layers (and of --net), per input; without FILE, a sweep\n"
    "         over circuits of the given depths. CSV and plots in DIR.\n"
    "learn    trains ReLU nets of width w = r x LIST (r: the widest gate layer) on n samples\n"
    "         labelled by the circuit (default: a random layered circuit of depth 4, 16 inputs)\n"
    "         and plots test error vs n per width (beyond the paper; Theorem 3.1 predicts a\n"
    "         sample complexity only logarithmic in w). Trained nets are saved as nnt-mlp files.\n\n"
    "options:\n"
    "  --correct          insert correction layers (Definition D.1) between circuit layers\n"
    "  --net NET          an nnt-mlp file to verify / measure instead of (or besides) the compiled net\n"
    "  --logit            --net outputs a score thresholded at 0 (default: a bit thresholded at 1/2)\n"
    "  --samples N        random inputs beyond the exhaustive limit (default 100000)\n"
    "  --exhaustive-max K check all 2^m inputs when m <= K (default 20, at most 30)\n"
    "  --inputs N         inputs per circuit for margin (default 16; --quick 4)\n"
    "  --output J         output bit whose margin is measured (default 0)\n"
    "  --depths LIST      circuit depths of the sweep (default 1,2,4,8,16,32,64; --quick 1,2,4,8)\n"
    "  --family F         sweep circuits: chain (ID gates, Claim 3.5; default) or random\n"
    "  --width R          width of the random circuits (default 4)\n"
    "  --circuits C       random circuits per depth (default 4; --quick 2)\n"
    "learn options:\n"
    "  --widths LIST      width multipliers of r (default 1,4,16,64; --quick 1,4,16)\n"
    "  --samples LIST     training-set sizes (default 64,128,...,4096; --quick 64,256,1024)\n"
    "  --steps S          optimizer steps per run (default 2000; --quick 300), batch 32\n"
    "  --optim adam|sgd   Adam (default, lr 1e-3) or SGD with momentum 0.9 (default lr 0.05)\n"
    "  --lr LR            learning rate\n"
    "  --hidden D         hidden ReLU layers (default 3)\n"
    "  --reps R           repetitions per point (default 1)\n"
    "  --test N           test inputs (default 4096)\n"
    "  --epsilon E        target test error of the samples-vs-width plot (default 0.05)\n"
    "  --bit J            output bit to learn (default 0)\n" NNT_COMMON_HELP;

enum {
  O_CORRECT = 0x200,
  O_NET,
  O_LOGIT,
  O_SAMPLES,
  O_EXMAX,
  O_INPUTS,
  O_OUTPUT,
  O_DEPTHS,
  O_WIDTH,
  O_CIRCUITS,
  O_FAMILY,
  O_WIDTHS,
  O_STEPS,
  O_HIDDEN,
  O_REPS,
  O_TEST,
  O_EPS,
  O_OPTIM,
  O_LR
};

typedef struct {
  cli_common co;
  int correct, logit, exmax, inputs, output, width, circuits, ndepths, family;
  int family_set, nwidths, nns, steps, hidden, reps, ntest, sgd;
  double lr;
  long widths[16], ns[32];
  double eps;
  long samples, depths[32];
  const char *net;
  const char *file;
} copts;

/* file_mode: 1 = FILE required, 2 = FILE optional, 3 = FILE optional and --samples is learn's list. */
static int parse_opts(int argc, char **argv, copts *o, const char *default_out, int file_mode, const char *usage) {
  memset(o, 0, sizeof *o);
  cli_common_init(&o->co, default_out);
  o->exmax = 20;
  o->samples = 100000;
  o->inputs = -1;
  o->width = 4;
  o->circuits = -1;
  o->ndepths = 0;
  static const struct option opts[] = {NNT_COMMON_OPTIONS,
                                       {"correct", no_argument, 0, O_CORRECT},
                                       {"net", required_argument, 0, O_NET},
                                       {"logit", no_argument, 0, O_LOGIT},
                                       {"samples", required_argument, 0, O_SAMPLES},
                                       {"exhaustive-max", required_argument, 0, O_EXMAX},
                                       {"inputs", required_argument, 0, O_INPUTS},
                                       {"output", required_argument, 0, O_OUTPUT},
                                       {"depths", required_argument, 0, O_DEPTHS},
                                       {"width", required_argument, 0, O_WIDTH},
                                       {"circuits", required_argument, 0, O_CIRCUITS},
                                       {"family", required_argument, 0, O_FAMILY},
                                       {"widths", required_argument, 0, O_WIDTHS},
                                       {"steps", required_argument, 0, O_STEPS},
                                       {"optim", required_argument, 0, O_OPTIM},
                                       {"lr", required_argument, 0, O_LR},
                                       {"hidden", required_argument, 0, O_HIDDEN},
                                       {"reps", required_argument, 0, O_REPS},
                                       {"test", required_argument, 0, O_TEST},
                                       {"epsilon", required_argument, 0, O_EPS},
                                       {"bit", required_argument, 0, O_OUTPUT},
                                       {0, 0, 0, 0}};
  cli_reset();
  int c, st;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
      case O_CORRECT: o->correct = 1; break;
      case O_NET: o->net = optarg; break;
      case O_LOGIT: o->logit = 1; break;
      case O_SAMPLES:
        if (file_mode == 3) st = cli_parse_int_list("--samples", optarg, 1, 10000000L, o->ns, 32, &o->nns);
        else st = cli_parse_long("--samples", optarg, 1, 1000000000L, &o->samples);
        if (st) return st;
        break;
      case O_EXMAX:
        if ((st = cli_parse_int("--exhaustive-max", optarg, 0, 30, &o->exmax))) return st;
        break;
      case O_INPUTS:
        if ((st = cli_parse_int("--inputs", optarg, 1, 1000000, &o->inputs))) return st;
        break;
      case O_OUTPUT:
        if ((st = cli_parse_int("--output", optarg, 0, 1 << 30, &o->output))) return st;
        break;
      case O_DEPTHS:
        if ((st = cli_parse_int_list("--depths", optarg, 1, 256, o->depths, 32, &o->ndepths))) return st;
        break;
      case O_WIDTH:
        if ((st = cli_parse_int("--width", optarg, 1, 256, &o->width))) return st;
        break;
      case O_CIRCUITS:
        if ((st = cli_parse_int("--circuits", optarg, 1, 1000, &o->circuits))) return st;
        break;
      case O_FAMILY: {
        static const char *const fams[] = {"chain", "random", NULL};
        if ((st = cli_parse_choice("--family", optarg, fams, &o->family))) return st;
        o->family_set = 1;
        break;
      }
      case O_WIDTHS:
        if ((st = cli_parse_int_list("--widths", optarg, 1, 256, o->widths, 16, &o->nwidths))) return st;
        break;
      case O_STEPS:
        if ((st = cli_parse_int("--steps", optarg, 1, 100000000, &o->steps))) return st;
        break;
      case O_OPTIM: {
        static const char *const kinds[] = {"adam", "sgd", NULL};
        if ((st = cli_parse_choice("--optim", optarg, kinds, &o->sgd))) return st;
        break;
      }
      case O_LR:
        if ((st = cli_parse_double("--lr", optarg, 1e-9, 100, &o->lr))) return st;
        break;
      case O_HIDDEN:
        if ((st = cli_parse_int("--hidden", optarg, 1, 64, &o->hidden))) return st;
        break;
      case O_REPS:
        if ((st = cli_parse_int("--reps", optarg, 1, 1000, &o->reps))) return st;
        break;
      case O_TEST:
        if ((st = cli_parse_int("--test", optarg, 1, 10000000, &o->ntest))) return st;
        break;
      case O_EPS:
        if ((st = cli_parse_double("--epsilon", optarg, 0, 1, &o->eps))) return st;
        break;
      default:
        if ((st = cli_common_option(c, argv, &o->co))) return st;
    }
  }
  if (o->co.help) return NNT_OK;
  int have = argc - optind;
  if (have > 1 || (file_mode == 1 && have == 0)) return cli_positional(argc, argv, 1, usage);
  if (have == 1) o->file = argv[optind];
  return NNT_OK;
}

static void print_circuit(const char *file, const nnt_circuit *c, const nnt_circuit_layered *L) {
  printf("circuit: %s inputs=%d outputs=%d gates=%ld depth_q=%d width_r=%d size_s=%ld id_gates=%ld\n", file,
         c->ninputs, c->noutputs, L->orig_gates, L->depth, L->width_max, L->size, L->id_gates);
}

static void print_net(const nnt_mlp *net, int correct) {
  nnt_mlp_stats s = nnt_mlp_stats_of(net);
  printf("net: correct=%d layers=%d nodes=%ld max_width=%d params=%ld nonzero=%ld l1_norm=%.17g max_abs=%g\n", correct,
         s.layers, s.hidden_units, s.max_width, s.params, s.nonzero_params, s.l1_norm, s.max_abs);
}

/* Reads FILE, layers and compiles it. */
static int load(const char *file, int correct, nnt_circuit *c, nnt_circuit_layered *L, nnt_mlp *net) {
  int st = nnt_circuit_read(file, c);
  if (st) return st;
  nnt_circuit_layer(c, L);
  if (net) nnt_circuit_compile(L, correct, net);
  return NNT_OK;
}

static int cmd_compile(int argc, char **argv) {
  copts o;
  int st = parse_opts(argc, argv, &o, NULL, 1, "nnt circuit compile FILE [--correct] --out NET");
  if (st) return st;
  if (o.co.help) return fputs(help, stdout), NNT_OK;
  if (!o.co.out) return nnt_fail(NNT_EINVAL, "--out NET is required (the file the net is written to)");
  const char *out = o.co.out;
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_mlp net;
  if ((st = load(o.file, o.correct, &c, &L, &net))) return st;
  o.co.out = NULL; /* --out names a file here, not a folder */
  if (!(st = cli_begin(&o.co))) st = nnt_mlp_save(&net, out);
  if (!st) {
    print_circuit(o.file, &c, &L);
    print_net(&net, o.correct);
    printf("wrote %s\n", out);
  }
  nnt_mlp_free(&net), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}

static int cmd_verify(int argc, char **argv) {
  copts o;
  int st = parse_opts(argc, argv, &o, NULL, 1, "nnt circuit verify FILE [--correct] [--net NET]");
  if (st) return st;
  if (o.co.help) return fputs(help, stdout), NNT_OK;
  if (o.co.out) return nnt_fail(NNT_EINVAL, "--out: verify writes no files");
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_mlp net;
  if ((st = load(o.file, o.correct, &c, &L, o.net ? NULL : &net))) return st;
  if (o.net && (st = nnt_mlp_load(o.net, &net))) goto done_nonet;
  if (nnt_mlp_input_dim(&net) != c.ninputs || nnt_mlp_output_dim(&net) != c.noutputs) {
    st = nnt_fail(NNT_EINVAL, "%s: the net maps %d inputs to %d outputs, the circuit %d to %d", o.net,
                  nnt_mlp_input_dim(&net), nnt_mlp_output_dim(&net), c.ninputs, c.noutputs);
    goto done;
  }
  if ((st = cli_begin(&o.co))) goto done;
  print_circuit(o.file, &c, &L);
  if (o.net) printf("net: %s\n", o.net);
  print_net(&net, o.correct);
  double t0 = nnt_now();
  nnt_circuit_verify_result r = nnt_circuit_verify(&c, &net, o.exmax, o.samples, o.co.seed);
  printf("inputs_checked=%ld mismatches=%ld mode=%s max_abs_err=%g time_s=%.2f\n", r.checked, r.mismatches,
         r.exhaustive ? "exhaustive" : "random", r.max_abs_err, nnt_now() - t0);
  if (r.mismatches) {
    printf("first mismatching input (bit i = input %d..0):", c.ninputs - 1);
    if (r.exhaustive)
      for (int i = c.ninputs - 1; i >= 0; i--) printf("%ld", (r.first_bad >> i) & 1);
    else printf(" random vector #%ld", r.first_bad);
    printf("\n");
    st = nnt_fail(NNT_ECHECK, "verification failed: %ld of %ld inputs mismatch", r.mismatches, r.checked);
  }
done:
  nnt_mlp_free(&net);
done_nonet:
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}

/* ---- margin ---- */

/* The paper's readout (proof of Theorem 3.1): a last linear layer z -> 2 z_j - 1, so the
 * decision threshold is 0 and the head's two parameters are perturbed with the rest. */
static void add_head(nnt_mlp *net, int j) {
  int o = nnt_mlp_output_dim(net);
  nnt_mlp_layer *H = nnt_mlp_add(net, o, 1, NNT_ACT_IDENTITY);
  H->W[j] = 2;
  H->b[0] = -1;
}

static int check_acts(const nnt_mlp *net, const char *what) {
  for (int l = 0; l < net->nlayers; l++)
    if (net->layers[l].act != NNT_ACT_RELU && net->layers[l].act != NNT_ACT_IDENTITY)
      return nnt_fail(NNT_EINVAL, "%s: layer %d has activation %s; the margin needs relu or identity", what, l,
                      nnt_act_name(net->layers[l].act));
  return NNT_OK;
}

/* Input vector v of the sample: all inputs in order when 2^m <= n, else uniform draws. */
static void pick_input(const nnt_circuit *c, long v, int all, nnt_rng *r, double *x, uint8_t *xb) {
  for (int i = 0; i < c->ninputs; i++) {
    xb[i] = all ? (uint8_t)((v >> i) & 1) : (uint8_t)nnt_rng_below(r, 2);
    x[i] = xb[i];
  }
}

static double median(double *v, int n) {
  for (int i = 1; i < n; i++) /* insertion sort: n is small */
    for (int k = i; k > 0 && v[k] < v[k - 1]; k--) {
      double t = v[k];
      v[k] = v[k - 1], v[k - 1] = t;
    }
  return n ? (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])) : NAN;
}

static int margin_file(copts *o) {
  nnt_circuit c;
  nnt_circuit_layered L;
  nnt_mlp nets[3];
  int st = load(o->file, 0, &c, &L, NULL), nk = 2;
  if (st) return st;
  const char *kinds[3] = {"compiled", "compiled+correction", "net"};
  if (o->output >= c.noutputs) {
    st = nnt_fail(NNT_EINVAL, "--output: the circuit has %d outputs", c.noutputs);
    goto out0;
  }
  nnt_circuit_compile(&L, 0, &nets[0]);
  nnt_circuit_compile(&L, 1, &nets[1]);
  add_head(&nets[0], o->output), add_head(&nets[1], o->output);
  if (o->net) {
    if ((st = nnt_mlp_load(o->net, &nets[2]))) goto out1;
    nk = 3;
    if (nnt_mlp_input_dim(&nets[2]) != c.ninputs || nnt_mlp_output_dim(&nets[2]) <= o->output) {
      st = nnt_fail(NNT_EINVAL, "%s: the net has %d inputs and %d outputs; the circuit has %d inputs", o->net,
                    nnt_mlp_input_dim(&nets[2]), nnt_mlp_output_dim(&nets[2]), c.ninputs);
      goto out1;
    }
    if ((st = check_acts(&nets[2], o->net))) goto out1;
    if (!o->logit) add_head(&nets[2], o->output);
  }
  if ((st = cli_begin(&o->co))) goto out1;
  double t0 = nnt_now();
  int n = o->inputs > 0 ? o->inputs : (o->co.quick ? 4 : 16), all = c.ninputs < 30 && (1L << c.ninputs) <= n;
  if (all) n = 1 << c.ninputs;
  nnt_csv csv;
  if ((st = nnt_csv_open(&csv, o->co.out, "margins.csv", "input,bits,label,kind,output,rho_upper,rho_lower_lipschitz,best_layer,forward_passes")))
    goto out1;
  double *x = nnt_xmalloc(sizeof(double) * (size_t)(c.ninputs + 1)), *rho = nnt_xmalloc(sizeof(double) * 3 * (size_t)n);
  uint8_t *xb = nnt_xmalloc((size_t)c.ninputs + 1), *yb = nnt_xmalloc((size_t)c.noutputs);
  char *bits = nnt_xmalloc((size_t)c.ninputs + 1);
  nnt_rng rng;
  nnt_rng_init(&rng, o->co.seed, 0);
  nnt_circuit_margin_opts mo;
  nnt_circuit_margin_opts_default(&mo);
  double lowmin[3] = {0, 0, 0};
  nnt_progress pr;
  nnt_progress_start(&pr, "margin", (long)n * nk);
  for (int v = 0; v < n; v++) {
    pick_input(&c, v, all, &rng, x, xb);
    nnt_circuit_eval(&c, xb, yb);
    for (int i = 0; i < c.ninputs; i++) bits[i] = (char)('0' + xb[c.ninputs - 1 - i]);
    bits[c.ninputs] = 0;
    for (int k = 0; k < nk; k++) {
      mo.seed = o->co.seed * 1000003ULL + (uint64_t)v * 3 + (uint64_t)k;
      int jj = o->logit && k == 2 ? o->output : 0;
      nnt_circuit_margin_result r = nnt_circuit_margin(&nets[k], x, jj, yb[o->output], &mo);
      double lower = nnt_circuit_margin_lower(&nets[k], x, jj, yb[o->output]);
      rho[k * n + v] = r.rho;
      lowmin[k] = v == 0 || lower < lowmin[k] ? lower : lowmin[k];
      nnt_csv_row(&csv, "%d,%s,%d,%s,%.17g,%.17g,%.17g,%d,%ld", v, bits, yb[o->output], kinds[k], r.output, r.rho,
                  lower, r.best_layer, r.forward_passes);
      nnt_progress_add(&pr, 1);
    }
  }
  nnt_progress_end(&pr);
  if ((st = nnt_csv_close(&csv))) goto out2;
  nnt_plot *p = nnt_plot_new("all-layer margin (upper bound), per input", "input (sorted by margin)", "rho");
  double *xs = nnt_xmalloc(sizeof(double) * (size_t)n);
  for (int k = 0; k < nk; k++) {
    double *r = rho + (size_t)k * n;
    double med = median(r, n); /* sorts r */
    for (int v = 0; v < n; v++) xs[v] = v;
    nnt_plot_add(p, n, xs, r, kinds[k], NNT_PLOT_LINE | NNT_PLOT_POINTS);
    printf("margin %-20s min=%.4g median=%.4g max=%.4g (upper bounds, %d inputs, output %d); "
           "certified lower bound min=%.3g\n", kinds[k], r[0], med, r[n - 1], n, o->output, lowmin[k]);
  }
  st = nnt_plot_save(p, o->co.out, "margins");
  nnt_plot_free(p);
  free(xs);
  if (!st) {
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddStringToObject(cfg, "circuit", o->file);
    if (o->net) cJSON_AddStringToObject(cfg, "net", o->net);
    cJSON_AddNumberToObject(cfg, "inputs", n);
    cJSON_AddNumberToObject(cfg, "output", o->output);
    st = nnt_runinfo_write(o->co.out, "nnt circuit margin", cfg, o->co.seed, o->co.threads, nnt_now() - t0);
  }
out2:
  free(x), free(rho), free(xb), free(yb), free(bits);
out1:
  for (int k = 0; k < nk; k++) nnt_mlp_free(&nets[k]);
out0:
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  return st;
}

typedef struct {
  int ndepths;
  double depth[32], med[2][32], lo[2][32], hi[2][32], low[2][32]; /* low: median certified lower bound */
} sweep_result;

/* A chain of q ID gates, x -> y: Claim 3.5's product network as the compiler builds it. */
static void chain_circuit(int q, nnt_circuit *c) {
  size_t cap = 64 + (size_t)q * 40, len = 0;
  char *s = nnt_xmalloc(cap);
  len += (size_t)snprintf(s, cap, "INPUT(g0)\nOUTPUT(g%d)\n", q);
  for (int i = 1; i <= q; i++) len += (size_t)snprintf(s + len, cap - len, "g%d = BUFF(g%d)\n", i, i - 1);
  nnt_circuit_parse_bench(s, len, "chain", c); /* well formed by construction */
  free(s);
}

/* Circuits of each depth (family 0: a chain of ID gates, both inputs; family 1: random layered
 * circuits): the margin without corrections falls with depth, with corrections it stays put
 * (Claim 3.5, Lemma 3.3, Theorem D.6). */
static int margin_sweep(const cli_common *co, int family, const long *depths, int nd, int width, int circuits,
                        int inputs, sweep_result *res) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, co->out, "margin_depth.csv",
                        "depth,circuit,input,label,kind,layers,l1_norm,rho_upper,rho_lower_lipschitz,best_layer");
  if (st) return st;
  const char *kinds[2] = {"compiled", "compiled+correction"};
  int m = family ? width : 1;
  if (!family) circuits = 1, inputs = 2;
  double *vals = nnt_xmalloc(sizeof(double) * (size_t)circuits * inputs);
  nnt_progress pr;
  nnt_progress_start(&pr, "margin sweep", (long)nd * circuits * inputs * 2);
  res->ndepths = nd;
  for (int di = 0; di < nd; di++) {
    int q = (int)depths[di];
    double *per[2], *lows[2];
    for (int k = 0; k < 2; k++) {
      per[k] = nnt_xmalloc(sizeof(double) * (size_t)circuits * inputs);
      lows[k] = nnt_xmalloc(sizeof(double) * (size_t)circuits * inputs);
    }
    for (int ci = 0; ci < circuits; ci++) {
      nnt_circuit c;
      nnt_circuit_layered L;
      nnt_mlp net[2];
      if (family) nnt_circuit_random(m, q, width, co->seed, (uint64_t)(q * 1000 + ci), &c);
      else chain_circuit(q, &c);
      nnt_circuit_layer(&c, &L);
      for (int k = 0; k < 2; k++) nnt_circuit_compile(&L, k, &net[k]), add_head(&net[k], 0);
      nnt_rng rng;
      nnt_rng_init(&rng, co->seed, (uint64_t)(q * 1000 + ci) + 1000000);
      double x[256];
      uint8_t xb[256], y;
      for (int v = 0; v < inputs; v++) {
        pick_input(&c, v, !family, &rng, x, xb);
        nnt_circuit_eval(&c, xb, &y);
        for (int k = 0; k < 2; k++) {
          nnt_circuit_margin_opts mo;
          nnt_circuit_margin_opts_default(&mo);
          mo.seed = co->seed ^ ((uint64_t)q << 40 | (uint64_t)ci << 20 | (uint64_t)v << 2 | (uint64_t)k);
          nnt_circuit_margin_result r = nnt_circuit_margin(&net[k], x, 0, y, &mo);
          nnt_mlp_stats s = nnt_mlp_stats_of(&net[k]);
          per[k][ci * inputs + v] = r.rho;
          double lower = nnt_circuit_margin_lower(&net[k], x, 0, y);
          lows[k][ci * inputs + v] = lower;
          nnt_csv_row(&csv, "%d,%d,%d,%d,%s,%d,%.17g,%.17g,%.17g,%d", q, ci, v, y, kinds[k], s.layers, s.l1_norm,
                      r.rho, lower, r.best_layer);
          nnt_progress_add(&pr, 1);
        }
      }
      nnt_mlp_free(&net[0]), nnt_mlp_free(&net[1]), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
    }
    res->depth[di] = q;
    int n = circuits * inputs;
    for (int k = 0; k < 2; k++) {
      memcpy(vals, per[k], sizeof(double) * (size_t)n);
      res->med[k][di] = median(vals, n);
      res->lo[k][di] = vals[n / 10];
      res->hi[k][di] = vals[n - 1 - n / 10];
      memcpy(vals, lows[k], sizeof(double) * (size_t)n);
      res->low[k][di] = median(vals, n);
      free(per[k]), free(lows[k]);
    }
  }
  nnt_progress_end(&pr);
  free(vals);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new(family ? "all-layer margin vs depth (random layered circuits)"
                                    : "all-layer margin vs depth (chain of ID gates)", "circuit depth q",
                             "all-layer margin: upper (solid), certified lower (dashed)");
  nnt_plot_log(p, 1, 1);
  for (int k = 0; k < 2; k++) {
    int s = nnt_plot_add(p, nd, res->depth, res->med[k], kinds[k], NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_band(p, nd, res->depth, res->lo[k], res->hi[k], s);
  }
  for (int k = 0; k < 2; k++) { /* certified lower bounds, dashed (may underflow the log axis: skip zeros) */
    double xs[32], ys[32];
    int np = 0;
    for (int d = 0; d < nd; d++)
      if (res->low[k][d] > 0) xs[np] = res->depth[d], ys[np++] = res->low[k][d];
    char label[64];
    snprintf(label, sizeof label, "%s: certified lower bound", kinds[k]);
    if (np) nnt_plot_add(p, np, xs, ys, label, NNT_PLOT_DASHED | NNT_PLOT_POINTS);
  }
  st = nnt_plot_save(p, co->out, "margin_depth");
  nnt_plot_free(p);
  return st;
}

static int cmd_margin(int argc, char **argv) {
  copts o;
  int st = parse_opts(argc, argv, &o, "nnt-circuit-margin", 2, "nnt circuit margin [FILE] [options]");
  if (st) return st;
  if (o.co.help) return fputs(help, stdout), NNT_OK;
  if (o.file) {
    if (o.ndepths || o.circuits > 0 || o.family_set)
      return nnt_fail(NNT_EINVAL, "--depths/--circuits/--family: only for the sweep without FILE");
    return margin_file(&o);
  }
  if (o.net || o.logit) return nnt_fail(NNT_EINVAL, "--net: needs a circuit FILE to label the inputs");
  if (!o.ndepths) /* defaults written as a user would type them (no constant tables to copy) */
    cli_parse_int_list("--depths", o.co.quick ? "1,2,4,8" : "1,2,4,...,64", 1, 64, o.depths, 7, &o.ndepths);
  int circuits = o.circuits > 0 ? o.circuits : (o.co.quick ? 2 : 4), inputs = o.inputs > 0 ? o.inputs : (o.co.quick ? 4 : 16);
  if ((st = cli_begin(&o.co))) return st;
  double t0 = nnt_now();
  sweep_result res;
  if ((st = margin_sweep(&o.co, o.family, o.depths, o.ndepths, o.width, circuits, inputs, &res))) return st;
  if (o.family) printf("depth  median_rho_compiled  median_rho_corrected  (upper bounds; random circuits: %d x %d inputs, width %d)\n",
                       circuits, inputs, o.width);
  else printf("depth  median_rho_compiled  median_rho_corrected  (upper bounds; chain of ID gates, inputs 0 and 1)\n");
  for (int d = 0; d < res.ndepths; d++)
    printf("%5g  %19.4g  %20.4g   certified lower bounds: %.3g, %.3g\n", res.depth[d], res.med[0][d], res.med[1][d],
           res.low[0][d], res.low[1][d]);
  cJSON *cfg = cJSON_CreateObject();
  cJSON_AddStringToObject(cfg, "family", o.family ? "random" : "chain");
  cJSON_AddNumberToObject(cfg, "width", o.width);
  cJSON_AddNumberToObject(cfg, "circuits", circuits);
  cJSON_AddNumberToObject(cfg, "inputs", inputs);
  return nnt_runinfo_write(o.co.out, "nnt circuit margin", cfg, o.co.seed, o.co.threads, nnt_now() - t0);
}

/* ---- learn ---- */

static int cmd_learn(int argc, char **argv) {
  copts o;
  int st = parse_opts(argc, argv, &o, "nnt-circuit-learn", 3, "nnt circuit learn [FILE] [options]");
  if (st) return st;
  if (o.co.help) return fputs(help, stdout), NNT_OK;
  int q = o.co.quick;
  if (!o.nwidths) /* defaults written as a user would type them (no constant tables to copy) */
    cli_parse_int_list("--widths", q ? "1,4,16" : "1,4,16,64", 1, 64, o.widths, 4, &o.nwidths);
  if (!o.nns) cli_parse_int_list("--n", q ? "64,256,1024" : "64,128,256,...,4096", 1, 4096, o.ns, 7, &o.nns);
  double lr = o.lr > 0 ? o.lr : (o.sgd ? 0.05 : 1e-3);
  nnt_circuit_learn_opts lo = {o.hidden ? o.hidden : 3, o.steps ? o.steps : (q ? 300 : 2000), 32, lr, o.co.seed, o.sgd};
  int reps = o.reps ? o.reps : 1, ntest = o.ntest ? o.ntest : (q ? 1024 : 4096);
  double eps = o.eps > 0 ? o.eps : 0.05;
  nnt_circuit c;
  const char *cname = o.file ? o.file : "random layered circuit (depth 4, 8 gates per layer before pruning, 16 inputs)";
  uint8_t *X = NULL, *Y = NULL;
  if (o.file) {
    if ((st = nnt_circuit_read(o.file, &c))) return st;
    if (o.output >= c.noutputs || c.ninputs == 0) {
      st = c.ninputs ? nnt_fail(NNT_EINVAL, "--bit: the circuit has %d outputs", c.noutputs)
                     : nnt_fail(NNT_EINVAL, "%s: the circuit has no inputs, nothing to learn", o.file);
      nnt_circuit_free(&c);
      return st;
    }
  }
  X = nnt_xmalloc((size_t)ntest * 64 + 64);
  Y = nnt_xmalloc((size_t)ntest + 1);
  if (!o.file) { /* the first random circuit whose test labels are not too unbalanced */
    if (o.output) return free(X), free(Y), nnt_fail(NNT_EINVAL, "--bit: the random circuit has one output");
    for (uint64_t k = 0;; k++) {
      nnt_circuit_random(16, 4, 8, o.co.seed, 5000 + k, &c);
      X = nnt_xrealloc(X, (size_t)ntest * 16);
      nnt_circuit_sample(&c, 0, ntest, o.co.seed, 1, X, Y);
      long ones = 0;
      for (int i = 0; i < ntest; i++) ones += Y[i];
      if (ones >= ntest / 4 && ones <= 3 * (long)ntest / 4) break;
      nnt_circuit_free(&c);
    }
  } else {
    X = nnt_xrealloc(X, (size_t)ntest * (c.ninputs ? c.ninputs : 1));
    nnt_circuit_sample(&c, o.output, ntest, o.co.seed, 1, X, Y);
  }
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  int r = 1; /* the widest gate layer (the input layer excluded) */
  for (int l = 1; l <= L.depth; l++) r = L.width[l] > r ? L.width[l] : r;
  nnt_circuit_layered_free(&L);
  if ((st = cli_begin(&o.co))) goto out;
  double t0 = nnt_now();
  nnt_csv csv;
  if ((st = nnt_csv_open(&csv, o.co.out, "learn.csv", "width,width_mult,n,rep,test_err,train_err,train_loss,seconds")))
    goto out;
  int nw = o.nwidths, nn = o.nns;
  double *err = nnt_xcalloc((size_t)nw * nn, sizeof(double)), *xs = nnt_xmalloc(sizeof(double) * (size_t)nn);
  printf("circuit: %s, widest gate layer r = %d, %d inputs; test set %d; %d hidden layers, %d %s steps (lr %g), batch 32\n",
         cname, r, c.ninputs, ntest, lo.depth, lo.steps, lo.sgd ? "SGD" : "Adam", lo.lr);
  nnt_progress pr;
  nnt_progress_start(&pr, "learn", (long)nw * nn * reps);
  for (int wi = 0; wi < nw && !st; wi++)
    for (int ni = 0; ni < nn && !st; ni++)
      for (int rep = 0; rep < reps && !st; rep++) {
        int w = (int)(r * o.widths[wi]), n = (int)o.ns[ni];
        nnt_circuit_learn_result res;
        nnt_mlp net;
        int keep = ni == nn - 1 && rep == 0;
        double t0 = nnt_now();
        st = nnt_circuit_learn(&c, o.output, w, n, &lo, (uint64_t)(wi * 1000 + ni) * 1000 + (uint64_t)rep, X, Y, ntest,
                               &res, keep ? &net : NULL);
        if (st) break;
        nnt_csv_row(&csv, "%d,%ld,%d,%d,%.6f,%.6f,%.6g,%.2f", w, o.widths[wi], n, rep, res.test_err, res.train_err,
                    res.train_loss, nnt_now() - t0);
        err[wi * nn + ni] += res.test_err / reps;
        if (keep) {
          char name[64], path[1024];
          snprintf(name, sizeof name, "trained_w%d.json", w);
          st = nnt_mlp_save(&net, nnt_path(path, sizeof path, o.co.out, name));
          nnt_mlp_free(&net);
        }
        nnt_progress_add(&pr, 1);
      }
  nnt_progress_end(&pr);
  if (st) {
    nnt_afile_abort(&csv.a);
    goto out2;
  }
  if ((st = nnt_csv_close(&csv))) goto out2;
  printf("test error (mean over %d rep%s)\n%8s", reps, reps > 1 ? "s" : "", "n \\ w");
  for (int wi = 0; wi < nw; wi++) printf(" %8ld", r * o.widths[wi]);
  printf("\n");
  for (int ni = 0; ni < nn; ni++) {
    printf("%8ld", o.ns[ni]);
    for (int wi = 0; wi < nw; wi++) printf(" %8.4f", err[wi * nn + ni]);
    printf("\n");
  }
  nnt_plot *p = nnt_plot_new("test error vs training samples, per width", "training samples n", "test error");
  nnt_plot_log(p, 1, 0);
  for (int ni = 0; ni < nn; ni++) xs[ni] = (double)o.ns[ni];
  for (int wi = 0; wi < nw; wi++) {
    char label[64];
    snprintf(label, sizeof label, "w = %ld (%ld r)", r * o.widths[wi], o.widths[wi]);
    nnt_plot_add(p, nn, xs, err + (size_t)wi * nn, label, NNT_PLOT_LINE | NNT_PLOT_POINTS);
  }
  st = nnt_plot_save(p, o.co.out, "learn_error");
  nnt_plot_free(p);
  if (st) goto out2;
  /* the other view: samples needed to reach test error <= eps, vs width (log-log) */
  double wx[16], need[16];
  int np = 0;
  for (int wi = 0; wi < nw; wi++)
    for (int ni = 0; ni < nn; ni++)
      if (err[wi * nn + ni] <= eps) {
        wx[np] = (double)(r * o.widths[wi]), need[np++] = (double)o.ns[ni];
        break;
      }
  char title[128];
  snprintf(title, sizeof title, "samples to reach test error <= %g, vs width", eps);
  p = nnt_plot_new(title, "width w", "samples n");
  nnt_plot_log(p, 1, 1);
  if (np) nnt_plot_add(p, np, wx, need, "trained nets (grid of n)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  st = nnt_plot_save(p, o.co.out, "learn_samples");
  nnt_plot_free(p);
  printf("samples to reach test error <= %g:", eps);
  for (int i = 0; i < np; i++) printf(" w=%g:n=%g", wx[i], need[i]);
  printf("%s\n", np < nw ? " (other widths: not reached on the grid)" : "");
  if (!st) {
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddStringToObject(cfg, "circuit", cname);
    cJSON_AddNumberToObject(cfg, "r", r);
    cJSON_AddNumberToObject(cfg, "hidden_layers", lo.depth);
    cJSON_AddNumberToObject(cfg, "steps", lo.steps);
    cJSON_AddNumberToObject(cfg, "batch", lo.batch);
    cJSON_AddNumberToObject(cfg, "lr", lo.lr);
    cJSON_AddStringToObject(cfg, "optimizer", lo.sgd ? "sgd (momentum 0.9)" : "adam");
    cJSON_AddNumberToObject(cfg, "test", ntest);
    cJSON_AddNumberToObject(cfg, "reps", reps);
    st = nnt_runinfo_write(o.co.out, "nnt circuit learn", cfg, o.co.seed, o.co.threads, nnt_now() - t0);
  }
out2:
  free(err), free(xs);
out:
  free(X), free(Y);
  nnt_circuit_free(&c);
  return st;
}

int cmd_circuit(int argc, char **argv) {
  if (argc < 2) return nnt_fail(NNT_EINVAL, "missing subcommand (compile, verify, margin, learn; see --help)");
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) return fputs(help, stdout), NNT_OK;
  if (!strcmp(argv[1], "compile")) return cmd_compile(argc - 1, argv + 1);
  if (!strcmp(argv[1], "verify")) return cmd_verify(argc - 1, argv + 1);
  if (!strcmp(argv[1], "margin")) return cmd_margin(argc - 1, argv + 1);
  if (!strcmp(argv[1], "learn")) return cmd_learn(argc - 1, argv + 1);
  return nnt_fail(NNT_EINVAL, "unknown subcommand '%s' (compile, verify, margin, learn)", argv[1]);
}

/* ---- tour ---- */

/* An n-bit ripple-carry adder in .bench text (2n inputs, n + 1 outputs), parsed from memory. */
static char *adder_bench(int n) {
  size_t cap = 4096 + (size_t)n * 256, len = 0;
  char *s = nnt_xmalloc(cap);
  for (int i = 0; i < n; i++) len += (size_t)snprintf(s + len, cap - len, "INPUT(a%d)\n", i);
  for (int i = 0; i < n; i++) len += (size_t)snprintf(s + len, cap - len, "INPUT(b%d)\n", i);
  for (int i = 0; i <= n; i++) len += (size_t)snprintf(s + len, cap - len, "OUTPUT(s%d)\n", i);
  for (int i = 0; i < n; i++) {
    len += (size_t)snprintf(s + len, cap - len, "p%d = XOR(a%d, b%d)\ng%d = AND(a%d, b%d)\n", i, i, i, i, i, i);
    if (!i) len += (size_t)snprintf(s + len, cap - len, "s0 = BUFF(p0)\nc1 = BUFF(g0)\n");
    else
      len += (size_t)snprintf(s + len, cap - len, "s%d = XOR(p%d, c%d)\nt%d = AND(p%d, c%d)\nc%d = OR(g%d, t%d)\n", i, i,
                              i, i, i, i, i + 1, i, i);
  }
  snprintf(s + len, cap - len, "s%d = BUFF(c%d)\n", n, n);
  return s;
}

int tour_circuits(cli_tour *t) {
  char dir[1024];
  nnt_path(dir, sizeof dir, t->out, "circuits");
  char *text = adder_bench(8);
  nnt_circuit c;
  int st = nnt_circuit_parse_bench(text, strlen(text), "adder8.bench", &c);
  free(text);
  if (st) return st;
  nnt_circuit_layered L;
  nnt_circuit_layer(&c, &L);
  cli_tour_printf(t, "## Circuits → ReLU nets (seed 000, Lemma 3.2 / B.1, Lemma 3.3)\n\n"
                  "An 8-bit ripple-carry adder (%d inputs, %d outputs, %ld gates) layered to depth q = %d, "
                  "width r = %d, size s = %ld (%ld ID gates inserted), compiled to a ReLU net and checked against "
                  "direct evaluation on every one of its 2^16 inputs (the net's own batched forward pass; "
                  "`nnt circuit verify examples/circuits/adder10.bench` does the same for 2^20):\n\n"
                  "| net | layers | hidden nodes | params | nonzero | ‖θ‖₁ | inputs checked | mismatches | time (s) |\n"
                  "|---|---|---|---|---|---|---|---|---|\n",
                  c.ninputs, c.noutputs, L.orig_gates, L.depth, L.width_max, L.size, L.id_gates);
  for (int k = 0; k < 2; k++) {
    nnt_mlp net;
    nnt_circuit_compile(&L, k, &net);
    double t0 = nnt_now();
    nnt_circuit_verify_result r = nnt_circuit_verify(&c, &net, 20, 0, t->seed);
    nnt_mlp_stats s = nnt_mlp_stats_of(&net);
    cli_tour_printf(t, "| %s | %d | %ld | %ld | %ld | %.0f | %ld | %s%ld | %.2f |\n",
                    k ? "with correction layers" : "Lemma B.1", s.layers, s.hidden_units, s.params, s.nonzero_params,
                    s.l1_norm, r.checked, r.mismatches ? "**FAIL** " : "", r.mismatches, nnt_now() - t0);
    cli_tour_checks(t, !r.mismatches, !!r.mismatches);
    nnt_mlp_free(&net);
  }
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  static const long depths[] = {1, 2, 4, 8, 16};
  cli_common co;
  cli_common_init(&co, dir);
  co.out = dir;
  co.seed = t->seed;
  sweep_result res;
  if ((st = margin_sweep(&co, 0, depths, 5, 1, 1, 2, &res))) return st;
  cli_tour_printf(t, "\nAll-layer margin (eq. 2.1, parameter space; upper bounds from checked perturbations and "
                  "certified Lipschitz lower bounds, docs/circuits_tm.md) of a compiled chain of q ID gates (Claim 3.5's "
                  "setting), with the readout z ↦ 2z − 1; median over the inputs 0 and 1:\n\n"
                  "| depth q | upper, without correction | upper, with correction | lower, without | lower, with |\n"
                  "|---|---|---|---|---|\n");
  for (int d = 0; d < res.ndepths; d++)
    cli_tour_printf(t, "| %g | %.4f | %.4f | %.2g | %.2g |\n", res.depth[d], res.med[0][d], res.med[1][d], res.low[0][d],
                    res.low[1][d]);
  cli_tour_printf(t, "\n![margin vs depth](circuits/margin_depth.png)\n");
  return NNT_OK;
}
