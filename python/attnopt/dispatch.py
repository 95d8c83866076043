"""How a call of attnopt.attention / varlen_attention reaches the kernels.

Each operator is registered with torch.library (a custom op with a fake
implementation and an autograd formula), which is what torch.compile,
torch.export, FakeTensor tracing, dispatch modes and functorch transforms
see. Going through the dispatcher costs host time on every call, though:
the arguments are boxed and unboxed twice (autograd, then the CUDA kernel),
both times into Python (docs/performance.md measures it). A plain eager
call needs none of it, so `call` runs the operator's implementation
directly there, under a torch.autograd.Function that saves the same
tensors and runs the same backward implementation as the registered
formula. Everything else still goes through the custom op.
"""

from __future__ import annotations

from typing import Callable, Sequence, Tuple

import torch


def _flag(name: str) -> Callable[[], bool]:
    """A torch._C query, or 'active' where this torch does not have it (the
    custom op is always correct; only the direct call needs the check)."""
    fn = getattr(torch._C, name, None)
    return fn if fn is not None else (lambda: True)


_functorch_active = _flag("_are_functorch_transforms_active")
_dispatch_stack_len = getattr(torch._C, "_len_torch_dispatch_stack",
                              lambda: 1)


def direct_call_allowed(tensors: Sequence) -> bool:
    """True where nothing observes the call but eager autograd: not
    compiling, exporting or tracing, no torch dispatch mode, no functorch
    transform, and every tensor a plain torch.Tensor (not a FakeTensor,
    a functional or other subclass tensor)."""
    if torch.compiler.is_compiling() or torch.jit.is_tracing():
        return False
    if _dispatch_stack_len() or _functorch_active():
        return False
    for t in tensors:
        if t is not None and type(t) is not torch.Tensor:
            return False
    return True


def eager_function(name: str, forward_impl: Callable,
                   backward_impl: Callable, num_tensors: int):
    """A torch.autograd.Function running `forward_impl(*tensors, *params)`
    -> (output, lse) and, for the gradients, `backward_impl(grad_output,
    q, k, v, output, lse, *other_tensors, *params)` -> (dq, dk, dv): the
    registered autograd formula of the custom op, without the dispatcher.
    The first three tensors are q, k, v; the other tensor inputs (a mask,
    offsets) are saved and get no gradient."""

    def forward(ctx, *inputs):
        out, lse = forward_impl(*inputs)
        q, k, v, *others = inputs[:num_tensors]
        ctx.save_for_backward(q, k, v, out, lse, *others)
        ctx.params = inputs[num_tensors:]
        # No zeros materialized for the gradient of an unused lse (a fill
        # kernel per step); grad_out is None only where out is unused.
        ctx.set_materialize_grads(False)
        return out, lse

    @torch.autograd.function.once_differentiable
    def backward(ctx, grad_out, grad_lse):
        q, k, v, out, lse, *others = ctx.saved_tensors
        if grad_out is None:
            grad_out = torch.zeros_like(out)
        dq, dk, dv = backward_impl(grad_out, q, k, v, out, lse, *others,
                                   *ctx.params)
        # lse is an auxiliary output: its gradient is not propagated
        # (documented), as in the registered formula.
        return (dq, dk, dv) + (None,) * (num_tensors - 3 + len(ctx.params))

    return type(name, (torch.autograd.Function,),
                {"forward": staticmethod(forward),
                 "backward": staticmethod(backward)})


def call(custom_op, function, forward_impl: Callable, num_tensors: int,
         *inputs) -> Tuple[torch.Tensor, torch.Tensor]:
    """The operator applied to `inputs` (tensors first): directly where
    `direct_call_allowed`, through the custom op otherwise."""
    tensors = inputs[:num_tensors]
    if not direct_call_allowed(tensors):
        return custom_op(*inputs)
    if torch.is_grad_enabled() and (tensors[0].requires_grad or
                                    tensors[1].requires_grad or
                                    tensors[2].requires_grad):
        return function.apply(*inputs)
    return forward_impl(*inputs)


def call_inference(custom_op, impl: Callable, num_tensors: int, *inputs):
    """An operator without gradients applied to `inputs`: `impl` directly
    where `direct_call_allowed`, the custom op otherwise."""
    if direct_call_allowed(inputs[:num_tensors]):
        return impl(*inputs)
    return custom_op(*inputs)
