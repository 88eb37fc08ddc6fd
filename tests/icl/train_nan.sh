#!/usr/bin/env bash
# A NaN injected into a gradient of nnt icl train (hidden hook NNT_FAULT_NAN_STEP=S,
# docs/reliability.md) stops the run at step S with exit 1 and one line naming the step and the
# tensor; the checkpoint before it is byte-identical to the one a run failing right after that
# checkpoint left (nothing is written after the bad step), and --resume from it ends with the
# model.ckpt and train.csv of an uninterrupted run.
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
args=(icl train --preset micro --steps 60 --ckpt-every 20 --threads 1 --seed 3)
"$nnt" "${args[@]}" --out "$work/full" >/dev/null 2>&1

for S in 41 55; do
  rc=0; NNT_FAULT_NAN_STEP=$S "$nnt" "${args[@]}" --out "$work/nan$S" >/dev/null 2>"$work/err$S" || rc=$?
  [ "$rc" -eq 1 ] || { echo "FAIL: exit $rc, not 1, for a NaN at step $S"; cat "$work/err$S"; exit 1; }
  [ "$(wc -l <"$work/err$S")" -eq 1 ] || { echo "FAIL: not one line"; cat "$work/err$S"; exit 1; }
  grep -Eq "^nnt icl: step $S, tensor [a-z0-9_.]+: non-finite gradient \(NaN at element 0\) \(the last checkpoint" "$work/err$S" ||
    { echo "FAIL: the message does not name step $S and a tensor"; cat "$work/err$S"; exit 1; }
  [ -f "$work/nan$S/train.csv" ] && { echo "FAIL: a failed run wrote train.csv"; exit 1; }
done
cmp "$work/nan41/model.ckpt" "$work/nan55/model.ckpt" ||
  { echo "FAIL: the checkpoint of step 40 changed between steps 41 and 55 (written after the bad step?)"; exit 1; }

cp "$work/nan55/model.ckpt" "$work/step40.ckpt"
"$nnt" "${args[@]}" --resume --out "$work/nan55" >"$work/out" 2>/dev/null
grep -q "resumed at step 40" "$work/out" || { echo "FAIL: did not resume at step 40"; cat "$work/out"; exit 1; }
for f in model.ckpt train.csv; do
  cmp "$work/full/$f" "$work/nan55/$f" || { echo "FAIL: $f after the resume differs from the uninterrupted run's"; exit 1; }
done
echo "$(cat "$work/err55"); resumed from step 40: model.ckpt and train.csv identical"
