// The tensor-core backward pair (TensorCoreGradKernelBuilder.cpp) assembles
// with ptxas for sm_90a and sm_80 without spilling on the configurations the
// benchmark grid uses (D = 64 and 128, causal or not, GQA) and on the D = 64
// feature variants, the D = 128 additive mask and decoding. The D = 128
// variants that hold the most live values at once spill a few bytes; they
// are ptxas-tensor-core-grad-heavy.mlir. Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json

// COMPILE: attn-compile: wrote {{.*}} (16 kernels, sm_90a, 32-bit indices)
// CHECK-COUNT-16: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// Tensor cores, asynchronous copies, no atomics.
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: cp.async
// PTX-NOT: atom.
// Launch: 4 warps, dynamic shared memory (K, V + two Q/dO stages + lse/D rows
// for dkdv at D = 64: 6 * 64 * 72 * 2 + 512 bytes).
// MANIFEST: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "dynamic_shared_memory": 55808,
// MANIFEST: "stage": "dkdv"

func.func @d64_bf16(%q: tensor<2x8x192x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x192x64xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xbf16>) -> (tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x192x64xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xbf16>) -> tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}

func.func @d64_f16_causal_gqa(%q: tensor<2x8x192x64xf16>, %k: tensor<2x2x256x64xf16>, %v: tensor<2x2x256x64xf16>, %o: tensor<2x8x192x64xf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xf16>) -> (tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>) forward(%o, %lse : tensor<2x8x192x64xf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>
}

func.func @d128_bf16(%q: tensor<2x8x192x128xbf16>, %k: tensor<2x2x256x128xbf16>, %v: tensor<2x2x256x128xbf16>, %o: tensor<2x8x192x128xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x128xbf16>) -> (tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) forward(%o, %lse : tensor<2x8x192x128xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x128xbf16>) -> tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
}

func.func @d128_f16_causal(%q: tensor<2x8x192x128xf16>, %k: tensor<2x2x256x128xf16>, %v: tensor<2x2x256x128xf16>, %o: tensor<2x8x192x128xf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x128xf16>) -> (tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) forward(%o, %lse : tensor<2x8x192x128xf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x128xf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>
  return %dq, %dk, %dv : tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>
}

func.func @d64_dropout_causal(%q: tensor<2x8x192x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x192x64xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xbf16>, %s: i64, %f: i64) -> (tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x192x64xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xbf16>) rng(%s, %f) {dropout_p = 0.1 : f32, causal = #attn.causal<bottom_right>} -> tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}

func.func @d64_softcap_window(%q: tensor<2x8x192x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x192x64xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xbf16>) -> (tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x192x64xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xbf16>) {softcap = 30.0 : f32, window = array<i64: 100, 20>} -> tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}

func.func @d128_additive_causal(%q: tensor<2x8x192x128xbf16>, %k: tensor<2x2x256x128xbf16>, %v: tensor<2x2x256x128xbf16>, %o: tensor<2x8x192x128xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x128xbf16>, %m: tensor<1x8x1x256xbf16>) -> (tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) forward(%o, %lse : tensor<2x8x192x128xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x128xbf16>) mask(%m : tensor<1x8x1x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
}

func.func @d128_decode(%q: tensor<4x32x1x128xbf16>, %k: tensor<4x8x1000x128xbf16>, %v: tensor<4x8x1000x128xbf16>, %o: tensor<4x32x1x128xbf16>, %lse: tensor<4x32x1xf32>, %do: tensor<4x32x1x128xbf16>) -> (tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>) forward(%o, %lse : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) grad_output(%do : tensor<4x32x1x128xbf16>) -> tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>
  return %dq, %dk, %dv : tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>
}
