/* tm2d_learners.c — bundled learners written with the builder API. Each maps (S, x), given as the
 * XOR tape, to a label in (0, 0) and obeys the readout convention:
 *   first-label  y_1                                  (16 states)
 *   dictator     cell (0,0) of the XOR tape, y_1·x_{1,1}·x_1 (10 states)
 *   majority     sign(Σ_i y_i), +1 on a tie             (25 states)
 *   gauss-parity Gaussian elimination over GF(2)         (65 states)
 * They share a routine that blanks the main grid row by row from the bottom and then finishes on
 * row 0, which is found by collision sensing: an upward move that is blocked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_error.h"
#include "nnt_rcnn_tern.h"
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

/* Gaussian elimination over GF(2) (spec §4.10), bit 1 ↔ -1 so that XOR is a product.
 * (i)-(ii) undo the XOR encoding: multiply columns 1..d of rows 1..m by x (from the bottom row),
 * then each such row by its label, giving rows [x_i, y_i] above the query row [x, 1].
 * (iii) for each column c, leftmost first: the topmost training row with -1 in c is the pivot; it
 * is bubbled down by adjacent-row swaps, multiplied into every row with -1 in c that it passes and
 * finally into the query row if that has -1 in c; then the pivot row and column c are blanked.
 * No pivot: column c is blanked (if the query row had -1 there, x is outside the span and the
 * answer is undetermined). Finally the query row's label cell holds the prediction; it is carried
 * to (0,0). */
static void gauss_parity(nnt_rcnn_tm2d *tm) {
#define Q(...) nnt_rcnn_tm2d_state(tm, __VA_ARGS__)
#define SET nnt_rcnn_tm2d_rule_set
  int S = Q("start"), S1 = Q("S1"), H = Q("halt");
  nnt_rcnn_tm2d_halt(tm, H);
  int Tp = carry(tm, 1, H), Tm = carry(tm, -1, H);
  /* (ii) columns: P2 on (m, b) reads x_b and multiplies it up the column */
  int P2 = Q("P2"), DOWN = Q("DOWN"), NEXTCOL = Q("NEXTCOL"), P1GO = Q("P1GO"), MU[2] = {Q("MU-"), Q("MU+")};
  keep(tm, S, S1, N, S1);
  keep(tm, S1, P2, L, P1GO);
  keep(tm, P2, DOWN, U, DOWN);
  for (int s = 0; s < 2; s++) {
    SET(tm, P2, 2 * s - 1, MU[s], 2 * s - 1, U, DOWN);
    for (int a = -1; a <= 1; a++) SET(tm, MU[s], a, MU[s], a * (2 * s - 1), U, DOWN);
  }
  keep(tm, DOWN, DOWN, D, NEXTCOL);
  keep(tm, NEXTCOL, P2, L, P1GO);
  /* (i) rows m-1..0: R1 on (r, d) reads y_r and multiplies it along the row */
  int P1U = Q("P1U"), R1 = Q("R1"), RET = Q("RET"), R1UP = Q("R1UP"), GODOWN = Q("GODOWN"), HOMEL = Q("HOMEL"),
      ML[2] = {Q("ML-"), Q("ML+")};
  keep(tm, P1GO, P1GO, R, P1GO);
  SET(tm, P1GO, 0, P1U, 0, L, P1U);
  keep(tm, P1U, R1, U, GODOWN);
  keep(tm, R1, RET, L, RET);
  for (int s = 0; s < 2; s++) {
    SET(tm, R1, 2 * s - 1, ML[s], 2 * s - 1, L, RET);
    for (int a = -1; a <= 1; a++) SET(tm, ML[s], a, ML[s], a * (2 * s - 1), L, RET);
  }
  keep(tm, RET, RET, R, RET);
  SET(tm, RET, 0, R1UP, 0, L, R1UP);
  keep(tm, R1UP, R1, U, GODOWN);
  keep(tm, GODOWN, GODOWN, D, HOMEL);
  /* (iii) find column c: the leftmost non-blank cell of the bottom row; the label column means done */
  int SCAN = Q("SCAN"), PEEK = Q("PEEK"), FIN = Q("FIN"), UPC = Q("UPC"), FINDP = Q("FINDP"), FB = Q("FB"),
      PIV = Q("PIV"), LOOK = Q("LOOK"), BLANKC = Q("BLANKC"), DOWNC = Q("DOWNC");
  keep(tm, HOMEL, HOMEL, L, SCAN);
  keep(tm, SCAN, PEEK, R, PEEK);
  SET(tm, SCAN, 0, SCAN, 0, R, SCAN);
  keep(tm, PEEK, UPC, L, UPC);
  SET(tm, PEEK, 0, FIN, 0, L, FIN);
  keep(tm, UPC, UPC, U, FINDP);
  keep(tm, FINDP, FINDP, D, BLANKC); /* down column c to the first -1; reaching row m: no pivot */
  SET(tm, FINDP, -1, FB, -1, D, BLANKC);
  keep(tm, FB, PIV, U, PIV);
  keep(tm, PIV, LOOK, D, LOOK);
  /* LOOK on (p+1, c): is p+1 the query row (a blocked D), and does it have -1 in c? */
  int LB[2] = {Q("LB"), Q("LBx")}, LB2[2] = {Q("LB2"), Q("LB2x")}, LQ[2] = {Q("LQ"), Q("LQx")}, XS[2] = {Q("XS"), Q("XSx")};
  for (int a = -1; a <= 1; a++) SET(tm, LOOK, a, LB[a < 0], a, D, LQ[a < 0]);
  for (int x = 0; x < 2; x++) keep(tm, LB[x], LB2[x], U, LB2[x]), keep(tm, LB2[x], XS[x], U, XS[x]);
  /* swap rows p and p+1 from column c rightwards; with x the row passed gets the pivot multiplied in */
  int BACK1 = Q("BACK1"), BACKL = Q("BACKL");
  for (int x = 0; x < 2; x++) {
    SET(tm, XS[x], 0, BACK1, 0, D, BACK1);
    for (int a = -1; a <= 1; a += 2) {
      int DW = Q("DW%s%c", x ? "x" : "", a > 0 ? '+' : '-');
      SET(tm, XS[x], a, DW, a, D, DW);
      for (int b = -1; b <= 1; b++) {
        int v = x ? a * b : b, UW = Q("UW%s%c", x ? "x" : "", "-0+"[v + 1]);
        SET(tm, DW, b, UW, a, U, UW);
        for (int c = -1; c <= 1; c++) SET(tm, UW, c, XS[x], v, R, XS[x]);
      }
    }
  }
  keep(tm, BACK1, BACKL, L, BACKL);
  keep(tm, BACKL, BACKL, L, PIV);
  SET(tm, BACKL, 0, PIV, 0, R, PIV);
  /* the pivot is above the query row: multiply it in if the query has -1 in c, then blank it */
  int XQ = Q("XQ"), XQU = Q("XQU"), GOR = Q("GOR"), BLR = Q("BLR"), BLD = Q("BLD"), SCANB = Q("SCANB");
  keep(tm, LQ[1], XQ, U, XQ);
  keep(tm, LQ[0], GOR, U, GOR);
  SET(tm, XQ, 0, BLR, 0, L, BLR);
  for (int a = -1; a <= 1; a += 2) {
    int XQD = Q("XQD%c", a > 0 ? '+' : '-');
    SET(tm, XQ, a, XQD, a, D, XQD);
    for (int b = -1; b <= 1; b++) SET(tm, XQD, b, XQU, a * b, U, XQU);
  }
  keep(tm, XQU, XQ, R, XQ);
  keep(tm, GOR, GOR, R, GOR);
  SET(tm, GOR, 0, BLR, 0, L, BLR);
  for (int a = -1; a <= 1; a++) SET(tm, BLR, a, BLR, 0, L, BLD), SET(tm, BLANKC, a, BLANKC, 0, U, DOWNC);
  keep(tm, BLD, SCANB, D, SCANB);
  keep(tm, SCANB, BLANKC, N, BLANKC);
  SET(tm, SCANB, 0, SCANB, 0, R, SCANB);
  keep(tm, DOWNC, DOWNC, D, HOMEL);
  /* done: blank the label column upwards, carrying the query row's label to (0,0) */
  for (int s = 0; s < 2; s++) {
    int CU = Q("CU%c", s ? '+' : '-'), T = s ? Tp : Tm;
    SET(tm, FIN, 2 * s - 1, CU, 0, U, T);
    for (int a = -1; a <= 1; a++) SET(tm, CU, a, CU, 0, U, T);
  }
  SET(tm, FIN, 0, Q("CU+"), 0, U, Tp); /* unreachable: the query row's label is ±1 */
#undef Q
#undef SET
}

const char *const nnt_rcnn_tm2d_learner_names[] = {"first-label", "dictator", "majority", "gauss-parity", NULL};

int nnt_rcnn_tm2d_learner(nnt_rcnn_tm2d *tm, const char *name) {
  static void (*const build[])(nnt_rcnn_tm2d *) = {first_label, dictator, majority, gauss_parity};
  for (int i = 0; nnt_rcnn_tm2d_learner_names[i]; i++)
    if (!strcmp(name, nnt_rcnn_tm2d_learner_names[i])) {
      nnt_rcnn_tm2d_init(tm);
      build[i](tm);
      return nnt_rcnn_tm2d_check(tm, name);
    }
  return nnt_fail(NNT_EINVAL, "unknown learner '%s' (first-label, dictator, majority, gauss-parity)", name);
}

int nnt_rcnn_tm2d_rcnn_ready(const nnt_rcnn_tm2d *tm, const char *name) {
  if (nnt_rcnn_tern_nq_for(tm->nstates) > NNT_RCNN_TERN_MAX_NQ)
    return nnt_fail(NNT_EINVAL, "%s: cannot run in an RCNN: %d states, the ternary cell codec holds at most 3^%d", name, tm->nstates,
                    NNT_RCNN_TERN_MAX_NQ);
  /* breadth-first over δ from the start state */
  int *queue = nnt_xmalloc(sizeof *queue * (size_t)tm->nstates), n = 0, parked = 0;
  unsigned char *seen = nnt_xcalloc((size_t)tm->nstates, 1);
  seen[0] = 1, queue[n++] = 0;
  for (int i = 0; i < n && !parked; i++) {
    int q = queue[i];
    if (tm->halting[q]) parked = 1;
    for (int a = 0; a < 3 && !tm->halting[q]; a++) {
      const nnt_rcnn_tm2d_rule *r = &tm->delta[3 * q + a];
      int to[2] = {r->next, r->blocked};
      for (int k = 0; k < 2; k++)
        if (r->line >= 0 && !seen[to[k]]) seen[to[k]] = 1, queue[n++] = to[k];
    }
  }
  free(queue), free(seen);
  if (!parked)
    return nnt_fail(NNT_EINVAL, "%s: cannot run in an RCNN: no halting state is reachable from the start state '%s', so the machine never "
                                "parks and the RCNN's output never settles to +-1", name, tm->names[0]);
  return NNT_OK;
}

int nnt_rcnn_tm2d_rcnn_run_ok(const nnt_rcnn_tm2d_result *r, const char *name, const char *what, long max_steps) {
  if (!r->halted)
    return nnt_fail(NNT_EINVAL, "%s: cannot run in an RCNN: on %s it has not halted after %ld steps (it never parks)", name, what, max_steps);
  if (!r->readout_ok)
    return nnt_fail(NNT_EINVAL, "%s: cannot run in an RCNN: on %s it halts but breaks the readout convention (%s), so the RCNN's summed "
                                "output would not be its answer", name, what, r->why);
  return NNT_OK;
}

int nnt_rcnn_tm2d_learner_open(nnt_rcnn_tm2d *tm, const char *spec) {
  int bundled = 0, st;
  for (int i = 0; nnt_rcnn_tm2d_learner_names[i]; i++) bundled |= !strcmp(spec, nnt_rcnn_tm2d_learner_names[i]);
  if ((st = bundled ? nnt_rcnn_tm2d_learner(tm, spec) : nnt_rcnn_tm2d_load(tm, spec))) {
    if (!bundled && st == NNT_EIO) {
      char why[256];
      snprintf(why, sizeof why, "%s", nnt_errmsg());
      st = nnt_fail(NNT_EINVAL, "learner '%s' is neither bundled (first-label, dictator, majority, gauss-parity) nor a readable .tm2d file: %s",
                    spec, why);
    }
    return st;
  }
  if ((st = nnt_rcnn_tm2d_rcnn_ready(tm, spec))) nnt_rcnn_tm2d_free(tm);
  return st;
}
