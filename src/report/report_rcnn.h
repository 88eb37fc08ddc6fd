/* report_rcnn.h — what nnt rcnn writes: console reports, CSV tables (learn: points.csv and
 * learn.csv; compile: compile.csv) and the snapshot heat maps. dir NULL: the console report only.
 * Each returns an I/O error, or NNT_ECHECK (with its message) when the result fails its checks. */
#ifndef REPORT_RCNN_H
#define REPORT_RCNN_H
#include "nnt_rcnn_nn.h"
#include "nnt_rcnn_rule.h"

int nnt_report_rcnn_learn(const char *dir, const nnt_rcnn_learn_cfg *c, const nnt_rcnn_learn_result *r);
int nnt_report_rcnn_compile(const char *dir, const nnt_rcnn_compile_cfg *c, const nnt_rcnn_compile_result *r);
int nnt_report_rcnn_snapshot(const char *dir, const nnt_rcnn_snapshot_cfg *c, const nnt_rcnn_snapshot_result *r);

int nnt_report_rcnn_restarts(const char *dir, const nnt_rcnn_restarts_cfg *c, const nnt_rcnn_restarts_result *r);

#endif
