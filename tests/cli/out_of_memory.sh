#!/usr/bin/env bash
# out_of_memory.sh NNT CIRCUIT DIR: an allocation failing in a resumed sweep (RLIMIT_AS via
# ulimit -v) ends the run with one line and exit 2; learn.csv and the per-run checkpoints (the
# sweep's journal: a finished run's checkpoint holds its results) are byte-identical, and --resume
# without the big point writes the same learn.csv, seconds column included (the finished points
# are read back from their checkpoints, not computed again). Exit 77 (skipped) where no address-space
# limit lets nnt start (sanitizer builds reserve terabytes of address space).
set -uo pipefail
nnt=$1 circuit=$2 work=$3
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
args=(circuit learn "$circuit" --samples 64 --steps 100 --test 256 --threads 1)
rm -rf "$work" && mkdir -p "$work" || exit 1
"$nnt" "${args[@]}" --widths 1,2 --out "$work/run" >/dev/null 2>&1 || { echo "FAIL: the first run failed"; exit 1; }
cp -r "$work/run" "$work/before"

# the smallest limit (KiB, in 200 MiB steps) under which the small sweep runs: the width-256
# point needs about 600 MB more (values, grads and Adam's two moments of 38M floats)
limit=
for l in $(seq 409600 204800 4096000); do
  rm -rf "$work/probe"
  if (ulimit -v $l && "$nnt" "${args[@]}" --widths 1,2 --out "$work/probe" >/dev/null 2>&1); then limit=$l; break; fi
done
[ -n "$limit" ] || { echo "skipped: nnt does not start under any address-space limit up to 4 GiB"; exit 77; }

rc=0; (ulimit -v $limit && exec "$nnt" "${args[@]}" --widths 1,2,256 --resume --out "$work/run") >/dev/null 2>"$work/err" || rc=$?
[ $rc -eq 2 ] || { echo "FAIL: exit $rc, not 2, under ulimit -v $limit"; cat "$work/err"; exit 1; }
# width 256 either fails to allocate in the run or (circuit learn's size estimate, nnt_circuit_learn_check)
# is refused before it starts: one line either way, the stored points untouched
[ "$(wc -l <"$work/err")" -eq 1 ] && grep -Eq "^nnt[a-z ]*: (out of memory allocating [0-9]* bytes|circuit learn needs about [0-9.]+ GB)" "$work/err" ||
  { echo "FAIL: not one out-of-memory line"; cat "$work/err"; exit 1; }
ls "$work/run" "$work/run/ckpt" | grep -q '\.tmp$' && { echo "FAIL: a temporary file was left"; exit 1; }
for f in learn.csv $(cd "$work/before" && ls ckpt/*); do
  cmp "$work/before/$f" "$work/run/$f" || { echo "FAIL: $f changed"; exit 1; }
done
"$nnt" "${args[@]}" --widths 1,2 --resume --out "$work/run" >"$work/out" 2>&1 || { echo "FAIL: the resume failed"; cat "$work/out"; exit 1; }
cmp "$work/before/learn.csv" "$work/run/learn.csv" || { echo "FAIL: learn.csv after the resume differs"; exit 1; }
echo "ulimit -v $limit: $(cat "$work/err"); learn.csv, checkpoints and journal intact"
