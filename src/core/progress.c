#include "nnt_progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double nnt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void nnt_progress_start(nnt_progress *p, const char *label, long total) {
  p->label = label;
  p->total = total > 0 ? total : 1;
  p->done = 0;
  p->t0 = p->last_draw = nnt_now();
  p->tty = isatty(2);
}

static void draw(const nnt_progress *p, double now) {
  int width = 30, fill = (int)(width * p->done / p->total);
  double el = now - p->t0, eta = p->done ? el * (double)(p->total - p->done) / (double)p->done : 0;
  fprintf(stderr, "\r%-14s [", p->label);
  for (int i = 0; i < width; i++) fputc(i < fill ? '#' : '.', stderr);
  fprintf(stderr, "] %ld/%ld  %.1fs  eta %.0fs ", p->done, p->total, el, eta);
  fflush(stderr);
}

void nnt_progress_add(nnt_progress *p, long k) {
#pragma omp critical(nnt_progress)
  {
    p->done += k;
    double now = nnt_now();
    if (p->tty && now - p->last_draw > 0.1) {
      p->last_draw = now;
      draw(p, now);
    }
  }
}

void nnt_progress_end(nnt_progress *p) {
  double now = nnt_now();
  if (p->tty) {
    draw(p, now);
    fputc('\n', stderr);
  } else if (now - p->t0 > 1.0) {
    fprintf(stderr, "%s: %ld/%ld done in %.1fs\n", p->label, p->done, p->total, now - p->t0);
  }
}
