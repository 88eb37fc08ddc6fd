/* report_circuits.h — what nnt circuit writes: console lines, CSV, plots and net files of the
 * circuits area's results (the runs are in src/circuits). dir NULL: the console report only. */
#ifndef REPORT_CIRCUITS_H
#define REPORT_CIRCUITS_H
#include "nnt_circuits.h"

void nnt_report_circuit_print(const char *file, const nnt_circuit *c, const nnt_circuit_layered *L);
/* Sizes of the dense form (params counts every weight of the dense matrices), nonzeros stored. */
void nnt_report_circuit_print_net(const nnt_smlp *net, int correct);
/* The net as one file: nnt-mlp (dense) or nnt-mlp-sparse. */
int nnt_report_circuit_compile(const char *file, const nnt_smlp *net, int dense);
/* Console line of the check (and the first mismatching input); dir/verify.csv. */
int nnt_report_circuit_verify(const char *dir, const nnt_circuit_verify_cfg *cfg, const nnt_circuit_verify_result *r);
/* Console lines, dir/margins.csv and margins.png of a circuit's per-input margins. */
int nnt_report_circuit_margin(const char *dir, const nnt_circuit_margin_cfg *cfg, const nnt_circuit_margin_result *res);
/* dir/margin_depth.csv and margin_depth.png of the depth sweep (the command and the tour). */
/* The margin sweep's console table: median upper bounds and certified lower bounds per depth. */
void nnt_report_circuit_margin_sweep_table(const nnt_circuit_margin_cfg *cfg, const nnt_circuit_margin_sweep_result *res);
int nnt_report_circuit_margin_sweep(const char *dir, const nnt_circuit_margin_cfg *cfg,
                                    const nnt_circuit_margin_sweep_result *res);
/* Console table, dir/learn.csv, trained_w<w>.json and the two plots of nnt circuit learn. */
int nnt_report_circuit_learn(const char *dir, const nnt_circuit_learn_cfg *cfg, const nnt_circuit_learn_result *res);

/* Claim 3.5's toy per depth (console table, dir/claim35.csv); NNT_ECHECK when a row contradicts the claim. */
int nnt_report_circuit_claim35(const char *dir, int n, const nnt_circuit_claim35_row *rows);
/* (D.5) for one circuit: its constants and terms, the line gamma_D5=... gamma_certified=...
 * gamma_attack=... with the ratios, dir/d5.csv; NNT_ECHECK when gamma_D5 exceeds the attack's flip. */
int nnt_report_circuit_d5(const char *dir, const char *file, const nnt_circuit_d5_cfg *cfg, const nnt_circuit_d5_result *r);
/* run.json's "result" of nnt circuit d5: the gammas (over the inputs, over every input from the
 * weights alone, certified, attack) and both checks. */
struct cJSON *nnt_report_circuit_d5_json(const nnt_circuit_d5_result *r);

#endif
