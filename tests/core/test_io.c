/* Atomic files, CSV, JSON round trip and malformed-JSON errors with line numbers. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_test.h"

int main(void) {
  char dir[] = "/tmp/nnt_test_io_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char sub[256], path[512];
  snprintf(sub, sizeof sub, "%s/a/b", dir);
  CHECK(nnt_mkdirs(sub) == NNT_OK);

  nnt_csv c;
  CHECK(nnt_csv_open(&c, sub, "t.csv", "x,y") == NNT_OK);
  nnt_csv_row(&c, "%d,%g", 1, 2.5);
  nnt_path(path, sizeof path, sub, "t.csv");
  CHECK(!nnt_file_exists(path)); /* not visible before commit */
  CHECK(nnt_csv_close(&c) == NNT_OK);
  FILE *f = fopen(path, "r");
  char buf[64] = {0};
  CHECK(f && fread(buf, 1, sizeof buf - 1, f) > 0);
  if (f) fclose(f);
  CHECK(!strcmp(buf, "x,y\n1,2.5\n"));

  nnt_afile a;
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

  f = fopen(path, "w");
  fputs("{\n \"a\": 1,\n \"b\": ]\n}\n", f);
  fclose(f);
  CHECK(nnt_json_read(path, &back) == NNT_EFORMAT);
  CHECK_MSG(strstr(nnt_errmsg(), ":3:") != NULL, "message: %s", nnt_errmsg());
  nnt_path(path, sizeof path, sub, "missing.json");
  CHECK(nnt_json_read(path, &back) == NNT_EIO);
  CHECK(nnt_mkdirs("/proc/nope/x") != NNT_OK);

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
