#!/usr/bin/env python3
"""Decoding: our forward (the split-KV group, or with --split-kv=off the
one-kernel forward) and PyTorch's SDPA backends on the same PyTorch tensors,
timed by the same timer (triton.testing.do_bench: L2 flushed before every
launch, median), in one run.

    python3 bench/bench_decode.py DIR [DIR ...]

DIR holds manifests + PTX from attn-compile (bench/decode.sh generate
writes bench-split/, bench-launch/ (run-time batch and key length, bound
here from the manifest's name, the chunk count by the split rule at launch)
and bench-off/). Per manifest: our output is checked
against PyTorch's math backend in float32 (relative error max|ours - ref| /
max|ref| < 2e-2, no NaN: the output starts poisoned), then ours and the
FLASH_ATTENTION, CUDNN_ATTENTION and EFFICIENT_ATTENTION backends are timed
("-" where a backend refuses the problem) with enable_gqa, so every backend
reads the same Hkv heads of K and V. Bandwidth: the bytes of Q, K, V and O
over the time, the measure decoding is bound by (issue 21's table).
Problems without a causal rule only (PyTorch's is_causal is top-left; at
Lq = 1 the bottom-right rule excludes nothing anyway).
"""
import glob
import json
import os
import re
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_torch import (BACKENDS, kernel_tensors, rel_err, time_backend_ms,  # noqa: E402
                         time_ms)
from torch_launch import KernelSet  # noqa: E402


def sizes_from_name(manifest):
    """The run-time batch and key length of a manifest compiled with them
    (bench/decode.sh's bench-launch/), from its name bench_b<B>_lq<Lq>_lk<Lk>;
    None for a static manifest. The chunk count is left to the split rule."""
    spec = json.load(open(manifest))["kernels"][0]
    if spec.get("batch") is not None and spec.get("key_len") is not None:
        return None
    m = re.search(r"_b(\d+)_lq\d+_lk(\d+)$", os.path.basename(manifest)[:-5])
    if not m:
        raise ValueError("run-time sizes, and no bench_b<B>_lq<Lq>_lk<Lk> name to bind them from")
    sizes = {}
    if spec.get("batch") is None:
        sizes["batch"] = int(m.group(1))
    if spec.get("key_len") is None:
        sizes["key_len"] = int(m.group(2))
    return sizes


def run(manifest):
    ks = KernelSet(manifest, sizes=sizes_from_name(manifest))
    fwd = ks.kernel(ks.forward())
    k = fwd.spec
    if k.get("mask") or k.get("softcap") or k.get("window") or k["causal"] != "none":
        raise ValueError("only problems without masks and causal rules are benchmarked here")
    args = kernel_tensors(k["params"], torch.Generator(device="cuda").manual_seed(1))
    q, kk, v, o = args["query"], args["key"], args["value"], args["output"]
    gqa = k["query_heads"] != k["kv_heads"]
    scale = k.get("scale")

    def ours():
        fwd.launch(**args)

    ours()
    torch.cuda.synchronize()
    with sdpa_kernel([SDPBackend.MATH]):
        ref = F.scaled_dot_product_attention(q.float(), kk.float(), v.float(), enable_gqa=gqa,
                                             scale=scale)
    err = rel_err(o, ref)
    nans = torch.isnan(o).sum().item()
    del ref
    ms = {"ours": time_ms(ours)}
    for name, be in BACKENDS.items():
        def theirs(be=be):
            with sdpa_kernel([be]):
                return F.scaled_dot_product_attention(q, kk, v, enable_gqa=gqa, scale=scale)
        ms[name] = time_backend_ms(theirs)
    nbytes = sum(t.numel() * t.element_size() for t in (q, kk, v, o))
    # The chunk count of the launch: the split stage's grid x once bound
    # (decided at launch where codegen.splits is null).
    splits = next((ks.kernel(s["name"]).spec["grid"][0] for s in ks.manifest["kernels"]
                   if s.get("stage") == "split_kv"), None)
    del args, q, kk, v, o
    torch.cuda.empty_cache()
    return k, err, nans, ms, nbytes, splits


def main(dirs):
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}; do_bench median, "
          f"L2 flushed; TB/s = bytes of Q, K, V, O / time")
    print(f"{'case':30} {'dir':12} {'shape':30} {'S':>3} {'ours ms':>8} {'TB/s':>5} "
          f"{'flash':>5} {'cudnn':>5} {'effic':>5} {'/best':>6} {'err':>8}")
    bad = 0
    for d in dirs:
        for m in sorted(glob.glob(os.path.join(d, "*.json"))):
            name = os.path.basename(m)[:-5]
            try:
                k, err, nans, ms, nbytes, splits = run(m)
            except Exception as e:
                print(f"{name:30} ERROR {str(e)[:120]}")
                bad += 1
                continue
            tbs = {n: (nbytes / t / 1e9 if t else None) for n, t in ms.items()}
            best = max((tbs[n] for n in ("flash", "cudnn") if tbs.get(n)), default=None)
            shape = (f"B{k['batch']} H{k['query_heads']}/{k['kv_heads']} L{k['query_len']}/"
                     f"{k['key_len']} D{k['head_dim']}")
            fmt = lambda x: f"{x:5.2f}" if x else "    -"
            ok = err < 2e-2 and nans == 0
            bad += not ok
            print(f"{name:30} {os.path.basename(os.path.normpath(d)):12} {shape:30} "
                  f"{splits or '-':>3} {ms['ours']:8.4f} {fmt(tbs['ours'])} {fmt(tbs['flash'])} "
                  f"{fmt(tbs['cudnn'])} {fmt(tbs['efficient'])} "
                  f"{(tbs['ours'] / best) if best else 0:6.3f} {err:8.1e}"
                  f"{'' if ok else ' FAIL (nan=%d)' % nans}", flush=True)
    return bad


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(1 if main(sys.argv[1:]) else 0)
