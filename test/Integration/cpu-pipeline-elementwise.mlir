// Elementwise tensor arithmetic around the attention ops (what a front end
// writes to combine their results) lowers with them: attn-lower-to-llvm-
// pipeline turns it into linalg before bufferization (it had no
// bufferization of its own: "op was not bufferized").
// RUN: attention-opt %s --attn-cpu-pipeline | FileCheck %s
// CHECK: llvm.func @sum_of_two(
// CHECK: llvm.fadd
// CHECK-NOT: arith.addf
func.func @sum_of_two(%q: tensor<1x2x64x64xbf16>, %k: tensor<1x2x64x64xbf16>, %v: tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x2x64x64xbf16>
  %o2 = attn.attention ins(%q, %k, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
  %s = arith.addf %o, %o2 : tensor<1x2x64x64xbf16>
  %e = math.exp %s : tensor<1x2x64x64xbf16>
  return %e : tensor<1x2x64x64xbf16>
}
