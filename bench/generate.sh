#!/usr/bin/env bash
# Compiles the benchmark grid and the GPU validation suite to PTX + manifests
# (on the machine that has LLVM 22), into bench/generated/<chip>/, which
# bench/run_h200.sh consumes on the GPU machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
chip="${1:-sm_90a}"
kernel="${2:-auto}"   # auto | tensor-core | cuda-core (attn-compile --kernel)
out="$root/bench/generated/$chip${2:+-$kernel}"
rm -rf "$out"; mkdir -p "$out"
"$root/scripts/build.sh" attn-compile >/dev/null
python3 "$root/bench/make_cases.py" "$out/mlir"
for sub in grid validate; do
  mkdir -p "$out/$sub"
  for f in "$out/mlir/$sub"/*.mlir; do
    n=$(basename "$f" .mlir)
    "$root/build/bin/attn-compile" "$f" --chip="$chip" --kernel="$kernel" \
      -o "$out/$sub/$n.ptx" >/dev/null
  done
done
echo "generated $(ls "$out"/grid/*.ptx | wc -l) grid and $(ls "$out"/validate/*.ptx | wc -l) validation kernels in $out"
