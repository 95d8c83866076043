#!/usr/bin/env python3
"""attnopt's run-time sizes and packed batches beside static kernels and
PyTorch's backends, through the PyTorch op, on the same tensors, timed by
the same timer (triton.testing.do_bench: L2 flushed before every call,
median; every call from Python, host work included; for the dense cases
also do_bench_cudagraph, the calls replayed from a CUDA graph: GPU time,
which the ratios use).

    python3 bench/bench_op_sizes.py cases -o cases.json   # here: the problems
    python3 -m attnopt.precompile cases.json --cache DIR  # here: compile them
    ATTNOPT_CACHE_DIR=DIR python3 bench/bench_op_sizes.py run cases.json

Dense cases: ours compiled for the shape (dynamic=False), ours with run-time
sizes (all three for prefill; batch and key length for decoding, whose
split-KV group needs a static query length), SDPA's CUDNN_ATTENTION and
FLASH_ATTENTION backends; forward, and forward + backward for prefill.
Packed cases (Lq = Lk per sequence, causal): attnopt.varlen_attention
(offsets on the GPU: one device-to-host copy per call), PyTorch's varlen
attention where this PyTorch has it, and SDPA flash on the zero-padded
batch (causal masking makes its padded keys invisible to the real rows;
its time includes the padding's work). TFLOP/s count useful work only:
2 H Lq Lk (D + Dv) per sequence, halved when causal; forward + backward
3.5 times the forward.
"""
import argparse
import json
import math
import random
import sys
from pathlib import Path

# (name, dtype, B, Hq, Hkv, Lq, Lk, D, causal, run-time sizes of "ours rt")
DENSE = [
    ("prefill", "bf16", 4, 16, 16, 2048, 2048, 128, "top_left",
     ["batch", "query_len", "key_len"]),
    ("prefill", "bf16", 8, 16, 16, 1024, 1024, 64, "none",
     ["batch", "query_len", "key_len"]),
    ("prefill-gqa", "bf16", 2, 32, 8, 4096, 4096, 128, "top_left",
     ["batch", "query_len", "key_len"]),
    ("vit", "bf16", 64, 16, 16, 257, 257, 80, "none",
     ["batch", "query_len", "key_len"]),
    ("decode", "bf16", 8, 32, 8, 1, 8192, 128, "bottom_right",
     ["batch", "key_len"]),
    ("decode", "bf16", 4, 32, 8, 1, 32768, 128, "bottom_right",
     ["batch", "key_len"]),
    ("spec-decode", "bf16", 8, 32, 8, 16, 8192, 128, "bottom_right",
     ["batch", "key_len"]),
]
# (dtype, sequences, Hq, Hkv, D, shortest, longest, seed)
PACKED = [
    ("bf16", 16, 16, 16, 128, 128, 4096, 1),
    ("bf16", 64, 32, 8, 128, 64, 2048, 2),
    ("bf16", 32, 16, 16, 64, 16, 1024, 3),
]


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def packed_lengths(n, lo, hi, seed):
    """Log-uniform lengths in [lo, hi], the same from the same seed."""
    rng = random.Random(seed)
    return [int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
            for _ in range(n)]


def make_cases(chip):
    cases = []
    for name, dtype, b, hq, hk, lq, lk, d, causal, rt in DENSE:
        cases.append(dict(kind="dense", name=name, dtype=dtype, batch=b,
                          query_heads=hq, kv_heads=hk, query_len=lq,
                          key_len=lk, head_dim=d, value_dim=d,
                          scale=f32(1 / math.sqrt(d)), causal=causal,
                          chip=chip, compile_runtime_sizes=[rt]))
    for dtype, n, hq, hk, d, lo, hi, seed in PACKED:
        cases.append(dict(kind="packed", dtype=dtype, batch=None,
                          query_heads=hq, kv_heads=hk, query_len=None,
                          key_len=None, head_dim=d, value_dim=d,
                          scale=f32(1 / math.sqrt(d)), causal="bottom_right",
                          chip=chip, packed=True,
                          lengths=packed_lengths(n, lo, hi, seed)))
    return cases


def run(cases_path):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from triton.testing import do_bench, do_bench_cudagraph

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    import attnopt

    dt = {"bf16": torch.bfloat16, "f16": torch.float16}
    dev = "cuda"

    def ms(fn):
        return do_bench(fn, warmup=25, rep=200, return_mode="median")

    def sdpa(backend, q, k, v, causal, gqa):
        def fn():
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(
                    q, k, v, is_causal=causal, enable_gqa=gqa)
        return fn

    def train(fwd, q, k, v, dout):
        def fn():
            out = fwd()
            return torch.autograd.grad(out, (q, k, v), dout)
        return fn

    def timed(label, fn, flops, graph=False):
        """do_bench's median (host work included); with graph, also the
        same calls replayed from a CUDA graph (GPU time only)."""
        try:
            fn()
            t = ms(fn)
            line = f"{label} {t:.3f} ms {flops / t / 1e9:.1f} TF/s"
            if graph:
                g = do_bench_cudagraph(fn, rep=200, return_mode="median")
                line += f" (graph {g:.3f} ms {flops / g / 1e9:.1f} TF/s)"
                t = g
            return line, t
        except Exception as e:  # a backend that refuses the shape
            return f"{label} n/a ({type(e).__name__})", None

    print(f"bench_op_sizes: {torch.cuda.get_device_name()}, torch "
          f"{torch.__version__}")
    for c in json.loads(Path(cases_path).read_text()):
        torch.manual_seed(0)
        if c["kind"] == "dense":
            b, hq, hk = c["batch"], c["query_heads"], c["kv_heads"]
            lq, lk, d = c["query_len"], c["key_len"], c["head_dim"]
            q = torch.randn(b, hq, lq, d, device=dev, dtype=dt[c["dtype"]],
                            requires_grad=True)
            k = torch.randn(b, hk, lk, d, device=dev, dtype=dt[c["dtype"]],
                            requires_grad=True)
            v = torch.randn_like(k, requires_grad=True)
            causal = c["causal"]
            flops = 4 * b * hq * lq * lk * d * (0.5 if causal != "none" and
                                                lq == lk else 1.0)
            # SDPA's is_causal is top-left: the same as bottom-right only
            # where Lq = Lk; for decoding (Lq < Lk) SDPA runs non-causal,
            # which reads and computes the same as bottom-right here.
            sdpa_causal = causal != "none" and lq == lk
            rt = c["compile_runtime_sizes"][0]
            ours = {
                "ours static": lambda: attnopt.attention(
                    q, k, v, causal=causal, enable_gqa=True, dynamic=False),
                "ours run-time": lambda: attnopt.attention(
                    q, k, v, causal=causal, enable_gqa=True, dynamic=rt),
            }
            peers = {
                "cudnn": sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, sdpa_causal,
                              hq != hk),
                "flash": sdpa(SDPBackend.FLASH_ATTENTION, q, k, v, sdpa_causal,
                              hq != hk),
            }
            bytes_moved = (q.numel() * 2 + (k.numel() + v.numel()) * 2
                           + q.numel() * 2)
            print(f"{c['name']} {c['dtype']} B{b} Hq{hq} Hkv{hk} Lq{lq} Lk{lk} "
                  f"D{d} {causal} (run-time: {','.join(rt)})")
            with torch.no_grad():
                out_s = ours["ours static"]()
                out_r = ours["ours run-time"]()
            print(f"  run-time vs static output: max |diff| "
                  f"{(out_s - out_r).abs().max().item():.2e}")
            results = {}
            for label, fn in {**ours, **peers}.items():
                with torch.no_grad():
                    line, t = timed(label, fn, flops, graph=True)
                if t is not None and lq <= 16:
                    line += f" {bytes_moved / t / 1e9:.2f} TB/s"
                results[label] = t
                print("  fwd " + line)
            if results["ours static"] and results["ours run-time"]:
                print(f"  fwd (graph) run-time/static time "
                      f"{results['ours run-time'] / results['ours static']:.3f}"
                      + "".join(f", ours rt / {p} speed {results[p] / results['ours run-time']:.3f}"
                                for p in peers if results[p]))
            if lq > 16:
                dout = torch.randn(b, hq, lq, d, device=dev, dtype=q.dtype)
                tr = {}
                for label, fn in {**ours, **peers}.items():
                    line, t = timed(label, train(fn, q, k, v, dout),
                                    3.5 * flops, graph=True)
                    tr[label] = t
                    print("  fwd+bwd " + line)
                if tr["ours static"] and tr["ours run-time"]:
                    print(f"  fwd+bwd (graph) run-time/static time "
                          f"{tr['ours run-time'] / tr['ours static']:.3f}")
        else:
            lens = c["lengths"]
            hq, hk, d = c["query_heads"], c["kv_heads"], c["head_dim"]
            n, total, longest = len(lens), sum(lens), max(lens)
            cu = torch.tensor([0] + lens, dtype=torch.int64).cumsum(0).to(
                torch.int32).to(dev)
            q = torch.randn(total, hq, d, device=dev, dtype=dt[c["dtype"]],
                            requires_grad=True)
            k = torch.randn(total, hk, d, device=dev, dtype=dt[c["dtype"]],
                            requires_grad=True)
            v = torch.randn_like(k, requires_grad=True)
            flops = sum(2 * hq * l * l * d for l in lens)
            print(f"packed {c['dtype']} {n} sequences, {total} tokens "
                  f"(lengths {min(lens)}..{longest}), Hq{hq} Hkv{hk} D{d} causal")
            qp = torch.zeros(n, hq, longest, d, device=dev, dtype=q.dtype)
            kp = torch.zeros(n, hk, longest, d, device=dev, dtype=q.dtype)
            vp = torch.zeros_like(kp)
            for i, (s, l) in enumerate(zip(cu[:-1].tolist(), lens)):
                qp[i, :, :l] = q.detach()[s:s + l].transpose(0, 1)
                kp[i, :, :l] = k.detach()[s:s + l].transpose(0, 1)
                vp[i, :, :l] = v.detach()[s:s + l].transpose(0, 1)
            fns = {"ours varlen": lambda: attnopt.varlen_attention(
                q, k, v, cu, cu, causal="bottom_right", enable_gqa=True)}
            varlen_mod = getattr(torch.nn.attention, "varlen", None)
            if varlen_mod is not None and hasattr(varlen_mod, "varlen_attn") \
                    and hq == hk:
                fns["torch varlen_attn"] = lambda: varlen_mod.varlen_attn(
                    q, k, v, cu, cu, longest, longest, is_causal=True)
            fns["flash padded"] = sdpa(SDPBackend.FLASH_ATTENTION, qp, kp, vp,
                                       True, hq != hk)
            for label, fn in fns.items():
                with torch.no_grad():
                    line, t = timed(label, fn, flops)
                print("  fwd " + line)
            dout = torch.randn(total, hq, d, device=dev, dtype=q.dtype)
            line, t = timed("ours varlen", train(fns["ours varlen"], q, k, v,
                                                 dout), 3.5 * flops)
            print("  fwd+bwd " + line)
            if "torch varlen_attn" in fns:
                line, t = timed("torch varlen_attn", train(
                    fns["torch varlen_attn"], q, k, v, dout), 3.5 * flops)
                print("  fwd+bwd " + line)
            qp.requires_grad_()
            kp.requires_grad_()
            vp.requires_grad_()
            doutp = torch.randn_like(qp)
            line, t = timed("flash padded", train(
                sdpa(SDPBackend.FLASH_ATTENTION, qp, kp, vp, True, hq != hk),
                qp, kp, vp, doutp), 3.5 * flops)
            print("  fwd+bwd " + line)


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
        print(f"bench_op_sizes: {a.output}")
    else:
        run(a.cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
