// Issue 21: the paged key/value cache's split-KV groups
// (docs/kernel-manifest.md, "Paged key/value caches"). One op per family:
// GQA decoding with pages of 16 (a table read per copied row), 64 and 256
// (one per tile), speculative decoding (Lq = 16) top-left causal, a padded
// head dim (D = 80) with a window, softcap in f16, D = 256, MLA-style
// D = 192 / Dv = 128. Each assembles with ptxas without spilling on sm_90a
// and sm_80, and kernels-runtime's manifest check accepts the manifest.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID

// COMPILE90: (16 kernels, sm_90a, 32-bit indices)
// COMPILE80: (16 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-16: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 16 kernels for

// The first group's split_kv entry (keys sorted by llvm::json).
// MANIFEST: "group": "attn_fwd_0",
// MANIFEST: "key_len": null,
// MANIFEST: "max_pages_per_seq": 300,
// MANIFEST: "name": "attn_fwd_split_kv_0",
// MANIFEST: "num_pages": 700,
// MANIFEST: "op": "paged_attention",
// MANIFEST: "page_size": 16,
// MANIFEST: "name": "key_cache",
// MANIFEST: "name": "value_cache",
// MANIFEST: "name": "block_table",
// MANIFEST: "name": "cache_seqlens",
// MANIFEST: "name": "partial_output",
// MANIFEST: "stage": "split_kv",
// MANIFEST: "name": "attn_fwd_combine_0",
// MANIFEST: "stage": "combine",

func.func @gqa4_ps16(%q: tensor<4x32x1x128xbf16>, %kc: tensor<700x16x8x128xbf16>, %vc: tensor<700x16x8x128xbf16>, %t: tensor<4x300xi32>, %n: tensor<4xi32>) -> (tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<4x32x1x128xbf16>) cache(%kc, %vc : tensor<700x16x8x128xbf16>, tensor<700x16x8x128xbf16>) pages(%t, %n : tensor<4x300xi32>, tensor<4xi32>) {causal = #attn.causal<bottom_right>} -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
  return %o, %l : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
}

func.func @gqa4_ps64(%q: tensor<3x16x1x128xbf16>, %kc: tensor<200x64x4x128xbf16>, %vc: tensor<200x64x4x128xbf16>, %t: tensor<3x90xi32>, %n: tensor<3xi32>) -> (tensor<3x16x1x128xbf16>, tensor<3x16x1xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<3x16x1x128xbf16>) cache(%kc, %vc : tensor<200x64x4x128xbf16>, tensor<200x64x4x128xbf16>) pages(%t, %n : tensor<3x90xi32>, tensor<3xi32>) {causal = #attn.causal<bottom_right>} -> tensor<3x16x1x128xbf16>, tensor<3x16x1xf32>
  return %o, %l : tensor<3x16x1x128xbf16>, tensor<3x16x1xf32>
}

func.func @gqa8_ps256(%q: tensor<2x8x1x128xf16>, %kc: tensor<60x256x1x128xf16>, %vc: tensor<60x256x1x128xf16>, %t: tensor<2x40xi32>, %n: tensor<2xi32>) -> (tensor<2x8x1x128xf16>) {
  %o = attn.paged_attention ins(%q : tensor<2x8x1x128xf16>) cache(%kc, %vc : tensor<60x256x1x128xf16>, tensor<60x256x1x128xf16>) pages(%t, %n : tensor<2x40xi32>, tensor<2xi32>) -> tensor<2x8x1x128xf16>
  return %o : tensor<2x8x1x128xf16>
}

func.func @lq16_topleft(%q: tensor<2x16x16x128xbf16>, %kc: tensor<90x64x2x128xbf16>, %vc: tensor<90x64x2x128xbf16>, %t: tensor<2x50xi32>, %n: tensor<2xi32>) -> (tensor<2x16x16x128xbf16>, tensor<2x16x16xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<2x16x16x128xbf16>) cache(%kc, %vc : tensor<90x64x2x128xbf16>, tensor<90x64x2x128xbf16>) pages(%t, %n : tensor<2x50xi32>, tensor<2xi32>) {causal = #attn.causal<top_left>} -> tensor<2x16x16x128xbf16>, tensor<2x16x16xf32>
  return %o, %l : tensor<2x16x16x128xbf16>, tensor<2x16x16xf32>
}

func.func @d80_window_ps16(%q: tensor<2x8x4x80xbf16>, %kc: tensor<200x16x2x80xbf16>, %vc: tensor<200x16x2x80xbf16>, %t: tensor<2x60xi32>, %n: tensor<2xi32>) -> (tensor<2x8x4x80xbf16>, tensor<2x8x4xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<2x8x4x80xbf16>) cache(%kc, %vc : tensor<200x16x2x80xbf16>, tensor<200x16x2x80xbf16>) pages(%t, %n : tensor<2x60xi32>, tensor<2xi32>) {causal = #attn.causal<bottom_right>, window = array<i64: 100, 0>} -> tensor<2x8x4x80xbf16>, tensor<2x8x4xf32>
  return %o, %l : tensor<2x8x4x80xbf16>, tensor<2x8x4xf32>
}

func.func @d64_softcap_ps32(%q: tensor<2x4x3x64xf16>, %kc: tensor<70x32x2x64xf16>, %vc: tensor<70x32x2x64xf16>, %t: tensor<2x32xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x64xf16>, tensor<2x4x3xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<2x4x3x64xf16>) cache(%kc, %vc : tensor<70x32x2x64xf16>, tensor<70x32x2x64xf16>) pages(%t, %n : tensor<2x32xi32>, tensor<2xi32>) {causal = #attn.causal<bottom_right>, softcap = 30.0 : f32} -> tensor<2x4x3x64xf16>, tensor<2x4x3xf32>
  return %o, %l : tensor<2x4x3x64xf16>, tensor<2x4x3xf32>
}

func.func @d256_ps32(%q: tensor<1x8x2x256xbf16>, %kc: tensor<300x32x2x256xbf16>, %vc: tensor<300x32x2x256xbf16>, %t: tensor<1x170xi32>, %n: tensor<1xi32>) -> (tensor<1x8x2x256xbf16>, tensor<1x8x2xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<1x8x2x256xbf16>) cache(%kc, %vc : tensor<300x32x2x256xbf16>, tensor<300x32x2x256xbf16>) pages(%t, %n : tensor<1x170xi32>, tensor<1xi32>) {causal = #attn.causal<bottom_right>} -> tensor<1x8x2x256xbf16>, tensor<1x8x2xf32>
  return %o, %l : tensor<1x8x2x256xbf16>, tensor<1x8x2xf32>
}

func.func @mla_192_128(%q: tensor<2x16x1x192xbf16>, %kc: tensor<120x64x1x192xbf16>, %vc: tensor<120x64x1x128xbf16>, %t: tensor<2x55xi32>, %n: tensor<2xi32>) -> (tensor<2x16x1x128xbf16>, tensor<2x16x1xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<2x16x1x192xbf16>) cache(%kc, %vc : tensor<120x64x1x192xbf16>, tensor<120x64x1x128xbf16>) pages(%t, %n : tensor<2x55xi32>, tensor<2xi32>) -> tensor<2x16x1x128xbf16>, tensor<2x16x1xf32>
  return %o, %l : tensor<2x16x1x128xbf16>, tensor<2x16x1xf32>
}
