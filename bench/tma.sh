#!/usr/bin/env bash
# Issue 23's checks of the TMA-fed wgmma forward (attn-compile --tma=on), in
# two halves:
#
#   bench/tma.sh generate [SEED]   # here (LLVM 22): compile, draw sizes
#   bench/tma.sh run               # on the H200 (carry bench/generated/tma)
#
# generate compiles into bench/generated/tma:
#   validate/, validate-dyn/  the forward validation suites with --tma=on,
#                             each plain and with --poison-shared-memory
#                             (*.poisoned markers), so that a tile byte TMA
#                             did not write reads as NaN;
#   sanitize/                 small TMA problems for compute-sanitizer;
#   on/<set>, off/<set>       the benchmark sets (grid, grid-hd, grid-p23)
#                             with --tma=on and --tma=off, timed in one run;
#   sizes.txt                 run-time size draws (fixed ones, then random
#                             ones from SEED, printed) for validate-dyn.
# run builds kernels-runtime, validates every kernel against the float64 GPU
# reference (attn-run --repeat 3: fresh inputs per launch; validate-dyn once
# per size draw), runs compute-sanitizer memcheck, racecheck and synccheck
# on sanitize/, then times on/ and off/ beside PyTorch's backends
# (bench/bench_torch.py; BENCH=0 skips it). Exit status: the failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${TMA_GEN:-tma}"
out="${OUT:-/tmp}"

generate() {
  local seed="${1:-$RANDOM$RANDOM}" compile="$root/build/bin/attn-compile"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/make_cases.py" "$gen/mlir"
  for sub in validate validate-dyn; do
    mkdir -p "$gen/$sub"
    for f in "$gen/mlir/$sub"/*.mlir; do
      local n; n=$(basename "$f" .mlir)
      "$compile" "$f" --chip=sm_90a --tma=on -o "$gen/$sub/$n.ptx" >/dev/null
      "$compile" "$f" --chip=sm_90a --tma=on --poison-shared-memory \
        -o "$gen/$sub/${n}_poisoned.ptx" >/dev/null
      touch "$gen/$sub/${n}_poisoned.poisoned"
    done
  done
  mkdir -p "$gen/sanitize"
  for n in v_gqa_bf16 v_causal_br_short_q v_window v_mqa_f16_d128; do
    "$compile" "$gen/mlir/validate/$n.mlir" --chip=sm_90a --tma=on \
      -o "$gen/sanitize/$n.ptx" >/dev/null
  done
  for tma in on off; do
    for sub in grid grid-hd grid-p23; do
      mkdir -p "$gen/$tma/$sub"
      for f in "$gen/mlir/$sub"/*.mlir; do
        "$compile" "$f" --chip=sm_90a --tma=$tma \
          -o "$gen/$tma/$sub/$(basename "$f" .mlir).ptx" >/dev/null
      done
    done
  done
  rm -rf "$gen/mlir"
  python3 "$root/bench/draw_sizes.py" "$seed" > "$gen/sizes.txt"
  echo "tma.sh: compiled into $gen; sizes (seed $seed):"
  grep -v '^#' "$gen/sizes.txt" | tr '\n' ' '; echo
  grep -L '"loads": "tma"' "$gen"/validate/*.json | sed 's/^/  keeps cp.async: /'
}

run() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0
  local sizes=(); while read -r s; do [[ $s == \#* ]] || sizes+=(--sizes "$s"); done < "$gen/sizes.txt"
  head -1 "$gen/sizes.txt"
  for sub in validate validate-dyn; do
    echo "== $sub (attn-run --repeat 3)"
    for m in "$gen/$sub"/*.json; do
      local n log draw=()
      n=$(basename "$m" .json); log="$out/tma_${sub}_$n.log"
      [ "$sub" = validate-dyn ] && draw=("${sizes[@]}")
      "$attn_run" "$m" ${draw[@]+"${draw[@]}"} --repeat 3 --iters 1 --warmup 0 > "$log" 2>&1
      local rc=$?
      printf '%-36s results=%s fails=%s worst=%s\n' "$n" \
        "$(grep -c '^RESULT' "$log")" "$(grep '^RESULT' "$log" | grep -vc 'status=PASS')" \
        "$(grep -o 'max_rel_err=[^ ]*' "$log" | sort -t= -k2 -g | tail -1)"
      [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED: $n"; grep -i "fail\|error" "$log" | head -5; }
    done
  done
  echo "== compute-sanitizer"
  for m in "$gen"/sanitize/*.json; do
    for tool in memcheck racecheck synccheck; do
      local log; log="$out/tma_san_$(basename "$m" .json)_$tool.log"
      compute-sanitizer --tool "$tool" --error-exitcode 9 "$attn_run" "$m" \
        --iters 1 --warmup 0 > "$log" 2>&1
      local rc=$?
      printf '%-28s %-10s rc=%s %s\n' "$(basename "$m" .json)" "$tool" "$rc" \
        "$(grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" | head -1)"
      [ $rc -eq 0 ] || fails=$((fails + 1))
    done
  done
  echo "tma.sh: validation failures $fails"
  if [ "${BENCH:-1}" = 1 ]; then
    for sub in grid-p23 grid grid-hd; do
      echo "== benchmark $sub: TMA (on) and cp.async (off) beside PyTorch"
      python3 "$root/bench/bench_torch.py" "$gen/on/$sub" "$gen/off/$sub"
    done
  fi
  return $fails
}

case "${1:-}" in
generate) shift; generate "$@" ;;
run) run ;;
*) sed -n '2,23p' "$0"; exit 2 ;;
esac
