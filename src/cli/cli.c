#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_blas.h"
#include "cli.h"
#include "nnt_io.h"
#include "nnt_mpi.h"
#include "record.h"

int cli_threads(int threads) {
  nnt_threads_set(threads);
  return nnt_threads_get();
}

int cli_prepare_out(const char *out) {
  if (!out) return NNT_OK;
  cli_record_dir(out, access(out, F_OK) != 0);
  int st = nnt_mkdirs(out);
  /* results are written at the end: an unwritable folder must stop the run before its work (rank 0
   * alone writes under MPI: the others neither create nor check the folder) */
  if (!st && !nnt_mpi_rank() && access(out, W_OK | X_OK) != 0)
    st = nnt_fail(NNT_EIO, "cannot write into %s: %s", out, strerror(errno));
  return st;
}

char *cli_command_line(char *buf, size_t n, const char *family, int argc, char **argv) {
  size_t p = (size_t)snprintf(buf, n, "%s", family);
  for (int i = 0; i < argc && p < n; i++) p += (size_t)snprintf(buf + p, n - p, " %s", argv[i]);
  return buf;
}

int cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  /* strtol skips leading blanks: ' 5' would pass where a file name with one would not */
  if (!*s || isspace((unsigned char)*s) || *end) return nnt_fail(NNT_EINVAL, "%s: '%s' is not an integer", opt, s);
  if (errno == ERANGE || v < lo || v > hi) return nnt_fail(NNT_EINVAL, "%s: %s is out of range [%ld..%ld]", opt, s, lo, hi);
  *out = v;
  return NNT_OK;
}

int cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out) {
  long v = 0;
  int st = cli_parse_long(opt, s, lo, hi, &v);
  if (!st) *out = (int)v;
  return st;
}

int cli_parse_double(const char *opt, const char *s, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || isspace((unsigned char)*s) || *end || isnan(v)) return nnt_fail(NNT_EINVAL, "%s: '%s' is not a number", opt, s);
  /* ERANGE with a finite result is an underflow (1e-310): a number, judged by the range below */
  if (isinf(v) || v < lo || v > hi) return nnt_fail(NNT_EINVAL, "%s: %s is out of range [%g..%g]", opt, s, lo, hi);
  *out = v;
  return NNT_OK;
}

/* Is the tail of vals[0..n) geometric with an integer ratio (returned in *r)? */
static int geometric_tail(const long *vals, int n, long *r) {
  long a = vals[n - 2], b = vals[n - 1];
  if (a <= 0 || b <= a || b % a) return 0;
  *r = b / a;
  if (n >= 3) return vals[n - 3] > 0 && vals[n - 3] * *r == a;
  return *r >= 10;
}

static int progression(const char *opt, long end, long *vals, int max, int *n) {
  if (*n < 2) return nnt_fail(NNT_EINVAL, "%s: '...' needs two values before it", opt);
  long a = vals[*n - 2], b = vals[*n - 1], r;
  int geo = geometric_tail(vals, *n, &r);
  if (b == a || (end - b) * (b - a) <= 0) return nnt_fail(NNT_EINVAL, "%s: %ld,%ld,...,%ld does not progress", opt, a, b, end);
  for (long v = b;;) {
    long next = geo ? v * r : v + (b - a);
    if ((b > a && next > end) || (b < a && next < end)) break;
    if (*n == max) return nnt_fail(NNT_EINVAL, "%s: more than %d values", opt, max);
    vals[(*n)++] = v = next;
  }
  if (vals[*n - 1] != end)
    return nnt_fail(NNT_EINVAL, "%s: the progression %ld,%ld,... does not reach %ld", opt, a, b, end);
  return NNT_OK;
}

/* Copies a comma-separated list into buf, refusing an empty item ("2,4,", ",2", "2,,4"), which
 * strtok would skip silently. */
static int list_copy(const char *opt, const char *s, char *buf, size_t n) {
  if (snprintf(buf, n, "%s", s) >= (int)n) return nnt_fail(NNT_EINVAL, "%s: list too long", opt);
  size_t len = strlen(buf);
  if (!len) return nnt_fail(NNT_EINVAL, "%s: empty list", opt);
  if (buf[0] == ',' || buf[len - 1] == ',' || strstr(buf, ",,"))
    return nnt_fail(NNT_EINVAL, "%s: '%s' has an empty item", opt, s);
  return NNT_OK;
}

int cli_parse_double_list(const char *opt, const char *s, double lo, double hi, double *vals, int max, int *n) {
  char buf[4096];
  if (list_copy(opt, s, buf, sizeof buf)) return NNT_EINVAL;
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (*n == max) return nnt_fail(NNT_EINVAL, "%s: more than %d values", opt, max);
    if (cli_parse_double(opt, tok, lo, hi, &vals[(*n)++])) return NNT_EINVAL;
  }
  return NNT_OK;
}

int cli_parse_int_list(const char *opt, const char *s, long lo, long hi, long *vals, int max, int *n) {
  char buf[4096];
  if (list_copy(opt, s, buf, sizeof buf)) return NNT_EINVAL;
  *n = 0;
  int pending = 0; /* a "..." waits for its end value */
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "...")) {
      if (pending) return nnt_fail(NNT_EINVAL, "%s: '...' twice in a row", opt);
      pending = 1;
      continue;
    }
    char *dots = strstr(tok, "..");
    long a, b;
    if (dots) {
      if (pending) return nnt_fail(NNT_EINVAL, "%s: '...' must end in a single value", opt);
      *dots = 0;
      if (cli_parse_long(opt, tok, lo, hi, &a) || cli_parse_long(opt, dots + 2, lo, hi, &b)) return NNT_EINVAL;
      if (b < a) return nnt_fail(NNT_EINVAL, "%s: empty range %ld..%ld", opt, a, b);
    } else {
      if (cli_parse_long(opt, tok, lo, hi, &a)) return NNT_EINVAL;
      b = a;
    }
    if (pending) {
      if (progression(opt, a, vals, max, n)) return NNT_EINVAL;
      pending = 0;
      continue;
    }
    for (long v = a; v <= b; v++) {
      if (*n == max) return nnt_fail(NNT_EINVAL, "%s: more than %d values", opt, max);
      vals[(*n)++] = v;
    }
  }
  if (pending) return nnt_fail(NNT_EINVAL, "%s: '...' needs an end value after it", opt);
  if (*n == 0) return nnt_fail(NNT_EINVAL, "%s: empty list", opt);
  return NNT_OK;
}

int cli_parse_choice(const char *opt, const char *s, const char *const *choices, int *out) {
  char all[512] = "";
  for (int i = 0; choices[i]; i++) {
    if (!strcmp(s, choices[i])) {
      *out = i;
      return NNT_OK;
    }
    strncat(all, i ? "|" : "", sizeof all - strlen(all) - 1);
    strncat(all, choices[i], sizeof all - strlen(all) - 1);
  }
  return nnt_fail(NNT_EINVAL, "%s: '%s' is not one of %s", opt, s, all);
}

void cli_tour_printf(cli_tour *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(t->report, fmt, ap);
  va_end(ap);
}
