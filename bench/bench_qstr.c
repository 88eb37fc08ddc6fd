/* nnt bench qstr — the Figure-1 sweeps of seed 001 timed phase by phase against the core's
 * measured peak, and, with --peer DIR, the paper's released PyTorch code (mousavih/
 * transformers-separation, found in DIR and run, never copied) run right after on the same
 * protocol and thread count: both wall times, their ratio, both sets of medians. The biGRU sweep
 * takes over an hour in PyTorch, so --model rnn compares one training step and one evaluation. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_io.h"
#include "nnt_optim.h"
#include "nnt_params.h"
#include "nnt_progress.h"
#include "nnt_qstr.h"

enum { MAXN = 6, MAXREP = 100 };

/* ---------------------------------------------------------------- the peer process */

/* Runs argv with OMP_NUM_THREADS = threads in directory dir, output to dir/log; returns the wall
 * time in seconds, or -1 if it could not start or did not exit 0. */
static double run_child(char *const argv[], const char *dir, const char *log, int threads) {
  fflush(stdout);
  double t0 = nnt_now();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char th[16];
    snprintf(th, sizeof th, "%d", threads);
    setenv("OMP_NUM_THREADS", th, 1), setenv("MKL_NUM_THREADS", th, 1);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || chdir(dir)) _exit(127);
    dup2(fd, 1), dup2(fd, 2), close(fd);
    execv(argv[0], argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  double el = nnt_now() - t0;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? el : -1;
}

/* The last line of a log, for an error message. */
static void last_line(const char *log, char *buf, size_t n) {
  buf[0] = 0;
  FILE *f = fopen(log, "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f))
    if (line[0] != '\n') snprintf(buf, n, "%s", line);
  fclose(f);
  buf[strcspn(buf, "\n")] = 0;
}

typedef struct {
  const char *dir, *python;
  char tmp[64];
  int threads;
} peer;

static int peer_fail(const char *what, const char *log) {
  char tail[512];
  last_line(log, tail, sizeof tail);
  return nnt_fail(NNT_EIO, "--peer: %s failed (log %s%s%s)", what, log, tail[0] ? ": " : "", tail);
}

/* Checks DIR and the interpreter before any work. */
static int peer_check(peer *pe) {
  char path[4096];
  struct stat sb;
  for (int k = 0; k < 2; k++) {
    snprintf(path, sizeof path, "%s/%s", pe->dir, k ? "setup.py" : "sample_complexity.py");
    if (stat(path, &sb) || !S_ISREG(sb.st_mode))
      return nnt_fail(NNT_EINVAL, "--peer %s: no %s there (expected a clone of mousavih/transformers-separation)",
                      pe->dir, k ? "setup.py" : "sample_complexity.py");
  }
  if (access(pe->python, X_OK))
    return nnt_fail(NNT_EINVAL, "--python %s: not an executable (Debian: apt-get install python3-torch)", pe->python);
  strcpy(pe->tmp, "/tmp/nnt-peer-XXXXXX");
  if (!mkdtemp(pe->tmp)) return nnt_fail(NNT_EIO, "--peer: cannot create a scratch folder in /tmp");
  char log[128];
  snprintf(log, sizeof log, "%s/check.log", pe->tmp);
  char *argv[] = {(char *)pe->python, "-c", "import torch", NULL};
  if (run_child(argv, pe->tmp, log, 1) < 0)
    return nnt_fail(NNT_EINVAL, "--python %s: cannot import torch (Debian: apt-get install python3-torch)", pe->python);
  return NNT_OK;
}

/* Reads a .pt file of the released code (a list of lists of ints) into v[rep][k]. */
static int peer_results(const peer *pe, const char *pt, int reps, int nN, long v[][MAXN]) {
  char json[128], log[128];
  snprintf(json, sizeof json, "%s/results.json", pe->tmp);
  snprintf(log, sizeof log, "%s/read.log", pe->tmp);
  char *argv[] = {(char *)pe->python, "-c",
                  "import json, sys, torch\njson.dump(torch.load(sys.argv[1]), open(sys.argv[2], 'w'))",
                  (char *)pt, json, NULL};
  if (run_child(argv, pe->tmp, log, 1) < 0) return peer_fail("reading its results", log);
  cJSON *root;
  int st = nnt_json_read(json, &root);
  if (st) return st;
  int ok = cJSON_IsArray(root) && cJSON_GetArraySize(root) == reps;
  for (int r = 0; ok && r < reps; r++) {
    cJSON *row = cJSON_GetArrayItem(root, r);
    ok = cJSON_IsArray(row) && cJSON_GetArraySize(row) == nN;
    for (int k = 0; ok && k < nN; k++) {
      cJSON *x = cJSON_GetArrayItem(row, k);
      ok = cJSON_IsNumber(x);
      if (ok) v[r][k] = (long)x->valuedouble;
    }
  }
  cJSON_Delete(root);
  return ok ? NNT_OK : nnt_fail(NNT_EFORMAT, "--peer: %s is not %d repetitions of %d sample counts", pt, reps, nN);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}
/* Removes the scratch folder and whatever the peer wrote into it. */
static void peer_cleanup(peer *pe) {
  nftw(pe->tmp, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
  pe->tmp[0] = 0;
}

/* ---------------------------------------------------------------- reporting */

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}
static double median(long *v, int n) {
  qsort(v, n, sizeof(long), cmp_long);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_machine(double peak, int threads) {
  char model[256] = "unknown CPU", line[512];
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
      snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
      model[strcspn(model, "\n")] = 0;
      break;
    }
  if (f) fclose(f);
  time_t now = time(NULL);
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
  printf("%s, %s, %ld core(s) online, %d thread(s)\nkernels %s; CPU flags: %s\n", date, model,
         sysconf(_SC_NPROCESSORS_ONLN), threads, nnt_cpu_isa_name(nnt_cpu_isa()), nnt_cpu_flags());
  printf("float32 peak of one core at this level (independent FMA chains): %.1f GFLOP/s\n", peak);
}

/* seconds and multiply-adds per phase, summed over the points (thread-seconds on > 1 thread) */
static void print_phases(const nnt_qstr_point *pts, int n, double wall, double peak, int threads) {
  double s[NNT_QSTR_NPHASE] = {0}, m[NNT_QSTR_NPHASE] = {0}, tot = 0, totm = 0;
  for (int i = 0; i < n; i++)
    for (int ph = 0; ph < NNT_QSTR_NPHASE; ph++) s[ph] += pts[i].r.phase_s[ph], m[ph] += pts[i].r.phase_macs[ph];
  for (int ph = 0; ph < NNT_QSTR_NPHASE; ph++) tot += s[ph], totm += m[ph];
  printf("%-22s %10s %7s %10s %9s %7s\n", "phase", threads > 1 ? "thread-s" : "seconds", "share", "GFLOP", "GFLOP/s",
         "% peak");
  for (int ph = 0; ph < NNT_QSTR_NPHASE; ph++) {
    if (m[ph] > 0)
      printf("%-22s %10.2f %6.1f%% %10.1f %9.1f %6.1f%%\n", nnt_qstr_phase_names[ph], s[ph], 100 * s[ph] / tot,
             2e-9 * m[ph], 2e-9 * m[ph] / s[ph], 100 * 2e-9 * m[ph] / s[ph] / peak);
    else printf("%-22s %10.2f %6.1f%% %10s %9s %7s\n", nnt_qstr_phase_names[ph], s[ph], 100 * s[ph] / tot, "-", "-", "-");
  }
  printf("%-22s %10.2f %6.1f%% %10.1f %9.1f %6.1f%%\n", "all (in the points)", tot, 100.0, 2e-9 * totm,
         2e-9 * totm / tot, 100 * 2e-9 * totm / tot / peak);
  printf("outside the points (set-up, threads): %.2f s of %.2f s wall\n", wall - tot / threads, wall);
}

/* ---------------------------------------------------------------- sweeps */

typedef struct {
  int model, reps, nN, quick;
  long Ns[MAXN];
  uint64_t seed;
} sweep_opts;

static void sweep_cfg(const sweep_opts *o, nnt_qstr_arch arch, nnt_qstr_sweep_cfg *s) {
  nnt_qstr_sweep_cfg_default(s, o->quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL);
  s->arch = arch, s->train.test_simple = 1, s->hidden_size = 500;
  s->nN = o->nN;
  for (int k = 0; k < o->nN; k++) s->Ns[k] = (int)o->Ns[k];
  if (!o->quick) s->reps = o->reps;
  s->seed = o->seed;
}

static int bench_sweep(const sweep_opts *o, nnt_qstr_arch arch, peer *pe, double peak, int threads) {
  nnt_qstr_sweep_cfg s;
  sweep_cfg(o, arch, &s);
  const char *name = nnt_qstr_arch_names[arch];
  nnt_qstr_sweep_result sr;
  int st = nnt_qstr_sweep_run(&s, &sr), n = sr.n;
  if (st) return nnt_qstr_sweep_result_free(&sr), st;
  nnt_qstr_point *pts = sr.pts;
  double wall = sr.wall_s;
  printf("\n== %s sweep: %d points, nnt wall %.2f s\n", name, n, wall);
  print_phases(pts, n, wall, peak, threads);
  long v[MAXREP][MAXN], pv[5][MAXN];
  double pwall = 0;
  if (pe) {
    char log[128], res[128], pt[160], thr[16];
    snprintf(log, sizeof log, "%s/sweep.log", pe->tmp);
    snprintf(res, sizeof res, "%s/res", pe->tmp);
    snprintf(pt, sizeof pt, "%s/%s_10_%d.pt", res, name, s.train.n_test);
    snprintf(thr, sizeof thr, "%.2g", s.train.threshold);
    char script[4096], ntest[16];
    snprintf(script, sizeof script, "%s/sample_complexity.py", pe->dir);
    snprintf(ntest, sizeof ntest, "%d", s.train.n_test);
    char *argv[] = {(char *)pe->python, script, "--model", (char *)name, "--check_every", "10", "--n_test", ntest,
                    "--loss_thrsh", thr, "--result_directory", res, NULL};
    printf("running the released code: OMP_NUM_THREADS=%d %s %s --model %s --check_every 10 --n_test %s "
           "--loss_thrsh %s ...\n", threads, pe->python, script, name, ntest, thr);
    pwall = run_child(argv, pe->tmp, log, threads);
    if (pwall < 0) return nnt_qstr_sweep_result_free(&sr), peer_fail("the released code", log);
    if ((st = peer_results(pe, pt, 5, s.nN, pv))) return nnt_qstr_sweep_result_free(&sr), st;
    printf("\n%-12s %12s %12s %8s\n", "sweep", "nnt", "PyTorch", "ratio");
    printf("%-12s %10.2f s %10.2f s %7.1fx   (%d thread(s) each, side by side)\n", name, wall, pwall, pwall / wall,
           threads);
  }
  printf("\n%4s %12s", "N", "nnt median");
  if (pe) printf(" %12s %10s", "PyTorch", "nnt/PyT");
  printf(" %10s\n", "censored");
  int outside = 0;
  for (int k = 0; k < s.nN; k++) {
    int cens = 0;
    for (int r = 0; r < s.reps; r++) v[r][k] = pts[k * s.reps + r].r.samples, cens += pts[k * s.reps + r].r.censored;
    long col[MAXREP];
    for (int r = 0; r < s.reps; r++) col[r] = v[r][k];
    double med = median(col, s.reps);
    printf("%4d %12.0f", s.Ns[k], med);
    if (pe) {
      for (int r = 0; r < 5; r++) col[r] = pv[r][k];
      double pm = median(col, 5), ratio = med / pm;
      outside += fabs(ratio - 1) > 0.25;
      printf(" %12.0f %9.2f%s", pm, ratio, fabs(ratio - 1) > 0.25 ? "*" : " ");
    }
    printf(" %10d\n", cens);
  }
  if (pe) printf("%s\n", outside ? "* outside 25% of the released code's median" : "all medians within 25% of the released code's");
  nnt_qstr_sweep_result_free(&sr);
  return NNT_OK;
}

/* ---------------------------------------------------------------- biGRU step and evaluation */

static const char *gru_script =
    "import json, statistics, sys, time\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import numpy as np, torch\n"
    "from torch.utils.data import DataLoader, TensorDataset\n"
    "from setup import BGRU, embed_input, generate_input, ground_truth, test_MSE\n"
    "torch.manual_seed(42)\n"
    "d, H, steps, n_test, out = 10, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), {}\n"
    "u = torch.randn(d, 1); u /= torch.norm(u)\n"
    "for N in map(int, sys.argv[2].split(',')):\n"
    "    de = int(np.log(N) * 5)\n"
    "    E = 2 * (torch.bernoulli(0.5 * torch.ones(N, de)) - 0.5) / np.sqrt(de)\n"
    "    model = BGRU(d, de, h_size=H, bidirectional=True)\n"
    "    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)\n"
    "    times = []\n"
    "    for k in range(steps + 3):\n"
    "        t0 = time.perf_counter()\n"
    "        X, t = generate_input(64, N, d, False)\n"
    "        y = ground_truth(X, t, u)\n"
    "        opt.zero_grad()\n"
    "        loss = (model(embed_input(X, t, E)) - y).pow(2).mean()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        if k >= 3: times.append(time.perf_counter() - t0)\n"
    "    Xt, tt = generate_input(n_test, N, d, True)\n"
    "    loader = DataLoader(TensorDataset(embed_input(Xt, tt, E), ground_truth(Xt, tt, u)), batch_size=1000)\n"
    "    ev = []\n"
    "    for k in range(3):\n"
    "        t0 = time.perf_counter(); test_MSE(model, loader); ev.append(time.perf_counter() - t0)\n"
    "    out[N] = {'step_s': statistics.median(times), 'eval_s': min(ev)}\n"
    "json.dump(out, open(sys.argv[6], 'w'))\n";

enum { GRU_STEPS = 20, GRU_H = 500 };

/* nnt's median step (draw 64 prompts, forward, backward, AdamW) and best of three evaluations,
 * with the multiply-adds of each. */
static int gru_nnt(int N, int n_test, uint64_t seed, double *step_s, double *step_macs, double *eval_s,
                   double *eval_macs) {
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  nnt_qstr_task task;
  nnt_qstr_model mo;
  int st = nnt_qstr_task_init(&task, &tc, seed);
  if (!st) st = nnt_qstr_model_setup(&mo, NNT_QSTR_GRU, N, task.D, 0, GRU_H, 0, NULL);
  if (st) return st;
  nnt_rng r;
  nnt_rng_init(&r, seed, 7);
  double *p64 = nnt_xmalloc(sizeof(double) * mo.np);
  nnt_qstr_model_init(&mo, &r, p64);
  nnt_params P;
  nnt_qstr_model_params(&mo, &P);
  size_t n;
  float *p = nnt_params_flat_f32(&P, &n), *g = nnt_params_flat_grad_f32(&P, &n);
  for (size_t k = 0; k < mo.np; k++) p[k] = (float)p64[k];
  nnt_optim opt;
  nnt_optim_config oc = nnt_adamw_defaults();
  oc.lr = 1e-3, oc.weight_decay = 0.01;
  nnt_optim_init(&opt, &P, oc);
  int B = 64, D = task.D, Bmax = 128;
  float *X = nnt_xmalloc(sizeof(float) * B * N * D), *y = nnt_xmalloc(sizeof(float) * B * N);
  float *yh = nnt_xmalloc(sizeof(float) * B * N), *dy = nnt_xmalloc(sizeof(float) * B * N);
  nnt_qstr_ws_f32 *ws = nnt_qstr_ws_new_f32(&mo, Bmax);
  double t[GRU_STEPS + 3];
  for (int k = 0; k < GRU_STEPS + 3; k++) {
    double t0 = nnt_now(), m0 = nnt_gemm_macs_done();
    nnt_qstr_sample_f32(&task, &r, B, -1, X, y, NULL);
    nnt_qstr_forward_f32(&mo, ws, p, X, B, yh);
    for (int i = 0; i < B * N; i++) dy[i] = 2.0f / (B * N) * (yh[i] - y[i]);
    memset(g, 0, sizeof(float) * mo.np);
    nnt_qstr_backward_f32(&mo, ws, p, X, B, dy, g);
    nnt_optim_step(&opt);
    t[k] = nnt_now() - t0, *step_macs = nnt_gemm_macs_done() - m0;
  }
  long us[GRU_STEPS];
  for (int k = 0; k < GRU_STEPS; k++) us[k] = (long)(1e9 * t[k + 3]);
  *step_s = 1e-9 * median(us, GRU_STEPS);
  float *Xt = nnt_xmalloc(sizeof(float) * (size_t)n_test * N * D), *yt = nnt_xmalloc(sizeof(float) * (size_t)n_test * N);
  nnt_qstr_sample_f32(&task, &r, n_test, 1, Xt, yt, NULL);
  *eval_s = INFINITY;
  for (int k = 0; k < 3; k++) {
    double t0 = nnt_now(), m0 = nnt_gemm_macs_done();
    nnt_qstr_eval_f32(&mo, ws, Bmax, p, Xt, yt, n_test);
    double el = nnt_now() - t0;
    *eval_s = el < *eval_s ? el : *eval_s, *eval_macs = nnt_gemm_macs_done() - m0;
  }
  free(X), free(y), free(yh), free(dy), free(Xt), free(yt), free(p64);
  nnt_qstr_ws_free_f32(ws);
  nnt_optim_free(&opt);
  nnt_params_free(&P);
  nnt_qstr_task_free(&task);
  return NNT_OK;
}

static int bench_gru(int quick, uint64_t seed, peer *pe, double peak, int threads) {
  static const int Ns[2] = {4, 12};
  int n_test = quick ? 1000 : 5000, st;
  double s[2], sm[2], e[2], em[2];
  for (int k = 0; k < 2; k++)
    if ((st = gru_nnt(Ns[k], n_test, seed, &s[k], &sm[k], &e[k], &em[k]))) return st;
  cJSON *root = NULL;
  if (pe) {
    char log[128], json[128], hs[16], steps[16], nt[16];
    snprintf(log, sizeof log, "%s/gru.log", pe->tmp);
    snprintf(json, sizeof json, "%s/gru.json", pe->tmp);
    snprintf(hs, sizeof hs, "%d", GRU_H), snprintf(steps, sizeof steps, "%d", GRU_STEPS);
    snprintf(nt, sizeof nt, "%d", n_test);
    char *argv[] = {(char *)pe->python, "-c", (char *)gru_script, (char *)pe->dir, "4,12", hs, steps, nt, json, NULL};
    if (run_child(argv, pe->tmp, log, threads) < 0) return peer_fail("the biGRU timing script", log);
    if ((st = nnt_json_read(json, &root))) return st;
  }
  printf("\n== biGRU-%d (the released code's rnn): one training step (64 prompts, AdamW) and one evaluation "
         "(%d prompts)\n%-16s %10s %9s %7s", GRU_H, n_test, "", "nnt ms", "GFLOP/s", "% peak");
  if (pe) printf(" %11s %9s %7s", "PyTorch ms", "GFLOP/s", "ratio");
  printf("\n");
  for (int k = 0; k < 2; k++)
    for (int w = 0; w < 2; w++) {
      double t = w ? e[k] : s[k], macs = w ? em[k] : sm[k];
      printf("%-5s N = %-6d %10.2f %9.1f %6.1f%%", w ? "eval" : "step", Ns[k], 1e3 * t, 2e-9 * macs / t,
             100 * 2e-9 * macs / t / peak);
      if (root) {
        char key[8];
        snprintf(key, sizeof key, "%d", Ns[k]);
        cJSON *o = cJSON_GetObjectItem(cJSON_GetObjectItem(root, key), w ? "eval_s" : "step_s");
        if (!cJSON_IsNumber(o)) {
          cJSON_Delete(root);
          return nnt_fail(NNT_EFORMAT, "--peer: the biGRU timing script wrote no %s for N = %d", w ? "eval_s" : "step_s", Ns[k]);
        }
        double pt = o->valuedouble;
        printf(" %11.2f %9.1f %6.1fx", 1e3 * pt, 2e-9 * macs / pt, pt / t);
      }
      printf("\n");
    }
  printf("(GFLOP/s of both: nnt's multiply-adds of the same dense model, counted in its products)\n");
  cJSON_Delete(root);
  return NNT_OK;
}

typedef struct {
  int model, reps, nN, Ns[MAXN];
  long blas_min;
  const char *peer, *python;
  peer pe; /* validate's: the peer checked, its scratch folder made (cfg_free removes it) */
} bench_cfg;

static void bench_default(void *c_, nnt_preset preset) {
  bench_cfg *c = c_;
  (void)preset;
  *c = (bench_cfg){.model = 3, .reps = 5, .nN = 6, .Ns = {2, 4, 6, 8, 10, 12}, .blas_min = -1, .python = "/usr/bin/python3"};
}

static const char *const models[] = {"tr", "ffn", "rnn", "all", NULL};
static const cli_opt bench_opts[] = {
    CLI_CHOICE("model", bench_cfg, model, models, "what to time"),
    CLI_STR("peer", bench_cfg, peer, "also run the paper's released code (a clone of github.com/mousavih/"
                                     "transformers-separation) with the same protocol and OMP_NUM_THREADS, right after nnt"),
    CLI_STR("python", bench_cfg, python, "interpreter with PyTorch for --peer"),
    CLI_INT("reps", bench_cfg, reps, 1, MAXREP, "repetitions per N (not with --peer)"),
    CLI_INTS("N", bench_cfg, Ns, nN, 2, 12, "even values of 2..12 (not with --peer)"),
    CLI_LONG("blas-min", bench_cfg, blas_min, -1, 1L << 40, "send products of at least this many multiply-adds to OpenBLAS (-1: none)"),
    {0}};
static int bench_validate(void *cfg, const cli_run *r) {
  bench_cfg *b = cfg;
  for (int k = 0; k < b->nN; k++)
    if (b->Ns[k] % 2) return nnt_fail(NNT_EINVAL, "--N: the protocol has even N = 2..12 only");
  if (b->peer && (cli_given(r->cmd, r->args, "reps") || cli_given(r->cmd, r->args, "N") || (r->quick && b->model != 2)))
    return nnt_fail(NNT_EINVAL, "--peer: the released code always runs 5 reps at N = 2..12 with n_test 5000; "
                                "drop --reps, --N and --quick");
  b->pe = (peer){.dir = b->peer, .python = b->python};
  return b->pe.dir ? peer_check(&b->pe) : NNT_OK;
}

static void bench_free(void *cfg) {
  bench_cfg *b = cfg;
  if (b->pe.tmp[0]) peer_cleanup(&b->pe);
}

/* The measurements are the console table, printed as they are taken. */
static int bench_run(void *cfg, const cli_run *r, void *res) {
  bench_cfg *bp = cfg, b = *bp;
  peer pe = b.pe;
  int st = NNT_OK;
  (void)res;
  sweep_opts o = {.model = b.model, .reps = b.reps, .nN = b.nN, .quick = r->quick, .seed = r->seed};
  for (int k = 0; k < b.nN; k++) o.Ns[k] = b.Ns[k];
  if (b.blas_min >= 0) nnt_qstr_set_blas_min(b.blas_min);
  int threads = nnt_threads_get();
  pe.threads = threads;
  double peak = nnt_cpu_fma_peak(0.3);
  if (o.model != 2) {
    printf("qstr Figure-1 sweeps: train 1STR, test simple-1STR, N = ");
    for (int k = 0; k < o.nN; k++) printf("%ld%s", o.Ns[k], k + 1 < o.nN ? "," : "");
    printf(", %d rep(s), n_test %d, check every 10, threshold 0.7\n", o.quick ? 1 : o.reps, o.quick ? 1000 : 5000);
  }
  print_machine(peak, threads);
  static const nnt_qstr_arch arch[2] = {NNT_QSTR_TR, NNT_QSTR_FFN};
  for (int a = 0; a < 3 && !st; a++) {
    if (o.model != 3 && o.model != a) continue;
    st = a < 2 ? bench_sweep(&o, arch[a], pe.dir ? &pe : NULL, peak, threads)
               : bench_gru(o.quick, o.seed, pe.dir ? &pe : NULL, peak, threads);
  }
  if (st) bp->pe.tmp[0] = 0; /* the peer's scratch folder stays: the error names its log */
  return st;
}

static const cli_cmd bench_cmd = {
    .name = "bench qstr",
    .example = "nnt bench qstr --model tr --reps 1 --N 2,4",
    .about = "Times seed 001's Figure-1 sweeps (train 1STR, test simple-1STR, N = 2..12, 5 reps, n_test 5000, check every 10\n"
    "steps, threshold 0.7: the released code's protocol): wall time, time and multiply-adds per phase, GFLOP/s\n"
    "against this core's measured peak, and the samples needed (medians). --model rnn times one biGRU-500 training\n"
    "step (batch 64) and one 5000-prompt evaluation at N = 4 and 12 instead of the sweep (over an hour in PyTorch).\n"
    "--quick: 1 rep, n_test 1000, without --peer.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_cfg),
    .cfg_default = bench_default,
    .validate = bench_validate,
    .run = bench_run,
    .cfg_free = bench_free,
    .common = CLI_OUT,
    .threads_default = 1};

static int run(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

const cli_bench cli_bench_qstr = {"qstr", run};
