/* nnt_error.h — one error convention for the whole library (after GSL).
 *
 * Functions that can fail return an int status: NNT_OK (0) or one of the codes below, after
 * recording a one-line message with nnt_fail(). The CLI prints that line and exits with
 * nnt_exit_code(status). Allocation failure is not recoverable: nnt_xmalloc ends the process with
 * one line and exit status 2 (nnt_oom); every file nnt writes is atomic, so what is on disk stays whole.
 */
#ifndef NNT_ERROR_H
#define NNT_ERROR_H
#include <stddef.h>

enum {
  NNT_OK = 0,
  NNT_EINVAL,   /* bad option value or argument */
  NNT_EFORMAT,  /* malformed input file ("file:line: what") */
  NNT_EIO,      /* cannot read or write a file */
  NNT_ENUMERIC, /* NaN/Inf or divergence */
  NNT_ECHECK,   /* a verification found a mismatch or a violated bound */
  NNT_ENOMEM    /* an allocation failed (where the library reports it instead of ending the process) */
};

/* Records a printf-style message for the calling thread and returns code. */
int nnt_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last message recorded by nnt_fail on this thread ("" if none). */
const char *nnt_errmsg(void);
/* Exit status for a status code: 0 for OK, 1 when the run itself failed — ECHECK (a verification
 * found a mismatch) or ENUMERIC (NaN/Inf in training: the run stops, its last checkpoint kept) —
 * and 2 for bad input and I/O. */
int nnt_exit_code(int status);

/* Prints "nnt: out of memory allocating N bytes ..." and exits with status 2 at once. */
_Noreturn void nnt_oom(size_t n);
void *nnt_xmalloc(size_t n);
/* n bytes at a multiple of 64 (a cache line: whole-line vector loads); free() releases them */
void *nnt_xmalloc64(size_t n);
void *nnt_xcalloc(size_t count, size_t size);
void *nnt_xrealloc(void *p, size_t n);
char *nnt_xstrdup(const char *s);

#endif
