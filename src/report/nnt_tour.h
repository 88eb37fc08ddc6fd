/* nnt_tour.h — what nnt tour writes: report.md (a summary, then the sections' Markdown) and
 * report.html (the same text with each section's introduction and every plot inline). The tour
 * (src/cli/cmd_tour.c) runs the sections; their text is kept aside in a file until the end. */
#ifndef NNT_TOUR_H
#define NNT_TOUR_H
#include <stdio.h>

#include "nnt_io.h"

/* What one section did. */
typedef struct {
  const char *name;
  const char *claim, *ran;       /* its introduction (NULL: none) */
  const char *const *glossary;   /* term, explanation, ..., NULL (NULL: none) */
  int status;                    /* the section's: NNT_OK when it ran to the end */
  int passed, failed;            /* its checks */
  double seconds;
  char error[256];
  char outcome[512];             /* its result in a sentence */
  long md_start, md_end;         /* its text in the sections' Markdown */
} nnt_tour_section;
/* Ran to the end with no failed check. */
int nnt_tour_section_passed(const nnt_tour_section *r);

/* The machine and the build, for both reports' headers. */
typedef struct {
  char cpu[256], date[64];
  const char *isa, *flags;
  unsigned long long seed;
  int threads;
  double seconds;
} nnt_tour_machine;
void nnt_tour_machine_read(nnt_tour_machine *m, unsigned long long seed);

/* report.md into rep (opened by the caller before any work, so an unwritable folder stops the tour
 * first): header, summary, the sections' text; committed, or aborted on an error. */
int nnt_tour_write_md(nnt_afile *rep, FILE *sections_text, const nnt_tour_section *res, int n, const nnt_tour_machine *m);
/* out/report.html from the same text. */
int nnt_tour_write_html(const char *out, FILE *sections_text, const nnt_tour_section *res, int n, const nnt_tour_machine *m);
/* The core section's matmul timings: dir/gemm.csv and the plot dir/gemm. */
int nnt_tour_write_gemm(const char *dir, int n, const double *sizes, const double *loops, const double *blas);

#endif
