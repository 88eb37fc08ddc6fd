#!/usr/bin/env bash
# nnt icl train killed with SIGKILL after its first checkpoint and rerun with --resume ends with a
# model.ckpt and train.csv byte-identical to an uninterrupted run's; a rerun without --resume
# refuses the folder, and --resume with another config refuses the checkpoint.
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
args=(icl train --preset micro --steps 300 --ckpt-every 20 --threads 1 --seed 5)
"$nnt" "${args[@]}" --out "$work/full" >/dev/null 2>&1

"$nnt" "${args[@]}" --out "$work/run" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 2000); do
  [ -f "$work/run/model.ckpt" ] && break
  sleep 0.01
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
[ -f "$work/run/model.ckpt" ] || { echo "FAIL: no checkpoint before the kill"; exit 1; }
[ -f "$work/run/train.csv" ] && { echo "FAIL: the run ended before the kill (make it longer)"; exit 1; }

rc=0; "$nnt" "${args[@]}" --out "$work/run" >/dev/null 2>"$work/refused" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--resume" "$work/refused" || { echo "FAIL: a rerun without --resume did not refuse (rc $rc)"; exit 1; }
rc=0; "$nnt" "${args[@]}" --lr 0.002 --resume --out "$work/run" >/dev/null 2>"$work/other" || rc=$?
[ "$rc" -eq 2 ] && grep -q "other settings" "$work/other" || { echo "FAIL: another config was not refused (rc $rc)"; exit 1; }

"$nnt" "${args[@]}" --out "$work/run" --resume >"$work/out2" 2>/dev/null
grep -q "resumed at step" "$work/out2" || { echo "FAIL: the rerun did not resume"; cat "$work/out2"; exit 1; }
for f in model.ckpt train.csv; do
  cmp "$work/full/$f" "$work/run/$f" || { echo "FAIL: $f differs from the uninterrupted run's"; exit 1; }
done
echo "killed at $(grep -o 'resumed at step [0-9]*' "$work/out2"); model.ckpt and train.csv identical"
