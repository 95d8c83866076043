#!/usr/bin/env python3
"""Our kernels and PyTorch's SDPA backends on the same PyTorch tensors,
timed by the same timer (triton.testing.do_bench, which flushes the L2 cache
before every launch, median of the repetitions), in one run.

    python3 bench/bench_torch.py [--sizes batch=B,query_len=L,key_len=L] DIR [DIR ...]

DIR holds manifests + PTX from attn-compile (e.g. bench/generated/<chip>/
grid-hd, made by bench/generate.sh). For each manifest's forward kernel: its
output is checked against PyTorch's math backend in float32 (relative error
max|ours - ref| / max|ref|, must be < 2e-2), then ours and the
FLASH_ATTENTION, CUDNN_ATTENTION and EFFICIENT_ATTENTION backends are timed;
"-" where a backend refuses the shape. A manifest that also holds a backward
group (a training step, as grid-bwd-hd/) gets a second line: forward +
backward (ours: the forward kernel, then the group in order; PyTorch: sdpa
and autograd.grad of (q, k, v)) against flash and cuDNN, with our dQ/dK/dV
checked against PyTorch's math-backend gradients. FLOPs: forward
2 B Hq Lq Lk (D + Dv), halved when causal (bench.py's convention); forward
+ backward 3.5 times that. --sizes binds the manifests with run-time sizes
(issue 20), so that a dynamic kernel runs beside the static one of the
same shape in one run; static manifests ignore it.
"""
import glob
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from triton.testing import do_bench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_launch import DTYPES, KernelSet, parse_sizes  # noqa: E402

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


def flops(k):
    f = 2 * k["batch"] * k["query_heads"] * k["query_len"] * k["key_len"] * (k["head_dim"] + k["value_dim"])
    return f * (0.5 if k["causal"] != "none" else 1.0)


def time_ms(fn):
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def time_backend_ms(fn):
    """time_ms of a PyTorch backend's fn, None where the backend refuses the
    shape (it raises on the first call)."""
    try:
        fn()
        torch.cuda.synchronize()
    except Exception:
        return None
    return time_ms(fn)


def kernel_tensors(params, gen, given=None):
    """The tensors of a kernel's parameter list, by name: `given` ones kept,
    inputs randn from `gen`, outputs (and workspaces) poisoned with NaN, so
    an element the kernel does not write shows. Seed / offset and the bound
    run-time sizes are not tensors."""
    args = dict(given or {})
    for p in params:
        if p["kind"] != "tensor" or p["name"] in args:
            continue
        if p["role"] == "input":
            args[p["name"]] = torch.randn(p["shape"], device="cuda", dtype=DTYPES[p["dtype"]],
                                          generator=gen)
        else:
            args[p["name"]] = torch.full(p["shape"], float("nan"), device="cuda",
                                         dtype=DTYPES[p["dtype"]])
    return args


def run(manifest, sizes=None):
    ks = KernelSet(manifest, sizes)
    fwd = ks.kernel(ks.forward())
    k = fwd.spec
    if k.get("mask") or k.get("dropout_p") or k.get("softcap") or k.get("window"):
        raise ValueError("only plain and causal problems are benchmarked here")
    if k["causal"] != "none" and k["query_len"] != k["key_len"]:
        raise ValueError("causal with Lq != Lk: PyTorch's is_causal is top-left")
    args = kernel_tensors(k["params"], torch.Generator(device="cuda").manual_seed(1))
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
    err = rel_err(o, ref)
    nans = torch.isnan(o).sum().item()
    del ref
    ms = {"ours": time_ms(ours)}
    for name, be in BACKENDS.items():
        def theirs(be=be):
            with sdpa_kernel([be]):
                return F.scaled_dot_product_attention(q, kk, v, is_causal=causal, enable_gqa=gqa,
                                                      scale=scale)
        ms[name] = time_backend_ms(theirs)
    # A backward group makes it a training step (a split-KV forward group
    # alone has two kernels too).
    has_grad = any(s.get("op") == "attention_grad" for s in ks.specs.values())
    train = train_step(ks, k, args, causal, gqa, scale) if has_grad else None
    del args, q, kk, v, o
    torch.cuda.empty_cache()
    return k, err, nans, ms, train


def rel_err(ours, ref):
    return ((ours.float() - ref).abs().max() / ref.abs().max()).item()


def train_step(ks, k, args, causal, gqa, scale):
    """Forward + backward times {ours, flash, cudnn} in ms and our gradients'
    worst relative error against PyTorch's math backend."""
    dt = DTYPES[k["dtype"]]
    group = [ks.kernel(n) for n in ks.specs if n.startswith("attn_bwd")]
    gen = torch.Generator(device="cuda").manual_seed(2)
    bufs = dict(args)
    bufs["grad_output"] = torch.randn(args["output"].shape, device="cuda", dtype=dt, generator=gen)
    for kern in group:  # workspaces and gradients, poisoned
        bufs = kernel_tensors(kern.params(), gen, bufs)
    fwd = ks.kernel(ks.forward())

    def args_of(kern):  # sizes (i32) are bound in the spec, tensor maps derived
        return {p["name"]: bufs[p["name"]] for p in kern.params()
                if p["kind"] not in ("i32", "tensor_map")}

    def ours():
        fwd.launch(**args_of(fwd))
        for kern in group:
            kern.launch(**args_of(kern))

    ours()
    torch.cuda.synchronize()
    q, kk, v = (bufs[n].detach().float().requires_grad_() for n in ("query", "key", "value"))
    with sdpa_kernel([SDPBackend.MATH]):
        o = F.scaled_dot_product_attention(q, kk, v, is_causal=causal, enable_gqa=gqa, scale=scale)
    grads = torch.autograd.grad(o, (q, kk, v), bufs["grad_output"].float())
    err = max(rel_err(bufs[n], g) for n, g in zip(("grad_query", "grad_key", "grad_value"), grads))
    del q, kk, v, o, grads
    ms = {"ours": time_ms(ours)}
    q, kk, v = (bufs[n].detach().clone().requires_grad_() for n in ("query", "key", "value"))
    for name in ("flash", "cudnn"):
        def step(be=BACKENDS[name]):
            with sdpa_kernel([be]):
                o = F.scaled_dot_product_attention(q, kk, v, is_causal=causal, enable_gqa=gqa,
                                                   scale=scale)
            return torch.autograd.grad(o, (q, kk, v), bufs["grad_output"])
        ms[name] = time_backend_ms(step)
    return ms, err


def main(dirs, sizes=None):
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}; do_bench median, L2 flushed")
    print(f"{'case':34} {'shape':34} {'mma':9} {'ours ms':>8} {'TF/s':>6} "
          f"{'flash':>6} {'cudnn':>6} {'effic':>6} {'/flash':>7} {'/cudnn':>7} {'err':>8}")
    bad = 0
    for d in dirs:
        for m in sorted(glob.glob(os.path.join(d, "*.json"))):
            name = os.path.basename(m)[:-5]
            try:
                k, err, nans, ms, train = run(m, sizes)
            except Exception as e:
                print(f"{name:34} ERROR {str(e)[:120]}")
                bad += 1
                continue
            f = flops(k)
            tf = {n: (f / t / 1e9 if t else None) for n, t in ms.items()}
            shape = (f"B{k['batch']} H{k['query_heads']}/{k['kv_heads']} L{k['query_len']}/{k['key_len']} "
                     f"D{k['head_dim']}/{k['value_dim']} {k['dtype']}{' c' if k['causal'] != 'none' else ''}")
            mma = k.get("codegen", {}).get("mma", k.get("codegen", {}).get("kernel", "?"))
            if any(p["kind"] == "i32" for p in k["params"]):
                mma += "/dyn"
            fmt = lambda x: f"{x:6.1f}" if x else "     -"
            ratio = lambda n: f"{tf['ours'] / tf[n]:7.3f}" if tf.get(n) else "      -"
            ok = err < 2e-2 and nans == 0
            bad += not ok
            print(f"{name:34} {shape:34} {mma:9} {ms['ours']:8.3f} {fmt(tf['ours'])} {fmt(tf['flash'])} "
                  f"{fmt(tf['cudnn'])} {fmt(tf['efficient'])} {ratio('flash')} {ratio('cudnn')} "
                  f"{err:8.1e}{'' if ok else ' FAIL (nan=%d)' % nans}", flush=True)
            if train:
                tms, gerr = train
                ttf = {n: (3.5 * f / t / 1e9 if t else None) for n, t in tms.items()}
                tratio = lambda n: f"{ttf['ours'] / ttf[n]:7.3f}" if ttf.get(n) else "      -"
                gok = gerr < 2e-2
                bad += not gok
                print(f"{'  fwd+bwd':34} {'':34} {'':9} {tms['ours']:8.3f} {fmt(ttf['ours'])} "
                      f"{fmt(ttf['flash'])} {fmt(ttf['cudnn'])} {'':6} {tratio('flash')} "
                      f"{tratio('cudnn')} {gerr:8.1e}{'' if gok else ' FAIL'}", flush=True)
    return bad


if __name__ == "__main__":
    argv = sys.argv[1:]
    sizes = None
    if argv[:1] == ["--sizes"] and len(argv) > 1:
        sizes, argv = parse_sizes(argv[1]), argv[2:]
    if not argv:
        sys.exit(__doc__)
    sys.exit(1 if main(argv, sizes) else 0)
