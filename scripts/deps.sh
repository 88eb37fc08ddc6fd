#!/usr/bin/env bash
# Installs the Debian packages nnt needs, only when one is missing.
# Each one and why: see README.md, "Dependencies".
set -euo pipefail
pkgs=(build-essential cmake pkg-config groff-base libopenblas-dev libplplot-dev plplot-driver-cairo libcjson-dev libsimde-dev liblapacke-dev libsqlite3-dev)
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
