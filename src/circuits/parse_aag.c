/* AIGER ASCII (.aag) reader, combinational subset.
 *
 * Accepted: the header `aag M I L O A` with L = 0 (AIGER 1.9's optional B C J F fields must be
 * 0), I input lines (an even literal), O output lines (any literal), A and-gate lines
 * `lhs rhs0 rhs1` (lhs even), in any order of definition; then the optional symbol table
 * (`i<k> name`, `o<k> name`, ignored) and the comment section after a line `c`. Literal 2v is
 * variable v, 2v+1 its negation, 0 and 1 the constants. Latches (L > 0) are rejected: the reader
 * is combinational. Variable v is named "v<v>" in messages. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_error.h"

typedef struct {
  nnt_circuit_cbuild *b;
  const char *p, *end;
  int line;
  long maxvar;
  int *negs; /* negs[v]: NOT gate of variable v + 1, 0 when not made yet (grown on demand) */
  long negcap;
  int const0, const1;
} aag;

/* Reads unsigned numbers from the next line into v[0..want); exactly `want` must be present. */
static int read_nums(aag *a, long *v, int want, int allow_more, int *got) {
  if (a->p >= a->end) return nnt_fail(NNT_EFORMAT, "%s:%d: unexpected end of file", a->b->file, a->line + 1);
  const char *nl = memchr(a->p, '\n', (size_t)(a->end - a->p)), *e = nl ? nl : a->end, *p = a->p;
  a->line++;
  a->p = nl ? nl + 1 : a->end;
  int n = 0;
  while (p < e) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    if (p >= e) break;
    if (!isdigit((unsigned char)*p))
      return nnt_fail(NNT_EFORMAT, "%s:%d: expected an unsigned number, got '%c'", a->b->file, a->line, *p);
    long x = 0;
    while (p < e && isdigit((unsigned char)*p)) {
      x = 10 * x + (*p++ - '0');
      if (x > 1000000000L) return nnt_fail(NNT_EFORMAT, "%s:%d: number too large", a->b->file, a->line);
    }
    if (n >= want && !allow_more) return nnt_fail(NNT_EFORMAT, "%s:%d: expected %d number%s on this line", a->b->file, a->line, want, want > 1 ? "s" : "");
    if (n < 8) v[n] = x;
    n++;
  }
  if (n < want) return nnt_fail(NNT_EFORMAT, "%s:%d: expected %d number%s on this line", a->b->file, a->line, want, want > 1 ? "s" : "");
  if (got) *got = n;
  return NNT_OK;
}

static int var_sig(aag *a, long v) {
  char name[32];
  int n = snprintf(name, sizeof name, "v%ld", v);
  return nnt_circuit_cb_sig(a->b, name, (size_t)n, a->line);
}

/* The signal of a literal (NOT gates and constants made on first use). */
static int lit_sig(aag *a, long lit, int *st) {
  if (lit > 2 * a->maxvar + 1) {
    *st = nnt_fail(NNT_EFORMAT, "%s:%d: literal %ld exceeds 2M+1 = %ld", a->b->file, a->line, lit, 2 * a->maxvar + 1);
    return -1;
  }
  if (lit <= 1) {
    int *k = lit ? &a->const1 : &a->const0;
    if (*k < 0)
      *k = nnt_circuit_cb_gate(a->b, lit ? "true" : "false", lit ? NNT_CIRCUIT_GATE_CONST1 : NNT_CIRCUIT_GATE_CONST0, 0,
                               NULL, a->line);
    return *k;
  }
  long v = lit / 2;
  int s = var_sig(a, v);
  if (!(lit & 1)) return s;
  if (v >= a->negcap) {
    long nc = a->negcap;
    while (nc <= v) nc = 2 * nc + 64;
    a->negs = nnt_xrealloc(a->negs, sizeof(int) * (size_t)nc);
    memset(a->negs + a->negcap, 0, sizeof(int) * (size_t)(nc - a->negcap));
    a->negcap = nc;
  }
  if (!a->negs[v]) {
    char name[32];
    snprintf(name, sizeof name, "!v%ld", v);
    a->negs[v] = nnt_circuit_cb_gate(a->b, name, NNT_CIRCUIT_GATE_NOT, 1, &s, a->line) + 1;
  }
  return a->negs[v] - 1;
}

int nnt_circuit_parse_aag(const char *text, size_t len, const char *name, nnt_circuit *c) {
  nnt_circuit_cbuild b;
  nnt_circuit_cb_init(&b, name);
  aag a = {&b, text, text + len, 0, 0, NULL, 0, -1, -1};
  int st = NNT_OK, got = 0;
  long h[8] = {0}, v[8];
  if (len < 4 || memcmp(text, "aag", 3) || (text[3] != ' ' && text[3] != '\t')) {
    st = nnt_fail(NNT_EFORMAT, "%s:1: expected the header 'aag M I L O A'%s", name,
                  len >= 3 && !memcmp(text, "aig", 3) ? " (binary AIGER is not supported; convert with aigtoaig)" : "");
  } else {
    a.p += 3;
    if (!(st = read_nums(&a, h, 5, 1, &got))) {
      if (got > 9) st = nnt_fail(NNT_EFORMAT, "%s:1: too many header fields", name);
      else if (h[2] > 0) st = nnt_fail(NNT_EFORMAT, "%s:1: %ld latches: sequential circuits are not supported", name, h[2]);
      for (int k = 5; k < got && k < 8 && !st; k++)
        if (h[k]) st = nnt_fail(NNT_EFORMAT, "%s:1: AIGER 1.9 bad/constraint/justice/fairness properties are not supported", name);
    }
  }
  a.maxvar = h[0];
  for (long i = 0; i < h[1] && !st; i++) {
    if ((st = read_nums(&a, v, 1, 0, NULL))) break;
    if (v[0] < 2 || (v[0] & 1) || v[0] > 2 * a.maxvar)
      st = nnt_fail(NNT_EFORMAT, "%s:%d: input literal %ld must be even and in 2..2M", name, a.line, v[0]);
    else st = nnt_circuit_cb_input(&b, var_sig(&a, v[0] / 2), a.line);
  }
  for (long i = 0; i < h[3] && !st; i++) {
    if ((st = read_nums(&a, v, 1, 0, NULL))) break;
    int s = lit_sig(&a, v[0], &st);
    if (!st) nnt_circuit_cb_output(&b, s, a.line);
  }
  for (long i = 0; i < h[4] && !st; i++) {
    if ((st = read_nums(&a, v, 3, 0, NULL))) break;
    if (v[0] < 2 || (v[0] & 1) || v[0] > 2 * a.maxvar) {
      st = nnt_fail(NNT_EFORMAT, "%s:%d: and-gate literal %ld must be even and in 2..2M", name, a.line, v[0]);
      break;
    }
    int in[2];
    in[0] = lit_sig(&a, v[1], &st);
    if (!st) in[1] = lit_sig(&a, v[2], &st);
    if (!st) st = nnt_circuit_cb_define(&b, var_sig(&a, v[0] / 2), NNT_CIRCUIT_GATE_AND, 2, in, a.line);
  }
  /* Symbol table and comments: checked for shape only. */
  while (!st && a.p < a.end) {
    const char *nl = memchr(a.p, '\n', (size_t)(a.end - a.p)), *e = nl ? nl : a.end, *p = a.p;
    a.line++;
    a.p = nl ? nl + 1 : a.end;
    if (p == e) continue;
    if (*p == 'c' && (e - p == 1 || p[1] == '\r')) break;
    if (!strchr("ilobcjf", *p) || p + 1 >= e || !isdigit((unsigned char)p[1]) || *p == 0) {
      st = nnt_fail(NNT_EFORMAT, "%s:%d: expected a symbol-table line ('i0 name') or 'c'", name, a.line);
      break;
    }
    const char *q = p + 1;
    while (q < e && isdigit((unsigned char)*q)) q++;
    if (q >= e || *q != ' ') st = nnt_fail(NNT_EFORMAT, "%s:%d: expected a space and a name after '%c<k>'", name, a.line, *p);
  }
  free(a.negs);
  if (st) {
    nnt_circuit_cb_free(&b);
    return st;
  }
  return nnt_circuit_cb_finish(&b, c);
}
