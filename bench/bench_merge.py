#!/usr/bin/env python3
"""attn.merge_partials on the GPU (docs/semantics.md section 16): a
numerical check and a timing, on PyTorch tensors.

    python3 bench/bench_merge.py MANIFEST.json ...

Per manifest, 3 draws with fresh inputs: partial outputs uniform in
[-1, 1], partial lse uniform in [-5, 5], about one partial in five empty
(lse -inf, output NaN: the kernel must not read it), in the first draw the
first rows with every partial empty; output and lse poisoned with NaN. Our
kernel against a float64 evaluation of the formula written here (relative
error of the output within 1e-5 for f32 outputs, 1e-2 for bf16, 2e-3 for
f16; lse within 1e-5 where finite, -inf exactly where expected).

Then an end-to-end check of the semantics: attention of random Q, K, V
(float64) over all keys equals the merge, by our kernel, of the attention
over S disjoint key ranges (each with its lse; one of them empty), within
the output type's tolerance. Then our kernel is timed against the same
merge written with PyTorch tensor operations (eager), by triton's do_bench
(L2 flushed); GB/s = bytes read and written / time.
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_torch import time_ms  # noqa: E402
from torch_launch import DTYPES, KernelSet  # noqa: E402

TOL = {"f32": 1e-5, "bf16": 1e-2, "f16": 2e-3}


def reference(po, pl):
    """float64 merge of po [S, rows..., Dv] by pl [S, rows...]."""
    po, pl = po.double(), pl.double()
    m = pl.amax(0)
    live = torch.isfinite(m)
    ms = torch.where(live, m, 0)
    w = torch.where(torch.isinf(pl), 0, torch.exp(pl - ms))
    s = w.sum(0)
    acc = (torch.where(torch.isinf(pl)[..., None], 0, w[..., None] * torch.nan_to_num(po))).sum(0)
    out = torch.where(live[..., None], acc / torch.where(live, s, 1)[..., None], 0)
    lse = torch.where(live, ms + torch.log(torch.where(live, s, 1)), -math.inf)
    return out, lse


def torch_merge(po, pl):
    """The merge in PyTorch tensor operations (what a pipeline without the
    op would run)."""
    m = pl.amax(0)
    w = torch.exp(pl - m)
    return (w[..., None] * po.float()).sum(0) / w.sum(0)[..., None]


def check(m, gen):
    ks = KernelSet(m)
    k = ks.specs[ks.manifest["kernels"][0]["name"]]
    kern = ks.kernel(k["name"])
    shapes = {p["name"]: p["shape"] for p in k["params"] if p["kind"] == "tensor"}
    pdt, odt = DTYPES[k["partial_dtype"]], DTYPES[k["dtype"]]
    bad = 0
    for d in range(3):
        po = torch.rand(shapes["partial_output"], device="cuda", generator=gen) * 2 - 1
        pl = torch.rand(shapes["partial_lse"], device="cuda", generator=gen) * 10 - 5
        empty = torch.rand(pl.shape, device="cuda", generator=gen) < 0.2
        if d == 0:
            empty.view(empty.shape[0], -1)[:, :2] = True
        pl[empty] = -math.inf
        po = po.to(pdt)
        po[empty] = float("nan")
        t = {"partial_output": po, "partial_lse": pl,
             "output": torch.full(shapes["output"], float("nan"), device="cuda", dtype=odt)}
        if k["has_lse"]:
            t["lse"] = torch.full(shapes["lse"], float("nan"), device="cuda")
        kern.launch(**t)
        torch.cuda.synchronize()
        ro, rl = reference(po, pl)
        e = (t["output"].double() - ro).abs().max().item() / max(ro.abs().max().item(), 1e-30)
        nans = torch.isnan(t["output"]).sum().item()
        el, infbad = 0.0, 0
        if k["has_lse"]:
            fin = torch.isfinite(rl)
            infbad = (torch.isinf(t["lse"]) != ~fin).sum().item() + torch.isnan(t["lse"]).sum().item()
            if fin.any():
                el = (t["lse"].double()[fin] - rl[fin]).abs().max().item()
        ok = nans == 0 and e <= TOL[k["dtype"]] and el <= 1e-5 and infbad == 0
        bad += not ok
        print(f"{os.path.basename(m)[:-5]:40} draw {d} S={k['splits']} rows={k['rows']} "
              f"Dv={k['value_dim']} {k['partial_dtype']}->{k['dtype']} out {e:.2e} lse {el:.1e} "
              f"inf-mismatch {infbad} empty rows {(~torch.isfinite(rl)).sum().item() if k['has_lse'] else '-'} "
              f"{'PASS' if ok else 'FAIL (nan=%d)' % nans}", flush=True)
    return bad, kern, k, shapes, pdt, odt


def end_to_end(kern, k, shapes, pdt, odt, gen):
    """Attention over all keys = merge of attention over S key ranges."""
    s, dv = k["splits"], k["value_dim"]
    rows = k["rows"]
    d, lk = 64, 37 * s
    q = torch.randn(rows, d, device="cuda", dtype=torch.float64, generator=gen)
    kk = torch.randn(lk, d, device="cuda", dtype=torch.float64, generator=gen)
    vv = torch.randn(lk, dv, device="cuda", dtype=torch.float64, generator=gen)
    scores = q @ kk.T / math.sqrt(d)
    full = torch.softmax(scores, -1) @ vv
    bounds = [0] + sorted(torch.randint(0, lk + 1, (s - 1,), generator=torch.Generator().manual_seed(1)).tolist()) + [lk]
    if s > 1:
        bounds[1] = 0  # the first range is empty (lse -inf)
    bounds = sorted(bounds)
    po = torch.empty(s, rows, dv, device="cuda", dtype=torch.float64)
    pl = torch.empty(s, rows, device="cuda", dtype=torch.float64)
    for i in range(s):
        a, b = bounds[i], bounds[i + 1]
        if a == b:
            po[i], pl[i] = float("nan"), -math.inf
            continue
        sc = scores[:, a:b]
        po[i] = torch.softmax(sc, -1) @ vv[a:b]
        pl[i] = torch.logsumexp(sc, -1)
    t = {"partial_output": po.to(pdt).reshape(shapes["partial_output"]),
         "partial_lse": pl.float().reshape(shapes["partial_lse"]),
         "output": torch.full(shapes["output"], float("nan"), device="cuda", dtype=odt)}
    if k["has_lse"]:
        t["lse"] = torch.full(shapes["lse"], float("nan"), device="cuda")
    kern.launch(**t)
    torch.cuda.synchronize()
    e = (t["output"].double().reshape(rows, dv) - full).abs().max().item() / full.abs().max().item()
    tol = max(TOL[k["dtype"]], TOL[k["partial_dtype"]])
    ok = e <= tol and not torch.isnan(t["output"]).any()
    print(f"  end to end (ranges {bounds}): merged vs attention over all keys {e:.2e} "
          f"{'PASS' if ok else 'FAIL'}", flush=True)
    # Timing, ours vs the PyTorch expression, same inputs (no empty partial).
    t["partial_lse"] = torch.randn(shapes["partial_lse"], device="cuda", generator=gen)
    t["partial_output"] = torch.randn(shapes["partial_output"], device="cuda", generator=gen).to(pdt)
    ours = time_ms(lambda: kern.launch(**t))
    theirs = time_ms(lambda: torch_merge(t["partial_output"], t["partial_lse"]))
    nbytes = sum(x.numel() * x.element_size() for x in t.values())
    print(f"  time: ours {ours * 1e3:.1f} us ({nbytes / ours / 1e6:.0f} GB/s), "
          f"PyTorch ops {theirs * 1e3:.1f} us, ratio {theirs / ours:.2f}", flush=True)
    return not ok


def main(manifests):
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"bench_merge: seed {seed}")
    gen = torch.Generator(device="cuda").manual_seed(seed)
    bad = 0
    for m in manifests:
        b, kern, k, shapes, pdt, odt = check(m, gen)
        bad += b + end_to_end(kern, k, shapes, pdt, odt, gen)
    print(f"bench_merge: {bad} failures")
    return bad


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(1 if main(sys.argv[1:]) else 0)
