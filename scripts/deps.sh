#!/usr/bin/env bash
# Installs the Debian packages nnt needs, only when one is missing.
# Each one and why: see README.md, "Dependencies".
#   scripts/deps.sh        what building and running need
#   scripts/deps.sh test   also what the test suite needs (chromium, for the report.html tests;
#                          yosys, for the Verilog tests of nnt circuit; Open MPI, for the second
#                          build `make test` makes with -DNNT_MPI=ON; clang with libFuzzer (libclang-rt-dev)
#                          and its OpenMP (libomp-dev), for the fuzz targets and the clang build of `make test`;
#                          PyTorch, numpy and pytest, for the checks of the exported networks in PyTorch;
#                          nodejs and npm, which install onnxruntime-node (pinned, from the npm registry)
#                          under $NNT_NODE_DIR (default ~/.cache/nnt/node), and python3-onnx (onnx.checker),
#                          for the checks of the .onnx exports by an ONNX runtime that is not nnt)
#   scripts/deps.sh cross-aarch64   the aarch64 cross build of `make cross-aarch64`: Debian's cross
#                          compiler, qemu-user, and the arm64 libraries (adds dpkg's arm64 architecture;
#                          no PLplot: libplplot-dev:arm64 cannot be installed beside the amd64 one)
set -euo pipefail
pkgs=(build-essential cmake pkg-config groff-base libopenblas-dev libplplot-dev plplot-driver-cairo libcjson-dev libsimde-dev liblapacke-dev libsqlite3-dev
      protobuf-c-compiler libprotobuf-c-dev libonnx-dev)
case "${1:-}" in
  "") ;;
  cross-aarch64)
    pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libopenblas-dev:arm64 liblapacke-dev:arm64
           libsqlite3-dev:arm64 libcjson-dev:arm64 libprotobuf-c-dev:arm64 libgomp1:arm64)
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
      $SUDO dpkg --add-architecture arm64
    fi ;;
  test) pkgs+=(chromium yosys libopenmpi-dev openmpi-bin clang libclang-rt-dev libomp-dev python3-torch python3-numpy python3-pytest python3-pandas python3-matplotlib python3-onnx)
        # Debian's nodejs and npm, unless node and npm are there already (e.g. NodeSource's nodejs,
        # which conflicts with Debian's npm)
        command -v node >/dev/null && command -v npm >/dev/null || pkgs+=(nodejs npm) ;;
  *) echo "scripts/deps.sh: unknown argument '$1' (expected none, 'test' or 'cross-aarch64')" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "nnt: installing ${missing[*]}" >&2
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ "${1:-}" = test ]; then
  # onnxruntime-node, pinned, from the npm registry (Debian packages no ONNX runtime). Its own
  # binaries ship in the package; ONNXRUNTIME_NODE_INSTALL=skip keeps its install script from
  # fetching the optional CUDA ones. Where the registry cannot be reached the ONNX runtime checks
  # are skipped, each with a line naming this (the marker file below tells tests/onnx/ort.py), and
  # the rest of the suite runs; NNT_REQUIRE_ONNXRUNTIME=1 makes that an error instead.
  ort_version=1.22.0
  node_dir="${NNT_NODE_DIR:-$HOME/.cache/nnt/node}"
  marker="$node_dir/onnxruntime-node.unavailable"
  if grep -qs "\"version\": \"$ort_version\"" "$node_dir/node_modules/onnxruntime-node/package.json"; then
    rm -f "$marker"
  else
    echo "nnt: installing onnxruntime-node@$ort_version under $node_dir" >&2
    mkdir -p "$node_dir"
    if ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$node_dir" --no-audit --no-fund --fetch-retries=1 \
         --fetch-timeout=60000 "onnxruntime-node@$ort_version" >"$node_dir/npm.log" 2>&1 &&
       grep -qs "\"version\": \"$ort_version\"" "$node_dir/node_modules/onnxruntime-node/package.json"; then
      rm -f "$marker"
    elif [ "${NNT_REQUIRE_ONNXRUNTIME:-0}" = 1 ]; then
      tail -n 20 "$node_dir/npm.log" >&2
      echo "nnt: npm could not install onnxruntime-node@$ort_version (log: $node_dir/npm.log), and NNT_REQUIRE_ONNXRUNTIME=1" >&2
      exit 1
    else
      echo "nnt: npm could not install onnxruntime-node@$ort_version (log: $node_dir/npm.log): the ONNX runtime checks will be skipped" >&2
      echo "npm install onnxruntime-node@$ort_version failed $(date -u +%FT%TZ); log: $node_dir/npm.log" >"$marker"
    fi
  fi
fi
