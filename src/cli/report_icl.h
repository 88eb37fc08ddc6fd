/* report_icl.h — what nnt icl writes: console tables, CSV, run.json and plots of the icl area. */
#ifndef REPORT_ICL_H
#define REPORT_ICL_H
#include "cli.h"
#include "nnt_icl_construct.h"

/* The layer table of one GD step (+ readout) of a built transformer. */
void cli_icl_layer_table(FILE *f, const nnt_icl_tf *tf);
/* Console: the per-step table and the summary ending in max_err=E; with co->out, steps.csv and
 * run.json. */
int cli_icl_construct_report(const cli_common *co, const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r);
/* One result per point (N, K, n outer, M inner: groups of nM): console table with the fitted
 * exponent of err ~ M^p per group; with co->out, sweep.csv, err_vs_M.png/.svg and run.json. */
int cli_icl_construct_sweep_report(const cli_common *co, const nnt_icl_construct_cfg *c, const nnt_icl_construct_result *r,
                                   int np, int nM, double seconds);
#endif
