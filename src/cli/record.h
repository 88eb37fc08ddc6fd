/* record.h — what a command records of its settings and results, and reruns (record.c).
 *
 * run.json in the command's --out folder gains, from the option table (cli.h):
 *   "command": the command's name ("qstr construct"), the one --config checks;
 *   "argv":    the command line as given;
 *   "args":    the positional arguments;
 *   "options": every option of the table with its final value (given, from --config, or the
 *              preset's default), plus "seed" and "quick";
 *   "given":   the options that counted as given (a command may treat an option it was not given
 *              differently from the same value given: cli_given).
 * --config FILE applies a run.json's "options", "given" and "args" as if given before the command
 * line's own options; --out, --threads, --resume and --force are never taken from it.
 * At the end of a run that wrote CSVs, results.json goes beside them (nnt_results_write). */
#ifndef CLI_RECORD_H
#define CLI_RECORD_H
#include "cli.h"

/* options.c: one option's value from its command-line text (range-checked, "--name: ..." on error). */
int cli_opt_set(const cli_opt *o, const char *arg, void *cfg);
/* options.c: the number of options in the table; the config of the preset (cfg_default). */
int cli_nopts(const cli_cmd *cmd);
void cli_cfg_defaults(const cli_cmd *cmd, void *cfg, int quick);

/* Called by cli_parse. Finds --config in argv and reads the file (*quick set from its "quick"); NNT_OK
 * when there is none. */
int cli_config_begin(const cli_cmd *cmd, int argc, char **argv, int *quick);
/* --config's path as getopt saw it: refuses an abbreviated or a second --config, which the scan missed. */
int cli_config_seen(const char *path);
/* Applies the file's options to cfg (holding the preset's defaults), a->given and the seed. */
int cli_config_apply(const cli_cmd *cmd, void *cfg, cli_args *a);
/* The file's positional arguments when the command line has none. */
void cli_config_args(cli_args *a);
/* Records the parsed command for run.json (the first command parsed in the process). */
void cli_record(const cli_cmd *cmd, int argc, char **argv, const void *cfg, const cli_args *a);
/* cli_prepare_out: the first folder prepared is the command's own, whose run.json gets the record;
 * created: it did not exist before. */
void cli_record_dir(const char *out, int created);
/* main, after the command: writes results.json beside the CSVs of a run that finished (status
 * NNT_OK, or NNT_ECHECK: a verification failed but the results are whole); returns status, or the
 * error of writing results.json. A run that refused its input (exit 2) and left the folder it
 * created empty removes it. */
int cli_record_finish(int status);
/* run.json's "config": every option of the table with its value in cfg (the config the run used). */
struct cJSON *cli_record_config(const cli_cmd *cmd, const void *cfg, int quick);
/* Forgets the previous command's record and --config file: each nnt_cli_run starts afresh. */
void cli_record_reset(void);

#endif
