/* nnt tour — the main job: every subsystem's quick preset, one Markdown report.
 *
 * A failure is a result, not a reason to stop: every section runs whatever the ones before it
 * found, report.md is always written with a summary at its top, and the tour exits 1 when a check
 * failed or a section stopped early. Only bad options stop it, before it creates anything.
 *
 * NNT_TOUR_FAIL=NAME[,NAME...] is for the test suite only: it adds one failed check to each named
 * section, so a test can prove that a failure is reported and the later sections still run (no
 * section can be made to fail for real on demand).
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_io.h"
#include "nnt_progress.h"

typedef struct {
  const char *only;
} tour_cfg;
static const cli_opt tour_opts[] = {CLI_STR("only", tour_cfg, only, "run only these sections (comma-separated; default all)"), {0}};
static const cli_cmd tour_cmd = {
    .name = "tour",
    .example = "nnt tour --out runs/tour\n"
               "nnt tour --only core,tm --out runs/tour-tm",
    .about = "Runs the quick preset of every subsystem and writes DIR/report.md (default DIR: nnt-tour)\n"
             "with each section's tables and plots under DIR/<section>/. Every section runs even when an\n"
             "earlier one fails; report.md opens with a summary, and the exit status is 1 when a check\n"
             "failed or a section stopped early.",
    .opts = tour_opts,
    .cfg_size = sizeof(tour_cfg),
    .common = CLI_OUT};

/* What one section did, for the summary. */
typedef struct {
  const char *name;
  int status; /* the hook's: NNT_OK when it ran to the end */
  int passed, failed;
  double seconds;
  char error[256];
} section_result;

void cli_tour_checks(cli_tour *t, int passed, int failed) {
  t->passed += passed;
  t->failed += failed;
}

int cli_tour_checked(cli_tour *t, int status) {
  if (status != NNT_OK && status != NNT_ECHECK) return status;
  cli_tour_checks(t, status == NNT_OK, status == NNT_ECHECK);
  if (status == NNT_ECHECK) cli_tour_printf(t, "\n**FAIL**: %s\n\n", nnt_errmsg());
  return NNT_OK;
}

/* Whether name is one of the comma-separated names in list. */
static int in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list;; p++) {
    if (!strncmp(p, name, n) && (p[n] == ',' || !p[n])) return 1;
    if (!(p = strchr(p, ','))) return 0;
  }
}

static int section_passed(const section_result *r) { return !r->status && !r->failed; }

/* Runs one section into t->report. An error ends the section, not the tour: it is written where
 * the section stopped, so its half-written tables and files are never taken for complete ones. */
static void run_section(const cli_area *s, cli_tour *t, section_result *r) {
  double t0 = nnt_now();
  fprintf(stderr, "tour: %s ...\n", s->name);
  t->passed = t->failed = 0;
  char dir[1024];
  long start = ftell(t->report);
  int st = nnt_mkdirs(nnt_path(dir, sizeof dir, t->out, s->name));
  if (!st) st = s->tour(t);
  *r = (section_result){.name = s->name, .status = st};
  if (st) {
    snprintf(r->error, sizeof r->error, "%s", *nnt_errmsg() ? nnt_errmsg() : "failed");
    /* a section that stopped before its own heading still gets one, so its error has a place */
    if (ftell(t->report) == start) cli_tour_printf(t, "## %s\n", s->name);
    cli_tour_printf(t, "\n\n**ERROR**: the section stopped early: %s. Its part of this report and its files "
                    "under `%s/` are incomplete.\n", r->error, s->name);
    fprintf(stderr, "tour: %s stopped early: %s\n", s->name, r->error);
  }
  const char *inject = getenv("NNT_TOUR_FAIL");
  if (inject && in_list(inject, s->name))
    cli_tour_checked(t, nnt_fail(NNT_ECHECK, "one failed check injected by NNT_TOUR_FAIL (test hook)"));
  r->passed = t->passed;
  r->failed = t->failed;
  r->seconds = nnt_now() - t0;
  if (r->failed) fprintf(stderr, "tour: %s: %d check(s) failed\n", s->name, r->failed);
  cli_tour_printf(t, "\n_%s: %.1f s_\n\n", s->name, r->seconds);
}

/* A table cell: '|' would end it and a newline the row. */
static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputs("\\|", f);
    else fputc(*s == '\n' ? ' ' : *s, f);
  }
}

static void write_summary(FILE *f, const section_result *res, int n, double seconds) {
  int bad = 0, passed = 0, failed = 0;
  for (int i = 0; i < n; i++) {
    bad += !section_passed(&res[i]);
    passed += res[i].passed;
    failed += res[i].failed;
  }
  fprintf(f, "## Summary\n\n");
  if (bad) fprintf(f, "**FAIL**: %d of %d sections did not pass.", bad, n);
  else fprintf(f, "PASS: all %d sections passed.", n);
  fprintf(f, " Checks: %d passed, %d failed. Total wall time: %.1f s.\n\n"
          "| section | result | checks passed | checks failed | time (s) | error |\n|---|---|---|---|---|---|\n",
          passed, failed, seconds);
  for (int i = 0; i < n; i++) {
    const section_result *r = &res[i];
    fprintf(f, "| %s | %s | ", r->name, r->status ? "**ERROR**" : r->failed ? "**FAIL**" : "PASS");
    if (r->passed + r->failed) fprintf(f, "%d | %d", r->passed, r->failed);
    else fputs("— | —", f);
    fprintf(f, " | %.1f | ", r->seconds);
    md_text(f, r->error);
    fputs(" |\n", f);
  }
  fputs("\nPASS: the section ran to the end and every check it makes held (—: it makes none). **FAIL**: a check "
        "failed; it is marked **FAIL** below. **ERROR**: the section stopped early, at the point marked "
        "**ERROR** below.\n\n", f);
}

/* Appends the sections' text, kept aside so that the summary can come first. */
static int append_file(FILE *dst, FILE *src) {
  char buf[1 << 14];
  size_t n;
  rewind(src);
  while ((n = fread(buf, 1, sizeof buf, src)) > 0)
    if (fwrite(buf, 1, n, dst) != n) break;
  return ferror(src) || ferror(dst) ? nnt_fail(NNT_EIO, "tour: cannot assemble report.md") : NNT_OK;
}

/* "core,tm,..." : the areas with a tour section, in their order. */
static void section_names(char *buf, size_t n) {
  buf[0] = 0;
  for (const cli_area *const *a = cli_areas(); *a; a++)
    if ((*a)->tour) snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? "," : "", (*a)->name);
}

int cmd_tour(int argc, char **argv) {
  tour_cfg c;
  cli_args a;
  char names[256];
  section_names(names, sizeof names);
  int st = cli_parse(&tour_cmd, argc, argv, &c, &a);
  if (!st && a.co.help) printf("\nsections (in order): %s\n", names);
  if (st || a.co.help) return st;
  cli_common co = a.co;
  if (!co.out) co.out = "nnt-tour";
  const char *only = c.only;
  /* the sections: the tour hooks of the areas, in their order */
  const cli_area *const *areas = cli_areas();
  int nareas = 0;
  while (areas[nareas]) nareas++;
  if (only) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *s = NULL, *tok = strtok_r(buf, ",", &s); tok; tok = strtok_r(NULL, ",", &s)) {
      int found = 0;
      for (int i = 0; i < nareas; i++) found |= areas[i]->tour && !strcmp(tok, areas[i]->name);
      if (!found) return nnt_fail(NNT_EINVAL, "--only: no section named '%s' (sections: %s)", tok, names);
    }
  }
  if ((st = cli_begin(&co))) return st;

  /* report.md is opened first so that an unwritable folder stops the tour before any work. */
  char path[1024];
  nnt_afile rep;
  if ((st = nnt_afile_open(&rep, nnt_path(path, sizeof path, co.out, "report.md")))) return st;
  FILE *sections_text = tmpfile();
  if (!sections_text) return nnt_afile_abort(&rep), nnt_fail(NNT_EIO, "tour: cannot create a temporary file");
  cli_tour t = {co.out, sections_text, co.seed, co.threads, 0, 0};
  section_result res[nareas];
  int nrun = 0;
  double t0 = nnt_now();
  for (int i = 0; i < nareas; i++)
    if (areas[i]->tour && (!only || in_list(only, areas[i]->name))) run_section(areas[i], &t, &res[nrun++]);
  double seconds = nnt_now() - t0;

  fprintf(rep.f, "# nnt tour\n\nnnt %s (%s), seed %llu, %d thread(s), kernels %s (CPU: %s). Each section ran its "
          "quick preset; files are under the section's folder.\n\n", nnt_version(), nnt_git_commit(), co.seed,
          nnt_threads_get(), nnt_cpu_isa_name(nnt_cpu_isa()), nnt_cpu_flags());
  write_summary(rep.f, res, nrun, seconds);
  st = append_file(rep.f, sections_text);
  fclose(sections_text);
  if (st) return nnt_afile_abort(&rep), st;
  if ((st = nnt_afile_commit(&rep))) return st;
  printf("tour: wrote %s/report.md (%.1f s)\n", co.out, seconds);

  char failed[512] = "";
  int nbad = 0;
  for (int i = 0; i < nrun; i++)
    if (!section_passed(&res[i]))
      snprintf(failed + strlen(failed), sizeof failed - strlen(failed), "%s%s", nbad++ ? ", " : "", res[i].name);
  if (nbad)
    return nnt_fail(NNT_ECHECK, "%d of %d section(s) did not pass (%s); see %s/report.md", nbad, nrun, failed, co.out);
  return NNT_OK;
}
