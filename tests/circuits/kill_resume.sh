#!/bin/sh
# kill_resume.sh NNT CIRCUIT DIR: nnt circuit learn killed (SIGKILL) mid-run and resumed gives the
# learn.csv of an uninterrupted run, seconds column excepted.
set -u
nnt=$1 circuit=$2 dir=$3
args="circuit learn $circuit --widths 1,2,4 --samples 64,256 --steps 400 --ckpt-every 50 --test 256 --threads 1"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
$nnt $args --out "$dir/ref" >/dev/null || { echo "reference run failed"; exit 1; }
$nnt $args --out "$dir/run" >/dev/null 2>&1 &
pid=$!
# kill once two points have finished and a third has a checkpoint in progress (or the run ended)
while kill -0 $pid 2>/dev/null && [ "$(ls "$dir/run/ckpt" 2>/dev/null | wc -l)" -lt 3 ]; do sleep 0.01; done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
[ -f "$dir/run/learn.csv" ] && echo "note: the run finished before the kill"
$nnt $args --out "$dir/run" >/dev/null 2>"$dir/refused.txt" && { echo "a rerun without --resume was not refused"; exit 1; }
grep -q -- "--resume continues" "$dir/refused.txt" || { cat "$dir/refused.txt"; exit 1; }
$nnt $args --out "$dir/run" --resume >/dev/null || { echo "resumed run failed"; exit 1; }
strip() { cut -d, -f1-7 "$1"; }
strip "$dir/ref/learn.csv" >"$dir/ref.csv" && strip "$dir/run/learn.csv" >"$dir/run.csv"
diff "$dir/ref.csv" "$dir/run.csv" || { echo "resumed results differ"; exit 1; }
cmp "$dir/ref/trained_w$(sed -n 2p "$dir/ref/learn.csv" | cut -d, -f1).json" \
    "$dir/run/trained_w$(sed -n 2p "$dir/run/learn.csv" | cut -d, -f1).json" || { echo "trained nets differ"; exit 1; }
echo "resumed run identical"
