/* nnt bench tm — seed 000's Turing-machine transformer side by side with its PyTorch peer,
 * jonrbates/turing (the `turing.wcm` module of the same construction, found in --peer-turing DIR
 * and run by bench/tm_turing.py, never copied): the same machines and inputs in both, wall time per
 * machine step of each program's run, and whether each program's decoded configuration (state,
 * head, symbol under the head, symbol written) matches nnt's direct simulation at every step.
 * Without --peer-turing, or with a Python that cannot import torch, it times nnt alone and says so
 * in one line.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "nnt_blas.h" /* nnt_threads_get */
#include "nnt_file.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

enum { MAXREP = 100, SIM_MAX = 100000 };

/* The machines and inputs: what both programs build (moves L/R only, no undefined transition
 * reached, every run halts). The quick set is the first QUICK of them. */
static const struct {
  const char *file, *input;
} jobs[] = {{"examples/tm/bb2.tm", NULL},
            {"examples/tm/parens.tm", "B(()"},
            {"examples/tm/bb3.tm", NULL},
            {"examples/tm/parens.tm", "B(()())((()))"},
            {"examples/tm/bb4.tm", NULL},
            {"examples/tm/parens.tm", "B((((((((()))))))))"},
            {"examples/tm/parens.tm", "B(((((((((((((((())))))))))))))))"}};
enum { NJOB = sizeof jobs / sizeof jobs[0], QUICK = 3 };

typedef struct {
  nnt_tm tm;
  nnt_tm_trace tr; /* the direct simulation, T = S */
  long S, T_peer;  /* machine steps to the halt; the peer's decoder length */
  char label[64];
  double compile_s, wall[2][MAXREP]; /* nnt: f64, f32 */
  long mism[2];
  /* the peer, per dtype (float32: their default, float64) */
  double peer_build_s[2], peer_wall[2][MAXREP];
  int peer_wpos;
  long peer_mism[2][2], peer_first[2][2]; /* [dtype][by their decoding, by nnt's (above 0.5)] */
  char peer_what[2][2][128];
} job;

/* ---------------------------------------------------------------- nnt */

static int job_load(job *j, const char *data, int i) {
  char path[1024];
  nnt_path(path, sizeof path, data, jobs[i].file);
  int st = nnt_tm_load(path, &j->tm);
  if (st) return st;
  if (jobs[i].input && (st = nnt_tm_set_input(&j->tm, jobs[i].input))) return nnt_tm_free(&j->tm), st;
  const char *base = strrchr(jobs[i].file, '/') + 1;
  snprintf(j->label, sizeof j->label, "%.*s%s%s", (int)(strcspn(base, ".")), base, jobs[i].input ? " " : "",
           jobs[i].input ? jobs[i].input : "");
  nnt_tm_stream s;
  if ((st = nnt_tm_stream_run(&j->tm, SIM_MAX, 0, 0, &s))) return nnt_tm_free(&j->tm), st;
  j->S = s.halt_step;
  nnt_tm_stream_free(&s);
  if (j->S < 1) return nnt_tm_free(&j->tm), nnt_fail(NNT_EINVAL, "%s: does not halt within %d steps", j->label, SIM_MAX);
  if ((st = nnt_tm_simulate(&j->tm, j->S, &j->tr))) return nnt_tm_free(&j->tm), st;
  /* Their positions are w_pos-bit numbers, w_pos = ceil(log2 T): T covers the steps, the input and
   * the cells visited, the ones left of cell 0 taken modulo 2^w_pos (where they read the blank). */
  long right = j->tr.max_head + 1 > j->tm.m ? j->tr.max_head + 1 : j->tm.m;
  long span = right - (j->tr.min_head < 0 ? j->tr.min_head : 0);
  j->T_peer = j->S + 1 > span ? j->S + 1 : span;
  return NNT_OK;
}

static int job_nnt(job *j, int reps) {
  nnt_tm_net net;
  double t0 = nnt_now();
  int st = nnt_tm_compile(&j->tm, j->S, &net);
  if (st) return st;
  j->compile_s = nnt_now() - t0;
  for (int p = 0; p < 2 && !st; p++)
    for (int r = 0; r < reps && !st; r++) {
      nnt_tm_run_opts o = {.attention = NNT_TM_HARD, .precision = p ? NNT_TM_F32 : NNT_TM_F64};
      nnt_tm_run_result res;
      st = nnt_tm_net_run(&net, &j->tm, &j->tr, &o, &res);
      j->wall[p][r] = res.seconds;
      if (res.mismatches > j->mism[p]) j->mism[p] = res.mismatches;
    }
  nnt_tm_net_free(&net);
  return st;
}

/* ---------------------------------------------------------------- the peer */

typedef struct {
  const char *dir, *python;
  char tmp[64];
} peer;

/* Runs argv with one OpenMP/MKL thread, stdout and stderr to log; 0 on exit status 0. (In the
 * current folder: a relative --python stays valid.) */
static int run_child(char *const argv[], const char *log) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setenv("OMP_NUM_THREADS", "1", 1), setenv("MKL_NUM_THREADS", "1", 1);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(127);
    dup2(fd, 1), dup2(fd, 2), close(fd);
    execv(argv[0], argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void peer_cleanup(peer *pe, const char *const *names, int n) {
  char p[256];
  for (int i = 0; i < n; i++) snprintf(p, sizeof p, "%s/%s", pe->tmp, names[i]), unlink(p);
  rmdir(pe->tmp);
  pe->tmp[0] = 0;
}

static const char *const peer_files[] = {"check.log", "jobs.json", "out.json", "run.log"};

/* The checks of DIR and --python (exit 2 before any work); 1 when torch cannot be imported (the
 * peer is skipped), 0 when the peer runs. */
static int peer_check(peer *pe, const char *data, int *skip) {
  char path[4096];
  struct stat sb;
  *skip = 0;
  snprintf(path, sizeof path, "%s/src/turing/wcm/simulator.py", pe->dir);
  if (stat(path, &sb) || !S_ISREG(sb.st_mode))
    return nnt_fail(NNT_EINVAL, "--peer-turing %s: no src/turing/wcm/simulator.py there (expected a clone of jonrbates/turing)", pe->dir);
  nnt_path(path, sizeof path, data, "bench/tm_turing.py");
  if (!nnt_file_exists(path)) return nnt_fail(NNT_EINVAL, "--data %s: no bench/tm_turing.py there (the peer's driver)", data);
  if (access(pe->python, X_OK)) return nnt_fail(NNT_EINVAL, "--python %s: not an executable", pe->python);
  strcpy(pe->tmp, "/tmp/nnt-bench-tm-XXXXXX");
  if (!mkdtemp(pe->tmp)) return nnt_fail(NNT_EIO, "--peer-turing: cannot create a scratch folder in /tmp");
  char log[128];
  snprintf(log, sizeof log, "%s/check.log", pe->tmp);
  char *argv[] = {(char *)pe->python, "-c", "import torch", NULL};
  if (run_child(argv, log)) *skip = 1, peer_cleanup(pe, peer_files, 4);
  return NNT_OK;
}

static cJSON *job_json(const job *j, int reps) {
  const nnt_tm *tm = &j->tm;
  cJSON *o = cJSON_CreateObject(), *in = cJSON_CreateArray(), *d = cJSON_CreateArray();
  cJSON_AddStringToObject(o, "name", j->label);
  cJSON_AddNumberToObject(o, "k", tm->k), cJSON_AddNumberToObject(o, "nsym", tm->nsym);
  for (int c = 0; c < tm->m; c++) cJSON_AddItemToArray(in, cJSON_CreateNumber(tm->input[c]));
  for (int z = 0; z < tm->k; z++)
    for (int a = 0; a < tm->nsym; a++) {
      nnt_tm_rule r = tm->delta[z * tm->nsym + a];
      if (r.next == NNT_TM_UNDEF) continue;
      int row[5] = {z, a, r.next, r.write, r.move};
      cJSON_AddItemToArray(d, cJSON_CreateIntArray(row, 5));
    }
  cJSON_AddItemToObject(o, "input", in), cJSON_AddItemToObject(o, "delta", d);
  cJSON_AddNumberToObject(o, "steps", (double)j->S), cJSON_AddNumberToObject(o, "T", (double)j->T_peer);
  cJSON_AddNumberToObject(o, "reps", reps);
  const char *dt[2] = {"float32", "float64"};
  cJSON_AddItemToObject(o, "dtypes", cJSON_CreateStringArray(dt, 2));
  return o;
}

/* One repetition's decoded rows against the simulation: mismatching steps counted (a step the peer
 * did not reach counts), the first described. */
static long peer_compare(job *j, const cJSON *rows, int p, int rule) {
  long bad = 0, n = cJSON_GetArraySize(rows), mod = 1L << j->peer_wpos;
  for (long t = 0; t <= j->S; t++) {
    const cJSON *r = t < n ? cJSON_GetArrayItem(rows, (int)t) : NULL;
    double v[5] = {0};
    int ok = r && cJSON_GetArraySize(r) == 5;
    for (int i = 0; ok && i < 5; i++) {
      const cJSON *x = cJSON_GetArrayItem(r, i);
      ok = cJSON_IsNumber(x) && x->valuedouble > -1e9 && x->valuedouble < 1e15, v[i] = x->valuedouble;
    }
    const char *what = !r ? "the run stopped before this step" : !ok || v[0] != t ? "malformed row" : NULL;
    if (!what) {
      long head = (long)v[2];
      if (v[1] != j->tr.state[t]) what = "state";
      else if (((head - j->tr.head[t]) % mod + mod) % mod) what = "head";
      else if (v[3] != j->tr.sym[t]) what = "symbol under the head";
      else if (t > 0 && v[4] != j->tr.written[t]) what = "written symbol";
    }
    if (!what) continue;
    if (!bad++ && j->peer_first[p][rule] < 0) {
      j->peer_first[p][rule] = t;
      char *w = j->peer_what[p][rule];
      if (ok) snprintf(w, sizeof j->peer_what[p][rule], "%s (decoded state %g head %g symbol %g written %g)", what, v[1], v[2], v[3], v[4]);
      else snprintf(w, sizeof j->peer_what[p][rule], "%s", what);
    }
  }
  return bad;
}

static int peer_run(peer *pe, const char *data, job *J, int nj, int reps) {
  char jobs_f[128], out_f[128], log[128], driver[1100];
  snprintf(jobs_f, sizeof jobs_f, "%s/jobs.json", pe->tmp);
  snprintf(out_f, sizeof out_f, "%s/out.json", pe->tmp);
  snprintf(log, sizeof log, "%s/run.log", pe->tmp);
  nnt_path(driver, sizeof driver, data, "bench/tm_turing.py");
  cJSON *all = cJSON_CreateArray();
  for (int i = 0; i < nj; i++) cJSON_AddItemToArray(all, job_json(&J[i], reps));
  int st = nnt_json_write(jobs_f, all);
  cJSON_Delete(all);
  if (st) return st;
  char *argv[] = {(char *)pe->python, driver, (char *)pe->dir, jobs_f, out_f, NULL};
  if (run_child(argv, log)) {
    char line[512] = "", last[512] = "";
    FILE *f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f))
      if (line[0] != '\n') snprintf(last, sizeof last, "%s", line);
    if (f) fclose(f);
    last[strcspn(last, "\n")] = 0;
    return nnt_fail(NNT_EIO, "--peer-turing: the driver failed (log %s%s%s)", log, last[0] ? ": " : "", last);
  }
  cJSON *root;
  if ((st = nnt_json_read(out_f, &root))) return st;
  int ok = cJSON_IsArray(root) && cJSON_GetArraySize(root) == nj;
  for (int i = 0; ok && i < nj; i++) {
    job *j = &J[i];
    const cJSON *runs = cJSON_GetArrayItem(root, i);
    ok = cJSON_IsArray(runs) && cJSON_GetArraySize(runs) == 2;
    for (int p = 0; ok && p < 2; p++) {
      const cJSON *o = cJSON_GetArrayItem(runs, p), *b = cJSON_GetObjectItem(o, "build_s"),
                  *w = cJSON_GetObjectItem(o, "wall_s"), *wp = cJSON_GetObjectItem(o, "w_pos"),
                  *rows = cJSON_GetObjectItem(o, "rows"), *rows05 = cJSON_GetObjectItem(o, "rows05");
      ok = cJSON_IsNumber(b) && cJSON_IsNumber(wp) && wp->valuedouble >= 1 && wp->valuedouble <= 40 &&
           cJSON_GetArraySize(w) == reps && cJSON_GetArraySize(rows) == reps && cJSON_GetArraySize(rows05) == reps;
      if (!ok) break;
      j->peer_build_s[p] = b->valuedouble, j->peer_wpos = (int)wp->valuedouble;
      j->peer_first[p][0] = j->peer_first[p][1] = -1;
      for (int r = 0; ok && r < reps; r++) {
        const cJSON *x = cJSON_GetArrayItem(w, r);
        ok = cJSON_IsNumber(x) && cJSON_IsArray(cJSON_GetArrayItem(rows, r)) && cJSON_IsArray(cJSON_GetArrayItem(rows05, r));
        if (!ok) break;
        j->peer_wall[p][r] = x->valuedouble;
        for (int rule = 0; rule < 2; rule++) {
          long bad = peer_compare(j, cJSON_GetArrayItem(rule ? rows05 : rows, r), p, rule);
          if (bad > j->peer_mism[p][rule]) j->peer_mism[p][rule] = bad;
        }
      }
    }
  }
  cJSON_Delete(root);
  return ok ? NNT_OK : nnt_fail(NNT_EFORMAT, "--peer-turing: %s is not what the driver writes", out_f);
}

/* ---------------------------------------------------------------- report */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
/* median, min and max of v[0..n) per machine step, in microseconds */
static void spread(const double *v, int n, long S, double out[3]) {
  double s[MAXREP];
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), cmp_double);
  out[0] = 1e6 / S * (n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]));
  out[1] = 1e6 / S * s[0], out[2] = 1e6 / S * s[n - 1];
}

static void print_row(const char *label, long S, long T, const char *prog, double build, const double *wall, int reps,
                      long mism) {
  double m[3];
  spread(wall, reps, S, m);
  printf("%-36s %5ld %5ld  %-14s %9.4f %11.1f %10.1f %10.1f %8ld\n", label, S, T, prog, build, m[0], m[1], m[2], mism);
}

static void print_machine(int reps) {
  char model[256] = "unknown CPU", line[512], date[32];
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
      snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
      model[strcspn(model, "\n")] = 0;
      break;
    }
  if (f) fclose(f);
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  printf("%s, %s, %d thread(s) for nnt, 1 for PyTorch, %d repetition(s) per run\n", date, model, nnt_threads_get(), reps);
}

/* ---------------------------------------------------------------- the command */

typedef struct {
  const char *peer, *python, *data;
  int reps;
  /* validate's: the jobs to run, the peer checked (its scratch folder made) or skipped */
  int nj, skip;
  peer pe;
} bench_cfg;

static void bench_default(void *cfg, nnt_preset preset) {
  *(bench_cfg *)cfg = (bench_cfg){.python = "/usr/bin/python3", .data = NNT_SOURCE_DIR, .reps = preset == NNT_PRESET_QUICK ? 1 : 3};
}
static const cli_opt bench_opts[] = {
    CLI_STR("peer-turing", bench_cfg, peer, "also run jonrbates/turing's PyTorch module (a clone of github.com/jonrbates/turing) "
                                            "on the same machines, one thread"),
    CLI_STR("python", bench_cfg, python, "the Python with torch for --peer-turing (default /usr/bin/python3, Debian's)"),
    CLI_STR("data", bench_cfg, data, "the nnt source folder holding examples/tm and bench/tm_turing.py (default: the one nnt was built from)"),
    CLI_INT("reps", bench_cfg, reps, 1, MAXREP, "runs of each machine per program (default 3; --quick: 1)"),
    {0}};
/* The inputs and the peer (a scratch folder made when it runs: cfg_free removes it). */
static int bench_validate(void *cfg, const cli_run *r) {
  bench_cfg *c = cfg;
  c->nj = r->quick ? QUICK : NJOB;
  char path[1024];
  for (int i = 0; i < c->nj; i++)
    if (!nnt_file_exists(nnt_path(path, sizeof path, c->data, jobs[i].file)))
      return nnt_fail(NNT_EINVAL, "--data %s: no %s there", c->data, jobs[i].file);
  c->pe = (peer){.dir = c->peer, .python = c->python};
  return c->pe.dir ? peer_check(&c->pe, c->data, &c->skip) : NNT_OK;
}

static void bench_free(void *cfg) {
  bench_cfg *c = cfg;
  if (c->pe.tmp[0]) peer_cleanup(&c->pe, peer_files, 4);
}

/* The measurements are the console table. */
static int bench_run(void *cfg, const cli_run *r, void *res) {
  bench_cfg *cp = cfg, c = *cp;
  peer pe = c.pe;
  int nj = c.nj, skip = c.skip, with_peer = pe.dir && !skip, st = NNT_OK;
  (void)r, (void)res;

  job *J = calloc((size_t)nj, sizeof(job));
  int loaded = 0;
  if (!J) st = nnt_fail(NNT_ENOMEM, "out of memory");
  for (; !st && loaded < nj; loaded++)
    if ((st = job_load(&J[loaded], c.data, loaded))) break;
  if (!st) print_machine(c.reps);
  if (!st && !pe.dir) printf("(peer skipped: no --peer-turing DIR given, a clone of github.com/jonrbates/turing)\n");
  else if (!st && skip) printf("(peer skipped: %s cannot import torch; Debian: apt-get install python3-torch)\n", pe.python);
  for (int i = 0; !st && i < nj; i++) st = job_nnt(&J[i], c.reps);
  if (!st && with_peer) st = peer_run(&pe, c.data, J, nj, c.reps);
  if (with_peer) bench_free(cp);
  if (!st) {
    printf("%-36s %5s %5s  %-14s %9s %11s %10s %10s %8s\n", "machine, input", "steps", "T", "program", "build s",
           "us/step med", "min", "max", "mismatch");
    long bad = 0;
    for (int i = 0; i < nj; i++) {
      job *j = &J[i];
      print_row(j->label, j->S, j->S, "nnt f64 hard", j->compile_s, j->wall[0], c.reps, j->mism[0]);
      print_row("", j->S, j->S, "nnt f32 hard", j->compile_s, j->wall[1], c.reps, j->mism[1]);
      bad += j->mism[0] + j->mism[1];
      if (!with_peer) continue;
      for (int p = 0; p < 2; p++) {
        print_row("", j->S, j->T_peer, p ? "turing f64" : "turing f32", j->peer_build_s[p], j->peer_wall[p], c.reps,
                  j->peer_mism[p][0]);
        printf("%-36s decoded by nnt's rule (> 0.5): %ld mismatch(es)\n", "", j->peer_mism[p][1]);
        for (int rule = 0; rule < 2; rule++)
          if (j->peer_first[p][rule] >= 0)
            printf("%-36s %s, first mismatch at step %ld: %s\n", "", rule ? "nnt's decoding" : "their decoding",
                   j->peer_first[p][rule], j->peer_what[p][rule]);
      }
      double p32[3], p64[3], n32[3], n64[3];
      spread(j->peer_wall[0], c.reps, j->S, p32), spread(j->peer_wall[1], c.reps, j->S, p64);
      spread(j->wall[1], c.reps, j->S, n32), spread(j->wall[0], c.reps, j->S, n64);
      printf("%-36s turing / nnt per step (medians): f32 %.0fx, f64 %.0fx\n", "", p32[0] / n32[0], p64[0] / n64[0]);
    }
    printf("steps: machine steps to the halt; T: the steps each program was built for; us/step: a run's wall time (set-up, every decoder step and its decoding) "
           "/ steps; mismatch: steps whose decoded configuration differs from nnt's direct simulation (worst run; the peer's "
           "by its own decoding, which reads a one-hot group with any other nonzero coordinate, e.g. float32 residue, as unknown)\n");
    if (bad) st = nnt_fail(NNT_ECHECK, "nnt's transformer disagrees with the simulation at %ld step(s)", bad);
  }
  for (int i = 0; i < loaded && J; i++) nnt_tm_trace_free(&J[i].tr), nnt_tm_free(&J[i].tm);
  free(J);
  return st;
}

static const cli_cmd bench_cmd = {
    .name = "bench tm",
    .example = "nnt bench tm --quick --threads 1",
    .about = "Seed 000's Turing-machine transformer, compiled by nnt and by jonrbates/turing (--peer-turing DIR), on the\n"
             "busy beavers BB(2..4) and a balanced-parentheses machine: wall time per machine step of each run (median,\n"
             "min, max over --reps), and decoded configurations that disagree with nnt's direct simulation (state,\n"
             "head, symbol read, symbol written, every step). nnt runs hard-max attention in float64 and float32;\n"
             "the peer runs its own module (softmax at scale 9999) in float32, its default, and in float64, under\n"
             "torch.no_grad().\n"
             "--quick: the three smallest runs, one repetition.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_cfg),
    .cfg_default = bench_default,
    .validate = bench_validate,
    .run = bench_run,
    .cfg_free = bench_free,
    .common = CLI_OUT,
    .threads_default = 1};

static int run(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

const cli_bench cli_bench_tm = {"tm", run};
