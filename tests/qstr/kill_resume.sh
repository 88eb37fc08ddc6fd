#!/usr/bin/env bash
# A sweep killed with SIGKILL mid-way and rerun with --resume ends with CSVs byte-identical to an
# uninterrupted run's and recomputes no point that had finished; a rerun without --resume refuses.
set -euo pipefail
nnt=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
args=(qstr sweep --model tr --N 4,6,8,10,12,14 --reps 2 --quick --threads 1 --seed 3)
"$nnt" "${args[@]}" --out "$work/full" >/dev/null 2>&1

"$nnt" "${args[@]}" --out "$work/run" >/dev/null 2>"$work/log1" &
pid=$!
for _ in $(seq 1200); do
  [ "$(grep -c ' done in ' "$work/log1" || true)" -ge 2 ] && break
  sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
before=$(grep -o 'N=[0-9]* rep=[0-9]*' "$work/log1" | sort -u || true)
nbefore=$(echo "$before" | grep -c rep || true)
[ "$nbefore" -ge 1 ] || { echo "FAIL: no point finished before the kill"; exit 1; }
[ "$nbefore" -lt 12 ] || { echo "FAIL: the sweep ended before the kill (make it longer)"; exit 1; }

rc=0; "$nnt" "${args[@]}" --out "$work/run" >/dev/null 2>"$work/refused" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--resume" "$work/refused" || { echo "FAIL: a rerun without --resume did not refuse (rc $rc)"; exit 1; }

"$nnt" "${args[@]}" --out "$work/run" --resume >"$work/out2" 2>"$work/log2"
after=$(grep -o 'N=[0-9]* rep=[0-9]*' "$work/log2" | sort -u || true)
again=$(comm -12 <(echo "$before") <(echo "$after") | grep -c rep || true)
[ "$again" -eq 0 ] || { echo "FAIL: $again finished point(s) computed again"; exit 1; }
nafter=$(echo "$after" | grep -c rep || true)
grep -q "resumed: $((12 - nafter)) of 12" "$work/out2" || { echo "FAIL: resume did not report $((12 - nafter)) stored runs"; cat "$work/out2"; exit 1; }
for f in samples.csv summary.csv; do
  cmp "$work/full/$f" "$work/run/$f" || { echo "FAIL: $f differs from the uninterrupted run's"; exit 1; }
done
echo "killed after $nbefore finished point(s); resumed run computed $nafter, CSVs identical"
