/* The tour's report.md and report.html (nnt_tour.h): the summary, the machine, each section's
 * introduction, text and plots; HTML through nnt_html.h, the one place that writes it. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "nnt_blas.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_html.h"
#include "nnt_io.h"
#include "nnt_plot.h"
#include "nnt_tour.h"

/* A table cell: '|' would end it and a newline the row. */
static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputs("\\|", f);
    else fputc(*s == '\n' ? ' ' : *s, f);
  }
}

static void write_summary(FILE *f, const nnt_tour_section *res, int n, double seconds) {
  int bad = 0, passed = 0, failed = 0;
  for (int i = 0; i < n; i++) {
    bad += !nnt_tour_section_passed(&res[i]);
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
    const nnt_tour_section *r = &res[i];
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

int nnt_tour_section_passed(const nnt_tour_section *r) { return !r->status && !r->failed; }

/* Appends the sections' text, kept aside so that the summary can come first. */
static int append_file(FILE *dst, FILE *src) {
  char buf[1 << 14];
  size_t n;
  rewind(src);
  while ((n = fread(buf, 1, sizeof buf, src)) > 0)
    if (fwrite(buf, 1, n, dst) != n) break;
  return ferror(src) || ferror(dst) ? nnt_fail(NNT_EIO, "tour: cannot assemble report.md") : NNT_OK;
}


int nnt_tour_write_md(nnt_afile *rep, FILE *sections_text, const nnt_tour_section *res, int n, const nnt_tour_machine *m) {
  fprintf(rep->f, "# nnt tour\n\nnnt %s (%s, %s build), seed %llu, %d thread(s), kernels %s (CPU: %s; %s). %s. Each "
          "section ran its quick preset; files are under the section's folder. The same report with plots inline: "
          "report.html.\n\n", nnt_version(), nnt_git_commit(), nnt_build_type(), m->seed, m->threads, m->isa, m->cpu,
          m->flags, m->date);
  write_summary(rep->f, res, n, m->seconds);
  int st = append_file(rep->f, sections_text);
  if (st) return nnt_afile_abort(rep), st;
  return nnt_afile_commit(rep);
}

/* The machine and the build, for both reports' headers. */

void nnt_tour_machine_read(nnt_tour_machine *m, unsigned long long seed) {
  snprintf(m->cpu, sizeof m->cpu, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f)) {
    char *v = strchr(line, ':');
    if (!strncmp(line, "model name", 10) && v) {
      v += 1 + (v[1] == ' ');
      v[strcspn(v, "\n")] = 0;
      snprintf(m->cpu, sizeof m->cpu, "%s", v);
      break;
    }
  }
  if (f) fclose(f);
  time_t now = time(NULL);
  struct tm tm;
  strftime(m->date, sizeof m->date, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tm));
  m->isa = nnt_cpu_isa_name(nnt_cpu_isa());
  m->flags = nnt_cpu_flags();
  m->seed = seed;
  m->threads = nnt_threads_get();
}

/* ------------------------------------------------------------------------- report.html */

static const char css[] =
    "body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:#1f2328;"
    "background:#fafafa;margin:0}\n"
    "main{max-width:1100px;margin:0 auto;padding:1.5em 2em 4em}\n"
    "h1{font-size:1.8em;margin:.2em 0}h2{font-size:1.4em;margin:0 0 .6em;padding-bottom:.2em;border-bottom:1px solid #d0d7de}"
    "h3{font-size:1.1em;margin:1.4em 0 .5em}\n"
    "section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:1.2em 1.6em;margin:1.6em 0}\n"
    ".box{border-left:6px solid #1a7f37}.box.bad{border-left-color:#cf222e}\n"
    ".verdict{font-size:1.2em;font-weight:600}\n"
    ".guide{background:#f6f8fa;border-radius:6px;padding:.6em 1.1em;margin:.4em 0 1em}\n"
    ".guide p{margin:.4em 0}.guide dl{margin:.5em 0 .2em;display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}"
    ".guide dt{font-weight:600}.guide dd{margin:0}\n"
    ".tw{overflow-x:auto;margin:.6em 0}\n"
    "table{border-collapse:collapse;font-size:.9em}th,td{border:1px solid #d0d7de;padding:.25em .6em;vertical-align:top}"
    "th{background:#f6f8fa;text-align:left}tbody tr:nth-child(even){background:#fbfbfc}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}\n"
    "td.pass,span.pass{color:#1a7f37;font-weight:600}td.fail,span.fail,strong.fail{color:#cf222e;font-weight:700}\n"
    "dl.machine{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1.2em;margin:.8em 0 0}"
    "dl.machine dt{color:#57606a}dl.machine dd{margin:0}\n"
    "figure{margin:1em 0;text-align:center}figure img{max-width:min(100%,760px);height:auto;border:1px solid #eaeef2}"
    "figcaption{color:#57606a;font-size:.9em}\n"
    "details{margin:.6em 0}summary{cursor:pointer;color:#0969da}code{font-size:.9em;background:#f6f8fa;"
    "padding:0 .25em;border-radius:3px}\n"
    "a{color:#0969da}.time{color:#57606a;font-size:.9em}\n";

static const char *verdict(const nnt_tour_section *r) { return r->status ? "ERROR" : r->failed ? "FAIL" : "PASS"; }

static void html_machine(FILE *f, const nnt_tour_machine *m) {
  fputs("<dl class=\"machine\">\n<dt>CPU</dt><dd>", f);
  nnt_html_text(f, m->cpu);
  fputs("</dd>\n<dt>kernels (ISA level chosen at run time)</dt><dd>", f);
  nnt_html_text(f, m->isa);
  fputs(" <span class=\"time\">(CPU flags: ", f);
  nnt_html_text(f, m->flags);
  fprintf(f, ")</span></dd>\n<dt>threads</dt><dd>%d</dd>\n<dt>build</dt><dd>", m->threads);
  nnt_html_text(f, nnt_build_type());
  fputs("</dd>\n<dt>nnt</dt><dd>", f);
  nnt_html_text(f, nnt_version());
  fputs(", git commit <code>", f);
  nnt_html_text(f, nnt_git_commit());
  fprintf(f, "</code></dd>\n<dt>seed</dt><dd>%llu</dd>\n<dt>date</dt><dd>", m->seed);
  nnt_html_text(f, m->date);
  fprintf(f, "</dd>\n<dt>wall time</dt><dd>%.1f s</dd>\n</dl>\n", m->seconds);
}

static void html_summary(FILE *f, const nnt_tour_section *res, int n, const nnt_tour_machine *m) {
  int bad = 0, passed = 0, failed = 0;
  for (int i = 0; i < n; i++) bad += !nnt_tour_section_passed(&res[i]), passed += res[i].passed, failed += res[i].failed;
  fprintf(f, "<section class=\"box%s\" id=\"summary\"><h2>Summary</h2>\n<p class=\"verdict\">", bad ? " bad" : "");
  if (bad) fprintf(f, "<span class=\"fail\">FAIL</span>: %d of %d sections did not pass.", bad, n);
  else fprintf(f, "<span class=\"pass\">PASS</span>: all %d sections passed.", n);
  fprintf(f, "</p>\n<p>Checks: %d passed, %d failed. Each section ran the quick preset of one paper's area; "
          "its files are in the folder named after it, next to this page.</p>\n", passed, failed);
  fputs("<div class=\"tw\"><table>\n<thead><tr><th>section</th><th>result</th><th>checks passed</th>"
        "<th>checks failed</th><th>time (s)</th><th>error</th></tr></thead>\n<tbody>\n", f);
  for (int i = 0; i < n; i++) {
    const nnt_tour_section *r = &res[i];
    fputs("<tr><td><a href=\"#sec-", f);
    nnt_html_text(f, r->name);
    fputs("\">", f);
    nnt_html_text(f, r->name);
    fprintf(f, "</a></td><td class=\"%s\">%s</td>", nnt_tour_section_passed(r) ? "pass" : "fail", verdict(r));
    if (r->passed + r->failed) fprintf(f, "<td class=\"num\">%d</td><td class=\"num\">%d</td>", r->passed, r->failed);
    else fputs("<td>—</td><td>—</td>", f);
    fprintf(f, "<td class=\"num\">%.1f</td><td>", r->seconds);
    nnt_html_text(f, r->error);
    fputs("</td></tr>\n", f);
  }
  fputs("</tbody></table></div>\n<p class=\"time\">PASS: the section ran to the end and every check it makes held "
        "(—: it makes none). FAIL: a check failed; it is marked in the section. ERROR: the section stopped "
        "early.</p>\n", f);
  html_machine(f, m);
  fputs("</section>\n", f);
}

static void html_guide(FILE *f, const nnt_tour_section *r) {
  fputs("<div class=\"guide\">\n", f);
  if (r->claim) {
    fputs("<p><strong>The claim.</strong> ", f);
    nnt_html_text(f, r->claim);
    fputs("</p>\n<p><strong>What nnt ran.</strong> ", f);
    nnt_html_text(f, r->ran);
    fputs("</p>\n", f);
  }
  fprintf(f, "<p><strong>What came out.</strong> <span class=\"%s\">%s</span>", nnt_tour_section_passed(r) ? "pass" : "fail",
          verdict(r));
  if (r->passed + r->failed) fprintf(f, ": %d of %d checks held", r->passed, r->passed + r->failed);
  else if (!r->status) fputs(": it ran to the end (it measures, it checks nothing)", f);
  fprintf(f, " in %.1f s.", r->seconds);
  if (r->status) fputs(" It stopped early: ", f), nnt_html_text(f, r->error), fputc('.', f);
  if (r->outcome[0]) fputc(' ', f), nnt_html_text(f, r->outcome);
  fputs("</p>\n", f);
  if (r->glossary && r->glossary[0]) {
    fputs("<dl>\n", f);
    for (const char *const *w = r->glossary; w[0] && w[1]; w += 2) {
      fputs("<dt>", f);
      nnt_html_text(f, w[0]);
      fputs("</dt><dd>", f);
      nnt_html_text(f, w[1]);
      fputs("</dd>\n", f);
    }
    fputs("</dl>\n", f);
  }
  fputs("</div>\n", f);
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Shows every PNG under out/rel (recursively, in name order) that the section's text did not; seen
 * holds the shown ones as lines, and starts with a newline. */
static void html_other_plots(FILE *f, const char *out, const char *rel, const char *seen, int *nshown) {
  char path[2048];
  struct dirent **ents;
  int n = scandir(nnt_path(path, sizeof path, out, rel), &ents, NULL, by_name);
  for (int i = 0; i < n; i++) {
    const char *name = ents[i]->d_name;
    size_t len = strlen(name);
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", rel, name);
    struct stat sb;
    if (name[0] != '.' && !stat(nnt_path(path, sizeof path, out, sub), &sb) && S_ISDIR(sb.st_mode)) {
      html_other_plots(f, out, sub, seen, nshown);
    } else if (len > 4 && !strcmp(name + len - 4, ".png")) {
      char needle[1100];
      snprintf(needle, sizeof needle, "\n%s\n", sub);
      if (!strstr(seen, needle)) {
        if (!(*nshown)++) fputs("<h3>More plots of this section</h3>\n", f);
        nnt_html_figure(f, out, sub, sub);
      }
    }
    free(ents[i]);
  }
  if (n >= 0) free(ents);
}

static char *read_range(FILE *src, long a, long b) {
  char *buf = malloc((size_t)(b - a) + 1);
  if (!buf) return NULL;
  fseek(src, a, SEEK_SET);
  size_t n = fread(buf, 1, (size_t)(b - a), src);
  buf[n] = 0;
  return buf;
}

int nnt_tour_write_html(const char *out, FILE *sections_text, const nnt_tour_section *res, int n, const nnt_tour_machine *m) {
  char path[1024];
  nnt_afile a;
  int st = nnt_afile_open(&a, nnt_path(path, sizeof path, out, "report.html"));
  if (st) return st;
  FILE *f = a.f;
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>nnt tour report</title>\n"
          "<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>nnt tour</h1>\n<p>What each paper claims, what nnt ran "
          "to test it, and what came out. A static page: no script, nothing fetched from the network; the plots "
          "and tables are files beside it.</p>\n", css);
  html_summary(f, res, n, m);
  for (int i = 0; i < n; i++) {
    const nnt_tour_section *r = &res[i];
    char *md = read_range(sections_text, r->md_start, r->md_end), *seen = NULL;
    if (!md) return nnt_afile_abort(&a), nnt_fail(NNT_EIO, "tour: out of memory reading the report text");
    fputs("<section id=\"sec-", f);
    nnt_html_text(f, r->name);
    fputs("\">\n", f);
    /* the section's heading, then its introduction, then the rest of its text */
    char *body = md;
    if (!strncmp(md, "## ", 3)) {
      body = md + strcspn(md, "\n");
      char keep = *body;
      *body = 0;
      nnt_html_markdown(f, md, out, 0, NULL);
      *body = keep;
    } else {
      fputs("<h2>", f), nnt_html_text(f, r->name), fputs("</h2>\n", f);
    }
    html_guide(f, r);
    nnt_html_markdown(f, body, out, 12, &seen);
    int nshown = 0;
    char *lines = NULL;
    size_t nl = 0;
    /* seen as "\n"-framed lines, so that a path matches only whole */
    FILE *m2 = open_memstream(&lines, &nl);
    if (m2) fprintf(m2, "\n%s", seen ? seen : ""), fclose(m2);
    html_other_plots(f, out, r->name, lines, &nshown);
    free(lines), free(seen), free(md);
    fputs("</section>\n", f);
  }
  fputs("</main>\n</body>\n</html>\n", f);
  return nnt_afile_commit(&a);
}


int nnt_tour_write_gemm(const char *dir, int n, const double *sizes, const double *loops, const double *blas) {
  nnt_csv csv;
  int st = nnt_csv_open(&csv, dir, "gemm.csv", "n,loops_gflops,openblas_gflops");
  if (st) return st;
  for (int i = 0; i < n; i++) nnt_csv_row(&csv, "%d,%.3f,%.3f", (int)sizes[i], loops[i], blas[i]);
  if ((st = nnt_csv_close(&csv))) return st;
  nnt_plot *p = nnt_plot_new("float32 matmul, square n x n", "n", "GFLOP/s");
  nnt_plot_log(p, 1, 0);
  nnt_plot_add(p, n, sizes, loops, "nnt loops (small-shape path)", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  nnt_plot_add(p, n, sizes, blas, "OpenBLAS sgemm", NNT_PLOT_LINE | NNT_PLOT_POINTS);
  st = nnt_plot_save(p, dir, "gemm");
  nnt_plot_free(p);
  return st;
}
