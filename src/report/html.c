/* The HTML writer of the report layer: escaping and the tour's Markdown subset (nnt_html.h). */
#include "nnt_html.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_file.h"

void nnt_html_textn(FILE *f, const char *s, size_t n) {
  for (size_t i = 0; i < n && s[i]; i++) {
    switch (s[i]) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default: fputc(s[i], f);
    }
  }
}

void nnt_html_text(FILE *f, const char *s) { nnt_html_textn(f, s, strlen(s)); }

/* Appends "s\n" (its first n bytes) to the list *seen. */
static void seen_add(char **seen, const char *s, size_t n) {
  if (!seen) return;
  size_t have = *seen ? strlen(*seen) : 0;
  char *p = realloc(*seen, have + n + 2);
  if (!p) return;
  memcpy(p + have, s, n);
  p[have + n] = '\n', p[have + n + 1] = 0;
  *seen = p;
}

void nnt_html_figure(FILE *f, const char *dir, const char *src, const char *caption) {
  size_t n = strlen(src);
  char svg[1024], path[2048];
  int has_svg = 0;
  if (n > 4 && n < sizeof svg && !strcmp(src + n - 4, ".png")) {
    snprintf(svg, sizeof svg, "%.*s.svg", (int)(n - 4), src);
    has_svg = access(nnt_path(path, sizeof path, dir, svg), R_OK) == 0;
  }
  fputs("<figure><img src=\"", f);
  nnt_html_text(f, has_svg ? svg : src);
  fputs("\" alt=\"", f);
  nnt_html_text(f, caption);
  fputs("\"><figcaption>", f);
  nnt_html_text(f, caption);
  fputs(" <span class=\"files\">(<a href=\"", f);
  nnt_html_text(f, src);
  fputs("\">PNG</a>", f);
  if (has_svg) {
    fputs(", <a href=\"", f);
    nnt_html_text(f, svg);
    fputs("\">SVG</a>", f);
  }
  fputs(")</span></figcaption></figure>\n", f);
}

/* An image found in a paragraph, shown after it. */
typedef struct {
  const char *alt, *src;
  size_t nalt, nsrc;
} image;

/* Finds the closing delimiter d (a string) in s[i..n), or returns n. */
static size_t find(const char *s, size_t i, size_t n, const char *d) {
  size_t k = strlen(d);
  for (; i + k <= n; i++)
    if (!strncmp(s + i, d, k)) return i;
  return n;
}

/* Inline Markdown of s[0..n) as HTML; images go to imgs (at most 16) instead. */
static void inline_md(FILE *f, const char *s, size_t n, image *imgs, int *nimg) {
  for (size_t i = 0; i < n;) {
    char c = s[i];
    if (c == '\\' && i + 1 < n && strchr("|*_`\\[]", s[i + 1])) {
      nnt_html_textn(f, s + i + 1, 1), i += 2;
    } else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
      size_t e = find(s, i + 2, n, "**");
      if (e == n) { nnt_html_textn(f, s + i, 2), i += 2; continue; }
      /* a verdict in bold (**FAIL**, **ERROR**, **NO**) is shown in the failure colour */
      size_t k = e - i - 2;
      int bad = (k == 4 && !strncmp(s + i + 2, "FAIL", 4)) || (k == 5 && !strncmp(s + i + 2, "ERROR", 5)) ||
                (k == 2 && !strncmp(s + i + 2, "NO", 2));
      fputs(bad ? "<strong class=\"fail\">" : "<strong>", f);
      inline_md(f, s + i + 2, k, imgs, nimg), fputs("</strong>", f);
      i = e + 2;
    } else if (c == '`') {
      size_t e = find(s, i + 1, n, "`");
      if (e == n) { nnt_html_textn(f, s + i, 1), i++; continue; }
      fputs("<code>", f), nnt_html_textn(f, s + i + 1, e - i - 1), fputs("</code>", f);
      i = e + 1;
    } else if (c == '_' && (i == 0 || isspace((unsigned char)s[i - 1]) || s[i - 1] == '(') && i + 1 < n &&
               !isspace((unsigned char)s[i + 1])) {
      /* emphasis opens at the start of a word only, so d_e or gauss_parity stay as they are */
      size_t e = i + 1;
      while (e < n && !(s[e] == '_' && (e + 1 == n || !isalnum((unsigned char)s[e + 1])))) e++;
      if (e == n) { nnt_html_textn(f, s + i, 1), i++; continue; }
      fputs("<em>", f), inline_md(f, s + i + 1, e - i - 1, imgs, nimg), fputs("</em>", f);
      i = e + 1;
    } else if ((c == '!' && i + 1 < n && s[i + 1] == '[') || c == '[') {
      size_t a = i + (c == '!') + 1, b = find(s, a, n, "]");
      size_t e = b + 1 < n && s[b + 1] == '(' ? find(s, b + 2, n, ")") : n;
      if (e == n) { nnt_html_textn(f, s + i, 1), i++; continue; }
      if (c == '!') {
        if (*nimg < 16) imgs[(*nimg)++] = (image){s + a, s + b + 2, b - a, e - b - 2};
      } else {
        fputs("<a href=\"", f), nnt_html_textn(f, s + b + 2, e - b - 2), fputs("\">", f);
        inline_md(f, s + a, b - a, imgs, nimg), fputs("</a>", f);
      }
      i = e + 1;
    } else {
      nnt_html_textn(f, s + i, 1), i++;
    }
  }
}

static void figures(FILE *f, const char *dir, const image *imgs, int nimg, char **seen) {
  for (int k = 0; k < nimg; k++) {
    char src[1024], alt[256];
    snprintf(src, sizeof src, "%.*s", (int)imgs[k].nsrc, imgs[k].src);
    snprintf(alt, sizeof alt, "%.*s", (int)imgs[k].nalt, imgs[k].alt);
    nnt_html_figure(f, dir, src, alt);
    seen_add(seen, src, strlen(src));
  }
}

/* A table cell's class: verdicts coloured, numbers right-aligned. */
static const char *cell_class(const char *s, size_t n) {
  if (n == 4 && !strncmp(s, "PASS", 4)) return " class=\"pass\"";
  if ((n == 8 && !strncmp(s, "**FAIL**", 8)) || (n == 9 && !strncmp(s, "**ERROR**", 9))) return " class=\"fail\"";
  size_t i = !strncmp(s, "−", strlen("−")) ? strlen("−") : 0;
  if (i < n && (s[i] == '-' || s[i] == '+')) i++;
  return i < n && isdigit((unsigned char)s[i]) && !memchr(s, ' ', n) ? " class=\"num\"" : "";
}

/* One table row "| a | b |" as <tr>; cells are split at unescaped '|'. */
static void table_row(FILE *f, const char *line, size_t n, const char *tag) {
  fputs("<tr>", f);
  size_t i = 1; /* past the leading '|' */
  while (i < n) {
    size_t e = i;
    while (e < n && !(line[e] == '|' && line[e - 1] != '\\')) e++;
    if (e == n) break; /* the text after the last '|' is no cell */
    size_t a = i, b = e;
    while (a < b && line[a] == ' ') a++;
    while (b > a && line[b - 1] == ' ') b--;
    image none[16];
    int nn = 0;
    fprintf(f, "<%s%s>", tag, *tag == 't' && tag[1] == 'd' ? cell_class(line + a, b - a) : "");
    inline_md(f, line + a, b - a, none, &nn);
    fprintf(f, "</%s>", tag);
    i = e + 1;
  }
  fputs("</tr>\n", f);
}

/* The table starting at md (lines beginning with '|'); returns the text after it. */
static const char *table(FILE *f, const char *md, int fold) {
  const char *rows[4096];
  size_t lens[4096];
  int nrows = 0;
  const char *p = md;
  while (*p == '|' && nrows < 4096) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    rows[nrows] = p, lens[nrows++] = len;
    p += len + (e != NULL);
  }
  int sep = nrows > 1 && !strncmp(rows[1], "|---", 4), body = nrows - (sep ? 2 : 0);
  int folded = fold > 0 && body > fold, pass = 0, fail = 0;
  for (int r = sep ? 2 : 0; r < nrows; r++) {
    char row[8192];
    snprintf(row, sizeof row, "%.*s", (int)lens[r], rows[r]);
    fail += strstr(row, "| **FAIL** |") || strstr(row, "| **ERROR** |");
    pass += !!strstr(row, "| PASS |");
  }
  if (folded) { /* open when it holds a failure, so that it is seen */
    fprintf(f, "<details%s><summary>The table, %d rows", fail ? " open" : "", body);
    if (pass + fail) fprintf(f, ": %d PASS, %d FAIL", pass, fail);
    fputs(" (click to open or close)</summary>\n", f);
  }
  fputs("<div class=\"tw\"><table>\n", f);
  if (sep) fputs("<thead>", f), table_row(f, rows[0], lens[0], "th"), fputs("</thead>\n", f);
  fputs("<tbody>\n", f);
  for (int r = sep ? 2 : 0; r < nrows; r++) table_row(f, rows[r], lens[r], "td");
  fputs("</tbody></table></div>\n", f);
  if (folded) fputs("</details>\n", f);
  return p;
}

void nnt_html_markdown(FILE *f, const char *md, const char *dir, int fold, char **seen) {
  const char *para = NULL; /* start of the open paragraph */
  size_t plen = 0;
  const char *p = md;
  for (;;) {
    const char *e = *p ? strchr(p, '\n') : NULL;
    size_t len = e ? (size_t)(e - p) : strlen(p);
    int blank = len == 0, block = *p == '#' || *p == '|';
    if (para && (blank || block || !*p)) {
      image imgs[16];
      int nimg = 0;
      /* render into memory first: a paragraph of images alone gets no empty <p> */
      char *buf = NULL;
      size_t nbuf = 0;
      FILE *m = open_memstream(&buf, &nbuf);
      if (m) {
        inline_md(m, para, plen, imgs, &nimg);
        fclose(m);
        size_t a = 0;
        while (a < nbuf && isspace((unsigned char)buf[a])) a++;
        if (a < nbuf) fprintf(f, "<p>%s</p>\n", buf + a);
        free(buf);
      }
      figures(f, dir, imgs, nimg, seen);
      para = NULL;
    }
    if (!*p) break;
    if (*p == '|') {
      p = table(f, p, fold);
      continue;
    }
    if (*p == '#') {
      int level = 0;
      while (p[level] == '#') level++;
      size_t a = level;
      while (a < len && p[a] == ' ') a++;
      image none[16];
      int nn = 0;
      level = level < 6 ? level : 6;
      fprintf(f, "<h%d>", level);
      inline_md(f, p + a, len - a, none, &nn);
      fprintf(f, "</h%d>\n", level);
    } else if (!blank) {
      if (!para) para = p, plen = 0;
      plen = (size_t)(p + len - para); /* a paragraph's lines stay joined by their '\n' */
    }
    p += len + (e != NULL);
  }
}
