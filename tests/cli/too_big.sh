#!/bin/bash
# A size that cannot fit is refused before any work: exit 2, one line on stderr naming the option to
# change (matching REGEX), nothing on stdout, and the --out folder DIR never created; in a few
# seconds, since nothing large is allocated.
# usage: too_big.sh NNT DIR REGEX args...   (args end with --out DIR where the command takes it)
nnt=$1 dir=$2 regex=$3
shift 3
rm -rf "$dir"
start=$(date +%s)
out=$("$nnt" "$@" 2>/dev/null)
err=$("$nnt" "$@" 2>&1 >/dev/null)
rc=$?
took=$(($(date +%s) - start))
fail() { echo "FAIL: $*"; echo "stdout: $out"; echo "stderr: $err"; exit 1; }
[ $rc -eq 2 ] || fail "exit $rc, expected 2"
[ -z "$out" ] || fail "wrote on stdout"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "more than one line on stderr"
printf '%s\n' "$err" | grep -Eq -- "$regex" || fail "stderr does not match '$regex'"
[ ! -e "$dir" ] || fail "$dir was created"
[ "$took" -le 20 ] || fail "took ${took}s: the refusal must come before the work"
echo "refused: $err"
