// The backward op with an explicit dropout keep mask is rejected by the GPU
// code generator (no backward kernel reads one; the CPU lowerings support
// it). The forward op is supported by the CUDA-core kernel (dropout-mask.mlir).
// RUN: not attention-opt %s --attn-to-gpu 2>&1 | FileCheck %s
// RUN: not attn-compile %s -o %t.ptx 2>&1 | FileCheck %s

// CHECK: dropout-mask-grad-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation: explicit dropout masks are not supported on the GPU yet (only the Philox dropout of rng(seed, offset))
func.func @grad_dropout_mask(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %o: tensor<1x2x64x64xf16>, %lse: tensor<1x2x64xf32>, %do: tensor<1x2x64x64xf16>, %keep: tensor<1x2x64x64xi1>) -> (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) forward(%o, %lse : tensor<1x2x64x64xf16>, tensor<1x2x64xf32>) grad_output(%do : tensor<1x2x64x64xf16>) dropout_mask(%keep : tensor<1x2x64x64xi1>) {dropout_p = 0.25 : f32} -> tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
  return %dq, %dk, %dv : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
}
