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

// TOSA-style size-1 broadcasting (a [B, 1, 1, Lk] bias read at (b, 0, 0, j))
// reads the collapsed [B, Lk] bias, and a keepdim reduction written with an
// output map that yields 0 computes into [B, H, Lq]: every map becomes a
// projected permutation.
// CHECK-LABEL: func.func @unit_broadcasts
// CHECK: %[[BIAS:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : tensor<2x1x1x16xf32> into tensor<2x16xf32>
// CHECK: %[[ADD:.*]] = linalg.generic {{.*}} ins(%arg0, %[[BIAS]] : tensor<2x4x16x16xf32>, tensor<2x16xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<2x4x16x16xf32>) outs(%{{.*}} : tensor<2x4x16xf32>)
// CHECK: tensor.expand_shape %[[MAX]] {{\[}}[0], [1], [2, 3]]
func.func @unit_broadcasts(%s: tensor<2x4x16x16xf32>, %bias: tensor<2x1x1x16xf32>) -> tensor<2x4x16x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) outs(%e : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x16xf32>
  %em = tensor.empty() : tensor<2x4x16x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%sb : tensor<2x4x16x16xf32>) outs(%fm : tensor<2x4x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x1xf32>
  return %m : tensor<2x4x16x1xf32>
}

// A tosa.tile-style copy with a unit dim beside every repeated dim, merged
// away by the collapse that follows: the copy runs without those unit loops
// (and K + 0 is a copy too).
// CHECK-LABEL: func.func @tile_copy
// CHECK: %[[K:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
// CHECK: %[[REP:.*]] = linalg.generic {{.*}} ins(%[[K]] : tensor<2x16x8xf32>) outs(%{{.*}} : tensor<2x4x16x8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: tensor.collapse_shape %[[REP]] {{\[}}[0, 1], [2], [3]] : tensor<2x4x16x8xf32> into tensor<8x16x8xf32>
func.func @tile_copy(%k: tensor<1x2x16x8xf32>) -> tensor<8x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x1x16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b, c, d, e, f) -> (a, b, e, f)>, affine_map<(a, b, c, d, e, f) -> (a, b, c, d, e, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x16x8xf32>) outs(%e : tensor<1x2x4x1x16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1x16x8xf32>
  %c = tensor.collapse_shape %t [[0, 1, 2, 3], [4], [5]] : tensor<1x2x4x1x16x8xf32> into tensor<8x16x8xf32>
  return %c : tensor<8x16x8xf32>
}
