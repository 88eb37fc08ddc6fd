/* tm2d_sim.c — the XOR-encoded tape, the direct simulator with collision sensing and the readout
 * check, and the parity data the learners are run on. */
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_rcnn_tm2d.h"
#include "nnt_rng.h"

static int alloc_tape(nnt_rcnn_tm2d_tape *t, int m, int d, int work) {
  if (m < 0 || d < 0 || work < 1)
    return nnt_fail(NNT_EINVAL, "tape: need m >= 0, d >= 0 and a work region of >= 1 column (got m=%d d=%d work=%d)", m, d, work);
  *t = (nnt_rcnn_tm2d_tape){m, d, work, calloc((size_t)(m + 1) * (d + 1 + work), 1)};
  if (!t->cell) return nnt_fail(NNT_ENOMEM, "tape: out of memory for %d x %d cells", m + 1, d + 1 + work);
  return NNT_OK;
}

int nnt_rcnn_tm2d_tape_xor(nnt_rcnn_tm2d_tape *t, int m, int d, int work, const signed char *X,
                           const signed char *y, const signed char *x) {
  int st = alloc_tape(t, m, d, work), w = d + 1 + work;
  if (st) return st;
  for (int i = 0; i <= m; i++) {
    for (int b = 0; b < d; b++) t->cell[i * w + b] = (signed char)(i < m ? y[i] * X[i * d + b] * x[b] : x[b]);
    t->cell[i * w + d] = i < m ? y[i] : 1;
  }
  return NNT_OK;
}

int nnt_rcnn_tm2d_tape_parse(nnt_rcnn_tm2d_tape *t, const char *rows, int work) {
  int nrows = 1, width = -1, len = 0;
  for (const char *p = rows;; p++) {
    if (*p == '/' || !*p) {
      if (width >= 0 && len != width)
        return nnt_fail(NNT_EINVAL, "--tape: row %d has %d cells, row 1 has %d", nrows, len, width);
      if (!len) return nnt_fail(NNT_EINVAL, "--tape: row %d is empty", nrows);
      width = len, len = 0;
      if (!*p) break;
      nrows++;
    } else if (*p == '+' || *p == '-' || *p == '0') len++;
    else return nnt_fail(NNT_EINVAL, "--tape: '%c' is not a cell ('+', '-', '0'; rows separated by '/')", *p);
  }
  int st = alloc_tape(t, nrows - 1, width - 1, work), w = width + work, r = 0, c = 0;
  if (st) return st;
  for (const char *p = rows; *p; p++)
    if (*p == '/') r++, c = 0;
    else t->cell[r * w + c++] = (signed char)(*p == '+' ? 1 : *p == '-' ? -1 : 0);
  return NNT_OK;
}

void nnt_rcnn_tm2d_tape_free(nnt_rcnn_tm2d_tape *t) { free(t->cell), t->cell = NULL; }

void nnt_rcnn_tm2d_tape_print(const nnt_rcnn_tm2d_tape *t, FILE *f) {
  int w = t->d + 1 + t->work;
  for (int r = 0; r <= t->m; r++) {
    for (int c = 0; c < w; c++) fprintf(f, "%s%c", c == t->d + 1 ? " | " : "", "-0+"[t->cell[r * w + c] + 1]);
    fputc('\n', f);
  }
}

/* The readout convention (spec §4.1, §4.4): answer ±1 on (0,0), the rest of the main grid blank,
 * head on (0,0) or in the work region. */
static void readout(const nnt_rcnn_tm2d_tape *t, nnt_rcnn_tm2d_result *r) {
  int w = t->d + 1 + t->work;
  r->why[0] = 0;
  if (!r->halted) snprintf(r->why, sizeof r->why, "did not halt");
  else if (!t->cell[0]) snprintf(r->why, sizeof r->why, "cell (0,0) is blank");
  else if (r->col <= t->d && (r->row || r->col))
    snprintf(r->why, sizeof r->why, "head parked on main cell (%d,%d)", r->row, r->col);
  for (int i = 0; i <= t->m && !r->why[0]; i++)
    for (int j = 0; j <= t->d && !r->why[0]; j++)
      if ((i || j) && t->cell[i * w + j]) snprintf(r->why, sizeof r->why, "main cell (%d,%d) is not blank", i, j);
  r->readout_ok = !r->why[0];
  r->output = r->readout_ok ? t->cell[0] : 0;
}

int nnt_rcnn_tm2d_run(const nnt_rcnn_tm2d *tm, nnt_rcnn_tm2d_tape *t, long max_steps, nnt_rcnn_tm2d_result *r) {
  static const int dr[] = {0, -1, 1, 0, 0}, dc[] = {0, 0, 0, -1, 1};
  int w = t->d + 1 + t->work, q = 0, row = t->m, col = t->d;
  *r = (nnt_rcnn_tm2d_result){0};
  while (!tm->halting[q] && r->steps < max_steps) {
    signed char *cell = &t->cell[row * w + col];
    const nnt_rcnn_tm2d_rule *rule = &tm->delta[3 * q + *cell + 1];
    if (rule->line < 0) /* only machines that skipped nnt_rcnn_tm2d_check get here */
      return nnt_fail(NNT_EFORMAT, "state '%s' has no transition on %d", tm->names[q], *cell);
    *cell = rule->write;
    int nr = row + dr[rule->move], nc = col + dc[rule->move];
    if (nr < 0 || nr > t->m || nc < 0 || nc >= w) q = rule->blocked, r->collisions++;
    else q = rule->next, row = nr, col = nc;
    r->steps++;
  }
  r->halted = tm->halting[q], r->state = q, r->row = row, r->col = col;
  readout(t, r);
  return NNT_OK;
}

void nnt_rcnn_tm2d_parity(int d, int m, uint64_t seed, signed char *X, signed char *y, signed char *x, uint64_t *secret) {
  nnt_rng g;
  nnt_rng_init(&g, seed, 0);
  uint64_t s = d >= 64 ? nnt_rng_u64(&g) : nnt_rng_u64(&g) & ((1ull << d) - 1);
  for (int i = 0; i <= m; i++) {
    signed char *row = i < m ? X + (size_t)i * d : x, lab = 1;
    for (int b = 0; b < d; b++) {
      row[b] = (signed char)(nnt_rng_u64(&g) >> 63 ? -1 : 1);
      if (b < 64 && (s >> b & 1)) lab = (signed char)(lab * row[b]);
    }
    if (i < m) y[i] = lab;
  }
  if (secret) *secret = s;
}

int nnt_rcnn_tm2d_data_load(const char *path, int *m, int *d, signed char **X, signed char **y) {
  FILE *f;
  int st = nnt_file_open_read(path, &f);
  if (st) return st;
  char buf[65536];
  int cols = -1, n = 0, cap = 0;
  *X = NULL, *y = NULL;
  for (int line = 1; !st && fgets(buf, sizeof buf, f); line++) {
    size_t len = strlen(buf);
    if (len == sizeof buf - 1 && buf[len - 1] != '\n' && !feof(f)) { /* fgets would split it into two */
      st = nnt_fail(NNT_EFORMAT, "%s:%d: line longer than %zu characters", path, line, sizeof buf - 2);
      break;
    }
    char *hash = strchr(buf, '#'), *p = buf, *end;
    if (hash) *hash = 0;
    signed char v[4097];
    int k = 0;
    for (long val; !st && (val = strtol(p, &end, 10), end != p); p = end) {
      if ((val != 1 && val != -1) || k == 4097) st = nnt_fail(NNT_EFORMAT, "%s:%d: %s", path, line, k == 4097 ? "more than 4096 features" : "values must be -1 or 1");
      else v[k++] = (signed char)val;
    }
    if (st) break;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p) st = nnt_fail(NNT_EFORMAT, "%s:%d: '%c' is not a value (-1 or 1)", path, line, *p);
    else if (k && k < 2) st = nnt_fail(NNT_EFORMAT, "%s:%d: a line is x_1 .. x_d y (at least 2 values)", path, line);
    else if (k && cols >= 0 && k != cols) st = nnt_fail(NNT_EFORMAT, "%s:%d: %d values, earlier lines have %d", path, line, k, cols);
    if (st || !k) continue;
    cols = k;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      *X = nnt_xrealloc(*X, (size_t)cap * (k - 1)), *y = nnt_xrealloc(*y, cap);
    }
    memcpy(*X + (size_t)n * (k - 1), v, k - 1);
    (*y)[n++] = v[k - 1];
  }
  fclose(f);
  if (!st && !n) st = nnt_fail(NNT_EFORMAT, "%s: no examples", path);
  if (st) free(*X), free(*y), *X = *y = NULL;
  *m = n, *d = cols - 1;
  return st;
}
