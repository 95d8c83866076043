// attn-cpu-run draws every operand at random; one the IR fixes as a
// constant is named in a note, so that a PASS is not read as validating
// the program's own mask, offsets or seeds.
// RUN: attn-cpu-run %s | FileCheck %s

// CHECK: note: operand #3 of attn.attention at loc("{{.*}}constant-operands.mlir":[[@LINE+4]]:8) is a constant in the IR; attn-cpu-run validates the op on random values of every operand instead
// CHECK: all 1 attention op(s) match the float64 reference
func.func @f(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x4x8xf32> {
  %mask = arith.constant dense<true> : tensor<1x1x4x6xi1>
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>)
      mask(%mask : tensor<1x1x4x6xi1>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
