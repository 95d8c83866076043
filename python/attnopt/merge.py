"""attnopt.merge_partials: merging partial attention results by their lse.

Attention over keys split into parts (context parallelism, chunked prefill,
a cache and new tokens) is computed part by part, each part returning its
output and lse, and merged exactly (`attn.merge_partials`,
docs/semantics.md §16; FlashInfer's merge_state). The kernel is the
split-KV group's combine stage as a kernel of its own.

One custom operator with a fake implementation:

  attnopt::merge_partials_forward(partial_output, partial_lse, out_dtype)
      -> (output, lse)

Eager calls run its implementation directly (dispatch.py). No gradients.
"""

from __future__ import annotations

import threading
from typing import Dict, Optional, Tuple

import torch

from . import compiler, dispatch, runtime
from .merge_problem import MergeProblem
from .ops import _DTYPES, _chip, _launch
from .problem import AttnoptError

_BY_NAME = {v: k for k, v in _DTYPES.items()}


class _MergeKernel:
    """The merge kernel of one problem, loaded on one device."""

    def __init__(self, problem: MergeProblem, device: int):
        entry = compiler.entry_for(problem)
        self.library = runtime.Library(str(entry / "train.json"), device)
        names = self.library.names()
        if len(names) != 1:
            raise AttnoptError(f"attnopt: {entry / 'train.json'} holds "
                               f"{len(names)} kernel sets, expected the merge "
                               "kernel alone")
        self.kernel = self.library.find(names[0])


_loaded: Dict[Tuple[MergeProblem, int], _MergeKernel] = {}
_lock = threading.Lock()


def _kernel_for(po: torch.Tensor, out_dtype: str) -> _MergeKernel:
    problem = MergeProblem(splits=po.shape[0], rows_shape=tuple(po.shape[1:-1]),
                           value_dim=po.shape[-1],
                           partial_dtype=_DTYPES[po.dtype], out_dtype=out_dtype,
                           chip=_chip(po.device))
    key = (problem, po.get_device())
    found = _loaded.get(key)
    if found is None:
        with _lock:
            found = _loaded.get(key)
            if found is None:
                found = _loaded[key] = _MergeKernel(problem, po.get_device())
    return found


def _forward_impl(partial_output, partial_lse, out_dtype):
    """merge_partials_forward's implementation (also called directly)."""
    rows, dv = partial_output.shape[1:-1], partial_output.shape[-1]
    dtype = _BY_NAME[out_dtype]
    if partial_output.numel() == 0:
        # No rows or no values (the kernel takes no zero-size tensors); no
        # parts would be a row with no key: output 0, lse -inf.
        return (partial_output.new_zeros((*rows, dv), dtype=dtype),
                partial_lse.new_full(rows, float("-inf")))
    partial_output = partial_output.contiguous()
    partial_lse = partial_lse.contiguous()
    kernel = _kernel_for(partial_output, out_dtype)
    out = partial_output.new_empty((*rows, dv), dtype=dtype)
    lse = partial_lse.new_empty(rows)
    _launch(kernel.kernel, {"partial_output": partial_output,
                            "partial_lse": partial_lse, "output": out,
                            "lse": lse}, 0, 0)
    return out, lse


@torch.library.custom_op("attnopt::merge_partials_forward", mutates_args=())
def merge_partials_forward(partial_output: torch.Tensor,
                           partial_lse: torch.Tensor, out_dtype: str
                           ) -> Tuple[torch.Tensor, torch.Tensor]:
    return _forward_impl(partial_output, partial_lse, out_dtype)


@merge_partials_forward.register_fake
def _(partial_output, partial_lse, out_dtype):
    rows, dv = partial_output.shape[1:-1], partial_output.shape[-1]
    return (partial_output.new_empty((*rows, dv), dtype=_BY_NAME[out_dtype]),
            partial_lse.new_empty(rows))


def _fail(message: str) -> None:
    raise AttnoptError("attnopt.merge_partials: " + message)


def merge_partials(partial_output: torch.Tensor, partial_lse: torch.Tensor, *,
                   out_dtype: Optional[torch.dtype] = None
                   ) -> Tuple[torch.Tensor, torch.Tensor]:
    """The merge of S partial results (docs/python.md, docs/semantics.md
    §16): partial_output [S, d..., Dv] (float16, bfloat16 or float32),
    partial_lse [S, d...] float32 (natural log; -inf for a part with no
    key, whose output is ignored, NaN included) -> (output [d..., Dv] in
    out_dtype (default: partial_output's), lse [d...] float32). A row whose
    parts all have lse -inf gets output 0 and lse -inf."""
    po, pl = partial_output, partial_lse
    for name, t in (("partial_output", po), ("partial_lse", pl)):
        if not isinstance(t, torch.Tensor):
            _fail(f"{name} is not a tensor")
        if t.device.type != "cuda" or t.device != po.device:
            _fail(f"{name} is on {t.device}; expected both on one CUDA device")
    if po.dim() < 3:
        _fail(f"partial_output has shape {list(po.shape)}; expected [S, d..., "
              "Dv] with at least one d")
    if tuple(pl.shape) != tuple(po.shape[:-1]):
        _fail(f"partial_lse has shape {list(pl.shape)}; expected "
              f"{list(po.shape[:-1])} (partial_output's without Dv)")
    if po.dtype not in _DTYPES:
        _fail(f"partial_output is {po.dtype}; expected float16, bfloat16 or "
              "float32")
    if pl.dtype != torch.float32:
        _fail(f"partial_lse is {pl.dtype}; expected torch.float32")
    out_dtype = po.dtype if out_dtype is None else out_dtype
    if out_dtype not in _DTYPES:
        _fail(f"out_dtype {out_dtype}; expected float16, bfloat16 or float32")
    if torch.is_grad_enabled() and (po.requires_grad or pl.requires_grad):
        _fail("computes no gradients: call it under torch.no_grad() or "
              "torch.inference_mode(), or detach the inputs")
    return dispatch.call_inference(merge_partials_forward, _forward_impl, 2,
                                   po, pl, _DTYPES[out_dtype])
