"""Random problems for the GPU tests of attnopt, drawn from a seed.

    python3 tests/gpu_cases.py --seed S --count N -o cases.json [--chip sm_90a]

writes the cases (Problem fields plus how the test builds its mask) that
test_gpu.py runs; `python3 -m attnopt.precompile cases.json` compiles them
where attn-compile is (the GPU machine has no LLVM). Drawn fresh each run:
ragged lengths, lengths below one tile, Lq = 1 and Lk = 1, GQA and MQA,
D != Dv, every causal mode, windows, softcap, boolean and additive masks at
several broadcast shapes, f16 and bf16.
"""

import argparse
import json
import math
import random
import sys


def draw_case(rng: random.Random, chip: str) -> dict:
    dtype = rng.choice(["f16", "bf16"])
    head_dim = rng.choice([64, 128, 64, 128, 32, 80, 96, 256])
    value_dim = head_dim if rng.random() < 0.8 else rng.choice([64, 128])
    kv_heads = rng.choice([1, 2, 4])
    query_heads = kv_heads * rng.choice([1, 1, 2, 4])
    batch = rng.choice([1, 2, 3])

    def length():
        return rng.choice([1, rng.randint(2, 63), rng.randint(64, 300),
                           rng.randint(300, 1100)])

    query_len, key_len = length(), length()
    case = dict(dtype=dtype, batch=batch, query_heads=query_heads,
                kv_heads=kv_heads, query_len=query_len, key_len=key_len,
                head_dim=head_dim, value_dim=value_dim,
                scale=float(_f32(1.0 / math.sqrt(head_dim))), chip=chip,
                causal=rng.choice(["none", "none", "top_left", "bottom_right"]))
    if rng.random() < 0.2:
        case["window"] = [rng.choice([-1, 0, 7, 64]), rng.choice([-1, 0, 5, 128])]
    if rng.random() < 0.2:
        case["softcap"] = rng.choice([5.0, 30.0])
    if rng.random() < 0.35:
        case["mask_dtype"] = rng.choice(["i1", "f32", dtype])
        if rng.random() < 0.7:
            # Per position, batch and head each full or broadcast.
            case["mask_shape"] = [rng.choice([batch, 1]),
                                  rng.choice([query_heads, 1]),
                                  query_len, key_len]
        else:
            # A key-padding mask: one row for all queries.
            case["mask_shape"] = [batch, 1, 1, key_len]
    if rng.random() < 0.2:
        case["deterministic"] = True
    return case


def fixed_cases(chip: str) -> list:
    """Cases every run has: an f32 one for the finite-difference gradient
    check (the exact CUDA-core kernels), one for torch.compile, and an f32
    one with dropout (its own checks: the bits are the op's Philox stream,
    which no peer shares)."""
    return [
        dict(dtype="f32", batch=1, query_heads=2, kv_heads=1, query_len=37,
             key_len=45, head_dim=32, value_dim=32,
             scale=float(_f32(1 / math.sqrt(32))), chip=chip,
             causal="bottom_right", purpose="gradcheck"),
        dict(dtype="bf16", batch=2, query_heads=4, kv_heads=2, query_len=256,
             key_len=256, head_dim=64, value_dim=64, scale=0.125, chip=chip,
             causal="top_left", purpose="compile"),
        dict(dtype="f32", batch=1, query_heads=2, kv_heads=2, query_len=40,
             key_len=56, head_dim=32, value_dim=32,
             scale=float(_f32(1 / math.sqrt(32))), chip=chip, causal="none",
             dropout_p=0.25, purpose="dropout"),
    ]


def _f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    cases = [draw_case(rng, a.chip) for _ in range(a.count)] + fixed_cases(a.chip)
    with open(a.output, "w") as f:
        json.dump(cases, f, indent=1)
    print(f"gpu_cases: seed {seed}, {len(cases)} cases in {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
