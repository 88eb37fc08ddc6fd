/* nnt_progress.h — wall clock and progress on stderr: on a terminal a bar, drawn at once and then
 * at most ten times a second; otherwise (nohup, a pipe, a batch scheduler) one plain line at
 * most every NNT_PROGRESS_LINE_S seconds, a heartbeat line whenever nothing was printed for
 * NNT_PROGRESS_HEARTBEAT_S seconds (from a thread of its own, so it also comes while the first,
 * longest item is still running), and a summary line at the end of work that took longer than a
 * second. Progress counts units of work: pass a weight per item when items differ in cost, so that
 * the estimate of the time left is not skewed by the first (longest) items.
 *
 * Every nnt_progress_start needs its nnt_progress_end or nnt_progress_fail (which stop the heartbeat
 * thread) on every path; ending twice, or ending one zero-initialised and never started, does nothing. */
#ifndef NNT_PROGRESS_H
#define NNT_PROGRESS_H
#include <pthread.h>

double nnt_now(void); /* seconds, monotonic */

#define NNT_PROGRESS_LINE_S 15.0
/* The environment variable NNT_PROGRESS_HEARTBEAT_S overrides it (tests: 1 second). */
#define NNT_PROGRESS_HEARTBEAT_S 30.0

typedef struct {
  const char *label;
  long total, done;
  double t0, last_draw, last_line;
  int tty;
  int lines; /* off a terminal: periodic lines (a caller printing its own per-item lines clears it) */
  int beating, stop; /* the heartbeat thread runs; asked to stop */
  int watch;         /* heartbeat only (nnt_progress_watch) */
  double beat_s;
  pthread_t beat;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} nnt_progress;

void nnt_progress_start(nnt_progress *p, const char *label, long total);
void nnt_progress_add(nnt_progress *p, long k); /* thread-safe */
/* Off a terminal: prints "LABEL: TEXT" as one line and counts it as the latest line (the
 * heartbeat waits from it); on a terminal or another MPI rank: nothing. Thread-safe. */
void nnt_progress_line(nnt_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A heartbeat alone, for a whole command: off a terminal "LABEL: still running after Ns" whenever no
 * progress line of any kind came for the heartbeat's period; nothing on a terminal. End it with
 * nnt_progress_fail (no summary line). */
void nnt_progress_watch(nnt_progress *p, const char *label);
/* Seconds left at the current rate; -1 before the first unit is done. */
double nnt_progress_eta(nnt_progress *p);
void nnt_progress_end(nnt_progress *p);
/* Ends it without the summary line, for work that failed: its error is then the one line. */
void nnt_progress_fail(nnt_progress *p);

#endif
