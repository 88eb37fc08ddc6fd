/* results.json: each committed CSV's rows as JSON objects, numbers with the CSV's own digits, one
 * results.json per folder, oversized or ragged CSVs named under "skipped". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnt_error.h"
#include "nnt_io.h"
#include "nnt_test.h"

static cJSON *read_results(const char *dir) {
  char path[512];
  cJSON *j = NULL;
  CHECK(nnt_json_read(nnt_path(path, sizeof path, dir, "results.json"), &j) == NNT_OK);
  return j;
}

static int is_number(const cJSON *row, const char *col, double want) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, col);
  return cJSON_IsNumber(v) && v->valuedouble == want;
}

static int is_string(const cJSON *row, const char *col, const char *want) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, col);
  return cJSON_IsString(v) && !strcmp(v->valuestring, want);
}

int main(void) {
  char dir[] = "/tmp/nnt_test_results_XXXXXX", sub[600], path[600];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(sub, sizeof sub, "%s/sub", dir);
  CHECK(mkdir(sub, 0755) == 0);

  /* every kind of field: JSON numbers, texts that only look numeric, quoted commas and quotes, a
   * line break inside quotes, empty fields */
  nnt_csv c;
  CHECK(nnt_csv_open(&c, dir, "a.csv", "n,x,name,e") == NNT_OK);
  nnt_csv_row(&c, "1,0.10000000000000001,plain,");
  nnt_csv_row(&c, "-2,1e-300,\"a, \"\"quoted\"\" b\",1E+5");
  nnt_csv_row(&c, "007,nan,+1,.5");
  nnt_csv_row(&c, "0,-0.0,\"two\nlines\",inf");
  CHECK(nnt_csv_close(&c) == NNT_OK);
  /* written twice: listed once, with the second content */
  CHECK(nnt_csv_open(&c, dir, "twice.csv", "k") == NNT_OK);
  nnt_csv_row(&c, "1");
  CHECK(nnt_csv_close(&c) == NNT_OK);
  CHECK(nnt_csv_open(&c, dir, "twice.csv", "k") == NNT_OK);
  nnt_csv_row(&c, "2");
  CHECK(nnt_csv_close(&c) == NNT_OK);
  CHECK(nnt_csv_open(&c, dir, "ragged.csv", "a,b") == NNT_OK);
  nnt_csv_row(&c, "1,2");
  nnt_csv_row(&c, "1,2,3");
  CHECK(nnt_csv_close(&c) == NNT_OK);
  CHECK(nnt_csv_open(&c, dir, "big.csv", "v") == NNT_OK);
  for (int i = 0; i < 100; i++) nnt_csv_row(&c, "%d", i);
  CHECK(nnt_csv_close(&c) == NNT_OK);
  CHECK(nnt_csv_open(&c, sub, "b.csv", "only") == NNT_OK);
  nnt_csv_row(&c, "3.5");
  CHECK(nnt_csv_close(&c) == NNT_OK);
  CHECK(nnt_csv_open(&c, dir, "empty.csv", "h1,h2") == NNT_OK);
  CHECK(nnt_csv_close(&c) == NNT_OK);

  CHECK(nnt_results_write("nnt test", 200) == NNT_OK); /* big.csv (292 bytes) is over */
  cJSON *r = read_results(dir);
  CHECK(r && is_string(r, "command", "nnt test"));
  const cJSON *files = cJSON_GetObjectItemCaseSensitive(r, "files");
  const cJSON *skipped = cJSON_GetObjectItemCaseSensitive(r, "skipped");
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(files, "a.csv");
  CHECK(cJSON_GetArraySize(a) == 4);
  const cJSON *r0 = cJSON_GetArrayItem(a, 0), *r1 = cJSON_GetArrayItem(a, 1), *r2 = cJSON_GetArrayItem(a, 2),
              *r3 = cJSON_GetArrayItem(a, 3);
  CHECK(is_number(r0, "n", 1) && is_number(r0, "x", 0.1) && is_string(r0, "name", "plain"));
  CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r0, "e")));
  CHECK(is_number(r1, "n", -2) && is_number(r1, "x", 1e-300) && is_string(r1, "name", "a, \"quoted\" b"));
  CHECK(is_number(r1, "e", 1e5));
  /* not JSON numbers: kept as the CSV's text */
  CHECK(is_string(r2, "n", "007") && is_string(r2, "x", "nan") && is_string(r2, "name", "+1") && is_string(r2, "e", ".5"));
  CHECK(is_number(r3, "n", 0) && is_number(r3, "x", 0) && signbit(cJSON_GetObjectItem(r3, "x")->valuedouble));
  CHECK(is_string(r3, "name", "two\nlines") && is_string(r3, "e", "inf"));
  /* the CSV's own digits, not a reprinting (17 significant digits survive as written) */
  char *text = NULL;
  CHECK(nnt_file_read(nnt_path(path, sizeof path, dir, "results.json"), 1 << 20, &text, NULL) == NNT_OK);
  CHECK(text && strstr(text, "\"x\": 0.10000000000000001,") && strstr(text, "\"x\": -0.0,") && strstr(text, "\"e\": 1E+5}"));
  free(text);
  const cJSON *tw = cJSON_GetObjectItemCaseSensitive(files, "twice.csv");
  CHECK(cJSON_GetArraySize(tw) == 1 && is_number(cJSON_GetArrayItem(tw, 0), "k", 2));
  CHECK(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(files, "empty.csv")) &&
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(files, "empty.csv")) == 0);
  CHECK(!cJSON_GetObjectItemCaseSensitive(files, "ragged.csv") && !cJSON_GetObjectItemCaseSensitive(files, "big.csv"));
  CHECK(!cJSON_GetObjectItemCaseSensitive(files, "b.csv") && !cJSON_GetObjectItemCaseSensitive(files, "sub/b.csv"));
  CHECK(is_string(skipped, "ragged.csv", "row 2 has 3 fields, the header 2"));
  CHECK(is_string(skipped, "big.csv", "292 bytes, over the 200 that results.json takes: read the CSV itself"));
  CHECK(cJSON_GetArraySize(files) == 3 && cJSON_GetArraySize(skipped) == 2);
  cJSON_Delete(r);

  /* the CSV of another folder goes to that folder's results.json */
  r = read_results(sub);
  files = cJSON_GetObjectItemCaseSensitive(r, "files");
  CHECK(cJSON_GetArraySize(files) == 1 && is_number(cJSON_GetArrayItem(cJSON_GetObjectItem(files, "b.csv"), 0), "only", 3.5));
  cJSON_Delete(r);

  /* the list starts afresh: a second call has nothing to write */
  CHECK(remove(nnt_path(path, sizeof path, dir, "results.json")) == 0);
  CHECK(nnt_results_write("nnt test", 200) == NNT_OK);
  CHECK(!nnt_file_exists(path));

  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
