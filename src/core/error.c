#include "nnt_error.h"
#include "nnt_file.h"

#include <signal.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char errbuf[512];

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static int utf8_len(const unsigned char *s) {
  int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
        : (s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return n;
}

/* Messages quote user input (file contents, option values): control bytes and invalid UTF-8
 * become '?', so a binary file cannot garble the terminal through an error line. */
static void make_printable(char *msg) {
  for (unsigned char *p = (unsigned char *)msg; *p;) {
    int n = utf8_len(p);
    if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) *p++ = '?';
    else p += n;
  }
}

int nnt_fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(errbuf, sizeof errbuf, fmt, ap);
  va_end(ap);
  make_printable(errbuf);
  return code;
}

const char *nnt_errmsg(void) { return errbuf; }

int nnt_exit_code(int status) {
  switch (status) {
    case NNT_OK: return 0;
    case NNT_ECHECK:
    case NNT_ENUMERIC: return 1;
    case NNT_EINTR: return 130; /* as a shell reports a command ended by SIGINT */
    default: return 2;
  }
}

static volatile sig_atomic_t interrupt_flag;
void nnt_interrupt_request(void) { interrupt_flag = 1; }
void nnt_interrupt_clear(void) { interrupt_flag = 0; }
int nnt_interrupted(void) { return interrupt_flag != 0; }

static _Thread_local nnt_oom_point *oom_top;

static int omp_level(void) {
#ifdef _OPENMP
  return omp_get_level();
#else
  return 0;
#endif
}

void nnt_oom_enter(nnt_oom_point *p) { p->prev = oom_top, p->level = omp_level(), oom_top = p; }
void nnt_oom_leave(nnt_oom_point *p) { oom_top = p->prev; }

_Noreturn void nnt_oom(size_t n) {
  char what[96] = "out of memory";
  if (n) snprintf(what, sizeof what, "out of memory allocating %zu bytes", n);
  if (oom_top && oom_top->level == omp_level()) {
    nnt_afile_drop_mine();
    nnt_oom_point *p = oom_top;
    oom_top = p->prev; /* the point is used up: a failure after the unwind goes to the one before */
    nnt_fail(NNT_ENOMEM, "%s (files already written, checkpoints included, are intact)", what);
    longjmp(p->env, 1);
  }
  nnt_afile_unlink_open();
  fprintf(stderr, "nnt: %s (files already written, checkpoints included, are intact)\n", what);
  _Exit(2); /* not exit(): no atexit handlers or stdio locks from whichever thread ran out */
}

static void *check(void *p, size_t n) {
  if (!p && n) nnt_oom(n);
  return p;
}

void *nnt_xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *nnt_xmalloc64(size_t n) {
  n = (n + 63) / 64 * 64;
  return check(aligned_alloc(64, n ? n : 64), n);
}
void *nnt_xcalloc(size_t count, size_t size) { return check(calloc(count ? count : 1, size ? size : 1), count * size); }
void *nnt_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
char *nnt_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(nnt_xmalloc(n), s, n);
}
