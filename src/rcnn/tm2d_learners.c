/* tm2d_learners.c — bundled learners written with the builder API. Each maps (S, x), given as the
 * XOR tape, to a label in (0, 0) and obeys the readout convention:
 *   first-label  y_1                                  (16 states)
 *   dictator     cell (0,0) of the XOR tape, y_1·x_{1,1}·x_1 (10 states)
 *   majority     sign(Σ_i y_i), +1 on a tie             (25 states)
 * They share a routine that blanks the main grid row by row from the bottom and then finishes on
 * row 0, which is found by collision sensing: an upward move that is blocked. */
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_tm2d.h"

enum { N = NNT_RCNN_TM2D_N, U = NNT_RCNN_TM2D_U, D = NNT_RCNN_TM2D_D, L = NNT_RCNN_TM2D_L, R = NNT_RCNN_TM2D_R };

/* δ(q, a) = (next, a, move, blocked) for every symbol a: move without writing. */
static void keep(nnt_rcnn_tm2d *tm, int q, int next, int move, int blocked) {
  for (int a = -1; a <= 1; a++) nnt_rcnn_tm2d_rule_set(tm, q, a, next, a, move, blocked);
}

/* Blanks rows m..1 of the main grid, then enters `top` on row 0 with the rest of the main grid
 * blank. Entered as A<sfx> on row r, on the column left of which the row's non-blank cells lie;
 * the rows below r are blank. Per row: probe upward (blocked: this is row 0), come back, blank
 * leftwards until the left edge blocks, step up and walk right over the non-blank cells to find
 * where the next row ends (a blank: the work region, or a label column blanked earlier). */
static int clear_rows(nnt_rcnn_tm2d *tm, const char *sfx, int top) {
  int A = nnt_rcnn_tm2d_state(tm, "A%s", sfx), B = nnt_rcnn_tm2d_state(tm, "B%s", sfx),
      C = nnt_rcnn_tm2d_state(tm, "C%s", sfx), E = nnt_rcnn_tm2d_state(tm, "E%s", sfx),
      F = nnt_rcnn_tm2d_state(tm, "F%s", sfx);
  keep(tm, A, B, U, top);
  keep(tm, B, C, D, C);
  for (int a = -1; a <= 1; a++) nnt_rcnn_tm2d_rule_set(tm, C, a, C, 0, L, E);
  keep(tm, E, F, U, F);
  keep(tm, F, F, R, F);
  nnt_rcnn_tm2d_rule_set(tm, F, 0, A, 0, L, A);
  return A;
}

/* On row 0, rest of the main grid blank: walks left blanking, and writes s on (0,0), found by a
 * blocked probe to the left; halts there. Returns the entry state. */
static int carry(nnt_rcnn_tm2d *tm, int s, int halt) {
  char c = s > 0 ? '+' : '-';
  int T = nnt_rcnn_tm2d_state(tm, "T%c", c), T2 = nnt_rcnn_tm2d_state(tm, "T2%c", c),
      T3 = nnt_rcnn_tm2d_state(tm, "T3%c", c), W = nnt_rcnn_tm2d_state(tm, "W%c", c);
  keep(tm, T, T2, L, W);
  keep(tm, T2, T3, R, T3);
  for (int a = -1; a <= 1; a++) {
    nnt_rcnn_tm2d_rule_set(tm, T3, a, T, 0, L, T);
    nnt_rcnn_tm2d_rule_set(tm, W, a, halt, s, N, halt);
  }
  return T;
}

static void first_label(nnt_rcnn_tm2d *tm) {
  int S = nnt_rcnn_tm2d_state(tm, "start"), top = nnt_rcnn_tm2d_state(tm, "label");
  int A = clear_rows(tm, "", top), H = nnt_rcnn_tm2d_state(tm, "halt");
  nnt_rcnn_tm2d_halt(tm, H);
  keep(tm, S, A, N, A);
  /* on (0,d), the label y_1: blank it and carry it to (0,0); with d = 0 it is (0,0) already */
  int Tp = carry(tm, 1, H), Tm = carry(tm, -1, H);
  int Wp = nnt_rcnn_tm2d_state(tm, "W+"), Wm = nnt_rcnn_tm2d_state(tm, "W-");
  nnt_rcnn_tm2d_rule_set(tm, top, 1, Tp, 0, L, Wp);
  nnt_rcnn_tm2d_rule_set(tm, top, -1, Tm, 0, L, Wm);
  nnt_rcnn_tm2d_rule_set(tm, top, 0, Tp, 0, L, Wp); /* unreachable on an XOR tape: labels are ±1 */
}

static void dictator(nnt_rcnn_tm2d *tm) {
  int S = nnt_rcnn_tm2d_state(tm, "start"), K = nnt_rcnn_tm2d_state(tm, "K");
  int A = clear_rows(tm, "", K), K2 = nnt_rcnn_tm2d_state(tm, "K2"), K3 = nnt_rcnn_tm2d_state(tm, "K3"),
      H = nnt_rcnn_tm2d_state(tm, "halt");
  nnt_rcnn_tm2d_halt(tm, H);
  keep(tm, S, A, N, A);
  /* on row 0: blank leftwards, keeping (0,0), found by a blocked probe */
  keep(tm, K, K2, L, H);
  keep(tm, K2, K3, R, K3);
  for (int a = -1; a <= 1; a++) nnt_rcnn_tm2d_rule_set(tm, K3, a, K, 0, L, K);
}

/* Pair cancellation in the label column: from the top, blank the first non-blank label and the
 * next one of the other sign below it, and start again; when no partner is left the blanked
 * label's sign is the majority, when no label is left it is a tie. Then clear and write. */
static void majority(nnt_rcnn_tm2d *tm) {
  int S = nnt_rcnn_tm2d_state(tm, "start"), Z = nnt_rcnn_tm2d_state(tm, "Z"), UP = nnt_rcnn_tm2d_state(tm, "UP"),
      FIND = nnt_rcnn_tm2d_state(tm, "FIND"), SEEKp = nnt_rcnn_tm2d_state(tm, "SEEK+"),
      SEEKm = nnt_rcnn_tm2d_state(tm, "SEEK-"), H = nnt_rcnn_tm2d_state(tm, "halt");
  nnt_rcnn_tm2d_halt(tm, H);
  int Ap = clear_rows(tm, "+", carry(tm, 1, H)), Am = clear_rows(tm, "-", carry(tm, -1, H));
  keep(tm, S, Z, N, Z);
  for (int a = -1; a <= 1; a++) nnt_rcnn_tm2d_rule_set(tm, Z, a, UP, 0, U, FIND); /* the query row's 1 is no label */
  keep(tm, UP, UP, U, FIND);
  nnt_rcnn_tm2d_rule_set(tm, FIND, 0, FIND, 0, D, Ap); /* bottom reached, nothing left: a tie */
  nnt_rcnn_tm2d_rule_set(tm, FIND, 1, SEEKm, 0, D, Ap);
  nnt_rcnn_tm2d_rule_set(tm, FIND, -1, SEEKp, 0, D, Am);
  /* SEEKm: a + was blanked, look below for a - */
  keep(tm, SEEKm, SEEKm, D, Ap);
  nnt_rcnn_tm2d_rule_set(tm, SEEKm, -1, UP, 0, U, UP);
  keep(tm, SEEKp, SEEKp, D, Am);
  nnt_rcnn_tm2d_rule_set(tm, SEEKp, 1, UP, 0, U, UP);
}

const char *const nnt_rcnn_tm2d_learner_names[] = {"first-label", "dictator", "majority", NULL};

int nnt_rcnn_tm2d_learner(nnt_rcnn_tm2d *tm, const char *name) {
  static void (*const build[])(nnt_rcnn_tm2d *) = {first_label, dictator, majority};
  for (int i = 0; nnt_rcnn_tm2d_learner_names[i]; i++)
    if (!strcmp(name, nnt_rcnn_tm2d_learner_names[i])) {
      nnt_rcnn_tm2d_init(tm);
      build[i](tm);
      return nnt_rcnn_tm2d_check(tm, name);
    }
  return nnt_fail(NNT_EINVAL, "unknown learner '%s' (first-label, dictator, majority)", name);
}
