"""The problem of a call over a paged key/value cache, its IR and cache key.

Plain Python (no torch), as problem.py: a `PagedProblem` names everything
that specialises the kernels of `attn.paged_attention` (docs/semantics.md
§15): dtype, heads, new tokens per sequence, head dims, page size, block
table width, score attributes, chip. The batch, the page count and the
block table's width may be None: run-time sizes (kernel parameters
`batch`, `num_pages` and `max_pages_per_seq`, docs/kernel-manifest.md
"Paged key/value caches"). There is no backward:
the op serves inference, so the entry holds a forward group only (its
files keep the names train.mlir/.ptx/.json of every cache entry).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Optional, Tuple

from .problem import (CHIPS, KEY_FORMAT, AttnoptError, _f32,
                      check_score_attributes, normalized_window,
                      score_attributes)

#: The sizes that may be run-time sizes (None in a PagedProblem).
PAGED_RUNTIME_SIZES = ("batch", "num_pages", "max_pages")


@dataclasses.dataclass(frozen=True)
class PagedProblem:
    """query [B, Hq, Lq, D]; key_cache [P, page_size, Hkv, D], value_cache
    [P, page_size, Hkv, Dv]; block_table [B, max_pages] i32; cache_seqlens
    [B] i32. batch (B), num_pages (P) and max_pages are None where run-time
    sizes."""

    dtype: str
    batch: Optional[int]
    query_heads: int
    kv_heads: int
    query_len: int
    head_dim: int
    value_dim: int
    num_pages: Optional[int]
    page_size: int
    max_pages: Optional[int]
    scale: float
    causal: str = "none"
    window: Optional[Tuple[int, int]] = None
    softcap: Optional[float] = None
    #: The softcap's tanh as tanh.approx.f32 (docs/semantics.md §3.1).
    softcap_approx: bool = False
    chip: str = "sm_90a"

    def __post_init__(self):
        object.__setattr__(self, "window", normalized_window(self.window))
        self.check()

    def check(self) -> None:
        """Raises AttnoptError naming the first field that is not valid."""
        if self.dtype not in ("f16", "bf16"):
            raise AttnoptError(
                f"dtype {self.dtype!r}: a paged cache is read by tensor-core "
                "kernels only: expected 'f16' or 'bf16'")
        for name in ("batch", "query_heads", "kv_heads", "query_len",
                     "head_dim", "value_dim", "num_pages", "page_size",
                     "max_pages"):
            v = getattr(self, name)
            if v is None and name in PAGED_RUNTIME_SIZES:
                continue
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                expected = ("an integer >= 1, or None (a run-time size)"
                            if name in PAGED_RUNTIME_SIZES
                            else "an integer >= 1")
                raise AttnoptError(f"{name} = {v!r}: expected {expected}")
        for name in ("head_dim", "value_dim"):
            v = getattr(self, name)
            if v % 8 or v > 256:
                raise AttnoptError(
                    f"{name} = {v}: the paged kernels take head dims that "
                    "are multiples of 8 up to 256")
        if self.query_heads % self.kv_heads:
            raise AttnoptError(
                f"{self.query_heads} query heads do not share "
                f"{self.kv_heads} key/value heads evenly (GQA needs Hq % Hkv "
                "== 0)")
        check_score_attributes(self.scale, self.causal, self.window,
                               self.softcap, self.softcap_approx)
        if self.chip not in CHIPS:
            raise AttnoptError(f"chip {self.chip!r}: expected one of {CHIPS}")

    @property
    def runtime_sizes(self) -> Tuple[str, ...]:
        return tuple(n for n in PAGED_RUNTIME_SIZES
                     if getattr(self, n) is None)

    def with_runtime_sizes(self, names) -> "PagedProblem":
        names = set(names)
        unknown = names - set(PAGED_RUNTIME_SIZES)
        if unknown:
            raise AttnoptError(f"{sorted(unknown)}: only {PAGED_RUNTIME_SIZES}"
                               " can be run-time sizes of a paged cache")
        return dataclasses.replace(self, **{n: None for n in names})

    def shapes(self) -> dict:
        b, p, ps = self.batch, self.num_pages, self.page_size
        hq, hk, lq = self.query_heads, self.kv_heads, self.query_len
        d, dv = self.head_dim, self.value_dim
        return {"query": (b, hq, lq, d), "key_cache": (p, ps, hk, d),
                "value_cache": (p, ps, hk, dv),
                "block_table": (b, self.max_pages), "cache_seqlens": (b,),
                "output": (b, hq, lq, dv), "lse": (b, hq, lq)}

    def _type(self, name: str) -> str:
        elem = {"lse": "f32", "block_table": "i32",
                "cache_seqlens": "i32"}.get(name, self.dtype)
        return ("tensor<" + "x".join("?" if d is None else str(d)
                                     for d in self.shapes()[name])
                + "x" + elem + ">")

    def compile_options(self) -> list:
        """attn-compile's options beyond --chip: none (the IR says it all)."""
        return []

    def train_ir(self) -> str:
        """The entry's IR: attn.paged_attention returning output and lse
        (forward only; the name is every cache entry's)."""
        t = self._type
        names = ("query", "key_cache", "value_cache", "block_table",
                 "cache_seqlens")
        args = ", ".join(f"%{n}: {t(n)}" for n in names)
        attrs = ", ".join(score_attributes(self.scale, self.causal,
                                           self.window, self.softcap,
                                           self.softcap_approx))
        return (
            "// Generated by attnopt (python/attnopt/paged_problem.py).\n"
            f"func.func @paged({args})\n"
            f"    -> ({t('output')}, {t('lse')}) {{\n"
            f"  %o, %lse = attn.paged_attention ins(%query : {t('query')})\n"
            f"      cache(%key_cache, %value_cache : {t('key_cache')}, "
            f"{t('value_cache')})\n"
            f"      pages(%block_table, %cache_seqlens : {t('block_table')}, "
            f"{t('cache_seqlens')})\n"
            f"      {{{attrs}}}\n"
            f"      -> {t('output')}, {t('lse')}\n"
            f"  return %o, %lse : {t('output')}, {t('lse')}\n"
            "}\n")

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["scale"] = _f32(self.scale)
        if self.softcap is not None:
            d["softcap"] = _f32(self.softcap)
        if not self.softcap_approx:
            del d["softcap_approx"]  # the keys cached before it existed
        return d

    def cache_key(self, compiler_identity: str) -> str:
        text = json.dumps({"format": KEY_FORMAT, "paged_problem": self.as_dict(),
                           "compiler": compiler_identity}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:32]
