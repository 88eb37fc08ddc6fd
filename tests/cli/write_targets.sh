#!/usr/bin/env bash
# write_targets.sh NNT SRC DIR: writing never destroys what the user pointed at (docs/reliability.md).
# A regular file or a new name is replaced atomically (keeping the old file's permissions); a
# symbolic link is followed (its target written, the link kept), for a single-file --save as for a
# CSV or a plot inside an --out folder; a character device or a FIFO that a process reads is
# written in place; a FIFO nobody reads, a directory or a dangling link is refused with one line and
# exit 2, without blocking; a failed write to standard output is exit 2 with one line.
set -uo pipefail
nnt=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
refused() { # what err-file: exit 2 and one line
  [ "$2" -eq 2 ] || fail "$1: exit $2, not 2"
  [ "$(wc -l <"$3")" -eq 1 ] || { cat "$3"; fail "$1: not one line on stderr"; }
}
export_to() { timeout 20 "$nnt" tm2d export --learner majority --save "$1"; }

export_to ref.tm2d || fail "reference export"

# standard output
rc=0; "$nnt" tm run "$src/examples/tm/bb4.tm" >/dev/full 2>err || rc=$?
refused "tm run > /dev/full" $rc err
grep -q "standard output" err || fail "the line does not name standard output: $(cat err)"
rc=0; "$nnt" tm2d export --learner majority >/dev/full 2>err || rc=$?
refused "tm2d export > /dev/full" $rc err

# a symbolic link is followed
echo old >target && ln -s target link
export_to link || fail "export through a symlink"
[ -L link ] || fail "the symlink was replaced"
cmp -s ref.tm2d target || fail "the symlink's target was not written"
mkdir sub && ln -s ../target sub/rel && echo old >target
export_to sub/rel && [ -L sub/rel ] && cmp -s ref.tm2d target || fail "a relative symlink in another folder"

# a replaced file keeps its permissions
echo old >private && chmod 600 private && export_to private || fail "export over a file"
[ "$(stat -c %a private)" = 600 ] || fail "the replaced file's mode became $(stat -c %a private)"

# files inside an --out folder: a CSV and a plot that are symlinks
"$nnt" tm run "$src/examples/tm/bb4.tm" --trace --out t >/dev/null || fail "tm run --trace"
mv t/trace.csv trace_ref.csv && echo old >trace_elsewhere.csv && ln -s ../trace_elsewhere.csv t/trace.csv
"$nnt" tm run "$src/examples/tm/bb4.tm" --trace --out t >/dev/null || fail "tm run --trace through a symlink"
[ -L t/trace.csv ] && cmp -s trace_ref.csv trace_elsewhere.csv || fail "trace.csv: the link was not followed"
"$nnt" qstr ffn-bound --quick --out q >/dev/null || fail "qstr ffn-bound"
mv q/ffn_bound.png png_ref.png && echo old >elsewhere.png && ln -s ../elsewhere.png q/ffn_bound.png
"$nnt" qstr ffn-bound --quick --out q >/dev/null || fail "qstr ffn-bound through a symlink"
[ -L q/ffn_bound.png ] && [ "$(head -c 4 elsewhere.png | tail -c 3)" = PNG ] || fail "the plot's link was not followed"

# a FIFO that a process reads is written in place; one that nobody reads is refused at once
mkfifo fifo
cat fifo >from_fifo &
reader=$!
export_to fifo || fail "export into a read FIFO"
wait $reader
[ -p fifo ] && cmp -s ref.tm2d from_fifo || fail "the FIFO was replaced or not written in place"
rc=0; export_to fifo 2>err || rc=$?
[ $rc -ne 124 ] || fail "a FIFO nobody reads blocked the run"
refused "FIFO without a reader" $rc err
[ -p fifo ] || fail "the FIFO was replaced"

# a directory and a dangling symlink are refused
mkdir dir && rc=0 && { export_to dir 2>err || rc=$?; }
refused "a directory" $rc err
[ -d dir ] && [ -z "$(ls dir)" ] || fail "the directory changed"
ln -s missing dangling && rc=0 && { export_to dangling 2>err || rc=$?; }
refused "a dangling symlink" $rc err
[ -L dangling ] && [ ! -e missing ] || fail "the dangling symlink changed"
ls -a . sub t q | grep -q 'tmp$' && fail "a temporary file was left"

# device nodes (made here, never the system's own): written in place, never turned into a file
if mknod null c 1 3 2>/dev/null && mknod full c 1 7 2>/dev/null; then
  export_to null || fail "export to a null device"
  [ -c null ] || fail "the null device became a file"
  rc=0; export_to full 2>err || rc=$?
  refused "export to a full device" $rc err
  [ -c full ] || fail "the full device became a file"
else
  echo "device nodes not tested (mknod needs root)"
fi
echo ok
