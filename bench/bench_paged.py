#!/usr/bin/env python3
"""attn.paged_attention on the GPU: a numerical check and a benchmark, on
PyTorch tensors, with the same timer for ours and PyTorch's backends.

    python3 bench/bench_paged.py check MANIFEST.json ...
    python3 bench/bench_paged.py bench PAGED_DIR CONTIG_DIR

check: per manifest, 3 draws with fresh inputs (and, for a group compiled
with a run-time batch and page count, fresh sizes): random Q and caches, cache
lengths uniform in [0, capacity] (the first draw pins an empty, a full and
a shorter-than-Lq cache), block tables of shuffled pages (unused entries
-1), output and lse poisoned with NaN. Our group's output and lse are
compared with a float64 reference written here from docs/semantics.md
section 15 (each sequence gathered through its table row), and with PyTorch
SDPA (MATH backend, float64) on the gathered cache with the causal / window
rules as a boolean mask (skipped with softcap, which SDPA has not).
Relative error max|ours - ref| / max|ref| within 1e-2 (bf16) / 2e-3 (f16);
lse within 1e-3 absolute where finite, -inf exactly where no key is
allowed.

bench: per benchmark shape (every cache full, bf16, D = 128, Hq 32 / Hkv 8),
ours on the paged cache at each page size, ours on the contiguous cache
(attn.attention, the split-KV group) and PyTorch's FLASH and CUDNN backends
on the contiguous cache, all by triton's do_bench (L2 flushed, median); TB/s
= bytes of Q, the used K and V, and O over the time.
"""
import glob
import json
import math
import os
import random
import re
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_torch import BACKENDS, time_backend_ms, time_ms  # noqa: E402
from torch_launch import DTYPES, KernelSet  # noqa: E402


def draw(k, gen, draw_index, full=False):
    """Tensors of a paged group: query, caches, block table, lengths and
    poisoned outputs."""
    dt = DTYPES[k["dtype"]]
    shapes = {p["name"]: p["shape"] for p in k["params"] if p["kind"] == "tensor"}
    b, ps, mp, pages = k["batch"], k["page_size"], k["max_pages_per_seq"], k["num_pages"]
    cap = mp * ps
    t = {n: torch.randn(shapes[n], device="cuda", dtype=dt, generator=gen)
         for n in ("query", "key_cache", "value_cache")}
    if full:
        lens = [cap] * b
    else:
        lens = torch.randint(0, cap + 1, (b,), generator=gen, device="cuda").tolist()
        if draw_index == 0:
            lens[0] = 0
            if b > 1:
                lens[-1] = cap
            if b > 2:
                lens[1] = max(0, k["query_len"] - 1)
    table = torch.full((b, mp), -1, dtype=torch.int32)
    perm = torch.randperm(pages, generator=torch.Generator().manual_seed(int(gen.initial_seed()) + draw_index))
    used = 0
    for i, n in enumerate(lens):
        need = -(-n // ps)
        for j in range(need):  # distinct pages while the pool lasts, then shared
            table[i, j] = int(perm[used % pages])
            used += 1
    t["block_table"] = table.cuda()
    t["cache_seqlens"] = torch.tensor(lens, dtype=torch.int32, device="cuda")
    t["output"] = torch.full(shapes["output"], float("nan"), device="cuda", dtype=dt)
    if k["has_lse"]:
        t["lse"] = torch.full(shapes["lse"], float("nan"), device="cuda", dtype=torch.float32)
    return t, lens


def gathered(k, t, b, n):
    """Sequence b's [Hkv, n, X] keys and values through its table row."""
    ps = k["page_size"]
    j = torch.arange(n, device="cuda")
    pages = t["block_table"][b, (j // ps)].long()
    rows = pages * ps + j % ps
    kc = t["key_cache"].flatten(0, 1)[rows]    # [n, Hkv, D]
    vc = t["value_cache"].flatten(0, 1)[rows]
    return kc.transpose(0, 1), vc.transpose(0, 1)


def allowed(k, lq, lk):
    """[lq, lk] bool of the causal and window rules at lengths lq, lk."""
    i = torch.arange(lq, device="cuda")[:, None]
    j = torch.arange(lk, device="cuda")[None, :]
    delta = lk - lq if k["causal"] == "bottom_right" else 0
    ok = torch.ones(lq, lk, dtype=torch.bool, device="cuda")
    if k["causal"] != "none":
        ok &= j <= i + delta
    if k.get("window"):
        left, right = k["window"]
        if left >= 0:
            ok &= j >= i + delta - left
        if right >= 0:
            ok &= j <= i + delta + right
    return ok


def reference(k, t, lens):
    """float64 output [B, Hq, Lq, Dv] and lse [B, Hq, Lq]."""
    b_, hq, lq, dv = t["output"].shape
    g = hq // k["kv_heads"]
    out = torch.zeros(b_, hq, lq, dv, dtype=torch.float64, device="cuda")
    lse = torch.full((b_, hq, lq), -math.inf, dtype=torch.float64, device="cuda")
    for b, n in enumerate(lens):
        if n == 0:
            continue
        kk, vv = gathered(k, t, b, n)
        kk = kk.double().repeat_interleave(g, 0)
        vv = vv.double().repeat_interleave(g, 0)
        s = torch.einsum("hid,hjd->hij", t["query"][b].double(), kk) * k["scale"]
        if k.get("softcap"):
            s = k["softcap"] * torch.tanh(s / k["softcap"])
        s = s.masked_fill(~allowed(k, lq, n), -math.inf)
        m = s.amax(-1, keepdim=True)
        live = torch.isfinite(m)
        p = torch.where(live, torch.exp(s - torch.where(live, m, 0)), 0)
        l = p.sum(-1, keepdim=True)
        out[b] = torch.where(live, p @ vv / torch.where(live, l, 1), 0)
        lse[b] = torch.where(live, m + torch.log(torch.where(live, l, 1)), -math.inf)[..., 0]
    return out, lse


def peer(k, t, lens):
    """PyTorch SDPA (MATH, float64) on the gathered cache, or None (softcap,
    which SDPA has not). Rows without an allowed key come out of SDPA as
    NaN; they are 0 by the op's definition."""
    if k.get("softcap"):
        return None
    b_, hq, lq, dv = t["output"].shape
    out = torch.zeros(b_, hq, lq, dv, dtype=torch.float64, device="cuda")
    for b, n in enumerate(lens):
        if n == 0:
            continue
        kk, vv = gathered(k, t, b, n)
        with sdpa_kernel([SDPBackend.MATH]):
            o = F.scaled_dot_product_attention(
                t["query"][b:b + 1].double(), kk[None].double(), vv[None].double(),
                attn_mask=allowed(k, lq, n), scale=k["scale"], enable_gqa=True)[0]
        out[b] = torch.nan_to_num(o, nan=0.0)
    return out


def rel(a, ref):
    scale = ref.abs().max().item() or 1.0
    return (a.double() - ref).abs().max().item() / scale


def run_time_sizes(manifest, rng):
    """A draw of the run-time batch, page count and block-table width of a
    paged group compiled with them (null in the manifest): batch 1 to 6, a
    width of 1 to 300 pages, a pool from one page (shared by every
    sequence) to more than the batch's capacity; None for a static group.
    The split count is left to the split rule."""
    with open(manifest) as f:
        spec = json.load(f)["kernels"][0]
    sizes = {}
    if spec.get("batch") is None:
        sizes["batch"] = rng.randint(1, 6)
    if spec.get("max_pages_per_seq") is None:
        sizes["max_pages_per_seq"] = rng.choice([1, 2, rng.randint(3, 300)])
    if spec.get("num_pages") is None:
        b = sizes.get("batch", spec.get("batch") or 1)
        width = sizes.get("max_pages_per_seq", spec["max_pages_per_seq"])
        sizes["num_pages"] = rng.randint(1, b * width + 3)
    return sizes or None


def check(manifests):
    bad = 0
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"check: seed {seed}")
    rng = random.Random(seed)
    for i, m in enumerate(manifests):
        gen = torch.Generator(device="cuda").manual_seed(seed + i)
        for d in range(3):
            # A group with run-time sizes is bound to fresh ones every draw.
            ks = KernelSet(m, sizes=run_time_sizes(m, rng))
            grp = ks.kernel(ks.forward())
            k = grp.spec
            tol = 1e-2 if k["dtype"] == "bf16" else 2e-3
            t, lens = draw(k, gen, d)
            grp.launch(**t)
            torch.cuda.synchronize()
            ref_o, ref_l = reference(k, t, lens)
            nans = torch.isnan(t["output"]).sum().item()
            e_o = rel(t["output"], ref_o)
            e_l, inf_bad = 0.0, 0
            if k["has_lse"]:
                fin = torch.isfinite(ref_l)
                inf_bad = (torch.isinf(t["lse"]) != ~fin).sum().item() + torch.isnan(t["lse"]).sum().item()
                if fin.any():
                    e_l = (t["lse"].double()[fin] - ref_l[fin]).abs().max().item()
            p = peer(k, t, lens)
            e_p = rel(t["output"], p) if p is not None else None
            ok = nans == 0 and e_o <= tol and e_l <= 1e-3 and inf_bad == 0 and \
                (e_p is None or e_p <= tol)
            bad += not ok
            print(f"{os.path.basename(m)[:-5]:58} draw {d} B={k['batch']} P={k['num_pages']} W={k['max_pages_per_seq']} lens={lens[:6]}{'...' if len(lens) > 6 else ''} "
                  f"out {e_o:.2e} lse {e_l:.1e} inf-mismatch {inf_bad} "
                  f"sdpa {('%.2e' % e_p) if e_p is not None else '-'} "
                  f"{'PASS' if ok else 'FAIL (nan=%d)' % nans}", flush=True)
    print(f"check: {bad} failing draws")
    return bad


def bench(paged_dir, contig_dir):
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}; do_bench median, "
          f"L2 flushed; TB/s = bytes of Q, K, V, O / time; every cache full")
    print(f"{'shape':28} {'ps':>4} {'S':>3} {'paged ms':>9} {'TB/s':>5} {'contig ms':>9} "
          f"{'TB/s':>5} {'paged/contig':>12} {'flash':>5} {'cudnn':>5} {'err':>8} "
          f"{'dyn ms':>8} {'dyn/static':>10}")
    # The same shapes compiled with batch, pages and table width at run time
    # (bench-dyn/dyn_*.json beside paged_dir), bound to the static sizes.
    dyn_dir = os.path.join(os.path.dirname(os.path.normpath(paged_dir)), "bench-dyn")
    bad = 0
    for c in sorted(glob.glob(os.path.join(contig_dir, "contig_*.json"))):
        shape = os.path.basename(c)[len("contig_"):-5]
        cks = KernelSet(c)
        cg = cks.kernel(cks.forward())
        ck = cg.spec
        gen = torch.Generator(device="cuda").manual_seed(7)
        for pm in sorted(glob.glob(os.path.join(paged_dir, f"bench_{shape}_ps*.json")),
                         key=lambda s: int(re.search(r"_ps(\d+)", s).group(1))):
            ks = KernelSet(pm)
            grp = ks.kernel(ks.forward())
            k = grp.spec
            t, lens = draw(k, gen, 1, full=True)
            grp.launch(**t)
            torch.cuda.synchronize()
            # The same keys and values, contiguous: [B, Hkv, Lk, D].
            kk = torch.stack([gathered(k, t, b, n)[0] for b, n in enumerate(lens)])
            vv = torch.stack([gathered(k, t, b, n)[1] for b, n in enumerate(lens)])
            q = t["query"]
            o = torch.full_like(t["output"], float("nan"))
            with sdpa_kernel([SDPBackend.MATH]):
                ref = F.scaled_dot_product_attention(q.float(), kk.float(), vv.float(), enable_gqa=True)
            err = rel(t["output"], ref.double())
            ms_p = time_ms(lambda: grp.launch(**t))
            ms_c = time_ms(lambda: cg.launch(query=q, key=kk, value=vv, output=o))
            err = max(err, rel(o, ref.double()))
            ms_d = None
            dyn = os.path.join(dyn_dir, os.path.basename(pm).replace("bench_", "dyn_", 1))
            if os.path.exists(dyn):
                dks = KernelSet(dyn, sizes={"batch": k["batch"], "num_pages": k["num_pages"],
                                            "max_pages_per_seq": k["max_pages_per_seq"]})
                dg = dks.kernel(dks.forward())
                od = torch.full_like(t["output"], float("nan"))
                dt_ = dict(t, output=od)
                dg.launch(**dt_)
                torch.cuda.synchronize()
                err = max(err, rel(od, ref.double()))
                ms_d = time_ms(lambda: dg.launch(**dt_))
            theirs = {}
            for name in ("flash", "cudnn"):
                def run(be=BACKENDS[name]):
                    with sdpa_kernel([be]):
                        return F.scaled_dot_product_attention(q, kk, vv, enable_gqa=True)
                theirs[name] = time_backend_ms(run)
            nbytes = sum(x.numel() * x.element_size() for x in (q, kk, vv, o))
            tb = lambda ms: nbytes / ms / 1e9 if ms else None
            fmt = lambda x: f"{x:5.2f}" if x else "    -"
            splits = next(s["codegen"]["splits"] for s in ks.manifest["kernels"] if s.get("stage") == "split_kv")
            ok = err < 2e-2 and not torch.isnan(t["output"]).any()
            bad += not ok
            print(f"{shape:28} {k['page_size']:4} {splits:3} {ms_p:9.4f} {fmt(tb(ms_p))} {ms_c:9.4f} "
                  f"{fmt(tb(ms_c))} {ms_c / ms_p:12.3f} {fmt(tb(theirs['flash']))} "
                  f"{fmt(tb(theirs['cudnn']))} {err:8.1e} "
                  f"{('%8.4f' % ms_d) if ms_d else '       -'} "
                  f"{('%10.3f' % (ms_d / ms_p)) if ms_d else '         -'}"
                  f"{'' if ok else ' FAIL'}", flush=True)
            del t, kk, vv, q, o, ref
            torch.cuda.empty_cache()
    return bad


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("check", "bench"):
        sys.exit(__doc__)
    if sys.argv[1] == "check":
        sys.exit(1 if check(sys.argv[2:]) else 0)
    sys.exit(1 if bench(sys.argv[2], sys.argv[3]) else 0)
