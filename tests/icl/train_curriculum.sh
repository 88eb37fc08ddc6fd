#!/usr/bin/env bash
# A micro run with Garg's curriculum (d = 5, 20 points, the micro preset's 24-step curriculum in 3
# stages of 8 steps: dims 2 -> 5, points 6 -> 20): the console states the schedule, train.csv has
# it as columns, row by row (each row: the task at its last step) against the formula written out
# here, and a run stopped at step 30 and resumed to 60 ends with the same checkpoint bytes as an
# uninterrupted 60-step run.
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work"
"$nnt" icl train --preset micro --curriculum garg --steps 60 --ckpt-every 10 --threads 1 --out "$work/whole" >"$work.log" 2>&1 ||
  { cat "$work.log"; exit 1; }
grep -q "curriculum garg: 2 -> 5 dimensions and 6 -> 20 points in 3 stages of 8 steps (full task from step 24)" "$work.log" ||
  { echo "schedule line missing"; cat "$work.log"; exit 1; }
awk -F, 'NR == 1 { if ($0 != "step,loss,dims,points") { print "header: " $0; bad = 1 }; next }
  { s = int(($1 - 1) / 8); if (s > 3) s = 3
    d = 2 + s; p = 6 + int(14 * s / 3)
    if ($3 != d || $4 != p) { printf "row %s: %s dims %s points, want %d %d\n", $1, $3, $4, d, p; bad = 1 }
    n++ }
  END { if (n != 6) { print "rows: " n; bad = 1 }; exit bad }' "$work/whole/train.csv"
"$nnt" icl train --preset micro --curriculum garg --steps 30 --ckpt-every 10 --threads 2 --out "$work/part" >/dev/null 2>&1
"$nnt" icl train --preset micro --curriculum garg --steps 60 --ckpt-every 10 --threads 1 --resume --out "$work/part" >/dev/null 2>&1
cmp "$work/whole/model.ckpt" "$work/part/model.ckpt" || { echo "resumed checkpoint differs"; exit 1; }
cmp <(cut -d, -f1,3,4 "$work/whole/train.csv") <(cut -d, -f1,3,4 "$work/part/train.csv")
echo "curriculum schedule and resume: ok"
