/* nnt_sweep.h — the sweep engine: many independent points, run in parallel, stored as they finish.
 *
 * A sweep is a list of points (a unique 64-bit id each) and a function that computes one point into
 * a plain result record. The point function draws its randomness from nnt_rng_init(seed, id) or
 * streams derived from the id, never from the thread or the order, so a result does not depend on
 * the thread count, the schedule or the MPI rank.
 *
 * Points run on an OpenMP team, longest first (by the caller's cost estimate), each single-threaded
 * (OpenBLAS at 1 thread inside the team): the engine owns that policy. With a folder, every
 * finished point is committed in its own transaction to DIR/results.sqlite (created with the first
 * point, so that a sweep refused or failing before it leaves no database; table `points`, one
 * column per declared record field, key `id`; table `meta` with the sweep's name and config text),
 * so a killed sweep loses at most the points in flight. `resume` keeps the stored points and
 * computes only the others; the records handed back are always read from the database, so a
 * resumed sweep reports exactly what an uninterrupted one does. Users can query the file with
 * SQL (sqlite3 DIR/results.sqlite) or pandas.read_sql.
 *
 * Under mpirun (a -DNNT_MPI=ON build, nnt_mpi.h) every rank calls nnt_sweep_run with the same
 * sweep; rank r computes every size-th point still to compute, longest first, and sends each record
 * (its raw bytes: plain data, no pointers) to rank 0, which alone opens the database and stores it.
 * Every rank returns rank 0's status and records, so the caller goes on as in one process.
 *
 *   typedef struct { int N, rep; double mse; } rec;
 *   static const nnt_sweep_col cols[] = {NNT_SWEEP_INT(rec, N), NNT_SWEEP_INT(rec, rep), NNT_SWEEP_DOUBLE(rec, mse)};
 *   nnt_sweep s = {.name = "demo", .config = "N=2..6 seed=1", .npoints = n, .ids = ids, .rec_size = sizeof(rec),
 *                  .cols = cols, .ncols = 3, .point = compute, .ctx = &cfg, .dir = out, .resume = resume};
 *   rec *recs = calloc(n, sizeof *recs);
 *   int st = nnt_sweep_run(&s, recs, &stats);
 */
#ifndef NNT_SWEEP_H
#define NNT_SWEEP_H
#include <stddef.h>
#include <stdint.h>

/* An experiment's preset: the one argument of every ..._cfg_default(). */
typedef enum { NNT_PRESET_FULL = 0, NNT_PRESET_QUICK = 1 } nnt_preset;

typedef enum { NNT_SWEEP_T_INT, NNT_SWEEP_T_I64, NNT_SWEEP_T_DOUBLE } nnt_sweep_type;
typedef struct {
  const char *name;    /* column name */
  nnt_sweep_type type; /* int; long, size_t or int64_t; double (NaN stored as NULL) */
  size_t off;          /* offset of the field in the record */
  const char *const *codes; /* an int column holding an index into these names (NULL-terminated):
                               progress lines show the name, and the database's table "codes"
                               (col, code, name) maps it (nnt.read_results gives names) */
} nnt_sweep_col;
#define NNT_SWEEP_INT(T, f) {#f, NNT_SWEEP_T_INT, offsetof(T, f), NULL}
#define NNT_SWEEP_I64(T, f) {#f, NNT_SWEEP_T_I64, offsetof(T, f), NULL}
#define NNT_SWEEP_DOUBLE(T, f) {#f, NNT_SWEEP_T_DOUBLE, offsetof(T, f), NULL}
/* An int field that is a code: names[code] is what it means. */
#define NNT_SWEEP_CODE(T, f, names) {#f, NNT_SWEEP_T_INT, offsetof(T, f), names}
/* A field under another column name (nested or array members). */
#define NNT_SWEEP_COL(name, type, T, f) {name, type, offsetof(T, f), NULL}

typedef struct {
  const char *name;           /* label for progress lines and the database's meta table */
  const char *config;         /* canonical text of everything the results depend on: a stored sweep is
                                 resumed only under the same text */
  int npoints;
  const uint64_t *ids;        /* unique point ids */
  const double *cost;         /* optional relative cost per point: the longest run first */
  size_t rec_size;
  const nnt_sweep_col *cols;  /* the record's fields; nothing else of a record survives storage */
  int ncols;
  int nkeys;                  /* the first nkeys columns are the point's parameters: progress lines
                                 name a finished point by them ("N=12 rep=3"), else by its id */
  /* Computes point i (id ids[i]) into the zeroed record rec; NNT_OK or an error status (the sweep
   * then stops starting new points; finished ones stay stored). Runs on any thread. */
  int (*point)(void *ctx, int i, void *rec);
  void *ctx;
  int threads;                /* team size (0: nnt_threads_get()) */
  int progress;               /* progress on stderr: a bar on a terminal; otherwise one line per
                                 finished point (its parameters, time, points done, time left) and a
                                 heartbeat line when none came for 30 s (nnt_progress.h) */
  const char *dir;            /* folder of results.sqlite (created if missing); NULL: nothing stored */
  int resume;                 /* keep the points already stored in dir */
} nnt_sweep;

typedef struct {
  int stored;                 /* points found in the database and not recomputed */
  int computed;               /* points computed by this run */
  double wall_s;
} nnt_sweep_stats;

/* The folder policy of a sweep command, applied before any work: a folder that does not exist or
 * is empty is fine; one with files needs resume (continue) or force (results.sqlite removed, the
 * other files are overwritten as the sweep writes them); otherwise NNT_EINVAL with one line. */
int nnt_sweep_prepare_dir(const char *dir, int resume, int force);
/* A folder is written by one process at a time: nnt_sweep_prepare_dir (on a folder that exists)
 * and nnt_sweep_run lock it (flock on the folder, no file left behind), and a second process is
 * refused at once with NNT_EIO, "DIR is in use by another nnt process ...". nnt_sweep_run releases
 * a lock it took itself when it returns; the lock of nnt_sweep_prepare_dir lasts until the process
 * ends or this call (for hosts that run several commands in one process). */
void nnt_sweep_unlock_dir(const char *dir);
/* Runs the points not yet stored and fills recs[npoints] (rec_size bytes each) in point order.
 * NNT_EINVAL before any work when dir holds a sweep with another name or config; NNT_EIO when the
 * database cannot be written; a point's error status otherwise. */
int nnt_sweep_run(const nnt_sweep *s, void *recs, nnt_sweep_stats *stats);
/* The database path for a folder (DIR/results.sqlite) into buf. */
char *nnt_sweep_db_path(char *buf, size_t n, const char *dir);

#endif
