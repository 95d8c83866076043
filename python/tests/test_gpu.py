"""GPU tests of attnopt.attention (needs torch and a GPU; run on the device).

    python3 python/tests/test_gpu.py --cases cases.json [--repeats 3]

For every case of cases.json (tests/gpu_cases.py; compiled beforehand with
`python3 -m attnopt.precompile cases.json` where attn-compile is):
  * output, lse and the three gradients against a float64 reference written
    here from docs/semantics.md (scale, softcap, bias, exclusion, fully
    masked rows give 0), `--repeats` times with fresh random inputs and
    NaN-poisoned caching-allocator memory;
  * the peer: torch.nn.functional.scaled_dot_product_attention in float64
    (MATH backend) with its gradients, for the cases it can express (no
    softcap or window, causal none or top-left), rows it leaves finite;
  * purpose "gradcheck" (f32): directional finite differences of a scalar
    loss against the analytic gradient;
  * purpose "dropout" (f32): same seed same bits, the mean over seeds is
    the output without dropout, lse unchanged, finite differences;
  * purpose "compile": the op under torch.compile(fullgraph=True), forward
    and backward, equal to eager; torch.library.opcheck on the operators;
  * purpose "sizes": one problem at several (batch, query_len, key_len)
    draws with dynamic=True or None, each checked as above, and the kernels
    attnopt loaded for them are the ones expected (run-time sizes after a
    size changes; the split-KV group with a launch-time split count for
    decoding);
  * purpose "varlen": attnopt.varlen_attention on packed batches (empty
    sequences included) at several length draws: output, lse and gradients
    per sequence against the float64 reference, the output against SDPA's
    MATH backend per sequence where it can express the case, and opcheck;
  * purpose "paged": attnopt.paged_attention at several (batch, pages,
    lengths) draws with fresh tables (shared pages, unread entries -1):
    output and lse against the float64 reference and SDPA (MATH, the
    causal mode and window as its mask) per sequence, the run-time-size
    kernels expected after a size changes; opcheck and torch.compile on
    the fixed serving case;
Prints one line per case and a summary; exits 1 on any failure.
"""

import argparse
import math
import json
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import attnopt  # noqa: E402
from attnopt import ops  # noqa: E402

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
MASK_DT = {"i1": torch.bool, **DT}
# Relative max-norm tolerances (attn-run's: output by dtype, gradients).
OUT_TOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 8e-3}
GRAD_TOL = {"f32": 1e-4, "f16": 1e-2, "bf16": 2e-2}
# f32 through tf32 tensor cores (f32_precision="tf32"): the output within
# attn-run's tf32 tolerance (docs/semantics.md §2.1); the exact backward
# then recomputes P from that lse and D_i from that output, whose errors of
# about 1e-3 carry into the gradients.
# Where a row's terms cancel (one key: dS = P (dP - D_i) with D_i from the
# rounded output) that error is absolute, so the backward of a tf32 case is
# checked against the float64 gradients given the output and lse the
# kernels computed (grad_reference_given_forward), as attn-run --train does;
# the forward is checked on its own.
# The forward's reference reads Q, K and V rounded to tf32, as the products
# do (tf32_rounded), so the output's tolerance is P's rounding, as for f16.
TF32_OUT_TOL, TF32_GRAD_TOL = 4e-3, 1e-2


def is_tf32(c):
    return c["dtype"] == "f32" and c.get("f32_precision") == "tf32"


def tolerances(c):
    """(output and lse, gradients) tolerances of case `c`."""
    if is_tf32(c):
        return TF32_OUT_TOL, TF32_GRAD_TOL
    return OUT_TOL[c["dtype"]], GRAD_TOL[c["dtype"]]



def tf32_rounded(x):
    """x (f32) rounded to tf32 as the kernels' products take it: 10 mantissa
    bits, ties away from zero (cvt.rna.tf32.f32); inf and NaN kept."""
    bits = x.detach().float().contiguous().view(torch.int32)
    finite = (bits & 0x7f800000) != 0x7f800000
    rounded = torch.where(finite, (bits + 0x1000) & -0x2000, bits)
    return rounded.view(torch.float32)


def rel_err(x, ref, finite_rows=None):
    x, ref = x.double(), ref.double()
    if finite_rows is not None:
        x, ref = x[finite_rows], ref[finite_rows]
    if ref.numel() == 0:
        return 0.0
    scale = ref.abs().max().item()
    diff = (x - ref).abs().max().item()
    return diff / scale if scale > 0 else diff


def allowed_positions(c, device):
    """[Lq, Lk] bool: causal and window (docs/semantics.md §5)."""
    lq, lk = c["query_len"], c["key_len"]
    i = torch.arange(lq, device=device)[:, None]
    j = torch.arange(lk, device=device)[None, :]
    delta = lk - lq if c["causal"] == "bottom_right" else 0
    ok = torch.ones(lq, lk, dtype=torch.bool, device=device)
    if c["causal"] != "none":
        ok &= j <= i + delta
    if c.get("window"):
        left, right = c["window"]
        if left != -1:
            ok &= j >= i + delta - left
        if right != -1:
            ok &= j <= i + delta + right
    return ok


def reference(c, q, k, v, mask):
    """float64 output and lse of docs/semantics.md, differentiable."""
    g = c["query_heads"] // c["kv_heads"]
    kk = k.repeat_interleave(g, dim=1)
    vv = v.repeat_interleave(g, dim=1)
    s = (q @ kk.transpose(-1, -2)) * c["scale"]
    if c.get("softcap"):
        s = c["softcap"] * torch.tanh(s / c["softcap"])
    keep = allowed_positions(c, q.device)[None, None]
    if mask is not None:
        if mask.dtype == torch.bool:
            keep = keep & mask
        else:
            s = s + mask.to(s.dtype)
    s = s.masked_fill(~keep, float("-inf"))
    m = s.amax(-1, keepdim=True)
    m_safe = torch.where(torch.isinf(m), torch.zeros_like(m), m)
    e = torch.exp(s - m_safe)
    l = e.sum(-1, keepdim=True)
    p = torch.where(l > 0, e / torch.where(l > 0, l, torch.ones_like(l)),
                    torch.zeros_like(e))
    out = p @ vv
    lse = torch.where(torch.isinf(m), m, m_safe + torch.log(l)).squeeze(-1)
    return out, lse


def grad_reference_given_forward(c, q, k, v, mask, out, lse, dout):
    """float64 dQ, dK, dV of docs/semantics.md (attn.attention_grad) from
    the given output and lse: P = exp(s - lse), D_i = dO_i . O_i (no
    dropout)."""
    assert not c.get("dropout_p"), "grad_reference_given_forward: no dropout"
    q, k, v, out, dout = (t.detach().double() for t in (q, k, v, out, dout))
    lse = lse.detach().double()
    g = c["query_heads"] // c["kv_heads"]
    kk = k.repeat_interleave(g, dim=1)
    vv = v.repeat_interleave(g, dim=1)
    s = (q @ kk.transpose(-1, -2)) * c["scale"]
    t = None
    if c.get("softcap"):
        t = torch.tanh(s / c["softcap"])
        s = c["softcap"] * t
    keep = allowed_positions(c, q.device)[None, None].expand(s.shape)
    if mask is not None:
        if mask.dtype == torch.bool:
            keep = keep & mask
        else:
            s = s + mask.double()
    rows = torch.isfinite(lse)[..., None]
    p = torch.where(keep & rows, torch.exp(s - torch.where(
        rows, lse[..., None], torch.zeros_like(lse[..., None]))),
        torch.zeros_like(s))
    dp = dout @ vv.transpose(-1, -2)
    d = (dout * out).sum(-1, keepdim=True)
    ds = p * (dp - d)
    if t is not None:
        ds = ds * (1 - t * t)
    dq = c["scale"] * ds @ kk
    dk = c["scale"] * ds.transpose(-1, -2) @ q
    dv = p.transpose(-1, -2) @ dout
    b, hk = k.shape[0], k.shape[1]
    dk = dk.view(b, hk, g, *dk.shape[2:]).sum(2)
    dv = dv.view(b, hk, g, *dv.shape[2:]).sum(2)
    return dq, dk, dv


def make_inputs(c, device, requires_grad=True):
    dt = DT[c["dtype"]]
    b, hq, hk = c["batch"], c["query_heads"], c["kv_heads"]
    lq, lk, d, dv = c["query_len"], c["key_len"], c["head_dim"], c["value_dim"]
    q = torch.randn(b, hq, lq, d, device=device, dtype=dt)
    k = torch.randn(b, hk, lk, d, device=device, dtype=dt)
    v = torch.randn(b, hk, lk, dv, device=device, dtype=dt)
    mask = None
    if c.get("mask_dtype"):
        shape = c["mask_shape"]
        if c["mask_dtype"] == "i1":
            mask = torch.rand(shape, device=device) < 0.8
        else:
            mask = torch.randn(shape, device=device).to(MASK_DT[c["mask_dtype"]])
    for t in (q, k, v):
        t.requires_grad_(requires_grad)
    return q, k, v, mask


def run_ours(c, q, k, v, mask, seed=(1234, 0)):
    # Cases other than "sizes" ones compile per shape, as precompiled.
    return attnopt.attention(
        q, k, v, causal=c["causal"], window=c.get("window"),
        softcap=c.get("softcap"),
        softcap_approx=c.get("softcap_approx", False), scale=c["scale"],
        mask=mask, dropout_p=c.get("dropout_p", 0.0), dropout_seed=seed,
        enable_gqa=True,
        deterministic=c.get("deterministic", False), return_lse=True,
        dynamic=c.get("dynamic", False),
        f32_precision=c.get("f32_precision", "ieee"))


def poison_allocator(device):
    """Fills the caching allocator's free memory with NaN, so that an output
    element the kernels do not write shows up."""
    free = torch.cuda.mem_get_info(device)[0]
    n = min(free // 4 // 2, 1 << 28)
    junk = torch.full((n,), float("nan"), device=device)
    del junk


def check_case(c, repeats, device, log):
    failures = []
    for r in range(repeats):
        poison_allocator(device)
        q, k, v, mask = make_inputs(c, device)
        out, lse = run_ours(c, q, k, v, mask)
        dout = torch.randn_like(out)
        dq, dk, dv = torch.autograd.grad(out, (q, k, v), dout)
        qd, kd, vd = (t.detach().double().requires_grad_() for t in (q, k, v))
        ref_out, ref_lse = reference(c, qd, kd, vd, mask)
        rdq, rdk, rdv = torch.autograd.grad(ref_out, (qd, kd, vd), dout.double())
        if is_tf32(c):
            # The tf32 forward's semantics: Q, K and V rounded to tf32; and
            # the exact backward of the output and lse it gave.
            ref_out, ref_lse = (t.detach() for t in reference(
                c, *(tf32_rounded(t).double() for t in (q, k, v)), mask))
            rdq, rdk, rdv = grad_reference_given_forward(
                c, q, k, v, mask, out, lse, dout)
        errs = {"out": rel_err(out, ref_out)}
        finite = torch.isfinite(ref_lse)
        errs["lse"] = rel_err(lse[finite], ref_lse[finite]) if finite.any() else 0.0
        lse_ok = bool((torch.isinf(lse) == torch.isinf(ref_lse)).all())
        for name, a, b in (("dq", dq, rdq), ("dk", dk, rdk), ("dv", dv, rdv)):
            errs[name] = rel_err(a, b)
        nan = any(not torch.isfinite(t).all() for t in (out, dq, dk, dv))
        tol_o, tol_g = tolerances(c)
        bad = [n for n, e in errs.items()
               if e > (tol_o if n in ("out", "lse") else tol_g)]
        if any(n in bad for n in ("dq", "dk", "dv")):
            low = low_precision_grad_errors(c, q, k, v, mask, dout,
                                            (rdq, rdk, rdv))
            log(f"  run {r}: gradients of the same formula in "
                f"{c['dtype']} arithmetic: " + " ".join(
                    f"{n} {e:.2e}" for n, e in low.items()))
            # FlashAttention's criterion: within twice the error of the
            # computation in the inputs' own precision (rows with one or
            # two keys cancel in dS = P (dP - rowsum(dO O)), which both
            # compute from a rounded O).
            bad = [n for n in bad
                   if n not in low or errs[n] > 2 * low[n] + 1e-3]
        if nan:
            bad.append("non-finite output")
        if not lse_ok:
            bad.append("lse -inf rows differ")
        peer = peer_errors(c, *((tf32_rounded(t) for t in (q, k, v))
                                 if is_tf32(c) else (q, k, v)),
                           mask, out, (dq, dk, dv), dout)
        if is_tf32(c):
            # SDPA's gradients are of the float64 forward, not of the
            # output the tf32 backward was given: only its output compares.
            peer = {n: e for n, e in peer.items() if n == "sdpa_out"}
        for n, e in peer.items():
            if e > (tol_o if n == "sdpa_out" else tol_g):
                bad.append(n)
        line = " ".join(f"{n} {e:.2e}" for n, e in {**errs, **peer}.items())
        log(f"  run {r}: {line}" + (f"  FAIL: {', '.join(bad)}" if bad else ""))
        if bad:
            failures.append(f"run {r}: {', '.join(bad)}")
    return failures


def low_precision_grad_errors(c, q, k, v, mask, dout, ref_grads):
    """The gradients of reference() evaluated in the inputs' dtype, against
    the float64 ones: the error the precision itself brings."""
    ql, kl, vl = (t.detach().clone().requires_grad_() for t in (q, k, v))
    out, _ = reference(c, ql, kl, vl, mask)
    grads = torch.autograd.grad(out, (ql, kl, vl), dout.to(out.dtype))
    return {n: rel_err(a, b) for n, a, b in
            zip(("dq", "dk", "dv"), grads, ref_grads)}


def peer_errors(c, q, k, v, mask, out, grads, dout):
    """Against SDPA in float64 (MATH backend), where SDPA can express the
    case; rows SDPA leaves NaN (fully masked) are not compared."""
    if c.get("softcap") or c.get("window") or c["causal"] == "bottom_right":
        return {}
    if c["causal"] == "top_left" and mask is not None:
        return {}  # SDPA takes is_causal or attn_mask, not both
    qd, kd, vd = (t.detach().double().requires_grad_() for t in (q, k, v))
    attn_mask = mask if mask is None or mask.dtype == torch.bool else mask.double()
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
        ref = F.scaled_dot_product_attention(
            qd, kd, vd, attn_mask=attn_mask, is_causal=c["causal"] == "top_left",
            scale=c["scale"], enable_gqa=True)
    rows = torch.isfinite(ref).all(-1)
    if not rows.any():
        return {}
    rg = torch.autograd.grad(ref, (qd, kd, vd), dout.double().masked_fill(
        ~rows[..., None], 0))
    errs = {"sdpa_out": rel_err(out, ref, rows)}
    if rows.all():
        for n, a, b in zip(("sdpa_dq", "sdpa_dk", "sdpa_dv"), grads, rg):
            errs[n] = rel_err(a, b)
    return errs


def gradcheck(c, device, log):
    """Directional finite differences of L = <out, w> for the f32 kernels."""
    q, k, v, mask = make_inputs(c, device)
    out = run_ours(c, q, k, v, mask)[0]
    w = torch.randn_like(out)
    grads = torch.autograd.grad((out * w).sum(), (q, k, v))
    failures = []
    def loss_along(idx, u, h):
        with torch.no_grad():
            xs = [t.detach().clone() for t in (q, k, v)]
            base = xs[idx].clone()
            xs[idx] = base + h * u
            lp = (run_ours(c, *xs, mask)[0].double() * w).sum()
            xs[idx] = base - h * u
            lm = (run_ours(c, *xs, mask)[0].double() * w).sum()
        return ((lp - lm) / (2 * h)).item()

    for idx, (name, x, gx) in enumerate(zip(("q", "k", "v"), (q, k, v), grads)):
        u = torch.randn_like(x)
        # Richardson extrapolation of two central differences: O(h^4)
        # truncation, so that h can stay large against f32 rounding.
        h = 2e-2
        fd = (4 * loss_along(idx, u, h / 2) - loss_along(idx, u, h)) / 3
        an = (gx.double() * u).sum().item()
        # Relative to the derivative's typical size along a random
        # direction, ||g|| (the standard deviation of <g, u>), not only to
        # this draw's value, which can cancel to near 0 (session 26: dk's
        # 0.089 turned the f32 difference quotient's 5e-4 into 5e-3).
        typical = gx.double().norm().item()
        err = abs(fd - an) / max(abs(an), typical, 1e-6)
        log(f"  gradcheck d{name}: finite difference {fd:.6g}, analytic "
            f"{an:.6g}, relative {err:.2e}")
        if err > 2e-3:
            failures.append(f"gradcheck d{name} {err:.2e}")
    return failures


def dropout_check(c, device, log):
    """Dropout through the op: the same seed gives the same bits, another
    seed others; the mean over many seeds is the output without dropout
    (E[keep / (1 - p)] = 1); lse ignores dropout; and the finite-difference
    check (same seed on both sides) shows the backward drops what the
    forward dropped."""
    failures = []
    q, k, v, mask = make_inputs(c, device)
    a, lse = run_ours(c, q, k, v, mask, seed=(7, 0))
    b, _ = run_ours(c, q, k, v, mask, seed=(7, 0))
    other, _ = run_ours(c, q, k, v, mask, seed=(8, 0))
    if not torch.equal(a, b) or torch.equal(a, other):
        failures.append("dropout bits do not follow the seed")
    plain = dict(c, dropout_p=0.0)
    ref_out, ref_lse = reference(plain, *(t.detach().double() for t in (q, k, v)),
                                 mask)
    n = 1000
    with torch.no_grad():
        mean = sum(run_ours(c, q, k, v, mask, seed=(s, 0))[0].double()
                   for s in range(100, 100 + n)) / n
    # Each element's estimate has a standard error of about
    # sqrt(p / (1 - p) * sum_j P_ij^2 v_j^2 / n); 6 sigma of the largest.
    err = rel_err(mean, ref_out)
    lse_err = rel_err(lse, ref_lse)
    log(f"  dropout: same seed identical, other seed differs; mean of {n} "
        f"seeds vs no dropout {err:.2e}; lse vs no dropout {lse_err:.2e}")
    if err > 0.05 or lse_err > OUT_TOL[c["dtype"]]:
        failures.append(f"dropout mean {err:.2e} / lse {lse_err:.2e}")
    return failures + gradcheck(c, device, log)


def compile_check(c, device, log):
    failures = []
    q, k, v, mask = make_inputs(c, device)
    dout = torch.randn(q.shape[:3] + (v.shape[3],), device=device, dtype=q.dtype)

    def step(q, k, v):
        out, lse = run_ours(c, q, k, v, mask)
        return out, lse

    t0 = time.time()
    compiled = torch.compile(step, fullgraph=True)
    out_c, lse_c = compiled(q, k, v)
    g_c = torch.autograd.grad(out_c, (q, k, v), dout)
    log(f"  torch.compile(fullgraph=True): compiled and ran in "
        f"{time.time() - t0:.1f} s")
    out_e, lse_e = step(q, k, v)
    g_e = torch.autograd.grad(out_e, (q, k, v), dout)
    same = torch.equal(out_c, out_e) and torch.equal(lse_c, lse_e)
    # dQ may be accumulated with atomics: equal up to the addition order.
    gerr = max(rel_err(a, b) for a, b in zip(g_c, g_e))
    log(f"  compiled vs eager: output identical {same}, gradients {gerr:.2e}")
    if not same or gerr > GRAD_TOL[c["dtype"]]:
        failures.append("torch.compile differs from eager")
    # CUDA graphs (torch.compile's reduce-overhead mode: the calls replayed
    # without host work): the runtime launches on the capturing stream and
    # takes its workspace from the caching allocator. Warm-up, recording and
    # replays, each with fresh inputs, against eager.
    graphed = torch.compile(step, mode="reduce-overhead", fullgraph=True)
    for i in range(4):
        qi, ki, vi = (torch.randn_like(t).requires_grad_() for t in (q, k, v))
        out_g, lse_g = graphed(qi, ki, vi)
        out_g, lse_g = out_g.clone(), lse_g.clone()
        g_g = [g.clone() for g in torch.autograd.grad(out_g, (qi, ki, vi), dout)]
        out_e, lse_e = step(qi, ki, vi)
        g_e = torch.autograd.grad(out_e, (qi, ki, vi), dout)
        same = torch.equal(out_g, out_e) and torch.equal(lse_g, lse_e)
        gerr = max(rel_err(a, b) for a, b in zip(g_g, g_e))
        log(f"  reduce-overhead call {i}: output identical {same}, "
            f"gradients {gerr:.2e}")
        if not same or gerr > GRAD_TOL[c["dtype"]]:
            failures.append(f"reduce-overhead call {i} differs from eager")
    args = (q.detach().requires_grad_(), k.detach().requires_grad_(),
            v.detach().requires_grad_(), None, c["scale"], c["causal"], None,
            None, False, 0.0, 0, 0, False, "", "ieee")
    result = torch.library.opcheck(ops.attention_forward, args)
    log(f"  opcheck attention_forward: {result}")
    if any(v != "SUCCESS" for v in result.values()):
        failures.append("opcheck")
    return failures


def sizes_check(c, repeats, device, log):
    """The draws of a "sizes" case through one family of kernels."""
    import gpu_cases
    # A fresh automatic state, so that earlier cases do not decide this
    # one's run-time sizes.
    ops._first_sizes.clear()
    ops._runtime_dims.clear()
    before = set(ops._loaded)
    failures = []
    for b, lq, lk in c["size_draws"]:
        d = dict(c, batch=b, query_len=lq, key_len=lk)
        if c.get("mask_pattern"):
            d["mask_shape"] = gpu_cases.mask_shape_for(c, b, lq, lk)
        log(f"  draw B{b} Lq{lq} Lk{lk}")
        failures += [f"B{b} Lq{lq} Lk{lk} {f}"
                     for f in check_case(d, repeats, device, log)]
    loaded = [p for p, _ in ops._loaded if (p, device.index) not in before
              and p.query_heads == c["query_heads"]
              and p.head_dim == c["head_dim"]]
    got = sorted(list(p.runtime_sizes) for p in loaded)
    want = c["compile_runtime_sizes"] + ([] if c["dynamic"] else [[]])
    forward = [k for p, k in ops._loaded.items() if p[0] in loaded]
    log(f"  loaded kernels with run-time sizes {got}; forward sets "
        f"{sorted(k.forward.name for k in forward)}")
    if got != sorted(want):
        failures.append(f"loaded run-time sizes {got}, expected {sorted(want)}")
    return failures


def varlen_reference(c, q, k, v, lens):
    """float64 output [Tq, Hq, Dv] and lse [Hq, Tq] of a packed batch, each
    sequence by reference() on its own tokens (differentiable)."""
    outs, lses = [], []
    tq = tk = 0
    for lq, lk in lens:
        qb = q[tq:tq + lq].transpose(0, 1)[None]
        kb = k[tk:tk + lk].transpose(0, 1)[None]
        vb = v[tk:tk + lk].transpose(0, 1)[None]
        if lq and lk:
            o, l = reference(dict(c, batch=1, query_len=lq, key_len=lk),
                             qb, kb, vb, None)
        else:  # no keys: output 0, lse -inf (no query: nothing)
            o = q.new_zeros(1, c["query_heads"], lq, c["value_dim"])
            l = q.new_full((1, c["query_heads"], lq), float("-inf"))
        outs.append(o[0].transpose(0, 1))
        lses.append(l[0])
        tq, tk = tq + lq, tk + lk
    return torch.cat(outs), torch.cat(lses, dim=1)


def varlen_peer(c, q, k, v, lens, out):
    """The output against SDPA (MATH, float64) per sequence, where SDPA can
    express the case; rows it leaves NaN are not compared."""
    if c.get("softcap") or c.get("window") or c["causal"] == "bottom_right":
        return {}
    worst, tq, tk = 0.0, 0, 0
    for lq, lk in lens:
        if lq and lk:
            qb, kb, vb = (t.detach().double().transpose(0, 1)[None]
                          for t in (q[tq:tq + lq], k[tk:tk + lk], v[tk:tk + lk]))
            with torch.nn.attention.sdpa_kernel(
                    torch.nn.attention.SDPBackend.MATH):
                ref = F.scaled_dot_product_attention(
                    qb, kb, vb, is_causal=c["causal"] == "top_left",
                    scale=c["scale"], enable_gqa=True)[0].transpose(0, 1)
            rows = torch.isfinite(ref).all(-1)
            if rows.any():
                worst = max(worst, rel_err(out[tq:tq + lq], ref, rows))
        tq, tk = tq + lq, tk + lk
    return {"sdpa_out": worst}


def varlen_check(c, repeats, device, log):
    failures = []
    dt = DT[c["dtype"]]
    hq, hk, d, dv = (c["query_heads"], c["kv_heads"], c["head_dim"],
                     c["value_dim"])
    for lens in c["size_draws"]:
        cu = torch.tensor([[0, 0]] + lens, dtype=torch.int64).cumsum(0)
        tq, tk = int(cu[-1, 0]), int(cu[-1, 1])
        cu_q = cu[:, 0].to(torch.int32)
        cu_k = cu[:, 1].to(torch.int32)
        log(f"  draw B{len(lens)} (Lq, Lk) {lens}")
        for r in range(repeats):
            poison_allocator(device)
            q = torch.randn(tq, hq, d, device=device, dtype=dt, requires_grad=True)
            k = torch.randn(tk, hk, d, device=device, dtype=dt, requires_grad=True)
            v = torch.randn(tk, hk, dv, device=device, dtype=dt, requires_grad=True)
            # Offsets on the GPU (the usual case) or on the CPU.
            on = device if r % 2 == 0 else "cpu"
            out, lse = attnopt.varlen_attention(
                q, k, v, cu_q.to(on), cu_k.to(on), causal=c["causal"],
                window=c.get("window"), softcap=c.get("softcap"),
                softcap_approx=c.get("softcap_approx", False),
                scale=c["scale"], enable_gqa=True,
                deterministic=c.get("deterministic", False), return_lse=True)
            dout = torch.randn_like(out)
            grads = torch.autograd.grad(out, (q, k, v), dout)
            qd, kd, vd = (t.detach().double().requires_grad_() for t in (q, k, v))
            ref_out, ref_lse = varlen_reference(c, qd, kd, vd, lens)
            ref_loss = (ref_out * dout.double()).sum()
            # No keys anywhere: the reference is constant, its gradients 0.
            ref_grads = torch.autograd.grad(
                ref_loss, (qd, kd, vd), allow_unused=True) \
                if ref_loss.requires_grad else (None, None, None)
            ref_grads = [torch.zeros_like(t) if g is None else g
                         for g, t in zip(ref_grads, (qd, kd, vd))]
            errs = {"out": rel_err(out, ref_out)}
            finite = torch.isfinite(ref_lse)
            errs["lse"] = rel_err(lse[finite], ref_lse[finite]) if finite.any() else 0.0
            for n, a, b in zip(("dq", "dk", "dv"), grads, ref_grads):
                errs[n] = rel_err(a, b)
            tol_o, tol_g = tolerances(c)
            bad = [n for n, e in errs.items()
                   if e > (tol_o if n in ("out", "lse") else tol_g)]
            if any(n in bad for n in ("dq", "dk", "dv")):
                # As in check_case: within twice the error of the same
                # formula in the inputs' precision.
                ql, kl, vl = (t.detach().clone().requires_grad_()
                              for t in (q, k, v))
                lo_out, _ = varlen_reference(c, ql, kl, vl, lens)
                lo = torch.autograd.grad((lo_out * dout).sum(), (ql, kl, vl),
                                         allow_unused=True)
                low = {n: rel_err(a, b) for n, a, b in
                       zip(("dq", "dk", "dv"), lo, ref_grads) if a is not None}
                log(f"    run {r}: in {c['dtype']} arithmetic: " + " ".join(
                    f"{n} {e:.2e}" for n, e in low.items()))
                bad = [n for n in bad
                       if n not in low or errs[n] > 2 * low[n] + 1e-3]
            if any(not torch.isfinite(t).all() for t in (out, *grads)):
                bad.append("non-finite output")
            if not bool((torch.isinf(lse) == torch.isinf(ref_lse)).all()):
                bad.append("lse -inf rows differ")
            peer = varlen_peer(c, q, k, v, lens, out)
            if peer.get("sdpa_out", 0.0) > tol_o:
                bad.append("sdpa_out")
            line = " ".join(f"{n} {e:.2e}" for n, e in {**errs, **peer}.items())
            log(f"    run {r} (offsets on {on}): {line}"
                + (f"  FAIL: {', '.join(bad)}" if bad else ""))
            if bad:
                failures.append(f"{lens} run {r}: {', '.join(bad)}")
    if c.get("opcheck"):
        lens = c["size_draws"][0]
        cu = torch.tensor([[0, 0]] + lens, dtype=torch.int64).cumsum(0)
        tq, tk = int(cu[-1, 0]), int(cu[-1, 1])
        args = (torch.randn(tq, hq, d, device=device, dtype=dt, requires_grad=True),
                torch.randn(tk, hk, d, device=device, dtype=dt, requires_grad=True),
                torch.randn(tk, hk, dv, device=device, dtype=dt, requires_grad=True),
                cu[:, 0].to(torch.int32).to(device),
                cu[:, 1].to(torch.int32).to(device), c["scale"], c["causal"],
                None, None, False, 0.0, 0, 0, False)
        from attnopt import varlen
        result = torch.library.opcheck(varlen.varlen_attention_forward, args)
        log(f"  opcheck varlen_attention_forward: {result}")
        if any(v != "SUCCESS" for v in result.values()):
            failures.append("opcheck")
    return failures


def paged_reference(c, q, kc, vc, table, lens):
    """float64 output [B, Hq, Lq, Dv] and lse [B, Hq, Lq] of a paged cache
    (docs/semantics.md §15.2): each sequence's keys gathered through its
    table row, then reference() with Lk = its length."""
    ps = c["page_size"]
    outs, lses = [], []
    for b, length in enumerate(lens):
        if length == 0:
            outs.append(q.new_zeros(1, c["query_heads"], c["query_len"],
                                    c["value_dim"]))
            lses.append(q.new_full((1, c["query_heads"], c["query_len"]),
                                   float("-inf")))
            continue
        j = torch.arange(length, device=q.device)
        pages = table[b, j // ps].long()
        kb = kc[pages, j % ps].transpose(0, 1)[None]   # [1, Hkv, L, D]
        vb = vc[pages, j % ps].transpose(0, 1)[None]
        o, l = reference(dict(c, batch=1, key_len=length), q[b:b + 1], kb, vb,
                         None)
        outs.append(o)
        lses.append(l)
    return torch.cat(outs), torch.cat(lses)


def paged_peer(c, q, kc, vc, table, lens, out):
    """The output against SDPA (MATH, float64) per sequence, the causal
    mode and window as SDPA's boolean mask; rows SDPA leaves NaN (no
    allowed key) not compared. SDPA has no softcap."""
    if c.get("softcap"):
        return {}
    ps, worst = c["page_size"], 0.0
    for b, length in enumerate(lens):
        if length == 0:
            continue
        j = torch.arange(length, device=q.device)
        pages = table[b, j // ps].long()
        kb = kc[pages, j % ps].transpose(0, 1)[None].double()
        vb = vc[pages, j % ps].transpose(0, 1)[None].double()
        keep = allowed_positions(dict(c, key_len=length), q.device)
        with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
            ref = F.scaled_dot_product_attention(
                q[b:b + 1].double(), kb, vb, attn_mask=keep, scale=c["scale"],
                enable_gqa=True)
        rows = torch.isfinite(ref).all(-1)
        if rows.any():
            worst = max(worst, rel_err(out[b:b + 1], ref, rows))
    return {"sdpa_out": worst}


def paged_check(c, repeats, device, log):
    """attnopt.paged_attention at each (batch, pages, lengths) draw, fresh
    inputs and tables each launch (random pages, shared ones included;
    entries past each length -1, which must never be read), against the
    float64 reference and SDPA; the kernels loaded are the expected ones."""
    from attnopt import paged
    failures = []
    dt = DT[c["dtype"]]
    hq, hk, lq = c["query_heads"], c["kv_heads"], c["query_len"]
    d, dv, ps = c["head_dim"], c["value_dim"], c["page_size"]
    for n, draw in enumerate(c["size_draws"]):
        b, p, lens = draw[:3]
        width = draw[3] if len(draw) > 3 else c["max_pages"]
        log(f"  draw B{b} P{p} W{width} lengths {lens}")
        for r in range(repeats):
            poison_allocator(device)
            q = torch.randn(b, hq, lq, d, device=device, dtype=dt)
            kc = torch.randn(p, ps, hk, d, device=device, dtype=dt)
            vc = torch.randn(p, ps, hk, dv, device=device, dtype=dt)
            table = torch.randint(0, p, (b, width), device=device,
                                  dtype=torch.int32)
            used = torch.tensor([(n + ps - 1) // ps for n in lens],
                                device=device)
            table[torch.arange(width, device=device)[None, :] >= used[:, None]] = -1
            seqlens = torch.tensor(lens, dtype=torch.int32, device=device)
            with torch.no_grad():
                out, lse = attnopt.paged_attention(
                    q, kc, vc, table, seqlens, causal=c["causal"],
                    window=c.get("window"), softcap=c.get("softcap"),
                    softcap_approx=c.get("softcap_approx", False),
                    scale=c["scale"], enable_gqa=True, return_lse=True,
                    dynamic=c["dynamic"])
            ref_out, ref_lse = paged_reference(
                c, q.double(), kc.double(), vc.double(), table, lens)
            errs = {"out": rel_err(out, ref_out)}
            finite = torch.isfinite(ref_lse)
            errs["lse"] = rel_err(lse[finite], ref_lse[finite]) if finite.any() else 0.0
            errs.update(paged_peer(c, q, kc, vc, table, lens, out))
            tol = OUT_TOL[c["dtype"]]
            bad = [k for k, e in errs.items() if e > tol]
            if not torch.isfinite(out).all():
                bad.append("non-finite output")
            if not bool((torch.isinf(lse) == torch.isinf(ref_lse)).all()):
                bad.append("lse -inf rows differ")
            line = " ".join(f"{k} {e:.2e}" for k, e in errs.items())
            log(f"    run {r}: {line}" + (f"  FAIL: {', '.join(bad)}" if bad else ""))
            if bad:
                failures.append(f"draw {n} run {r}: {', '.join(bad)}")
        # The kernels this call ran: with dynamic=None, run-time sizes for
        # those that changed since the first draw; all three with True.
        kernels = paged._kernels_for(
            q, kc, vc, table, c["scale"], c["causal"], c.get("window"),
            c.get("softcap"), c.get("softcap_approx", False),
            paged._dynamic_spelling(c["dynamic"], paged.PAGED_RUNTIME_SIZES))
        expected = tuple(c["expected_runtime_sizes"][n])
        if kernels.problem.runtime_sizes != expected:
            failures.append(f"draw {n}: kernels with run-time sizes "
                            f"{kernels.problem.runtime_sizes}, expected {expected}")
    if c.get("opcheck"):
        b, p, lens = c["size_draws"][0][:3]
        width = c["max_pages"]
        args = (torch.randn(b, hq, lq, d, device=device, dtype=dt),
                torch.randn(p, ps, hk, d, device=device, dtype=dt),
                torch.randn(p, ps, hk, dv, device=device, dtype=dt),
                torch.zeros(b, width, device=device, dtype=torch.int32),
                torch.tensor(lens, dtype=torch.int32, device=device),
                c["scale"], c["causal"], None, None, False, "")
        result = torch.library.opcheck(paged.paged_attention_forward, args)
        log(f"  opcheck paged_attention_forward: {result}")
        if any(v != "SUCCESS" for v in result.values()):
            failures.append("opcheck")

        def step(*t):
            return attnopt.paged_attention(*t, causal=c["causal"],
                                           scale=c["scale"], enable_gqa=True,
                                           check_cache=False, dynamic=False)
        with torch.no_grad():
            eager = step(*args[:5])
            compiled = torch.compile(step, fullgraph=True)(*args[:5])
        same = torch.equal(eager, compiled)
        log(f"  torch.compile(fullgraph=True) equal to eager: {same}")
        if not same:
            failures.append("compile")
    return failures


def merge_check(c, repeats, device, log):
    """attnopt.merge_partials on fresh partial results (parts with lse -inf
    whose outputs are NaN, rows with every part -inf) against the formula
    of docs/semantics.md §16 in float64."""
    failures = []
    s, rows, dv = c["splits"], tuple(c["rows_shape"]), c["value_dim"]
    out_dt = DT[c["out_dtype"]]
    for r in range(repeats):
        poison_allocator(device)
        po = torch.randn(s, *rows, dv, device=device, dtype=DT[c["partial_dtype"]])
        pl = torch.randn(s, *rows, device=device) * 3
        empty = torch.rand(s, *rows, device=device) < 0.2
        if rows[0] > 1:
            empty[:, 0] = True  # a row with no key in any part
        pl[empty] = float("-inf")
        po[empty] = float("nan")
        with torch.no_grad():
            out, lse = attnopt.merge_partials(po, pl, out_dtype=out_dt)
        lse64 = pl.double()
        m = lse64.amax(0)
        m_safe = torch.where(torch.isinf(m), torch.zeros_like(m), m)
        w = torch.where(torch.isinf(lse64), torch.zeros_like(lse64),
                        torch.exp(lse64 - m_safe))
        total = w.sum(0)
        po64 = torch.where(empty[..., None], torch.zeros_like(po, dtype=torch.float64),
                           po.double())
        ref = (w[..., None] * po64).sum(0) / torch.where(
            total > 0, total, torch.ones_like(total))[..., None]
        ref_lse = torch.where(total > 0, m_safe + torch.log(total),
                              torch.full_like(total, float("-inf")))
        errs = {"out": rel_err(out, ref)}
        finite = torch.isfinite(ref_lse)
        errs["lse"] = rel_err(lse[finite], ref_lse[finite]) if finite.any() else 0.0
        bad = [n for n, e in errs.items()
               if e > (OUT_TOL[c["out_dtype"]] if n == "out" else 1e-5)]
        if out.dtype != out_dt or not torch.isfinite(out).all():
            bad.append("dtype or non-finite output")
        if not bool((torch.isinf(lse) == torch.isinf(ref_lse)).all()):
            bad.append("lse -inf rows differ")
        log(f"    run {r}: " + " ".join(f"{n} {e:.2e}" for n, e in errs.items())
            + (f"  FAIL: {', '.join(bad)}" if bad else ""))
        if bad:
            failures.append(f"run {r}: {', '.join(bad)}")
    return failures


def argument_errors(device):
    """Bad calls raise AttnoptError naming what is wrong (no launch)."""
    q = torch.randn(1, 4, 16, 64, device=device, dtype=torch.bfloat16)
    k = torch.randn(1, 2, 16, 64, device=device, dtype=torch.bfloat16)
    k3 = torch.randn(1, 3, 16, 64, device=device, dtype=torch.bfloat16)
    cu = torch.tensor([0, 16], dtype=torch.int32, device=device)
    cases = [
        ("on cpu", lambda: attnopt.attention(q.cpu(), k.cpu(), k.cpu(), enable_gqa=True)),
        ("dtypes differ", lambda: attnopt.attention(q, k.half(), k, enable_gqa=True)),
        ("expected rank 4", lambda: attnopt.attention(q[0], k[0], k[0])),
        ("pass enable_gqa=True", lambda: attnopt.attention(q, k, k)),
        ("not a multiple", lambda: attnopt.attention(q, k3, k3, enable_gqa=True)),
        ("does not broadcast", lambda: attnopt.attention(
            q, k, k, enable_gqa=True, mask=torch.ones(5, 16, dtype=torch.bool, device=device))),
        ("requires grad", lambda: attnopt.attention(
            q, k, k, enable_gqa=True,
            mask=torch.zeros(16, 16, device=device, requires_grad=True))),
        ("float64", lambda: attnopt.attention(q.double(), k.double(), k.double(), enable_gqa=True)),
        ("key head dim", lambda: attnopt.attention(q, k[..., :32].contiguous(), k, enable_gqa=True)),
        ("dynamic = 'yes'", lambda: attnopt.attention(q, k, k, enable_gqa=True, dynamic="yes")),
        ("expected rank 3", lambda: attnopt.varlen_attention(q, k, k, cu, cu)),
        ("1-D int32", lambda: attnopt.varlen_attention(
            q[0], k[0], k[0], cu.long(), cu, enable_gqa=True)),
        ("packed batches run on tensor cores only", lambda: attnopt.varlen_attention(
            q[0].float(), k[0].float(), k[0].float(), cu, cu, enable_gqa=True)),
        ("the same number", lambda: attnopt.varlen_attention(
            q[0], k[0], k[0], cu, cu[:1], enable_gqa=True)),
        # The runtime's checks of the host copy, before any launch.
        ("never decrease", lambda: attnopt.varlen_attention(
            q[0].transpose(0, 1).contiguous(), k[0].transpose(0, 1).contiguous(),
            k[0].transpose(0, 1).contiguous(),
            torch.tensor([0, 9, 4, 16], dtype=torch.int32, device=device),
            torch.tensor([0, 4, 8, 16], dtype=torch.int32, device=device),
            enable_gqa=True)),
    ]
    # A paged cache: 3 pages of 16 tokens, 2 sequences of up to 2 pages.
    pq = torch.randn(2, 4, 1, 64, device=device, dtype=torch.bfloat16)
    pc = torch.randn(3, 16, 2, 64, device=device, dtype=torch.bfloat16)
    pt = torch.tensor([[0, 1], [2, -1]], dtype=torch.int32, device=device)
    pl = torch.tensor([20, 16], dtype=torch.int32, device=device)

    def paged_call(q=pq, kc=pc, table=pt, lens=pl, **kw):
        return attnopt.paged_attention(q, kc, kc, table, lens,
                                       enable_gqa=True, **kw)
    mo = torch.randn(2, 3, 64, device=device)
    ml = torch.randn(2, 3, device=device)
    cases += [
        ("partial_lse has shape [2, 4]", lambda: attnopt.merge_partials(
            mo, torch.randn(2, 4, device=device))),
        ("partial_lse is torch.float16", lambda: attnopt.merge_partials(
            mo, ml.half())),
        ("with at least one d", lambda: attnopt.merge_partials(mo[0], ml[0])),
        ("merge_partials: computes no gradients", lambda: attnopt.merge_partials(
            mo.clone().requires_grad_(), ml)),
        ("cache_seqlens[0] = 33: expected 0 <= length <= max_pages * page_size",
         lambda: paged_call(lens=torch.tensor([33, 1], dtype=torch.int32,
                                              device=device))),
        ("cache_seqlens[1] = -1", lambda: paged_call(
            lens=torch.tensor([1, -1], dtype=torch.int32, device=device))),
        ("block_table[1, 1] = -1: expected a page index in [0, 3)",
         lambda: paged_call(lens=torch.tensor([1, 17], dtype=torch.int32,
                                              device=device))),
        ("block_table[0, 1] = 3", lambda: paged_call(table=torch.tensor(
            [[0, 3], [2, -1]], dtype=torch.int32, device=device))),
        ("block_table is torch.int64", lambda: paged_call(table=pt.long())),
        ("computes no gradients", lambda: paged_call(
            q=pq.clone().requires_grad_())),
        ("must have the query's batch", lambda: paged_call(lens=pl[:1])),
        ("pass enable_gqa=True", lambda: attnopt.paged_attention(
            pq, pc, pc, pt, pl)),
        ("expected float16 or bfloat16", lambda: paged_call(
            q=pq.float(), kc=pc.float())),
    ]
    failures = []
    for expected, call in cases:
        try:
            call()
            failures.append(f"no error for '{expected}'")
        except attnopt.AttnoptError as e:
            if expected not in str(e):
                failures.append(f"'{expected}' not in: {e}")
        except Exception as e:  # anything else is a failure of the check
            failures.append(f"'{expected}': {type(e).__name__}: {e}")
    print(f"argument errors: {len(cases) - len(failures)} of {len(cases)} as expected"
          + (f"; {failures}" if failures else ""))
    return failures


def describe(i, c) -> str:
    """The case's line in the log."""
    if c.get("op") == "merge_partials":
        return (f"case {i}: merge S{c['splits']} rows {c['rows_shape']} "
                f"Dv{c['value_dim']} {c['partial_dtype']} -> {c['out_dtype']}")
    lk = (f"pages {c['page_size']}x{c['max_pages']}"
          if c.get("op") == "paged_attention" else f"Lk{c['key_len']}")
    return (f"case {i}: {c.get('purpose') or ''} {c['dtype']} B{c['batch']} "
            f"Hq{c['query_heads']} Hkv{c['kv_heads']} Lq{c['query_len']} {lk} "
            f"D{c['head_dim']} Dv{c['value_dim']} causal={c['causal']}"
            + (f" window={c['window']}" if c.get("window") else "")
            + (f" softcap={c['softcap']}" if c.get("softcap") else "")
            + (f" mask={c['mask_dtype']}{c['mask_shape']}"
               if c.get("mask_dtype") else "")
            + (" deterministic" if c.get("deterministic") else "")
            + (f" {c['f32_precision']}" if c.get("f32_precision") else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", required=True)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    device = torch.device("cuda", torch.cuda.current_device())
    torch.manual_seed(int.from_bytes(__import__("os").urandom(4), "little"))
    cases = json.loads(Path(a.cases).read_text())
    print(f"test_gpu: {torch.cuda.get_device_name(device)}, torch "
          f"{torch.__version__}, {len(cases)} cases")
    failed = []
    if argument_errors(device):
        failed.append("argument errors")
    for i, c in enumerate(cases):
        desc = describe(i, c)
        print(desc, flush=True)
        lines = []
        try:
            # Dropout has no peer with the same bits: its own checks only.
            purpose = c.get("purpose")
            if purpose == "sizes":
                f = sizes_check(c, a.repeats, device, lines.append)
            elif purpose == "paged":
                f = paged_check(c, a.repeats, device, lines.append)
            elif purpose == "merge":
                f = merge_check(c, a.repeats, device, lines.append)
            elif purpose == "varlen":
                f = varlen_check(c, a.repeats, device, lines.append)
            elif c.get("dropout_p"):
                f = []
            else:
                f = check_case(c, a.repeats, device, lines.append)
            if c.get("purpose") == "dropout":
                f += dropout_check(c, device, lines.append)
            if c.get("purpose") == "gradcheck":
                f += gradcheck(c, device, lines.append)
            if c.get("purpose") == "compile":
                f += compile_check(c, device, lines.append)
        except Exception as e:  # a failure of this case, not of the run
            f = [f"{type(e).__name__}: {e}"]
        print("\n".join(lines))
        print(f"  {'FAIL: ' + '; '.join(f) if f else 'PASS'}", flush=True)
        if f:
            failed.append(i)
    print(f"test_gpu: {len(cases) - len([f for f in failed if isinstance(f, int)])}"
          f" of {len(cases)} cases passed" + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
