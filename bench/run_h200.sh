#!/usr/bin/env bash
# One invocation on the H200 machine (CUDA, CMake, ninja, PyTorch; no LLVM):
# builds kernels-runtime, checks its GPU references (forward and gradient)
# against the CPU float64 references, validates every generated kernel of
# the validation suites, then benchmarks the grid side by side with PyTorch
# SDPA: forward, and (when bench/generate.sh produced grid-bwd) forward +
# backward and backward alone. Inputs come from bench/generate.sh run
# beforehand on a machine with LLVM 22:
#   bench/generate.sh sm_90a          # here
#   bench/run_h200.sh                 # there (carry bench/generated)
# SKIP_BENCH=1: validation only. EXTRA_VALIDATE: more generated directories
# whose validate/ and validate-bwd/ suites to run. The inputs come from a
# fresh seed each run (printed; INPUT_SEED=N repeats a run).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${GEN:-sm_90a}"
out="${OUT:-/tmp}"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
run="$root/kernels-runtime/build/attn-run"
echo "== attn-run --self-test (GPU references vs CPU float64 references)"
"$run" --self-test 2>&1 | tail -50
input_seed="${INPUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "== input seed $input_seed (INPUT_SEED=$input_seed repeats these inputs)"
k=0
fails=0
for dir in "$gen" ${EXTRA_VALIDATE:-}; do
echo "== validation suite: $dir"
for m in "$dir"/validate/*.json; do
  [ -e "$m" ] || continue
  k=$((k + 1))
  "$run" "$m" --seed $((input_seed + k)) --iters 3 --warmup 1 > "$out/$(basename "$m" .json).log" 2>&1
  rc=$?
  grep -h "^RESULT" "$out/$(basename "$m" .json).log" | sed 's/^RESULT //' | cut -c1-200
  [ $rc -eq 0 ] || { fails=$((fails+1)); echo "FAILED: $m"; tail -5 "$out/$(basename "$m" .json).log"; }
done
# Backward: each kernel alone (the backward kernels on the reference
# forward's output and lse), then as a training step (--train: the forward
# kernel's output and lse feed the backward kernels).
if compgen -G "$dir/validate-bwd/*.json" > /dev/null; then
echo "== backward validation suite: $dir/validate-bwd"
for m in "$dir"/validate-bwd/*.json; do
  n=$(basename "$m" .json)
  for mode in alone train; do
    flag=(); [ $mode = train ] && flag=(--train)
    log="$out/$n.$mode.log"
    k=$((k + 1))
    "$run" "$m" --seed $((input_seed + k)) ${flag[@]+"${flag[@]}"} --iters 3 --warmup 1 > "$log" 2>&1
    rc=$?
    if [ $mode = alone ]; then
      grep -h "^RESULT" "$log" | sed 's/^RESULT //' | cut -c1-200
    else
      grep -h "^TRAIN" "$log" | sed 's/ dtype=.* fwd_ms=/ ... fwd_ms=/' | cut -c1-260
    fi
    [ $rc -eq 0 ] || { fails=$((fails+1)); echo "FAILED ($mode): $m"; tail -5 "$log"; }
  done
done
fi
done
echo "validation failures: $fails"
if [ "${SKIP_BENCH:-0}" = 1 ]; then exit $fails; fi
echo "== benchmark"
bwd=()
if compgen -G "$gen/grid-bwd/*.json" > /dev/null; then bwd=(--grid-bwd "$gen/grid-bwd"); fi
python3 "$root/bench/bench.py" --attn-run "$run" --grid "$gen/grid" ${bwd[@]+"${bwd[@]}"} --out "$out"
exit $fails
