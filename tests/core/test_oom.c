/* Out-of-memory recovery points (nnt_error.h): a failed allocation unwinds to the newest point of
 * its thread with NNT_ENOMEM and its message, deletes the atomic files that thread was writing,
 * nests, and leaves the process able to allocate, write and fail again. Without a point the
 * process would end (exit 2): this test would then fail by its exit status. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_test.h"

/* AddressSanitizer builds: a failed malloc returns NULL, as glibc's does, instead of a report
 * (ASan reads this hook at start-up; other builds never call it). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* More than any machine has: malloc fails at once. */
static const size_t HUGE_BYTES = (size_t)1 << 62;

static int alloc_huge(void) {
  void *p = nnt_xmalloc(HUGE_BYTES);
  free(p);
  return NNT_OK;
}

/* A status from a call under its own point, as a library entry point does. */
static int guarded(int (*f)(void)) {
  nnt_oom_point p;
  nnt_oom_enter(&p);
  if (setjmp(p.env)) return nnt_oom_leave(&p), NNT_ENOMEM;
  int st = f();
  nnt_oom_leave(&p);
  return st;
}

static int inner_then_outer(void) {
  int inner = guarded(alloc_huge); /* the inner point catches this one */
  if (inner != NNT_ENOMEM) return NNT_ECHECK;
  return alloc_huge(); /* and this one reaches the outer point */
}

static char tmp_seen[sizeof(((nnt_afile *)0)->tmp)];
static FILE *abandoned; /* what the unwound frame held is the caller's to forget (here: closed) */
static int write_then_fail(void) {
  nnt_afile a;
  char path[1024];
  nnt_path(path, sizeof path, getenv("NNT_OOM_DIR"), "half.txt");
  if (nnt_afile_open(&a, path)) return NNT_EIO;
  fputs("half written", a.f);
  fflush(a.f);
  snprintf(tmp_seen, sizeof tmp_seen, "%s", a.tmp);
  abandoned = a.f;
  return alloc_huge(); /* a (on this stack) is abandoned by the unwind */
}

int main(void) {
  CHECK(guarded(alloc_huge) == NNT_ENOMEM);
  CHECK_MSG(strstr(nnt_errmsg(), "out of memory allocating 4611686018427387904 bytes") != NULL, "%s", nnt_errmsg());

  /* the process goes on: small allocations work, and a second failure is caught as well */
  char *s = nnt_xstrdup("still here");
  CHECK(!strcmp(s, "still here"));
  free(s);
  CHECK(guarded(alloc_huge) == NNT_ENOMEM);

  CHECK(guarded(inner_then_outer) == NNT_ENOMEM);

  /* a file being written when memory ran out: its temporary is deleted, the target never appears,
   * and a later write of the same file commits */
  char dir[] = "/tmp/nnt_test_oom_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  setenv("NNT_OOM_DIR", dir, 1);
  CHECK(guarded(write_then_fail) == NNT_ENOMEM);
  CHECK(tmp_seen[0] && access(tmp_seen, F_OK) != 0);
  if (abandoned) fclose(abandoned);
  char path[1024];
  nnt_path(path, sizeof path, dir, "half.txt");
  CHECK(!nnt_file_exists(path));
  nnt_afile a;
  CHECK(nnt_afile_open(&a, path) == NNT_OK);
  fputs("whole", a.f);
  CHECK(nnt_afile_commit(&a) == NNT_OK);
  CHECK(nnt_file_exists(path));
  /* the abandoned temporary's slot was forgotten: deleting "every open temporary" now (what an
   * unrecoverable failure does) touches nothing of the committed file */
  nnt_afile_unlink_open();
  CHECK(nnt_file_exists(path));
  unlink(path);
  rmdir(dir);

  printf("%d passed, %d failed\n", nnt_test_passed, nnt_test_failed);
  return nnt_test_failed != 0;
}
