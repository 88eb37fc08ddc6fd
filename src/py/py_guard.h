/* py_guard.h — GUARDED(call): the body of an nnt_py entry point, which runs `call` (an int
 * expression) under an out-of-memory recovery point and returns its status (NNT_ENOMEM when an
 * allocation failed inside). */
#ifndef PY_GUARD_H
#define PY_GUARD_H
#include <setjmp.h>

#include "nnt_error.h"

#define GUARDED(call)                          \
  do {                                         \
    nnt_oom_point oom_;                        \
    nnt_oom_enter(&oom_);                      \
    if (setjmp(oom_.env)) {                    \
      nnt_oom_leave(&oom_);                    \
      return NNT_ENOMEM;                       \
    }                                          \
    int st_ = (call);                          \
    nnt_oom_leave(&oom_);                      \
    return st_;                                \
  } while (0)

#endif
