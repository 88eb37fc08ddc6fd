/* The sweep engine: results independent of threads and order, stored points reused on resume and
 * never recomputed, NaN and 64-bit fields round-trip exactly, another sweep's database refused; a
 * sweep failing before its first point leaves no database; a second process on the folder is refused. */
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_rng.h"
#include "nnt_sweep.h"
#include "nnt_test.h"

typedef struct {
  int k;
  int64_t big;
  double x, nan_or_not;
} rec;

static const nnt_sweep_col cols[] = {NNT_SWEEP_INT(rec, k), NNT_SWEEP_I64(rec, big), NNT_SWEEP_DOUBLE(rec, x),
                                     NNT_SWEEP_DOUBLE(rec, nan_or_not)};

typedef struct {
  const uint64_t *ids;
  int calls[64];
  int fail_at; /* point index that fails (a crash stand-in), -1 for none */
  int slow_ms;  /* every point sleeps this long first (progress lines) */
} ctx;

static int point(void *c_, int i, void *r_) {
  ctx *c = c_;
  rec *r = r_;
  if (i == c->fail_at) return nnt_fail(NNT_ENUMERIC, "point %d fails", i);
  if (c->slow_ms) usleep((useconds_t)c->slow_ms * 1000);
#pragma omp atomic
  c->calls[i]++;
  nnt_rng g;
  nnt_rng_init(&g, 7, c->ids[i]);
  r->k = i;
  r->big = (int64_t)1 << 40 | (int64_t)c->ids[i];
  for (int t = 0; t < 1000; t++) r->x += nnt_rng_normal(&g);
  r->nan_or_not = i % 3 ? 1.0 / 3 : NAN;
  return NNT_OK;
}

static nnt_sweep make(uint64_t *ids, double *cost, int n, ctx *c, const char *dir, int resume, int threads) {
  for (int i = 0; i < n; i++) ids[i] = (uint64_t)(n - i) * 1024 + 3, cost[i] = i % 5;
  c->ids = ids;
  return (nnt_sweep){.name = "test", .config = "a=1 b=2", .npoints = n, .ids = ids, .cost = cost,
                     .rec_size = sizeof(rec), .cols = cols, .ncols = 4, .point = point, .ctx = c,
                     .threads = threads, .dir = dir, .resume = resume};
}

static int same(const rec *a, const rec *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i].k != b[i].k || a[i].big != b[i].big || memcmp(&a[i].x, &b[i].x, sizeof(double)) ||
        isnan(a[i].nan_or_not) != isnan(b[i].nan_or_not) || (!isnan(a[i].nan_or_not) && a[i].nan_or_not != b[i].nan_or_not))
      return 0;
  return 1;
}

/* A coded column: its names in the progress line and in the database's codes table. */
typedef struct {
  int kind;
  double v;
} coded_rec;
static const char *const kinds[] = {"alpha", "beta", NULL};
static const nnt_sweep_col coded_cols[] = {NNT_SWEEP_CODE(coded_rec, kind, kinds), NNT_SWEEP_DOUBLE(coded_rec, v)};
static int coded_point(void *c_, int i, void *r_) {
  (void)c_;
  coded_rec *r = r_;
  r->kind = i, r->v = 0.5 * i;
  return NNT_OK;
}

static void check_codes(void) {
  char dir[] = "/tmp/nnt_test_sweep_XXXXXX", log[] = "/tmp/nnt_test_sweep_log_XXXXXX", path[256];
  CHECK(mkdtemp(dir) != NULL);
  int fd = mkstemp(log);
  CHECK(fd >= 0);
  uint64_t ids[2] = {11, 12};
  coded_rec got[2];
  nnt_sweep s = {.name = "codes", .config = "c", .npoints = 2, .ids = ids, .rec_size = sizeof(coded_rec), .cols = coded_cols,
                 .ncols = 2, .nkeys = 1, .point = coded_point, .threads = 1, .progress = 1, .dir = dir};
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  int st = nnt_sweep_run(&s, got, NULL);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  CHECK(st == NNT_OK);
  char text[4096] = "";
  ssize_t len = pread(fd, text, sizeof text - 1, 0);
  text[len > 0 ? len : 0] = 0;
  close(fd);
  unlink(log);
  CHECK_MSG(strstr(text, "codes: kind=beta done in") && strstr(text, "codes: kind=alpha done in"), "no named label:\n%s", text);
  snprintf(path, sizeof path, "%s/results.sqlite", dir);
  sqlite3 *db;
  CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
  sqlite3_stmt *q;
  CHECK(sqlite3_prepare_v2(db, "SELECT p.v, c.name FROM points p JOIN codes c ON c.col = 'kind' AND c.code = p.kind ORDER BY p.v",
                           -1, &q, NULL) == SQLITE_OK);
  const char *want[] = {"alpha", "beta"};
  int rows = 0;
  while (sqlite3_step(q) == SQLITE_ROW) {
    CHECK(rows < 2 && !strcmp((const char *)sqlite3_column_text(q, 1), want[rows]));
    rows++;
  }
  CHECK(rows == 2);
  sqlite3_finalize(q);
  sqlite3_close(db);
  unlink(path);
  rmdir(dir);
}

int main(void) {
  check_codes();
  enum { n = 23 };
  uint64_t ids[n];
  double cost[n];
  rec ref[n], got[n];
  nnt_sweep_stats st;
  char dir[] = "/tmp/nnt_test_sweep_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);

  /* in memory, 1 thread: the reference */
  ctx c1 = {.fail_at = -1};
  nnt_sweep s = make(ids, cost, n, &c1, NULL, 0, 1);
  CHECK(nnt_sweep_run(&s, ref, &st) == NNT_OK);
  CHECK(st.computed == n && st.stored == 0);
  for (int i = 0; i < n; i++) CHECK(c1.calls[i] == 1 && ref[i].k == i);

  /* stored, 2 threads, and a failure midway: finished points are kept */
  ctx c2 = {.fail_at = 11};
  s = make(ids, cost, n, &c2, dir, 0, 2);
  nnt_fail(NNT_OK, "%s", ""); /* the failing point may run on a worker thread: its message arrives */
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_ENUMERIC);
  CHECK_MSG(strstr(nnt_errmsg(), "point 11 fails"), "message: '%s'", nnt_errmsg());
  int before = st.computed;
  CHECK(before < n);

  /* a folder with results refuses a fresh run unless forced or resumed */
  CHECK(nnt_sweep_prepare_dir(dir, 0, 0) == NNT_EINVAL);
  CHECK(nnt_sweep_prepare_dir(dir, 1, 0) == NNT_OK);

  /* resume: only the missing points are computed, and the records equal the reference */
  ctx c3 = {.fail_at = -1};
  s = make(ids, cost, n, &c3, dir, 1, 2);
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_OK);
  CHECK_MSG(st.stored == before && st.computed == n - before, "stored %d computed %d before %d", st.stored, st.computed, before);
  for (int i = 0; i < n; i++) CHECK(c2.calls[i] + c3.calls[i] == 1);
  CHECK(same(ref, got, n));

  /* a second resume computes nothing */
  ctx c4 = {.fail_at = -1};
  s = make(ids, cost, n, &c4, dir, 1, 1);
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_OK && st.computed == 0 && st.stored == n);
  CHECK(same(ref, got, n));

  /* another config in the same folder is refused before any work */
  ctx c5 = {.fail_at = -1};
  s = make(ids, cost, n, &c5, dir, 1, 1);
  s.config = "a=1 b=3";
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_EINVAL);
  int any = 0;
  for (int i = 0; i < n; i++) any += c5.calls[i];
  CHECK(any == 0);

  /* --force removes the database: everything is computed again */
  CHECK(nnt_sweep_prepare_dir(dir, 0, 1) == NNT_OK);
  ctx c6 = {.fail_at = -1};
  s = make(ids, cost, n, &c6, dir, 0, 2);
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_OK && st.computed == n);
  CHECK(same(ref, got, n));

  char path[256];
  unlink(nnt_sweep_db_path(path, sizeof path, dir));
  rmdir(dir);

  /* a caller's mistake (an id twice) is a status, not the end of the host process */
  {
    ctx cd = {.fail_at = -1};
    s = make(ids, cost, 3, &cd, NULL, 0, 1);
    uint64_t dup[3] = {5, 9, 5};
    s.ids = dup;
    CHECK(nnt_sweep_run(&s, got, &st) == NNT_EINVAL && strstr(nnt_errmsg(), "point id 5 given twice"));
    CHECK(cd.calls[0] + cd.calls[1] + cd.calls[2] == 0);
  }

  /* a sweep that fails before its first point is stored leaves no database: the same command runs
   * again without --resume or --force (the folder holds nothing) */
  char dir2[] = "/tmp/nnt_test_sweep_XXXXXX";
  CHECK(mkdtemp(dir2) != NULL);
  ctx c7 = {.fail_at = 0};
  s = make(ids, cost, 1, &c7, dir2, 0, 1);
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_ENUMERIC && st.computed == 0);
  CHECK_MSG(!nnt_file_exists(nnt_sweep_db_path(path, sizeof path, dir2)), "%s left behind", path);
  CHECK(nnt_sweep_prepare_dir(dir2, 0, 0) == NNT_OK);
  ctx c8 = {.fail_at = -1};
  s = make(ids, cost, 1, &c8, dir2, 0, 1);
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_OK && st.computed == 1 && nnt_file_exists(path));
  nnt_sweep_unlock_dir(dir2);

  /* two processes on one folder: while a child holds it, this process is refused at once, by the
   * folder policy as by the sweep itself, and nothing in the folder changes */
  int up[2], down[2];
  CHECK(pipe(up) == 0 && pipe(down) == 0);
  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) {
    char b = nnt_sweep_prepare_dir(dir2, 1, 0) == NNT_OK ? 'y' : 'n';
    if (write(up[1], &b, 1) != 1 || read(down[0], &b, 1) != 1) _exit(1);
    _exit(0);
  }
  char b = 0;
  CHECK(read(up[0], &b, 1) == 1 && b == 'y');
  struct stat before_st, after_st;
  CHECK(stat(path, &before_st) == 0);
  CHECK(nnt_sweep_prepare_dir(dir2, 1, 0) == NNT_EIO);
  CHECK_MSG(strstr(nnt_errmsg(), "is in use by another nnt process"), "message: '%s'", nnt_errmsg());
  CHECK(nnt_sweep_prepare_dir(dir2, 0, 1) == NNT_EIO && nnt_file_exists(path)); /* --force deletes nothing */
  ctx c9 = {.fail_at = -1};
  s = make(ids, cost, 1, &c9, dir2, 1, 1);
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_EIO && c9.calls[0] == 0);
  CHECK(stat(path, &after_st) == 0 && after_st.st_size == before_st.st_size && after_st.st_mtime == before_st.st_mtime);
  CHECK(write(down[1], &b, 1) == 1);
  int wst;
  CHECK(waitpid(child, &wst, 0) == child && WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
  CHECK(nnt_sweep_prepare_dir(dir2, 1, 0) == NNT_OK); /* released when the child ended */
  CHECK(nnt_sweep_run(&s, got, &st) == NNT_OK && st.stored == 1 && st.computed == 0);
  nnt_sweep_unlock_dir(dir2);
  unlink(path);
  rmdir(dir2);

  /* progress off a terminal (stderr into a file): a heartbeat line before the first point ends,
   * then one line per finished point, named by its parameters (the first nkeys fields), with the
   * time left */
  {
    char log[] = "/tmp/nnt_test_sweep_log_XXXXXX";
    int fd = mkstemp(log), saved = dup(2);
    CHECK(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    setenv("NNT_PROGRESS_HEARTBEAT_S", "1", 1);
    ctx cp = {.fail_at = -1, .slow_ms = 2600};
    s = make(ids, cost, 2, &cp, NULL, 0, 1);
    s.progress = 1, s.nkeys = 2;
    int rst = nnt_sweep_run(&s, got, &st);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    unsetenv("NNT_PROGRESS_HEARTBEAT_S");
    CHECK(rst == NNT_OK);
    char text[4096] = "";
    FILE *f = fopen(log, "r");
    CHECK(f != NULL);
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    unlink(log);
    close(fd);
    const char *beat = strstr(text, "test: still running after"), *first = strstr(text, " done in ");
    CHECK_MSG(beat && first && beat < first, "no heartbeat before the first point ended:\n%s", text);
    /* longest first: point 1 (cost 1) then point 0 (cost 0); k is the index, big 2^40 | id */
    char want[128];
    snprintf(want, sizeof want, "test: k=1 big=%lld done in ", (long long)((int64_t)1 << 40 | (int64_t)ids[1]));
    CHECK_MSG(strstr(text, want) && strstr(text, "(1/2 points, about "), "no labelled line '%s' with the time left:\n%s", want, text);
    CHECK_MSG(strstr(text, "k=0 big=") && strstr(text, "(2/2 points)"), "second point:\n%s", text);
  }
  TEST_MAIN_END();
}
