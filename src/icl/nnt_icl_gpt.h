/* nnt_icl_gpt.h — the GPT-2-style in-context learner of seed 003 (Garg et al. 2022's model,
 * spec §7.4–7.5): decoder-only, pre-LayerNorm, learned absolute positions, causal multi-head
 * attention with softmax or ReLU scores, GELU (tanh) MLP (width 4E unless arch.mlp says otherwise), read-in d -> E and
 * read-out E -> 1 linear layers; the prompt x1, ỹ1, ..., xn, ỹn (ỹ = [y, 0, ..., 0] in R^d) is
 * read in token by token, and the prediction for y_k is read at x_k's position, so one pass
 * predicts every prefix length k = 0..n-1. Made of the core's layers (nnt_nn.h), parameters in
 * one registry (nnt_params.h), trained with the core's Adam (nnt_optim.h) and checkpoints
 * (nnt_ckpt.h). The same source runs in float32 (training, prediction) and float64 (tests:
 * finite differences, causality).
 */
#ifndef NNT_ICL_GPT_H
#define NNT_ICL_GPT_H
#include <stdint.h>

#include "nnt_icl_task.h"
#include "nnt_nn.h"
#include "nnt_params.h"

typedef struct {
  int d;                   /* token width = the task's input dimension */
  int n_embd;              /* E; the MLP is 4E wide */
  int n_layer, n_head;     /* E % n_head == 0 */
  int mlp;                 /* the MLP's width; 0: 4E (GPT-2's) */
  int n_pos;               /* position slots (tokens); a prompt of n points takes 2n */
  nnt_attn_score attn;     /* NNT_ATTN_SOFTMAX or NNT_ATTN_RELU */
  nnt_relu_norm relu_norm; /* ReLU scores only; VISIBLE (t+1): a prefix's outputs do not depend on n */
} nnt_icl_gpt_arch;

extern const char *const nnt_icl_attn_names[]; /* "softmax", "relu"; NULL-terminated (CLI_CHOICE) */

int nnt_icl_gpt_arch_check(const nnt_icl_gpt_arch *a); /* NNT_EINVAL with one line */

typedef struct nnt_icl_gpt nnt_icl_gpt; /* model: params (nnt_params), arch, task, buffers */

/* A model of this architecture for this task (a copy is kept; a->d must equal t->d), float32
 * (f64 = 0) or float64 (f64 = 1), parameters zero until nnt_icl_gpt_init. */
int nnt_icl_gpt_new(const nnt_icl_gpt_arch *a, const nnt_icl_task *t, int f64, nnt_icl_gpt **out);
void nnt_icl_gpt_free(nnt_icl_gpt *m);
/* HF GPT-2 initialisation from stream (seed, NNT_ICL_GPT_INIT_STREAM): linear weights, position
 * table N(0, 0.02); residual output projections N(0, 0.02/sqrt(2 n_layer)); biases 0;
 * LayerNorm 1, 0; read-in and read-out as torch's nn.Linear, U(±1/sqrt(fan_in)). */
#define NNT_ICL_GPT_INIT_STREAM UINT64_MAX
void nnt_icl_gpt_init(nnt_icl_gpt *m, uint64_t seed);
nnt_params *nnt_icl_gpt_params(nnt_icl_gpt *m);
const nnt_icl_gpt_arch *nnt_icl_gpt_arch_of(const nnt_icl_gpt *m);
/* The task the model was trained on (its d, n, depth, ...). */
const nnt_icl_task *nnt_icl_gpt_task(const nnt_icl_gpt *m);

/* Forward pass: pred (B×n) = the prediction for y_k at each x position k of B prompts
 * (xs B×n×d, ys B×n). Arrays are float for a float32 model, double for a float64 one.
 * NNT_EINVAL if 2n exceeds the position slots. */
int nnt_icl_gpt_forward(nnt_icl_gpt *m, const void *xs, const void *ys, int B, int n, void *pred);
/* Forward and backward: *loss = mean over the B×n positions of (pred - y)^2 (Garg's loss);
 * every gradient of the registry is overwritten with d loss / d param. */
int nnt_icl_gpt_loss_grad(nnt_icl_gpt *m, const void *xs, const void *ys, int B, int n, double *loss);

/* Loads DIR/model.ckpt written by train (config in the checkpoint meta), ready for inference
 * (float32). NNT_EFORMAT / NNT_EIO with one line on a bad file. */
int nnt_icl_gpt_load(const char *path, nnt_icl_gpt **out);
/* pred (B×n): the prediction for y_k at each x position k = 0..n-1 of B prompts (xs B×n×d,
 * ys B×n, interleaved as x1,y1,...,xn,yn as in Garg); n may exceed the training length up to
 * the model's position slots (error NNT_EINVAL beyond). Float32 models only. */
int nnt_icl_gpt_predict(nnt_icl_gpt *m, const float *xs, const float *ys, int B, int n, float *pred);

/* The model as a .safetensors file (docs/export.md): its parameters as stored, named as HF's GPT-2
 * (blocks.L.attn.c_attn.weight, ...), __metadata__ kind "icl-gpt", arch (JSON), nnt_version and
 * command (provenance, may be NULL); python/nnt/icl.py loads it into PyTorch. _ckpt: of a
 * model.ckpt that train wrote (errors as nnt_icl_gpt_load). */
int nnt_icl_gpt_export(nnt_icl_gpt *m, const char *version, const char *command, const char *path);
int nnt_icl_gpt_export_ckpt(const char *ckpt, const char *version, const char *command, const char *path);

/* Wall time of the calling thread's model calls by phase, since the last reset (nnt bench icl
 * --profile); the rest of a step (prompt layout, residual adds, Adam) is the difference. */
typedef enum { NNT_ICL_PROF_LINEAR, NNT_ICL_PROF_LINEAR_DW, NNT_ICL_PROF_ATTN, NNT_ICL_PROF_LAYERNORM,
               NNT_ICL_PROF_N } nnt_icl_prof;
extern const char *const nnt_icl_prof_names[]; /* NULL-terminated */
void nnt_icl_gpt_profile(double seconds[NNT_ICL_PROF_N], int reset);

/* ------------------------------------------------------------------------------ training */

typedef enum { NNT_ICL_PRESET_MICRO = 0, NNT_ICL_PRESET_MINI, NNT_ICL_PRESET_SMALL, NNT_ICL_PRESET_PAPER } nnt_icl_preset;
extern const char *const nnt_icl_preset_names[]; /* "micro", "mini", "small", "paper"; NULL-terminated */

/* Garg et al.'s curriculum (their src/conf/base.yaml and relu_2nn_regression.yaml, 500k steps):
 * the active input dimensions rise 5 -> 20 by 1 and the points per prompt 26 -> 101 by 5, every
 * 2,000 steps, so the full task is reached after 30,000 steps (6% of the run); the inactive
 * coordinates of x are 0. nnt scales it to any task and step count: with d dimensions and n points
 * it starts at d0 = ceil(d/4) dimensions and p0 = 1 + ceil((n-1)/4) points (Garg's 5 and 26 for
 * d = 20, n = 101), has S = d - d0 stages of one dimension each, the points rising with them to
 * p0 + floor((n - p0)·s/S) at stage s, and a stage lasts max(1, round(curriculum_steps/S)) steps,
 * curriculum_steps being 6% of the preset's step count (30,000 / 15 = 2,000 at 500k steps and
 * d = 20). It is fixed by the preset, not by --steps, so a run resumed with more steps keeps its
 * schedule. */
typedef enum { NNT_ICL_CURRICULUM_NONE = 0, NNT_ICL_CURRICULUM_GARG } nnt_icl_curriculum;
extern const char *const nnt_icl_curriculum_names[]; /* "none", "garg"; NULL-terminated */

typedef struct {
  nnt_icl_gpt_arch arch;
  nnt_icl_task task;   /* prompts of task.n points: 2n tokens (task.n <= arch.n_pos / 2) */
  int curriculum;      /* nnt_icl_curriculum */
  long long curriculum_steps; /* the curriculum's length (the full task from then on) */
  int batch;           /* prompts per step */
  long long steps;     /* total optimizer steps */
  double lr;           /* Adam (β 0.9, 0.999, ε 1e-8, no weight decay, constant lr) */
  uint64_t seed;       /* init stream and the prompt streams (step·batch + b) */
  int ckpt_every;      /* steps between checkpoints (and at the end) */
  int log_every;       /* steps per row of the loss log (the mean over the row's steps) */
} nnt_icl_train_cfg;

/* The preset's defaults: softmax attention, target depth 3 (the paper also trains ReLU attention,
 * arch.attn, and depths 4 and 6, task.depth). */
void nnt_icl_train_cfg_default(nnt_icl_train_cfg *c, nnt_icl_preset p);
/* Every value, and the memory a step needs (nnt_icl_gpt_train_bytes) against the memory available:
 * NNT_EINVAL with one line naming the option to change. */
int nnt_icl_train_check(const nnt_icl_train_cfg *c);
/* An upper bound of the run's time on `threads` threads at NNT_ICL_MACS_PER_S multiply-adds a
 * second a thread (half of what nnt bench icl measures at the mini size on AVX-512), each thread
 * after the first counted as 3/4 of one (the small preset on 2 threads of an AMD EPYC: 0.61 s a
 * step, where two whole threads would give 0.60). */
#define NNT_ICL_MACS_PER_S 2e10
double nnt_icl_train_seconds(const nnt_icl_train_cfg *c, int threads);
/* The curriculum at optimizer step `step` (0-based): active input dimensions and points per prompt
 * (the full task.d and task.n without a curriculum, or once it is over). */
void nnt_icl_curriculum_at(const nnt_icl_train_cfg *c, long long step, int *dims, int *points);
/* Steps per stage and stages of the schedule (0, 0 without a curriculum). */
void nnt_icl_curriculum_stages(const nnt_icl_train_cfg *c, long long *interval, int *stages);

typedef struct {
  long long first_step; /* 0, or the step a resumed run continued from */
  long long steps;      /* steps done in total */
  int nlog;             /* rows of the loss log, all steps since 0 (a resumed run keeps the earlier) */
  long long *log_step;  /* last step (1-based) of each row */
  double *log_loss;     /* mean training loss over the row's steps */
  double seconds;       /* wall time of this invocation's steps */
  size_t nparams;
} nnt_icl_train_result;

/* Trains cfg's model on fresh prompts, checkpointing DIR/model.ckpt every ckpt_every steps and at
 * the end (parameters, Adam state, step, and cfg and the loss log in the meta JSON). With resume,
 * continues bit-exactly from DIR/model.ckpt (which must come from the same config; steps may
 * grow). A non-finite loss stops the run with NNT_ENUMERIC, leaving the last checkpoint as it was.
 * dir NULL: trained in memory, no checkpoint written (the result holds the loss log). */
int nnt_icl_train_run(const nnt_icl_train_cfg *c, const char *dir, int resume, nnt_icl_train_result *r);
void nnt_icl_train_result_free(nnt_icl_train_result *r);
/* Trains as nnt_icl_train_run into dir, then loads the model from path = dir/model.ckpt (what
 * icl eval --quick alone evaluates: a micro model of its own). */
int nnt_icl_train_load(const nnt_icl_train_cfg *c, const char *dir, int resume, nnt_icl_gpt **m, char *path, size_t n);

/* Multiply-adds of one training step (forward + backward), counted from the shapes: the
 * products of the linear layers and the attention (forward 1×, backward 2×). */
double nnt_icl_gpt_train_macs(const nnt_icl_gpt_arch *a, int B, int n);
/* The memory a training step of B prompts of n points holds (parameters with their gradient and
 * Adam moments, every activation and its gradient), in bytes; also a bound for a forward pass. */
double nnt_icl_gpt_train_bytes(const nnt_icl_gpt_arch *a, int B, int n);
/* The same for the model computed on every row of the last block too, as a framework's
 * straightforward model does (PyTorch's in bench/icl_torch.py). */
double nnt_icl_gpt_train_macs_all_rows(const nnt_icl_gpt_arch *a, int B, int n);

#endif
