#!/usr/bin/env bash
# Real front-end IR on the GPU: the torch-mlir exports of
# test/Integration/raise/torch-mlir/ raised by attn-raise-pipeline (with the
# options of each test's RUN line) and compiled by attn-compile as a user
# would, then launched and validated by attn-run against the float64 GPU
# reference. In two halves:
#
#   bench/raised.sh generate [CHIP] [SEED]   # here (LLVM 22; SKIP_BUILD=1: as built)
#   bench/raised.sh run                      # on the GPU machine
#
# generate: one PTX + manifest per export into bench/generated/raised/
# (static/ and, for the exports with dynamic batch and lengths, dynamic/,
# one kernel for all sizes), and bench/draw_sizes.py's 12 (batch,
# query_len, key_len) draws from SEED (printed) into sizes.txt.
# run: builds kernels-runtime; each static kernel twice with fresh inputs,
# each dynamic kernel at every draw twice (attn-run --sizes --repeat 2);
# compute-sanitizer memcheck, racecheck and synccheck on two dynamic
# kernels (bf16 GQA on tensor cores, f32 causal) at two small draws.
# Exit status: the number of failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/raised"
mode="${1:-}"

generate() {
  local chip="${1:-sm_90a}" seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  set -e
  rm -rf "$gen"; mkdir -p "$gen/static" "$gen/dynamic"
  [ "${SKIP_BUILD:-0}" = 1 ] || "$root/scripts/build.sh" attention-opt attn-compile >/dev/null
  for f in "$root"/test/Integration/raise/torch-mlir/*.mlir; do
    # Exports whose test says they are not raised yet have nothing to run.
    grep -q '^// CHECK-NOT: attn.attention' "$f" && continue
    local n; n=$(basename "$f" .mlir); n=${n//./_}
    # The raising options of the test's first RUN line, if any.
    local opts; opts=$(sed -n 's/.*--attn-raise-pipeline="\([^"]*\)".*/\1/p' "$f" | head -1)
    local sub=static; [[ $n == *_dynamic* ]] && sub=dynamic
    "$root/build/bin/attention-opt" "$f" "--attn-raise-pipeline=$opts" |
      "$root/build/bin/attn-compile" - --chip="$chip" -o "$gen/$sub/$n.ptx" \
        >/dev/null 2>>"$gen/remarks.log"
  done
  python3 "$root/bench/draw_sizes.py" "$seed" > "$gen/sizes.txt"
  echo "raised.sh: compiled $(ls "$gen"/static/*.ptx | wc -l) static and" \
    "$(ls "$gen"/dynamic/*.ptx | wc -l) dynamic exports for $chip; sizes (seed $seed):"
  grep -v '^#' "$gen/sizes.txt" | tr '\n' ' '; echo
}

run() {
  local out="${OUT:-/tmp/raised}"; mkdir -p "$out"
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0
  local sizes=(); while read -r s; do [[ $s == \#* ]] || sizes+=(--sizes "$s"); done < "$gen/sizes.txt"
  head -1 "$gen/sizes.txt"
  for m in "$gen"/static/*.json "$gen"/dynamic/*.json; do
    local n; n=$(basename "$m" .json)
    local args=(); [[ $m == */dynamic/* ]] && args=("${sizes[@]}")
    "$attn_run" "$m" "${args[@]}" --repeat 2 --iters 1 --warmup 0 > "$out/$n.log" 2>&1
    local rc=$?
    local worst; worst=$(grep -ho "max_rel_err=[^ ]*" "$out/$n.log" | sort -t= -k2 -g | tail -1)
    printf '%-40s results=%s fails=%s %s\n' "$n" "$(grep -c '^RESULT' "$out/$n.log")" \
      "$(grep '^RESULT' "$out/$n.log" | grep -vc 'status=PASS')" "$worst"
    [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED: $n"; grep -i "fail\|error" "$out/$n.log" | head -5; }
  done
  echo "== compute-sanitizer (dynamic kernels, two small draws)"
  local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for n in llama_gqa_bf16_dynamic_linalg sdpa_causal_dynamic_linalg; do
    for tool in memcheck racecheck synccheck; do
      for s in batch=2,query_len=70,key_len=45 batch=1,query_len=130,key_len=1; do
        "$cs" --tool "$tool" --error-exitcode 9 "$attn_run" "$gen/dynamic/$n.json" \
          --sizes "$s" --iters 1 --warmup 0 > "$out/cs_${n}_${tool}.log" 2>&1
        local rc=$?
        echo "$n $tool $s: rc=$rc $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/cs_${n}_${tool}.log" | head -1)"
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
  *) sed -n '2,19p' "$0"; exit 2 ;;
esac
