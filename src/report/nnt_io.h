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

int nnt_csv_open(nnt_csv *c, const char *dir, const char *name, const char *header);
void nnt_csv_row(nnt_csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int nnt_csv_close(nnt_csv *c);

/* run.json: the command line, the configuration object (ownership passes to the call), seed,
 * threads, nnt version, git commit, wall time in seconds. */
int nnt_runinfo_write(const char *dir, const char *command, cJSON *config, unsigned long long seed,
                      int threads, double wall_s);

const char *nnt_version(void);
const char *nnt_git_commit(void);
const char *nnt_build_type(void); /* CMAKE_BUILD_TYPE of this build: Release, Debug, ... */

#endif
