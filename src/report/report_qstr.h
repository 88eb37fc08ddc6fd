/* report_qstr.h — seed 001's results into files (CSV, plots) and console tables. dir NULL: console
 * only (run.json is the driver's). */
#ifndef REPORT_QSTR_H
#define REPORT_QSTR_H
#include "nnt_qstr.h"

int nnt_report_qstr_sweep(const char *dir, const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r);
int nnt_report_qstr_attention(const char *dir, const nnt_qstr_attention_cfg *c, const nnt_qstr_attention_result *r);
int nnt_report_qstr_heads(const char *dir, const nnt_qstr_heads_cfg *c, const nnt_qstr_heads_result *r);
int nnt_report_qstr_construct(const char *dir, const nnt_qstr_construct_cfg *c, const nnt_qstr_construct_result *r);
int nnt_report_qstr_rnn_oracle(const char *dir, const nnt_qstr_rnn_oracle_cfg *c, const nnt_qstr_rnn_oracle_result *r);
int nnt_report_qstr_rnn_minnorm(const char *dir, const nnt_qstr_rnn_minnorm_cfg *c, const nnt_qstr_rnn_minnorm_result *r);
int nnt_report_qstr_rnn_width(const char *dir, const nnt_qstr_rnn_width_cfg *c, const nnt_qstr_rnn_width_result *r);
int nnt_report_qstr_ffn_bound(const char *dir, const nnt_qstr_ffn_bound_cfg *c, const nnt_qstr_ffn_bound_result *r);

/* Sample-complexity curves (median and min-max per N) of several sweeps, for one plot: from sweeps
 * in memory (the tour), or read back from the samples.csv of sweep folders (nnt qstr plot). */
typedef struct nnt_report_qstr_curves nnt_report_qstr_curves;
nnt_report_qstr_curves *nnt_report_qstr_curves_new(void);
void nnt_report_qstr_curves_add(nnt_report_qstr_curves *c, const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r);
/* NNT_EIO / NNT_EFORMAT naming the file when a folder's samples.csv is missing or malformed. */
int nnt_report_qstr_read(int ndirs, char **dirs, nnt_report_qstr_curves **c);
int nnt_report_qstr_curves_count(const nnt_report_qstr_curves *c);
/* dir/samples.png and .svg */
int nnt_report_qstr_plot(const char *dir, const nnt_report_qstr_curves *c);
/* One console line per curve: the log-log least-squares slope of its medians against N. */
void nnt_report_qstr_slopes(const nnt_report_qstr_curves *c);
void nnt_report_qstr_curves_free(nnt_report_qstr_curves *c);

#endif
