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
  bash "$root/kernels-runtime/build.sh" > "$out/head-split-build.log" 2>&1 ||
    { tail -20 "$out/head-split-build.log"; exit 1; }
  local R="$root/kernels-runtime/build/attn-run" fails=0
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  validate() { # dir repeat [sizes]
    local m n log bad tot
    for m in "$gen/$1"/*.json; do
      n=$(basename "$m" .json); log="$out/hs_$(basename "$1")_$n${3:-}.log"
      timeout 60 "$R" "$m" --train --repeat "$2" --iters 1 --warmup 0 \
        ${3:+--sizes "${3:-}"} > "$log" 2>&1
      local rc=$?
      bad=$(grep '^RESULT' "$log" | grep -vc 'status=PASS')
      tot=$(grep -c '^RESULT' "$log")
      echo "$1 $n ${3:-} rc=$rc results=$tot fails=$bad" \
        "$(grep -ho 'max_rel_err=[^ ]*' "$log" | sort -t= -k2 -g | tail -1)"
      { [ $rc -ne 0 ] || [ "$bad" != 0 ] || [ "$tot" = 0 ]; } && fails=$((fails + 1))
    done
  }
  sanitize() {
    local n t
    for n in f_plain_q65_k129 f_causalbr_gqa2_q200_k333; do
      for t in racecheck synccheck; do
        timeout 120 compute-sanitizer --tool $t --error-exitcode 9 "$R" \
          "$gen/fixed/$n.json" --train --iters 1 --warmup 0 > "$out/hs_cs_${n}_$t.log" 2>&1
        local rc=$?
        echo "sanitizer $n $t rc=$rc $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/hs_cs_${n}_$t.log" | head -1)"
        [ $rc -ne 0 ] && fails=$((fails + 1))
      done
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
