#!/usr/bin/env python3
"""Host time per call of attnopt.attention beside PyTorch's SDPA backends.

    python3 bench/bench_op_host.py cases -o cases.json   # here: the problems
    python3 -m attnopt.precompile cases.json --cache DIR # here: compile them
    ATTNOPT_CACHE_DIR=DIR python3 bench/bench_op_host.py run cases.json

For each case and each route, forward alone (no grad) and a training step
(forward + torch.autograd.grad of q, k, v), three figures per call:
  issue  the host time to issue the call: N calls back to back without a
         synchronization, divided by N (the GPU runs behind; N is small
         enough that the launch queue never fills);
  loop   N calls then a synchronization, divided by N: what a loop of
         calls costs, the larger of host and GPU time;
  gpu    do_bench_cudagraph's median: the same call replayed from a CUDA
         graph, GPU time only.
Routes: ours as users call it (attnopt.attention: eager calls skip the
dispatcher, attnopt/dispatch.py), ours through the registered custom op
(what torch.compile and tracing use; the only route before session 24),
ours' implementation alone and the runtime launch alone (forward), and
SDPA's FLASH_ATTENTION, CUDNN_ATTENTION and EFFICIENT_ATTENTION backends
(the backend selected outside the timed loop). Not here: torch.compile's
reduce-overhead mode (CUDA graph trees), which test_gpu.py checks for
equality with eager; timed here once (2026-12-03) it issued a call in 94 µs
forward and 817 µs forward + backward (its own replay bookkeeping), and its
graph pool broke do_bench_cudagraph's captures of the SDPA rows after it.
At the end, cProfile of
the direct route on the first case: where the host time goes.
"""
import argparse
import cProfile
import io
import json
import math
import pstats
import sys
import time
from pathlib import Path

# (name, dtype, B, Hq, Hkv, Lq, Lk, D, causal, train)
CASES = [
    ("tiny", "bf16", 1, 8, 8, 128, 128, 64, "none", True),
    ("small-causal", "bf16", 2, 16, 16, 512, 512, 128, "top_left", True),
    ("decode", "bf16", 8, 32, 8, 1, 4096, 128, "bottom_right", False),
    ("vit", "bf16", 64, 16, 16, 257, 257, 80, "none", True),
]


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def make_cases(chip):
    return [dict(name=n, dtype=dt, batch=b, query_heads=hq, kv_heads=hk,
                 query_len=lq, key_len=lk, head_dim=d, value_dim=d,
                 scale=f32(1 / math.sqrt(d)), causal=causal, chip=chip,
                 train=train)
            for n, dt, b, hq, hk, lq, lk, d, causal, train in CASES]


def run(cases_path, calls):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from triton.testing import do_bench_cudagraph

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    import attnopt
    from attnopt import ops

    def measure(fn, backend=None):
        """(issue µs, loop µs, gpu µs) per call of fn."""
        def timed():
            for _ in range(10):
                fn()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            t2 = time.perf_counter()
            return (t1 - t0) / calls * 1e6, (t2 - t0) / calls * 1e6

        try:
            if backend is None:
                issue, loop = timed()
                gpu = do_bench_cudagraph(fn, rep=100) * 1e3
            else:
                with sdpa_kernel(backend):
                    issue, loop = timed()
                    gpu = do_bench_cudagraph(fn, rep=100) * 1e3
            return f"issue {issue:7.1f}  loop {loop:7.1f}  gpu {gpu:7.1f} µs"
        except Exception as e:  # a backend that refuses the shape
            return f"n/a ({type(e).__name__}: {str(e).splitlines()[0][:60]})"

    dt = {"bf16": torch.bfloat16, "f16": torch.float16}
    print(f"bench_op_host: {torch.cuda.get_device_name()}, torch "
          f"{torch.__version__}, {calls} calls per figure")
    profiled = None
    for c in json.loads(Path(cases_path).read_text()):
        torch.manual_seed(0)
        b, hq, hk = c["batch"], c["query_heads"], c["kv_heads"]
        lq, lk, d = c["query_len"], c["key_len"], c["head_dim"]
        q = torch.randn(b, hq, lq, d, device="cuda", dtype=dt[c["dtype"]])
        k = torch.randn(b, hk, lk, d, device="cuda", dtype=q.dtype)
        v = torch.randn_like(k)
        causal, scale = c["causal"], c["scale"]
        sdpa_causal = causal != "none" and lq == lk
        gqa = hq != hk
        # mask, scale, causal, window, softcap, softcap_approx, dropout_p,
        # seed, offset, deterministic, dynamic, f32_precision
        params = (None, scale, causal, None, None, False, 0.0, 0, 0, False, "",
                  "ieee")

        def ours(q, k, v):
            return attnopt.attention(q, k, v, causal=causal, scale=scale,
                                     enable_gqa=gqa, dynamic=False)

        def ours_op(q, k, v):
            return ops.attention_forward(q, k, v, *params)[0]

        def sdpa(q, k, v):
            return F.scaled_dot_product_attention(
                q, k, v, is_causal=sdpa_causal, enable_gqa=gqa, scale=scale)

        print(f"{c['name']}: {c['dtype']} B{b} Hq{hq} Hkv{hk} Lq{lq} Lk{lk} "
              f"D{d} {causal}")
        with torch.no_grad():
            err = (ours(q, k, v).float() - ours_op(q, k, v).float()).abs().max()
            print(f"  direct vs custom op output: max |diff| {err.item():.1e}")
            kernels = ops._kernels_for(q, k, v, None, scale, causal, None,
                                       None, False, 0.0, False, "", "ieee")
            out = torch.empty(b, hq, lq, d, device="cuda", dtype=q.dtype)
            lse = torch.empty(b, hq, lq, device="cuda", dtype=torch.float32)
            tensors = {"query": q, "key": k, "value": v, "output": out,
                       "lse": lse}
            ws = kernels.workspace(True, None)
            rows = [
                ("ours attnopt.attention", lambda: ours(q, k, v), None),
                ("ours custom op", lambda: ours_op(q, k, v), None),
                ("ours impl only", lambda: ops._forward_impl(
                    q, k, v, *params), None),
                ("ours launch only", lambda: ops._launch(
                    kernels.forward, tensors, 0, 0, ws), None),
                ("sdpa flash", lambda: sdpa(q, k, v),
                 SDPBackend.FLASH_ATTENTION),
                ("sdpa cudnn", lambda: sdpa(q, k, v),
                 SDPBackend.CUDNN_ATTENTION),
                ("sdpa efficient", lambda: sdpa(q, k, v),
                 SDPBackend.EFFICIENT_ATTENTION),
            ]
            for label, fn, backend in rows:
                print(f"  fwd     {label:24s} {measure(fn, backend)}")
        if not c["train"]:
            continue
        qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
        dout = torch.randn_like(q)

        def step(f):
            def fn():
                return torch.autograd.grad(f(qg, kg, vg), (qg, kg, vg), dout)
            return fn

        grads = [step(f)() for f in (ours, ours_op)]
        err = max((a.float() - b.float()).abs().max().item()
                  for a, b in zip(*grads))
        print(f"  direct vs custom op gradients: max |diff| {err:.1e}")
        rows = [("ours attnopt.attention", step(ours), None),
                ("ours custom op", step(ours_op), None),
                ("sdpa flash", step(sdpa), SDPBackend.FLASH_ATTENTION),
                ("sdpa cudnn", step(sdpa), SDPBackend.CUDNN_ATTENTION),
                ("sdpa efficient", step(sdpa), SDPBackend.EFFICIENT_ATTENTION)]
        for label, fn, backend in rows:
            print(f"  fwd+bwd {label:24s} {measure(fn, backend)}")
        if profiled is None:
            profiled = (c["name"], lambda: ours(q, k, v), step(ours))
    if profiled:
        name, fwd, train = profiled
        for label, fn, grad in (("forward", fwd, False),
                                ("training step", train, True)):
            prof = cProfile.Profile()
            with torch.set_grad_enabled(grad):
                prof.enable()
                for _ in range(calls):
                    fn()
                prof.disable()
            torch.cuda.synchronize()
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(18)
            print(f"cProfile, {name}, {label}, {calls} calls:")
            print("\n".join(s.getvalue().splitlines()[4:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--chip", default="sm_90a")
    r = sub.add_parser("run")
    r.add_argument("cases")
    r.add_argument("--calls", type=int, default=200)
    a = ap.parse_args()
    if a.cmd == "cases":
        Path(a.output).write_text(json.dumps(make_cases(a.chip), indent=1))
        print(f"bench_op_host: {a.output}")
    else:
        run(a.cases, a.calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
