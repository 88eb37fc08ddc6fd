/* nnt_rng.h — seeded, reproducible random numbers.
 *
 * xoshiro256** seeded through splitmix64 from (seed, stream). Give every independent unit of
 * work (sweep point, repetition) its own stream id, never a thread or rank id, so results do not
 * depend on how work is split across threads.
 */
#ifndef NNT_RNG_H
#define NNT_RNG_H
#include <stdint.h>
#include <stddef.h>

typedef struct {
  uint64_t s[4];
  int has_spare; /* Box-Muller keeps its second normal */
  double spare;
} nnt_rng;

void nnt_rng_init(nnt_rng *r, uint64_t seed, uint64_t stream);
uint64_t nnt_rng_u64(nnt_rng *r);
double nnt_rng_uniform(nnt_rng *r);                 /* [0, 1), 53 random bits */
/* N(0, 1) by Box-Muller through nnt_dmath.h: the same bits on every CPU */
double nnt_rng_normal(nnt_rng *r);
/* x[0..n) = n calls of nnt_rng_normal (the same numbers, the same state after), several times faster */
void nnt_rng_normals(nnt_rng *r, double *x, size_t n);
int nnt_rng_bernoulli(nnt_rng *r, double p);        /* 1 with probability p */
uint64_t nnt_rng_below(nnt_rng *r, uint64_t n);     /* uniform on {0..n-1}, unbiased */
void nnt_rng_permutation(nnt_rng *r, int *perm, int n); /* uniform permutation of 0..n-1 */
void nnt_rng_fill_normal_f32(nnt_rng *r, float *x, size_t n, float mean, float std);
void nnt_rng_fill_uniform_f32(nnt_rng *r, float *x, size_t n, float lo, float hi);
void nnt_rng_fill_normal_f64(nnt_rng *r, double *x, size_t n, double mean, double std);

#endif
