/* nnt tour — the main job: every subsystem's quick preset, one Markdown report. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_io.h"
#include "nnt_progress.h"

typedef struct {
  const char *name;
  int (*run)(nnt_tour *t);
} section;

static const section sections[] = {
    {"core", tour_core},
#ifdef NNT_HAVE_QSTR
    {"qstr", tour_qstr},
#endif
#ifdef NNT_HAVE_APPROX
    {"approx", tour_approx},
#endif
#ifdef NNT_HAVE_CIRCUITS
    {"circuits", tour_circuits},
#endif
#ifdef NNT_HAVE_TM
    {"tm", tour_tm},
#endif
#ifdef NNT_HAVE_RCNN
    {"rcnn", tour_rcnn},
#endif
#ifdef NNT_HAVE_ICL
    {"icl", tour_icl},
#endif
};
#define NSECTIONS ((int)(sizeof sections / sizeof sections[0]))

static const char *help =
    "usage: nnt tour [--quick] [--out DIR] [--only NAME[,NAME...]]\n"
    "Runs the quick preset of every subsystem and writes DIR/report.md (default DIR: nnt-tour)\n"
    "with each section's tables and plots under DIR/<section>/.\n\n" NNT_COMMON_HELP
    "  --only LIST    run only these sections\n";

int cmd_tour(int argc, char **argv) {
  nnt_common co;
  nnt_common_init(&co, "nnt-tour");
  const char *only = NULL;
  static const struct option opts[] = {NNT_COMMON_OPTIONS, {"only", required_argument, 0, 'O'}, {0, 0, 0, 0}};
  nnt_cli_reset();
  int c;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if (c == 'O') {
      only = optarg;
      continue;
    }
    int st = nnt_cli_common(c, argv, &co);
    if (st) return st;
  }
  if (co.help) return fputs(help, stdout), NNT_OK;
  int st = nnt_cli_positional(argc, argv, 0, "nnt tour [options]");
  if (st) return st;
  if (only) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *s = NULL, *tok = strtok_r(buf, ",", &s); tok; tok = strtok_r(NULL, ",", &s)) {
      int found = 0;
      for (int i = 0; i < NSECTIONS; i++) found |= !strcmp(tok, sections[i].name);
      if (!found) return nnt_fail(NNT_EINVAL, "--only: no section named '%s'", tok);
    }
  }
  if ((st = nnt_cli_begin(&co))) return st;

  char path[1024];
  nnt_afile rep;
  if ((st = nnt_afile_open(&rep, nnt_path(path, sizeof path, co.out, "report.md")))) return st;
  nnt_tour t = {co.out, rep.f, co.seed, co.threads};
  fprintf(rep.f, "# nnt tour\n\nnnt %s (%s), seed %llu. Each section ran its quick preset; files are "
          "under the section's folder.\n\n", nnt_version(), nnt_git_commit(), co.seed);
  double t0 = nnt_now();
  for (int i = 0; i < NSECTIONS; i++) {
    if (only) {
      char pat[64];
      snprintf(pat, sizeof pat, ",%s,", sections[i].name);
      char list[300];
      snprintf(list, sizeof list, ",%s,", only);
      if (!strstr(list, pat)) continue;
    }
    double ts = nnt_now();
    fprintf(stderr, "tour: %s ...\n", sections[i].name);
    char sub[1024];
    if ((st = nnt_mkdirs(nnt_path(sub, sizeof sub, co.out, sections[i].name)))) break;
    if ((st = sections[i].run(&t))) break;
    fprintf(rep.f, "\n_%s: %.1f s_\n\n", sections[i].name, nnt_now() - ts);
  }
  if (st) {
    nnt_afile_abort(&rep);
    return st;
  }
  fprintf(rep.f, "\nTotal wall time: %.1f s.\n", nnt_now() - t0);
  if ((st = nnt_afile_commit(&rep))) return st;
  printf("tour: wrote %s/report.md (%.1f s)\n", co.out, nnt_now() - t0);
  return NNT_OK;
}
