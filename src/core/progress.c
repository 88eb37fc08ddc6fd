#include "nnt_progress.h"

#include "nnt_mpi.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double nnt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void draw(const nnt_progress *p, double now) {
  int width = 30, fill = (int)(width * p->done / p->total);
  double el = now - p->t0;
  fprintf(stderr, "\r%-14s [", p->label);
  for (int i = 0; i < width; i++) fputc(i < fill ? '#' : '.', stderr);
  fprintf(stderr, "] %3.0f%%  %.1fs", 100.0 * (double)p->done / (double)p->total, el);
  if (p->done) fprintf(stderr, "  eta %.0fs ", el * (double)(p->total - p->done) / (double)p->done);
  else fputs("  eta --   ", stderr);
  fflush(stderr);
}

void nnt_progress_start(nnt_progress *p, const char *label, long total) {
  p->label = label;
  p->total = total > 0 ? total : 1;
  p->done = 0;
  p->t0 = p->last_draw = nnt_now();
  p->tty = isatty(2);
  p->lines = !p->tty;
  if (nnt_mpi_rank()) p->tty = p->lines = 0, p->label = NULL; /* under MPI rank 0 alone reports */
  if (p->tty) draw(p, p->t0);
}

void nnt_progress_add(nnt_progress *p, long k) {
#pragma omp critical(nnt_progress)
  {
    p->done += k;
    double now = nnt_now();
    if (p->tty && now - p->last_draw > 0.1) {
      p->last_draw = now;
      draw(p, now);
    } else if (p->lines && now - p->last_draw >= NNT_PROGRESS_LINE_S && p->done < p->total) {
      p->last_draw = now;
      double el = now - p->t0;
      fprintf(stderr, "%s: %.0f%% after %.0fs, about %.0fs left\n", p->label, 100.0 * (double)p->done / (double)p->total,
              el, el * (double)(p->total - p->done) / (double)p->done);
    }
  }
}

void nnt_progress_end(nnt_progress *p) {
  double now = nnt_now();
  if (!p->label) return;
  if (p->tty) {
    draw(p, now);
    fputc('\n', stderr);
  } else if (now - p->t0 > 1.0) {
    if (p->done >= p->total) fprintf(stderr, "%s: done in %.1fs\n", p->label, now - p->t0);
    else fprintf(stderr, "%s: stopped at %.0f%% after %.1fs\n", p->label, 100.0 * (double)p->done / (double)p->total, now - p->t0);
  }
}
