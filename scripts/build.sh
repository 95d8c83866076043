#!/usr/bin/env bash
# Configures (once) and builds attention-opt into ./build with ninja.
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATTN_BUILD_DIR:-$root/build}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir "${launcher[@]}"
fi
ninja -C "$build" "$@"
