#!/usr/bin/env python3
"""Draws a randomized GPU validation sweep: attention problems of the shapes
that break kernels in the field, written as .mlir files for attn-compile.

  bench/random_cases.py OUTDIR [--seed N] [--cases N] [--families F,G]
                        [--kind any|train|fwd] [--min-len N]
                        [--dtypes f16,bf16,f32]

--families draws the mask family from the listed ones only (e.g. dropout),
--kind only training steps or only forwards, --min-len lengths of at least
N (e.g. 64: the kernels that need a query block of rows), --dtypes the
element types from the listed ones only (e.g. f32 with
ATTN_COMPILE_FLAGS=--f32-precision=tf32 in bench/sweep.sh: a tf32 sweep):
a sweep aimed at
one kernel choice keeps the rest of the draw (lengths, head dims, GQA)
random.

Each run draws new problems (the seed comes from the OS unless given, and is
printed and written to OUTDIR/SEED so that a failure can be drawn again).
Every case is a forward (OUTDIR/fwd/<name>.mlir) or a training step
(OUTDIR/train/<name>.mlir: forward + attn.attention_grad, as
bench/make_cases.py writes them), and the draw favours the edges:

  - lengths below one tile (1..63), Lk = 1, ragged lengths (not multiples of
    64 or 128), lengths of exactly one or two tiles;
  - GQA ratios 1, 2, 4, 8 and MQA; batch 1..3;
  - head dims 64 and 128 half of the time, the other multiples of 8 up to
    256 (32 to 256: tensor cores since issue 19) most of the rest, and now
    and then ones only the CUDA-core kernel takes (4, 20, 36); D != Dv now
    and then;
  - every mask family: none, causal top-left / bottom-right, sliding windows
    (one- and two-sided), softcap (exact and softcap_approx), boolean and
    additive masks with
    broadcast shapes, dropout (Philox), and `deterministic` gradients;
  - f16 and bf16 (f32 now and then).

OUTDIR/cases.txt lists one line per case: its name, kind and parameters.
bench/run_sweep.sh compiles them (with and without --poison-shared-memory)
and the device script runs each several times with fresh inputs.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_cases import attention, attention_train  # noqa: E402

TILE_EDGES = [1, 2, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65, 127, 128, 129,
              191, 255, 256, 257]


FAMILIES = ["none", "causal_tl", "causal_br", "window", "window2", "softcap",
            "softcap_approx", "bool_mask", "add_mask", "dropout", "mixed"]


def draw_len(rng):
    r = rng.random()
    if r < 0.15:
        return 1
    if r < 0.45:
        return rng.choice(TILE_EDGES)
    if r < 0.75:
        return rng.randint(2, 63)
    return rng.randint(64, 700)


DTYPE_WEIGHTS = {"f16": 0.45, "bf16": 0.45, "f32": 0.1}


def draw_case(rng, index, families=None, kind="any", min_len=1, dtypes=None):
    train = rng.random() < 0.5 if kind == "any" else kind == "train"
    dtypes = dtypes or list(DTYPE_WEIGHTS)
    dtype = rng.choices(dtypes, [DTYPE_WEIGHTS[t] for t in dtypes])[0]
    r = rng.random()
    if r < 0.5:
        d = rng.choice([64, 128])
        dv = d
    elif r < 0.93:
        # Issue 19: every head dim on tensor cores (multiples of 8 up to 256).
        d = rng.choice([32, 40, 48, 72, 80, 96, 112, 160, 192, 256])
        dv = d if rng.random() < 0.7 else rng.choice([32, 64, 96, 128, 192])
    else:
        # Head dims only the CUDA-core kernel takes.
        d = rng.choice([4, 20, 36])
        dv = d if rng.random() < 0.7 else rng.choice([12, 64])
    b = rng.randint(1, 3)
    group = rng.choice([1, 1, 2, 4, 8])
    hkv = rng.randint(1, 3) if group < 8 else 1
    if rng.random() < 0.15:  # MQA
        hkv, group = 1, rng.choice([2, 6, 16])
    hq = hkv * group
    def length():
        # Redrawn below min_len (the draw's other edges stay as they are).
        n = draw_len(rng)
        while n < min_len:
            n = draw_len(rng)
        return n
    lq, lk = length(), length()
    if rng.random() < 0.25:
        lk = lq  # self-attention shapes
    attrs, mask, dropout, deterministic = [], None, False, False
    family = rng.choice(families or FAMILIES)
    if family in ("causal_tl", "mixed"):
        attrs.append("causal = #attn.causal<top_left>")
    if family == "causal_br":
        attrs.append("causal = #attn.causal<bottom_right>")
    if family in ("window", "mixed"):
        if not attrs:
            attrs.append("causal = #attn.causal<bottom_right>")
        attrs.append(f"window = array<i64: {rng.randint(0, 200)}, 0>")
    if family == "window2":
        attrs.append(f"window = array<i64: {rng.randint(0, 150)}, "
                     f"{rng.randint(0, 150)}>")
    if family in ("softcap", "softcap_approx", "mixed"):
        attrs.append(f"softcap = {rng.choice([2.0, 20.0, 50.0])} : f32")
    if family == "softcap_approx" or (family == "mixed" and rng.random() < 0.5):
        attrs.append("softcap_approx")
    if family in ("bool_mask", "add_mask", "mixed"):
        shape = [rng.choice([1, b]), rng.choice([1, hq]), rng.choice([1, lq]),
                 lk]
        mtype = "i1" if family != "add_mask" else rng.choice(
            [dtype, "f32"])
        mask = (tuple(shape), mtype)
    if family == "dropout":
        attrs.append(f"dropout_p = {rng.choice([0.1, 0.25])} : f32")
        dropout = True
    if train and rng.random() < 0.25:
        deterministic = True
    if rng.random() < 0.2:
        attrs.append(f"scale = {rng.choice([0.05, 0.3, 1.0])} : f32")
    name = f"r{index:03d}_{'train' if train else 'fwd'}_{family}"
    attr_text = ", ".join(attrs)
    if train:
        text = attention_train(name, b, hq, hkv, lq, lk, d, dv, dtype,
                               attr_text, mask=mask, dropout=dropout,
                               deterministic=deterministic)
    else:
        text = attention(name, b, hq, hkv, lq, lk, d, dv, dtype, attr_text,
                         mask=mask, dropout=dropout, lse=rng.random() < 0.7)
    desc = (f"{name} kind={'train' if train else 'fwd'} dtype={dtype} B={b} "
            f"Hq={hq} Hkv={hkv} Lq={lq} Lk={lk} D={d} Dv={dv} "
            f"family={family} mask={mask} deterministic={int(deterministic)} "
            f"attrs=[{attr_text}]")
    return name, train, text, desc


def main(argv):
    args = [a for a in argv[1:]]
    seed, cases, out, families, kind, min_len = None, 40, None, None, "any", 1
    dtypes = None
    i = 0
    while i < len(args):
        if args[i] == "--seed":
            seed = int(args[i + 1]); i += 2
        elif args[i] == "--cases":
            cases = int(args[i + 1]); i += 2
        elif args[i] == "--families":
            families = args[i + 1].split(","); i += 2
            for f in families:
                if f not in FAMILIES:
                    sys.exit(f"random_cases.py: unknown family {f} "
                             f"(one of {', '.join(FAMILIES)})")
        elif args[i] == "--min-len":
            min_len = int(args[i + 1]); i += 2
            if not 1 <= min_len <= 700:
                sys.exit("random_cases.py: --min-len takes 1 to 700")
        elif args[i] == "--dtypes":
            dtypes = args[i + 1].split(","); i += 2
            for t in dtypes:
                if t not in DTYPE_WEIGHTS:
                    sys.exit(f"random_cases.py: unknown dtype {t} "
                             f"(one of {', '.join(DTYPE_WEIGHTS)})")
        elif args[i] == "--kind":
            kind = args[i + 1]; i += 2
            if kind not in ("any", "train", "fwd"):
                sys.exit("random_cases.py: --kind takes any, train or fwd")
        elif args[i].startswith("-"):
            sys.exit(f"random_cases.py: unknown option {args[i]}\n{__doc__}")
        else:
            out = args[i]; i += 1
    if out is None:
        sys.exit(__doc__)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    print(f"random_cases.py: seed {seed}, {cases} cases -> {out}")
    rng = random.Random(seed)
    for sub in ("fwd", "train"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    with open(os.path.join(out, "SEED"), "w") as f:
        f.write(f"{seed}\n")
    with open(os.path.join(out, "cases.txt"), "w") as listing:
        for index in range(cases):
            name, train, text, desc = draw_case(rng, index, families, kind,
                                                min_len, dtypes)
            sub = "train" if train else "fwd"
            with open(os.path.join(out, sub, name + ".mlir"), "w") as f:
                f.write(text)
            listing.write(desc + "\n")


if __name__ == "__main__":
    main(sys.argv)
