/* report_qstr.h — seed 001's results into files (CSV, run.json, plots) and console tables. */
#ifndef REPORT_QSTR_H
#define REPORT_QSTR_H
#include "cli.h"
#include "nnt_qstr.h"

/* dir NULL: console only. */
int cli_qstr_sweep_report(const nnt_qstr_sweep_cfg *s, const nnt_qstr_sweep_result *r, const char *dir, const char *cmdline);
/* One plot of the samples.csv of several sweep folders into co->out. */
int cli_qstr_plot(int ndirs, char **dirs, const cli_common *co);
int cli_qstr_attention_report(const nnt_qstr_attention_cfg *c, const nnt_qstr_attention_result *r, const char *dir, double wall);
int cli_qstr_heads_report(const nnt_qstr_heads_cfg *c, const nnt_qstr_heads_result *r, const char *dir, double wall);
int cli_qstr_construct_report(const nnt_qstr_construct_cfg *c, const nnt_qstr_construct_result *r, const char *dir, double wall);
int cli_qstr_rnn_oracle_report(const nnt_qstr_rnn_oracle_cfg *c, const nnt_qstr_rnn_oracle_result *r, const char *dir, double wall);
int cli_qstr_ffn_bound_report(const nnt_qstr_ffn_bound_cfg *c, const nnt_qstr_ffn_bound_result *r, const char *dir, double wall);

#endif
