/* nnt bench icl — one training step (forward, backward, Adam) of the GPT-2 in-context learner at
 * the mini preset's size (6 layers, 4 heads, width 128, batch 64, 51-point prompts = 102 tokens),
 * on 1 and 2 threads: steps/s, FLOPs per step (the products, counted from the shapes) and
 * GFLOP/s. With --torch SCRIPT (bench/icl_torch.py, the same model in PyTorch) each nnt
 * measurement is followed at once by PyTorch's on the same thread count, round after round, so
 * that both see the same load on a shared machine; the table gives medians over the rounds. The
 * per-step NaN/Inf guard (nnt_train_check_step) is timed on the same gradients, against the step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_icl_gpt.h"
#include "nnt_optim.h"
#include "nnt_progress.h"
#include "nnt_train.h"

enum { MAXR = 50 };

typedef struct {
  int steps, rounds, attn;
  const char *torch, *python;
} bench_cfg;

static void bench_default(void *cfg, nnt_preset preset) {
  int quick = preset == NNT_PRESET_QUICK;
  *(bench_cfg *)cfg = (bench_cfg){.steps = quick ? 2 : 10, .rounds = quick ? 1 : 3, .python = "/usr/bin/python3"};
}

static const cli_opt bench_opts[] = {
    CLI_INT("steps", bench_cfg, steps, 1, 1000, "timed steps per measurement (their median is the measurement)"),
    CLI_INT("rounds", bench_cfg, rounds, 1, MAXR, "rounds of measurements (1 and 2 threads, nnt then PyTorch)"),
    CLI_CHOICE("attn", bench_cfg, attn, nnt_icl_attn_names, "attention scores"),
    CLI_STR("torch", bench_cfg, torch, "bench/icl_torch.py: time PyTorch's step right after each nnt measurement"),
    CLI_STR("python", bench_cfg, python, "interpreter for --torch (Debian's python3-torch)"),
    {0}};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* PyTorch's median seconds per step on `threads` threads, or -1 (message set). */
static double torch_step(const bench_cfg *b, const nnt_icl_train_cfg *c, int threads) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "OMP_NUM_THREADS=%d '%s' '%s' --threads %d --steps %d --d %d --n %d --batch %d --width %d --layers %d "
           "--heads %d --attn %s 2>&1",
           threads, b->python, b->torch, threads, b->steps, c->task.d, c->task.n, c->batch, c->arch.n_embd,
           c->arch.n_layer, c->arch.n_head, nnt_icl_attn_names[c->arch.attn]);
  fflush(stdout);
  FILE *f = popen(cmd, "r");
  if (!f) return nnt_fail(NNT_EIO, "--torch: cannot run %s", b->python), -1;
  char line[512], last[512] = "";
  double s = -1;
  while (fgets(line, sizeof line, f)) {
    char *p = strstr(line, "s_per_step=");
    if (p) s = atof(p + 11);
    if (line[0] != '\n') snprintf(last, sizeof last, "%s", line);
  }
  int rc = pclose(f);
  last[strcspn(last, "\n")] = 0;
  if (rc || s <= 0) return nnt_fail(NNT_EIO, "--torch: %s %s failed: %s", b->python, b->torch, last), -1;
  return s;
}

/* nnt's median seconds per step over b->steps steps on the current thread count. */
static double nnt_step(nnt_icl_gpt *m, nnt_optim *opt, const float *xs, const float *ys, int B, int n, int steps) {
  double loss, t[1000];
  nnt_icl_gpt_loss_grad(m, xs, ys, B, n, &loss), nnt_optim_step(opt); /* warm-up */
  for (int i = 0; i < steps; i++) {
    double t0 = nnt_now();
    nnt_icl_gpt_loss_grad(m, xs, ys, B, n, &loss);
    nnt_optim_step(opt);
    t[i] = nnt_now() - t0;
  }
  return median(t, steps);
}

static int bench_validate(void *cfg, const cli_run *r) {
  const bench_cfg *b = cfg;
  (void)r;
  if (b->torch && access(b->torch, R_OK)) return nnt_fail(NNT_EINVAL, "--torch %s: no such file", b->torch);
  if (b->torch && access(b->python, X_OK)) return nnt_fail(NNT_EINVAL, "--python %s: not an executable", b->python);
  return NNT_OK;
}

/* The measurements are the console table, printed as they are taken. */
static int bench_run(void *cfg, const cli_run *cr, void *res) {
  bench_cfg b = *(const bench_cfg *)cfg;
  int st;
  (void)res;
  nnt_icl_train_cfg c;
  nnt_icl_train_cfg_default(&c, NNT_ICL_PRESET_MINI);
  c.arch.attn = b.attn;
  int B = c.batch, n = c.task.n;
  nnt_icl_gpt *m;
  if ((st = nnt_icl_gpt_new(&c.arch, &c.task, 0, &m))) return st;
  nnt_icl_gpt_init(m, cr->seed);
  nnt_optim opt;
  nnt_optim_config oc = nnt_adam_defaults();
  oc.lr = c.lr;
  nnt_optim_init(&opt, nnt_icl_gpt_params(m), oc);
  float *xs = malloc(sizeof(float) * B * n * c.task.d), *ys = malloc(sizeof(float) * B * n);
  nnt_icl_task_sample(&c.task, cr->seed, 0, B, xs, ys);
  double flops = 2 * nnt_icl_gpt_train_macs(&c.arch, B, n), flops_all = 2 * nnt_icl_gpt_train_macs_all_rows(&c.arch, B, n);
  printf("nnt bench icl: training step (forward, backward, Adam) of the GPT-2 learner, %d layers, %d heads, width %d, "
         "MLP %d, batch %d x %d points (%d tokens), d = %d, %s attention; %zu parameters; %s kernels\n",
         c.arch.n_layer, c.arch.n_head, c.arch.n_embd, 4 * c.arch.n_embd, B, n, 2 * n, c.task.d,
         nnt_icl_attn_names[b.attn], nnt_params_count(nnt_icl_gpt_params(m)), nnt_cpu_isa_name(nnt_cpu_isa()));
  printf("FLOPs per step (products of the linear layers and the attention, 2 per multiply-add): nnt %.2f G "
         "(the last block's projection and MLP on the x rows only), the model on every row %.2f G\n",
         flops / 1e9, flops_all / 1e9);
  printf("median of %d steps per measurement, %d round(s)%s\n\n", b.steps, b.rounds,
         b.torch ? ", each nnt measurement followed by PyTorch's on the same threads" : "");
  double ts[2][MAXR], pt[2][MAXR];
  for (int r = 0; r < b.rounds && !st; r++)
    for (int th = 1; th <= 2 && !st; th++) {
      nnt_threads_set(th);
      ts[th - 1][r] = nnt_step(m, &opt, xs, ys, B, n, b.steps);
      printf("round %d, %d thread(s): nnt %.3f s/step", r + 1, th, ts[th - 1][r]);
      if (b.torch) {
        pt[th - 1][r] = torch_step(&b, &c, th);
        if (pt[th - 1][r] < 0) st = NNT_EIO;
        else printf(", PyTorch %.3f s/step", pt[th - 1][r]);
      }
      printf("\n");
    }
  if (st) goto out;
  /* where one step's time goes, per thread count */
  for (int th = 1; th <= 2; th++) {
    double ph[NNT_ICL_PROF_N], loss, t0 = nnt_now(), rest;
    nnt_threads_set(th);
    nnt_icl_gpt_profile(NULL, 1);
    for (int i = 0; i < b.steps; i++) nnt_icl_gpt_loss_grad(m, xs, ys, B, n, &loss), nnt_optim_step(&opt);
    double tot = (nnt_now() - t0) / b.steps;
    nnt_icl_gpt_profile(ph, 1);
    printf("%s%d thread(s), mean s/step %.3f:", th == 1 ? "\nprofile, " : "profile, ", th, tot);
    rest = tot;
    for (int k = 0; k < NNT_ICL_PROF_N; k++) printf(" %s %.0f%%,", nnt_icl_prof_names[k], 100 * ph[k] / b.steps / tot), rest -= ph[k] / b.steps;
    printf(" other (layout, residuals, Adam) %.0f%%\n", 100 * rest / tot);
  }
  /* the same bits at 1 and 2 threads (the training's reproducibility promise, at this size) */
  size_t ng;
  float *g = nnt_params_flat_grad_f32(nnt_icl_gpt_params(m), &ng), *g1 = malloc(sizeof(float) * ng);
  double l1, l2;
  nnt_threads_set(1), nnt_icl_gpt_loss_grad(m, xs, ys, B, n, &l1), memcpy(g1, g, sizeof(float) * ng);
  nnt_threads_set(2), nnt_icl_gpt_loss_grad(m, xs, ys, B, n, &l2);
  int same = l1 == l2 && !memcmp(g1, g, sizeof(float) * ng);
  free(g1);
  printf("\n%-8s %12s %10s %10s", "threads", "nnt s/step", "steps/s", "GFLOP/s");
  if (b.torch) printf(" %14s %10s %10s %12s", "PyTorch s/step", "steps/s", "GFLOP/s", "nnt/PyTorch");
  printf("\n");
  double s1 = 0;
  for (int th = 1; th <= 2; th++) {
    double s = median(ts[th - 1], b.rounds);
    if (th == 1) s1 = s;
    printf("%-8d %12.3f %10.2f %10.1f", th, s, 1 / s, flops / s / 1e9);
    if (b.torch) {
      double p = median(pt[th - 1], b.rounds);
      printf(" %14.3f %10.2f %10.1f %11.2fx", p, 1 / p, flops_all / p / 1e9, p / s);
    }
    printf("\n");
    if (th == 2) printf("nnt 2 threads / 1 thread: %.2fx\n", s1 / s);
  }
  printf("loss and gradients identical at 1 and 2 threads: %s\n", same ? "yes" : "NO");
  double tc[1000];
  for (int i = 0; i < b.steps; i++) { /* the guard every trainer runs per step: 100 calls a sample */
    double t0 = nnt_now();
    for (int k = 0; k < 100; k++) st |= nnt_train_check_step(nnt_icl_gpt_params(m), 1, l1);
    tc[i] = (nnt_now() - t0) / 100;
  }
  double check = median(tc, b.steps);
  printf("NaN/Inf guard per step (nnt_train_check_step, %zu gradients): %.1f us, %.3f%% of a 1-thread step\n",
         ng, check * 1e6, 100 * check / median(ts[0], b.rounds));
  if (!same) st = nnt_fail(NNT_ECHECK, "the training step differs between 1 and 2 threads");
out:
  free(xs), free(ys);
  nnt_optim_free(&opt);
  nnt_icl_gpt_free(m);
  return st;
}

static const cli_cmd bench_cmd = {
    .name = "bench icl",
    .example = "nnt bench icl --quick",
    .about = "Training-step speed of the GPT-2 in-context learner (mini preset size), nnt against PyTorch on 1 and 2 threads.",
    .opts = bench_opts,
    .cfg_size = sizeof(bench_cfg),
    .cfg_default = bench_default,
    .validate = bench_validate,
    .run = bench_run,
    .common = CLI_OUT};

static int run(int argc, char **argv) { return cli_drive(&bench_cmd, argc, argv); }

const cli_bench cli_bench_icl = {"icl", run};
