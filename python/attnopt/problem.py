"""The problem one attention call compiles to, its IR and its cache key.

Plain Python (no torch): a `Problem` names everything that specialises the
generated kernels (dtype, sizes, GQA, mask shape and type, causal mode,
window, softcap, scale, dropout, determinism, chip). The batch and the two
lengths may be None: run-time sizes (`?` in the IR; the kernels take them
at launch, docs/kernel-manifest.md "Run-time sizes"). `train_ir` writes the
MLIR function that `attn-compile` turns into a forward kernel (saving the
log-sum-exp) and the backward group that consumes it; `cache_key` hashes the
problem together with the compiler's identity.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from typing import Optional, Tuple

DTYPES = ("f16", "bf16", "f32")
#: How f32 inputs are multiplied (docs/semantics.md §2.1): "ieee", the exact
#: CUDA-core kernels; "tf32", the forward on tensor cores with operands
#: rounded to tf32 (attn-compile --f32-precision).
F32_PRECISIONS = ("ieee", "tf32")
MASK_DTYPES = ("i1", "f16", "bf16", "f32")
CAUSAL_MODES = ("none", "top_left", "bottom_right")
CHIPS = ("sm_80", "sm_86", "sm_89", "sm_90a")


class AttnoptError(RuntimeError):
    """An attnopt call that cannot run: the message says why."""


@dataclasses.dataclass(frozen=True)
class Problem:
    """One attention problem in the attn dialect's terms (docs/semantics.md).

    query [B, Hq, Lq, D], key [B, Hkv, Lk, D], value [B, Hkv, Lk, Dv];
    batch, query_len and key_len are None where they are run-time sizes
    (RUNTIME_SIZES). mask_shape is the rank-4 shape of the mask as passed
    (each dimension either the full size or 1; None where the full size is
    a run-time size), or None.
    """

    dtype: str
    batch: Optional[int]
    query_heads: int
    kv_heads: int
    query_len: Optional[int]
    key_len: Optional[int]
    head_dim: int
    value_dim: int
    scale: float
    causal: str = "none"
    window: Optional[Tuple[int, int]] = None
    softcap: Optional[float] = None
    #: The softcap's tanh as tanh.approx.f32 (docs/semantics.md §3.1).
    softcap_approx: bool = False
    mask_dtype: Optional[str] = None
    mask_shape: Optional[Tuple[int, int, int, int]] = None
    dropout_p: float = 0.0
    deterministic: bool = False
    chip: str = "sm_90a"
    #: f32 only (F32_PRECISIONS): "tf32" multiplies the forward's products on
    #: tensor cores (the backward stays exact). Other dtypes: always "ieee".
    f32_precision: str = "ieee"
    #: A packed variable-length batch (docs/semantics.md §14): the tokens of
    #: all sequences concatenated, query [Tq, Hq, D], key [Tk, Hkv, D],
    #: value [Tk, Hkv, Dv], with cu_seqlens_q/k offsets; batch and lengths
    #: are run-time (None), no mask.
    packed: bool = False

    def __post_init__(self):
        # One spelling per problem: a window unbounded on both sides is no
        # window (docs/semantics.md §5), so both share one cache entry.
        object.__setattr__(self, "window", normalized_window(self.window))
        # Likewise: f32_precision means nothing for f16/bf16 inputs (their
        # products are on tensor cores anyway).
        if self.dtype != "f32" and self.f32_precision in F32_PRECISIONS:
            object.__setattr__(self, "f32_precision", "ieee")
        self.check()

    # -- checks -------------------------------------------------------------
    def check(self) -> None:
        """Raises AttnoptError naming the first field that is not valid."""
        if self.dtype not in DTYPES:
            raise AttnoptError(f"dtype {self.dtype!r}: expected one of {DTYPES}")
        if self.f32_precision not in F32_PRECISIONS:
            raise AttnoptError(f"f32_precision {self.f32_precision!r}: "
                               f"expected one of {F32_PRECISIONS}")
        for name in ("batch", "query_heads", "kv_heads", "query_len",
                     "key_len", "head_dim", "value_dim"):
            v = getattr(self, name)
            if v is None and name in RUNTIME_SIZES:
                continue
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                expected = ("an integer >= 1, or None (a run-time size)"
                            if name in RUNTIME_SIZES else "an integer >= 1")
                raise AttnoptError(f"{name} = {v!r}: expected {expected}")
        if self.query_heads % self.kv_heads:
            raise AttnoptError(
                f"{self.query_heads} query heads do not share "
                f"{self.kv_heads} key/value heads evenly (GQA needs Hq % Hkv == 0)")
        check_score_attributes(self.scale, self.causal, self.window,
                               self.softcap, self.softcap_approx)
        if (self.mask_dtype is None) != (self.mask_shape is None):
            raise AttnoptError("mask_dtype and mask_shape go together")
        if self.mask_dtype is not None:
            if self.mask_dtype not in MASK_DTYPES:
                raise AttnoptError(
                    f"mask dtype {self.mask_dtype!r}: expected one of {MASK_DTYPES}")
            full = self.score_shape
            if len(self.mask_shape) != 4 or any(
                    m not in (1, f) or (m is None and f is not None)
                    for m, f in zip(self.mask_shape, full)):
                raise AttnoptError(
                    f"mask shape {list(self.mask_shape)} does not broadcast to "
                    f"the scores {list(full)} (each dimension 1 or the full size)")
        if self.packed:
            given = [n for n in RUNTIME_SIZES if getattr(self, n) is not None]
            if given:
                raise AttnoptError(
                    f"a packed batch takes {', '.join(given)} at run time "
                    "(from its offsets): expected None")
            if self.mask_dtype is not None:
                raise AttnoptError("a packed batch has no mask operand "
                                   "(docs/semantics.md §14)")
            if self.dtype == "f32":
                raise AttnoptError(
                    "a packed batch has tensor-core kernels only: expected "
                    "f16 or bf16, got f32")
        if not 0.0 <= self.dropout_p < 1.0:
            raise AttnoptError(f"dropout_p = {self.dropout_p}: expected [0, 1)")
        if self.chip not in CHIPS:
            raise AttnoptError(f"chip {self.chip!r}: expected one of {CHIPS}")

    # -- shapes -------------------------------------------------------------
    @property
    def score_shape(self) -> Tuple[Optional[int], int, Optional[int],
                                   Optional[int]]:
        return (self.batch, self.query_heads, self.query_len, self.key_len)

    @property
    def runtime_sizes(self) -> Tuple[str, ...]:
        """The names of the sizes the kernels take at launch."""
        return tuple(n for n in RUNTIME_SIZES if getattr(self, n) is None)

    def with_runtime_sizes(self, names) -> "Problem":
        """This problem with the sizes `names` (of RUNTIME_SIZES) made
        run-time sizes, in the problem and in the mask's full dimensions
        (a broadcast mask dimension stays 1)."""
        names = set(names)
        unknown = names - set(RUNTIME_SIZES)
        if unknown:
            raise AttnoptError(f"{sorted(unknown)}: only {RUNTIME_SIZES} can "
                               "be run-time sizes")
        changes = {n: None for n in names}
        if self.mask_shape is not None:
            full = self.score_shape
            changes["mask_shape"] = tuple(
                None if _SCORE_DIM.get(dim) in names and m != 1 else m
                for dim, (m, f) in enumerate(zip(self.mask_shape, full)))
        return dataclasses.replace(self, **changes)

    def shapes(self) -> dict:
        """Tensor name -> shape, as the kernels' parameters have them."""
        if self.packed:
            return self._packed_shapes()
        b, hq, hk = self.batch, self.query_heads, self.kv_heads
        lq, lk, d, dv = self.query_len, self.key_len, self.head_dim, self.value_dim
        s = {
            "query": (b, hq, lq, d), "key": (b, hk, lk, d),
            "value": (b, hk, lk, dv), "output": (b, hq, lq, dv),
            "lse": (b, hq, lq), "grad_output": (b, hq, lq, dv),
            "grad_query": (b, hq, lq, d), "grad_key": (b, hk, lk, d),
            "grad_value": (b, hk, lk, dv),
        }
        if self.mask_shape is not None:
            s["mask"] = tuple(self.mask_shape)
        return s

    def _packed_shapes(self) -> dict:
        hq, hk = self.query_heads, self.kv_heads
        d, dv = self.head_dim, self.value_dim
        return {
            "query": (None, hq, d), "key": (None, hk, d),
            "value": (None, hk, dv), "output": (None, hq, dv),
            "lse": (hq, None), "grad_output": (None, hq, dv),
            "grad_query": (None, hq, d), "grad_key": (None, hk, d),
            "grad_value": (None, hk, dv),
            "cu_seqlens_q": (None,), "cu_seqlens_k": (None,),
        }

    # -- IR -----------------------------------------------------------------
    def _type(self, name: str) -> str:
        shape = self.shapes()[name]
        elem = {"lse": "f32", "mask": self.mask_dtype, "cu_seqlens_q": "i32",
                "cu_seqlens_k": "i32"}.get(name, self.dtype)
        return ("tensor<" + "x".join("?" if d is None else str(d) for d in shape)
                + "x" + elem + ">")

    def _attributes(self, grad: bool) -> str:
        attrs = score_attributes(self.scale, self.causal, self.window,
                                 self.softcap, self.softcap_approx)
        if self.dropout_p:
            attrs.append(f"dropout_p = {_f32(self.dropout_p)} : f32")
        if grad and self.deterministic:
            attrs.append("deterministic")
        return "{" + ", ".join(attrs) + "}"

    def compile_options(self) -> list:
        """attn-compile's options for this problem beyond --chip (what the
        IR does not say)."""
        if self.f32_precision != "ieee":
            return [f"--f32-precision={self.f32_precision}"]
        return []

    def train_ir(self) -> str:
        """A function computing the forward (output, lse) and, from them and
        grad_output, the gradients: attn-compile writes one forward kernel
        set and the backward set whose "forward" names it."""
        t = self._type
        args = [f"%q: {t('query')}", f"%k: {t('key')}", f"%v: {t('value')}",
                f"%do: {t('grad_output')}"]
        extra = ""
        op = "attn.attention"
        if self.packed:
            op = "attn.varlen_attention"
            args += [f"%cq: {t('cu_seqlens_q')}", f"%ck: {t('cu_seqlens_k')}"]
            extra += (f" seqlens(%cq, %ck : {t('cu_seqlens_q')}, "
                      f"{t('cu_seqlens_k')})")
        if self.mask_shape is not None:
            args.append(f"%mask: {t('mask')}")
            extra += f" mask(%mask : {t('mask')})"
        if self.dropout_p:
            args += ["%seed: i64", "%offset: i64"]
            extra += " rng(%seed, %offset)"
        ins = f"ins(%q, %k, %v : {t('query')}, {t('key')}, {t('value')})"
        # The packed gradient takes its offsets before forward(...), the
        # mask and rng after grad_output(...), as the ops' formats say.
        seqlens, after = "", extra
        if self.packed:
            seqlens = extra[:extra.index(")") + 1]
            after = extra[len(seqlens):]
        results = [t("output"), t("lse"), t("grad_query"), t("grad_key"),
                   t("grad_value")]
        return (
            "// Generated by attnopt (python/attnopt/problem.py).\n"
            f"func.func @train({', '.join(args)})\n"
            f"    -> ({', '.join(results)}) {{\n"
            f"  %o, %lse = {op} {ins}{extra}\n"
            f"      {self._attributes(False)}\n"
            f"      -> {t('output')}, {t('lse')}\n"
            f"  %dq, %dk, %dv = {op}_grad {ins}{seqlens}\n"
            f"      forward(%o, %lse : {t('output')}, {t('lse')})\n"
            f"      grad_output(%do : {t('grad_output')}){after}\n"
            f"      {self._attributes(True)}\n"
            f"      -> {t('grad_query')}, {t('grad_key')}, {t('grad_value')}\n"
            f"  return %o, %lse, %dq, %dk, %dv : {', '.join(results)}\n"
            "}\n")

    # -- cache --------------------------------------------------------------
    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["scale"] = _f32(self.scale)
        if self.softcap is not None:
            d["softcap"] = _f32(self.softcap)
        if not self.softcap_approx:
            # Absent when false: the keys of the problems cached before the
            # field existed stay valid.
            del d["softcap_approx"]
        if self.f32_precision == "ieee":
            del d["f32_precision"]  # likewise
        d["dropout_p"] = _f32(self.dropout_p)
        return d

    def cache_key(self, compiler_identity: str) -> str:
        """A hex digest of everything that specialises the kernels, the IR
        format version and the compiler's identity (its content hash)."""
        text = json.dumps({"format": KEY_FORMAT, "problem": self.as_dict(),
                           "compiler": compiler_identity}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


#: Bumped whenever train_ir changes what it writes for the same problem.
KEY_FORMAT = 1

#: The sizes that may be run-time sizes (None in a Problem).
RUNTIME_SIZES = ("batch", "query_len", "key_len")
#: The score dimension of each mask dimension that can be a run-time size.
_SCORE_DIM = {0: "batch", 2: "query_len", 3: "key_len"}


def score_attributes(scale: float, causal: str, window, softcap,
                     softcap_approx: bool = False) -> list:
    """The attributes that shape the scores (docs/semantics.md §2-§5), in
    the attn dialect's syntax: the same for every op that has them."""
    attrs = [f"scale = {_f32(scale)} : f32"]
    if causal != "none":
        attrs.append(f"causal = #attn.causal<{causal}>")
    if window is not None:
        attrs.append(f"window = array<i64: {window[0]}, {window[1]}>")
    if softcap is not None:
        attrs.append(f"softcap = {_f32(softcap)} : f32")
    if softcap_approx:
        attrs.append("softcap_approx")
    return attrs


def check_score_attributes(scale, causal, window, softcap,
                           softcap_approx: bool = False) -> None:
    """Raises AttnoptError naming the first score attribute not valid."""
    if not (isinstance(scale, float) and math.isfinite(scale)):
        raise AttnoptError(f"scale = {scale!r}: expected a finite float")
    if causal not in CAUSAL_MODES:
        raise AttnoptError(
            f"causal = {causal!r}: expected one of {CAUSAL_MODES}")
    if window is not None:
        left, right = window
        if left < -1 or right < -1:
            raise AttnoptError(
                f"window = {window}: expected (left, right) with each "
                "side >= 0, or -1 for unbounded")
    if softcap is not None and not softcap > 0:
        raise AttnoptError(f"softcap = {softcap}: expected > 0")
    if softcap_approx and softcap is None:
        raise AttnoptError("softcap_approx without softcap: the "
                           "approximation is of the softcap's tanh")


def normalized_window(window):
    """One spelling per window: unbounded on both sides is no window
    (docs/semantics.md §5)."""
    if window is None or tuple(window) == (-1, -1):
        return None
    return tuple(window)


def _f32(x: float) -> str:
    """x rounded to f32, in a form MLIR parses back to the same f32."""
    import struct
    (r,) = struct.unpack("f", struct.pack("f", x))
    return f"{r:.9e}"
