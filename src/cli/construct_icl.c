/* nnt icl construct / construct-sweep: the explicit Theorem-1 transformer running projected GD in
 * its forward pass, checked step by step against direct projected GD (net.c's backprop). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "commands.h"
#include "nnt_icl_construct.h"
#include "nnt_io.h"
#include "report_icl.h"

enum { MAX_M = 64 };
typedef struct {
  nnt_icl_construct_cfg c;
  int Ms[MAX_M], nM, Ns[MAX_M], nN, Ks[MAX_M], nK, ns[MAX_M], nn;
  double tol;
  int layers;
} construct_opts;

static void defaults(void *p, int quick) {
  construct_opts *o = p;
  nnt_icl_construct_cfg_default(&o->c, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL);
  o->nM = 0;
  for (int M = 8; M <= 256; M *= 2) o->Ms[o->nM++] = M;
  o->Ns[0] = o->c.net.N, o->Ks[0] = o->c.net.K, o->ns[0] = o->c.n, o->nN = o->nK = o->nn = 1;
  o->tol = 0, o->layers = 0;
}

#define O construct_opts
#define COMMON_OPTS                                                                                                  \
  CLI_INT("dx", O, c.net.dx, 1, 4096, "input dimension"), CLI_INT("dy", O, c.net.dy, 1, 4096, "output dimension"),      \
      CLI_CHOICE("act", O, c.net.act, nnt_icl_act_names, "activation r (the theorem needs a smooth one)"),          \
      CLI_INT("out-act", O, c.net.out_act, 0, 1, "1: r also on the output layer (Definition 1); 0: linear output"), \
      CLI_INT("steps", O, c.steps, 1, 100000, "GD steps L"), CLI_DOUBLE("eta", O, c.eta, 0, 1e6, "GD step size"),     \
      CLI_DOUBLE("B", O, c.B, 0, 1e12, "clip box [-B,B] of the projection"),                                         \
      CLI_DOUBLE("R", O, c.R, 0, 1e12, "interpolation range [-R,R] of r and r'"),                                    \
      CLI_DOUBLE("w0-std", O, c.w0_std, 0, 1e6, "random start w0 ~ N(0, w0-std^2) in the w slot (0: w0 = 0)"),      \
      CLI_DOUBLE("teacher-std", O, c.teacher_std, 0, 1e6, "labels from a teacher net with N(0, std^2) weights"),     \
      CLI_DOUBLE("gate", O, c.gate, 0, 1e300, "gate constant G of the query (must exceed |p(N) - y|)"),              \
      CLI_INT("readout", O, c.readout, 0, 1, "1: N+1 readout layers give the query prediction after each step")

static const cli_opt construct_options[] = {
    CLI_INT("N", O, c.net.N, 2, 64, "network layers (N-1 hidden of width K, then the output)"),
    CLI_INT("K", O, c.net.K, 1, 4096, "hidden width"),
    CLI_INT("n", O, c.n, 1, 100000, "in-context examples (the prompt has n+1 tokens)"),
    CLI_INT("M", O, c.M, 2, 1000000, "ReLU pieces per interpolated function (r and r')"),
    COMMON_OPTS,
    CLI_DOUBLE("tol", O, tol, 0, 1e300, "exit 1 if max_err exceeds this (0: no check)"),
    CLI_DOUBLE("bound-scale", O, c.bound_scale, 1e-300, 1,
               "scale Theorem 1's interpolation constants by this (< 1: a fault injection the bound check must catch)"),
    CLI_FLAG("layers", O, layers, "print the layer table of one GD step and the readout"),
    CLI_STR("export", O, c.export_path, "write the transformer and its prompt to FILE.safetensors (python/nnt loads it)"),
    {0}};
static const cli_opt sweep_options[] = {
    CLI_INTS("N", O, Ns, nN, 2, 64, "network layers, a list"),
    CLI_INTS("K", O, Ks, nK, 1, 4096, "hidden widths, a list"),
    CLI_INTS("n", O, ns, nn, 1, 100000, "in-context examples, a list"),
    CLI_INTS("M", O, Ms, nM, 2, 1000000, "ReLU pieces, a list"),
    COMMON_OPTS,
    {0}};
#undef O

static const cli_cmd construct_cmd = {
    .name = "icl construct",
    .example = "nnt icl construct --N 3 --K 6 --M 128 --act tanh",
    .about = "Builds the explicit transformer of Theorem 1 (seed 003): (2N+4) layers per GD step (ReLU attention with\n"
             "1/T normalisation, EWML, ReLU MLPs), r and r' as sums of M ReLUs on [-R,R], the squared loss exact,\n"
             "clipping to [-B,B] as the projection. A random teacher labels n examples; the prompt carries a random w0\n"
             "in every token. Each step compares the transformer's w with direct projected GD (backprop) and prints\n"
             "the errors beside Theorem 1's bounds (Lemmas 2-6 for the gradient, Corollary 1.1 for w, evaluated with\n"
             "the construction's constants M, R, B, the data and the weights), losses, the query prediction through\n"
             "N+1 readout layers and the invariants; ends with max_err=E (largest |w_TF - w_GD|_inf) max_bound=B\n"
             "(largest bound on |w_TF - w_GD|_2). Exit 1 if an invariant fails, a measured error exceeds its bound\n"
             "(sigmoid, tanh, softplus, identity) or max_err > --tol (when given).",
    .opts = construct_options,
    .cfg_size = sizeof(construct_opts),
    .defaults = defaults,
    .common = CLI_OUT,
};
static const cli_cmd sweep_cmd = {
    .name = "icl construct-sweep",
    .example = "nnt icl construct-sweep --M 8,16,32,...,256 --out runs/construct-sweep",
    .about = "Runs icl construct for every combination of the lists N, K, n and M and prints |w_TF - w_GD|_2 after the\n"
             "last step, with a log-log fit against M per shape (piecewise-linear interpolation: error ~ M^-2); with\n"
             "--out, sweep.csv, err_vs_M.png/.svg and run.json.",
    .opts = sweep_options,
    .cfg_size = sizeof(construct_opts),
    .defaults = defaults,
    .common = CLI_OUT,
};

int cli_icl_construct(int argc, char **argv) {
  construct_opts o;
  cli_args a;
  int st = cli_parse(&construct_cmd, argc, argv, &o, &a);
  if (st || a.co.help) return st;
  o.c.seed = a.co.seed;
  char command[4096];
  o.c.version = nnt_version(), o.c.command = cli_command_line(command, sizeof command, "nnt icl", argc, argv);
  if ((st = nnt_icl_construct_check(&o.c)) || (st = cli_begin(&a.co))) return st;
  if (o.layers) {
    nnt_icl_tf tf;
    if ((st = nnt_icl_tf_build(&o.c, &tf))) return st;
    cli_icl_layer_table(stdout, &tf);
    nnt_icl_tf_free(&tf);
  }
  nnt_icl_construct_result r;
  if ((st = nnt_icl_construct_run(&o.c, &r))) return st;
  st = cli_icl_construct_report(&a.co, &o.c, &r);
  if (!st && !r.invariants_ok) st = nnt_fail(NNT_ECHECK, "an invariant failed (w copies differ or scratch not cleared)");
  if (!st && !r.bound_ok)
    st = nnt_fail(NNT_ECHECK, "step %d: the measured error exceeds Theorem 1's bound", r.bound_step);
  if (!st && o.tol > 0 && !(r.max_err <= o.tol)) st = nnt_fail(NNT_ECHECK, "max_err=%.3e exceeds --tol %.3e", r.max_err, o.tol);
  nnt_icl_construct_result_free(&r);
  return st;
}

int cli_icl_construct_sweep(int argc, char **argv) {
  construct_opts o;
  cli_args a;
  int st = cli_parse(&sweep_cmd, argc, argv, &o, &a);
  if (st || a.co.help) return st;
  const int np = o.nN * o.nK * o.nn * o.nM;
  nnt_icl_construct_cfg *cf = calloc((size_t)np, sizeof *cf);
  for (int i = 0; i < np; i++) { /* N, K, n outer, M inner: a group of M values per shape */
    cf[i] = o.c;
    cf[i].seed = a.co.seed;
    cf[i].net.N = o.Ns[i / (o.nK * o.nn * o.nM)], cf[i].net.K = o.Ks[i / (o.nn * o.nM) % o.nK];
    cf[i].n = o.ns[i / o.nM % o.nn], cf[i].M = o.Ms[i % o.nM];
    if (!st) st = nnt_icl_construct_check(&cf[i]);
  }
  if (!st) st = cli_begin(&a.co);
  nnt_icl_construct_result *r = calloc((size_t)np, sizeof *r);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int done = 0;
  for (; done < np && !st; done++) st = nnt_icl_construct_run(&cf[done], &r[done]);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (!st)
    st = cli_icl_construct_sweep_report(&a.co, cf, r, np, o.nM,
                                        (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  for (int i = 0; i < done; i++) nnt_icl_construct_result_free(&r[i]);
  free(r), free(cf);
  return st;
}
