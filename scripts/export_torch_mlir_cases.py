#!/usr/bin/env python3
"""Exports attention written as PyTorch users write it through torch-mlir, as
real front-end IR for attn-raise-pipeline's tests:

    python3 -m venv /tmp/tmvenv
    /tmp/tmvenv/bin/pip install torch torch-mlir    # PyPI: torch-mlir 20261001
    /tmp/tmvenv/bin/python scripts/export_torch_mlir_cases.py \
        test/Integration/raise/torch-mlir

Each module (a plain `softmax(q @ k.T / sqrt(d)) @ v`,
F.scaled_dot_product_attention with and without is_causal, GPT-2's causal
`tril` buffer, Hugging Face's additive mask from an attention_mask, Llama's
repeat_kv GQA in bf16 with the softmax in f32, Gemma-2's softcap in bf16,
ViT's `q * scale`, nn.MultiheadAttention's `[B, L, H*D]` head split, a
sliding window from aranges, F.scaled_dot_product_attention with
enable_gqa, a boolean or float attn_mask, an explicit scale, and HF's
combined causal and padding bias; and as model families write it: T5's
position bias beside a padding bias, GPT-NeoX's baddbmm and causal where,
Bloom's ALiBi baddbmm with its padding mask, CLIP's causal and padding
masks as inputs, diffusers' baddbmm with beta = 0; and decode steps of one query token, with
the query dim kept or dropped: SDPA, einsum, a [B, T, H, D] cache in bf16,
cache lengths, heads folded into the batch; einsum attention, multi-query
and grouped by KV head; an adversarial sweep's finds: SDPA at a batch of 1,
`ones.tril().bool()`, HF Mistral's sliding-window bias, causal and padding
masked_fills in a row, T5-style relative position embeddings, bottom-right
chunks, MPT's in-graph ALiBi, repeat_interleave GQA; and near misses that
must stay chains: tile-order GQA, masks that zero instead of exclude, a
post-softmax mask, an eps in the normalization, a mask computed from the
scores, sigmoid attention; then Whisper's q scaled before the head split,
OPT's clamp at finfo.min, the row max subtracted by the user, the
channels-first QKVAttention of guided diffusion; the softmax normalized
after P·V; the safe softmax users write from the boolean mask,
where(keep.any(-1, keepdim=True), p, 0), and its near misses) is exported
with torch_mlir.fx.export_and_import to linalg-on-tensors and to TOSA,
and written with RUN lines: the raised op (its attributes, and whether
anything of the chain is left) and attn-raise-check's proof against the
chain in float64. CI runs those tests on the committed files; this script
is needed only to regenerate them (with a newer torch or torch-mlir: check
the diff).
"""

import math
import os
import sys

import torch
import torch.nn.functional as F
from torch_mlir import fx

torch.manual_seed(0)
B, H, HKV, L, LK, D = 2, 4, 2, 16, 24, 32
LONG = 320  # above the 65536 mask elements attn-normalize-chains evaluates

class Plain(torch.nn.Module):
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        return torch.softmax(s, dim=-1) @ v

class Sdpa(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)

class SdpaCausal(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

class Gpt2Causal(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(L, L)).view(1, 1, L, L))
    def forward(self, q, k, v):
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :L, :L] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        return att @ v

class HfAdditiveMask(torch.nn.Module):
    def forward(self, q, k, v, attention_mask):
        ext = (1.0 - attention_mask[:, None, None, :].to(q.dtype)) * torch.finfo(q.dtype).min
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(D) + ext
        p = torch.nn.functional.softmax(s, dim=-1)
        return torch.matmul(p, v)

def repeat_kv(x, n_rep):
    b, kv, slen, d = x.shape
    x = x[:, :, None, :, :].expand(b, kv, n_rep, slen, d)
    return x.reshape(b, kv * n_rep, slen, d)

class LlamaGqa(torch.nn.Module):
    def forward(self, q, k, v):
        k = repeat_kv(k, H // HKV); v = repeat_kv(v, H // HKV)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D)
        w = torch.nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)

class GemmaSoftcap(torch.nn.Module):
    def forward(self, q, k, v):
        w = torch.matmul(q, k.transpose(2, 3)) * (D ** -0.5)
        w = w / 50.0; w = torch.tanh(w); w = w * 50.0
        w = torch.nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)

class VitScaledQ(torch.nn.Module):
    def forward(self, q, k, v):
        q = q * (D ** -0.5)
        a = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return a @ v

class Mha3d(torch.nn.Module):
    """[B, L, H*D] inputs split into heads, as nn.MultiheadAttention does."""
    def forward(self, x, y, z):
        b, l, _ = x.shape
        q = x.view(b, l, H, D).transpose(1, 2)
        k = y.view(b, y.shape[1], H, D).transpose(1, 2)
        v = z.view(b, z.shape[1], H, D).transpose(1, 2)
        o = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(D), -1) @ v
        return o.transpose(1, 2).reshape(b, l, H * D)

class SlidingWindow(torch.nn.Module):
    def forward(self, q, k, v):
        n = q.shape[2]
        i = torch.arange(n)[:, None]; j = torch.arange(n)[None, :]
        keep = (j <= i) & (j > i - 4)
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        s = s.masked_fill(~keep, float("-inf"))
        return torch.softmax(s, -1) @ v



class Gpt2Block(torch.nn.Module):
    """GPT-2's causal buffer of block_size 1024, sliced to the sequence."""
    def __init__(self):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(1024, 1024))
                             .view(1, 1, 1024, 1024))
    def forward(self, q, k, v):
        n = q.size(2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :n, :n] == 0, float("-inf"))
        return F.softmax(att, dim=-1) @ v


class TwoBiases(torch.nn.Module):
    """A causal bias and a padding bias added one after the other."""
    def forward(self, q, k, v, attention_mask):
        n = q.shape[2]
        causal = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
        low = torch.finfo(q.dtype).min
        pad = (1.0 - attention_mask[:, None, None, :].to(q.dtype)) * low
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D)
        w = w + causal + pad
        return torch.matmul(torch.softmax(w, dim=-1), v)


class TwoBiasesFinite(torch.nn.Module):
    """The same with HF's finite causal bias (finfo.min, not -inf)."""
    def forward(self, q, k, v, attention_mask):
        n = q.shape[2]
        low = torch.finfo(q.dtype).min
        causal = torch.triu(torch.full((n, n), low), diagonal=1)
        pad = (1.0 - attention_mask[:, None, None, :].to(q.dtype)) * low
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D)
        w = w + causal + pad
        return torch.matmul(torch.softmax(w, dim=-1), v)


class LlamaSdpa(torch.nn.Module):
    """HF Llama's sdpa attention: repeat_kv, then causal SDPA, in bf16."""
    def forward(self, q, k, v):
        k = repeat_kv(k, H // HKV); v = repeat_kv(v, H // HKV)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class SdpaGqa(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)


class SdpaMask(torch.nn.Module):
    def forward(self, q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m)


class SdpaScaleCausal(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, scale=0.3,
                                              is_causal=True)


class SdpaCausal16(torch.nn.Module):
    """bf16 tensors: PyTorch's math path computes in f32 between casts."""
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class LlamaCausalPad(torch.nn.Module):
    """HF's 4-D mask: causal and padding combined into one additive bias."""
    def forward(self, q, k, v, attention_mask):
        n = q.shape[2]
        low = torch.finfo(q.dtype).min
        causal = torch.triu(torch.full((n, n), low), diagonal=1)
        pad = (1.0 - attention_mask[:, None, None, :].to(q.dtype)) * low
        mask = causal[None, None, :, :] + pad
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D) + mask
        w = torch.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)


def t(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def bf16(*shape):
    return t(*shape, dtype=torch.bfloat16)


SCALE = "0.17677{{[0-9]+}}"  # 1/sqrt(32), as each front end rounds it
# name: (module, inputs, what the test expects of the raised function: the
# op's attributes, and whether ops of the front end are left around it)
CASES = {
    "plain": (Plain(), (t(B, H, L, D), t(B, H, LK, D), t(B, H, LK, D)),
              "{scale = " + SCALE + " : f32}", False),
    "sdpa": (Sdpa(), (t(B, H, L, D), t(B, H, LK, D), t(B, H, LK, D)),
             "{scale = " + SCALE + " : f32}", False),
    "sdpa_causal": (SdpaCausal(), (t(B, H, L, D), t(B, H, L, D),
                                   t(B, H, L, D)),
                    "{causal = #attn.causal<top_left>, scale = " + SCALE
                    + " : f32}", False),
    "gpt2_causal": (Gpt2Causal(), (t(B, H, L, D), t(B, H, L, D),
                                   t(B, H, L, D)),
                    "{causal = #attn.causal<top_left>, scale = " + SCALE
                    + " : f32}", False),
    "hf_additive_mask": (HfAdditiveMask(), (t(B, H, L, D), t(B, H, LK, D),
                                            t(B, H, LK, D), torch.ones(B, LK)),
                         "mask({{.*}}) {scale = " + SCALE + " : f32}",
                         True),
    "llama_gqa_bf16": (LlamaGqa(), (bf16(B, H, L, D), bf16(B, HKV, LK, D),
                                    bf16(B, HKV, LK, D)),
                       "tensor<2x2x24x32xbf16>) {scale = 0.1767{{[0-9]+}} : "
                       "f32}", False),
    "gemma_softcap_bf16": (GemmaSoftcap(), (bf16(B, H, L, D),
                                            bf16(B, H, LK, D),
                                            bf16(B, H, LK, D)),
                           "{scale = 0.1767{{[0-9]+}} : f32, softcap = "
                           "5.000000e+01 : f32}", False),
    "vit_scaled_q": (VitScaledQ(), (t(B, H, L, D), t(B, H, LK, D),
                                    t(B, H, LK, D)),
                     "{scale = " + SCALE + " : f32}", False),
    "mha_3d": (Mha3d(), (t(B, L, H * D), t(B, LK, H * D), t(B, LK, H * D)),
               "{scale = " + SCALE + " : f32}", True),
    "sliding_window": (SlidingWindow(), (t(B, H, L, D), t(B, H, L, D),
                                         t(B, H, L, D)),
                       "{causal = #attn.causal<top_left>, scale = " + SCALE
                       + " : f32, window = array<i64: 3, -1>}", False),
    "sdpa_gqa": (SdpaGqa(), (t(B, H, L, D), t(B, HKV, LK, D),
                             t(B, HKV, LK, D)),
                 "tensor<2x2x24x32xf32>) {scale = " + SCALE + " : f32}",
                 False),
    "sdpa_bool_mask": (SdpaMask(), (t(B, H, L, D), t(B, H, LK, D),
                                    t(B, H, LK, D),
                                    torch.rand(B, 1, L, LK) < 0.8),
                       "mask(%arg3 : tensor<2x1x16x24xi1>) {scale = " + SCALE
                       + " : f32}", False),
    "sdpa_float_mask": (SdpaMask(), (t(B, H, L, D), t(B, H, LK, D),
                                     t(B, H, LK, D), t(B, 1, 1, LK)),
                        "mask(%arg3 : tensor<2x1x1x24xf32>) {scale = " + SCALE
                        + " : f32}", False),
    "sdpa_scale_causal": (SdpaScaleCausal(), (t(B, H, L, D), t(B, H, L, D),
                                              t(B, H, L, D)),
                          "{causal = #attn.causal<top_left>, scale = "
                          "3.000000e-01 : f32}", False),
    "llama_causal_pad": (LlamaCausalPad(), (t(B, H, L, D), t(B, H, L, D),
                                            t(B, H, L, D), torch.ones(B, L)),
                         "mask({{.*}}) {scale = " + SCALE + " : f32}", True),
    # Two biases in a row: the band becomes causal, the padding the mask
    # (a finite band only with large-negative-is-masked).
    "two_biases": (TwoBiases(), (t(B, H, L, D), t(B, H, L, D), t(B, H, L, D),
                                 torch.ones(B, L, dtype=torch.long)),
                   "mask({{.*}}) {causal = #attn.causal<top_left>, scale = "
                   + SCALE + " : f32}", True),
    "two_biases_finite": (TwoBiasesFinite(), (t(B, H, L, D), t(B, H, L, D),
                                              t(B, H, L, D),
                                              torch.ones(B, L,
                                                         dtype=torch.long)),
                          "mask({{.*}}) {causal = #attn.causal<top_left>, "
                          "scale = " + SCALE + " : f32}", True,
                          "large-negative-is-masked"),
    # A length whose causal mask (320 x 320) is above the size masks are
    # evaluated up to: read from its aranges instead. bf16 SDPA widens the
    # repeated K and V: the widening moves above the repeat, so that GQA
    # and, with allow-precision-change, a bf16 op remain.
    "llama_sdpa_bf16": (LlamaSdpa(), (bf16(B, H, LONG, D), bf16(B, HKV, LONG, D),
                                      bf16(B, HKV, LONG, D)),
                        "tensor<2x2x320x32xbf16>) {causal = "
                        "#attn.causal<top_left>, scale = " + SCALE
                        + " : f32} -> tensor<2x4x320x32xbf16>", False,
                        "allow-precision-change"),
    # The same bf16 SDPA raised twice: by default an f32 op between the
    # casts (as the chain computes), with allow-precision-change a bf16 op.
    "sdpa_bf16": (SdpaCausal16(), (bf16(B, H, L, D), bf16(B, H, L, D),
                                   bf16(B, H, L, D)),
                  "-> tensor<2x4x16x32xf32>", True),
    "sdpa_bf16_to_bf16": (SdpaCausal16(), (bf16(B, H, L, D),
                                           bf16(B, H, L, D),
                                           bf16(B, H, L, D)),
                          "tensor<2x4x16x32xbf16>) {causal = "
                          "#attn.causal<top_left>, scale = " + SCALE
                          + " : f32} -> tensor<2x4x16x32xbf16>", False,
                          "allow-precision-change"),
}


# Cases exported to linalg only (none now: TOSA's form of a causal mask too
# large to evaluate, an i32 `j - i` widened to i64 and compared, is read
# from its aranges since session 38).
LINALG_ONLY = set()


def header(cases, name, kind, expected, leftovers, seed, options=""):
    doc = " ".join((cases[name][0].__doc__ or "").split())
    lines = [
        f"// {name} ({type(cases[name][0]).__name__}"
        + (f": {doc}" if doc else "") + "), exported by",
        f"// scripts/export_torch_mlir_cases.py (torch {torch.__version__}, "
        f"torch_mlir.fx, output {kind}).",
        "// RUN: attention-opt %s --attn-raise-pipeline"
        + (f'="{options}"' if options else "") + " | FileCheck %s",
        f"// RUN: attn-raise-check %s --require-raised --runs=2 --seed={seed}"
        + (f" --pipeline='attn-raise-pipeline{{{options}}}'" if options
           else "")
        + " | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL",
        f"// CHECK: attn.attention {{{{.*}}}}{expected}",
    ]
    if not leftovers:
        lines.append("// CHECK-NOT: linalg.")
    lines.append(f"// PROOF: @{name}: 1 attn.attention after the raising")
    lines.append("// PROOF: run 1 result 0 {{.*}}: PASS")
    return "\n".join(lines) + "\n"


# Dynamic batch and lengths (torch.export Dims), linalg-on-tensors only
# (torch-mlir's TOSA lowering rejects dynamic sizes). name: (module, inputs,
# Dims, expected attributes, whether ops of the front end are left around
# the op, argument shapes per (batch, q_len, kv_len)).
def qkv_dims():
    from torch.export import Dim
    batch = Dim("batch", min=1, max=64)
    q_len, kv_len = Dim("q_len", min=2, max=4096), Dim("kv_len", min=2, max=4096)
    return batch, q_len, kv_len


def qkv_shapes(heads_kv):
    def shapes(b, lq, lk):
        return (f"{b}x{H}x{lq}x{D},{b}x{heads_kv}x{lk}x{D},"
                f"{b}x{heads_kv}x{lk}x{D}->{b}x{H}x{lq}x{D}")
    return shapes


# Sizes the proofs run at: below a tile, 1, odd, longer keys than queries
# and the reverse.
SIZE_DRAWS = [(2, 16, 24), (1, 1, 7), (3, 33, 1), (2, 5, 70)]


def same_len(shapes):
    """Shapes for a module whose queries and keys share one length."""
    return lambda b, lq, lk: shapes(b, lq, lq)


def with_mask(shapes, mask):
    """Shapes with a mask argument `mask(b, lq, lk)` after q, k, v."""
    return lambda b, lq, lk: shapes(b, lq, lk).replace(
        "->", "," + mask(b, lq, lk) + "->")


def dynamic_cases():
    batch, q_len, kv_len = qkv_dims()
    qkv = {"q": {0: batch, 2: q_len}, "k": {0: batch, 2: kv_len},
           "v": {0: batch, 2: kv_len}}
    # Modules that build a square causal mask take one length (GPT-2's
    # buffer bounds it).
    from torch.export import Dim
    seq = Dim("seq", min=2, max=512)
    one = {"q": {0: batch, 2: seq}, "k": {0: batch, 2: seq},
           "v": {0: batch, 2: seq}}
    sq = (t(B, H, L, D), t(B, H, L, D), t(B, H, L, D))
    lk = (t(B, H, L, D), t(B, H, LK, D), t(B, H, LK, D))
    return {
        "sdpa_scale_causal_dynamic": (SdpaScaleCausal(), lk, qkv,
                                      "{causal = #attn.causal<top_left>, "
                                      "scale = 3.000000e-01 : f32}", False,
                                      qkv_shapes(H)),
        "vit_scaled_q_dynamic": (VitScaledQ(), lk, qkv,
                                 "{scale = " + SCALE + " : f32}", False,
                                 qkv_shapes(H)),
        "sdpa_bf16_dynamic": (SdpaCausal16(), (bf16(B, H, L, D),
                                               bf16(B, H, LK, D),
                                               bf16(B, H, LK, D)), qkv,
                              "-> tensor<?x4x?x32xf32>", True,
                              qkv_shapes(H)),
        "llama_sdpa_bf16_dynamic": (LlamaSdpa(), (bf16(B, H, L, D),
                                                  bf16(B, HKV, LK, D),
                                                  bf16(B, HKV, LK, D)), qkv,
                                    "tensor<?x2x?x32xf32>) {causal = "
                                    "#attn.causal<top_left>, scale = " + SCALE
                                    + " : f32} -> tensor<?x4x?x32xf32>", True,
                                    qkv_shapes(HKV)),
        "sdpa_bool_mask_dynamic": (SdpaMask(), lk + (
            torch.rand(B, 1, L, LK) < 0.8,), dict(qkv, m={0: batch, 2: q_len,
                                                        3: kv_len}),
            "mask(%arg3 : tensor<?x1x?x?xi1>) {scale = " + SCALE + " : f32}",
            False, with_mask(qkv_shapes(H),
                             lambda b, lq, lk: f"{b}x1x{lq}x{lk}")),
        "sdpa_float_mask_dynamic": (SdpaMask(), lk + (t(B, 1, 1, LK),),
                                    dict(qkv, m={0: batch, 3: kv_len}),
                                    "mask(%arg3 : tensor<?x1x1x?xf32>) "
                                    "{scale = " + SCALE + " : f32}", False,
                                    with_mask(qkv_shapes(H),
                                              lambda b, lq, lk:
                                              f"{b}x1x1x{lk}")),
        "sliding_window_dynamic": (SlidingWindow(), sq, one,
                                   "{causal = #attn.causal<top_left>, scale = "
                                   + SCALE + " : f32, window = array<i64: 3, "
                                   "-1>}", False, same_len(qkv_shapes(H))),
        "llama_causal_pad_dynamic": (LlamaCausalPad(), sq + (
            torch.ones(B, L, dtype=torch.long),),
            dict(one, attention_mask={0: batch, 1: seq}),
            "mask({{.*}}) {scale = " + SCALE + " : f32}", True,
            same_len(with_mask(qkv_shapes(H),
                               lambda b, lq, lk: f"{b}x{lk}"))),
        # The 1024 x 1024 buffer sliced to the run-time length: its band
        # read through the slice (FoldBandConstantSlices.cpp).
        "gpt2_block_dynamic": (Gpt2Block(), sq, one,
                               "{causal = #attn.causal<top_left>, scale = "
                               + SCALE + " : f32}", False,
                               same_len(qkv_shapes(H))),
        "plain_dynamic": (Plain(), (t(B, H, L, D), t(B, H, LK, D),
                                    t(B, H, LK, D)), qkv,
                          "{scale = " + SCALE + " : f32}", False, qkv_shapes(H)),
        "sdpa_dynamic": (Sdpa(), (t(B, H, L, D), t(B, H, LK, D),
                                  t(B, H, LK, D)), qkv,
                         "{scale = " + SCALE + " : f32}", False, qkv_shapes(H)),
        "sdpa_causal_dynamic": (SdpaCausal(), (t(B, H, L, D), t(B, H, LK, D),
                                               t(B, H, LK, D)), qkv,
                                "{causal = #attn.causal<top_left>, scale = "
                                + SCALE + " : f32}", False, qkv_shapes(H)),
        "sdpa_gqa_dynamic": (SdpaGqa(), (t(B, H, L, D), t(B, HKV, LK, D),
                                         t(B, HKV, LK, D)), qkv,
                             "tensor<?x2x?x32xf32>) {scale = " + SCALE
                             + " : f32}", False, qkv_shapes(HKV)),
        "llama_gqa_bf16_dynamic": (LlamaGqa(), (bf16(B, H, L, D),
                                                bf16(B, HKV, LK, D),
                                                bf16(B, HKV, LK, D)), qkv,
                                   "tensor<?x2x?x32xbf16>) {scale = "
                                   "0.1767{{[0-9]+}} : f32}", False,
                                   qkv_shapes(HKV)),
        "gemma_softcap_bf16_dynamic": (GemmaSoftcap(), (bf16(B, H, L, D),
                                                        bf16(B, H, LK, D),
                                                        bf16(B, H, LK, D)),
                                       qkv, "{scale = 0.1767{{[0-9]+}} : f32,"
                                       " softcap = 5.000000e+01 : f32}",
                                       False, qkv_shapes(H)),
        "mha_3d_dynamic": (Mha3d(), (t(B, L, H * D), t(B, LK, H * D),
                                     t(B, LK, H * D)),
                           {"x": {0: batch, 1: q_len},
                            "y": {0: batch, 1: kv_len},
                            "z": {0: batch, 1: kv_len}},
                           "{scale = " + SCALE + " : f32}", True,
                           lambda b, lq, lk: (f"{b}x{lq}x{H * D},{b}x{lk}x"
                                              f"{H * D},{b}x{lk}x{H * D}->"
                                              f"{b}x{lq}x{H * D}")),
        "hf_additive_mask_dynamic": (HfAdditiveMask(),
                                     # HF's attention_mask: int64 0/1.
                                     (t(B, H, L, D), t(B, H, LK, D),
                                      t(B, H, LK, D),
                                      torch.ones(B, LK, dtype=torch.long)),
                                     dict(qkv, attention_mask={0: batch,
                                                               1: kv_len}),
                                     "mask({{.*}}) {scale = " + SCALE
                                     + " : f32}", True,
                                     lambda b, lq, lk: qkv_shapes(H)(b, lq, lk)
                                     .replace("->", f",{b}x{lk}->")),
    }


def einsum_dynamic_cases():
    """Einsum attention with run-time sizes (exported after the others, so
    that their seeds stay)."""
    batch, q_len, kv_len = qkv_dims()
    qkv = {"q": {0: batch, 2: q_len}, "k": {0: batch, 2: kv_len},
           "v": {0: batch, 2: kv_len}}
    lk = (t(B, H, L, D), t(B, H, LK, D), t(B, H, LK, D))
    cache = {"q": {0: batch}, "k": {0: batch, 1: kv_len},
             "v": {0: batch, 1: kv_len}}
    return {
        # A decode step (no query dim) against a [B, T, H, D] cache of a
        # run-time length: the query length of the draws is not used.
        "einsum_decode_dynamic": (
            CacheLayoutDecodeF32(), (t(B, H, D), t(B, LK, H, D),
                                     t(B, LK, H, D)), cache,
            "tensor<?x4x1x32xf32>, tensor<?x4x?x32xf32>, "
            "tensor<?x4x?x32xf32>) {scale = " + SCALE + " : f32}", True,
            lambda b, lq, lk: (f"{b}x{H}x{D},{b}x{lk}x{H}x{D},"
                               f"{b}x{lk}x{H}x{D}->{b}x{H}x{D}")),
        # torch-mlir sizes the views of Q and K that einsum makes by V's
        # batch and length (FoldComputedReshapes.cpp asserts them).
        "einsum_dynamic": (EinsumAttention(), lk, qkv,
                           "{scale = " + SCALE + " : f32}", False,
                           qkv_shapes(H)),
        "einsum_token_major_dynamic": (
            EinsumTokenMajor(), (t(B, L, H, D), t(B, LK, H, D),
                                 t(B, LK, H, D)),
            {"q": {0: batch, 1: q_len}, "k": {0: batch, 1: kv_len},
             "v": {0: batch, 1: kv_len}},
            "{scale = " + SCALE + " : f32}", True,
            lambda b, lq, lk: (f"{b}x{lq}x{H}x{D},{b}x{lk}x{H}x{D},"
                               f"{b}x{lk}x{H}x{D}->{b}x{lq}x{H}x{D}")),
    }


def dynamic_header(name, module, expected, leftovers, shapes, seed):
    doc = " ".join((module.__doc__ or "").split())
    lines = [
        f"// {name} ({type(module).__name__}" + (f": {doc}" if doc else "")
        + "), exported with a dynamic batch and",
        "// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py "
        f"(torch {torch.__version__},",
        "// torch_mlir.fx, output linalg-on-tensors). The raising runs on the "
        "dynamic",
        "// function; the proof runs it at several sizes.",
        "// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s",
        f"// RUN: attn-raise-check %s --require-raised --runs=1 --seed={seed} "
        + " ".join(f"'--shapes={shapes(*d)}'" for d in SIZE_DRAWS)
        + " | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL",
        f"// CHECK: attn.attention {{{{.*}}}}{expected}",
    ]
    if not leftovers:
        lines.append("// CHECK-NOT: linalg.")
    for d in SIZE_DRAWS:
        lines.append(f"// PROOF: @{name} at {{{{.*}}}}: 1 attn.attention after"
                     " the raising")
        lines.append("// PROOF: run 0 result 0 {{.*}}: PASS")
    return "\n".join(lines) + "\n"


class RelativeBiasAndMask(torch.nn.Module):
    """T5-style position bias and a padding bias: two bias tensors."""
    def forward(self, q, k, v, bias, m):
        w = torch.matmul(q, k.transpose(2, 3)) + bias + m
        return torch.matmul(torch.softmax(w, dim=-1), v)


class NeoxBaddbmm(torch.nn.Module):
    """GPT-NeoX's eager attention: baddbmm on zeros, a causal where with
    finfo.min, then the padding bias."""
    def forward(self, q, k, v, attention_mask):
        b, h, lq, d = q.shape
        lk = k.shape[2]
        scores = torch.zeros(b * h, lq, lk, dtype=q.dtype)
        scores = torch.baddbmm(scores, q.reshape(b * h, lq, d),
                               k.reshape(b * h, lk, d).transpose(1, 2),
                               beta=1.0, alpha=1.0 / math.sqrt(d))
        scores = scores.view(b, h, lq, lk)
        causal = torch.tril(torch.ones(lq, lk, dtype=torch.bool))
        low = torch.tensor(torch.finfo(scores.dtype).min, dtype=scores.dtype)
        scores = torch.where(causal.view(1, 1, lq, lk), scores, low)
        p = F.softmax(scores + attention_mask, dim=-1)
        return torch.matmul(p, v)


class BloomAlibi(torch.nn.Module):
    """Bloom: baddbmm onto the ALiBi bias, masked_fill with finfo.min, the
    softmax in f32, on [B*H, L, D]. Its boolean mask is true at excluded
    keys, the negation of the padding mask's ones (`keep`)."""
    def forward(self, q, k, v, alibi, keep):
        s = alibi.baddbmm(batch1=q, batch2=k.transpose(-1, -2), beta=1.0,
                          alpha=1.0 / math.sqrt(D))
        s = torch.masked_fill(s.view(B, H, L, LK), ~keep,
                              torch.finfo(s.dtype).min)
        p = F.softmax(s, dim=-1, dtype=torch.float32).view(B * H, L, LK)
        return torch.bmm(p, v)


class ClipText(torch.nn.Module):
    """CLIP's text encoder: a 3-D bmm of the scaled queries, viewed as 4-D to
    add the causal and the padding masks (both inputs)."""
    def forward(self, q, k, v, causal_mask, attention_mask):
        bh = B * H
        q = (q * D ** -0.5).reshape(bh, L, D)
        w = torch.bmm(q, k.reshape(bh, L, D).transpose(1, 2))
        w = w.view(B, H, L, L) + causal_mask
        w = (w.view(B, H, L, L) + attention_mask).view(bh, L, L)
        return torch.bmm(F.softmax(w, dim=-1), v.reshape(bh, L, D))


class DiffusersBaddbmm(torch.nn.Module):
    """diffusers' get_attention_scores: baddbmm(empty, q, kT, beta=0,
    alpha=scale) on [B*H, L, D]."""
    def forward(self, q, k, v):
        empty = torch.empty(q.shape[0], q.shape[1], k.shape[1], dtype=q.dtype)
        s = torch.baddbmm(empty, q, k.transpose(-1, -2), beta=0,
                          alpha=D ** -0.5)
        return torch.bmm(s.softmax(dim=-1), v)


class BiasBeforeScale(torch.nn.Module):
    """A float mask added before the scale."""
    def forward(self, q, k, v, m):
        s = (q @ k.transpose(-1, -2) + m) / math.sqrt(D)
        return torch.softmax(s, -1) @ v


def finfo_causal(n):
    """HF's causal bias as an input: finfo.min above the diagonal."""
    low = torch.finfo(torch.float32).min
    return torch.triu(torch.full((n, n), low), 1)[None, None].expand(
        B, 1, n, n).contiguous()


# Attention as model families write it (exported after the dynamic cases,
# so that the seeds of those stay as they were): where a chain has two mask
# tensors, attn-fuse combines them into the op's one mask operand (a tensor
# left beside the op); a finite fill is a mask only with
# large-negative-is-masked.
FAMILY_CASES = {
    "relative_bias_and_mask": (RelativeBiasAndMask(), (
        t(B, H, L, D), t(B, H, L, D), t(B, H, L, D), t(1, H, L, L),
        t(B, 1, 1, L)), "mask({{.*}} : tensor<2x4x16x16xf32>) "
        "{scale = 1.000000e+00 : f32}", True),
    "neox_baddbmm": (NeoxBaddbmm(), (t(B, H, L, D), t(B, H, L, D),
                                     t(B, H, L, D), t(B, 1, 1, L)),
                     "mask({{.*}} : tensor<2x1x1x16xf32>) {causal = "
                     "#attn.causal<top_left>, scale = " + SCALE + " : f32}",
                     False, "large-negative-is-masked"),
    "bloom_alibi": (BloomAlibi(), (t(B * H, L, D), t(B * H, LK, D),
                                   t(B * H, LK, D), t(B * H, 1, LK),
                                   torch.rand(B, 1, L, LK) < 0.8),
                    "mask({{.*}} : tensor<2x4x16x24xf32>) {scale = " + SCALE
                    + " : f32}", True, "large-negative-is-masked"),
    "clip_text": (ClipText(), (t(B, H, L, D), t(B, H, L, D), t(B, H, L, D),
                               finfo_causal(L), t(B, 1, L, L)),
                  "mask({{.*}} : tensor<2x1x16x16xf32>) {scale = " + SCALE
                  + " : f32}", True),
    "diffusers_baddbmm": (DiffusersBaddbmm(), (t(B * H, L, D),
                                               t(B * H, LK, D),
                                               t(B * H, LK, D)),
                          "{scale = " + SCALE + " : f32}", False),
}


# Decode steps: one new query token against a key/value cache, the query
# dim kept (SDPA on [B, H, 1, D]) or dropped, so that Q·Kᵀ and P·V are
# matrix-vector products (attn-normalize-chains gives the dim back:
# RestoreUnitQueryDims.cpp).
class SdpaDecode(torch.nn.Module):
    """F.scaled_dot_product_attention on one query token [B, H, 1, D]."""
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)


class EinsumDecode(torch.nn.Module):
    """einsum('bhd,bhkd->bhk') on a query [B, H, D] without its query dim."""
    def forward(self, q, k, v):
        s = torch.einsum("bhd,bhkd->bhk", q, k) / math.sqrt(q.shape[-1])
        return torch.einsum("bhk,bhkd->bhd", torch.softmax(s, dim=-1), v)


class SqueezedDecode(torch.nn.Module):
    """(q.unsqueeze(-2) @ kT).squeeze(-2): the query dim added for the
    matmul and dropped again."""
    def forward(self, q, k, v):
        s = (q.unsqueeze(-2) @ k.transpose(-1, -2)).squeeze(-2) / math.sqrt(D)
        p = torch.softmax(s, -1)
        return (p.unsqueeze(-2) @ v).squeeze(-2)


class CacheLayoutDecode(torch.nn.Module):
    """A cache laid out [B, T, H, D] (JAX, vLLM), bf16 products and an f32
    softmax."""
    def forward(self, q, k, v):
        s = torch.einsum("bhd,bthd->bht", q, k).float() / math.sqrt(D)
        p = torch.softmax(s, -1).to(q.dtype)
        return torch.einsum("bht,bthd->bhd", p, v)


class CacheLayoutDecodeF32(torch.nn.Module):
    """A cache laid out [B, T, H, D], f32."""
    def forward(self, q, k, v):
        s = torch.einsum("bhd,bthd->bht", q, k) / math.sqrt(D)
        return torch.einsum("bht,bthd->bhd", torch.softmax(s, -1), v)


class LengthMaskDecode(torch.nn.Module):
    """Keys at or past each sequence's cache length masked out."""
    def forward(self, q, k, v, lengths):
        s = torch.einsum("bhd,bhkd->bhk", q, k) / math.sqrt(D)
        past = torch.arange(k.shape[2])[None, :] >= lengths[:, None]
        s = s.masked_fill(past[:, None, :], float("-inf"))
        return torch.einsum("bhk,bhkd->bhd", torch.softmax(s, -1), v)


class FoldedHeadsDecode(torch.nn.Module):
    """Heads folded into the batch: K q and p V as batched matrix-vector
    products on [B*H, T, D]."""
    def forward(self, q, k, v):
        s = torch.matmul(k, q.unsqueeze(-1)).squeeze(-1) / math.sqrt(D)
        return torch.matmul(torch.softmax(s, -1).unsqueeze(1), v).squeeze(1)


class EinsumAttention(torch.nn.Module):
    """einsum('bhqd,bhkd->bhqk') and einsum('bhqk,bhkd->bhqd')."""
    def forward(self, q, k, v):
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(D)
        return torch.einsum("bhqk,bhkd->bhqd", torch.softmax(s, -1), v)


class EinsumTokenMajor(torch.nn.Module):
    """einsum on token-major [B, L, H, D] tensors (the heads not split
    out first)."""
    def forward(self, q, k, v):
        s = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(D)
        return torch.einsum("bhqk,bkhd->bqhd", torch.softmax(s, -1), v)


class MqaEinsum(torch.nn.Module):
    """Multi-query attention as einsum: one K and V per sequence,
    'bhqd,bkd->bhqk'."""
    def forward(self, q, k, v):
        s = torch.einsum("bhqd,bkd->bhqk", q, k) / math.sqrt(D)
        return torch.einsum("bhqk,bkd->bhqd", torch.softmax(s, -1), v)


class MqaDecodeEinsum(torch.nn.Module):
    """A multi-query decode step: 'bhd,bkd->bhk' (the heads are the rows
    that share K and V)."""
    def forward(self, q, k, v):
        s = torch.einsum("bhd,bkd->bhk", q, k) / math.sqrt(D)
        return torch.einsum("bhk,bkd->bhd", torch.softmax(s, -1), v)


class GqaGroupedEinsum(torch.nn.Module):
    """Grouped-query attention with the query heads grouped by KV head:
    q [B, Hkv, G, L, D], 'bngqd,bnkd->bngqk'."""
    def forward(self, q, k, v):
        s = torch.einsum("bngqd,bnkd->bngqk", q, k) / math.sqrt(D)
        return torch.einsum("bngqk,bnkd->bngqd", torch.softmax(s, -1), v)


class SoftcapDecode(torch.nn.Module):
    """A decode step with Gemma-2's softcap, tanh(s / 50) * 50."""
    def forward(self, q, k, v):
        s = torch.einsum("bhd,bhkd->bhk", q, k) / math.sqrt(D)
        s = torch.tanh(s / 50.0) * 50.0
        return torch.einsum("bhk,bhkd->bhd", torch.softmax(s, -1), v)


class AlibiDecode(torch.nn.Module):
    """A decode step with ALiBi: slope_h * (j - (Lk - 1)) added."""
    def forward(self, q, k, v, slopes):
        s = torch.einsum("bhd,bhkd->bhk", q, k) / math.sqrt(D)
        pos = torch.arange(k.shape[2]).float()
        s = s + slopes[None, :, None] * (pos[None, None, :] - (k.shape[2] - 1))
        return torch.einsum("bhk,bhkd->bhd", torch.softmax(s, -1), v)


# Exported last, so that the seeds of the others stay.
EINSUM_CASES = {
    "softcap_decode": (SoftcapDecode(), (t(B, H, D), t(B, H, LK, D),
                                         t(B, H, LK, D)),
                       "tensor<2x4x1x32xf32>, tensor<2x4x24x32xf32>, "
                       "tensor<2x4x24x32xf32>) {scale = " + SCALE
                       + " : f32, softcap = 5.000000e+01 : f32}", False),
    "alibi_decode": (AlibiDecode(), (t(B, H, D), t(B, H, LK, D),
                                     t(B, H, LK, D), torch.rand(H)),
                     "mask({{.*}} : tensor<1x4x1x24xf32>) {scale = " + SCALE
                     + " : f32}", True),
    "mqa_einsum": (MqaEinsum(), (t(B, H, L, D), t(B, LK, D), t(B, LK, D)),
                   "tensor<1x8x16x32xf32>, tensor<1x2x24x32xf32>, "
                   "tensor<1x2x24x32xf32>) {scale = " + SCALE + " : f32}",
                   False),
    "mqa_decode_einsum": (MqaDecodeEinsum(), (t(B, H, D), t(B, LK, D),
                                              t(B, LK, D)),
                          "tensor<1x2x4x32xf32>, tensor<1x2x24x32xf32>, "
                          "tensor<1x2x24x32xf32>) {scale = " + SCALE
                          + " : f32}", False),
    "gqa_grouped_einsum": (GqaGroupedEinsum(), (t(B, HKV, H // HKV, L, D),
                                                t(B, HKV, LK, D),
                                                t(B, HKV, LK, D)),
                           "tensor<2x4x16x32xf32>, tensor<2x2x24x32xf32>, "
                           "tensor<2x2x24x32xf32>) {scale = " + SCALE
                           + " : f32}", False),
}


DECODE_CASES = {
    "sdpa_decode": (SdpaDecode(), (t(B, H, 1, D), t(B, H, LK, D),
                                   t(B, H, LK, D)),
                    "tensor<2x4x1x32xf32>, tensor<2x4x24x32xf32>, "
                    "tensor<2x4x24x32xf32>) {scale = " + SCALE + " : f32}",
                    False),
    "einsum_decode": (EinsumDecode(), (t(B, H, D), t(B, H, LK, D),
                                       t(B, H, LK, D)),
                      "tensor<2x4x1x32xf32>, tensor<2x4x24x32xf32>, "
                      "tensor<2x4x24x32xf32>) {scale = " + SCALE + " : f32}",
                      False),
    "squeezed_decode": (SqueezedDecode(), (t(B, H, D), t(B, H, LK, D),
                                           t(B, H, LK, D)),
                        "tensor<2x4x1x32xf32>, tensor<2x4x24x32xf32>, "
                        "tensor<2x4x24x32xf32>) {scale = " + SCALE
                        + " : f32}", False),
    "cache_layout_decode_bf16": (CacheLayoutDecode(), (bf16(B, H, D),
                                                       bf16(B, LK, H, D),
                                                       bf16(B, LK, H, D)),
                                 "tensor<2x4x1x32xbf16>, "
                                 "tensor<2x4x24x32xbf16>, "
                                 "tensor<2x4x24x32xbf16>) {scale = "
                                 + SCALE + " : f32}", True),
    "length_mask_decode": (LengthMaskDecode(), (t(B, H, D), t(B, H, LK, D),
                                                t(B, H, LK, D),
                                                torch.tensor([5, LK])),
                           "mask({{.*}} : tensor<2x1x1x24xi1>) {scale = "
                           + SCALE + " : f32}", True),
    "folded_heads_decode": (FoldedHeadsDecode(), (t(B * H, D),
                                                  t(B * H, LK, D),
                                                  t(B * H, LK, D)),
                            "tensor<1x8x1x32xf32>, tensor<1x8x24x32xf32>, "
                            "tensor<1x8x24x32xf32>) {scale = " + SCALE
                            + " : f32}", False),
}


# An adversarial sweep of attention as models write it today (session 50):
# what it found raised, and near misses that must stay chains. Exported
# last, so that the seeds of the others stay.
class SdpaBatch1(torch.nn.Module):
    """F.scaled_dot_product_attention at a batch of 1 (inference): PyTorch
    scales q and k by sqrt(scale) before folding the heads into the batch,
    a collapse of a unit dim."""
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)


class TrilBoolWhere(torch.nn.Module):
    """torch.ones(L, L).tril().bool() and where(mask, s, -inf)."""
    def forward(self, q, k, v):
        n = q.shape[2]
        m = torch.ones(n, n).tril().bool()
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return torch.softmax(torch.where(m, s, float("-inf")), -1) @ v


class MistralSliding(torch.nn.Module):
    """Hugging Face Mistral's sliding-window causal bias: triu(finfo.min, 1)
    filled with finfo.min where tril(ones, -window) is true."""
    def forward(self, q, k, v):
        n = q.shape[2]
        low = torch.finfo(q.dtype).min
        mask = torch.triu(torch.full((n, n), low), diagonal=1)
        sliding = torch.tril(torch.ones(n, n, dtype=torch.bool), diagonal=-4)
        mask = mask.masked_fill(sliding, low)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D) + mask
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)


class CausalThenPadding(torch.nn.Module):
    """masked_fill(triu(ones, 1).bool(), -inf), then masked_fill of a
    padding mask (attention_mask == 0)."""
    def forward(self, q, k, v, pad):
        n = q.shape[2]
        c = torch.triu(torch.ones(n, n), diagonal=1).bool()
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        s = s.masked_fill(c, float("-inf"))
        s = s.masked_fill(pad[:, None, None, :] == 0, float("-inf"))
        return torch.softmax(s, -1) @ v


class TwoBoolMasks(torch.nn.Module):
    """Two boolean masks applied one after the other (masked if either)."""
    def forward(self, q, k, v, m1, m2):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        s = s.masked_fill(m1, float("-inf")).masked_fill(m2, float("-inf"))
        return torch.softmax(s, -1) @ v


class RelPosEmbedding(torch.nn.Module):
    """A learned relative position bias (T5, Swin): an embedding of j - i,
    [L, L, H] permuted to [1, H, L, L]."""
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(2 * L - 1, H)
    def forward(self, q, k, v):
        n = q.shape[2]
        rel = torch.arange(n)[None, :] - torch.arange(n)[:, None] + n - 1
        bias = self.emb(rel).permute(2, 0, 1)[None]
        s = q @ k.transpose(-2, -1) / math.sqrt(D) + bias
        return torch.softmax(s, -1) @ v


class ChunkCausal(torch.nn.Module):
    """A prefill chunk (Lq < Lk): causal to the bottom right, from aranges
    with an offset."""
    def forward(self, q, k, v):
        lq, lk = q.shape[2], k.shape[2]
        i = torch.arange(lq)[:, None] + (lk - lq)
        j = torch.arange(lk)[None, :]
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return torch.softmax(s.masked_fill(j > i, float("-inf")), -1) @ v


class SdpaCausalRect(torch.nn.Module):
    """SDPA is_causal with Lq < Lk: PyTorch's causal is top-left there."""
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class MptAlibi(torch.nn.Module):
    """MPT: ALiBi from arange(1 - L, 1) times slopes computed in the graph,
    and a causal fill of finfo.min."""
    def forward(self, q, k, v):
        n = q.shape[2]
        p = 2 ** math.floor(math.log2(H))
        base = torch.tensor(2 ** (-(2 ** -(math.log2(p) - 3))))
        slopes = torch.pow(base, torch.arange(1, 1 + p))
        bias = torch.arange(1 - n, 1, dtype=torch.int32).view(1, 1, 1, n)
        bias = bias * slopes.view(1, H, 1, 1)
        w = q.matmul(k.transpose(-1, -2)) * (D ** -0.5) + bias
        causal = ~torch.tril(torch.ones(n, n, dtype=torch.bool))
        w = w.masked_fill(causal.view(1, 1, n, n), torch.finfo(w.dtype).min)
        return torch.softmax(w, dim=-1) @ v


class GqaRepeatInterleave(torch.nn.Module):
    """K and V repeated with repeat_interleave(G, dim=1): head h reads KV
    head h // G."""
    def forward(self, q, k, v):
        k = k.repeat_interleave(H // HKV, dim=1)
        v = v.repeat_interleave(H // HKV, dim=1)
        return torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D), -1) @ v


# Near misses that must stay chains (the remark attn-fuse gives, or None
# where nothing is softmax-like): attn-raise-check proves them intact.
class GqaTile(torch.nn.Module):
    """K and V repeated with .repeat(1, G, 1, 1): head h reads KV head
    h % Hkv, not h // G as the op's grouped heads do."""
    def forward(self, q, k, v):
        k = k.repeat(1, H // HKV, 1, 1); v = v.repeat(1, H // HKV, 1, 1)
        return torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D), -1) @ v


class FillZero(torch.nn.Module):
    """masked_fill(~keep, 0.0): masked scores set to 0, not excluded."""
    def forward(self, q, k, v, keep):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return torch.softmax(s.masked_fill(~keep, 0.0), -1) @ v


class MultiplicativeMask(torch.nn.Module):
    """s * keep before the softmax: masked scores 0, not excluded."""
    def forward(self, q, k, v, keep):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return torch.softmax(s * keep, -1) @ v


class PostSoftmaxMask(torch.nn.Module):
    """softmax(s) * keep, not renormalized."""
    def forward(self, q, k, v, keep):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return (torch.softmax(s, -1) * keep) @ v


class EpsNormalize(torch.nn.Module):
    """exp(s - max) / (sum + 1e-6): not a softmax."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        e = torch.exp(s - s.amax(-1, keepdim=True))
        return (e / (e.sum(-1, keepdim=True) + 1e-6)) @ v


class ThresholdMask(torch.nn.Module):
    """s.masked_fill(s < 0, -inf): a mask computed from the scores."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return torch.softmax(s.masked_fill(s < 0.0, float("-inf")), -1) @ v


class SigmoidAttention(torch.nn.Module):
    """Sigmoid attention, sigmoid(s - log(Lk)) @ v: no softmax."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        return torch.sigmoid(s - math.log(LK)) @ v


def keep_mask(*shape):
    return torch.rand(*shape) < 0.8


RECT = lambda: (t(B, H, L, D), t(B, H, LK, D), t(B, H, LK, D))
SQUARE = lambda: (t(B, H, L, D), t(B, H, L, D), t(B, H, L, D))

SWEEP_CASES = {
    "sdpa_batch1": (SdpaBatch1(), (t(1, H, L, D), t(1, H, LK, D),
                                   t(1, H, LK, D)),
                    "tensor<1x4x24x32xf32>) {scale = " + SCALE + " : f32}",
                    False),
    "tril_bool_where": (TrilBoolWhere(), SQUARE(),
                        "{causal = #attn.causal<top_left>, scale = " + SCALE
                        + " : f32}", False),
    "mistral_sliding": (MistralSliding(), SQUARE(),
                        "{causal = #attn.causal<top_left>, scale = " + SCALE
                        + " : f32, window = array<i64: 3, -1>}", False,
                        "large-negative-is-masked"),
    "causal_then_padding": (CausalThenPadding(), SQUARE() + (
        torch.ones(B, L, dtype=torch.long),),
        "mask({{.*}} : tensor<2x1x1x16xi1>) {causal = #attn.causal<top_left>, "
        "scale = " + SCALE + " : f32}", True),
    "two_bool_masks": (TwoBoolMasks(), RECT() + (keep_mask(B, 1, L, LK),
                                                 keep_mask(1, 1, L, LK)),
                       "mask({{.*}} : tensor<2x1x16x24xi1>) {scale = " + SCALE
                       + " : f32}", True),
    "rel_pos_embedding": (RelPosEmbedding(), SQUARE(),
                          "mask({{.*}} : tensor<1x4x16x16xf32>) {scale = "
                          + SCALE + " : f32}", True),
    "chunk_causal": (ChunkCausal(), RECT(),
                     "{causal = #attn.causal<bottom_right>, scale = " + SCALE
                     + " : f32}", False),
    "sdpa_causal_rect": (SdpaCausalRect(), RECT(),
                         "{causal = #attn.causal<top_left>, scale = " + SCALE
                         + " : f32}", False),
    "mpt_alibi": (MptAlibi(), SQUARE(),
                  "mask({{.*}} : tensor<1x4x1x16xf32>) {causal = "
                  "#attn.causal<top_left>, scale = " + SCALE + " : f32}", True,
                  "large-negative-is-masked"),
    "gqa_repeat_interleave": (GqaRepeatInterleave(), (
        t(B, H, L, D), t(B, HKV, LK, D), t(B, HKV, LK, D)),
        "tensor<2x2x24x32xf32>) {scale = " + SCALE + " : f32}", False),
}

NOT_RAISED_CASES = {
    "gqa_tile": (GqaTile(), (t(B, H, L, D), t(B, HKV, LK, D),
                             t(B, HKV, LK, D)),
                 "the query heads of a group are score dim 1, not the one "
                 "right before the query dim"),
    "fill_zero": (FillZero(), RECT() + (keep_mask(B, 1, L, LK),),
                  "the masked scores are set to a finite value, not -inf"),
    "multiplicative_mask": (MultiplicativeMask(), RECT() + (
        keep_mask(B, 1, L, LK),), "the scores are scaled by a non-constant"),
    "post_softmax_mask": (PostSoftmaxMask(), RECT() + (
        keep_mask(B, 1, L, LK),), "dropout: "),
    "eps_normalize": (EpsNormalize(), RECT(),
                      "the softmax is not normalized by the row sum"),
    "threshold_mask": (ThresholdMask(), RECT(),
                       "an intermediate score tensor has another user"),
    "sigmoid_attention": (SigmoidAttention(), RECT(), None),
}


# Found by the same sweep, fixed after the others (exported after them, so
# that their seeds stay).
class WhisperCross(torch.nn.Module):
    """Whisper's (and BART's) cross attention: q_proj(x) * scaling on
    [B, L, H*D] before the heads are split out, bmm on [B*H, L, D],
    Lq != Lk."""
    def forward(self, x, kv_k, kv_v):
        bsz, tgt, _ = x.shape
        q = (x * (D ** -0.5)).view(bsz, tgt, H, D).transpose(1, 2)
        k = kv_k.view(bsz, -1, H, D).transpose(1, 2)
        v = kv_v.view(bsz, -1, H, D).transpose(1, 2)
        q = q.reshape(bsz * H, tgt, D)
        k = k.reshape(bsz * H, -1, D)
        v = v.reshape(bsz * H, -1, D)
        w = F.softmax(torch.bmm(q, k.transpose(1, 2)), dim=-1)
        o = torch.bmm(w, v).view(bsz, H, tgt, D).transpose(1, 2)
        return o.reshape(bsz, tgt, H * D)


class OptClampPad(torch.nn.Module):
    """OPT's (and BioGPT's) attention: bmm on [B*H, L, D], a padding mask
    of -inf added, then torch.max(w, finfo.min)."""
    def forward(self, q, k, v, pad):
        m = torch.zeros(B, 1, 1, LK).masked_fill(pad[:, None, None, :] == 0,
                                                 float("-inf"))
        w = torch.bmm(q * (D ** -0.5), k.transpose(1, 2))
        w = w.view(B, H, L, LK) + m
        w = torch.max(w, torch.tensor(torch.finfo(w.dtype).min))
        w = w.view(B * H, L, LK)
        return torch.bmm(F.softmax(w, dim=-1), v)


class UserMaxSubtract(torch.nn.Module):
    """The row max subtracted before the softmax by the user (a stable
    softmax written out, PB-relax)."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        s = s - s.amax(-1, keepdim=True).detach()
        return torch.softmax(s, -1) @ v


class QkvAttentionLegacy(torch.nn.Module):
    """OpenAI's guided-diffusion / Stable Diffusion QKVAttention: [B*H, D,
    T] channels first, q and k each scaled by d ** -0.25, P·V written V·Pᵀ
    (einsum('bts,bcs->bct')), the softmax in f32."""
    def forward(self, q, k, v):
        scale = 1 / math.sqrt(math.sqrt(D))
        w = torch.einsum("bct,bcs->bts", q * scale, k * scale)
        w = torch.softmax(w.float(), dim=-1).type(w.dtype)
        return torch.einsum("bts,bcs->bct", w, v)


LATE_CASES = {
    "whisper_cross": (WhisperCross(), (t(B, L, H * D), t(B, LK, H * D),
                                       t(B, LK, H * D)),
                      "{scale = " + SCALE + " : f32}", True),
    # The clamp turns the mask's -inf into finfo.min: raised with
    # large-negative-is-masked.
    "opt_clamp_pad": (OptClampPad(), (t(B * H, L, D), t(B * H, LK, D),
                                      t(B * H, LK, D),
                                      torch.ones(B, LK, dtype=torch.long)),
                      "mask({{.*}} : tensor<2x1x1x24xi1>) {scale = " + SCALE
                      + " : f32}", True, "large-negative-is-masked"),
    "user_max_subtract": (UserMaxSubtract(), RECT(),
                          "{scale = " + SCALE + " : f32}", False),
    "qkv_attention_legacy": (QkvAttentionLegacy(), (t(B * H, D, L),
                                                    t(B * H, D, LK),
                                                    t(B * H, D, LK)),
                             "tensor<1x8x24x32xf32>) {scale = "
                             "0.17677{{[0-9]+}} : f32}", True),
    "qkv_attention_legacy_f16": (QkvAttentionLegacy(), (
        t(B * H, D, L, dtype=torch.float16), t(B * H, D, LK, dtype=torch.float16),
        t(B * H, D, LK, dtype=torch.float16)),
        "tensor<1x8x24x32xf16>) {scale = 0.1767{{[0-9]+}} : f32}", True),
    # At a length whose bias (320 x 320) is above what attn-normalize-chains
    # evaluates: read from its aranges.
    "mistral_sliding_long": (MistralSliding(), (t(1, 2, LONG, D),
                                                t(1, 2, LONG, D),
                                                t(1, 2, LONG, D)),
                             "{causal = #attn.causal<top_left>, scale = "
                             + SCALE + " : f32, window = array<i64: 3, -1>}",
                             False, "large-negative-is-masked"),
}


# Session 50, later: the softmax normalized after P·V, and user-written safe
# softmaxes. Exported last, so that the seeds of the others stay.
class DeferredNorm(torch.nn.Module):
    """exp(s - max) @ v, then divided by the row sum (the normalization
    after P·V, as FlashAttention computes it)."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        e = torch.exp(s - s.amax(-1, keepdim=True))
        return (e @ v) / e.sum(-1, keepdim=True)


class DeferredNormMasked(torch.nn.Module):
    """exp(s - max) @ v divided by the row sum, with a boolean mask. (With
    .reciprocal() instead, torch-mlir's linalg asserts that the row sum is
    nonzero, an assertion attn-fuse keeps: left alone.)"""
    def forward(self, q, k, v, keep):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        s = s.masked_fill(~keep, float("-inf"))
        e = torch.exp(s - s.amax(-1, keepdim=True))
        return (e @ v) / e.sum(-1, keepdim=True)


class DeferredNormNoMax(torch.nn.Module):
    """exp(s) @ v / sum exp(s), without the row max: overflows where the op
    does not."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        e = torch.exp(s)
        return (e @ v) / e.sum(-1, keepdim=True)


class DeferredNormWrongDim(torch.nn.Module):
    """exp(s - max) @ v divided by a sum over the queries (one per key,
    Lq = Lk): not attention."""
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        e = torch.exp(s - s.amax(-1, keepdim=True))
        return (e @ v) / e.sum(-2).unsqueeze(-1)


class DeferredNormOtherSum(torch.nn.Module):
    """exp(s - max) @ v divided by the row sum of another tensor."""
    def forward(self, q, k, v, w):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        e = torch.exp(s - s.amax(-1, keepdim=True))
        return (e @ v) / torch.exp(w).sum(-1, keepdim=True)


class NanToNumSoftmax(torch.nn.Module):
    """torch.nan_to_num(softmax(s)): zeroes the fully masked rows, but also
    rows that a NaN or +inf score makes NaN, which the op gives as NaN."""
    def forward(self, q, k, v, keep):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        s = s.masked_fill(~keep, float("-inf"))
        return torch.nan_to_num(torch.softmax(s, -1)) @ v


DEFERRED_CASES = {
    "deferred_norm": (DeferredNorm(), RECT(),
                      "{scale = " + SCALE + " : f32}", False),
    "deferred_norm_masked": (DeferredNormMasked(),
                             RECT() + (keep_mask(B, 1, L, LK),),
                             "mask({{.*}} : tensor<2x1x16x24xi1>) {scale = "
                             + SCALE + " : f32}", False),
}

DEFERRED_NOT_RAISED_CASES = {
    "deferred_norm_no_max": (DeferredNormNoMax(), RECT(),
                             "a softmax without its row max"),
    "deferred_norm_wrong_dim": (DeferredNormWrongDim(),
                                (t(B, H, L, D), t(B, H, L, D), t(B, H, L, D)),
                                "the softmax sum is over dimension 2, not the "
                                "key dimension 3"),
    "deferred_norm_other_sum": (DeferredNormOtherSum(),
                                RECT() + (t(B, H, L, LK),),
                                "exp(s - max) is multiplied before the row "
                                "sum"),
    "nan_to_num_softmax": (NanToNumSoftmax(),
                           RECT() + (keep_mask(B, 1, L, LK),),
                           "the probabilities have another user"),
}


# Session 51: the safe softmax written by the user from the boolean mask,
# where(keep.any(-1, keepdim=True), softmax(s), 0), and its near misses.
# Exported last, so that the seeds of the others stay.
def masked_scores(q, k, keep):
    """Q Kᵀ / sqrt(D) with the keys ~keep set to -inf (masked_fill), the
    start of every safe-softmax case below."""
    s = q @ k.transpose(-2, -1) / math.sqrt(D)
    return s.masked_fill(~keep, float("-inf"))


class SafeSoftmaxUser(torch.nn.Module):
    """Rows with no kept key zeroed by the user: where(keep.any(-1,
    keepdim=True), softmax(s), 0) after masked_fill(~keep, -inf)."""
    def forward(self, q, k, v, keep):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        p = torch.where(keep.any(-1, keepdim=True), p, 0.0)
        return p @ v


class SafeSoftmaxUserNegated(torch.nn.Module):
    """The same select written where(~keep.any(-1, keepdim=True), 0, p)."""
    def forward(self, q, k, v, keep):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        p = torch.where(~keep.any(-1, keepdim=True), 0.0, p)
        return p @ v


class SafeSoftmaxOverQueries(torch.nn.Module):
    """where(keep.any(-2, keepdim=True), p, 0): any() over the queries,
    which zeroes columns, not rows."""
    def forward(self, q, k, v, keep):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        return torch.where(keep.any(-2, keepdim=True), p, 0.0) @ v


class SafeSoftmaxAll(torch.nn.Module):
    """where(keep.all(-1, keepdim=True), p, 0): zeroes every row with a
    masked key."""
    def forward(self, q, k, v, keep):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        return torch.where(keep.all(-1, keepdim=True), p, 0.0) @ v


class SafeSoftmaxOtherMask(torch.nn.Module):
    """Scores masked with one mask, rows zeroed by any() of another."""
    def forward(self, q, k, v, keep, other):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        return torch.where(other.any(-1, keepdim=True), p, 0.0) @ v


class SafeSoftmaxExtraKeys(torch.nn.Module):
    """Rows zeroed by any() of the mask with extra entries, keep | extra:
    a row whose keys are all masked may keep its NaN."""
    def forward(self, q, k, v, keep, extra):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        return torch.where((keep | extra).any(-1, keepdim=True), p, 0.0) @ v


class SafeSoftmaxNegatedAny(torch.nn.Module):
    """where((~keep).any(-1, keepdim=True), p, 0): any() of the masked
    keys, not of the kept ones."""
    def forward(self, q, k, v, keep):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        return torch.where((~keep).any(-1, keepdim=True), p, 0.0) @ v


class SafeSoftmaxFill(torch.nn.Module):
    """where(keep.any(-1, keepdim=True), p, 0.5): a nonzero fill."""
    def forward(self, q, k, v, keep):
        p = torch.softmax(masked_scores(q, k, keep), -1)
        return torch.where(keep.any(-1, keepdim=True), p, 0.5) @ v


class SafeSoftmaxScores(torch.nn.Module):
    """The select on the scores, where(keep.any(-1, keepdim=True), s, 0):
    a row with no kept key gets uniform probabilities, not zeros."""
    def forward(self, q, k, v, keep):
        s = masked_scores(q, k, keep)
        s = torch.where(keep.any(-1, keepdim=True), s, 0.0)
        return torch.softmax(s, -1) @ v


class SafeSoftmaxCausalOnly(torch.nn.Module):
    """Causal scores (from aranges) and rows zeroed by any() of a mask that
    does not mask them."""
    def forward(self, q, k, v, keep):
        n = q.shape[2]
        i = torch.arange(n)[:, None]
        j = torch.arange(n)[None, :]
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        p = torch.softmax(s.masked_fill(j > i, float("-inf")), -1)
        return torch.where(keep.any(-1, keepdim=True), p, 0.0) @ v


SAFE_SOFTMAX_CASES = {
    "safe_softmax_user": (SafeSoftmaxUser(),
                          RECT() + (keep_mask(B, 1, L, LK),),
                          "mask({{.*}} : tensor<2x1x16x24xi1>) {scale = "
                          + SCALE + " : f32}", True),
    # A padding mask [B, 1, 1, Lk]: a sequence with no kept key is zeroed.
    "safe_softmax_user_padding": (SafeSoftmaxUser(),
                                  RECT() + (keep_mask(B, 1, 1, LK),),
                                  "mask({{.*}} : tensor<2x1x1x24xi1>) "
                                  "{scale = " + SCALE + " : f32}", True),
    "safe_softmax_user_negated": (SafeSoftmaxUserNegated(),
                                  RECT() + (keep_mask(B, 1, L, LK),),
                                  "mask({{.*}} : tensor<2x1x16x24xi1>) "
                                  "{scale = " + SCALE + " : f32}", True),
}

# The remark of a select whose any() reads another tensor than the mask
# (another mask, keep | extra, ~keep).
NOT_THE_MASK = ("a select zeroes the rows of the probabilities where any() of "
                "a boolean tensor over the keys is false, and that tensor is "
                "not the boolean mask that excludes the scores")

SAFE_SOFTMAX_NOT_RAISED_CASES = {
    "safe_softmax_over_queries": (SafeSoftmaxOverQueries(),
                                  RECT() + (keep_mask(B, 1, L, LK),),
                                  "a select keeps the probabilities by any() "
                                  "of a boolean tensor over a dimension other "
                                  "than the keys"),
    "safe_softmax_all": (SafeSoftmaxAll(), RECT() + (keep_mask(B, 1, L, LK),),
                         "a select keeps the rows of the probabilities where "
                         "all() of a boolean tensor holds, not any()"),
    "safe_softmax_other_mask": (SafeSoftmaxOtherMask(),
                                RECT() + (keep_mask(B, 1, L, LK),
                                          keep_mask(B, 1, L, LK)),
                                NOT_THE_MASK),
    "safe_softmax_extra_keys": (SafeSoftmaxExtraKeys(),
                                RECT() + (keep_mask(B, 1, L, LK),
                                          keep_mask(B, 1, L, LK)),
                                NOT_THE_MASK),
    "safe_softmax_negated_any": (SafeSoftmaxNegatedAny(),
                                 RECT() + (keep_mask(B, 1, L, LK),),
                                 NOT_THE_MASK),
    "safe_softmax_fill": (SafeSoftmaxFill(),
                          RECT() + (keep_mask(B, 1, L, LK),),
                          "a select sets whole rows of the probabilities to "
                          "0.5, not 0"),
    "safe_softmax_scores": (SafeSoftmaxScores(),
                            RECT() + (keep_mask(B, 1, L, LK),),
                            "a select sets whole rows of the scores to 0"),
    "safe_softmax_causal_only": (SafeSoftmaxCausalOnly(),
                                 SQUARE() + (keep_mask(B, 1, L, L),),
                                 "a select zeroes the rows of the "
                                 "probabilities where any() of a boolean "
                                 "tensor over the keys is false, but no "
                                 "boolean mask tensor excludes the scores"),
}


def safe_softmax_dynamic_cases():
    """The user's safe softmax at run-time sizes: the proof's draw with one
    key masks about a fifth of the rows whole, which the select zeroes."""
    batch, q_len, kv_len = qkv_dims()
    qkv = {"q": {0: batch, 2: q_len}, "k": {0: batch, 2: kv_len},
           "v": {0: batch, 2: kv_len}}
    return {
        "safe_softmax_user_dynamic": (
            SafeSoftmaxUser(), RECT() + (keep_mask(B, 1, L, LK),),
            dict(qkv, keep={0: batch, 2: q_len, 3: kv_len}),
            "mask({{.*}} : tensor<?x1x?x?xi1>) {scale = " + SCALE + " : f32}",
            True, with_mask(qkv_shapes(H),
                            lambda b, lq, lk: f"{b}x1x{lq}x{lk}")),
    }


def export_static(out, cases, seed):
    for name, (module, args, expected, leftovers, *options) in cases.items():
        for kind in ("linalg-on-tensors", "tosa"):
            if kind == "tosa" and name in LINALG_ONLY:
                continue
            m = fx.export_and_import(module, *args, output_type=kind,
                                     func_name=name)
            path = os.path.join(out, f"{name}.{kind.split('-')[0]}.mlir")
            with open(path, "w") as f:
                f.write(header(cases, name, kind, expected, leftovers, seed,
                               *options))
                f.write(str(m))
            seed += 1
            print(f"export_torch_mlir_cases: wrote {path}")
    return seed


def export_not_raised(out):
    """A case that is not raised, and the remark that says why."""
    name = "bias_before_scale"
    m = fx.export_and_import(BiasBeforeScale(), t(B, H, L, D),
                             t(B, H, LK, D), t(B, H, LK, D), t(B, 1, L, LK),
                             output_type="linalg-on-tensors", func_name=name)
    path = os.path.join(out, f"{name}.linalg.mlir")
    with open(path, "w") as f:
        f.write("\n".join([
            f"// {name} (BiasBeforeScale: {BiasBeforeScale.__doc__}), "
            "exported by",
            "// scripts/export_torch_mlir_cases.py (torch "
            f"{torch.__version__}, torch_mlir.fx, output linalg-on-tensors).",
            "// Not raised: (s + m) / c is not s / c + m / c bit for bit, and "
            "the op",
            "// adds its bias after the scale; explain says so.",
            "// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | "
            "FileCheck %s",
            "// CHECK: remark: attn-fuse: not fused: the scores are not a "
            "Q·Kᵀ contraction: an addition of the scores is left",
            "// CHECK-NOT: attn.attention",
        ]) + "\n")
        f.write(str(m))
    print(f"export_torch_mlir_cases: wrote {path}")


def export_not_raised_cases(out, seed, cases=None, op="attn.attention"):
    """Near misses, linalg and TOSA: left alone (with explain's remark) and
    still computing what they did (attn-raise-check without
    --require-raised)."""
    cases = NOT_RAISED_CASES if cases is None else cases
    for name, (module, args, remark) in cases.items():
        doc = " ".join((module.__doc__ or "").split())
        for kind in ("linalg-on-tensors", "tosa"):
            m = fx.export_and_import(module, *args, output_type=kind,
                                     func_name=name)
            path = os.path.join(out, f"{name}.{kind.split('-')[0]}.mlir")
            lines = [
                f"// {name} ({type(module).__name__}: {doc}), exported by",
                "// scripts/export_torch_mlir_cases.py (torch "
                f"{torch.__version__}, torch_mlir.fx, output {kind}).",
                "// Not raised, and attn-raise-check proves the chain intact.",
                "// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | "
                "FileCheck %s",
                f"// RUN: attn-raise-check %s --runs=1 --seed={seed} | "
                "FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL",
            ]
            if remark:
                lines.append(f"// CHECK: remark: attn-fuse: not fused: {remark}")
            lines += [f"// CHECK-NOT: {op}",
                      f"// PROOF: @{name}: 0 attn.attention after the raising",
                      "// PROOF: run 0 result 0 {{.*}}: PASS"]
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
                f.write(str(m))
            seed += 1
            print(f"export_torch_mlir_cases: wrote {path}")
    return seed


def export_dynamic(out, seed, cases):
    for name, (module, args, dims, expected, leftovers,
               shapes) in cases.items():
        m = fx.export_and_import(module, *args, output_type="linalg-on-tensors",
                                 func_name=name, dynamic_shapes=dims)
        path = os.path.join(out, f"{name}.linalg.mlir")
        with open(path, "w") as f:
            f.write(dynamic_header(name, module, expected, leftovers, shapes,
                                   seed))
            f.write(str(m))
        seed += 1
        print(f"export_torch_mlir_cases: wrote {path}")
    return seed


def main(out):
    os.makedirs(out, exist_ok=True)
    seed = export_static(out, CASES, 1)
    seed = export_dynamic(out, seed, dynamic_cases())
    seed = export_static(out, FAMILY_CASES, seed)
    seed = export_static(out, DECODE_CASES, seed)
    seed = export_dynamic(out, seed, einsum_dynamic_cases())
    seed = export_static(out, EINSUM_CASES, seed)
    export_not_raised(out)
    seed = export_static(out, SWEEP_CASES, seed)
    seed = export_not_raised_cases(out, seed)
    seed = export_static(out, LATE_CASES, seed)
    seed = export_static(out, DEFERRED_CASES, seed)
    # (The remark on a softmax without its row max names attn.attention.)
    seed = export_not_raised_cases(out, seed, DEFERRED_NOT_RAISED_CASES,
                                   "= attn.attention")
    seed = export_static(out, SAFE_SOFTMAX_CASES, seed)
    seed = export_dynamic(out, seed, safe_softmax_dynamic_cases())
    # (So do the remarks on the safe softmax's select.)
    export_not_raised_cases(out, seed, SAFE_SOFTMAX_NOT_RAISED_CASES,
                            "= attn.attention")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
