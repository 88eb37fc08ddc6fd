/* The sweep engine: points in parallel, longest first, each committed to SQLite as it finishes. */
#include "nnt_sweep.h"

#include <cblas.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_mpi.h"
#include "nnt_progress.h"

char *nnt_sweep_db_path(char *buf, size_t n, const char *dir) {
  snprintf(buf, n, "%s/results.sqlite", dir);
  return buf;
}

/* The folders this process holds locked: an exclusive flock on the folder itself (no lock file
 * that a later run would find), taken without waiting, so that a second process sweeping or resuming
 * into the same folder is refused at once instead of interleaving its writes. The kernel drops the
 * lock when the process ends, however it ends. */
#define MAX_LOCKS 16
static struct {
  dev_t dev;
  ino_t ino;
  int fd;
} held[MAX_LOCKS];
static int nheld;
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;

/* 1: locked now by this call; 0: this process held it already; or an error status (negated) */
static int dir_lock(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -nnt_fail(NNT_EIO, "%s: %s", dir, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) return close(fd), -nnt_fail(NNT_EIO, "%s: %s", dir, strerror(errno));
  int r;
  pthread_mutex_lock(&held_mu);
  int i = 0;
  while (i < nheld && !(held[i].dev == st.st_dev && held[i].ino == st.st_ino)) i++;
  if (i < nheld) r = 0, close(fd);
  else if (flock(fd, LOCK_EX | LOCK_NB) != 0)
    r = -nnt_fail(NNT_EIO, errno == EWOULDBLOCK ? "%s is in use by another nnt process (a run writing there); wait for it to end, or choose another --out"
                                                : "cannot lock %s: %s", dir, strerror(errno)),
    close(fd);
  else if (nheld == MAX_LOCKS) r = -nnt_fail(NNT_EIO, "cannot lock %s: more than %d folders locked", dir, MAX_LOCKS), close(fd);
  else held[nheld++] = (__typeof__(held[0])){st.st_dev, st.st_ino, fd}, r = 1;
  pthread_mutex_unlock(&held_mu);
  return r;
}

void nnt_sweep_unlock_dir(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0) return;
  pthread_mutex_lock(&held_mu);
  for (int i = 0; i < nheld; i++)
    if (held[i].dev == st.st_dev && held[i].ino == st.st_ino) {
      close(held[i].fd); /* closing the only descriptor releases the flock */
      held[i] = held[--nheld];
      break;
    }
  pthread_mutex_unlock(&held_mu);
}

int nnt_sweep_prepare_dir(const char *dir, int resume, int force) {
  if (nnt_mpi_rank()) return NNT_OK; /* rank 0 alone owns the folder: a late rank must not delete its database */
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? NNT_OK : nnt_fail(NNT_EIO, "%s: %s", dir, strerror(errno));
  int lk = dir_lock(dir); /* before anything is read or deleted; held until nnt_sweep_unlock_dir or exit */
  if (lk < 0) return closedir(d), -lk;
  int files = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) files++;
  closedir(d);
  if (!files || resume) return NNT_OK;
  if (!force)
    return nnt_fail(NNT_EINVAL, "%s already holds results: --resume continues that sweep, --force starts afresh", dir);
  char db[4096], side[4200];
  nnt_sweep_db_path(db, sizeof db, dir);
  const char *suffix[] = {"", "-journal", "-wal", "-shm"};
  for (int i = 0; i < 4; i++) {
    snprintf(side, sizeof side, "%s%s", db, suffix[i]);
    if (unlink(side) && errno != ENOENT) return nnt_fail(NNT_EIO, "%s: %s", side, strerror(errno));
  }
  return NNT_OK;
}

typedef struct {
  sqlite3 *db;
  sqlite3_stmt *insert;
  const char *path; /* DIR/results.sqlite, opened (created) when the first point is stored if absent */
} store;

static int db_fail(sqlite3 *db, const char *path, const char *what) {
  return nnt_fail(NNT_EIO, "%s: %s: %s", path, what, db ? sqlite3_errmsg(db) : "cannot open");
}

static int exec(sqlite3 *db, const char *path, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK) return NNT_OK;
  int st = nnt_fail(NNT_EIO, "%s: %s", path, err ? err : "SQL error");
  sqlite3_free(err);
  return st;
}

/* Reads meta[key] into buf ("" when absent). */
static int meta_get(sqlite3 *db, const char *key, char *buf, size_t n) {
  sqlite3_stmt *q;
  buf[0] = 0;
  if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &q, NULL) != SQLITE_OK) return NNT_EIO;
  sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step(q) == SQLITE_ROW) snprintf(buf, n, "%s", (const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  return NNT_OK;
}

/* Opens (creating if needed) the database and checks it holds this sweep. */
/* The names of the coded columns, table codes (col, code, name): the stored ints stay the record's. */
static int store_codes(sqlite3 *db, const nnt_sweep *s, const char *path) {
  int any = 0;
  for (int c = 0; c < s->ncols; c++) any |= s->cols[c].codes != NULL;
  if (!any) return NNT_OK;
  int st = exec(db, path, "CREATE TABLE IF NOT EXISTS codes (col TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL, "
                          "PRIMARY KEY (col, code))");
  sqlite3_stmt *q;
  if (!st && sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO codes VALUES (?, ?, ?)", -1, &q, NULL) != SQLITE_OK)
    st = db_fail(db, path, "codes");
  if (st) return st;
  for (int c = 0; c < s->ncols && !st; c++)
    for (int k = 0; s->cols[c].codes && s->cols[c].codes[k] && !st; k++) {
      sqlite3_reset(q);
      sqlite3_bind_text(q, 1, s->cols[c].name, -1, SQLITE_STATIC);
      sqlite3_bind_int(q, 2, k);
      sqlite3_bind_text(q, 3, s->cols[c].codes[k], -1, SQLITE_STATIC);
      if (sqlite3_step(q) != SQLITE_DONE) st = db_fail(db, path, "codes");
    }
  sqlite3_finalize(q);
  return st;
}

static int store_open(store *S, const nnt_sweep *s, const char *path) {
  memset(S, 0, sizeof *S);
  S->path = path;
  if (sqlite3_open_v2(path, &S->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    return db_fail(S->db, path, "cannot open");
  sqlite3_busy_timeout(S->db, 10000);
  int st = exec(S->db, path, "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  if (st) return st;
  char name[256], *config = nnt_xmalloc(65536);
  meta_get(S->db, "name", name, sizeof name);
  meta_get(S->db, "config", config, 65536);
  if (*name && (strcmp(name, s->name) || strcmp(config, s->config))) {
    st = nnt_fail(NNT_EINVAL, "%s holds another sweep (%s: %s); --force starts afresh", path, name, config);
    free(config);
    return st;
  }
  free(config);
  /* the points table: id, then one typed column per record field */
  size_t cap = 256 + 64 * (size_t)s->ncols, len = 0;
  char *sql = nnt_xmalloc(cap), *ins = nnt_xmalloc(cap);
  len += (size_t)snprintf(sql + len, cap - len, "CREATE TABLE IF NOT EXISTS points (id INTEGER PRIMARY KEY");
  size_t il = (size_t)snprintf(ins, cap, "INSERT INTO points VALUES (?");
  for (int c = 0; c < s->ncols; c++) {
    const char *type = s->cols[c].type == NNT_SWEEP_T_DOUBLE ? "REAL" : "INTEGER";
    len += (size_t)snprintf(sql + len, cap - len, ", \"%s\" %s", s->cols[c].name, type);
    il += (size_t)snprintf(ins + il, cap - il, ", ?");
  }
  snprintf(sql + len, cap - len, ")");
  snprintf(ins + il, cap - il, ")");
  st = exec(S->db, path, sql);
  if (!st && !*name) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(S->db, "INSERT INTO meta VALUES ('name', ?), ('config', ?)", -1, &q, NULL) != SQLITE_OK)
      st = db_fail(S->db, path, "meta");
    else {
      sqlite3_bind_text(q, 1, s->name, -1, SQLITE_STATIC);
      sqlite3_bind_text(q, 2, s->config, -1, SQLITE_STATIC);
      if (sqlite3_step(q) != SQLITE_DONE) st = db_fail(S->db, path, "meta");
      sqlite3_finalize(q);
    }
  }
  if (!st) st = store_codes(S->db, s, path);
  if (!st && sqlite3_prepare_v2(S->db, ins, -1, &S->insert, NULL) != SQLITE_OK)
    st = db_fail(S->db, path, "the points table does not match this sweep's record");
  free(sql), free(ins);
  return st;
}

static void store_close(store *S) {
  sqlite3_finalize(S->insert);
  sqlite3_close(S->db);
}

static int store_put(store *S, const nnt_sweep *s, uint64_t id, const void *rec) {
  sqlite3_stmt *q = S->insert;
  sqlite3_reset(q);
  sqlite3_bind_int64(q, 1, (sqlite3_int64)id);
  for (int c = 0; c < s->ncols; c++) {
    const char *f = (const char *)rec + s->cols[c].off;
    switch (s->cols[c].type) {
      case NNT_SWEEP_T_INT: sqlite3_bind_int(q, c + 2, *(const int *)f); break;
      case NNT_SWEEP_T_I64: sqlite3_bind_int64(q, c + 2, *(const int64_t *)f); break;
      case NNT_SWEEP_T_DOUBLE: {
        double v = *(const double *)f;
        if (isnan(v)) sqlite3_bind_null(q, c + 2); /* SQLite has no NaN */
        else sqlite3_bind_double(q, c + 2, v);
        break;
      }
    }
  }
  return sqlite3_step(q) == SQLITE_DONE ? NNT_OK : nnt_fail(NNT_EIO, "results.sqlite: %s", sqlite3_errmsg(S->db));
}

/* Fills recs from the stored rows whose id is a point of this sweep; done[i] = 1 for each. */
static int store_load(store *S, const nnt_sweep *s, const int *order_by_id, void *recs, unsigned char *done) {
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(S->db, "SELECT * FROM points", -1, &q, NULL) != SQLITE_OK) return NNT_EIO;
  int st = NNT_OK, rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    uint64_t id = (uint64_t)sqlite3_column_int64(q, 0);
    int lo = 0, hi = s->npoints - 1, i = -1; /* binary search over the ids in increasing order */
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
      uint64_t v = s->ids[order_by_id[mid]];
      if (v == id) {
        i = order_by_id[mid];
        break;
      }
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    if (i < 0) continue;
    char *rec = (char *)recs + (size_t)i * s->rec_size;
    memset(rec, 0, s->rec_size);
    for (int c = 0; c < s->ncols; c++) {
      char *f = rec + s->cols[c].off;
      switch (s->cols[c].type) {
        case NNT_SWEEP_T_INT: *(int *)f = sqlite3_column_int(q, c + 1); break;
        case NNT_SWEEP_T_I64: *(int64_t *)f = sqlite3_column_int64(q, c + 1); break;
        case NNT_SWEEP_T_DOUBLE:
          *(double *)f = sqlite3_column_type(q, c + 1) == SQLITE_NULL ? NAN : sqlite3_column_double(q, c + 1);
          break;
      }
    }
    done[i] = 1;
  }
  if (rc != SQLITE_DONE) st = nnt_fail(NNT_EIO, "results.sqlite: %s", sqlite3_errmsg(S->db));
  sqlite3_finalize(q);
  return st;
}

static const nnt_sweep *sort_sweep; /* qsort has no context argument */
static int by_id(const void *a, const void *b) {
  uint64_t x = sort_sweep->ids[*(const int *)a], y = sort_sweep->ids[*(const int *)b];
  return (x > y) - (x < y);
}
static int by_cost(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  double x = sort_sweep->cost[i], y = sort_sweep->cost[j];
  return x != y ? (x < y) - (x > y) : (i > j) - (i < j); /* largest first, ties by index */
}

/* Under MPI (nnt_mpi.h) the ranks share the points still to compute: rank r takes every size-th of
 * them in the longest-first order and runs its share on its own OpenMP team. Rank 0 alone owns the
 * database: the other ranks send each finished record (raw bytes, with its index) to rank 0, which
 * stores it as if computed locally, then an end message with their status. A point's result
 * depends only on its id, so the records, and what the command writes, are those of one process. */
enum { TAG_REC = 1, TAG_END = 2 };
typedef struct {
  int st;
  char msg[512];
} end_msg;

typedef struct {
  const nnt_sweep *s;
  store *S;
  void *recs;
  const long *units;
  nnt_progress *pr;
  nnt_sweep_stats *stats;
  int todo, ndone, failed, st, ends; /* ends: end messages received (rank 0) */
  char msg[512];                      /* the first failure's message (nnt_errmsg is per thread) */
} team;

static int code_count(const char *const *codes) {
  int n = 0;
  while (codes[n]) n++;
  return n;
}

/* "N=12 rep=3": the point's parameters, its first nkeys fields (its id when none are declared). */
static void point_label(const nnt_sweep *s, int i, const char *rec, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (int c = 0; c < s->nkeys && c < s->ncols && k < n; c++) {
    const char *f = rec + s->cols[c].off, *sep = c ? " " : "";
    switch (s->cols[c].type) {
      case NNT_SWEEP_T_INT:
        if (s->cols[c].codes && *(const int *)f >= 0 && code_count(s->cols[c].codes) > *(const int *)f)
          k += (size_t)snprintf(buf + k, n - k, "%s%s=%s", sep, s->cols[c].name, s->cols[c].codes[*(const int *)f]);
        else
          k += (size_t)snprintf(buf + k, n - k, "%s%s=%d", sep, s->cols[c].name, *(const int *)f);
        break;
      case NNT_SWEEP_T_I64:
        k += (size_t)snprintf(buf + k, n - k, "%s%s=%lld", sep, s->cols[c].name, (long long)*(const int64_t *)f);
        break;
      case NNT_SWEEP_T_DOUBLE: k += (size_t)snprintf(buf + k, n - k, "%s%s=%g", sep, s->cols[c].name, *(const double *)f); break;
    }
  }
  if (!buf[0]) snprintf(buf, n, "point %llu", (unsigned long long)s->ids[i]);
}

/* Rank 0: stores point i's record (already in recs); inside the critical section. */
static int commit(team *t, int i, double secs) {
  const nnt_sweep *s = t->s;
  int pst = NNT_OK;
  if (s->dir && !t->S->db) { /* the first point: the database is created with it */
    pst = store_open(t->S, s, t->S->path);
    if (!pst) pst = store_put(t->S, s, s->ids[i], (char *)t->recs + (size_t)i * s->rec_size);
    if (pst) {
      const char *path = t->S->path;
      if (t->S->db) store_close(t->S);
      memset(t->S, 0, sizeof *t->S);
      t->S->path = path;
      unlink(path); /* held by no point: a rerun starts afresh */
    }
  } else if (s->dir)
    pst = store_put(t->S, s, s->ids[i], (char *)t->recs + (size_t)i * s->rec_size);
  if (pst) return pst;
  t->stats->computed++;
  t->ndone++;
  if (s->progress) nnt_progress_add(t->pr, t->units[i]);
  if (s->progress && !t->pr->tty) {
    char what[200];
    point_label(s, i, (const char *)t->recs + (size_t)i * s->rec_size, what, sizeof what);
    double left = nnt_progress_eta(t->pr);
    if (t->ndone < t->todo)
      nnt_progress_line(t->pr, "%s done in %.1fs (%d/%d points, about %.0fs left)", what, secs, t->ndone, t->todo, left);
    else nnt_progress_line(t->pr, "%s done in %.1fs (%d/%d points)", what, secs, t->ndone, t->todo);
  }
  return NNT_OK;
}

/* On the thread that failed, inside the critical section: keeps its status and message. */
static void fail(team *t, int st) {
  if (st && !t->failed) t->failed = 1, t->st = st, snprintf(t->msg, sizeof t->msg, "%s", nnt_errmsg());
}

/* Rank 0: takes the messages waiting from the other ranks (all of them, blocking, when wait). */
static void drain(team *t, int wait) {
  const nnt_sweep *s = t->s;
  size_t len = sizeof(int) + sizeof(double) + s->rec_size;
  char *buf = NULL;
  for (;;) {
    int src, tag;
    size_t n;
    if (!nnt_mpi_poll(&src, &tag, &n)) {
      if (!wait || t->ends == nnt_mpi_size() - 1) break;
      usleep(1000); /* MPI's blocking receive would spin a core the workers need */
      continue;
    }
    if (tag == TAG_END) {
      end_msg e;
      nnt_mpi_recv(&e, sizeof e, src, TAG_END);
      t->ends++;
      if (e.st && !t->failed) fail(t, nnt_fail(e.st, "rank %d: %s", src, e.msg));
      continue;
    }
    if (tag != TAG_REC || n != len) { /* impossible: this engine alone sends on these tags, these sizes, within one job */
      fprintf(stderr, "nnt_sweep_run: unexpected message (tag %d, %zu bytes) from rank %d\n", tag, n, src);
      abort();
    }
    if (!buf) buf = nnt_xmalloc(len);
    nnt_mpi_recv(buf, len, src, TAG_REC);
    int i;
    double secs;
    memcpy(&i, buf, sizeof i);
    memcpy(&secs, buf + sizeof i, sizeof secs);
    memcpy((char *)t->recs + (size_t)i * s->rec_size, buf + sizeof i + sizeof secs, s->rec_size);
    fail(t, commit(t, i, secs));
  }
  free(buf);
}

/* One point. Out of memory in it fails the point, which ends the sweep (its thread unwinds to here,
 * inside the parallel region): the finished points stay stored and --resume continues. */
static int run_point(const nnt_sweep *s, int i, void *rec) {
  nnt_oom_point op;
  int st;
  nnt_oom_enter(&op);
  if (setjmp(op.env)) st = NNT_ENOMEM;
  else st = s->point(s->ctx, i, rec);
  nnt_oom_leave(&op);
  return st;
}

/* Computes this rank's share of the points order[0..todo). */
static int compute(const nnt_sweep *s, store *S, void *recs, const int *order, int todo, nnt_sweep_stats *stats) {
  int n = s->npoints, rank = nnt_mpi_rank(), size = nnt_mpi_size();
  /* progress in units of the cost estimate, so that the longest-first order does not inflate
   * the time left; this engine prints its own line per point off a terminal */
  long *units = nnt_xmalloc((size_t)n * sizeof *units), total_units = 0;
  double total_cost = 0;
  for (int k = 0; k < todo; k++) total_cost += s->cost ? s->cost[order[k]] : 1;
  for (int k = 0; k < todo; k++) {
    double c = s->cost ? s->cost[order[k]] : 1;
    units[order[k]] = total_cost > 0 ? lround(1e6 * c / total_cost) : 1;
    if (units[order[k]] < 1) units[order[k]] = 1;
    total_units += units[order[k]];
  }
  nnt_progress pr = {0};
  if (s->progress) nnt_progress_start(&pr, s->name, total_units);
  pr.lines = 0;
  team t = {.s = s, .S = S, .recs = recs, .units = units, .pr = &pr, .stats = stats, .todo = todo};
  int mine = rank < todo ? (todo - rank + size - 1) / size : 0;
  size_t len = sizeof(int) + sizeof(double) + s->rec_size;
  int threads = s->threads > 0 ? s->threads : nnt_threads_get();
  openblas_set_num_threads(1); /* parallel over points; each product single-threaded */
  /* the other ranks' message buffers, one per thread, allocated outside the region (a failed
   * allocation must unwind to the caller's recovery point, which a longjmp out of it could not) */
  char *msgs = rank ? nnt_xmalloc(len * (size_t)threads) : NULL;
#pragma omp parallel num_threads(threads)
  {
    char *msg = msgs ? msgs + len * (size_t)omp_get_thread_num() : NULL;
#pragma omp for schedule(dynamic, 1)
    for (int j = 0; j < mine; j++) {
      int i = order[rank + j * size], stop;
#pragma omp atomic read
      stop = t.failed;
      if (stop) continue;
      if (nnt_interrupted()) { /* the points finished so far are committed: --resume continues */
#pragma omp critical(nnt_sweep_store)
        fail(&t, nnt_fail(NNT_EINTR, "interrupted: the finished points are stored; --resume continues the sweep"));
        continue;
      }
      void *rec = (char *)recs + (size_t)i * s->rec_size;
      double tp = nnt_now();
      int pst = run_point(s, i, rec);
      double secs = nnt_now() - tp;
#pragma omp critical(nnt_sweep_store)
      {
        if (pst) fail(&t, pst);
        else if (rank == 0) {
          fail(&t, commit(&t, i, secs));
          if (size > 1) drain(&t, 0);
        } else {
          memcpy(msg, &i, sizeof i);
          memcpy(msg + sizeof i, &secs, sizeof secs);
          memcpy(msg + sizeof i + sizeof secs, rec, s->rec_size);
          nnt_mpi_send(msg, len, 0, TAG_REC);
        }
      }
    }
  }
  free(msgs);
  openblas_set_num_threads(nnt_threads_get());
  if (t.st && *t.msg) nnt_fail(t.st, "%s", t.msg); /* the worker's message, on the calling thread */
  if (rank) {
    end_msg e = {.st = t.st};
    if (t.st) snprintf(e.msg, sizeof e.msg, "%s", nnt_errmsg());
    nnt_mpi_send(&e, sizeof e, 0, TAG_END);
  } else if (size > 1)
    drain(&t, 1);
  if (s->progress) nnt_progress_end(&pr);
  free(units);
  return t.st;
}

int nnt_sweep_run(const nnt_sweep *s, void *recs, nnt_sweep_stats *stats) {
  double t0 = nnt_now();
  int n = s->npoints, st = NNT_OK, rank = nnt_mpi_rank(), size = nnt_mpi_size();
  nnt_sweep_stats tmp;
  if (!stats) stats = &tmp;
  memset(stats, 0, sizeof *stats);
  memset(recs, 0, (size_t)n * s->rec_size);
  int *order = nnt_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
  unsigned char *done = nnt_xcalloc((size_t)(n ? n : 1), 1);
  for (int i = 0; i < n; i++) order[i] = i;
#pragma omp critical(nnt_sweep_sort)
  {
    sort_sweep = s;
    qsort(order, (size_t)n, sizeof *order, by_id);
  }
  for (int k = 1; k < n; k++)
    if (s->ids[order[k]] == s->ids[order[k - 1]]) { /* a caller's mistake: reported, not fatal */
      unsigned long long id = (unsigned long long)s->ids[order[k]];
      free(order), free(done);
      return nnt_fail(NNT_EINVAL, "sweep %s: point id %llu given twice", s->name, id);
    }
  store S = {0};
  char path[4096] = "";
  int locked = 0;
  if (s->dir && rank == 0) {
    nnt_sweep_db_path(path, sizeof path, s->dir);
    S.path = path;
    st = nnt_mkdirs(s->dir);
    if (!st) {
      int lk = dir_lock(s->dir);
      if (lk < 0) st = -lk;
      else locked = lk;
    }
    /* an absent database is created with the first stored point (commit): a sweep refused or
     * failing before that leaves none behind, so the same command can simply run again */
    if (!st && nnt_file_exists(path)) {
      st = store_open(&S, s, path);
      if (!st && s->resume) st = store_load(&S, s, order, recs, done);
      else if (!st) st = exec(S.db, path, "DELETE FROM points");
    }
  }
  /* the points still to compute, longest first */
  int todo = 0;
  for (int i = 0; i < n; i++)
    if (!done[i]) order[todo++] = i;
  if (!st && s->cost)
#pragma omp critical(nnt_sweep_sort)
  {
    sort_sweep = s;
    qsort(order, (size_t)todo, sizeof *order, by_cost);
  }
  nnt_sweep s1 = *s;
  s1.progress = s->progress && rank == 0;
  end_msg e = {.st = st};
  if (size > 1) { /* rank 0's verdict on the database and the points it holds */
    if (st) snprintf(e.msg, sizeof e.msg, "%s", nnt_errmsg());
    nnt_mpi_bcast(&e, sizeof e);
    if (e.st && rank) st = nnt_fail(e.st, "%s", e.msg);
    if (!st) {
      nnt_mpi_bcast(&todo, sizeof todo);
      nnt_mpi_bcast(order, sizeof *order * (size_t)todo);
    }
  }
  stats->stored = n - todo;
  if (!st && s1.progress && stats->stored)
    fprintf(stderr, "%s: resuming, %d of %d points stored, computing %d\n", s->name, stats->stored, n, todo);
  if (!st && todo) st = compute(&s1, &S, recs, order, todo, stats);
  /* what is reported is what is stored: read every record back */
  if (!st && s->dir && rank == 0 && S.db) {
    memset(done, 0, (size_t)n);
    for (int i = 0; i < n; i++) order[i] = i;
#pragma omp critical(nnt_sweep_sort)
    {
      sort_sweep = s;
      qsort(order, (size_t)n, sizeof *order, by_id);
    }
    st = store_load(&S, s, order, recs, done);
    for (int i = 0; i < n && !st; i++)
      if (!done[i]) st = nnt_fail(NNT_EIO, "%s: point %llu missing after the sweep", path, (unsigned long long)s->ids[i]);
  }
  if (s->dir && S.db) store_close(&S);
  if (locked) nnt_sweep_unlock_dir(s->dir);
  if (size > 1 && !e.st) { /* every rank ends with rank 0's status and records */
    int computed = stats->computed;
    if (rank == 0) e.st = st, snprintf(e.msg, sizeof e.msg, "%s", st ? nnt_errmsg() : "");
    nnt_mpi_bcast(&e, sizeof e);
    nnt_mpi_bcast(&computed, sizeof computed);
    if (!e.st) nnt_mpi_bcast(recs, (size_t)n * s->rec_size);
    else if (rank) st = nnt_fail(e.st, "%s", e.msg);
    stats->computed = computed;
  }
  free(order), free(done);
  stats->wall_s = nnt_now() - t0;
  return st;
}
