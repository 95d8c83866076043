#!/usr/bin/env bash
# Issue 20's GPU checks of the kernels with run-time sizes, in two halves:
#
#   bench/dynamic.sh generate [CHIP] [SEED]   # here (LLVM 22): compile, draw sizes
#   bench/dynamic.sh run                      # on the GPU machine
#
# generate: bench/make_cases.py's validate-dyn and validate-dyn-bwd (one
# forward kernel or training step per family with "?" batch and lengths),
# compiled for CHIP (default sm_90a) as users get them and with
# --poison-shared-memory (NaN-filled shared memory at entry), and for
# sm_80; grid-dyn, grid-dyn-static, grid-dyn-bwd and grid-bwd-hd's D = 64 /
# 128 steps for the benchmark. Draws 12 (batch, query_len, key_len)
# triples: six fixed edge cases (1/1/1, Lq = 1 against 1000 keys, lengths
# below one tile, a multiple of the tiles, one past it, Lk < Lq) and six
# random ones from SEED (printed; lengths long-tailed up to 1500), into
# sizes.txt.
#
# run: builds kernels-runtime; each validate-dyn(-bwd) kernel of every
# build runs once per draw (attn-run --sizes, twice each with fresh inputs)
# against the float64 GPU reference; compute-sanitizer memcheck, racecheck
# and synccheck on three forward and three backward families at two small
# draws; then bench/bench_torch.py times the dynamic kernels beside the
# static ones (B8 H16 L4096: grid-hd; B32 L1024: grid-dyn-static; training
# steps B2 H16 L4096: grid-bwd-hd), ours and PyTorch's backends with the
# same timer. Exit status: the number of failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${DYN:-dyn}"
mode="${1:-}"

generate() {
  local chip="${1:-sm_90a}" seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/make_cases.py" "$gen/mlir"
  local compile="$root/build/bin/attn-compile"
  for variant in plain poison sm80; do
    mkdir -p "$gen/validate-$variant"
    for f in "$gen/mlir/validate-dyn"/*.mlir "$gen/mlir/validate-dyn-bwd"/*.mlir; do
      local n; n=$(basename "$f" .mlir)
      case $variant in
        plain) "$compile" "$f" --chip="$chip" -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        poison) "$compile" "$f" --chip="$chip" --poison-shared-memory \
                  -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        sm80) "$compile" "$f" --chip=sm_80 -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
      esac
    done
  done
  for sub in grid-dyn grid-dyn-static grid-hd grid-dyn-bwd grid-bwd-hd; do
    mkdir -p "$gen/$sub"
    for f in "$gen/mlir/$sub"/*.mlir; do
      # The static training steps that grid-dyn-bwd is compared with only.
      [[ $sub == grid-bwd-hd && ! $f =~ hdb_d(64|128)_ ]] && continue
      "$compile" "$f" --chip="$chip" -o "$gen/$sub/$(basename "$f" .mlir).ptx" >/dev/null
    done
  done
  rm -rf "$gen/mlir"
  python3 "$root/bench/draw_sizes.py" "$seed" > "$gen/sizes.txt"
  echo "dynamic.sh: compiled $(ls "$gen"/validate-plain/*.ptx | wc -l) kernels x 3 builds," \
    "grid-dyn, grid-dyn-static, grid-dyn-bwd, grid-bwd-hd; sizes (seed $seed):"
  grep -v '^#' "$gen/sizes.txt" | tr '\n' ' '; echo
}

run() {
  local out="${OUT:-/tmp/dyn}"; mkdir -p "$out"
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0
  local sizes=(); while read -r s; do [[ $s == \#* ]] || sizes+=(--sizes "$s"); done < "$gen/sizes.txt"
  head -1 "$gen/sizes.txt"
  for dir in "$gen"/validate-*; do
    for m in "$dir"/*.json; do
      local n; n="$(basename "$dir")/$(basename "$m" .json)"
      local log="$out/${n//\//_}.log"
      "$attn_run" "$m" "${sizes[@]}" --repeat 2 --iters 1 --warmup 0 > "$log" 2>&1
      local rc=$?
      local worst; worst=$(grep -ho "max_rel_err=[^ ]*" "$log" | sort -t= -k2 -g | tail -1)
      printf '%-40s draws=%s results=%s fails=%s %s\n' "$n" "$((${#sizes[@]} / 2))" \
        "$(grep -c '^RESULT' "$log")" "$(grep '^RESULT' "$log" | grep -vc 'status=PASS')" "$worst"
      [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED: $n"; grep -v "^RESULT\|^attn-run: \(sizes\|repeat\)" "$log" | grep -i "fail\|error" | head -5; }
    done
  done
  echo "== compute-sanitizer"
  local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for n in dyn_wgmma_mask dyn_dropout dyn_cuda_core_f32 dynb_atomic_mask dynb_separate_d64 \
           dynb_cuda_core_f32; do
    for tool in memcheck racecheck synccheck; do
      for s in batch=2,query_len=70,key_len=45 batch=1,query_len=130,key_len=1; do
        "$cs" --tool "$tool" --error-exitcode 9 "$attn_run" "$gen/validate-plain/$n.json" \
          --sizes "$s" --iters 1 --warmup 0 > "$out/cs_${n}_${tool}.log" 2>&1
        local rc=$?
        echo "$n $tool $s: rc=$rc $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/cs_${n}_${tool}.log" | head -1)"
        [ $rc -eq 0 ] || fails=$((fails + 1))
      done
    done
  done
  echo "validation failures: $fails"
  [ "${SKIP_BENCH:-0}" = 1 ] && exit $fails
  echo "== benchmark: B8 H16 L4096 (dynamic, then static grid-hd)"
  python3 "$root/bench/bench_torch.py" --sizes batch=8,query_len=4096,key_len=4096 \
    "$gen/grid-dyn" "$gen/grid-hd"
  echo "== benchmark: B32 H16 L1024 (dynamic, then static)"
  python3 "$root/bench/bench_torch.py" --sizes batch=32,query_len=1024,key_len=1024 \
    "$gen/grid-dyn" "$gen/grid-dyn-static"
  echo "== benchmark: training steps B2 H16 L4096 (dynamic, then static grid-bwd-hd)"
  python3 "$root/bench/bench_torch.py" --sizes batch=2,query_len=4096,key_len=4096 \
    "$gen/grid-dyn-bwd" "$gen/grid-bwd-hd"
  exit $fails
}

case "$mode" in
  generate) shift; generate "$@" ;;
  run) run ;;
  *) sed -n '2,25p' "$0"; exit 2 ;;
esac
