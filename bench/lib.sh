# Shared steps of the device-side bench scripts (source it; bash):
#   bench_build_runtime LOG   builds kernels-runtime (tail of LOG on failure),
#                             prints the GPU; sets R to attn-run
#   validate_steps DIR REPEAT TAG [SIZES]
#                             attn-run --train --repeat REPEAT on every
#                             manifest in DIR (fresh inputs per launch,
#                             float64 GPU reference; SIZES: --sizes), one
#                             line per step; adds the failures to `fails`
#   sanitize_step JSON TAG    compute-sanitizer racecheck and synccheck on
#                             one training step; adds failures to `fails`
# Logs go to $out (the caller's, default /tmp).
bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-${out:-/tmp}}"
fails=${fails:-0}

bench_build_runtime() {
  bash "$bench_root/kernels-runtime/build.sh" > "$1" 2>&1 ||
    { tail -20 "$1"; exit 1; }
  R="$bench_root/kernels-runtime/build/attn-run"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
}

validate_steps() {
  local m n log bad tot rc
  for m in "$1"/*.json; do
    n=$(basename "$m" .json); log="$out/${3}_$n${4:+_${4//[=,]/_}}.log"
    timeout 120 "$R" "$m" --train --repeat "$2" --iters 1 --warmup 0 \
      ${4:+--sizes "$4"} > "$log" 2>&1
    rc=$?
    bad=$(grep '^RESULT' "$log" | grep -vc 'status=PASS')
    tot=$(grep -c '^RESULT' "$log")
    echo "$3 $n ${4:-} rc=$rc results=$tot fails=$bad" \
      "$(grep -ho 'max_rel_err=[^ ]*' "$log" | sort -t= -k2 -g | tail -1)"
    { [ $rc -ne 0 ] || [ "$bad" != 0 ] || [ "$tot" = 0 ]; } && fails=$((fails + 1))
  done
  return 0
}

sanitize_step() {
  local t log rc
  for t in racecheck synccheck; do
    log="$out/${2}_cs_$(basename "$1" .json)_$t.log"
    timeout 180 compute-sanitizer --tool $t --error-exitcode 9 "$R" "$1" \
      --train --iters 1 --warmup 0 > "$log" 2>&1
    rc=$?
    echo "sanitizer $2 $(basename "$1" .json) $t rc=$rc" \
      "$(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log" | head -1)"
    [ $rc -ne 0 ] && fails=$((fails + 1))
  done
  return 0
}
