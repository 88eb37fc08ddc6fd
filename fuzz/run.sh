#!/bin/sh
# Fuzz harness: builds every fuzz/fuzz_<area>_<name>.c with libFuzzer + AddressSanitizer against
# src/core/*.c and src/<area>/*.c (area core: the core alone), then runs each target for SECONDS
# seconds (default 60). Each area's library is compiled once per invocation into build-fuzz/obj/.
#
#   bash fuzz/run.sh SECONDS [TARGET...]     e.g. bash fuzz/run.sh 30 fuzz_circuits_aag
#
# A target of area cli (src/cli) links the core and report libraries; fuzz/<target>.sources names
# further files (src/cli/x.c) and libraries (src/<area>) a target needs. The fuzzer's CPU time is
# printed as cpu_seconds (user+system) when /usr/bin/time exists.
# Seeds: fuzz/<target>.seeds lists repository globs (one a line) copied into the corpus. Build
# outputs, corpora and crash artifacts go to build-fuzz/ (FUZZ_DIR overrides). Exit status 1
# when a target found a crash, a leak or a failed assertion (the input is saved as
# build-fuzz/<target>/crash-*), 2 on a build failure. Needs clang with libFuzzer (Debian: clang).
set -u
SECONDS_EACH=${1:-60}
[ $# -gt 0 ] && shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_DIR:-$ROOT/build-fuzz}
CC=${CC:-clang}
mkdir -p "$OUT"
DEPS="openblas lapacke plplot libcjson sqlite3"
SAN="address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-g -O1 -std=c11 -D_DEFAULT_SOURCE -fopenmp $(pkg-config --cflags $DEPS) -DNNT_VERSION=\"fuzz\" -DNNT_GIT_COMMIT=\"fuzz\" -DNNT_BUILD_TYPE=\"fuzz\""
LIBS="$(pkg-config --libs $DEPS) -lm"
# Objects of src/<dir> instrumented for the fuzzer (compiled on first use in this invocation).
built=""
objects() {
  case " $built " in *" $1 "*) return 0 ;; esac
  mkdir -p "$OUT/obj/$1"
  rm -f "$OUT/obj/$1"/*.o
  for c in "$ROOT/src/$1"/*.c; do
    # shellcheck disable=SC2086
    $CC $CFLAGS -fsanitize=fuzzer-no-link,$SAN -I"$ROOT/src/core" -I"$ROOT/src/$1" -c "$c" \
      -o "$OUT/obj/$1/$(basename "$c" .c).o" 2>> "$OUT/obj/$1.log" || return 1
  done
  built="$built $1"
}
targets=${*:-$(cd "$ROOT/fuzz" && ls fuzz_*_*.c | sed 's/\.c$//')}
status=0
for t in $targets; do
  area=$(echo "$t" | sed 's/^fuzz_\([^_]*\)_.*/\1/')
  echo "== $t (area $area, ${SECONDS_EACH}s)"
  mkdir -p "$OUT/$t/corpus"
  # area core: the core alone; cli: the core and report libraries, plus the CLI files that
  # fuzz/<target>.sources names (the CLI's other files need every area)
  case $area in
    core) dirs=core ;;
    cli) dirs="core report" ;;
    *) dirs="core $area" ;;
  esac
  extra=""
  if [ -f "$ROOT/fuzz/$t.sources" ]; then
    for s in $(cat "$ROOT/fuzz/$t.sources"); do
      case $s in
        *.c) extra="$extra $ROOT/$s" ;;
        src/*) dirs="$dirs ${s#src/}" ;; # a whole library
      esac
    done
  fi
  incs=""
  for d in $dirs $area; do incs="$incs -I$ROOT/src/$d"; done
  objs=""
  for d in $dirs; do
    if ! objects "$d"; then
      echo "build failed: see $OUT/obj/$d.log"
      tail -5 "$OUT/obj/$d.log"
      exit 2
    fi
    objs="$objs $OUT/obj/$d/*.o"
  done
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -fsanitize=fuzzer,$SAN $incs "$ROOT/fuzz/$t.c" $extra $objs $LIBS -o "$OUT/$t/$t" 2> "$OUT/$t/build.log"; then
    echo "build failed: see $OUT/$t/build.log"
    tail -5 "$OUT/$t/build.log"
    exit 2
  fi
  if [ -f "$ROOT/fuzz/$t.seeds" ]; then
    while read -r pat; do
      [ -z "$pat" ] && continue
      for f in $ROOT/$pat; do [ -f "$f" ] && cp "$f" "$OUT/$t/corpus/"; done
    done < "$ROOT/fuzz/$t.seeds"
  fi
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
