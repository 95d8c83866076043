// Issue 20: kernels whose batch and sequence lengths are dynamic in the IR
// take them at run time (i32 parameters batch, query_len, key_len after the
// others; null in the manifest's sizes, shapes and grid;
// docs/kernel-manifest.md, "Run-time sizes"). One op per kernel family:
// the wgmma forward (key-padding mask; window + softcap at a padded head
// dim), the mma.sync forward (dropout; D = 32 with GQA; decoding with a
// static Lq = 1, bottom-right causal), the CUDA-core forward (f32, additive
// mask). The decoding op is compiled with --split-kv=off here: by default
// it becomes the split-KV group with the chunk count decided at launch
// (ptxas-split-kv-at-launch.mlir). A run-time key length compiles the body
// twice (TensorCoreEmitter::emit: key lengths that are a multiple of the key
// block, and the others).
// Each assembles with ptxas without spilling on sm_90a and sm_80, and
// kernels-runtime's manifest check accepts the manifest. Needs only the
// CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --split-kv=off -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 --split-kv=off -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID

// Run-time sizes keep 32-bit indices (the runtime refuses sizes that give a
// tensor 2^31 elements or more).
// COMPILE90: (6 kernels, sm_90a, 32-bit indices)
// COMPILE80: (6 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-6: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 6 kernels for

// The first kernel's manifest entry (keys sorted by llvm::json): null sizes
// and grid entries, the size parameters last, as i32.
// MANIFEST: "index_bits": 32,
// MANIFEST: "batch": null,
// MANIFEST: "grid": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: null
// MANIFEST: "key_len": null,
// MANIFEST: "mask": {
// MANIFEST-NEXT: "dtype": "i1",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: null
// MANIFEST: "name": "attn_fwd_0",
// MANIFEST: "name": "query",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 128
// MANIFEST: "name": "lse",
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "batch"
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "query_len"
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "name": "key_len"
// MANIFEST: "query_len": null,
// The decoding kernel: a static Lq = 1, run-time batch and key length.
// MANIFEST: "name": "attn_fwd_5",
// MANIFEST: "query_len": 1,

// The sizes, then the wgmma kernel's TMA tensor maps (query, key, value).
// PTX: .entry attn_fwd_0(
// PTX-COUNT-6: .param .u64 .ptr
// PTX-NEXT: .param .u32 attn_fwd_0_param_6,
// PTX-NEXT: .param .u32 attn_fwd_0_param_7,
// PTX-NEXT: .param .u32 attn_fwd_0_param_8,
// PTX-NEXT: .param .align 64 .b8 attn_fwd_0_param_9[128],
// PTX-NEXT: .param .align 64 .b8 attn_fwd_0_param_10[128],
// PTX-NEXT: .param .align 64 .b8 attn_fwd_0_param_11[128]
// PTX-NEXT: )

func.func @wgmma_mask(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x2x?x128xbf16>, %v: tensor<?x2x?x128xbf16>, %m: tensor<?x1x1x?xi1>) -> (tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x8x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>) mask(%m : tensor<?x1x1x?xi1>) -> tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>
}

func.func @wgmma_d80_window_softcap(%q: tensor<2x4x?x80xf16>, %k: tensor<2x4x?x80xf16>, %v: tensor<2x4x?x80xf16>) -> tensor<2x4x?x80xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x?x80xf16>, tensor<2x4x?x80xf16>, tensor<2x4x?x80xf16>) {window = array<i64: 256, 0>, softcap = 30.0 : f32} -> tensor<2x4x?x80xf16>
  return %o : tensor<2x4x?x80xf16>
}

func.func @mma_dropout(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>, %v: tensor<?x4x?x64xbf16>, %s: i64, %off: i64) -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32, causal = #attn.causal<top_left>} -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}

func.func @d32_gqa(%q: tensor<?x8x?x32xbf16>, %k: tensor<?x1x?x32xbf16>, %v: tensor<?x1x?x32xbf16>) -> tensor<?x8x?x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x8x?x32xbf16>, tensor<?x1x?x32xbf16>, tensor<?x1x?x32xbf16>) -> tensor<?x8x?x32xbf16>
  return %o : tensor<?x8x?x32xbf16>
}

func.func @f32_cuda_core(%q: tensor<?x2x?x64xf32>, %k: tensor<?x2x?x64xf32>, %v: tensor<?x2x?x64xf32>, %m: tensor<?x1x?x?xf32>) -> (tensor<?x2x?x64xf32>, tensor<?x2x?xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>) mask(%m : tensor<?x1x?x?xf32>) -> tensor<?x2x?x64xf32>, tensor<?x2x?xf32>
  return %o, %lse : tensor<?x2x?x64xf32>, tensor<?x2x?xf32>
}

func.func @decode(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> (tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
}
