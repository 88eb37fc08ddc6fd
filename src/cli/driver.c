/* driver.c — the one driver every command runs through (cli.h): parse -> validate -> --check-options
 * -> --out -> threads -> run -> report -> run.json. */
#include <cjson/cJSON.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nnt_io.h"
#include "nnt_mpi.h"
#include "nnt_progress.h"
#include "nnt_sweep.h"
#include "record.h"

int cli_drive(const cli_cmd *cmd, int argc, char **argv) {
  void *cfg = nnt_xcalloc(1, cmd->cfg_size + 1), *res = nnt_xcalloc(1, cmd->res_size + 1);
  cli_args a;
  int st = cli_parse(cmd, argc, argv, cfg, &a), ran = 0, validated = 0;
  if (st || a.co.help) goto done;
  cli_run run = {.cmd = cmd, .args = &a, .seed = a.co.seed, .quick = a.co.quick, .out = a.co.out,
                 .resume = a.co.resume, .force = a.co.force, .npos = a.npos, .pos = a.pos, .argc = argc, .argv = argv};
  /* the thread count is resolved before validate: a config that records it sees the real count */
  run.threads = cli_threads(a.co.threads);
  validated = 1;
  if (cmd->validate && (st = cmd->validate(cfg, &run))) goto done;
  /* a sweep's folder: refused when it holds results and neither --resume nor --force is given
   * (under --check-options cli_parse turned --force into --resume: nothing is deleted) */
  if ((cmd->common & CLI_SWEEP) && (!cmd->sweeps || cmd->sweeps(cfg))) {
    if (!run.out && (run.resume || run.force)) {
      st = nnt_fail(NNT_EINVAL, "--resume/--force: give the sweep's folder, --out DIR");
      goto done;
    }
    if (run.out && (st = nnt_sweep_prepare_dir(run.out, run.resume, run.force))) goto done;
  }
  if (a.co.check) {
    printf("options ok (--check-options: nothing was run)\n");
    st = CLI_CHECKED;
    goto done;
  }
  if ((st = cli_prepare_out(run.out))) goto done;
  double t0 = nnt_now();
  /* every command shows it is alive off a terminal, also one whose run reports no progress itself */
  char label[64];
  snprintf(label, sizeof label, "nnt %s", cmd->name);
  nnt_progress watch;
  nnt_progress_watch(&watch, label);
  /* out of memory inside run unwinds to here, so the watch's thread never outlives its frame */
  nnt_oom_point oom;
  nnt_oom_enter(&oom);
  if (setjmp(oom.env)) {
    nnt_oom_leave(&oom);
    nnt_progress_fail(&watch);
    st = NNT_ENOMEM;
    goto done;
  }
  /* NNT_ECHECK from run: a verification failed, the result is whole and reported */
  int checked = cmd->run(cfg, &run, res);
  nnt_oom_leave(&oom);
  nnt_progress_fail(&watch);
  if (checked && checked != NNT_ECHECK) {
    st = checked;
    goto done;
  }
  ran = 1;
  run.seconds = nnt_now() - t0;
  if (cmd->report) st = cmd->report(cfg, res, &run);
  if (!st) st = checked;
  /* run.json after a report that ran to the end (NNT_OK, or NNT_ECHECK: a failed verification) */
  if ((!st || st == NNT_ECHECK) && run.out && !nnt_mpi_rank()) {
    int w = nnt_runinfo_write(run.out, cmd->name, cli_record_config(cmd, cfg, run.quick), run.seed, run.threads,
                              nnt_now() - t0);
    if (w) st = w;
  }
done:
  if (ran && cmd->result_free) cmd->result_free(res);
  if (validated && cmd->cfg_free) cmd->cfg_free(cfg);
  free(res);
  free(cfg);
  return st;
}
