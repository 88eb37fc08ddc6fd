/* nnt icl figures as a descriptor (cmd_icl.c lists it): Figures 1–3 of seed 003 from finished runs'
 * CSVs, or from micro runs trained here (the area run nnt_icl_figures_run). Writers:
 * src/report/report_icl.c. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_icl_figures.h"
#include "report_icl.h"

/* Figures 1–3 from finished runs' CSVs (or, --quick, from micro runs trained here): nnt_icl_figures_run. */
typedef struct {
  nnt_icl_figures_cfg c;
  char scratch[64]; /* --quick without --out: the folder the micro models train in, removed at the end */
} fig_opts;

static const cli_opt figures_opts[] = {
    CLI_STR("runs", fig_opts, c.runs, "folder holding icl eval and sweep-depth outputs (searched two levels deep)"),
    CLI_LONG("steps", fig_opts, c.steps, 1, 100000000L, "--quick: optimizer steps of each micro model"),
    {0}};
static void figures_default(void *cfg, nnt_preset p) {
  *(fig_opts *)cfg = (fig_opts){.c = {.quick = p == NNT_PRESET_QUICK, .steps = 40}};
}
static int figures_validate(void *cfg, const cli_run *r) {
  fig_opts *o = cfg;
  nnt_icl_figures_cfg *c = &o->c;
  /* --quick without --out: the models train in a scratch folder made by the run, and the figures'
   * numbers go to the console only (as every command without --out) */
  c->dir = r->out ? r->out : c->quick ? o->scratch : NULL;
  c->seed = r->seed, c->resume = r->resume, c->force = r->force, c->threads = r->threads;
  return nnt_icl_figures_check(c);
}
static int figures_run(void *cfg, const cli_run *r, void *res) {
  fig_opts *o = cfg;
  if (!r->out && o->c.quick) {
    snprintf(o->scratch, sizeof o->scratch, "/tmp/nnt-icl-figures-XXXXXX");
    if (!mkdtemp(o->scratch)) return o->scratch[0] = 0, nnt_fail(NNT_EIO, "cannot create a scratch folder in /tmp");
  }
  return nnt_icl_figures_run(&o->c, res);
}
static int figures_report(const void *cfg, const void *res, const cli_run *r) {
  return (void)cfg, nnt_report_icl_figures(r->out, res);
}
static void figures_free(void *res) { nnt_icl_figures_result_free(res); }
static void figures_cfg_free(void *cfg) {
  fig_opts *o = cfg;
  if (o->scratch[0]) nnt_remove_tree(o->scratch), o->scratch[0] = 0;
}
static int figures_sweeps(const void *cfg) { return (void)cfg, 0; } /* --out is a plain folder; --quick's runs resume below it */

const cli_cmd cli_icl_figures_cmd = {
    .name = "icl figures",
    .example = "nnt icl figures --quick --out runs/figures",
    .about = "Figures 1–3 of seed 003 as the paper lays them out, from the CSVs of finished runs under --runs: each\n"
             "icl eval folder is a panel (Figure 1: ReLU attention, Figure 2: softmax; one per target depth), its\n"
             "model's R² against k per test mixture with direct training, the prompt mean and ridge on the same axes\n"
             "and the training length dashed; each sweep-depth folder gives Figure 3 (R² against the layers at 15/30/45\n"
             "examples); an icl eval run with --w-shift also gives a weight-shift panel (ICML Figures 5-6). --quick\n"
             "trains and evaluates micro models (both attentions, target depths 3, 4, 6 - the 4-layer ones also with\n"
             "--w-shift 0.5 -, and 1-2 layers for Figure 3) into OUT/runs/ first (--resume continues them; without\n"
             "--out into a scratch folder, removed at the end, and the numbers go to the console only). Writes\n"
             "figures.csv, figure3.csv, weight_shift.csv, fig1_relu_td<N>.png, fig2_softmax_td<N>.png,\n"
             "wshift_<attn>_td<N>.png, fig3_<attn>.png (and .svg) and run.json.",
    .opts = figures_opts, .cfg_size = sizeof(fig_opts), .res_size = sizeof(nnt_icl_figures_result),
    .cfg_default = figures_default, .validate = figures_validate, .run = figures_run, .report = figures_report,
    .result_free = figures_free, .cfg_free = figures_cfg_free, .sweeps = figures_sweeps, .common = CLI_OUT | CLI_SWEEP};
