#!/usr/bin/env bash
# Compiles the benchmark grid and the GPU validation suites to PTX + manifests
# (on the machine that has LLVM 22), into bench/generated/<chip>/, which
# bench/run_h200.sh consumes on the GPU machine:
#   grid/, validate/          forward kernels (attn.attention)
#   grid-hd/, grid-bwd-hd/    the head-dim sweep, forward and training
#                             steps (bench/bench_torch.py times them)
#   grid-bwd/, validate-bwd/  training steps: each file's forward kernel and
#                             the backward kernels (dkdv, dq) of its
#                             attn.attention_grad, which name it ("forward")
# A forward case that fails to compile stops the script; backward cases are
# all attempted, the failures listed, and the exit status is 1 if any failed.
# Variants: FLAGS adds attn-compile flags to every case, NAME names the output
# directory instead of <chip>, e.g.
#   NAME=sm_90a-atomic FLAGS="--grad-dq=atomic" bench/generate.sh sm_90a
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
chip="${1:-sm_90a}"
kernel="${2:-auto}"   # auto | tensor-core | cuda-core (attn-compile --kernel)
out="$root/bench/generated/${NAME:-$chip${2:+-$kernel}}"
read -r -a flags <<< "${FLAGS:-}"
rm -rf "$out"; mkdir -p "$out"
"$root/scripts/build.sh" attn-compile >/dev/null
python3 "$root/bench/make_cases.py" "$out/mlir"
compile() { # compile SUB NAME
  "$root/build/bin/attn-compile" "$out/mlir/$1/$2.mlir" --chip="$chip" \
    --kernel="$kernel" ${flags[@]+"${flags[@]}"} -o "$out/$1/$2.ptx" >/dev/null
}
for sub in grid grid-hd validate; do
  mkdir -p "$out/$sub"
  for f in "$out/mlir/$sub"/*.mlir; do
    compile "$sub" "$(basename "$f" .mlir)"
  done
done
failed=()
for sub in grid-bwd grid-bwd-hd validate-bwd; do
  mkdir -p "$out/$sub"
  for f in "$out/mlir/$sub"/*.mlir; do
    n=$(basename "$f" .mlir)
    if ! compile "$sub" "$n" 2>"$out/$sub/$n.err"; then
      failed+=("$sub/$n")
      echo "generate.sh: attn-compile failed on $sub/$n.mlir:" >&2
      head -5 "$out/$sub/$n.err" >&2
    else
      rm -f "$out/$sub/$n.err"
    fi
  done
done
count() { find "$out/$1" -name '*.ptx' | wc -l; }
echo "generated $(count grid) grid and $(count validate) validation kernels (forward)," \
  "$(count grid-bwd) grid and $(count validate-bwd) validation training steps (backward) in $out"
if [ ${#failed[@]} -gt 0 ]; then
  echo "generate.sh: ${#failed[@]} backward case(s) failed to compile: ${failed[*]}" >&2
  exit 1
fi
