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

// Masks compared from aranges too large to evaluate (300 x 300 > 65536
// elements): each arange constant becomes linalg.index arithmetic, so the
// mask is an input-less generic of index comparisons (attn-fuse reads it as
// causal / window at any size). Unit loops the aranges were broadcast over
// are dropped, linalg.index renumbered.
// CHECK-LABEL: func.func @arange_mask
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<300x300xi1>)
// CHECK-DAG:       %[[J:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[JI:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-DAG:       %[[I:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[IP:.*]] = arith.addi %[[I]], %[[C5]] : index
// CHECK-DAG:       %[[II:.*]] = arith.index_cast %[[IP]] : index to i32
// CHECK:           arith.cmpi sgt, %[[JI]], %[[II]] : i32
// CHECK:         tensor.expand_shape {{.*}} output_shape [1, 300, 300]
func.func @arange_mask() -> tensor<1x300x300xi1> {
  %cols = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299]]> : tensor<1x300xi32>
  %rows = arith.constant dense<[[5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299, 300, 301, 302, 303, 304]]> : tensor<1x300xi32>
  %e = tensor.empty() : tensor<1x300x300xi1>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cols, %rows : tensor<1x300xi32>, tensor<1x300xi32>) outs(%e : tensor<1x300x300xi1>) {
  ^bb0(%j: i32, %i: i32, %out: i1):
    %c = arith.cmpi sgt, %j, %i : i32
    linalg.yield %c : i1
  } -> tensor<1x300x300xi1>
  return %m : tensor<1x300x300xi1>
}

// A constant that is not an affine function of its indices stays an input.
// CHECK-LABEL: func.func @not_an_arange
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4x4xi32>)
func.func @not_an_arange(%x: tensor<4x4xi32>) -> tensor<4x4xi1> {
  %c = arith.constant dense<[0, 2, 1, 3]> : tensor<4xi32>
  %e = tensor.empty() : tensor<4x4xi1>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %x : tensor<4xi32>, tensor<4x4xi32>) outs(%e : tensor<4x4xi1>) {
  ^bb0(%a: i32, %b: i32, %out: i1):
    %r = arith.cmpi sgt, %a, %b : i32
    linalg.yield %r : i1
  } -> tensor<4x4xi1>
  return %m : tensor<4x4xi1>
}

// A row max whose body first scales the scores and adds a bias (elementwise
// fusion's copy of the producer): peeled into a generic over the scores'
// space, split per statement, and the max reduces that alone. A
// contraction (mul and add over inputs that each lack a loop) is not
// peeled.
// CHECK-LABEL: func.func @fused_row_max
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}ins(%[[S]] :
// CHECK: arith.mulf
// CHECK: %[[Z:.*]] = linalg.generic {{.*}}ins(%arg2, %[[Y]] :
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[Z]] :
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.maximumf %[[IN]], %[[ACC]]
#fr_q = affine_map<(b, i, j, d) -> (b, i, d)>
#fr_k = affine_map<(b, i, j, d) -> (b, j, d)>
#fr_s = affine_map<(b, i, j, d) -> (b, i, j)>
#fr_id = affine_map<(b, i, j) -> (b, i, j)>
#fr_bias = affine_map<(b, i, j) -> (b, j)>
#fr_row = affine_map<(b, i, j) -> (b, i)>
func.func @fused_row_max(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %bias: tensor<4x10xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.125 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.generic {indexing_maps = [#fr_q, #fr_k, #fr_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %mx = linalg.generic {indexing_maps = [#fr_id, #fr_bias, #fr_row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s, %bias : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%fm : tensor<4x6xf32>) {
  ^bb0(%x: f32, %bb: f32, %acc: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.addf %y, %bb : f32
    %r = arith.maximumf %z, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  return %mx : tensor<4x6xf32>
}

// The normalization fused into P·V ((e / l) * v + acc): the factor e / l is
// peeled into a generic over P's loops, which the contraction reads.
// CHECK-LABEL: func.func @fused_normalization
// CHECK: %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %arg0 :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg2, %[[P]] :
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[PP:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.mulf %[[PP]], %[[V]]
#fn_e = affine_map<(b, i, d, j) -> (b, i, j)>
#fn_l = affine_map<(b, i, d, j) -> (b, i)>
#fn_v = affine_map<(b, i, d, j) -> (b, j, d)>
#fn_o = affine_map<(b, i, d, j) -> (b, i, d)>
func.func @fused_normalization(%e: tensor<4x6x10xf32>, %l: tensor<4x6xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.generic {indexing_maps = [#fn_e, #fn_l, #fn_v, #fn_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e, %l, %v : tensor<4x6x10xf32>, tensor<4x6xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) {
  ^bb0(%x: f32, %s: f32, %w: f32, %acc: f32):
    %p = arith.divf %x, %s : f32
    %m = arith.mulf %p, %w : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// A factor computed from a value the product also reads (acc + exp(t) * t):
// not peeled (t would leave the peeled generic twice; this crashed the pass
// before). A factor computed with an op that has a region: not peeled either.
// CHECK-LABEL: func.func @contraction_factor_shared
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.negf
// CHECK: math.exp
// CHECK-LABEL: func.func @contraction_factor_region
// CHECK: scf.if
#cs_a = affine_map<(m, n, k) -> (m, k)>
#cs_b = affine_map<(m, n, k) -> (k, n)>
#cs_c = affine_map<(m, n, k) -> (m, n)>
func.func @contraction_factor_shared(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#cs_a, #cs_b, #cs_c],
        iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %t = arith.negf %x : f32
    %ex = math.exp %t : f32
    %p = arith.mulf %ex, %t : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

#cr_mA = affine_map<(m, n, k) -> (m, k)>
#cr_mB = affine_map<(m, n, k) -> (k, n)>
#cr_mC = affine_map<(m, n, k) -> (m, n)>
func.func @contraction_factor_region(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#cr_mA, #cr_mB, #cr_mC],
        iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %pos = arith.cmpf ogt, %x, %z : f32
    %f = scf.if %pos -> f32 {
      %nx = arith.negf %x : f32
      scf.yield %nx : f32
    } else {
      scf.yield %y : f32
    }
    %p = arith.mulf %f, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A softmax over one key whose row reductions a front end folded away
// (TOSA's reduce_max / reduce_sum folders: `s - s`, `e * (1 / e)`): the
// reductions come back as keepdim generics over the unit dim, from -inf and
// 0, so that attn-fuse sees max, s - max, exp, sum, 1 / sum (the unit-dim
// patterns then drop the keepdim dim of the row values).
// CHECK-LABEL: func.func @folded_unit_row_softmax
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FM:.*]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<4x16x1xf32>) outs(%[[FM]] : tensor<4x16xf32>)
// CHECK: arith.maximumf
// CHECK: %[[X:.*]] = linalg.generic {{.*}} ins(%arg0, %[[M]] : tensor<4x16x1xf32>, tensor<4x16xf32>)
// CHECK: arith.subf
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x16x1xf32>)
// CHECK: math.exp
// CHECK: %[[FL:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[L:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[E]] : tensor<4x16x1xf32>) outs(%[[FL]] : tensor<4x16xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[L]] : tensor<4x16xf32>)
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}} ins(%[[E]], %[[R]] : tensor<4x16x1xf32>, tensor<4x16xf32>)
// CHECK: arith.mulf
#u3 = affine_map<(b, i, j) -> (b, i, j)>
func.func @folded_unit_row_softmax(%s: tensor<4x16x1xf32>) -> tensor<4x16x1xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4x16x1xf32>
  %x = linalg.generic {indexing_maps = [#u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.subf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = math.exp %a : f32
    linalg.yield %d : f32
  } -> tensor<4x16x1xf32>
  %r = linalg.generic {indexing_maps = [#u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e : tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %one, %a : f32
    linalg.yield %d : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#u3, #u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %r : tensor<4x16x1xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x1xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.mulf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x16x1xf32>
  return %p : tensor<4x16x1xf32>
}

// Only the softmax's shape: `x - x` that no exponential reads, and `1 / x`
// of something other than an exponential, stay as written.
// CHECK-LABEL: func.func @unit_row_not_a_softmax
// CHECK-NOT: arith.maximumf
// CHECK-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: return
func.func @unit_row_not_a_softmax(%s: tensor<4x16x1xf32>) -> (tensor<4x16x1xf32>, tensor<4x16x1xf32>) {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4x16x1xf32>
  %x = linalg.generic {indexing_maps = [#u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.subf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<4x16x1xf32>
  %r = linalg.generic {indexing_maps = [#u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %one, %a : f32
    linalg.yield %d : f32
  } -> tensor<4x16x1xf32>
  return %x, %r : tensor<4x16x1xf32>, tensor<4x16x1xf32>
}

// A constant cast inside a body (torch-mlir's `s / math.sqrt(d)`: truncf of
// an f64 constant, inexact in f32, which upstream does not fold) becomes the
// f32 constant the cast computes, so the division's divisor is a constant.
// CHECK-LABEL: func.func @cast_constant_divisor
// CHECK: %[[C:.*]] = arith.constant 5.65685415 : f32
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %[[C]] : f32
// CHECK-NOT: arith.truncf
func.func @cast_constant_divisor(%s: tensor<4x16x24xf32>) -> tensor<4x16x24xf32> {
  %d = arith.constant 5.6568542494923806 : f64
  %e = tensor.empty() : tensor<4x16x24xf32>
  %r = linalg.generic {indexing_maps = [#u3, #u3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x24xf32>) outs(%e : tensor<4x16x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.truncf %d : f64 to f32
    %q = arith.divf %a, %c : f32
    linalg.yield %q : f32
  } -> tensor<4x16x24xf32>
  return %r : tensor<4x16x24xf32>
}

// A bias computed from a boolean mask (select(keep, 0, -inf), as PyTorch's
// scaled_dot_product_attention turns a bool attn_mask into a float one)
// whose unit head dim is collapsed away: the collapse moves above the
// select, so the select reads the collapsed i1 mask (attn-fuse then passes
// the i1 mask to the op, one byte per score).
// CHECK-LABEL: func.func @collapsed_bias_of_bool
// CHECK: %[[M:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<2x1x16x24xi1> into tensor<2x16x24xi1>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<2x16x24xi1>)
// CHECK: arith.select
// CHECK: return %[[B]]
func.func @collapsed_bias_of_bool(%m: tensor<2x1x16x24xi1>) -> tensor<2x16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x1x16x24xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m : tensor<2x1x16x24xi1>) outs(%e : tensor<2x1x16x24xf32>) {
  ^bb0(%k: i1, %o: f32):
    %s = arith.select %k, %zero, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<2x1x16x24xf32>
  %c = tensor.collapse_shape %b [[0, 1], [2], [3]] : tensor<2x1x16x24xf32> into tensor<2x16x24xf32>
  return %c : tensor<2x16x24xf32>
}

// The same for any elementwise step: SDPA's decomposition scales Q by
// sqrt(scale) before the heads are folded into the batch; at a batch of 1
// that collapse merges only a unit dim, which reshape propagation leaves.
// The collapse moves above the product, so that the scaled Q feeds Q·Kᵀ
// directly (attn-fuse then takes the factor into the op's scale, as at a
// batch of 2).
// CHECK-LABEL: func.func @collapsed_scaled_operand
// CHECK: %[[Q:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<1x4x16x32xf32> into tensor<4x16x32xf32>
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[Q]] : tensor<4x16x32xf32>)
// CHECK: arith.mulf
// CHECK: return %[[S]]
func.func @collapsed_scaled_operand(%q: tensor<1x4x16x32xf32>) -> tensor<4x16x32xf32> {
  %c = arith.constant 0.420448214 : f32
  %e = tensor.empty() : tensor<1x4x16x32xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x4x16x32xf32>) outs(%e : tensor<1x4x16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x4x16x32xf32>
  %r = tensor.collapse_shape %s [[0, 1], [2], [3]] : tensor<1x4x16x32xf32> into tensor<4x16x32xf32>
  return %r : tensor<4x16x32xf32>
}

// Float masks that only select among constants are evaluated like boolean
// ones (exact: nothing is rounded), so that attn-fuse reads their band.
// `ones(n, n).tril().bool()` selects the boolean tril to 1.0 / 0.0 and
// compares with 0; Hugging Face's Mistral / Qwen2 sliding-window bias
// fills `triu(full(min), 1)` with min where `tril(ones, -w)` is true. A
// float step that computes (here a product) stays a generic.
// CHECK-LABEL: func.func @selects_of_bool_masks
// CHECK-DAG: %[[M:.*]] = arith.constant dense<{{\[}}[true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[}}[0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00]]> : tensor<3x3xf32>
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: return %[[M]], %[[W]], %[[P]]
func.func @selects_of_bool_masks() -> (tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %half = arith.constant 0.5 : f32
  %tril = arith.constant dense<[[true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
  %far = arith.constant dense<[[false, false, false], [false, false, false], [true, false, false]]> : tensor<3x3xi1>
  %ef = tensor.empty() : tensor<3x3xf32>
  %eb = tensor.empty() : tensor<3x3xi1>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%tril : tensor<3x3xi1>) outs(%ef : tensor<3x3xf32>) {
  ^bb0(%t: i1, %o: f32):
    %x = arith.select %t, %one, %zero : f32
    linalg.yield %x : f32
  } -> tensor<3x3xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<3x3xf32>) outs(%eb : tensor<3x3xi1>) {
  ^bb0(%x: f32, %o: i1):
    %c = arith.cmpf une, %x, %zero : f32
    linalg.yield %c : i1
  } -> tensor<3x3xi1>
  %triu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%tril : tensor<3x3xi1>) outs(%ef : tensor<3x3xf32>) {
  ^bb0(%t: i1, %o: f32):
    %x = arith.select %t, %zero, %min : f32
    linalg.yield %x : f32
  } -> tensor<3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%far, %triu : tensor<3x3xi1>, tensor<3x3xf32>) outs(%ef : tensor<3x3xf32>) {
  ^bb0(%t: i1, %b: f32, %o: f32):
    %x = arith.select %t, %min, %b : f32
    linalg.yield %x : f32
  } -> tensor<3x3xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<3x3xf32>) outs(%ef : tensor<3x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %half : f32
    linalg.yield %y : f32
  } -> tensor<3x3xf32>
  return %m, %w, %p : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
}

// Hugging Face Mistral's sliding-window bias at a length too large to
// evaluate (here 300 x 300 > 65536 elements): the bias triu(full(min), 1)
// and the boolean band tril(ones, -4), both from indices, and the select
// filling min where the band holds are fused into one input-less generic,
// the two fills of min joined into one condition (attn-fuse reads its band
// as causal and a window). A select that also reads something other than
// index-built masks (the scores) is not fused.
// CHECK-LABEL: func.func @sliding_bias_from_indices
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<300x300xf32>)
// CHECK-NOT: ins(
// CHECK: %[[E:.*]] = arith.ori
// CHECK: arith.select %[[E]], %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[B]] : tensor<300x300xf32>, tensor<300x300xf32>)
func.func @sliding_bias_from_indices(%s: tensor<300x300xf32>) -> tensor<300x300xf32> {
  %min = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %ef = tensor.empty() : tensor<300x300xf32>
  %eb = tensor.empty() : tensor<300x300xi1>
  %triu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ef : tensor<300x300xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sgt, %j, %i : index
    %x = arith.select %c, %min, %zero : f32
    linalg.yield %x : f32
  } -> tensor<300x300xf32>
  %far = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<300x300xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %j4 = arith.addi %j, %c4 : index
    %c = arith.cmpi sle, %j4, %i : index
    linalg.yield %c : i1
  } -> tensor<300x300xi1>
  %bias = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%far, %triu : tensor<300x300xi1>, tensor<300x300xf32>) outs(%ef : tensor<300x300xf32>) {
  ^bb0(%f: i1, %b: f32, %o: f32):
    %x = arith.select %f, %min, %b : f32
    linalg.yield %x : f32
  } -> tensor<300x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %bias : tensor<300x300xf32>, tensor<300x300xf32>) outs(%ef : tensor<300x300xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<300x300xf32>
  return %r : tensor<300x300xf32>
}

// A decode step whose query dim was dropped: Q·Kᵀ and P·V are matrix-vector
// products. Each gets a unit query loop (the vector operand expanded, the
// result at [B, H, 1, ...]) and the softmax between them runs at
// [B, H, 1, Lk]; the reshapes are left only at the chain's edges.
// CHECK-LABEL: func.func @matvec_decode
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [2, 4, 1, 8]
// CHECK: linalg.generic {indexing_maps = [#[[$QM:.*]], #[[$KM:.*]], #[[$SM:.*]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%[[Q]], %arg1 : tensor<2x4x1x8xf32>, tensor<2x4x16x8xf32>) outs(%{{.*}} : tensor<2x4x1x16xf32>)
// CHECK: arith.maxnumf
// CHECK: -> tensor<2x4x1xf32>
// CHECK: math.exp
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %arg2 : tensor<2x4x1x16xf32>, tensor<2x4x16x8xf32>) outs(%{{.*}} : tensor<2x4x1x8xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[O]] {{\[\[}}0], [1, 2], [3]] : tensor<2x4x1x8xf32> into tensor<2x4x8xf32>
// CHECK: return %[[R]]
#mv_q = affine_map<(b, h, k, d) -> (b, h, d)>
#mv_k = affine_map<(b, h, k, d) -> (b, h, k, d)>
#mv_s = affine_map<(b, h, k, d) -> (b, h, k)>
#mv_p = affine_map<(b, h, d, k) -> (b, h, k)>
#mv_v = affine_map<(b, h, d, k) -> (b, h, k, d)>
#mv_o = affine_map<(b, h, d, k) -> (b, h, d)>
func.func @matvec_decode(%q: tensor<2x4x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %s = linalg.generic {indexing_maps = [#mv_q, #mv_k, #mv_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x16x8xf32>) outs(%s0 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x4x16xf32>) outs(%e0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#mv_p, #mv_v, #mv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x16xf32>, tensor<2x4x16x8xf32>) outs(%o0 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// Two matrix-vector products without a softmax (an exponential) between
// them are no attention: they keep their form.
// CHECK-LABEL: func.func @matvec_pair_without_softmax
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @matvec_pair_without_softmax(%q: tensor<2x4x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %s = linalg.generic {indexing_maps = [#mv_q, #mv_k, #mv_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x16x8xf32>) outs(%s0 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(b, h, k) -> (b, h, k)>, affine_map<(b, h, k) -> (b, h, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x16xf32>) outs(%e0 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#mv_p, #mv_v, #mv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%relu, %v : tensor<2x4x16xf32>, tensor<2x4x16x8xf32>) outs(%o0 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}
