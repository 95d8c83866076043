// RUN: not attention-opt %s -split-input-file --attn-to-gpu 2>&1 | FileCheck %s
// RUN: not attn-compile %s --kernel=tensor-core -o %t.ptx 2>&1 | FileCheck %s --check-prefix=TC
// RUN: not attn-compile %s --kernel=cuda-core -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CC

// Backward kernels that cannot be generated are diagnostics at the op, not
// crashes.

// The tensor-core backward needs f16/bf16 and D, Dv multiples of 8 up to
// 256:
// --kernel=tensor-core is an error for anything else (auto falls back to the
// CUDA-core kernels; the pass always does, so this split compiles there).
// TC: attention-grad-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation: no tensor-core backward kernel: head dims must be multiples of 8 up to 256 (D = 36, Dv = 36)
func.func @tensor_core(%q: tensor<1x2x64x36xbf16>, %k: tensor<1x2x64x36xbf16>, %v: tensor<1x2x64x36xbf16>, %o: tensor<1x2x64x36xbf16>, %lse: tensor<1x2x64xf32>, %do: tensor<1x2x64x36xbf16>) -> (tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>) forward(%o, %lse : tensor<1x2x64x36xbf16>, tensor<1x2x64xf32>) grad_output(%do : tensor<1x2x64x36xbf16>) -> tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>
  return %dq, %dk, %dv : tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>, tensor<1x2x64x36xbf16>
}

// -----

// Run-time sizes are the batch and the sequence lengths (the other sizes of
// a backward op must be static, as for the forward: runtime-sizes-invalid.mlir).
// CHECK: attention-grad-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation needs static head counts and head dims: dimension 1 of the query ('tensor<1x?x8x64xf16>') is dynamic (run-time sizes: batch, query and key lengths)
// CC: attention-grad-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation needs static head counts and head dims: dimension 1 of the query ('tensor<1x?x8x64xf16>') is dynamic
func.func @dynamic_heads(%q: tensor<1x?x8x64xf16>, %k: tensor<1x?x8x64xf16>, %v: tensor<1x?x8x64xf16>, %o: tensor<1x?x8x64xf16>, %lse: tensor<1x?x8xf32>, %do: tensor<1x?x8x64xf16>) -> (tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>) forward(%o, %lse : tensor<1x?x8x64xf16>, tensor<1x?x8xf32>) grad_output(%do : tensor<1x?x8x64xf16>) -> tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>
  return %dq, %dk, %dv : tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>
}

// -----

// CHECK: attention-grad-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation: empty tensor (B = 1, Hq = 2, Hkv = 2, Lq = 8, Lk = 0, D = 64, Dv = 64): the kernels need every size >= 1
func.func @no_keys(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x0x64xf16>, %v: tensor<1x2x0x64xf16>, %o: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>, %do: tensor<1x2x8x64xf16>) -> (tensor<1x2x8x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>) forward(%o, %lse : tensor<1x2x8x64xf16>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x64xf16>) -> tensor<1x2x8x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>
  return %dq, %dk, %dv : tensor<1x2x8x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>
}
