#include "nnt_file.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_mpi.h"

void nnt_remove_tree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb)) return;
  if (S_ISDIR(sb.st_mode)) { /* links are removed, never followed */
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
      char sub[4096];
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) nnt_remove_tree(nnt_path(sub, sizeof sub, path, e->d_name));
    }
    if (d) closedir(d);
    rmdir(path);
  } else unlink(path);
}

int nnt_mkdirs(const char *dir) {
  if (nnt_mpi_rank()) return NNT_OK; /* rank 0 alone writes (nnt_mpi.h) */
  char buf[1024];
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) return nnt_fail(NNT_EIO, "path too long: %s", dir);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == 0) {
      char c = *p;
      *p = 0;
      if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return nnt_fail(NNT_EIO, "cannot create directory %s: %s", buf, strerror(errno));
      *p = c;
      if (!c) break;
    }
  }
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return nnt_fail(NNT_EIO, "%s is not a directory", dir);
  return NNT_OK;
}

char *nnt_path(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
  return buf;
}

int nnt_file_exists(const char *path) { return access(path, F_OK) == 0; }

int nnt_file_open_read(const char *path, FILE **f) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return nnt_fail(NNT_EIO, "%s is a directory, not a file", path);
  *f = fopen(path, "rb");
  if (!*f) return nnt_fail(NNT_EIO, "cannot read %s: %s", path, strerror(errno));
  return NNT_OK;
}

int nnt_file_read(const char *path, size_t max, char **buf, size_t *len) {
  FILE *f;
  *buf = NULL;
  int st = nnt_file_open_read(path, &f);
  if (st) return st;
  size_t cap = 1 << 16, n = 0, k;
  char *b = nnt_xmalloc(cap);
  while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (n > max) break;
    if (n + 1 == cap) b = nnt_xrealloc(b, cap *= 2);
  }
  int err = ferror(f);
  fclose(f);
  if (err || n > max) {
    free(b);
    return err ? nnt_fail(NNT_EIO, "cannot read %s: read error", path)
               : nnt_fail(NNT_EIO, "%s is larger than %zu bytes", path, max);
  }
  b[n] = 0;
  *buf = b;
  if (len) *len = n;
  return NNT_OK;
}

/* The temporaries being written, so that nnt_afile_unlink_open can delete them when the process
 * must end at once (nnt_oom): a fixed set of slots and atomics only, since that may happen on any
 * thread in the middle of anything. A write beyond the slots is simply not tracked. */
#define OPEN_TMPS 64
static _Atomic(const char *) open_tmps[OPEN_TMPS];
static _Atomic int tmp_owner[OPEN_TMPS]; /* the writing thread's number (thread_number) */
static _Atomic int threads_seen;
static _Thread_local int my_number;

static int thread_number(void) {
  if (!my_number) my_number = atomic_fetch_add(&threads_seen, 1) + 1;
  return my_number;
}

static void tmp_track(const char *tmp) {
  for (int i = 0; i < OPEN_TMPS; i++) {
    const char *none = NULL;
    if (atomic_compare_exchange_strong(&open_tmps[i], &none, tmp)) {
      atomic_store(&tmp_owner[i], thread_number());
      return;
    }
  }
}
static void tmp_untrack(const char *tmp) {
  for (int i = 0; i < OPEN_TMPS; i++) {
    const char *mine = tmp;
    if (atomic_compare_exchange_strong(&open_tmps[i], &mine, NULL)) return;
  }
}
void nnt_afile_unlink_open(void) {
  for (int i = 0; i < OPEN_TMPS; i++) {
    const char *t = atomic_load(&open_tmps[i]);
    if (t) unlink(t);
  }
}
void nnt_afile_drop_mine(void) {
  for (int i = 0; i < OPEN_TMPS; i++) {
    const char *t = atomic_load(&open_tmps[i]);
    if (t && atomic_load(&tmp_owner[i]) == thread_number() && atomic_compare_exchange_strong(&open_tmps[i], &t, NULL))
      unlink(t);
  }
}

static const char *kind_name(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int nnt_file_target(const char *path, char *real, size_t n, int *inplace) {
  struct stat ls, st;
  *inplace = 0;
  if (lstat(path, &ls) != 0) {
    if (errno != ENOENT) return nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
    if (snprintf(real, n, "%s", path) >= (int)n) return nnt_fail(NNT_EIO, "path too long: %s", path);
    return NNT_OK; /* a new name */
  }
  st = ls;
  if (S_ISLNK(ls.st_mode) && stat(path, &st) != 0)
    return nnt_fail(NNT_EIO, "cannot write %s: it is a symbolic link to %s (%s)", path,
                    errno == ENOENT ? "a missing file" : "something unreadable", strerror(errno));
  if (S_ISREG(st.st_mode)) {
    /* a link is followed: its target is replaced, next to itself, and the link stays */
    if (!S_ISLNK(ls.st_mode)) return snprintf(real, n, "%s", path) >= (int)n ? nnt_fail(NNT_EIO, "path too long: %s", path) : NNT_OK;
    char buf[PATH_MAX];
    if (!realpath(path, buf)) return nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
    if (snprintf(real, n, "%s", buf) >= (int)n) return nnt_fail(NNT_EIO, "path too long: %s", buf);
    return NNT_OK;
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) { /* /dev/null, a terminal, a pipe: written in place */
    if (snprintf(real, n, "%s", path) >= (int)n) return nnt_fail(NNT_EIO, "path too long: %s", path);
    *inplace = 1;
    return NNT_OK;
  }
  return nnt_fail(NNT_EIO, "cannot write %s: it is %s, which nnt does not replace", path, kind_name(st.st_mode));
}

/* A character device or FIFO, opened for writing without truncating or blocking: a FIFO nobody
 * reads is refused (ENXIO) rather than waited on. */
static FILE *open_inplace(const char *path) {
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "w");
  if (!f) close(fd);
  return f;
}

int nnt_afile_open(nnt_afile *a, const char *path) {
  a->f = NULL;
  a->tmp[0] = 0;
  a->inplace = 0;
  if (nnt_mpi_rank()) { /* rank 0 alone writes (nnt_mpi.h): the others write nowhere */
    snprintf(a->path, sizeof a->path, "%s", path);
    a->f = fopen("/dev/null", "w");
    return a->f ? NNT_OK : nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
  }
  int st = nnt_file_target(path, a->path, sizeof a->path, &a->inplace);
  if (st) return st;
  if (a->inplace) {
    a->f = open_inplace(a->path);
    if (!a->f)
      return nnt_fail(NNT_EIO, "cannot write %s: %s", path, errno == ENXIO ? "a FIFO that no process reads" : strerror(errno));
    return NNT_OK;
  }
  snprintf(a->tmp, sizeof a->tmp, "%s.%ld.tmp", a->path, (long)getpid());
  a->f = fopen(a->tmp, "w");
  if (!a->f) return a->tmp[0] = 0, nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
  struct stat old; /* a replaced file keeps its permissions */
  if (stat(a->path, &old) == 0) fchmod(fileno(a->f), old.st_mode & 07777);
  tmp_track(a->tmp);
  return NNT_OK;
}

/* A write that failed earlier (disk full: ENOSPC; RLIMIT_FSIZE: EFBIG) leaves the stream's error
 * flag set, and the flush of the last buffer or fclose reports one still pending: either way the
 * temporary is deleted and the previous file at path stays as it was. */
int nnt_afile_commit(nnt_afile *a) {
  errno = 0;
  int err = fflush(a->f) != 0 || ferror(a->f) ? (errno ? errno : EIO) : 0;
  if (fclose(a->f) != 0 && !err) err = errno ? errno : EIO;
  a->f = NULL;
  if (a->inplace) return err ? nnt_fail(NNT_EIO, "cannot write %s: %s", a->path, strerror(err)) : NNT_OK;
  if (!*a->tmp) return NNT_OK; /* a rank other than 0 wrote nowhere */
  tmp_untrack(a->tmp);
  if (!err && rename(a->tmp, a->path) != 0) err = errno;
  if (err) {
    unlink(a->tmp);
    return nnt_fail(NNT_EIO, "cannot write %s: %s (the previous file, if any, is unchanged)", a->path, strerror(err));
  }
  return NNT_OK;
}

void nnt_afile_abort(nnt_afile *a) {
  if (a->f) fclose(a->f);
  a->f = NULL;
  if (*a->tmp) tmp_untrack(a->tmp), unlink(a->tmp);
}

int nnt_json_write(const char *path, const cJSON *json) {
  char *s = cJSON_Print(json);
  if (!s) return nnt_fail(NNT_EIO, "cannot serialise JSON for %s", path);
  nnt_afile a;
  int st = nnt_afile_open(&a, path);
  if (!st) {
    fputs(s, a.f);
    fputc('\n', a.f);
    st = nnt_afile_commit(&a);
  }
  cJSON_free(s);
  return st;
}

/* The first number in j that is not finite (a JSON text can only spell one by overflowing, as
 * 1e400), its field path written into buf ("layers[0].W[2][1]"); 1 when found. */
static int find_nonfinite(const cJSON *j, char *buf, size_t n, size_t len, double *x) {
  if (cJSON_IsNumber(j)) return !isfinite(*x = j->valuedouble);
  int i = 0;
  for (const cJSON *e = j->child; e; e = e->next, i++) {
    size_t k = len;
    if (len < n) k += (size_t)(cJSON_IsArray(j) ? snprintf(buf + len, n - len, "[%d]", i)
                                                : snprintf(buf + len, n - len, len ? ".%s" : "%s", e->string ? e->string : "?"));
    if (find_nonfinite(e, buf, n, k < n ? k : n, x)) return 1;
    if (len < n) buf[len] = 0;
  }
  return 0;
}

int nnt_json_check_finite(const char *path, const cJSON *json) {
  char field[256] = "";
  double x;
  if (!find_nonfinite(json, field, sizeof field, 0, &x)) return NNT_OK;
  return nnt_fail(NNT_EFORMAT, "%s: field %s is not a finite number (it reads as %s)", path,
                  *field ? field : "(the whole text)", isnan(x) ? "NaN" : x > 0 ? "+Inf" : "-Inf");
}

int nnt_json_read(const char *path, cJSON **out) {
  *out = NULL;
  char *buf;
  int st = nnt_file_read(path, (size_t)1 << 30, &buf, NULL);
  if (st) return st;
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithOpts(buf, &end, 1);
  if (!j) {
    int line = 1;
    for (const char *p = buf; end && p < end; p++) line += *p == '\n';
    free(buf);
    return nnt_fail(NNT_EFORMAT, "%s:%d: malformed JSON", path, line);
  }
  free(buf);
  st = nnt_json_check_finite(path, j);
  if (st) return cJSON_Delete(j), st;
  *out = j;
  return NNT_OK;
}
