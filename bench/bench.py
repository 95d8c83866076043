#!/usr/bin/env python3
"""Runs on the GPU machine: our kernels (through attn-run, from PTX +
manifests made by bench/generate.sh) and PyTorch's scaled_dot_product_attention
backends on the same shapes, in one run, and prints one table.

  python3 bench/bench.py --attn-run kernels-runtime/build/attn-run \
      --grid bench/generated/sm_90a/grid [--validate-up-to 1024] [--out DIR]

FLOPs: 4*B*H*L*L*D, halved when causal (shared/README.md's convention).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

try:
    from triton.testing import do_bench
except Exception:  # pragma: no cover - triton is on the GPU machine
    do_bench = None

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


def bench_ms(fn):
    if do_bench is not None:
        return do_bench(fn, warmup=50, rep=300, return_mode="median")
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(50):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[len(times) // 2]


def torch_tflops(k, flops):
    dtype = {"bf16": torch.bfloat16, "f16": torch.float16}[k["dtype"]]
    q = torch.randn(k["batch"], k["query_heads"], k["query_len"], k["head_dim"], device="cuda", dtype=dtype)
    kk = torch.randn(k["batch"], k["kv_heads"], k["key_len"], k["head_dim"], device="cuda", dtype=dtype)
    v = torch.randn(k["batch"], k["kv_heads"], k["key_len"], k["value_dim"], device="cuda", dtype=dtype)
    causal = k["causal"] != "none"
    out = {}
    for name, be in BACKENDS.items():
        try:
            def f(be=be):
                with sdpa_kernel([be]):
                    return F.scaled_dot_product_attention(q, kk, v, is_causal=causal)
            with torch.no_grad():
                f(); torch.cuda.synchronize()
                out[name] = flops / bench_ms(f) / 1e9
        except Exception as e:  # a backend may not support a shape
            out[name] = None
            print(f"  {name}: {str(e)[:100]}", file=sys.stderr)
    del q, kk, v
    torch.cuda.empty_cache()
    return out


def run_ours(attn_run, manifest, validate):
    cmd = [attn_run, manifest, "--warmup", "10", "--iters", "50"]
    if not validate:
        cmd.append("--no-validate")
    p = subprocess.run(cmd, capture_output=True, text=True)
    fields = {}
    for line in p.stdout.splitlines():
        if line.startswith("RESULT"):
            fields = dict(re.findall(r"(\w+)=(\S+)", line))
    if p.returncode != 0 or not fields:
        print(p.stdout[-2000:], p.stderr[-2000:], file=sys.stderr)
    return p.returncode, fields


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attn-run", required=True)
    ap.add_argument("--grid", required=True)
    ap.add_argument("--validate-up-to", type=int, default=1024)
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    args = ap.parse_args()

    rows = []
    print(f"device {torch.cuda.get_device_name()} torch {torch.__version__} date {time.strftime('%Y-%m-%d')}")
    hdr = f"{'dtype':6}{'B':>4}{'H':>4}{'L':>7}{'D':>5} {'causal':7}{'ours':>8}{'flash':>8}{'cudnn':>8}{'effic':>8}{'vs flash':>10}{'vs cudnn':>10} check"
    print(hdr)
    for manifest in sorted(glob.glob(os.path.join(args.grid, "*.json"))):
        k = json.load(open(manifest))["kernels"][0]
        b, h, l, d = k["batch"], k["query_heads"], k["query_len"], k["head_dim"]
        causal = k["causal"] != "none"
        flops = 4 * b * h * l * l * d * (0.5 if causal else 1.0)
        rc, ours = run_ours(args.attn_run, manifest, l <= args.validate_up_to)
        ours_tf = float(ours["tflops"]) if "tflops" in ours else None
        theirs = torch_tflops(k, flops)
        check = ours.get("status", "ERROR" if rc else "-")
        if l > args.validate_up_to and rc == 0:
            check = "not validated (size)"
        def fmt(x):
            return f"{x:8.1f}" if x else f"{'-':>8}"
        def ratio(a, c):
            return f"{a / c:10.3f}" if a and c else f"{'-':>10}"
        print(f"{k['dtype']:6}{b:>4}{h:>4}{l:>7}{d:>5} {str(causal):7}{fmt(ours_tf)}{fmt(theirs['flash'])}"
              f"{fmt(theirs['cudnn'])}{fmt(theirs['efficient'])}{ratio(ours_tf, theirs['flash'])}"
              f"{ratio(ours_tf, theirs['cudnn'])} {check}", flush=True)
        rows.append({"manifest": os.path.basename(manifest), "dtype": k["dtype"], "B": b, "H": h, "L": l,
                     "D": d, "causal": causal, "ours": ours_tf, "ours_fields": ours, **theirs})
    json.dump({"device": torch.cuda.get_device_name(), "date": time.strftime("%Y-%m-%d"), "rows": rows},
              open(os.path.join(args.out, "bench.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
