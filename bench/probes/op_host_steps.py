#!/usr/bin/env python3
"""Host time of each step of an attnopt.attention call (a probe for
bench/bench_op_host.py's totals): every step timed alone over many calls,
on the first case of a bench_op_host cases file.

    ATTNOPT_CACHE_DIR=DIR python3 bench/probes/op_host_steps.py cases.json
"""
import sys
import time
import json
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
import attnopt  # noqa: E402
from attnopt import dispatch, ops  # noqa: E402

N = 2000


def per_call(fn, n=N):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def main():
    c = json.loads(Path(sys.argv[1]).read_text())[0]
    b, hq, hk = c["batch"], c["query_heads"], c["kv_heads"]
    lq, lk, d = c["query_len"], c["key_len"], c["head_dim"]
    q = torch.randn(b, hq, lq, d, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(b, hk, lk, d, device="cuda", dtype=q.dtype)
    v = torch.randn_like(k)
    scale, causal = c["scale"], c["causal"]
    # mask, scale, causal, window, softcap, softcap_approx, dropout_p,
    # seed, offset, deterministic, dynamic, f32_precision
    params = (None, scale, causal, None, None, False, 0.0, 0, 0, False, "",
              "ieee")
    kern = ops._kernels_for(q, k, v, None, scale, causal, None, None, False,
                            0.0, False, "", "ieee")
    out, lse = ops._forward_impl(q, k, v, *params)
    dout = torch.randn_like(out)
    fwd_t = {"query": q, "key": k, "value": v, "output": out, "lse": lse}
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    bwd_t = {"query": q, "key": k, "value": v, "output": out, "lse": lse,
             "grad_output": dout, "grad_query": dq, "grad_key": dk,
             "grad_value": dv}
    fws, bws = kern.workspace(True, None), kern.workspace(False, None)
    names = ("query", "key", "value", "output", "lse")
    ptrs = [t.data_ptr() for t in fwd_t.values()]
    lib = attnopt.runtime.library()
    import ctypes
    carr = attnopt.runtime._names_array(names)

    class Ident(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g

    class Trivial3(torch.autograd.Function):
        """3 inputs, 2 outputs, nothing launched: the engine's own cost."""
        @staticmethod
        def forward(ctx, a, b, c):
            ctx.set_materialize_grads(False)
            return a.view_as(a), b.view_as(b)

        @staticmethod
        def backward(ctx, ga, gb):
            return ga, None, None

    qg = q.clone().requires_grad_()
    kg, vg = k.clone().requires_grad_(), v.clone().requires_grad_()
    graph_out = attnopt.attention(qg, kg, vg, causal=causal, scale=scale,
                                  dynamic=False)
    steps = {
        "torch.empty (bf16, out shape)": lambda: torch.empty(
            out.shape, dtype=q.dtype, device=q.device),
        "torch.empty (workspace bytes)": lambda: torch.empty(
            1 << 20, dtype=torch.uint8, device=q.device),
        "q.contiguous()": lambda: q.contiguous(),
        "q.device": lambda: q.device,
        "torch.compiler.is_compiling()": torch.compiler.is_compiling,
        "dispatch.direct_call_allowed": lambda: dispatch.direct_call_allowed(
            (q, k, v, None)),
        "ops._check_inputs": lambda: ops._check_inputs(q, k, v, False),
        "ops._dynamic_spelling(False)": lambda: ops._dynamic_spelling(False),
        "ops._kernels_for": lambda: ops._kernels_for(
            q, k, v, None, scale, causal, None, None, False, 0.0, False, "",
            "ieee"),
        "ops._raw_stream": lambda: ops._raw_stream(0),
        "C launch, no Python around it": lambda: lib.attnrt_launch_pointers(
            kern.forward._handle, 5, carr,
            (ctypes.c_uint64 * 5)(*ptrs), 0, 0, None, 0, 0),
        "KernelSet.launch forward": lambda: kern.forward.launch(
            {n: t.data_ptr() for n, t in fwd_t.items()}),
        "ops._launch forward": lambda: ops._launch(
            kern.forward, fwd_t, 0, 0, fws),
        "ops._launch backward group": lambda: ops._launch(
            kern.backward, bwd_t, 0, 0, bws),
        "ops._forward_impl": lambda: ops._forward_impl(q, k, v, *params),
        "ops._backward_impl": lambda: ops._backward_impl(
            dout, q, k, v, out, lse, *params),
        "attnopt.attention (no grad)": lambda: attnopt.attention(
            q, k, v, causal=causal, scale=scale, dynamic=False),
        "autograd.grad of an identity Function": lambda: torch.autograd.grad(
            Ident.apply(qg), (qg,), q),
        "autograd.grad of a 3-in 2-out Function": lambda: torch.autograd.grad(
            Trivial3.apply(qg, kg, vg)[0], (qg, kg, vg), q,
            allow_unused=True),
        "attnopt.attention, inputs need grad": lambda: attnopt.attention(
            qg, kg, vg, causal=causal, scale=scale, dynamic=False),
        "autograd.grad of attnopt (graph kept)": lambda: torch.autograd.grad(
            graph_out, (qg, kg, vg), dout, retain_graph=True),
        "training step (attention + grad)": lambda: torch.autograd.grad(
            attnopt.attention(qg, kg, vg, causal=causal, scale=scale,
                              dynamic=False), (qg, kg, vg), dout),
    }
    print(f"op_host_steps: {torch.cuda.get_device_name()}, torch "
          f"{torch.__version__}; case {c['name']} B{b} Hq{hq} Lq{lq} D{d}; "
          f"backward group of {kern.backward.name}")
    grad_steps = [l for l in steps if "grad" in l]
    with torch.no_grad():
        for label, fn in steps.items():
            if label not in grad_steps:
                print(f"  {label:40s} {per_call(fn):8.2f} µs")
    for label in grad_steps:
        print(f"  {label:40s} {per_call(steps[label], 500):8.2f} µs")
    # The backward group launched from another thread (the autograd engine
    # runs CUDA backward functions on its device thread).
    import threading
    res = {}
    th = threading.Thread(target=lambda: res.setdefault(
        "t", per_call(steps["ops._launch backward group"])))
    th.start()
    th.join()
    print(f"  {'ops._launch backward group, other thread':40s} "
          f"{res['t']:8.2f} µs")


if __name__ == "__main__":
    main()
