/* The safetensors writer: a small file compared byte for byte with one spelled out by hand from the
 * format's description (length prefix, header, padding, data order), a larger one parsed back with
 * cJSON (offsets contiguous, each tensor aligned to its element size, the data as added), and the
 * refusals (duplicate name, bad rank, a path that is not a regular file). */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_safetensors.h"
#include "nnt_test.h"

static unsigned long long le64(const unsigned char *p) {
  unsigned long long v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

int main(void) {
  char dir[] = "/tmp/nnt_test_st_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[512];

  /* 1. byte for byte: a u8 vector added before an f32 scalar; the f32 is stored first (larger
   * elements first), the header padded with spaces to a multiple of 8 */
  nnt_st_writer *w;
  CHECK(nnt_st_writer_alloc(&w) == NNT_OK);
  const unsigned char u[3] = {1, 2, 255};
  const float f = 1.0f; /* 0x3f800000: bytes 00 00 80 3f */
  long long n3 = 3;
  CHECK(nnt_st_add(w, "b", NNT_ST_U8, 1, &n3, u) == NNT_OK);
  CHECK(nnt_st_add(w, "a", NNT_ST_F32, 0, NULL, &f) == NNT_OK);
  CHECK(nnt_st_meta(w, "kind", "t\"q") == NNT_OK);
  nnt_path(path, sizeof path, dir, "small.safetensors");
  CHECK(nnt_st_write(w, path) == NNT_OK);
  nnt_st_writer_free(w);
  const char *hdr = "{\"__metadata__\":{\"kind\":\"t\\\"q\"},"
                    "\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]},"
                    "\"b\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[4,7]}}";
  size_t hl = strlen(hdr), padded = (hl + 7) / 8 * 8;
  unsigned char want[512];
  for (int i = 0; i < 8; i++) want[i] = (unsigned char)(padded >> (8 * i));
  memcpy(want + 8, hdr, hl);
  memset(want + 8 + hl, ' ', padded - hl);
  const unsigned char data[7] = {0x00, 0x00, 0x80, 0x3f, 1, 2, 255};
  memcpy(want + 8 + padded, data, 7);
  char *got;
  size_t glen;
  CHECK(nnt_file_read(path, 1 << 20, &got, &glen) == NNT_OK);
  CHECK_MSG(glen == 8 + padded + 7 && !memcmp(got, want, glen), "got %zu bytes, header %.*s", glen,
            (int)(glen > 8 ? glen - 8 : 0), got + 8);
  free(got);

  /* 2. mixed dtypes, parsed back */
  CHECK(nnt_st_writer_alloc(&w) == NNT_OK);
  double d[6] = {1.5, -2, 3e300, 0, -0.0, 7};
  int32_t i32[5] = {1, -2, 3, 4, 2147483647};
  int64_t i64[2] = {-1, (int64_t)1 << 60};
  unsigned char b1[1] = {9};
  long long s23[2] = {2, 3}, s5 = 5, s2 = 2, s1 = 1, s0 = 0;
  CHECK(nnt_st_add(w, "u", NNT_ST_U8, 1, &s1, b1) == NNT_OK);
  CHECK(nnt_st_add(w, "layers.0.weight", NNT_ST_F64, 2, s23, d) == NNT_OK);
  CHECK(nnt_st_add(w, "idx", NNT_ST_I32, 1, &s5, i32) == NNT_OK);
  CHECK(nnt_st_add(w, "big", NNT_ST_I64, 1, &s2, i64) == NNT_OK);
  CHECK(nnt_st_add(w, "empty", NNT_ST_F64, 1, &s0, NULL) == NNT_OK);
  CHECK(nnt_st_add(w, "idx", NNT_ST_I32, 1, &s5, i32) == NNT_EINVAL); /* duplicate */
  long long nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  CHECK(nnt_st_add(w, "r9", NNT_ST_F64, 9, nine, d) == NNT_EINVAL);
  long long neg = -1;
  CHECK(nnt_st_add(w, "neg", NNT_ST_F64, 1, &neg, d) == NNT_EINVAL);
  CHECK(nnt_st_add(w, "__metadata__", NNT_ST_F64, 0, NULL, d) == NNT_EINVAL);
  CHECK(nnt_st_meta(w, "arch", "{\"sizes\":[2,3]}\n") == NNT_OK);
  nnt_path(path, sizeof path, dir, "mixed.safetensors");
  CHECK(nnt_st_write(w, path) == NNT_OK);
  CHECK(nnt_st_write(w, dir) == NNT_EIO); /* a directory is not replaced */
  CHECK(nnt_st_write(w, "/dev/null") == NNT_EIO);
  nnt_st_writer_free(w);

  CHECK(nnt_file_read(path, 1 << 20, &got, &glen) == NNT_OK);
  unsigned long long n = le64((unsigned char *)got);
  CHECK(n % 8 == 0 && 8 + n <= glen);
  char *h = malloc(n + 1);
  memcpy(h, got + 8, n);
  h[n] = 0;
  cJSON *j = cJSON_Parse(h);
  CHECK(j != NULL);
  const unsigned char *base = (unsigned char *)got + 8 + n;
  size_t data_len = glen - 8 - n, covered = 0;
  int count = 0;
  cJSON *t;
  cJSON_ArrayForEach(t, j) {
    if (!strcmp(t->string, "__metadata__")) {
      CHECK(!strcmp(cJSON_GetObjectItem(t, "arch")->valuestring, "{\"sizes\":[2,3]}\n"));
      continue;
    }
    count++;
    cJSON *off = cJSON_GetObjectItem(t, "data_offsets");
    size_t b = (size_t)cJSON_GetArrayItem(off, 0)->valuedouble, e = (size_t)cJSON_GetArrayItem(off, 1)->valuedouble;
    CHECK_MSG(b == covered, "%s starts at %zu, previous ended at %zu", t->string, b, covered);
    covered = e;
    const char *dt = cJSON_GetObjectItem(t, "dtype")->valuestring;
    size_t es = !strcmp(dt, "U8") ? 1 : !strcmp(dt, "I32") || !strcmp(dt, "F32") ? 4 : 8;
    CHECK_MSG(b % es == 0, "%s at %zu not aligned to %zu", t->string, b, es);
    if (!strcmp(t->string, "layers.0.weight")) {
      CHECK(e - b == sizeof d && !memcmp(base + b, d, sizeof d) && !strcmp(dt, "F64"));
      cJSON *sh = cJSON_GetObjectItem(t, "shape");
      CHECK(cJSON_GetArraySize(sh) == 2 && cJSON_GetArrayItem(sh, 1)->valuedouble == 3);
    }
    if (!strcmp(t->string, "idx")) CHECK(e - b == sizeof i32 && !memcmp(base + b, i32, sizeof i32));
    if (!strcmp(t->string, "big")) CHECK(e - b == sizeof i64 && !memcmp(base + b, i64, sizeof i64));
    if (!strcmp(t->string, "u")) CHECK(e - b == 1 && base[b] == 9);
    if (!strcmp(t->string, "empty")) CHECK(e == b);
  }
  CHECK(count == 5 && covered == data_len);
  cJSON_Delete(j);
  free(h);
  free(got);

  /* 3. an empty writer still writes a valid file: "{}" padded */
  CHECK(nnt_st_writer_alloc(&w) == NNT_OK);
  nnt_path(path, sizeof path, dir, "empty.safetensors");
  CHECK(nnt_st_write(w, path) == NNT_OK);
  nnt_st_writer_free(w);
  CHECK(nnt_file_read(path, 1 << 20, &got, &glen) == NNT_OK);
  CHECK(glen == 16 && le64((unsigned char *)got) == 8 && !memcmp(got + 8, "{}      ", 8));
  free(got);

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
