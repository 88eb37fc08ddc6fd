#!/usr/bin/env bash
# The task options reach run.json and the checkpoint, and icl eval tests on the model's own task
# (d, centres, mixture mode, noise, target width and activation) unless an option overrides it.
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
"$nnt" icl train --preset micro --steps 10 --d 3 --points 12 --target-width 8 --target-act tanh --mu 1 --mu2 3 --mix2 0.2 \
  --per-prompt --noise 0.1 --threads 1 --out "$work/m" >/dev/null 2>&1
j() { /usr/bin/python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; print(" ".join(str(c[k]) for k in sys.argv[2:]))' "$@"; }
[ "$(j "$work/m/run.json" d points target-width target-act mu mu2 mix2 per-prompt noise)" = "3 12 8 tanh 1 3 0.2 True 0.1" ] ||
  { echo "train run.json: $(j "$work/m/run.json" d points target-width target-act mu mu2 mix2 per-prompt noise)"; exit 1; }
grep -aq '"width":8,' "$work/m/model.ckpt" && grep -aq '"per_prompt":1' "$work/m/model.ckpt" && grep -aq '"noise":0.1' "$work/m/model.ckpt" ||
  { echo "the checkpoint's meta lacks the task"; exit 1; }
ev=(icl eval --model "$work/m/model.ckpt" --prompts 64 --mix 0,0.5 --no-direct --threads 1)
"$nnt" "${ev[@]}" --out "$work/own" >/dev/null 2>&1
# the model's task; n = 1.5 x 11 examples + 1 = 18 points
[ "$(j "$work/own/run.json" n target-width target-act mu mu2 per-prompt noise)" = "18 8 tanh 1 3 True 0.1" ] ||
  { echo "eval run.json: $(j "$work/own/run.json" n target-width target-act mu mu2 per-prompt noise)"; exit 1; }
# --mu sets both centres unless --mu2 is given (as in icl train)
"$nnt" "${ev[@]}" --mu 2 --noise 0 --out "$work/other" >/dev/null 2>&1
[ "$(j "$work/other/run.json" mu mu2 per-prompt noise)" = "2 2 True 0" ] ||
  { echo "eval with --mu 2 --noise 0: $(j "$work/other/run.json" mu mu2 per-prompt noise)"; exit 1; }
! cmp -s "$work/own/r2.csv" "$work/other/r2.csv" || { echo "--mu changed nothing"; exit 1; }
echo ok
