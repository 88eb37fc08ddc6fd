/* The generic level's fused multiply-add (nnt_simd_fma8 in nnt_simd.h: round-to-odd in double on
 * x86-64, NEON's FMLA/FMLS on aarch64) against libm's fmaf, bit for bit, fmadd (a*b + c) and fnmadd
 * (c - a*b = fmaf(-a, b, c)) alike: random bit patterns (NaN, inf, subnormals among them),
 * cancellation (c within a few ulps of -a*b), the double-rounding cases constructed (a*b + c just
 * off a midpoint between two floats, by less than half a double ulp, in the normal, subnormal and
 * overflow ranges), sums in the subnormal range, and every triple of 108 sign/exponent/mantissa edge
 * values; on x86-64 the subnormal-heavy draws again with FTZ and DAZ set (as nnt_optim_step runs).
 * A plain double-rounding emulation, (float)((double)a*b + c), must differ from fmaf on the
 * constructed cases, FLT_MAX + (half an ulp - tiny) among them: the cases tell the two apart. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "nnt_rng.h"
#include "nnt_simd.h"
#include "nnt_test.h"
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

/* libm's fmaf through a pointer, so that the compiler neither inlines nor folds it */
static float (*volatile ref_fmaf)(float, float, float) = fmaf;

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint32_t to_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
/* equal bits; any NaN equals any NaN (payloads are not part of fmaf's contract) */
static int same(float x, float y) { return isnan(x) ? isnan(y) : to_bits(x) == to_bits(y); }

/* the emulation this file guards against: one rounding to double, then one to float */
static float naive_fmaf(float a, float b, float c) {
  volatile double p = (double)a * b;
  return (float)(p + c);
}

typedef struct {
  long n, bad, nan_payload; /* triples, mismatches (both forms), NaN results whose bits differ */
} tally;

/* The 8 triples (a[i], b[i], c[i]) through the vector forms against fmaf. */
static void check8(const float *a, const float *b, const float *c, tally *t) {
  float r[8], q[8];
  __m256 va = _mm256_loadu_ps(a), vb = _mm256_loadu_ps(b), vc = _mm256_loadu_ps(c);
  _mm256_storeu_ps(r, _mm256_fmadd_ps(va, vb, vc));
  _mm256_storeu_ps(q, _mm256_fnmadd_ps(va, vb, vc));
  for (int i = 0; i < 8; i++) {
    float want = ref_fmaf(a[i], b[i], c[i]), wantn = ref_fmaf(-a[i], b[i], c[i]);
    t->n++;
    if (!same(r[i], want) || !same(q[i], wantn)) {
      if (t->bad++ < 5)
        fprintf(stderr, "fma(%a, %a, %a): %a / fmaf %a; c - a*b: %a / fmaf %a\n", a[i], b[i], c[i], r[i], want,
                q[i], wantn);
    }
    t->nan_payload += isnan(want) && to_bits(r[i]) != to_bits(want);
  }
}

/* A batch of triples: fills 8 lanes from gen, checks them. */
typedef void gen_fn(nnt_rng *r, float *a, float *b, float *c);
static void run(gen_fn *gen, nnt_rng *r, long n, tally *t) {
  float a[8], b[8], c[8];
  for (long k = 0; k < n; k += 8) {
    for (int i = 0; i < 8; i++) gen(r, a + i, b + i, c + i);
    check8(a, b, c, t);
  }
}

static float rand_bits(nnt_rng *r) { return from_bits((uint32_t)nnt_rng_u64(r)); }
/* a finite float with sign, exponent field in [lo, hi] and random mantissa */
static float rand_float(nnt_rng *r, int lo, int hi) {
  uint64_t u = nnt_rng_u64(r);
  uint32_t e = lo + (uint32_t)((u >> 32) % (uint64_t)(hi - lo + 1));
  return from_bits((uint32_t)(u & 0x807FFFFFu) | e << 23);
}

static void gen_bits(nnt_rng *r, float *a, float *b, float *c) { *a = rand_bits(r), *b = rand_bits(r), *c = rand_bits(r); }

/* c within 8 ulps of -(a*b) rounded (or of a*b's neighbourhood in the other sign): massive
 * cancellation, exact zeros of both signs, and results anywhere down to the subnormals */
static void gen_cancel(nnt_rng *r, float *a, float *b, float *c) {
  *a = rand_float(r, 1, 254), *b = rand_float(r, 1, 254);
  float p = *a * *b;
  if (!isfinite(p)) p = FLT_MAX;
  uint32_t u = to_bits(-p) + (uint32_t)nnt_rng_below(r, 17) - 8;
  *c = from_bits(u & 0x7F800000u) == INFINITY || isnan(from_bits(u)) ? -p : from_bits(u);
  if (nnt_rng_below(r, 4) == 0) *c = -*c;
}

/* Exponents of a*b and c within 30 of each other, over the whole range (subnormal c and results,
 * sums near overflow). */
static void gen_near(nnt_rng *r, float *a, float *b, float *c) {
  int ec = (int)nnt_rng_below(r, 255);
  int ea = 1 + (int)nnt_rng_below(r, 254), eb = ec - ea + 127 + (int)nnt_rng_below(r, 61) - 30;
  if (eb < 1) eb = 1;
  if (eb > 254) eb = 254;
  *a = rand_float(r, ea, ea), *b = rand_float(r, eb, eb), *c = rand_float(r, ec, ec);
}

/* ulp of float c (2^-149 for subnormals and zeros) as an exponent */
static int ulp_exp(float c) {
  int e = (int)(to_bits(c) >> 23 & 0xFF);
  return (e == 0 ? 1 : e) - 127 - 23;
}
/* a*b = ±2^(h)(1 - i^2 2^-46) with h the exponent of half an ulp of c, i in [1, 2^12):
 * c + a*b is off c's midpoint by i^2 2^(h-46) < half a double ulp when i < 362 (a double-rounding
 * case: rounding to double lands on the midpoint) and beyond it for larger i. */
static void halfway(nnt_rng *r, float cval, float *a, float *b, float *c) {
  int h = ulp_exp(cval) - 1, i = 1 + (int)nnt_rng_below(r, nnt_rng_below(r, 2) ? 362 : 4096);
  int ea = -70 + (int)nnt_rng_below(r, 141), eb = h - 46 - ea; /* a = (2^23 + i) 2^ea, b = (2^23 - i) 2^eb */
  if (eb < -149 || eb > 104) eb = eb < -149 ? -149 : 104, ea = h - 46 - eb; /* a, b normal floats */
  *a = ldexpf((float)((1 << 23) + i), ea), *b = ldexpf((float)((1 << 23) - i), eb), *c = cval;
  if (nnt_rng_below(r, 2)) *a = -*a;
}
static void gen_halfway(nnt_rng *r, float *a, float *b, float *c) { halfway(r, rand_float(r, 1, 254), a, b, c); }
static void gen_halfway_sub(nnt_rng *r, float *a, float *b, float *c) { halfway(r, rand_float(r, 0, 2), a, b, c); }

/* sums in and near the subnormal range: small a*b, small or subnormal c */
static void gen_tiny(nnt_rng *r, float *a, float *b, float *c) {
  int ea = 1 + (int)nnt_rng_below(r, 120);
  *a = rand_float(r, ea, ea), *b = rand_float(r, 1, 127 - ea + 5), *c = rand_float(r, 0, 3);
  if (nnt_rng_below(r, 8) == 0) *c = 0;
}

/* The constructed halfway cases: how many triples the plain double-rounding emulation gets wrong
 * (and the vector forms right). */
static long naive_wrong(nnt_rng *r, gen_fn *gen, long n, tally *t) {
  long wrong = 0;
  float a[8], b[8], c[8];
  for (long k = 0; k < n; k += 8) {
    for (int i = 0; i < 8; i++) {
      gen(r, a + i, b + i, c + i);
      wrong += !same(naive_fmaf(a[i], b[i], c[i]), ref_fmaf(a[i], b[i], c[i]));
    }
    check8(a, b, c, t);
  }
  return wrong;
}

/* Every triple of 108 edge values: each sign, exponent fields 0 (zero, subnormal), 1, 2, 23, 24,
 * 103, 104, 126, 127, 128, 252, 253, 254 with mantissas 0, 1, all ones and one random, inf and a
 * NaN. */
static void edges(nnt_rng *r, tally *t) {
  static const int ex[] = {0, 1, 2, 23, 24, 103, 104, 126, 127, 128, 252, 253, 254};
  enum { NE = sizeof ex / sizeof ex[0] };
  float v[2 * (NE * 4 + 2)];
  int n = 0;
  for (int s = 0; s < 2; s++) {
    for (int e = 0; e < NE; e++) {
      uint32_t base = (uint32_t)s << 31 | (uint32_t)ex[e] << 23;
      v[n++] = from_bits(base), v[n++] = from_bits(base | 1), v[n++] = from_bits(base | 0x7FFFFF);
      v[n++] = from_bits(base | ((uint32_t)nnt_rng_u64(r) & 0x7FFFFF));
    }
    v[n++] = from_bits((uint32_t)s << 31 | 0x7F800000u);                 /* inf */
    v[n++] = from_bits((uint32_t)s << 31 | 0x7FC00000u | (uint32_t)s);  /* NaN */
  }
  float a[8], b[8], c[8];
  int k = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int l = 0; l < n; l++) {
        a[k] = v[i], b[k] = v[j], c[k] = v[l];
        if (++k == 8) check8(a, b, c, t), k = 0;
      }
  CHECK(k == 0 && n == 108);
}

int main(void) {
  nnt_rng r;
  nnt_rng_init(&r, 34, 0);
  tally t = {0};

  /* the pinned double-rounding cases: FLT_MAX + (half an ulp - 2^-46 of it) rounds to FLT_MAX, not
   * to inf; 1 + 2^-24 - 2^-70 rounds to 1, not to 1 + 2^-23; their negatives alike */
  const float pin[][3] = {{(1 << 23) + 1.0f, ldexpf((1 << 23) - 1.0f, 103 - 46), FLT_MAX},
                          {-((1 << 23) + 1.0f), ldexpf((1 << 23) - 1.0f, 103 - 46), -FLT_MAX},
                          {ldexpf((1 << 23) + 1.0f, -40), ldexpf((1 << 23) - 1.0f, -30), 1.0f + 0x1p-23f},
                          {ldexpf((1 << 23) + 1.0f, -40), ldexpf((1 << 23) - 1.0f, -30), 1.0f}};
  for (int i = 0; i < 4; i++) {
    float a[8], b[8], c[8];
    for (int l = 0; l < 8; l++) a[l] = pin[i][0], b[l] = pin[i][1], c[l] = pin[i][2];
    long bad = t.bad;
    check8(a, b, c, &t);
    CHECK_MSG(t.bad == bad, "pinned case %d", i);
  }
  CHECK(ref_fmaf(pin[0][0], pin[0][1], pin[0][2]) == FLT_MAX && naive_fmaf(pin[0][0], pin[0][1], pin[0][2]) == INFINITY);
  CHECK(ref_fmaf(pin[2][0], pin[2][1], pin[2][2]) == 1.0f + 0x1p-23f &&
        naive_fmaf(pin[2][0], pin[2][1], pin[2][2]) == 1.0f + 0x1p-22f);

  /* the constructed cases, normal and subnormal range: the naive emulation must fail some */
  long wrong = naive_wrong(&r, gen_halfway, 1 << 20, &t), wrong_sub = naive_wrong(&r, gen_halfway_sub, 1 << 18, &t);
  printf("constructed halfway cases: naive double rounding wrong on %ld of %d (normal), %ld of %d (subnormal c)\n",
         wrong, 1 << 20, wrong_sub, 1 << 18);
  CHECK(wrong > (1 << 20) / 8 && wrong_sub > 0);

  run(gen_bits, &r, 3000000, &t);
  run(gen_cancel, &r, 3000000, &t);
  run(gen_near, &r, 3000000, &t);
  run(gen_tiny, &r, 1000000, &t);
  edges(&r, &t);
#if defined(__x86_64__)
  { /* with subnormals flushed (FTZ) and read as zero (DAZ) */
    tally f = {0};
    unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040);
    run(gen_tiny, &r, 1000000, &f);
    run(gen_halfway_sub, &r, 1 << 18, &f);
    run(gen_cancel, &r, 1000000, &f);
    _mm_setcsr(csr);
    printf("FTZ+DAZ: %ld triples, %ld differ from fmaf\n", f.n, f.bad);
    CHECK(f.bad == 0 && f.n > 2000000);
  }
#endif
  printf("%ld triples (each as a*b + c and c - a*b), %ld differ from fmaf; NaN payloads differing: %ld\n", t.n,
         t.bad, t.nan_payload);
  CHECK(t.bad == 0 && t.n >= 10000000);
  TEST_MAIN_END();
}
