/* Turing-machine readers: the busy-beaver standard notation and nnt's multi-symbol text format. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_tm.h"

void nnt_tm_free(nnt_tm *tm) {
  free(tm->delta);
  free(tm->input);
  memset(tm, 0, sizeof *tm);
}

static void tm_alloc(nnt_tm *tm, int k, int nsym) {
  tm->k = k;
  tm->nsym = nsym;
  tm->delta = nnt_xmalloc(sizeof(nnt_tm_rule) * (size_t)k * nsym);
  for (int i = 0; i < k * nsym; i++) tm->delta[i] = (nnt_tm_rule){NNT_TM_UNDEF, 0, 0};
  snprintf(tm->state_name[k], NNT_TM_NAME, "halt");
  snprintf(tm->state_name[k + 1], NNT_TM_NAME, "reject");
}

int nnt_tm_parse_standard(const char *text, const char *where, nnt_tm *out) {
  size_t len = strlen(text);
  while (len && isspace((unsigned char)text[len - 1])) len--;
  size_t s0 = 0;
  while (s0 < len && isspace((unsigned char)text[s0])) s0++;
  if (s0 == len) return nnt_fail(NNT_EFORMAT, "%s: empty machine", where);
  /* Segment length fixes the symbol count; the number of segments the state count. */
  size_t seg = 0;
  while (s0 + seg < len && text[s0 + seg] != '_') seg++;
  if (seg == 0 || seg % 3)
    return nnt_fail(NNT_EFORMAT, "%s:col %zu: state A has %zu characters, expected 3 per symbol", where, s0 + 1, seg);
  int nsym = (int)(seg / 3);
  if (nsym < 2 || nsym > 10)
    return nnt_fail(NNT_EFORMAT, "%s:col %zu: %d symbols; standard notation takes 2..10", where, s0 + 1, nsym);
  int k = 1;
  for (size_t i = s0; i < len; i++) k += text[i] == '_';
  if (k > 25) return nnt_fail(NNT_EFORMAT, "%s: %d states; standard notation takes at most 25 (A..Y)", where, k);
  nnt_tm tm;
  memset(&tm, 0, sizeof tm);
  tm_alloc(&tm, k, nsym);
  for (int z = 0; z < k; z++) snprintf(tm.state_name[z], NNT_TM_NAME, "%c", 'A' + z);
  for (int a = 0; a < nsym; a++) snprintf(tm.sym_name[a], NNT_TM_NAME, "%d", a);
  size_t p = s0;
  int st = NNT_OK;
  for (int z = 0; z < k && !st; z++) {
    for (int a = 0; a < nsym && !st; a++) {
      const char *c = text + p;
      size_t col = p + 1;
      if (p + 3 > len || memchr(c, '_', 3)) {
        st = nnt_fail(NNT_EFORMAT, "%s:col %zu: state %c has too few transitions (expected %d)", where, col, 'A' + z, nsym);
        break;
      }
      nnt_tm_rule *r = &tm.delta[z * nsym + a];
      if (!memcmp(c, "---", 3)) {
        p += 3;
        continue;
      }
      if (!isdigit((unsigned char)c[0]) || c[0] - '0' >= nsym)
        st = nnt_fail(NNT_EFORMAT, "%s:col %zu: undefined symbol '%c' (symbols are 0..%d)", where, col, c[0], nsym - 1);
      else if (c[1] != 'L' && c[1] != 'R')
        st = nnt_fail(NNT_EFORMAT, "%s:col %zu: move '%c' is not L or R", where, col + 1, c[1]);
      else if (c[2] == 'Z' || (c[2] == 'H' && k < 8))
        r->next = k;
      else if (c[2] >= 'A' && c[2] < 'A' + k)
        r->next = c[2] - 'A';
      else
        st = nnt_fail(NNT_EFORMAT, "%s:col %zu: undefined state '%c' (states are A..%c, Z halts)", where, col + 2, c[2], 'A' + k - 1);
      if (st) break;
      r->write = c[0] - '0';
      r->move = c[1] == 'L' ? -1 : 1;
      p += 3;
    }
    if (st) break;
    if (z < k - 1) {
      if (p >= len || text[p] != '_') {
        st = nnt_fail(NNT_EFORMAT, "%s:col %zu: expected '_' after state %c", where, p + 1, 'A' + z);
        break;
      }
      p++;
    }
  }
  if (!st && p != len)
    st = nnt_fail(NNT_EFORMAT, "%s:col %zu: unexpected '%c' after the last state", where, p + 1, text[p]);
  if (st) {
    nnt_tm_free(&tm);
    return st;
  }
  *out = tm;
  return NNT_OK;
}

/* ---- the multi-symbol text format ---- */

typedef struct {
  const char *s; /* start of the line */
  size_t len, pos;
} line_cur;

/* Next whitespace-separated token; NULL at the end. *col is its 1-based column. */
static const char *next_tok(line_cur *l, size_t *n, size_t *col) {
  while (l->pos < l->len && isspace((unsigned char)l->s[l->pos])) l->pos++;
  if (l->pos >= l->len) return NULL;
  size_t b = l->pos;
  while (l->pos < l->len && !isspace((unsigned char)l->s[l->pos])) l->pos++;
  *n = l->pos - b;
  *col = b + 1;
  return l->s + b;
}

static int find_name(char names[][NNT_TM_NAME], int count, const char *t, size_t n) {
  for (int i = 0; i < count; i++)
    if (strlen(names[i]) == n && !memcmp(names[i], t, n)) return i;
  return -1;
}

int nnt_tm_parse_text(const char *text, const char *where, nnt_tm *out) {
  nnt_tm tm;
  memset(&tm, 0, sizeof tm);
  int k = -1, nsym = -1, have_input = 0, st = NNT_OK, lineno = 0;
  int *input = NULL, m = 0;
  char states[NNT_TM_MAX_STATES][NNT_TM_NAME], syms[NNT_TM_MAX_SYMBOLS][NNT_TM_NAME];
  const char *p = text;
#define FAIL(col, ...)                                                            \
  do {                                                                            \
    char m_[256];                                                                 \
    snprintf(m_, sizeof m_, __VA_ARGS__);                                         \
    st = nnt_fail(NNT_EFORMAT, "%s:%d:%zu: %s", where, lineno, (size_t)(col), m_); \
    goto done;                                                                    \
  } while (0)
  while (*p) {
    lineno++;
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    /* A comment line: '#' as its first non-blank character ('#' can be a symbol elsewhere). */
    for (size_t i = 0; i < len && !(p[i] != ' ' && p[i] != '\t' && p[i] != '#'); i++)
      if (p[i] == '#') {
        len = 0;
        break;
      }
    line_cur l = {p, len, 0};
    size_t n, col;
    const char *t = next_tok(&l, &n, &col);
    if (t) {
      if (n >= 7 && !memcmp(t, "states:", 7) && n == 7) {
        if (k >= 0) FAIL(col, "states: given twice");
        k = 0;
        while ((t = next_tok(&l, &n, &col))) {
          if (n >= NNT_TM_NAME) FAIL(col, "state name longer than %d characters", NNT_TM_NAME - 1);
          if (k == NNT_TM_MAX_STATES) FAIL(col, "more than %d states", NNT_TM_MAX_STATES);
          if (find_name(states, k, t, n) >= 0) FAIL(col, "state '%.*s' listed twice", (int)n, t);
          if ((n == 4 && (!memcmp(t, "halt", 4))) || (n == 6 && (!memcmp(t, "accept", 6) || !memcmp(t, "reject", 6))))
            FAIL(col, "'%.*s' is a reserved halting state", (int)n, t);
          memcpy(states[k], t, n);
          states[k++][n] = 0;
        }
        if (!k) FAIL(len + 1, "states: needs at least one state");
      } else if (n == 8 && !memcmp(t, "symbols:", 8)) {
        if (nsym >= 0) FAIL(col, "symbols: given twice");
        nsym = 0;
        while ((t = next_tok(&l, &n, &col))) {
          if (n >= NNT_TM_NAME) FAIL(col, "symbol name longer than %d characters", NNT_TM_NAME - 1);
          if (nsym == NNT_TM_MAX_SYMBOLS) FAIL(col, "more than %d symbols", NNT_TM_MAX_SYMBOLS);
          if (find_name(syms, nsym, t, n) >= 0) FAIL(col, "symbol '%.*s' listed twice", (int)n, t);
          memcpy(syms[nsym], t, n);
          syms[nsym++][n] = 0;
        }
        if (nsym < 2) FAIL(len + 1, "symbols: needs at least two symbols (the first is the blank)");
      } else if (n == 6 && !memcmp(t, "input:", 6)) {
        if (nsym < 0) FAIL(col, "input: before symbols:");
        if (have_input) FAIL(col, "input: given twice");
        have_input = 1;
        while ((t = next_tok(&l, &n, &col))) {
          int a = find_name(syms, nsym, t, n);
          if (a < 0) FAIL(col, "undefined symbol '%.*s' in the input", (int)n, t);
          input = nnt_xrealloc(input, sizeof(int) * (size_t)(m + 1));
          input[m++] = a;
        }
      } else {
        if (k < 0 || nsym < 0) FAIL(col, "a transition before states: and symbols:");
        if (!tm.delta) {
          tm_alloc(&tm, k, nsym);
          snprintf(tm.state_name[k], NNT_TM_NAME, "accept");
          for (int z = 0; z < k; z++) memcpy(tm.state_name[z], states[z], NNT_TM_NAME);
          for (int a = 0; a < nsym; a++) memcpy(tm.sym_name[a], syms[a], NNT_TM_NAME);
        }
        const char *tok[6];
        size_t tn[6], tc[6];
        tok[0] = t, tn[0] = n, tc[0] = col;
        int nt = 1;
        while (nt < 6 && (tok[nt] = next_tok(&l, &tn[nt], &tc[nt]))) nt++;
        if (nt < 6 || next_tok(&l, &n, &col))
          FAIL(nt < 6 ? len + 1 : col, "a transition reads: STATE READ -> WRITE MOVE NEXT");
        int z = find_name(states, k, tok[0], tn[0]);
        if (z < 0) FAIL(tc[0], "undefined state '%.*s'", (int)tn[0], tok[0]);
        int a = find_name(syms, nsym, tok[1], tn[1]);
        if (a < 0) FAIL(tc[1], "undefined symbol '%.*s'", (int)tn[1], tok[1]);
        if (tn[2] != 2 || memcmp(tok[2], "->", 2)) FAIL(tc[2], "expected '->'");
        int wsym = find_name(syms, nsym, tok[3], tn[3]);
        if (wsym < 0) FAIL(tc[3], "undefined symbol '%.*s'", (int)tn[3], tok[3]);
        int mv;
        if (tn[4] == 1 && tok[4][0] == 'L') mv = -1;
        else if (tn[4] == 1 && tok[4][0] == 'R') mv = 1;
        else if (tn[4] == 1 && tok[4][0] == 'S') mv = 0;
        else FAIL(tc[4], "move '%.*s' is not L, R or S", (int)tn[4], tok[4]);
        int nx = find_name(states, k, tok[5], tn[5]);
        if (nx < 0) {
          if ((tn[5] == 4 && !memcmp(tok[5], "halt", 4)) || (tn[5] == 6 && !memcmp(tok[5], "accept", 6))) nx = k;
          else if (tn[5] == 6 && !memcmp(tok[5], "reject", 6)) nx = k + 1;
          else FAIL(tc[5], "undefined state '%.*s'", (int)tn[5], tok[5]);
        }
        nnt_tm_rule *r = &tm.delta[z * nsym + a];
        if (r->next != NNT_TM_UNDEF) FAIL(tc[0], "second rule for (%s, %s)", states[z], syms[a]);
        *r = (nnt_tm_rule){nx, wsym, mv};
      }
    }
    if (!e) break;
    p = e + 1;
  }
  if (k < 0) FAIL(1, "no states: line");
  if (nsym < 0) FAIL(1, "no symbols: line");
  if (!tm.delta) {
    tm_alloc(&tm, k, nsym);
    for (int z = 0; z < k; z++) memcpy(tm.state_name[z], states[z], NNT_TM_NAME);
    for (int a = 0; a < nsym; a++) memcpy(tm.sym_name[a], syms[a], NNT_TM_NAME);
  }
  tm.input = input, tm.m = m;
  input = NULL;
  *out = tm;
  return NNT_OK;
done:
#undef FAIL
  free(input);
  nnt_tm_free(&tm);
  return st;
}

int nnt_tm_load(const char *arg, nnt_tm *tm) {
  /* Standard notation never contains '.' or '/': such an argument was meant as a file. */
  if (!nnt_file_exists(arg) && !strpbrk(arg, "./")) return nnt_tm_parse_standard(arg, "machine", tm);
  char *buf;
  size_t n;
  int st = nnt_file_read(arg, (size_t)1 << 24, &buf, &n);
  if (st) return st;
  if (memchr(buf, 0, n)) st = nnt_fail(NNT_EFORMAT, "%s: binary file", arg);
  else if (strstr(buf, "states:")) st = nnt_tm_parse_text(buf, arg, tm);
  else {
    /* Standard notation: the first line that is not blank or a comment. */
    char *line = buf;
    int lineno = 1;
    for (;;) {
      char *e = strchr(line, '\n');
      if (e) *e = 0;
      char *s = line;
      while (isspace((unsigned char)*s)) s++;
      if (*s && *s != '#') break;
      if (!e) {
        line = NULL;
        break;
      }
      line = e + 1, lineno++;
    }
    if (!line) st = nnt_fail(NNT_EFORMAT, "%s: no machine in the file", arg);
    else {
      char where[1100];
      snprintf(where, sizeof where, "%s:%d", arg, lineno);
      st = nnt_tm_parse_standard(line, where, tm);
    }
  }
  free(buf);
  return st;
}

int nnt_tm_set_input(nnt_tm *tm, const char *s) {
  int m = (int)strlen(s);
  int *in = nnt_xmalloc(sizeof(int) * (size_t)(m ? m : 1));
  for (int i = 0; i < m; i++) {
    int a = -1;
    for (int b = 0; b < tm->nsym; b++)
      if (tm->sym_name[b][0] == s[i] && tm->sym_name[b][1] == 0) a = b;
    if (a < 0) {
      free(in);
      return nnt_fail(NNT_EINVAL, "--input:col %d: '%c' is not a symbol of the machine", i + 1, s[i]);
    }
    in[i] = a;
  }
  free(tm->input);
  tm->input = in;
  tm->m = m;
  return NNT_OK;
}

void nnt_tm_format_standard(const nnt_tm *tm, char *buf, size_t n) {
  size_t p = 0;
  buf[0] = 0;
  for (int z = 0; z < tm->k && p + 4 < n; z++) {
    if (z) buf[p++] = '_';
    for (int a = 0; a < tm->nsym && p + 4 < n; a++) {
      nnt_tm_rule r = tm->delta[z * tm->nsym + a];
      if (r.next == NNT_TM_UNDEF) memcpy(buf + p, "---", 3);
      else {
        buf[p] = r.write < 10 ? (char)('0' + r.write) : '?';
        buf[p + 1] = r.move < 0 ? 'L' : r.move > 0 ? 'R' : 'S';
        buf[p + 2] = r.next == tm->k ? 'Z' : r.next == tm->k + 1 ? 'X' : (char)('A' + r.next);
      }
      p += 3;
    }
    buf[p] = 0;
  }
}
