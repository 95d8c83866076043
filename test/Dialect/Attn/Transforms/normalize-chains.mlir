// RUN: attention-opt %s --attn-normalize-chains --canonicalize | FileCheck %s

// Heads folded into the batch around a 3-D batch_matmul: the reshapes are
// propagated through the (generalized) contraction and cancel, so the
// scores are computed at [B, H, Lq, Lk] directly.
// CHECK-LABEL: func.func @folded_heads
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) outs(%{{.*}} : tensor<2x4x16x16xf32>)
// CHECK: return %[[S]]
func.func @folded_heads(%q: tensor<2x4x16x8xf32>, %kt: tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x16x8xf32> into tensor<8x16x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x8x16xf32> into tensor<8x8x16xf32>
  %e = tensor.empty() : tensor<8x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x16x8xf32>, tensor<8x8x16xf32>) outs(%z : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  return %s4 : tensor<2x4x16x16xf32>
}

// A keepdim row max read back through a unit-dim expand_shape, and a
// two-statement body (subtract, then exp): the expand is folded into the map
// that reads it, and the body is split into one generic per statement.
// CHECK-LABEL: func.func @keepdim_and_fused_body
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<16x16xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: arith.maximumf
// CHECK: %[[SUB:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ROW:.*]], #[[ID]]], {{.*}} ins(%arg0, %[[MAX]] : tensor<16x16xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK-NEXT: linalg.yield
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SUB]] : tensor<16x16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NEXT: linalg.yield
// CHECK: return %[[EXP]]
func.func @keepdim_and_fused_body(%s: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.reduce ins(%s : tensor<16x16xf32>) outs(%f : tensor<16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32 }
  %mk = tensor.expand_shape %m [[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %mk : tensor<16x16xf32>, tensor<16x1xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<16x16xf32>
  return %p : tensor<16x16xf32>
}

// A size-1 query length is a real dimension: unit dims are not dropped.
// CHECK-LABEL: func.func @unit_query_len
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x4x1x8xf32>, tensor<2x4x8x16xf32>) outs(%{{.*}} : tensor<2x4x1x16xf32>)
func.func @unit_query_len(%q: tensor<2x4x1x8xf32>, %kt: tensor<2x4x8x16xf32>) -> tensor<2x4x1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x8x16xf32> into tensor<8x8x16xf32>
  %e = tensor.empty() : tensor<8x1x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x1x8xf32>, tensor<8x8x16xf32>) outs(%z : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 1, 16] : tensor<8x1x16xf32> into tensor<2x4x1x16xf32>
  return %s4 : tensor<2x4x1x16xf32>
}
