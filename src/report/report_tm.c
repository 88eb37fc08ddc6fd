/* Reports of nnt tm: results in memory -> console, CSV. */
#include <math.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "report_tm.h"

int nnt_report_tm_sim(const char *dir, const nnt_tm_cfg *cfg, const nnt_tm_sim_result *res) {
  const nnt_tm *tm = &res->tm;
  const nnt_tm_stream *r = &res->run;
  printf("machine %s: %d states, %d symbols, input length %d\n", cfg->machine, tm->k, tm->nsym, tm->m);
  if (r->halt_step >= 0) printf("halted after %ld steps in state %s\n", r->halt_step, tm->state_name[r->state]);
  else printf("running after %ld steps, state %s\n", r->steps, tm->state_name[r->state]);
  printf("steps=%ld halt_step=%ld nonblank=%ld head=%ld cells_visited=[%ld,%ld] time=%.3f ms\n", r->steps, r->halt_step, r->ones,
         r->head, r->min_head, r->max_head, res->seconds * 1e3);
  if (!dir) return NNT_OK;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "summary.csv", "states,symbols,input_length,steps,halted,halt_step,state,nonblank,head,min_head,max_head");
  if (st) return st;
  nnt_csv_row(&csv, "%d,%d,%d,%ld,%d,%ld,%s,%ld,%ld,%ld,%ld", tm->k, tm->nsym, tm->m, r->steps, r->halt_step >= 0, r->halt_step,
              tm->state_name[r->state], r->ones, r->head, r->min_head, r->max_head);
  if ((st = nnt_csv_close(&csv)) || !r->nrows) return st;
  if ((st = nnt_csv_open(&csv, dir, "trace.csv", "step,state,head,symbol_under_head,written"))) return st;
  for (long i = 0; i < r->nrows; i++)
    nnt_csv_row(&csv, "%ld,%s,%ld,%s,%s", r->row_t[i], tm->state_name[r->row_state[i]], r->row_head[i],
                tm->sym_name[r->row_sym[i]], r->row_written[i] >= 0 ? tm->sym_name[r->row_written[i]] : "");
  return nnt_csv_close(&csv);
}

static void print_sizes(const nnt_tm *tm, const nnt_tm_compile_result *c) {
  const nnt_tm_net_stats *s = &c->s;
  double lt = ceil(log2((double)c->T)), scale = (double)tm->k * tm->nsym + lt;
  printf("transformer: width w=%d (max vector width W=%d, FF hidden <= %d), layers d=%d (%d self-attention, "
         "%d enc-dec), wpos=%d, nonzero parameters %ld (dense F_{W,d}: %ld), ||theta||_1=%.0f, max |theta|=%.0f\n",
         s->w, s->max_width, s->ff_hidden_max, s->layers, s->self_attn_layers, s->enc_attn_layers, s->wpos, s->nonzero,
         s->params_dense, s->l1, s->max_abs);
  printf("theorem 4.1 scales: k|A| + log2 T = %.0f -> w/(k|A|+log2 T) = %.2f; log2 T = %.0f -> d/log2 T = %.2f; "
         "alpha = ||theta||_1 = %.0f = %.2f (k|A|+log2 T)^2\n",
         scale, s->w / scale, lt, lt > 0 ? s->layers / lt : 0.0, s->l1, s->l1 / (scale * scale));
}

static int compile_files(const char *dir, const nnt_tm_compile_result *c) {
  const nnt_tm_run_result *r = &c->r;
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "step_cost.csv", "window,t_from,t_to,us_per_step");
  if (st) return st;
  for (int i = 0; i < 10; i++)
    nnt_csv_row(&csv, "%d,%ld,%ld,%.3f", i, i * (c->T + 1) / 10 + 1, (i + 1) * (c->T + 1) / 10, r->step_us[i]);
  return nnt_csv_close(&csv);
}

/* --dump: the chosen step's attention weights as heatmaps beside dump.safetensors (rows: the
 * attention layers; columns: the null key, then the keys). */
static int dump_heatmaps(const nnt_tm_cfg *cfg, const nnt_tm_compile_result *c) {
  const nnt_tm_dump_step *d = &c->dump;
  char title[160], base[64];
  int st = NNT_OK;
  if (d->self_rows) {
    snprintf(title, sizeof title, "self-attention at machine step %ld (rows: layers %d..%d)", d->step, d->self_layer[0],
             d->self_layer[d->self_rows - 1]);
    snprintf(base, sizeof base, "attn_step%ld_self", d->step);
    st = nnt_heatmap_save(d->self, d->self_rows, d->self_cols, title, "key: null, then decoder steps 1..t",
                          "attention layer", cfg->dump_dir, base);
  }
  if (!st && d->enc_rows) {
    snprintf(title, sizeof title, "encoder-decoder attention at machine step %ld (rows: layers %d..%d)", d->step,
             d->enc_layer[0], d->enc_layer[d->enc_rows - 1]);
    snprintf(base, sizeof base, "attn_step%ld_enc", d->step);
    st = nnt_heatmap_save(d->enc, d->enc_rows, d->enc_cols, title, "key: null, then input cells 0..m-1", "attention layer",
                          cfg->dump_dir, base);
  }
  if (!st)
    printf("dump: %s/dump.safetensors (residual stream after every layer and every attention weight, %ld decoder steps); "
           "attention of machine step %ld in %s/attn_step%ld_self.png%s\n",
           cfg->dump_dir, c->T + 1, d->step, cfg->dump_dir, d->step, d->enc_rows ? " and _enc.png" : "");
  return st;
}

int nnt_report_tm_compile(const char *dir, const nnt_tm_cfg *cfg, const nnt_tm_compile_result *c) {
  const nnt_tm *tm = &c->tm;
  const nnt_tm_run_result *r = &c->r;
  printf("machine %s: k=%d states, |A|=%d symbols, input length %d; T=%ld (%s)\n", cfg->machine, tm->k, tm->nsym, tm->m,
         c->T, c->halt_step >= 0 ? "halts within T" : "still running at T");
  print_sizes(tm, c);
  int last = 9;
  while (last > 0 && r->step_us[last] == 0) last--;
  printf("run: %s attention, %s: %.3f s for %ld decoder steps (compile %.3f s); per decoded step %.2f us in the "
         "first tenth of t, %.2f us in the last (cost grows with the prefix); key/value cache %.2f MB, weights %.3f MB, "
         "peak RSS %.1f MB\n",
         cfg->attention ? "softmax" : "hard-max", cfg->precision ? "float32" : "float64", r->seconds, c->T + 1,
         c->compile_s, r->step_us[0], r->step_us[last], r->cache_bytes / 1048576.0, r->weight_bytes / 1048576.0,
         c->peak_rss_mb);
  if (cfg->attention == NNT_TM_SOFTMAX) printf("softmax beta=%g\n", cfg->beta);
  if (cfg->attention == NNT_TM_HARD) printf("every o_t exactly binary: %s\n", r->nonbinary ? "no" : "yes");
  printf("smallest gap between the top two attention scores: %g (the proof needs >= 1); largest ||h||_2: %.3f\n",
         r->min_score_gap, r->lambda);
  printf("output theta_cls^T o_T: %s\n",
         r->output_sign > 0 ? "+1 (halted, accept)" : r->output_sign < 0 ? "-1 (reject)" : "0 (not halted)");
  if (cfg->beta_search) {
    printf("beta_min f64=%.4g f32=%.4g (smallest softmax inverse temperature exact at every step)\n", c->beta64, c->beta32);
    if (c->not_monotone > 0) printf("warning: not exact at beta=%g, above beta_min: the threshold is not monotone\n", c->not_monotone);
    else printf("also exact at 2x, 8x and 64x beta_min (both precisions)\n");
  }
  if (r->mismatches) printf("first mismatch at step %ld: %s\n", r->first_mismatch, r->first_what);
  int st = cfg->dump_dir ? dump_heatmaps(cfg, c) : NNT_OK;
  printf("steps_checked=%ld mismatches=%ld\n", r->steps_checked, r->mismatches);
  if (st) return st;
  return dir ? compile_files(dir, c) : NNT_OK;
}

int nnt_report_tm_tour_compiled(const char *dir, int n, const char *const *machines, const nnt_tm_compile_result *res) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "compiled.csv",
                        "machine,T,width,max_width,layers,nonzero_params,l1_norm,steps_checked,mismatches,"
                        "beta_min_f64,beta_min_f32,seconds");
  if (st) return st;
  for (int i = 0; i < n; i++) {
    const nnt_tm_compile_result *c = &res[i];
    nnt_csv_row(&csv, "%s,%ld,%d,%d,%d,%ld,%.0f,%ld,%ld,%.4g,%.4g,%.4f", machines[i], c->T, c->s.w, c->s.max_width,
                c->s.layers, c->s.nonzero, c->s.l1, c->r.steps_checked, c->r.mismatches, c->beta64, c->beta32, c->r.seconds);
  }
  return nnt_csv_close(&csv);
}

int nnt_report_tm_step_cost(const char *dir, const nnt_tm_compile_result *c) {
  double x[10], y[10];
  for (int i = 0; i < 10; i++) x[i] = (i + 0.5) * (c->T + 1) / 10.0, y[i] = c->r.step_us[i];
  nnt_plot *p = nnt_plot_new("compiled TM: cost per decoded step", "decoder step t", "microseconds per step");
  nnt_plot_add(p, 10, x, y, "hard attention, float64 (KV cache)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  int st = nnt_plot_save(p, dir, "step_cost");
  nnt_plot_free(p);
  return st;
}
