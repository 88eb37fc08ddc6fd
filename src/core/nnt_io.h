/* nnt_io.h — result files: output folders, atomic writes, CSV tables, run.json.
 *
 * Every file nnt writes goes through nnt_afile: written to "<path>.<pid>.tmp" and renamed into place on
 * commit, so an interrupted run never leaves a half-written result behind.
 */
#ifndef NNT_IO_H
#define NNT_IO_H
#include <stdio.h>
#include <cjson/cJSON.h>

/* mkdir -p; NNT_EIO with a message on failure. */
int nnt_mkdirs(const char *dir);
/* Joins dir and name into buf (returns buf). */
char *nnt_path(char *buf, size_t n, const char *dir, const char *name);
int nnt_file_exists(const char *path);

typedef struct {
  FILE *f;
  char path[1024];
  char tmp[1040];
} nnt_afile;

int nnt_afile_open(nnt_afile *a, const char *path);
int nnt_afile_commit(nnt_afile *a); /* flush, close, rename; NNT_EIO on failure */
void nnt_afile_abort(nnt_afile *a); /* close and delete the temporary */

/* A CSV table: header given once, then rows of printf-formatted fields. */
typedef struct {
  nnt_afile a;
  int rows;
} nnt_csv;

int nnt_csv_open(nnt_csv *c, const char *dir, const char *name, const char *header);
void nnt_csv_row(nnt_csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int nnt_csv_close(nnt_csv *c);

/* Writes cJSON to a file atomically (pretty-printed). */
int nnt_json_write(const char *path, const cJSON *json);
/* Reads and parses a JSON file; NNT_EFORMAT with "file: ..." on a parse error. */
int nnt_json_read(const char *path, cJSON **out);

/* run.json: the command line, the configuration object (ownership passes to the call), seed,
 * threads, nnt version, git commit, wall time in seconds. */
int nnt_runinfo_write(const char *dir, const char *command, cJSON *config, unsigned long long seed,
                      int threads, double wall_s);

const char *nnt_version(void);
const char *nnt_git_commit(void);

#endif
