#!/usr/bin/env python3
"""Writes the attention IR of the benchmark grid and of the GPU validation
suite, one .mlir file per case, for attn-compile to turn into PTX.

  bench/make_cases.py OUTDIR

Grid (docs/performance.md): tokens B*L = 32k, D in {64, 128} (H = 32 and 16
heads, as shared/bench/pytorch_anchors.py), L in {1k, 4k, 16k}, causal
off/on, bf16 and fp16, forward.
"""
import os
import sys


def attention(name, b, hq, hkv, lq, lk, d, dv, dtype, attrs="", mask=None,
              dropout=False, lse=False):
    q = f"tensor<{b}x{hq}x{lq}x{d}x{dtype}>"
    k = f"tensor<{b}x{hkv}x{lk}x{d}x{dtype}>"
    v = f"tensor<{b}x{hkv}x{lk}x{dv}x{dtype}>"
    o = f"tensor<{b}x{hq}x{lq}x{dv}x{dtype}>"
    l = f"tensor<{b}x{hq}x{lq}xf32>"
    args = [f"%q: {q}", f"%k: {k}", f"%v: {v}"]
    extra = ""
    if mask:
        mshape, mtype = mask
        mt = f"tensor<{'x'.join(map(str, mshape))}x{mtype}>"
        args.append(f"%m: {mt}")
        extra += f" mask(%m : {mt})"
    if dropout:
        args += ["%seed: i64", "%off: i64"]
        extra += " rng(%seed, %off)"
    results = f"{o}, {l}" if lse else o
    names = "%o, %l" if lse else "%o"
    attr = f" {{{attrs}}}" if attrs else ""
    return (f"func.func @{name}({', '.join(args)}) -> ({results}) {{\n"
            f"  {names} = attn.attention ins(%q, %k, %v : {q}, {k}, {v}){extra}{attr} -> {results}\n"
            f"  return {names} : {results}\n}}\n")


def grid():
    for dtype in ["bf16", "f16"]:
        for d in [64, 128]:
            for causal in [False, True]:
                for n in [1024, 4096, 16384]:
                    b, h = 32768 // n, (16 if d == 128 else 32)
                    attrs = "causal = #attn.causal<top_left>" if causal else ""
                    name = f"grid_{dtype}_d{d}_l{n}_{'causal' if causal else 'full'}"
                    yield name, attention(name, b, h, h, n, n, d, d, dtype, attrs)


def validation():
    """Every variant the CPU path checks, at sizes the GPU reference is quick on."""
    yield "v_gqa_bf16", attention("v_gqa_bf16", 2, 8, 2, 200, 333, 64, 64, "bf16", lse=True)
    yield "v_mqa_f16_d128", attention("v_mqa_f16_d128", 2, 6, 1, 130, 257, 128, 128, "f16", lse=True)
    yield "v_causal_tl", attention("v_causal_tl", 1, 4, 4, 300, 300, 64, 64, "bf16", "causal = #attn.causal<top_left>", lse=True)
    yield "v_causal_br_short_q", attention("v_causal_br_short_q", 2, 4, 2, 77, 300, 128, 128, "bf16", "causal = #attn.causal<bottom_right>", lse=True)
    yield "v_causal_br_long_q", attention("v_causal_br_long_q", 1, 4, 4, 300, 100, 64, 64, "f16", "causal = #attn.causal<bottom_right>", lse=True)
    yield "v_window", attention("v_window", 1, 4, 2, 256, 256, 64, 64, "bf16", "causal = #attn.causal<top_left>, window = array<i64: 40, 0>", lse=True)
    yield "v_window_two_sided", attention("v_window_two_sided", 1, 2, 2, 190, 190, 128, 128, "f16", "window = array<i64: 17, 9>", lse=True)
    yield "v_softcap", attention("v_softcap", 2, 4, 4, 128, 128, 64, 64, "bf16", "softcap = 2.0 : f32, scale = 0.5 : f32", lse=True)
    yield "v_bool_mask", attention("v_bool_mask", 2, 4, 2, 100, 150, 64, 64, "bf16", "", mask=((2, 1, 100, 150), "i1"), lse=True)
    yield "v_padding_mask", attention("v_padding_mask", 3, 4, 4, 64, 200, 128, 128, "f16", "", mask=((3, 1, 1, 200), "i1"), lse=True)
    yield "v_additive_mask", attention("v_additive_mask", 1, 8, 2, 96, 96, 64, 64, "bf16", "causal = #attn.causal<top_left>", mask=((1, 8, 1, 96), "bf16"), lse=True)
    yield "v_additive_f32_full", attention("v_additive_f32_full", 2, 2, 2, 64, 80, 64, 64, "f16", "", mask=((2, 2, 64, 80), "f32"), lse=True)
    yield "v_dropout", attention("v_dropout", 2, 4, 4, 128, 128, 64, 64, "bf16", "dropout_p = 0.2 : f32", dropout=True, lse=True)
    yield "v_dropout_everything", attention("v_dropout_everything", 1, 8, 2, 150, 170, 128, 128, "bf16", "causal = #attn.causal<bottom_right>, window = array<i64: 64, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32", mask=((1, 1, 150, 170), "i1"), dropout=True, lse=True)
    yield "v_decode", attention("v_decode", 8, 32, 8, 1, 2048, 128, 128, "bf16", "causal = #attn.causal<bottom_right>", lse=True)
    yield "v_f32", attention("v_f32", 1, 2, 2, 70, 90, 32, 32, "f32", "causal = #attn.causal<top_left>", lse=True)
    yield "v_d_ne_dv", attention("v_d_ne_dv", 1, 2, 2, 50, 60, 64, 128, "bf16", "", lse=True)


def main():
    out = sys.argv[1]
    for sub, cases in [("grid", grid()), ("validate", validation())]:
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        for name, text in cases:
            with open(os.path.join(out, sub, name + ".mlir"), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
