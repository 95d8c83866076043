#!/usr/bin/env bash
# Installs what attention-opt needs to build and test: LLVM/MLIR 22 from
# Debian's packages, cmake, ninja, ccache, nlohmann-json (kernels-runtime
# reads manifests with it) and valgrind (scripts/memcheck.py). Idempotent: a second run only checks. CUDA 13
# (ptxas, driver-API stubs) is expected at /usr/local/cuda and is optional for
# the CPU-only parts.
set -euo pipefail

pkgs=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools cmake ninja-build ccache python3
  nlohmann-json3-dev valgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# lit's Python package: Debian ships it with llvm-22-tools; fall back to PyPI.
if [ ! -x /usr/lib/llvm-22/bin/lit ] && ! command -v lit >/dev/null; then
  python3 -m pip install -q 'lit==18.1.8'
fi
echo "install-deps: ok (LLVM $(/usr/lib/llvm-22/bin/llvm-config --version))"
