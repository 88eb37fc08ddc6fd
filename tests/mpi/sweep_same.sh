#!/usr/bin/env bash
# mpirun -np 2 of a sweep writes the same files, byte for byte, as one process with the same seed:
# the points are shared out between the ranks and rank 0 gathers them (src/core/sweep.c).
set -euo pipefail
nnt=$1 work=$2; shift 2
mpirun=(mpirun --oversubscribe -np 2)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
"$nnt" "$@" --out "$work/one" >"$work/one.out" 2>"$work/one.log"
"${mpirun[@]}" "$nnt" "$@" --out "$work/two" >"$work/two.out" 2>"$work/two.log"
files=$(cd "$work/one" && ls *.csv results.json)
for f in $files; do
  cmp "$work/one/$f" "$work/two/$f" || { echo "FAIL: $f differs between 1 process and mpirun -np 2"; exit 1; }
done
# rank 1 computed some of the points, and wrote nothing (its files would have .tmp names or doubles)
ls "$work" | grep -qv '^\(one\|two\)\(\.out\|\.log\)\?$' && { echo "FAIL: stray files"; ls "$work"; exit 1; }
[ "$(ls "$work/one" | sort)" = "$(ls "$work/two" | sort)" ] || { echo "FAIL: other files under mpirun"; exit 1; }
echo "identical under mpirun -np 2:" $files
