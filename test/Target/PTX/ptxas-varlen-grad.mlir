// Issue 20: the backward groups of packed variable-length batches
// (attn.varlen_attention_grad; docs/kernel-manifest.md, "Packed backward
// kernels"), each compiled with its forward as a training pair: GQA with
// bottom-right causal and run-time batch and totals (sm_90a: the atomic
// group with the warp-specialized wgmma key-block kernel loading with TMA,
// since session 52; sm_80: prep, dkdv, dq), f16 D = 64 with static batch
// and totals (W a number), D = 96 with a window (padded to whole panels on
// wgmma), D = 192 with Dv = 128 (sm_90a: the head-split key-block kernel
// with its fused dQ; sm_80: the split dkdv kernel), and `deterministic` at
// D = 128 (the atomic-free group on sm_90a too). Each
// assembles with ptxas without spilling on sm_90a and sm_80, and
// kernels-runtime's manifest check accepts the manifest. (With dropout at
// D = 128 the dkdv_dq kernel spills 12 bytes on sm_90a and 44 on sm_80, as
// the dense one does: ptxas-tensor-core-grad-heavy.mlir bounds those.)
// Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID

// Five forward kernels and five groups of three.
// COMPILE90: (20 kernels, sm_90a, 32-bit indices)
// COMPILE80: (20 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-20: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 20 kernels for

// The static group's prep kernel (keys sorted by llvm::json): batch 3,
// grid x computed at launch, the training pair's forward named, the offsets
// after grad_output, workspaces of W = 4 ceil(300 / 4) + 68 * 3 = 504 rows
// per head.
// MANIFEST: "batch": 3,
// MANIFEST: "forward": "attn_fwd_1",
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 3
// MANIFEST: "name": "attn_bwd_prep_1",
// MANIFEST-NEXT: "op": "varlen_attention_grad",
// MANIFEST: "name": "grad_output",
// MANIFEST: "name": "cu_seqlens_q",
// MANIFEST: "name": "cu_seqlens_k",
// MANIFEST: "name": "row_dot",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 504
// MANIFEST: "stage": "prep",
// MANIFEST-NEXT: "total_key_tokens": 500,
// MANIFEST-NEXT: "total_query_tokens": 300,

func.func @gqa_causal(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %do: tensor<?x32x128xbf16>) -> (tensor<?x32x128xbf16>, tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x128xbf16>, tensor<32x?xf32>
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x32x128xbf16>, tensor<32x?xf32>) grad_output(%do : tensor<?x32x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>
  return %o, %dq, %dk, %dv : tensor<?x32x128xbf16>, tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>
}

func.func @d64_static(%q: tensor<300x4x64xf16>, %k: tensor<500x4x64xf16>, %v: tensor<500x4x64xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %do: tensor<300x4x64xf16>) -> (tensor<300x4x64xf16>, tensor<300x4x64xf16>, tensor<500x4x64xf16>, tensor<500x4x64xf16>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<300x4x64xf16>, tensor<500x4x64xf16>, tensor<500x4x64xf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<300x4x64xf16>, tensor<4x300xf32>
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<300x4x64xf16>, tensor<500x4x64xf16>, tensor<500x4x64xf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) forward(%o, %l : tensor<300x4x64xf16>, tensor<4x300xf32>) grad_output(%do : tensor<300x4x64xf16>) -> tensor<300x4x64xf16>, tensor<500x4x64xf16>, tensor<500x4x64xf16>
  return %o, %dq, %dk, %dv : tensor<300x4x64xf16>, tensor<300x4x64xf16>, tensor<500x4x64xf16>, tensor<500x4x64xf16>
}

func.func @d96_window(%q: tensor<?x8x96xbf16>, %k: tensor<?x4x96xbf16>, %v: tensor<?x4x96xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %do: tensor<?x8x96xbf16>) -> (tensor<?x8x96xbf16>, tensor<?x8x96xbf16>, tensor<?x4x96xbf16>, tensor<?x4x96xbf16>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x96xbf16>, tensor<?x4x96xbf16>, tensor<?x4x96xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>, window = array<i64: 200, 0>} -> tensor<?x8x96xbf16>, tensor<8x?xf32>
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x96xbf16>, tensor<?x4x96xbf16>, tensor<?x4x96xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x96xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x96xbf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 200, 0>} -> tensor<?x8x96xbf16>, tensor<?x4x96xbf16>, tensor<?x4x96xbf16>
  return %o, %dq, %dk, %dv : tensor<?x8x96xbf16>, tensor<?x8x96xbf16>, tensor<?x4x96xbf16>, tensor<?x4x96xbf16>
}

func.func @d192_dv128(%q: tensor<?x8x192xbf16>, %k: tensor<?x8x192xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %do: tensor<?x8x128xbf16>) -> (tensor<?x8x128xbf16>, tensor<?x8x192xbf16>, tensor<?x8x192xbf16>, tensor<?x8x128xbf16>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x192xbf16>, tensor<?x8x192xbf16>, tensor<?x8x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<top_left>} -> tensor<?x8x128xbf16>, tensor<8x?xf32>
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x192xbf16>, tensor<?x8x192xbf16>, tensor<?x8x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x128xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<?x8x192xbf16>, tensor<?x8x192xbf16>, tensor<?x8x128xbf16>
  return %o, %dq, %dk, %dv : tensor<?x8x128xbf16>, tensor<?x8x192xbf16>, tensor<?x8x192xbf16>, tensor<?x8x128xbf16>
}

func.func @deterministic(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %do: tensor<?x8x128xbf16>) -> (tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x8x128xbf16>, tensor<8x?xf32>
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x128xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x128xbf16>) {causal = #attn.causal<bottom_right>, deterministic} -> tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>
  return %o, %dq, %dk, %dv : tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>
}
