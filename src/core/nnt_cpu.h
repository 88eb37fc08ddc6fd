/* nnt_cpu.h — CPU instruction-set levels chosen at run time.
 *
 * The build targets a baseline every x86-64 host of the last decade runs (x86-64-v2); the hot
 * kernels live in files named *_isa.c, which CMake compiles once per level (generic, AVX2+FMA,
 * AVX-512) with NNT_ISA_LEVEL set. Such a file names its level-specific functions with
 * NNT_ISA_FN(name) (name_generic, name_avx2, name_avx512); its generic compile (NNT_ISA_BASE_TU)
 * also holds what exists once, such as the dispatchers, which call NNT_ISA_PICK(name) — the
 * variant of the level in use. Every level performs the same floating-point operations in the
 * same order, so results are bit-identical across levels (docs/developing.md).
 *
 * The level in use is the best one the CPU and the build have, or the one named by the
 * environment variable NNT_ISA=generic|avx2|avx512 (not above what the CPU has).
 */
#ifndef NNT_CPU_H
#define NNT_CPU_H
#include <stdatomic.h>

typedef enum { NNT_ISA_GENERIC, NNT_ISA_AVX2, NNT_ISA_AVX512 } nnt_isa;

/* The level in use (decided once, on first call). */
static inline nnt_isa nnt_cpu_isa(void);
/* The best level this CPU runs and this build contains. */
nnt_isa nnt_cpu_isa_max(void);
/* "generic" ("neon" on aarch64, its one level), "avx2", "avx512". */
const char *nnt_cpu_isa_name(nnt_isa level);
/* The NNT_ISA values this architecture has: "generic|avx2|avx512" on x86-64, "generic|neon" on aarch64. */
const char *nnt_cpu_isa_choices(void);
/* NNT_OK, or NNT_EINVAL with a message when NNT_ISA names an unknown level, one the CPU lacks or one
 * of another architecture (the level in use is then the best one; the CLI refuses to run). */
int nnt_cpu_check(void);
/* "avx2,fma,avx512f,..." as the CPU reports them, for run records. */
const char *nnt_cpu_flags(void);
/* Measured float32 peak of one core at the level in use, in GFLOP/s (independent multiply-add
 * chains in registers for about `seconds`): the denominator of the benchmarks' roofline figures. */
double nnt_cpu_fma_peak(double seconds);
/* The memory a run may use now, in bytes: MemAvailable from /proc/meminfo (physical memory where
 * there is none), or the address-space limit (ulimit -v) when lower; the environment variable
 * NNT_MEM_AVAILABLE (bytes) replaces the first. */
double nnt_mem_available(void);
/* NNT_EINVAL "<what> needs about X GB, more than the Y GB of memory available: <change>" when bytes
 * exceed nnt_mem_available(): sizes that cannot fit are refused before anything is allocated.
 * change names the option to change ("lower --N"). */
int nnt_mem_check(double bytes, const char *what, const char *change);
/* Runs estimated to take NNT_LONG_RUN_S seconds or more say so on stderr before they start:
 * "<what>: expect about|up to 40 min <note>"; shorter ones print nothing. */
enum { NNT_LONG_RUN_S = 60 };
void nnt_time_notice(double seconds, int upper, const char *what, const char *note);

/* Levels compiled into this build (CMake sets NNT_ISA_LEVELS: 1 off x86-64, else 2 or 3). */
#ifndef NNT_ISA_LEVELS
#define NNT_ISA_LEVELS 1
#endif
#ifndef NNT_ISA_LEVEL
#define NNT_ISA_LEVEL 0
#endif
#define NNT_ISA_BASE_TU (NNT_ISA_LEVEL == 0)

#define NNT_ISA_CAT2(a, b) a##b
#define NNT_ISA_CAT(a, b) NNT_ISA_CAT2(a, b)
#if NNT_ISA_LEVEL == 2
#define NNT_ISA_FN(f) NNT_ISA_CAT(f, _avx512)
#elif NNT_ISA_LEVEL == 1
#define NNT_ISA_FN(f) NNT_ISA_CAT(f, _avx2)
#else
#define NNT_ISA_FN(f) NNT_ISA_CAT(f, _generic)
#endif

/* Declares the variants of a dispatched function: NNT_ISA_DECLARE(void, f, (int n)); */
#define NNT_ISA_DECLARE(ret, f, params) \
  ret f##_generic params;               \
  ret f##_avx2 params;                  \
  ret f##_avx512 params

#if NNT_ISA_LEVELS >= 3
#define NNT_ISA_PICK(f) \
  (nnt_cpu_isa() == NNT_ISA_AVX512 ? f##_avx512 : nnt_cpu_isa() == NNT_ISA_AVX2 ? f##_avx2 : f##_generic)
#elif NNT_ISA_LEVELS == 2
#define NNT_ISA_PICK(f) (nnt_cpu_isa() == NNT_ISA_AVX2 ? f##_avx2 : f##_generic)
#else
#define NNT_ISA_PICK(f) (f##_generic)
#endif

extern atomic_int nnt_cpu_level_; /* -1 until decided */
nnt_isa nnt_cpu_isa_decide(void);
static inline nnt_isa nnt_cpu_isa(void) {
  int l = atomic_load_explicit(&nnt_cpu_level_, memory_order_relaxed);
  return l >= 0 ? (nnt_isa)l : nnt_cpu_isa_decide();
}

#endif
