/* The balanced-ternary codec: table size, digit round trips against the positional value, field
 * decoding of the spec's named values, p never a grid value, codes, conversions, the universe. */
#include "nnt_error.h"
#include "nnt_rcnn_tern.h"
#include "nnt_test.h"

static void digits(void) {
  nnt_rcnn_tern t;
  CHECK(nnt_rcnn_tern_init(&t, 4) == NNT_OK);
  CHECK(t.K == 7 && t.scale == 2187 && 2 * t.half + 1 == 6561);
  int bad = 0;
  for (int32_t n = -t.half; n <= t.half; n++) {
    int64_t v = 0; /* Σ digit_i 3^{K-i} must give n back */
    for (int i = 0; i <= t.K; i++) {
      int a = nnt_rcnn_tern_digit(&t, n, i);
      bad += a < -1 || a > 1;
      v = 3 * v + a;
    }
    const nnt_rcnn_tern_digits *e = nnt_rcnn_tern_dec(&t, n);
    bad += v != n || nnt_rcnn_tern_encode(&t, e->pad, e->tape, e->phase, e->head, e->state) != n;
    bad += 6 * n == t.scale || 6 * n == -t.scale; /* p = 1/6 lies between grid points */
    int32_t back;
    bad += nnt_rcnn_tern_from_double(&t, nnt_rcnn_tern_to_double(&t, n), &back) != NNT_OK || back != n;
  }
  CHECK(bad == 0);
  CHECK(!nnt_rcnn_tern_dec(&t, NNT_RCNN_TERN_P) && !nnt_rcnn_tern_dec(&t, t.half + 1) && !nnt_rcnn_tern_dec(&t, -t.half - 1));
  int32_t n;
  CHECK(nnt_rcnn_tern_from_double(&t, 1.0 / 6, &n) == NNT_OK && n == NNT_RCNN_TERN_P);
  CHECK(nnt_rcnn_tern_to_double(&t, NNT_RCNN_TERN_P) == 1.0 / 6);
  CHECK(nnt_rcnn_tern_from_double(&t, 0.1, &n) == NNT_EINVAL);
  CHECK(nnt_rcnn_tern_from_double(&t, 2.0, &n) == NNT_EINVAL);
  /* the spec's named values (§4.2) */
  const nnt_rcnn_tern_digits *e = nnt_rcnn_tern_dec(&t, 13 * 81); /* 13/27: the first head */
  CHECK(e->pad == 0 && e->tape == 1 && e->phase == 1 && e->head == 1 && e->state == 0);
  e = nnt_rcnn_tern_dec(&t, -243); /* -1/9: memorisation phase, tape wiped */
  CHECK(e->pad == 0 && e->tape == 0 && e->phase == -1 && e->head == 0);
  e = nnt_rcnn_tern_dec(&t, 10 * 243); /* 10/9: 1s cell in the compute phase */
  CHECK(e->pad == 1 && e->tape == 0 && e->phase == 1 && e->head == 0);
  e = nnt_rcnn_tern_dec(&t, -2 * 243); /* -2/9: tape -1, compute phase */
  CHECK(e->pad == 0 && e->tape == -1 && e->phase == 1);
  e = nnt_rcnn_tern_dec(&t, 13 * 81 - 40); /* the head with the most negative state code */
  CHECK(e->head == 1 && e->state == -40 && nnt_rcnn_tern_digit(&t, 13 * 81 - 40, 4) == -1);
  nnt_rcnn_tern_free(&t);
  CHECK(nnt_rcnn_tern_init(&t, 0) == NNT_EINVAL && nnt_rcnn_tern_init(&t, NNT_RCNN_TERN_MAX_NQ + 1) == NNT_EINVAL);
}

static void codes(void) {
  CHECK(nnt_rcnn_tern_nq_for(1) == 1 && nnt_rcnn_tern_nq_for(3) == 1 && nnt_rcnn_tern_nq_for(4) == 2);
  CHECK(nnt_rcnn_tern_nq_for(16) == 3 && nnt_rcnn_tern_nq_for(65) == 4 && nnt_rcnn_tern_nq_for(81) == 4);
  CHECK(nnt_rcnn_tern_code(0) == 0);
  int bad = 0;
  unsigned char used[81] = {0};
  for (int q = 0; q < 81; q++) { /* 81 states: codes fill -40..40 once each */
    int32_t c = nnt_rcnn_tern_code(q);
    bad += c < -40 || c > 40 || used[c + 40]++ || nnt_rcnn_tern_state(c) != q || (q && !c);
  }
  CHECK(bad == 0);
}

static void universe(void) {
  nnt_rcnn_tern t;
  nnt_rcnn_tern_init(&t, 4);
  nnt_rcnn_tern_set u, s;
  nnt_rcnn_tern_universe(&u, &t, 65);
  CHECK(u.count == 10 + 4 * 65);
  CHECK(nnt_rcnn_tern_set_has(&u, NNT_RCNN_TERN_P) && nnt_rcnn_tern_set_has(&u, 13 * 81) && nnt_rcnn_tern_set_has(&u, -243));
  CHECK(!nnt_rcnn_tern_set_has(&u, 1) && !nnt_rcnn_tern_set_has(&u, t.half + 5));
  nnt_rcnn_tern_set_init(&s, &t);
  CHECK(nnt_rcnn_tern_set_add(&s, 0) == NNT_OK && nnt_rcnn_tern_set_add(&s, 0) == NNT_OK && s.count == 1);
  CHECK(nnt_rcnn_tern_set_within(&s, &u));
  CHECK(nnt_rcnn_tern_set_add(&s, 1) == NNT_OK && !nnt_rcnn_tern_set_within(&s, &u));
  CHECK(nnt_rcnn_tern_set_add(&s, t.half + 1) == NNT_EINVAL);
  nnt_rcnn_tern_set_free(&s), nnt_rcnn_tern_set_free(&u), nnt_rcnn_tern_free(&t);
}

int main(void) {
  digits();
  codes();
  universe();
  TEST_MAIN_END();
}
