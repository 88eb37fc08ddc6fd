/* nnt_html.h — the one place that writes HTML: escaped text, and the Markdown the tour sections
 * write, turned into HTML for report.html (the tour keeps one text per section, report.md's). */
#ifndef NNT_REPORT_HTML_H
#define NNT_REPORT_HTML_H
#include <stdio.h>

/* Writes s with & < > " ' escaped: safe as element text and inside a quoted attribute. */
void nnt_html_text(FILE *f, const char *s);
/* The same for the first n bytes of s. */
void nnt_html_textn(FILE *f, const char *s, size_t n);

/* Writes the Markdown subset the tour uses as HTML: headings (#, ##, ###), paragraphs, tables
 * (a table of more than `fold` body rows goes into a <details> element), images ![alt](src) (a
 * figure each, after the paragraph that names them), **bold**, _emphasis_, `code` and [text](url).
 * dir is the tour folder the image paths are relative to: a PNG with an SVG beside it is shown as
 * the SVG. Every image path written is appended to *seen (a '\n'-separated list, may be NULL). */
void nnt_html_markdown(FILE *f, const char *md, const char *dir, int fold, char **seen);

/* A figure for the image src (relative to dir) with its caption. */
void nnt_html_figure(FILE *f, const char *dir, const char *src, const char *caption);

#endif
