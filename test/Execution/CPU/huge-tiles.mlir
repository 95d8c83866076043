// Tile sizes far past the lengths are clamped to them by attn-tile, and the
// tiled form still matches the float64 reference (issue 17: a block of
// 2^63 - 1 crashed the JIT-compiled code, 10^8 ran for minutes).
// RUN: attn-cpu-run %s --lowering="attn-tile{block-q=9223372036854775807 block-kv=9223372036854775807}" | FileCheck %s
// RUN: attn-cpu-run %s --lowering="attn-tile{block-q=100000000 block-kv=3}" | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: PASS
func.func @clamped(%q: tensor<2x4x24x16xf32>, %k: tensor<2x2x40x16xf32>, %v: tensor<2x2x40x16xf32>) -> tensor<2x4x24x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x24x16xf32>, tensor<2x2x40x16xf32>, tensor<2x2x40x16xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x24x16xf32>
  return %o : tensor<2x4x24x16xf32>
}
