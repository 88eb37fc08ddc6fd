#!/usr/bin/env bash
# icl eval and sweep-depth on models trained by icl train (micro, 20 steps): the model is evaluated
# past its training length (20 points -> 30), every condition (two mixtures, the weight-mean shift)
# has its rows, the result is the same on 1 and 2 threads and after --resume, sweep-depth writes one
# row per model and k, refuses models of another task, and trains its own with --layers (resumable).
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
for m in softmax relu; do
  "$nnt" icl train --preset micro --attn $m --steps 20 --ckpt-every 10 --force --threads 1 --out "$work/$m" >/dev/null 2>&1
done
"$nnt" icl train --preset micro --target-depth 4 --steps 10 --ckpt-every 10 --force --threads 1 --out "$work/depth4" >/dev/null 2>&1
ev=(icl eval --model "$work/softmax/model.ckpt" --prompts 64 --batch 32 --mix 0,0.5 --w-shift 0.5 --direct-k 2)
"$nnt" "${ev[@]}" --threads 2 --out "$work/e2" >"$work/e2.txt" 2>/dev/null
"$nnt" "${ev[@]}" --threads 1 --out "$work/e1" >/dev/null 2>&1
cmp "$work/e1/r2.csv" "$work/e2/r2.csv"
cp "$work/e2/r2.csv" "$work/first.csv"
"$nnt" "${ev[@]}" --threads 2 --resume --out "$work/e2" >"$work/resume.txt" 2>/dev/null
cmp "$work/first.csv" "$work/e2/r2.csv"
grep -q "8 points stored, 0 computed" "$work/resume.txt" || { echo "resume recomputed points"; exit 1; }
for c in "0,0" "0.5,0" "0,-0.5" "0,0.5"; do
  grep -q "^$c,29,model,-\?[0-9]" "$work/e2/r2.csv" || { echo "no model R² at k = 29 for condition $c"; exit 1; }
done
grep -q "^0,0,2,direct_best," "$work/e2/r2.csv" && ! grep -q "^0,0,3,direct_best," "$work/e2/r2.csv"
"$nnt" icl sweep-depth --models "$work/softmax/model.ckpt,$work/relu/model.ckpt" --examples 5,10,15 --prompts 64 \
  --batch 32 --out "$work/depth" >/dev/null 2>&1
[ "$(wc -l <"$work/depth/depth.csv")" -eq 7 ] || { echo "depth.csv: expected 6 rows"; exit 1; }
if "$nnt" icl sweep-depth --models "$work/softmax/model.ckpt,$work/depth4/model.ckpt" --examples 5 --out "$work/never" 2>"$work/err.txt"; then
  echo "models of two tasks accepted"; exit 1
fi
grep -q "trained on another task" "$work/err.txt"
[ ! -e "$work/never" ]
# --layers trains the models first (OUT/L<layers>/), and a resumed run trains and evaluates nothing anew
lay=(icl sweep-depth --layers 1,2 --preset micro --steps 20 --examples 5,10 --prompts 64 --batch 32 --threads 1 --out "$work/layers")
"$nnt" "${lay[@]}" >/dev/null 2>&1
[ -f "$work/layers/L1/model.ckpt" ] && [ -f "$work/layers/L2/model.ckpt" ] && [ "$(wc -l <"$work/layers/depth.csv")" -eq 5 ]
cp "$work/layers/depth.csv" "$work/layers.csv"
"$nnt" "${lay[@]}" --resume >/dev/null 2>"$work/resume_layers.txt"
cmp "$work/layers.csv" "$work/layers/depth.csv"
[ "$(grep -c "2 of 2 points stored, computing 0" "$work/resume_layers.txt")" -eq 2 ] || { echo "resumed sweep-depth recomputed"; exit 1; }
echo "eval and sweep-depth on trained models: ok"
