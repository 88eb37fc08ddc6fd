/* --help of a command, written from its option table: each option with its default read from the
 * preset's config (full and --quick when they differ) and its range. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record.h"

/* The field's value as the option would be written ("" for an unset string or empty list). */
static void format_value(const cli_opt *o, const void *cfg, char *buf, size_t n) {
  const char *field = (const char *)cfg + o->off;
  buf[0] = 0;
  switch (o->kind) {
    case CLI_K_INT: snprintf(buf, n, "%d", *(const int *)field); break;
    case CLI_K_LONG: snprintf(buf, n, "%ld", *(const long *)field); break;
    case CLI_K_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)field); break;
    case CLI_K_DOUBLE: snprintf(buf, n, "%g", *(const double *)field); break;
    case CLI_K_FLAG: snprintf(buf, n, "%s", *(const int *)field ? "on" : "off"); break;
    case CLI_K_CHOICE: snprintf(buf, n, "%s", o->choices[*(const int *)field]); break;
    case CLI_K_STR: snprintf(buf, n, "%s", *(const char *const *)field ? *(const char *const *)field : ""); break;
    case CLI_K_INTS: case CLI_K_DOUBLES: {
      int cnt = *(const int *)((const char *)cfg + o->count_off);
      size_t len = 0;
      for (int i = 0; i < cnt && len < n; i++) {
        if (o->kind == CLI_K_INTS) len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : "", ((const int *)field)[i]);
        else len += (size_t)snprintf(buf + len, n - len, "%s%g", i ? "," : "", ((const double *)field)[i]);
      }
      break;
    }
  }
}

static const char *metavar(const cli_opt *o) {
  switch (o->kind) {
    case CLI_K_INT: case CLI_K_LONG: case CLI_K_U64: return "N";
    case CLI_K_DOUBLE: return "X";
    case CLI_K_FLAG: return "";
    case CLI_K_CHOICE: return NULL; /* the choices themselves */
    case CLI_K_STR: return "S";
    default: return "LIST";
  }
}

/* " [lo..hi]" for a number or list whose table bounds are narrower than its type's; one side only
 * when the other is beyond any sensible value (|x| >= 1e15); a tiny positive lower bound (1e-300)
 * stands for "> 0". */
static void format_range(const cli_opt *o, char *buf, size_t n) {
  buf[0] = 0;
  if (o->kind == CLI_K_FLAG || o->kind == CLI_K_CHOICE || o->kind == CLI_K_STR) return;
  int has_lo = o->lo > -1e15, has_hi = o->hi < 1e15, positive = o->lo > 0 && o->lo < 1e-100;
  if (has_lo && has_hi) {
    if (positive) snprintf(buf, n, " (0..%.15g]", o->hi);
    else snprintf(buf, n, " [%.15g..%.15g]", o->lo, o->hi);
  } else if (has_lo && positive) snprintf(buf, n, " [> 0]");
  else if (has_lo) snprintf(buf, n, " [>= %.15g]", o->lo);
  else if (has_hi) snprintf(buf, n, " [<= %.15g]", o->hi);
}

/* A number whose default lies outside its range is a "not given" marker (e.g. -1), not a value. */
static int marker_default(const cli_opt *o, const void *cfg) {
  const char *field = (const char *)cfg + o->off;
  double v;
  switch (o->kind) {
    case CLI_K_INT: v = *(const int *)field; break;
    case CLI_K_LONG: v = (double)*(const long *)field; break;
    case CLI_K_DOUBLE: v = *(const double *)field; break;
    default: return 0;
  }
  return v < o->lo || v > o->hi;
}

void cli_help(const cli_cmd *cmd, FILE *f) {
  const char *args = cmd->args ? cmd->args : "";
  fprintf(f, "usage: nnt %s%s%s [options]\n\n%s\n\noptions:\n", cmd->name, *args ? " " : "", args, cmd->about);
  void *full = nnt_xcalloc(1, cmd->cfg_size + 1), *quick = nnt_xcalloc(1, cmd->cfg_size + 1);
  cli_cfg_defaults(cmd, full, 0);
  cli_cfg_defaults(cmd, quick, 1);
  for (int i = 0; i < cli_nopts(cmd); i++) {
    const cli_opt *o = &cmd->opts[i];
    char lhs[160], vf[256], vq[256], range[64];
    const char *mv = metavar(o);
    if (mv) snprintf(lhs, sizeof lhs, "--%s%s%s", o->name, *mv ? " " : "", mv);
    else {
      size_t len = (size_t)snprintf(lhs, sizeof lhs, "--%s ", o->name);
      for (int c = 0; o->choices[c] && len < sizeof lhs; c++)
        len += (size_t)snprintf(lhs + len, sizeof lhs - len, "%s%s", c ? "|" : "", o->choices[c]);
    }
    if (strlen(lhs) > 22) fprintf(f, "  %s\n  %-22s %s", lhs, "", o->help);
    else fprintf(f, "  %-22s %s", lhs, o->help);
    format_value(o, full, vf, sizeof vf);
    format_value(o, quick, vq, sizeof vq);
    if (!strstr(o->help, "default") && !strstr(o->help, "required") && o->kind != CLI_K_FLAG && *vf &&
        !marker_default(o, full)) {
      if (strcmp(vf, vq)) fprintf(f, " (default %s; --quick %s)", vf, vq);
      else fprintf(f, " (default %s)", vf);
    }
    format_range(o, range, sizeof range);
    fprintf(f, "%s\n", range);
  }
  free(full);
  free(quick);
  fprintf(f, "  --seed S               random seed (default 1)\n");
  if (cmd->threads_default) fprintf(f, "  --threads N            threads (default %d) [1..1024]\n", cmd->threads_default);
  else fprintf(f, "  --threads N            threads (default: OMP_NUM_THREADS, else the cores this process may use) [1..1024]\n");
  fprintf(f, "  --quick                small preset (seconds) for tests and the tour\n");
  if (cmd->common & CLI_OUT)
    fprintf(f, "  --out DIR              write results (CSV, JSON, plots) into DIR\n"
               "  --config FILE          rerun the run recorded in FILE (a run.json): its options, seed, --quick\n"
               "                         and arguments; options given here override them (never taken from FILE:\n"
               "                         --out, --threads, --resume, --force)\n");
  if (cmd->common & CLI_SWEEP)
    fprintf(f, "  --resume               continue the runs stored in DIR (finished points are not computed again)\n"
               "  --force                start afresh in a DIR that holds results\n");
  if (cmd->example) {
    fprintf(f, "\nexample:\n");
    for (const char *l = cmd->example; *l;) {
      size_t len = strcspn(l, "\n");
      fprintf(f, "  %.*s\n", (int)len, l);
      l += len + (l[len] == '\n');
    }
  }
}

