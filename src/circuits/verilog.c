/* Verilog circuit FILEs through yosys: synth -flatten, then write_blif, run in a private temporary
 * folder with yosys's log captured there. BLIF rather than AIGER: yosys's BLIF lists the ports in
 * declaration order, least significant bit first, under their Verilog names (a[0]), constant
 * outputs included, while its AIGER orders inputs by use and its map file omits constant outputs;
 * and without aigmap the gates of ABC's library (XOR, MUX, ...) give shallower nets. Running a
 * program is I/O: kept apart from the readers, which parse text only. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_circuits.h"
#include "nnt_file.h"


static const char *const created[] = {"script.ys", "yosys.log", "design.blif"};

static int is_verilog(const char *path) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  return dot && (!slash || dot > slash) && (!strcmp(dot, ".v") || !strcmp(dot, ".sv"));
}

/* yosys on PATH (an empty entry is the current folder), as the shell would find it. */
static int find_yosys(char *exe, size_t cap) {
  const char *p = getenv("PATH");
  while (p && *p) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (snprintf(exe, cap, "%.*s/yosys", (int)n, n ? p : ".") < (int)cap && access(exe, X_OK) == 0) return 1;
    p = e ? e + 1 : NULL;
  }
  return 0;
}

void nnt_circuit_src_close(nnt_circuit_src *s) {
  if (s->dir[0]) {
    char f[1200];
    for (size_t k = 0; k < sizeof created / sizeof *created; k++) {
      snprintf(f, sizeof f, "%s/%s", s->dir, created[k]);
      unlink(f);
    }
    rmdir(s->dir);
  }
  s->dir[0] = 0;
}

/* Appends the names of gates idx[0..n) to buf, runs base[k] base[k+1] .. base[m] as base[k..m]. */
static void name_runs(const nnt_circuit *c, const int *idx, int n, char *buf, size_t cap) {
  size_t len = strlen(buf);
  for (int i = 0; i < n && len < cap; ) {
    const char *nm = c->gates[idx[i]].name, *br = strrchr(nm, '[');
    int j = i + 1;
    long lo = br ? strtol(br + 1, NULL, 10) : 0;
    size_t bl = br ? (size_t)(br - nm) : 0;
    char next[32];
    while (br && j < n) { /* the run continues while the next name is base[lo + (j - i)] */
      snprintf(next, sizeof next, "[%ld]", lo + (j - i));
      const char *o = c->gates[idx[j]].name;
      if (strncmp(o, nm, bl) || strcmp(o + bl, next)) break;
      j++;
    }
    if (j - i > 1) len += (size_t)snprintf(buf + len, cap - len, " %.*s[%ld..%ld]", (int)bl, nm, lo, lo + (j - i - 1));
    else len += (size_t)snprintf(buf + len, cap - len, " %s", nm);
    i = j;
  }
}

/* Reads the synthesised BLIF once, up front: a malformed file is reported under the user's name
 * before any work, and the net's bits get their Verilog names. */
static int read_ports(nnt_circuit_src *s, const char *file) {
  char *text, label[1100];
  size_t len;
  nnt_circuit c;
  int st = nnt_file_read(s->blif, (size_t)1 << 31, &text, &len);
  if (st) return st;
  snprintf(label, sizeof label, "%s (yosys's BLIF)", file);
  st = nnt_circuit_parse_blif(text, len, label, &c);
  free(text);
  if (st) return st;
  char *b = s->ports;
  size_t cap = sizeof s->ports;
  snprintf(b, cap, c.ninputs > 1 ? "x0..x%d =" : c.ninputs ? "x0 =" : "no inputs", c.ninputs - 1);
  name_runs(&c, c.inputs, c.ninputs, b, cap);
  size_t n = strlen(b);
  snprintf(b + n, cap - n, c.noutputs > 1 ? ", y0..y%d =" : ", y0 =", c.noutputs - 1);
  name_runs(&c, c.outputs, c.noutputs, b, cap);
  if (strlen(b) >= cap - 1) memcpy(b + cap - 4, "...", 4);
  nnt_circuit_free(&c);
  return NNT_OK;
}

/* The first line of the log holding `key`, with the absolute design path shortened to `file`. */
static int log_line(const char *log, const char *key, const char *abs, const char *file, char *out, size_t cap) {
  const char *hit = strstr(log, key);
  if (!hit) return 0;
  const char *b = hit, *e = strchr(hit, '\n');
  while (b > log && b[-1] != '\n') b--;
  if (!e) e = hit + strlen(hit);
  size_t al = strlen(abs);
  if ((size_t)(e - b) >= al && !memcmp(b, abs, al)) snprintf(out, cap, "%s%.*s", file, (int)(e - b - al), b + al);
  else snprintf(out, cap, "%.*s", (int)(e - b), b);
  size_t n = strlen(out);
  while (n && (out[n - 1] == '\r' || out[n - 1] == ' ')) out[--n] = 0;
  return 1;
}

/* -auto-top picks one of several top-level modules without a word: the first "Finding top" of the
 * log lists them ("root of N design levels: NAME"); more than one is refused, naming them. */
static int one_top(const char *text, const char *file) {
  const char *end = strstr(text, "Automatically selected"), *t = text;
  char names[512] = "";
  int n = 0;
  while ((t = strstr(t, "root of ")) && (!end || t < end)) {
    const char *name = strstr(t, "levels: ");
    if (!name) break;
    name += 8;
    if (!strncmp(name, "$abstract\\", 10)) name += 10;
    else if (*name == '\\') name++;
    size_t len = strcspn(name, " \r\n");
    size_t used = strlen(names);
    snprintf(names + used, sizeof names - used, "%s%.*s", n ? ", " : "", (int)len, name);
    n++;
    t = name + len;
  }
  if (n > 1)
    return nnt_fail(NNT_EINVAL, "%s has %d top-level modules (%s): choose one with --top NAME", file, n, names);
  return NNT_OK;
}

static int run_yosys(const char *exe, nnt_circuit_src *s, const char *abs, const char *file, int auto_top) {
  char log[1200];
  snprintf(log, sizeof log, "%s/yosys.log", s->dir);
  pid_t pid = fork();
  if (pid < 0) return nnt_fail(NNT_EIO, "cannot start yosys: %s", strerror(errno));
  if (!pid) { /* the child: yosys in the temporary folder, its output into the log */
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600), nul = open("/dev/null", O_RDONLY);
    if (fd < 0 || nul < 0 || chdir(s->dir) || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(127);
    execl(exe, "yosys", "-s", "script.ys", abs, (char *)NULL);
    _exit(127);
  }
  int ws;
  while (waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) return nnt_fail(NNT_EIO, "waiting for yosys: %s", strerror(errno));
  char *text = NULL;
  size_t len;
  int st = nnt_file_read(log, (size_t)1 << 28, &text, &len);
  if (st) return st;
  text = nnt_xrealloc(text, len + 1);
  text[len] = 0;
  char line[1024];
  if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
    if (strstr(text, "ERROR: Assertion failed: selection is not empty: t:$_*DFF*"))
      st = nnt_fail(NNT_EFORMAT, "%s: the design keeps flip-flops or latches after synthesis; only combinational "
                    "logic compiles to a net", file);
    else if (log_line(text, "ERROR:", abs, file, line, sizeof line)) st = nnt_fail(NNT_EFORMAT, "yosys: %s", line);
    else if (WIFSIGNALED(ws)) st = nnt_fail(NNT_EIO, "yosys was killed by signal %d", WTERMSIG(ws));
    else st = nnt_fail(NNT_EIO, "yosys failed with exit status %d and no ERROR line", WEXITSTATUS(ws));
  } else if (!auto_top || !(st = one_top(text, file))) {
    const char *v = strstr(text, "\nYosys ");
    if (v) snprintf(s->version, sizeof s->version, "%.*s", (int)strcspn(v + 1, "\r\n"), v + 1);
    const char *t = text, *last = NULL;
    while ((t = strstr(t, "Top module:  \\"))) last = t += 14;
    if (last) snprintf(s->top, sizeof s->top, "%.*s", (int)strcspn(last, "\r\n"), last);
  }
  free(text);
  return st;
}

int nnt_circuit_src_open(const char *file, const char *top, nnt_circuit_src *s) {
  memset(s, 0, sizeof *s);
  s->path = file;
  if (!is_verilog(file)) return top ? nnt_fail(NNT_EINVAL, "--top: only for a Verilog FILE (.v, .sv)") : NNT_OK;
  if (top && (!*top || strspn(top, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$") != strlen(top) ||
              strlen(top) >= sizeof s->top))
    return nnt_fail(NNT_EINVAL, "--top: '%s' is not a Verilog module name", top);
  char exe[1024], abs[2048];
  if (!find_yosys(exe, sizeof exe))
    return nnt_fail(NNT_EINVAL, "reading .v needs yosys (Debian package yosys); not found on PATH");
  if (access(file, R_OK)) return nnt_fail(NNT_EIO, "cannot read %s: %s", file, strerror(errno));
  if (file[0] == '/') snprintf(abs, sizeof abs, "%s", file);
  else {
    char cwd[1024];
    if (!getcwd(cwd, sizeof cwd)) return nnt_fail(NNT_EIO, "cannot read the current folder: %s", strerror(errno));
    snprintf(abs, sizeof abs, "%s/%s", cwd, file);
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(s->dir, sizeof s->dir, "%s/nnt-yosys-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(s->dir)) {
    int e = errno;
    s->dir[0] = 0;
    return nnt_fail(NNT_EIO, "cannot make a temporary folder for yosys: %s", strerror(e));
  }
  /* The design is yosys's positional argument (any file name, frontend by extension); the script
   * names only files inside the folder and a checked module name. */
  char script[512];
  const char *sel = top ? "-top " : "-auto-top";
  snprintf(script, sizeof script,
           "hierarchy -check %s%s\nsynth -flatten %s%s\nselect -assert-none t:$_*DFF* t:$_DLATCH* t:$_SR_*\n"
           "write_blif design.blif\n", sel, top ? top : "", sel, top ? top : "");
  char path[1200];
  snprintf(path, sizeof path, "%s/script.ys", s->dir);
  FILE *f = fopen(path, "w");
  int st = f && fputs(script, f) >= 0 ? NNT_OK : nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
  if (f && fclose(f) && !st) st = nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
  if (!st) st = run_yosys(exe, s, abs, file, !top);
  snprintf(s->blif, sizeof s->blif, "%s/design.blif", s->dir);
  if (!st) st = read_ports(s, file);
  if (st) return nnt_circuit_src_close(s), st;
  s->path = s->blif;
  return NNT_OK;
}

void nnt_circuit_src_print(const nnt_circuit_src *s) {
  if (s->ports[0]) printf("verilog: top=%s (%s) net bits: %s\n", s->top, s->version, s->ports);
}

int nnt_circuit_src_read(const char *file, const char *top, nnt_circuit_src *src, const char **path) {
  int st = nnt_circuit_src_open(file, top, src);
  if (st) return st;
  nnt_circuit c;
  if ((st = nnt_circuit_read(src->path, &c))) return st;
  nnt_circuit_free(&c);
  *path = src->path;
  return NNT_OK;
}
