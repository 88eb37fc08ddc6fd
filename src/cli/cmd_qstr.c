/* nnt qstr — q-sparse token retrieval (seed 001): sample-complexity sweeps, plots, the trained
 * attention matrix, the head-count experiment, the eq. (A.2) construction, Theorem 6's bound. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_progress.h"
#include "nnt_qstr.h"

static const char *help =
    "usage: nnt qstr <sweep|plot|attention|heads|construct|ffn-bound> [options]\n"
    "\n"
    "  sweep      samples needed to reach a test-MSE threshold vs N (Figure 1)\n"
    "             --model tr|trp|ffn|rnn|relurnn --task 1str|simple --N 2,4,6,8,10,12 --reps 5\n"
    "             --threshold 0.7 --check-every 10 --n-test 5000 --test-task same|simple\n"
    "             [--batch 64 --lr 1e-3 --wd 0.01 --max-samples 1000000 --d 10 --de K --m 100\n"
    "              --heads H --hidden LIST (ffn; 0 = N*d) --hidden-size H (rnn = biGRU, relurnn; default 500)\n"
    "              --enc code|paper --no-duplicate-codes --noise S]\n"
    "             writes samples.csv (model,task,N,rep,samples,censored,...), summary.csv, samples.png\n"
    "  plot DIR...  one plot of several sweeps' samples.csv (one colour per model) into --out\n"
    "  attention  Figure 2: train tr on a fixed set (default N 100, 50000 prompts, <= 20 epochs,\n"
    "             wd 0.2, stop at train loss 0.05), heatmap of |W_q^T W_k| and construction score\n"
    "             --N 100 --n-train 50000 --epochs 20 --task simple|1str\n"
    "  heads      trained error of the H-head merged-QK transformer (trp) on the norm-squared link\n"
    "             vs the bounds 1 - H(q+d)/(qd), 1 - H/q; construction error for H >= q\n"
    "             --q 2 --H 1,2,3 --N 6 --d 1 --samples 256000 --m 64 --lr 3e-3\n"
    "  construct  eq. (A.2) weights: closed-form MSE vs Monte Carlo for each sharpness alpha\n"
    "             --N 8 --q 1 --alpha 0,0.05,0.1,0.2,0.3,0.5,1 --n 4000 --enc paper|code\n"
    "  ffn-bound  Theorem 6: min-norm least squares on simple-1STR, test MSE vs 1 - n/(Nd)\n"
    "             --N 4 --d 5 --n 0,2,...,Nd --trials 20 --n-test 2000\n"
    "\n" NNT_COMMON_HELP;

enum {
  O_MODEL = 0x200, O_TASK, O_N, O_REPS, O_THR, O_CHECK, O_NTEST, O_TESTTASK, O_BATCH, O_LR, O_WD, O_MAXS, O_D, O_DE,
  O_M, O_HEADS, O_HIDDEN, O_HSIZE, O_ENC, O_NODUP, O_NOISE, O_Q, O_H, O_ALPHA, O_NSAMP, O_TRIALS, O_NTRAIN, O_EPOCHS,
  O_SAMPLES, O_LINK
};

static const struct option opts[] = {
    NNT_COMMON_OPTIONS,
    {"model", required_argument, 0, O_MODEL}, {"task", required_argument, 0, O_TASK},
    {"N", required_argument, 0, O_N}, {"reps", required_argument, 0, O_REPS},
    {"threshold", required_argument, 0, O_THR}, {"check-every", required_argument, 0, O_CHECK},
    {"n-test", required_argument, 0, O_NTEST}, {"test-task", required_argument, 0, O_TESTTASK},
    {"batch", required_argument, 0, O_BATCH}, {"lr", required_argument, 0, O_LR},
    {"wd", required_argument, 0, O_WD}, {"max-samples", required_argument, 0, O_MAXS},
    {"d", required_argument, 0, O_D}, {"de", required_argument, 0, O_DE},
    {"m", required_argument, 0, O_M}, {"heads", required_argument, 0, O_HEADS},
    {"hidden", required_argument, 0, O_HIDDEN}, {"hidden-size", required_argument, 0, O_HSIZE},
    {"enc", required_argument, 0, O_ENC}, {"no-duplicate-codes", no_argument, 0, O_NODUP},
    {"noise", required_argument, 0, O_NOISE}, {"q", required_argument, 0, O_Q},
    {"H", required_argument, 0, O_H}, {"alpha", required_argument, 0, O_ALPHA},
    {"n", required_argument, 0, O_NSAMP}, {"trials", required_argument, 0, O_TRIALS},
    {"n-train", required_argument, 0, O_NTRAIN}, {"epochs", required_argument, 0, O_EPOCHS},
    {"samples", required_argument, 0, O_SAMPLES}, {"link", required_argument, 0, O_LINK},
    {0, 0, 0, 0}};

/* Every option's value, parsed once; each subcommand reads what it needs and checks the rest. */
typedef struct {
  cli_common co;
  int model, task, reps, check, ntest, testtask, batch, maxs_set, d, de, m, heads, hsize, enc, nodup, q;
  int nN, N_set, nH, nalpha, nn, trials, ntrain, epochs, nhidden, link, set_model;
  long Ns[64], Hs[16], ns[256], maxs, samples;
  int hidden[NNT_QSTR_MAXL];
  double thr, lr, wd, noise, alphas[32];
  int thr_set, check_set, ntest_set, reps_set, lr_set, wd_set, d_set, m_set, batch_set, samples_set, ntrain_set;
  int epochs_set, trials_set, alpha_set, n_set, task_set, testtask_set, q_set, enc_set;
} qopts;

static int parse_double_list(const char *opt, const char *s, double lo, double hi, double *v, int max, int *n) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", s);
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (*n == max) return nnt_fail(NNT_EINVAL, "%s: more than %d values", opt, max);
    if (cli_parse_double(opt, tok, lo, hi, &v[(*n)++])) return NNT_EINVAL;
  }
  return *n ? NNT_OK : nnt_fail(NNT_EINVAL, "%s: empty list", opt);
}

static const char *const task_names[] = {"1str", "simple", NULL};
static const char *const testtask_names[] = {"same", "simple", NULL};
static const char *const enc_names[] = {"code", "paper", NULL};
static const char *const link_names[] = {"linear", "normsq", "relu", NULL};

static int parse(int argc, char **argv, qopts *o) {
  memset(o, 0, sizeof *o);
  cli_common_init(&o->co, NULL);
  o->reps = 5, o->check = 10, o->ntest = 5000, o->batch = 64, o->maxs = 1000000, o->d = 10, o->m = 100;
  o->heads = 1, o->hsize = 500, o->thr = 0.7, o->lr = 1e-3, o->wd = 0.01, o->q = 1, o->trials = 20;
  cli_reset();
  int c;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    int st = NNT_OK;
    switch (c) {
    case O_MODEL: /* "gru" is accepted for the biGRU too */
      st = cli_parse_choice("--model", strcmp(optarg, "gru") ? optarg : "rnn", nnt_qstr_arch_names, &o->model);
      o->set_model = 1;
      break;
    case O_TASK: st = cli_parse_choice("--task", optarg, task_names, &o->task), o->task_set = 1; break;
    case O_TESTTASK: st = cli_parse_choice("--test-task", optarg, testtask_names, &o->testtask), o->testtask_set = 1; break;
    case O_ENC: st = cli_parse_choice("--enc", optarg, enc_names, &o->enc), o->enc_set = 1; break;
    case O_LINK: st = cli_parse_choice("--link", optarg, link_names, &o->link); break;
    case O_N: st = cli_parse_int_list("--N", optarg, -1000000, 1000000, o->Ns, 64, &o->nN), o->N_set = 1; break;
    case O_H: st = cli_parse_int_list("--H", optarg, 1, 64, o->Hs, 16, &o->nH); break;
    case O_NSAMP: st = cli_parse_int_list("--n", optarg, 0, 100000000, o->ns, 256, &o->nn), o->n_set = 1; break;
    case O_REPS: st = cli_parse_int("--reps", optarg, 1, 1000, &o->reps), o->reps_set = 1; break;
    case O_THR: st = cli_parse_double("--threshold", optarg, -1e300, 1e300, &o->thr), o->thr_set = 1; break;
    case O_CHECK: st = cli_parse_int("--check-every", optarg, 1, 100000000, &o->check), o->check_set = 1; break;
    case O_NTEST: st = cli_parse_int("--n-test", optarg, 1, 10000000, &o->ntest), o->ntest_set = 1; break;
    case O_BATCH: st = cli_parse_int("--batch", optarg, 1, 100000, &o->batch), o->batch_set = 1; break;
    case O_LR: st = cli_parse_double("--lr", optarg, 0, 10, &o->lr), o->lr_set = 1; break;
    case O_WD: st = cli_parse_double("--wd", optarg, 0, 10, &o->wd), o->wd_set = 1; break;
    case O_MAXS: st = cli_parse_long("--max-samples", optarg, 1, 1000000000000L, &o->maxs), o->maxs_set = 1; break;
    case O_SAMPLES: st = cli_parse_long("--samples", optarg, 1, 1000000000000L, &o->samples), o->samples_set = 1; break;
    case O_D: st = cli_parse_int("--d", optarg, 1, 4096, &o->d), o->d_set = 1; break;
    case O_DE: st = cli_parse_int("--de", optarg, -1000000, 4096, &o->de); if (!st && o->de < 1) st = nnt_fail(NNT_EINVAL, "--de: d_e must be >= 1 (got %d)", o->de); break;
    case O_M: st = cli_parse_int("--m", optarg, 1, 100000, &o->m), o->m_set = 1; break;
    case O_HEADS: st = cli_parse_int("--heads", optarg, 1, 64, &o->heads); break;
    case O_HSIZE: st = cli_parse_int("--hidden-size", optarg, 1, 100000, &o->hsize); break;
    case O_Q: st = cli_parse_int("--q", optarg, -1000000, 64, &o->q); if (!st && o->q < 1) st = nnt_fail(NNT_EINVAL, "--q must be >= 1 (got %d)", o->q);
      o->q_set = 1;
      break;
    case O_NOISE: st = cli_parse_double("--noise", optarg, 0, 1e6, &o->noise); break;
    case O_NODUP: o->nodup = 1; break;
    case O_ALPHA: st = parse_double_list("--alpha", optarg, 0, 1e6, o->alphas, 32, &o->nalpha), o->alpha_set = 1; break;
    case O_TRIALS: st = cli_parse_int("--trials", optarg, 1, 1000000, &o->trials), o->trials_set = 1; break;
    case O_NTRAIN: st = cli_parse_int("--n-train", optarg, 1, 10000000, &o->ntrain), o->ntrain_set = 1; break;
    case O_EPOCHS: st = cli_parse_int("--epochs", optarg, 1, 100000, &o->epochs), o->epochs_set = 1; break;
    case O_HIDDEN: {
      long hv[NNT_QSTR_MAXL];
      st = cli_parse_int_list("--hidden", optarg, 0, 1000000, hv, NNT_QSTR_MAXL - 1, &o->nhidden);
      for (int l = 0; l < o->nhidden; l++) o->hidden[l] = (int)hv[l];
      break;
    }
    default:
      st = cli_common_option(c, argv, &o->co);
      if (st < 0) st = nnt_fail(NNT_EINVAL, "unknown option");
    }
    if (st) return st;
  }
  return NNT_OK;
}

static int check_Ns(const qopts *o) {
  for (int k = 0; k < o->nN; k++)
    if (o->Ns[k] < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %ld)", o->Ns[k]);
  return NNT_OK;
}

/* ---------------------------------------------------------------- sweep */

static int sweep_config(qopts *o, nnt_qstr_sweep_cfg *s) {
  memset(s, 0, sizeof *s);
  s->arch = (nnt_qstr_arch)o->model;
  if (o->co.quick) { /* quick preset: 1 rep, 1000 test prompts */
    if (!o->N_set) o->nN = 3, o->Ns[0] = 4, o->Ns[1] = 8, o->Ns[2] = 12;
    if (!o->reps_set) o->reps = 1;
    if (!o->ntest_set) o->ntest = 1000;
    if (s->arch == NNT_QSTR_GRU && o->hsize == 500) o->hsize = 64;
  }
  if (!o->N_set && !o->co.quick) {
    o->nN = 6;
    for (int k = 0; k < 6; k++) o->Ns[k] = 2 + 2 * k;
  }
  int st;
  if ((st = check_Ns(o))) return st;
  if (!(o->thr > 0)) return nnt_fail(NNT_EINVAL, "--threshold must be > 0 (got %g)", o->thr);
  nnt_qstr_task_cfg_default(&s->task, 2);
  s->task.d = o->d, s->task.q = o->q, s->task.de = o->de, s->task.simple = o->task == 1, s->task.enc = o->enc;
  s->task.noise = o->noise, s->task.no_dup_codes = o->nodup, s->task.link = o->link;
  nnt_qstr_train_cfg_default(&s->train);
  s->train.batch = o->batch, s->train.lr = o->lr, s->train.wd = o->wd, s->train.threshold = o->thr;
  s->train.check_every = o->check, s->train.n_test = o->ntest, s->train.test_simple = o->testtask == 1;
  s->train.max_samples = o->maxs;
  s->m = o->m;
  s->H = s->arch == NNT_QSTR_TRP ? o->heads : o->hsize;
  if (s->arch == NNT_QSTR_FFN) {
    if (o->nhidden) {
      s->n_hidden = o->nhidden;
      memcpy(s->hidden, o->hidden, sizeof s->hidden);
    } else s->n_hidden = 2, s->hidden[0] = 0, s->hidden[1] = 1000;
  }
  s->nN = o->nN;
  for (int k = 0; k < o->nN; k++) s->Ns[k] = (int)o->Ns[k];
  s->reps = o->reps;
  s->seed = o->co.seed;
  /* validate every N's task and model before anything runs */
  for (int k = 0; k < s->nN; k++) {
    nnt_qstr_task_cfg tc = s->task;
    tc.N = s->Ns[k];
    nnt_qstr_task t;
    if ((st = nnt_qstr_task_init(&t, &tc, s->seed))) return st;
    nnt_qstr_model mo;
    st = nnt_qstr_sweep_model(s, tc.N, t.D, &mo);
    nnt_qstr_task_free(&t);
    if (st) return st;
  }
  return NNT_OK;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* median, min, max of the samples of one N (censored runs count at their budget) */
static void stats(const long *v, int n, double *med, double *lo, double *hi) {
  long *s = malloc(sizeof(long) * n);
  memcpy(s, v, sizeof(long) * n);
  qsort(s, n, sizeof(long), cmp_long);
  *med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  *lo = s[0], *hi = s[n - 1];
  free(s);
}

typedef struct {
  char model[16], task[16];
  int nN, Ns[64], reps[64];
  long v[64][64];
} curve;

static int write_sweep(const char *dir, const nnt_qstr_sweep_cfg *s, const nnt_qstr_point *pts) {
  const char *mname = nnt_qstr_arch_names[s->arch], *tname = s->task.simple ? "simple" : "1str";
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "samples.csv", "model,task,N,rep,samples,censored,diverged,final_mse,steps,de,D,params");
  if (st) return st;
  int R = s->reps;
  for (int i = 0; i < s->nN * R; i++) {
    const nnt_qstr_point *p = &pts[i];
    nnt_csv_row(&csv, "%s,%s,%d,%d,%ld,%d,%d,%.6g,%ld,%d,%d,%zu", mname, tname, p->N, p->rep, p->r.samples, p->r.censored,
                p->r.diverged, p->r.final_mse, p->r.steps, p->de, p->D, p->np);
  }
  if ((st = nnt_csv_close(&csv))) return st;
  if ((st = nnt_csv_open(&csv, dir, "summary.csv", "model,task,N,median,min,max,censored"))) return st;
  for (int k = 0; k < s->nN; k++) {
    long v[1024];
    int cens = 0;
    for (int r = 0; r < R && r < 1024; r++) v[r] = pts[k * R + r].r.samples, cens += pts[k * R + r].r.censored;
    double med, lo, hi;
    stats(v, R < 1024 ? R : 1024, &med, &lo, &hi);
    nnt_csv_row(&csv, "%s,%s,%d,%.1f,%.0f,%.0f,%d", mname, tname, s->Ns[k], med, lo, hi, cens);
  }
  return nnt_csv_close(&csv);
}

/* reads DIR/samples.csv into curves (one per model,task pair) */
static int read_samples(const char *dir, curve *cv, int *ncv, int maxcv) {
  char path[1024], line[1024];
  nnt_path(path, sizeof path, dir, "samples.csv");
  FILE *f = fopen(path, "r");
  if (!f) return nnt_fail(NNT_EIO, "%s: cannot open", path);
  int ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    if (ln == 1) {
      if (strncmp(line, "model,task,N,rep,samples,censored", 33)) {
        fclose(f);
        return nnt_fail(NNT_EFORMAT, "%s:1: not a qstr samples.csv header", path);
      }
      continue;
    }
    char model[16], task[16];
    int N, rep, cens;
    long smp;
    if (sscanf(line, "%15[^,],%15[^,],%d,%d,%ld,%d", model, task, &N, &rep, &smp, &cens) != 6) {
      fclose(f);
      return nnt_fail(NNT_EFORMAT, "%s:%d: malformed row", path, ln);
    }
    int c;
    for (c = 0; c < *ncv; c++)
      if (!strcmp(cv[c].model, model) && !strcmp(cv[c].task, task)) break;
    if (c == *ncv) {
      if (*ncv == maxcv) {
        fclose(f);
        return nnt_fail(NNT_EINVAL, "plot: more than %d curves", maxcv);
      }
      memset(&cv[c], 0, sizeof cv[c]);
      snprintf(cv[c].model, sizeof cv[c].model, "%s", model);
      snprintf(cv[c].task, sizeof cv[c].task, "%s", task);
      (*ncv)++;
    }
    int k;
    for (k = 0; k < cv[c].nN; k++)
      if (cv[c].Ns[k] == N) break;
    if (k == cv[c].nN) {
      if (k == 64) continue;
      cv[c].Ns[k] = N, cv[c].nN++;
    }
    if (cv[c].reps[k] < 64) cv[c].v[k][cv[c].reps[k]++] = smp;
  }
  fclose(f);
  if (ln < 2) return nnt_fail(NNT_EFORMAT, "%s: no rows", path);
  return NNT_OK;
}

static int plot_curves(const char *dir, const curve *cv, int ncv, const char *base) {
  nnt_plot *p = nnt_plot_new("samples to reach the test-MSE threshold (median, min-max band)", "N (input length)",
                             "n (training samples)");
  for (int c = 0; c < ncv; c++) {
    double x[64], med[64], lo[64], hi[64];
    for (int k = 0; k < cv[c].nN; k++) {
      x[k] = cv[c].Ns[k];
      stats(cv[c].v[k], cv[c].reps[k], &med[k], &lo[k], &hi[k]);
    }
    char label[64];
    snprintf(label, sizeof label, "%s (%s)", cv[c].model, cv[c].task);
    int idx = nnt_plot_add(p, cv[c].nN, x, med, label, NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_band(p, cv[c].nN, x, lo, hi, idx);
  }
  int st = nnt_plot_save(p, dir, base);
  nnt_plot_free(p);
  return st;
}

static cJSON *sweep_json(const nnt_qstr_sweep_cfg *s) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "model", nnt_qstr_arch_names[s->arch]);
  cJSON_AddStringToObject(j, "task", s->task.simple ? "simple" : "1str");
  cJSON_AddStringToObject(j, "test_task", s->train.test_simple ? "simple" : "same");
  cJSON_AddNumberToObject(j, "reps", s->reps);
  cJSON_AddNumberToObject(j, "threshold", s->train.threshold);
  cJSON_AddNumberToObject(j, "check_every", s->train.check_every);
  cJSON_AddNumberToObject(j, "n_test", s->train.n_test);
  cJSON_AddNumberToObject(j, "batch", s->train.batch);
  cJSON_AddNumberToObject(j, "lr", s->train.lr);
  cJSON_AddNumberToObject(j, "wd", s->train.wd);
  cJSON_AddNumberToObject(j, "max_samples", (double)s->train.max_samples);
  cJSON_AddNumberToObject(j, "d", s->task.d);
  cJSON_AddNumberToObject(j, "q", s->task.q);
  cJSON_AddStringToObject(j, "enc", s->task.enc ? "paper" : "code");
  cJSON *n = cJSON_AddArrayToObject(j, "N");
  for (int k = 0; k < s->nN; k++) cJSON_AddItemToArray(n, cJSON_CreateNumber(s->Ns[k]));
  return j;
}

/* runs a sweep and writes its files into dir; also used by the tour and the benchmark */
static int run_sweep(const nnt_qstr_sweep_cfg *s, const char *dir, const char *cmdline, int threads, double *wall) {
  nnt_qstr_point *pts = nnt_xcalloc((size_t)s->nN * s->reps, sizeof *pts);
  double t0 = nnt_now();
  int st = nnt_qstr_sweep(s, pts);
  double el = nnt_now() - t0;
  if (wall) *wall = el;
  if (!st && dir) st = write_sweep(dir, s, pts);
  if (!st && dir) {
    curve *cv = nnt_xcalloc(1, sizeof *cv);
    snprintf(cv->model, sizeof cv->model, "%s", nnt_qstr_arch_names[s->arch]);
    snprintf(cv->task, sizeof cv->task, "%s", s->task.simple ? "simple" : "1str");
    cv->nN = s->nN;
    for (int k = 0; k < s->nN; k++) {
      cv->Ns[k] = s->Ns[k];
      cv->reps[k] = s->reps < 64 ? s->reps : 64;
      for (int r = 0; r < cv->reps[k]; r++) cv->v[k][r] = pts[k * s->reps + r].r.samples;
    }
    st = plot_curves(dir, cv, 1, "samples");
    free(cv);
  }
  if (!st && dir) st = nnt_runinfo_write(dir, cmdline, sweep_json(s), s->seed, threads, el);
  if (!st) {
    printf("%-6s %-7s %4s %10s %10s %10s %5s\n", "model", "task", "N", "median", "min", "max", "cens");
    for (int k = 0; k < s->nN; k++) {
      long v[1024];
      int cens = 0, R = s->reps < 1024 ? s->reps : 1024;
      for (int r = 0; r < R; r++) v[r] = pts[k * s->reps + r].r.samples, cens += pts[k * s->reps + r].r.censored;
      double med, lo, hi;
      stats(v, R, &med, &lo, &hi);
      printf("%-6s %-7s %4d %10.0f %10.0f %10.0f %5d\n", nnt_qstr_arch_names[s->arch], s->task.simple ? "simple" : "1str",
             s->Ns[k], med, lo, hi, cens);
    }
    printf("wall time %.2f s on %d thread(s)\n", el, threads);
  }
  free(pts);
  return st;
}

static int cmd_sweep(qopts *o, int argc, char **argv) {
  int st;
  if (!o->set_model) return nnt_fail(NNT_EINVAL, "sweep: --model tr|trp|ffn|rnn|relurnn is required");
  if ((st = cli_positional(argc, argv, 0, "nnt qstr sweep [options]"))) return st;
  nnt_qstr_sweep_cfg s;
  if ((st = sweep_config(o, &s))) return st;
  s.progress = 1;
  if ((st = cli_begin(&o->co))) return st;
  return run_sweep(&s, o->co.out, "qstr sweep", nnt_threads_get(), NULL);
}

static int cmd_plot(qopts *o, int argc, char **argv) {
  int n = argc - optind, st;
  if (n < 1) return nnt_fail(NNT_EINVAL, "plot: give one or more sweep folders (usage: nnt qstr plot DIR... --out DIR)");
  if (!o->co.out) return nnt_fail(NNT_EINVAL, "plot: --out DIR is required");
  curve *cv = nnt_xcalloc(16, sizeof *cv);
  int ncv = 0;
  for (int i = 0; i < n; i++)
    if ((st = read_samples(argv[optind + i], cv, &ncv, 16))) {
      free(cv);
      return st;
    }
  if ((st = cli_begin(&o->co)) || (st = plot_curves(o->co.out, cv, ncv, "samples"))) {
    free(cv);
    return st;
  }
  printf("plot: %d curve(s) -> %s/samples.png\n", ncv, o->co.out);
  free(cv);
  return NNT_OK;
}

/* ---------------------------------------------------------------- attention (Figure 2) */

typedef struct {
  double block_share, diag_ratio, cosine, random_share;
} attn_score;

/* share of the Frobenius mass of M in the solution block, diagonal vs off-diagonal magnitude in
 * the block, cosine with the identity template of eq. (A.2) */
static attn_score score_matrix(const double *M, int D, int d, int de) {
  attn_score s = {0, 0, 0, 0};
  double tot = 0, blk = 0, dg = 0, off = 0, tr = 0;
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) {
      double v = M[i * D + j];
      tot += v * v;
      int in = i >= d + de && i < d + 2 * de && j >= d && j < d + de;
      if (!in) continue;
      blk += v * v;
      if (i - (d + de) == j - d) dg += fabs(v), tr += v;
      else off += fabs(v);
    }
  s.block_share = tot > 0 ? blk / tot : 0;
  s.diag_ratio = off > 0 ? (dg / de) / (off / (de * (de - 1.0))) : INFINITY;
  s.cosine = tot > 0 ? tr / (sqrt(tot) * sqrt((double)de)) : 0;
  s.random_share = (double)de * de / ((double)D * D);
  return s;
}

static int cmd_attention(qopts *o, int argc, char **argv) {
  int st;
  if ((st = cli_positional(argc, argv, 0, "nnt qstr attention [options]"))) return st;
  int N = o->N_set ? (int)o->Ns[0] : (o->co.quick ? 20 : 100);
  if (o->N_set && o->nN != 1) return nnt_fail(NNT_EINVAL, "attention: --N takes one value");
  if (N < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", N);
  int ntrain = o->ntrain_set ? o->ntrain : (o->co.quick ? 4000 : 50000);
  int epochs = o->epochs_set ? o->epochs : 20, ntest = o->ntest_set ? o->ntest : (o->co.quick ? 1000 : 10000);
  double wd = o->wd_set ? o->wd : 0.2, stop = o->thr_set ? o->thr : 0.05;
  if (!(stop > 0)) return nnt_fail(NNT_EINVAL, "--threshold must be > 0 (got %g)", stop);
  int simple = o->task_set ? o->task == 1 : 1; /* the released script trains on simple-1STR */
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  tc.d = o->d, tc.de = o->de, tc.no_dup_codes = o->nodup;
  nnt_qstr_task t;
  if ((st = nnt_qstr_task_init(&t, &tc, o->co.seed))) return st;
  nnt_qstr_model mo;
  if ((st = nnt_qstr_model_setup(&mo, NNT_QSTR_TR, N, t.D, o->m, 1, 0, NULL)) || (st = cli_begin(&o->co))) {
    nnt_qstr_task_free(&t);
    return st;
  }
  double t0 = nnt_now(), loss;
  nnt_qstr_result res;
  openblas_set_num_threads(1); /* one run of small products: threads only add synchronisation */
  nnt_qstr_train_fixed(&t, &mo, simple, ntrain, ntest, epochs, o->batch, o->lr, wd, stop, o->co.seed, 1, &res, &loss);
  int D = t.D, d = t.c.d, de = t.c.de;
  double *M = nnt_xmalloc(sizeof(double) * D * D), *A = nnt_xmalloc(sizeof(double) * D * D);
  const float *Wq = res.params + mo.win, *Wk = Wq + (size_t)D * D;
  for (int i = 0; i < D; i++) /* (W_q^T W_k)_{ij} = sum_r Wq[r][i] Wk[r][j] */
    for (int j = 0; j < D; j++) {
      double s = 0;
      for (int r = 0; r < D; r++) s += (double)Wq[r * D + i] * Wk[r * D + j];
      M[i * D + j] = s, A[i * D + j] = fabs(s); /* row 0 at the top, as nnt_heatmap_save draws and labels it */
    }
  attn_score sc = score_matrix(M, D, d, de);
  /* the same score for the initial (random) matrix */
  double *p0 = nnt_xmalloc(sizeof(double) * mo.np), *M0 = nnt_xmalloc(sizeof(double) * D * D);
  nnt_rng ri;
  nnt_rng_init(&ri, o->co.seed, 8);
  nnt_qstr_model_init(&mo, &ri, p0);
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) {
      double s = 0;
      for (int r = 0; r < D; r++) s += p0[mo.win + r * D + i] * p0[mo.win + (size_t)D * D + r * D + j];
      M0[i * D + j] = s;
    }
  attn_score s0 = score_matrix(M0, D, d, de);
  if (o->co.out) {
    char title[160];
    snprintf(title, sizeof title, "|W_q^T W_k|, N=%d (rows: query features, cols: key features)", N);
    st = nnt_heatmap_save(A, D, D, title, "key feature", "query feature", o->co.out, "attention");
    nnt_csv csv;
    if (!st && !(st = nnt_csv_open(&csv, o->co.out, "wqk.csv", "row,col,value"))) {
      for (int i = 0; i < D; i++)
        for (int j = 0; j < D; j++) nnt_csv_row(&csv, "%d,%d,%.6g", i, j, M[i * D + j]);
      st = nnt_csv_close(&csv);
    }
    if (!st && !(st = nnt_csv_open(&csv, o->co.out, "score.csv",
                                   "N,D,d,de,epochs,train_loss,test_mse,block_share,diag_ratio,cosine,init_block_share,init_diag_ratio,init_cosine,uniform_share"))) {
      nnt_csv_row(&csv, "%d,%d,%d,%d,%ld,%.5g,%.5g,%.4f,%.3f,%.4f,%.4f,%.3f,%.4f,%.4f", N, D, d, de, res.steps, loss,
                  res.final_mse, sc.block_share, sc.diag_ratio, sc.cosine, s0.block_share, s0.diag_ratio, s0.cosine,
                  sc.random_share);
      st = nnt_csv_close(&csv);
    }
    if (!st) {
      cJSON *j = cJSON_CreateObject();
      cJSON_AddNumberToObject(j, "N", N);
      cJSON_AddNumberToObject(j, "n_train", ntrain);
      cJSON_AddNumberToObject(j, "max_epochs", epochs);
      cJSON_AddNumberToObject(j, "wd", wd);
      cJSON_AddBoolToObject(j, "simple", simple);
      st = nnt_runinfo_write(o->co.out, "qstr attention", j, o->co.seed, nnt_threads_get(), nnt_now() - t0);
    }
  }
  if (!st) {
    printf("attention N=%d D=%d: %ld epoch(s), train loss %.4f, test MSE %.4f\n", N, D, res.steps, loss, res.final_mse);
    printf("solution block rows [%d,%d) x cols [%d,%d):\n", d + de, d + 2 * de, d, d + de);
    printf("  Frobenius share %.3f (init %.3f, uniform %.3f), diag/offdiag %.2f (init %.2f), cosine with (A.2) %.3f (init %.3f)\n",
           sc.block_share, s0.block_share, sc.random_share, sc.diag_ratio, s0.diag_ratio, sc.cosine, s0.cosine);
  }
  free(M), free(A), free(p0), free(M0), free(res.params);
  nnt_qstr_task_free(&t);
  return st;
}

/* ---------------------------------------------------------------- heads */

static int cmd_heads(qopts *o, int argc, char **argv) {
  int st;
  if ((st = cli_positional(argc, argv, 0, "nnt qstr heads [options]"))) return st;
  int q = o->q_set ? o->q : 2;
  /* defaults: the setting of Prop. 21 (d = 1, exact bound 1 - H/q), N = 6, a 64-wide 2NN */
  int N = o->N_set ? (int)o->Ns[0] : 6, d = o->d_set ? o->d : 1, m = o->m_set ? o->m : 64;
  double lr = o->lr_set ? o->lr : 3e-3;
  if (o->N_set && o->nN != 1) return nnt_fail(NNT_EINVAL, "heads: --N takes one value");
  if (!o->nH) {
    o->nH = q + 1;
    for (int h = 0; h < o->nH; h++) o->Hs[h] = h + 1;
  }
  long samples = o->samples_set ? o->samples : (o->co.quick ? 32000 : 256000);
  int ntest = o->ntest_set ? o->ntest : (o->co.quick ? 500 : 2000), check = o->check_set ? o->check : 100;
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  tc.d = d, tc.q = q, tc.de = o->de, tc.link = NNT_QSTR_LINK_NORMSQ, tc.enc = NNT_QSTR_ENC_PAPER, tc.no_dup_codes = 1;
  if (N < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", N);
  if (q > N) return nnt_fail(NNT_EINVAL, "--q: q = %d > N = %d", q, N);
  nnt_qstr_task t;
  if ((st = nnt_qstr_task_init(&t, &tc, o->co.seed))) return st;
  if ((st = cli_begin(&o->co))) {
    nnt_qstr_task_free(&t);
    return st;
  }
  double t0 = nnt_now();
  int nH = o->nH;
  double *mse = nnt_xcalloc(nH, sizeof(double));
  nnt_qstr_train_cfg c;
  nnt_qstr_train_cfg_default(&c);
  c.threshold = 1e-300, c.check_every = check, c.n_test = ntest, c.max_samples = samples, c.lr = lr, c.wd = o->wd;
  c.batch = o->batch;
  int nthreads = nnt_threads_get();
  nnt_qstr_model *mos = nnt_xcalloc(nH, sizeof *mos);
  for (int h = 0; h < nH && !st; h++) st = nnt_qstr_model_setup(&mos[h], NNT_QSTR_TRP, N, t.D, m, (int)o->Hs[h], 0, NULL);
  if (!st) {
    openblas_set_num_threads(1); /* parallel over head counts; each product single-threaded */
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
    for (int h = 0; h < nH; h++) {
      nnt_qstr_result r;
      nnt_qstr_train_online(&t, &mos[h], &c, o->co.seed, 100000 + (uint64_t)o->Hs[h], &r);
      mse[h] = r.final_mse;
    }
    openblas_set_num_threads(nthreads);
  }
  /* construction: eq. (A.2) attention with q heads and the exact link, sharp alpha */
  nnt_rng rc;
  nnt_rng_init(&rc, o->co.seed, 200000);
  double cons = nnt_qstr_construct_link_mse(&t, 20.0, &rc, o->co.quick ? 200 : 2000);
  nnt_csv csv;
  if (!st && o->co.out && !(st = nnt_csv_open(&csv, o->co.out, "heads.csv", "q,d,N,H,trained_mse,bound_general,bound_exact,construction_mse"))) {
    for (int h = 0; h < nH; h++)
      nnt_csv_row(&csv, "%d,%d,%d,%ld,%.5f,%.5f,%.5f,%.5f", q, d, N, o->Hs[h], mse[h], nnt_qstr_heads_bound((int)o->Hs[h], q, d),
                  nnt_qstr_heads_bound_exact((int)o->Hs[h], q), o->Hs[h] >= q ? cons : NAN);
    st = nnt_csv_close(&csv);
  }
  if (!st && o->co.out) {
    double x[16], y1[16], y2[16], y3[16];
    for (int h = 0; h < nH; h++)
      x[h] = (double)o->Hs[h], y1[h] = mse[h], y2[h] = nnt_qstr_heads_bound((int)o->Hs[h], q, d),
      y3[h] = nnt_qstr_heads_bound_exact((int)o->Hs[h], q);
    nnt_plot *p = nnt_plot_new("norm-squared qSTR: trained test MSE vs heads", "H (heads)", "test MSE");
    nnt_plot_add(p, nH, x, y1, "trained trp (online AdamW)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
    nnt_plot_add(p, nH, x, y2, "bound 1 - H(q+d)/(qd)", NNT_PLOT_DASHED);
    nnt_plot_add(p, nH, x, y3, "bound 1 - H/q (Prop. 21)", NNT_PLOT_DASHED);
    st = nnt_plot_save(p, o->co.out, "heads");
    nnt_plot_free(p);
    if (!st) {
      cJSON *j = cJSON_CreateObject();
      cJSON_AddNumberToObject(j, "q", q), cJSON_AddNumberToObject(j, "d", d), cJSON_AddNumberToObject(j, "N", N);
      cJSON_AddNumberToObject(j, "samples", (double)samples), cJSON_AddNumberToObject(j, "m", m);
      cJSON_AddNumberToObject(j, "construction_mse", cons);
      st = nnt_runinfo_write(o->co.out, "qstr heads", j, o->co.seed, nthreads, nnt_now() - t0);
    }
  }
  if (!st) {
    printf("norm-squared link, q=%d d=%d N=%d, %ld training samples, m=%d\n%3s %12s %14s %12s\n", q, d, N, samples, m, "H",
           "trained MSE", "1-H(q+d)/(qd)", "1-H/q");
    for (int h = 0; h < nH; h++)
      printf("%3ld %12.4f %14.4f %12.4f\n", o->Hs[h], mse[h], nnt_qstr_heads_bound((int)o->Hs[h], q, d),
             nnt_qstr_heads_bound_exact((int)o->Hs[h], q));
    printf("construction (H = q = %d heads, alpha = 20, exact link): MSE %.4f\n", q, cons);
  }
  free(mse), free(mos);
  nnt_qstr_task_free(&t);
  return st;
}

/* ---------------------------------------------------------------- construct */

static int cmd_construct(qopts *o, int argc, char **argv) {
  int st;
  if ((st = cli_positional(argc, argv, 0, "nnt qstr construct [options]"))) return st;
  int N = o->N_set ? (int)o->Ns[0] : 8, n = o->n_set ? (int)o->ns[0] : (o->co.quick ? 1000 : 4000);
  if (o->N_set && o->nN != 1) return nnt_fail(NNT_EINVAL, "construct: --N takes one value");
  if (o->n_set && (o->nn != 1 || n < 2)) return nnt_fail(NNT_EINVAL, "construct: --n takes one value >= 2");
  if (!o->alpha_set) /* the default written as a user would type it (no constant table to copy) */
    parse_double_list("--alpha", "0,0.05,0.1,0.2,0.3,0.5,1", 0, 1e6, o->alphas, 32, &o->nalpha);
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, N);
  tc.d = o->d, tc.q = o->q, tc.de = o->de, tc.enc = o->enc_set ? o->enc : NNT_QSTR_ENC_PAPER;
  tc.no_dup_codes = 1;
  nnt_qstr_task t;
  if ((st = nnt_qstr_task_init(&t, &tc, o->co.seed))) return st;
  if ((st = cli_begin(&o->co))) {
    nnt_qstr_task_free(&t);
    return st;
  }
  double t0 = nnt_now();
  int na = o->nalpha, bad = 0;
  double *cl = nnt_xmalloc(sizeof(double) * na), *mc = nnt_xmalloc(sizeof(double) * na), *se = nnt_xmalloc(sizeof(double) * na);
  for (int k = 0; k < na; k++) {
    nnt_rng r;
    nnt_rng_init(&r, o->co.seed, 300000 + k);
    nnt_qstr_construct_mse(&t, o->alphas[k], &r, n, &cl[k], &mc[k], &se[k]);
    if (fabs(mc[k] - cl[k]) > 5 * se[k] + 1e-9) bad++;
  }
  int mono = 1;
  for (int k = 1; k < na; k++)
    if (o->alphas[k] > o->alphas[k - 1] && cl[k] > cl[k - 1] + 1e-12) mono = 0;
  nnt_csv csv;
  if (o->co.out && !(st = nnt_csv_open(&csv, o->co.out, "construct.csv", "alpha,closed_form,monte_carlo,mc_se,z"))) {
    for (int k = 0; k < na; k++)
      nnt_csv_row(&csv, "%g,%.6f,%.6f,%.6f,%.2f", o->alphas[k], cl[k], mc[k], se[k], se[k] > 0 ? (mc[k] - cl[k]) / se[k] : 0);
    st = nnt_csv_close(&csv);
  }
  if (!st && o->co.out) {
    nnt_plot *p = nnt_plot_new("eq. (A.2) construction: test MSE vs sharpness alpha", "alpha", "test MSE");
    nnt_plot_add(p, na, o->alphas, cl, "closed form", NNT_PLOT_LINE);
    nnt_plot_add(p, na, o->alphas, mc, "Monte Carlo (forward pass)", NNT_PLOT_POINTS);
    st = nnt_plot_save(p, o->co.out, "construct");
    nnt_plot_free(p);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "N", N), cJSON_AddNumberToObject(j, "d", t.c.d), cJSON_AddNumberToObject(j, "q", t.c.q);
    cJSON_AddNumberToObject(j, "de", t.c.de), cJSON_AddNumberToObject(j, "n", n);
    if (!st) st = nnt_runinfo_write(o->co.out, "qstr construct", j, o->co.seed, nnt_threads_get(), nnt_now() - t0);
    else cJSON_Delete(j);
  }
  if (!st) {
    printf("eq. (A.2) construction, N=%d d=%d q=%d d_e=%d (%s encoding, no duplicate codes), %d prompts\n", N, t.c.d,
           t.c.q, t.c.de, enc_names[t.c.enc], n);
    printf("%8s %12s %12s %10s\n", "alpha", "closed form", "Monte Carlo", "std err");
    for (int k = 0; k < na; k++) printf("%8g %12.6f %12.6f %10.6f\n", o->alphas[k], cl[k], mc[k], se[k]);
    printf("closed form decreasing in alpha: %s; Monte Carlo within 5 standard errors: %d/%d\n", mono ? "yes" : "NO",
           na - bad, na);
  }
  free(cl), free(mc), free(se);
  nnt_qstr_task_free(&t);
  if (!st && (bad || !mono)) st = nnt_fail(NNT_ECHECK, "construct: closed form and Monte Carlo disagree");
  return st;
}

/* ---------------------------------------------------------------- ffn-bound */

static int cmd_ffn_bound(qopts *o, int argc, char **argv) {
  int st;
  if ((st = cli_positional(argc, argv, 0, "nnt qstr ffn-bound [options]"))) return st;
  int N = o->N_set ? (int)o->Ns[0] : 4, d = o->d_set ? o->d : 5;
  if (o->N_set && o->nN != 1) return nnt_fail(NNT_EINVAL, "ffn-bound: --N takes one value");
  if (N < 2) return nnt_fail(NNT_EINVAL, "--N: N must be >= 2 (got %d)", N);
  int P = N * d;
  if (!o->n_set) {
    o->nn = 0;
    int step = P / 10 > 0 ? P / 10 : 1;
    for (int n = 0; n <= P && o->nn < 256; n += step) o->ns[o->nn++] = n;
  }
  for (int k = 0; k < o->nn; k++)
    if (o->ns[k] > P) return nnt_fail(NNT_EINVAL, "--n: %ld exceeds Nd = %d (the bound is for n <= Nd)", o->ns[k], P);
  int trials = o->trials_set ? o->trials : (o->co.quick ? 5 : 20), ntest = o->ntest_set ? o->ntest : (o->co.quick ? 500 : 2000);
  if ((st = cli_begin(&o->co))) return st;
  double t0 = nnt_now();
  double *meas = nnt_xmalloc(sizeof(double) * o->nn), *form = nnt_xmalloc(sizeof(double) * o->nn);
  double *se = nnt_xmalloc(sizeof(double) * o->nn), *x = nnt_xmalloc(sizeof(double) * o->nn);
  int bad = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int k = 0; k < o->nn; k++) {
    nnt_rng r;
    nnt_rng_init(&r, o->co.seed, 400000 + k);
    meas[k] = nnt_qstr_ffn_minnorm_mse(N, d, (int)o->ns[k], ntest, trials, &r, &se[k]);
  }
  for (int k = 0; k < o->nn; k++) {
    x[k] = (double)o->ns[k];
    form[k] = fmax(0, 1 - (double)o->ns[k] / P);
    if (fabs(meas[k] - form[k]) > 5 * se[k] + 0.02) bad++;
  }
  nnt_csv csv;
  if (o->co.out && !(st = nnt_csv_open(&csv, o->co.out, "ffn_bound.csv", "N,d,n,measured_mse,std_err,formula"))) {
    for (int k = 0; k < o->nn; k++) nnt_csv_row(&csv, "%d,%d,%ld,%.5f,%.5f,%.5f", N, d, o->ns[k], meas[k], se[k], form[k]);
    st = nnt_csv_close(&csv);
  }
  if (!st && o->co.out) {
    char title[128];
    snprintf(title, sizeof title, "Theorem 6: min-norm least squares, N=%d d=%d", N, d);
    nnt_plot *p = nnt_plot_new(title, "n (training prompts)", "test MSE");
    nnt_plot_add(p, o->nn, x, form, "1 - n/(Nd)", NNT_PLOT_LINE);
    nnt_plot_add(p, o->nn, x, meas, "measured", NNT_PLOT_POINTS);
    st = nnt_plot_save(p, o->co.out, "ffn_bound");
    nnt_plot_free(p);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "N", N), cJSON_AddNumberToObject(j, "d", d), cJSON_AddNumberToObject(j, "trials", trials);
    cJSON_AddNumberToObject(j, "n_test", ntest);
    if (!st) st = nnt_runinfo_write(o->co.out, "qstr ffn-bound", j, o->co.seed, nnt_threads_get(), nnt_now() - t0);
    else cJSON_Delete(j);
  }
  if (!st) {
    printf("Theorem 6 (min-norm least squares on simple-1STR), N=%d d=%d, Nd=%d\n%6s %10s %10s %12s\n", N, d, P, "n",
           "measured", "std err", "1 - n/(Nd)");
    for (int k = 0; k < o->nn; k++) printf("%6ld %10.4f %10.4f %12.4f\n", o->ns[k], meas[k], se[k], form[k]);
  }
  free(meas), free(form), free(se), free(x);
  if (!st && bad) st = nnt_fail(NNT_ECHECK, "ffn-bound: %d point(s) off the formula", bad);
  return st;
}

int cmd_qstr(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(help, argc < 2 ? stderr : stdout);
    return argc < 2 ? nnt_fail(NNT_EINVAL, "missing subcommand (sweep, plot, attention, heads, construct, ffn-bound)") : NNT_OK;
  }
  static const char *const subs[] = {"sweep", "plot", "attention", "heads", "construct", "ffn-bound", NULL};
  int sub;
  if (cli_parse_choice("subcommand", argv[1], subs, &sub)) return NNT_EINVAL;
  qopts o;
  int st = parse(argc - 1, argv + 1, &o);
  if (st) return st;
  if (o.co.help) return fputs(help, stdout), NNT_OK;
  if (o.nN && (st = check_Ns(&o))) return st;
  switch (sub) {
  case 0: return cmd_sweep(&o, argc - 1, argv + 1);
  case 1: return cmd_plot(&o, argc - 1, argv + 1);
  case 2: return cmd_attention(&o, argc - 1, argv + 1);
  case 3: return cmd_heads(&o, argc - 1, argv + 1);
  case 4: return cmd_construct(&o, argc - 1, argv + 1);
  default: return cmd_ffn_bound(&o, argc - 1, argv + 1);
  }
}

/* ---------------------------------------------------------------- tour */

int tour_qstr(cli_tour *t) {
  char dir[1024], sub[1024];
  nnt_path(dir, sizeof dir, t->out, "qstr");
  int st;
  double wall[2];
  nnt_qstr_sweep_cfg s[2];
  curve *cv = nnt_xcalloc(2, sizeof *cv);
  for (int k = 0; k < 2; k++) {
    qopts o;
    memset(&o, 0, sizeof o);
    cli_common_init(&o.co, NULL);
    o.co.quick = 1, o.co.seed = t->seed;
    o.reps = 5, o.check = 10, o.ntest = 5000, o.batch = 64, o.maxs = 1000000, o.d = 10, o.m = 100, o.hsize = 500;
    o.thr = 0.7, o.lr = 1e-3, o.wd = 0.01, o.q = 1, o.testtask = 1;
    o.model = k ? NNT_QSTR_FFN : NNT_QSTR_TR;
    o.N_set = 1, o.nN = 4, o.Ns[0] = 2, o.Ns[1] = 4, o.Ns[2] = 8, o.Ns[3] = 12;
    if ((st = sweep_config(&o, &s[k]))) return free(cv), st;
    nnt_path(sub, sizeof sub, dir, k ? "sweep_ffn" : "sweep_tr");
    if ((st = nnt_mkdirs(sub)) || (st = run_sweep(&s[k], sub, "tour qstr sweep", nnt_threads_get(), &wall[k])) ||
        (st = read_samples(sub, cv, &(int){k}, 2)))
      return free(cv), st;
  }
  if ((st = plot_curves(dir, cv, 2, "samples"))) return free(cv), st;
  cli_tour_printf(t, "## qstr: transformer vs FFN sample complexity (seed 001, Figure 1a, quick)\n\n"
                  "Online AdamW (batch 64, lr 1e-3, wd 0.01) on 1STR, d = 10, d_e = floor(5 ln N); test MSE on "
                  "1000 simple-1STR prompts (the released code's protocol) every 10 steps; samples needed to "
                  "reach test MSE 0.7, 1 repetition. The paper: the transformer's count grows slowly with N, the "
                  "FFN's fast.\n\n| N | transformer | FFN |\n|---|---|---|\n");
  for (int k = 0; k < cv[0].nN; k++) cli_tour_printf(t, "| %d | %ld | %ld |\n", cv[0].Ns[k], cv[0].v[k][0], cv[1].v[k][0]);
  cli_tour_printf(t, "\nWall time: transformer %.1f s, FFN %.1f s. ![samples](qstr/samples.png)\n\n", wall[0], wall[1]);
  free(cv);
  /* the construction's closed form against Monte Carlo, and Theorem 6 */
  nnt_qstr_task_cfg tc;
  nnt_qstr_task_cfg_default(&tc, 8);
  tc.enc = NNT_QSTR_ENC_PAPER, tc.no_dup_codes = 1;
  nnt_qstr_task task;
  if ((st = nnt_qstr_task_init(&task, &tc, t->seed))) return st;
  cli_tour_printf(t, "Eq. (A.2) construction (N = 8, paper encoding): closed-form MSE vs Monte Carlo through the "
                  "model's forward pass.\n\n| alpha | closed form | Monte Carlo |\n|---|---|---|\n");
  static const double al[] = {0.05, 0.2, 0.5};
  for (int k = 0; k < 3; k++) {
    nnt_rng r;
    nnt_rng_init(&r, t->seed, 300000 + k);
    double cl, mc, se;
    nnt_qstr_construct_mse(&task, al[k], &r, 1000, &cl, &mc, &se);
    cli_tour_printf(t, "| %g | %.4f | %.4f ± %.4f |\n", al[k], cl, mc, se);
  }
  nnt_qstr_task_free(&task);
  cli_tour_printf(t, "\nTheorem 6 (min-norm least squares, N = 4, d = 5): test MSE vs 1 - n/(Nd).\n\n| n | measured | "
                  "1 - n/(Nd) |\n|---|---|---|\n");
  for (int n = 0; n <= 20; n += 5) {
    nnt_rng r;
    nnt_rng_init(&r, t->seed, 400000 + n);
    double se, m = nnt_qstr_ffn_minnorm_mse(4, 5, n, 500, 5, &r, &se);
    cli_tour_printf(t, "| %d | %.3f | %.3f |\n", n, m, 1 - n / 20.0);
  }
  return NNT_OK;
}
