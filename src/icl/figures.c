/* icl figures as an area run (nnt_icl_figures.h): the panels of Figures 1–3 gathered from the
 * CSVs of finished eval and sweep-depth runs, or (quick) from micro models trained here. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_icl_depth.h"
#include "nnt_icl_figures.h"
#include "nnt_sweep.h"

static int is_dir(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int nnt_icl_figures_check(const nnt_icl_figures_cfg *c) {
  if (!c->quick && !c->runs) return nnt_fail(NNT_EINVAL, "icl figures: give --runs DIR (the eval and sweep-depth folders) or --quick");
  if (c->quick && c->steps < 1) return nnt_fail(NNT_EINVAL, "icl figures: --steps must be at least 1");
  if (c->quick && !c->dir) return nnt_fail(NNT_EINVAL, "icl figures --quick: give --out DIR (the models are trained into DIR/runs/)");
  if (!c->quick && !is_dir(c->runs)) return nnt_fail(NNT_EINVAL, "--runs %s: not a folder", c->runs);
  return NNT_OK;
}

/* ---------------------------------------------------------------- reading the runs' CSVs */

static int pred_index(const char *name) {
  for (int p = 0; p < NNT_ICL_NPRED; p++)
    if (!strcmp(name, nnt_icl_pred_names[p])) return p;
  return -1;
}

/* One r2.csv row: mix2, w_mean, k, predictor, pooled R² (NaN when the cell is empty). */
static int parse_r2_row(char *line, double *mix2, double *wmean, int *k, int *pred, double *r2) {
  char *f[5], *s = line;
  for (int i = 0; i < 5; i++) { /* the first five fields (the fifth may end the row) */
    f[i] = s;
    char *comma = strchr(s, ',');
    if (!comma && i < 4) return -1;
    if (comma) *comma = 0, s = comma + 1;
  }
  char *end;
  *mix2 = strtod(f[0], &end);
  if (end == f[0] || *end) return -1;
  *wmean = strtod(f[1], &end);
  if (end == f[1] || *end) return -1;
  long kk = strtol(f[2], &end, 10);
  if (end == f[2] || *end || kk < 0 || kk >= 100000) return -1;
  *k = (int)kk;
  if ((*pred = pred_index(f[3])) < 0) return -1;
  if (!*f[4]) *r2 = NAN;
  else {
    *r2 = strtod(f[4], &end);
    if (*end || !isfinite(*r2)) return -1;
  }
  return 0;
}

int nnt_icl_fig_panel_read(const char *dir, nnt_icl_fig_panel *p) {
  char path[4096], *buf = NULL;
  size_t len = 0;
  int st = nnt_file_read(nnt_path(path, sizeof path, dir, "r2.csv"), (size_t)1 << 30, &buf, &len);
  if (st) return st;
  static const char header[] = "mix2,w_mean,k,predictor,r2_pooled,";
  if (strncmp(buf, header, sizeof header - 1)) {
    free(buf);
    return nnt_fail(NNT_EINVAL, "%s: not an icl eval r2.csv (header)", path);
  }
  /* two passes over the rows: the conditions and positions, then the values */
  p->ncond = p->npos = 0;
  for (int pass = 0; pass < 2 && !st; pass++) {
    if (pass) {
      if (!p->ncond) st = nnt_fail(NNT_EINVAL, "%s: no rows", path);
      if (st) break;
      size_t m = (size_t)p->ncond * NNT_ICL_NPRED * p->npos;
      p->r2 = nnt_xmalloc(sizeof(double) * m);
      for (size_t i = 0; i < m; i++) p->r2[i] = NAN;
    }
    int line = 1;
    for (char *s = strchr(buf, '\n'); s && s[1] && !st; line++) {
      char *row = s + 1, *e = strchr(row, '\n');
      if (e) *e = 0;
      char copy[512];
      snprintf(copy, sizeof copy, "%s", row);
      if (e) *e = '\n';
      s = e;
      double mix2 = 0, wmean = 0, r2 = 0;
      int k = 0, pred = 0;
      if (parse_r2_row(copy, &mix2, &wmean, &k, &pred, &r2)) {
        st = nnt_fail(NNT_EINVAL, "%s:%d: malformed row", path, line + 1);
        break;
      }
      int c = 0;
      while (c < p->ncond && !(p->mix[c] == mix2 && p->wmean[c] == wmean)) c++;
      if (!pass) {
        if (c == p->ncond) {
          if (p->ncond == NNT_ICL_MAXCOND) {
            st = nnt_fail(NNT_EINVAL, "%s: more than %d test conditions", path, NNT_ICL_MAXCOND);
            break;
          }
          p->mix[p->ncond] = mix2, p->wmean[p->ncond++] = wmean;
        }
        if (k + 1 > p->npos) p->npos = k + 1;
      } else
        p->r2[nnt_icl_fig_at(p, c, pred, k)] = r2;
    }
  }
  free(buf);
  return st;
}

int nnt_icl_fig_in_main(const nnt_icl_fig_panel *p, int c) { return p->wmean[c] == p->wmean[0]; }

int nnt_icl_fig_in_shift(const nnt_icl_fig_panel *p, int c) {
  for (int s = 0; s < p->ncond; s++) /* the first shifted condition's mixture */
    if (p->wmean[s] != p->wmean[0]) return p->wmean[c] != p->wmean[0] || p->mix[c] == p->mix[s];
  return 0;
}

/* The eval folder's model: run.json's "model", as given, else relative to the folder or its parent. */
static int eval_model(const char *dir, nnt_icl_gpt **m, int *is_eval) {
  char path[4096];
  cJSON *j = NULL;
  *is_eval = 0;
  int st = nnt_json_read(nnt_path(path, sizeof path, dir, "run.json"), &j);
  if (st) return st;
  const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(j, "command"),
              *model = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "config"), "model");
  if (!cJSON_IsString(cmd) || strcmp(cmd->valuestring, "icl eval") || !cJSON_IsString(model)) {
    cJSON_Delete(j);
    return NNT_OK; /* icl baselines, or another command: not a panel */
  }
  *is_eval = 1;
  const char *mp = model->valuestring;
  char try[3][4096];
  snprintf(try[0], sizeof try[0], "%s", mp);
  snprintf(try[1], sizeof try[1], "%s/%s", dir, mp);
  snprintf(try[2], sizeof try[2], "%s/../%s", dir, mp);
  int found = -1;
  for (int i = 0; i < 3 && found < 0; i++)
    if (nnt_file_exists(try[i]) && (mp[0] != '/' || i == 0)) found = i;
  if (found < 0) st = nnt_fail(NNT_EINVAL, "%s: its model %s is not found (as given, or beside the folder)", dir, mp);
  else st = nnt_icl_gpt_load(try[found], m);
  cJSON_Delete(j);
  return st;
}

static int add_depth_rows(const char *dir, nnt_icl_figures_result *r) {
  char path[4096], *buf = NULL;
  size_t len = 0;
  int st = nnt_file_read(nnt_path(path, sizeof path, dir, "depth.csv"), (size_t)1 << 30, &buf, &len);
  if (st) return st;
  static const char header[] = "model,layers,heads,n_embd,attn,k,r2_model,r2_model_batch_mean,r2_model_batch_sd,r2_mean,r2_ridge";
  if (strncmp(buf, header, sizeof header - 1)) {
    free(buf);
    return nnt_fail(NNT_EINVAL, "%s: not an icl sweep-depth depth.csv (header)", path);
  }
  int line = 2;
  for (char *s = strchr(buf, '\n'); s && s[1] && !st; line++) {
    char *row = s + 1, *e = strchr(row, '\n');
    if (e) *e = 0;
    s = e;
    char *rest = strchr(row, ','), attn[32];
    int layers, heads, embd, k, used = 0;
    double pm, bm, bs, mean, ridge;
    if (!rest || sscanf(rest, ",%d,%d,%d,%31[^,],%d,%lf,%lf,%lf,%lf,%lf%n", &layers, &heads, &embd, attn, &k, &pm, &bm, &bs,
                        &mean, &ridge, &used) != 10 || rest[used] || !isfinite(pm) || !isfinite(mean) || !isfinite(ridge)) {
      st = nnt_fail(NNT_EINVAL, "%s:%d: malformed row", path, line);
      break;
    }
    int a = !strcmp(attn, "softmax") ? NNT_ATTN_SOFTMAX : !strcmp(attn, "relu") ? NNT_ATTN_RELU : -1;
    if (a < 0) {
      st = nnt_fail(NNT_EINVAL, "%s:%d: attention '%s'", path, line, attn);
      break;
    }
    r->depth = nnt_xrealloc(r->depth, sizeof *r->depth * (size_t)(r->ndepth + 1));
    r->depth[r->ndepth++] = (nnt_icl_fig_depth){nnt_xstrdup(dir), a, layers, k, pm, mean, ridge};
  }
  free(buf);
  return st;
}

static int has_file(const char *dir, const char *name) {
  char path[4096];
  return nnt_file_exists(nnt_path(path, sizeof path, dir, name));
}

static int add_panel_slot(nnt_icl_figures_result *r, const char *what) {
  if (r->npanel == NNT_ICL_FIG_MAXPANEL) return nnt_fail(NNT_EINVAL, "icl figures: more than %d eval runs (%s)", NNT_ICL_FIG_MAXPANEL, what);
  memset(&r->panel[r->npanel], 0, sizeof r->panel[0]);
  return NNT_OK;
}

/* dir itself and its folders, to the given depth, in name order. */
static int scan(const char *dir, int levels, nnt_icl_figures_result *r) {
  int st = NNT_OK;
  if (has_file(dir, "r2.csv") && has_file(dir, "run.json")) {
    nnt_icl_gpt *m = NULL;
    int is_eval;
    if ((st = eval_model(dir, &m, &is_eval))) return st;
    if (is_eval && !(st = add_panel_slot(r, dir))) {
      nnt_icl_fig_panel *p = &r->panel[r->npanel];
      const nnt_icl_gpt_arch *a = nnt_icl_gpt_arch_of(m);
      p->attn = a->attn, p->layers = a->n_layer, p->depth = nnt_icl_gpt_task(m)->depth, p->n_train = nnt_icl_gpt_task(m)->n;
      if (!(st = nnt_icl_fig_panel_read(dir, p))) p->path = nnt_xstrdup(dir), r->npanel++;
    }
    nnt_icl_gpt_free(m);
  }
  if (!st && has_file(dir, "depth.csv")) st = add_depth_rows(dir, r);
  if (st || !levels) return st;
  struct dirent **list = NULL;
  int n = scandir(dir, &list, NULL, alphasort);
  if (n < 0) return nnt_fail(NNT_EIO, "cannot read the folder %s", dir);
  for (int i = 0; i < n; i++) {
    char sub[4096];
    if (!st && list[i]->d_name[0] != '.' && is_dir(nnt_path(sub, sizeof sub, dir, list[i]->d_name)))
      st = scan(sub, levels - 1, r);
    free(list[i]);
  }
  free(list);
  return st;
}

/* ---------------------------------------------------------------- quick: micro runs here */

static void panel_from_result(nnt_icl_fig_panel *p, const nnt_icl_eval_result *e) {
  p->ncond = e->ncond, p->npos = e->npos;
  for (int c = 0; c < e->ncond; c++) p->mix[c] = e->cond[c].mix2, p->wmean[c] = e->cond[c].w_mean;
  size_t m = (size_t)p->ncond * NNT_ICL_NPRED * p->npos;
  p->r2 = nnt_xmalloc(sizeof(double) * m);
  for (int c = 0; c < p->ncond; c++)
    for (int q = 0; q < NNT_ICL_NPRED; q++)
      for (int k = 0; k < p->npos; k++) {
        int i = nnt_icl_eval_at(e, c, q, k);
        p->r2[nnt_icl_fig_at(p, c, q, k)] = e->has[q] && e->pooled_ok[i] ? e->pooled[i] : NAN;
      }
}

static int quick_dir(const nnt_icl_figures_cfg *c, const char *name, char *buf, size_t n) {
  snprintf(buf, n, "%s/runs/%s", c->dir, name);
  int st = nnt_sweep_prepare_dir(buf, c->resume, c->force);
  if (!st && c->force) { /* start afresh: the training must not resume an old checkpoint */
    char ck[4200];
    snprintf(ck, sizeof ck, "%s/model.ckpt", buf);
    remove(ck);
  }
  return st ? st : nnt_mkdirs(buf);
}

static void quick_train_cfg(const nnt_icl_figures_cfg *c, nnt_icl_train_cfg *t, int attn, int depth, int layers) {
  nnt_icl_train_cfg_default(t, NNT_ICL_PRESET_MICRO);
  t->arch.attn = (nnt_attn_score)attn, t->task.depth = depth, t->seed = c->seed, t->steps = c->steps;
  if (layers) t->arch.n_layer = layers;
  if (t->log_every > t->steps) t->log_every = t->ckpt_every = (int)t->steps; /* --steps below one log row */
}

/* Figures 1–2: the micro model for each attention and target depth 3, 4, 6, trained (resumably,
 * under dir/runs/) and evaluated as icl eval --quick does, at 1.5× its training length; the
 * 4-layer ones also with the target weights' mean shifted by ±0.5 (the weight-shift panels). */
static int quick_panels(const nnt_icl_figures_cfg *c, nnt_icl_figures_result *r) {
  const int depths[3] = {3, 4, 6};
  int st = NNT_OK;
  for (int a = 0; a < 2 && !st; a++)
    for (int di = 0; di < 3 && !st; di++) {
      char name[64], dir[4096];
      snprintf(name, sizeof name, "%s-td%d", nnt_icl_attn_names[a], depths[di]);
      nnt_icl_train_cfg t;
      quick_train_cfg(c, &t, a, depths[di], 0);
      if ((st = nnt_icl_train_check(&t)) || (st = quick_dir(c, name, dir, sizeof dir))) break;
      nnt_icl_train_result tr = {0};
      nnt_icl_gpt *m = NULL;
      fprintf(stderr, "icl figures: training %s\n", name);
      st = nnt_icl_train_run(&t, dir, c->resume, &tr);
      nnt_icl_train_result_free(&tr);
      if (!st) st = nnt_icl_gpt_load(strcat(dir, "/model.ckpt"), &m);
      if (st) break;
      nnt_icl_eval_cfg e;
      nnt_icl_eval_cfg_default(&e, NNT_PRESET_QUICK);
      e.task = *nnt_icl_gpt_task(m);
      e.task.n = (int)ceil(1.5 * (t.task.n - 1)) + 1;
      if (2 * e.task.n > t.arch.n_pos) e.task.n = t.arch.n_pos / 2;
      e.seed = c->seed, e.threads = c->threads, e.prompts = 64; /* one batch: seconds */
      if (depths[di] == 4) e.w_shift = 0.5; /* the weight-shift panel, on 4-layer targets as in the paper */
      char tag[4200];
      nnt_icl_eval_use_model(&e, m, dir, tag, sizeof tag);
      nnt_icl_eval_result er = {0};
      if (!(st = nnt_icl_eval_check(&e)) && !(st = nnt_icl_eval_run(&e, &er)) && !(st = add_panel_slot(r, name))) {
        nnt_icl_fig_panel *p = &r->panel[r->npanel++];
        p->attn = a, p->layers = t.arch.n_layer, p->depth = depths[di], p->n_train = t.task.n, p->path = nnt_xstrdup(name);
        panel_from_result(p, &er);
      }
      nnt_icl_eval_result_free(&er);
      nnt_icl_gpt_free(m);
    }
  return st;
}

/* Figure 3: a depth sweep per attention over micro models of 1 and 2 layers, at 5, 10, 15 examples. */
static int quick_depth(const nnt_icl_figures_cfg *c, nnt_icl_figures_result *r) {
  int st = NNT_OK;
  for (int a = 0; a < 2 && !st; a++) {
    nnt_icl_depth_cfg d = {0};
    nnt_icl_eval_cfg_default(&d.eval, NNT_PRESET_QUICK);
    d.eval.seed = c->seed, d.eval.threads = c->threads, d.eval.prompts = 64;
    d.nexamples = 3, d.examples[0] = 5, d.examples[1] = 10, d.examples[2] = 15, d.n = 16;
    d.ntrain = 2, d.preset = NNT_ICL_PRESET_MICRO, d.resume = c->resume, d.force = c->force;
    for (int i = 0; i < 2; i++) quick_train_cfg(c, &d.train[i], a, 3, i + 1);
    char dir[4096], name[64];
    snprintf(name, sizeof name, "depth-%s", nnt_icl_attn_names[a]);
    if ((st = quick_dir(c, name, dir, sizeof dir))) break;
    d.dir = dir;
    nnt_icl_depth_result dr = {0};
    if ((st = nnt_icl_depth_run(&d, &dr))) break;
    for (int i = 0; i < dr.nm; i++)
      for (int e = 0; e < d.nexamples; e++) {
        const nnt_icl_eval_result *q = &dr.res[i];
        int k = d.examples[e];
        r->depth = nnt_xrealloc(r->depth, sizeof *r->depth * (size_t)(r->ndepth + 1));
        r->depth[r->ndepth++] = (nnt_icl_fig_depth){nnt_xstrdup(name), a, dr.arch[i].n_layer, k,
                                                    q->pooled[nnt_icl_eval_at(q, 0, NNT_ICL_PRED_MODEL, k)],
                                                    q->pooled[nnt_icl_eval_at(q, 0, NNT_ICL_PRED_MEAN, k)],
                                                    q->pooled[nnt_icl_eval_at(q, 0, NNT_ICL_PRED_RIDGE, k)]};
      }
    nnt_icl_depth_result_free(&dr);
  }
  return st;
}

/* ---------------------------------------------------------------- the run */

static int panel_cmp(const void *a_, const void *b_) {
  const nnt_icl_fig_panel *a = a_, *b = b_; /* Figure 1 (ReLU) before Figure 2 (softmax) */
  if (a->attn != b->attn) return (a->attn != NNT_ATTN_RELU) - (b->attn != NNT_ATTN_RELU);
  if (a->depth != b->depth) return a->depth - b->depth;
  return strcmp(a->path, b->path);
}
static int depth_cmp(const void *a_, const void *b_) {
  const nnt_icl_fig_depth *a = a_, *b = b_;
  if (a->attn != b->attn) return a->attn - b->attn;
  if (a->layers != b->layers) return a->layers - b->layers;
  if (a->k != b->k) return a->k - b->k;
  return strcmp(a->source, b->source);
}

int nnt_icl_figures_run(const nnt_icl_figures_cfg *c, nnt_icl_figures_result *r) {
  memset(r, 0, sizeof *r);
  int st = nnt_icl_figures_check(c);
  if (st) return st;
  if (c->quick) {
    if (!(st = quick_panels(c, r))) st = quick_depth(c, r);
  } else if (!(st = scan(c->runs, 2, r)) && !r->npanel && !r->ndepth)
    st = nnt_fail(NNT_EINVAL, "--runs %s: no icl eval (r2.csv, run.json) or sweep-depth (depth.csv) folder in it or two levels below",
                  c->runs);
  if (st) {
    nnt_icl_figures_result_free(r);
    return st;
  }
  qsort(r->panel, (size_t)r->npanel, sizeof *r->panel, panel_cmp);
  if (r->ndepth) qsort(r->depth, (size_t)r->ndepth, sizeof *r->depth, depth_cmp);
  return NNT_OK;
}

void nnt_icl_figures_result_free(nnt_icl_figures_result *r) {
  for (int i = 0; i < r->npanel; i++) free(r->panel[i].path), free(r->panel[i].r2);
  for (int i = 0; i < r->ndepth; i++) free(r->depth[i].source);
  free(r->depth);
  memset(r, 0, sizeof *r);
}
