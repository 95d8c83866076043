#!/usr/bin/env python3
"""Training steps for the head split of the backward key-block kernel (D + Dv
> 256, split = warpgroups) and its Q / dO stages (query_stages):

    python3 bench/head_split_cases.py OUT_DIR [--seed N]

writes OUT_DIR/
  random/   28 random steps: D, Dv multiples of 8 (D from 8) with padded D + Dv > 256,
            f16/bf16, GQA, ragged lengths 1-511 (Lq = 1, Lk = 1 included),
            causal (both alignments), dropout, key-padding masks, softcap,
            windows, `deterministic` (as the chooser compiles them);
  fixed/    nine small steps (D = 256: ragged, GQA, Lk = 1, mask + softcap,
            window, dropout; D = 248 / Dv = 240; D = 8 / Dv = 256) that ask
            for query_stages = 1;
  dynamic/  D = 256 steps with run-time batch and lengths, query_stages = 1;
  time/<variant>/  B2-B8 H16 L512-4096 bf16 timing steps (D = 256 causal,
            full, GQA 4, dropout; MLA 192/128; D = 192) under the
            configurations `one` (query_stages = 1, bulk dQ), `atomic2` (two
            stages, per-thread dQ; causal without GQA only), `sep2` (two
            stages, dq kernel) and `auto` (the chooser's).
The seed is printed and written to OUT_DIR/SEED.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_cases import attention_train  # noqa: E402

HEAD_SPLIT = "kernel = wgmma, key_block = 64, loads = tma, split = warpgroups"
VARIANTS = {
    "one": f"{HEAD_SPLIT}, dq = atomic, query_stages = 1",
    "atomic2": f"{HEAD_SPLIT}, dq = atomic",
    "sep2": f"{HEAD_SPLIT}, dq = separate",
}


def with_grad_kernels(text, config):
    """`text` (an attention_train function) with its gradient op asking for
    #attn.grad_kernels<config>."""
    lines = text.split("\n")
    g = next(i for i, l in enumerate(lines) if "attn.attention_grad" in l)
    attr = f"attn.grad_kernels = #attn.grad_kernels<{config}>"
    line = lines[g]
    if "} -> " in line.split("grad_output")[1]:
        line = line.replace("} -> ", f", {attr}}} -> ", 1)
    else:
        line = line.replace(" -> ", f" {{{attr}}} -> ", 1)
    lines[g] = line
    return "\n".join(lines)


def head_split_dims(rng):
    """D, Dv with padded D + Dv > 256 (the head split's)."""
    while True:
        # Narrow D too (D = 8 beside Dv = 256 leaves the second
        # warpgroup without dK / dQ columns).
        d = rng.choice(list(range(8, 129, 8)) + 2 * list(range(136, 257, 8)))
        dv = rng.choice([d, d, 128, 256, rng.choice(range(136, 257, 8))])
        if ((d + 15) // 16 + (dv + 15) // 16) * 16 > 256:
            return d, dv


def random_steps(rng, out, count=28, dims=head_split_dims):
    """`count` random training steps into `out`, head dims from `dims(rng)`;
    their features cycle through plain, causal (both alignments), dropout,
    key-padding masks, softcap, windows, `deterministic` and mixes."""
    lens = [1, 7, 33, 63, 64, 65, 127, 129, 200, 257, 333, 511]
    feats = ["plain", "causal", "dropout", "mask", "softcap", "window", "det",
             "heavy", "dropcausal"]
    for i in range(count):
        d, dv = dims(rng)
        hkv = rng.choice([1, 2, 4])
        hq = hkv * rng.choice([1, 2, 4])
        b, lq, lk = rng.randint(1, 3), rng.choice(lens), rng.choice(lens)
        if i % 3 == 0:
            lq = rng.choice([129, 200, 257, 333, 511])
        dt = rng.choice(["bf16", "f16"])
        f = feats[i % len(feats)]
        attrs, mask, dropout = [], None, False
        if f in ("causal", "dropcausal", "heavy"):
            attrs.append("causal = #attn.causal<"
                         + rng.choice(["top_left", "bottom_right"]) + ">")
        if f in ("dropout", "dropcausal"):
            dropout = True
            attrs.append(f"dropout_p = {rng.choice([0.1, 0.3]):e} : f32")
        if f in ("mask", "heavy"):
            mask = ([b, 1, 1, lk], "i1")
        if f in ("softcap", "heavy"):
            attrs.append("softcap = 30.0 : f32")
        if f == "window":
            attrs.append(f"window = array<i64: {rng.randint(1, 100)}, "
                         f"{rng.randint(0, 50)}>")
        name = f"h{i:02d}_{f}_{dt}_d{d}_dv{dv}_b{b}_h{hq}x{hkv}_q{lq}_k{lk}"
        with open(os.path.join(out, name + ".mlir"), "w") as fh:
            fh.write(attention_train(name, b, hq, hkv, lq, lk, d, dv, dt,
                                     ", ".join(attrs), mask=mask,
                                     dropout=dropout,
                                     deterministic=f == "det"))


FIXED = [  # name, b, hq, hkv, lq, lk, d, dv, dtype, attrs, mask, dropout
    ("f_plain_q65_k129", 1, 2, 2, 65, 129, 256, 256, "bf16", "", None, False),
    ("f_causalbr_gqa2_q200_k333", 2, 4, 2, 200, 333, 256, 256, "f16",
     "causal = #attn.causal<bottom_right>", None, False),
    ("f_causaltl_q333_k200", 1, 2, 1, 333, 200, 256, 256, "bf16",
     "causal = #attn.causal<top_left>", None, False),
    ("f_drop_q129_k257", 1, 2, 2, 129, 257, 256, 256, "bf16",
     "dropout_p = 1.000000e-01 : f32", None, True),
    ("f_heavy_q100_k77", 2, 2, 2, 100, 77, 256, 256, "f16",
     "softcap = 30.0 : f32", ([2, 1, 1, 77], "i1"), False),
    ("f_window_q257_k257", 1, 2, 2, 257, 257, 256, 256, "bf16",
     "window = array<i64: 40, 7>", None, False),
    ("f_lk1_q128", 1, 2, 2, 128, 1, 256, 256, "f16", "", None, False),
    ("f_d248_q64_k64", 1, 2, 2, 64, 64, 248, 240, "bf16",
     "causal = #attn.causal<top_left>", None, False),
    # The second warpgroup has no dK / dQ columns (session 47's fix).
    ("f_d8_dv256_q130_k200", 2, 4, 2, 130, 200, 8, 256, "bf16",
     "causal = #attn.causal<bottom_right>", None, False),
]

TIMED = [  # name, b, hq, hkv, l, d, dv, attrs, dropout
    ("d256_b2_l4096_causal", 2, 16, 16, 4096, 256, 256,
     "causal = #attn.causal<top_left>", False),
    ("d256_b2_l4096_full", 2, 16, 16, 4096, 256, 256, "", False),
    ("d256_b4_l1024_full", 4, 16, 16, 1024, 256, 256, "", False),
    ("d256_gqa_b2_l2048_causal", 2, 16, 4, 2048, 256, 256,
     "causal = #attn.causal<bottom_right>", False),
    ("d256_b8_l512_causal", 8, 16, 16, 512, 256, 256,
     "causal = #attn.causal<top_left>", False),
    ("d256_drop_b2_l2048_causal", 2, 16, 16, 2048, 256, 256,
     "causal = #attn.causal<top_left>, dropout_p = 1.000000e-01 : f32", True),
    ("d256_drop_b2_l2048_full", 2, 16, 16, 2048, 256, 256,
     "dropout_p = 1.000000e-01 : f32", True),
    ("mla_b2_l4096_causal", 2, 16, 16, 4096, 192, 128,
     "causal = #attn.causal<top_left>", False),
    ("d192_b2_l4096_full", 2, 16, 16, 4096, 192, 192, "", False),
]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def seeded_output(prog):
    """The command line's OUT_DIR and --seed (drawn fresh when absent),
    the seed printed as `prog` and written to OUT_DIR/SEED."""
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int,
                    default=int.from_bytes(os.urandom(4), "little"))
    a = ap.parse_args()
    print(f"{prog}: seed", a.seed)
    write(os.path.join(a.out, "SEED"), f"{a.seed}\n")
    return a


def main():
    a = seeded_output("head_split_cases.py")
    os.makedirs(os.path.join(a.out, "random"), exist_ok=True)
    random_steps(random.Random(a.seed), os.path.join(a.out, "random"))
    one = VARIANTS["one"]
    for n, b, hq, hkv, lq, lk, d, dv, dt, attrs, mask, drop in FIXED:
        write(os.path.join(a.out, "fixed", n + ".mlir"), with_grad_kernels(
            attention_train(n, b, hq, hkv, lq, lk, d, dv, dt, attrs,
                            mask=mask, dropout=drop), one))
    for n, attrs, dt in [("dyn_d256_causal", "causal = #attn.causal<bottom_right>", "bf16"),
                         ("dyn_d256_full", "", "f16")]:
        write(os.path.join(a.out, "dynamic", n + ".mlir"), with_grad_kernels(
            attention_train(n, "?", 4, 2, "?", "?", 256, 256, dt, attrs), one))
    for n, b, hq, hkv, l, d, dv, attrs, drop in TIMED:
        text = attention_train(n, b, hq, hkv, l, l, d, dv, "bf16", attrs,
                               dropout=drop)
        write(os.path.join(a.out, "time", "auto", n + ".mlir"), text)
        if d != 256:
            continue
        for v, config in VARIANTS.items():
            # The per-thread dQ only where two stages allow it.
            if v == "atomic2" and (hq != hkv or "causal" not in attrs):
                continue
            write(os.path.join(a.out, "time", v, n + ".mlir"),
                  with_grad_kernels(text, config))


if __name__ == "__main__":
    main()
