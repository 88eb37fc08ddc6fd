/* nnt bench qstr — wall time of the reference sweeps (Figure 1a protocol of the released code)
 * against the PyTorch reference runs on this machine kind, and the medians against its medians. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_progress.h"
#include "nnt_qstr.h"

/* shared/reference/qstr_pytorch_reference.md: medians for N = 2..12 and 1-thread wall times */
static const double ref_tr[6] = {2560, 7040, 12800, 16000, 16000, 17280};
static const double ref_ffn[6] = {1920, 9600, 22400, 39040, 58880, 122240};
static const double ref_wall[2] = {182, 1448};

/* CPU time of the process (user + system): on a shared machine, the figure that load does not inflate */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

static const char *help =
    "usage: nnt bench qstr [--threads N] [--quick] [--model tr|ffn|rnn|all] [--reps R]\n"
    "Times the full reference sweeps (5 reps, N = 2..12, n_test 5000, check every 10, threshold 0.7,\n"
    "train 1STR / test simple-1STR, as the released code) on --threads (default 1) and compares wall\n"
    "time and per-N medians with the PyTorch reference runs (182 s transformer, 1448 s FFN on 1 thread).\n"
    "--model rnn times the biGRU-500 sweep (PyTorch: about 75 min). --quick: 1 rep, n_test 1000.\n";

int bench_qstr(int argc, char **argv) {
  nnt_common co;
  nnt_common_init(&co, NULL);
  co.threads = 1;
  static const char *const models[] = {"tr", "ffn", "rnn", "all", NULL};
  int model = 3, reps = 5, nN = 6;
  long blas_min = -1, Ns[6] = {2, 4, 6, 8, 10, 12};
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"model", required_argument, 0, 'm'}, {"reps", required_argument, 0, 'r'},
                                       {"blas-min", required_argument, 0, 'b'}, {"N", required_argument, 0, 'N'}, {0, 0, 0, 0}};
  nnt_cli_reset();
  int c, st;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if (c == 'm') st = nnt_parse_choice("--model", optarg, models, &model);
    else if (c == 'r') st = nnt_parse_int("--reps", optarg, 1, 100, &reps);
    else if (c == 'b') st = nnt_parse_long("--blas-min", optarg, 0, 1L << 40, &blas_min);
    else if (c == 'N') {
      st = nnt_parse_int_list("--N", optarg, 2, 12, Ns, 6, &nN);
      for (int k = 0; !st && k < nN; k++)
        if (Ns[k] % 2) st = nnt_fail(NNT_EINVAL, "--N: the reference has even N = 2..12 only");
    }
    else st = nnt_cli_common(c, argv, &co);
    if (st) return st;
  }
  if (co.help) return fputs(help, stdout), NNT_OK;
  if ((st = nnt_cli_positional(argc, argv, 0, "nnt bench qstr [options]"))) return st;
  if ((st = nnt_cli_begin(&co))) return st;
  if (blas_min >= 0) nnt_qstr_set_blas_min(blas_min);
  static const nnt_qstr_arch arch[3] = {NNT_QSTR_TR, NNT_QSTR_FFN, NNT_QSTR_GRU};
  printf("qstr reference sweeps, %d thread(s)%s\n", nnt_threads_get(), co.quick ? ", quick (1 rep, n_test 1000)" : "");
  for (int a = 0; a < 3; a++) {
    if (model != 3 ? model != a : a == 2) continue;
    nnt_qstr_sweep_cfg s;
    memset(&s, 0, sizeof s);
    s.arch = arch[a];
    nnt_qstr_task_cfg_default(&s.task, 2);
    nnt_qstr_train_cfg_default(&s.train);
    s.train.test_simple = 1, s.train.n_test = co.quick ? 1000 : 5000;
    s.m = 100, s.H = 500;
    if (s.arch == NNT_QSTR_FFN) s.n_hidden = 2, s.hidden[0] = 0, s.hidden[1] = 1000;
    s.nN = nN;
    for (int k = 0; k < nN; k++) s.Ns[k] = (int)Ns[k];
    s.reps = co.quick ? 1 : reps;
    s.seed = co.seed;
    nnt_qstr_point *pts = nnt_xcalloc((size_t)s.nN * s.reps, sizeof *pts);
    double t0 = nnt_now(), c0 = cpu_seconds();
    st = nnt_qstr_sweep(&s, pts);
    double el = nnt_now() - t0;
    if (st) {
      free(pts);
      return st;
    }
    double cpu = cpu_seconds() - c0;
    printf("\n%s: wall %.2f s, process CPU %.2f s", nnt_qstr_arch_names[s.arch], el, cpu);
    if (a < 2 && nN == 6 && s.reps == 5)
      printf(" (PyTorch 1 thread: %.0f s; speed-up %.1fx wall, %.1fx CPU)", ref_wall[a], ref_wall[a] / el, ref_wall[a] / cpu);
    else printf(" (PyTorch estimate: ~4500 s)");
    printf("\n%4s %10s %10s %8s %6s\n", "N", "median", "reference", "ratio", "cens");
    for (int k = 0; k < s.nN; k++) {
      long v[100];
      int cens = 0;
      for (int r = 0; r < s.reps; r++) v[r] = pts[k * s.reps + r].r.samples, cens += pts[k * s.reps + r].r.censored;
      qsort(v, s.reps, sizeof(long), cmp_long);
      double med = s.reps % 2 ? v[s.reps / 2] : 0.5 * (v[s.reps / 2 - 1] + v[s.reps / 2]);
      if (a < 2) {
        double ref = (a ? ref_ffn : ref_tr)[(s.Ns[k] - 2) / 2];
        printf("%4d %10.0f %10.0f %8.2f %6d\n", s.Ns[k], med, ref, med / ref, cens);
      } else printf("%4d %10.0f %10s %8s %6d\n", s.Ns[k], med, "-", "-", cens);
    }
    free(pts);
  }
  return NNT_OK;
}
