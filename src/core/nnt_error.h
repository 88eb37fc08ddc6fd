/* nnt_error.h — one error convention for the whole library (after GSL).
 *
 * Functions that can fail return an int status: NNT_OK (0) or one of the codes below, after
 * recording a one-line message with nnt_fail(). The CLI prints that line and exits with
 * nnt_exit_code(status). Allocation failure (nnt_xmalloc and its kin) returns NNT_ENOMEM from the
 * nearest recovery point (nnt_oom_point) of the calling thread; see there for the one case that
 * still ends the process. Every file nnt writes is atomic, so what is on disk stays whole.
 */
#ifndef NNT_ERROR_H
#define NNT_ERROR_H
#include <setjmp.h>
#include <stddef.h>

enum {
  NNT_OK = 0,
  NNT_EINVAL,   /* bad option value or argument */
  NNT_EFORMAT,  /* malformed input file ("file:line: what") */
  NNT_EIO,      /* cannot read or write a file */
  NNT_ENUMERIC, /* NaN/Inf or divergence */
  NNT_ECHECK,   /* a verification found a mismatch or a violated bound */
  NNT_ENOMEM,   /* an allocation failed (where the library reports it instead of ending the process) */
  NNT_EINTR     /* stopped on request (nnt_interrupt_request): what was finished is stored, --resume continues */
};

/* Records a printf-style message for the calling thread and returns code. */
int nnt_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last message recorded by nnt_fail on this thread ("" if none). */
const char *nnt_errmsg(void);
/* Exit status for a status code: 0 for OK, 1 when the run itself failed — ECHECK (a verification
 * found a mismatch) or ENUMERIC (NaN/Inf in training: the run stops, its last checkpoint kept) —
 * and 2 for bad input and I/O. */
int nnt_exit_code(int status);

/* Asks the running computation to stop at its next point (sweeps) or step (training), which then
 * returns NNT_EINTR with what it finished stored. Async-signal-safe: a SIGINT handler or another
 * thread (Python's nnt.run on Ctrl-C) may call it. nnt_interrupt_clear() before a new run. */
void nnt_interrupt_request(void);
void nnt_interrupt_clear(void);
int nnt_interrupted(void);

/* Out-of-memory recovery (SQLite's rule: a library reports, it never ends its host). An entry point
 * that a host calls (nnt_cli_run, the typed functions of python/nnt) opens a recovery point:
 *
 *     nnt_oom_point p;
 *     nnt_oom_enter(&p);
 *     if (setjmp(p.env)) return nnt_oom_leave(&p), NNT_ENOMEM;  // message: nnt_errmsg()
 *     st = work();
 *     nnt_oom_leave(&p);
 *
 * An allocation that fails on that thread unwinds to the newest
 * open point (longjmp) with "out of memory allocating N bytes" recorded, after deleting the atomic
 * files being written. What the unwound frames held (memory, open files) is not returned: the host
 * keeps running and may call again, with that much less memory. Locals of the entry point changed
 * after setjmp must be volatile to be read after the unwind. A point opened inside a parallel region
 * (the sweep engine opens one around each point) serves its thread at that nesting level only. With
 * no point on the thread, or at a deeper OpenMP level than the newest point (a longjmp cannot leave a
 * parallel region), nnt_oom prints the message and ends the process with status 2, as the CLI did.
 * Points nest; each must be left before its frame returns. */
typedef struct nnt_oom_point {
  jmp_buf env;
  struct nnt_oom_point *prev;
  int level; /* the OpenMP nesting level it was opened at: a longjmp never leaves a parallel region */
} nnt_oom_point;
void nnt_oom_enter(nnt_oom_point *p);
void nnt_oom_leave(nnt_oom_point *p);
/* n: the size that failed, 0 when a library nnt calls (cJSON without nnt's hooks) reported NULL */
_Noreturn void nnt_oom(size_t n);
void *nnt_xmalloc(size_t n);
/* n bytes at a multiple of 64 (a cache line: whole-line vector loads); free() releases them */
void *nnt_xmalloc64(size_t n);
void *nnt_xcalloc(size_t count, size_t size);
void *nnt_xrealloc(void *p, size_t n);
char *nnt_xstrdup(const char *s);

#endif
