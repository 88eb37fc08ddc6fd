/* nnt_dmath: accuracy against long double (log, exp, sin and cos of 2 pi u), the vector forms
 * against the scalar ones (nnt_rng_normals at this process's level against nnt_rng_normal), and
 * the first normals of a fixed stream pinned bit for bit: they must come out the same on every
 * CPU, with or without FMA (ctest runs this file again under GLIBC_TUNABLES without FMA/AVX2). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "nnt_dmath.h"
#include "nnt_rng.h"
#include "nnt_test.h"

#define PIN0 0xbff6982afaf1fb75ull
#define PIN1 0x3ff348afc32201cbull
#define PIN2 0xbfc630d9bf626ba5ull
#define PIN3 0xbff010a1542e2ddbull
#define PIN4 0xbff5689254ad8cbcull
#define PIN5 0xbfe1ae1e82239eb1ull
#define PIN6 0xbff3491ffa98bd5cull
#define PIN7 0x3fe759c41e4c2567ull

/* |got - want| in units in the last place of want's binade (or of `scale` where given) */
static double ulps(double got, long double want, double scale) {
  double ref = scale > 0 ? scale : fabs((double)want);
  int e;
  frexp(ref, &e);
  return (double)fabsl((long double)got - want) / ldexp(1.0, e - 53);
}

/* Double-double sums against exact integer arithmetic (__int128): sums of products of 40-bit
 * integers (each product 80 bits, not a double) must come out exact in hi + lo and correctly rounded
 * in the value; the approx area's integrals and sums use these in place of long double. */
static void dd_exact(void) {
  nnt_rng r;
  nnt_rng_init(&r, 11, 0);
  int exact = 1, rounded = 1;
  for (int trial = 0; trial < 200; trial++) {
    nnt_dmath_dd acc = {0, 0};
    __int128 want = 0;
    for (int i = 0; i < 500; i++) {
      int64_t a = (int64_t)(nnt_rng_u64(&r) >> 24) - ((int64_t)1 << 39), b = (int64_t)(nnt_rng_u64(&r) >> 24) - ((int64_t)1 << 39);
      acc = nnt_dmath_dd_add_prod(acc, (double)a, (double)b);
      want += (__int128)a * b;
      if (i % 7 == 0) acc = nnt_dmath_dd_add_d(acc, (double)a), want += a;
    }
    exact &= (__int128)acc.hi + (__int128)acc.lo == want;
    rounded &= nnt_dmath_dd_value(acc) == (double)want;
  }
  CHECK(exact);
  CHECK(rounded);
  /* cancellation: 2^60 + 1 - 2^60 */
  nnt_dmath_dd c = nnt_dmath_dd_add_d(nnt_dmath_dd_add_d(nnt_dmath_dd_of(0x1p60), 1), -0x1p60);
  CHECK(nnt_dmath_dd_value(c) == 1);
  /* (1/3) * 3 = 1 to double-double precision; x^2 of a dd of 1 + 2^-40 keeps the 2^-80 term */
  nnt_dmath_dd q = nnt_dmath_dd_div(nnt_dmath_dd_of(1), nnt_dmath_dd_of(3));
  nnt_dmath_dd one = nnt_dmath_dd_mul_d(q, 3);
  CHECK_MSG(fabs(one.hi - 1 + one.lo) < 0x1p-100, "%a %a", one.hi, one.lo);
  nnt_dmath_dd x = nnt_dmath_dd_add_d(nnt_dmath_dd_of(1), 0x1p-40), x2 = nnt_dmath_dd_mul(x, x);
  CHECK(x2.hi == 1 + 0x1p-39 && x2.lo == 0x1p-80);
}

int main(void) {
  dd_exact();
  nnt_rng r;
  nnt_rng_init(&r, 7, 3);
  const long double twopi = 6.283185307179586476925286766559005768L;
  double elog = 0, eexp = 0, esin = 0, ecos = 0, eem1 = 0, el1p = 0, etanh = 0;
  /* long double is binary128 in software on aarch64 (a slow reference there, above all under
   * emulation): fewer draws where it is wider than x86's 80 bits */
  const int draws = LDBL_MANT_DIG > 64 ? 20000 : 2000000;
  for (int i = 0; i < draws; i++) {
    double u = nnt_rng_uniform(&r);
    double x = u > 0 ? u : 0x1p-60;
    double lx = ldexp(x, (int)(nnt_rng_u64(&r) % 2000) - 1000); /* every binade of normal numbers */
    double e1 = ulps(nnt_dmath_log(x), logl(x), 0), e2 = ulps(nnt_dmath_log(lx), logl(lx), 0);
    elog = fmax(elog, fmax(e1, e2));
    double ex = (u - 0.5) * 1400; /* normal results and beyond: -700 .. 700 */
    eexp = fmax(eexp, ulps(nnt_dmath_exp(ex), expl(ex), 0));
    double w = ldexp(u - 0.5, -(int)(nnt_rng_u64(&r) % 60)); /* small and moderate arguments */
    eem1 = fmax(eem1, fmax(ulps(nnt_dmath_expm1(w), expm1l(w), 0), ulps(nnt_dmath_expm1(ex / 20), expm1l(ex / 20), 0)));
    el1p = fmax(el1p, fmax(ulps(nnt_dmath_log1p(w), log1pl(w), 0), ulps(nnt_dmath_log1p(lx), log1pl(lx), 0)));
    etanh = fmax(etanh, fmax(ulps(nnt_dmath_tanh(w), tanhl(w), 0), ulps(nnt_dmath_tanh(ex / 50), tanhl(ex / 50), 0)));
    double s, c;
    nnt_dmath_sincos2pi(u, &s, &c);
    esin = fmax(esin, ulps(s, sinl(twopi * u), 1)), ecos = fmax(ecos, ulps(c, cosl(twopi * u), 1));
  }
  printf("max error: log %.2f ulp, exp %.2f, expm1 %.2f, log1p %.2f, tanh %.2f ulp; sin %.2f, cos %.2f ulp of 1\n", elog,
         eexp, eem1, el1p, etanh, esin, ecos);
  CHECK(elog <= 2);
  CHECK(eexp <= 2);
  CHECK(eem1 <= 4);
  CHECK(el1p <= 3);
  CHECK(etanh <= 3);
  CHECK(esin <= 2);
  CHECK(ecos <= 2);

  /* special values and the quarter turns */
  CHECK(nnt_dmath_log(1) == 0);
  CHECK(nnt_dmath_log(0) == -INFINITY);
  CHECK(isnan(nnt_dmath_log(-1)));
  CHECK(isnan(nnt_dmath_log(NAN)));
  CHECK(nnt_dmath_log(INFINITY) == INFINITY);
  CHECK(fabs(nnt_dmath_log(0x1p-1070) - (double)logl(0x1p-1070L)) < 1e-12);
  CHECK(nnt_dmath_exp(0) == 1);
  CHECK(nnt_dmath_tanh(30) == 1 && nnt_dmath_tanh(-30) == -1 && nnt_dmath_tanh(0) == 0);
  CHECK(nnt_dmath_log1p(-1) == -INFINITY && isnan(nnt_dmath_log1p(-2)) && nnt_dmath_log1p(1e-300) == 1e-300);
  CHECK(nnt_dmath_expm1(-800) == -1 && nnt_dmath_expm1(800) == INFINITY && isnan(nnt_dmath_expm1(NAN)));
  CHECK(nnt_dmath_exp(800) == INFINITY);
  CHECK(nnt_dmath_exp(-800) == 0);
  CHECK(isnan(nnt_dmath_exp(NAN)));
  CHECK(nnt_dmath_exp(-INFINITY) == 0);
  CHECK(fabs(nnt_dmath_exp(-740) / (double)expl(-740) - 1) < 1e-3); /* subnormal results */
  CHECK(fabs(nnt_dmath_exp(709.7) / (double)expl((long double)709.7) - 1) < 1e-15);
  const double quarter[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  for (int q = 0; q < 8; q++) {
    double s, c;
    nnt_dmath_sincos2pi(q * 0.25 - 1, &s, &c);
    CHECK(s == quarter[q % 4][0] && c == quarter[q % 4][1]);
  }
  CHECK(nnt_dmath_powi(0.9, 0) == 1 && nnt_dmath_powi(0.9, 1) == 0.9 && nnt_dmath_powi(2, 10) == 1024);
  double epow = 0;
  int under = 1;
  for (int i = 0; i < 20000; i++) {
    double b = 1 - nnt_rng_uniform(&r) * 0.2;
    long long n = (long long)(nnt_rng_u64(&r) % 1000000);
    long double want = powl(b, n);
    if (want > 0x1p-1000L) epow = fmax(epow, ulps(nnt_dmath_powi(b, n), want, 0)); /* normal results */
    else under &= nnt_dmath_powi(b, n) < 0x1p-990;
  }
  printf("powi: max error %.2f ulp\n", epow);
  CHECK(epow <= 2);
  CHECK(under);

  /* the block transform (this level's vectors) gives nnt_rng_normal's numbers and state */
  nnt_rng a, b;
  static double x[1003];
  int same = 1;
  for (size_t n = 0; n < 300; n += 1 + n / 7) {
    nnt_rng_init(&a, 11, n), nnt_rng_init(&b, 11, n);
    if (n % 3 == 1) (void)nnt_rng_normal(&a), (void)nnt_rng_normal(&b); /* start with a spare */
    nnt_rng_normals(&a, x, n);
    for (size_t i = 0; i < n; i++) same &= nnt_dmath_bits(x[i]) == nnt_dmath_bits(nnt_rng_normal(&b));
    same &= nnt_dmath_bits(nnt_rng_normal(&a)) == nnt_dmath_bits(nnt_rng_normal(&b));
  }
  CHECK(same);
  /* against glibc's Box-Muller (an independent implementation), to rounding */
  nnt_rng_init(&a, 3, 9), nnt_rng_init(&b, 3, 9);
  double worst = 0;
  for (int i = 0; i < 100000; i++) {
    double u1, u2, z1 = nnt_rng_normal(&a), z2 = nnt_rng_normal(&a);
    do u1 = nnt_rng_uniform(&b); while (u1 <= 0);
    u2 = nnt_rng_uniform(&b);
    double rad = sqrt(-2 * log(u1));
    worst = fmax(worst, fmax(fabs(z1 - rad * cos(2 * M_PI * u2)), fabs(z2 - rad * sin(2 * M_PI * u2))) / fmax(rad, 1));
  }
  CHECK_MSG(worst < 1e-14, "%g", worst);
  nnt_rng_init(&a, 5, 5);
  nnt_rng_normals(&a, x, 1003);
  double m = 0, v = 0;
  for (int i = 0; i < 1003; i++) m += x[i] / 1003;
  for (int i = 0; i < 1003; i++) v += (x[i] - m) * (x[i] - m) / 1002;
  CHECK(fabs(m) < 0.1 && fabs(v - 1) < 0.15);

  /* pinned: seed 1, stream 2, the first eight normals (their bits on every CPU) */
  const uint64_t pin[8] = {PIN0, PIN1, PIN2, PIN3, PIN4, PIN5, PIN6, PIN7};
  nnt_rng_init(&a, 1, 2);
  int pinned = 1;
  for (int i = 0; i < 8; i++) {
    uint64_t got = nnt_dmath_bits(nnt_rng_normal(&a));
    if (got != pin[i]) printf("normal %d: %016llx, pinned %016llx\n", i, (unsigned long long)got, (unsigned long long)pin[i]);
    pinned &= got == pin[i];
  }
  CHECK(pinned);
  TEST_MAIN_END();
}
