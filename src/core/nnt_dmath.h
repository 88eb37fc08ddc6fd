/* nnt_dmath.h — double-precision log, exp and (sin, cos)(2 pi u) with the same bits on every
 * x86-64 CPU, scalar and four or eight lanes.
 *
 * Why not libm: glibc 2.36 picks an FMA or a non-FMA variant of log, exp, sin, cos (and pow, tanh,
 * log1p, expm1, erf, atan) by CPU, and the two differ in the last bit on about 1e-4 of inputs
 * (log 1084 bytes, sincos 13889, exp 7032 in 10^7 draws, measured under
 * GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA; docs/reliability.md). Every Gaussian draw went
 * through log and sincos, so a seeded run on a CPU without FMA gave other numbers. These forms use
 * only + - * / (no fused multiply-add: -ffp-contract=off), exact rounding to integers and
 * exponent bits, so the scalar and vector forms and every instruction-set level agree bit for bit.
 *
 * Accuracy (tests/core/test_dmath.c, against long double): log, exp and integer powers within 2 ulp,
 * tanh and log1p 3, expm1 4, sin and cos of 2 pi u within 2 ulp of their largest value over a
 * period. erf is not here yet (the ICL target nets' GELU still calls libm's). The vector forms take log's argument
 * positive, normal and finite (the Box-Muller case); the scalar log handles every input. */
#ifndef NNT_DMATH_H
#define NNT_DMATH_H
#include <math.h>
#include <stdint.h>
#include <string.h>

#define NNT_DMATH_LN2_HI 0x1.62e42feep-1 /* ln 2 in two parts (fdlibm): k * LN2_HI is exact */
#define NNT_DMATH_LN2_LO 0x1.a39ef35793c76p-33
#define NNT_DMATH_SQRT2 0x1.6a09e667f3bcdp+0

static inline uint64_t nnt_dmath_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static inline double nnt_dmath_double(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* Horner's rule, highest coefficient first: acc = c_n; acc = c_k + x acc for k = n-1 .. 0 */
#define NNT_DMATH_STEP(ADD, MUL, C, x, acc, c) acc = ADD(C(c), MUL(x, acc))
/* 2 atanh(s) - 2 s = 2 s (s^2/3 + s^4/5 + ...), |s| <= 0.1716: acc = the series to s^21 over 2 s */
#define NNT_DMATH_LOG_SERIES(ADD, MUL, C, z, acc)                                                                 \
  acc = C(1.0 / 21), NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 19), NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 17),    \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 15), NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 13),                         \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 11), NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 9),                          \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 7), NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 5),                           \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 1.0 / 3), acc = MUL(z, acc)
/* (e^r - 1 - r) / r^2 = 1/2! + r/3! + ... + r^12/14!, |r| <= ln2 / 2 */
#define NNT_DMATH_EXP_SERIES(ADD, MUL, C, r, acc)                                                                 \
  acc = C(1.0 / 87178291200.0), NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 6227020800.0),                            \
  NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 479001600), NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 39916800),            \
  NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 3628800), NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 362880),                \
  NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 40320), NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 5040),                    \
  NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 720), NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 120),                       \
  NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 24), NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 6),                          \
  NNT_DMATH_STEP(ADD, MUL, C, r, acc, 1.0 / 2)
/* sin(2 pi t) / t over z = t^2, |t| <= 1/8: Taylor to t^17 */
#define NNT_DMATH_SIN_SERIES(ADD, MUL, C, z, acc)                                                                 \
  acc = C(0x1.aaec32af93359p-4), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.6fadb9f155744p-1),                        \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.e8f434d018d63p+1), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.e3074fde8871fp+3), \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.50783487ee782p+5), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.32d2cce62bd86p+6), \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.466bc6775aae2p+6), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.4abbce625be53p+5), \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.921fb54442d18p+2)
/* cos(2 pi t) - 1 over z = t^2: Taylor to t^16 */
#define NNT_DMATH_COS_SERIES(ADD, MUL, C, z, acc)                                                                 \
  acc = C(0x1.20c62c2f2d7f5p-2), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.b6e24f44b128fp+0),                        \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.f9d38a3763cc3p+2), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.a6d1f2a204a8cp+4), \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.e1f506891babbp+5), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.55d3c7e3cbffap+6), \
  NNT_DMATH_STEP(ADD, MUL, C, z, acc, 0x1.03c1f081b5ac4p+6), NNT_DMATH_STEP(ADD, MUL, C, z, acc, -0x1.3bd3cc9be45dep+4), \
  acc = MUL(z, acc)

#define NNT_DMATH_SADD(a, b) ((a) + (b))
#define NNT_DMATH_SMUL(a, b) ((a) * (b))
#define NNT_DMATH_SC(c) (c)

/* log x for x > 0 normal and finite: x = 2^e f, f in [sqrt(1/2), sqrt(2)), log f = 2 atanh((f-1)/(f+1)) */
static inline double nnt_dmath_log_normal(double x) {
  uint64_t b = nnt_dmath_bits(x);
  double e = (nnt_dmath_double((b >> 52) | 0x4330000000000000ull) - 0x1p52) - 1023;
  double f = nnt_dmath_double((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  if (f > NNT_DMATH_SQRT2) f = f * 0.5, e = e + 1;
  double s = (f - 1) / (f + 1), z = s * s, hs = s + s;
  double R;
  NNT_DMATH_LOG_SERIES(NNT_DMATH_SADD, NNT_DMATH_SMUL, NNT_DMATH_SC, z, R);
  return e * NNT_DMATH_LN2_HI + (hs + (hs * R + e * NNT_DMATH_LN2_LO));
}

static inline double nnt_dmath_log(double x) {
  if (!(x > 0)) return x == 0 ? -INFINITY : NAN; /* NaN too */
  if (x == INFINITY) return x;
  if (x < 0x1p-1022) return nnt_dmath_log_normal(x * 0x1p54) - 54 * NNT_DMATH_LN2_HI - 54 * NNT_DMATH_LN2_LO;
  return nnt_dmath_log_normal(x);
}

/* 2^k for an integer-valued k in [-1022, 1023] */
static inline double nnt_dmath_pow2i(double k) {
  return nnt_dmath_double((nnt_dmath_bits(k + 0x1.8p52) + 1023) << 52);
}

/* e^x: x = k ln2 + r, |r| <= ln2 / 2, e^x = 2^k1 2^k2 e^r (k = k1 + k2 keeps both factors normal
 * from underflow to overflow). NaN stays NaN. */
static inline double nnt_dmath_exp(double x) {
  x = x > 710 ? 710 : x < -746 ? -746 : x;
  double k = rint(x * 0x1.71547652b82fep+0);
  double r = (x - k * NNT_DMATH_LN2_HI) - k * NNT_DMATH_LN2_LO;
  double p;
  NNT_DMATH_EXP_SERIES(NNT_DMATH_SADD, NNT_DMATH_SMUL, NNT_DMATH_SC, r, p);
  p = 1 + (r + r * r * p);
  double k1 = floor(k * 0.5);
  return p * nnt_dmath_pow2i(k1) * nnt_dmath_pow2i(k - k1);
}

/* e^x - 1: the series itself near 0 (no cancellation), e^x - 1 beyond |x| = ln2 / 2 */
static inline double nnt_dmath_expm1(double x) {
  if (!(x > -0x1.62e42fefa39efp-2 && x < 0x1.62e42fefa39efp-2)) return nnt_dmath_exp(x) - 1; /* NaN too */
  double p;
  NNT_DMATH_EXP_SERIES(NNT_DMATH_SADD, NNT_DMATH_SMUL, NNT_DMATH_SC, x, p);
  return x + x * x * p;
}

/* tanh x = t / (t + 2), t = e^{2|x|} - 1, odd */
static inline double nnt_dmath_tanh(double x) {
  double a = fabs(x);
  if (a > 22) return x > 0 ? 1 : -1;
  double t = nnt_dmath_expm1(2 * a), y = t / (t + 2);
  return x < 0 ? -y : y;
}

/* log(1 + y): log u with u = 1 + y, less the rounding of that sum, (u - 1 - y) / u */
static inline double nnt_dmath_log1p(double y) {
  double u = 1 + y;
  if (u == INFINITY || !(u > 0)) return nnt_dmath_log(u);
  return nnt_dmath_log(u) - ((u - 1) - y) / u;
}

/* sin(2 pi u) and cos(2 pi u) for |u| < 2^52: u = n + q/4 + t exactly (|t| <= 1/8), then the
 * quarter turns q as swaps and sign changes. */
static inline void nnt_dmath_sincos2pi(double u, double *sn, double *cs) {
  double r = u - rint(u), q = rint(4 * r), t = r - 0.25 * q, z = t * t;
  double s, c;
  NNT_DMATH_SIN_SERIES(NNT_DMATH_SADD, NNT_DMATH_SMUL, NNT_DMATH_SC, z, s);
  NNT_DMATH_COS_SERIES(NNT_DMATH_SADD, NNT_DMATH_SMUL, NNT_DMATH_SC, z, c);
  s = t * s, c = 1 + c;
  int odd = q == 1 || q == -1, half = q == 2 || q == -2;
  double a = odd ? c : s, b = odd ? s : c;
  *sn = half || q == -1 ? -a : a;
  *cs = half || q == 1 ? -b : b;
}

/* a b = p + e exactly (Dekker: Veltkamp halves, no fused multiply-add) */
static inline void nnt_dmath_two_prod(double a, double b, double *p, double *e) {
  double ca = 134217729.0 * a, cb = 134217729.0 * b;
  double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
  *p = a * b;
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* x^n for n >= 0 by binary powering in double-double, so within an ulp or two (libm's pow has FMA
 * and non-FMA variants; plain binary powering would lose about n ulp) */
static inline double nnt_dmath_powi(double x, long long n) {
  double rh = 1, rl = 0, xh = x, xl = 0, p, e;
  for (; n > 0; n >>= 1) {
    if (n & 1) {
      nnt_dmath_two_prod(rh, xh, &p, &e);
      e = e + (rh * xl + rl * xh);
      rh = p + e, rl = e - (rh - p);
    }
    if (n > 1) {
      nnt_dmath_two_prod(xh, xh, &p, &e);
      e = e + 2 * (xh * xl);
      xh = p + e, xl = e - (xh - p);
    }
  }
  return rh + rl;
}

/* Double-double sums (hi + lo, |lo| <= ulp(hi)/2, about 106 bits) from + - * only, so the same bits
 * on every CPU. For sums that long double used to carry: long double is 80-bit on x86-64 but
 * binary128 on aarch64 (done in software there), so results depended on the architecture. */
typedef struct {
  double hi, lo;
} nnt_dmath_dd;

/* a + b = s + e exactly (Knuth's two-sum) */
static inline void nnt_dmath_two_sum(double a, double b, double *s, double *e) {
  *s = a + b;
  double bb = *s - a;
  *e = (a - (*s - bb)) + (b - bb);
}
static inline nnt_dmath_dd nnt_dmath_dd_norm(double hi, double lo) {
  nnt_dmath_dd r;
  r.hi = hi + lo, r.lo = lo - (r.hi - hi);
  return r;
}
static inline nnt_dmath_dd nnt_dmath_dd_add(nnt_dmath_dd a, nnt_dmath_dd b) {
  double s, e, t, f;
  nnt_dmath_two_sum(a.hi, b.hi, &s, &e);
  nnt_dmath_two_sum(a.lo, b.lo, &t, &f);
  e += t;
  nnt_dmath_dd r = nnt_dmath_dd_norm(s, e);
  return nnt_dmath_dd_norm(r.hi, r.lo + f);
}
static inline nnt_dmath_dd nnt_dmath_dd_of(double x) { return (nnt_dmath_dd){x, 0}; }
static inline nnt_dmath_dd nnt_dmath_dd_neg(nnt_dmath_dd a) { return (nnt_dmath_dd){-a.hi, -a.lo}; }
static inline nnt_dmath_dd nnt_dmath_dd_sub(nnt_dmath_dd a, nnt_dmath_dd b) { return nnt_dmath_dd_add(a, nnt_dmath_dd_neg(b)); }
/* a + x, a + x y (the product exact before it is added) */
static inline nnt_dmath_dd nnt_dmath_dd_add_d(nnt_dmath_dd a, double x) { return nnt_dmath_dd_add(a, nnt_dmath_dd_of(x)); }
static inline nnt_dmath_dd nnt_dmath_dd_add_prod(nnt_dmath_dd a, double x, double y) {
  nnt_dmath_dd p;
  nnt_dmath_two_prod(x, y, &p.hi, &p.lo);
  return nnt_dmath_dd_add(a, p);
}
static inline nnt_dmath_dd nnt_dmath_dd_mul(nnt_dmath_dd a, nnt_dmath_dd b) {
  double p, e;
  nnt_dmath_two_prod(a.hi, b.hi, &p, &e);
  return nnt_dmath_dd_norm(p, e + (a.hi * b.lo + a.lo * b.hi));
}
static inline nnt_dmath_dd nnt_dmath_dd_mul_d(nnt_dmath_dd a, double x) { return nnt_dmath_dd_mul(a, nnt_dmath_dd_of(x)); }
/* a / b: a quotient, then a correction from the exact remainder */
static inline nnt_dmath_dd nnt_dmath_dd_div(nnt_dmath_dd a, nnt_dmath_dd b) {
  double q1 = a.hi / b.hi;
  nnt_dmath_dd r = nnt_dmath_dd_sub(a, nnt_dmath_dd_mul_d(b, q1));
  double q2 = r.hi / b.hi;
  r = nnt_dmath_dd_sub(r, nnt_dmath_dd_mul_d(b, q2));
  return nnt_dmath_dd_add(nnt_dmath_dd_norm(q1, q2), nnt_dmath_dd_of(r.hi / b.hi));
}
/* the nearest double (hi, once normalised) */
static inline double nnt_dmath_dd_value(nnt_dmath_dd a) { return a.hi + a.lo; }

#ifdef NNT_SIMD_H
/* The vector forms: the scalar forms' operations lane by lane (so the same bits), written once
 * over a few per-width operations: W lanes, V the vector, M a comparison's mask. */
static inline __m256d nnt_dmath4_rint(__m256d x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
static inline __m256d nnt_dmath4_floor(__m256d x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
static inline __m256d nnt_dmath4_eq(__m256d a, double b) { return _mm256_cmp_pd(a, _mm256_set1_pd(b), _CMP_EQ_OQ); }
static inline __m256d nnt_dmath4_gt(__m256d a, double b) { return _mm256_cmp_pd(a, _mm256_set1_pd(b), _CMP_GT_OQ); }
static inline __m256d nnt_dmath4_or(__m256d a, __m256d b) { return _mm256_or_pd(a, b); }
static inline __m256d nnt_dmath4_sel(__m256d m, __m256d a, __m256d b) { return _mm256_blendv_pd(b, a, m); } /* m ? a : b */
static inline __m256d nnt_dmath4_neg(__m256d m, __m256d x) { return _mm256_xor_pd(x, _mm256_and_pd(m, _mm256_set1_pd(-0.0))); }
static inline __m256d nnt_dmath4_ushr_or(__m256d x, int s, uint64_t o) {
  return _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(_mm256_castpd_si256(x), s), _mm256_set1_epi64x((long long)o)));
}
static inline __m256d nnt_dmath4_and_or(__m256d x, uint64_t a, uint64_t o) {
  return _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(_mm256_castpd_si256(x), _mm256_set1_epi64x((long long)a)),
                                             _mm256_set1_epi64x((long long)o)));
}
static inline __m256d nnt_dmath4_pow2i(__m256d k) {
  __m256i b = _mm256_castpd_si256(_mm256_add_pd(k, _mm256_set1_pd(0x1.8p52)));
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(b, _mm256_set1_epi64x(1023)), 52));
}
#if NNT_ISA_LEVEL >= 2
static inline __m512d nnt_dmath8_rint(__m512d x) { return _mm512_roundscale_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
static inline __m512d nnt_dmath8_floor(__m512d x) { return _mm512_roundscale_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
static inline __mmask8 nnt_dmath8_eq(__m512d a, double b) { return _mm512_cmp_pd_mask(a, _mm512_set1_pd(b), _CMP_EQ_OQ); }
static inline __mmask8 nnt_dmath8_gt(__m512d a, double b) { return _mm512_cmp_pd_mask(a, _mm512_set1_pd(b), _CMP_GT_OQ); }
static inline __mmask8 nnt_dmath8_or(__mmask8 a, __mmask8 b) { return a | b; }
static inline __m512d nnt_dmath8_sel(__mmask8 m, __m512d a, __m512d b) { return _mm512_mask_blend_pd(m, b, a); }
static inline __m512d nnt_dmath8_neg(__mmask8 m, __m512d x) { return _mm512_mask_xor_pd(x, m, x, _mm512_set1_pd(-0.0)); }
static inline __m512d nnt_dmath8_ushr_or(__m512d x, int s, uint64_t o) {
  return _mm512_castsi512_pd(_mm512_or_si512(_mm512_srli_epi64(_mm512_castpd_si512(x), s), _mm512_set1_epi64((long long)o)));
}
static inline __m512d nnt_dmath8_and_or(__m512d x, uint64_t a, uint64_t o) {
  return _mm512_castsi512_pd(_mm512_or_si512(_mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64((long long)a)),
                                             _mm512_set1_epi64((long long)o)));
}
static inline __m512d nnt_dmath8_pow2i(__m512d k) {
  __m512i b = _mm512_castpd_si512(_mm512_add_pd(k, _mm512_set1_pd(0x1.8p52)));
  return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_add_epi64(b, _mm512_set1_epi64(1023)), 52));
}
#endif

#define NNT_DMATH_VECTOR_FORMS(W, V, M, P)                                                                        \
  static inline V nnt_dmath_log_normal##W(V x) {                                                                 \
    V e = P##_sub_pd(P##_sub_pd(nnt_dmath##W##_ushr_or(x, 52, 0x4330000000000000ull), P##_set1_pd(0x1p52)),      \
                     P##_set1_pd(1023));                                                                          \
    V f = nnt_dmath##W##_and_or(x, 0x000fffffffffffffull, 0x3ff0000000000000ull);                               \
    M big = nnt_dmath##W##_gt(f, NNT_DMATH_SQRT2);                                                                \
    f = nnt_dmath##W##_sel(big, P##_mul_pd(f, P##_set1_pd(0.5)), f);                                              \
    e = nnt_dmath##W##_sel(big, P##_add_pd(e, P##_set1_pd(1)), e);                                                \
    V one = P##_set1_pd(1), s = P##_div_pd(P##_sub_pd(f, one), P##_add_pd(f, one));                             \
    V z = P##_mul_pd(s, s), hs = P##_add_pd(s, s);                                                                \
    V R;                                                                                                          \
    NNT_DMATH_LOG_SERIES(P##_add_pd, P##_mul_pd, P##_set1_pd, z, R);                                              \
    V lo = P##_add_pd(P##_mul_pd(hs, R), P##_mul_pd(e, P##_set1_pd(NNT_DMATH_LN2_LO)));                           \
    return P##_add_pd(P##_mul_pd(e, P##_set1_pd(NNT_DMATH_LN2_HI)), P##_add_pd(hs, lo));                          \
  }                                                                                                               \
  static inline V nnt_dmath_exp##W(V x) {                                                                        \
    x = P##_max_pd(P##_set1_pd(-746), P##_min_pd(P##_set1_pd(710), x)); /* a NaN x passes through */            \
    V k = nnt_dmath##W##_rint(P##_mul_pd(x, P##_set1_pd(0x1.71547652b82fep+0)));                                 \
    V r = P##_sub_pd(P##_sub_pd(x, P##_mul_pd(k, P##_set1_pd(NNT_DMATH_LN2_HI))),                                 \
                     P##_mul_pd(k, P##_set1_pd(NNT_DMATH_LN2_LO)));                                               \
    V p;                                                                                                          \
    NNT_DMATH_EXP_SERIES(P##_add_pd, P##_mul_pd, P##_set1_pd, r, p);                                              \
    p = P##_add_pd(P##_set1_pd(1), P##_add_pd(r, P##_mul_pd(P##_mul_pd(r, r), p)));                               \
    V k1 = nnt_dmath##W##_floor(P##_mul_pd(k, P##_set1_pd(0.5)));                                                 \
    return P##_mul_pd(P##_mul_pd(p, nnt_dmath##W##_pow2i(k1)), nnt_dmath##W##_pow2i(P##_sub_pd(k, k1)));          \
  }                                                                                                               \
  static inline void nnt_dmath_sincos2pi##W(V u, V *sn, V *cs) {                                                 \
    V r = P##_sub_pd(u, nnt_dmath##W##_rint(u));                                                                  \
    V q = nnt_dmath##W##_rint(P##_mul_pd(P##_set1_pd(4), r));                                                     \
    V t = P##_sub_pd(r, P##_mul_pd(P##_set1_pd(0.25), q)), z = P##_mul_pd(t, t);                                  \
    V s, c;                                                                                                       \
    NNT_DMATH_SIN_SERIES(P##_add_pd, P##_mul_pd, P##_set1_pd, z, s);                                              \
    NNT_DMATH_COS_SERIES(P##_add_pd, P##_mul_pd, P##_set1_pd, z, c);                                              \
    s = P##_mul_pd(t, s), c = P##_add_pd(P##_set1_pd(1), c);                                                      \
    M odd = nnt_dmath##W##_or(nnt_dmath##W##_eq(q, 1), nnt_dmath##W##_eq(q, -1));                                 \
    M half = nnt_dmath##W##_or(nnt_dmath##W##_eq(q, 2), nnt_dmath##W##_eq(q, -2));                                \
    V a = nnt_dmath##W##_sel(odd, c, s), b = nnt_dmath##W##_sel(odd, s, c);                                       \
    *sn = nnt_dmath##W##_neg(nnt_dmath##W##_or(half, nnt_dmath##W##_eq(q, -1)), a);                               \
    *cs = nnt_dmath##W##_neg(nnt_dmath##W##_or(half, nnt_dmath##W##_eq(q, 1)), b);                                \
  }
NNT_DMATH_VECTOR_FORMS(4, __m256d, __m256d, _mm256)
#if NNT_ISA_LEVEL >= 2
NNT_DMATH_VECTOR_FORMS(8, __m512d, __mmask8, _mm512)
#endif
#endif /* NNT_SIMD_H */
#endif
