#include "nnt_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_git_commit.h" /* generated at build time: NNT_GIT_COMMIT */
#include "nnt_mpi.h"

const char *nnt_version(void) { return NNT_VERSION; }
const char *nnt_git_commit(void) { return NNT_GIT_COMMIT; }
const char *nnt_build_type(void) { return NNT_BUILD_TYPE; }

int nnt_csv_open(nnt_csv *c, const char *dir, const char *name, const char *header) {
  c->rows = 0;
  c->a.f = NULL;
  if (!dir) return NNT_OK; /* no --out: the rows go nowhere (the console report is the writer's) */
  char path[1024];
  int st = nnt_afile_open(&c->a, nnt_path(path, sizeof path, dir, name));
  if (st) return st;
  fprintf(c->a.f, "%s\n", header);
  c->rows = 0;
  return NNT_OK;
}

void nnt_csv_row(nnt_csv *c, const char *fmt, ...) {
  if (!c->a.f) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(c->a.f, fmt, ap);
  va_end(ap);
  fputc('\n', c->a.f);
  c->rows++;
}

/* The CSVs committed since the last nnt_results_write (the CLI writes them from its main thread). */
static struct {
  char **paths;
  int n, cap;
} committed;

static void remember(const char *path) {
  for (int i = 0; i < committed.n; i++)
    if (!strcmp(committed.paths[i], path)) return; /* written again: the file is read back at the end */
  if (committed.n == committed.cap) {
    committed.cap = committed.cap ? 2 * committed.cap : 16;
    committed.paths = nnt_xrealloc(committed.paths, (size_t)committed.cap * sizeof *committed.paths);
  }
  committed.paths[committed.n++] = nnt_xstrdup(path);
}

int nnt_csv_close(nnt_csv *c) {
  if (!c->a.f) return NNT_OK;
  char path[sizeof c->a.path];
  memcpy(path, c->a.path, sizeof path);
  int st = nnt_afile_commit(&c->a);
  if (!st) remember(path);
  return st;
}

/* ---------------------------------------------------------------- results.json */

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

/* Is s a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char *s) {
  if (*s == '-') s++;
  if (*s == '0') s++;
  else if (*s >= '1' && *s <= '9') while (*s >= '0' && *s <= '9') s++;
  else return 0;
  if (*s == '.') {
    if (!(*++s >= '0' && *s <= '9')) return 0;
    while (*s >= '0' && *s <= '9') s++;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!(*s >= '0' && *s <= '9')) return 0;
    while (*s >= '0' && *s <= '9') s++;
  }
  return !*s;
}

/* One CSV record (RFC 4180: a quoted field may hold commas, "" and line breaks) split in place
 * into fields; reads further lines while a quote is open. -1 at the end of the file, 0 on an
 * unterminated quote, else the number of fields. */
typedef struct {
  char *line;
  size_t cap;
  char **field;
  int nfield, fcap;
} csv_reader;

static int csv_record(FILE *in, csv_reader *r) {
  ssize_t len = getline(&r->line, &r->cap, in);
  if (len < 0) return -1;
  for (;;) { /* an open quote continues on the next line */
    int q = 0;
    for (char *p = r->line; *p; p++) q ^= *p == '"';
    if (!q) break;
    char *more = NULL;
    size_t mcap = 0;
    ssize_t mlen = getline(&more, &mcap, in);
    if (mlen < 0) return free(more), 0;
    r->line = nnt_xrealloc(r->line, (size_t)len + (size_t)mlen + 1);
    r->cap = (size_t)len + (size_t)mlen + 1;
    memcpy(r->line + len, more, (size_t)mlen + 1);
    len += mlen;
    free(more);
  }
  if (len && r->line[len - 1] == '\n') r->line[--len] = 0;
  if (len && r->line[len - 1] == '\r') r->line[--len] = 0;
  r->nfield = 0;
  char *src = r->line, *dst = r->line;
  for (;;) {
    if (r->nfield == r->fcap) {
      r->fcap = r->fcap ? 2 * r->fcap : 16;
      r->field = nnt_xrealloc(r->field, (size_t)r->fcap * sizeof *r->field);
    }
    r->field[r->nfield++] = dst;
    int quoted = *src == '"';
    if (quoted) src++;
    for (;; src++) {
      if (quoted && *src == '"' && src[1] == '"') *dst++ = *src++;
      else if (quoted && *src == '"') quoted = 0;
      else if (!quoted && (*src == ',' || !*src)) break;
      else *dst++ = *src;
    }
    int end = !*src;
    *dst++ = 0;
    src++;
    if (end) break;
  }
  return r->nfield;
}

/* Writes the rows of the CSV at path as a JSON array of objects into out, or with out NULL only
 * checks that every row has as many fields as the header (the note says which does not). */
static int csv_json(const char *path, FILE *out, char *note, size_t nn) {
  FILE *in;
  if (nnt_file_open_read(path, &in)) return snprintf(note, nn, "cannot be read back"), 1;
  csv_reader hdr = {0}, row = {0};
  int ncol = csv_record(in, &hdr), bad = ncol <= 0, nrow = 0, k;
  if (bad) snprintf(note, nn, "no header row");
  if (out) fputc('[', out);
  while (!bad && (k = csv_record(in, &row)) != -1) {
    nrow++;
    if (k != ncol) {
      bad = 1;
      snprintf(note, nn, "row %d has %d fields, the header %d", nrow, k, ncol);
      break;
    }
    if (!out) continue;
    fprintf(out, "%s\n      {", nrow > 1 ? "," : "");
    for (int i = 0; i < ncol; i++) {
      fputs(i ? ", " : "", out);
      json_string(out, hdr.field[i]);
      fputs(": ", out);
      if (!*row.field[i]) fputs("null", out);
      else if (json_number(row.field[i])) fputs(row.field[i], out);
      else json_string(out, row.field[i]);
    }
    fputc('}', out);
  }
  if (out) fputs(nrow ? "\n    ]" : "]", out);
  fclose(in);
  free(hdr.line), free(hdr.field), free(row.line), free(row.field);
  return bad;
}

/* The length of the folder part of a committed path ("dir/name.csv"). */
static size_t dir_len(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? (size_t)(slash - path) : 0;
}

static int same_dir(const char *p, const char *q) { return dir_len(p) == dir_len(q) && !strncmp(p, q, dir_len(p)); }

/* results.json beside the committed CSV committed.paths[first] and those in the same folder. */
static int results_dir(int first, const char *command, long max_bytes) {
  int n = committed.n, *state = nnt_xcalloc((size_t)n, sizeof *state); /* 1: in the JSON, 2: skipped */
  char (*note)[200] = nnt_xcalloc((size_t)n, sizeof *note);
  for (int i = first; i < n; i++) {
    const char *p = committed.paths[i];
    struct stat sb;
    if (!same_dir(p, committed.paths[first])) continue;
    state[i] = 2;
    if (stat(p, &sb)) snprintf(note[i], sizeof note[i], "removed before the end of the run");
    else if (sb.st_size > max_bytes)
      snprintf(note[i], sizeof note[i], "%lld bytes, over the %ld that results.json takes: read the CSV itself",
               (long long)sb.st_size, max_bytes);
    else state[i] = 1 + csv_json(p, NULL, note[i], sizeof note[i]);
  }
  char path[1024], dir[1024];
  snprintf(dir, sizeof dir, "%.*s", (int)dir_len(committed.paths[first]), committed.paths[first]);
  nnt_afile a;
  int st = nnt_afile_open(&a, nnt_path(path, sizeof path, dir, "results.json"));
  if (!st) {
    fputs("{\n  \"command\": ", a.f);
    json_string(a.f, command);
    const char *sep = "";
    fputs(",\n  \"files\": {", a.f);
    for (int i = first; i < n; i++)
      if (state[i] == 1) {
        fprintf(a.f, "%s\n    ", sep), sep = ",";
        json_string(a.f, committed.paths[i] + dir_len(committed.paths[i]) + 1);
        fputs(": ", a.f);
        csv_json(committed.paths[i], a.f, note[i], sizeof note[i]);
      }
    fprintf(a.f, "%s},\n  \"skipped\": {", *sep ? "\n  " : ""), sep = "";
    for (int i = first; i < n; i++)
      if (state[i] == 2) {
        fprintf(a.f, "%s\n    ", sep), sep = ",";
        json_string(a.f, committed.paths[i] + dir_len(committed.paths[i]) + 1);
        fputs(": ", a.f);
        json_string(a.f, note[i]);
      }
    fprintf(a.f, "%s}\n}\n", *sep ? "\n  " : "");
    st = nnt_afile_commit(&a);
  }
  free(state);
  free(note);
  return st;
}

int nnt_results_write(const char *command, long max_csv_bytes) {
  int st = NNT_OK;
  for (int i = 0; i < committed.n && !st; i++) {
    int seen = 0; /* one results.json per folder, written when its first CSV comes up */
    for (int j = 0; j < i && !seen; j++) seen = same_dir(committed.paths[i], committed.paths[j]);
    if (!seen) st = results_dir(i, command, max_csv_bytes);
  }
  nnt_results_forget();
  return st;
}

void nnt_results_forget(void) {
  for (int i = 0; i < committed.n; i++) free(committed.paths[i]);
  free(committed.paths);
  committed.paths = NULL, committed.n = committed.cap = 0;
}

static void (*runinfo_add)(const char *dir, cJSON *run);
void nnt_runinfo_hook(void (*add)(const char *dir, cJSON *run)) { runinfo_add = add; }

int nnt_runinfo_write(const char *dir, const char *command, cJSON *config, unsigned long long seed,
                      int threads, double wall_s) {
  return nnt_runinfo_write_result(dir, command, config, NULL, seed, threads, wall_s);
}

int nnt_runinfo_write_result(const char *dir, const char *command, cJSON *config, cJSON *result, unsigned long long seed,
                             int threads, double wall_s) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "command", command);
  cJSON_AddItemToObject(j, "config", config ? config : cJSON_CreateObject());
  if (result) cJSON_AddItemToObject(j, "result", result);
  cJSON_AddNumberToObject(j, "seed", (double)seed);
  cJSON_AddNumberToObject(j, "threads", threads);
  if (nnt_mpi_size() > 1) cJSON_AddNumberToObject(j, "mpi_ranks", nnt_mpi_size()); /* threads is per rank */
  cJSON_AddStringToObject(j, "nnt_version", NNT_VERSION);
  cJSON_AddStringToObject(j, "git_commit", NNT_GIT_COMMIT);
  cJSON_AddStringToObject(j, "isa", nnt_cpu_isa_name(nnt_cpu_isa()));
  cJSON_AddStringToObject(j, "cpu_flags", nnt_cpu_flags());
  cJSON_AddNumberToObject(j, "wall_s", wall_s);
  if (runinfo_add) runinfo_add(dir, j);
  char path[1024];
  int st = nnt_json_write(nnt_path(path, sizeof path, dir, "run.json"), j);
  cJSON_Delete(j);
  return st;
}

void nnt_stdout_begin(void) {
  if (!isatty(STDOUT_FILENO)) setvbuf(stdout, NULL, _IOLBF, 0);
}

int nnt_stdout_end(void) {
  errno = 0;
  int bad = fflush(stdout) != 0 || ferror(stdout), err = errno;
  if (fclose(stdout) != 0 && !bad && errno != EBADF) bad = 1, err = errno; /* EBADF: closed, never written */
  if (!bad) return NNT_OK;
  /* a line-buffered write that failed earlier leaves the error flag but not its errno */
  return err ? nnt_fail(NNT_EIO, "cannot write standard output: %s", strerror(err))
             : nnt_fail(NNT_EIO, "cannot write standard output: a write to it failed");
}
