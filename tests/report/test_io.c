/* CSV tables appear whole on close; run.json records the command, its configuration and the seed. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_test.h"

int main(void) {
  char dir[] = "/tmp/nnt_test_io_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[512];

  nnt_csv c;
  CHECK(nnt_csv_open(&c, dir, "t.csv", "x,y") == NNT_OK);
  nnt_csv_row(&c, "%d,%g", 1, 2.5);
  nnt_path(path, sizeof path, dir, "t.csv");
  CHECK(!nnt_file_exists(path)); /* not visible before close */
  CHECK(nnt_csv_close(&c) == NNT_OK && c.rows == 1);
  FILE *f = fopen(path, "r");
  char buf[64] = {0};
  CHECK(f && fread(buf, 1, sizeof buf - 1, f) > 0);
  if (f) fclose(f);
  CHECK(!strcmp(buf, "x,y\n1,2.5\n"));

  cJSON *cfg = cJSON_CreateObject();
  cJSON_AddNumberToObject(cfg, "n", 3);
  CHECK(nnt_runinfo_write(dir, "nnt test", cfg, 42, 2, 0.5) == NNT_OK);
  cJSON *run = NULL;
  CHECK(nnt_json_read(nnt_path(path, sizeof path, dir, "run.json"), &run) == NNT_OK);
  CHECK(run && !strcmp(cJSON_GetObjectItem(run, "command")->valuestring, "nnt test"));
  CHECK(run && cJSON_GetObjectItem(run, "seed")->valuedouble == 42);
  CHECK(run && cJSON_GetObjectItem(cJSON_GetObjectItem(run, "config"), "n")->valuedouble == 3);
  CHECK(run && !strcmp(cJSON_GetObjectItem(run, "nnt_version")->valuestring, nnt_version()));
  cJSON_Delete(run);

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
