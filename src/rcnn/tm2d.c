/* tm2d.c — 2-D Turing machines: builder, text format, validator.
 *
 * Text format (one item per line; '#' starts a comment; tokens are separated by blanks):
 *
 *   file   := { line }
 *   line   := "states:" NAME { NAME }      declares states; the first declared is the start (code 0)
 *           | "halt:" NAME { NAME }        marks declared states as halting
 *           | NAME SYM "->" NAME SYM MOVE [NAME]
 *                                          δ(q, a) = (q′, a′, move, q_b); q_b is required unless
 *                                          move is N (then it is q′: a no-move is never blocked)
 *   SYM    := "-" | "0" | "+"              -1, blank, +1
 *   MOVE   := "U" | "D" | "L" | "R" | "N"  up (toward row 0), down, left, right, none
 *   NAME   := [A-Za-z_][A-Za-z0-9_.+-]*
 *
 * Halting states need no rules; if given they must be absorbing ("H a -> H a N"). Every other
 * state needs a rule for each of the three symbols.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_rcnn_tm2d.h"

static const char syms[] = "-0+", moves[] = "NUDLR";

void nnt_rcnn_tm2d_init(nnt_rcnn_tm2d *tm) { memset(tm, 0, sizeof *tm); }

void nnt_rcnn_tm2d_free(nnt_rcnn_tm2d *tm) {
  for (int q = 0; q < tm->nstates; q++) free(tm->names[q]);
  free(tm->names), free(tm->halting), free(tm->line), free(tm->delta);
  nnt_rcnn_tm2d_init(tm);
}

static int find(const nnt_rcnn_tm2d *tm, const char *name) {
  for (int q = 0; q < tm->nstates; q++)
    if (!strcmp(tm->names[q], name)) return q;
  return -1;
}

static int add(nnt_rcnn_tm2d *tm, const char *name, int line) {
  if (tm->nstates == tm->cap) {
    tm->cap = tm->cap ? 2 * tm->cap : 16;
    tm->names = nnt_xrealloc(tm->names, tm->cap * sizeof *tm->names);
    tm->halting = nnt_xrealloc(tm->halting, tm->cap);
    tm->line = nnt_xrealloc(tm->line, tm->cap * sizeof *tm->line);
    tm->delta = nnt_xrealloc(tm->delta, 3 * tm->cap * sizeof *tm->delta);
  }
  int q = tm->nstates++;
  tm->names[q] = nnt_xstrdup(name);
  tm->halting[q] = 0, tm->line[q] = line;
  for (int a = 0; a < 3; a++) tm->delta[3 * q + a] = (nnt_rcnn_tm2d_rule){.line = -1};
  return q;
}

int nnt_rcnn_tm2d_state(nnt_rcnn_tm2d *tm, const char *fmt, ...) {
  char name[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  int q = find(tm, name);
  return q >= 0 ? q : add(tm, name, 0);
}

void nnt_rcnn_tm2d_halt(nnt_rcnn_tm2d *tm, int q) { tm->halting[q] = 1; }

void nnt_rcnn_tm2d_rule_set(nnt_rcnn_tm2d *tm, int q, int a, int next, int write, int move, int blocked) {
  tm->delta[3 * q + a + 1] = (nnt_rcnn_tm2d_rule){next, blocked, (signed char)write, (signed char)move, 0};
}

/* "name:line: " or "name: " for a machine built in C. */
static int fail_at(const char *name, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(const char *name, int line, const char *fmt, ...) {
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (line > 0) return nnt_fail(NNT_EFORMAT, "%s:%d: %s", name, line, what);
  return nnt_fail(NNT_EFORMAT, "%s: %s", name, what);
}

int nnt_rcnn_tm2d_check(const nnt_rcnn_tm2d *tm, const char *name) {
  if (!tm->nstates) return fail_at(name, 0, "no states (a 'states:' line declares them)");
  int nhalt = 0;
  for (int q = 0; q < tm->nstates; q++) {
    nhalt += tm->halting[q];
    for (int a = -1; a <= 1; a++) {
      const nnt_rcnn_tm2d_rule *r = &tm->delta[3 * q + a + 1];
      if (tm->halting[q]) {
        if (r->line >= 0 && (r->next != q || r->write != a || r->move != NNT_RCNN_TM2D_N))
          return fail_at(name, r->line, "halting state '%s' must be absorbing: %s %c -> %s %c N", tm->names[q],
                         tm->names[q], syms[a + 1], tm->names[q], syms[a + 1]);
        continue;
      }
      if (r->line < 0)
        return fail_at(name, tm->line[q], "missing transition for state '%s' on symbol '%c'", tm->names[q], syms[a + 1]);
      if (q == 0 && (r->write != a || r->move != NNT_RCNN_TM2D_N))
        return fail_at(name, r->line, "the first step must be a no-op: %s %c -> Q %c N", tm->names[q], syms[a + 1],
                       syms[a + 1]);
    }
  }
  if (!nhalt) return fail_at(name, 0, "no halting state (a 'halt:' line marks them)");
  return NNT_OK;
}

static int sym_of(const char *tok) {
  const char *p = strlen(tok) == 1 ? strchr(syms, tok[0]) : NULL;
  return p ? (int)(p - syms) - 1 : 2;
}

static int valid_name(const char *s) {
  if (!isalpha((unsigned char)*s) && *s != '_') return 0;
  for (s++; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s)) return 0;
  return 1;
}

/* One rule line split into tokens tok[0..n-1]. */
static int parse_rule(nnt_rcnn_tm2d *tm, char **tok, int n, const char *name, int line) {
  if (n < 6 || n > 7 || strcmp(tok[2], "->"))
    return fail_at(name, line, "expected 'Q A -> Q2 A2 MOVE [Q_BLOCKED]'");
  int st[3] = {find(tm, tok[0]), find(tm, tok[3]), n == 7 ? find(tm, tok[6]) : -2};
  const int at[3] = {0, 3, 6};
  for (int i = 0; i < 3; i++)
    if (st[i] == -1) return fail_at(name, line, "unknown state '%s' (not in a 'states:' line)", tok[at[i]]);
  int a = sym_of(tok[1]), w = sym_of(tok[4]);
  if (a == 2) return fail_at(name, line, "bad symbol '%s' (-, 0 or +)", tok[1]);
  if (w == 2) return fail_at(name, line, "bad symbol '%s' (-, 0 or +)", tok[4]);
  const char *mv = strlen(tok[5]) == 1 ? strchr(moves, tok[5][0]) : NULL;
  if (!mv) return fail_at(name, line, "bad move '%s' (U, D, L, R or N)", tok[5]);
  int move = (int)(mv - moves);
  if (n == 6 && move != NNT_RCNN_TM2D_N) return fail_at(name, line, "move %s needs a blocked state (Q_BLOCKED)", tok[5]);
  nnt_rcnn_tm2d_rule *r = &tm->delta[3 * st[0] + a + 1];
  if (r->line >= 0) return fail_at(name, line, "second transition for state '%s' on '%s' (first on line %d)", tok[0], tok[1], r->line);
  *r = (nnt_rcnn_tm2d_rule){st[1], n == 7 ? st[2] : st[1], (signed char)w, (signed char)move, line};
  return NNT_OK;
}

static int parse_line(nnt_rcnn_tm2d *tm, char *s, const char *name, int line) {
  char *tok[16];
  int n = 0;
  for (char *t = strtok(s, " \t\r"); t; t = strtok(NULL, " \t\r")) {
    if (n == 16) return fail_at(name, line, "too many tokens");
    tok[n++] = t;
  }
  if (!n) return NNT_OK;
  int decl = !strcmp(tok[0], "states:"), halt = !strcmp(tok[0], "halt:");
  if (!decl && !halt) return parse_rule(tm, tok, n, name, line);
  if (n == 1) return fail_at(name, line, "'%s' names no state", tok[0]);
  for (int i = 1; i < n; i++) {
    int q = find(tm, tok[i]);
    if (decl) {
      if (!valid_name(tok[i])) return fail_at(name, line, "bad state name '%s'", tok[i]);
      if (q >= 0) return fail_at(name, line, "state '%s' declared twice (first on line %d)", tok[i], tm->line[q]);
      add(tm, tok[i], line);
    } else {
      if (q < 0) return fail_at(name, line, "unknown state '%s' (not in a 'states:' line)", tok[i]);
      tm->halting[q] = 1;
    }
  }
  return NNT_OK;
}

int nnt_rcnn_tm2d_parse(nnt_rcnn_tm2d *tm, const char *text, const char *name) {
  nnt_rcnn_tm2d_init(tm);
  char *copy = nnt_xstrdup(text), *s = copy;
  int st = NNT_OK;
  for (int line = 1; s && !st; line++) {
    char *nl = strchr(s, '\n'), *hash;
    if (nl) *nl = 0;
    if ((hash = strchr(s, '#'))) *hash = 0;
    st = parse_line(tm, s, name, line);
    s = nl ? nl + 1 : NULL;
  }
  free(copy);
  if (!st) st = nnt_rcnn_tm2d_check(tm, name);
  if (st) nnt_rcnn_tm2d_free(tm);
  return st;
}

int nnt_rcnn_tm2d_load(nnt_rcnn_tm2d *tm, const char *path) {
  char *buf;
  size_t n;
  int st = nnt_file_read(path, (size_t)1 << 26, &buf, &n);
  if (st) return st;
  st = memchr(buf, 0, n) ? fail_at(path, 0, "not a text file") : nnt_rcnn_tm2d_parse(tm, buf, path);
  free(buf);
  return st;
}

void nnt_rcnn_tm2d_write(const nnt_rcnn_tm2d *tm, FILE *f) {
  fprintf(f, "states:");
  for (int q = 0; q < tm->nstates; q++) fprintf(f, "%s %s", q && q % 12 == 0 ? "\nstates:" : "", tm->names[q]);
  fprintf(f, "\nhalt:");
  for (int q = 0; q < tm->nstates; q++)
    if (tm->halting[q]) fprintf(f, " %s", tm->names[q]);
  fprintf(f, "\n");
  for (int q = 0; q < tm->nstates; q++)
    for (int a = 0; a < 3 && !tm->halting[q]; a++) {
      const nnt_rcnn_tm2d_rule *r = &tm->delta[3 * q + a];
      if (r->line < 0) continue;
      fprintf(f, "%s %c -> %s %c %c", tm->names[q], syms[a], tm->names[r->next], syms[r->write + 1], moves[r->move]);
      if (r->move != NNT_RCNN_TM2D_N) fprintf(f, " %s", tm->names[r->blocked]);
      fprintf(f, "\n");
    }
}
