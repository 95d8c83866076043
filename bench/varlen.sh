#!/usr/bin/env bash
# Issue 20's GPU checks of the packed variable-length kernels
# (attn.varlen_attention and attn.varlen_attention_grad), in two halves:
#
#   bench/varlen.sh generate [CHIP] [SEED]   # here (LLVM 22): compile
#   bench/varlen.sh run                      # on the GPU machine
#
# generate: one training pair (packed forward saving lse + its gradient)
# per kernel family (wgmma and mma.sync, atomic and atomic-free backward
# groups, deterministic, GQA/MQA, causal modes, windows, softcap, Philox
# dropout, padded head dims 80 and 96, D = 256, D = 192 with Dv = 128, f16
# and bf16), with run-time batch and token totals (one kernel for every
# draw), compiled for CHIP (default sm_90a) as users get them, with
# --poison-shared-memory, and for sm_80.
#
# run: builds kernels-runtime; each kernel of every build runs on fixed
# length lists (one token; empty sequences on either side; lengths around
# the tiles; cross-attention with keys shorter and longer than queries), on
# long-tailed draws (16 sequences, log-uniform 1..2000, and 64 of 1..300)
# and on random splits of a total, each twice with fresh inputs and
# lengths (--repeat 2), against the float64 GPU reference of the packed
# form (the forward, and the backward group on the reference forward's
# output and lse); on three of the draws also as a training step
# (--train: the backward on the forward kernel's own output and lse); then
# compute-sanitizer memcheck, racecheck and synccheck on three families at
# small draws. Exit status: the number of failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${VARLEN:-varlen}"
mode="${1:-}"

generate() {
  local chip="${1:-sm_90a}" seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  set -e
  rm -rf "$gen"; mkdir -p "$gen/mlir"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 - "$gen/mlir" "$root/bench" <<'PY'
import sys
out = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from varlen_pairs import write_training_pair
# name: (dtype, Hq, Hkv, D, Dv, attributes, rng)
cases = {
    "vl_wgmma_gqa_causal": ("bf16", 32, 8, 128, 128, "causal = #attn.causal<bottom_right>", False),
    "vl_wgmma_d64_full": ("f16", 16, 16, 64, 64, "", False),
    "vl_wgmma_window_softcap": ("bf16", 8, 2, 64, 64,
                                "causal = #attn.causal<bottom_right>, window = array<i64: 100, 0>, softcap = 30.0 : f32", False),
    "vl_wgmma_d256_topleft": ("bf16", 4, 1, 256, 256, "causal = #attn.causal<top_left>", False),
    "vl_dropout": ("bf16", 8, 2, 128, 128, "causal = #attn.causal<bottom_right>, dropout_p = 0.15 : f32", True),
    "vl_dropout_d64_window": ("f16", 8, 4, 64, 64, "window = array<i64: 100, 20>, softcap = 20.0 : f32, dropout_p = 0.2 : f32", True),
    "vl_mma_d80": ("f16", 12, 4, 80, 80, "", False),
    "vl_window_both": ("f16", 8, 8, 64, 64, "window = array<i64: 33, 17>", False),
    "vl_deterministic_d128": ("bf16", 8, 4, 128, 128, "causal = #attn.causal<bottom_right>, deterministic", False),
    "vl_mma_d96_window": ("bf16", 8, 4, 96, 96, "causal = #attn.causal<bottom_right>, window = array<i64: 200, 0>", False),
    "vl_d192_dv128": ("bf16", 8, 8, 192, 128, "causal = #attn.causal<top_left>", False),
}
for name, (dt, hq, hkv, d, dv, attrs, rng) in cases.items():
    write_training_pair(f"{out}/{name}.mlir", name, dt, hq, hkv, d, dv, attrs, rng)
PY
  local compile="$root/build/bin/attn-compile"
  # BUILDS (as for run) and ONLY="NAME ..." (families) compile a part.
  for variant in ${BUILDS:-plain poison sm80}; do
    mkdir -p "$gen/validate-$variant"
    for f in "$gen/mlir"/*.mlir; do
      local n; n=$(basename "$f" .mlir)
      case " ${ONLY:-$n} " in *" $n "*) ;; *) continue ;; esac
      case $variant in
        plain) "$compile" "$f" --chip="$chip" -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        poison) "$compile" "$f" --chip="$chip" --poison-shared-memory \
                  -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        # D = 256: the backward tiles need more shared memory than sm_80
        # has, and packed batches have no CUDA-core backward (a diagnostic).
        sm80) [ "$n" = vl_wgmma_d256_topleft ] ||
                "$compile" "$f" --chip=sm_80 -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
      esac
    done
  done
  echo "$seed" > "$gen/seed.txt"
  echo "varlen.sh: compiled $(ls "$gen"/validate-plain/*.ptx | wc -l) kernels x $(echo ${BUILDS:-plain poison sm80} | wc -w) builds (seed $seed)"
}

run() {
  local out="${OUT:-/tmp/varlen}"; mkdir -p "$out"
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0 seed
  seed=$(cat "$gen/seed.txt")
  echo "seed $seed"
  local draws=(
    "--seqlens-q=1"
    "--seqlens-q=0,130,1,64,65 --seqlens-k=10,0,200,64,1"
    "--seqlens-q=127,128,129,255,256,257"
    "--seqlens-q=300,7,1000 --seqlens-k=5,900,1000"
    "--seqlens-q=1,1,1,1 --seqlens-k=1000,3,129,1"
    "--seqlens-dist=longtail:16:1:2000"
    "--seqlens-dist=longtail:64:1:300"
    "--sizes batch=7,query_len=3000,key_len=3000"
    "--sizes batch=3,query_len=50,key_len=4000"
  )
  # BUILDS="plain poison" (default: every build) and SANITIZE=0 split the
  # run across several device calls.
  for dir in "$gen"/validate-*; do
    case " ${BUILDS:-plain poison sm80} " in *" ${dir##*validate-} "*) ;; *) continue ;; esac
    for m in "$dir"/*.json; do
      local n; n="$(basename "$dir")/$(basename "$m" .json)"
      local log="$out/${n//\//_}.log" rc=0 i=0
      : > "$log"
      for d in "${draws[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$attn_run" "$m" $d --seed $((seed + i)) --repeat 2 --iters 1 --warmup 0 >> "$log" 2>&1 || rc=1
      done
      for d in "${draws[1]}" "${draws[5]}" "${draws[7]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$attn_run" "$m" $d --train --seed $((seed + i)) --iters 1 --warmup 0 >> "$log" 2>&1 || rc=1
      done
      local worst; worst=$(grep -ho "max_rel_err=[^ ]*" "$log" | sort -t= -k2 -g | tail -1)
      printf '%-44s results=%s fails=%s %s\n' "$n" \
        "$(grep -Ec '^(RESULT|GROUP|TRAIN)' "$log")" \
        "$(grep -E '^(RESULT|GROUP|TRAIN)' "$log" | grep -vc 'status=PASS')" "$worst"
      [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED: $n"; grep -i "fail\|error" "$log" | head -5; }
    done
  done
  [ "${SANITIZE:-1}" = 1 ] || { echo "validation failures: $fails"; exit $fails; }
  echo "== compute-sanitizer"
  local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for n in vl_wgmma_gqa_causal vl_dropout vl_mma_d96_window; do
    for tool in memcheck racecheck synccheck; do
      for d in "--seqlens-q=0,70,1,3 --seqlens-k=5,45,0,3" "--seqlens-q=130,2"; do
        # shellcheck disable=SC2086
        "$cs" --tool "$tool" --error-exitcode 9 "$attn_run" "$gen/validate-plain/$n.json" \
          $d --iters 1 --warmup 0 > "$out/cs_${n}_${tool}.log" 2>&1
        local rc=$?
        echo "$n $tool $d: rc=$rc $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/cs_${n}_${tool}.log" | head -1)"
        [ $rc -eq 0 ] || fails=$((fails + 1))
      done
    done
  done
  echo "validation failures: $fails"
  exit $fails
}

case "$mode" in
  generate) shift; generate "$@" ;;
  run) run ;;
  *) sed -n '2,21p' "$0"; exit 2 ;;
esac
