/* fuzz_tm.h — the body shared by the TM-reader fuzz targets: every rejection carries a message, and
 * whatever a reader accepts must compile into a transformer that matches the direct simulation at
 * every step (hard attention, float64 and float32). */
#ifndef NNT_FUZZ_TM_H
#define NNT_FUZZ_TM_H
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_tm.h"

typedef int (*tm_reader)(const char *text, const char *where, nnt_tm *tm);

static int fuzz_tm_reader(tm_reader read, const unsigned char *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  nnt_tm tm;
  int st = read(text, "fuzz", &tm);
  free(text);
  if (st != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    return 0;
  }
  if (tm.k * tm.nsym <= 64 && tm.m <= 16) {
    long T = 1 + (long)(size % 40);
    nnt_tm_trace tr;
    nnt_tm_net net;
    if (nnt_tm_simulate(&tm, T, &tr) || nnt_tm_compile(&tm, T, &net)) abort();
    for (int p = 0; p < 2; p++) {
      nnt_tm_run_opts o = {.attention = NNT_TM_HARD, .precision = p ? NNT_TM_F32 : NNT_TM_F64};
      nnt_tm_run_result r;
      if (nnt_tm_net_run(&net, &tm, &tr, &o, &r) || r.mismatches || r.nonbinary || r.steps_checked != T) abort();
    }
    nnt_tm_net_free(&net);
    nnt_tm_trace_free(&tr);
  }
  nnt_tm_free(&tm);
  return 0;
}

#endif
