// Issue 23: the wgmma forward with TMA loads (--tma=on): the producer's
// thread 0 loads Q and the K tiles, thread 64 the V tiles, one
// cp.async.bulk.tensor.4d per 64-column SW128 panel, through tensor maps
// the runtime encodes at launch and passes by value after every other
// parameter (docs/kernel-manifest.md, "TMA tensor maps"). Variants: GQA
// with bottom-right causal and lse at a ragged length; run-time sizes with
// a key-padding mask; D = 80 (the second panel half outside the tensor,
// zero-filled by TMA) with a window and softcap; D = 256 causal; D = 192
// with Dv = 128; f16 at D = 64. Each assembles with ptxas without
// spilling, and kernels-runtime's manifest check accepts the manifest. A
// packed batch's [T, H, D] tensors take one cp.async.bulk.tensor.3d per
// panel of one head's tokens, coordinates (column, head, token), boxes
// [64, 1, rows] (since session 52; before, cp.async).
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --tma=on -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: attn-manifest-check %t.json | FileCheck %s --check-prefix=VALID

// COMPILE: (7 kernels, sm_90a, 32-bit indices)
// CHECK-COUNT-7: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 7 kernels for

// The tensor maps are the last three parameters, 128 bytes each, 64-byte
// aligned, addressed through cvta.param; every fill arrives with its
// bytes (Q: 128 rows x 128 columns x 2 bytes).
// PTX-LABEL: .entry attn_fwd_0(
// PTX: .param .align 64 .b8 attn_fwd_0_param_5[128],
// PTX-NEXT: .param .align 64 .b8 attn_fwd_0_param_6[128],
// PTX-NEXT: .param .align 64 .b8 attn_fwd_0_param_7[128]
// PTX-NEXT: )
// PTX: mov.b32 [[TX:%r[0-9]+]], 32768;
// PTX: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], [[TX]];
// PTX: cvta.param.u64
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-LABEL: .entry attn_fwd_6(
// PTX: .param .align 64 .b8 attn_fwd_6_param_{{[0-9]+}}[128],
// PTX-NEXT: .param .align 64 .b8 attn_fwd_6_param_{{[0-9]+}}[128],
// PTX-NEXT: .param .align 64 .b8 attn_fwd_6_param_{{[0-9]+}}[128]
// PTX-NEXT: )
// PTX-NOT: cp.async.cg.shared.global
// PTX-NOT: cp.async.bulk.tensor.4d
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// PTX-NOT: cp.async.cg.shared.global
// PTX-NOT: cp.async.bulk.tensor.4d

// MANIFEST: "loads": "tma",
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "kind": "tensor_map",
// MANIFEST-NEXT: "name": "query_tensor_map",
// MANIFEST-NEXT: "swizzle": 128,
// MANIFEST-NEXT: "tensor": "query"
// MANIFEST: "name": "attn_fwd_6",
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 128
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "kind": "tensor_map",
// MANIFEST-NEXT: "name": "query_tensor_map",

func.func @gqa_causal(%q: tensor<2x16x1000x128xbf16>, %k: tensor<2x4x1000x128xbf16>, %v: tensor<2x4x1000x128xbf16>) -> (tensor<2x16x1000x128xbf16>, tensor<2x16x1000xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x16x1000x128xbf16>, tensor<2x4x1000x128xbf16>, tensor<2x4x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x16x1000x128xbf16>, tensor<2x16x1000xf32>
  return %o, %lse : tensor<2x16x1000x128xbf16>, tensor<2x16x1000xf32>
}

func.func @runtime_sizes_mask(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x2x?x128xbf16>, %v: tensor<?x2x?x128xbf16>, %m: tensor<?x1x1x?xi1>) -> tensor<?x8x?x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>) mask(%m : tensor<?x1x1x?xi1>) -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

func.func @d80_window_softcap(%q: tensor<2x4x700x80xf16>, %k: tensor<2x4x900x80xf16>, %v: tensor<2x4x900x80xf16>) -> tensor<2x4x700x80xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x700x80xf16>, tensor<2x4x900x80xf16>, tensor<2x4x900x80xf16>) {window = array<i64: 256, 0>, softcap = 30.0 : f32} -> tensor<2x4x700x80xf16>
  return %o : tensor<2x4x700x80xf16>
}

func.func @d256_causal(%q: tensor<1x8x1024x256xbf16>, %k: tensor<1x8x1024x256xbf16>, %v: tensor<1x8x1024x256xbf16>) -> tensor<1x8x1024x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x1024x256xbf16>, tensor<1x8x1024x256xbf16>, tensor<1x8x1024x256xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x8x1024x256xbf16>
  return %o : tensor<1x8x1024x256xbf16>
}

func.func @mla(%q: tensor<1x16x2048x192xbf16>, %k: tensor<1x16x2048x192xbf16>, %v: tensor<1x16x2048x128xbf16>) -> tensor<1x16x2048x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x16x2048x192xbf16>, tensor<1x16x2048x192xbf16>, tensor<1x16x2048x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x16x2048x128xbf16>
  return %o : tensor<1x16x2048x128xbf16>
}

func.func @f16_d64(%q: tensor<4x8x2048x64xf16>, %k: tensor<4x8x2048x64xf16>, %v: tensor<4x8x2048x64xf16>) -> tensor<4x8x2048x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<4x8x2048x64xf16>, tensor<4x8x2048x64xf16>, tensor<4x8x2048x64xf16>) -> tensor<4x8x2048x64xf16>
  return %o : tensor<4x8x2048x64xf16>
}

func.func @packed(%q: tensor<3000x8x128xbf16>, %k: tensor<3000x2x128xbf16>, %v: tensor<3000x2x128xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) -> tensor<3000x8x128xbf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<3000x8x128xbf16>, tensor<3000x2x128xbf16>, tensor<3000x2x128xbf16>) seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) {causal = #attn.causal<bottom_right>} -> tensor<3000x8x128xbf16>
  return %o : tensor<3000x8x128xbf16>
}
