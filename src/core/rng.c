#include "nnt_rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void nnt_rng_init(nnt_rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
  splitmix64(&x);
  x ^= stream;
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
  r->has_spare = 0;
  r->spare = 0;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t nnt_rng_u64(nnt_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double nnt_rng_uniform(nnt_rng *r) { return (double)(nnt_rng_u64(r) >> 11) * 0x1.0p-53; }

double nnt_rng_normal(nnt_rng *r) {
  if (r->has_spare) {
    r->has_spare = 0;
    return r->spare;
  }
  double u1, u2;
  do u1 = nnt_rng_uniform(r); while (u1 <= 0.0);
  u2 = nnt_rng_uniform(r);
  double rad = sqrt(-2.0 * log(u1)), th = 2.0 * M_PI * u2;
  r->spare = rad * sin(th);
  r->has_spare = 1;
  return rad * cos(th);
}

int nnt_rng_bernoulli(nnt_rng *r, double p) { return nnt_rng_uniform(r) < p; }

uint64_t nnt_rng_below(nnt_rng *r, uint64_t n) {
  /* Lemire's multiply-shift with rejection: unbiased and one multiply in the common case. */
  uint64_t x = nnt_rng_u64(r);
  __uint128_t m = (__uint128_t)x * n;
  uint64_t l = (uint64_t)m;
  if (l < n) {
    uint64_t t = -n % n;
    while (l < t) {
      x = nnt_rng_u64(r);
      m = (__uint128_t)x * n;
      l = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

void nnt_rng_permutation(nnt_rng *r, int *perm, int n) {
  for (int i = 0; i < n; i++) perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)nnt_rng_below(r, (uint64_t)i + 1);
    int t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

void nnt_rng_fill_normal_f32(nnt_rng *r, float *x, size_t n, float mean, float std) {
  for (size_t i = 0; i < n; i++) x[i] = mean + std * (float)nnt_rng_normal(r);
}

void nnt_rng_fill_uniform_f32(nnt_rng *r, float *x, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; i++) x[i] = lo + (hi - lo) * (float)nnt_rng_uniform(r);
}

void nnt_rng_fill_normal_f64(nnt_rng *r, double *x, size_t n, double mean, double std) {
  for (size_t i = 0; i < n; i++) x[i] = mean + std * nnt_rng_normal(r);
}
