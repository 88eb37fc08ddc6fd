/* Verilog circuit FILEs through yosys: synth -flatten, aigmap, write_aiger -ascii -map, run in a
 * private temporary folder with yosys's log captured there; the map file names every AIGER input
 * and output after its Verilog port bit. Running a program is I/O, so this lives in the CLI. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "verilog_circuits.h"

static const char *const created[] = {"script.ys", "yosys.log", "design.aag", "design.map"};

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

void cli_circuit_close(cli_circuit_src *s) {
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

/* Appends "name[lo..hi] " runs of the map file's lines of `kind` ("input"/"output") to *buf. */
static int map_ports(const char *map, size_t len, const char *kind, char **buf, size_t *n, size_t *cap, int *count) {
  char prev[256] = "";
  long lo = 0, hi = -2, idx = 0;
  const char *p = map, *end = map + len;
  *count = 0;
  for (;;) {
    char name[256] = "";
    long i = -1, bit = 0;
    int more = p < end;
    if (more) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      char line[512], k[16];
      size_t l = (size_t)((nl ? nl : end) - p);
      snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line ? l : sizeof line - 1), p);
      p = nl ? nl + 1 : end;
      if (sscanf(line, "%15s %ld %ld %255s", k, &i, &bit, name) != 4) {
        if (line[0]) return nnt_fail(NNT_EFORMAT, "yosys wrote an unexpected map line '%s'", line);
        continue;
      }
      if (strcmp(k, kind)) continue;
      if (i != idx++) return nnt_fail(NNT_EFORMAT, "yosys's map lists %s %ld out of order", kind, i);
      (*count)++;
      if (!strcmp(name, prev) && bit == hi + 1) {
        hi = bit;
        continue;
      }
    }
    if (prev[0]) { /* flush the run prev[lo..hi] */
      if (*cap - *n < sizeof prev + 64) *buf = nnt_xrealloc(*buf, *cap = 2 * *cap + sizeof prev + 64);
      if (lo == 0 && hi == 0) *n += (size_t)snprintf(*buf + *n, *cap - *n, " %s", prev);
      else if (lo == hi) *n += (size_t)snprintf(*buf + *n, *cap - *n, " %s[%ld]", prev, lo);
      else *n += (size_t)snprintf(*buf + *n, *cap - *n, " %s[%ld..%ld]", prev, lo, hi);
    }
    if (!more) return NNT_OK;
    snprintf(prev, sizeof prev, "%s", name);
    lo = hi = bit;
  }
}

static int read_ports(cli_circuit_src *s) {
  char path[1200], *map;
  size_t len, n = 0, cap = 256;
  int nin, nout;
  snprintf(path, sizeof path, "%s/design.map", s->dir);
  int st = nnt_file_read(path, (size_t)1 << 28, &map, &len);
  if (st) return st;
  char *buf = nnt_xmalloc(cap);
  buf[0] = 0;
  if (!(st = map_ports(map, len, "input", &buf, &n, &cap, &nin))) {
    char *in = buf;
    buf = nnt_xmalloc(cap = 256), n = 0, buf[0] = 0;
    if (!(st = map_ports(map, len, "output", &buf, &n, &cap, &nout))) {
      char xs[32], ys[32];
      snprintf(xs, sizeof xs, nin > 1 ? "x0..x%d" : "x0", nin - 1), snprintf(ys, sizeof ys, nout > 1 ? "y0..y%d" : "y0", nout - 1);
      int w = snprintf(s->ports, sizeof s->ports, "%s =%s, %s =%s", xs, in, ys, buf);
      if (w >= (int)sizeof s->ports) memcpy(s->ports + sizeof s->ports - 4, "...", 4);
    }
    free(in);
  }
  free(buf), free(map);
  return st;
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

static int run_yosys(const char *exe, cli_circuit_src *s, const char *abs, const char *file) {
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
    if (log_line(text, "ERROR:", abs, file, line, sizeof line)) st = nnt_fail(NNT_EFORMAT, "yosys: %s", line);
    else if (WIFSIGNALED(ws)) st = nnt_fail(NNT_EIO, "yosys was killed by signal %d", WTERMSIG(ws));
    else st = nnt_fail(NNT_EIO, "yosys failed with exit status %d and no ERROR line", WEXITSTATUS(ws));
  } else {
    const char *v = strstr(text, "\nYosys ");
    if (v) snprintf(s->version, sizeof s->version, "%.*s", (int)strcspn(v + 1, "\r\n"), v + 1);
    const char *t = text, *last = NULL;
    while ((t = strstr(t, "Top module:  \\"))) last = t += 14;
    if (last) snprintf(s->top, sizeof s->top, "%.*s", (int)strcspn(last, "\r\n"), last);
  }
  free(text);
  return st;
}

int cli_circuit_open(const char *file, const char *top, cli_circuit_src *s) {
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
           "hierarchy -check %s%s\nsynth -flatten %s%s\naigmap\nwrite_aiger -ascii -map design.map design.aag\n", sel,
           top ? top : "", sel, top ? top : "");
  char path[1200];
  snprintf(path, sizeof path, "%s/script.ys", s->dir);
  FILE *f = fopen(path, "w");
  int st = f && fputs(script, f) >= 0 ? NNT_OK : nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
  if (f && fclose(f) && !st) st = nnt_fail(NNT_EIO, "cannot write %s: %s", path, strerror(errno));
  if (!st) st = run_yosys(exe, s, abs, file);
  if (!st) st = read_ports(s);
  if (st) return cli_circuit_close(s), st;
  snprintf(s->aag, sizeof s->aag, "%s/design.aag", s->dir);
  s->path = s->aag;
  return NNT_OK;
}

void cli_circuit_print_src(const cli_circuit_src *s) {
  if (s->ports[0]) printf("verilog: top=%s (%s) net bits: %s\n", s->top, s->version, s->ports);
}
