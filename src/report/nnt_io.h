/* nnt_io.h — result files of the report layer: CSV tables and run.json, on the core's atomic files. */
#ifndef NNT_IO_H
#define NNT_IO_H
#include <cjson/cJSON.h>

#include "nnt_file.h"

/* A CSV table: header given once, then rows of printf-formatted fields. */
typedef struct {
  nnt_afile a;
  int rows;
} nnt_csv;

/* dir NULL: a table that writes nothing (a command run without --out), rows and close accepted. */
int nnt_csv_open(nnt_csv *c, const char *dir, const char *name, const char *header);
void nnt_csv_row(nnt_csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Commits the file and, on success, remembers it for nnt_results_write. */
int nnt_csv_close(nnt_csv *c);

/* results.json: every CSV committed since the last call, as JSON, one results.json in each folder
 * that received CSVs: {"command": C, "files": {"a.csv": [{"col": value, ...}, ...]}, "skipped":
 * {"b.csv": "why"}}. A field that is a JSON number is written as the CSV's own text (so the JSON
 * holds exactly the CSV's digits), an empty field as null, any other field as a string. A CSV larger
 * than max_csv_bytes, or one whose rows do not match its header, is named under "skipped" instead.
 * The CSVs are read back from disk a line at a time: memory does not grow with their size. */
enum { NNT_RESULTS_MAX_CSV = 8 << 20 }; /* a results.json is about 5 times its CSVs */
int nnt_results_write(const char *command, long max_csv_bytes);
/* Forgets the files committed so far without writing results.json (a run that failed). */
void nnt_results_forget(void);

/* run.json: the command line, the configuration object (ownership passes to the call), seed,
 * threads, nnt version, git commit, wall time in seconds. */
int nnt_runinfo_write(const char *dir, const char *command, cJSON *config, unsigned long long seed,
                      int threads, double wall_s);
/* The same with the run's result summary under "result" (NULL: none; ownership passes too). */
int nnt_runinfo_write_result(const char *dir, const char *command, cJSON *config, cJSON *result, unsigned long long seed,
                             int threads, double wall_s);
/* A function that adds to every run.json before it is written (the CLI records its options there);
 * NULL removes it. */
void nnt_runinfo_hook(void (*add)(const char *dir, cJSON *run));

/* Standard output as a result channel: nnt_stdout_begin makes it line-buffered when it is not a
 * terminal (a log or a pipe sees each line as it is printed); nnt_stdout_end flushes and closes it
 * and returns NNT_EIO, "cannot write standard output: REASON", when any write to it failed (a full
 * disk, /dev/full, a closed pipe with SIGPIPE ignored). */
void nnt_stdout_begin(void);
int nnt_stdout_end(void);

const char *nnt_version(void);
const char *nnt_git_commit(void);
const char *nnt_build_type(void); /* CMAKE_BUILD_TYPE of this build: Release, Debug, ... */

#endif
