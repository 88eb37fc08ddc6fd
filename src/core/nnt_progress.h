/* nnt_progress.h — wall clock and a progress bar (stderr, only when it is a terminal; otherwise
 * one summary line when the work ends, and only if it took longer than a second). */
#ifndef NNT_PROGRESS_H
#define NNT_PROGRESS_H

double nnt_now(void); /* seconds, monotonic */

typedef struct {
  const char *label;
  long total, done;
  double t0, last_draw;
  int tty;
} nnt_progress;

void nnt_progress_start(nnt_progress *p, const char *label, long total);
void nnt_progress_add(nnt_progress *p, long k); /* thread-safe */
void nnt_progress_end(nnt_progress *p);

#endif
