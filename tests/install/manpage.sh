#!/usr/bin/env bash
# install/manpage: nnt.1 renders without a warning, and every command, subcommand and benchmark
# the executable lists appears in it with each option its --help shows.
# Usage: manpage.sh NNT_1 NNT
set -euo pipefail
page=$1 nnt=$2
fail() { echo "install/manpage: $*" >&2; exit 1; }

warn=$(groff -k -man -Tutf8 -ww -z "$page" 2>&1)
[ -z "$warn" ] || fail "groff: $warn"
# Plain text, long lines: one subcommand heading per line.
text=$(groff -k -man -Tutf8 -rLL=250n -P-cbou "$page")

commands=$(sed -n '/^COMMANDS$/,/^COMMON OPTIONS$/p' <<<"$text")

# The leaves as the executable lists them (its own help, walked independently of the generator).
leaves=()
for cmd in $("$nnt" --help | awk '/^commands:$/ {f = 1; next} f && !NF {exit} f {print $1}'); do
  help=$("$nnt" "$cmd" --help)
  rows=$(awk '/^subcommands:$/ {f = 1; next} f && !NF {exit} f' <<<"$help")
  subs=$(awk '{print $1}' <<<"$rows")
  while read -r s summary; do # each subcommand's one-line description, as the group lists it
    [ -z "$s" ] || grep -qF -- "$summary" <<<"$commands" || fail "nnt $cmd $s: description '$summary' missing"
  done <<<"$rows"
  n=0
  for s in $subs; do leaves+=("$cmd $s"); n=$((n + 1)); done
  [ $n -gt 0 ] || leaves+=("$cmd")
done
[ ${#leaves[@]} -ge 30 ] || fail "only ${#leaves[@]} subcommands found in the help"

for l in "${leaves[@]}"; do
  # the one-line entry under COMMANDS, and the section "nnt L" of COMMANDS IN DETAIL
  grep -q "^ *nnt $l\$" <<<"$commands" || fail "nnt $l missing under COMMANDS"
  section=$(awk -v h="   nnt $l" '$0 == h {f = 1; next} f && /^ ? ? ?[^ ]/ {exit} f' <<<"$text")
  [ -n "$section" ] || fail "no section 'nnt $l'"
  # shellcheck disable=SC2086
  for o in $("$nnt" $l --help | grep -o -- '^  --[a-z0-9-]*'); do
    grep -q -- "^ *$o\\b" <<<"$section" || fail "nnt $l: option $o missing"
  done
done
echo "install/manpage: ${#leaves[@]} subcommands, each with its options"
