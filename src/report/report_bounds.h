/* report_bounds.h — what nnt bounds writes: console report and CSV (dir NULL: console only). */
#ifndef REPORT_BOUNDS_H
#define REPORT_BOUNDS_H
#include <cjson/cJSON.h>

#include "nnt_bounds.h"
#include "nnt_circuits.h"
#include "nnt_tm.h"

/* Theorem 1 / Corollary 2 of seed 002: the console report; dir/rcnn.csv. */
int nnt_report_bounds_rcnn(const char *dir, const nnt_bounds_rcnn_cfg *c, const nnt_bounds_rcnn *r);

/* Lemma 2.3 / Theorem 4.1 for a machine (c->tm, measured by nnt_tm_sm_run for tc): the console
 * report, the bounds' inputs and outcome into *sum (NULL: not wanted); dir/bound_vs_n.csv,
 * dir/sweep.csv and their plots. NNT_ECHECK after the report when the net disagreed with the
 * simulation, else the closing line "gamma_certified=... gamma_attack=...". */
int nnt_report_bounds_sm_tm(const char *dir, const nnt_bounds_sm_cfg *c, const nnt_tm_sm_cfg *tc, const nnt_tm_sm_result *r,
                            nnt_bounds_sm_summary *sum);
/* Lemma 2.3 / Theorem 3.1 for a circuit (c->circuit, measured by nnt_circuit_sm_run): the same;
 * print_src(src), when given, prints the line on where the circuit came from (a Verilog design). */
int nnt_report_bounds_sm_circuit(const char *dir, const nnt_bounds_sm_cfg *c, const nnt_circuit_sm_result *r,
                                 void (*print_src)(const void *), const void *src);

/* The result for run.json: gamma and its source, the margin's bounds, alpha, p, the ratio of the
 * two counts, the check's counts. */
cJSON *nnt_report_bounds_sm_tm_json(const nnt_bounds_sm_cfg *c, const nnt_tm_sm_cfg *tc, const nnt_tm_sm_result *r);
cJSON *nnt_report_bounds_sm_circuit_json(const nnt_bounds_sm_cfg *c, const nnt_circuit_sm_result *r);

#endif
