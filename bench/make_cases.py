#!/usr/bin/env python3
"""Writes the attention IR of the benchmark grid and of the GPU validation
suite, one .mlir file per case, for attn-compile to turn into PTX.

  bench/make_cases.py OUTDIR

Grid (docs/performance.md): tokens B*L = 32k, D in {64, 128} (H = 32 and 16
heads, as shared/bench/pytorch_anchors.py), L in {1k, 4k, 16k}, causal
off/on, bf16 and fp16: forward (OUTDIR/grid) and training step
(OUTDIR/grid-bwd: one function per shape holding the forward
`%o, %lse = attn.attention ...` and its backward `attn.attention_grad ...
forward(%o, %lse ...)`, which attn-compile turns into a forward kernel and
the two backward kernels, dkdv and dq, that name it).

Head dims (issue 19): OUTDIR/grid-hd (forward, D in {32, ..., 256} and the
issue's ViT-H / D = 256 / MLA shapes) and OUTDIR/grid-bwd-hd (training steps
for the backward's head dims), which bench/bench_torch.py times against
PyTorch on the same tensors.

Issue 23: OUTDIR/grid-p23 (its shapes outside the grid: prefill with
GQA, chunked prefill, a ragged length, cross-attention with 77 keys).

Validation suites: forward variants (OUTDIR/validate) and backward variants
(OUTDIR/validate-bwd, training steps as in grid-bwd); one small problem per
kernel family for compute-sanitizer (OUTDIR/sanitize, OUTDIR/sanitize-bwd).
The randomized sweep is bench/random_cases.py.

Run-time sizes (issue 20): OUTDIR/validate-dyn (forward kernels with "?"
batch and lengths, one per family), OUTDIR/validate-dyn-bwd and
OUTDIR/grid-dyn-bwd (training steps with them), OUTDIR/grid-dyn and
OUTDIR/grid-dyn-static (the benchmark's dynamic kernels and static
counterparts); bench/dynamic.sh compiles and runs them.
"""
import os
import sys


def attention(name, b, hq, hkv, lq, lk, d, dv, dtype, attrs="", mask=None,
              dropout=False, lse=False, keep=None):
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
    if keep:  # explicit dropout keep mask (shape)
        kt = f"tensor<{'x'.join(map(str, keep))}xi1>"
        args.append(f"%keep: {kt}")
        extra += f" dropout_mask(%keep : {kt})"
    if dropout:
        args += ["%seed: i64", "%off: i64"]
        extra += " rng(%seed, %off)"
    results = f"{o}, {l}" if lse else o
    names = "%o, %l" if lse else "%o"
    attr = f" {{{attrs}}}" if attrs else ""
    return (f"func.func @{name}({', '.join(args)}) -> ({results}) {{\n"
            f"  {names} = attn.attention ins(%q, %k, %v : {q}, {k}, {v}){extra}{attr} -> {results}\n"
            f"  return {names} : {results}\n}}\n")


def _types(b, hq, hkv, lq, lk, d, dv, dtype):
    return (f"tensor<{b}x{hq}x{lq}x{d}x{dtype}>", f"tensor<{b}x{hkv}x{lk}x{d}x{dtype}>",
            f"tensor<{b}x{hkv}x{lk}x{dv}x{dtype}>", f"tensor<{b}x{hq}x{lq}x{dv}x{dtype}>",
            f"tensor<{b}x{hq}x{lq}xf32>")


def attention_train(name, b, hq, hkv, lq, lk, d, dv, dtype, attrs="", mask=None,
                    dropout=False, deterministic=False):
    """A training step: the forward (saving lse) and its gradient, with the
    same mask, rng and attributes; returns o, lse, dq, dk, dv."""
    q, k, v, o, l = _types(b, hq, hkv, lq, lk, d, dv, dtype)
    args = [f"%q: {q}", f"%k: {k}", f"%v: {v}", f"%do: {o}"]
    extra = ""
    if mask:
        mshape, mtype = mask
        mt = f"tensor<{'x'.join(map(str, mshape))}x{mtype}>"
        args.append(f"%m: {mt}")
        extra += f" mask(%m : {mt})"
    if dropout:
        args += ["%seed: i64", "%off: i64"]
        extra += " rng(%seed, %off)"
    attr = f" {{{attrs}}}" if attrs else ""
    grad_attrs = ", ".join(a for a in [attrs, "deterministic" if deterministic else ""] if a)
    gattr = f" {{{grad_attrs}}}" if grad_attrs else ""
    results = f"{o}, {l}, {q}, {k}, {v}"
    return (f"func.func @{name}({', '.join(args)}) -> ({results}) {{\n"
            f"  %o, %l = attn.attention ins(%q, %k, %v : {q}, {k}, {v}){extra}{attr} -> {o}, {l}\n"
            f"  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : {q}, {k}, {v})"
            f" forward(%o, %l : {o}, {l}) grad_output(%do : {o}){extra}{gattr} -> {q}, {k}, {v}\n"
            f"  return %o, %l, %dq, %dk, %dv : {results}\n}}\n")


def grid_shapes():
    for dtype in ["bf16", "f16"]:
        for d in [64, 128]:
            for causal in [False, True]:
                for n in [1024, 4096, 16384]:
                    b, h = 32768 // n, (16 if d == 128 else 32)
                    yield dtype, d, causal, n, b, h


def grid():
    for dtype, d, causal, n, b, h in grid_shapes():
        attrs = "causal = #attn.causal<top_left>" if causal else ""
        name = f"grid_{dtype}_d{d}_l{n}_{'causal' if causal else 'full'}"
        yield name, attention(name, b, h, h, n, n, d, d, dtype, attrs)


def grid_bwd():
    """The grid's shapes as training steps (forward + backward)."""
    for dtype, d, causal, n, b, h in grid_shapes():
        attrs = "causal = #attn.causal<top_left>" if causal else ""
        name = f"grid_bwd_{dtype}_d{d}_l{n}_{'causal' if causal else 'full'}"
        yield name, attention_train(name, b, h, h, n, n, d, d, dtype, attrs)


def grid_head_dims():
    """Issue 19's head-dim sweep (bench/bench_torch.py times it against
    PyTorch's backends): D in {32, 64, 80, 96, 128, 160, 192, 256} at
    B*L = 32k, L = 4k, H = 16, causal and not, bf16; D = 192 with Dv = 128
    (multi-head latent attention); and the issue's two shapes, ViT-H (B64
    H16 L257 D80) and D = 256 causal (B4 H16 L4096)."""
    for d in [32, 64, 80, 96, 128, 160, 192, 256]:
        for causal in (False, True):
            name = f"hd_d{d}_l4096_{'causal' if causal else 'full'}"
            attrs = "causal = #attn.causal<top_left>" if causal else ""
            yield name, attention(name, 8, 16, 16, 4096, 4096, d, d, "bf16", attrs)
    yield "hd_mla_d192_128_causal", attention("hd_mla_d192_128_causal", 8, 16, 16, 4096, 4096, 192,
                                              128, "bf16", "causal = #attn.causal<top_left>")
    yield "hd_vit_h_d80", attention("hd_vit_h_d80", 64, 16, 16, 257, 257, 80, 80, "bf16")
    yield "hd_d256_b4_causal", attention("hd_d256_b4_causal", 4, 16, 16, 4096, 4096, 256, 256,
                                         "bf16", "causal = #attn.causal<top_left>")


def grid_bwd_head_dims():
    """Training steps for the backward's head dims (bench/bench_torch.py times
    forward + backward against PyTorch): D = Dv in {32, 40, 48, 64, 72, 80,
    96, 112, 128, 160, 192, 256}, B2 H16 L4096, causal and not, bf16;
    D = 192 with Dv = 128 (multi-head latent attention), causal."""
    for d in [32, 40, 48, 64, 72, 80, 96, 112, 128, 160, 192, 256]:
        for causal in (False, True):
            name = f"hdb_d{d}_l4096_{'causal' if causal else 'full'}"
            attrs = "causal = #attn.causal<top_left>" if causal else ""
            yield name, attention_train(name, 2, 16, 16, 4096, 4096, d, d, "bf16", attrs)
    yield "hdb_mla_d192_128_causal", attention_train(
        "hdb_mla_d192_128_causal", 2, 16, 16, 4096, 4096, 192, 128, "bf16",
        "causal = #attn.causal<top_left>")


def grid_past_cudnn():
    """Issue 23's shapes outside the grid (bf16, D = 128 unless noted):
    Llama-3-8B prefill, GQA prefill at L = 2048 and at D = 64, a ragged
    non-causal length, chunked prefill and the Stable-Diffusion
    cross-attention with 77 keys (f16, D = 64); bench/bench_torch.py times
    them against PyTorch's backends."""
    br = "causal = #attn.causal<bottom_right>"
    yield "p23_llama_prefill", attention("p23_llama_prefill", 1, 32, 8, 8192, 8192, 128, 128, "bf16", br)
    yield "p23_gqa_l2048", attention("p23_gqa_l2048", 4, 32, 8, 2048, 2048, 128, 128, "bf16", br)
    yield "p23_l3000_full", attention("p23_l3000_full", 3, 16, 16, 3000, 3000, 128, 128, "bf16")
    yield "p23_gqa_d64", attention("p23_gqa_d64", 4, 32, 8, 4096, 4096, 64, 64, "bf16", br)
    yield "p23_chunked_prefill", attention("p23_chunked_prefill", 2, 32, 8, 512, 8192, 128, 128, "bf16", br)
    yield "p23_sd_cross", attention("p23_sd_cross", 8, 10, 10, 4096, 77, 64, 64, "f16")


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
    yield "v_dropout_keep_mask", attention("v_dropout_keep_mask", 2, 4, 2, 100, 130, 64, 64, "bf16", "causal = #attn.causal<bottom_right>, dropout_p = 0.25 : f32", mask=((2, 1, 100, 130), "i1"), lse=True, keep=(2, 4, 100, 130))
    yield "v_dropout_keep_mask_bcast", attention("v_dropout_keep_mask_bcast", 1, 4, 4, 64, 96, 128, 128, "f16", "dropout_p = 0.1 : f32", lse=True, keep=(1, 1, 64, 96))
    yield "v_decode", attention("v_decode", 8, 32, 8, 1, 2048, 128, 128, "bf16", "causal = #attn.causal<bottom_right>", lse=True)
    yield "v_f32", attention("v_f32", 1, 2, 2, 70, 90, 32, 32, "f32", "causal = #attn.causal<top_left>", lse=True)
    yield "v_f32_d128", attention("v_f32_d128", 1, 4, 2, 100, 150, 128, 128, "f32", "causal = #attn.causal<bottom_right>", lse=True)
    yield "v_f32_d256_window", attention("v_f32_d256_window", 1, 2, 2, 70, 90, 256, 256, "f32", "window = array<i64: 30, 5>", lse=True)
    yield "v_d_ne_dv", attention("v_d_ne_dv", 1, 2, 2, 50, 60, 64, 128, "bf16", "", lse=True)
    # Edges of the sm_90a wgmma kernel's tiles (Br = 128 in two warpgroups,
    # Bc = 128): Lq just past one warpgroup, a ragged last key block of one
    # key, fewer keys than one block, rows that see no key at all
    # (bottom-right, Lq > Lk), a window across block edges with MQA.
    yield "v_wg_ragged_f16_d128", attention("v_wg_ragged_f16_d128", 1, 4, 4, 65, 4097, 128, 128, "f16", "", lse=True)
    yield "v_wg_tiny_keys_gqa", attention("v_wg_tiny_keys_gqa", 2, 6, 2, 130, 3, 64, 64, "bf16", "", lse=True)
    yield "v_wg_empty_rows", attention("v_wg_empty_rows", 1, 2, 2, 200, 1, 128, 128, "bf16", "causal = #attn.causal<bottom_right>", lse=True)
    yield "v_wg_window_mqa", attention("v_wg_window_mqa", 1, 4, 1, 333, 517, 128, 128, "bf16", "causal = #attn.causal<bottom_right>, window = array<i64: 100, 0>", lse=True)
    # Masks and softcap on the wgmma kernel (everything but dropout).
    yield "v_wg_softcap_d128", attention("v_wg_softcap_d128", 1, 4, 2, 300, 300, 128, 128, "bf16", "causal = #attn.causal<bottom_right>, window = array<i64: 90, 0>, softcap = 20.0 : f32", lse=True)
    yield "v_wg_bool_mask_d128", attention("v_wg_bool_mask_d128", 2, 4, 2, 200, 300, 128, 128, "f16", "causal = #attn.causal<top_left>", mask=((2, 1, 200, 300), "i1"), lse=True)
    yield "v_wg_additive_bcast", attention("v_wg_additive_bcast", 1, 4, 4, 130, 257, 64, 64, "bf16", "", mask=((1, 1, 130, 257), "f32"), lse=True)
    yield "v_wg_padding_d128", attention("v_wg_padding_d128", 3, 4, 4, 129, 200, 128, 128, "bf16", "", mask=((3, 1, 1, 200), "i1"), lse=True)
    yield from validation_head_dims()


# Issue 19: the head dims real models use, on the tensor-core kernels
# (wgmma on sm_90a for whole 64-column panels, mma.sync otherwise and on
# sm_80), including D != Dv; the padded ones (not multiples of 16: 40, 72)
# zero-fill their tiles' last columns. Ragged lengths, GQA and one mask
# family per case, rotating through causal, windows, softcap, masks and
# dropout; f16 and bf16 alternate.
HEAD_DIMS = [(32, 32), (40, 40), (48, 48), (72, 72), (80, 80), (96, 96),
             (112, 112), (160, 160), (192, 192), (256, 256), (192, 128),
             (128, 64), (64, 128), (96, 64), (256, 128), (80, 96)]


def validation_head_dims():
    families = [
        ("causal", "causal = #attn.causal<bottom_right>", None, False),
        ("window", "causal = #attn.causal<top_left>, window = array<i64: 70, 0>", None, False),
        ("softcap", "softcap = 30.0 : f32, window = array<i64: 50, 20>", None, False),
        ("mask", "", "bool", False),
        ("dropout", "dropout_p = 0.15 : f32", None, True),
        ("plain", "", None, False),
    ]
    for i, (d, dv) in enumerate(HEAD_DIMS):
        fam, attrs, mask, drop = families[i % len(families)]
        dtype = "bf16" if i % 2 == 0 else "f16"
        b, hq, hkv = 2, 6, (2 if i % 3 else 1)
        lq, lk = [(200, 333), (129, 517), (77, 300), (300, 100)][i % 4]
        name = f"v_hd{d}_{dv}_{fam}"
        m = ((b, 1, lq, lk), "i1") if mask else None
        yield name, attention(name, b, hq, hkv, lq, lk, d, dv, dtype, attrs,
                              mask=m, dropout=drop, lse=True)
        # Every head dim also on the (sm_90a) wgmma / mma.sync edges: one
        # query tile, a ragged last key block, GQA.
        name = f"v_hd{d}_{dv}_ragged"
        yield name, attention(name, 1, 4, 2, 65, 129, d, dv, dtype,
                              "causal = #attn.causal<bottom_right>", lse=True)


def validation_bwd():
    """Backward variants, as training steps (forward + gradient), at sizes the
    GPU reference is quick on: GQA, MQA, both causal modes, windows, softcap,
    boolean and additive masks, dropout, decode (Lq = 1), ragged lengths,
    f32/f16/bf16, D = 64/128, D != Dv and odd head dims."""
    t = attention_train
    tl, br = "causal = #attn.causal<top_left>", "causal = #attn.causal<bottom_right>"
    yield "vb_gqa_bf16", t("vb_gqa_bf16", 2, 8, 2, 200, 333, 64, 64, "bf16")
    yield "vb_mqa_f16_d128", t("vb_mqa_f16_d128", 2, 6, 1, 130, 257, 128, 128, "f16")
    yield "vb_causal_tl", t("vb_causal_tl", 1, 4, 4, 300, 300, 64, 64, "bf16", tl)
    yield "vb_causal_tl_gqa_f16", t("vb_causal_tl_gqa_f16", 2, 8, 2, 256, 256, 128, 128, "f16", tl)
    yield "vb_causal_br_short_q", t("vb_causal_br_short_q", 2, 4, 2, 77, 300, 128, 128, "bf16", br)
    yield "vb_causal_br_long_q", t("vb_causal_br_long_q", 1, 4, 4, 300, 100, 64, 64, "f16", br)
    yield "vb_window", t("vb_window", 1, 4, 2, 256, 256, 64, 64, "bf16", tl + ", window = array<i64: 40, 0>")
    yield "vb_window_two_sided", t("vb_window_two_sided", 1, 2, 2, 190, 190, 128, 128, "f16",
                                   "window = array<i64: 17, 9>")
    yield "vb_softcap", t("vb_softcap", 2, 4, 4, 128, 128, 64, 64, "bf16", "softcap = 2.0 : f32, scale = 0.5 : f32")
    yield "vb_softcap_causal_f16", t("vb_softcap_causal_f16", 1, 4, 2, 160, 160, 128, 128, "f16",
                                     tl + ", softcap = 30.0 : f32")
    yield "vb_bool_mask", t("vb_bool_mask", 2, 4, 2, 100, 150, 64, 64, "bf16", "", mask=((2, 1, 100, 150), "i1"))
    yield "vb_padding_mask", t("vb_padding_mask", 3, 4, 4, 64, 200, 128, 128, "f16", "", mask=((3, 1, 1, 200), "i1"))
    yield "vb_additive_mask", t("vb_additive_mask", 1, 8, 2, 96, 96, 64, 64, "bf16", tl, mask=((1, 8, 1, 96), "bf16"))
    yield "vb_additive_f32_full", t("vb_additive_f32_full", 2, 2, 2, 64, 80, 64, 64, "f16", "",
                                    mask=((2, 2, 64, 80), "f32"))
    yield "vb_dropout", t("vb_dropout", 2, 4, 4, 128, 128, 64, 64, "bf16", "dropout_p = 0.2 : f32", dropout=True)
    yield "vb_dropout_everything", t(
        "vb_dropout_everything", 1, 8, 2, 150, 170, 128, 128, "bf16",
        br + ", window = array<i64: 64, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32",
        mask=((1, 1, 150, 170), "i1"), dropout=True, deterministic=True)
    yield "vb_decode", t("vb_decode", 8, 32, 8, 1, 2048, 128, 128, "bf16", br)
    yield "vb_decode_f16_d64", t("vb_decode_f16_d64", 4, 8, 1, 1, 777, 64, 64, "f16")
    yield "vb_ragged", t("vb_ragged", 3, 4, 2, 61, 189, 64, 64, "bf16", br)
    yield "vb_ragged_f16", t("vb_ragged_f16", 2, 2, 2, 129, 65, 128, 128, "f16", tl)
    yield "vb_f32", t("vb_f32", 1, 2, 2, 70, 90, 32, 32, "f32", tl)
    yield "vb_f32_d64_gqa", t("vb_f32_d64_gqa", 2, 4, 2, 48, 80, 64, 64, "f32", "", mask=((2, 1, 1, 80), "i1"))
    yield "vb_d_ne_dv", t("vb_d_ne_dv", 1, 2, 2, 50, 60, 64, 128, "bf16")
    yield "vb_odd_d40", t("vb_odd_d40", 1, 2, 1, 45, 67, 40, 40, "bf16", tl)
    yield "vb_odd_d33_f32", t("vb_odd_d33_f32", 1, 2, 2, 33, 47, 33, 33, "f32")
    # `deterministic`: the tensor-core backward without atomics (prep, dkdv,
    # dq), bit-identical from run to run (attn-run's repeat check).
    yield "vb_det_gqa_bf16", t("vb_det_gqa_bf16", 2, 8, 2, 200, 333, 64, 64, "bf16", deterministic=True)
    yield "vb_det_causal_f16_d128", t("vb_det_causal_f16_d128", 2, 8, 2, 256, 256, 128, 128, "f16", tl,
                                      deterministic=True)
    yield "vb_det_ragged_window", t("vb_det_ragged_window", 1, 4, 2, 129, 190, 128, 128, "bf16",
                                    "window = array<i64: 17, 9>", deterministic=True)
    # Issue 17: one key (Lk = 1) in a 128-key block. The zero-filled key
    # rows once got P = exp(0 - lse) instead of 0, which overflows f16 in
    # dSᵀ, and dQ = dS K turned inf x 0 into NaN rows (one launch in two).
    yield "vb_lk1_f16_d128", t("vb_lk1_f16_d128", 1, 32, 4, 129, 1, 128, 128, "f16", tl)
    yield "vb_lk1_f16_d128_mask", t("vb_lk1_f16_d128_mask", 1, 32, 4, 129, 1, 128, 128, "f16", tl,
                                    mask=((1, 1, 1, 1), "i1"))
    yield "vb_lk1_f16_d128_softcap", t("vb_lk1_f16_d128_softcap", 1, 32, 4, 129, 1, 128, 128, "f16",
                                       tl + ", softcap = 20.0 : f32")
    yield "vb_lk7_f16_d64_sep", t("vb_lk7_f16_d64_sep", 2, 8, 2, 100, 7, 64, 64, "f16", br,
                                  deterministic=True)
    yield from validation_bwd_head_dims()


# Issue 19: the tensor-core backward (mma.sync dkdv + dq) for the head
# dims D = Dv that are multiples of 8 up to 128 besides 64 and 128 (24, 40,
# 72, 104: tiles padded to the k-step of 16), each in a few variants: causal GQA with ragged lengths, dropout, softcap + window +
# mask, `deterministic`, decoding (Lq < 64) and Lk = 1.
BWD_HEAD_DIMS = [16, 32, 48, 80, 96, 112, 24, 40, 72, 104]
# D > 128 and D != Dv (mma.sync; where padded D + Dv > 256 the dkdv kernel
# splits dK and dV between two blocks per key block, tcgrad::keyBlockParts).
BWD_WIDE_HEAD_DIMS = [(160, 160), (192, 192), (256, 256), (192, 128),
                      (256, 128), (128, 64), (64, 128), (96, 64), (40, 96),
                      (224, 224), (136, 136)]


def validation_bwd_head_dims():
    for i, d in enumerate(BWD_HEAD_DIMS):
        yield from bwd_head_dim_variants(f"vb_hd{d}", d, d, "bf16" if i % 2 == 0 else "f16")
    for i, (d, dv) in enumerate(BWD_WIDE_HEAD_DIMS):
        yield from bwd_head_dim_variants(f"vb_hd{d}_{dv}", d, dv, "bf16" if i % 2 == 0 else "f16")


def bwd_head_dim_variants(n, d, dv, dtype):
    """The backward head-dim cases of one (D, Dv): causal GQA with ragged
    lengths, dropout, softcap + window + mask (`deterministic`), decoding
    (Lq < 64) and Lk = 1, named n_<variant>."""
    t = attention_train
    br = "causal = #attn.causal<bottom_right>"
    yield f"{n}_causal", t(f"{n}_causal", 2, 6, 2, 200, 333, d, dv, dtype, br)
    yield f"{n}_dropout", t(f"{n}_dropout", 1, 4, 4, 129, 130, d, dv, dtype,
                            "dropout_p = 0.15 : f32", dropout=True)
    yield f"{n}_heavy", t(f"{n}_heavy", 2, 4, 2, 150, 170, d, dv, dtype,
                          br + ", window = array<i64: 64, 0>, softcap = 30.0 : f32",
                          mask=((2, 1, 150, 170), "i1"), deterministic=True)
    yield f"{n}_decode", t(f"{n}_decode", 3, 8, 2, 5, 300, d, dv, dtype, br)
    yield f"{n}_lk1", t(f"{n}_lk1", 1, 4, 2, 129, 1, d, dv, dtype, "")


def sanitize():
    """One small problem per kernel family, for compute-sanitizer (memcheck,
    racecheck, synccheck are slow: tens of times a plain launch): forward
    wgmma (sm_90a, Lq > 64; with dropout), forward mma.sync (Lq <= 64,
    dropout), the
    CUDA-core forward (f32), the forward at head dims 40, 80, 192/128 and
    256, and the backward groups: atomic dQ on wgmma,
    `deterministic` (separate dq, no atomics), the CUDA-core backward."""
    a, t = attention, attention_train
    br = "causal = #attn.causal<bottom_right>"
    yield "s_fwd_wgmma", "fwd", a("s_fwd_wgmma", 1, 2, 1, 130, 70, 64, 64, "bf16", br, lse=True)
    yield "s_fwd_mma_dropout", "fwd", a("s_fwd_mma_dropout", 1, 2, 2, 40, 90, 128, 128, "f16",
                                        "dropout_p = 0.2 : f32", dropout=True, lse=True)
    # Dropout on the wgmma forward (Lq > 64): the keep bits drawn between
    # the products, shared by lane pairs through shuffles.
    yield "s_fwd_wgmma_dropout", "fwd", a("s_fwd_wgmma_dropout", 1, 4, 2, 130, 77, 64, 64, "bf16",
                                          f"dropout_p = 0.2 : f32, {br}", dropout=True, lse=True)
    yield "s_fwd_cuda_core", "fwd", a("s_fwd_cuda_core", 1, 2, 2, 33, 47, 32, 32, "f32", br, lse=True)
    # Head dims other than 64 / 128: padded tiles (D = 40), D != Dv on
    # wgmma (192 / 128), the widest (256), and rows of 10 chunks (80).
    yield "s_fwd_hd40", "fwd", a("s_fwd_hd40", 1, 2, 1, 70, 90, 40, 40, "bf16", br, lse=True)
    yield "s_fwd_hd80", "fwd", a("s_fwd_hd80", 1, 2, 2, 130, 77, 80, 80, "f16", "", lse=True)
    yield "s_fwd_hd192_128", "fwd", a("s_fwd_hd192_128", 1, 2, 1, 130, 70, 192, 128, "bf16", br, lse=True)
    yield "s_fwd_hd256", "fwd", a("s_fwd_hd256", 1, 2, 2, 130, 70, 256, 256, "bf16", br, lse=True)
    yield "s_bwd_atomic", "train", t("s_bwd_atomic", 1, 4, 2, 129, 70, 128, 128, "f16", br)
    yield "s_bwd_separate", "train", t("s_bwd_separate", 1, 2, 1, 70, 129, 64, 64, "bf16",
                                       deterministic=True)
    yield "s_bwd_cuda_core", "train", t("s_bwd_cuda_core", 1, 2, 1, 33, 47, 32, 32, "f32")
    yield "s_bwd_hd80", "train", t("s_bwd_hd80", 1, 2, 1, 70, 129, 80, 80, "f16", br)
    # The wgmma key-block kernel with atomic dQ at padded panels and D != Dv
    # (dQ columns in uneven chunks per warpgroup), and at D = 48 (one panel
    # split 32 + 16).
    yield "s_bwd_hd96_64", "train", t("s_bwd_hd96_64", 1, 4, 2, 129, 140, 96, 64, "bf16", br)
    yield "s_bwd_hd48", "train", t("s_bwd_hd48", 1, 2, 2, 130, 70, 48, 48, "f16", "")
    # Odd multiples of 8 on the wgmma key-block kernel: Q K^T's last k-step
    # half padding, dQ chunks of 64 + 8 columns, D != Dv.
    yield "s_bwd_hd72", "train", t("s_bwd_hd72", 1, 4, 2, 130, 77, 72, 72, "bf16", br)
    yield "s_bwd_hd40_96", "train", t("s_bwd_hd40_96", 1, 2, 1, 70, 129, 40, 96, "f16", "")
    # dK and dV in separate blocks (D + Dv > 256), and D != Dv.
    yield "s_bwd_hd256", "train", t("s_bwd_hd256", 1, 2, 1, 70, 129, 256, 256, "bf16", br)
    yield "s_bwd_hd192_128", "train", t("s_bwd_hd192_128", 1, 2, 2, 129, 70, 192, 128, "f16", "")


def validation_dynamic():
    """Issue 20: forward kernels with run-time sizes ("?" batch and
    lengths), one per kernel family and feature mix; bench/dynamic.sh runs
    each at a dozen (B, Lq, Lk) draws."""
    a, q = attention, "?"
    br = "causal = #attn.causal<bottom_right>"
    tl = "causal = #attn.causal<top_left>"
    yield "dyn_wgmma_mask", a("dyn_wgmma_mask", q, 8, 2, q, q, 128, 128, "bf16", br,
                              mask=([q, 1, 1, q], "i1"), lse=True)
    yield "dyn_wgmma_d80_window", a("dyn_wgmma_d80_window", 2, 4, 4, q, q, 80, 80, "f16",
                                    "window = array<i64: 64, 16>, softcap = 20.0 : f32", lse=True)
    yield "dyn_dropout", a("dyn_dropout", q, 4, 4, q, q, 64, 64, "bf16",
                               f"dropout_p = 0.15 : f32, {tl}", dropout=True, lse=True)
    yield "dyn_mma_d32_gqa", a("dyn_mma_d32_gqa", q, 8, 1, q, q, 32, 32, "bf16")
    yield "dyn_cuda_core_f32", a("dyn_cuda_core_f32", q, 2, 2, q, q, 64, 64, "f32",
                                 mask=([q, 1, q, q], "f32"), lse=True)
    yield "dyn_decode", a("dyn_decode", q, 32, 8, 1, q, 128, 128, "bf16", br, lse=True)
    yield "dyn_d256", a("dyn_d256", q, 2, 1, q, q, 256, 256, "bf16", tl, lse=True)
    yield "dyn_mla", a("dyn_mla", q, 4, 4, q, q, 192, 128, "f16", br, lse=True)
    yield "dyn_additive_mask", a("dyn_additive_mask", 1, 4, 2, q, q, 128, 128, "f16",
                                 mask=([1, 1, q, q], "f16"), lse=True)


def validation_dynamic_bwd():
    """Issue 20: training steps (forward + backward group) with run-time
    sizes, one per backward family: the atomic dQ on wgmma (GQA, key-padding
    mask), `deterministic` (prep, dkdv, dq), mma.sync at a padded head dim
    (D = 96, window + softcap), the split key-block kernel (D = 192, Dv =
    128, static batch), dropout, the CUDA-core pair (f32, additive mask),
    decoding (a static Lq = 5) and D = 256."""
    t, q = attention_train, "?"
    br = "causal = #attn.causal<bottom_right>"
    tl = "causal = #attn.causal<top_left>"
    yield "dynb_atomic_mask", t("dynb_atomic_mask", q, 8, 2, q, q, 128, 128, "bf16", br,
                                mask=([q, 1, 1, q], "i1"))
    yield "dynb_separate_d64", t("dynb_separate_d64", q, 4, 4, q, q, 64, 64, "f16", tl,
                                 deterministic=True)
    yield "dynb_d96_window", t("dynb_d96_window", q, 4, 2, q, q, 96, 96, "bf16",
                               "window = array<i64: 64, 16>, softcap = 20.0 : f32")
    yield "dynb_mla", t("dynb_mla", 2, 4, 4, q, q, 192, 128, "f16", br)
    yield "dynb_dropout", t("dynb_dropout", q, 4, 4, q, q, 64, 64, "bf16",
                            f"dropout_p = 0.15 : f32, {tl}", dropout=True)
    yield "dynb_cuda_core_f32", t("dynb_cuda_core_f32", q, 2, 2, q, q, 64, 64, "f32",
                                  mask=([q, 1, q, q], "f32"))
    yield "dynb_decode", t("dynb_decode", q, 8, 2, 5, q, 128, 128, "bf16", br)
    yield "dynb_d256", t("dynb_d256", q, 2, 1, q, q, 256, 256, "bf16", tl)


def grid_dynamic_bwd():
    """Issue 20's training-step benchmark: grid-bwd-hd's D = 64 and 128
    steps (B2 H16 L4096) with run-time batch and lengths."""
    for d in [64, 128]:
        for causal in (False, True):
            name = f"dynb_d{d}_{'causal' if causal else 'full'}"
            attrs = "causal = #attn.causal<top_left>" if causal else ""
            yield name, attention_train(name, "?", 16, 16, "?", "?", d, d, "bf16", attrs)


def grid_dynamic():
    """Issue 20's benchmark: the head-dim sweep's kernels (grid-hd, B8 H16
    L4096) with run-time batch and lengths; bench/bench_torch.py --sizes
    binds them, beside the static ones (grid-hd, and grid-dyn-static for
    B32 L1024)."""
    for d in [64, 80, 128, 256]:
        for causal in (False, True):
            name = f"dyn_d{d}_{'causal' if causal else 'full'}"
            attrs = "causal = #attn.causal<top_left>" if causal else ""
            yield name, attention(name, "?", 16, 16, "?", "?", d, d, "bf16", attrs)


def grid_dynamic_static():
    """The static counterparts of grid_dynamic at B32 L1024."""
    for d in [64, 80, 128, 256]:
        for causal in (False, True):
            name = f"static_d{d}_l1024_{'causal' if causal else 'full'}"
            attrs = "causal = #attn.causal<top_left>" if causal else ""
            yield name, attention(name, 32, 16, 16, 1024, 1024, d, d, "bf16", attrs)


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    out = sys.argv[1]
    for sub, cases in [("grid", grid()), ("grid-hd", grid_head_dims()),
                       ("grid-p23", grid_past_cudnn()),
                       ("validate", validation()),
                       ("grid-bwd", grid_bwd()), ("grid-bwd-hd", grid_bwd_head_dims()),
                       ("validate-bwd", validation_bwd()),
                       ("validate-dyn", validation_dynamic()), ("grid-dyn", grid_dynamic()),
                       ("validate-dyn-bwd", validation_dynamic_bwd()),
                       ("grid-dyn-bwd", grid_dynamic_bwd()),
                       ("grid-dyn-static", grid_dynamic_static())]:
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        for name, text in cases:
            with open(os.path.join(out, sub, name + ".mlir"), "w") as f:
                f.write(text)
    for name, kind, text in sanitize():
        sub = "sanitize" if kind == "fwd" else "sanitize-bwd"
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        with open(os.path.join(out, sub, name + ".mlir"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
