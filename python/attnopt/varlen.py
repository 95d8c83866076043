"""attnopt.varlen_attention: packed variable-length batches as a PyTorch op.

The tokens of all sequences are concatenated (docs/semantics.md §14):
query [Tq, Hq, D], key [Tk, Hkv, D], value [Tk, Hkv, Dv], and int32 offsets
cu_seqlens_q / cu_seqlens_k of length B + 1 say which tokens belong to which
sequence, as in FlashAttention's flash_attn_varlen_func. One compile serves
every batch and every set of lengths (the kernels take them at launch).

Two custom operators, like attnopt.ops's, with fake implementations and an
autograd formula:

  attnopt::varlen_attention_forward(q, k, v, cu_q, cu_k, ...) -> (out, lse)
  attnopt::varlen_attention_backward(grad_out, q, k, v, out, lse, cu_q,
      cu_k, ...) -> (grad_query, grad_key, grad_value)

The runtime binds a packed launch from a host copy of the offsets (grid,
workspace layout, and the checks that they start at 0, never decrease and
end at the token totals), so offsets on the GPU are copied to the host once
per call (a synchronization); offsets given on the CPU are copied to the GPU
instead.
"""

from __future__ import annotations

import math
import random
from typing import Dict, List, Optional, Tuple, Union

import torch

from . import dispatch, runtime
from .ops import _DTYPES, _chip, _kernels, _launch
from .problem import AttnoptError, Problem


def _kernels_for(q, k, v, scale, causal, window, softcap, softcap_approx,
                 dropout_p, deterministic):
    key = (q.shape[1], q.shape[2], k.shape[1], v.shape[2], q.dtype,
           q.device.index, scale, causal,
           None if window is None else tuple(window), softcap, softcap_approx,
           dropout_p, deterministic)
    found = _by_call.get(key)
    if found is None:
        problem = Problem(
            dtype=_DTYPES[q.dtype], batch=None, query_heads=q.shape[1],
            kv_heads=k.shape[1], query_len=None, key_len=None,
            head_dim=q.shape[2], value_dim=v.shape[2], scale=scale,
            causal=causal,
            window=tuple(window) if window is not None else None,
            softcap=softcap, softcap_approx=softcap_approx,
            dropout_p=dropout_p, deterministic=deterministic,
            chip=_chip(q.device), packed=True)
        found = _by_call[key] = _kernels(problem, q.device.index)
    return found


_by_call: Dict[tuple, object] = {}


def _offsets(cu_q: torch.Tensor, cu_k: torch.Tensor, device):
    """The offsets on the device (for the kernels: separate allocations,
    aligned as the runtime requires) and their host copy (for the runtime),
    with one copy between them per call."""
    if cu_q.device.type == "cuda" and cu_k.device.type == "cuda":
        cu_q, cu_k = cu_q.contiguous(), cu_k.contiguous()
        host_q, host_k = torch.stack([cu_q, cu_k]).cpu().tolist()
    else:
        host_q, host_k = cu_q.tolist(), cu_k.tolist()
        cu_q, cu_k = cu_q.to(device), cu_k.to(device)
    sizes = runtime.make_sizes(cu_seqlens_q=host_q, cu_seqlens_k=host_k)
    return cu_q, cu_k, sizes


def _check_offsets_without_kernels(cu_q, cu_k, q, k) -> None:
    """The runtime's checks of the offsets (docs/semantics.md §14), for the
    calls that launch nothing."""
    for name, cu, total in (("cu_seqlens_q", cu_q, q.shape[0]),
                            ("cu_seqlens_k", cu_k, k.shape[0])):
        offsets = cu.tolist()
        if offsets[0] != 0 or offsets[-1] != total or any(
                b < a for a, b in zip(offsets, offsets[1:])):
            raise AttnoptError(
                f"attnopt.varlen_attention: {name} = {offsets}: expected "
                f"offsets from 0 that never decrease and end at {total}")


def _forward_impl(q, k, v, cu_seqlens_q, cu_seqlens_k, scale, causal, window,
                  softcap, softcap_approx, dropout_p, seed, offset,
                  deterministic):
    """varlen_attention_forward's implementation (also called directly)."""
    if q.shape[0] == 0 or k.shape[0] == 0:
        # No query tokens, or no key tokens in any sequence: output 0 and
        # lse -inf, no launch (the kernels take no zero-size tensors).
        _check_offsets_without_kernels(cu_seqlens_q, cu_seqlens_k, q, k)
        return (q.new_zeros(q.shape[:2] + (v.shape[2],)),
                q.new_full((q.shape[1], q.shape[0]), float("-inf"),
                           dtype=torch.float32))
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    kernels = _kernels_for(q, k, v, scale, causal, window, softcap,
                           softcap_approx, dropout_p,
                           deterministic)
    cu_q, cu_k, sizes = _offsets(cu_seqlens_q, cu_seqlens_k, q.device)
    out = torch.empty(q.shape[:2] + (v.shape[2],), dtype=q.dtype,
                      device=q.device)
    lse = torch.empty((q.shape[1], q.shape[0]), dtype=torch.float32,
                      device=q.device)
    tensors = {"query": q, "key": k, "value": v, "cu_seqlens_q": cu_q,
               "cu_seqlens_k": cu_k, "output": out, "lse": lse}
    _launch(kernels.forward, tensors, seed, offset,
            kernels.workspace(True, sizes), sizes)
    return out, lse


@torch.library.custom_op("attnopt::varlen_attention_forward", mutates_args=())
def varlen_attention_forward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
        cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor, scale: float,
        causal: str, window: Optional[List[int]], softcap: Optional[float],
        softcap_approx: bool,
        dropout_p: float, seed: int, offset: int, deterministic: bool
) -> Tuple[torch.Tensor, torch.Tensor]:
    return _forward_impl(q, k, v, cu_seqlens_q, cu_seqlens_k, scale, causal,
                         window, softcap, softcap_approx, dropout_p, seed,
                         offset,
                         deterministic)


@varlen_attention_forward.register_fake
def _(q, k, v, cu_seqlens_q, cu_seqlens_k, scale, causal, window, softcap,
      softcap_approx,
      dropout_p, seed, offset, deterministic):
    out = q.new_empty(q.shape[:2] + (v.shape[2],))
    lse = q.new_empty((q.shape[1], q.shape[0]), dtype=torch.float32)
    return out, lse


def _backward_impl(grad_output, q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k,
                   scale, causal, window, softcap, softcap_approx, dropout_p,
                   seed, offset,
                   deterministic):
    """varlen_attention_backward's implementation (also called directly)."""
    if q.shape[0] == 0 or k.shape[0] == 0:
        return torch.zeros_like(q), torch.zeros_like(k), torch.zeros_like(v)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    out, lse = out.contiguous(), lse.contiguous()
    grad_output = grad_output.to(q.dtype).contiguous()
    kernels = _kernels_for(q, k, v, scale, causal, window, softcap,
                           softcap_approx, dropout_p,
                           deterministic)
    cu_q, cu_k, sizes = _offsets(cu_seqlens_q, cu_seqlens_k, q.device)
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    tensors = {"query": q, "key": k, "value": v, "cu_seqlens_q": cu_q,
               "cu_seqlens_k": cu_k, "output": out, "lse": lse,
               "grad_output": grad_output, "grad_query": dq, "grad_key": dk,
               "grad_value": dv}
    _launch(kernels.backward, tensors, seed, offset,
            kernels.workspace(False, sizes), sizes)
    return dq, dk, dv


@torch.library.custom_op("attnopt::varlen_attention_backward", mutates_args=())
def varlen_attention_backward(
        grad_output: torch.Tensor, q: torch.Tensor, k: torch.Tensor,
        v: torch.Tensor, out: torch.Tensor, lse: torch.Tensor,
        cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor, scale: float,
        causal: str, window: Optional[List[int]], softcap: Optional[float],
        softcap_approx: bool,
        dropout_p: float, seed: int, offset: int, deterministic: bool
) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _backward_impl(grad_output, q, k, v, out, lse, cu_seqlens_q,
                          cu_seqlens_k, scale, causal, window, softcap,
                          softcap_approx,
                          dropout_p, seed, offset, deterministic)


@varlen_attention_backward.register_fake
def _(grad_output, q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, scale,
      causal, window, softcap, softcap_approx, dropout_p, seed, offset,
      deterministic):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


def _setup_context(ctx, inputs, output):
    (q, k, v, cu_q, cu_k, scale, causal, window, softcap, softcap_approx,
     dropout_p, seed,
     offset, deterministic) = inputs
    out, lse = output
    ctx.save_for_backward(q, k, v, out, lse, cu_q, cu_k)
    ctx.params = (scale, causal, window, softcap, softcap_approx, dropout_p,
                  seed, offset,
                  deterministic)


def _backward(ctx, grad_out, grad_lse):
    q, k, v, out, lse, cu_q, cu_k = ctx.saved_tensors
    dq, dk, dv = varlen_attention_backward(grad_out, q, k, v, out, lse, cu_q,
                                           cu_k, *ctx.params)
    # lse is an auxiliary output: its gradient is not propagated (documented).
    return (dq, dk, dv) + (None,) * 11


varlen_attention_forward.register_autograd(_backward,
                                           setup_context=_setup_context)

# The same formula for eager calls that skip the dispatcher (dispatch.py).
_EagerVarlenAttention = dispatch.eager_function(
    "_EagerVarlenAttention", _forward_impl, _backward_impl, num_tensors=5)


def _check_inputs(q, k, v, cu_q, cu_k, enable_gqa: bool) -> None:
    for name, t in (("query", q), ("key", k), ("value", v)):
        if not isinstance(t, torch.Tensor):
            raise AttnoptError(f"attnopt.varlen_attention: {name} is not a "
                               "tensor")
        if t.dim() != 3:
            raise AttnoptError(
                f"attnopt.varlen_attention: {name} has shape {list(t.shape)}; "
                "expected rank 3 [tokens, heads, head_dim]")
        if t.device.type != "cuda":
            raise AttnoptError(
                f"attnopt.varlen_attention: {name} is on {t.device}; the "
                "kernels run on CUDA tensors")
        if t.dtype not in (torch.float16, torch.bfloat16):
            raise AttnoptError(
                f"attnopt.varlen_attention: {name} is {t.dtype}; packed "
                "batches run on tensor cores only: float16 or bfloat16")
    if not (q.dtype == k.dtype == v.dtype):
        raise AttnoptError(
            "attnopt.varlen_attention: query, key, value dtypes differ "
            f"({q.dtype}, {k.dtype}, {v.dtype})")
    if not (q.device == k.device == v.device):
        raise AttnoptError(
            "attnopt.varlen_attention: query, key, value are on different "
            f"devices ({q.device}, {k.device}, {v.device})")
    if k.shape[2] != q.shape[2]:
        raise AttnoptError(
            f"attnopt.varlen_attention: key head dim {k.shape[2]} != query "
            f"head dim {q.shape[2]}")
    if k.shape[0] != v.shape[0] or k.shape[1] != v.shape[1]:
        raise AttnoptError(
            f"attnopt.varlen_attention: key {list(k.shape)} and value "
            f"{list(v.shape)} differ in tokens or heads")
    hq, hk = q.shape[1], k.shape[1]
    if hq != hk and not enable_gqa:
        raise AttnoptError(
            f"attnopt.varlen_attention: {hq} query heads but {hk} key/value "
            "heads; pass enable_gqa=True for grouped-query attention")
    if hq % hk:
        raise AttnoptError(
            f"attnopt.varlen_attention: {hq} query heads are not a multiple "
            f"of {hk} key/value heads")
    for name, t in (("cu_seqlens_q", cu_q), ("cu_seqlens_k", cu_k)):
        if not isinstance(t, torch.Tensor) or t.dtype != torch.int32 or \
                t.dim() != 1:
            raise AttnoptError(
                f"attnopt.varlen_attention: {name} must be a 1-D int32 tensor "
                "of B + 1 offsets")
        if t.device.type not in ("cpu", "cuda") or (
                t.device.type == "cuda" and t.device != q.device):
            raise AttnoptError(
                f"attnopt.varlen_attention: {name} is on {t.device}; expected "
                f"the CPU or {q.device}")
    if cu_q.shape[0] != cu_k.shape[0] or cu_q.shape[0] < 2:
        raise AttnoptError(
            f"attnopt.varlen_attention: cu_seqlens_q has {cu_q.shape[0]} "
            f"offsets and cu_seqlens_k {cu_k.shape[0]}; expected the same "
            "number, B + 1 >= 2")


def varlen_attention(query: torch.Tensor, key: torch.Tensor,
                     value: torch.Tensor, cu_seqlens_q: torch.Tensor,
                     cu_seqlens_k: torch.Tensor, *,
                     causal: Union[bool, str] = False,
                     window: Optional[Tuple[int, int]] = None,
                     softcap: Optional[float] = None,
                     softcap_approx: bool = False,
                     scale: Optional[float] = None, dropout_p: float = 0.0,
                     dropout_seed: Optional[Tuple[int, int]] = None,
                     enable_gqa: bool = False, deterministic: bool = False,
                     return_lse: bool = False):
    """Attention of each packed sequence over its own keys (docs/python.md).

    query [Tq, Hq, D], key [Tk, Hkv, D], value [Tk, Hkv, Dv] (float16 or
    bfloat16, on one CUDA device); cu_seqlens_q / cu_seqlens_k: int32
    offsets [B + 1] (first 0, non-decreasing, last Tq / Tk), on the CPU or
    the query's device. causal, window, softcap, softcap_approx, scale,
    dropout_p,
    dropout_seed, enable_gqa, deterministic as in attnopt.attention, applied
    per sequence ("bottom_right" aligns each sequence's last query with its
    last key). return_lse: also return lse [Hq, Tq] (float32). No mask.
    """
    _check_inputs(query, key, value, cu_seqlens_q, cu_seqlens_k, enable_gqa)
    if isinstance(causal, bool):
        causal = "top_left" if causal else "none"
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    if window is not None:
        window = [int(window[0]), int(window[1])]
        if window == [-1, -1]:
            window = None
    seed, offset = 0, 0
    if dropout_p:
        seed, offset = dropout_seed if dropout_seed is not None else (
            random.getrandbits(63), 0)
    out, lse = dispatch.call(
        varlen_attention_forward, _EagerVarlenAttention, _forward_impl, 5,
        query, key, value, cu_seqlens_q, cu_seqlens_k, float(scale),
        str(causal), window, None if softcap is None else float(softcap),
        bool(softcap_approx), float(dropout_p), int(seed), int(offset),
        bool(deterministic))
    return (out, lse) if return_lse else out
