/* report_bounds.h — what nnt bounds writes: console report and CSV (dir NULL: console only). */
#ifndef REPORT_BOUNDS_H
#define REPORT_BOUNDS_H
#include "nnt_bounds.h"

/* Theorem 1 / Corollary 2 of seed 002: the console report; dir/rcnn.csv. */
int nnt_report_bounds_rcnn(const char *dir, const nnt_bounds_rcnn_cfg *c, const nnt_bounds_rcnn *r);

#endif
