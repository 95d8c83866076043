"""attnopt.attention: the generated kernels as a PyTorch operator.

Two custom operators, registered with torch.library so that they run
eagerly and under torch.compile without graph breaks:

  attnopt::attention_forward(q, k, v, mask?, ...) -> (output, lse)
  attnopt::attention_backward(grad_output, q, k, v, output, lse, mask?, ...)
      -> (grad_query, grad_key, grad_value)

each with a fake (meta) implementation for tracing; the forward's autograd
formula saves lse and runs the generated backward group. The kernels of a
problem come from attnopt.compiler (compiled on first use, cached on disk)
and are loaded once per (problem, device) in this process.
"""

from __future__ import annotations

import math
import random
import threading
from typing import Dict, List, Optional, Sequence, Tuple, Union

import torch

from . import compiler, dispatch, runtime
from .problem import F32_PRECISIONS, AttnoptError, Problem

_DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32"}
_MASK_DTYPES = {torch.bool: "i1", **_DTYPES}


# -- kernels per (problem, device) --------------------------------------------

class _Kernels:
    def __init__(self, problem: Problem, device: int):
        entry = compiler.entry_for(problem)
        self.problem = problem
        self.library = runtime.Library(str(entry / "train.json"), device)
        self.forward = self.library.forward()
        self.backward = self.library.backward(self.forward.name)
        # A split-KV forward group and a backward group share f32 scratch
        # between their stages; a forward kernel alone needs none. With
        # run-time sizes the bytes depend on the sizes (and on the split
        # count the forward group decides at launch).
        self._runtime_sizes = bool(problem.runtime_sizes)
        self._sizes: Dict[Tuple[int, int, int], runtime.Sizes] = {}
        self._workspaces: Dict[tuple, int] = {}
        if not problem.runtime_sizes:
            self._workspaces[(True, None)] = self.forward.workspace_bytes({})
            self._workspaces[(False, None)] = self.backward.workspace_bytes({})

    def sizes(self, q, k) -> Optional[runtime.Sizes]:
        """The launch's run-time sizes (None for kernels without any; one
        structure per size triple, which the runtime only reads)."""
        if not self._runtime_sizes:
            return None
        key = (q.shape[0], q.shape[2], k.shape[2])
        s = self._sizes.get(key)
        if s is None:
            s = self._sizes[key] = runtime.make_sizes(*key)
        return s

    def workspace(self, forward: bool, sizes) -> int:
        kernel_set = self.forward if forward else self.backward
        if sizes is not None and sizes.offsets_count:
            # A packed batch's workspace follows its sequences' lengths.
            return kernel_set.workspace_bytes({}, sizes)
        key = (forward, None if sizes is None else
               (sizes.batch, sizes.query_len, sizes.key_len))
        n = self._workspaces.get(key)
        if n is None:
            n = self._workspaces[key] = kernel_set.workspace_bytes({}, sizes)
        return n


_loaded: Dict[Tuple[Problem, int], _Kernels] = {}
_loaded_lock = threading.Lock()


def _kernels(problem: Problem, device: int) -> _Kernels:
    key = (problem, device)
    with _loaded_lock:
        k = _loaded.get(key)
        if k is None:
            k = _loaded[key] = _Kernels(problem, device)
        return k


def _chip(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    if major == 9:
        return "sm_90a"
    # sm_86 and sm_89 (A10, A40, L4, L40S, RTX 30xx/40xx) have 99 KiB of
    # shared memory a block, not sm_80's 163 KiB: their kernels are chosen
    # for it. sm_87 (Orin) has sm_80's.
    if (major, minor) in ((8, 6), (8, 9)):
        return f"sm_{major}{minor}"
    if major == 8:
        return "sm_80"
    raise AttnoptError(
        f"attnopt: {torch.cuda.get_device_name(device)} is sm_{major}{minor}; "
        "the kernels are generated for sm_80, sm_86, sm_89 (Ampere/Ada) and "
        "sm_90a (Hopper)")


def _problem(q, k, v, mask, scale, causal, window, softcap, softcap_approx,
             dropout_p, deterministic, f32_precision) -> Problem:
    b, hq, lq, d = q.shape
    _, hk, lk, dv = v.shape
    return Problem(
        dtype=_DTYPES[q.dtype], batch=b, query_heads=hq, kv_heads=hk,
        query_len=lq, key_len=lk, head_dim=d, value_dim=dv, scale=scale,
        causal=causal, window=tuple(window) if window is not None else None,
        softcap=softcap, softcap_approx=softcap_approx,
        mask_dtype=_MASK_DTYPES[mask.dtype] if mask is not None else None,
        mask_shape=tuple(mask.shape) if mask is not None else None,
        dropout_p=dropout_p, deterministic=deterministic,
        f32_precision=f32_precision, chip=_chip(q.device))


def _raw_stream(index: int) -> int:
    """The current CUDA stream of device `index` as an integer, without
    building a torch.cuda.Stream object (the private call is what
    torch.compile's generated code uses; the public one is the fallback)."""
    get = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if get is not None:
        return get(index)
    return torch.cuda.current_stream(index).cuda_stream


def _launch(kernel_set, tensors: Dict[str, torch.Tensor], seed: int,
            offset: int, workspace_bytes: int = 0, sizes=None) -> None:
    # The current stream of the tensors' device; the runtime makes the
    # device's primary context current for the launch if needed.
    any_tensor = next(iter(tensors.values()))
    stream = _raw_stream(any_tensor.get_device())
    workspace = None
    if workspace_bytes:
        # Kept alive until the launch is enqueued; the caching allocator
        # orders its reuse on this stream after the kernels.
        workspace = any_tensor.new_empty(workspace_bytes, dtype=torch.uint8)
    kernel_set.launch({n: t.data_ptr() for n, t in tensors.items()},
                      stream=stream,
                      workspace=workspace.data_ptr() if workspace is not None else 0,
                      workspace_bytes=workspace_bytes, seed=seed, offset=offset,
                      sizes=sizes)


# Which sizes are run-time sizes (docs/python.md, "Sizes and recompiles").
# A family is everything that specializes the kernels except the batch and
# the two lengths; with dynamic=None, a family's first call compiles for its
# sizes, and each size that later differs from that call's becomes a
# run-time size of the family's kernels from then on (at most three
# recompiles per family, as torch.compile's automatic dynamic shapes).
_SIZE_NAMES = ("batch", "query_len", "key_len")
_first_sizes: Dict[tuple, Tuple[int, int, int]] = {}
_runtime_dims: Dict[tuple, frozenset] = {}


def _choose_runtime_sizes(family: tuple, sizes: Tuple[int, ...],
                          dynamic: str,
                          names: Tuple[str, ...] = _SIZE_NAMES) -> frozenset:
    """`dynamic` as the operators carry it: "auto", or the run-time sizes'
    names joined by commas ("" none). `sizes` are the call's values of
    `names` (a paged cache's are the batch and the page count)."""
    if dynamic != "auto":
        return frozenset(n for n in dynamic.split(",") if n)
    with _loaded_lock:
        first = _first_sizes.setdefault(family, sizes)
        dims = _runtime_dims.get(family, frozenset())
        changed = frozenset(n for n, a, b in zip(names, first, sizes)
                            if a != b)
        if not changed <= dims:
            dims = _runtime_dims[family] = dims | changed
        return dims


def _kernels_for(q, k, v, mask, scale, causal, window, softcap,
                 softcap_approx, dropout_p, deterministic,
                 dynamic, f32_precision) -> "_Kernels":
    """The loaded kernels of a call. A call whose shapes and arguments were
    seen before takes the kernels it took then (one dictionary lookup: this
    runs on every call); otherwise they are found by the call's family and
    run-time sizes, and a Problem is built only where none is loaded."""
    call = (q.shape, k.shape, v.shape, q.dtype, q.get_device(),
            None if mask is None else (mask.dtype, mask.shape), scale,
            causal, None if window is None else tuple(window), softcap,
            softcap_approx, dropout_p, deterministic, dynamic, f32_precision)
    found = _by_shapes.get(call)
    if found is None:
        found = _kernels_by_family(q, k, v, mask, scale, causal, window,
                                   softcap, softcap_approx, dropout_p,
                                   deterministic, dynamic, f32_precision)
        if len(_by_shapes) >= _BY_SHAPES_LIMIT:
            _by_shapes.clear()
        _by_shapes[call] = found
    return found


# Calls seen, by shapes and arguments (bounded: a server that sees every
# length would otherwise grow it without end; a cleared entry is only a
# slower lookup).
_by_shapes: Dict[tuple, "_Kernels"] = {}
_BY_SHAPES_LIMIT = 4096


def _kernels_by_family(q, k, v, mask, scale, causal, window, softcap,
                       softcap_approx, dropout_p, deterministic,
                       dynamic, f32_precision) -> "_Kernels":
    family = (q.shape[1], q.shape[3], k.shape[1], v.shape[3], q.dtype,
              q.device.index,
              None if mask is None else
              (mask.dtype, mask.shape[1], tuple(m == 1 for m in mask.shape)),
              scale, causal, None if window is None else tuple(window),
              softcap, softcap_approx, dropout_p, deterministic,
              f32_precision)
    sizes = (q.shape[0], q.shape[2], k.shape[2])
    dims = _choose_runtime_sizes(family, sizes, dynamic)
    key = (family, tuple(None if n in dims else s
                         for n, s in zip(_SIZE_NAMES, sizes)))
    found = _by_call.get(key)
    if found is None:
        problem = _problem(q, k, v, mask, scale, causal, window, softcap,
                           softcap_approx, dropout_p, deterministic,
                           f32_precision)
        if dims:
            problem = problem.with_runtime_sizes(dims)
        found = _by_call[key] = _kernels(problem, q.device.index)
    return found


_by_call: Dict[tuple, "_Kernels"] = {}


# -- the operators -------------------------------------------------------------

def _nothing_to_compute(q, k) -> bool:
    """No query rows (B, Hq or Lq is 0) or no keys (Lk is 0): the result is
    known without kernels, which take no zero-size tensors."""
    return q.shape[0] == 0 or q.shape[1] == 0 or q.shape[2] == 0 or \
        k.shape[2] == 0


def _forward_impl(q, k, v, mask, scale, causal, window, softcap,
                  softcap_approx, dropout_p, seed, offset, deterministic,
                  dynamic, f32_precision):
    """attention_forward's implementation (also called directly: dispatch)."""
    if _nothing_to_compute(q, k):
        # No query rows, or no keys: output 0 and lse -inf (§6), no launch.
        return (q.new_zeros(q.shape[:3] + (v.shape[3],)),
                q.new_full(q.shape[:3], float("-inf"), dtype=torch.float32))
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    mask = mask.contiguous() if mask is not None else None
    kernels = _kernels_for(q, k, v, mask, scale, causal, window, softcap,
                           softcap_approx, dropout_p, deterministic, dynamic,
                           f32_precision)
    sizes = kernels.sizes(q, k)
    out = q.new_empty(q.shape[:3] + (v.shape[3],))
    lse = q.new_empty(q.shape[:3], dtype=torch.float32)
    tensors = {"query": q, "key": k, "value": v, "output": out, "lse": lse}
    if mask is not None:
        tensors["mask"] = mask
    _launch(kernels.forward, tensors, seed, offset,
            kernels.workspace(True, sizes), sizes)
    return out, lse


@torch.library.custom_op("attnopt::attention_forward", mutates_args=())
def attention_forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                      mask: Optional[torch.Tensor], scale: float, causal: str,
                      window: Optional[List[int]], softcap: Optional[float],
                      softcap_approx: bool,
                      dropout_p: float, seed: int, offset: int,
                      deterministic: bool, dynamic: str, f32_precision: str
                      ) -> Tuple[torch.Tensor, torch.Tensor]:
    return _forward_impl(q, k, v, mask, scale, causal, window, softcap,
                         softcap_approx, dropout_p, seed, offset,
                         deterministic, dynamic, f32_precision)


@attention_forward.register_fake
def _(q, k, v, mask, scale, causal, window, softcap, softcap_approx,
      dropout_p, seed, offset, deterministic, dynamic, f32_precision):
    out = q.new_empty(q.shape[:3] + (v.shape[3],))
    lse = q.new_empty(q.shape[:3], dtype=torch.float32)
    return out, lse


def _backward_impl(grad_output, q, k, v, out, lse, mask, scale, causal,
                   window, softcap, softcap_approx, dropout_p, seed, offset,
                   deterministic, dynamic, f32_precision):
    """attention_backward's implementation (also called directly)."""
    if _nothing_to_compute(q, k):
        return torch.zeros_like(q), torch.zeros_like(k), torch.zeros_like(v)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    out, lse = out.contiguous(), lse.contiguous()
    grad_output = grad_output.to(q.dtype).contiguous()
    mask = mask.contiguous() if mask is not None else None
    kernels = _kernels_for(q, k, v, mask, scale, causal, window, softcap,
                           softcap_approx, dropout_p, deterministic, dynamic,
                           f32_precision)
    sizes = kernels.sizes(q, k)
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    tensors = {"query": q, "key": k, "value": v, "output": out, "lse": lse,
               "grad_output": grad_output, "grad_query": dq, "grad_key": dk,
               "grad_value": dv}
    if mask is not None:
        tensors["mask"] = mask
    _launch(kernels.backward, tensors, seed, offset,
            kernels.workspace(False, sizes), sizes)
    return dq, dk, dv


@torch.library.custom_op("attnopt::attention_backward", mutates_args=())
def attention_backward(grad_output: torch.Tensor, q: torch.Tensor,
                       k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
                       lse: torch.Tensor, mask: Optional[torch.Tensor],
                       scale: float, causal: str, window: Optional[List[int]],
                       softcap: Optional[float],
                       softcap_approx: bool, dropout_p: float, seed: int,
                       offset: int, deterministic: bool,
                       dynamic: str, f32_precision: str
                       ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _backward_impl(grad_output, q, k, v, out, lse, mask, scale, causal,
                          window, softcap, softcap_approx, dropout_p, seed,
                          offset, deterministic, dynamic, f32_precision)


@attention_backward.register_fake
def _(grad_output, q, k, v, out, lse, mask, scale, causal, window, softcap,
      softcap_approx, dropout_p, seed, offset, deterministic, dynamic,
      f32_precision):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


def _setup_context(ctx, inputs, output):
    (q, k, v, mask, scale, causal, window, softcap, softcap_approx, dropout_p,
     seed, offset, deterministic, dynamic, f32_precision) = inputs
    out, lse = output
    ctx.save_for_backward(q, k, v, out, lse, mask)
    ctx.params = (scale, causal, window, softcap, softcap_approx, dropout_p,
                  seed, offset, deterministic, dynamic, f32_precision)


def _backward(ctx, grad_out, grad_lse):
    q, k, v, out, lse, mask = ctx.saved_tensors
    dq, dk, dv = attention_backward(grad_out, q, k, v, out, lse, mask,
                                    *ctx.params)
    # lse is an auxiliary output: its gradient is not propagated (documented).
    return (dq, dk, dv) + (None,) * 12


attention_forward.register_autograd(_backward, setup_context=_setup_context)

# The same formula for eager calls that skip the dispatcher (dispatch.py).
_EagerAttention = dispatch.eager_function("_EagerAttention", _forward_impl,
                                          _backward_impl, num_tensors=4)


# -- the user-facing function --------------------------------------------------

def _check_inputs(q, k, v, enable_gqa: bool) -> None:
    # The usual call passes in a few attribute reads; the per-tensor
    # messages are looked for only when it does not.
    plain = isinstance(q, torch.Tensor) and isinstance(k, torch.Tensor) and \
        isinstance(v, torch.Tensor)
    if not (plain and q.dim() == 4 and k.dim() == 4 and v.dim() == 4 and
            q.is_cuda and k.is_cuda and v.is_cuda and q.dtype in _DTYPES):
        _check_each_tensor(q, k, v)
    _check_together(q, k, v, enable_gqa)


def _check_each_tensor(q, k, v) -> None:
    for name, t in (("query", q), ("key", k), ("value", v)):
        if not isinstance(t, torch.Tensor):
            raise AttnoptError(f"attnopt.attention: {name} is not a tensor")
        if t.dim() != 4:
            raise AttnoptError(
                f"attnopt.attention: {name} has shape {list(t.shape)}; expected "
                "rank 4 [batch, heads, length, head_dim]")
        if t.device.type != "cuda":
            raise AttnoptError(
                f"attnopt.attention: {name} is on {t.device}; the kernels run on "
                "CUDA tensors")
        if t.dtype not in _DTYPES:
            raise AttnoptError(
                f"attnopt.attention: {name} is {t.dtype}; expected float16, "
                "bfloat16 or float32")


def _check_together(q, k, v, enable_gqa: bool) -> None:
    if not (q.dtype == k.dtype == v.dtype):
        raise AttnoptError(
            f"attnopt.attention: query, key, value dtypes differ ({q.dtype}, "
            f"{k.dtype}, {v.dtype})")
    if not (q.get_device() == k.get_device() == v.get_device()):
        raise AttnoptError(
            f"attnopt.attention: query, key, value are on different devices "
            f"({q.device}, {k.device}, {v.device})")
    b, hq, _, d = q.shape
    if k.shape[0] != b or v.shape[0] != b:
        raise AttnoptError(
            f"attnopt.attention: batch sizes differ: query {b}, key "
            f"{k.shape[0]}, value {v.shape[0]}")
    if k.shape[3] != d:
        raise AttnoptError(
            f"attnopt.attention: key head dim {k.shape[3]} != query head dim {d}")
    if k.shape[1] != v.shape[1] or k.shape[2] != v.shape[2]:
        raise AttnoptError(
            f"attnopt.attention: key {list(k.shape)} and value {list(v.shape)} "
            "differ in heads or length")
    hk = k.shape[1]
    if hq != hk and not enable_gqa:
        raise AttnoptError(
            f"attnopt.attention: {hq} query heads but {hk} key/value heads; pass "
            "enable_gqa=True for grouped-query attention")
    if hq % hk:
        raise AttnoptError(
            f"attnopt.attention: {hq} query heads are not a multiple of {hk} "
            "key/value heads")


def _normalize_mask(mask: torch.Tensor, q, k) -> torch.Tensor:
    """The mask as a rank-4 tensor whose broadcast dimensions are size 1
    (an expanded dimension, stride 0, is narrowed back to 1)."""
    if mask.device != q.device:
        raise AttnoptError(
            f"attnopt.attention: the mask is on {mask.device}, the query on "
            f"{q.device}")
    if mask.dtype not in _MASK_DTYPES:
        raise AttnoptError(
            f"attnopt.attention: mask dtype {mask.dtype}; expected bool (True "
            "= attend) or a float additive bias")
    if mask.requires_grad:
        raise AttnoptError(
            "attnopt.attention: the mask requires grad, but the kernels do not "
            "compute a gradient for it")
    if mask.dim() > 4:
        raise AttnoptError(
            f"attnopt.attention: mask of rank {mask.dim()}; expected at most 4")
    while mask.dim() < 4:
        mask = mask.unsqueeze(0)
    full = (q.shape[0], q.shape[1], q.shape[2], k.shape[2])
    for dim in range(4):
        if mask.shape[dim] not in (1, full[dim]):
            raise AttnoptError(
                f"attnopt.attention: mask shape {list(mask.shape)} does not "
                f"broadcast to the scores {list(full)}")
        if mask.shape[dim] > 1 and mask.stride(dim) == 0:
            mask = mask.narrow(dim, 0, 1)
    return mask


def attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, *,
              causal: Union[bool, str] = False,
              window: Optional[Tuple[int, int]] = None,
              softcap: Optional[float] = None, softcap_approx: bool = False,
              scale: Optional[float] = None,
              mask: Optional[torch.Tensor] = None, dropout_p: float = 0.0,
              dropout_seed: Optional[Tuple[int, int]] = None,
              enable_gqa: bool = False, deterministic: bool = False,
              return_lse: bool = False,
              dynamic: Union[None, bool, Sequence[str]] = None,
              f32_precision: str = "ieee"):
    """Attention of query [B, Hq, Lq, D] over key [B, Hkv, Lk, D] and value
    [B, Hkv, Lk, Dv] with the generated kernels (docs/python.md).

    causal: False, True (= "top_left", as scaled_dot_product_attention's
    is_causal), "top_left" or "bottom_right". window: (left, right) relative
    to the causal diagonal, -1 unbounded. softcap: scores become
    softcap * tanh(scores / softcap). softcap_approx: that tanh with
    tanh.approx.f32 (each score within softcap * 8.1e-6; 2-3x faster
    forward; docs/semantics.md section 3.1). scale: default 1/sqrt(D). mask: bool
    (True = attend) or float additive bias, broadcastable to [B, Hq, Lq, Lk]
    (no gradient). dropout_p with Philox bits from dropout_seed = (seed,
    offset), drawn from Python's `random` when not given (a graph break under
    torch.compile: pass it to avoid that). enable_gqa: Hkv may divide Hq.
    deterministic: a backward without atomics. return_lse: also return the
    log-sum-exp [B, Hq, Lq] (float32, natural log of the scaled scores).
    dynamic: which of B, Lq, Lk the kernels take at run time. None (the
    default): a problem's first call compiles for its sizes, and each size
    that a later call changes becomes a run-time size (one recompile per
    size, then none). True: all three from the first call. False: one
    compile per shape. Names, e.g. ("batch", "key_len"): those sizes
    (decoding keeps Lq static: its split-KV kernels need it).
    docs/python.md, "Sizes and recompiles". f32_precision: for float32
    inputs, "ieee" (exact CUDA-core kernels) or "tf32" (the forward's
    products on tensor cores with operands rounded to tf32: output within
    4e-3 of float64, docs/semantics.md section 2.1; the backward stays
    exact); ignored for float16/bfloat16.
    """
    dynamic = _dynamic_spelling(dynamic)
    if f32_precision not in F32_PRECISIONS:
        raise AttnoptError(
            f"attnopt.attention: f32_precision = {f32_precision!r}; expected "
            f"one of {F32_PRECISIONS}")
    if query.dtype != torch.float32:
        f32_precision = "ieee"  # one kernel set whatever was asked
    _check_inputs(query, key, value, enable_gqa)
    if isinstance(causal, bool):
        causal = "top_left" if causal else "none"
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    if mask is not None:
        mask = _normalize_mask(mask, query, key)
    if window is not None:
        window = [int(window[0]), int(window[1])]
        if window == [-1, -1]:
            window = None
    seed, offset = 0, 0
    if dropout_p:
        seed, offset = dropout_seed if dropout_seed is not None else (
            random.getrandbits(63), 0)
    out, lse = dispatch.call(
        attention_forward, _EagerAttention, _forward_impl, 4, query, key,
        value, mask, float(scale), str(causal), window,
        None if softcap is None else float(softcap), bool(softcap_approx),
        float(dropout_p),
        int(seed), int(offset), bool(deterministic), dynamic, f32_precision)
    return (out, lse) if return_lse else out


def _dynamic_spelling(dynamic, all_names: Tuple[str, ...] = _SIZE_NAMES,
                      caller: str = "attnopt.attention") -> str:
    """`dynamic` of attnopt.attention (or of another caller whose run-time
    sizes are `all_names`) as the operators carry it."""
    if dynamic is None:
        return "auto"
    if dynamic is True or dynamic is False:
        return ",".join(all_names) if dynamic else ""
    names = [dynamic] if isinstance(dynamic, str) else dynamic
    try:
        names = set(names)
    except TypeError:
        names = None
    if names is None or not names <= set(all_names):
        raise AttnoptError(
            f"{caller}: dynamic = {dynamic!r}; expected None, True, "
            f"False or names among {all_names}")
    return ",".join(n for n in all_names if n in names)
