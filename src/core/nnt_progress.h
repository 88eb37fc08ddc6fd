/* nnt_progress.h — wall clock and progress on stderr: on a terminal a bar, drawn at once and then
 * at most ten times a second; otherwise (nohup, a pipe, a batch scheduler) one plain line at
 * most every NNT_PROGRESS_LINE_S seconds and a summary line at the end of work that took longer
 * than a second. Progress counts units of work: pass a weight per item when items differ in
 * cost, so that the estimate of the time left is not skewed by the first (longest) items. */
#ifndef NNT_PROGRESS_H
#define NNT_PROGRESS_H

double nnt_now(void); /* seconds, monotonic */

#define NNT_PROGRESS_LINE_S 15.0

typedef struct {
  const char *label;
  long total, done;
  double t0, last_draw;
  int tty;
  int lines; /* off a terminal: periodic lines (a caller printing its own per-item lines clears it) */
} nnt_progress;

void nnt_progress_start(nnt_progress *p, const char *label, long total);
void nnt_progress_add(nnt_progress *p, long k); /* thread-safe */
void nnt_progress_end(nnt_progress *p);

#endif
