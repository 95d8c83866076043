#!/usr/bin/env bash
# Validation and timing of the backward's head split with one or two Q / dO
# stages (#attn.grad_kernels query_stages; issue 19), in two halves:
#
#   bench/head_split_stages.sh generate [SEED]  # here (LLVM 22)
#   bench/head_split_stages.sh run              # on the H200 (carry
#                                               # bench/generated/head-split)
#
# generate writes bench/head_split_cases.py's steps and compiles them into
# bench/generated/head-split: random/ (as the chooser compiles them, even
# cases with --poison-shared-memory), fixed/ (query_stages = 1, each plain
# and poisoned), dynamic/, and time/<variant>/ (one, atomic2, sep2, auto).
# run builds kernels-runtime, validates the random and fixed steps against
# the float64 GPU reference (attn-run --train, fresh inputs per launch),
# times the backward alone per variant (attn-run, CUDA events) and forward
# + backward of one / auto beside PyTorch's backends (bench/bench_torch.py,
# one timer for all), then runs compute-sanitizer racecheck and synccheck
# on two fixed steps and dynamic/ at three size draws (in this order, so
# that a call cut short still reports the steps and the timing).
# VALIDATE=0 or BENCH=0 skip halves; SANITIZE=0 the sanitizer and sizes;
# REPEAT (launches per step, 3) and ROUNDS (timing rounds, 2) shorten a
# call. Exit status: the validation failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/head-split"
out="${OUT:-/tmp}"

generate() {
  local compile="$root/build/bin/attn-compile"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/head_split_cases.py" "$gen/mlir" ${1:+--seed "$1"}
  cp "$gen/mlir/SEED" "$gen/"
  local i=0 f n
  for f in "$gen"/mlir/random/*.mlir; do
    n=$(basename "$f" .mlir); mkdir -p "$gen/random"
    if [ $((i % 2)) -eq 0 ]; then
      "$compile" "$f" --chip=sm_90a --poison-shared-memory -o "$gen/random/$n.ptx" >/dev/null
    else
      "$compile" "$f" --chip=sm_90a -o "$gen/random/$n.ptx" >/dev/null
    fi
    i=$((i + 1))
  done
  for f in "$gen"/mlir/fixed/*.mlir; do
    n=$(basename "$f" .mlir); mkdir -p "$gen/fixed"
    "$compile" "$f" --chip=sm_90a -o "$gen/fixed/$n.ptx" >/dev/null
    "$compile" "$f" --chip=sm_90a --poison-shared-memory -o "$gen/fixed/${n}_poisoned.ptx" >/dev/null
  done
  for sub in dynamic time/one time/atomic2 time/sep2 time/auto; do
    mkdir -p "$gen/$sub"
    for f in "$gen/mlir/$sub"/*.mlir; do
      "$compile" "$f" --chip=sm_90a -o "$gen/$sub/$(basename "$f" .mlir).ptx" >/dev/null
    done
  done
  echo "head_split_stages.sh: compiled into $gen (seed $(cat "$gen/SEED"))"
}

run() {
  source "$root/bench/lib.sh"
  bench_build_runtime "$out/head-split-build.log"
  validate() { validate_steps "$gen/$1" "$2" "hs_$1" "${3:-}"; }
  sanitize() {
    local n
    for n in f_plain_q65_k129 f_causalbr_gqa2_q200_k333; do
      sanitize_step "$gen/fixed/$n.json" hs
    done
  }
  bench() {
    echo "== backward alone (attn-run, CUDA events), ms"
    local m n v r
    for m in "$gen"/time/auto/*.json; do
      n=$(basename "$m" .json)
      for r in $(seq "${ROUNDS:-2}"); do for v in one atomic2 sep2 auto; do
        [ -f "$gen/time/$v/$n.json" ] || continue
        "$R" "$gen/time/$v/$n.json" --train --no-validate --iters 20 --warmup 3 2>/dev/null |
          grep -o "fwd_ms=[^ ]* bwd_ms=[^ ]*" | head -1 | sed "s/^/$n $v r$r /"
      done; done
    done
    echo "== forward + backward beside PyTorch (bench_torch.py)"
    python3 "$root/bench/bench_torch.py" "$gen/time/one" "$gen/time/auto" 2>&1 |
      grep -v "Warning\|return F\|o = F\|run_backward"
  }
  # The steps first, then the timing, then the sanitizer and the run-time
  # sizes: a call cut short by its time limit still reports the first two.
  [ "${VALIDATE:-1}" != 0 ] && { validate random "${REPEAT:-3}"; validate fixed "${REPEAT:-3}"; }
  [ "${BENCH:-1}" != 0 ] && bench
  if [ "${VALIDATE:-1}" != 0 ] && [ "${SANITIZE:-1}" != 0 ]; then
    sanitize
    for sz in batch=1,query_len=1,key_len=1 batch=3,query_len=77,key_len=300 \
              batch=2,query_len=513,key_len=129; do
      validate dynamic 2 "$sz"
    done
  fi
  echo "head_split_stages.sh: validation failures: $fails"
  return $fails
}

case "${1:-}" in
  generate) shift; generate "$@" ;;
  run) run ;;
  *) echo "usage: $0 generate [SEED] | run" >&2; exit 2 ;;
esac
