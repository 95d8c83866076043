#!/usr/bin/env bash
# Issue 21's GPU checks and benchmark of attn.paged_attention (a paged
# key/value cache read through a block table; docs/semantics.md section 15,
# docs/kernel-manifest.md "Paged key/value caches") and of
# attn.merge_partials (section 16), in two halves:
#
#   bench/paged.sh generate [SEED]   # here (LLVM 22): compile
#   bench/paged.sh run               # on the GPU machine
#
# generate: fixed families (page sizes 16 to 256, below, equal to and above
# the 64-key tiles; Lq 1, 2, 4, 16; GQA 1/4/8; bottom-right and top-left
# causal, windows, softcap; D 64/80/128/256 and 192/128; f16 and bf16; with
# and without lse; a run-time batch and page count, and a run-time block
# table width, run at several --sizes draws) plus RANDOM shapes drawn from
# SEED, each compiled for sm_90a, with --poison-shared-memory and for
# sm_80; plus the benchmark shapes (bf16, D = 128, Hq 32 / Hkv 8, page
# sizes 16, 64, 256), each also with every paged size at run time (timed
# against the static kernel), and the contiguous attn.attention of the
# same shapes; merge_partials kernels of several layouts and types (sm_90a
# and sm_80).
#
# run: kernels-runtime's attn-run on every validation manifest (3 launches
# with fresh inputs, cache lengths and shuffled block tables, against the
# float64 GPU reference; workspaces and outputs poisoned), then
# bench/bench_paged.py (its own float64 reference and PyTorch SDPA on the
# gathered cache as a peer, 3 fresh draws per manifest; then ours paged vs
# ours contiguous vs PyTorch's FLASH / CUDNN backends on the contiguous
# cache, same timer), compute-sanitizer on small problems; the merge kernels
# through attn-run and bench/bench_merge.py (float64 reference, the
# end-to-end identity, timing against PyTorch ops). Exit status: the number
# of failures.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gen="$root/bench/generated/${PAGED:-paged}"
mode="${1:-}"

generate() {
  local seed="${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
  set -e
  rm -rf "$gen"; mkdir -p "$gen/mlir" "$gen/mlir-bench" "$gen/mlir-bench-dyn" "$gen/mlir-contig" "$gen/mlir-merge"
  "$root/scripts/build.sh" attn-compile >/dev/null
  python3 - "$gen" "$seed" <<'PY'
import random, sys
out, seed = sys.argv[1], int(sys.argv[2])
CB = "causal = #attn.causal<bottom_right>"
CT = "causal = #attn.causal<top_left>"
# name: (dtype, B, Hq, Hkv, Lq, D, Dv, pages, page_size, max_pages, attributes, lse)
cases = {
    "pg_gqa4_lq1_ps16": ("bf16", 4, 32, 8, 1, 128, 128, 700, 16, 300, CB, True),
    "pg_gqa4_lq1_ps64": ("bf16", 3, 16, 4, 1, 128, 128, 200, 64, 90, CB, True),
    "pg_gqa8_lq1_ps256": ("f16", 2, 8, 1, 1, 128, 128, 60, 256, 40, "", True),
    "pg_mha_lq2_ps32_d64": ("f16", 3, 4, 4, 2, 64, 64, 100, 32, 40, CB, True),
    "pg_gqa4_lq16_ps128": ("bf16", 2, 16, 4, 16, 128, 128, 80, 128, 37, CB, True),
    "pg_gqa8_lq16_topleft": ("bf16", 2, 16, 2, 16, 128, 128, 90, 64, 50, CT, True),
    "pg_d80_window_ps16": ("bf16", 2, 8, 2, 4, 80, 80, 200, 16, 60, CB + ", window = array<i64: 100, 0>", True),
    "pg_d64_softcap_ps64": ("f16", 2, 4, 2, 3, 64, 64, 70, 64, 32, CB + ", softcap = 30.0 : f32", True),
    "pg_d256_ps32": ("bf16", 1, 8, 2, 2, 256, 256, 300, 32, 170, CB, True),
    "pg_mla_192_128_ps64": ("bf16", 2, 16, 1, 1, 192, 128, 120, 64, 55, "", True),
    "pg_window_both_lq4": ("f16", 2, 16, 4, 4, 128, 128, 150, 64, 70, "window = array<i64: 700, 2>", False),
    "pg_gqa16_lq2_d96": ("bf16", 2, 32, 2, 2, 96, 96, 100, 128, 30, CB, True),
}
rng = random.Random(seed)
for i in range(6):
    dt = rng.choice(["bf16", "f16"])
    hkv = rng.choice([1, 2, 4, 8]); g = rng.choice([1, 4, 8])
    d = rng.choice([64, 80, 128, 256]); lq = rng.choice([1, 2, 3, 4, 16])
    ps = rng.choice([16, 32, 64, 128, 256]); cap = rng.randint(1, 12000)
    mp = -(-cap // ps); b = rng.randint(1, 6)
    pages = rng.randint(max(1, mp // 2), b * mp + 3)
    attrs = rng.choice(["", CB, CT, CB + ", window = array<i64: %d, 0>" % rng.randint(0, 3000),
                        CB + ", softcap = 20.0 : f32"])
    cases[f"rnd{i}_{dt}_b{b}_h{hkv*g}x{hkv}_lq{lq}_d{d}_ps{ps}_mp{mp}"] = (
        dt, b, hkv * g, hkv, lq, d, d, pages, ps, mp, attrs, rng.random() < 0.7)
def text(name, dt, b, hq, hkv, lq, d, dv, pages, ps, mp, attrs, lse):
    q = f"tensor<{b}x{hq}x{lq}x{d}x{dt}>"
    k = f"tensor<{pages}x{ps}x{hkv}x{d}x{dt}>"
    v = f"tensor<{pages}x{ps}x{hkv}x{dv}x{dt}>"
    t, n = f"tensor<{b}x{mp}xi32>", f"tensor<{b}xi32>"
    o = f"tensor<{b}x{hq}x{lq}x{dv}x{dt}>"
    l = f"tensor<{b}x{hq}x{lq}xf32>"
    res, names = (f"{o}, {l}", "%o, %l") if lse else (o, "%o")
    attr = f" {{{attrs}}}" if attrs else ""
    return (f"func.func @{name}(%q: {q}, %kc: {k}, %vc: {v}, %t: {t}, %n: {n}) -> ({res}) {{\n"
            f"  {names} = attn.paged_attention ins(%q : {q}) cache(%kc, %vc : {k}, {v})"
            f" pages(%t, %n : {t}, {n}){attr} -> {res}\n"
            f"  return {names} : {res}\n}}\n")
def dense(name, dt, b, hq, hkv, lq, lk, d):
    q, k, o = (f"tensor<{b}x{hq}x{lq}x{d}x{dt}>", f"tensor<{b}x{hkv}x{lk}x{d}x{dt}>",
               f"tensor<{b}x{hq}x{lq}x{d}x{dt}>")
    return (f"func.func @{name}(%q: {q}, %k: {k}, %v: {k}) -> {o} {{\n"
            f"  %o = attn.attention ins(%q, %k, %v : {q}, {k}, {k}) -> {o}\n"
            f"  return %o : {o}\n}}\n")
# A run-time batch and page count (one group for every batch and pool size;
# the split count decided at launch): pgd_ ("d" for dynamic), run by
# attn-run at several --sizes draws.
cases["pgd_gqa4_lq1_ps64"] = ("bf16", "?", 32, 8, 1, 128, 128, "?", 64, 100, CB, True)
cases["pgd_mha_lq3_ps16_d80"] = ("f16", "?", 4, 4, 3, 80, 80, "?", 16, 40,
                                 CB + ", window = array<i64: 200, 0>", False)
# The block table's width at run time too (pgw_all_: batch, pages and
# width; pgw_width_: the width alone), as a server's table grows with its
# longest sequence.
cases["pgw_all_gqa4_lq1_ps64"] = ("bf16", "?", 32, 8, 1, 128, 128, "?", 64, "?", CB, True)
cases["pgw_width_gqa8_lq16_ps16"] = ("f16", 3, 16, 2, 16, 128, 128, 400, 16, "?",
                                     CB + ", window = array<i64: 300, 0>", True)
for name, c in cases.items():
    open(f"{out}/mlir/{name}.mlir", "w").write(text(name, *c))
# Benchmark: every sequence's cache full (lengths = capacity), no causal rule
# (Lq = 1 sees the whole cache either way), pages exactly the batch's.
for b, lq, lk in [(8, 1, 8192), (4, 1, 32768), (1, 1, 131072), (8, 16, 8192), (32, 1, 8192)]:
    for ps in (16, 64, 256):
        mp = lk // ps
        name = f"bench_b{b}_lq{lq}_lk{lk}_ps{ps}"
        open(f"{out}/mlir-bench/{name}.mlir", "w").write(
            text(name, "bf16", b, 32, 8, lq, 128, 128, b * mp, ps, mp, "", False))
        dyn = f"dyn_b{b}_lq{lq}_lk{lk}_ps{ps}"
        open(f"{out}/mlir-bench-dyn/{dyn}.mlir", "w").write(
            text(dyn, "bf16", "?", 32, 8, lq, 128, 128, "?", ps, "?", "", False))
    name = f"contig_b{b}_lq{lq}_lk{lk}"
    open(f"{out}/mlir-contig/{name}.mlir", "w").write(dense(name, "bf16", b, 32, 8, lq, lk, 128))
# attn.merge_partials: name: (S, rows dims, Dv, partial type, output type, lse)
merges = {
    "merge_splitkv_layout": (8, (4, 32, 1), 128, "f32", "bf16", True),
    "merge_bf16_to_f32_d256": (2, (1000, 16), 256, "bf16", "f32", True),
    "merge_f16_s64_d80": (64, (3,), 80, "f16", "f16", False),
    "merge_one_partial": (1, (7,), 8, "f32", "f32", True),
}
for i in range(3):
    s_ = rng.choice([1, 2, 3, 5, 8, 16]); dims = tuple(rng.randint(1, 40) for _ in range(rng.randint(1, 3)))
    merges[f"merge_rnd{i}"] = (s_, dims, rng.choice([8, 40, 64, 96, 128, 200]),
                               rng.choice(["f32", "bf16", "f16"]), rng.choice(["f32", "bf16", "f16"]),
                               rng.random() < 0.7)
for name, (s_, dims, dv, pt, ot, lse) in merges.items():
    rows = "x".join(map(str, dims))
    po, pl = f"tensor<{s_}x{rows}x{dv}x{pt}>", f"tensor<{s_}x{rows}xf32>"
    o, l = f"tensor<{rows}x{dv}x{ot}>", f"tensor<{rows}xf32>"
    res, names = (f"{o}, {l}", "%o, %l") if lse else (o, "%o")
    open(f"{out}/mlir-merge/{name}.mlir", "w").write(
        f"func.func @{name}(%po: {po}, %pl: {pl}) -> ({res}) {{\n"
        f"  {names} = attn.merge_partials ins(%po, %pl : {po}, {pl}) -> {res}\n"
        f"  return {names} : {res}\n}}\n")
PY
  local compile="$root/build/bin/attn-compile"
  for variant in plain poison sm80; do
    mkdir -p "$gen/validate-$variant"
    for f in "$gen"/mlir/*.mlir; do
      local n; n=$(basename "$f" .mlir)
      case $variant in
        plain) "$compile" "$f" --chip=sm_90a -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        poison) "$compile" "$f" --chip=sm_90a --poison-shared-memory \
                  -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
        sm80) "$compile" "$f" --chip=sm_80 -o "$gen/validate-$variant/$n.ptx" >/dev/null ;;
      esac
    done
  done
  mkdir -p "$gen/bench" "$gen/contig"
  mkdir -p "$gen/bench-dyn"
  for f in "$gen"/mlir-bench/*.mlir; do
    "$compile" "$f" --chip=sm_90a -o "$gen/bench/$(basename "$f" .mlir).ptx" >/dev/null
  done
  for f in "$gen"/mlir-bench-dyn/*.mlir; do
    "$compile" "$f" --chip=sm_90a -o "$gen/bench-dyn/$(basename "$f" .mlir).ptx" >/dev/null
  done
  for f in "$gen"/mlir-contig/*.mlir; do
    "$compile" "$f" --chip=sm_90a -o "$gen/contig/$(basename "$f" .mlir).ptx" >/dev/null
  done
  for variant in sm90a sm80; do
    mkdir -p "$gen/merge-$variant"
    for f in "$gen"/mlir-merge/*.mlir; do
      "$compile" "$f" --chip="$([ $variant = sm80 ] && echo sm_80 || echo sm_90a)" -o "$gen/merge-$variant/$(basename "$f" .mlir).ptx" >/dev/null
    done
  done
  echo "$seed" > "$gen/seed.txt"
  echo "paged.sh: compiled $(ls "$gen"/validate-plain/*.ptx | wc -l) problems x 3 builds," \
    "$(ls "$gen"/bench/*.ptx | wc -l) paged and $(ls "$gen"/contig/*.ptx | wc -l) contiguous" \
    "benchmark shapes (seed $seed)"
}

run() {
  local out="${OUT:-/tmp/paged}"; mkdir -p "$out"
  bash "$root/kernels-runtime/build.sh" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  local attn_run="$root/kernels-runtime/build/attn-run" fails=0 seed
  seed=$(cat "$gen/seed.txt")
  echo "seed $seed"
  for dir in "$gen"/validate-*; do
    for m in "$dir"/*.json; do
      local n log rc=0; n="$(basename "$dir")/$(basename "$m" .json)"
      log="$out/${n//\//_}.log"
      local draws=("") i=0
      case $n in
        # Batches 1 to 40, pools smaller than one sequence's capacity (pages
        # shared) and larger; the split count by the rule, then forced.
        */pgd_*) draws=("--sizes batch=3,num_pages=250" "--sizes batch=1,num_pages=1"
                        "--sizes batch=40,num_pages=700" "--sizes batch=2,num_pages=90,num_splits=7") ;;
        # Widths from one page (64 keys) to 2048 (128k keys), pools shared.
        */pgw_all_*) draws=("--sizes batch=3,num_pages=250,max_pages_per_seq=100"
                            "--sizes batch=1,num_pages=1,max_pages_per_seq=1"
                            "--sizes batch=4,num_pages=3000,max_pages_per_seq=2048"
                            "--sizes batch=2,num_pages=90,max_pages_per_seq=37,num_splits=7") ;;
        */pgw_width_*) draws=("--sizes max_pages_per_seq=1" "--sizes max_pages_per_seq=25"
                              "--sizes max_pages_per_seq=400" "--sizes max_pages_per_seq=13,num_splits=3") ;;
      esac
      : > "$log"
      for d in "${draws[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$attn_run" "$m" $d --seed $((seed + i)) --repeat 3 --iters 1 --warmup 0 >> "$log" 2>&1 || rc=1
      done
      local worst; worst=$(grep -ho "max_rel_err=[^ ]*" "$log" | sort -t= -k2 -g | tail -1)
      printf '%-58s results=%s fails=%s %s\n' "$n" \
        "$(grep -Ec '^(RESULT|GROUP)' "$log")" \
        "$(grep -E '^(RESULT|GROUP)' "$log" | grep -vc 'status=PASS')" "$worst"
      [ $rc -eq 0 ] || { fails=$((fails + 1)); echo "FAILED: $n"; grep -i "fail\|error" "$log" | head -5; }
    done
  done
  echo "== bench_paged.py: float64 reference and SDPA peer, 3 fresh draws each"
  python3 "$root/bench/bench_paged.py" check "$gen"/validate-plain/*.json || fails=$((fails + 1))
  if [ "${SANITIZE:-1}" = 1 ]; then
    echo "== compute-sanitizer"
    local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for n in pg_mha_lq2_ps32_d64 pg_d80_window_ps16 pg_gqa8_lq16_topleft pgd_mha_lq3_ps16_d80 \
             pgw_width_gqa8_lq16_ps16; do
      for tool in memcheck racecheck synccheck; do
        local d=""
        case $n in
          pgd_*) d="--sizes batch=2,num_pages=30" ;;
          pgw_*) d="--sizes max_pages_per_seq=9" ;;
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
  echo "== merge_partials: attn-run, then bench_merge.py"
  for m in "$gen"/merge-*/*.json; do
    local n="merge/$(basename "$(dirname "$m")")_$(basename "$m" .json)"
    if "$attn_run" "$m" --seed "$seed" --repeat 3 --iters 1 --warmup 0 > "$out/${n//\//_}.log" 2>&1; then
      echo "$n: $(grep -c 'status=PASS' "$out/${n//\//_}.log") PASS"
    else
      fails=$((fails + 1)); echo "FAILED: $n"; tail -5 "$out/${n//\//_}.log"
    fi
  done
  python3 "$root/bench/bench_merge.py" "$gen"/merge-sm90a/*.json || fails=$((fails + 1))
  if [ "${BENCH:-1}" = 1 ]; then
    echo "== benchmark"
    python3 "$root/bench/bench_paged.py" bench "$gen/bench" "$gen/contig" || fails=$((fails + 1))
  fi
  echo "failures: $fails"
  exit $fails
}

case "$mode" in
  generate) shift; generate "$@" ;;
  run) run ;;
  *) sed -n '2,24p' "$0"; exit 2 ;;
esac
