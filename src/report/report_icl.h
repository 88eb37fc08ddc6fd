/* report_icl.h — what nnt icl writes: console tables, CSV and plots of the icl area (seed 003).
 * Each writer prints its console report to stdout and, with a folder out (NULL: none), its files. */
#ifndef REPORT_ICL_H
#define REPORT_ICL_H
#include <stdio.h>

#include <cjson/cJSON.h>

#include "nnt_icl_construct.h"
#include "nnt_icl_depth.h"
#include "nnt_icl_eval.h"
#include "nnt_icl_figures.h"
#include "nnt_icl_gpt.h"
#include "nnt_plot.h"

/* The layer table of one GD step (+ readout) of a built transformer. */
void nnt_report_icl_layer_table(FILE *f, const nnt_icl_tf *tf);
/* The per-step table and the summary ending in max_err=E max_bound=B; steps.csv. */
int nnt_report_icl_construct(const char *out, const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r);
/* The construction's result for run.json: sizes, max_err, max_err2, the invariants' and bound's checks. */
cJSON *nnt_report_icl_construct_json(const nnt_icl_construct_result *r);
/* The table with the fitted exponent of err ~ M^p per shape; sweep.csv, err_vs_M.png/.svg. */
int nnt_report_icl_construct_sweep(const char *out, const nnt_icl_construct_sweep_result *r);
/* The loss log (every tenth row) and the summary ending in final_loss=L; train.csv, loss.png/.svg. */
int nnt_report_icl_train(const char *out, const nnt_icl_train_cfg *c, const nnt_icl_train_result *r, const char *preset,
                         int threads);
/* R² at a few k per condition and predictor; r2.csv, r2_<condition>.png, and with a model
 * mixtures.png (n_train > 0: the model's training length, marked). */
int nnt_report_icl_eval(const char *out, const nnt_icl_eval_cfg *c, const nnt_icl_eval_result *r, int n_train);
/* Only the files of nnt_report_icl_eval: dir/r2.csv, dir/r2_<condition>.png|svg (mix0, mix0.1, ...)
 * and, with a model, dir/mixtures.png|svg. */
int nnt_report_icl_eval_files(const char *dir, const nnt_icl_eval_result *r, int n_train);
/* R² at each number of examples per model; depth.csv, depth.png. */
int nnt_report_icl_depth(const char *out, const nnt_icl_depth_cfg *c, const nnt_icl_depth_result *r);
/* Figures 1–3 of seed 003: a console table per panel (R² at a few k per test mixture, baselines
 * beside), figures.csv (every panel's curves) and figure3.csv, and the plots
 * fig1_relu_td<N>.png/svg, fig2_softmax_td<N>.png/svg (one file per panel) and fig3_<attn>.png/svg;
 * for eval runs with --w-shift also weight_shift.csv and wshift_<attn>_td<N>.png/svg. */
int nnt_report_icl_figures(const char *out, const nnt_icl_figures_result *r);
/* The plots nnt_report_icl_figures draws for one panel: Figure 1/2's (the model per test mixture,
 * direct training, prompt mean and ridge of the first condition, the training length dashed) and,
 * for an eval run with --w-shift, the weight-shift panel (model, direct training and prompt mean
 * per target weight mean). The caller frees them (nnt_plot_free). */
nnt_plot *nnt_report_icl_fig_plot(const nnt_icl_fig_panel *p);
nnt_plot *nnt_report_icl_fig_shift_plot(const nnt_icl_fig_panel *p);
#endif
