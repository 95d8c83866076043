#!/usr/bin/env python3
"""Training steps for the mma.sync backward where its streamed tiles take one
shared-memory stage (query_stages 1: sm_80 past D = Dv = 208, sm_86 / sm_89
past 112) and for its 32-key dq kernel (sm_80 past D = 192); issue 19:

    python3 bench/mma_sync_backward_cases.py OUT_DIR [--seed N]

writes OUT_DIR/
  sm80/     16 random steps for sm_80: D, Dv multiples of 8 from 200 to 256
            (D = Dv and not), f16/bf16, GQA, ragged lengths 1-511, causal
            (both alignments), dropout, key-padding masks, softcap, windows,
            `deterministic` (as the chooser compiles them);
  sm86/     12 random steps for sm_86: D, Dv from 120 to 176 and MLA-like
            192 / 128;
  sm90/     12 random steps for sm_90a, D and Dv from 8 to 256 (the
            backward's copies changed for every chip: copyColumnPerLane);
  dynamic/  sm_80 D = 256 steps with run-time batch and lengths;
  time/     B2 H16 L2048 bf16 steps (D = 256 causal and full, D = 128
            causal) that bench/mma_sync_backward.sh compiles several ways.
The seed is printed and written to OUT_DIR/SEED.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from head_split_cases import random_steps, seeded_output, write  # noqa: E402
from make_cases import attention_train  # noqa: E402


def sm80_dims(rng):
    d = rng.choice(range(200, 257, 8))
    return d, rng.choice([d, d, rng.choice(range(200, 257, 8))])


def sm86_dims(rng):
    if rng.random() < 0.2:
        return 192, 128
    d = rng.choice(range(120, 177, 8))
    return d, rng.choice([d, d, rng.choice(range(120, 177, 8))])


def any_dims(rng):
    d = rng.choice(range(8, 257, 8))
    return d, rng.choice([d, d, rng.choice(range(8, 257, 8))])


TIMED = [  # name, d, attrs
    ("d256_b2_l2048_causal", 256, "causal = #attn.causal<top_left>"),
    ("d256_b2_l2048_full", 256, ""),
    ("d128_b2_l2048_causal", 128, "causal = #attn.causal<top_left>"),
]


def main():
    a = seeded_output("mma_sync_backward_cases.py")
    rng = random.Random(a.seed)
    for sub, count, dims in [("sm80", 16, sm80_dims), ("sm86", 12, sm86_dims),
                             ("sm90", 12, any_dims)]:
        os.makedirs(os.path.join(a.out, sub), exist_ok=True)
        random_steps(rng, os.path.join(a.out, sub), count, dims)
    for n, attrs, dt in [("dyn_d256_causal", "causal = #attn.causal<bottom_right>", "bf16"),
                         ("dyn_d232_full", "", "f16")]:
        d = 256 if "256" in n else 232
        write(os.path.join(a.out, "dynamic", n + ".mlir"),
              attention_train(n, "?", 4, 2, "?", "?", d, d, dt, attrs))
    for n, d, attrs in TIMED:
        write(os.path.join(a.out, "time", n + ".mlir"),
              attention_train(n, 2, 16, 16, 2048, 2048, d, d, "bf16", attrs))


if __name__ == "__main__":
    main()
