#!/usr/bin/env bash
# Issue 20: the packed backward's warp-specialized (TMA) key-block kernel
# against its cp.async form on the variants where ptxas spills in the
# first (docs/performance.md, session 52), in two halves:
#
#   bench/varlen_ab.sh generate    # here (LLVM 22): compile A and B
#   bench/varlen_ab.sh run         # on the GPU machine (carry bench/generated/vlab)
#
# generate: one training pair (packed forward + its gradient, run-time batch
# and totals) per variant, compiled for sm_90a as users get them (B) and
# with --grad-tma=off (A, the cp.async form; the forward is the same).
# run: validates every B manifest (attn-run --train, fixed and long-tailed
# lengths, twice with fresh inputs), then times A against B
# (bench/ab.sh, TRAIN=1, 16 sequences log-uniform in [128, 4096]).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/vlab"
case "${1:-}" in
generate)
  set -e
  rm -rf "$gen"; mkdir -p "$gen/a" "$gen/b" "$gen/mlir"
  python3 - "$gen/mlir" "$root/bench" <<'PY'
import sys
out = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from varlen_pairs import write_training_pair
# name: (dtype, Hq, Hkv, D, Dv, attributes)
cases = {
    "d128_causal_gqa": ("bf16", 32, 8, 128, 128, "causal = #attn.causal<bottom_right>"),
    "d128_full_gqa": ("bf16", 32, 8, 128, 128, ""),
    "d128_softcap": ("bf16", 16, 16, 128, 128, "softcap = 30.0 : f32"),
    "d256_drop_causal": ("bf16", 16, 4, 256, 256, "causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32"),
    "d64_win_softcap_drop": ("f16", 8, 4, 64, 64, "window = array<i64: 100, 20>, softcap = 20.0 : f32, dropout_p = 0.2 : f32"),
}
for name, (dt, hq, hkv, d, dv, attrs) in cases.items():
    write_training_pair(f"{out}/{name}.mlir", name, dt, hq, hkv, d, dv, attrs, "dropout" in attrs)
PY
  "$root/scripts/build.sh" attn-compile > /dev/null
  for f in "$gen"/mlir/*.mlir; do
    n=$(basename "$f" .mlir)
    "$root/build/bin/attn-compile" "$f" --chip=sm_90a --grad-tma=off -o "$gen/a/$n.ptx" > /dev/null
    "$root/build/bin/attn-compile" "$f" --chip=sm_90a -o "$gen/b/$n.ptx" > /dev/null
  done
  echo "varlen_ab.sh: compiled $(ls "$gen"/b/*.ptx | wc -l) pairs into $gen/a and $gen/b" ;;
run)
  out="${OUT:-/tmp/varlen_ab}"; mkdir -p "$out"
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
  run="$root/kernels-runtime/build/attn-run" fails=0
  for m in "$gen"/b/*.json; do
    for d in "--seqlens-q=0,130,1,64,65 --seqlens-k=10,0,200,64,1" "--seqlens-dist=longtail:16:1:2000"; do
      # shellcheck disable=SC2086
      "$run" "$m" $d --train --repeat 2 --iters 1 --warmup 0 \
        --seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" >> "$out/validate.log" 2>&1 ||
        { fails=$((fails + 1)); echo "FAILED: $m $d"; }
    done
  done
  echo "validation: $(grep -Ec '^(TRAIN|GROUP|RESULT)' "$out/validate.log") results, $(grep -E '^(TRAIN|GROUP|RESULT)' "$out/validate.log" | grep -vc status=PASS) not passing"
  ARGS="--seqlens-dist=longtail:16:128:4096 --seed 7" TRAIN=1 bash "$root/bench/ab.sh" "$gen/a" "$gen/b" "${ROUNDS:-3}"
  exit $fails ;;
*) sed -n '2,14p' "$0"; exit 2 ;;
esac
