#!/usr/bin/env bash
# Data-parallel nnt icl train: mpirun -np 2 (each rank half of every batch, one Allreduce of the
# gradients) follows the one-process loss curve to float tolerance, and so does a run of 20 steps
# under 2 ranks resumed to 40 under 1. Rank 0 alone writes the checkpoint and the CSV.
set -euo pipefail
nnt=$1 work=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
args=(icl train --quick --ckpt-every 10 --threads 1 --seed 5)
"$nnt" "${args[@]}" --steps 40 --out "$work/one" >/dev/null 2>&1
mpirun --oversubscribe -np 2 "$nnt" "${args[@]}" --steps 40 --out "$work/two" >/dev/null 2>"$work/two.log"
mpirun --oversubscribe -np 2 "$nnt" "${args[@]}" --steps 20 --out "$work/resumed" >/dev/null 2>"$work/r1.log"
"$nnt" "${args[@]}" --steps 40 --out "$work/resumed" --resume >/dev/null 2>"$work/r2.log"
# the same steps; each loss within a relative 1e-5 of the one-process run's (the sums over the
# batch are added in another order), and not all equal to the first row (a curve that moves)
for run in two resumed; do
  awk -F, -v run="$run" 'NR == FNR { if (FNR > 1) ref[FNR] = $1 "," $2; n = FNR; next }
    FNR == 1 { next }
    { split(ref[FNR], r, ","); rows++
      if (r[1] != $1) { printf "FAIL (%s): row %d is step %s, the one-process run has %s\n", run, FNR, $1, r[1]; bad = 1 }
      d = $2 - r[2]; if (d < 0) d = -d
      if (!(d <= 1e-5 * (r[2] < 0 ? -r[2] : r[2]))) { printf "FAIL (%s): step %s loss %s, one process %s\n", run, $1, $2, r[2]; bad = 1 }
      if ($2 != first && FNR > 2) moved = 1; if (FNR == 2) first = $2 }
    END { if (rows != n - 1) { printf "FAIL (%s): %d rows, one process %d\n", run, rows, n - 1; bad = 1 }
          if (!moved) { printf "FAIL (%s): the loss never moved\n", run; bad = 1 }
          exit bad }' "$work/one/train.csv" "$work/$run/train.csv"
done
echo "mpirun -np 2 and 2-then-1 ranks follow the one-process loss curve ($(($(wc -l <"$work/one/train.csv") - 1)) rows)"
