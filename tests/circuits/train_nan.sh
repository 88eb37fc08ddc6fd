#!/bin/sh
# train_nan.sh NNT CIRCUIT DIR: a NaN injected into a gradient of nnt circuit learn (hidden hook
# NNT_FAULT_NAN_STEP=S) stops the run with exit 1 and one line naming step S and a tensor; the
# per-run checkpoint of step 100 is byte-identical to the one a run failing right after it (step
# 101) leaves (nothing is written after the bad step), and --resume from it gives the learn.csv
# (seconds excepted) and trained net of an uninterrupted run.
set -u
nnt=$1 circuit=$2 dir=$3
args="circuit learn $circuit --widths 2 --samples 64 --steps 200 --ckpt-every 50 --test 256 --threads 1"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
$nnt $args --out "$dir/ref" >/dev/null 2>&1 || { echo "FAIL: reference run failed"; exit 1; }
NNT_FAULT_NAN_STEP=101 $nnt $args --out "$dir/nan101" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL: a NaN at step 101 did not exit 1"; exit 1; }
NNT_FAULT_NAN_STEP=130 $nnt $args --out "$dir/nan" >/dev/null 2>"$dir/err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: exit $rc, not 1"; cat "$dir/err"; exit 1; }
[ "$(wc -l <"$dir/err")" -eq 1 ] || { echo "FAIL: not one line"; cat "$dir/err"; exit 1; }
grep -Eq "step 130, tensor [a-z0-9_.]+: non-finite gradient \(NaN at element 0\)" "$dir/err" ||
  { echo "FAIL: the message does not name step 130 and a tensor"; cat "$dir/err"; exit 1; }
[ -f "$dir/nan/learn.csv" ] && { echo "FAIL: a failed run wrote learn.csv"; exit 1; }
for f in "$dir"/nan101/ckpt/*; do
  cmp "$f" "$dir/nan/ckpt/$(basename "$f")" || { echo "FAIL: checkpoint $(basename "$f") differs from the step-100 one"; exit 1; }
done
$nnt $args --resume --out "$dir/nan" >/dev/null 2>&1 || { echo "FAIL: resume failed"; exit 1; }
cut -d, -f1-7 "$dir/ref/learn.csv" >"$dir/ref.csv" && cut -d, -f1-7 "$dir/nan/learn.csv" >"$dir/nan.csv"
diff "$dir/ref.csv" "$dir/nan.csv" || { echo "FAIL: resumed results differ"; exit 1; }
net=trained_w$(sed -n 2p "$dir/ref/learn.csv" | cut -d, -f1).json
cmp "$dir/ref/$net" "$dir/nan/$net" || { echo "FAIL: trained nets differ"; exit 1; }
echo "$(cat "$dir/err"); resumed: learn.csv and trained net identical"
