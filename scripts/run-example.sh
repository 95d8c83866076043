#!/usr/bin/env bash
# The main job: install, build, compile the shipped example attention and
# validate it against the float64 reference.
#   - attention-opt lowers examples/attention.mlir (attn-decompose);
#   - attn-cpu-run JIT-compiles the op on the CPU and compares it with the
#     independent C++ float64 reference on seeded random inputs.
# The GPU path (PTX + kernels-runtime) is not built yet; see docs/architecture.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATTN_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/attention.mlir}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" attention-opt attn-cpu-run

mkdir -p "$build/example"
echo "== attention-opt --attn-decompose $example"
"$build/bin/attention-opt" --attn-decompose "$example" -o "$build/example/decomposed.mlir"
echo "   wrote $build/example/decomposed.mlir ($(grep -c linalg.generic "$build/example/decomposed.mlir") linalg.generic ops)"
echo "== attn-cpu-run $example (CPU, against the float64 reference)"
"$build/bin/attn-cpu-run" "$example" --seed=1
