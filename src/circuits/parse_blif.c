/* BLIF reader, combinational subset of Berkeley's Logic Interchange Format.
 *
 * Accepted: `#` comments, `\` line continuation, one `.model`, `.inputs`, `.outputs` (either may
 * repeat), `.names in... out` with its single-output cover (rows of 0/1/- and one output bit, all
 * rows the same bit: 1 = on-set, 0 = off-set; no rows = constant 0), `.end`. Rejected with a
 * line number: `.latch` (sequential), `.subckt`/`.search` (hierarchy), `.gate`/`.mlatch` (mapped
 * netlists), `.exdc` and any other dot-command, a second `.model`.
 *
 * A cover becomes gates: one NOT per complemented input, one AND per cube with two or more
 * literals, then the output as AND/NAND (one cube) or OR/NOR (several cubes) of the cubes. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "circuit_build.h"
#include "nnt_error.h"

typedef struct {
  const char *p;
  int n;
} tok;

typedef struct {
  tok *t;
  int n, cap, line;
} lline;

/* Reads the next logical line (comments removed, continuations joined) from *pp; returns 0 at
 * the end of the text. Tokens point into the text. */
static int next_line(const char **pp, const char *end, int *phys, lline *L) {
  L->n = 0;
  L->line = 0;
  while (*pp < end) {
    const char *p = *pp, *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
    (*phys)++;
    *pp = nl ? nl + 1 : end;
    const char *hash = memchr(p, '#', (size_t)(le - p)), *e = hash ? hash : le;
    while (e > p && isspace((unsigned char)e[-1])) e--;
    int cont = e > p && e[-1] == '\\';
    if (cont) e--;
    while (p < e) {
      while (p < e && isspace((unsigned char)*p)) p++;
      if (p >= e) break;
      const char *s = p;
      while (p < e && !isspace((unsigned char)*p)) p++;
      if (L->n == L->cap) L->t = nnt_xrealloc(L->t, sizeof(tok) * (size_t)(L->cap = 2 * L->cap + 16));
      if (!L->line) L->line = *phys;
      L->t[L->n++] = (tok){s, (int)(p - s)};
    }
    if (!cont && L->n) return 1;
  }
  return L->n > 0;
}

static int is(const tok *t, const char *kw) { return (size_t)t->n == strlen(kw) && !memcmp(t->p, kw, (size_t)t->n); }

typedef struct {
  int out, nin, line, outbit, nrows, const1; /* const1: a row with no literals */
  int *in;
  char *rows; /* nrows x nin characters */
  int rowcap;
} cover;

static int has_nul(const tok *t) { return memchr(t->p, 0, (size_t)t->n) != NULL; }

static int emit_cover(nnt_circuit_cbuild *b, cover *cv) {
  const char *name = b->name[cv->out];
  if (cv->nrows == 0) return nnt_circuit_cb_define(b, cv->out, NNT_CIRCUIT_GATE_CONST0, 0, NULL, cv->line);
  if (cv->const1)
    return nnt_circuit_cb_define(b, cv->out, cv->outbit ? NNT_CIRCUIT_GATE_CONST1 : NNT_CIRCUIT_GATE_CONST0, 0, NULL, cv->line);
  int *neg = nnt_xmalloc(sizeof(int) * (size_t)cv->nin), *lits = nnt_xmalloc(sizeof(int) * (size_t)cv->nin),
      *cubes = nnt_xmalloc(sizeof(int) * (size_t)cv->nrows), st;
  for (int i = 0; i < cv->nin; i++) neg[i] = -1;
  for (int r = 0; r < cv->nrows; r++)
    for (int i = 0; i < cv->nin; i++)
      if (cv->rows[(size_t)r * cv->nin + i] == '0' && neg[i] < 0)
        neg[i] = nnt_circuit_cb_gate(b, name, NNT_CIRCUIT_GATE_NOT, 1, &cv->in[i], cv->line);
  if (cv->nrows == 1) {
    int k = 0;
    for (int i = 0; i < cv->nin; i++) {
      char ch = cv->rows[i];
      if (ch != '-') lits[k++] = ch == '1' ? cv->in[i] : neg[i];
    }
    st = nnt_circuit_cb_define(b, cv->out, cv->outbit ? NNT_CIRCUIT_GATE_AND : NNT_CIRCUIT_GATE_NAND, k, lits, cv->line);
  } else {
    for (int r = 0; r < cv->nrows; r++) {
      int k = 0;
      for (int i = 0; i < cv->nin; i++) {
        char ch = cv->rows[(size_t)r * cv->nin + i];
        if (ch != '-') lits[k++] = ch == '1' ? cv->in[i] : neg[i];
      }
      cubes[r] = k == 1 ? lits[0] : nnt_circuit_cb_gate(b, name, NNT_CIRCUIT_GATE_AND, k, lits, cv->line);
    }
    st = nnt_circuit_cb_define(b, cv->out, cv->outbit ? NNT_CIRCUIT_GATE_OR : NNT_CIRCUIT_GATE_NOR, cv->nrows, cubes, cv->line);
  }
  free(neg), free(lits), free(cubes);
  return st;
}

int nnt_circuit_parse_blif(const char *text, size_t len, const char *name, nnt_circuit *c) {
  nnt_circuit_cbuild b;
  nnt_circuit_cb_init(&b, name);
  lline L = {0};
  cover cv = {0};
  int st = NNT_OK, phys = 0, models = 0, in_names = 0, ended = 0;
  const char *p = text, *end = text + len;
  while (!st && !ended && next_line(&p, end, &phys, &L)) {
    for (int i = 0; i < L.n && !st; i++)
      if (has_nul(&L.t[i])) st = nnt_fail(NNT_EFORMAT, "%s:%d: NUL byte in the text", name, L.line);
    if (st) break;
    const tok *t = L.t;
    if (t[0].p[0] != '.') { /* a cover row */
      if (!in_names) {
        st = nnt_fail(NNT_EFORMAT, "%s:%d: unexpected '%.*s' outside a .names cover", name, L.line, t[0].n, t[0].p);
        break;
      }
      int want = cv.nin ? 2 : 1;
      if (L.n != want) {
        st = nnt_fail(NNT_EFORMAT, "%s:%d: a cover row of this .names has %d field%s", name, L.line, want,
                      want > 1 ? "s" : "");
        break;
      }
      const tok *cube = cv.nin ? &t[0] : NULL, *ob = &t[L.n - 1];
      if (cube && cube->n != cv.nin) {
        st = nnt_fail(NNT_EFORMAT, "%s:%d: cube '%.*s' has %d characters, .names has %d inputs", name, L.line,
                      cube->n, cube->p, cube->n, cv.nin);
        break;
      }
      int lits = 0;
      for (int i = 0; cube && i < cube->n && !st; i++) {
        char ch = cube->p[i];
        if (ch != '0' && ch != '1' && ch != '-')
          st = nnt_fail(NNT_EFORMAT, "%s:%d: cube character '%c' is not 0, 1 or -", name, L.line, ch);
        lits += ch != '-';
      }
      if (st) break;
      if (ob->n != 1 || (ob->p[0] != '0' && ob->p[0] != '1')) {
        st = nnt_fail(NNT_EFORMAT, "%s:%d: the output column must be 0 or 1", name, L.line);
        break;
      }
      int bit = ob->p[0] == '1';
      if (cv.nrows && bit != cv.outbit) {
        st = nnt_fail(NNT_EFORMAT, "%s:%d: cover mixes on-set (1) and off-set (0) rows", name, L.line);
        break;
      }
      cv.outbit = bit;
      if (!lits) cv.const1 = 1;
      if (cv.nrows == cv.rowcap) cv.rows = nnt_xrealloc(cv.rows, (size_t)(cv.rowcap = 2 * cv.rowcap + 8) * (size_t)(cv.nin + 1));
      if (cube) memcpy(cv.rows + (size_t)cv.nrows * cv.nin, cube->p, (size_t)cv.nin);
      cv.nrows++;
      continue;
    }
    if (in_names) {
      in_names = 0;
      if ((st = emit_cover(&b, &cv))) break;
    }
    if (is(t, ".model")) {
      if (models++) st = nnt_fail(NNT_EFORMAT, "%s:%d: a second .model: hierarchical BLIF is not supported", name, L.line);
    } else if (is(t, ".inputs") || is(t, ".outputs")) {
      for (int i = 1; i < L.n && !st; i++) {
        int s = nnt_circuit_cb_sig(&b, t[i].p, (size_t)t[i].n, L.line);
        if (t[0].n == 7) st = nnt_circuit_cb_input(&b, s, L.line);
        else nnt_circuit_cb_output(&b, s, L.line);
      }
    } else if (is(t, ".names")) {
      if (L.n < 2) {
        st = nnt_fail(NNT_EFORMAT, "%s:%d: .names needs an output signal", name, L.line);
        break;
      }
      cv.nin = L.n - 2;
      cv.in = nnt_xrealloc(cv.in, sizeof(int) * (size_t)(cv.nin + 1));
      for (int i = 0; i < cv.nin; i++) cv.in[i] = nnt_circuit_cb_sig(&b, t[i + 1].p, (size_t)t[i + 1].n, L.line);
      cv.out = nnt_circuit_cb_sig(&b, t[L.n - 1].p, (size_t)t[L.n - 1].n, L.line);
      cv.line = L.line;
      cv.nrows = cv.const1 = cv.outbit = 0;
      free(cv.rows);
      cv.rows = NULL;
      cv.rowcap = 0;
      in_names = 1;
    } else if (is(t, ".end")) {
      ended = 1;
    } else if (is(t, ".latch") || is(t, ".mlatch")) {
      st = nnt_fail(NNT_EFORMAT, "%s:%d: %.*s: sequential circuits (latches) are not supported", name, L.line, t[0].n, t[0].p);
    } else {
      st = nnt_fail(NNT_EFORMAT, "%s:%d: unsupported BLIF construct '%.*s' (combinational subset: .model .inputs "
                    ".outputs .names .end)", name, L.line, t[0].n > 40 ? 40 : t[0].n, t[0].p);
    }
  }
  if (!st && in_names) st = emit_cover(&b, &cv);
  free(L.t), free(cv.in), free(cv.rows);
  if (st) {
    nnt_circuit_cb_free(&b);
    return st;
  }
  return nnt_circuit_cb_finish(&b, c);
}
