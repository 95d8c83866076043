#!/usr/bin/env bash
# Issue 21's GPU checks and benchmark of the split-KV forward group
# (flash-decoding with the query heads of a KV head packed into one tile;
# docs/kernel-manifest.md, "Split-KV forward groups"), in two halves:
#
#   bench/decode.sh generate [SEED]   # here (LLVM 22): compile
#   bench/decode.sh run               # on the GPU machine
#
# generate: decoding problems of every family (Lq in {1, 2, 3, 4, 5, 16},
# Lk from 1 to 40000 including lengths that no split divides, GQA ratios
# 1/2/4/8/16, bottom-right and top-left causal, windows, softcap, boolean
# and additive masks read per head and token, head dims 64/80/128/256 and
# D = 192 with Dv = 128, f16 and bf16, with and without lse, run-time batch
# and key length with a forced split count and with the count decided at
# launch), compiled for sm_90a as users
# get them (--split-kv=auto), with --poison-shared-memory, and for sm_80;
# plus the benchmark shapes (bf16, D = 128, Hq 32 / Hkv 8) with the split
# group, with the same group compiled for a run-time batch and key length
# (the chunk count decided at launch), with --split-kv=off (the
# one-kernel forward), with the mma.sync split stage (--mma=mma-sync) and
# with the wgmma one loading with TMA (--tma=on).
#
# run: builds kernels-runtime; every validation manifest runs several
# times with fresh inputs (--repeat 3) against the float64 GPU reference
# (output and lse; workspaces poisoned with NaN), the dynamic ones on
# three size draws; compute-sanitizer memcheck, racecheck and synccheck on
# small problems; then bench/bench_decode.py times ours against PyTorch's
# FLASH / CUDNN / EFFICIENT backends on the same tensors (TB/s of Q, K, V
# and O). Exit status: the number of failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${DECODE:-decode}"
mode="${1:-}"

generate() {
  local seed="${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  set -e
  rm -rf "$gen"; mkdir -p "$gen/mlir" "$gen/mlir-dyn" "$gen/mlir-launch" "$gen/mlir-bench" \
    "$gen/mlir-bench-launch"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 - "$gen" <<'PY'
import sys
out = sys.argv[1]
CB = "causal = #attn.causal<bottom_right>"
CT = "causal = #attn.causal<top_left>"
# name: (dtype, B, Hq, Hkv, Lq, Lk, D, Dv, attributes, mask (shape, type) or None, lse)
cases = {
    "dec_gqa4_lq1_8k": ("bf16", 8, 32, 8, 1, 8192, 128, 128, CB, None, True),
    "dec_gqa8_lq1_40k": ("bf16", 1, 8, 1, 1, 40000, 128, 128, "", None, True),
    "dec_mha_lq2_1000_d64": ("f16", 3, 4, 4, 2, 1000, 64, 64, CB, None, True),
    "dec_gqa4_lq16_4097": ("bf16", 2, 16, 4, 16, 4097, 128, 128, CB, None, True),
    "dec_gqa8_lq16_topleft": ("bf16", 2, 16, 2, 16, 3000, 128, 128, CT, None, True),
    "dec_gqa4_lk1": ("bf16", 4, 8, 2, 1, 1, 128, 128, CB, None, True),
    "dec_gqa4_lk7_lq3": ("f16", 2, 8, 2, 3, 7, 64, 64, CB, None, True),
    "dec_d80_window": ("bf16", 2, 8, 2, 4, 777, 80, 80, CB + ", window = array<i64: 100, 0>", None, True),
    "dec_d64_keypad_softcap": ("f16", 2, 4, 2, 3, 2000, 64, 64, "softcap = 30.0 : f32",
                               ((2, 1, 1, 2000), "i1"), True),
    "dec_d256": ("bf16", 1, 8, 2, 2, 5000, 256, 256, CB, None, True),
    "dec_additive_mask": ("bf16", 2, 8, 2, 1, 6000, 128, 128, "", ((2, 8, 1, 6000), "bf16"), False),
    "dec_bool_mask_per_token": ("f16", 2, 8, 2, 5, 3000, 64, 64, CB, ((1, 8, 5, 3000), "i1"), True),
    "dec_mla_192_128": ("bf16", 2, 16, 1, 1, 3333, 192, 128, "", None, True),
    "dec_window_both_lq4": ("f16", 1, 16, 4, 4, 9000, 128, 128, "window = array<i64: 700, 2>", None, True),
    "dec_gqa16_lq2": ("bf16", 2, 32, 2, 2, 2500, 96, 96, CB, None, True),
    # Packed rows that no TMA box covers (a row block starts inside a head
    # of G > 1: the wgmma stage copies with cp.async), and one head's rows
    # in two row blocks (box {64, 64, 1, 1}).
    "dec_gqa32_lq3_rows96": ("bf16", 1, 32, 1, 3, 2000, 128, 128, CB, None, True),
    "dec_mha_lq100": ("f16", 1, 4, 4, 100, 3000, 64, 64, CB, None, True),
}
def text(name, dt, b, hq, hkv, lq, lk, d, dv, attrs, mask, lse):
    q = f"tensor<{b}x{hq}x{lq}x{d}x{dt}>"
    k = f"tensor<{b}x{hkv}x{lk}x{d}x{dt}>"
    v = f"tensor<{b}x{hkv}x{lk}x{dv}x{dt}>"
    o = f"tensor<{b}x{hq}x{lq}x{dv}x{dt}>"
    l = f"tensor<{b}x{hq}x{lq}xf32>"
    args = f"%q: {q}, %k: {k}, %v: {v}"
    extra = ""
    if mask:
        mt = f"tensor<{'x'.join(map(str, mask[0]))}x{mask[1]}>"
        args += f", %m: {mt}"
        extra = f" mask(%m : {mt})"
    res, names = (f"{o}, {l}", "%o, %l") if lse else (o, "%o")
    attr = f" {{{attrs}}}" if attrs else ""
    return (f"func.func @{name}({args}) -> ({res}) {{\n"
            f"  {names} = attn.attention ins(%q, %k, %v : {q}, {k}, {v}){extra}{attr} -> {res}\n"
            f"  return {names} : {res}\n}}\n")
for name, c in cases.items():
    open(f"{out}/mlir/{name}.mlir", "w").write(text(name, *c))
# Run-time batch and key length (compiled with --split-kv=5).
dyn = {
    "dyn_gqa4_lq1": ("bf16", "?", 32, 8, 1, "?", 128, 128, CB, None, True),
    "dyn_gqa2_lq3_keypad": ("f16", "?", 4, 2, 3, "?", 64, 64, CB, (("?", 1, 1, "?"), "i1"), True),
}
for name, c in dyn.items():
    open(f"{out}/mlir-dyn/{name}.mlir", "w").write(text(name, *c))
# Run-time sizes under --split-kv=auto: the chunk count decided at launch
# (num_splits; atl_ = "at launch"; the prefix after it says which sizes are
# run-time ones: bk batch and key length, k key length, b batch).
launch = {
    "atl_bk_gqa4_lq1": ("bf16", "?", 32, 8, 1, "?", 128, 128, CB, None, True),
    "atl_bk_gqa8_lq2_window": ("f16", "?", 16, 2, 2, "?", 80, 80,
                               CB + ", window = array<i64: 300, 0>", None, True),
    "atl_k_gqa2_lq3_keypad": ("f16", 2, 4, 2, 3, "?", 64, 64, CB, ((2, 1, 1, "?"), "i1"), True),
    "atl_k_mla_192_128": ("bf16", 3, 16, 1, 1, "?", 192, 128, "", None, False),
    "atl_b_gqa8_lq16_d256": ("bf16", "?", 16, 2, 16, 3000, 256, 256, CT, None, True),
}
for name, c in launch.items():
    open(f"{out}/mlir-launch/{name}.mlir", "w").write(text(name, *c))
# Benchmark shapes (issue 21): bf16, D = 128, Hq 32 / Hkv 8, no causal
# rule (Lq = 1 sees the whole cache either way; PyTorch's is_causal is
# top-left).
for b, lq, lk in [(8, 1, 8192), (4, 1, 32768), (1, 1, 131072), (8, 16, 8192),
                  (16, 1, 4096), (32, 1, 8192), (64, 1, 2048)]:
    name = f"bench_b{b}_lq{lq}_lk{lk}"
    open(f"{out}/mlir-bench/{name}.mlir", "w").write(
        text(name, "bf16", b, 32, 8, lq, lk, 128, 128, "", None, False))
    # The same shape with a run-time batch and key length (bench_decode.py
    # binds them from the name; the chunk count is decided at launch).
    open(f"{out}/mlir-bench-launch/{name}.mlir", "w").write(
        text(name, "bf16", "?", 32, 8, lq, "?", 128, 128, "", None, False))
PY
  local compile="$root/build/bin/attn-compile"
  for variant in plain poison sm80; do
    mkdir -p "$gen/validate-$variant"
    for f in "$gen"/mlir/*.mlir "$gen"/mlir-dyn/*.mlir "$gen"/mlir-launch/*.mlir; do
      local n flags=(); n=$(basename "$f" .mlir)
      case $n in dyn_*) flags=(--split-kv=5) ;; esac
      case $variant in
        plain) "$compile" "$f" --chip=sm_90a "${flags[@]}" -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        poison) "$compile" "$f" --chip=sm_90a "${flags[@]}" --poison-shared-memory \
                  -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        sm80) "$compile" "$f" --chip=sm_80 "${flags[@]}" -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
      esac
    done
  done
  mkdir -p "$gen/bench-split" "$gen/bench-off" "$gen/bench-launch" "$gen/bench-sync" \
    "$gen/bench-tma"
  for f in "$gen"/mlir-bench/*.mlir; do
    local n; n=$(basename "$f" .mlir)
    "$compile" "$f" --chip=sm_90a -o "$gen/bench-split/$n.ptx" >/dev/null
    "$compile" "$f" --chip=sm_90a --split-kv=off -o "$gen/bench-off/$n.ptx" >/dev/null
    "$compile" "$f" --chip=sm_90a --mma=mma-sync -o "$gen/bench-sync/$n.ptx" >/dev/null
    "$compile" "$f" --chip=sm_90a --tma=on -o "$gen/bench-tma/$n.ptx" >/dev/null
    "$compile" "$gen/mlir-bench-launch/$n.mlir" --chip=sm_90a -o "$gen/bench-launch/$n.ptx" >/dev/null
  done
  echo "$seed" > "$gen/seed.txt"
  echo "decode.sh: compiled $(ls "$gen"/validate-plain/*.ptx | wc -l) problems x 3 builds and" \
    "$(ls "$gen"/bench-split/*.ptx | wc -l) benchmark shapes x 3 (seed $seed)"
}

run() {
  local out="${OUT:-/tmp/decode}"; mkdir -p "$out"
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0 seed
  seed=$(cat "$gen/seed.txt")
  echo "seed $seed"
  for dir in "$gen"/validate-*; do
    case " ${BUILDS:-plain poison sm80} " in *" ${dir##*validate-} "*) ;; *) continue ;; esac
    for m in "$dir"/*.json; do
      local n draws=("") i=0 rc=0; n="$(basename "$dir")/$(basename "$m" .json)"
      local log="$out/${n//\//_}.log"
      : > "$log"
      case $n in
        *dyn_*) draws=("--sizes batch=3,key_len=4321" "--sizes batch=1,key_len=1"
                       "--sizes batch=5,key_len=70000") ;;
        # The chunk count by the split rule at each draw, then forced
        # (1, 7 that divides nothing, 64 with most chunks empty).
        *atl_bk_*) draws=("--sizes batch=3,key_len=4321" "--sizes batch=1,key_len=1"
                          "--sizes batch=5,key_len=70000" "--sizes batch=1,key_len=131072"
                          "--sizes batch=40,key_len=999"
                          "--sizes batch=2,key_len=3000,num_splits=1"
                          "--sizes batch=2,key_len=3000,num_splits=7"
                          "--sizes batch=1,key_len=700,num_splits=64") ;;
        *atl_k_*) draws=("--sizes key_len=1" "--sizes key_len=777" "--sizes key_len=40000"
                         "--sizes key_len=5000,num_splits=3") ;;
        *atl_b_*) draws=("--sizes batch=1" "--sizes batch=7" "--sizes batch=2,num_splits=5") ;;
      esac
      for d in "${draws[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$attn_run" "$m" $d --seed $((seed + i)) --repeat 3 --iters 1 --warmup 0 >> "$log" 2>&1 || rc=1
      done
      local worst; worst=$(grep -ho "max_rel_err=[^ ]*" "$log" | sort -t= -k2 -g | tail -1)
      printf '%-44s results=%s fails=%s %s\n' "$n" \
        "$(grep -Ec '^(RESULT|GROUP)' "$log")" \
        "$(grep -E '^(RESULT|GROUP)' "$log" | grep -vc 'status=PASS')" "$worst"
      [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED: $n"; grep -i "fail\|error" "$log" | head -5; }
    done
  done
  if [ "${SANITIZE:-1}" = 1 ]; then
    echo "== compute-sanitizer"
    local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for n in dec_gqa4_lk7_lq3 dec_d80_window dec_bool_mask_per_token dyn_gqa2_lq3_keypad \
             atl_k_gqa2_lq3_keypad; do
      for tool in memcheck racecheck synccheck; do
        local d=""
        case $n in
          dyn_*) d="--sizes batch=2,key_len=333" ;;
          atl_*) d="--sizes key_len=333,num_splits=3" ;;
        esac
        # shellcheck disable=SC2086
        "$cs" --tool "$tool" --error-exitcode 9 "$attn_run" "$gen/validate-plain/$n.json" \
          $d --iters 1 --warmup 0 > "$out/cs_${n}_${tool}.log" 2>&1
        local rc=$?
        echo "$n $tool: rc=$rc $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/cs_${n}_${tool}.log" | head -1)"
        [ $rc -eq 0 ] || fails=$((fails + 1))
      done
    done
  fi
  if [ "${BENCH:-1}" = 1 ]; then
    echo "== benchmark (split-KV group, then with run-time sizes (S at launch), --split-kv=off," \
      "the mma.sync split stage (--mma=mma-sync) and the wgmma one with TMA (--tma=on))"
    python3 "$root/bench/bench_decode.py" "$gen/bench-split" "$gen/bench-launch" "$gen/bench-off" \
      "$gen/bench-sync" "$gen/bench-tma" \
      || fails=$((fails + 1))
  fi
  echo "failures: $fails"
  exit $fails
}

case "$mode" in
  generate) shift; generate "$@" ;;
  run) run ;;
  *) sed -n '2,24p' "$0"; exit 2 ;;
esac
