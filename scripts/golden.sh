#!/usr/bin/env bash
# Results must not change under a refactor: run a fixed set of quick commands (every area at
# least once) and keep what they compute, without the timings.
#
#   scripts/golden.sh record [DIR]   run them with build/nnt and store the results in DIR (default scripts/golden)
#   scripts/golden.sh check [DIR]    run them again and diff against DIR (exit 1 on a difference)
#
# What is kept: every CSV the commands write (columns whose name says time, wall or seconds
# dropped) and the console output with timings masked. NNT=path chooses the binary (a command line,
# e.g. "qemu-aarch64 build-aarch64/nnt"); GOLDEN_ONLY='name|name...' (an extended regex matched
# against whole case names) runs and compares those cases alone.
set -euo pipefail
unset CDPATH # a cd through CDPATH prints the folder, which $(cd ... && pwd) would capture
mode=${1:-}; ref=${2:-$(cd "$(dirname "$0")" && pwd)/golden}
[[ ($mode == record || $mode == check) && -n $ref ]] || { echo "usage: $0 record|check DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
nnt=${NNT:-$root/build/nnt}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# name | command line (run from the repository root; OUT is the command's output folder)
cases=(
  "qstr_tr|qstr sweep --quick --model tr --threads 2 --out OUT"
  "qstr_ffn|qstr sweep --quick --model ffn --threads 1 --out OUT"
  "qstr_rnn|qstr sweep --quick --model rnn --N 2,3 --reps 2 --max-samples 3000 --out OUT"
  "qstr_heads|qstr heads --quick --out OUT"
  "qstr_construct|qstr construct --quick --out OUT"
  "qstr_ffnbound|qstr ffn-bound --quick --out OUT"
  "qstr_attention|qstr attention --quick --out OUT"
  "approx_check|approx check --quick --out OUT"
  "approx_square|approx square --quick --out OUT"
  "approx_triangle|approx triangle --quick --out OUT|csv-only"
  "approx_ntk|approx ntk --quick --out OUT"
  "approx_maurey|approx maurey --quick --out OUT"
  "approx_planting|approx planting --quick --out OUT"
  "approx_sobolev|approx sobolev --quick --out OUT"
  "approx_lazy|approx lazy --quick --out OUT"
  "approx_separation|approx separation --quick --n 6 --net examples/nets/delta6.json --out OUT"
  "circuit_verify|circuit verify examples/circuits/adder10.bench --correct"
  "circuit_margin_file|circuit margin examples/circuits/fulladder.bench --out OUT"
  "circuit_margin|circuit margin --quick --out OUT"
  "circuit_learn|circuit learn --quick --out OUT"
  "tm_run|tm run examples/tm/bb3.tm --trace --out OUT"
  "tm_compile|tm compile 1RB1LB_1LA1RZ --out OUT"
  "bounds_sm|bounds sm --tm 1RB1LB_1LA1RZ --steps 6 --quick --out OUT"
  "icl_construct|icl construct --N 3 --K 6 --dx 4 --act sigmoid --M 64 --steps 20 --n 24 --out OUT"
  "icl_train|icl train --preset micro --attn softmax --target-depth 3 --threads 2 --out OUT"
)

# (A case marked csv-only keeps only its CSVs: its console table has a timing column.)
# Timings on the console: "12.3 s", "4.5 ms", "wall 1.2", "(0.31 s)" ...; masked to '#'.
mask() { sed -E 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)? ?(s|ms|us|µs|min|GFLOP\/s|MB\/s|MB|h)\b/# \3/g;
                  s/(wall|time|time_s|elapsed|took)[=: ]+[0-9.e+-]+/\1 #/gi'; }
# A CSV without its timing columns.
strip_csv() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = ($i ~ /(time|wall|seconds|_s$|_ms$|gflops|rss|per_step)/) }
           { o = ""; for (i = 1; i <= NF; i++) if (!drop[i]) o = o (o == "" ? "" : ",") $i; print o }' "$1"
}

mkdir -p "$work/got"
ran=0
for c in "${cases[@]}"; do
  IFS='|' read -r name line flag <<<"$c"; out=$work/run/$name
  [[ -z ${GOLDEN_ONLY:-} || $name =~ ^(${GOLDEN_ONLY})$ ]] || continue
  ran=$((ran + 1))
  mkdir -p "$work/run"
  line=${line//OUT/$out}
  rc=0
  (cd "$root" && $nnt $line) >"$work/stdout" 2>/dev/null || rc=$?
  { echo "# nnt $line" | sed "s|$out|OUT|g"; echo "# exit $rc"; [[ $flag == csv-only ]] || mask <"$work/stdout" | sed "s|$out|OUT|g"; } >"$work/got/$name.txt"
  if [[ -d $out ]]; then
    while IFS= read -r f; do
      rel=${f#$out/}
      { echo "## $rel"; strip_csv "$f" | mask; } >>"$work/got/$name.txt"
    done < <(find "$out" -name '*.csv' | LC_ALL=C sort)
  fi
  echo "$name: exit $rc" >&2
done

[[ $ran -gt 0 ]] || { echo "golden: GOLDEN_ONLY='$GOLDEN_ONLY' names no case" >&2; exit 2; }
if [[ $mode == record ]]; then
  mkdir -p "$ref"; cp "$work"/got/*.txt "$ref"/
  echo "recorded $ran cases in $ref"
elif [[ -z ${GOLDEN_ONLY:-} ]]; then
  if diff -ru "$ref" "$work/got"; then echo "golden: all $ran cases identical"; else echo "golden: results differ" >&2; exit 1; fi
else
  differ=0
  for f in "$work"/got/*.txt; do diff -u "$ref/${f##*/}" "$f" || differ=1; done
  if [[ $differ == 0 ]]; then echo "golden: all $ran cases named by GOLDEN_ONLY identical"; else echo "golden: results differ" >&2; exit 1; fi
fi
