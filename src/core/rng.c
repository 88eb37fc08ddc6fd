#include "nnt_rng.h"

#include <math.h>
#include <string.h>

#include "nnt_cpu.h"
#include "nnt_dmath.h"

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

/* Box-Muller: sqrt(-2 log u1) (cos, sin)(2 pi u2), through nnt_dmath (the same bits on every CPU) */
double nnt_rng_normal(nnt_rng *r) {
  if (r->has_spare) {
    r->has_spare = 0;
    return r->spare;
  }
  double u1, u2, s, c;
  do u1 = nnt_rng_uniform(r); while (u1 <= 0.0);
  u2 = nnt_rng_uniform(r);
  double rad = sqrt(-2.0 * nnt_dmath_log_normal(u1));
  nnt_dmath_sincos2pi(u2, &s, &c);
  r->spare = rad * s;
  r->has_spare = 1;
  return rad * c;
}

NNT_ISA_DECLARE(void, nnt_rng_box_muller, (const double *, const double *, size_t, double *));

/* n calls of nnt_rng_normal: the uniforms drawn in the same order, the transform in vectors */
void nnt_rng_normals(nnt_rng *r, double *x, size_t n) {
  enum { BLK = 64 };
  double u1[BLK], u2[BLK], pair[2 * BLK];
  size_t i = 0;
  if (n && r->has_spare) x[i++] = r->spare, r->has_spare = 0;
  while (i < n) {
    size_t want = (n - i + 1) / 2 < BLK ? (n - i + 1) / 2 : BLK, take = 2 * want < n - i ? 2 * want : n - i;
    for (size_t k = 0; k < want; k++) {
      do u1[k] = nnt_rng_uniform(r); while (u1[k] <= 0.0);
      u2[k] = nnt_rng_uniform(r);
    }
    NNT_ISA_PICK(nnt_rng_box_muller)(u1, u2, want, pair);
    memcpy(x + i, pair, sizeof(double) * take);
    i += take;
    if (take < 2 * want) r->spare = pair[2 * want - 1], r->has_spare = 1;
  }
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
  double z[256];
  for (size_t i0 = 0; i0 < n; i0 += 256) {
    size_t m = n - i0 < 256 ? n - i0 : 256;
    nnt_rng_normals(r, z, m);
    for (size_t i = 0; i < m; i++) x[i0 + i] = mean + std * (float)z[i];
  }
}

void nnt_rng_fill_uniform_f32(nnt_rng *r, float *x, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; i++) x[i] = lo + (hi - lo) * (float)nnt_rng_uniform(r);
}

void nnt_rng_fill_normal_f64(nnt_rng *r, double *x, size_t n, double mean, double std) {
  nnt_rng_normals(r, x, n);
  for (size_t i = 0; i < n; i++) x[i] = mean + std * x[i];
}
