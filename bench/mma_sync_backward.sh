#!/usr/bin/env bash
# Validation and timing of the mma.sync backward with one stage of streamed
# tiles (query_stages / key_stages 1: sm_80 past D = Dv = 208, sm_86 / sm_89
# past 112) and its 32-key dq kernel (sm_80 past D = 192); issue 19. Two
# halves:
#
#   bench/mma_sync_backward.sh generate [SEED]  # here (LLVM 22)
#   bench/mma_sync_backward.sh run              # on the GPU (carry
#                                               # bench/generated/mma-sync-bwd)
#
# generate writes bench/mma_sync_backward_cases.py's steps and compiles them
# (as the chooser does, every other one with --poison-shared-memory) for
# sm_80 (sm80/, dynamic/), sm_86 (sm86/) and sm_90a (sm90/); the timing
# steps as
# time/<variant>/: sm80 (the chooser on sm_80: one stage at D = 256, two at
# 128), sm80cc (--kernel=cuda-core, sm_80's backward at D = 256 before) and
# sm86 (one stage at D = 128). The PTX runs on any later GPU (the driver
# JIT-compiles it), so an H200 checks it; its timings compare the variants
# with one another, not with an A100.
# run validates every step (attn-run --train, float64 GPU reference, fresh
# inputs per launch, REPEAT launches), times the variants (attn-run, CUDA
# events, ROUNDS rounds), then compute-sanitizer on two small steps and the
# dynamic steps at three size draws. Exit status: the failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/mma-sync-bwd"
out="${OUT:-/tmp}"

generate() {
  local compile="$root/build/bin/attn-compile" i=0 f n chip poison
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/mma_sync_backward_cases.py" "$gen/mlir" ${1:+--seed "$1"}
  cp "$gen/mlir/SEED" "$gen/"
  for sub in sm80 sm86 sm90 dynamic; do
    case $sub in sm86) chip=sm_86 ;; sm90) chip=sm_90a ;; *) chip=sm_80 ;; esac
    mkdir -p "$gen/$sub"
    for f in "$gen/mlir/$sub"/*.mlir; do
      n=$(basename "$f" .mlir); poison=()
      [ $((i % 2)) -eq 0 ] && poison=(--poison-shared-memory)
      "$compile" "$f" --chip=$chip "${poison[@]}" -o "$gen/$sub/$n.ptx" >/dev/null
      i=$((i + 1))
    done
  done
  mkdir -p "$gen/time/sm80" "$gen/time/sm80cc" "$gen/time/sm86"
  for f in "$gen"/mlir/time/*.mlir; do
    n=$(basename "$f" .mlir)
    "$compile" "$f" --chip=sm_80 -o "$gen/time/sm80/$n.ptx" >/dev/null
    "$compile" "$f" --chip=sm_86 -o "$gen/time/sm86/$n.ptx" >/dev/null
    case $n in d256*)
      "$compile" "$f" --chip=sm_80 --kernel=cuda-core -o "$gen/time/sm80cc/$n.ptx" >/dev/null ;;
    esac
  done
  echo "mma_sync_backward.sh: compiled into $gen (seed $(cat "$gen/SEED"))"
}

run() {
  source "$root/bench/lib.sh"
  bench_build_runtime "$out/mma-sync-bwd-build.log"
  if [ "${VALIDATE:-1}" != 0 ]; then
    validate_steps "$gen/sm80" "${REPEAT:-3}" sm80
    validate_steps "$gen/sm86" "${REPEAT:-3}" sm86
    validate_steps "$gen/sm90" "${REPEAT:-3}" sm90
  fi
  if [ "${BENCH:-1}" != 0 ]; then
    echo "== training step (attn-run, CUDA events), ms"
    local m n v r
    for m in "$gen"/time/sm80/*.json; do
      n=$(basename "$m" .json)
      for r in $(seq "${ROUNDS:-2}"); do for v in sm80 sm80cc sm86; do
        [ -f "$gen/time/$v/$n.json" ] || continue
        timeout 120 "$R" "$gen/time/$v/$n.json" --train --no-validate --iters 10 --warmup 2 2>/dev/null |
          grep -o "fwd_ms=[^ ]* bwd_ms=[^ ]*" | head -1 | sed "s/^/$n $v r$r /"
      done; done
    done
  fi
  if [ "${VALIDATE:-1}" != 0 ] && [ "${SANITIZE:-1}" != 0 ]; then
    for m in $(ls "$gen"/sm80/*.json | head -1) $(ls "$gen"/sm86/*.json | head -1); do
      sanitize_step "$m" sanitize
    done
    for sz in batch=1,query_len=1,key_len=1 batch=3,query_len=77,key_len=300 \
              batch=2,query_len=513,key_len=129; do
      validate_steps "$gen/dynamic" 2 dynamic "$sz"
    done
  fi
  echo "mma_sync_backward.sh: validation failures: $fails"
  return $fails
}

case "${1:-}" in
  generate) shift; generate "$@" ;;
  run) run ;;
  *) echo "usage: $0 generate [SEED] | run" >&2; exit 2 ;;
esac
