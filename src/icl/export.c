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
