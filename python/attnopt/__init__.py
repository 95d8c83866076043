"""attnopt: attention-opt's generated FlashAttention-class kernels in PyTorch.

    import attnopt
    out = attnopt.attention(q, k, v, causal=True)   # q, k, v CUDA tensors
    out.sum().backward()                            # the generated backward

The kernels are compiled by attn-compile on first use for each problem
(dtype, sizes, mask, features) and cached on disk (attnopt.compiler). See
docs/python.md.
"""

from .problem import AttnoptError, Problem  # noqa: F401

__all__ = ["AttnoptError", "Problem", "attention", "varlen_attention",
           "paged_attention", "merge_partials"]


def __getattr__(name):
    # torch is imported only when the operator is used, so that the
    # problem/IR/cache parts work without it.
    if name == "attention":
        from .ops import attention
        return attention
    if name == "varlen_attention":
        from .varlen import varlen_attention
        return varlen_attention
    if name == "paged_attention":
        from .paged import paged_attention
        return paged_attention
    if name == "merge_partials":
        from .merge import merge_partials
        return merge_partials
    raise AttributeError(f"module 'attnopt' has no attribute {name!r}")
