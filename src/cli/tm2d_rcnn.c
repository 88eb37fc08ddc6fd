/* nnt tm2d — the 2-D Turing machines of seed 002: run one on a tape or a dataset, check a file
 * against the conventions, export a bundled learner in the text format. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nnt_error.h"
#include "nnt_file.h"
#include "nnt_rcnn_tm2d.h"

typedef struct {
  const char *tape, *data, *x;
  int parity[3];
  int nparity;
  int work, show_tape, learner;
  long max_steps;
  const char *save;
} tm2d_cfg;

static void defaults(void *cfg, int quick) {
  (void)quick;
  *(tm2d_cfg *)cfg = (tm2d_cfg){.work = 1, .max_steps = 100000000};
}

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
    .defaults = defaults,
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

static int run(int argc, char **argv) {
  T c;
  cli_args a;
  int st = cli_parse(&run_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  nnt_rcnn_tm2d tm;
  nnt_rcnn_tm2d_tape tape;
  int truth;
  if ((st = nnt_rcnn_tm2d_load(&tm, a.pos[0]))) return st;
  if ((st = make_tape(&c, &tape, &truth))) return nnt_rcnn_tm2d_free(&tm), st;
  if (!(st = cli_begin(&a.co))) {
    printf("machine %s: %d states; tape m=%d d=%d work=%d\n", a.pos[0], tm.nstates, tape.m, tape.d, tape.work);
    if (c.show_tape) printf("tape before:\n"), nnt_rcnn_tm2d_tape_print(&tape, stdout);
    nnt_rcnn_tm2d_result r;
    if (!(st = nnt_rcnn_tm2d_run(&tm, &tape, c.max_steps, &r))) {
      if (c.show_tape) printf("tape after (head on (%d,%d), state %s):\n", r.row, r.col, tm.names[r.state]), nnt_rcnn_tm2d_tape_print(&tape, stdout);
      printf("output=%s steps=%ld halted=%s collisions=%ld readout=%s", r.readout_ok ? (r.output > 0 ? "+1" : "-1") : "none",
             r.steps, r.halted ? "yes" : "no", r.collisions, r.readout_ok ? "ok" : r.why);
      if (truth) printf(" parity_label=%+d", truth);
      printf("\n");
      if (!r.readout_ok)
        st = nnt_fail(NNT_ECHECK, "%s: %s after %ld steps", a.pos[0], r.halted ? "readout convention violated" : "no halt", r.steps);
    }
  }
  nnt_rcnn_tm2d_tape_free(&tape);
  nnt_rcnn_tm2d_free(&tm);
  return st;
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
    .defaults = defaults,
    .npos_min = 1,
    .npos_max = 1,
};

static int check(int argc, char **argv) {
  T c;
  cli_args a;
  int st = cli_parse(&check_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  nnt_rcnn_tm2d tm;
  if ((st = nnt_rcnn_tm2d_load(&tm, a.pos[0]))) return st;
  if ((st = cli_begin(&a.co))) return nnt_rcnn_tm2d_free(&tm), st;
  int halting = 0, rules = 0;
  for (int q = 0; q < tm.nstates; q++) {
    halting += tm.halting[q];
    for (int s = 0; s < 3; s++) rules += !tm.halting[q] && tm.delta[3 * q + s].line >= 0;
  }
  printf("%s: ok: %d states (%d halting), %d transitions, start state '%s'\n", a.pos[0], tm.nstates, halting, rules,
         tm.names[0]);
  nnt_rcnn_tm2d_free(&tm);
  return NNT_OK;
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
    .defaults = defaults,
};

static int export(int argc, char **argv) {
  T c;
  cli_args a;
  int st = cli_parse(&export_cmd, argc, argv, &c, &a);
  if (st || a.co.help) return st;
  nnt_rcnn_tm2d tm;
  const char *name = nnt_rcnn_tm2d_learner_names[c.learner];
  if ((st = nnt_rcnn_tm2d_learner(&tm, name))) return st;
  if ((st = cli_begin(&a.co))) return nnt_rcnn_tm2d_free(&tm), st;
  nnt_afile f = {.f = stdout};
  if (c.save && (st = nnt_afile_open(&f, c.save))) return nnt_rcnn_tm2d_free(&tm), st;
  fprintf(f.f, "# %s: a learner for nnt tm2d (seed 002), %d states\n", name, tm.nstates);
  nnt_rcnn_tm2d_write(&tm, f.f);
  if (c.save) st = nnt_afile_commit(&f);
  nnt_rcnn_tm2d_free(&tm);
  return st;
}
#undef T

static const cli_sub subs[] = {
    {"run", run, "FILE: run a machine on a tape or a dataset"},
    {"check", check, "FILE: check a machine file against the conventions"},
    {"export", export, "write a bundled learner (first-label, dictator, majority, gauss-parity) in the text format"},
};

int cmd_tm2d(int argc, char **argv) { return cli_dispatch("tm2d", subs, 3, argc, argv); }
