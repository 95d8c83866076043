#!/usr/bin/env python3
"""A packed variable-length forward kernel (attn.varlen_attention,
docs/semantics.md section 14), or with --train a training step (that
forward and its attn.varlen_attention_grad group), against PyTorch on the
same tensors, timed by bench_torch.py's timer (triton.testing.do_bench
median, L2 flushed), issue 20.

    python3 bench/bench_varlen.py MANIFEST.json [--seed S] [--batch 16]
        [--min 128] [--max 8192] [--repeat-draws N] [--train]

Each draw: B sequence lengths log-uniform in [min, max] from the seed (the
draw of attn-run --seqlens-dist=longtail:B:MIN:MAX --seed S; draw i uses
seed + i), self-attention (keys = queries). Our output and lse are checked
sequence by sequence against PyTorch's math backend in float32 on that
sequence alone (relative error max|ours - ref| / max|ref| < 2e-2) before
anything is timed. Then, in ms, TFLOP/s of the real (unpadded) work and
speedup = their ms / our ms:

  ours        the packed kernel, one launch (--train: the forward, then
              the backward group's kernels in manifest order)
  flash-pad   the batch padded to the longest sequence, [B, H, Lmax, D],
  cudnn-pad   through SDPA FLASH_ATTENTION / CUDNN_ATTENTION (--train: and
              torch.autograd.grad of q, k, v)
  cudnn-loop  the sequences one by one through SDPA CUDNN_ATTENTION

--train also checks our dQ, dK and dV sequence by sequence against the
math backend's float32 gradients (same tolerance), and counts TFLOP/s with
3.5 times the forward's FLOPs (the backward 2.5).

The padded times exclude the padding and unpadding copies (they favour
PyTorch: a real caller pays for them). "-": the backend refuses the problem.
Exit status: the number of draws that failed the check.
"""
import argparse
import datetime
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from bench_torch import kernel_tensors, rel_err, time_backend_ms, time_ms
    from torch_launch import KernelSet
except ImportError:  # the pure helpers below (draws, FLOPs, arguments) work without them
    torch = None

TOLERANCE = 2e-2
_M64 = (1 << 64) - 1


# ---------------------------------------------------------------- pure parts

def _splitmix64(z):
    z = (z + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _draw(seed, stream, n):
    """kernels-runtime's draw() (src/Varlen.cpp), so that a seed here gives
    the lengths attn-run prints for it."""
    return _splitmix64(_splitmix64((seed ^ 0x5EC1E45) & _M64) ^ _splitmix64(0x7000 + stream)
                       ^ _splitmix64(n))


def longtail_lengths(batch, lo, hi, seed):
    """B lengths log-uniform in [lo, hi]: many short sequences, a few long
    ones (kernels-runtime's longTailLengths)."""
    a, b = math.log(lo), math.log(hi)
    lens = []
    for i in range(batch):
        u = (_draw(seed, 1, i) >> 11) * 2.0 ** -53  # 53 random bits: [0, 1)
        x = a + u * (b - a)
        # llround: halves away from zero (Python's round() would go to even).
        lens.append(min(hi, max(lo, int(math.floor(math.exp(x) + 0.5)))))
    return lens


def offsets(lens):
    """cu_seqlens: [0, L0, L0 + L1, ...]."""
    cu = [0]
    for n in lens:
        cu.append(cu[-1] + n)
    return cu


def real_flops(lens, query_heads, head_dim, value_dim, causal):
    """The unpadded work, sum_b 2 Hq L_b^2 (D + Dv), halved when causal
    (self-attention: Lq_b = Lk_b, so either causal mode sees half)."""
    f = sum(2 * query_heads * n * n * (head_dim + value_dim) for n in lens)
    return f * (0.5 if causal else 1.0)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("manifest")
    p.add_argument("--seed", type=int, default=None, help="default: a random one (printed)")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--min", type=int, default=128)
    p.add_argument("--max", type=int, default=8192)
    p.add_argument("--repeat-draws", type=int, default=1)
    p.add_argument("--train", action="store_true",
                   help="forward + backward (the manifest's packed gradient group)")
    a = p.parse_args(argv)
    if not (1 <= a.batch <= 65535 and 1 <= a.min <= a.max < 2 ** 31 and a.repeat_draws >= 1
            and (a.seed is None or 0 <= a.seed < 2 ** 64 - a.repeat_draws)):
        p.error("need 1 <= batch <= 65535, 1 <= min <= max < 2^31, repeat-draws >= 1, "
                "0 <= seed < 2^64 (seeds as attn-run's)")
    if a.seed is None:
        a.seed = int.from_bytes(os.urandom(4), "little")
    return a


def shape_text(k):
    causal = "causal" if k["causal"] != "none" else "full"
    return (f"B{k['batch']} H{k['query_heads']}/{k['kv_heads']} D{k['head_dim']}"
            + (f"/{k['value_dim']}" if k["value_dim"] != k["head_dim"] else "")
            + f" {k['dtype']} {causal}")


# ---------------------------------------------------------------- on the GPU

def check_supported(k):
    if k.get("op") != "varlen_attention":
        raise ValueError(f"{k['name']}: not a packed forward kernel (op {k.get('op')})")
    if k.get("dropout_p") or k.get("softcap") or k.get("window"):
        raise ValueError("only plain and causal packed kernels are benchmarked here")


def packed_inputs(k, lens, seed):
    """The kernel's arguments: q, k, v random normal in the packed layout,
    the offsets as int32, output and lse poisoned (NaN shows what is unwritten)."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    cu = torch.tensor(offsets(lens), dtype=torch.int32, device="cuda")
    return kernel_tensors(k["params"], gen, {"cu_seqlens_q": cu, "cu_seqlens_k": cu.clone()})


def heads_first(t):
    """[L, H, D] token-major rows as a [1, H, L, D] view (no copy)."""
    return t.transpose(0, 1).unsqueeze(0)


def packed_grad_buffers(ks, args, seed):
    """The backward group's kernels and their buffers added to `args`: a
    random grad_output, workspaces and gradients poisoned with NaN."""
    group = [ks.kernel(n) for n, spec in ks.specs.items()
             if spec.get("op") == "varlen_attention_grad"]
    if not group:
        raise ValueError("--train: the manifest has no varlen_attention_grad kernels")
    gen = torch.Generator(device="cuda").manual_seed(seed + 1)
    out = args["output"]
    args["grad_output"] = torch.randn(out.shape, device="cuda", dtype=out.dtype, generator=gen)
    for kern in group:  # workspaces and gradients, poisoned
        args.update(kernel_tensors(kern.params(), gen, args))
    return group


def check_grads(args, lens, causal, scale, gqa):
    """Worst relative error of our dQ, dK, dV over the sequences against the
    math backend's float32 autograd of that sequence alone, and their NaNs."""
    cu = offsets(lens)
    err = 0.0
    for b in range(len(lens)):
        s, e = cu[b], cu[b + 1]
        if s == e:
            continue
        q, kk, v = (heads_first(args[n][s:e]).float().requires_grad_()
                    for n in ("query", "key", "value"))
        with sdpa_kernel([SDPBackend.MATH]):
            o = F.scaled_dot_product_attention(q, kk, v, is_causal=causal, enable_gqa=gqa,
                                               scale=scale)
        grads = torch.autograd.grad(o, (q, kk, v), heads_first(args["grad_output"][s:e]).float())
        for n, g in zip(("grad_query", "grad_key", "grad_value"), grads):
            err = max(err, rel_err(heads_first(args[n][s:e]), g))
        del q, kk, v, o, grads
    nans = sum(torch.isnan(args[n]).sum().item() for n in ("grad_query", "grad_key", "grad_value"))
    torch.cuda.empty_cache()
    return err, nans


def reference(q, kk, v, causal, scale, gqa):
    """Float32 output [L, Hq, Dv] and lse [Hq, L] of one sequence: PyTorch's
    math backend, and logsumexp of the scores."""
    qf, kf, vf = (heads_first(t).float() for t in (q, kk, v))
    with sdpa_kernel([SDPBackend.MATH]):
        o = F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal, enable_gqa=gqa,
                                           scale=scale)
    kf = kf.repeat_interleave(qf.shape[1] // kf.shape[1], dim=1)
    s = (qf @ kf.transpose(-1, -2)) * (scale if scale is not None else qf.shape[-1] ** -0.5)
    if causal:  # Lq = Lk: bottom-right and top-left are the same diagonal
        n = s.shape[-1]
        s.masked_fill_(torch.ones(n, n, dtype=torch.bool, device="cuda").triu(1), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)[0]
    return o[0].transpose(0, 1), lse


def check(k, args, lens, causal, gqa):
    """Worst relative error over the sequences of output and lse (None without
    lse), and the count of NaNs in ours."""
    cu = offsets(lens)
    out_err, lse_err = 0.0, (0.0 if "lse" in args else None)
    for b in range(len(lens)):
        s, e = cu[b], cu[b + 1]
        o, lse = reference(args["query"][s:e], args["key"][s:e], args["value"][s:e], causal,
                           k.get("scale"), gqa)
        out_err = max(out_err, rel_err(args["output"][s:e], o))
        if lse_err is not None:
            lse_err = max(lse_err, rel_err(args["lse"][:, s:e], lse))
        del o, lse
    nans = torch.isnan(args["output"]).sum().item()
    if "lse" in args:
        nans += torch.isnan(args["lse"]).sum().item()
    torch.cuda.empty_cache()
    return out_err, lse_err, nans


def first_timed(variants):
    """time_backend_ms of the first variant the backend accepts, and its note.
    A variant is (note, make): make() prepares its tensors (not timed) and
    returns the function to time."""
    for note, make in variants:
        ms = time_backend_ms(make())
        torch.cuda.empty_cache()
        if ms is not None:
            return ms, note
    return None, ""


def expand_kv(t, groups):
    """[B, Hkv, L, D] with each KV head repeated for its query heads, for a
    backend that refuses enable_gqa."""
    return t.repeat_interleave(groups, dim=1) if groups > 1 else t


def sdpa_step(backend, q, kk, v, causal, scale, gqa, mask=None, grad_output=None):
    """One SDPA call through `backend`; with `grad_output`, also the
    gradients of q, k and v (a training step)."""
    with sdpa_kernel([backend]):
        o = F.scaled_dot_product_attention(q, kk, v, attn_mask=mask, is_causal=causal,
                                           enable_gqa=gqa, scale=scale)
    if grad_output is not None:
        return torch.autograd.grad(o, (q, kk, v), grad_output)
    return o


def time_padded(backend, args, lens, causal, scale, groups, train=False):
    """The batch padded at the end to [B, H, Lmax, D] through one SDPA call
    (with `train`, and the gradients of the padded q, k, v).
    Causal: is_causal=True (top-left) on the padded tensors; a real query row
    i < L_b sees keys j <= i < L_b only, so the padding keys stay invisible
    and each real row gets its sequence's causal answer. Full attention: a
    boolean key-padding mask [B, 1, 1, Lmax] (FLASH refuses masks: "-").
    Padding rows compute garbage nobody reads."""
    cu, lmax = offsets(lens), max(lens)

    def pad(t):
        p = t.new_zeros(len(lens), t.shape[1], lmax, t.shape[2])
        for b, n in enumerate(lens):
            p[b, :, :n] = t[cu[b]:cu[b + 1]].transpose(0, 1)
        return p

    q, kk, v = pad(args["query"]), pad(args["key"]), pad(args["value"])
    dout = pad(args["grad_output"]) if train else None
    mask = None
    if not causal:
        mask = torch.arange(lmax, device="cuda")[None, :] < torch.tensor(lens, device="cuda")[:, None]
        mask = mask[:, None, None, :]

    def make(expand):
        kx, vx = (expand_kv(kk, groups), expand_kv(v, groups)) if expand else (kk, v)
        qx = q
        if train:
            qx, kx, vx = (t.detach().clone().requires_grad_() for t in (q, kx, vx))

        def fn():
            return sdpa_step(backend, qx, kx, vx, causal, scale, groups > 1 and not expand,
                             mask, dout)
        return fn

    variants = [("", lambda: make(False))]
    if groups > 1:
        variants.append(("kv heads expanded", lambda: make(True)))
    return first_timed(variants)


def time_loop(args, lens, causal, scale, groups, train=False):
    """The sequences one by one through SDPA CUDNN_ATTENTION (with `train`,
    and their gradients), a Python loop over per-sequence [1, H, L_b, D]
    views of the packed tensors prepared in advance, timed as one function;
    contiguous copies (and expanded KV heads) if cuDNN refuses the views'
    strides."""
    cu = offsets(lens)

    def make(copy_):
        seqs = []
        for b in range(len(lens)):
            q, kk, v = (heads_first(args[n][cu[b]:cu[b + 1]]) for n in ("query", "key", "value"))
            if copy_:
                q, kk, v = q.contiguous(), expand_kv(kk, groups).contiguous(), \
                    expand_kv(v, groups).contiguous()
            dout = None
            if train:
                q, kk, v = (t.detach().clone().requires_grad_() for t in (q, kk, v))
                dout = heads_first(args["grad_output"][cu[b]:cu[b + 1]])
                dout = dout.contiguous() if copy_ else dout
            seqs.append((q, kk, v, dout))
        gqa = groups > 1 and not copy_

        def fn():
            for q, kk, v, dout in seqs:
                sdpa_step(SDPBackend.CUDNN_ATTENTION, q, kk, v, causal, scale, gqa,
                          grad_output=dout)
        return fn

    return first_timed([("", lambda: make(False)),
                        ("contiguous copies, kv heads expanded", lambda: make(True))])


def run_draw(manifest, lens, seed, train=False):
    """Checks and times one draw; prints the details, returns (spec, errors,
    {name: (ms, note)}) or raises."""
    ks = KernelSet(manifest, seqlens=(lens, lens))
    fwd = ks.kernel(ks.forward())
    k = fwd.spec
    check_supported(k)
    causal = k["causal"] != "none"
    groups = k["query_heads"] // k["kv_heads"]
    scale = k.get("scale")
    args = packed_inputs(k, lens, seed)
    group = packed_grad_buffers(ks, args, seed) if train else []
    torch.cuda.synchronize()

    def params_of(kern):  # the run-time sizes (i32) are bound in the spec
        return {p["name"]: args[p["name"]] for p in kern.params() if p["kind"] not in ("i32", "tensor_map")}

    def ours():
        fwd.launch(**params_of(fwd))
        for kern in group:
            kern.launch(**params_of(kern))

    ours()
    torch.cuda.synchronize()
    out_err, lse_err, nans = check(k, args, lens, causal, groups > 1)
    grad_err = None
    if train:
        grad_err, grad_nans = check_grads(args, lens, causal, scale, groups > 1)
        nans += grad_nans
    errors = (out_err, lse_err, nans, grad_err)
    if not (out_err < TOLERANCE and (lse_err is None or lse_err < TOLERANCE) and nans == 0
            and (grad_err is None or grad_err < TOLERANCE)):
        return k, errors, None  # wrong answers are not timed
    ms = {"ours": (time_ms(ours), "")}
    ms["flash-pad"] = time_padded(SDPBackend.FLASH_ATTENTION, args, lens, causal, scale, groups,
                                  train)
    ms["cudnn-pad"] = time_padded(SDPBackend.CUDNN_ATTENTION, args, lens, causal, scale, groups,
                                  train)
    ms["cudnn-loop"] = time_loop(args, lens, causal, scale, groups, train)
    del args
    torch.cuda.empty_cache()
    return k, errors, ms


def report(k, lens, seed, errors, ms, gpu, train=False):
    """Prints the draw's details; returns its summary row (None if it failed)."""
    out_err, lse_err, nans, grad_err = errors
    err = f"out_err {out_err:.2e}" + (f" lse_err {lse_err:.2e}" if lse_err is not None else "") \
        + (f" grad_err {grad_err:.2e}" if grad_err is not None else "") \
        + (f" nan {nans}" if nans else "")
    if ms is None:
        print(f"  FAIL (not timed): {err}", flush=True)
        return None
    flops = real_flops(lens, k["query_heads"], k["head_dim"], k["value_dim"], k["causal"] != "none")
    flops *= 3.5 if train else 1.0
    ours_ms = ms["ours"][0]
    cells = []
    for name, (t, note) in ms.items():
        if t is None:
            print(f"  {name:11} {'-':>9}", flush=True)
            cells.append("– | – | –")
            continue
        tf, speedup = flops / t / 1e9, t / ours_ms
        print(f"  {name:11} {t:9.3f} ms {tf:7.1f} TFLOP/s  speedup {speedup:6.3f}"
              + (f"  ({note})" if note else ""), flush=True)
        cells.append(f"{t:.3f} | {tf:.1f}" + ("" if name == "ours" else f" | {speedup:.3f}")
                     + (" *" if note else ""))
    print(f"  {err}", flush=True)
    worst = max(out_err, grad_err or 0.0)
    return (f"| {datetime.date.today()} | {gpu} | {shape_text(k)}{' fwd+bwd' if train else ''} "
            f"| {seed} | {sum(lens)} (Lmax {max(lens)}) | " + " | ".join(cells)
            + f" | {worst:.1e} |")


SUMMARY_HEADER = ("| date | GPU | shape | seed | tokens | ours ms | TF/s "
                  "| flash-pad ms | TF/s | speedup | cudnn-pad ms | TF/s | speedup "
                  "| cudnn-loop ms | TF/s | speedup | err |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def main(argv):
    a = parse_args(argv)
    gpu = torch.cuda.get_device_name()
    print(f"# {gpu}, torch {torch.__version__}; do_bench median, L2 flushed; "
          f"{os.path.basename(a.manifest)}{' forward + backward' if a.train else ''}; B {a.batch}, lengths log-uniform in [{a.min}, {a.max}], "
          f"seed {a.seed}")
    print("# speedup = their ms / our ms; TFLOP/s of the unpadded work; "
          "* = needed a fallback (see the note); padding copies not timed (favours PyTorch)")
    bad = 0
    rows = []
    for i in range(a.repeat_draws):
        seed = a.seed + i
        lens = longtail_lengths(a.batch, a.min, a.max, seed)
        print(f"draw {i}: seed {seed}, lengths {lens} (tokens {sum(lens)}, max {max(lens)})", flush=True)
        try:
            k, errors, ms = run_draw(a.manifest, lens, seed, a.train)
        except Exception as e:  # noqa: BLE001 (report and go on with the next draw)
            print(f"  ERROR {type(e).__name__}: {str(e)[:300]}", flush=True)
            bad += 1
            continue
        row = report(k, lens, seed, errors, ms, gpu, a.train)
        bad += row is None
        rows += [row] if row else []
    if rows:  # one line per draw, for docs/performance.md
        print("\n" + SUMMARY_HEADER)
        print("\n".join(rows))
    return bad


if __name__ == "__main__":
    if torch is None:
        sys.exit("bench_varlen.py: needs torch and triton (run it on the GPU machine)")
    sys.exit(min(main(sys.argv[1:]), 125))
