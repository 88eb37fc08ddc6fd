/* nnt_rcnn_tm2d.h — 2-D Turing machines of seed 002 (Goel, Kakade, Kalai, Zhang, Appendix B;
 * spec §4.1, §4.7, §4.10): transition tables with collision sensing, a text format and its
 * validator, a builder API, a direct simulator on the XOR-encoded tape, and bundled learners.
 *
 * Tape. Symbols are -1, 0 (blank), +1. The tape has m+1 rows and d+1+work columns: the main grid
 * (rows 0..m, columns 0..d) holds the XOR input — row i < m is y_i·[x∘x_i, 1], row m is [x, 1] —
 * and the work region (columns d+1..) starts blank. Row 0 is the top; U moves toward row 0.
 * The head starts on the bottom-right main cell (m, d) in the start state, code 0.
 *
 * Collision sensing (spec §4.7). δ(q, a) = (q′, a′, move, q_b): the head writes a′; if the move
 * would leave the tape, the head stays and the state becomes q_b, else it moves and becomes q′.
 * Without it the machine could not find rows 0 and m or column 0.
 *
 * Conventions (checked by nnt_rcnn_tm2d_check): the first step is a no-op (δ(start, a) writes a
 * and does not move; the state may change), halting states are absorbing no-ops, every other
 * state has a transition for every symbol. Readout (checked by the simulator when the machine
 * halts): the answer is cell (0, 0), ±1; every other main cell is blank; the head is on (0, 0) or
 * in the work region. That is what the RCNN's head function sums to ±1 (spec §4.4).
 */
#ifndef NNT_RCNN_TM2D_H
#define NNT_RCNN_TM2D_H
#include <stdint.h>
#include <stdio.h>

enum { NNT_RCNN_TM2D_N, NNT_RCNN_TM2D_U, NNT_RCNN_TM2D_D, NNT_RCNN_TM2D_L, NNT_RCNN_TM2D_R };

typedef struct {
  int next, blocked; /* q′ and q_b */
  signed char write; /* a′ */
  signed char move;  /* NNT_RCNN_TM2D_N..R */
  int line;          /* source line (0: built in C); -1: no transition */
} nnt_rcnn_tm2d_rule;

typedef struct {
  int nstates, cap;
  char **names;               /* state code -> name; code 0 is the start state */
  unsigned char *halting;
  int *line;                  /* line where the state was declared (0: built in C) */
  nnt_rcnn_tm2d_rule *delta;  /* [q*3 + a+1] */
} nnt_rcnn_tm2d;

/* ---- builder: states are created by name on first use; the first one is the start state. */
void nnt_rcnn_tm2d_init(nnt_rcnn_tm2d *tm);
void nnt_rcnn_tm2d_free(nnt_rcnn_tm2d *tm);
/* The code of state `name` (printf format), created if new. */
int nnt_rcnn_tm2d_state(nnt_rcnn_tm2d *tm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void nnt_rcnn_tm2d_halt(nnt_rcnn_tm2d *tm, int q);
/* δ(q, a) = (next, write, move, blocked); a, write in {-1, 0, 1}. Replaces an earlier rule. */
void nnt_rcnn_tm2d_rule_set(nnt_rcnn_tm2d *tm, int q, int a, int next, int write, int move, int blocked);

/* ---- text format (grammar in tm2d.c and docs/rcnn.md) */
/* Parses and checks `text`; errors are NNT_EFORMAT "name:line: what". */
int nnt_rcnn_tm2d_parse(nnt_rcnn_tm2d *tm, const char *text, const char *name);
int nnt_rcnn_tm2d_load(nnt_rcnn_tm2d *tm, const char *path);
/* The conventions above; NNT_EFORMAT "name:line: what" on the first violation. */
int nnt_rcnn_tm2d_check(const nnt_rcnn_tm2d *tm, const char *name);
/* Writes tm in the text format; parsing the output gives the same machine. */
void nnt_rcnn_tm2d_write(const nnt_rcnn_tm2d *tm, FILE *f);

/* ---- tape and simulator */
typedef struct {
  int m, d, work;     /* rows m+1, columns d+1+work */
  signed char *cell;  /* [r*(d+1+work) + c] */
} nnt_rcnn_tm2d_tape;

/* The XOR tape of a dataset: X is m×d (row-major), y has m labels, x is the test point; all ±1. */
int nnt_rcnn_tm2d_tape_xor(nnt_rcnn_tm2d_tape *t, int m, int d, int work, const signed char *X,
                           const signed char *y, const signed char *x);
/* A main grid given directly as rows of '+', '-', '0' separated by '/', e.g. "+-+/-++" (m = 1, d = 2). */
int nnt_rcnn_tm2d_tape_parse(nnt_rcnn_tm2d_tape *t, const char *rows, int work);
void nnt_rcnn_tm2d_tape_free(nnt_rcnn_tm2d_tape *t);
void nnt_rcnn_tm2d_tape_print(const nnt_rcnn_tm2d_tape *t, FILE *f);

typedef struct {
  long steps;         /* transitions applied, the first no-op and the move into the halting state included */
  int halted;
  int state, row, col; /* where the machine stopped */
  long collisions;    /* blocked moves */
  int readout_ok;     /* halted and the readout convention holds */
  int output;         /* cell (0, 0) when readout_ok, else 0 */
  char why[160];      /* why the readout failed ("" when readout_ok) */
} nnt_rcnn_tm2d_result;

/* Runs tm on t (modified in place) until it halts or max_steps transitions have been applied. */
int nnt_rcnn_tm2d_run(const nnt_rcnn_tm2d *tm, nnt_rcnn_tm2d_tape *t, long max_steps, nnt_rcnn_tm2d_result *r);

/* ---- data */
/* A random parity: secret S ⊆ [d] drawn uniformly (bit i of *secret), m examples and a test
 * point x, uniform over {±1}^d, y = ∏_{i∈S} x_i (bit 1 ↔ -1). Stream 0 of seed. */
void nnt_rcnn_tm2d_parity(int d, int m, uint64_t seed, signed char *X, signed char *y, signed char *x, uint64_t *secret);

/* A labelled dataset, one example a line: "x_1 .. x_d y", values -1 or 1; '#' starts a comment.
 * Allocates *X (m×d) and *y; NNT_EFORMAT "path:line: what". */
int nnt_rcnn_tm2d_data_load(const char *path, int *m, int *d, signed char **X, signed char **y);

/* ---- bundled learners, by name: "first-label", "dictator", "majority", "gauss-parity" */
extern const char *const nnt_rcnn_tm2d_learner_names[];
int nnt_rcnn_tm2d_learner(nnt_rcnn_tm2d *tm, const char *name);
/* A learner for the RCNN: a bundled one by name, otherwise the .tm2d file `spec` (parsed and
 * checked as nnt tm2d check does), then nnt_rcnn_tm2d_rcnn_ready. */
int nnt_rcnn_tm2d_learner_open(nnt_rcnn_tm2d *tm, const char *spec);
/* What a machine valid under the conventions still needs to run inside the RCNN, checked before
 * any work: a halting state reachable from the start state through δ's next and blocked states
 * (else it never parks and the RCNN's output never becomes ±1), and few enough states for the
 * ternary codec (3^9). NNT_EINVAL "name: cannot run in an RCNN: why". */
int nnt_rcnn_tm2d_rcnn_ready(const nnt_rcnn_tm2d *tm, const char *name);
/* The same on a run of the direct simulator (r from nnt_rcnn_tm2d_run with max_steps): NNT_EINVAL
 * when it did not halt (it never parks on this input) or broke the readout convention (the RCNN's
 * summed output would not be its answer); `what` names the input ("test point 3"). */
int nnt_rcnn_tm2d_rcnn_run_ok(const nnt_rcnn_tm2d_result *r, const char *name, const char *what, long max_steps);

#endif
