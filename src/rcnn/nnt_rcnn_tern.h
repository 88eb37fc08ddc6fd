/* nnt_rcnn_tern.h — the balanced-ternary cell codec of the rule-level RCNN (seed 002, spec §4.2).
 *
 * A cell value is a = Σ_{i=0}^{K} a(i)·3^{-i}, a(i) ∈ {-1, 0, 1}, stored exactly as the integer
 * n = a·3^K (never compared as a float). Digits: 0 = the 1s-region flag, 1 = tape symbol,
 * 2 = phase (-1 memorisation, 0 unknown, +1 computation), 3 = head present, 4..K = the state,
 * read as one balanced integer, the state code (digit K has weight 1). K = 3 + nq for nq state
 * trits. The start state has code 0 (rule 3 places the head with zero state digits); state q > 0
 * gets the distinct non-zero code 1, -1, 2, -2, ... (q = 1, 2, 3, 4, ...).
 *
 * The boundary padding p = 1/6 = 0.0111…₃ has no finite expansion: it is the sentinel
 * NNT_RCNN_TERN_P, never a grid value. Digits are read in O(1) from a table over the whole range
 * |n| <= (3^{K+1}-1)/2 (6,561 entries for K = 7).
 */
#ifndef NNT_RCNN_TERN_H
#define NNT_RCNN_TERN_H
#include <stdint.h>

#define NNT_RCNN_TERN_P INT32_MIN
enum { NNT_RCNN_TERN_MAX_NQ = 9 };

typedef struct {
  signed char pad, tape, phase, head; /* digits 0..3 */
  int32_t state;                      /* digits 4..K as the state code */
} nnt_rcnn_tern_digits;

typedef struct {
  int nq, K;
  int32_t scale;              /* 3^K: the value 1 */
  int32_t half;               /* (3^{K+1}-1)/2: the largest |n| with K+1 digits */
  nnt_rcnn_tern_digits *tab;  /* [n + half] */
} nnt_rcnn_tern;

/* Smallest nq whose codes distinguish nstates states (3^nq >= nstates, at least 1). */
int nnt_rcnn_tern_nq_for(int nstates);
/* NNT_EINVAL unless 1 <= nq <= NNT_RCNN_TERN_MAX_NQ. */
int nnt_rcnn_tern_init(nnt_rcnn_tern *t, int nq);
void nnt_rcnn_tern_free(nnt_rcnn_tern *t);

/* Digits of n, or NULL for p and for values outside the K+1-digit range. */
static inline const nnt_rcnn_tern_digits *nnt_rcnn_tern_dec(const nnt_rcnn_tern *t, int32_t n) {
  return n != NNT_RCNN_TERN_P && n >= -t->half && n <= t->half ? &t->tab[n + t->half] : 0;
}
/* Digit i (0..K) of n; n must decode. */
int nnt_rcnn_tern_digit(const nnt_rcnn_tern *t, int32_t n, int i);
/* n from its fields; code in the nq-trit range. */
int32_t nnt_rcnn_tern_encode(const nnt_rcnn_tern *t, int pad, int tape, int phase, int head, int32_t code);

/* State index q <-> code (q = 0 <-> 0). */
int32_t nnt_rcnn_tern_code(int q);
int nnt_rcnn_tern_state(int32_t code);

double nnt_rcnn_tern_to_double(const nnt_rcnn_tern *t, int32_t n);
/* n for v when v is p or a grid value within 1e-9·3^-K; else NNT_EINVAL. */
int nnt_rcnn_tern_from_double(const nnt_rcnn_tern *t, double v, int32_t *n);

/* ---- sets of values (the reachable set of a run, the universe of a machine) */
typedef struct {
  const nnt_rcnn_tern *t;
  unsigned char *in;  /* [n + half] */
  int has_p;
  long count;
} nnt_rcnn_tern_set;
void nnt_rcnn_tern_set_init(nnt_rcnn_tern_set *s, const nnt_rcnn_tern *t);
void nnt_rcnn_tern_set_free(nnt_rcnn_tern_set *s);
/* Adds n (p included); NNT_EINVAL for a value outside the range. */
int nnt_rcnn_tern_set_add(nnt_rcnn_tern_set *s, int32_t n);
int nnt_rcnn_tern_set_has(const nnt_rcnn_tern_set *s, int32_t n);
/* 1 when every element of a is in b. */
int nnt_rcnn_tern_set_within(const nnt_rcnn_tern_set *a, const nnt_rcnn_tern_set *b);
/* The values an RCNN running an nstates-state machine can hold (spec §4.2), 10 + 4·nstates of
 * them: p; 0, ±1/3, 1 (memory layer); -1/9 (memorisation phase); 1/9, 4/9, -2/9, 10/9 (compute
 * phase: blank, +1, -1, 1s region); and the head in each state on each of the four compute values. */
void nnt_rcnn_tern_universe(nnt_rcnn_tern_set *s, const nnt_rcnn_tern *t, int nstates);

#endif
