/* Single-core float32 arithmetic peak at one instruction-set level: independent fused multiply-add
 * chains, enough of them to cover the latency of every FMA pipe, no memory traffic. The roofline
 * figures of the benchmarks divide achieved rates by this measured number, not by a data sheet. */
#include "nnt_cpu.h"
#include "nnt_progress.h"

#include "nnt_simd.h"

enum { CHAINS = 12, ROUNDS = 4096, FLOPS_PER_STEP = 2 }; /* a multiply and an add per lane and step */

/* INIT(v): a chain's start, SPLAT(v): a constant operand, STEP(a, x, y): one fused multiply-add */
#if NNT_ISA_LEVEL == 2
typedef __m512 vec;
#define LANES 16
#define SPLAT _mm512_set1_ps
#define INIT SPLAT
#define STEP(a, x, y) _mm512_fmadd_ps(a, x, y)
#define STORE _mm512_storeu_ps
#elif NNT_ISA_LEVEL == 1
typedef __m256 vec;
#define LANES 8
#define SPLAT _mm256_set1_ps
#define INIT SPLAT
#define STEP(a, x, y) _mm256_fmadd_ps(a, x, y)
#define STORE _mm256_storeu_ps
#elif defined(__aarch64__)
/* aarch64's one level: FMLA on 128-bit registers, as the kernels' fused multiply-adds compile to.
 * FMLA adds into its destination, so here a chain is the addend: STEP(a, x, y) = a + x y, which
 * grows by 0.25 a step until that is below half an ulp, always finite and normal. A chain is a pair
 * of registers: 24 FMLA chains and the constant use 25 of the 32 NEON registers (latency 4 times
 * 4 FMA pipes, as on Neoverse V1/V2 and Apple cores, needs 16 in flight). The pair's halves start
 * apart, or the compiler would compute one and copy it. */
#include <arm_neon.h>
typedef struct {
  float32x4_t lo, hi;
} vec;
#define LANES 8
static inline vec neon_pair(float lo, float hi) { return (vec){vdupq_n_f32(lo), vdupq_n_f32(hi)}; }
static inline vec neon_fma(vec a, vec x, vec y) { return (vec){vfmaq_f32(a.lo, x.lo, y.lo), vfmaq_f32(a.hi, x.hi, y.hi)}; }
static inline void neon_store(float *p, vec v) { vst1q_f32(p, v.lo), vst1q_f32(p + 4, v.hi); }
#define SPLAT(v) neon_pair(v, v)
#define INIT(v) neon_pair(v, (v) + 0.005f)
#define STEP neon_fma
#define STORE neon_store
#else /* the x86-64 baseline has no FMA: a multiply and an add per step, SSE width */
typedef __m128 vec;
#define LANES 4
#define SPLAT _mm_set1_ps
#define INIT SPLAT
#define STEP(a, x, y) _mm_add_ps(_mm_mul_ps(a, x), y)
#define STORE _mm_storeu_ps
#endif

/* Best rate over rounds of ROUNDS x CHAINS steps, for about `seconds` in all. The chains stay normal
 * and finite (x86: x <- 0.5 x + 0.5 converges) so no denormal or overflow slows them. */
double NNT_ISA_FN(nnt_cpu_fma_peak)(double seconds) {
  /* named variables, not an array: all twelve chains stay in registers */
  vec a0 = INIT(1.00f), a1 = INIT(1.01f), a2 = INIT(1.02f), a3 = INIT(1.03f), a4 = INIT(1.04f), a5 = INIT(1.05f);
  vec a6 = INIT(1.06f), a7 = INIT(1.07f), a8 = INIT(1.08f), a9 = INIT(1.09f), a10 = INIT(1.10f), a11 = INIT(1.11f);
  const vec half = SPLAT(0.5f);
  double best = 0, t_end = nnt_now() + seconds;
  do {
    double t0 = nnt_now();
    for (int r = 0; r < ROUNDS; r++) {
      a0 = STEP(a0, half, half), a1 = STEP(a1, half, half), a2 = STEP(a2, half, half), a3 = STEP(a3, half, half);
      a4 = STEP(a4, half, half), a5 = STEP(a5, half, half), a6 = STEP(a6, half, half), a7 = STEP(a7, half, half);
      a8 = STEP(a8, half, half), a9 = STEP(a9, half, half), a10 = STEP(a10, half, half), a11 = STEP(a11, half, half);
    }
    double el = nnt_now() - t0, rate = (double)ROUNDS * CHAINS * LANES * FLOPS_PER_STEP / el * 1e-9;
    best = rate > best ? rate : best;
  } while (nnt_now() < t_end);
  float sink[LANES];
  vec s = STEP(STEP(STEP(a0, a1, a2), STEP(a3, a4, a5), a6), STEP(STEP(a7, a8, a9), a10, a11), half);
  STORE(sink, s);
  float sum = 0;
  for (int i = 0; i < LANES; i++) sum += sink[i];
  return sum > 0 ? best : 0; /* uses every lane of every chain, so none is dropped */
}

#if NNT_ISA_BASE_TU
NNT_ISA_DECLARE(double, nnt_cpu_fma_peak, (double));
double nnt_cpu_fma_peak(double seconds) { return NNT_ISA_PICK(nnt_cpu_fma_peak)(seconds); }
#endif
