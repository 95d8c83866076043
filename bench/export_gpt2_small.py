#!/usr/bin/env python3
"""GPT-2 small's attention as nanoGPT writes it, exported by torch-mlir.

    python3 bench/export_gpt2_small.py OUT.mlir     # needs torch + torch-mlir

12 heads of 64, bf16, the causal mask a 1024 x 1024 `tril` buffer sliced to
the sequence and compared with 0 (`att.masked_fill(bias[:, :, :T, :T] == 0,
-inf)`), exported to linalg-on-tensors with a dynamic batch and length. The
raising reads the sliced buffer as `causal` (FoldBandConstantSlices.cpp):

    attention-opt OUT.mlir --attn-raise-pipeline=allow-precision-change |
      attn-compile - --chip=sm_90a -o gpt2_small.ptx
    python3 bench/bench_torch.py --sizes batch=8,query_len=1024,key_len=1024 DIR

(docs/performance.md, session 38). Not in test/: the buffer alone is 8 MB of
text; `gpt2_block_dynamic.linalg.mlir` is the same form at 4 heads of 32.
"""
import math
import sys

import torch
import torch.nn.functional as F
from torch_mlir import fx


class Gpt2Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer(
            "bias", torch.tril(torch.ones(1024, 1024)).view(1, 1, 1024, 1024))

    def forward(self, q, k, v):
        n = q.size(2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :n, :n] == 0, float("-inf"))
        return F.softmax(att, dim=-1) @ v


def main(out):
    x = lambda: torch.randn(2, 12, 64, 64, dtype=torch.bfloat16)
    # (max 1023: torch.export specializes a length of exactly 1024 away.)
    batch = torch.export.Dim("batch", max=64)
    seq = torch.export.Dim("seq", max=1023)
    dims = {name: {0: batch, 2: seq} for name in ("q", "k", "v")}
    m = fx.export_and_import(Gpt2Small(), x(), x(), x(),
                             output_type="linalg-on-tensors",
                             func_name="gpt2_small", dynamic_shapes=dims)
    with open(out, "w") as f:
        f.write(str(m))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
