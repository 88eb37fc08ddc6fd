/* nnt_test.h — minimal test macros: CHECK records a failure and goes on; the summary line
 * "N passed, N failed" closes every test executable, and main returns non-zero on any failure. */
#ifndef NNT_TEST_H
#define NNT_TEST_H
#include <math.h>
#include <stdio.h>

static int nnt_test_passed, nnt_test_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) nnt_test_passed++;                                               \
    else {                                                                     \
      nnt_test_failed++;                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                \
  do {                                                                      \
    if (cond) nnt_test_passed++;                                            \
    else {                                                                  \
      nnt_test_failed++;                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                         \
      fputc('\n', stderr);                                                  \
    }                                                                       \
  } while (0)

#define CHECK_CLOSE(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b);                                                                     \
    CHECK_MSG(fabs(a_ - b_) <= (tol) * (1 + fabs(b_)), "%s = %.10g, %s = %.10g", #a, a_, #b, b_); \
  } while (0)

#define TEST_MAIN_END()                                                        \
  do {                                                                         \
    printf("%d passed, %d failed\n", nnt_test_passed, nnt_test_failed);        \
    return nnt_test_failed ? 1 : 0;                                            \
  } while (0)

#endif
