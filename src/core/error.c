#include "nnt_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char errbuf[512];

int nnt_fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(errbuf, sizeof errbuf, fmt, ap);
  va_end(ap);
  return code;
}

const char *nnt_errmsg(void) { return errbuf; }

int nnt_exit_code(int status) {
  switch (status) {
    case NNT_OK: return 0;
    case NNT_ECHECK:
    case NNT_ENUMERIC: return 1;
    default: return 2;
  }
}

static void *check(void *p, size_t n) {
  if (!p && n) {
    fprintf(stderr, "nnt: out of memory allocating %zu bytes\n", n);
    abort();
  }
  return p;
}

void *nnt_xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *nnt_xcalloc(size_t count, size_t size) { return check(calloc(count ? count : 1, size ? size : 1), count * size); }
void *nnt_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
char *nnt_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(nnt_xmalloc(n), s, n);
}
