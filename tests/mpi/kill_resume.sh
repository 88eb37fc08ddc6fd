#!/usr/bin/env bash
# A sweep killed with SIGKILL part-way under K ranks and resumed with --resume under K' ranks ends
# with the CSVs of an uninterrupted single-process run: (K, K') = (2, 1) and (1, 2).
set -euo pipefail
nnt=$1 work=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
args=(qstr sweep --model tr --N 4,6,8,10,12,14 --reps 2 --quick --threads 1 --seed 3)
"$nnt" "${args[@]}" --out "$work/full" >/dev/null 2>&1
launch() { # K, then the rest of the command line; exec: in the background, $! is nnt or mpirun
  local k=$1; shift
  if [ "$k" -eq 1 ]; then exec "$nnt" "$@"; else exec mpirun --oversubscribe -np "$k" "$nnt" "$@"; fi
}
for ks in "2 1" "1 2"; do
  set -- $ks
  run=$work/run$1$2
  launch "$1" "${args[@]}" --out "$run" >/dev/null 2>"$run.log1" &
  pid=$!
  for _ in $(seq 1200); do
    [ "$(grep -c ' done in ' "$run.log1" || true)" -ge 2 ] && break
    sleep 0.05
  done
  # SIGKILL to the nnt processes themselves (under mpirun, its children)
  if [ "$1" -eq 1 ]; then kill -9 "$pid"; else
    ranks=$(pgrep -P "$pid" -x nnt) || { echo "FAIL: no nnt process under mpirun"; exit 1; }
    kill -9 $ranks
  fi
  wait "$pid" 2>/dev/null || true
  nbefore=$(grep -c ' done in ' "$run.log1" || true)
  [ "$nbefore" -ge 1 ] || { echo "FAIL ($1 then $2 ranks): no point finished before the kill"; exit 1; }
  [ "$nbefore" -lt 12 ] || { echo "FAIL ($1 then $2 ranks): the sweep ended before the kill"; exit 1; }
  (launch "$2" "${args[@]}" --out "$run" --resume) >"$run.out2" 2>"$run.log2"
  grep -q "resuming, [1-9][0-9]* of 12 points stored" "$run.log2" || { echo "FAIL ($1 then $2 ranks): nothing resumed"; cat "$run.log2"; exit 1; }
  for f in samples.csv summary.csv; do
    cmp "$work/full/$f" "$run/$f" || { echo "FAIL: $f after $1 then $2 ranks differs from the uninterrupted run's"; exit 1; }
  done
  echo "killed under $1 rank(s) after $nbefore point(s), resumed under $2: CSVs identical"
done
