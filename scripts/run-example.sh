#!/usr/bin/env bash
# The main job: install, build, compile the shipped example attention and
# validate it.
#   1. attention-opt lowers examples/attention.mlir with attn-decompose (the
#      unfused reference) and attn-tile (online softmax);
#   2. attn-cpu-run JIT-compiles both forms on the CPU and compares them with
#      the independent C++ float64 reference on seeded random inputs;
#   3. attn-compile turns the example into PTX + a JSON manifest; ptxas
#      assembles it (register/spill report printed);
#   4. with a GPU, kernels-runtime's attn-run launches the PTX and validates
#      it against its GPU reference.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATTN_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/attention.mlir}"
chip="${CHIP:-sm_90a}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" attention-opt attn-cpu-run attn-compile

out="$build/example"
mkdir -p "$out"
echo "== attention-opt: decompose and tile $example"
"$build/bin/attention-opt" --attn-decompose "$example" -o "$out/decomposed.mlir"
"$build/bin/attention-opt" --attn-select-tiles="chip=$chip report" --attn-tile \
  "$example" -o "$out/tiled.mlir"
echo "== attn-cpu-run: reference decomposition on the CPU"
"$build/bin/attn-cpu-run" "$example" --seed=1
echo "== attn-cpu-run: online-softmax tiled form on the CPU"
"$build/bin/attn-cpu-run" "$example" --seed=2 \
  --lowering="attn-select-tiles{chip=$chip},attn-tile"
echo "== attn-compile: PTX for $chip"
"$build/bin/attn-compile" "$example" --chip="$chip" -o "$out/attention.ptx"
ptxas="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
if [ -x "$ptxas" ]; then
  "$ptxas" -arch="$chip" -v "$out/attention.ptx" -o "$out/attention.cubin" 2>&1 |
    grep -E "registers|spill"
else
  echo "ptxas not found: PTX not assembled (install the CUDA toolkit)"
fi
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "== attn-run: launch and validate on the GPU"
  bash "$root/kernels-runtime/build.sh" >/dev/null
  "$root/kernels-runtime/build/attn-run" "$out/attention.json"
else
  echo "== no GPU here: GPU launch skipped (validated on the CPU above)"
fi
