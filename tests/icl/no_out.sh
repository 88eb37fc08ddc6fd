#!/usr/bin/env bash
# Without --out an icl command writes nothing: each runs with --quick (and the model it needs) in an
# empty folder, exits 0 and leaves the folder empty. --quick alone is a complete setting for the
# commands that need no input file.
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work" && mkdir -p "$work/empty" "$work/model"
"$nnt" icl train --quick --steps 20 --threads 1 --out "$work/model" >/dev/null
cd "$work/empty"
run() { "$nnt" "$@" >"$work/log" 2>&1 || { cat "$work/log"; echo "FAIL: nnt $* exited $?"; exit 1; }; }
run icl construct --quick
run icl construct-sweep --quick --M 8,16
run icl train --quick --threads 1
grep -q "final_loss=" "$work/log" || { cat "$work/log"; echo "FAIL: icl train printed no final_loss"; exit 1; }
run icl baselines --quick --prompts 64 --batch 32 --direct-k 2
run icl eval --quick --model "$work/model/model.ckpt" --prompts 64 --batch 32 --no-direct
run icl sweep-depth --quick --models "$work/model/model.ckpt" --prompts 64 --batch 32
left=$(ls -A)
[ -z "$left" ] || { echo "FAIL: files written without --out: $left"; exit 1; }
echo "no --out: nothing written by any icl command"
