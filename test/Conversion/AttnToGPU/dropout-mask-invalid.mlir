// An explicit dropout keep mask is not supported by the GPU kernels yet:
// attn-to-gpu and attn-compile reject the op (with its location) instead of
// ignoring the operand. Dropout with rng(seed, offset) is supported.
// RUN: not attention-opt %s --attn-to-gpu 2>&1 | FileCheck %s
// RUN: not attn-compile %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: not attn-compile %s --kernel=tensor-core -o %t.ptx 2>&1 | FileCheck %s

// CHECK: dropout-mask-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: explicit dropout masks are not supported on the GPU yet (only the Philox dropout of rng(seed, offset))
func.func @dropout_mask(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %keep: tensor<1x2x64x64xi1>) -> tensor<1x2x64x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) dropout_mask(%keep : tensor<1x2x64x64xi1>) {dropout_p = 0.25 : f32} -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

