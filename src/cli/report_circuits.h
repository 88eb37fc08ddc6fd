/* report_circuits.h — what nnt circuit writes: console lines, CSV, plots and run.json of the
 * circuits area's results (the runs are in src/circuits). */
#ifndef REPORT_CIRCUITS_H
#define REPORT_CIRCUITS_H
#include "cli.h"
#include "nnt_circuits.h"

void cli_circuit_print(const char *file, const nnt_circuit *c, const nnt_circuit_layered *L);
/* Sizes of the dense form (params counts every weight of the dense matrices), nonzeros stored. */
void cli_circuit_print_net(const nnt_smlp *net, int correct);
/* Console lines, out/margins.csv, margins.png and run.json of a circuit's per-input margins. */
int cli_circuit_margin_report(const cli_common *co, const nnt_circuit_margin_cfg *cfg,
                              const nnt_circuit_margin_result *res, double seconds);
/* out/margin_depth.csv and margin_depth.png of the depth sweep (the command and the tour). */
int cli_circuit_margin_sweep_write(const char *out, const nnt_circuit_margin_cfg *cfg,
                                   const nnt_circuit_margin_sweep_result *res);
/* Console table, out/learn.csv, trained_w<w>.json, the two plots and run.json of nnt circuit learn. */
int cli_circuit_learn_report(const cli_common *co, const nnt_circuit_learn_cfg *cfg, const nnt_circuit_learn_result *res,
                             double seconds);

#endif
