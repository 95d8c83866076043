#!/usr/bin/env python3
"""Checks attn.attention(_grad) against a peer, jax.nn.dot_product_attention.

FORWARD (--ops=forward, ctest jax-peer-check). For each .mlir file, runs
`attn-cpu-run FILE --seed=S --dump-dir=DIR` (for the seeds of the file's RUN
lines), then, for every dumped op whose features jax supports, evaluates
jax.nn.dot_product_attention (implementation="xla", jax_enable_x64) on exactly
the inputs the kernel and the float64 reference saw, and compares:

  jax(stock) ~ ref   jax as shipped against our float64 C++ reference. jax's
                     XLA path casts the logits to float32 before the softmax
                     (jax/_src/nn/functions.py, _dot_product_attention_core:
                     `padded_logits = padded_logits.astype(np.float32)`), even
                     with x64 on, so agreement is ~1e-7, not 1e-12.
  jax(x64) ~ ref     the same jax function with that one cast widened to the
                     logits dtype (float64): agreement ~1e-13 expected.
  ours ~ jax         the compiled output (and lse) against jax(x64), within
                     the element-type tolerance of attn-cpu-run.

Packed batches (attn.varlen_attention(_grad), docs/semantics.md §14): each
sequence with a query and a key is dumped as the batch-1 dense problem it is
(varlenN.seqB / vgradN.seqB, sliced from the packed tensors by attn-cpu-run;
lib/Execution/DumpArrays.h) and checked like any other op; the row's
function carries the sequence ("f[s2]").

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
    softcap. That includes dropout with an explicit keep mask (dropout_mask):
    jax.nn.dot_product_attention takes a mask before the softmax only, and a
    keep mask applied after normalization (l and lse pre-dropout) cannot be
    expressed through it.

GRADIENTS (--ops=grad, ctest jax-peer-check-grad). For each .mlir file with
attn.attention_grad ops (gradients.mlir and peer-jax-grad-cases.mlir; the
latter is mostly f32 and covers everything jax can express), runs
attn-cpu-run once per RUN line (its --seed and --lowering: the tiled backward
too), which dumps gradN.* files (lib/Execution/DumpArrays.h). attn-cpu-run
feeds the op the float64 forward reference's O and lse ROUNDED to the op's
types (O to the element type, lse to f32), and its own check compares the
compiled dQ/dK/dV with the float64 gradient reference evaluated on exactly
those rounded O/lse ("ref"). jax, in contrast, differentiates its own
forward: the exact gradient of the inputs. Comparing jax with "ref" would
therefore measure the rounding of O/lse (~1e-7 relative in f32, ~1e-3 in
bf16), not the gradient formula. So the dump also carries "ref64": our
gradient reference evaluated on the UNROUNDED float64 forward results; that
is the same mathematical object as jax's VJP and must agree to ~1e-12. The
columns (each the max over dq, dk, dv of attn-cpu-run's metric
max|got - want| / max|want|; the letter says which gradient):

  jaxF32~ref64   jax.vjp of jax as shipped (float32 softmax, see above) vs
                 ref64: ~1e-7, tolerance STOCK_TOL.
  jax64~ref64    jax.vjp with the float64 softmax vs ref64: ~1e-15,
                 tolerance X64_TOL. This is the check of our gradient
                 reference (lib/Reference/AttentionGradReference.cpp)
                 against an independent autodiff of an independent forward.
  given~jax64    ref (on the rounded O/lse) vs jax(x64): what rounding O/lse
                 to the op's types does to the gradient; checked against the
                 element-type tolerance (if it failed, the inputs, not the
                 code, would make attn-cpu-run's own check meaningless).
  ours~jax64     the compiled dQ/dK/dV vs jax(x64), within the element-type
                 tolerance of attn-cpu-run (the same bounds as the forward).
                 It includes the rounding of O/lse above, so f32 ops are the
                 tight ones (~5e-7); bf16/f16 land at ~3e-3/~5e-4.

The attributes map to jax as for the forward (same function); the VJP is
taken w.r.t. q, k, v in jax's layout (ours [B,H,L,D] transposed (0,2,1,3)
and back); GQA/MQA is native (jax sums dK/dV over the group); D != Dv
differentiates the concatenation of the D-wide V chunks. The mask and bias
are constants (no gradient), as in ours.

Fully masked rows (our lse = -inf): by our definition (docs/semantics.md
§13) they have dQ = 0 and feed nothing into dK/dV, whatever dO holds. jax
gives them a forward value and differentiates it: it masks with a large
finite negative, so a row with no allowed key attends uniformly to all keys,
a row whose allowed keys all have a -inf bias attends uniformly to the keys
it masks out, and a row that is -inf bias everywhere is NaN.
As in the forward check, only what both define is compared: dQ on rows with
at least one allowed key, and dK/dV with dO zeroed on the fully masked rows
(for a -inf bias row, the bias is also set to 0 on that row for jax, since
jax's NaN would otherwise reach every dK/dV entry through the sums). Our
compiled dQ (and both references') must be exactly 0 on those rows. What jax
does with the unmodified dO is reported per op in the notes ("dq 0 on empty
rows, dk unchanged, dv off by X": the uniform rows feed mean-style terms
into dV; or "NaN" for -inf bias rows).

Not supported by jax.nn.dot_product_attention, reported as SKIP: dropout
(jax has no dropout argument, so no way to reproduce our Philox keep mask,
nor to apply an explicit dropout_mask after the normalization) and softcap.

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


def run_lines(path):
    """The RUN lines of `path` that run attn-cpu-run and expect it to pass
    (`RUN: not attn-cpu-run ...` lines test errors)."""
    with open(path) as f:
        return [line for line in f
                if re.search(r"RUN:\s*attn-cpu-run\b", line)]


# fuse-*.mlir hold unfused chains (attn-fuse's input), not attn.attention;
# files whose RUN lines only test errors have nothing to compare.
DEFAULT_INPUTS = sorted(
    f for f in glob.glob(os.path.join(ROOT, "test/Execution/CPU/*.mlir"))
    if not os.path.basename(f).startswith("fuse") and run_lines(f))
PEER_CASES = os.path.join(ROOT, "test/Execution/CPU/peer-jax-cases.mlir")
PEER_GRAD_CASES = os.path.join(ROOT, "test/Execution/CPU/peer-jax-grad-cases.mlir")
# Which files hold which ops (--ops picks the files, then the dumps).
FORWARD_RE = re.compile(r"\battn\.(varlen_)?attention\s")
GRAD_RE = re.compile(r"\battn\.(varlen_)?attention_grad\b")

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
                         "which includes peer-jax-cases.mlir and "
                         "peer-jax-grad-cases.mlir; of these, --ops runs the "
                         "files that hold such ops)")
    ap.add_argument("--attn-cpu-run", default=os.environ.get("ATTN_CPU_RUN"),
                    help="path of attn-cpu-run (default: $ATTN_CPU_RUN, "
                         "build/bin/attn-cpu-run, then PATH)")
    ap.add_argument("--seeds", default=None,
                    help="comma-separated input seeds for every file (default: "
                         "the --seed=N values of each file's RUN lines, or 1; "
                         "for gradients, the (--seed, --lowering) pairs of the "
                         "RUN lines)")
    ap.add_argument("--lowering", default=None,
                    help="passed to attn-cpu-run --lowering (for gradients it "
                         "replaces the RUN lines' lowerings)")
    ap.add_argument("--keep-dumps", default=None, metavar="DIR",
                    help="write the dumps here and keep them (default: a "
                         "temporary directory, removed afterwards)")
    ap.add_argument("--skip-exit-code", type=int, default=0,
                    help="exit status when jax is missing and not required "
                         "(default 0; ctest uses 77 with SKIP_RETURN_CODE)")
    ap.add_argument("--ops", choices=("forward", "grad", "all"), default="all",
                    help="check attn.attention (forward), attn.attention_grad "
                         "(grad) or both (default); only the input files "
                         "that hold such ops are run")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print attn-cpu-run's output and, for gradients, "
                         "each of dq/dk/dv's errors")
    return ap.parse_args()


# The jax computations here are tiny and XLA's CPU compile time dominates
# the run time (each op has its own shapes): compile with LLVM's
# optimizations turned down (about half the compile time). Neither flag
# changes the arithmetic (no fast-math either way). An XLA_FLAGS that sets
# one of them already wins.
FAST_COMPILE_FLAGS = ("--xla_backend_optimization_level=0",
                      "--xla_llvm_disable_expensive_passes=true")


def import_jax_or_exit(skip_code):
    flags = os.environ.get("XLA_FLAGS", "")
    for flag in FAST_COMPILE_FLAGS:
        if flag.split("=")[0] not in flags:
            flags = (flags + " " + flag).strip()
    os.environ["XLA_FLAGS"] = flags
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
    for line in run_lines(path):
        for m in re.finditer(r"--seed=(\d+)", line):
            if int(m.group(1)) not in seeds:
                seeds.append(int(m.group(1)))
    return seeds or [1]


def sizes_of(path):
    """The --sizes draws of the file's RUN lines (ops with run-time sizes),
    each run on its own (--dump-dir takes one draw); [None] without any."""
    draws = []
    for line in run_lines(path):
        for m in re.finditer(r"--sizes[= ](\S+)", line):
            if m.group(1) not in draws:
                draws.append(m.group(1))
    return draws or [None]


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

    def _grad_jitted(self, with_raw):
        """jax.vjp of dot_product_attention w.r.t. q, k, v, for jax as shipped
        ("stock"), with the float64 softmax ("x64") and, if `with_raw`, as
        shipped on the unmodified dO and bias ("raw"), all in one jitted call:
        XLA's compile time dominates and one compile of the three costs much
        less than three. D != Dv: the output is the concatenation of the
        D-wide V chunks' outputs (as in __call__); jax differentiates that."""
        key = ("grad", with_raw)
        if key not in self._jit:
            jax = self.jax
            jnp = jax.numpy

            def vjp(q, k, v, dout, bias, mask, scale, is_causal,
                    local_window_size):
                D, Dv = q.shape[3], v.shape[3]

                def f(q, k, v):
                    outs = []
                    for c0 in range(0, Dv, D):
                        chunk = v[..., c0:c0 + D]
                        width = chunk.shape[3]
                        if width < D:
                            chunk = jnp.pad(chunk, [(0, 0)] * 3 + [(0, D - width)])
                        o = jax.nn.dot_product_attention(
                            q, k, chunk, bias=bias, mask=mask, scale=scale,
                            is_causal=is_causal,
                            local_window_size=local_window_size,
                            implementation="xla")
                        outs.append(o[..., :width])
                    return jnp.concatenate(outs, axis=3)
                out, pullback = jax.vjp(f, q, k, v)
                return (out,) + tuple(pullback(dout))

            def call(q, k, v, dout, bias, mask, dout_raw, bias_raw, scale,
                     is_causal, local_window_size):
                # The core is looked up when tracing, so swapping it around
                # each variant's trace selects that variant.
                variants = [("stock", self.stock_core, dout, bias)]
                if self.x64_core is not None:
                    variants.append(("x64", self.x64_core, dout, bias))
                if with_raw:
                    variants.append(("raw", self.stock_core, dout_raw, bias_raw))
                res = {}
                for name, core, do, b in variants:
                    with self._core(core):
                        res[name] = vjp(q, k, v, do, b, mask, scale, is_causal,
                                        local_window_size)
                return res
            self._jit[key] = jax.jit(
                call, static_argnames=("scale", "is_causal", "local_window_size"))
        return self._jit[key]

    def grad(self, q, k, v, dout, raw=None, **kw):
        """The VJPs with cotangent `dout`, all in our [B,H,L,*] layout;
        raw = (dout, bias) adds the "raw" variant. Returns
        {variant: {"out", "dq", "dk", "dv"}} (see _grad_jitted)."""
        np = self.np
        t = lambda a: None if a is None else a.transpose(0, 2, 1, 3)  # noqa: E731
        dout_raw, bias_raw = raw if raw is not None else (None, None)
        res = self._grad_jitted(raw is not None)(
            t(q), t(k), t(v), t(dout), kw.get("bias"), kw.get("mask"),
            t(dout_raw), bias_raw, kw["scale"], kw.get("is_causal", False),
            kw.get("local_window_size"))
        return {variant: {n: t(np.asarray(a))
                          for n, a in zip(("out", "dq", "dk", "dv"), r)}
                for variant, r in res.items()}


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
    sizes = [meta.get(n) for n in ("batch", "query_len", "key_len")]
    if any(n == 0 for n in sizes if n is not None):
        # (attn-cpu-run checks those against our own float64 reference:
        # output 0, lse -inf for rows with no key.)
        return "a size of 0: jax.nn.dot_product_attention takes none"
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


GRADS = ("dq", "dk", "dv")


def worst(errs):
    """(max error, name) over a {name: error} dict; NaN wins."""
    if errs is None:
        return None, ""
    for n, e in errs.items():
        if e != e:
            return e, n
    n = max(errs, key=errs.get)
    return errs[n], n


def describe_empty_grad_rows(np, empty, raw, clean):
    """What jax's VJP does with rows where we define no gradient: `raw` is
    jax(stock) with the dumped dO and bias, `clean` with dO zeroed (and a -inf
    bias replaced by 0) on those rows."""
    if not empty.any():
        return "-"
    dq = raw["dq"][empty]
    if np.isnan(dq).any():
        parts = [f"dq NaN on {int(np.isnan(dq).any(axis=-1).sum())} of "
                 f"{int(empty.sum())} empty rows"]
    elif not dq.any():
        parts = ["dq 0 on empty rows"]
    else:
        parts = [f"dq nonzero on empty rows (max |dq| {np.abs(dq).max():.2g})"]
    everywhere = np.ones(raw["dk"].shape[:3], bool)
    for n in ("dk", "dv"):
        if np.isnan(raw[n]).any():
            parts.append(f"{n} NaN ({int(np.isnan(raw[n]).sum())} entries)")
        else:
            e = rel_err(np, raw[n], clean[n], everywhere)
            parts.append(f"{n} {'unchanged' if e == 0 else f'off by {e:.1e} rel'}")
    return ", ".join(parts)


def check_grad_op(peer, d, meta):
    """One attn.attention_grad dump against jax's VJP (see the docstring)."""
    np = peer.np
    row = {"op": meta["index"], "func": meta["function"],
           "type": meta["element_type"], "feats": features(meta)}
    why = unsupported(meta)
    if why:
        row.update(status="SKIP", note=why)
        return row
    q, k, v, dout = (load(np, d, meta, n) for n in ("q", "k", "v", "dout"))
    mask = load(np, d, meta, "mask") if "mask" in meta["arrays"] else None
    ref_out, ref_lse = load(np, d, meta, "ref_out"), load(np, d, meta, "ref_lse")
    ours = {n: load(np, d, meta, n) for n in GRADS}
    given = {n: load(np, d, meta, "ref_" + n) for n in GRADS}
    ref64 = {n: load(np, d, meta, "ref64_" + n) for n in GRADS}
    kw, notes = jax_arguments(meta, mask)

    # Rows with no allowed key (our lse -inf): by our definition they have
    # no gradient and feed none into dK/dV; jax's forward gives them another
    # value (uniform attention, or NaN for an all -inf bias) and differentiates
    # it. Compare what both define: dO zeroed there, and a bias made finite
    # there (else jax's NaN would reach every dK/dV entry through the sums).
    empty = np.isneginf(ref_lse)
    rows = ~empty
    kw_clean = dict(kw)
    dout_clean = np.where(empty[..., None], 0.0, dout)
    if empty.any() and kw.get("bias") is not None:
        B, Hq, Lq = empty.shape
        bias = np.array(np.broadcast_to(kw["bias"], (B, Hq, Lq, meta["key_len"])))
        bias[empty] = 0.0
        kw_clean["bias"] = bias

    res = peer.grad(q, k, v, dout_clean,
                    raw=(dout, kw.get("bias")) if empty.any() else None,
                    **kw_clean)
    stock = res["stock"]
    x64 = "x64" in res
    j64 = res["x64"] if x64 else stock

    everywhere = np.ones(ref64["dk"].shape[:3], bool)
    sel = {"dq": rows, "dk": everywhere, "dv": everywhere}

    def errs(got, want):
        return {n: rel_err(np, got[n], want[n], sel[n]) for n in GRADS}
    e_stock = errs(stock, ref64)
    e_x64 = errs(j64, ref64) if x64 else None
    e_given = errs(given, j64)
    e_ours = errs(ours, j64)
    # jax's own forward on the same inputs: catches a layout slip in the dump.
    e_fwd = rel_err(np, j64["out"], ref_out, rows)

    tol = ELEMENT_TOL.get(meta["element_type"], 8e-3)

    def bad(errs, t):
        return errs is not None and not all(e <= t for e in errs.values())
    fails = []
    if bad(e_stock, STOCK_TOL):
        fails.append("jax(stock)~ref64")
    if bad(e_x64, X64_TOL) or not (e_fwd <= (X64_TOL if x64 else STOCK_TOL)):
        fails.append("jax(x64)~ref64")
    if bad(e_given, tol):
        fails.append("ref(given O,lse)~jax")
    if bad(e_ours, tol):
        fails.append("ours~jax")
    if empty.any():
        for name, g in (("ours", ours), ("ref", given), ("ref64", ref64)):
            if np.any(g["dq"][empty] != 0.0):
                fails.append(f"{name}: dq on empty rows not 0")

    raw = res.get("raw")
    row.update(
        status="MISMATCH" if fails else "OK",
        stock=worst(e_stock), x64=worst(e_x64), given=worst(e_given),
        ours=worst(e_ours), tol=tol, detail={
            "jaxF32~ref64": e_stock, "jax64~ref64": e_x64,
            "given~jax64": e_given, "ours~jax64": e_ours},
        empty=f"{int(empty.sum())}/{empty.size}",
        empty_jax=describe_empty_grad_rows(np, empty, raw, stock) if raw is not None else "-",
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


def fmt_worst(w):
    e, n = w if isinstance(w, tuple) else (w, "")
    if e is None:
        return "-"
    return f"{e:.1e}" + (n[1] if n else "")


def short_lowering(lowering):
    if not lowering:
        return "-"
    m = re.fullmatch(r"attn-tile\{block-q=(\d+) block-kv=(\d+)\}", lowering)
    if m:
        return f"tile{m.group(1)}x{m.group(2)}"
    return lowering.replace("attn-", "")


def run_dumps(runner, path, seed, lowering, d, verbose, run_failures,
              sizes=None):
    """Runs attn-cpu-run with --dump-dir=d (and the size draw `sizes`);
    failures go to run_failures."""
    name = os.path.basename(path)
    cmd = [runner, path, f"--seed={seed}", f"--dump-dir={d}"]
    if lowering:
        cmd.append(f"--lowering={lowering}")
    if sizes:
        cmd.append(f"--sizes={sizes}")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if verbose:
        print(p.stdout + p.stderr)
    if p.returncode != 0:
        run_failures.append(f"{name} seed {seed}"
                            + (f" lowering {lowering}" if lowering else "")
                            + (f" sizes {sizes}" if sizes else "")
                            + f": attn-cpu-run exited {p.returncode}")
        sys.stdout.write(p.stdout[-2000:] + p.stderr[-2000:])


def dumped(d, prefix):
    return sorted(glob.glob(os.path.join(d, f"{prefix}*.json")),
                  key=lambda s: int(re.findall(prefix + r"(\d+)", s)[-1]))


def label_sequence(row, meta):
    """A packed batch's sequence dump: the function name says which."""
    if "packed" in meta:
        row["func"] = f"{row['func']}[s{meta['packed']['sequence']}]"


def check_forward(peer, runner, args, inputs, base, run_failures):
    rows = []
    for path in inputs:
        runs = [(seed, k, sizes) for seed in seeds_of(path, args.seeds)
                for k, sizes in enumerate(sizes_of(path))]
        for seed, k, sizes in runs:
            name = os.path.basename(path)
            d = os.path.join(base, f"{os.path.splitext(name)[0]}.seed{seed}"
                             + (f".sizes{k}" if sizes else ""))
            run_dumps(runner, path, seed, args.lowering, d, args.verbose,
                      run_failures, sizes)
            # Packed batches (attn.varlen_attention): one batch-1 dense
            # problem per sequence (DumpArrays.h).
            metas = dumped(d, "op") + dumped(d, "varlen")
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
                label_sequence(row, meta)
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
    return rows


def grad_runs_of(path, args):
    """(seed, lowering) of each RUN line (the tiled backward is what most
    RUN lines of the gradient tests exercise); --seeds / --lowering override."""
    if args.seeds:
        return [(s, args.lowering) for s in seeds_of(path, args.seeds)]
    runs = []
    for line in run_lines(path):
        m = re.search(r"RUN:.*--seed=(\d+)", line)
        if not m:
            continue
        low = re.search(r'--lowering=(?:"([^"]*)"|(\S+))', line)
        lowering = args.lowering or (
            (low.group(1) if low.group(1) is not None else low.group(2))
            if low else None)
        if (int(m.group(1)), lowering) not in runs:
            runs.append((int(m.group(1)), lowering))
    return runs or [(1, args.lowering)]


def check_gradients(peer, runner, args, inputs, base, run_failures):
    rows = []
    for path in inputs:
        name = os.path.basename(path)
        runs = [(seed, lowering, sizes)
                for seed, lowering in grad_runs_of(path, args)
                for sizes in sizes_of(path)]
        for n, (seed, lowering, sizes) in enumerate(runs):
            d = os.path.join(base, f"{os.path.splitext(name)[0]}.grad{n}.seed{seed}")
            run_dumps(runner, path, seed, lowering, d, args.verbose, run_failures,
                      sizes)
            metas = dumped(d, "grad") + dumped(d, "vgrad")
            if not metas:
                run_failures.append(f"{name} seed {seed}: no gradient dump written")
            for mpath in metas:
                with open(mpath) as f:
                    meta = json.load(f)
                try:
                    row = check_grad_op(peer, d, meta)
                except Exception as e:  # a jax error is a failed check
                    row = {"op": meta["index"], "func": meta["function"],
                           "type": meta["element_type"],
                           "feats": features(meta), "status": "MISMATCH",
                           "note": f"jax raised {type(e).__name__}: {e}"}
                row["file"] = f"{name}:{seed}"
                label_sequence(row, meta)
                row["lowering"] = short_lowering(lowering)
                rows.append(row)

    print("gradients (attn.attention_grad) against jax.vjp of "
          "jax.nn.dot_product_attention; each column is the max over "
          "dq/dk/dv, the letter says which:")
    hdr = (f"{'file:seed':<30} {'lowering':<9} {'#':>2} {'function':<28} "
           f"{'type':<4} {'features':<30} {'status':<8} {'jaxF32~ref64':>12} "
           f"{'jax64~ref64':>11} {'given~jax64':>11} {'ours~jax64':>10} "
           f"{'(tol)':>7} {'empty':>7}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print(f"{r['file'][:30]:<30} {r['lowering'][:9]:<9} {r['op']:>2} "
              f"{r['func'][:28]:<28} {r['type']:<4} {r['feats'][:30]:<30} "
              f"{r['status']:<8} {fmt_worst(r.get('stock')):>12} "
              f"{fmt_worst(r.get('x64')):>11} {fmt_worst(r.get('given')):>11} "
              f"{fmt_worst(r.get('ours')):>10} {fmt(r.get('tol')):>7} "
              f"{r.get('empty', '-'):>7}")
    print()
    print("notes (mapping to jax, skip reasons, what jax's VJP gives with the "
          "unmodified dO on rows where we define no gradient):")
    seen = set()
    for r in rows:
        extra = []
        if r.get("note"):
            extra.append(r["note"])
        if r.get("empty_jax", "-") != "-":
            extra.append("jax: " + r["empty_jax"])
        # The same inputs under another lowering give the same jax notes.
        key = (r["file"], r["op"], " | ".join(extra))
        if extra and key not in seen:
            seen.add(key)
            print(f"  {r['file']} #{r['op']} {r['func']}: " + " | ".join(extra))
    if args.verbose:
        print("\nper-gradient errors:")
        for r in rows:
            for col, errs in (r.get("detail") or {}).items():
                if errs:
                    print(f"  {r['file']} {r['lowering']} #{r['op']} {col}: "
                          + " ".join(f"{n} {e:.2e}" for n, e in errs.items()))
    return rows


def has_ops(path, regex):
    """Whether a non-comment line of `path` matches `regex`."""
    with open(path) as f:
        return any(regex.search(line.split("//")[0]) for line in f)


def main():
    args = parse_args()
    jax = import_jax_or_exit(args.skip_exit_code)
    runner = find_attn_cpu_run(args.attn_cpu_run)
    peer = JaxPeer(jax)
    inputs = args.inputs or DEFAULT_INPUTS
    if not args.inputs:
        for extra in (PEER_CASES, PEER_GRAD_CASES):
            if extra not in inputs:
                inputs.append(extra)
    forward_inputs = [f for f in inputs if has_ops(f, FORWARD_RE)]
    grad_inputs = [f for f in inputs if has_ops(f, GRAD_RE)]
    neither = [f for f in args.inputs
               if f not in forward_inputs and f not in grad_inputs]

    print(f"jax {jax.__version__} (jaxlib {__import__('jaxlib').__version__}), "
          f"x64, implementation=xla; attn-cpu-run: {runner}")
    if peer.x64_core is None:
        print(f"note: jax(x64) column unavailable: {peer.x64_note}; "
              f"ours~jax uses jax(stock)")

    rows = []
    run_failures = [f"{os.path.basename(f)}: no attn.attention or "
                    f"attn.attention_grad op" for f in neither]
    with contextlib.ExitStack() as stack:
        base = args.keep_dumps or stack.enter_context(
            tempfile.TemporaryDirectory(prefix="jax-peer-"))
        if args.ops in ("forward", "all") and forward_inputs:
            rows += check_forward(peer, runner, args, forward_inputs, base,
                                  run_failures)
        if args.ops in ("grad", "all") and grad_inputs:
            if rows:
                print()
            rows += check_gradients(peer, runner, args, grad_inputs, base,
                                    run_failures)
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
