#!/usr/bin/env python3
"""Runs on the GPU machine: our kernels (through attn-run, from PTX +
manifests made by bench/generate.sh) and PyTorch's scaled_dot_product_attention
backends on the same shapes, in one run, and prints one table per part.

  python3 bench/bench.py --attn-run kernels-runtime/build/attn-run \
      --grid bench/generated/sm_90a/grid \
      [--grid-bwd bench/generated/sm_90a/grid-bwd] \
      [--validate-up-to 1024] [--out DIR]

Forward (--grid): our kernel against the flash, cuDNN and memory-efficient
backends.

Backward (--grid-bwd, manifests holding a forward kernel and the backward
kernels that name it): `attn-run --train` runs the forward (saving lse), then
the backward kernels (dkdv, dq) on its output and lse, and reports forward,
backward and forward + backward times (its TRAIN line). PyTorch's FLASH_ATTENTION
and CUDNN_ATTENTION backends are timed on the same shapes, forward + backward
(o = sdpa(q, k, v); grads of (q, k, v) for a random dO) and backward alone
(torch.autograd.grad on a retained graph).

FLOPs: forward F = 4*B*H*L*L*D, halved when causal (shared/README.md's
convention); backward 2.5 F; forward + backward 3.5 F
(shared/bench/pytorch_anchors.py's convention), whatever each implementation
executes.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

try:
    from triton.testing import do_bench
except Exception:  # pragma: no cover - triton is on the GPU machine
    do_bench = None

# PyTorch explains on stderr why a backend refused a shape; the table says so
# with "-" already.
warnings.filterwarnings("ignore", message=r".*(kernel not used because|has been runtime disabled|"
                        r"requires q,k,v|Expected query, key and value).*")

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
# The backward table compares with these two.
BWD_BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}


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


def forward_flops(k):
    """4*B*H*L*L*D (2*B*Hq*Lq*Lk*(D+Dv) in general), halved when causal."""
    f = 2 * k["batch"] * k["query_heads"] * k["query_len"] * k["key_len"] * (k["head_dim"] + k["value_dim"])
    return f * (0.5 if k["causal"] != "none" else 1.0)


def make_qkv(k, requires_grad=False):
    dtype = DTYPES[k["dtype"]]
    q = torch.randn(k["batch"], k["query_heads"], k["query_len"], k["head_dim"], device="cuda", dtype=dtype,
                    requires_grad=requires_grad)
    kk = torch.randn(k["batch"], k["kv_heads"], k["key_len"], k["head_dim"], device="cuda", dtype=dtype,
                     requires_grad=requires_grad)
    v = torch.randn(k["batch"], k["kv_heads"], k["key_len"], k["value_dim"], device="cuda", dtype=dtype,
                    requires_grad=requires_grad)
    return q, kk, v


def sdpa(be, q, kk, v, k):
    with sdpa_kernel([be]):
        return F.scaled_dot_product_attention(q, kk, v, is_causal=k["causal"] != "none",
                                              enable_gqa=k["query_heads"] != k["kv_heads"])


def torch_tflops(k, flops):
    q, kk, v = make_qkv(k)
    out = {}
    for name, be in BACKENDS.items():
        try:
            def f(be=be):
                return sdpa(be, q, kk, v, k)
            with torch.no_grad():
                f(); torch.cuda.synchronize()
                out[name] = flops / bench_ms(f) / 1e9
        except Exception as e:  # a backend may not support a shape
            out[name] = None
            print(f"  {name}: {str(e)[:100]}", file=sys.stderr)
    del q, kk, v
    torch.cuda.empty_cache()
    return out


def torch_train_tflops(k, fwd_flops):
    """{backend: (forward + backward TFLOP/s, backward TFLOP/s)}."""
    q, kk, v = make_qkv(k, requires_grad=True)
    dtype = DTYPES[k["dtype"]]
    do = torch.randn(k["batch"], k["query_heads"], k["query_len"], k["value_dim"], device="cuda", dtype=dtype)
    out = {}
    for name, be in BWD_BACKENDS.items():
        try:
            def step(be=be):
                o = sdpa(be, q, kk, v, k)
                return torch.autograd.grad(o, (q, kk, v), do)
            step(); torch.cuda.synchronize()
            fwdbwd = 3.5 * fwd_flops / bench_ms(step) / 1e9
            o = sdpa(be, q, kk, v, k)

            def backward(o=o):
                return torch.autograd.grad(o, (q, kk, v), do, retain_graph=True)
            backward(); torch.cuda.synchronize()
            bwd = 2.5 * fwd_flops / bench_ms(backward) / 1e9
            del o
            out[name] = (fwdbwd, bwd)
        except Exception as e:  # a backend may not support a shape
            out[name] = (None, None)
            print(f"  {name} (backward): {str(e)[:100]}", file=sys.stderr)
    del q, kk, v, do
    torch.cuda.empty_cache()
    return out


def run_attn(attn_run, manifest, validate, train=False):
    cmd = [attn_run, manifest, "--warmup", "10", "--iters", "50"]
    if train:
        cmd.append("--train")
    if not validate:
        cmd.append("--no-validate")
    p = subprocess.run(cmd, capture_output=True, text=True)
    results, trains = [], []
    for line in p.stdout.splitlines():
        if line.startswith("RESULT"):
            results.append(dict(re.findall(r"(\w+)=(\S+)", line)))
        elif line.startswith("TRAIN"):
            trains.append(dict(re.findall(r"(\w+)=(\S+)", line)))
    if p.returncode != 0 or not (trains if train else results):
        print(p.stdout[-2000:], p.stderr[-2000:], file=sys.stderr)
    return p.returncode, results, trains


def fmt(x):
    return f"{x:8.1f}" if x else f"{'-':>8}"


def ratio(a, c, width=10):
    return f"{a / c:{width}.3f}" if a and c else f"{'-':>{width}}"


def forward_table(args):
    rows = []
    hdr = f"{'dtype':6}{'B':>4}{'H':>4}{'L':>7}{'D':>5} {'causal':7}{'ours':>8}{'flash':>8}{'cudnn':>8}{'effic':>8}{'vs flash':>10}{'vs cudnn':>10} check"
    print("forward (TFLOP/s)")
    print(hdr)
    for manifest in sorted(glob.glob(os.path.join(args.grid, "*.json"))):
        k = json.load(open(manifest))["kernels"][0]
        b, h, l, d = k["batch"], k["query_heads"], k["query_len"], k["head_dim"]
        causal = k["causal"] != "none"
        flops = 4 * b * h * l * l * d * (0.5 if causal else 1.0)
        rc, results, _ = run_attn(args.attn_run, manifest, l <= args.validate_up_to)
        ours = results[-1] if results else {}
        ours_tf = float(ours["tflops"]) if ours.get("tflops", "nan") != "nan" else None
        theirs = torch_tflops(k, flops)
        check = ours.get("status", "ERROR" if rc else "-")
        if l > args.validate_up_to and rc == 0:
            check = "not validated (size)"
        print(f"{k['dtype']:6}{b:>4}{h:>4}{l:>7}{d:>5} {str(causal):7}{fmt(ours_tf)}{fmt(theirs['flash'])}"
              f"{fmt(theirs['cudnn'])}{fmt(theirs['efficient'])}{ratio(ours_tf, theirs['flash'])}"
              f"{ratio(ours_tf, theirs['cudnn'])} {check}", flush=True)
        rows.append({"manifest": os.path.basename(manifest), "dtype": k["dtype"], "B": b, "H": h, "L": l,
                     "D": d, "causal": causal, "ours": ours_tf, "ours_fields": ours, **theirs})
    return rows


def backward_table(args):
    rows = []
    print("\nforward + backward and backward alone (TFLOP/s; backward = 2.5 x forward FLOPs, "
          "forward + backward = 3.5 x)")
    hdr = (f"{'dtype':6}{'B':>4}{'H':>4}{'L':>7}{'D':>5} {'causal':7}"
           f"{'f+b ours':>9}{'flash':>8}{'cudnn':>8}{'bwd ours':>9}{'flash':>8}{'cudnn':>8}"
           f"{'f+b/fl':>8}{'f+b/cu':>8}{'bwd/fl':>8}{'bwd/cu':>8} check")
    print(hdr)
    for manifest in sorted(glob.glob(os.path.join(args.grid_bwd, "*.json"))):
        kernels = {k["name"]: k for k in json.load(open(manifest))["kernels"]}
        fwd_names = sorted({k["forward"] for k in kernels.values()
                            if k.get("op") == "attention_grad" and k.get("forward")})
        if not fwd_names:
            print(f"  {os.path.basename(manifest)}: no backward kernel names a forward kernel; skipped",
                  file=sys.stderr)
            continue
        l_max = max(kernels[n]["query_len"] for n in fwd_names)
        validate = l_max <= args.validate_up_to
        rc, _, trains = run_attn(args.attn_run, manifest, validate, train=True)
        by_forward = {t.get("forward"): t for t in trains}
        for name in fwd_names:
            k = kernels[name]
            b, h, l, d = k["batch"], k["query_heads"], k["query_len"], k["head_dim"]
            causal = k["causal"] != "none"
            ff = forward_flops(k)
            t = by_forward.get(name, {})

            def tf(key, mult):
                ms = t.get(key, "nan")
                return mult * ff / float(ms) / 1e9 if ms != "nan" and float(ms) > 0 else None
            ours_fb, ours_b = tf("fwdbwd_ms", 3.5), tf("bwd_ms", 2.5)
            theirs = torch_train_tflops(k, ff)
            fl_fb, fl_b = theirs["flash"]
            cu_fb, cu_b = theirs["cudnn"]
            check = t.get("status", "ERROR" if rc else "-")
            if not validate and t.get("status") == "NOT_VALIDATED":
                check = "not validated (size)"
            if t.get("repeat_identical") == "0":
                check += " (not bit-reproducible)"
            print(f"{k['dtype']:6}{b:>4}{h:>4}{l:>7}{d:>5} {str(causal):7}"
                  f"{fmt(ours_fb):>9}{fmt(fl_fb)}{fmt(cu_fb)}{fmt(ours_b):>9}{fmt(fl_b)}{fmt(cu_b)}"
                  f"{ratio(ours_fb, fl_fb, 8)}{ratio(ours_fb, cu_fb, 8)}{ratio(ours_b, fl_b, 8)}"
                  f"{ratio(ours_b, cu_b, 8)} {check}", flush=True)
            rows.append({"manifest": os.path.basename(manifest), "forward": name, "dtype": k["dtype"],
                         "B": b, "H": h, "L": l, "D": d, "causal": causal,
                         "ours_fwdbwd": ours_fb, "ours_bwd": ours_b, "ours_fields": t,
                         "flash_fwdbwd": fl_fb, "flash_bwd": fl_b,
                         "cudnn_fwdbwd": cu_fb, "cudnn_bwd": cu_b})
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attn-run", required=True)
    ap.add_argument("--grid", help="forward manifests (bench/generated/<chip>/grid)")
    ap.add_argument("--grid-bwd", help="training-step manifests (bench/generated/<chip>/grid-bwd)")
    ap.add_argument("--validate-up-to", type=int, default=1024)
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    args = ap.parse_args()
    if not args.grid and not args.grid_bwd:
        ap.error("give --grid, --grid-bwd or both")

    print(f"device {torch.cuda.get_device_name()} torch {torch.__version__} date {time.strftime('%Y-%m-%d')}")
    result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}
    if args.grid:
        result["rows"] = forward_table(args)
    if args.grid_bwd:
        result["bwd_rows"] = backward_table(args)
    json.dump(result, open(os.path.join(args.out, "bench.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
