#!/bin/bash
# Bad option values, for every numeric option of every command: each must be refused before any
# work with exit 2, one line on stderr naming the option, nothing on stdout, and the --out folder
# never created. Self-maintaining: the commands come from `nnt help --list`, the options and their
# ranges from each command's --help (placeholders N, X, LIST; --seed, an integer shown as S), the
# base invocation from the first example line that runs the command itself (its --out replaced by
# ours; lines running another command are setup steps and run for real, as tests/cli/examples.cmake).
# Each bad value is tried with --check-options and without (the run itself), both with --out DIR where
# the command takes --out (DIR must never appear).
# usage: bad_values.sh NNT SRC WORK   (SRC: the source tree, for examples/; WORK: a scratch folder)
# BAD_VALUES_JOBS: commands checked at once (default 2). Prints a table of failures, exit 1 if any.
set -u
nnt=$(realpath "$1") src=$(realpath "$2") work=$3
jobs=${BAD_VALUES_JOBS:-2}
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work") || exit 1
mapfile -t commands < <("$nnt" help --list)
[ ${#commands[@]} -ge 2 ] || { echo "nnt help --list named ${#commands[@]} commands"; exit 1; }

# The numeric options of a --help text, one per line: NAME META RANGE (RANGE as printed at the end of
# the entry, e.g. [1..1000], (0..1], [> 0], [>= 0], [<= 5], or - when none). An entry runs from its
# "  --name" line to the next one (a help text may hold newlines of its own).
numeric_options() {
  awk '
    function flush() {
      if (name == "") return
      range = "-"
      if (match(text, / (\[|\()[^][()]*\]$/)) range = substr(text, RSTART + 1)
      if (meta == "N" || meta == "X" || meta == "LIST") print name, meta, range
      else if (name == "seed") print name, "N", "[>= 0]"  # an unsigned integer (cli_parse: [0, LONG_MAX])
      name = ""
    }
    /^options:$/ { on = 1; next }
    on && /^$/ { flush(); exit }
    on && /^  --/ { flush(); name = substr($1, 3); meta = $2; text = $0; next }
    on { text = text " " $0 }
    END { flush() }'
}

# Just past a printed bound b, below (dir -1) or above (+1): one more integer for N and for a LIST
# with an integer bound, else a millionth of b (1e-6 at 0).
past() {
  awk -v b="$1" -v d="$2" -v m="$3" 'BEGIN {
    if (m != "X" && b == int(b)) printf "%.0f\n", b + d
    else printf "%.10g\n", b + d * (b == 0 ? 1e-6 : (b < 0 ? -b : b) * 1e-6) }'
}

# The bad values of an option (one per line; the empty string among them), from META and RANGE.
bad_values() {
  local meta=$1 range=$2 ok=1 lo='' hi=''
  printf '%s\n' nan inf -inf x 1e999 ''
  case $range in
    '[>= '*) lo=${range#\[>= }; lo=${lo%]}; ok=$lo; past "$lo" -1 "$meta" ;;
    '[<= '*) hi=${range#\[<= }; hi=${hi%]}; ok=$hi; past "$hi" 1 "$meta" ;;
    '[> 0]') echo 0 ;;
    '('*..*']') hi=${range#*..}; hi=${hi%]}; ok=$hi; echo 0; past "$hi" 1 "$meta" ;;
    '['*..*']') lo=${range#\[}; lo=${lo%%..*}; hi=${range#*..}; hi=${hi%]}; ok=$lo
                past "$lo" -1 "$meta"; past "$hi" 1 "$meta" ;;
  esac
  printf '%s\n' " $ok" "$ok "  # a valid value with a blank before or after it
  if [ "$meta" = LIST ]; then  # a valid item next to the bad one: the whole list must be refused
    printf '%s\n' "$ok,,$ok" "$ok,nan" "nan,$ok" "$ok,x"
    case $range in
      '[>= '*) past "$lo" -1 LIST ;; '[<= '*) past "$hi" 1 LIST ;; '[> 0]') echo 0 ;;
      '('*) echo 0 ;; '['*) past "$lo" -1 LIST ;;
    esac | sed "s/^/$ok,/"
  fi
}

# One run, checked: MODE is check (--check-options) or out (the run itself). Appends to $fails.
try() {
  local mode=$1 opt=$2 val=$3 why='' line='' rc
  if [ "$mode" = check ]; then
    "$nnt" "${base[@]}" --check-options "--$opt" "$val" >"$work/o.$idx" 2>"$work/e.$idx"
  else  # a value wrongly accepted would start the real run: the timeout bounds it
    timeout -k 5 60 "$nnt" "${base[@]}" "--$opt" "$val" >"$work/o.$idx" 2>"$work/e.$idx"
  fi
  rc=$?
  mapfile -t err <"$work/e.$idx"
  line=${err[0]-}
  [ $rc -eq 2 ] || why+="exit $rc; "
  [ ${#err[@]} -eq 1 ] || why+="${#err[@]} lines on stderr; "
  [[ $line =~ --$opt([^a-z0-9-]|$) ]] || why+="does not name --$opt; "
  [ -s "$work/o.$idx" ] && why+="stdout: $(head -c 60 "$work/o.$idx" | tr '\n' ' '); "
  if [ $takes_out = 1 ] && [ -e "$dir" ]; then why+="created --out; "; rm -rf "$dir"; fi
  ntried=$((ntried + 1))
  [ -z "$why" ] && return 0
  printf '%-20s %-16s %-14s %-5s %s| %s\n' "$cmd" "--$opt" "'$val'" "$mode" "$why" "${line:0:90}" >>"$fails"
  return 1
}

# Every bad value of every numeric option of command number idx; counts into $work/count.$idx.
check_command() {
  idx=$1 cmd=${commands[$1]}
  fails=$work/fail.$idx ntried=0
  local wd=$work/cmd.$idx help l base_line='' nopt=0 opt meta range val
  takes_out=0 dir=$work/out.$idx
  local -a lines args
  mkdir -p "$wd" && ln -s "$src/examples" "$wd/examples" && cd "$wd" || return
  help=$("$nnt" $cmd --help) || { echo "nnt $cmd --help failed" >>"$fails"; return; }
  [[ $help == *$'\n  --out DIR '* ]] && takes_out=1
  mapfile -t lines < <(printf '%s\n' "$help" | sed -n '/^example:$/,$s/^  nnt //p')
  for l in "${lines[@]}"; do
    if [[ "$l " == "$cmd "* ]]; then base_line=$l; break; fi
    eval "args=($l)"  # a setup step the base needs (an input made by another command); trusted text
    "$nnt" "${args[@]}" >/dev/null 2>&1 || echo "setup 'nnt $l' failed" >>"$fails"
  done
  [ -n "$base_line" ] || { echo "nnt $cmd: no example line runs it" >>"$fails"; return; }
  eval "args=($base_line)"  # the example as a shell would split it (quotes included)
  base=()  # the example with its --out (if any) replaced by --out DIR, a folder that must never appear
  for ((i = 0; i < ${#args[@]}; i++)); do
    if [ "${args[i]}" = --out ]; then i=$((i + 1)); else base+=("${args[i]}"); fi
  done
  [ $takes_out = 1 ] && base+=(--out "$dir")
  # the base itself must be valid, or a refusal would not be the bad value's
  if ! "$nnt" "${base[@]}" --check-options >/dev/null 2>"$work/e.$idx"; then
    echo "nnt $cmd: the base 'nnt ${base[*]} --check-options' fails: $(head -1 "$work/e.$idx")" >>"$fails"
    return
  elif [ -e "$dir" ]; then
    echo "nnt $cmd: the base 'nnt ${base[*]} --check-options' created its --out folder" >>"$fails"
    return
  fi
  while read -r opt meta range; do
    nopt=$((nopt + 1))
    while IFS= read -r val; do
      # the run itself only once --check-options refuses: an accepted value would run the command
      try check "$opt" "$val" && try out "$opt" "$val"
    done < <(bad_values "$meta" "$range")
  done < <(printf '%s\n' "$help" | numeric_options)
  # --seed and --threads at least: fewer means the help was misread and nothing was checked
  [ $nopt -ge 2 ] || echo "nnt $cmd: $nopt numeric options read from its --help" >>"$fails"
  echo "$nopt $ntried" >"$work/count.$idx"
}

start=$(date +%s)
for i in "${!commands[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  (check_command "$i") &
done
wait

nopts=0 nruns=0 ncmds=0
for i in "${!commands[@]}"; do
  [ -f "$work/count.$i" ] || { [ -f "$work/fail.$i" ] || echo "nnt ${commands[i]}: not checked" >"$work/fail.$i"; continue; }
  read -r o r <"$work/count.$i"
  ncmds=$((ncmds + 1)) nopts=$((nopts + o)) nruns=$((nruns + r))
done
echo "${#commands[@]} commands ($ncmds checked), $nopts numeric options, $nruns refusals tried in $(($(date +%s) - start)) s"
if compgen -G "$work/fail.*" >/dev/null; then
  printf '%-20s %-16s %-14s %-5s %s\n' command option value mode 'what | stderr'
  for i in "${!commands[@]}"; do [ -f "$work/fail.$i" ] && cat "$work/fail.$i"; done
  echo "FAIL: $(cat "$work"/fail.* | wc -l) failures"
  exit 1
fi
echo "every bad value refused: exit 2, one line naming the option, no stdout, no --out folder"
