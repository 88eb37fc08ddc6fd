/* nnt tm2d — the 2-D Turing machines of seed 002: run one on a tape or a dataset, check a file
 * against the conventions, export a bundled learner in the text format. Descriptors (cli.h): validate
 * loads the machine and builds the tape, run is the area's simulator, src/report/report_rcnn.c
 * prints and writes. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_error.h"
#include "report_rcnn.h"

typedef struct {
  const char *tape, *data, *x;
  int parity[3];
  int nparity;
  int work, show_tape, learner;
  long max_steps;
  const char *save;
  /* made by validate, freed by cfg_free */
  nnt_rcnn_tm2d tm;
  nnt_rcnn_tm2d_tape grid; /* the tape the machine runs on */
  int truth, loaded, taped;
} tm2d_cfg;

typedef struct {
  nnt_rcnn_tm2d_result r;
  nnt_rcnn_tm2d_tape before; /* --show-tape: the tape as it was before the run */
} tm2d_res;

static void defaults(void *cfg, nnt_preset preset) {
  (void)preset;
  *(tm2d_cfg *)cfg = (tm2d_cfg){.work = 1, .max_steps = 100000000};
}
static void cfg_free(void *cfg) {
  tm2d_cfg *c = cfg;
  if (c->loaded) nnt_rcnn_tm2d_free(&c->tm);
  if (c->taped) nnt_rcnn_tm2d_tape_free(&c->grid);
}
static int run_validate(void *cfg, const cli_run *r);
static int run_run(void *cfg, const cli_run *r, void *res);
static int run_report(const void *cfg, const void *res, const cli_run *r);
static void run_free(void *res) { nnt_rcnn_tm2d_tape_free(&((tm2d_res *)res)->before); }

#define T tm2d_cfg
static const cli_opt run_opts[] = {
    CLI_STR("tape", T, tape, "main grid given directly: rows of + - 0 separated by '/', e.g. '+-+/-++' (no default)"),
    CLI_STR("data", T, data, "labelled dataset, one example a line: x_1 .. x_d y, values -1 or 1 (no default)"),
    CLI_INTS("parity", T, parity, nparity, 0, 1e9, "d,m,seed: draw m examples of a random parity on d bits (d <= 64), and x (no default)"),
    CLI_STR("x", T, x, "test point as d characters + or -, with --data (required) or --parity (default: drawn)"),
    CLI_INT("work", T, work, 1, 100000, "work-region columns right of the main grid"),
    CLI_LONG("max-steps", T, max_steps, 1, 1e10, "stop after this many transitions"),
    CLI_FLAG("show-tape", T, show_tape, "print the tape before and after the run"),
    {0}};
static const cli_cmd run_cmd = {
    .name = "tm2d run",
    .example = "nnt tm2d run examples/rcnn/gauss-parity.tm2d --parity 8,16,2\n"
               "nnt tm2d run examples/rcnn/majority.tm2d --parity 5,7,1 --show-tape",
    .args = "FILE",
    .about = "Runs a 2-D Turing machine (FILE in the tm2d text format, see docs/rcnn.md) on the XOR tape of a\n"
             "dataset and a test point (--data and --x, or --parity), or on a tape given with --tape, until it\n"
             "halts; prints output, steps and blocked moves. Exit 1 when it does not halt or breaks the\n"
             "readout convention (answer on (0,0), the rest of the main grid blank).",
    .opts = run_opts,
    .cfg_size = sizeof(T),
    .res_size = sizeof(tm2d_res),
    .cfg_default = defaults,
    .validate = run_validate,
    .run = run_run,
    .report = run_report,
    .result_free = run_free,
    .cfg_free = cfg_free,
    .npos_min = 1,
    .npos_max = 1,
};

static int parse_point(const char *s, int d, signed char *x) {
  if ((int)strlen(s) != d) return nnt_fail(NNT_EINVAL, "--x: '%s' has %zu characters, the data has d = %d", s, strlen(s), d);
  for (int b = 0; b < d; b++) {
    if (s[b] != '+' && s[b] != '-') return nnt_fail(NNT_EINVAL, "--x: '%c' is not + or -", s[b]);
    x[b] = (signed char)(s[b] == '+' ? 1 : -1);
  }
  return NNT_OK;
}

/* The tape from whichever of --tape, --data, --parity was given; *truth: the parity's label of x. */
static int make_tape(const T *c, nnt_rcnn_tm2d_tape *tape, int *truth) {
  int ways = !!c->tape + !!c->data + !!c->nparity;
  *truth = 0;
  if (ways != 1) return nnt_fail(NNT_EINVAL, "tm2d run: give exactly one of --tape, --data, --parity");
  if (c->tape) {
    if (c->x) return nnt_fail(NNT_EINVAL, "--x: the test point is part of --tape (its last row)");
    return nnt_rcnn_tm2d_tape_parse(tape, c->tape, c->work);
  }
  int m, d, st = NNT_OK;
  signed char *X = NULL, *y = NULL, *x = NULL;
  uint64_t secret;
  if (c->data) {
    if (!c->x) return nnt_fail(NNT_EINVAL, "tm2d run: --data needs --x");
    if ((st = nnt_rcnn_tm2d_data_load(c->data, &m, &d, &X, &y))) return st;
    x = malloc(d + 1);
    st = parse_point(c->x, d, x);
  } else {
    if (c->nparity != 3) return nnt_fail(NNT_EINVAL, "--parity: expected d,m,seed (got %d values)", c->nparity);
    d = (int)c->parity[0], m = (int)c->parity[1];
    if (d < 1 || d > 64 || m < 1 || m > 100000)
      return nnt_fail(NNT_EINVAL, "--parity: need 1 <= d <= 64 and 1 <= m <= 100000 (got d=%d m=%d)", d, m);
    X = nnt_xmalloc((size_t)m * d), y = nnt_xmalloc(m), x = nnt_xmalloc(d);
    nnt_rcnn_tm2d_parity(d, m, (uint64_t)c->parity[2], X, y, x, &secret);
    if (c->x) st = parse_point(c->x, d, x);
    *truth = 1;
    for (int b = 0; b < d; b++)
      if (secret >> b & 1) *truth *= x[b];
  }
  if (!st) st = nnt_rcnn_tm2d_tape_xor(tape, m, d, c->work, X, y, x);
  free(X), free(y), free(x);
  return st;
}

static int run_validate(void *cfg, const cli_run *r) {
  T *c = cfg;
  int st = nnt_rcnn_tm2d_load(&c->tm, r->pos[0]);
  if (st) return st;
  c->loaded = 1;
  if ((st = make_tape(c, &c->grid, &c->truth))) return st;
  c->taped = 1;
  return NNT_OK;
}

static int run_run(void *cfg, const cli_run *r, void *res) {
  T *c = cfg;
  tm2d_res *o = res;
  (void)r;
  if (c->show_tape) {
    size_t n = (size_t)(c->grid.m + 1) * (c->grid.d + 1 + c->grid.work);
    o->before = c->grid, o->before.cell = nnt_xmalloc(n);
    memcpy(o->before.cell, c->grid.cell, n);
  }
  int st = nnt_rcnn_tm2d_run(&c->tm, &c->grid, c->max_steps, &o->r);
  if (st) nnt_rcnn_tm2d_tape_free(&o->before); /* the driver frees a result only after a run that finished */
  return st;
}

static int run_report(const void *cfg, const void *res, const cli_run *r) {
  const T *c = cfg;
  const tm2d_res *o = res;
  return nnt_report_rcnn_tm2d_run(r->pos[0], &c->tm, c->show_tape ? &o->before : NULL, &c->grid, &o->r, c->truth);
}

static int load_validate(void *cfg, const cli_run *r) {
  T *c = cfg;
  int st = nnt_rcnn_tm2d_load(&c->tm, r->pos[0]);
  return c->loaded = !st, st;
}
static int no_run(void *cfg, const cli_run *r, void *res) { return (void)cfg, (void)r, (void)res, NNT_OK; }
static int check_report(const void *cfg, const void *res, const cli_run *r) {
  return (void)res, nnt_report_rcnn_tm2d_check(r->pos[0], &((const T *)cfg)->tm);
}

static const cli_cmd check_cmd = {
    .name = "tm2d check",
    .example = "nnt tm2d check examples/rcnn/majority.tm2d",
    .args = "FILE",
    .about = "Checks a 2-D Turing machine file: syntax, every state declared, a transition for every\n"
             "(state, symbol) of a non-halting state, a no-op first step, absorbing halting states.\n"
             "Prints the sizes, or one line 'FILE:LINE: what' and exit 2.",
    .opts = (const cli_opt[]){{0}},
    .cfg_size = sizeof(T),
    .cfg_default = defaults,
    .validate = load_validate,
    .run = no_run,
    .report = check_report,
    .cfg_free = cfg_free,
    .npos_min = 1,
    .npos_max = 1,
};

static int learner_validate(void *cfg, const cli_run *r) {
  T *c = cfg;
  (void)r;
  int st = nnt_rcnn_tm2d_learner(&c->tm, nnt_rcnn_tm2d_learner_names[c->learner]);
  return c->loaded = !st, st;
}
static int export_report(const void *cfg, const void *res, const cli_run *r) {
  const T *c = cfg;
  (void)res, (void)r;
  return nnt_report_rcnn_tm2d_export(c->save, nnt_rcnn_tm2d_learner_names[c->learner], &c->tm);
}

static const cli_opt export_opts[] = {
    CLI_CHOICE("learner", T, learner, nnt_rcnn_tm2d_learner_names, "bundled learner"),
    CLI_STR("save", T, save, "the one file to write (default: standard output)"),
    {0}};
static const cli_cmd export_cmd = {
    .name = "tm2d export",
    .example = "nnt tm2d export --learner majority --save majority.tm2d",
    .about = "Writes a bundled learner in the tm2d text format, for tm2d run and tm2d check, to standard output or\n"
             "to one file (--save FILE; --out DIR is the folder option of the computing commands).",
    .opts = export_opts,
    .cfg_size = sizeof(T),
    .cfg_default = defaults,
    .validate = learner_validate,
    .run = no_run,
    .report = export_report,
    .cfg_free = cfg_free,
};

static int run(int argc, char **argv) { return cli_drive(&run_cmd, argc, argv); }
static int check(int argc, char **argv) { return cli_drive(&check_cmd, argc, argv); }
static int export(int argc, char **argv) { return cli_drive(&export_cmd, argc, argv); }
#undef T

static const cli_sub subs[] = {
    {"run", run, "FILE: run a machine on a tape or a dataset"},
    {"check", check, "FILE: check a machine file against the conventions"},
    {"export", export, "write a bundled learner (first-label, dictator, majority, gauss-parity) in the text format"},
};

int cmd_tm2d(int argc, char **argv) { return cli_dispatch("tm2d", subs, 3, argc, argv); }
