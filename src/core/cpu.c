#include "nnt_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include "nnt_error.h"

atomic_int nnt_cpu_level_ = -1;
static const char *const names[] = {"generic", "avx2", "avx512"};

/* On aarch64 the one level is NEON: SIMDe maps nnt_simd.h's intrinsics onto AdvSIMD, which every
 * ARMv8-A CPU has, so it is named for what it runs ("generic" still chooses it in NNT_ISA). */
const char *nnt_cpu_isa_name(nnt_isa level) {
#if defined(__aarch64__)
  if (level == NNT_ISA_GENERIC) return "neon";
#endif
  return level >= NNT_ISA_GENERIC && level <= NNT_ISA_AVX512 ? names[level] : "?";
}

/* __builtin_cpu_supports also checks that the OS saves the wide registers (XGETBV). */
static nnt_isa cpu_best(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  int avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  return avx512 ? NNT_ISA_AVX512 : avx2 ? NNT_ISA_AVX2 : NNT_ISA_GENERIC;
#else
  return NNT_ISA_GENERIC;
#endif
}

nnt_isa nnt_cpu_isa_max(void) {
  nnt_isa best = cpu_best();
  return (int)best < NNT_ISA_LEVELS ? best : (nnt_isa)(NNT_ISA_LEVELS - 1);
}

const char *nnt_cpu_isa_choices(void) {
#if defined(__x86_64__)
  return "generic|avx2|avx512";
#elif defined(__aarch64__)
  return "generic|neon";
#else
  return "generic";
#endif
}

/* A level of another architecture (NNT_ISA=neon on x86-64, avx2 on aarch64): the architecture's name. */
static const char *foreign_level(const char *e) {
#if defined(__x86_64__)
  if (!strcmp(e, "neon")) return "aarch64";
#else
  if (!strcmp(e, "avx2") || !strcmp(e, "avx512")) return "x86-64";
#endif
  return NULL;
}

/* The level NNT_ISA asks for, or -1 (unset: best), -2 (unknown name), -3 (above the maximum),
 * -4 (a level of another architecture). */
static int requested(void) {
  const char *e = getenv("NNT_ISA");
  if (!e || !*e) return -1;
  if (foreign_level(e)) return -4;
  for (int l = 0; l < 3; l++)
    if (!strcmp(e, names[l]) || !strcmp(e, nnt_cpu_isa_name((nnt_isa)l))) return l <= (int)nnt_cpu_isa_max() ? l : -3;
  return -2;
}

nnt_isa nnt_cpu_isa_decide(void) {
  int r = requested();
  nnt_isa l = r >= 0 ? (nnt_isa)r : nnt_cpu_isa_max();
  atomic_store_explicit(&nnt_cpu_level_, (int)l, memory_order_relaxed);
  return l;
}

int nnt_cpu_check(void) {
#if defined(__SSE4_2__) && defined(__x86_64__)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("sse4.2") || !__builtin_cpu_supports("popcnt"))
    return nnt_fail(NNT_EINVAL, "this build targets x86-64-v2 (SSE4.2, POPCNT), which this CPU lacks: "
                                "rebuild with cmake -DNNT_BASELINE=x86-64");
#endif
  int r = requested();
  if (r == -2)
    return nnt_fail(NNT_EINVAL, "NNT_ISA=%s: unknown level (this build: %s)", getenv("NNT_ISA"), nnt_cpu_isa_choices());
  if (r == -3)
    return nnt_fail(NNT_EINVAL, "NNT_ISA=%s: this CPU and build run at most %s", getenv("NNT_ISA"),
                    nnt_cpu_isa_name(nnt_cpu_isa_max()));
  if (r == -4)
    return nnt_fail(NNT_EINVAL, "NNT_ISA=%s: an %s level, not in this build (this build: %s)", getenv("NNT_ISA"),
                    foreign_level(getenv("NNT_ISA")), nnt_cpu_isa_choices());
  return NNT_OK;
}

const char *nnt_cpu_flags(void) {
  static char buf[256];
  if (buf[0]) return buf;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
#define FEAT(s) {s, __builtin_cpu_supports(s)} /* the builtin takes only string literals */
  const struct { const char *name; int has; } feats[] = {
      FEAT("sse4.2"), FEAT("popcnt"), FEAT("avx"), FEAT("avx2"), FEAT("fma"),
      FEAT("avx512f"), FEAT("avx512bw"), FEAT("avx512dq"), FEAT("avx512vl")};
#undef FEAT
  size_t n = 0;
  for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++)
    if (feats[i].has) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? "," : "", feats[i].name);
#elif defined(__aarch64__) && defined(__linux__)
  /* the kernel's hardware capabilities (the names of /proc/cpuinfo's Features line) */
  unsigned long hw = getauxval(AT_HWCAP);
  const struct { const char *name; unsigned long bit; } feats[] = {
      {"fp", HWCAP_FP}, {"asimd", HWCAP_ASIMD}, {"fphp", HWCAP_FPHP}, {"asimdhp", HWCAP_ASIMDHP},
      {"asimddp", HWCAP_ASIMDDP}, {"sve", HWCAP_SVE}};
  size_t n = 0;
  for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++)
    if (hw & feats[i].bit) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? "," : "", feats[i].name);
#endif
  if (!buf[0]) strcpy(buf, "none");
  return buf;
}

/* MemAvailable (Linux: free memory plus what the kernel can reclaim without swapping) is what a
 * run can take now; physical memory where /proc/meminfo is missing; either capped by the
 * address-space limit. NNT_MEM_AVAILABLE (bytes) overrides all three, for tests and for a user who
 * knows better: a run it lets through that cannot allocate fails with "out of memory" (exit 2). */
static double meminfo_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  double kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
  fclose(f);
  return kb > 0 ? kb * 1024 : -1;
}

double nnt_mem_available(void) {
  const char *env = getenv("NNT_MEM_AVAILABLE");
  char *end;
  double have = env ? strtod(env, &end) : -1;
  if (env && end != env && *end == 0 && have > 0) return have;
  have = meminfo_available();
  if (have <= 0) have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < have) have = (double)rl.rlim_cur;
  return have;
}

int nnt_mem_check(double bytes, const char *what, const char *change) {
  double have = nnt_mem_available();
  if (bytes > have)
    return nnt_fail(NNT_EINVAL, "%s needs about %.3g GB, more than the %.3g GB of memory available: %s", what, bytes / 1e9,
                    have / 1e9, change);
  return NNT_OK;
}

void nnt_time_notice(double seconds, int upper, const char *what, const char *note) {
  if (!(seconds >= NNT_LONG_RUN_S)) return;
  double v = seconds / 60;
  const char *unit = "min";
  if (seconds >= 2 * 86400) v = seconds / 86400, unit = "days";
  else if (seconds >= 3600) v = seconds / 3600, unit = "hours";
  fprintf(stderr, "%s: expect %s %.*f %s%s%s\n", what, upper ? "up to" : "about", v < 10 ? 1 : 0, v, unit, note ? " " : "",
          note ? note : "");
  fflush(stderr);
}
