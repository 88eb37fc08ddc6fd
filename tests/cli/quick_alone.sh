#!/bin/bash
# Every command of `nnt help --list` with --quick and no other option (the tour aside: tests/cli/tour.cmake
# runs it) runs and exits 0 — no refusal, no crash, no hang, no exit 1 — except the commands named in
# NEEDS_INPUT, whose input is a file or folder the user names (a machine, a circuit, a model file to
# export, folders to plot): they refuse with one line naming it (exit 2). Run in an empty folder,
# which must stay empty: without --out nothing is written.
# usage: quick_alone.sh NNT WORKDIR [PATTERN]   (PATTERN: an egrep over the command names, default all)
nnt=$1 work=$2 pattern=${3:-.}
NEEDS_INPUT="^(export|qstr plot|circuit compile|circuit verify|circuit d5|tm run|tm compile|tm2d run|tm2d check|bounds sm)$"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
bad=0 n=0
while read -r cmd; do
  [ "$cmd" = tour ] && continue
  n=$((n + 1))
  # shellcheck disable=SC2086
  out=$(timeout 600 "$nnt" $cmd --quick 2>&1 </dev/null)
  rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ $rc -eq 0 ]; then
    echo "ok   $cmd --quick: ran"
  elif [[ $cmd =~ $NEEDS_INPUT ]] && [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ -n "$out" ]; then
    echo "ok   $cmd --quick: needs its input: $out"
  else
    echo "FAIL $cmd --quick: exit $rc, $lines line(s):"
    printf '%s\n' "$out" | tail -5
    bad=$((bad + 1))
  fi
done < <("$nnt" help --list 2>/dev/null | grep -E "$pattern")
left=$(ls -A)
if [ -n "$left" ]; then echo "FAIL: commands without --out wrote into the working folder: $left"; bad=$((bad + 1)); fi
[ $n -gt 0 ] || { echo "FAIL: nnt help --list listed no command"; exit 1; }
echo "$n commands, $bad failed"
[ $bad -eq 0 ]
