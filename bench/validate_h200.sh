#!/usr/bin/env bash
# The device half of the validation (no benchmark): on the GPU machine, after
#   GEN=<dir> bench/validate_h200.sh prepare    # here: compile the suites
# run
#   bench/validate_h200.sh                      # there (carry bench/generated)
# 1. the fixed validation suites (bench/run_h200.sh with SKIP_BENCH=1:
#    attn-run --self-test, 29 forward kernels, every training step alone and
#    with --train);
# 2. the issue-17 regression (Lq = 129, Lk = 1, D = 128, f16, atomic dQ
#    group) launched 15 times with fresh inputs;
# 3. the randomized sweep and compute-sanitizer (bench/sweep.sh run).
# Prints a summary; exit status 0 when everything passed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="${GEN:-validate}"
if [ "${1:-}" = prepare ]; then
  set -e
  out="$root/bench/generated/$gen"
  rm -rf "$out"; mkdir -p "$out"
  python3 "$root/bench/make_cases.py" "$out/mlir"
  for sub in validate validate-bwd; do
    mkdir -p "$out/$sub"
    for f in "$out/mlir/$sub"/*.mlir; do
      "$root/build/bin/attn-compile" "$f" --chip="${CHIP:-sm_90a}" \
        -o "$out/$sub/$(basename "$f" .mlir).ptx" > /dev/null
    done
  done
  rm -rf "$out/mlir"
  echo "validate_h200.sh: compiled the validation suites into $out"
  exit 0
fi
out="${OUT:-/tmp}"
fails=0
GEN="$gen" SKIP_BENCH=1 bash "$root/bench/run_h200.sh" || fails=$((fails + $?))
echo "== issue 17 regression: Lq=129 Lk=1 D=128 f16 atomic dQ, 15 launches with fresh inputs"
m="$root/bench/generated/$gen/validate-bwd/vb_lk1_f16_d128.json"
"$root/kernels-runtime/build/attn-run" "$m" --seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" --train --repeat 15 --iters 1 --warmup 0 > "$out/lk1-repeat.log" 2>&1
rc=$?
grep -h "^RESULT.*stage=dq_convert" "$out/lk1-repeat.log" | grep -o "dq_err=[^ ]* .*nans=[^ ]* status=[^ ]*" | sed 's/^/  /'
grep -h "repeat(s) with fresh inputs" "$out/lk1-repeat.log"
[ $rc -eq 0 ] || fails=$((fails + 1))
bash "$root/bench/sweep.sh" run || fails=$((fails + $?))
echo "validate_h200.sh: failures $fails"
exit $fails
