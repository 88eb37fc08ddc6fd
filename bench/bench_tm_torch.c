/* nnt bench tm_torch — a compiled Turing machine leaving nnt: BB(4) (107 steps) compiled and
 * exported to .safetensors, then loaded and run in PyTorch (python/nnt/tm.py) by a Python process
 * held to one thread, which checks the halt; each phase's wall and CPU time (issue 30's bound:
 * export + load + run within 5 s on one core).
 * needs: tm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "commands.h"
#include "nnt_io.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

typedef struct {
  const char *python, *src;
} bench_cfg;

static void bench_default(void *cfg, nnt_preset preset) {
  (void)preset;
  *(bench_cfg *)cfg = (bench_cfg){.python = "/usr/bin/python3", .src = NNT_SOURCE_DIR};
}
static const cli_opt bench_opts[] = {
    CLI_STR("python", bench_cfg, python, "the Python with torch and numpy (default /usr/bin/python3, Debian's)"),
    CLI_STR("data", bench_cfg, src, "the nnt source folder holding python/ and examples/ (default: the one nnt was built from)"),
    {0}};
static double cpu_s(int who) {
  struct rusage ru;
  getrusage(who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* The Python side: times its imports, the load and the run; prints one line of four numbers. */
static const char script[] =
    "import os, resource, sys, time\n"
    "t0, c0 = time.perf_counter(), time.process_time()\n"
    "import torch\n"
    "torch.set_num_threads(1)\n"
    "sys.path.insert(0, os.path.join(sys.argv[1], 'python'))\n"
    "import nnt\n"
    "t1, c1 = time.perf_counter(), time.process_time()\n"
    "net = nnt.load(sys.argv[2])\n"
    "t2, c2 = time.perf_counter(), time.process_time()\n"
    "steps = net.run()\n"
    "t3, c3 = time.perf_counter(), time.process_time()\n"
    "assert len(steps) == 107 and steps[-1]['state'] == 'halt', steps[-1]\n"
    "print(t1 - t0, c1 - c0, t2 - t1, c2 - c1, t3 - t2, c3 - c2)\n";

static int bench_validate(void *cfg, const cli_run *r) {
  const bench_cfg *c = cfg;
  (void)r;
  if (access(c->python, X_OK)) return nnt_fail(NNT_EINVAL, "--python %s: not an executable", c->python);
  char machine[1024];
  if (!nnt_file_exists(nnt_path(machine, sizeof machine, c->src, "examples/tm/bb4.tm")))
    return nnt_fail(NNT_EINVAL, "--data %s: no examples/tm/bb4.tm there", c->src);
  return NNT_OK;
}

/* The measurements are the console table. */
static int bench_run(void *cfg_, const cli_run *r, void *res_) {
  bench_cfg c = *(const bench_cfg *)cfg_;
  int st;
  (void)r, (void)res_;
  char machine[1024], dir[] = "/tmp/nnt-bench-XXXXXX", file[1100], py[1100], cmd[4096];
  nnt_path(machine, sizeof machine, c.src, "examples/tm/bb4.tm");
  if (!mkdtemp(dir)) return nnt_fail(NNT_EIO, "cannot create a temporary folder in /tmp");
  nnt_path(file, sizeof file, dir, "bb4.safetensors");
  nnt_path(py, sizeof py, dir, "run.py");
  double w0 = nnt_now(), c0 = cpu_s(RUSAGE_SELF);
  nnt_tm_cfg cfg;
  nnt_tm_cfg_default(&cfg, 0);
  cfg.machine = machine, cfg.steps = 107, cfg.export_path = file, cfg.version = nnt_version(), cfg.command = "nnt bench tm_torch";
  nnt_tm_compile_result res;
  if (!(st = nnt_tm_compile_run(&cfg, &res))) {
    if (res.r.mismatches) st = nnt_fail(NNT_ECHECK, "BB(4): %ld mismatches", res.r.mismatches);
    nnt_tm_compile_result_free(&res);
  }
  double w_exp = nnt_now() - w0, c_exp = cpu_s(RUSAGE_SELF) - c0;
  FILE *f = st ? NULL : fopen(py, "w");
  if (!st && (!f || fputs(script, f) < 0 || fclose(f))) st = nnt_fail(NNT_EIO, "cannot write %s", py);
  double t[6] = {0};
  if (!st) {
    snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=1 '%s' '%s' '%s' '%s'", c.python, py, c.src, file);
    FILE *p = popen(cmd, "r");
    int n = p ? fscanf(p, "%lf %lf %lf %lf %lf %lf", &t[0], &t[1], &t[2], &t[3], &t[4], &t[5]) : 0;
    int rc = p ? pclose(p) : -1;
    if (n != 6 || rc) st = nnt_fail(NNT_ECHECK, "the PyTorch run failed (exit %d; needs python3-torch and numpy)", rc);
  }
  unlink(file), unlink(py), rmdir(dir);
  if (st) return st;
  printf("BB(4), 107 steps, one thread       %10s %10s\n", "wall s", "cpu s");
  printf("nnt: compile, check, export          %10.3f %10.3f\n", w_exp, c_exp);
  printf("python: import torch, nnt            %10.3f %10.3f\n", t[0], t[1]);
  printf("python: nnt.load                     %10.3f %10.3f\n", t[2], t[3]);
  printf("python: run() (108 decoder steps)    %10.3f %10.3f\n", t[4], t[5]);
  printf("total                                %10.3f %10.3f\n", w_exp + t[0] + t[2] + t[4], c_exp + t[1] + t[3] + t[5]);
  return NNT_OK;
}

static const cli_cmd bench_cmd = {
    .name = "bench tm_torch",
    .example = "nnt bench tm_torch",
    .about = "BB(4) compiled and exported (--export), then loaded and run in PyTorch on one thread: the export,\n"
             "Python's imports, the load and the 107-step run, each in wall and CPU seconds.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_cfg),
    .cfg_default = bench_default,
    .validate = bench_validate,
    .run = bench_run,
    .common = CLI_OUT};

static int run(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

const cli_bench cli_bench_tm_torch = {"tm_torch", run};
