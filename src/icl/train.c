/* train.c — pretraining the GPT-2 in-context learner on fresh prompts (spec §7.5): Adam, one
 * batch of new prompts per step (prompt streams step·batch + b, so a step's data does not depend
 * on threads or on where a run was resumed), checkpoints with the Adam state and the loss log. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpt_impl.h"
#include "nnt_blas.h"
#include "nnt_ckpt.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_mpi.h"
#include "nnt_optim.h"
#include "nnt_progress.h"
#include "nnt_train.h"

const char *const nnt_icl_preset_names[] = {"micro", "mini", "small", "paper", NULL};
const char *const nnt_icl_curriculum_names[] = {"none", "garg", NULL};

void nnt_icl_train_cfg_default(nnt_icl_train_cfg *c, nnt_icl_preset p) {
  /* d, points, width, layers, heads, MLP (0: 4 x width), batch, steps, lr, target width, checkpoint and log
   * intervals, curriculum. paper: the paper's App. G model (12 blocks, 8 heads, hidden and MLP 256)
   * and Garg's schedule (batch 64, Adam 1e-4, 500k steps, curriculum). mini and small: Garg's small
   * model (6 / 4 / 128, MLP 4E) sized for about 15-30 min and 1 h on 2 idle cores (mini 0.34 s a step
   * on the Xeon, 0.54 on the AMD EPYC; small 0.61 on the AMD EPYC: docs/icl.md); micro: seconds, for CI and the tour (no curriculum: 400 steps). */
  typedef struct {
    int d, n, E, L, H, F, B;
    long long steps;
    double lr;
    int K, ckpt_every, log_every, curriculum;
  } row;
  enum { G = NNT_ICL_CURRICULUM_GARG };
  static const row P[] = {
      [NNT_ICL_PRESET_MICRO] = {5, 20, 32, 2, 2, 0, 16, 400, 1e-3, 32, 100, 10, NNT_ICL_CURRICULUM_NONE},
      [NNT_ICL_PRESET_MINI] = {8, 51, 128, 6, 4, 0, 64, 3000, 3e-4, 32, 250, 50, G},
      [NNT_ICL_PRESET_SMALL] = {20, 51, 128, 6, 4, 0, 64, 6000, 3e-4, 200, 500, 100, G},
      [NNT_ICL_PRESET_PAPER] = {20, 51, 256, 12, 8, 256, 64, 500000, 1e-4, 200, 1000, 500, G},
  };
  const row *q = &P[p];
  memset(c, 0, sizeof *c);
  nnt_icl_task_default(&c->task, q->d, q->n, 3); /* the paper's main target depth */
  c->task.width = q->K;
  /* 4n position slots: prompts up to twice the training length (eval's extrapolation, spec §7.6) */
  c->arch = (nnt_icl_gpt_arch){.d = q->d, .n_embd = q->E, .n_layer = q->L, .n_head = q->H, .mlp = q->F,
                               .n_pos = 4 * q->n, .attn = NNT_ATTN_SOFTMAX, .relu_norm = NNT_RELU_NORM_VISIBLE};
  c->batch = q->B, c->steps = q->steps, c->lr = q->lr, c->seed = 1, c->curriculum = q->curriculum;
  c->curriculum_steps = llround(0.06 * (double)q->steps); /* Garg's 30,000 of 500,000 */
  c->ckpt_every = q->ckpt_every, c->log_every = q->log_every;
}

void nnt_icl_curriculum_stages(const nnt_icl_train_cfg *c, long long *interval, int *stages) {
  *interval = 0, *stages = 0;
  if (c->curriculum != NNT_ICL_CURRICULUM_GARG) return;
  const int d0 = (c->task.d + 3) / 4;
  *stages = c->task.d - d0;
  if (*stages < 1) return; /* d = 1: nothing to grow (the model needs d >= 2, the task not) */
  const long long iv = llround((double)c->curriculum_steps / *stages);
  *interval = iv < 1 ? 1 : iv;
}

void nnt_icl_curriculum_at(const nnt_icl_train_cfg *c, long long step, int *dims, int *points) {
  long long iv;
  int S;
  nnt_icl_curriculum_stages(c, &iv, &S);
  *dims = c->task.d, *points = c->task.n;
  if (!S) return;
  const int d0 = (c->task.d + 3) / 4, p0 = 1 + (c->task.n - 1 + 3) / 4;
  const long long st = step / iv;
  const int s = st > S ? S : (int)st;
  *dims = d0 + s;
  *points = p0 + (int)((long long)(c->task.n - p0) * s / S);
}

int nnt_icl_train_check(const nnt_icl_train_cfg *c) {
  int st = nnt_icl_gpt_arch_check(&c->arch);
  if (st || (st = nnt_icl_task_check(&c->task))) return st;
  if (c->arch.d != c->task.d)
    return nnt_fail(NNT_EINVAL, "the model's token width %d differs from the task's d = %d", c->arch.d, c->task.d);
  if (2 * c->task.n > c->arch.n_pos)
    return nnt_fail(NNT_EINVAL, "prompts of %d points need %d position slots, the model has %d", c->task.n,
                    2 * c->task.n, c->arch.n_pos);
  if (c->batch < 1) return nnt_fail(NNT_EINVAL, "--batch must be >= 1 (got %d)", c->batch);
  if (c->batch < nnt_mpi_size())
    return nnt_fail(NNT_EINVAL, "--batch %d is smaller than the %d MPI ranks that share it", c->batch, nnt_mpi_size());
  if (c->steps < 1) return nnt_fail(NNT_EINVAL, "--steps must be >= 1 (got %lld)", c->steps);
  if (!(c->lr > 0) || !isfinite(c->lr)) return nnt_fail(NNT_EINVAL, "--lr must be > 0 (got %g)", c->lr);
  if ((unsigned)c->curriculum > NNT_ICL_CURRICULUM_GARG) return nnt_fail(NNT_EINVAL, "unknown curriculum %d", c->curriculum);
  if (c->curriculum_steps < 0 || c->curriculum_steps > (1LL << 50))
    return nnt_fail(NNT_EINVAL, "--curriculum-steps must be in 0..2^50 (got %lld)", c->curriculum_steps);
  if (c->log_every < 1 || c->ckpt_every < 1 || c->ckpt_every % c->log_every)
    return nnt_fail(NNT_EINVAL, "--ckpt-every (%d) must be a positive multiple of the log interval %d", c->ckpt_every,
                    c->log_every);
  char what[128];
  snprintf(what, sizeof what, "icl train (%d layers, width %d, batch %d x %d points)", c->arch.n_layer, c->arch.n_embd,
           c->batch, c->task.n);
  return nnt_mem_check(nnt_icl_gpt_train_bytes(&c->arch, c->batch / nnt_mpi_size() + 1, c->task.n), what,
                       "lower --batch, --points or --d, or take a smaller --preset");
}

double nnt_icl_train_seconds(const nnt_icl_train_cfg *c, int threads) {
  const double effective = 1 + 0.75 * (threads > 1 ? threads - 1 : 0);
  return (double)c->steps * nnt_icl_gpt_train_macs(&c->arch, c->batch, c->task.n) / (NNT_ICL_MACS_PER_S * effective);
}

/* ------------------------------------------------------------------------ checkpoint meta */

/* A number written with 17 significant digits, which strtod reads back exactly (cJSON's own
 * printing accepts a 1-ulp difference, and the loss log must resume bit for bit). */
static cJSON *exact(double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.17g", v);
  return cJSON_CreateRaw(buf);
}

char *nnt_icl_meta_write(const nnt_icl_train_cfg *c, int nlog, const long long *log_step, const double *log_loss,
                     double wsum, int wcount) {
  cJSON *j = cJSON_CreateObject(), *a = cJSON_AddObjectToObject(j, "arch"), *t = cJSON_AddObjectToObject(j, "task");
  cJSON *tr = cJSON_AddObjectToObject(j, "train");
  cJSON_AddNumberToObject(j, "format", 2);
  cJSON_AddNumberToObject(a, "mlp", c->arch.mlp ? c->arch.mlp : 4 * c->arch.n_embd);
  cJSON_AddNumberToObject(a, "d", c->arch.d), cJSON_AddNumberToObject(a, "n_embd", c->arch.n_embd);
  cJSON_AddNumberToObject(a, "n_layer", c->arch.n_layer), cJSON_AddNumberToObject(a, "n_head", c->arch.n_head);
  cJSON_AddNumberToObject(a, "n_pos", c->arch.n_pos);
  cJSON_AddStringToObject(a, "attn", nnt_icl_attn_names[c->arch.attn]);
  cJSON_AddStringToObject(a, "relu_norm", c->arch.relu_norm == NNT_RELU_NORM_VISIBLE ? "visible" : "T");
  cJSON_AddNumberToObject(t, "d", c->task.d), cJSON_AddNumberToObject(t, "n", c->task.n);
  cJSON_AddNumberToObject(t, "depth", c->task.depth), cJSON_AddNumberToObject(t, "width", c->task.width);
  cJSON_AddItemToObject(t, "w_mean", exact(c->task.w_mean)), cJSON_AddItemToObject(t, "w_std", exact(c->task.w_std));
  cJSON_AddItemToObject(t, "y_scale", exact(c->task.y_scale)), cJSON_AddItemToObject(t, "mix2", exact(c->task.mix2));
  cJSON_AddItemToObject(t, "mu", exact(c->task.mu));
  cJSON_AddItemToObject(t, "mu2", exact(c->task.mu2)), cJSON_AddItemToObject(t, "noise", exact(c->task.noise));
  cJSON_AddStringToObject(t, "act", nnt_icl_act_names[c->task.act]);
  cJSON_AddNumberToObject(t, "per_prompt", c->task.per_prompt);
  cJSON_AddStringToObject(tr, "curriculum", nnt_icl_curriculum_names[c->curriculum]);
  cJSON_AddNumberToObject(tr, "curriculum_steps", (double)c->curriculum_steps);
  char seed[24];
  snprintf(seed, sizeof seed, "%" PRIu64, c->seed); /* a string: JSON numbers stop at 2^53 */
  cJSON_AddNumberToObject(tr, "batch", c->batch), cJSON_AddNumberToObject(tr, "steps", (double)c->steps);
  cJSON_AddItemToObject(tr, "lr", exact(c->lr)), cJSON_AddStringToObject(tr, "seed", seed);
  cJSON_AddNumberToObject(tr, "log_every", c->log_every);
  cJSON *log = cJSON_AddObjectToObject(j, "log");
  cJSON_AddItemToObject(log, "step", cJSON_CreateArray());
  cJSON *steps = cJSON_GetObjectItem(log, "step"), *losses = cJSON_AddArrayToObject(log, "loss");
  for (int i = 0; i < nlog; i++)
    cJSON_AddItemToArray(steps, cJSON_CreateNumber((double)log_step[i])), cJSON_AddItemToArray(losses, exact(log_loss[i]));
  cJSON_AddItemToObject(log, "wsum", exact(wsum)), cJSON_AddNumberToObject(log, "wcount", wcount);
  char *s = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
  return s;
}

/* The number at key, or NAN (missing or not a number). */
static double num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The string at key among names (NULL-terminated), or -1. */
static int choice(const cJSON *o, const char *key, const char *const *names) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  for (int i = 0; cJSON_IsString(v) && names[i]; i++)
    if (!strcmp(v->valuestring, names[i])) return i;
  return -1;
}

/* Format 2's fields (MLP width, the task's centres, noise, activation and mixture draw, the
 * curriculum): present and valid in format 2; absent in format 1, whose checkpoints keep their
 * fixed values (MLP 4E, mu2 = mu, no noise, ReLU targets, per-point mixture, no curriculum). */
static int parse_format2(const cJSON *j, nnt_icl_train_cfg *c) {
  const cJSON *fmt = cJSON_GetObjectItem(j, "format");
  if (!fmt) return 1;
  const cJSON *a = cJSON_GetObjectItem(j, "arch"), *t = cJSON_GetObjectItem(j, "task"), *tr = cJSON_GetObjectItem(j, "train");
  const double mlp = num(a, "mlp"), mu2 = num(t, "mu2"), noise = num(t, "noise"), pp = num(t, "per_prompt"),
               cs = num(tr, "curriculum_steps");
  const int act = choice(t, "act", nnt_icl_act_names), cur = choice(tr, "curriculum", nnt_icl_curriculum_names);
  if (!cJSON_IsNumber(fmt) || fmt->valuedouble != 2 || !(mlp >= 1 && mlp <= INT_MAX && mlp == floor(mlp)) ||
      !isfinite(mu2) || !isfinite(noise) || !(pp == 0 || pp == 1) || act < 0 || cur < 0 ||
      !(cs >= 0 && cs <= 1e15 && cs == floor(cs)))
    return 0;
  c->curriculum_steps = (long long)cs;
  c->arch.mlp = mlp == 4.0 * c->arch.n_embd ? 0 : (int)mlp; /* 0 is GPT-2's 4E, as cfg_default writes it */
  c->task.mu2 = mu2, c->task.noise = noise, c->task.per_prompt = (int)pp;
  c->task.act = act, c->curriculum = cur;
  return 1;
}

int nnt_icl_meta_parse(const char *path, const char *json, nnt_icl_train_cfg *c, nnt_icl_meta_log *log) {
  cJSON *j = cJSON_Parse(json ? json : "");
  const cJSON *a = cJSON_GetObjectItem(j, "arch"), *t = cJSON_GetObjectItem(j, "task"), *tr = cJSON_GetObjectItem(j, "train");
  const cJSON *lg = cJSON_GetObjectItem(j, "log");
  const cJSON *attn = cJSON_GetObjectItem(a, "attn"), *rn = cJSON_GetObjectItem(a, "relu_norm"),
              *seed = cJSON_GetObjectItem(tr, "seed");
  const cJSON *ls = cJSON_GetObjectItem(lg, "step"), *ll = cJSON_GetObjectItem(lg, "loss");
  memset(c, 0, sizeof *c);
  double v[] = {num(a, "d"),       num(a, "n_embd"), num(a, "n_layer"), num(a, "n_head"),   num(a, "n_pos"),
                num(t, "d"),       num(t, "n"),      num(t, "depth"),   num(t, "width"),    num(t, "w_mean"),
                num(t, "w_std"),   num(t, "y_scale"), num(t, "mix2"),   num(t, "mu"),       num(tr, "batch"),
                num(tr, "steps"),  num(tr, "lr"),    num(tr, "log_every"), num(lg, "wsum"), num(lg, "wcount")};
  int ok = j && cJSON_IsString(attn) && cJSON_IsString(rn) && cJSON_IsString(seed) && cJSON_IsArray(ls) &&
           cJSON_IsArray(ll) && cJSON_GetArraySize(ls) == cJSON_GetArraySize(ll);
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) ok = ok && isfinite(v[i]);
  /* counts are whole numbers in range of their C type (a cast of anything else is undefined) */
  static const int counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 17, 19};
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
    double x = v[counts[i]];
    ok = ok && x == floor(x) && fabs(x) <= (counts[i] == 15 ? 1e15 : INT_MAX);
  }
  ok = ok && seed->valuestring[0] && !seed->valuestring[strspn(seed->valuestring, "0123456789")];
  ok = ok && (!strcmp(attn->valuestring, "softmax") || !strcmp(attn->valuestring, "relu")) &&
       (!strcmp(rn->valuestring, "visible") || !strcmp(rn->valuestring, "T"));
  for (int i = 0; ok && i < cJSON_GetArraySize(ls); i++) {
    const cJSON *s = cJSON_GetArrayItem(ls, i), *l = cJSON_GetArrayItem(ll, i);
    ok = cJSON_IsNumber(s) && s->valuedouble == floor(s->valuedouble) && s->valuedouble >= 0 && s->valuedouble <= 1e15 &&
         cJSON_IsNumber(l) && isfinite(l->valuedouble);
  }
  if (ok) {
    c->arch = (nnt_icl_gpt_arch){.d = (int)v[0], .n_embd = (int)v[1], .n_layer = (int)v[2], .n_head = (int)v[3],
                                 .n_pos = (int)v[4], .attn = strcmp(attn->valuestring, "relu") ? NNT_ATTN_SOFTMAX : NNT_ATTN_RELU,
                                 .relu_norm = strcmp(rn->valuestring, "T") ? NNT_RELU_NORM_VISIBLE : NNT_RELU_NORM_T};
    c->task = (nnt_icl_task){.d = (int)v[5], .n = (int)v[6], .depth = (int)v[7], .width = (int)v[8], .w_mean = v[9],
                             .w_std = v[10], .y_scale = v[11], .mix2 = v[12], .mu = v[13]};
    c->task.mu2 = c->task.mu, c->task.act = NNT_ICL_ACT_RELU; /* format 1's fixed choices */
    c->batch = (int)v[14], c->steps = (long long)v[15], c->lr = v[16], c->log_every = (int)v[17];
    c->ckpt_every = c->log_every;
    c->seed = strtoull(seed->valuestring, NULL, 10);
  }
  if (ok) ok = parse_format2(j, c);
  if (ok && log) {
    int n = cJSON_GetArraySize(ls);
    log->n = n, log->wsum = v[18], log->wcount = (int)v[19];
    log->step = nnt_xmalloc(sizeof(long long) * (n + 1)), log->loss = nnt_xmalloc(sizeof(double) * (n + 1));
    for (int i = 0; i < n; i++) {
      log->step[i] = (long long)cJSON_GetArrayItem(ls, i)->valuedouble;
      log->loss[i] = cJSON_GetArrayItem(ll, i)->valuedouble;
    }
  }
  cJSON_Delete(j);
  if (!ok) return nnt_fail(NNT_EFORMAT, "%s: not a checkpoint of nnt icl train (its metadata lacks the config)", path);
  int st = nnt_icl_train_check(c);
  if (st) {
    if (log) free(log->step), free(log->loss), log->step = NULL, log->loss = NULL;
    char why[512];
    snprintf(why, sizeof why, "%s", nnt_errmsg()); /* nnt_fail overwrites the message it would read */
    return nnt_fail(NNT_EFORMAT, "%s: its config is invalid (%s)", path, why);
  }
  return NNT_OK;
}

/* ------------------------------------------------------------------------ training */

/* Everything that fixes the trajectory must match to resume; steps may grow, intervals differ. */
static int same_run(const nnt_icl_train_cfg *a, const nnt_icl_train_cfg *b) {
  const nnt_icl_gpt_arch *x = &a->arch, *y = &b->arch;
  return x->d == y->d && x->n_embd == y->n_embd && x->n_layer == y->n_layer && x->n_head == y->n_head &&
         (x->mlp ? x->mlp : 4 * x->n_embd) == (y->mlp ? y->mlp : 4 * y->n_embd) && x->n_pos == y->n_pos &&
         x->attn == y->attn && x->relu_norm == y->relu_norm && nnt_icl_task_same(&a->task, &b->task, 0) &&
         a->curriculum == b->curriculum && a->curriculum_steps == b->curriculum_steps && a->batch == b->batch && a->lr == b->lr && a->seed == b->seed && a->log_every == b->log_every;
}

void nnt_icl_train_result_free(nnt_icl_train_result *r) {
  free(r->log_step), free(r->log_loss);
  memset(r, 0, sizeof *r);
}

int nnt_icl_train_load(const nnt_icl_train_cfg *c, const char *dir, int resume, nnt_icl_gpt **m, char *path, size_t n) {
  nnt_icl_train_result r;
  int st = nnt_icl_train_run(c, dir, resume, &r);
  if (st) return st;
  nnt_icl_train_result_free(&r);
  snprintf(path, n, "%s/model.ckpt", dir);
  return nnt_icl_gpt_load(path, m);
}

/* Every rank's gradient and loss times its share w, summed over the ranks, in place. */
static void allreduce_mean(nnt_params *P, double w, double *loss) {
  size_t n32, n64;
  float *g32 = nnt_params_flat_grad_f32(P, &n32);
  double *g64 = nnt_params_flat_grad_f64(P, &n64);
  for (size_t i = 0; i < n32; i++) g32[i] *= (float)w;
  for (size_t i = 0; i < n64; i++) g64[i] *= w;
  if (n32) nnt_mpi_allreduce_sum_f32(g32, n32);
  if (n64) nnt_mpi_allreduce_sum_f64(g64, n64);
  *loss *= w;
  nnt_mpi_allreduce_sum_f64(loss, 1);
}

int nnt_icl_train_run(const nnt_icl_train_cfg *c, const char *dir, int resume, nnt_icl_train_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_icl_train_check(c);
  if (st) return st;
  char *path = NULL; /* no dir: trained in memory, nothing written */
  if (dir) {
    size_t plen = strlen(dir) + 16;
    path = nnt_xmalloc(plen);
    snprintf(path, plen, "%s/model.ckpt", dir);
  }
  nnt_icl_gpt *m = NULL;
  nnt_optim opt = {0};
  nnt_icl_meta_log log = {0};
  float *xs = NULL, *ys = NULL;
  long long step = 0;
  if ((st = nnt_icl_gpt_new(&c->arch, &c->task, 0, &m))) goto out;
  nnt_icl_gpt_init(m, c->seed);
  nnt_optim_config oc = nnt_adam_defaults();
  oc.lr = c->lr;
  if ((st = nnt_optim_init(&opt, nnt_icl_gpt_params(m), oc))) goto out;
  /* under MPI rank 0 alone reads the checkpoint (nnt_mpi.h), then hands the state to the others */
  int rank = nnt_mpi_rank(), K = nnt_mpi_size();
  if (path && resume && rank == 0 && access(path, F_OK) == 0) {
    nnt_ckpt_info info;
    nnt_icl_train_cfg old;
    if ((st = nnt_ckpt_info_read(path, &info))) goto out;
    st = nnt_icl_meta_parse(path, info.meta_json, &old, &log);
    nnt_ckpt_info_free(&info);
    if (st) goto out;
    if (!same_run(c, &old)) {
      st = nnt_fail(NNT_EINVAL, "%s: written by a run with other settings (start afresh with --force instead)", path);
      goto out;
    }
    if ((st = nnt_ckpt_load(path, ICL_CKPT_KIND, nnt_icl_gpt_params(m), &opt, &step, NULL))) goto out;
    if (step > c->steps) {
      st = nnt_fail(NNT_EINVAL, "%s: already at step %lld, beyond --steps %lld", path, step, c->steps);
      goto out;
    }
  }
  if (K > 1) {
    nnt_params *P = nnt_icl_gpt_params(m);
    nnt_mpi_bcast(&step, sizeof step);
    nnt_mpi_bcast(P->values, P->bytes);
    if (opt.m) nnt_mpi_bcast(opt.m, P->bytes);
    if (opt.v) nnt_mpi_bcast(opt.v, P->bytes);
    nnt_mpi_bcast(&opt.step, sizeof opt.step);
  }
  r->first_step = step;
  if (rank == 0) { /* after the resume, so the estimate is of the steps this run still has to do */
    char note[96] = "(on idle cores)";
    if (step) snprintf(note, sizeof note, "(on idle cores; %lld of %lld steps left)", c->steps - step, c->steps);
    nnt_time_notice(nnt_icl_train_seconds(c, nnt_threads_get()) * (double)(c->steps - step) / c->steps, 1, "icl train", note);
  }
  int cap = (int)(c->steps / c->log_every) + 2;
  log.step = nnt_xrealloc(log.step, sizeof(long long) * cap), log.loss = nnt_xrealloc(log.loss, sizeof(double) * cap);
  /* data parallel under MPI: rank r takes prompts [lo, hi) of each global batch of B, so the ranks'
   * shards together are the one-process batch; the gradient of the batch mean is the sum over
   * ranks of each shard's mean gradient weighted by its share Bl/B (one Allreduce) */
  int B = c->batch, n = c->task.n, lo = (int)((long long)B * rank / K), Bl = (int)((long long)B * (rank + 1) / K) - lo;
  xs = nnt_xmalloc(sizeof(float) * Bl * n * c->task.d), ys = nnt_xmalloc(sizeof(float) * Bl * n);
  nnt_progress pr;
  nnt_progress_start(&pr, "icl train", c->steps - step);
  double t0 = nnt_now();
  for (; step < c->steps; step++) {
    double loss;
    if (nnt_interrupted()) { /* the last checkpoint stays: --resume continues from it */
      st = nnt_fail(NNT_EINTR, "interrupted at step %lld; --resume continues from the last checkpoint", step);
      goto stop;
    }
    nnt_icl_task t = c->task; /* the curriculum's task at this step (the full one without) */
    int dims;
    nnt_icl_curriculum_at(c, step, &dims, &t.n);
    t.d_active = dims < t.d ? dims : 0;
    if ((st = nnt_icl_task_sample(&t, c->seed, (uint64_t)step * B + lo, Bl, xs, ys))) goto stop;
    if ((st = nnt_icl_gpt_loss_grad(m, xs, ys, Bl, t.n, &loss))) goto stop;
    if (K > 1) allreduce_mean(nnt_icl_gpt_params(m), (double)Bl / B, &loss);
    /* before the update: the checkpoint stays good */
    if ((st = nnt_train_check_step(nnt_icl_gpt_params(m), step + 1, loss))) goto stop;
    nnt_optim_step(&opt);
    log.wsum += loss, log.wcount++;
    if ((step + 1) % c->log_every == 0) {
      log.step[log.n] = step + 1, log.loss[log.n++] = log.wsum / log.wcount;
      log.wsum = 0, log.wcount = 0;
    }
    if (path && ((step + 1) % c->ckpt_every == 0 || step + 1 == c->steps)) {
      char *meta = nnt_icl_meta_write(c, log.n, log.step, log.loss, log.wsum, log.wcount);
      st = nnt_ckpt_save(path, ICL_CKPT_KIND, nnt_icl_gpt_params(m), &opt, step + 1, meta);
      free(meta);
      if (st) goto stop;
    }
    nnt_progress_add(&pr, 1);
  }
  /* rank 0's last checkpoint is in place before any rank goes on (icl sweep-depth loads it) */
  if (K > 1) nnt_mpi_barrier();
stop:
  if (st) { /* on every path: it stops the progress thread */
    nnt_progress_fail(&pr);
    goto out;
  }
  nnt_progress_end(&pr);
  r->seconds = nnt_now() - t0;
  if (log.wcount) /* the final partial row, for the report only (the meta keeps the window) */
    log.step[log.n] = c->steps, log.loss[log.n++] = log.wsum / log.wcount;
  r->steps = c->steps, r->nlog = log.n, r->log_step = log.step, r->log_loss = log.loss;
  r->nparams = nnt_params_count(nnt_icl_gpt_params(m));
  log.step = NULL, log.loss = NULL;
out:
  free(log.step), free(log.loss), free(xs), free(ys), free(path);
  nnt_optim_free(&opt);
  nnt_icl_gpt_free(m);
  return st;
}
