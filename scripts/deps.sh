#!/usr/bin/env bash
# Installs the Debian packages nnt needs, only when one is missing.
# Each one and why: see README.md, "Dependencies".
#   scripts/deps.sh        what building and running need
#   scripts/deps.sh test   also what the test suite needs (chromium, for the report.html tests;
#                          yosys, for the Verilog tests of nnt circuit; Open MPI, for the second
#                          build `make test` makes with -DNNT_MPI=ON; clang with libFuzzer (libclang-rt-dev)
#                          and its OpenMP (libomp-dev), for the fuzz targets and the clang build of `make test`;
#                          PyTorch, numpy and pytest, for the checks of the exported networks in PyTorch)
set -euo pipefail
pkgs=(build-essential cmake pkg-config groff-base libopenblas-dev libplplot-dev plplot-driver-cairo libcjson-dev libsimde-dev liblapacke-dev libsqlite3-dev)
case "${1:-}" in
  "") ;;
  test) pkgs+=(chromium yosys libopenmpi-dev openmpi-bin clang libclang-rt-dev libomp-dev python3-torch python3-numpy python3-pytest python3-pandas python3-matplotlib) ;;
  *) echo "scripts/deps.sh: unknown argument '$1' (expected none or 'test')" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "nnt: installing ${missing[*]}" >&2
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
