#!/usr/bin/env bash
# Acceptance 14: on the micro preset the training loss falls within its 400 steps — the mean of the
# last 50 steps is below 60% of the first 50's, for softmax and for ReLU attention.
set -euo pipefail
nnt=$1 work=$2
for attn in softmax relu; do
  "$nnt" icl train --preset micro --attn "$attn" --force --threads 1 --out "$work/$attn" >/dev/null 2>&1
  awk -F, -v attn="$attn" 'NR > 1 { loss[++n] = $2 }
    END { for (i = 1; i <= 5; i++) { a += loss[i]; b += loss[n - 5 + i] }
          printf "%s: loss %.3f over the first 50 steps, %.3f over the last 50\n", attn, a / 5, b / 5
          exit !(n == 40 && b < 0.6 * a) }' "$work/$attn/train.csv"
done
