/* Folders, atomic files, JSON round trip and malformed-JSON errors with line numbers. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_test.h"

int main(void) {
  char dir[] = "/tmp/nnt_test_file_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char sub[256], path[512];
  snprintf(sub, sizeof sub, "%s/a/b", dir);
  CHECK(nnt_mkdirs(sub) == NNT_OK);
  CHECK(nnt_mkdirs("/proc/nope/x") != NNT_OK);

  nnt_afile a;
  nnt_path(path, sizeof path, sub, "done.txt");
  CHECK(nnt_afile_open(&a, path) == NNT_OK);
  fputs("whole", a.f);
  CHECK(!nnt_file_exists(path)); /* not visible before commit */
  CHECK(nnt_afile_commit(&a) == NNT_OK);
  CHECK(nnt_file_exists(path) && !nnt_file_exists(a.tmp));

  nnt_path(path, sizeof path, sub, "aborted.txt");
  CHECK(nnt_afile_open(&a, path) == NNT_OK);
  fputs("half", a.f);
  nnt_afile_abort(&a);
  CHECK(!nnt_file_exists(path) && !nnt_file_exists(a.tmp));

  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "n", 3);
  nnt_path(path, sizeof path, sub, "x.json");
  CHECK(nnt_json_write(path, j) == NNT_OK);
  cJSON_Delete(j);
  cJSON *back = NULL;
  CHECK(nnt_json_read(path, &back) == NNT_OK && cJSON_GetObjectItem(back, "n")->valuedouble == 3);
  cJSON_Delete(back);

  FILE *f = fopen(path, "w");
  fputs("{\n \"a\": 1,\n \"b\": ]\n}\n", f);
  fclose(f);
  CHECK(nnt_json_read(path, &back) == NNT_EFORMAT);
  CHECK_MSG(strstr(nnt_errmsg(), ":3:") != NULL, "message: %s", nnt_errmsg());
  nnt_path(path, sizeof path, sub, "missing.json");
  CHECK(nnt_json_read(path, &back) == NNT_EIO);

  /* the process ending on an allocation failure (nnt_oom) deletes the temporaries still open, and
   * only those: a file committed before stays */
  char done[512];
  nnt_path(done, sizeof done, sub, "done.txt");
  nnt_path(path, sizeof path, sub, "open.txt");
  pid_t pid = fork();
  if (pid == 0) {
    nnt_afile d, o;
    if (nnt_afile_open(&d, done) || (fputs("kept\n", d.f), nnt_afile_commit(&d))) _Exit(3);
    if (nnt_afile_open(&o, path)) _Exit(3);
    fputs("half", o.f), fflush(o.f);
    nnt_oom(123);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 2);
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)pid);
  CHECK(nnt_file_exists(done) && !nnt_file_exists(path));
  CHECK_MSG(!nnt_file_exists(tmp), "%s was left behind", tmp);

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
