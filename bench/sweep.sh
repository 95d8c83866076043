#!/usr/bin/env bash
# The randomized GPU validation sweep and the compute-sanitizer pass, in two
# halves (issue 17):
#
#   bench/sweep.sh generate [CHIP] [CASES] [SEED]   # here (LLVM 22): draw and compile
#   bench/sweep.sh run                              # on the GPU machine
# (SWEEP=NAME keeps several sweeps apart: bench/generated/NAME, default sweep)
#
# generate: bench/random_cases.py draws CASES problems (default 40) with a
# fresh seed (printed; SEED draws the same ones again), and attn-compile
# compiles each for CHIP (default sm_90a) into bench/generated/sweep/:
# even-numbered cases with --poison-shared-memory (each kernel fills its
# shared memory with NaN at entry, so that a read of an unwritten element
# fails on the first launch), odd ones as users get them. A case that
# attn-compile rejects although the op verifies is a failure too (listed in
# compile-failures.txt). The small per-family problems of bench/make_cases.py
# (sanitize/, sanitize-bwd/) are compiled for compute-sanitizer.
# RANDOM_CASES_FLAGS passes options to random_cases.py (e.g.
# "--families dropout --kind train" aims the draw at dropout's backward).
# ATTN_COMPILE_FLAGS adds attn-compile options to every compile (e.g.
# "--tma=on" sweeps the TMA-fed wgmma forward); ATTN_COMPILE=PATH compiles
# with that attn-compile instead of building build/bin/attn-compile.
#
# run: builds kernels-runtime, runs each case REPEAT times (default 4) with
# fresh inputs (attn-run --repeat; training steps with --train), prints one
# line per case (worst error of any output, NaN count, failing repeats), then
# compute-sanitizer memcheck, racecheck and synccheck on the sanitize
# problems (SANITIZE=0 skips them, SANITIZE=only runs only them). The inputs
# come from a fresh seed each run (printed; INPUT_SEED=N repeats a run).
# Exit status: the number of failures (0: all passed).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${SWEEP:-sweep}"
mode="${1:-}"

generate() {
  local chip="${1:-sm_90a}" cases="${2:-40}" seed="${3:-}"
  set -e
  rm -rf "$gen"; mkdir -p "$gen"
  local compile="${ATTN_COMPILE:-$root/build/bin/attn-compile}"
  [ -n "${ATTN_COMPILE:-}" ] || "$root/scripts/build.sh" attn-compile >/dev/null
  python3 "$root/bench/random_cases.py" "$gen/mlir" --cases "$cases" \
    ${seed:+--seed "$seed"} ${RANDOM_CASES_FLAGS:-}
  python3 "$root/bench/make_cases.py" "$gen/fixed"
  set +e
  : > "$gen/compile-failures.txt"
  local n=0
  for f in "$gen"/mlir/fwd/*.mlir "$gen"/mlir/train/*.mlir \
           "$gen"/fixed/sanitize/*.mlir "$gen"/fixed/sanitize-bwd/*.mlir; do
    local name sub flags=()
    [ -e "$f" ] || continue # an empty kind (--kind train draws no forward)
    name=$(basename "$f" .mlir)
    sub=$(basename "$(dirname "$f")")
    case "$sub" in sanitize*) ;; *)
      # rNNN_...: even NNN poisoned.
      [ $((10#${name:1:3} % 2)) -eq 0 ] && flags=(--poison-shared-memory) ;;
    esac
    mkdir -p "$gen/$sub"
    # shellcheck disable=SC2086 # ATTN_COMPILE_FLAGS: words on purpose
    if ! "$compile" "$f" --chip="$chip" ${flags[@]+"${flags[@]}"} ${ATTN_COMPILE_FLAGS:-} \
        -o "$gen/$sub/$name.ptx" > /dev/null 2> "$gen/$sub/$name.err"; then
      echo "$sub/$name: $(head -3 "$gen/$sub/$name.err" | tr '\n' ' ')" >> "$gen/compile-failures.txt"
    else
      rm -f "$gen/$sub/$name.err"
      [ ${#flags[@]} -gt 0 ] && touch "$gen/$sub/$name.poisoned"
      n=$((n + 1))
    fi
  done
  cp "$gen/mlir/cases.txt" "$gen/mlir/SEED" "$gen/"
  echo "sweep.sh: compiled $n cases for $chip into $gen (seed $(cat "$gen/SEED"))"
  if [ -s "$gen/compile-failures.txt" ]; then
    echo "sweep.sh: attn-compile rejected $(wc -l < "$gen/compile-failures.txt") case(s):"
    cat "$gen/compile-failures.txt"
  fi
}

# One case: attn-run --repeat, then a summary line from its RESULT lines.
run_case() { # MANIFEST TRAIN(0|1) REPEAT LOG
  local m="$1" train="$2" repeat="$3" log="$4"
  local flags=(--iters 1 --warmup 0 --repeat "$repeat" --seed "$((input_seed + case_index * 10))")
  [ "$train" = 1 ] && flags+=(--train)
  "$run" "$m" "${flags[@]}" > "$log" 2>&1
  local rc=$?
  python3 - "$log" "$rc" "$(basename "$m" .json)" "$([ -e "${m%.json}.poisoned" ] && echo poisoned || echo plain)" <<'EOF'
import re, sys
log, rc, name, poison = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
worst, nans, fails = 0.0, 0, 0
for line in open(log, errors="replace"):
    if not line.startswith("RESULT"):
        continue
    for key in ("max_rel_err", "dq_err", "dk_err", "dv_err", "lse_err"):
        m = re.search(rf" {key}=(\S+)", line)
        if m and m.group(1) not in ("nan", "-"):
            try:
                worst = max(worst, float(m.group(1)))
            except ValueError:
                pass
    m = re.search(r" nans=(\d+)", line)
    if m:
        nans += int(m.group(1))
    if " status=FAIL" in line:
        fails += 1
rep = re.findall(r"(\d+) repeat\(s\) with fresh inputs: (\d+) failed", open(log, errors="replace").read())
reps = f"{rep[-1][1]}/{rep[-1][0]} repeats failed" if rep else "no summary"
verdict = "ok" if rc == 0 else "FAIL"
print(f"SWEEP {name} {poison}: worst_err={worst:.3e} nans={nans} failing_results={fails} {reps} rc={rc} {verdict}")
EOF
  return $rc
}

run_all() {
  local out="${OUT:-/tmp}" repeat="${REPEAT:-4}" fails=0 case_index=0
  local input_seed="${INPUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  export PYTHONUNBUFFERED=1
  bash "$root/kernels-runtime/build.sh" > "$out/runtime-build.log" 2>&1 || { tail -30 "$out/runtime-build.log"; exit 1; }
  run="$root/kernels-runtime/build/attn-run"
  mkdir -p "$out/sweep-logs"
  if [ "${SANITIZE:-1}" != only ]; then
  echo "== randomized sweep, seed $(cat "$gen/SEED"), $repeat runs per case with fresh inputs (input seed $input_seed)"
  [ -s "$gen/compile-failures.txt" ] && { echo "compile failures:"; cat "$gen/compile-failures.txt"; fails=$((fails + $(wc -l < "$gen/compile-failures.txt"))); }
  for m in "$gen"/fwd/*.json "$gen"/train/*.json; do
    [ -e "$m" ] || continue
    local train=0; [[ "$m" == */train/* ]] && train=1
    grep -h "^$(basename "$m" .json) " "$gen/cases.txt" | cut -d' ' -f2-12 | sed 's/^/  /'
    run_case "$m" "$train" "$repeat" "$out/sweep-logs/$(basename "$m" .json).log" || fails=$((fails + 1))
    case_index=$((case_index + 1))
  done
  fi
  [ "${SANITIZE:-1}" = 0 ] && { echo "sweep failures: $fails"; return $fails; }
  echo "== compute-sanitizer (memcheck, racecheck, synccheck) on one small problem per kernel family"
  local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for m in "$gen"/sanitize/*.json "$gen"/sanitize-bwd/*.json; do
    [ -e "$m" ] || continue
    local flags=(--iters 1 --warmup 0); [[ "$m" == */sanitize-bwd/* ]] && flags+=(--train)
    for tool in memcheck racecheck synccheck; do
      local log="$out/sweep-logs/$(basename "$m" .json).$tool.log"
      "$cs" --tool "$tool" --error-exitcode 99 "$run" "$m" "${flags[@]}" > "$log" 2>&1
      local rc=$?
      local summary; summary=$(grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" | tail -1)
      echo "SANITIZE $(basename "$m" .json) $tool rc=$rc ${summary:-no summary}"
      [ $rc -eq 0 ] || { fails=$((fails + 1)); tail -20 "$log"; }
    done
  done
  echo "sweep failures: $fails"
  return $fails
}

case "$mode" in
  generate) shift; generate "$@" ;;
  run) run_all ;;
  *) echo "usage: bench/sweep.sh generate [CHIP] [CASES] [SEED] | run" >&2; exit 3 ;;
esac
