#!/bin/sh
# scripts/valgrind.sh [BUILD_DIR] [JOBS]: valgrind memcheck over every unit test (not the CLI
# tests): configures BUILD_DIR (default build-valgrind; RelWithDebInfo, -DNNT_VALGRIND=ON), builds
# the unit-test executables and runs `ctest -L valgrind`: each test under
#   valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
# with tests/valgrind.supp (the OpenMP/OpenBLAS thread pools' TLS blocks only). Any invalid read or
# write, use of uninitialised memory, bad free or definite/indirect leak fails the test.
# About 40 minutes on 2 shared cores (docs/reliability.md); not part of the default ctest run.
set -eu
unset CDPATH # a cd through CDPATH prints the folder, which $(cd ... && pwd) would capture
dir=${1:-build-valgrind} jobs=${2:-2}
command -v valgrind >/dev/null || { echo "valgrind not found (Debian: apt-get install valgrind)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNNT_VALGRIND=ON >/dev/null
cmake --build "$dir" -j "$jobs"
exec ctest --test-dir "$dir" -L valgrind -j "$jobs" --output-on-failure
