#!/usr/bin/env bash
# install/example: the library as a user gets it. Stages `cmake --install` of this build (DESTDIR
# and a prefix of its own), checks what is installed (the SONAME, only nnt_* names exported, every
# header compiling on its own), builds examples/c from a copy outside the source tree with nothing
# but `pkg-config --cflags --libs nnt`, and checks the example's numbers against the nnt
# executable's own simulation (`nnt tm run`) and the known busy-beaver values. CC compiles the
# headers and the example (default cc): another compiler than the one that built the library
# checks that nnt.pc names nothing compiler-specific.
# Usage: example.sh BUILD_DIR SOURCE_DIR NNT [CC]
set -euo pipefail
build=$1 src=$2 nnt=$3 cc=${4:-cc}
stage=$build/install-test-${cc##*/}
fail() { echo "install/example: $*" >&2; exit 1; }

rm -rf "$stage"
DESTDIR=$stage cmake --install "$build" --prefix /opt/nnt >/dev/null
prefix=$stage/opt/nnt
pc=$(find "$prefix" -name nnt.pc)
[ -n "$pc" ] || fail "no nnt.pc installed"
export PKG_CONFIG_PATH=${pc%/nnt.pc}
libdir=$(pkg-config --variable=libdir nnt)
[ "$(realpath "$libdir")" = "$(realpath "${pc%/pkgconfig/nnt.pc}")" ] || fail "nnt.pc libdir $libdir is not where it lies"
for f in bin/nnt share/man/man1/nnt.1 include/nnt/nnt_tm.h include/nnt/nnt_error.h include/nnt/nn_api.inc; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
[ ! -e "$prefix/include/nnt/nnt_simd.h" ] || fail "nnt_simd.h (internal) installed"

# The shared library: its SONAME, and nothing exported but the nnt_* API.
lib=$(realpath "$libdir/libnnt.so")
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[[ $soname == libnnt.so.* ]] || fail "SONAME '$soname'"
[ -e "$libdir/$soname" ] || fail "no $soname link in $libdir"
exported=$(nm -D --defined-only "$lib" | awk '{print $3}')
grep -qx nnt_tm_compile_run <<<"$exported" || fail "nnt_tm_compile_run not exported"
others=$(grep -v '^nnt_' <<<"$exported" || true)
[ -z "$others" ] || fail "exported beyond nnt_*: $(echo $others | head -c 300)"
echo "$soname: $(wc -l <<<"$exported") symbols exported, all nnt_*"

# Every installed header compiles on its own with the flags pkg-config gives.
for h in "$prefix"/include/nnt/nnt_*.h; do
  echo "#include <nnt/${h##*/}>" | "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags nnt) -x c - ||
    fail "${h##*/} does not compile on its own"
done

# The example, built from a copy, against the stage only.
mkdir "$stage/example"
cp "$src"/examples/c/tm_check.c "$src"/examples/c/Makefile "$stage/example/"
make -s -C "$stage/example" CC="$cc" >/dev/null
# the headers the example reads, as real paths
deps=$("$cc" -M $(pkg-config --cflags nnt) "$stage/example/tm_check.c" | tr -s ' \\' '\n\n' | grep '\.\(h\|inc\)$' | xargs realpath)
grep -qx "$(realpath "$prefix")/include/nnt/nnt_tm.h" <<<"$deps" || fail "nnt_tm.h not taken from the stage"
! grep -q "$src/src/" <<<"$deps" || fail "a header was taken from the source tree"
# ldd's output kept whole first: `ldd | grep -q` under pipefail fails whenever grep exits before ldd has written
linked=$(ldd "$stage/example/tm_check")
grep -q "libnnt.so.* => $(realpath "$libdir")/" <<<"$linked" || fail "not linked to the staged libnnt"

# The same program linked statically to libnnt.a, through `pkg-config --static` (its private
# dependencies), must print the same.
"$cc" -std=c11 -O2 $(pkg-config --cflags nnt) -o "$stage/example/tm_check_static" "$stage/example/tm_check.c" \
  $(pkg-config --static --libs nnt | sed 's/-lnnt /-l:libnnt.a /')
linked=$(ldd "$stage/example/tm_check_static" || true) # "not a dynamic executable" exits 1
! grep -q libnnt <<<"$linked" || fail "tm_check_static loads libnnt.so"
[ "$("$stage/example/tm_check_static")" = "$("$stage/example/tm_check")" ] || fail "static and shared builds differ"

# The example's numbers against `nnt tm run` (the statically linked executable) per machine, and
# BB(4)'s known 107 steps and 13 ones.
for m in 1RB1LB_1LA1RZ "$src/examples/tm/bb3.tm" 1RB1LB_1LA0LC_1RZ1LD_1RD0RA; do
  ref=$("$nnt" tm run "$m")
  halt=$(sed -n 's/.* halt_step=\([0-9]*\) .*/\1/p' <<<"$ref")
  ones=$(sed -n 's/.* nonblank=\([0-9]*\) .*/\1/p' <<<"$ref")
  [ -n "$halt" ] && [ -n "$ones" ] || fail "nnt tm run $m printed no halt_step/nonblank"
  out=$("$stage/example/tm_check" "$m") || fail "tm_check $m exited $?: $out"
  echo "$out"
  grep -q "halts after $halt steps with $ones ones" <<<"$out" || fail "tm_check $m: not $halt steps / $ones ones"
  grep -q "^steps_checked=$halt mismatches=0$" <<<"$out" || fail "tm_check $m: transformer not checked on $halt steps"
done
# The installed python/nnt (make install, NNT_PYTHON_DIR) loads an export into PyTorch from there
# alone, every module of the package installed (the RCNN's too); skipped without python3-torch.
pkg=$(find "$prefix" -path '*/nnt/__init__.py' | head -n 1)
[ -n "$pkg" ] || fail "python/nnt not installed"
for f in mlp tm icl safetensors results; do [ -e "${pkg%/__init__.py}/$f.py" ] || fail "python/nnt/$f.py not installed"; done
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  "$nnt" circuit compile "$src/examples/circuits/fulladder.bench" --export "$stage/fa.safetensors" >/dev/null
  PYTHONPATH=${pkg%/nnt/__init__.py} /usr/bin/python3 - "$stage/fa.safetensors" "${pkg%/__init__.py}" <<'PY' || fail "the installed python/nnt did not run the fulladder export"
import itertools, os, sys, torch, nnt
assert os.path.dirname(nnt.__file__) == sys.argv[2], nnt.__file__
net = nnt.load(sys.argv[1])
x = torch.tensor(list(itertools.product([0., 1.], repeat=3)), dtype=torch.float64)
y = net(x)
for (a, b, c), (s, co) in zip(x.tolist(), y.tolist()):
    assert s + 2 * co == a + b + c, (a, b, c, s, co)
assert hasattr(nnt.mlp, "RCNNCell")
PY
fi
out=$("$stage/example/tm_check")
grep -q "halts after 107 steps with 13 ones" <<<"$out" || fail "default machine is not BB(4): $out"
echo "install/example: passed (library built by $(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt"), example by $cc)"
