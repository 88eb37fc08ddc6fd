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
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_io.h"
#include "nnt_progress.h"
#include "nnt_tour.h"

typedef struct {
  const char *only;
} tour_cfg;

void cli_tour_outcome(cli_tour *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->outcome, sizeof t->outcome, fmt, ap);
  va_end(ap);
}

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

/* Runs one section into t->report. An error ends the section, not the tour: it is written where
 * the section stopped, so its half-written tables and files are never taken for complete ones. */
static void run_section(const cli_area *s, cli_tour *t, nnt_tour_section *r) {
  double t0 = nnt_now();
  fprintf(stderr, "tour: %s ...\n", s->name);
  t->passed = t->failed = 0;
  t->outcome[0] = 0;
  char dir[1024];
  long start = ftell(t->report);
  int st = nnt_mkdirs(nnt_path(dir, sizeof dir, t->out, s->name));
  if (!st) st = s->tour(t);
  *r = (nnt_tour_section){.name = s->name, .status = st, .md_start = start};
  if (s->guide) r->claim = s->guide->claim, r->ran = s->guide->ran, r->glossary = s->guide->glossary;
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
  r->md_end = ftell(t->report);
  snprintf(r->outcome, sizeof r->outcome, "%s", t->outcome);
}

/* "core,tm,..." : the areas with a tour section, in their order. */
static void section_names(char *buf, size_t n) {
  buf[0] = 0;
  for (const cli_area *const *a = cli_areas(); *a; a++)
    if ((*a)->tour) snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? "," : "", (*a)->name);
}

/* --only: every name a section's */
static int tour_validate(void *cfg, const cli_run *r) {
  const char *only = ((tour_cfg *)cfg)->only;
  (void)r;
  if (!only) return NNT_OK;
  char buf[256], names[256];
  section_names(names, sizeof names);
  snprintf(buf, sizeof buf, "%s", only);
  for (char *s = NULL, *tok = strtok_r(buf, ",", &s); tok; tok = strtok_r(NULL, ",", &s)) {
    int found = 0;
    for (const cli_area *const *a = cli_areas(); *a; a++) found |= (*a)->tour && !strcmp(tok, (*a)->name);
    if (!found) return nnt_fail(NNT_EINVAL, "--only: no section named '%s' (sections: %s)", tok, names);
  }
  return NNT_OK;
}

/* The sections, then report.md and report.html; NNT_ECHECK (after both) when one did not pass. */
static int tour_run(void *cfg, const cli_run *r, void *result) {
  const char *only = ((tour_cfg *)cfg)->only, *out = r->out;
  int st;
  (void)result;
  const cli_area *const *areas = cli_areas();
  int nareas = 0;
  while (areas[nareas]) nareas++;
  /* report.md is opened first so that an unwritable folder stops the tour before any work. */
  char path[1024];
  nnt_afile rep;
  if ((st = nnt_afile_open(&rep, nnt_path(path, sizeof path, out, "report.md")))) return st;
  FILE *sections_text = tmpfile();
  if (!sections_text) return nnt_afile_abort(&rep), nnt_fail(NNT_EIO, "tour: cannot create a temporary file");
  cli_tour t = {.out = out, .report = sections_text, .seed = r->seed, .threads = r->threads};
  nnt_tour_section res[nareas];
  int nrun = 0;
  nnt_tour_machine m;
  nnt_tour_machine_read(&m, r->seed);
  double t0 = nnt_now();
  for (int i = 0; i < nareas; i++)
    if (areas[i]->tour && (!only || in_list(only, areas[i]->name))) run_section(areas[i], &t, &res[nrun++]);
  m.seconds = nnt_now() - t0;

  st = nnt_tour_write_md(&rep, sections_text, res, nrun, &m);
  if (!st) st = nnt_tour_write_html(out, sections_text, res, nrun, &m);
  fclose(sections_text);
  if (st) return st;

  char failed[512] = "";
  int nbad = 0;
  for (int i = 0; i < nrun; i++)
    if (!nnt_tour_section_passed(&res[i]))
      snprintf(failed + strlen(failed), sizeof failed - strlen(failed), "%s%s", nbad++ ? ", " : "", res[i].name);
  if (nbad)
    return nnt_fail(NNT_ECHECK, "%d of %d section(s) did not pass (%s); see %s/report.md", nbad, nrun, failed, out);
  return NNT_OK;
}

static int tour_report(const void *cfg, const void *res, const cli_run *r) {
  (void)cfg, (void)res;
  printf("tour: wrote %s/report.md and %s/report.html (%.1f s)\n", r->out, r->out, r->seconds);
  return NNT_OK;
}

static const cli_opt tour_opts[] = {CLI_STR("only", tour_cfg, only, "run only these sections (comma-separated; default all)"), {0}};
#define TOUR_ABOUT                                                                                      \
  "Runs the quick preset of every subsystem and writes DIR/report.md (default DIR: nnt-tour)\n"         \
  "with each section's tables and plots under DIR/<section>/. Every section runs even when an\n"        \
  "earlier one fails; report.md opens with a summary, and the exit status is 1 when a check\n"          \
  "failed or a section stopped early."
static const cli_cmd tour_cmd = {
    .name = "tour",
    .example = "nnt tour --out runs/tour\n"
               "nnt tour --only core,tm --out runs/tour-tm",
    .about = TOUR_ABOUT,
    .opts = tour_opts,
    .cfg_size = sizeof(tour_cfg),
    .validate = tour_validate,
    .run = tour_run,
    .report = tour_report,
    .out_default = "nnt-tour",
    .common = CLI_OUT};

int cmd_tour(int argc, char **argv) {
  /* the help names the sections of this build */
  static char about[1024];
  char names[256];
  section_names(names, sizeof names);
  snprintf(about, sizeof about, "%s\nSections (in order): %s.", TOUR_ABOUT, names);
  cli_cmd cmd = tour_cmd;
  cmd.about = about;
  return cli_drive(&cmd, argc, argv);
}
