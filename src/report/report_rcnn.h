/* report_rcnn.h — what nnt rcnn and nnt parity bench write: console reports, CSV tables (learn: points.csv and
 * learn.csv; compile: compile.csv) and the snapshot heat maps. dir NULL: the console report only.
 * Each returns an I/O error, or NNT_ECHECK (with its message) when the result fails its checks. */
#ifndef REPORT_RCNN_H
#define REPORT_RCNN_H
#include "nnt_rcnn_nn.h"
#include "nnt_rcnn_parity.h"
#include "nnt_rcnn_rule.h"
#include "nnt_rcnn_tm2d.h"

int nnt_report_rcnn_learn(const char *dir, const nnt_rcnn_learn_cfg *c, const nnt_rcnn_learn_result *r);
int nnt_report_rcnn_compile(const char *dir, const nnt_rcnn_compile_cfg *c, const nnt_rcnn_compile_result *r);
int nnt_report_rcnn_snapshot(const char *dir, const nnt_rcnn_snapshot_cfg *c, const nnt_rcnn_snapshot_result *r);

int nnt_report_rcnn_restarts(const char *dir, const nnt_rcnn_restarts_cfg *c, const nnt_rcnn_restarts_result *r);

/* nnt parity bench: points.csv, summary.csv and accuracy.png (the tour's rcnn section shows the
 * plot alone, nnt_report_rcnn_parity_plot), then the console table. */
int nnt_report_rcnn_parity_bench(const char *dir, const nnt_rcnn_parity_bench_cfg *c, const nnt_rcnn_parity_bench_result *r);
int nnt_report_rcnn_parity_plot(const char *dir, const nnt_rcnn_parity_bench_cfg *c, const nnt_rcnn_parity_bench_result *r);

/* nnt tm2d: run (before: the tape before the run, printed with the tape after; NULL: neither;
 * truth: the drawn parity's label of the test point, 0 if none; NNT_ECHECK when the machine did
 * not halt or broke the readout convention), check (the sizes), export (the text format to save,
 * or standard output when save is NULL). */
int nnt_report_rcnn_tm2d_run(const char *path, const nnt_rcnn_tm2d *tm, const nnt_rcnn_tm2d_tape *before,
                             const nnt_rcnn_tm2d_tape *after, const nnt_rcnn_tm2d_result *r, int truth);
int nnt_report_rcnn_tm2d_check(const char *path, const nnt_rcnn_tm2d *tm);
int nnt_report_rcnn_tm2d_export(const char *save, const char *name, const nnt_rcnn_tm2d *tm);

#endif
