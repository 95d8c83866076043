#!/usr/bin/env bash
# softcap_approx (tanh.approx.f32, docs/semantics.md section 3.1) on the
# H200, in two halves:
#
#   bench/softcap_approx.sh generate   # here (LLVM 22): compile
#   bench/softcap_approx.sh run        # on the H200 (carry bench/generated/softcap)
#
# generate compiles bench/softcap_cases.py's problems for sm_90a into
# bench/generated/softcap: validate/ (each plain and with
# --poison-shared-memory) and time/ (no softcap, exact, approximate).
# run builds kernels-runtime, measures tanh.approx.f32's error over every
# f32 input (bench/tanh_approx_error.cu), validates each training step
# against the float64 GPU reference (attn-run --train --repeat 3: fresh
# inputs per launch, the tolerances widened by that error bound), then
# times the three forms of each timing shape (attn-run --train, CUDA
# events, the same timer for all three). Exit status: the failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/softcap"
out="${OUT:-/tmp}"

generate() {
  local compile="$root/build/bin/attn-compile"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/softcap_cases.py" "$gen/mlir"
  mkdir -p "$gen/validate" "$gen/time"
  for f in "$gen/mlir/validate"/*.mlir; do
    local n; n=$(basename "$f" .mlir)
    "$compile" "$f" --chip=sm_90a -o "$gen/validate/$n.ptx" >/dev/null 2>>"$gen/remarks.txt"
    "$compile" "$f" --chip=sm_90a --poison-shared-memory \
      -o "$gen/validate/${n}_poisoned.ptx" >/dev/null 2>>"$gen/remarks.txt"
  done
  for f in "$gen/mlir/time"/*.mlir; do
    "$compile" "$f" --chip=sm_90a \
      -o "$gen/time/$(basename "$f" .mlir).ptx" >/dev/null 2>>"$gen/remarks.txt"
  done
  rm -rf "$gen/mlir"
  echo "softcap_approx.sh: compiled into $gen"
}

run() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0
  nvcc -O2 -arch=sm_90a "$root/bench/tanh_approx_error.cu" -o "$out/tanh_err" &&
    "$out/tanh_err"
  echo "== validate (attn-run --train --repeat 3)"
  for m in "$gen/validate"/*.json; do
    local n log; n=$(basename "$m" .json); log="$out/softcap_$n.log"
    "$attn_run" "$m" --train --repeat 3 --iters 1 --warmup 0 > "$log" 2>&1
    local rc=$?
    printf '%-28s rc=%s results=%s fails=%s worst_out=%s worst_lse=%s\n' "$n" "$rc" \
      "$(grep -c 'max rel err\|lse: max err' "$log")" "$(grep -c 'FAIL' "$log")" \
      "$(grep -o 'output: max rel err [0-9.e+-]*' "$log" | awk '{print $5}' | sort -g | tail -1)" \
      "$(grep -o 'lse: max err [0-9.e+-]*' "$log" | awk '{print $4}' | sort -g | tail -1)"
    [ "$rc" -eq 0 ] || { fails=$((fails + 1)); grep -m5 'FAIL' "$log"; }
  done
  if [ "${BENCH:-1}" = 1 ]; then
    echo "== time (attn-run --train --iters 20 --warmup 3; ms)"
    for m in "$gen/time"/*.json; do
      printf '%-24s ' "$(basename "$m" .json)"
      "$attn_run" "$m" --train --iters 20 --warmup 3 --no-validate 2>&1 |
        grep -m1 '^TRAIN' || echo "(no TRAIN line)"
    done
  fi
  echo "softcap_approx.sh: $fails failure(s)"
  return "$fails"
}

case "${1:-}" in
generate) shift; generate "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,16p' "$0"; exit 2 ;;
esac
