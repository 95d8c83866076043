#!/usr/bin/env python3
"""attnopt.paged_attention beside the contiguous cache and PyTorch's SDPA
backends, through the PyTorch ops, on the same data, by the same timers.

    python3 bench/bench_op_paged.py cases -o cases.json   # here: the problems
    python3 -m attnopt.precompile cases.json --cache DIR  # here: compile them
    ATTNOPT_CACHE_DIR=DIR python3 bench/bench_op_paged.py run cases.json

Each case is a decoding step of B sequences with L cached keys each (the
new tokens included), bf16: ours from a paged pool (pages shuffled over the
pool, check_cache on and off), ours from the same keys in a contiguous
[B, Hkv, L, D] cache (attnopt.attention, bottom-right causal), and SDPA's
CUDNN_ATTENTION and FLASH_ATTENTION backends on the contiguous cache (non-
causal for Lq = 1, which reads and computes the same; is_causal is top-left
otherwise, so Lq > 1 runs them non-causal too: their work is the same or
more). Timers: do_bench (L2 flushed before every call, median, host work
included) and do_bench_cudagraph (GPU time; check_cache=True synchronizes,
so it is not captured). TB/s = bytes of Q, K, V read and O written / time.
Ours is first checked against SDPA MATH on the contiguous cache.
"""
import argparse
import json
import math
import sys
from pathlib import Path

# (B, Hq, Hkv, Lq, L, D, page_size)
CASES = [
    (8, 32, 8, 1, 8192, 128, 64),
    (8, 32, 8, 1, 8192, 128, 16),
    (32, 32, 8, 1, 4096, 128, 128),
    (1, 32, 8, 1, 131072, 128, 256),
    (8, 32, 8, 16, 8192, 128, 64),
]


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def make_cases(chip):
    out = []
    for b, hq, hk, lq, l, d, ps in CASES:
        scale = f32(1 / math.sqrt(d))
        pages = b * (l // ps) + 7  # a few pages nobody uses
        out.append(dict(op="paged_attention", dtype="bf16", batch=b,
                        query_heads=hq, kv_heads=hk, query_len=lq,
                        head_dim=d, value_dim=d, num_pages=pages,
                        page_size=ps, max_pages=l // ps, scale=scale,
                        causal="bottom_right", chip=chip))
        out.append(dict(dtype="bf16", batch=b, query_heads=hq, kv_heads=hk,
                        query_len=lq, key_len=l, head_dim=d, value_dim=d,
                        scale=scale, causal="bottom_right", chip=chip))
    return out


def run(cases_path):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from triton.testing import do_bench, do_bench_cudagraph

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    import attnopt

    print(f"bench_op_paged: {torch.cuda.get_device_name()}, torch "
          f"{torch.__version__}")
    cases = json.loads(Path(cases_path).read_text())
    for c in cases[::2]:
        torch.manual_seed(0)
        b, hq, hk, lq = c["batch"], c["query_heads"], c["kv_heads"], c["query_len"]
        d, ps, width, pages = (c["head_dim"], c["page_size"], c["max_pages"],
                               c["num_pages"])
        length = width * ps
        q = torch.randn(b, hq, lq, d, device="cuda", dtype=torch.bfloat16)
        kc = torch.randn(pages, ps, hk, d, device="cuda", dtype=q.dtype)
        vc = torch.randn_like(kc)
        table = torch.randperm(pages, device="cuda")[:b * width].view(
            b, width).to(torch.int32)
        lens = torch.full((b,), length, dtype=torch.int32, device="cuda")
        # The same keys, contiguous: [B, Hkv, L, D].
        k = kc[table.long()].reshape(b, length, hk, d).transpose(1, 2).contiguous()
        v = vc[table.long()].reshape(b, length, hk, d).transpose(1, 2).contiguous()
        bytes_moved = 2 * (2 * q.numel() + k.numel() + v.numel())
        fns = {
            "ours paged (check_cache)": lambda: attnopt.paged_attention(
                q, kc, vc, table, lens, causal="bottom_right",
                scale=c["scale"], enable_gqa=True, dynamic=False),
            "ours paged (no check)": lambda: attnopt.paged_attention(
                q, kc, vc, table, lens, causal="bottom_right",
                scale=c["scale"], enable_gqa=True, check_cache=False,
                dynamic=False),
            "ours contiguous": lambda: attnopt.attention(
                q, k, v, causal="bottom_right", scale=c["scale"],
                enable_gqa=True, dynamic=False),
        }
        for name, backend in (("sdpa cudnn", SDPBackend.CUDNN_ATTENTION),
                              ("sdpa flash", SDPBackend.FLASH_ATTENTION)):
            def sdpa(backend=backend):
                with sdpa_kernel(backend):
                    return F.scaled_dot_product_attention(
                        q, k, v, scale=c["scale"], enable_gqa=True)
            fns[name] = sdpa
        print(f"B{b} Hq{hq} Hkv{hk} Lq{lq} L{length} D{d} page {ps} "
              f"({pages} pages, shuffled)")
        with torch.no_grad():
            with sdpa_kernel(SDPBackend.MATH):
                ref = F.scaled_dot_product_attention(
                    q.double(), k.double(), v.double(), scale=c["scale"],
                    enable_gqa=True,
                    attn_mask=torch.ones(lq, length, dtype=torch.bool,
                                         device="cuda").tril(length - lq))
            for name in ("ours paged (check_cache)", "ours contiguous"):
                err = ((fns[name]().double() - ref).abs().max()
                       / ref.abs().max()).item()
                print(f"  {name} vs SDPA MATH float64: rel err {err:.1e}")
            base = None
            for name, fn in fns.items():
                try:
                    t = do_bench(fn, warmup=25, rep=200)
                    line = f"  {name:26s} {t * 1e3:8.1f} µs {bytes_moved / t / 1e9:5.2f} TB/s"
                    if "check_cache" not in name:
                        g = do_bench_cudagraph(fn, rep=200)
                        line += (f"  (graph {g * 1e3:8.1f} µs "
                                 f"{bytes_moved / g / 1e9:5.2f} TB/s)")
                        if name == "ours paged (no check)":
                            base = g
                        elif base:
                            line += f"  paged/this GPU time {base / g:.3f}"
                    print(line)
                except Exception as e:  # a backend that refuses the shape
                    print(f"  {name:26s} n/a ({type(e).__name__})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--chip", default="sm_90a")
    r = sub.add_parser("run")
    r.add_argument("cases")
    a = ap.parse_args()
    if a.cmd == "cases":
        Path(a.output).write_text(json.dumps(make_cases(a.chip), indent=1))
        print(f"bench_op_paged: {a.output}")
    else:
        run(a.cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
