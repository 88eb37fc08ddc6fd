/* report_tm.h — what nnt tm writes: console lines, CSV and run.json of the tm area's results. */
#ifndef REPORT_TM_H
#define REPORT_TM_H
#include "cli.h"
#include "nnt_tm.h"

/* Console summary; with an output folder, out/trace.csv and run.json. */
int cli_tm_sim_report(const cli_common *co, const nnt_tm_cfg *cfg, const nnt_tm_sim_result *res);
/* Console report (sizes, run, check); with an output folder, out/step_cost.csv and run.json. */
int cli_tm_compile_report(const cli_common *co, const nnt_tm_cfg *cfg, const nnt_tm_compile_result *res, double seconds);

#endif
