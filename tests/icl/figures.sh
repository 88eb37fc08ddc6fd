#!/usr/bin/env bash
# icl figures: Figures 1–3 from the CSVs of real eval and sweep-depth runs (each value in
# figures.csv / figure3.csv is the run's own r2.csv / depth.csv value; panels named by attention
# and target depth; the training length read from the checkpoint), --quick's micro runs with every
# panel drawn, and bad input refused with one line and exit 2.
set -euo pipefail
nnt=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work/runs"
r=$work/runs
"$nnt" icl train --preset micro --attn relu --target-depth 4 --steps 10 --threads 1 --out "$r/relu4" >/dev/null 2>&1
"$nnt" icl train --preset micro --attn softmax --steps 10 --threads 1 --out "$r/sm3" >/dev/null 2>&1
# the model path relative to the eval folder's parent (as a run made from inside runs/ records it)
(cd "$r" && "$nnt" icl eval --model relu4/model.ckpt --prompts 64 --mix 0,0.3 --direct-k 2 --threads 1 --out relu4-eval >/dev/null 2>&1)
"$nnt" icl eval --model "$r/sm3/model.ckpt" --prompts 64 --mix 0,0.5 --no-direct --w-shift 0.5 --threads 1 --out "$r/sm3-eval" >/dev/null 2>&1
"$nnt" icl sweep-depth --models "$r/sm3/model.ckpt" --examples 5,10 --prompts 64 --out "$r/depth" >/dev/null 2>&1
"$nnt" icl figures --runs "$r" --out "$work/fig" >"$work/fig.txt"
for f in fig1_relu_td4 fig2_softmax_td3 fig3_softmax; do
  test -s "$work/fig/$f.svg" || { echo "missing $f.svg"; exit 1; }
done
# every model, mean and ridge value of each panel is its r2.csv's pooled value (w-shift rows left out)
check() { # panel eval-dir mix2
  local want got
  want=$(awk -F, -v m="$3" '$1 == m && $2 == 0 && ($4 == "model" || $4 == "mean" || $4 == "ridge") { print $3, $4, $5 }' "$r/$2/r2.csv" | sort)
  got=$(awk -F, -v p="$1" -v m="$3" 'NR > 1 && $2 == p && $7 == m { print $8, "model", $9; print $8, "mean", $10; print $8, "ridge", $11 }' \
        "$work/fig/figures.csv" | sort)
  [ -n "$want" ] && [ "$want" = "$got" ] || { echo "$1 mix $3: figures.csv differs from $2/r2.csv"; exit 1; }
}
check fig1_relu_td4 relu4-eval 0.3
check fig2_softmax_td3 sm3-eval 0.5
check fig2_softmax_td3 sm3-eval 0
! grep -q '^2,fig2_softmax_td3,.*,-0.5,' "$work/fig/figures.csv" || { echo "weight-shift rows in Figure 2"; exit 1; }
# the weight-shift panel (sm3-eval ran --w-shift 0.5): every model, mean, ridge and direct value at the
# weight means 0, -0.5, +0.5 of mixture 0 is r2.csv's pooled value; no other condition, no panel for relu4
test -s "$work/fig/wshift_softmax_td3.svg" || { echo "missing wshift_softmax_td3.svg"; exit 1; }
test ! -e "$work/fig/wshift_relu_td4.svg" || { echo "a weight-shift panel for a run without --w-shift"; exit 1; }
want=$(awk -F, '$1 == 0 && ($4 == "model" || $4 == "mean" || $4 == "ridge") { print $2, $3, $4, $5 }' "$r/sm3-eval/r2.csv" | sort)
got=$(awk -F, 'NR > 1 { print $7, $8, "model", $9; print $7, $8, "mean", $10; print $7, $8, "ridge", $11 }' \
      "$work/fig/weight_shift.csv" | sort)
[ "$(echo "$want" | awk '{ print $1 }' | sort -u | tr '\n' ' ')" = "-0.5 0 0.5 " ] && [ "$want" = "$got" ] || {
  echo "weight_shift.csv differs from sm3-eval/r2.csv"; exit 1; }
[ "$(awk -F, 'NR > 1 { print $1, $2, $6, $12 }' "$work/fig/weight_shift.csv" | sort -u)" = "wshift_softmax_td3 softmax 0 " ] || {
  echo "weight_shift.csv: another panel, mixture or a direct value"; exit 1; }
grep -q '^wshift_softmax_td3: the same model under a shift' "$work/fig.txt"
# evaluated only to k = 9, short of the training length (19 examples): drawn (report/test_icl_figures
# checks that the axis then extends past the training length's line)
"$nnt" icl eval --model "$r/sm3/model.ckpt" --prompts 64 --n 10 --mix 0 --no-direct --threads 1 --out "$work/short/sm3-eval" >/dev/null 2>&1
"$nnt" icl figures --runs "$work/short" --out "$work/fig-short" >"$work/fig-short.txt"
grep -q 'trained on 19 examples' "$work/fig-short.txt"
test -s "$work/fig-short/fig2_softmax_td3.svg"
# direct training only where it ran; the training length (19 examples) and the layers from the checkpoint
grep -q '^1,fig1_relu_td4,relu,2,4,19,0,2,[-0-9.]*,[-0-9.]*,[-0-9.]*,[-0-9.]\+$' "$work/fig/figures.csv"
grep -q '^1,fig1_relu_td4,relu,2,4,19,0,3,[-0-9.]*,[-0-9.]*,[-0-9.]*,$' "$work/fig/figures.csv"
[ "$(grep -c . "$work/fig/figure3.csv")" -eq 3 ]
awk -F, 'NR > 1 { print $5, $2, $6, $7, $10, $11 }' "$r/depth/depth.csv" >"$work/want3"
awk -F, 'NR > 1 { print $1, $2, $3, $4, $5, $6 }' "$work/fig/figure3.csv" | cmp - "$work/want3" || { echo "figure3.csv differs from depth.csv"; exit 1; }
grep -q 'fig1_relu_td4: relu attention, 2 layers, 4-layer targets, trained on 19 examples' "$work/fig.txt"
# --quick: both attentions x target depths 3, 4, 6 and Figure 3 for both, trained here
"$nnt" icl figures --quick --steps 5 --threads 1 --out "$work/q" >/dev/null 2>&1
for a in fig1_relu fig2_softmax; do
  for d in 3 4 6; do grep -q "^[12],${a}_td$d," "$work/q/figures.csv" || { echo "--quick: no panel ${a}_td$d"; exit 1; }; done
done
[ "$(awk -F, 'NR > 1 { print $1 }' "$work/q/figure3.csv" | sort -u | tr '\n' ' ')" = "relu softmax " ]
[ "$(awk -F, 'NR > 1 { print $1, $7 }' "$work/q/weight_shift.csv" | sort -u | tr '\n' ' ')" = \
  "wshift_relu_td4 -0.5 wshift_relu_td4 0 wshift_relu_td4 0.5 wshift_softmax_td4 -0.5 wshift_softmax_td4 0 wshift_softmax_td4 0.5 " ] || {
  echo "--quick: the weight-shift panels"; exit 1; }
test -s "$work/q/wshift_softmax_td4.svg"
# bad input: one line, exit 2, before any work
bad() { # expected-message args...
  local msg=$1 rc=0
  shift
  "$nnt" icl figures "$@" >/dev/null 2>"$work/err" || rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$msg" "$work/err" || { echo "icl figures $*: rc $rc"; cat "$work/err"; exit 1; }
}
bad "not a folder" --runs "$work/none" --out "$work/never"
bad "give --runs" --out "$work/never"
mkdir -p "$work/empty"
bad "no icl eval" --runs "$work/empty" --out "$work/never"
cp -r "$r/sm3-eval" "$work/broken" && sed -i '5s/.*/0,0,x,model,1/' "$work/broken/r2.csv"
bad "r2.csv:5: malformed row" --runs "$work/broken" --out "$work/never"
test ! -e "$work/never"
echo ok
