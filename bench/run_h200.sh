#!/usr/bin/env bash
# One invocation on the H200 machine (CUDA, CMake, ninja, PyTorch; no LLVM):
# builds kernels-runtime, checks its GPU reference against the CPU float64
# reference, validates every generated kernel of the validation suite, then
# benchmarks the grid side by side with PyTorch SDPA. Inputs come from
# bench/generate.sh run beforehand on a machine with LLVM 22:
#   bench/generate.sh sm_90a          # here
#   bench/run_h200.sh                 # there (carry bench/generated)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${GEN:-sm_90a}"
out="${OUT:-/tmp}"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
run="$root/kernels-runtime/build/attn-run"
echo "== attn-run --self-test (GPU reference vs CPU float64 reference)"
"$run" --self-test 2>&1 | tail -25
fails=0
for dir in "$gen" ${EXTRA_VALIDATE:-}; do
echo "== validation suite: $dir"
for m in "$dir"/validate/*.json; do
  "$run" "$m" --iters 3 --warmup 1 > "$out/$(basename "$m" .json).log" 2>&1
  rc=$?
  grep -h "^RESULT" "$out/$(basename "$m" .json).log" | sed 's/^RESULT //' | cut -c1-200
  [ $rc -eq 0 ] || { fails=$((fails+1)); echo "FAILED: $m"; tail -5 "$out/$(basename "$m" .json).log"; }
done
done
echo "validation failures: $fails"
if [ "${SKIP_BENCH:-0}" = 1 ]; then exit $fails; fi
echo "== benchmark"
python3 "$root/bench/bench.py" --attn-run "$run" --grid "$gen/grid" --out "$out"
exit $fails
