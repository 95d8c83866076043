#!/usr/bin/env bash
# f32 attention on the tensor cores in tf32 (attn-compile
# --f32-precision=tf32, issue 19; docs/semantics.md §2.1), in two halves:
#
#   bench/tf32.sh generate   # here (LLVM 22): compile
#   bench/tf32.sh run        # on the GPU (carry bench/generated/tf32)
#
# generate compiles into bench/generated/tf32:
#   validate/  bench/make_cases.py's forward validation suite with every
#              f16 / bf16 tensor made f32, compiled with
#              --f32-precision=tf32 for sm_90a and for sm_80 (run as PTX
#              JIT-compiled on the same GPU), each also with
#              --poison-shared-memory;
#   tf32/, ieee/  timing shapes in f32 with --f32-precision=tf32 (the
#              mma.sync tensor-core kernel) and ieee (the CUDA-core kernel).
# run builds kernels-runtime, validates every kernel against the float64
# GPU reference (attn-run --repeat 3, fresh inputs per launch), runs
# compute-sanitizer memcheck, racecheck and synccheck on three small ones,
# (JOBS=N: N manifests at a time), then times tf32/ and ieee/ beside PyTorch's backends (bench/bench_torch.py;
# for f32 only EFFICIENT_ATTENTION and the math backend take it; BENCH=0
# skips the timing, VALIDATE=0 the validation). Inputs from a fresh seed
# each run (printed; INPUT_SEED=N repeats it). Exit status: the failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/tf32"
out="${OUT:-/tmp}"

generate() {
  local compile="$root/build/bin/attn-compile"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"/validate "$gen"/tf32 "$gen"/ieee "$gen"/mlir/f32 "$gen"/mlir/time
  python3 "$root/bench/make_cases.py" "$gen/mlir" >/dev/null
  # The validation suite in f32 (masks keep their types).
  for f in "$gen/mlir/validate"/*.mlir; do
    sed -E 's/x(bf16|f16)>/xf32>/g' "$f" > "$gen/mlir/f32/$(basename "$f")"
  done
  ROOT="$root" python3 - "$gen/mlir/time" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from make_cases import attention
cases = [("f32_d64_l2048", 4, 16, 16, 2048, 2048, 64, 64, ""),
         ("f32_d128_l2048_causal", 4, 16, 16, 2048, 2048, 128, 128,
          "causal = #attn.causal<top_left>"),
         ("f32_vit_d80", 64, 16, 16, 257, 257, 80, 80, ""),
         ("f32_gqa_d128_l4096", 1, 32, 8, 4096, 4096, 128, 128,
          "causal = #attn.causal<bottom_right>"),
         ("f32_d256_l1024", 2, 8, 8, 1024, 1024, 256, 256, "")]
for n, b, hq, hkv, lq, lk, d, dv, attrs in cases:
    open(os.path.join(sys.argv[1], n + ".mlir"), "w").write(
        attention(n, b, hq, hkv, lq, lk, d, dv, "f32", attrs))
PY
  for f in "$gen/mlir/f32"/*.mlir; do
    local n; n=$(basename "$f" .mlir)
    for chip in sm_90a sm_80; do
      "$compile" "$f" --chip=$chip --f32-precision=tf32 \
        -o "$gen/validate/${n}_$chip.ptx" >/dev/null 2>>"$gen/remarks.txt"
      "$compile" "$f" --chip=$chip --f32-precision=tf32 --poison-shared-memory \
        -o "$gen/validate/${n}_${chip}_poisoned.ptx" >/dev/null 2>>"$gen/remarks.txt"
    done
  done
  for f in "$gen"/mlir/time/*.mlir; do
    for p in tf32 ieee; do
      "$compile" "$f" --chip=sm_90a --f32-precision=$p \
        -o "$gen/$p/$(basename "$f" .mlir).ptx" >/dev/null 2>>"$gen/remarks.txt"
    done
  done
  rm -rf "$gen/mlir"
  echo "tf32.sh: $(grep -l '"matmul_precision": "tf32"' "$gen"/validate/*.json | wc -l) tf32 of $(ls "$gen"/validate/*.json | wc -l) validation manifests in $gen"
}

run() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0 n=0
  local input_seed="${INPUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  echo "input seed $input_seed"
  # JOBS=N validates N manifests at a time (small problems share the GPU).
  [ "${VALIDATE:-1}" = 1 ] && {
    export attn_run input_seed out
    ls "$gen/validate"/*.json | awk '{print NR, $0}' |
      xargs -P "${JOBS:-1}" -L 1 sh -c '
        name=$(basename "$1" .json); log="$out/tf32_$name.log"
        timeout 60 "$attn_run" "$1" --seed $((input_seed + 10 * $0)) \
          --repeat 3 --iters 1 --warmup 0 > "$log" 2>&1
        rc=$?
        [ "$rc" -eq 0 ] || { echo "FAIL $name rc=$rc"; grep -m3 FAIL "$log"; }' \
      > "$out/tf32_failures.txt"
    n=$(ls "$gen/validate"/*.json | wc -l)
    fails=$(grep -c '^FAIL' "$out/tf32_failures.txt")
    cat "$out/tf32_failures.txt"
  }
  [ "${VALIDATE:-1}" = 1 ] && {
    echo "validate: $n manifests, $fails failures"
    echo "worst errors of the tf32 kernels (output rel, lse):"
    grep -l 'matmul_precision=tf32' "$out"/tf32_*.log | xargs grep -h 'output: max rel err' |
      awk '{print $5}' | sort -g | tail -1
    grep -l 'matmul_precision=tf32' "$out"/tf32_*.log | xargs grep -h 'lse: max err' |
      awk '{print $4}' | sort -g | tail -1
  }
  [ "${VALIDATE:-1}" = 1 ] && for name in v_causal_br_short_q_sm_80 v_window_sm_90a; do
    for tool in memcheck racecheck synccheck; do
      timeout 120 compute-sanitizer --tool "$tool" "$attn_run" \
        "$gen/validate/$name.json" --iters 1 --warmup 0 > "$out/san_${name}_$tool.log" 2>&1
      local rc=$?
      [ "$rc" -eq 0 ] || fails=$((fails + 1))
      echo "sanitize $name $tool rc=$rc $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/san_${name}_$tool.log")"
    done
  done
  if [ "${BENCH:-1}" = 1 ]; then
    for p in tf32 ieee; do
      echo "== $p"
      (cd "$root/bench" && timeout 200 python3 bench_torch.py "$gen/$p" 2>/dev/null |
         grep -v '^#')
    done
  fi
  echo "tf32.sh: $fails failure(s)"
  return "$fails"
}

case "${1:-}" in
generate) shift; generate "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,21p' "$0"; exit 2 ;;
esac
