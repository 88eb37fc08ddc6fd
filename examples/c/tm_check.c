/* tm_check.c — a program of your own on the installed libnnt (README.md, "Install and link").
 *
 * It takes a Turing machine (default: the 4-state busy-beaver champion, which halts after 107
 * steps leaving 13 ones), simulates it directly, then compiles it into the encoder-decoder
 * transformer of Wei, Chen & Ma (seed 000, Theorem 4.1), runs that transformer for as many steps
 * as the machine takes to halt and checks every decoded step against the simulation.
 *
 *   make && ./tm_check                      # builds with `pkg-config --cflags --libs nnt`
 *   ./tm_check 1RB1LB_1LA1RZ                # BB(2); or a file such as examples/tm/bb3.tm
 *
 * Every experiment of the library has the shape this program uses twice: fill a config from
 * ..._cfg_default(), change what you need, call ..._run(cfg, &result) (which validates the config
 * before any work and returns a status), read the result, free it with ..._result_free().
 */
#include <stdio.h>

#include <nnt/nnt_error.h> /* status codes, nnt_errmsg() */
#include <nnt/nnt_tm.h>    /* the Turing-machine area */

int main(int argc, char **argv) {
  nnt_tm_cfg cfg;
  nnt_tm_cfg_default(&cfg, 0); /* the full preset (0; 1 would be --quick) */
  /* the machine in busy-beaver standard notation: per state A, B, ..., for read symbols 0 and 1,
   * write / move / next state, Z halts */
  cfg.machine = argc > 1 ? argv[1] : "1RB1LB_1LA0LC_1RZ1LD_1RD0RA";
  /* cfg.steps stays -1: run to the halt; the transformer is run only for a machine that halts
   * within 10^4 steps, so the simulation need not look further either */
  cfg.max_steps = 10000;

  /* 1. Direct simulation (what `nnt tm run MACHINE` prints). */
  nnt_tm_sim_result sim;
  int st = nnt_tm_sim_run(&cfg, &sim);
  if (st) { /* bad input: one line, exit 2, as the nnt executable does */
    fprintf(stderr, "tm_check: %s\n", nnt_errmsg());
    return nnt_exit_code(st);
  }
  if (sim.run.halt_step < 0) {
    fprintf(stderr, "tm_check: %s does not halt within %ld steps\n", cfg.machine, sim.run.steps);
    nnt_tm_sim_result_free(&sim);
    return 2;
  }
  printf("machine %s: %d states, halts after %ld steps with %ld ones (direct simulation)\n", cfg.machine,
         sim.tm.k, sim.run.halt_step, sim.run.ones);
  nnt_tm_sim_result_free(&sim);

  /* 2. The same machine compiled into a transformer, run and checked step by step (what
   *    `nnt tm compile MACHINE` prints). A mismatch is a result, not an error status. */
  nnt_tm_compile_result cr;
  st = nnt_tm_compile_run(&cfg, &cr);
  if (st) {
    fprintf(stderr, "tm_check: %s\n", nnt_errmsg());
    return nnt_exit_code(st);
  }
  printf("transformer: width %d, %d layers, %ld nonzero parameters, ||theta||_1 = %.0f\n", cr.s.w, cr.s.layers,
         cr.s.nonzero, cr.s.l1);
  printf("steps_checked=%ld mismatches=%ld\n", cr.r.steps_checked, cr.r.mismatches);
  int ok = cr.r.mismatches == 0 && cr.r.steps_checked == cr.T;
  nnt_tm_compile_result_free(&cr);
  return ok ? 0 : 1; /* exit 1 for a failed verification, as the nnt executable does */
}
