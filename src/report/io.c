#include "nnt_io.h"

#include <stdarg.h>

#include "nnt_cpu.h"
#include "nnt_error.h"

const char *nnt_version(void) { return NNT_VERSION; }
const char *nnt_git_commit(void) { return NNT_GIT_COMMIT; }
const char *nnt_build_type(void) { return NNT_BUILD_TYPE; }

int nnt_csv_open(nnt_csv *c, const char *dir, const char *name, const char *header) {
  char path[1024];
  int st = nnt_afile_open(&c->a, nnt_path(path, sizeof path, dir, name));
  if (st) return st;
  fprintf(c->a.f, "%s\n", header);
  c->rows = 0;
  return NNT_OK;
}

void nnt_csv_row(nnt_csv *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(c->a.f, fmt, ap);
  va_end(ap);
  fputc('\n', c->a.f);
  c->rows++;
}

int nnt_csv_close(nnt_csv *c) { return nnt_afile_commit(&c->a); }

int nnt_runinfo_write(const char *dir, const char *command, cJSON *config, unsigned long long seed,
                      int threads, double wall_s) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "command", command);
  cJSON_AddItemToObject(j, "config", config ? config : cJSON_CreateObject());
  cJSON_AddNumberToObject(j, "seed", (double)seed);
  cJSON_AddNumberToObject(j, "threads", threads);
  cJSON_AddStringToObject(j, "nnt_version", NNT_VERSION);
  cJSON_AddStringToObject(j, "git_commit", NNT_GIT_COMMIT);
  cJSON_AddStringToObject(j, "isa", nnt_cpu_isa_name(nnt_cpu_isa()));
  cJSON_AddStringToObject(j, "cpu_flags", nnt_cpu_flags());
  cJSON_AddNumberToObject(j, "wall_s", wall_s);
  char path[1024];
  int st = nnt_json_write(nnt_path(path, sizeof path, dir, "run.json"), j);
  cJSON_Delete(j);
  return st;
}
