#!/usr/bin/env bash
# The persistent wgmma forward (attn-compile --persistent=on, experimental;
# docs/architecture.md) on the H200, in two halves:
#
#   bench/persistent.sh generate   # here (LLVM 22): compile
#   bench/persistent.sh run        # on the H200 (carry bench/generated/persistent)
#
# generate compiles into bench/generated/persistent:
#   validate/  bench/make_cases.py's forward validation suite with
#              --persistent=on --sm-count=3, each plain and with
#              --poison-shared-memory: three blocks, so that every block
#              loops over several tiles (odd tiles use the second Q buffer;
#              causal / window problems have tiles without keys);
#   on/, off/  timing shapes (the short-key-length cross-attentions of
#              session 31, grid-p23, a few grid shapes) with
#              --persistent=on (one block per SM) and off.
# run builds kernels-runtime, validates every kernel against the float64
# GPU reference (attn-run --repeat 3, fresh inputs per launch; a 60 s
# timeout per manifest, since a protocol bug shows as a hang), runs
# compute-sanitizer memcheck, racecheck and synccheck on three small ones,
# then times on/ and off/ beside PyTorch's backends (bench/bench_torch.py;
# BENCH=0 skips the timing, VALIDATE=0 the validation and the sanitizer).
# The inputs come from a fresh seed each run (printed; INPUT_SEED=N repeats
# a run), manifest k using seeds N + 10k onwards.
# Exit status: the failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/persistent"
out="${OUT:-/tmp}"

generate() {
  local compile="$root/build/bin/attn-compile"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"/validate "$gen"/on "$gen"/off "$gen"/mlir/time
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/make_cases.py" "$gen/mlir" >/dev/null
  ROOT="$root" python3 - "$gen/mlir/time" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from make_cases import attention
cases = [("sd_cross_f16", 8, 10, 10, 4096, 77, 64, 64, "f16"),
         ("sdxl_cross_d64", 16, 10, 10, 1024, 77, 64, 64, "f16"),
         ("short_lk128_d128", 4, 32, 32, 4096, 128, 128, 128, "bf16"),
         ("cross_lk300_d64", 8, 10, 10, 4096, 300, 64, 64, "bf16")]
for c in cases:
    open(os.path.join(sys.argv[1], c[0] + ".mlir"), "w").write(attention(*c))
PY
  for f in "$gen/mlir/validate"/*.mlir; do
    local n; n=$(basename "$f" .mlir)
    "$compile" "$f" --chip=sm_90a --persistent=on --sm-count=3 \
      -o "$gen/validate/$n.ptx" >/dev/null 2>>"$gen/remarks.txt"
    "$compile" "$f" --chip=sm_90a --persistent=on --sm-count=3 \
      --poison-shared-memory -o "$gen/validate/${n}_poisoned.ptx" \
      >/dev/null 2>>"$gen/remarks.txt"
  done
  for f in "$gen"/mlir/time/*.mlir "$gen"/mlir/grid-p23/*.mlir \
           "$gen"/mlir/grid/grid_bf16_d*_l4096_*.mlir \
           "$gen"/mlir/grid-hd/hd_d64_l4096_*.mlir; do
    for mode in on off; do
      "$compile" "$f" --chip=sm_90a --persistent=$mode \
        -o "$gen/$mode/$(basename "$f" .mlir).ptx" >/dev/null 2>>"$gen/remarks.txt"
    done
  done
  rm -rf "$gen/mlir"
  echo "persistent.sh: $(grep -l '"schedule": "persistent"' "$gen"/validate/*.json | wc -l) persistent of $(ls "$gen"/validate/*.json | wc -l) validation kernels in $gen"
}

run() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0 n=0
  local input_seed="${INPUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  echo "input seed $input_seed"
  [ "${VALIDATE:-1}" = 1 ] && for m in "$gen/validate"/*.json; do
    local name log; name=$(basename "$m" .json); log="$out/persistent_$name.log"
    timeout 60 "$attn_run" "$m" --seed $((input_seed + 10 * n)) --repeat 3 --iters 1 --warmup 0 > "$log" 2>&1
    local rc=$?; n=$((n + 1))
    if [ "$rc" -ne 0 ]; then
      fails=$((fails + 1))
      echo "FAIL $name rc=$rc$([ "$rc" -eq 124 ] && echo ' (timeout: a hang)')"
      grep -m3 'FAIL' "$log"
    fi
  done
  [ "${VALIDATE:-1}" = 1 ] && echo "validate: $n manifests, $fails failures"
  [ "${VALIDATE:-1}" = 1 ] && for name in v_gqa_bf16 v_causal_br_short_q v_window; do
    for tool in memcheck racecheck synccheck; do
      timeout 120 compute-sanitizer --tool "$tool" "$attn_run" \
        "$gen/validate/$name.json" --iters 1 --warmup 0 > "$out/san_${name}_$tool.log" 2>&1
      local rc=$?
      [ "$rc" -eq 0 ] || fails=$((fails + 1))
      echo "sanitize $name $tool rc=$rc $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/san_${name}_$tool.log")"
    done
  done
  if [ "${BENCH:-1}" = 1 ]; then
    for mode in off on; do
      echo "== $mode"
      (cd "$root/bench" && timeout 240 python3 bench_torch.py "$gen/$mode" 2>/dev/null |
         grep -v '^#')
    done
  fi
  echo "persistent.sh: $fails failure(s)"
  return "$fails"
}

case "${1:-}" in
generate) shift; generate "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,22p' "$0"; exit 2 ;;
esac
