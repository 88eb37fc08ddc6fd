/* report_tm.h — what nnt tm writes: console lines and CSVs of the tm area's results (run.json is
 * the driver's). dir NULL: the console report only. */
#ifndef REPORT_TM_H
#define REPORT_TM_H
#include "nnt_tm.h"

/* Console summary; with a folder, dir/summary.csv (one row: the run's final configuration) and
 * dir/trace.csv when the run kept a trace. */
int nnt_report_tm_sim(const char *dir, const nnt_tm_cfg *cfg, const nnt_tm_sim_result *res);
/* Console report (sizes, run, check); with a folder, dir/step_cost.csv. */
int nnt_report_tm_compile(const char *dir, const nnt_tm_cfg *cfg, const nnt_tm_compile_result *res);
/* The tour's tm section: dir/compiled.csv, one row per machine (its compile results, freed: sizes
 * and checks only), and dir/step_cost, the cost per decoded step over one run. */
int nnt_report_tm_tour_compiled(const char *dir, int n, const char *const *machines, const nnt_tm_compile_result *res);
int nnt_report_tm_step_cost(const char *dir, const nnt_tm_compile_result *c);

#endif
