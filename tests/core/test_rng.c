/* RNG: determinism per (seed, stream), independence of streams, moments of each law. */
#include <stdlib.h>
#include <string.h>

#include "nnt_rng.h"
#include "nnt_test.h"

int main(void) {
  nnt_rng a, b;
  nnt_rng_init(&a, 42, 7);
  nnt_rng_init(&b, 42, 7);
  int same = 1;
  for (int i = 0; i < 1000; i++) same &= nnt_rng_u64(&a) == nnt_rng_u64(&b);
  CHECK(same);
  nnt_rng_init(&a, 42, 7);
  nnt_rng_init(&b, 42, 8);
  int diff = 0;
  for (int i = 0; i < 100; i++) diff += nnt_rng_u64(&a) != nnt_rng_u64(&b);
  CHECK(diff == 100);
  nnt_rng_init(&b, 43, 7);
  nnt_rng_init(&a, 42, 7);
  CHECK(nnt_rng_u64(&a) != nnt_rng_u64(&b));

  const int n = 200000;
  double s = 0, s2 = 0, u = 0, bern = 0;
  for (int i = 0; i < n; i++) {
    double z = nnt_rng_normal(&a);
    s += z, s2 += z * z;
    double v = nnt_rng_uniform(&a);
    CHECK(v >= 0 && v < 1);
    u += v;
    bern += nnt_rng_bernoulli(&a, 0.3);
  }
  CHECK_CLOSE(s / n, 0.0, 0.01);
  CHECK_CLOSE(s2 / n, 1.0, 0.01);
  CHECK_CLOSE(u / n, 0.5, 0.01);
  CHECK_CLOSE(bern / n, 0.3, 0.01);

  int counts[5] = {0};
  for (int i = 0; i < 50000; i++) counts[nnt_rng_below(&a, 5)]++;
  for (int k = 0; k < 5; k++) CHECK(abs(counts[k] - 10000) < 500);

  int perm[50], seen[50] = {0};
  nnt_rng_permutation(&a, perm, 50);
  int ok = 1;
  for (int i = 0; i < 50; i++) ok &= perm[i] >= 0 && perm[i] < 50 && !seen[perm[i]]++;
  CHECK(ok);
  /* position 0 of a permutation of 3 is uniform */
  int first[3] = {0};
  for (int i = 0; i < 30000; i++) {
    nnt_rng_permutation(&a, perm, 3);
    first[perm[0]]++;
  }
  for (int k = 0; k < 3; k++) CHECK(abs(first[k] - 10000) < 500);
  TEST_MAIN_END();
}
