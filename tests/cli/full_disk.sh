#!/usr/bin/env bash
# full_disk.sh NNT SRC DIR: writes that fail for want of space (RLIMIT_FSIZE via ulimit -f, with
# SIGXFSZ ignored so that write() returns EFBIG as on a full disk) end the run with one line
# "cannot write PATH: ..." and exit 2, leave the previous file byte-identical and no temporary:
#   1. nnt icl train --resume whose next checkpoint (340 KB) exceeds the limit: model.ckpt of the
#      step before is kept, and --resume without the limit ends as an uninterrupted run;
#   2. nnt tm run --trace rewriting a folder: the new trace.csv (83 KB) exceeds the limit, the old
#      trace.csv and results.json stay.
set -uo pipefail
nnt=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
limited() { # KiB command...: run under a file-size limit, SIGXFSZ ignored (inherited through exec)
  local kib=$1; shift
  (trap '' XFSZ && ulimit -f "$kib" && exec "$@")
}
one_line() { # file path-regex
  [ "$(wc -l <"$1")" -eq 1 ] && grep -Eq "cannot write $2: File too large \(the previous file, if any, is unchanged\)" "$1" ||
    { echo "FAIL: not one 'cannot write' line"; cat "$1"; exit 1; }
}
no_tmp() { ls -a "$1" | grep -q 'tmp$' && { echo "FAIL: a temporary file was left in $1"; ls -a "$1"; exit 1; }; return 0; }

icl=(icl train --preset micro --ckpt-every 20 --threads 1 --seed 4)
"$nnt" "${icl[@]}" --steps 60 --out "$work/full" >/dev/null 2>&1 || { echo "FAIL: reference run"; exit 1; }
"$nnt" "${icl[@]}" --steps 40 --out "$work/run" >/dev/null 2>&1 || { echo "FAIL: first run"; exit 1; }
cp "$work/run/model.ckpt" "$work/run/train.csv" "$work/"
rc=0; limited 100 "$nnt" "${icl[@]}" --steps 60 --resume --out "$work/run" >/dev/null 2>"$work/err1" || rc=$?
[ $rc -eq 2 ] || { echo "FAIL: checkpoint over the limit: exit $rc, not 2"; cat "$work/err1"; exit 1; }
one_line "$work/err1" ".*/run/model.ckpt"
cmp "$work/model.ckpt" "$work/run/model.ckpt" && cmp "$work/train.csv" "$work/run/train.csv" ||
  { echo "FAIL: the previous checkpoint or train.csv changed"; exit 1; }
no_tmp "$work/run"
"$nnt" "${icl[@]}" --steps 60 --resume --out "$work/run" >/dev/null 2>&1 || { echo "FAIL: the resume failed"; exit 1; }
cmp "$work/full/model.ckpt" "$work/run/model.ckpt" && cmp "$work/full/train.csv" "$work/run/train.csv" ||
  { echo "FAIL: the resumed run differs from the uninterrupted one"; exit 1; }

"$nnt" tm run "$src/examples/tm/bb4.tm" --steps 107 --trace --out "$work/tm" >/dev/null 2>&1 || { echo "FAIL: tm run"; exit 1; }
cp "$work/tm/trace.csv" "$work/tm/results.json" "$work/"
rc=0; limited 40 "$nnt" tm run "$src/examples/tm/counter.tm" --steps 5000 --trace --out "$work/tm" >/dev/null 2>"$work/err2" || rc=$?
[ $rc -eq 2 ] || { echo "FAIL: trace over the limit: exit $rc, not 2"; cat "$work/err2"; exit 1; }
one_line "$work/err2" ".*/tm/trace.csv"
cmp "$work/trace.csv" "$work/tm/trace.csv" && cmp "$work/results.json" "$work/tm/results.json" ||
  { echo "FAIL: the previous trace.csv or results.json changed"; exit 1; }
no_tmp "$work/tm"
echo "$(cat "$work/err1"); $(cat "$work/err2"); previous files identical, resume identical"
