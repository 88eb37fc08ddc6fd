/* nnt — neural network theory, executable. git-style subcommands. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nnt_cpu.h"
#include "nnt_error.h"
#include "nnt_io.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"tour", cmd_tour, "run the quick preset of every subsystem and write a report (main job)"},
#ifdef NNT_HAVE_QSTR
    {"qstr", cmd_qstr, "q-sparse token retrieval: transformer vs RNN vs FFN (seed 001)"},
#endif
#ifdef NNT_HAVE_APPROX
    {"approx", cmd_approx, "constructive approximation, NTK, depth separation (seed 004)"},
#endif
#ifdef NNT_HAVE_CIRCUITS
    {"circuit", cmd_circuit, "boolean circuits compiled into ReLU nets (seed 000)"},
#endif
#ifdef NNT_HAVE_TM
    {"tm", cmd_tm, "Turing machines simulated and compiled into transformers (seed 000)"},
#endif
#ifdef NNT_HAVE_BOUNDS
    {"bounds", cmd_bounds, "sample-complexity bound calculators (seed 000)"},
#endif
#ifdef NNT_HAVE_RCNN
    {"rcnn", cmd_rcnn, "recurrent-convolutional TM learner (seed 002)"},
#endif
#ifdef NNT_HAVE_ICL
    {"icl", cmd_icl, "in-context gradient descent and GPT-style ICL (seed 003)"},
#endif
    {"bench", cmd_bench, "benchmarks (nnt bench core, ...)"},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void usage(FILE *f) {
  fprintf(f,
          "usage: nnt <command> [options]\n"
          "       nnt <command> --help\n"
          "       nnt --version\n\ncommands:\n");
  for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\ncommon options: --seed S  --threads N  --out DIR  --quick\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (nnt_cpu_check()) {
    fprintf(stderr, "nnt: %s\n", nnt_errmsg());
    return 2;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    nnt_isa isa = nnt_cpu_isa();
    printf("nnt %s (%s)\nkernels: %s (best here: %s; NNT_ISA=generic|avx2|avx512 chooses)\ncpu: %s\n",
           nnt_version(), nnt_git_commit(), nnt_cpu_isa_name(isa), nnt_cpu_isa_name(nnt_cpu_isa_max()),
           nnt_cpu_flags());
    return 0;
  }
  for (int i = 0; i < NCOMMANDS; i++) {
    if (strcmp(cmd, commands[i].name)) continue;
    int st = commands[i].run(argc - 1, argv + 1);
    if (st) fprintf(stderr, "nnt %s: %s\n", cmd, *nnt_errmsg() ? nnt_errmsg() : "failed");
    return nnt_exit_code(st);
  }
  fprintf(stderr, "nnt: unknown command '%s' (see nnt --help)\n", cmd);
  return 2;
}
