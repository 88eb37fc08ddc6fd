/* ISCAS .bench reader.
 *
 * Subset: `# comment`, `INPUT(name)`, `OUTPUT(name)`, `name = TYPE(a, b, ...)` with TYPE one of
 * AND, NAND, OR, NOR, XOR, XNOR (one or more inputs), NOT, BUF, BUFF (exactly one), keywords in
 * any case. DFF (ISCAS-89 flip-flops) is rejected: the reader is combinational. A name is any run
 * of characters other than white space and ( ) , = #. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "circuit_build.h"
#include "nnt_error.h"

static int name_char(char ch) {
  return !isspace((unsigned char)ch) && ch != '(' && ch != ')' && ch != ',' && ch != '=' && ch != '#' && ch != 0;
}

typedef struct {
  const char *p, *e;
} span;

static void skip_ws(span *s) {
  while (s->p < s->e && isspace((unsigned char)*s->p)) s->p++;
}

static size_t take_name(span *s, const char **start) {
  skip_ws(s);
  *start = s->p;
  while (s->p < s->e && name_char(*s->p)) s->p++;
  return (size_t)(s->p - *start);
}

static int expect(span *s, char ch) {
  skip_ws(s);
  if (s->p < s->e && *s->p == ch) {
    s->p++;
    return 1;
  }
  return 0;
}

static const struct {
  const char *kw;
  nnt_circuit_gate_type t;
} kinds[] = {{"AND", NNT_CIRCUIT_GATE_AND}, {"NAND", NNT_CIRCUIT_GATE_NAND}, {"OR", NNT_CIRCUIT_GATE_OR},   {"NOR", NNT_CIRCUIT_GATE_NOR},
             {"XOR", NNT_CIRCUIT_GATE_XOR}, {"XNOR", NNT_CIRCUIT_GATE_XNOR}, {"NOT", NNT_CIRCUIT_GATE_NOT}, {"BUF", NNT_CIRCUIT_GATE_BUF},
             {"BUFF", NNT_CIRCUIT_GATE_BUF}};

static int parse_line(nnt_circuit_cbuild *b, span s, int line, int **ins, int *inscap) {
  const char *name, *kw;
  size_t n = take_name(&s, &name);
  if (!n) return nnt_fail(NNT_EFORMAT, "%s:%d: expected INPUT(...), OUTPUT(...) or 'name = GATE(...)'", b->file, line);
  if (expect(&s, '(')) { /* INPUT(x) / OUTPUT(x) */
    int is_in = n == 5 && !strncasecmp(name, "INPUT", 5), is_out = n == 6 && !strncasecmp(name, "OUTPUT", 6);
    if (!is_in && !is_out)
      return nnt_fail(NNT_EFORMAT, "%s:%d: unknown declaration '%.*s' (expected INPUT or OUTPUT)", b->file, line,
                      (int)n, name);
    const char *arg;
    size_t an = take_name(&s, &arg);
    if (!an || !expect(&s, ')')) return nnt_fail(NNT_EFORMAT, "%s:%d: expected one signal name in parentheses", b->file, line);
    skip_ws(&s);
    if (s.p < s.e) return nnt_fail(NNT_EFORMAT, "%s:%d: unexpected text after ')'", b->file, line);
    int sig = nnt_circuit_cb_sig(b, arg, an, line);
    if (is_in) return nnt_circuit_cb_input(b, sig, line);
    nnt_circuit_cb_output(b, sig, line);
    return NNT_OK;
  }
  if (!expect(&s, '=')) return nnt_fail(NNT_EFORMAT, "%s:%d: expected '=' after '%.*s'", b->file, line, (int)n, name);
  size_t kn = take_name(&s, &kw);
  if (!kn) return nnt_fail(NNT_EFORMAT, "%s:%d: expected a gate type after '='", b->file, line);
  int t = -1;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strlen(kinds[i].kw) == kn && !strncasecmp(kinds[i].kw, kw, kn)) t = (int)kinds[i].t;
  if (t < 0) {
    if (kn == 3 && !strncasecmp(kw, "DFF", 3))
      return nnt_fail(NNT_EFORMAT, "%s:%d: flip-flop DFF: sequential circuits are not supported", b->file, line);
    return nnt_fail(NNT_EFORMAT, "%s:%d: unknown gate type '%.*s'", b->file, line, (int)kn, kw);
  }
  if (!expect(&s, '(')) return nnt_fail(NNT_EFORMAT, "%s:%d: expected '(' after the gate type", b->file, line);
  int nin = 0;
  if (!expect(&s, ')')) {
    for (;;) {
      const char *a;
      size_t an = take_name(&s, &a);
      if (!an) return nnt_fail(NNT_EFORMAT, "%s:%d: expected a signal name in the gate's input list", b->file, line);
      if (nin == *inscap) *ins = nnt_xrealloc(*ins, sizeof(int) * (size_t)(*inscap = 2 * *inscap + 8));
      (*ins)[nin++] = nnt_circuit_cb_sig(b, a, an, line);
      if (expect(&s, ')')) break;
      if (!expect(&s, ',')) return nnt_fail(NNT_EFORMAT, "%s:%d: expected ',' or ')' in the input list", b->file, line);
    }
  }
  skip_ws(&s);
  if (s.p < s.e) return nnt_fail(NNT_EFORMAT, "%s:%d: unexpected text after ')'", b->file, line);
  if (nin == 0) return nnt_fail(NNT_EFORMAT, "%s:%d: gate '%.*s' has no inputs", b->file, line, (int)n, name);
  if ((t == NNT_CIRCUIT_GATE_NOT || t == NNT_CIRCUIT_GATE_BUF) && nin != 1)
    return nnt_fail(NNT_EFORMAT, "%s:%d: %s takes exactly one input, got %d", b->file, line, nnt_circuit_gate_name(t), nin);
  return nnt_circuit_cb_define(b, nnt_circuit_cb_sig(b, name, n, line), (nnt_circuit_gate_type)t, nin, *ins, line);
}

int nnt_circuit_parse_bench(const char *text, size_t len, const char *name, nnt_circuit *c) {
  nnt_circuit_cbuild b;
  nnt_circuit_cb_init(&b, name);
  int st = NNT_OK, line = 0, *ins = NULL, inscap = 0;
  const char *p = text, *end = text + len;
  while (p < end && !st) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
    line++;
    const char *hash = memchr(p, '#', (size_t)(le - p));
    span s = {p, hash ? hash : le};
    skip_ws(&s);
    if (s.p < s.e) {
      for (const char *q = s.p; q < s.e && !st; q++)
        if (!*q) st = nnt_fail(NNT_EFORMAT, "%s:%d: NUL byte in the text", name, line);
      if (!st) st = parse_line(&b, s, line, &ins, &inscap);
    }
    p = le + 1;
  }
  free(ins);
  if (st) {
    nnt_circuit_cb_free(&b);
    return st;
  }
  return nnt_circuit_cb_finish(&b, c);
}
