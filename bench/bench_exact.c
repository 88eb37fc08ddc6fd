/* nnt bench exact — the exact constructions timed at the sizes the issues name: a 20-input circuit
 * compiled and checked on all 2^20 inputs, c432 on 10^5 random inputs, the compiled BB(4) and a
 * 10^4-step Turing machine run step by step against the simulation, Delta^L swept exactly.
 * needs: circuits tm approx
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "commands.h"
#include "nnt_approx.h"
#include "nnt_blas.h"
#include "nnt_circuits.h"
#include "nnt_io.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

static double peak_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static int bench_circuit(const char *path, int correct) {
  nnt_circuit c;
  int st = nnt_circuit_read(path, &c);
  if (st) return st;
  double t0 = nnt_now();
  nnt_circuit_layered L;
  nnt_smlp net;
  nnt_circuit_layer(&c, &L);
  nnt_circuit_compile_sparse(&L, correct, &net);
  double t1 = nnt_now();
  nnt_circuit_verify_counts r = nnt_circuit_verify(&c, &net, 20, 100000, 1);
  double t2 = nnt_now();
  nnt_mlp_stats s = nnt_smlp_stats_of(&net);
  printf("%-44s %3s %8ld %9ld %9.3f %9.2f %8.1f\n", base_name(path), correct ? "yes" : "no", s.nonzero_params, r.checked, t1 - t0,
         t2 - t1, peak_mb());
  nnt_smlp_free(&net);
  nnt_circuit_layered_free(&L);
  nnt_circuit_free(&c);
  return r.mismatches ? nnt_fail(NNT_ECHECK, "%s: %ld mismatches", path, r.mismatches) : NNT_OK;
}

static int bench_machine(const char *spec, long T, nnt_tm_precision prec) {
  nnt_tm tm;
  int st = nnt_tm_load(spec, &tm);
  if (st) return st;
  nnt_tm_trace tr;
  nnt_tm_net net;
  double t0 = nnt_now();
  if ((st = nnt_tm_simulate(&tm, T, &tr)) || (st = nnt_tm_compile(&tm, T, &net))) {
    nnt_tm_free(&tm);
    return st;
  }
  double t1 = nnt_now();
  nnt_tm_run_opts o = {.attention = NNT_TM_HARD, .precision = prec};
  nnt_tm_run_result r;
  st = nnt_tm_net_run(&net, &tm, &tr, &o, &r);
  double t2 = nnt_now();
  printf("%-30s %7ld %4s %9.3f %9.2f %10.1f %10.1f %8.1f\n", base_name(spec), T, prec == NNT_TM_F32 ? "f32" : "f64", t1 - t0,
         t2 - t1, r.step_us[0], r.step_us[9], (double)r.cache_bytes / 1048576.0);
  nnt_tm_net_free(&net);
  nnt_tm_trace_free(&tr);
  nnt_tm_free(&tm);
  if (!st && r.mismatches) st = nnt_fail(NNT_ECHECK, "%s: %ld mismatches", spec, r.mismatches);
  return st;
}

typedef struct {
  const char *data;
} bench_cfg;
static void bench_default(void *cfg, nnt_preset preset) {
  (void)preset;
  ((bench_cfg *)cfg)->data = NNT_SOURCE_DIR; /* the source folder nnt was built from */
}
static const cli_opt bench_opts[] = {
    CLI_STR("data", bench_cfg, data, "the nnt source folder holding examples/ (its sibling shared/reference/ adds c432); default: the folder nnt was built from"),
    {0}};

/* DIR/rel into buf, or NULL (and a line saying so) when it does not exist. */
static const char *input(char *buf, size_t n, const char *dir, const char *rel) {
  nnt_path(buf, n, dir, rel);
  if (nnt_file_exists(buf)) return buf;
  printf("(skipped %s: not found under %s; see --data)\n", rel, dir);
  return NULL;
}

/* The measurements are the console table, printed as they are taken. */
static int bench_run(void *cfg, const cli_run *r, void *res) {
  const bench_cfg *c = cfg;
  (void)r, (void)res;
  char path[1024];
  int st;

  printf("circuits: compile (layer + Lemma B.1) and verify against direct evaluation, %d thread(s)\n", nnt_threads_get());
  printf("%-44s %3s %8s %9s %9s %9s %8s\n", "circuit", "cor", "nonzero", "inputs", "compile s", "verify s", "rss MB");
  static const char *circuits[] = {"examples/circuits/adder10.bench", "../shared/reference/circuits/c432.bench"};
  for (int i = 0; i < 2; i++) {
    const char *f = input(path, sizeof path, c->data, circuits[i]);
    for (int corr = 0; corr < 2 && f; corr++)
      if ((st = bench_circuit(f, corr))) return st;
  }

  printf("\nTuring machines: compile and run the transformer, every step checked against the simulation\n");
  printf("%-30s %7s %4s %9s %9s %10s %10s %8s\n", "machine", "T", "prec", "compile s", "run s", "us/step 1st",
         "us/step last", "cache MB");
  static const struct {
    const char *spec;
    long T;
  } machines[] = {{"examples/tm/bb4.tm", 107}, {"examples/tm/counter.tm", 10000}};
  for (int i = 0; i < 2; i++) {
    const char *f = input(path, sizeof path, c->data, machines[i].spec);
    for (int p = 0; p < 2 && f; p++)
      if ((st = bench_machine(f, machines[i].T, p ? NNT_TM_F32 : NNT_TM_F64))) return st;
  }

  /* seed 004's spec: the largest sensible run, Delta^22, in under about 10 s (approx check's Q18
   * checks its pieces; the time is this bench's) */
  printf("\nexact piecewise-linear sweep of Delta^L on [0, 1] (Delta^22: target < 10 s CPU)\n%4s %10s %9s %9s %8s\n", "L",
         "pieces", "seconds", "cpu s", "rss MB");
  for (int L = 16; L <= 22; L += 2) {
    nnt_mlp d;
    nnt_mlp_init(&d);
    nnt_approx_build_delta(&d, L);
    nnt_approx_pwl_summary s;
    double t0 = nnt_now();
    clock_t c0 = clock();
    st = nnt_approx_pwl_summarize(&d, NULL, 0, 1, &s);
    double el = nnt_now() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    nnt_mlp_free(&d);
    if (st) return st;
    printf("%4d %10ld %9.3f %9.3f %8.1f\n", L, s.pieces, el, cpu, peak_mb());
    if (s.pieces != 1L << L) return nnt_fail(NNT_ECHECK, "Delta^%d: %ld pieces, expected %ld", L, s.pieces, 1L << L);
  }
  return NNT_OK;
}

static const cli_cmd bench_cmd = {
    .name = "bench exact",
    .example = "nnt bench exact --data .",
    .about = "The exact constructions' cost: circuits compiled and verified, Turing machines compiled and\n"
             "run step by step, the PWL engine. Inputs missing under --data are skipped, with a line saying so.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_cfg),
    .cfg_default = bench_default,
    .run = bench_run,
    .common = CLI_OUT};

static int run(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

const cli_bench cli_bench_exact = {"exact", run};
