/* The icl transformers as safetensors files (docs/export.md), read by python/nnt/icl.py:
 * - the GPT-2 in-context learner (a trained model.ckpt): its parameters as stored (float32), named
 *   as HF's GPT-2 with blocks.L. for hL. (read_in, wpe.weight, blocks.L.attn.c_attn.weight, ...,
 *   ln_f, read_out), kind "icl-gpt";
 * - the Theorem-1 construction (kind "icgd"): one GD step's layers and the readout, each layer's
 *   heads stacked dense in float64 (attention and EWML: W_Q, W_K [heads, dk, D], W_V [heads, D, D];
 *   MLP: W_1 [units, D], W_2 [D, units]), and the prompt the run used. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_icl_construct.h"
#include "nnt_icl_gpt.h"
#include "nnt_mlp.h"
#include "nnt_onnx.h"
#include "nnt_params.h"
#include "nnt_safetensors.h"

static int finish(nnt_st_writer *w, int st, const char *kind, cJSON *arch, const char *version, const char *command,
                  const char *path) {
  char *a = cJSON_PrintUnformatted(arch);
  cJSON_Delete(arch);
  if (!a) nnt_oom(0); /* cJSON returns NULL only when out of memory */
  if (!st) st = nnt_st_meta(w, "kind", kind);
  if (!st) st = nnt_st_meta(w, "arch", a);
  if (!st) st = nnt_st_meta(w, "nnt_version", version ? version : "");
  if (!st) st = nnt_st_meta(w, "command", command ? command : "");
  if (!st) st = nnt_st_write(w, path);
  free(a);
  nnt_st_writer_free(w);
  return st;
}

/* ---- the GPT as an ONNX graph: xs [batch, n, d], ys [batch, n] -> pred [batch, n] ----
 * The same parameters under the same names as initializers; the forward pass of python/nnt/icl.py
 * in ONNX operators (opset 17: LayerNormalization; GELU as its tanh formula). The prompt length n
 * is free up to n_pos / 2: positions and masks are sliced from [n_pos, n_pos] tables. */
typedef struct {
  nnt_onnx *g;
  nnt_onnx_dtype dt;
} gx;

static const char *c_f(gx *x, double v) { return nnt_onnx_scalar(x->g, x->dt, v); }
static const char *c_i(gx *x, int n, const long long *v) { return nnt_onnx_ints(x->g, n, v); }
static const char *op2(gx *x, const char *op, const char *a, const char *b) { return nnt_onnx_op(x->g, op, NULL, a, b, NULL); }

static const char *linear(gx *x, const char *in, const char *prefix) {
  char w[96], b[96];
  snprintf(w, sizeof w, "%s.weight", prefix), snprintf(b, sizeof b, "%s.bias", prefix);
  const char *wt = nnt_onnx_op(x->g, "Transpose", NULL, w, NULL); /* [out, in] as stored -> [in, out] */
  nnt_onnx_attr_ints(x->g, "perm", 2, (const long long[]){1, 0});
  return op2(x, "Add", op2(x, "MatMul", in, wt), b);
}
static const char *layernorm(gx *x, const char *in, const char *prefix) {
  char w[96], b[96];
  snprintf(w, sizeof w, "%s.weight", prefix), snprintf(b, sizeof b, "%s.bias", prefix);
  const char *y = nnt_onnx_op(x->g, "LayerNormalization", NULL, in, w, b, NULL);
  nnt_onnx_attr_int(x->g, "axis", -1);
  nnt_onnx_attr_float(x->g, "epsilon", 1e-5f);
  return y;
}
static const char *transpose(gx *x, const char *in, long long a, long long b, long long c, long long d) {
  const char *y = nnt_onnx_op(x->g, "Transpose", NULL, in, NULL);
  nnt_onnx_attr_ints(x->g, "perm", 4, (const long long[]){a, b, c, d});
  return y;
}
/* x[..., lo:hi] on axis */
static const char *slice(gx *x, const char *in, long long lo, long long hi, long long axis) {
  return nnt_onnx_op(x->g, "Slice", NULL, in, c_i(x, 1, &lo), c_i(x, 1, &hi), c_i(x, 1, &axis), NULL);
}

static int gpt_onnx(nnt_icl_gpt *m, const char *arch, const char *version, const char *command, const char *path) {
  const nnt_icl_gpt_arch *a = nnt_icl_gpt_arch_of(m);
  nnt_params *P = nnt_icl_gpt_params(m);
  const int f64 = P->items[0]->value.dtype == NNT_F64, d = a->d, E = a->n_embd, H = a->n_head, hs = E / H, NP = a->n_pos;
  gx X = {NULL, f64 ? NNT_ONNX_F64 : NNT_ONNX_F32}, *x = &X;
  nnt_onnx_alloc(&X.g, "icl-gpt");
  for (int i = 0; i < P->n; i++) { /* the parameters, named as in the safetensors export */
    const nnt_param *p = P->items[i];
    char name[96];
    int l;
    size_t off;
    if (sscanf(p->name, "h%d.%zn", &l, &off) == 1 && off)
      snprintf(name, sizeof name, "blocks.%d.%s", l, p->name + off);
    else
      snprintf(name, sizeof name, "%s", strcmp(p->name, "wpe") ? p->name : "wpe.weight");
    long long shape[4];
    for (int k = 0; k < p->value.ndim; k++) shape[k] = p->value.shape[k];
    nnt_onnx_init(x->g, name, x->dt, p->value.ndim, shape, p->value.data);
  }
  /* the causal tables over n_pos tokens: an additive mask (0 / -inf) for softmax, 0/1 for ReLU,
   * and the ReLU normaliser t + 1 (the keys query t sees) */
  size_t es = f64 ? 8 : 4;
  unsigned char *mask = nnt_xmalloc((size_t)NP * NP * es), *vis = nnt_xmalloc((size_t)NP * es);
  for (int i = 0; i < NP; i++) {
    for (int j = 0; j < NP; j++) {
      double v = a->attn == NNT_ATTN_SOFTMAX ? (j <= i ? 0 : -INFINITY) : (j <= i ? 1 : 0);
      float f = (float)v;
      memcpy(mask + ((size_t)i * NP + j) * es, f64 ? (const void *)&v : (const void *)&f, es);
    }
    double v = i + 1;
    float f = (float)v;
    memcpy(vis + (size_t)i * es, f64 ? (const void *)&v : (const void *)&f, es);
  }
  const char *maskP = nnt_onnx_init(x->g, "causal_mask", x->dt, 2, (const long long[]){NP, NP}, mask);
  const char *visP = nnt_onnx_init(x->g, "visible_keys", x->dt, 2, (const long long[]){NP, 1}, vis);
  free(mask), free(vis);

  char dims[64];
  snprintf(dims, sizeof dims, "batch,n,%d", d);
  nnt_onnx_input(x->g, "xs", x->dt, dims);
  nnt_onnx_input(x->g, "ys", x->dt, "batch,n");
  /* tokens x_1, [y_1, 0, ..], x_2, ...: [batch, n, 2d] reshaped to [batch, 2n, d] */
  const char *yu = op2(x, "Unsqueeze", "ys", c_i(x, 1, (const long long[]){2}));
  if (d > 1) yu = op2(x, "Pad", yu, c_i(x, 6, (const long long[]){0, 0, 0, 0, 0, d - 1}));
  const char *cat = nnt_onnx_op(x->g, "Concat", NULL, "xs", yu, NULL);
  nnt_onnx_attr_int(x->g, "axis", 2);
  const char *tok = op2(x, "Reshape", cat, c_i(x, 3, (const long long[]){0, -1, d}));
  const char *T = slice(x, nnt_onnx_op(x->g, "Shape", NULL, tok, NULL), 1, 2, 0); /* [1]: 2n */
  const char *zero = c_i(x, 1, (const long long[]){0});
  const char *wpos = nnt_onnx_op(x->g, "Slice", NULL, "wpe.weight", zero, T, zero, NULL);
  const char *h = op2(x, "Add", linear(x, tok, "read_in"), wpos);
  const char *TT = nnt_onnx_op(x->g, "Concat", NULL, T, T, NULL);
  nnt_onnx_attr_int(x->g, "axis", 0);
  const char *mask_T = nnt_onnx_op(x->g, "Slice", NULL, maskP, c_i(x, 2, (const long long[]){0, 0}), TT,
                                   c_i(x, 2, (const long long[]){0, 1}), NULL);
  const char *norm = NULL;
  if (a->attn == NNT_ATTN_RELU)
    norm = a->relu_norm == NNT_RELU_NORM_VISIBLE ? nnt_onnx_op(x->g, "Slice", NULL, visP, zero, T, zero, NULL)
                                                 : nnt_onnx_op(x->g, "Cast", NULL, T, NULL);
  if (norm && a->relu_norm != NNT_RELU_NORM_VISIBLE) nnt_onnx_attr_int(x->g, "to", x->dt);
  const char *heads = c_i(x, 4, (const long long[]){0, 0, H, hs}), *merged = c_i(x, 3, (const long long[]){0, 0, E});
  const double scale = 1 / sqrt((double)hs);
  for (int l = 0; l < a->n_layer; l++) {
    char pre[64];
    snprintf(pre, sizeof pre, "blocks.%d.ln_1", l);
    const char *u = layernorm(x, h, pre);
    snprintf(pre, sizeof pre, "blocks.%d.attn.c_attn", l);
    const char *qkv = linear(x, u, pre);
    const char *q = transpose(x, op2(x, "Reshape", slice(x, qkv, 0, E, 2), heads), 0, 2, 1, 3);        /* [B,H,T,hs] */
    const char *k = transpose(x, op2(x, "Reshape", slice(x, qkv, E, 2 * E, 2), heads), 0, 2, 3, 1);    /* [B,H,hs,T] */
    const char *v = transpose(x, op2(x, "Reshape", slice(x, qkv, 2 * E, 3 * E, 2), heads), 0, 2, 1, 3); /* [B,H,T,hs] */
    const char *s = op2(x, "Mul", op2(x, "MatMul", q, k), c_f(x, scale));
    const char *w;
    if (a->attn == NNT_ATTN_SOFTMAX) {
      w = nnt_onnx_op(x->g, "Softmax", NULL, op2(x, "Add", s, mask_T), NULL);
      nnt_onnx_attr_int(x->g, "axis", -1);
    } else {
      w = op2(x, "Mul", nnt_onnx_op(x->g, "Relu", NULL, op2(x, "Div", s, norm), NULL), mask_T);
    }
    const char *o = op2(x, "Reshape", transpose(x, op2(x, "MatMul", w, v), 0, 2, 1, 3), merged);
    snprintf(pre, sizeof pre, "blocks.%d.attn.c_proj", l);
    h = op2(x, "Add", h, linear(x, o, pre));
    snprintf(pre, sizeof pre, "blocks.%d.ln_2", l);
    u = layernorm(x, h, pre);
    snprintf(pre, sizeof pre, "blocks.%d.mlp.c_fc", l);
    const char *f = linear(x, u, pre);
    /* GELU, tanh form: 0.5 f (1 + tanh(sqrt(2/pi) (f + 0.044715 f^3))) */
    const char *f3 = op2(x, "Mul", op2(x, "Mul", f, f), f);
    const char *in = op2(x, "Mul", op2(x, "Add", f, op2(x, "Mul", f3, c_f(x, 0.044715))), c_f(x, sqrt(2 / M_PI)));
    const char *gl = op2(x, "Mul", op2(x, "Mul", f, c_f(x, 0.5)),
                         op2(x, "Add", nnt_onnx_op(x->g, "Tanh", NULL, in, NULL), c_f(x, 1)));
    snprintf(pre, sizeof pre, "blocks.%d.mlp.c_proj", l);
    h = op2(x, "Add", h, linear(x, gl, pre));
  }
  const char *hf = layernorm(x, h, "ln_f");
  const char *hx = nnt_onnx_op(x->g, "Slice", NULL, hf, zero, c_i(x, 1, (const long long[]){INT64_MAX}),
                               c_i(x, 1, (const long long[]){1}), c_i(x, 1, (const long long[]){2}), NULL); /* x tokens */
  const char *r = linear(x, hx, "read_out");
  nnt_onnx_op(x->g, "Squeeze", "pred", r, c_i(x, 1, (const long long[]){2}), NULL);
  nnt_onnx_output(x->g, "pred", x->dt, "batch,n");
  nnt_onnx_meta(x->g, "kind", "icl-gpt");
  nnt_onnx_meta(x->g, "format", "onnx");
  nnt_onnx_meta(x->g, "arch", arch);
  nnt_onnx_meta(x->g, "nnt_version", version ? version : "");
  nnt_onnx_meta(x->g, "command", command ? command : "");
  int st = nnt_onnx_write(x->g, version, path);
  nnt_onnx_free(x->g);
  return st;
}

int nnt_icl_gpt_export(nnt_icl_gpt *m, const char *version, const char *command, const char *path) {
  const nnt_icl_gpt_arch *a = nnt_icl_gpt_arch_of(m);
  const nnt_icl_task *t = nnt_icl_gpt_task(m);
  nnt_params *P = nnt_icl_gpt_params(m);
  nnt_st_writer *w;
  int st = nnt_st_writer_alloc(&w);
  if (st) return st;
  for (int i = 0; i < P->n && !st; i++) {
    const nnt_param *p = P->items[i];
    char name[96];
    int l;
    size_t off;
    if (sscanf(p->name, "h%d.%zn", &l, &off) == 1 && off) /* hL.x -> blocks.L.x (%zn: chars read) */
      snprintf(name, sizeof name, "blocks.%d.%s", l, p->name + off);
    else if (!strcmp(p->name, "wpe"))
      snprintf(name, sizeof name, "wpe.weight");
    else
      snprintf(name, sizeof name, "%s", p->name);
    long long shape[4];
    for (int d = 0; d < p->value.ndim; d++) shape[d] = p->value.shape[d];
    st = nnt_st_add(w, name, p->value.dtype == NNT_F64 ? NNT_ST_F64 : NNT_ST_F32, p->value.ndim, shape, p->value.data);
  }
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "kind", "icl-gpt");
  cJSON_AddStringToObject(j, "model", "GPT-2 in-context learner (Garg et al. 2022; seed 003 spec 7.4)");
  cJSON_AddNumberToObject(j, "d", a->d);
  cJSON_AddNumberToObject(j, "n_embd", a->n_embd);
  cJSON_AddNumberToObject(j, "n_layer", a->n_layer);
  cJSON_AddNumberToObject(j, "n_head", a->n_head);
  cJSON_AddNumberToObject(j, "mlp", a->mlp ? a->mlp : 4 * a->n_embd);
  cJSON_AddNumberToObject(j, "n_pos", a->n_pos);
  cJSON_AddStringToObject(j, "attention", nnt_icl_attn_names[a->attn]);
  if (a->attn == NNT_ATTN_RELU) /* relu(scale q.k) / (tokens, or the keys the query sees) */
    cJSON_AddStringToObject(j, "relu_norm", a->relu_norm == NNT_RELU_NORM_VISIBLE ? "visible" : "T");
  cJSON_AddNumberToObject(j, "attn_scale", 1 / sqrt((double)(a->n_embd / a->n_head)));
  cJSON_AddBoolToObject(j, "causal", 1);
  cJSON_AddStringToObject(j, "gelu", "tanh");
  cJSON_AddNumberToObject(j, "ln_eps", 1e-5);
  cJSON_AddStringToObject(j, "precision", P->items[0]->value.dtype == NNT_F64 ? "f64" : "f32");
  cJSON_AddStringToObject(j, "prompt", "tokens x_1, [y_1, 0, ..., 0], ..., x_n, [y_n, 0, ...] (width d); "
                                       "the prediction for y_k is read_out(ln_f(h)) at x_k's token");
  cJSON *tj = cJSON_AddObjectToObject(j, "task");
  cJSON_AddNumberToObject(tj, "d", t->d);
  cJSON_AddNumberToObject(tj, "n", t->n);
  cJSON_AddNumberToObject(tj, "depth", t->depth);
  cJSON_AddNumberToObject(tj, "width", t->width);
  cJSON_AddNumberToObject(tj, "w_mean", t->w_mean);
  cJSON_AddNumberToObject(tj, "w_std", t->w_std);
  cJSON_AddNumberToObject(tj, "y_scale", t->y_scale);
  cJSON_AddNumberToObject(tj, "mix2", t->mix2);
  cJSON_AddNumberToObject(tj, "mu", t->mu);
  cJSON_AddNumberToObject(tj, "mu2", t->mu2);
  cJSON_AddNumberToObject(tj, "noise", t->noise);
  cJSON_AddStringToObject(tj, "act", nnt_icl_act_names[t->act]);
  cJSON_AddBoolToObject(tj, "per_prompt", t->per_prompt);
  if (!st && nnt_export_format(path) == 2) {
    char *arch = cJSON_PrintUnformatted(j);
    if (!arch) abort();
    st = gpt_onnx(m, arch, version, command, path);
    free(arch);
    cJSON_Delete(j);
    nnt_st_writer_free(w);
    return st;
  }
  return finish(w, st, "icl-gpt", j, version, command, path);
}

int nnt_icl_gpt_export_ckpt(const char *ckpt, const char *version, const char *command, const char *path) {
  nnt_icl_gpt *m;
  int st = nnt_icl_gpt_load(ckpt, &m);
  if (st) return st;
  st = nnt_icl_gpt_export(m, version, command, path);
  nnt_icl_gpt_free(m);
  return st;
}

/* One layer's heads, stacked and dense. */
static int add_layer(nnt_st_writer *w, const nnt_icl_layer *ly, int l, int D) {
  char name[96];
  int H = ly->nheads, st = NNT_OK;
  if (ly->type == NNT_ICL_MLP) {
    double *W1 = nnt_xcalloc((size_t)H * D + 1, sizeof(double)), *W2 = nnt_xcalloc((size_t)D * H + 1, sizeof(double));
    for (int h = 0; h < H; h++) {
      const nnt_icl_head *hd = &ly->heads[h];
      for (int q = 0; q < hd->nq; q++) W1[(size_t)h * D + ly->ent[hd->q + q].c] += ly->ent[hd->q + q].v;
      for (int q = 0; q < hd->nv; q++) W2[(size_t)ly->ent[hd->v + q].r * H + h] += ly->ent[hd->v + q].v;
    }
    snprintf(name, sizeof name, "layers.%d.W_1", l);
    st = nnt_st_add(w, name, NNT_ST_F64, 2, (const long long[]){H, D}, W1);
    snprintf(name, sizeof name, "layers.%d.W_2", l);
    if (!st) st = nnt_st_add(w, name, NNT_ST_F64, 2, (const long long[]){D, H}, W2);
    free(W1), free(W2);
    return st;
  }
  int dk = 1;
  for (int h = 0; h < H; h++) dk = ly->heads[h].dk > dk ? ly->heads[h].dk : dk;
  size_t nqk = (size_t)H * dk * D, nv = (size_t)H * D * D;
  double *Q = nnt_xcalloc(nqk + 1, sizeof(double)), *K = nnt_xcalloc(nqk + 1, sizeof(double));
  double *V = nnt_xcalloc(nv + 1, sizeof(double));
  for (int h = 0; h < H; h++) { /* rows beyond a head's dk stay 0: they add nothing to a score */
    const nnt_icl_head *hd = &ly->heads[h];
    for (int q = 0; q < hd->nq; q++) {
      const nnt_icl_ent *e = &ly->ent[hd->q + q];
      Q[((size_t)h * dk + e->r) * D + e->c] += e->v;
    }
    for (int q = 0; q < hd->nk; q++) {
      const nnt_icl_ent *e = &ly->ent[hd->k + q];
      K[((size_t)h * dk + e->r) * D + e->c] += e->v;
    }
    for (int q = 0; q < hd->nv; q++) {
      const nnt_icl_ent *e = &ly->ent[hd->v + q];
      V[((size_t)h * D + e->r) * D + e->c] += e->v;
    }
  }
  const long long sqk[3] = {H, dk, D}, sv[3] = {H, D, D};
  snprintf(name, sizeof name, "layers.%d.W_Q", l);
  st = nnt_st_add(w, name, NNT_ST_F64, 3, sqk, Q);
  snprintf(name, sizeof name, "layers.%d.W_K", l);
  if (!st) st = nnt_st_add(w, name, NNT_ST_F64, 3, sqk, K);
  snprintf(name, sizeof name, "layers.%d.W_V", l);
  if (!st) st = nnt_st_add(w, name, NNT_ST_F64, 3, sv, V);
  free(Q), free(K), free(V);
  return st;
}

int nnt_icl_construct_export(const nnt_icl_construct_cfg *c, const nnt_icl_tf *tf, const nnt_icl_construct_data *d,
                             const nnt_icl_construct_result *r, const char *path) {
  const nnt_icl_net *net = &tf->net;
  const nnt_icl_layout *L = &tf->L;
  const int T = d->n + 1, D = L->D;
  const long long DN = (long long)nnt_icl_net_nparams(net);
  nnt_st_writer *w;
  int st = nnt_st_writer_alloc(&w);
  if (st) return st;
  double *H = nnt_xmalloc(sizeof(double) * (size_t)T * D);
  nnt_icl_construct_embed(tf, d, H);
  st = nnt_st_add(w, "prompt.H", NNT_ST_F64, 2, (const long long[]){T, D}, H);
  free(H);
  if (!st) st = nnt_st_add(w, "prompt.X", NNT_ST_F64, 2, (const long long[]){T, net->dx}, d->X);
  if (!st) st = nnt_st_add(w, "prompt.Y", NNT_ST_F64, 2, (const long long[]){T, net->dy}, d->Y);
  if (!st) st = nnt_st_add(w, "prompt.w0", NNT_ST_F64, 1, &DN, d->w0);
  for (int l = 0; l < tf->nlayers && !st; l++) st = add_layer(w, &tf->layer[l], l, D);
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "kind", "icgd");
  cJSON_AddStringToObject(j, "construction", "in-context gradient descent, Theorem 1 of seed 003 (spec 4)");
  cJSON *nj = cJSON_AddObjectToObject(j, "net");
  cJSON_AddNumberToObject(nj, "N", net->N);
  cJSON_AddNumberToObject(nj, "K", net->K);
  cJSON_AddNumberToObject(nj, "dx", net->dx);
  cJSON_AddNumberToObject(nj, "dy", net->dy);
  cJSON_AddStringToObject(nj, "act", nnt_icl_act_names[net->act]);
  cJSON_AddBoolToObject(nj, "out_act", net->out_act);
  cJSON_AddStringToObject(nj, "w_layout", "layer by layer, unit by unit, each unit's fan-in weights (no biases)");
  cJSON_AddNumberToObject(j, "n", c->n);
  cJSON_AddNumberToObject(j, "tokens", T);
  cJSON_AddNumberToObject(j, "steps", c->steps);
  cJSON_AddNumberToObject(j, "M", c->M);
  cJSON_AddNumberToObject(j, "R", c->R);
  cJSON_AddNumberToObject(j, "eta", c->eta);
  cJSON_AddNumberToObject(j, "B", c->B);
  cJSON_AddNumberToObject(j, "gate", c->gate);
  cJSON_AddNumberToObject(j, "seed", (double)c->seed);
  cJSON_AddNumberToObject(j, "layers_per_step", tf->nstep);
  cJSON_AddNumberToObject(j, "readout_layers", tf->nlayers - tf->nstep);
  cJSON_AddNumberToObject(j, "max_err", r->max_err);
  cJSON_AddStringToObject(j, "precision", "f64");
  cJSON *lj = cJSON_AddObjectToObject(j, "layout"); /* token coordinates */
  const char *ln[] = {"x", "y", "w", "p", "rp", "g", "s", "one", "t", "D", "U"};
  const int lv[] = {L->x, L->y, L->w, L->p, L->rp, L->g, L->s, L->one, L->t, L->D, L->U};
  for (int i = 0; i < 11; i++) cJSON_AddNumberToObject(lj, ln[i], lv[i]);
  cJSON_AddNumberToObject(lj, "DN", (double)DN);
  cJSON *la = cJSON_AddArrayToObject(j, "layers");
  for (int l = 0; l < tf->nlayers; l++) {
    cJSON *o = cJSON_CreateObject();
    static const char *const types[] = {"relu-attn", "ewml", "mlp"};
    cJSON_AddStringToObject(o, "type", types[tf->layer[l].type]);
    cJSON_AddStringToObject(o, "role", tf->layer[l].what ? tf->layer[l].what : "");
    cJSON_AddNumberToObject(o, "heads", tf->layer[l].nheads);
    cJSON_AddItemToArray(la, o);
  }
  cJSON_AddStringToObject(j, "layer_rules",
                          "relu-attn: h_i += (1/T) sum_heads sum_s relu(<Q h_i, K h_s>) V h_s; ewml: h_i += sum_heads "
                          "<Q h_i, K h_i> V h_i; mlp: h_i += W_2 relu(W_1 h_i); every head reads the layer's input");
  return finish(w, st, "icgd", j, c->version, c->command, path);
}
