#include "nnt_progress.h"

#include "nnt_mpi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* When any progress in this process last printed a line: a heartbeat stays quiet while another speaks. */
static _Atomic double last_any_line;

static void spoke(nnt_progress *p, double now) { p->last_line = last_any_line = now; }

double nnt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double eta(const nnt_progress *p, double now) {
  return p->done > 0 ? (now - p->t0) * (double)(p->total - p->done) / (double)p->done : -1;
}

static void draw(const nnt_progress *p, double now) {
  int width = 30, fill = (int)(width * p->done / p->total);
  double el = now - p->t0;
  fprintf(stderr, "\r%-14s [", p->label);
  for (int i = 0; i < width; i++) fputc(i < fill ? '#' : '.', stderr);
  fprintf(stderr, "] %3.0f%%  %.1fs", 100.0 * (double)p->done / (double)p->total, el);
  if (p->done) fprintf(stderr, "  eta %.0fs ", eta(p, now));
  else fputs("  eta --   ", stderr);
  fflush(stderr);
}

/* The heartbeat: wakes every second (or when ended) and prints a line when none came for beat_s. */
static void *heartbeat(void *arg) {
  nnt_progress *p = arg;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    pthread_cond_timedwait(&p->cv, &p->mu, &ts);
    double now = nnt_now();
    if (p->stop || now - p->last_line < p->beat_s || now - last_any_line < p->beat_s) continue;
    spoke(p, now);
    double left = eta(p, now);
    if (p->watch) fprintf(stderr, "%s: still running after %.0fs\n", p->label, now - p->t0);
    else if (left < 0) fprintf(stderr, "%s: still running after %.0fs, nothing finished yet\n", p->label, now - p->t0);
    else
      fprintf(stderr, "%s: still running after %.0fs, %.0f%% done, about %.0fs left\n", p->label, now - p->t0,
              100.0 * (double)p->done / (double)p->total, left);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

void nnt_progress_start(nnt_progress *p, const char *label, long total) {
  p->label = label;
  p->total = total > 0 ? total : 1;
  p->done = 0;
  p->t0 = p->last_draw = p->last_line = nnt_now();
  p->tty = isatty(2);
  p->lines = !p->tty;
  p->beating = p->stop = p->watch = 0;
  const char *env = getenv("NNT_PROGRESS_HEARTBEAT_S");
  p->beat_s = env && atof(env) > 0 ? atof(env) : NNT_PROGRESS_HEARTBEAT_S;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  if (nnt_mpi_rank()) p->tty = p->lines = 0, p->label = NULL; /* under MPI rank 0 alone reports */
  if (p->tty) draw(p, p->t0);
  /* without the thread (none could be made) progress still works, only without the heartbeat */
  if (p->label && !p->tty) p->beating = pthread_create(&p->beat, NULL, heartbeat, p) == 0;
}

void nnt_progress_add(nnt_progress *p, long k) {
  pthread_mutex_lock(&p->mu);
  p->done += k;
  double now = nnt_now();
  if (p->tty && now - p->last_draw > 0.1) {
    p->last_draw = now;
    draw(p, now);
  } else if (p->lines && now - p->last_draw >= NNT_PROGRESS_LINE_S && p->done < p->total) {
    p->last_draw = now;
    spoke(p, now);
    fprintf(stderr, "%s: %.0f%% after %.0fs, about %.0fs left\n", p->label, 100.0 * (double)p->done / (double)p->total,
            now - p->t0, eta(p, now));
  }
  pthread_mutex_unlock(&p->mu);
}

void nnt_progress_line(nnt_progress *p, const char *fmt, ...) {
  if (!p->label || p->tty) return;
  pthread_mutex_lock(&p->mu);
  spoke(p, nnt_now());
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s: %s\n", p->label, buf);
  pthread_mutex_unlock(&p->mu);
}

void nnt_progress_watch(nnt_progress *p, const char *label) {
  if (isatty(2) || nnt_mpi_rank()) {
    *p = (nnt_progress){0}; /* ending it does nothing */
    return;
  }
  nnt_progress_start(p, label, 1);
  p->lines = 0;
  p->watch = 1;
}

double nnt_progress_eta(nnt_progress *p) {
  pthread_mutex_lock(&p->mu);
  double left = eta(p, nnt_now());
  pthread_mutex_unlock(&p->mu);
  return left;
}

static void finish(nnt_progress *p, int quiet) {
  if (!p->label) return;
  if (p->beating) {
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->beat, NULL);
    p->beating = 0;
  }
  double now = nnt_now();
  if (p->tty) {
    if (!quiet) draw(p, now);
    fputc('\n', stderr);
  } else if (!quiet && now - p->t0 > 1.0) {
    if (p->done >= p->total) fprintf(stderr, "%s: done in %.1fs\n", p->label, now - p->t0);
    else fprintf(stderr, "%s: stopped at %.0f%% after %.1fs\n", p->label, 100.0 * (double)p->done / (double)p->total, now - p->t0);
  }
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  p->label = NULL;
}

void nnt_progress_end(nnt_progress *p) { finish(p, 0); }
void nnt_progress_fail(nnt_progress *p) { finish(p, 1); }
