#!/usr/bin/env bash
# Times the backward of the grid for several code-generation variants side by
# side on the GPU machine (no PyTorch; bench/bench.py is the benchmark of
# record). Each argument is a directory that bench/generate.sh produced,
# e.g. with NAME=sm_90a-atomic FLAGS="--grad-dq=atomic"; its grid-bwd/
# training steps run with attn-run --train --no-validate (validate the same
# variants with bench/run_h200.sh, EXTRA_VALIDATE). DTYPE (default bf16)
# filters the shapes. Prints one line per shape: backward TFLOP/s per variant.
#   bench/compare_bwd.sh bench/generated/sm_90a bench/generated/sm_90a-atomic
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run="${ATTN_RUN:-$root/kernels-runtime/build/attn-run}"
dtype="${DTYPE:-bf16}"
[ $# -gt 0 ] || { echo "usage: $0 GENERATED_DIR..." >&2; exit 2; }
printf '%-40s' shape
for d in "$@"; do printf ' %16s' "$(basename "$d" | cut -c1-16)"; done
echo
for m in "$1"/grid-bwd/grid_bwd_"$dtype"_*.json; do
  n=$(basename "$m" .json)
  printf '%-40s' "$n"
  for d in "$@"; do
    t=$("$run" "$d/grid-bwd/$n.json" --train --no-validate --iters 20 \
      --warmup 3 2>&1 | grep -o ' bwd_tflops=[0-9.]*' | cut -d= -f2)
    printf ' %16s' "${t:-error}"
  done
  echo
done
