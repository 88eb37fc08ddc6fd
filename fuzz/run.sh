#!/bin/sh
# Fuzz harness: builds every fuzz/fuzz_<area>_<name>.c with libFuzzer + AddressSanitizer against
# src/core/*.c and src/<area>/*.c, then runs each target for SECONDS seconds (default 60).
#
#   bash fuzz/run.sh SECONDS [TARGET...]     e.g. bash fuzz/run.sh 30 fuzz_circuits_aag
#
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
DEPS="openblas plplot libcjson sqlite3"
CFLAGS="-g -O1 -std=c11 -D_DEFAULT_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fopenmp $(pkg-config --cflags $DEPS)"
LIBS="$(pkg-config --libs $DEPS) -lm"
targets=${*:-$(cd "$ROOT/fuzz" && ls fuzz_*_*.c | sed 's/\.c$//')}
status=0
for t in $targets; do
  area=$(echo "$t" | sed 's/^fuzz_\([^_]*\)_.*/\1/')
  echo "== $t (area $area, ${SECONDS_EACH}s)"
  mkdir -p "$OUT/$t/corpus"
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -I"$ROOT/src/core" -I"$ROOT/src/$area" -DNNT_VERSION='"fuzz"' -DNNT_GIT_COMMIT='"fuzz"' \
      "$ROOT/fuzz/$t.c" "$ROOT"/src/core/*.c "$ROOT/src/$area"/*.c $LIBS -o "$OUT/$t/$t" 2> "$OUT/$t/build.log"; then
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
  (cd "$OUT/$t" && OMP_NUM_THREADS=1 ./"$t" -max_total_time="$SECONDS_EACH" -max_len=16384 -print_final_stats=1 \
      -artifact_prefix="$OUT/$t/" corpus > run.log 2>&1)
  rc=$?
  grep -E "^(stat::number_of_executed_units|stat::new_units_added)" "$OUT/$t/run.log"
  if [ $rc -ne 0 ]; then
    echo "$t: FAILED (exit $rc); last lines of $OUT/$t/run.log:"
    tail -20 "$OUT/$t/run.log"
    status=1
  fi
done
exit $status
