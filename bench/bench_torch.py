#!/usr/bin/env python3
"""Our forward kernels and PyTorch's SDPA backends on the same PyTorch
tensors, timed by the same timer (triton.testing.do_bench, which flushes the
L2 cache before every launch, median of the repetitions), in one run.

    python3 bench/bench_torch.py DIR [DIR ...]

DIR holds manifests + PTX from attn-compile (e.g. bench/generated/hd/grid-hd,
made by `bench/generate.sh`'s head-dim part or by hand). For each forward
kernel: its output is checked against PyTorch's math backend in float32
(relative error max|ours - ref| / max|ref|, must be < 2e-2), then ours and
the FLASH_ATTENTION, CUDNN_ATTENTION and EFFICIENT_ATTENTION backends are
timed; "-" where a backend refuses the shape. FLOPs: 2 B Hq Lq Lk (D + Dv),
halved when causal (bench.py's convention).
"""
import glob
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from triton.testing import do_bench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_launch import DTYPES, KernelSet  # noqa: E402

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


def flops(k):
    f = 2 * k["batch"] * k["query_heads"] * k["query_len"] * k["key_len"] * (k["head_dim"] + k["value_dim"])
    return f * (0.5 if k["causal"] != "none" else 1.0)


def time_ms(fn):
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def run(manifest):
    ks = KernelSet(manifest)
    fwd = ks.kernel(ks.forward())
    k = fwd.spec
    if k.get("mask") or k.get("dropout_p") or k.get("softcap") or k.get("window"):
        raise ValueError("only plain and causal problems are benchmarked here")
    if k["causal"] != "none" and k["query_len"] != k["key_len"]:
        raise ValueError("causal with Lq != Lk: PyTorch's is_causal is top-left")
    dt = DTYPES[k["dtype"]]
    gen = torch.Generator(device="cuda").manual_seed(1)
    args = {}
    for p in k["params"]:
        if p["role"] == "input":
            args[p["name"]] = torch.randn(p["shape"], device="cuda", dtype=DTYPES[p["dtype"]],
                                          generator=gen)
        else:  # outputs start poisoned: an unwritten element shows as NaN
            args[p["name"]] = torch.full(p["shape"], float("nan"), device="cuda",
                                         dtype=DTYPES[p["dtype"]])
    q, kk, v, o = args["query"], args["key"], args["value"], args["output"]
    causal = k["causal"] != "none"
    gqa = k["query_heads"] != k["kv_heads"]
    scale = k.get("scale")

    def ours():
        fwd.launch(**args)

    ours()
    torch.cuda.synchronize()
    with sdpa_kernel([SDPBackend.MATH]):
        ref = F.scaled_dot_product_attention(q.float(), kk.float(), v.float(), is_causal=causal,
                                             enable_gqa=gqa, scale=scale)
    err = ((o.float() - ref).abs().max() / ref.abs().max()).item()
    nans = torch.isnan(o).sum().item()
    del ref
    ms = {"ours": time_ms(ours)}
    for name, be in BACKENDS.items():
        def theirs(be=be):
            with sdpa_kernel([be]):
                return F.scaled_dot_product_attention(q, kk, v, is_causal=causal, enable_gqa=gqa,
                                                      scale=scale)
        try:
            theirs()
            torch.cuda.synchronize()
            ms[name] = time_ms(theirs)
        except Exception:  # the backend refuses this shape
            ms[name] = None
    del args, q, kk, v, o
    torch.cuda.empty_cache()
    return k, err, nans, ms


def main(dirs):
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}; do_bench median, L2 flushed")
    print(f"{'case':34} {'shape':34} {'mma':9} {'ours ms':>8} {'TF/s':>6} "
          f"{'flash':>6} {'cudnn':>6} {'effic':>6} {'/flash':>7} {'/cudnn':>7} {'err':>8}")
    bad = 0
    for d in dirs:
        for m in sorted(glob.glob(os.path.join(d, "*.json"))):
            name = os.path.basename(m)[:-5]
            try:
                k, err, nans, ms = run(m)
            except Exception as e:
                print(f"{name:34} ERROR {str(e)[:120]}")
                bad += 1
                continue
            f = flops(k)
            tf = {n: (f / t / 1e9 if t else None) for n, t in ms.items()}
            shape = (f"B{k['batch']} H{k['query_heads']}/{k['kv_heads']} L{k['query_len']}/{k['key_len']} "
                     f"D{k['head_dim']}/{k['value_dim']} {k['dtype']}{' c' if k['causal'] != 'none' else ''}")
            mma = k.get("codegen", {}).get("mma", k.get("codegen", {}).get("kernel", "?"))
            fmt = lambda x: f"{x:6.1f}" if x else "     -"
            ratio = lambda n: f"{tf['ours'] / tf[n]:7.3f}" if tf.get(n) else "      -"
            ok = err < 2e-2 and nans == 0
            bad += not ok
            print(f"{name:34} {shape:34} {mma:9} {ms['ours']:8.3f} {fmt(tf['ours'])} {fmt(tf['flash'])} "
                  f"{fmt(tf['cudnn'])} {fmt(tf['efficient'])} {ratio('flash')} {ratio('cudnn')} "
                  f"{err:8.1e}{'' if ok else ' FAIL (nan=%d)' % nans}", flush=True)
    return bad


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(1 if main(sys.argv[1:]) else 0)
