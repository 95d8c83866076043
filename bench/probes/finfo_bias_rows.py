#!/usr/bin/env python3
"""Probe: rows whose every key carries a finfo.min additive bias.

docs/semantics.md §6 defines them as ordinary rows (all scores equal
finfo.min: the average of V over those keys, as PyTorch's math path gives);
the GPU kernels take the softmax in base 2, where finfo.min * log2(e)
overflows to -inf, so they may treat such a row as fully masked (0).

    python3 bench/probes/finfo_bias_rows.py cases bench/generated/finfo-cases.json
    ATTNOPT_COMPILER=build/bin/attn-compile PYTHONPATH=python \\
        python3 -m attnopt.precompile bench/generated/finfo-cases.json \\
        --cache bench/generated/finfo-cache
    # on the GPU machine:
    ATTNOPT_CACHE_DIR=$PWD/bench/generated/finfo-cache PYTHONPATH=python \\
        python3 bench/probes/finfo_bias_rows.py run

Prints, per bias dtype, the largest relative error against a float64
reference on three row classes: every key finfo.min, half the keys
finfo.min, no bias; and the same for PyTorch's math SDPA.
"""

import json
import sys

B, H, L, D = 2, 2, 64, 64
MASK_DTYPES = ("f32", "bf16")


def cases(path):
    out = [dict(dtype="bf16", batch=B, query_heads=H, kv_heads=H,
                query_len=L, key_len=L, head_dim=D, value_dim=D,
                scale=D ** -0.5, mask_dtype=m, mask_shape=[B, 1, L, L])
           for m in MASK_DTYPES]
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


def run():
    import torch
    import torch.nn.functional as F
    import attnopt
    torch.manual_seed(0)
    dev = "cuda"
    q, k, v = (torch.randn(B, H, L, D, device=dev, dtype=torch.bfloat16)
               for _ in range(3))
    for mdt in MASK_DTYPES:
        tdt = {"f32": torch.float32, "bf16": torch.bfloat16}[mdt]
        low = torch.finfo(tdt).min
        bias = torch.zeros(B, 1, L, L, device=dev, dtype=tdt)
        bias[:, :, :8, :] = low          # rows 0-7: every key
        bias[:, :, 8:16, ::2] = low      # rows 8-15: half the keys
        out, lse = attnopt.attention(q, k, v, mask=bias, return_lse=True)
        s = (q.double() @ k.double().transpose(-1, -2)) * D ** -0.5
        s = s + bias.double()
        ref = torch.softmax(s, -1) @ v.double()
        math = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                              attn_mask=bias.float())
        for name, rows in (("every key finfo.min", slice(0, 8)),
                           ("half the keys", slice(8, 16)),
                           ("no bias", slice(16, L))):
            r = ref[:, :, rows]
            scale_ = r.abs().max().item()
            ours = (out[:, :, rows].double() - r).abs().max().item() / scale_
            peer = (math[:, :, rows].double() - r).abs().max().item() / scale_
            print(f"mask {mdt}, rows with {name}: ours {ours:.3g}, "
                  f"math SDPA {peer:.3g}, ours all zero "
                  f"{bool((out[:, :, rows] == 0).all())}, lse "
                  f"{lse[:, :, rows].min().item():.4g}..."
                  f"{lse[:, :, rows].max().item():.4g}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["cases"]:
        cases(sys.argv[2])
    elif sys.argv[1:2] == ["run"]:
        run()
    else:
        sys.exit(__doc__)
