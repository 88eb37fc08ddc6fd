/* report_approx.h — writers of the approx demos' results: console tables (con), CSV and plots (into
 * dir) and, for the tour, Markdown tables (md). con or md NULL: not written. A writer returns an I/O
 * error, or else NNT_ECHECK (with its message) when the result violates what the demo verifies. */
#ifndef REPORT_APPROX_H
#define REPORT_APPROX_H
#include <stdio.h>

#include "nnt_approx.h"

int nnt_report_approx_check(const char *dir, const nnt_approx_check_result *r, FILE *con, FILE *md);
int nnt_report_approx_square(const char *dir, const nnt_approx_square_result *r, FILE *con, FILE *md);
int nnt_report_approx_triangle(const char *dir, const nnt_approx_triangle_result *r, FILE *con, FILE *md);
int nnt_report_approx_separation(const char *dir, const nnt_approx_separation_cfg *cfg,
                                 const nnt_approx_separation_result *r, FILE *con);
int nnt_report_approx_ntk(const char *dir, const nnt_approx_ntk_cfg *cfg, const nnt_approx_ntk_result *r, FILE *con,
                          FILE *md);
int nnt_report_approx_maurey(const char *dir, const nnt_approx_maurey_result *r, FILE *con);
int nnt_report_approx_planting(const char *dir, const nnt_approx_planting_cfg *cfg, const nnt_approx_planting_result *r,
                               FILE *con);
int nnt_report_approx_sobolev(const char *dir, const nnt_approx_sobolev_cfg *cfg, const nnt_approx_sobolev_result *r,
                              FILE *con);
int nnt_report_approx_lazy(const char *dir, const nnt_approx_lazy_cfg *cfg, const nnt_approx_lazy_result *r, FILE *con);

#endif
