#!/usr/bin/env bash
# A/B timing of two builds of the same kernels, on the GPU machine:
#   bench/ab.sh DIR_A DIR_B [ROUNDS]
#   TRAIN=1 bench/ab.sh ...   training steps (attn-run --train: forward +
#                             backward group, its fwdbwd_ms)
#   ARGS="--seqlens-dist=longtail:16:128:4096 --seed 7" bench/ab.sh ...
#                             extra attn-run arguments (sizes, packed
#                             lengths), the same for A and B
# For every manifest NAME.json in DIR_A that DIR_B also has, runs attn-run
# (no validation, 10 warm-ups, median of 50 launches, CUDA events) on A and
# B alternately, ROUNDS times each (default 3), and prints the median of
# each side and B / A. A code change that should be timing-neutral (a
# refactor that reorders a few instructions) is checked this way: the same
# process kind, the same timer, interleaved so that clock drift hits both.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
a="$1"; b="$2"; rounds="${3:-3}"
run="$root/kernels-runtime/build/attn-run"
[ -x "$run" ] || bash "$root/kernels-runtime/build.sh" > /dev/null 2>&1 || exit 1
if [ -n "${TRAIN:-}" ]; then
  ms() { "$run" "$1" ${ARGS:-} --train --no-validate --warmup 10 --iters 50 2>/dev/null | grep -o " fwdbwd_ms=[0-9.]*" | head -1 | cut -d= -f2; }
else
  ms() { "$run" "$1" ${ARGS:-} --no-validate --warmup 10 --iters 50 2>/dev/null | grep -o " ms=[0-9.]*" | head -1 | cut -d= -f2; }
fi
printf "%-40s %10s %10s %7s\n" case A_ms B_ms B/A
for m in "$a"/*.json; do
  n=$(basename "$m"); [ -e "$b/$n" ] || continue
  ta=(); tb=()
  for ((r = 0; r < rounds; r++)); do ta+=("$(ms "$a/$n")"); tb+=("$(ms "$b/$n")"); done
  python3 - "${n%.json}" "${ta[*]}" "${tb[*]}" <<'PY'
import statistics, sys
name, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"{name:40s} {ma:10.4f} {mb:10.4f} {mb / ma:7.3f}")
PY
done
