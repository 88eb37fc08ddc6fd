/* Direct Turing-machine simulation: the independent reference the compiled transformer is
 * checked against (nnt_tm_simulate: a two-way tape of 2T + m + 3 cells, cell c at index c + T + 1,
 * and every step recorded), and the long-run simulator of nnt tm run (nnt_tm_stream_run). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_progress.h"
#include "nnt_tm.h"

void nnt_tm_trace_free(nnt_tm_trace *tr) {
  free(tr->state), free(tr->head), free(tr->sym), free(tr->written);
  memset(tr, 0, sizeof *tr);
}

int nnt_tm_simulate(const nnt_tm *tm, long T, nnt_tm_trace *tr) {
  if (T < 0) return nnt_fail(NNT_EINVAL, "negative step count");
  long ncell = 2 * T + tm->m + 3, base = T + 1;
  int *tape = nnt_xcalloc((size_t)ncell, sizeof(int));
  for (int i = 0; i < tm->m; i++) tape[base + i] = tm->input[i];
  memset(tr, 0, sizeof *tr);
  tr->T = T;
  tr->state = nnt_xmalloc(sizeof(int) * (size_t)(T + 1));
  tr->head = nnt_xmalloc(sizeof(long) * (size_t)(T + 1));
  tr->sym = nnt_xmalloc(sizeof(int) * (size_t)(T + 1));
  tr->written = nnt_xmalloc(sizeof(int) * (size_t)(T + 1));
  int z = 0;
  long h = 0;
  tr->halt_step = -1;
  tr->state[0] = z, tr->head[0] = h, tr->sym[0] = tape[base], tr->written[0] = -1;
  tr->min_head = tr->max_head = 0;
  for (long t = 1; t <= T; t++) {
    int a = tape[base + h];
    if (z >= tm->k) { /* halted: nothing changes */
      tr->written[t] = a;
    } else {
      nnt_tm_rule r = tm->delta[z * tm->nsym + a];
      if (r.next == NNT_TM_UNDEF) { /* halts in place; not a transition */
        z = tm->k;
        tr->written[t] = a;
        tr->halt_step = t - 1;
      } else {
        tape[base + h] = r.write;
        tr->written[t] = r.write;
        h += r.move;
        z = r.next;
        if (z >= tm->k) tr->halt_step = t;
      }
    }
    if (h < tr->min_head) tr->min_head = h;
    if (h > tr->max_head) tr->max_head = h;
    tr->state[t] = z, tr->head[t] = h, tr->sym[t] = tape[base + h];
  }
  for (long c = 0; c < ncell; c++) tr->ones += tape[c] != 0;
  free(tape);
  return NNT_OK;
}

void nnt_tm_stream_free(nnt_tm_stream *s) {
  free(s->row_t), free(s->row_head), free(s->row_state), free(s->row_sym), free(s->row_written);
  memset(s, 0, sizeof *s);
}

/* A tape of cells [lo, lo + n) that doubles towards whichever end the head leaves by. */
typedef struct {
  uint8_t *c;
  long lo, n;
} tape;

static void tape_grow(tape *tp, long h) {
  long n = 2 * tp->n, lo = h < tp->lo ? tp->lo - tp->n : tp->lo;
  uint8_t *c = nnt_xcalloc((size_t)n, 1);
  memcpy(c + (tp->lo - lo), tp->c, (size_t)tp->n);
  free(tp->c);
  tp->c = c, tp->lo = lo, tp->n = n;
}

static void keep_row(nnt_tm_stream *s, long *cap, long t, int z, long h, int sym, int written) {
  if (s->nrows == *cap) { /* grown on demand: a run that halts early keeps a short trace */
    *cap = *cap ? 2 * *cap : 1024;
    s->row_t = nnt_xrealloc(s->row_t, sizeof(long) * (size_t)*cap);
    s->row_head = nnt_xrealloc(s->row_head, sizeof(long) * (size_t)*cap);
    s->row_state = nnt_xrealloc(s->row_state, sizeof(int) * (size_t)*cap);
    s->row_sym = nnt_xrealloc(s->row_sym, sizeof(int) * (size_t)*cap);
    s->row_written = nnt_xrealloc(s->row_written, sizeof(int) * (size_t)*cap);
  }
  long i = s->nrows++;
  s->row_t[i] = t, s->row_state[i] = z, s->row_head[i] = h, s->row_sym[i] = sym, s->row_written[i] = written;
}

int nnt_tm_stream_run(const nnt_tm *tm, long T, long every, int progress, nnt_tm_stream *s) {
  memset(s, 0, sizeof *s);
  if (T < 0) return nnt_fail(NNT_EINVAL, "negative step count");
  if (every < 0) return nnt_fail(NNT_EINVAL, "negative trace interval");
  long rows = every ? T / every + 2 : 0, cap = 0;
  if (rows > NNT_TM_TRACE_MAX)
    return nnt_fail(NNT_EINVAL, "a trace of %ld steps every %ld would hold %ld rows (at most %d): trace every %ld steps or more",
                    T, every, rows, NNT_TM_TRACE_MAX, T / (NNT_TM_TRACE_MAX - 2) + 1);
  tape tp = {NULL, -1024, 2048 + tm->m};
  tp.c = nnt_xcalloc((size_t)tp.n, 1);
  for (int i = 0; i < tm->m; i++) tp.c[i - tp.lo] = (uint8_t)tm->input[i];
  int z = 0;
  long h = 0, t = 0;
  s->halt_step = -1;
  if (rows) keep_row(s, &cap, 0, 0, 0, tp.c[-tp.lo], -1);
  nnt_progress pr;
  if (progress) nnt_progress_start(&pr, "simulating", T);
  /* steps in chunks between progress updates and trace rows; a halt ends the run */
  while (t < T && z < tm->k) {
    long end = T - t > (1L << 24) ? t + (1L << 24) : T;
    if (every && end > (t / every + 1) * every) end = (t / every + 1) * every;
    int written = -1;
    for (; t < end; t++) {
      uint8_t *cell = &tp.c[h - tp.lo];
      nnt_tm_rule r = tm->delta[z * tm->nsym + *cell];
      if (r.next == NNT_TM_UNDEF) { /* halts in place; not a transition */
        z = tm->k, s->halt_step = t, written = *cell;
        t++;
        break;
      }
      *cell = (uint8_t)r.write, written = r.write;
      h += r.move, z = r.next;
      if (h < s->min_head) s->min_head = h;
      if (h > s->max_head) s->max_head = h;
      if (h < tp.lo || h >= tp.lo + tp.n) tape_grow(&tp, h);
      if (z >= tm->k) {
        s->halt_step = t + 1;
        t++;
        break;
      }
    }
    if (rows && (t == T || z >= tm->k || t % every == 0)) keep_row(s, &cap, t, z, h, tp.c[h - tp.lo], written);
    if (progress) nnt_progress_add(&pr, z >= tm->k ? T - pr.done : t - pr.done);
  }
  if (progress) nnt_progress_end(&pr);
  s->state = z, s->head = h, s->steps = t;
  for (long i = 0; i < tp.n; i++) s->ones += tp.c[i] != 0;
  free(tp.c);
  return NNT_OK;
}
