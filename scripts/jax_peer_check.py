#!/usr/bin/env python3
"""Checks attn.attention against a peer implementation, jax.nn.dot_product_attention.

For each .mlir file, runs `attn-cpu-run FILE --seed=S --dump-dir=DIR` (for the
seeds of the file's RUN lines), then, for every dumped op whose features jax
supports, evaluates jax.nn.dot_product_attention (implementation="xla",
jax_enable_x64) on exactly the inputs the kernel and the float64 reference saw,
and compares:

  jax(stock) ~ ref   jax as shipped against our float64 C++ reference. jax's
                     XLA path casts the logits to float32 before the softmax
                     (jax/_src/nn/functions.py, _dot_product_attention_core:
                     `padded_logits = padded_logits.astype(np.float32)`), even
                     with x64 on, so agreement is ~1e-7, not 1e-12.
  jax(x64) ~ ref     the same jax function with that one cast widened to the
                     logits dtype (float64): agreement ~1e-13 expected.
  ours ~ jax         the compiled output (and lse) against jax(x64), within
                     the element-type tolerance of attn-cpu-run.

Semantics mapping (ours [B,H,L,D] -> jax [B,T,N,H]):
  - q/k/v are transposed (0,2,1,3); the mask is already in jax's BNTS layout.
  - boolean mask -> mask=, additive mask -> bias=; GQA is native in jax.
  - causal=top_left -> is_causal=True (jax: tril, j <= i).
  - causal=bottom_right: with Lq == Lk the same as top_left; otherwise it is
    expressed with jax's window, whose bounds are plain offsets from j = i
    (left: j >= i - left, right: j <= i + right, any sign): the diagonal
    shift delta = Lk - Lq goes into both offsets.
  - window [left, right], -1 = unbounded: jax has no "unbounded" value (-1
    there means j >= i + 1 / j <= i - 1, and None raises), so -1 becomes an
    offset larger than any |i - j|.
  - D != Dv: jax requires value.shape == key.shape; the output is linear in
    the columns of V, so V is split in D-wide column chunks (zero padded).
  - Rows in which our reference allows no key with a finite score (output 0,
    lse -inf by our definition) are excluded from the comparison: jax gives
    such rows a different value (reported per op in the `empty` column).
  - Not supported by jax.nn.dot_product_attention, reported as SKIP: dropout,
    softcap.

Exit status: 0 if every compared op agrees (or, without jax and without
ATTN_REQUIRE_JAX, after printing "SKIPPED: jax not installed"); 1 otherwise.
"""

import argparse
import contextlib
import glob
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# fuse-*.mlir hold unfused chains (attn-fuse's input), not attn.attention.
DEFAULT_INPUTS = sorted(
    f for f in glob.glob(os.path.join(ROOT, "test/Execution/CPU/*.mlir"))
    if not os.path.basename(f).startswith("fuse"))
PEER_CASES = os.path.join(ROOT, "test/Execution/CPU/peer-jax-cases.mlir")

# attn-cpu-run's default output tolerances (CpuRunner.cpp, defaultTolerance)
# and its lse tolerance.
ELEMENT_TOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 8e-3}
LSE_TOL = 1e-5
# jax as shipped vs the float64 reference: logits rounded to float32 before
# the softmax give ~1e-7 relative errors; 1e-5 leaves room, and any semantic
# difference (one key more or less) is orders of magnitude larger.
STOCK_TOL = 1e-5
# jax with a float64 softmax vs the float64 reference.
X64_TOL = 1e-10


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="*",
                    help="attn .mlir files (default: test/Execution/CPU/*.mlir, "
                         "which includes peer-jax-cases.mlir)")
    ap.add_argument("--attn-cpu-run", default=os.environ.get("ATTN_CPU_RUN"),
                    help="path of attn-cpu-run (default: $ATTN_CPU_RUN, "
                         "build/bin/attn-cpu-run, then PATH)")
    ap.add_argument("--seeds", default=None,
                    help="comma-separated input seeds for every file (default: "
                         "the --seed=N values of each file's RUN lines, or 1)")
    ap.add_argument("--lowering", default=None,
                    help="passed to attn-cpu-run --lowering")
    ap.add_argument("--keep-dumps", default=None, metavar="DIR",
                    help="write the dumps here and keep them (default: a "
                         "temporary directory, removed afterwards)")
    ap.add_argument("--skip-exit-code", type=int, default=0,
                    help="exit status when jax is missing and not required "
                         "(default 0; ctest uses 77 with SKIP_RETURN_CODE)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print attn-cpu-run's output")
    return ap.parse_args()


def import_jax_or_exit(skip_code):
    try:
        import jax  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        required = os.environ.get("ATTN_REQUIRE_JAX", "") not in ("", "0")
        if required:
            print(f"ERROR: ATTN_REQUIRE_JAX is set but jax cannot be imported "
                  f"({e}); install it with: python3 -m pip install -r "
                  f"scripts/requirements-peer.txt")
            sys.exit(1)
        print(f"SKIPPED: jax not installed ({e}); install with "
              f"'python3 -m pip install -r scripts/requirements-peer.txt', "
              f"set ATTN_REQUIRE_JAX=1 to make this an error")
        sys.exit(skip_code)
    import jax
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


def find_attn_cpu_run(arg):
    candidates = [arg] if arg else [os.path.join(ROOT, "build/bin/attn-cpu-run")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    if not arg:
        from shutil import which
        w = which("attn-cpu-run")
        if w:
            return w
    print(f"ERROR: attn-cpu-run not found (tried {candidates} and PATH); "
          f"pass --attn-cpu-run")
    sys.exit(1)


def seeds_of(path, override):
    if override:
        return [int(s) for s in override.split(",") if s]
    seeds = []
    with open(path) as f:
        for line in f:
            if "RUN:" in line:
                for m in re.finditer(r"--seed=(\d+)", line):
                    if int(m.group(1)) not in seeds:
                        seeds.append(int(m.group(1)))
    return seeds or [1]


# ---------------------------------------------------------------------------
# jax, as shipped and with a float64 softmax


class JaxPeer:
    """jax.nn.dot_product_attention, plus the float64-softmax variant."""

    CAST = "padded_logits = padded_logits.astype(np.float32)"

    def __init__(self, jax):
        import numpy as np
        from jax._src.nn import functions as F
        self.jax, self.np, self.F = jax, np, F
        self.stock_core = F._dot_product_attention_core
        self.x64_core = None
        self._jit = {}
        self.x64_note = ""
        try:
            src = inspect.getsource(self.stock_core)
        except (OSError, TypeError) as e:
            src = ""
            self.x64_note = f"source unavailable ({e})"
        if src and src.count(self.CAST) == 1 and src.startswith("def "):
            ns = dict(F.__dict__)
            exec(compile(src.replace(self.CAST,
                                     "padded_logits = padded_logits.astype(logits_dtype)"),
                         F.__file__, "exec"), ns)
            self.x64_core = ns["_dot_product_attention_core"]
        elif src:
            self.x64_note = ("the float32 cast before the softmax was not found "
                             "in _dot_product_attention_core")

    def _jitted(self, x64):
        """One jitted call per variant: one XLA compile per shape instead of
        one per primitive (eager), the same computation."""
        if x64 not in self._jit:
            def call(q, k, v, bias, mask, scale, is_causal, local_window_size):
                return self.jax.nn.dot_product_attention(
                    q, k, v, bias=bias, mask=mask, scale=scale,
                    is_causal=is_causal, local_window_size=local_window_size,
                    implementation="xla", return_residual=True)
            self._jit[x64] = self.jax.jit(
                call, static_argnames=("scale", "is_causal", "local_window_size"))
        return self._jit[x64]

    @contextlib.contextmanager
    def _core(self, fn):
        self.F._dot_product_attention_core = fn
        try:
            yield
        finally:
            self.F._dot_product_attention_core = self.stock_core

    def __call__(self, x64, q, k, v, **kw):
        """q/k/v in our [B,H,L,D] layout; returns (out [B,H,Lq,Dv], lse [B,H,Lq])."""
        np = self.np
        core = self.x64_core if x64 else self.stock_core
        D, Dv = q.shape[3], v.shape[3]
        qt, kt = q.transpose(0, 2, 1, 3), k.transpose(0, 2, 1, 3)
        outs, lse = [], None
        with self._core(core):
            for c0 in range(0, Dv, D):
                chunk = v[..., c0:c0 + D]
                width = chunk.shape[3]
                if width < D:
                    chunk = np.concatenate(
                        [chunk, np.zeros(chunk.shape[:3] + (D - width,))], axis=3)
                o, l = self._jitted(x64)(
                    qt, kt, chunk.transpose(0, 2, 1, 3), kw.get("bias"),
                    kw.get("mask"), kw["scale"], kw.get("is_causal", False),
                    kw.get("local_window_size"))
                outs.append(np.asarray(o).transpose(0, 2, 1, 3)[..., :width])
                if lse is None:
                    lse = np.asarray(l).transpose(0, 2, 1)
        return np.concatenate(outs, axis=3), lse


def jax_arguments(meta, mask):
    """Maps our attributes to jax's keyword arguments; returns (kw, notes)."""
    Lq, Lk = meta["query_len"], meta["key_len"]
    big = Lq + Lk  # larger than any |i - j|: an unbounded side
    causal, window = meta["causal"], meta["window"]
    delta = Lk - Lq if causal == "bottom_right" else 0
    kw = {"scale": float(meta["scale"])}
    notes = []
    if causal == "top_left" or (causal == "bottom_right" and delta == 0):
        kw["is_causal"] = True
        if causal == "bottom_right":
            notes.append("bottom_right(Lq=Lk)->is_causal")
    left = right = None
    if window is not None:
        wl, wr = window
        left = big if wl == -1 else wl - delta
        right = big if wr == -1 else wr + delta
    if causal == "bottom_right" and delta != 0:
        # j <= i + delta, as the right bound of a window.
        right = delta if right is None else min(right, delta)
        left = big if left is None else left
        notes.append(f"bottom_right->window shift {delta:+d}")
    if left is not None:
        kw["local_window_size"] = (int(left), int(right))
        notes.append(f"local_window_size=({left},{right})")
    kind = meta["mask"]["kind"]
    if kind == "boolean":
        kw["mask"] = mask != 0
    elif kind == "additive":
        kw["bias"] = mask
    if meta["value_dim"] != meta["head_dim"]:
        notes.append("Dv!=D: V in D-wide chunks")
    return kw, notes


def unsupported(meta):
    if meta["dropout_p"] > 0:
        return "dropout: jax.nn.dot_product_attention has none"
    if meta["softcap"] is not None:
        return "softcap: jax.nn.dot_product_attention has none"
    return None


def structurally_allowed(meta, np, mask):
    """[B|1, H|1, Lq, Lk] keys allowed by causal, window and boolean mask."""
    Lq, Lk = meta["query_len"], meta["key_len"]
    i = np.arange(Lq)[:, None]
    j = np.arange(Lk)[None, :]
    delta = Lk - Lq if meta["causal"] == "bottom_right" else 0
    ok = np.ones((Lq, Lk), bool)
    if meta["causal"] != "none":
        ok &= j <= i + delta
    if meta["window"] is not None:
        wl, wr = meta["window"]
        if wl >= 0:
            ok &= j >= i + delta - wl
        if wr >= 0:
            ok &= j <= i + delta + wr
    ok = ok[None, None]
    if meta["mask"]["kind"] == "boolean":
        ok = ok & (mask != 0)
    return ok


def describe_empty_rows(meta, np, mask, v, out, lse, empty):
    """What jax does on rows where we define output 0 / lse -inf."""
    if not empty.any():
        return "-"
    B, Hq, Lq = empty.shape
    G = meta["query_heads"] // meta["kv_heads"]
    allowed = np.broadcast_to(structurally_allowed(meta, np, mask),
                              (B, Hq, Lq, meta["key_len"]))
    kinds = {}
    for b, h, i in zip(*np.nonzero(empty)):
        o = out[b, h, i]
        vv = v[b, h // G]
        scale = max(1.0, np.abs(vv).max())
        if np.isnan(o).any():
            kind = "NaN"
        elif np.allclose(o, vv.mean(0), rtol=0, atol=1e-5 * scale):
            kind = "mean(v) over all keys"
        elif (~allowed[b, h, i]).any() and np.allclose(
                o, vv[~allowed[b, h, i]].mean(0), rtol=0, atol=1e-5 * scale):
            kind = "mean(v) over the keys masked out"
        elif np.allclose(o, 0, atol=0):
            kind = "0"
        else:
            kind = "other"
        l = lse[b, h, i]
        kind += ", lse " + ("NaN" if np.isnan(l) else "-inf" if np.isneginf(l)
                            else f"{l:.3g}")
        kinds[kind] = kinds.get(kind, 0) + 1
    return "; ".join(f"{n}: {k}" for k, n in sorted(kinds.items()))


def rel_err(np, got, want, rows):
    """attn-cpu-run's metric: max |got - want| / max |want| over `rows`."""
    g, w = got[rows], want[rows]
    if g.size == 0:
        return 0.0
    if np.isnan(g).any() or np.isnan(w).any():
        return float("nan")
    m = np.abs(w).max()
    d = np.abs(g - w).max()
    return d / m if m > 0 else d


def lse_err(np, got, want, rows):
    g, w = got[rows], want[rows]
    if g.size == 0:
        return 0.0
    if np.isnan(g).any() or not np.isfinite(w).all() or not np.isfinite(g).all():
        return float("nan")
    return float((np.abs(g - w) / np.maximum(1.0, np.abs(w))).max())


def load(np, d, meta, name):
    a = meta["arrays"][name]
    return np.fromfile(os.path.join(d, a["file"]), dtype="<f8").reshape(a["shape"])


def check_op(peer, d, meta):
    np = peer.np
    row = {"op": meta["index"], "func": meta["function"],
           "type": meta["element_type"], "feats": features(meta)}
    why = unsupported(meta)
    if why:
        row.update(status="SKIP", note=why)
        return row
    q, k, v = (load(np, d, meta, n) for n in ("q", "k", "v"))
    mask = load(np, d, meta, "mask") if "mask" in meta["arrays"] else None
    out, ref_out, ref_lse = (load(np, d, meta, n) for n in ("out", "ref_out", "ref_lse"))
    lse = load(np, d, meta, "lse") if meta["has_lse"] else None
    kw, notes = jax_arguments(meta, mask)

    stock_out, stock_lse = peer(False, q, k, v, **kw)
    x64 = peer.x64_core is not None
    peer_out, peer_lse = peer(True, q, k, v, **kw) if x64 else (stock_out, stock_lse)

    empty = np.isneginf(ref_lse)          # our convention: output 0, lse -inf
    rows = ~empty
    tol = ELEMENT_TOL.get(meta["element_type"], 8e-3)
    e_stock = rel_err(np, stock_out, ref_out, rows)
    e_stock_lse = lse_err(np, stock_lse, ref_lse, rows)
    e_x64 = rel_err(np, peer_out, ref_out, rows) if x64 else None
    e_x64_lse = lse_err(np, peer_lse, ref_lse, rows) if x64 else None
    e_ours = rel_err(np, out, peer_out, rows)
    e_ours_lse = lse_err(np, lse, peer_lse, rows) if lse is not None else None

    def bad(e, t):
        return e is not None and not (e <= t)  # NaN is bad
    fails = []
    if bad(e_stock, STOCK_TOL) or bad(e_stock_lse, STOCK_TOL):
        fails.append("jax(stock)~ref")
    if bad(e_x64, X64_TOL) or bad(e_x64_lse, X64_TOL):
        fails.append("jax(x64)~ref")
    if bad(e_ours, tol) or bad(e_ours_lse, LSE_TOL):
        fails.append("ours~jax")
    # Our own convention on empty rows, checked against our reference.
    if empty.any():
        if not np.all(out[empty] == 0.0):
            fails.append("ours: empty rows not 0")
        if lse is not None and not np.all(np.isneginf(lse[empty])):
            fails.append("ours: empty-row lse not -inf")

    row.update(
        status="MISMATCH" if fails else "OK",
        stock=e_stock, stock_lse=e_stock_lse, x64=e_x64, x64_lse=e_x64_lse,
        ours=e_ours, ours_lse=e_ours_lse, tol=tol,
        empty=f"{int(empty.sum())}/{empty.size}",
        empty_jax=describe_empty_rows(meta, np, mask, v, stock_out, stock_lse, empty),
        note=", ".join(notes + (["FAILED: " + ", ".join(fails)] if fails else [])))
    return row


def features(meta):
    f = []
    if meta["query_heads"] != meta["kv_heads"]:
        f.append("gqa" if meta["kv_heads"] > 1 else "mqa")
    if meta["causal"] != "none":
        f.append({"top_left": "tl", "bottom_right": "br"}[meta["causal"]])
    if meta["window"] is not None:
        f.append("w[%d,%d]" % tuple(meta["window"]))
    kind = meta["mask"]["kind"]
    if kind != "none":
        f.append(("bool" if kind == "boolean" else "bias")
                 + "x".join(str(s) for s in meta["mask"]["shape"]))
    if meta["softcap"] is not None:
        f.append("softcap")
    if meta["dropout_p"] > 0:
        f.append("dropout")
    if meta["value_dim"] != meta["head_dim"]:
        f.append("Dv!=D")
    f.append(f"{meta['query_len']}x{meta['key_len']}")
    return " ".join(f)


def fmt(e):
    if e is None:
        return "-"
    return f"{e:.1e}"


def main():
    args = parse_args()
    jax = import_jax_or_exit(args.skip_exit_code)
    runner = find_attn_cpu_run(args.attn_cpu_run)
    peer = JaxPeer(jax)
    inputs = args.inputs or DEFAULT_INPUTS
    if not args.inputs and PEER_CASES not in inputs:
        inputs.append(PEER_CASES)

    print(f"jax {jax.__version__} (jaxlib {__import__('jaxlib').__version__}), "
          f"x64, implementation=xla; attn-cpu-run: {runner}")
    if peer.x64_core is None:
        print(f"note: jax(x64) column unavailable: {peer.x64_note}; "
              f"ours~jax uses jax(stock)")

    rows, run_failures = [], []
    with contextlib.ExitStack() as stack:
        base = args.keep_dumps or stack.enter_context(
            tempfile.TemporaryDirectory(prefix="jax-peer-"))
        for path in inputs:
            for seed in seeds_of(path, args.seeds):
                name = os.path.basename(path)
                d = os.path.join(base, f"{os.path.splitext(name)[0]}.seed{seed}")
                cmd = [runner, path, f"--seed={seed}", f"--dump-dir={d}"]
                if args.lowering:
                    cmd.append(f"--lowering={args.lowering}")
                p = subprocess.run(cmd, capture_output=True, text=True)
                if args.verbose:
                    print(p.stdout + p.stderr)
                if p.returncode != 0:
                    run_failures.append(f"{name} seed {seed}: attn-cpu-run "
                                        f"exited {p.returncode}")
                    sys.stdout.write(p.stdout[-2000:] + p.stderr[-2000:])
                metas = sorted(glob.glob(os.path.join(d, "op*.json")),
                               key=lambda s: int(re.findall(r"op(\d+)", s)[-1]))
                if not metas:
                    run_failures.append(f"{name} seed {seed}: no dump written")
                for mpath in metas:
                    with open(mpath) as f:
                        meta = json.load(f)
                    try:
                        row = check_op(peer, d, meta)
                    except Exception as e:  # a jax error is a failed check
                        row = {"op": meta["index"], "func": meta["function"],
                               "type": meta["element_type"],
                               "feats": features(meta), "status": "MISMATCH",
                               "note": f"jax raised {type(e).__name__}: {e}"}
                    row["file"] = f"{name}:{seed}"
                    rows.append(row)

    hdr = (f"{'file:seed':<24} {'#':>2} {'function':<26} {'type':<4} "
           f"{'features':<34} {'status':<8} {'jaxF32~ref':>10} {'jax64~ref':>9} "
           f"{'lse64~ref':>9} {'ours~jax':>8} {'(tol)':>7} {'lse~jax':>7} "
           f"{'empty':>7}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print(f"{r['file']:<24} {r['op']:>2} {r['func'][:26]:<26} {r['type']:<4} "
              f"{r['feats'][:34]:<34} {r['status']:<8} "
              f"{fmt(r.get('stock')):>10} {fmt(r.get('x64')):>9} "
              f"{fmt(r.get('x64_lse')):>9} {fmt(r.get('ours')):>8} "
              f"{fmt(r.get('tol')):>7} {fmt(r.get('ours_lse')):>7} "
              f"{r.get('empty', '-'):>7}")
    print()
    print("notes (mapping to jax, skip reasons, what jax gives on rows where "
          "we define output 0 / lse -inf):")
    for r in rows:
        extra = []
        if r.get("note"):
            extra.append(r["note"])
        if r.get("empty_jax", "-") != "-":
            extra.append("jax on empty rows: " + r["empty_jax"])
        if extra:
            print(f"  {r['file']} #{r['op']} {r['func']}: " + " | ".join(extra))
    for f in run_failures:
        print("FAILED: " + f)

    n_ok = sum(r["status"] == "OK" for r in rows)
    n_bad = sum(r["status"] == "MISMATCH" for r in rows) + len(run_failures)
    n_skip = sum(r["status"] == "SKIP" for r in rows)
    print(f"\njax-peer-check: {n_ok} passed, {n_bad} failed, {n_skip} skipped")
    if n_ok == 0 and n_bad == 0:
        print("FAILED: no op was compared")
        return 1
    return 1 if n_bad else 0


if __name__ == "__main__":
    sys.exit(main())
