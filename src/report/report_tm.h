/* report_tm.h — what nnt tm writes: console lines and CSVs of the tm area's results (run.json is
 * the driver's). dir NULL: the console report only. */
#ifndef REPORT_TM_H
#define REPORT_TM_H
#include "nnt_tm.h"

/* Console summary; with a folder, dir/trace.csv when the run kept a trace. */
int nnt_report_tm_sim(const char *dir, const nnt_tm_cfg *cfg, const nnt_tm_sim_result *res);
/* Console report (sizes, run, check); with a folder, dir/step_cost.csv. */
int nnt_report_tm_compile(const char *dir, const nnt_tm_cfg *cfg, const nnt_tm_compile_result *res);

#endif
