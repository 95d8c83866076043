"""attnopt.paged_attention: decoding from a paged key/value cache.

The new query tokens of each sequence attend to the keys and values that a
block table scatters over fixed-size pages of one pool, as vLLM and
FlashInfer lay a serving cache out (`attn.paged_attention`,
docs/semantics.md §15). The kernels are the split-KV forward group that
reads K and V through the table (docs/kernel-manifest.md, "Paged key/value
caches"); there is no backward (an inference op).

One custom operator, registered with torch.library with a fake
implementation (torch.compile, tracing):

  attnopt::paged_attention_forward(q, key_cache, value_cache, block_table,
      cache_seqlens, scale, causal, window, softcap, softcap_approx,
      dynamic) -> (out, lse)

Eager calls run its implementation directly (dispatch.py).
"""

from __future__ import annotations

import math
import threading
from typing import Dict, List, Optional, Sequence, Tuple, Union

import torch

from . import compiler, dispatch, runtime
from .ops import (_DTYPES, _chip, _choose_runtime_sizes, _dynamic_spelling,
                  _launch)
from .paged_problem import PAGED_RUNTIME_SIZES, PagedProblem
from .problem import AttnoptError


class _PagedKernels:
    """The forward group of one paged problem, loaded on one device."""

    def __init__(self, problem: PagedProblem, device: int):
        entry = compiler.entry_for(problem)
        self.problem = problem
        self.library = runtime.Library(str(entry / "train.json"), device)
        self.forward = self.library.forward()
        self._runtime_sizes = bool(problem.runtime_sizes)
        self._sizes: Dict[Tuple[int, int, int], runtime.Sizes] = {}
        self._workspaces: Dict[Tuple[int, int, int], int] = {}

    def sizes(self, batch: int, num_pages: int,
              max_pages: int) -> Optional[runtime.Sizes]:
        """The launch's run-time sizes (the split count from the runtime's
        rule at each launch), None for kernels without any."""
        if not self._runtime_sizes:
            return None
        key = (batch, num_pages, max_pages)
        s = self._sizes.get(key)
        if s is None:
            s = self._sizes[key] = runtime.make_sizes(
                batch=batch, num_pages=num_pages, max_pages_per_seq=max_pages)
        return s

    def workspace(self, batch: int, num_pages: int, max_pages: int,
                  sizes) -> int:
        key = (batch, num_pages, max_pages) if sizes is not None else (0, 0, 0)
        n = self._workspaces.get(key)
        if n is None:
            n = self._workspaces[key] = self.forward.workspace_bytes({}, sizes)
        return n


_loaded: Dict[Tuple[PagedProblem, int], _PagedKernels] = {}
_lock = threading.Lock()
_by_call: Dict[tuple, _PagedKernels] = {}


def _kernels_for(q, kc, vc, table, scale, causal, window, softcap,
                 softcap_approx, dynamic) -> _PagedKernels:
    """The kernels of a call: by the call's shapes and arguments where seen
    before; else by its family (everything but the batch and the page
    count, the block table's width) and the run-time sizes `dynamic` asks
    for (ops.py's rule)."""
    call = (q.shape, kc.shape, vc.shape, table.shape, q.dtype,
            q.get_device(), scale, causal,
            None if window is None else tuple(window), softcap,
            softcap_approx, dynamic)
    found = _by_call.get(call)
    if found is not None:
        return found
    b, hq, lq, d = q.shape
    p, ps, hk, _ = kc.shape
    family = ("paged", hq, lq, d, hk, vc.shape[3], ps, q.dtype,
              q.get_device(), scale, causal,
              None if window is None else tuple(window), softcap,
              softcap_approx)
    dims = _choose_runtime_sizes(family, (b, p, table.shape[1]), dynamic,
                                 PAGED_RUNTIME_SIZES)
    problem = PagedProblem(
        dtype=_DTYPES[q.dtype], batch=b, query_heads=hq, kv_heads=hk,
        query_len=lq, head_dim=d, value_dim=vc.shape[3], num_pages=p,
        page_size=ps, max_pages=table.shape[1], scale=scale, causal=causal,
        window=None if window is None else tuple(window), softcap=softcap,
        softcap_approx=softcap_approx,
        chip=_chip(q.device))
    if dims:
        problem = problem.with_runtime_sizes(dims)
    key = (problem, q.get_device())
    with _lock:
        found = _loaded.get(key)
        if found is None:
            found = _loaded[key] = _PagedKernels(problem, q.get_device())
        _by_call[call] = found
    return found


def _forward_impl(q, key_cache, value_cache, block_table, cache_seqlens,
                  scale, causal, window, softcap, softcap_approx, dynamic):
    """paged_attention_forward's implementation (also called directly)."""
    b, hq, lq, _ = q.shape
    p, _, _, dv = value_cache.shape
    if b == 0 or hq == 0 or lq == 0 or p == 0 or block_table.shape[1] == 0:
        # Nothing to read (no pages: every cache is empty, which the checks
        # of paged_attention enforce): output 0 and lse -inf, no launch.
        return (q.new_zeros(b, hq, lq, dv),
                q.new_full((b, hq, lq), float("-inf"), dtype=torch.float32))
    q = q.contiguous()
    key_cache, value_cache = key_cache.contiguous(), value_cache.contiguous()
    block_table = block_table.contiguous()
    cache_seqlens = cache_seqlens.contiguous()
    kernels = _kernels_for(q, key_cache, value_cache, block_table, scale,
                           causal, window, softcap, softcap_approx, dynamic)
    width = block_table.shape[1]
    sizes = kernels.sizes(b, p, width)
    out = q.new_empty(b, hq, lq, dv)
    lse = q.new_empty((b, hq, lq), dtype=torch.float32)
    tensors = {"query": q, "key_cache": key_cache, "value_cache": value_cache,
               "block_table": block_table, "cache_seqlens": cache_seqlens,
               "output": out, "lse": lse}
    _launch(kernels.forward, tensors, 0, 0,
            kernels.workspace(b, p, width, sizes), sizes)
    return out, lse


@torch.library.custom_op("attnopt::paged_attention_forward", mutates_args=())
def paged_attention_forward(
        q: torch.Tensor, key_cache: torch.Tensor, value_cache: torch.Tensor,
        block_table: torch.Tensor, cache_seqlens: torch.Tensor, scale: float,
        causal: str, window: Optional[List[int]], softcap: Optional[float],
        softcap_approx: bool,
        dynamic: str) -> Tuple[torch.Tensor, torch.Tensor]:
    return _forward_impl(q, key_cache, value_cache, block_table,
                         cache_seqlens, scale, causal, window, softcap,
                         softcap_approx,
                         dynamic)


@paged_attention_forward.register_fake
def _(q, key_cache, value_cache, block_table, cache_seqlens, scale, causal,
      window, softcap, softcap_approx, dynamic):
    b, hq, lq, _ = q.shape
    return (q.new_empty(b, hq, lq, value_cache.shape[3]),
            q.new_empty((b, hq, lq), dtype=torch.float32))


# -- the user-facing function --------------------------------------------------

def _fail(message: str) -> None:
    raise AttnoptError("attnopt.paged_attention: " + message)


def _check_inputs(q, kc, vc, table, lens, enable_gqa: bool) -> None:
    for name, t, rank in (("query", q, 4), ("key_cache", kc, 4),
                          ("value_cache", vc, 4), ("block_table", table, 2),
                          ("cache_seqlens", lens, 1)):
        if not isinstance(t, torch.Tensor):
            _fail(f"{name} is not a tensor")
        if t.dim() != rank:
            _fail(f"{name} has shape {list(t.shape)}; expected rank {rank} "
                  "(docs/python.md, paged_attention)")
        if t.device != q.device or t.device.type != "cuda":
            _fail(f"{name} is on {t.device}; expected every tensor on the "
                  f"query's CUDA device ({q.device})")
    if q.dtype not in (torch.float16, torch.bfloat16):
        _fail(f"query is {q.dtype}; a paged cache is read by tensor-core "
              "kernels: expected float16 or bfloat16")
    if kc.dtype != q.dtype or vc.dtype != q.dtype:
        _fail(f"query, key_cache, value_cache dtypes differ ({q.dtype}, "
              f"{kc.dtype}, {vc.dtype})")
    for name, t in (("block_table", table), ("cache_seqlens", lens)):
        if t.dtype != torch.int32:
            _fail(f"{name} is {t.dtype}; expected torch.int32")
    b, hq, _, d = q.shape
    p, ps, hk, dk = kc.shape
    if tuple(vc.shape[:3]) != (p, ps, hk):
        _fail(f"key_cache {list(kc.shape)} and value_cache {list(vc.shape)} "
              "differ in pages, page size or heads")
    if dk != d:
        _fail(f"key_cache head dim {dk} != query head dim {d}")
    if table.shape[0] != b or lens.shape[0] != b:
        _fail(f"block_table {list(table.shape)} and cache_seqlens "
              f"{list(lens.shape)} must have the query's batch {b} rows")
    if ps == 0 and p:
        _fail("page size 0")
    if hq != hk and not enable_gqa:
        _fail(f"{hq} query heads but {hk} key/value heads; pass "
              "enable_gqa=True for grouped-query attention")
    if hk == 0 or hq % hk:
        _fail(f"{hq} query heads are not a multiple of {hk} key/value heads")


def _check_cache(table: torch.Tensor, lens: torch.Tensor, num_pages: int,
                 page_size: int) -> None:
    """The run-time contract (docs/semantics.md §15.3), which the kernels do
    not check: 0 <= L_b <= max_pages * page_size, and the first
    ceil(L_b / page_size) entries of row b of the table are pages in
    [0, P). Computed on the GPU; one synchronization for the verdict."""
    capacity = table.shape[1] * page_size
    lens64 = lens.to(torch.int64)
    used = (lens64.clamp(min=0) + page_size - 1) // max(page_size, 1)
    read = torch.arange(table.shape[1], device=table.device)[None, :] < \
        used[:, None]
    bad_page = read & ((table < 0) | (table >= num_pages))
    bad_len = (lens64 < 0) | (lens64 > capacity)
    if not bool((bad_len | bad_page.any(1)).any()):
        return
    bad_len, bad_page = bad_len.cpu(), bad_page.cpu()
    host_lens = lens.cpu()
    if bool(bad_len.any()):
        i = int(bad_len.nonzero()[0, 0])
        _fail(f"cache_seqlens[{i}] = {int(host_lens[i])}: expected 0 <= "
              f"length <= max_pages * page_size = {table.shape[1]} * "
              f"{page_size} = {capacity}")
    i, j = (int(x) for x in bad_page.nonzero()[0])
    _fail(f"block_table[{i}, {j}] = {int(table[i, j])}: expected a page "
          f"index in [0, {num_pages}) (sequence {i} has {int(host_lens[i])} "
          f"cached keys, so its first {int(used[i])} entries are read)")


def paged_attention(query: torch.Tensor, key_cache: torch.Tensor,
                    value_cache: torch.Tensor, block_table: torch.Tensor,
                    cache_seqlens: torch.Tensor, *,
                    causal: Union[bool, str] = False,
                    window: Optional[Tuple[int, int]] = None,
                    softcap: Optional[float] = None,
                    softcap_approx: bool = False,
                    scale: Optional[float] = None, enable_gqa: bool = False,
                    return_lse: bool = False, check_cache: bool = True,
                    dynamic: Union[None, bool, Sequence[str]] = None):
    """Attention of the new tokens query [B, Hq, Lq, D] of each sequence
    over its cached keys and values (docs/python.md, docs/semantics.md §15).

    key_cache [P, page_size, Hkv, D] and value_cache [P, page_size, Hkv, Dv]
    (float16 or bfloat16, as the query): a pool of P pages, token-major in
    a page. block_table [B, max_pages] int32: the pages of each sequence in
    order. cache_seqlens [B] int32: each sequence's cached keys, its new
    tokens included (they are the last Lq positions, which "bottom_right"
    causal assumes). causal, window, softcap, softcap_approx, scale,
    enable_gqa as in
    attnopt.attention; return_lse: also return lse [B, Hq, Lq] (float32).
    check_cache: check the lengths and the table entries that are read
    (one synchronization per call); False skips it, and then a length or a
    page index outside the cache reads outside it. dynamic: which of
    "batch", "num_pages" and "max_pages" (block_table's width) the kernels
    take at run time (None: each one that a later call changes; True: all
    three; False: none). No gradients.
    """
    dynamic = _dynamic_spelling(dynamic, PAGED_RUNTIME_SIZES,
                                "attnopt.paged_attention")
    _check_inputs(query, key_cache, value_cache, block_table, cache_seqlens,
                  enable_gqa)
    if torch.is_grad_enabled() and (query.requires_grad or
                                    key_cache.requires_grad or
                                    value_cache.requires_grad):
        _fail("computes no gradients (an inference op): call it under "
              "torch.no_grad() or torch.inference_mode(), or detach the "
              "inputs")
    if isinstance(causal, bool):
        causal = "top_left" if causal else "none"
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    if window is not None:
        window = [int(window[0]), int(window[1])]
        if window == [-1, -1]:
            window = None
    if check_cache and block_table.shape[0]:
        _check_cache(block_table, cache_seqlens, key_cache.shape[0],
                     key_cache.shape[1])
    out, lse = dispatch.call_inference(
        paged_attention_forward, _forward_impl, 5, query, key_cache,
        value_cache, block_table, cache_seqlens, float(scale), str(causal),
        window, None if softcap is None else float(softcap),
        bool(softcap_approx), dynamic)
    return (out, lse) if return_lse else out
