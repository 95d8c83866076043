#!/usr/bin/env bash
# Checks and benchmark of the warp-specialized TMA backward key-block kernel
# (attn-compile --grad-tma=on, the sm_90a default; issue 23), in two halves:
#
#   bench/grad_tma.sh generate [SEED]   # here (LLVM 22): compile, draw sizes
#   bench/grad_tma.sh run               # on the H200 (carry bench/generated/grad-tma)
#
# generate compiles into bench/generated/grad-tma:
#   validate-bwd/, validate-dyn-bwd/  the backward validation suites (training
#                             steps) with --grad-tma=on, each plain and with
#                             --poison-shared-memory (*.poisoned markers);
#   sanitize/                 the small backward problems for compute-sanitizer;
#   on/<set>, off/<set>       the training-step benchmark sets (grid-bwd,
#                             grid-bwd-hd) with --grad-tma=on and off (the
#                             forward kernels are the same), timed in one run;
#   sizes.txt                 run-time size draws (bench/draw_sizes.py) for
#                             validate-dyn-bwd.
# OFF_COMPILER and OFF_FLAGS change what off/ is (default: this build's
# attn-compile with --grad-tma=off), e.g. OFF_COMPILER=/tmp/attn-compile.old
# OFF_FLAGS= times this build's kernels against an earlier build's defaults.
# run builds kernels-runtime, validates every training step against the
# float64 GPU reference (attn-run --train --repeat 3: fresh inputs per
# launch; validate-dyn-bwd once per size draw), runs compute-sanitizer
# memcheck, racecheck and synccheck on sanitize/, then times on/ and off/
# beside PyTorch's backends (bench/bench_torch.py; BENCH=0 skips it,
# SETS="grid-bwd" picks sets, VALIDATE=0 skips the validation). Exit status:
# the failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${GRAD_TMA_GEN:-grad-tma}"
out="${OUT:-/tmp}"

generate() {
  local seed="${1:-$RANDOM$RANDOM}" compile="$root/build/bin/attn-compile"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/make_cases.py" "$gen/mlir"
  for sub in validate-bwd validate-dyn-bwd; do
    mkdir -p "$gen/$sub"
    for f in "$gen/mlir/$sub"/*.mlir; do
      local n; n=$(basename "$f" .mlir)
      "$compile" "$f" --chip=sm_90a --grad-tma=on -o "$gen/$sub/$n.ptx" >/dev/null
      "$compile" "$f" --chip=sm_90a --grad-tma=on --poison-shared-memory \
        -o "$gen/$sub/${n}_poisoned.ptx" >/dev/null
      touch "$gen/$sub/${n}_poisoned.poisoned"
    done
  done
  mkdir -p "$gen/sanitize"
  for f in "$gen/mlir/sanitize-bwd"/*.mlir; do
    "$compile" "$f" --chip=sm_90a --grad-tma=on \
      -o "$gen/sanitize/$(basename "$f" .mlir).ptx" >/dev/null
  done
  for tma in on off; do
    for sub in grid-bwd grid-bwd-hd; do
      mkdir -p "$gen/$tma/$sub"
      for f in "$gen/mlir/$sub"/*.mlir; do
        local cc="$compile" flags=(--grad-tma="$tma")
        if [ "$tma" = off ]; then
          cc="${OFF_COMPILER:-$compile}"
          read -r -a flags <<< "${OFF_FLAGS---grad-tma=off}"
        fi
        "$cc" "$f" --chip=sm_90a ${flags[@]+"${flags[@]}"} \
          -o "$gen/$tma/$sub/$(basename "$f" .mlir).ptx" >/dev/null
      done
    done
  done
  rm -rf "$gen/mlir"
  python3 "$root/bench/draw_sizes.py" "$seed" > "$gen/sizes.txt"
  echo "grad_tma.sh: compiled into $gen; sizes (seed $seed):"
  grep -v '^#' "$gen/sizes.txt" | tr '\n' ' '; echo
  echo "warp-specialized TMA key-block kernels: $(grep -l '_tensor_map' "$gen"/validate-bwd/*.json | wc -l) of $(ls "$gen"/validate-bwd/*.json | wc -l) validate-bwd manifests"
}

run() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0
  local sizes=(); while read -r s; do [[ $s == \#* ]] || sizes+=(--sizes "$s"); done < "$gen/sizes.txt"
  head -1 "$gen/sizes.txt"
  if [ "${VALIDATE:-1}" = 1 ]; then
  for sub in validate-bwd validate-dyn-bwd; do
    echo "== $sub (attn-run --train --repeat 3)"
    for m in "$gen/$sub"/${ONLY:-*}.json; do
      # The others have no warp-specialized kernel (f32, dropout on
      # mma.sync, packed): unchanged by --grad-tma.
      grep -q '_tensor_map' "$m" || continue
      local n log draw=()
      n=$(basename "$m" .json); log="$out/gt_${sub}_$n.log"
      [ "$sub" = validate-dyn-bwd ] && draw=("${sizes[@]}")
      timeout 120 "$attn_run" "$m" ${draw[@]+"${draw[@]}"} --train --repeat 3 --iters 1 --warmup 0 > "$log" 2>&1
      local rc=$?
      local results fl
      results=$(grep -c '^RESULT' "$log"); fl=$(grep '^RESULT' "$log" | grep -vc 'status=PASS')
      [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED (rc=$rc): $n"; grep -i "fail\|error" "$log" | head -5; continue; }
      [ "${QUIET:-0}" = 1 ] || printf '%-40s results=%s fails=%s worst=%s\n' "$n" "$results" "$fl" \
        "$(grep -o 'max_rel_err=[^ ]*' "$log" | sort -t= -k2 -g | tail -1)"
    done
    echo "$sub: cumulative failures $fails"
  done
  echo "== compute-sanitizer"
  for m in "$gen"/sanitize/*.json; do
    for tool in memcheck racecheck synccheck; do
      local log; log="$out/gt_san_$(basename "$m" .json)_$tool.log"
      timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$attn_run" "$m" \
        --train --iters 1 --warmup 0 > "$log" 2>&1
      local rc=$?
      printf '%-28s %-10s rc=%s %s\n' "$(basename "$m" .json)" "$tool" "$rc" \
        "$(grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" | head -1)"
      [ $rc -eq 0 ] || fails=$((fails + 1))
    done
  done
  echo "grad_tma.sh: validation failures $fails"
  fi
  if [ "${BENCH:-1}" = 1 ]; then
    for sub in ${SETS:-grid-bwd grid-bwd-hd}; do
      echo "== benchmark $sub: warp-specialized TMA (on) and cp.async (off) beside PyTorch"
      # Also into $OUT: the two halves of a set are long for a terminal's tail.
      python3 "$root/bench/bench_torch.py" "$gen/on/$sub" "$gen/off/$sub" 2>&1 |
        grep -v "Warning\|return Var\|scaled_dot_product" | tee "$out/grad_tma_$sub.txt"
    done
  fi
  return $fails
}

case "${1:-}" in
generate) shift; generate "$@" ;;
run) run ;;
*) sed -n '2,25p' "$0"; exit 2 ;;
esac
