// The CUDA-core backward kernels (attn_bwd_dkdv_<n>, attn_bwd_dq_<n>,
// --kernel=cuda-core; the tensor-core pair has its own test,
// ptxas-tensor-core-grad.mlir) assemble with ptxas for sm_80 and sm_90a
// without spilling, across dtypes, head dims and score features. Needs only
// the CUDA toolkit, not a GPU.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --kernel=cuda-core -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --chip=sm_80 --kernel=cuda-core -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json

// One forward kernel (the first function) and two per gradient op.
// COMPILE: attn-compile: wrote {{.*}}.ptx and {{.*}}.json (17 kernels, sm_90a, 32-bit indices)
// PTX: .target sm_90a
// PTX: .visible .entry attn_fwd_0(
// PTX: .visible .entry attn_bwd_dkdv_0(
// PTX: .visible .entry attn_bwd_dq_0(
// PTX: .visible .entry attn_bwd_dkdv_6(
// PTX: .visible .entry attn_bwd_dq_6(
// PTX: .visible .entry attn_bwd_dkdv_7(
// PTX: .visible .entry attn_bwd_dq_7(
// PTX-NOT: atom.

// Every kernel: no spills.
// CHECK-COUNT-17: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// Manifest (docs/kernel-manifest.md, "Backward kernels"; keys are printed in
// sorted order): "op" on every entry; the gradient's entries name the forward
// kernel whose output and lse they consume, their stage, the launch grid
// (dkdv: key blocks x kv heads x batch; dq: query blocks x query heads x
// batch) and the parameters in ABI order.
// MANIFEST: "name": "attn_fwd_0",
// MANIFEST-NEXT: "op": "attention",
// No atomics: "deterministic" (bit-reproducible) although the op does not
// ask for it; both kernels of an op share a group.
// MANIFEST: "deterministic": true,
// MANIFEST: "forward": "attn_fwd_0",
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: 3,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 2
// MANIFEST: "group": "attn_bwd_0",
// MANIFEST: "has_lse": false,
// MANIFEST: "name": "attn_bwd_dkdv_0",
// MANIFEST-NEXT: "op": "attention_grad",
// MANIFEST-NEXT: "params": [
// MANIFEST: "name": "query",
// MANIFEST: "name": "key",
// MANIFEST: "name": "value",
// MANIFEST: "name": "output",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "lse",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "grad_output",
// MANIFEST: "kind": "u64",
// MANIFEST-NEXT: "name": "seed"
// MANIFEST: "kind": "u64",
// MANIFEST-NEXT: "name": "offset"
// MANIFEST: "name": "grad_key",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "name": "grad_value",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "stage": "dkdv",
// MANIFEST: "forward": "attn_fwd_0",
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 2
// MANIFEST: "name": "attn_bwd_dq_0",
// MANIFEST-NEXT: "op": "attention_grad",
// MANIFEST: "name": "grad_query",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "stage": "dq",
//   The second gradient op has no forward op in this file, and asks for
//   determinism (which every backward kernel provides).
// MANIFEST: "deterministic": true,
// MANIFEST-NOT: "forward"
// MANIFEST: "name": "attn_bwd_dkdv_1",

// bf16 D=64 GQA, bottom-right causal, dropout, with the forward in the same
// file (T = 2 threads per row).
func.func @gqa_causal_dropout(%q: tensor<2x8x128x64xbf16>, %k: tensor<2x2x192x64xbf16>, %v: tensor<2x2x192x64xbf16>, %do: tensor<2x8x128x64xbf16>, %s: i64, %off: i64) -> (tensor<2x8x128x64xbf16>, tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x8x128x64xbf16>, tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x128x64xbf16>, tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>) forward(%o, %lse : tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>) grad_output(%do : tensor<2x8x128x64xbf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<2x8x128x64xbf16>, tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x128x64xbf16>, tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>
}

// f16 D=128, window + softcap + boolean mask.
func.func @d128_f16_window_softcap_mask(%q: tensor<1x4x256x128xf16>, %k: tensor<1x4x256x128xf16>, %v: tensor<1x4x256x128xf16>, %o: tensor<1x4x256x128xf16>, %lse: tensor<1x4x256xf32>, %do: tensor<1x4x256x128xf16>, %m: tensor<1x1x256x256xi1>) -> (tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>) forward(%o, %lse : tensor<1x4x256x128xf16>, tensor<1x4x256xf32>) grad_output(%do : tensor<1x4x256x128xf16>) mask(%m : tensor<1x1x256x256xi1>) {window = array<i64: 64, 16>, softcap = 30.0 : f32, deterministic} -> tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>
  return %dq, %dk, %dv : tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>
}

// f32 D=64, additive broadcast mask, top-left causal, MQA, ragged lengths.
func.func @d64_f32_additive_mqa(%q: tensor<2x4x100x64xf32>, %k: tensor<2x1x77x64xf32>, %v: tensor<2x1x77x64xf32>, %o: tensor<2x4x100x64xf32>, %lse: tensor<2x4x100xf32>, %do: tensor<2x4x100x64xf32>, %m: tensor<2x1x1x77xf32>) -> (tensor<2x4x100x64xf32>, tensor<2x1x77x64xf32>, tensor<2x1x77x64xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x100x64xf32>, tensor<2x1x77x64xf32>, tensor<2x1x77x64xf32>) forward(%o, %lse : tensor<2x4x100x64xf32>, tensor<2x4x100xf32>) grad_output(%do : tensor<2x4x100x64xf32>) mask(%m : tensor<2x1x1x77xf32>) {causal = #attn.causal<top_left>} -> tensor<2x4x100x64xf32>, tensor<2x1x77x64xf32>, tensor<2x1x77x64xf32>
  return %dq, %dk, %dv : tensor<2x4x100x64xf32>, tensor<2x1x77x64xf32>, tensor<2x1x77x64xf32>
}

// bf16 D=128 (T = 4) with everything: GQA, f32 mask, bottom-right causal,
// window, softcap, dropout.
func.func @d128_everything(%q: tensor<1x8x512x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>, %o: tensor<1x8x512x128xbf16>, %lse: tensor<1x8x512xf32>, %do: tensor<1x8x512x128xbf16>, %m: tensor<1x1x512x512xf32>, %s: i64, %off: i64) -> (tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) forward(%o, %lse : tensor<1x8x512x128xbf16>, tensor<1x8x512xf32>) grad_output(%do : tensor<1x8x512x128xbf16>) mask(%m : tensor<1x1x512x512xf32>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>
  return %dq, %dk, %dv : tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>
}

// Decoding-shaped: Lq = 1, bf16 D=128, GQA, bottom-right causal.
func.func @decode_gqa(%q: tensor<4x32x1x128xbf16>, %k: tensor<4x8x1000x128xbf16>, %v: tensor<4x8x1000x128xbf16>, %o: tensor<4x32x1x128xbf16>, %lse: tensor<4x32x1xf32>, %do: tensor<4x32x1x128xbf16>) -> (tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>) forward(%o, %lse : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) grad_output(%do : tensor<4x32x1x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>
  return %dq, %dk, %dv : tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>
}

// f32 D=128: the 48 KiB shared-memory budget halves the staged tiles to 32
// rows (dkdv: query rows, dq: keys).
func.func @d128_f32(%q: tensor<1x2x96x128xf32>, %k: tensor<1x2x96x128xf32>, %v: tensor<1x2x96x128xf32>, %o: tensor<1x2x96x128xf32>, %lse: tensor<1x2x96xf32>, %do: tensor<1x2x96x128xf32>) -> (tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>) forward(%o, %lse : tensor<1x2x96x128xf32>, tensor<1x2x96xf32>) grad_output(%do : tensor<1x2x96x128xf32>) -> tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>
  return %dq, %dk, %dv : tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>, tensor<1x2x96x128xf32>
}

// Head dims that are not powers of two (D=80, Dv=48 in f16; T = 4).
func.func @odd_dims_f16(%q: tensor<1x3x50x80xf16>, %k: tensor<1x1x70x80xf16>, %v: tensor<1x1x70x48xf16>, %o: tensor<1x3x50x48xf16>, %lse: tensor<1x3x50xf32>, %do: tensor<1x3x50x48xf16>) -> (tensor<1x3x50x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x3x50x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>) forward(%o, %lse : tensor<1x3x50x48xf16>, tensor<1x3x50xf32>) grad_output(%do : tensor<1x3x50x48xf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 8, -1>} -> tensor<1x3x50x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>
  return %dq, %dk, %dv : tensor<1x3x50x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>
}

// bf16 D=256 (T = 8, 512 threads per block), top-left causal, MQA.
func.func @bf16_d256(%q: tensor<1x2x100x256xbf16>, %k: tensor<1x1x120x256xbf16>, %v: tensor<1x1x120x256xbf16>, %o: tensor<1x2x100x256xbf16>, %lse: tensor<1x2x100xf32>, %do: tensor<1x2x100x256xbf16>) -> (tensor<1x2x100x256xbf16>, tensor<1x1x120x256xbf16>, tensor<1x1x120x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x100x256xbf16>, tensor<1x1x120x256xbf16>, tensor<1x1x120x256xbf16>) forward(%o, %lse : tensor<1x2x100x256xbf16>, tensor<1x2x100xf32>) grad_output(%do : tensor<1x2x100x256xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x2x100x256xbf16>, tensor<1x1x120x256xbf16>, tensor<1x1x120x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x100x256xbf16>, tensor<1x1x120x256xbf16>, tensor<1x1x120x256xbf16>
}
