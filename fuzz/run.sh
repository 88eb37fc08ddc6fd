#!/bin/sh
# Fuzz harness runner: builds the libFuzzer targets (fuzz/fuzz_<area>_<name>.c) with CMake
# (-DNNT_FUZZ=ON, cmake/fuzz.cmake: the library's own targets and flags, instrumented with ASan +
# UBSan), then runs each target for SECONDS seconds (default 60).
#
#   bash fuzz/run.sh SECONDS [TARGET...]     e.g. bash fuzz/run.sh 30 fuzz_circuits_aag
#
# Every target by default. Each run starts from the target's corpus, kept between runs, to which
# the seeds are copied first: the repository globs listed in fuzz/<target>.seeds (one a line) and
# the regression inputs fuzz/regress/<target>/* (one per reader bug fuzzing found). It prints the
# executions, the final coverage and the fuzzer's CPU time (cpu_seconds, user+system, when
# /usr/bin/time exists). The build, corpora and crash artifacts go to build-fuzz/ (FUZZ_DIR
# overrides; the executable is FUZZ_DIR/<target>/<target>). Exit status 1 when a target found a
# crash, a leak, undefined behaviour or a failed check (the input is saved as
# FUZZ_DIR/<target>/crash-*; reproduce: FUZZ_DIR/<target>/<target> FILE), 2 on a build failure or
# an unknown target. Needs clang with libFuzzer (Debian: clang); CC overrides the compiler.
set -u
unset CDPATH # a cd through CDPATH prints the folder, which $(cd ... && pwd) would capture
SECONDS_EACH=${1:-60}
[ $# -gt 0 ] && shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_DIR:-$ROOT/build-fuzz}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

echo "== building the fuzz targets in $OUT (log: $OUT/build.log)"
if ! { CC=${CC:-clang} cmake -S "$ROOT" -B "$OUT" -DCMAKE_BUILD_TYPE=Debug -DNNT_FUZZ=ON &&
       cmake --build "$OUT" -j "$(nproc)" --target nnt_fuzz; } > "$OUT/build.log" 2>&1; then
  echo "build failed: see $OUT/build.log"
  grep -E "error|Error" "$OUT/build.log" | head -10
  exit 2
fi

targets=${*:-$(cd "$ROOT/fuzz" && ls fuzz_*_*.c | sed 's/\.c$//')}
status=0
for t in $targets; do
  if [ ! -x "$OUT/$t/$t" ]; then
    echo "$t: no such target in $OUT (fuzz/$t.c, or its area is not built)"
    exit 2
  fi
  echo "== $t (${SECONDS_EACH}s)"
  mkdir -p "$OUT/$t/corpus"
  if [ -f "$ROOT/fuzz/$t.seeds" ]; then
    while read -r pat; do
      [ -z "$pat" ] && continue
      # named after their path: tests/qstr/plot_bad/samples.csv -> tests_qstr_plot_bad_samples.csv
      for f in $ROOT/$pat; do [ -f "$f" ] && cp "$f" "$OUT/$t/corpus/$(echo "${f#$ROOT/}" | tr / _)"; done
    done < "$ROOT/fuzz/$t.seeds"
  fi
  for f in "$ROOT/fuzz/regress/$t"/*; do [ -f "$f" ] && cp "$f" "$OUT/$t/corpus/fuzz_regress_${f##*/}"; done
  timer=""
  [ -x /usr/bin/time ] && timer="/usr/bin/time -f cpu_seconds:%U+%S -o $OUT/$t/time.txt"
  # shellcheck disable=SC2086
  (cd "$OUT/$t" && OMP_NUM_THREADS=1 $timer ./"$t" -max_total_time="$SECONDS_EACH" -max_len=16384 -print_final_stats=1 \
      -artifact_prefix="$OUT/$t/" corpus > run.log 2>&1)
  rc=$?
  grep -E "^(stat::number_of_executed_units|stat::new_units_added)" "$OUT/$t/run.log"
  grep -E "(INITED|NEW|REDUCE|pulse|DONE) +cov:" "$OUT/$t/run.log" | tail -1
  [ -f "$OUT/$t/time.txt" ] && grep cpu_seconds "$OUT/$t/time.txt"
  if [ $rc -ne 0 ]; then
    echo "$t: FAILED (exit $rc); last lines of $OUT/$t/run.log:"
    tail -20 "$OUT/$t/run.log"
    status=1
  fi
done
exit $status
