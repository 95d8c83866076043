#!/usr/bin/env python3
"""attnopt.attention (the PyTorch op) beside PyTorch's SDPA backends and
FlexAttention, on the same tensors, timed by the same timer
(triton.testing.do_bench: L2 flushed before every call, median), in one
process, interleaved case by case.

    python3 bench/bench_op.py cases    -o cases.json   # here: the problems
    python3 -m attnopt.precompile cases.json --cache DIR   # here: compile them
    ATTNOPT_CACHE_DIR=DIR python3 bench/bench_op.py run cases.json   # on the GPU

Each case is timed twice by each timer: do_bench (every call from Python,
as a user calls it: host overhead included) and do_bench_cudagraph (the
same calls replayed from a CUDA graph: GPU time only). Each case is timed
as a forward (ours returns lse too; SDPA's backends do
not expose it) and as forward + backward (autograd.grad of q, k, v with one
grad_output for everyone). FlexAttention (torch.compile'd once per case,
compile time reported separately) runs every case; it is the only peer for
the sliding-window and softcap cases. FLOPs: forward 2 B Hq Lq Lk (D + Dv),
halved when causal with Lq = Lk; forward + backward 3.5 times that. Before
timing, our output is checked against FlexAttention's, which expresses every
case (relative max error < 2e-2; python/tests/test_gpu.py is the float64
validation).
With `cases --dropout P` every case draws dropout with probability P:
ours (its Philox stream, seed fixed per case) against SDPA's FLASH and
CUDNN backends with dropout_p = P (their own RNG); FlexAttention has no
dropout and there is no common reference for two random streams, so these
cases are not checked here (bench/sweep.sh's dropout sweeps validate the
kernels against the float64 reference with the same bits, and
python/tests/test_gpu.py the op's dropout by its properties).
"""
import argparse
import json
import math
import sys
import time
from pathlib import Path

# The grid: prefill shapes of bench.py, GQA, a short key length, head dims
# other than 64/128, and the cases SDPA cannot express (window, softcap).
GRID = [
    # (dtype, B, Hq, Hkv, L, D, causal, window, softcap)
    ("bf16", 4, 16, 16, 2048, 128, "none", None, None),
    ("bf16", 4, 16, 16, 2048, 128, "top_left", None, None),
    ("bf16", 8, 16, 16, 1024, 64, "none", None, None),
    ("bf16", 2, 32, 8, 4096, 128, "top_left", None, None),
    ("f16", 4, 16, 16, 2048, 128, "top_left", None, None),
    ("bf16", 16, 16, 16, 512, 128, "none", None, None),
    ("bf16", 64, 16, 16, 257, 80, "none", None, None),
    ("bf16", 4, 16, 16, 4096, 256, "top_left", None, None),
    ("bf16", 4, 16, 16, 4096, 128, "top_left", (1023, 0), None),
    ("bf16", 4, 16, 16, 2048, 128, "top_left", None, 30.0),
]


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def make_cases(chip, dropout_p=0.0):
    cases = []
    for dtype, b, hq, hk, l, d, causal, window, softcap in GRID:
        if dropout_p and (window or softcap):
            continue  # no peer with dropout for these

        c = dict(dtype=dtype, batch=b, query_heads=hq, kv_heads=hk,
                 query_len=l, key_len=l, head_dim=d, value_dim=d,
                 scale=f32(1 / math.sqrt(d)), causal=causal, chip=chip)
        if window:
            c["window"] = list(window)
        if softcap:
            c["softcap"] = softcap
        if dropout_p:
            c["dropout_p"] = f32(dropout_p)
        cases.append(c)
    return cases


def run(cases_path):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    from triton.testing import do_bench, do_bench_cudagraph

    # One compiled flex_attention serves every case: let it recompile.
    torch._dynamo.config.recompile_limit = 1000
    torch._dynamo.config.accumulated_recompile_limit = 10000

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    import attnopt

    dt = {"f16": torch.float16, "bf16": torch.bfloat16}
    backends = {"flash": SDPBackend.FLASH_ATTENTION,
                "cudnn": SDPBackend.CUDNN_ATTENTION}
    flex = torch.compile(flex_attention, dynamic=False)

    # A peer may refuse a case (a "-" in the table); ours must not, and
    # either way the reason is printed (stderr), never swallowed.
    failures = []

    def refused(who, error):
        print(f"bench_op: {who}: {type(error).__name__}: "
              f"{(str(error).splitlines() or [''])[0][:300]}", file=sys.stderr)
        if who.startswith("ours"):
            failures.append(who)
        return None

    def ms(fn, who):
        try:
            fn()
        except Exception as e:
            return refused(who, e)
        return do_bench(fn, warmup=25, rep=200, return_mode="median")

    def ms_graph(fn, who):
        """The same calls replayed from a CUDA graph: GPU time without the
        host's launch overhead (None where capture fails)."""
        try:
            fn()
            return do_bench_cudagraph(fn, rep=200, return_mode="median")
        except Exception as e:
            return refused(who, e)

    print(f"bench_op: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{time.strftime('%Y-%m-%d')}")
    print("| case | pass | ours ms | TFLOP/s | flash | cudnn | flex | ours/best peer |")
    print("|---|---|---|---|---|---|---|---|")
    for c in json.loads(Path(cases_path).read_text()):
        b, hq, hk, l, d = (c[k] for k in ("batch", "query_heads", "kv_heads",
                                            "query_len", "head_dim"))
        q = torch.randn(b, hq, l, d, device="cuda", dtype=dt[c["dtype"]],
                        requires_grad=True)
        k = torch.randn(b, hk, l, d, device="cuda", dtype=q.dtype,
                        requires_grad=True)
        v = torch.randn_like(k, requires_grad=True)
        do = torch.randn_like(q)
        causal, window, softcap = c["causal"], c.get("window"), c.get("softcap")
        p = c.get("dropout_p", 0.0)

        def ours():
            return attnopt.attention(q, k, v, causal=causal, window=window,
                                     softcap=softcap, scale=c["scale"],
                                     dropout_p=p, dropout_seed=(1234, 0),
                                     enable_gqa=True, return_lse=True,
                                     dynamic=False)[0]

        sdpa_ok = window is None and softcap is None

        def sdpa(backend):
            def f():
                with sdpa_kernel(backend):
                    return F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal == "top_left",
                        scale=c["scale"], dropout_p=p,
                        enable_gqa=hq != hk)
            return f

        def mod(score, bi, h, qi, ki):
            if softcap:
                score = softcap * torch.tanh(score / softcap)
            return score

        def mask_mod(bi, h, qi, ki):
            ok = ki >= 0
            if causal != "none":
                ok = ok & (ki <= qi)
            if window:
                ok = ok & (ki >= qi - window[0])
            return ok

        flexf, flex_compile, err = None, 0.0, 0.0
        if not p:
            t0 = time.time()
            block_mask = create_block_mask(mask_mod, None, None, l, l)

            def flexf():
                return flex(q, k, v, score_mod=mod, block_mask=block_mask,
                            scale=c["scale"], enable_gqa=hq != hk)
            flexf()
            torch.cuda.synchronize()
            flex_compile = time.time() - t0

            # Correctness of ours before timing it.
            with torch.no_grad():
                ref = flexf().float()
                err = ((ours().float() - ref).abs().max()
                       / ref.abs().max()).item()
        fl = 2 * b * hq * l * l * 2 * d * (0.5 if causal != "none" else 1.0)
        name = (f"{c['dtype']} B{b} Hq{hq} Hkv{hk} L{l} D{d} {causal}"
                + (f" window={window}" if window else "")
                + (f" softcap={softcap}" if softcap else "")
                + (f" dropout={p:g}" if p else ""))
        for kind, factor in (("fwd", 1.0), ("fwd+bwd", 3.5)):
            def step(fn):
                if kind == "fwd":
                    return lambda: fn()
                return lambda: torch.autograd.grad(fn(), (q, k, v), do)
            for timer, label in ((ms, kind), (ms_graph, kind + " graph")):
                at = f"{name} {label}"
                t = {"ours": timer(step(ours), f"ours {at}"),
                     "flex": timer(step(flexf), f"flex {at}") if flexf else None}
                for bn, be in backends.items():
                    t[bn] = (timer(step(sdpa(be)), f"{bn} {at}")
                             if sdpa_ok else None)
                peers = [t[p] for p in ("flash", "cudnn", "flex") if t[p]]
                ratio = min(peers) / t["ours"] if peers and t["ours"] else None
                cell = lambda x: f"{x:.3f}" if x else "-"
                tf = f"{fl * factor / t['ours'] / 1e9:.0f}" if t["ours"] else "-"
                print(f"| {name} | {label} | {cell(t['ours'])} | {tf} | "
                      f"{cell(t['flash'])} | {cell(t['cudnn'])} | "
                      f"{cell(t['flex'])} | "
                      f"{(f'{ratio:.2f}x' if ratio else '-')} |", flush=True)
        if not p:
            print(f"|  | check: rel. error vs flex {err:.1e}; flex compile "
                  f"{flex_compile:.1f} s |  |  |  |  |  |  |", flush=True)
        if err > 2e-2:
            print(f"bench_op: FAIL: {name}: relative error {err:.2e}")
            return 1
    if failures:
        print(f"bench_op: FAIL: ours failed in {len(failures)} timings "
              "(reasons above)")
        return 1
    return 0


def overhead(cases_path):
    """Host cost per call of ours and of SDPA's cuDNN backend on the
    smallest case (200 calls back to back, one synchronization), and a
    cProfile of ours."""
    import cProfile
    import pstats
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    import attnopt

    dt = {"f16": torch.float16, "bf16": torch.bfloat16}
    cases = json.loads(Path(cases_path).read_text())
    c = min(cases, key=lambda c: c["batch"] * c["query_heads"] * c["query_len"] ** 2 * c["head_dim"])
    q = torch.randn(c["batch"], c["query_heads"], c["query_len"], c["head_dim"],
                    device="cuda", dtype=dt[c["dtype"]], requires_grad=True)
    k = torch.randn(c["batch"], c["kv_heads"], c["key_len"], c["head_dim"],
                    device="cuda", dtype=q.dtype, requires_grad=True)
    v = torch.randn_like(k, requires_grad=True)
    calls = {
        "ours": lambda: attnopt.attention(q, k, v, scale=c["scale"], enable_gqa=True),
        "cudnn": lambda: sdpa_cudnn(),
    }

    def sdpa_cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, scale=c["scale"])

    for grad in (False, True):
        with torch.set_grad_enabled(grad):
            for name, fn in calls.items():
                fn()
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for _ in range(200):
                    fn()
                t1 = time.perf_counter()
                torch.cuda.synchronize()
                t2 = time.perf_counter()
                print(f"overhead: {name} grad={grad}: {1e6 * (t1 - t0) / 200:.1f} us "
                      f"host per call, {1e6 * (t2 - t0) / 200:.1f} us per call "
                      "with the GPU")
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(200):
        calls["ours"]()
    prof.disable()
    torch.cuda.synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--chip", default="sm_90a")
    c.add_argument("--dropout", type=float, default=0.0,
                   help="dropout probability of every case (0: none)")
    r = sub.add_parser("run")
    r.add_argument("cases")
    o = sub.add_parser("overhead")
    o.add_argument("cases")
    a = ap.parse_args()
    if a.cmd == "overhead":
        return overhead(a.cases)
    if a.cmd == "cases":
        cases = make_cases(a.chip, a.dropout)
        Path(a.output).write_text(json.dumps(cases, indent=1))
        print(f"bench_op: {len(cases)} cases in {a.output}")
        return 0
    return run(a.cases)


if __name__ == "__main__":
    sys.exit(main())
