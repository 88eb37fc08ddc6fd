/* report_approx.h — writers of the approx demos' results: console tables (con), CSV and plots (into
 * dir) and, for the tour, Markdown tables (md). con or md NULL: not written. A writer returns an I/O
 * error, or else NNT_ECHECK (with its message) when the result violates what the demo verifies. */
#ifndef REPORT_APPROX_H
#define REPORT_APPROX_H
#include <stdio.h>

#include "nnt_approx.h"

int cli_approx_check_report(const char *dir, const nnt_approx_check_result *r, FILE *con, FILE *md);
int cli_approx_square_report(const char *dir, const nnt_approx_square_result *r, FILE *con, FILE *md);
int cli_approx_triangle_report(const char *dir, const nnt_approx_triangle_result *r, FILE *con, FILE *md);
int cli_approx_separation_report(const char *dir, const nnt_approx_separation_cfg *cfg,
                                 const nnt_approx_separation_result *r, FILE *con);
int cli_approx_ntk_report(const char *dir, const nnt_approx_ntk_cfg *cfg, const nnt_approx_ntk_result *r, FILE *con,
                          FILE *md);
int cli_approx_maurey_report(const char *dir, const nnt_approx_maurey_result *r, FILE *con);
int cli_approx_planting_report(const char *dir, const nnt_approx_planting_cfg *cfg, const nnt_approx_planting_result *r,
                               FILE *con);
int cli_approx_sobolev_report(const char *dir, const nnt_approx_sobolev_cfg *cfg, const nnt_approx_sobolev_result *r,
                              FILE *con);
int cli_approx_lazy_report(const char *dir, const nnt_approx_lazy_cfg *cfg, const nnt_approx_lazy_result *r, FILE *con);

#endif
