#!/usr/bin/env bash
# Configures and builds kernels-runtime standalone (CUDA toolkit, CMake and
# Ninja only; no LLVM/MLIR) into kernels-runtime/build.
#
#   kernels-runtime/build.sh [extra cmake arguments]
#   e.g. kernels-runtime/build.sh -DCMAKE_CUDA_ARCHITECTURES=90a
#
# Then:
#   kernels-runtime/build/attn-run --self-test
#   kernels-runtime/build/attn-run out/attention.json
#   ctest --test-dir kernels-runtime/build --output-on-failure
#
# ATTNRT_BUILD_DIR overrides the build directory, CMAKE_BUILD_TYPE the build
# type (default Release), ATTNRT_NLOHMANN_JSON_INCLUDE_DIR where nlohmann's
# header is when the system has none.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${ATTNRT_BUILD_DIR:-$here/build}"

args=()
# A directory holding nlohmann/json.hpp, for machines without Debian's
# nlohmann-json3-dev.
if [ -n "${ATTNRT_NLOHMANN_JSON_INCLUDE_DIR:-}" ]; then
  args+=("-DATTNRT_NLOHMANN_JSON_INCLUDE_DIR=$ATTNRT_NLOHMANN_JSON_INCLUDE_DIR")
fi
# nvcc is often not on PATH (e.g. /usr/local/cuda/bin).
if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null 2>&1; then
  for c in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc; do
    if [ -x "$c" ]; then
      args+=("-DCMAKE_CUDA_COMPILER=$c")
      break
    fi
  done
fi

cmake -G Ninja -S "$here" -B "$build" \
  -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" \
  ${args[@]+"${args[@]}"} "$@"
cmake --build "$build"
echo "build.sh: built $build/attn-run"
