// Issue 20: the forward kernels of packed variable-length batches
// (attn.varlen_attention; docs/kernel-manifest.md, "Packed variable-length
// batches"): the tensor-core kernel reading each block's sequence from the
// offsets, token-major rows. One op per family: wgmma with GQA and
// bottom-right causal (run-time batch and totals, lse), Philox dropout
// (static batch and totals; wgmma with 64 keys per step on sm_90a), a padded head dim (D = 80, no
// lse), D = 256 with MQA and top-left causal, and a two-sided window
// without causal (f16 D = 64: one m-tile per warp on sm_80, where two
// spilled 32 bytes; tc::chooseTiling). Each assembles with ptxas
// without spilling on sm_90a and sm_80, and kernels-runtime's manifest
// check accepts the manifest. Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID

// COMPILE90: (5 kernels, sm_90a, 32-bit indices)
// COMPILE80: (5 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-5: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 5 kernels for

// The first kernel's entry (keys sorted by llvm::json): per-sequence
// lengths null, the token totals and batch null (run-time), grid x and z
// computed at launch, the offsets as i32 tensors after value, the lse
// [Hq, Tq], the run-time sizes last.
// MANIFEST: "batch": null,
// MANIFEST: "mma": "wgmma",
// MANIFEST: "grid": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 32,
// MANIFEST-NEXT: null
// MANIFEST: "key_len": null,
// MANIFEST: "op": "varlen_attention",
// MANIFEST: "name": "value",
// MANIFEST: "dtype": "i32",
// MANIFEST-NEXT: "kind": "tensor",
// MANIFEST-NEXT: "name": "cu_seqlens_q",
// MANIFEST: "name": "cu_seqlens_k",
// MANIFEST: "name": "lse",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 32,
// MANIFEST-NEXT: null
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "batch"
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "total_query_tokens"
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "total_key_tokens"
// MANIFEST: "query_len": null,
// MANIFEST: "total_key_tokens": null,
// MANIFEST: "total_query_tokens": null,
// The second kernel: static batch and totals, no size parameters.
// MANIFEST: "batch": 3,
// MANIFEST: "block_kv": 64,
// MANIFEST: "mma": "wgmma",
// MANIFEST: "op": "varlen_attention",
// MANIFEST-NOT: "kind": "i32"
// MANIFEST: "total_key_tokens": 500,
// MANIFEST: "total_query_tokens": 300,
func.func @gqa_causal(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x32x128xbf16>, tensor<32x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x128xbf16>, tensor<32x?xf32>
  return %o, %l : tensor<?x32x128xbf16>, tensor<32x?xf32>
}

func.func @dropout_static(%q: tensor<300x8x128xbf16>, %k: tensor<500x2x128xbf16>, %v: tensor<500x2x128xbf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %s: i64, %off: i64) -> (tensor<300x8x128xbf16>, tensor<8x300xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<300x8x128xbf16>, tensor<500x2x128xbf16>, tensor<500x2x128xbf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<300x8x128xbf16>, tensor<8x300xf32>
  return %o, %l : tensor<300x8x128xbf16>, tensor<8x300xf32>
}

func.func @padded_d80(%q: tensor<?x12x80xf16>, %k: tensor<?x4x80xf16>, %v: tensor<?x4x80xf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x12x80xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x12x80xf16>, tensor<?x4x80xf16>, tensor<?x4x80xf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) -> tensor<?x12x80xf16>
  return %o : tensor<?x12x80xf16>
}

func.func @mqa_d256(%q: tensor<?x4x256xbf16>, %k: tensor<?x1x256xbf16>, %v: tensor<?x1x256xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x4x256xbf16>, tensor<4x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x4x256xbf16>, tensor<?x1x256xbf16>, tensor<?x1x256xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<top_left>} -> tensor<?x4x256xbf16>, tensor<4x?xf32>
  return %o, %l : tensor<?x4x256xbf16>, tensor<4x?xf32>
}

func.func @window_both_f16(%q: tensor<?x8x64xf16>, %k: tensor<?x8x64xf16>, %v: tensor<?x8x64xf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x8x64xf16>, tensor<8x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x64xf16>, tensor<?x8x64xf16>, tensor<?x8x64xf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {window = array<i64: 33, 17>} -> tensor<?x8x64xf16>, tensor<8x?xf32>
  return %o, %l : tensor<?x8x64xf16>, tensor<8x?xf32>
}
