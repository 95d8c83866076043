// Issue 20: backward groups whose batch and sequence lengths are dynamic in
// the IR take them at run time, like the forward kernels
// (ptxas-runtime-sizes.mlir): every kernel of the group has the trailing i32
// parameters batch, query_len, key_len (the dynamic ones) after its
// outputs, null in the manifest's sizes, shapes and grid, and workspaces
// whose run-time query-row dimension is the query length rounded up to
// "query_len_multiple" (docs/kernel-manifest.md, "Run-time sizes"). One
// training step per backward family: the atomic-dQ group with the wgmma
// key-block kernel (GQA, key-padding mask; with dropout at D = 64), the
// deterministic group (prep, dkdv, dq), the mma.sync group at a padded head
// dim (D = 96, window + softcap), the split key-block kernel (D = 192,
// Dv = 128: key_block_parts 2, static batch), the CUDA-core group (f32,
// additive mask). Every kernel assembles with ptxas without spilling on
// sm_90a and sm_80, and kernels-runtime's manifest check accepts the
// manifest. Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx 2>/dev/null | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx 2>/dev/null | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID

// COMPILE90: (23 kernels, sm_90a, 32-bit indices)
// COMPILE80: (23 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-23: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 23 kernels for

// The first backward kernel (keys sorted by llvm::json): the prep stage of
// the atomic group, its workspaces padded to 64 query rows, the sizes last.
// MANIFEST: "name": "attn_bwd_prep_0",
// MANIFEST: "name": "row_dot",
// MANIFEST-NEXT: "query_len_multiple": 64,
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: null
// MANIFEST: "name": "dq_accum",
// MANIFEST-NEXT: "query_len_multiple": 64,
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "batch"
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "query_len"
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "key_len"
// MANIFEST: "query_len": null,
// MANIFEST: "stage": "prep"
// The key-block kernel's grid: null blocks over the keys, the kv heads, a
// null batch.
// MANIFEST: "grid": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: null
// MANIFEST: "name": "attn_bwd_dkdv_dq_0",
// MANIFEST: "name": "grad_key",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 128

func.func @gqa_mask(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x2x?x128xbf16>, %v: tensor<?x2x?x128xbf16>, %do: tensor<?x8x?x128xbf16>, %m: tensor<?x1x1x?xi1>) -> (tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>, tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>) mask(%m : tensor<?x1x1x?xi1>) -> tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>) forward(%o, %l : tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>) grad_output(%do : tensor<?x8x?x128xbf16>) mask(%m : tensor<?x1x1x?xi1>) -> tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>, tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>
}

func.func @d64_deterministic(%q: tensor<?x4x?x64xf16>, %k: tensor<?x4x?x64xf16>, %v: tensor<?x4x?x64xf16>, %do: tensor<?x4x?x64xf16>) -> (tensor<?x4x?x64xf16>, tensor<?x4x?xf32>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) {causal = #attn.causal<top_left>} -> tensor<?x4x?x64xf16>, tensor<?x4x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) forward(%o, %l : tensor<?x4x?x64xf16>, tensor<?x4x?xf32>) grad_output(%do : tensor<?x4x?x64xf16>) {causal = #attn.causal<top_left>, deterministic} -> tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<?x4x?x64xf16>, tensor<?x4x?xf32>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>
}

func.func @d96_window_softcap(%q: tensor<?x4x?x96xbf16>, %k: tensor<?x2x?x96xbf16>, %v: tensor<?x2x?x96xbf16>, %do: tensor<?x4x?x96xbf16>) -> (tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>, tensor<?x4x?x96xbf16>, tensor<?x2x?x96xbf16>, tensor<?x2x?x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x4x?x96xbf16>, tensor<?x2x?x96xbf16>, tensor<?x2x?x96xbf16>) {window = array<i64: 64, 0>, softcap = 30.0 : f32} -> tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x4x?x96xbf16>, tensor<?x2x?x96xbf16>, tensor<?x2x?x96xbf16>) forward(%o, %l : tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>) grad_output(%do : tensor<?x4x?x96xbf16>) {window = array<i64: 64, 0>, softcap = 30.0 : f32} -> tensor<?x4x?x96xbf16>, tensor<?x2x?x96xbf16>, tensor<?x2x?x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>, tensor<?x4x?x96xbf16>, tensor<?x2x?x96xbf16>, tensor<?x2x?x96xbf16>
}

func.func @mla_192_128(%q: tensor<2x4x?x192xbf16>, %k: tensor<2x4x?x192xbf16>, %v: tensor<2x4x?x128xbf16>, %do: tensor<2x4x?x128xbf16>) -> (tensor<2x4x?x128xbf16>, tensor<2x4x?xf32>, tensor<2x4x?x192xbf16>, tensor<2x4x?x192xbf16>, tensor<2x4x?x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x?x192xbf16>, tensor<2x4x?x192xbf16>, tensor<2x4x?x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x?x128xbf16>, tensor<2x4x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x?x192xbf16>, tensor<2x4x?x192xbf16>, tensor<2x4x?x128xbf16>) forward(%o, %l : tensor<2x4x?x128xbf16>, tensor<2x4x?xf32>) grad_output(%do : tensor<2x4x?x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x?x192xbf16>, tensor<2x4x?x192xbf16>, tensor<2x4x?x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x?x128xbf16>, tensor<2x4x?xf32>, tensor<2x4x?x192xbf16>, tensor<2x4x?x192xbf16>, tensor<2x4x?x128xbf16>
}

func.func @d64_dropout(%q: tensor<?x4x?x64xf16>, %k: tensor<?x4x?x64xf16>, %v: tensor<?x4x?x64xf16>, %do: tensor<?x4x?x64xf16>, %s: i64, %off: i64) -> (tensor<?x4x?x64xf16>, tensor<?x4x?xf32>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<?x4x?x64xf16>, tensor<?x4x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) forward(%o, %l : tensor<?x4x?x64xf16>, tensor<?x4x?xf32>) grad_output(%do : tensor<?x4x?x64xf16>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<?x4x?x64xf16>, tensor<?x4x?xf32>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>
}

func.func @f32_bias(%q: tensor<?x2x?x64xf32>, %k: tensor<?x2x?x64xf32>, %v: tensor<?x2x?x64xf32>, %do: tensor<?x2x?x64xf32>, %m: tensor<?x1x?x?xf32>) -> (tensor<?x2x?x64xf32>, tensor<?x2x?xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>) mask(%m : tensor<?x1x?x?xf32>) -> tensor<?x2x?x64xf32>, tensor<?x2x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>) forward(%o, %l : tensor<?x2x?x64xf32>, tensor<?x2x?xf32>) grad_output(%do : tensor<?x2x?x64xf32>) mask(%m : tensor<?x1x?x?xf32>) -> tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>
  return %o, %l, %dq, %dk, %dv : tensor<?x2x?x64xf32>, tensor<?x2x?xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>
}
