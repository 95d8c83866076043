// RUN: attention-opt %s -split-input-file --attn-fuse="explain allow-precision-change" -verify-diagnostics | FileCheck %s
// RUN: attention-opt %s -split-input-file --attn-fuse="inexact-reciprocal large-negative-is-masked allow-precision-change" | FileCheck %s --check-prefix=OPT

// attn-fuse: each recognized unfused chain becomes one attn.attention and no
// score-sized tensor (here always 6x10: Lq = 6, Lk = 10) survives. The
// near-misses at the end are left alone and, with `explain`, get a remark
// with the reason at their softmax (checked by -verify-diagnostics).

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// (1) linalg.softmax, heads as the batch dim, K through linalg.transpose,
// scale by a scalar constant in a generic.
// CHECK-LABEL: func @softmax_3d
// CHECK-SAME: (%[[Q:.+]]: tensor<4x6x8xf32>, %[[K:.+]]: tensor<4x10x8xf32>, %[[V:.+]]: tensor<4x10x5xf32>)
// CHECK-NOT: 6x10x
// CHECK-DAG: %[[Q4:.+]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 6, 8]
// CHECK-DAG: %[[K4:.+]] = tensor.expand_shape %[[K]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 10, 8]
// CHECK-DAG: %[[V4:.+]] = tensor.expand_shape %[[V]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 10, 5]
// CHECK-NOT: 6x10x
// CHECK: %[[O4:.+]] = attn.attention ins(%[[Q4]], %[[K4]], %[[V4]] : tensor<1x4x6x8xf32>, tensor<1x4x10x8xf32>, tensor<1x4x10x5xf32>) {scale = 1.250000e-01 : f32} -> tensor<1x4x6x5xf32>
// CHECK-NOT: 6x10x
// CHECK: %[[O:.+]] = tensor.collapse_shape %[[O4]] {{\[}}[0, 1], [2], [3]] : tensor<1x4x6x5xf32> into tensor<4x6x5xf32>
// CHECK-NEXT: return %[[O]]
func.func @softmax_3d(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %ekt = tensor.empty() : tensor<4x8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x8xf32>) outs(%ekt : tensor<4x8x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x8xf32>, tensor<4x8x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (1b) batch_matmul with indexing_maps that read K transposed; division by
// sqrt(64) = 8 is multiplication by the exact 0.125. No scale op at all
// gives scale = 1.0 (not the op's default 1/sqrt(D)).
// CHECK-LABEL: func @indexing_maps_div
// CHECK-NOT: 6x10x
// CHECK: attn.attention
// CHECK-SAME: {scale = 1.250000e-01 : f32}
// CHECK-NOT: 6x10x
// CHECK: return
func.func @indexing_maps_div(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 8.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x64xf32>, tensor<4x10x64xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.divf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (1c) 2-D linalg.matmul with a transposed K, no scale, named elementwise
// linalg.mul is not needed: scale = 1.0.
// CHECK-LABEL: func @matmul_2d_unscaled
// CHECK-NOT: 6x10x
// CHECK: %[[O4:.+]] = attn.attention
// CHECK-SAME: {scale = 1.000000e+00 : f32} -> tensor<1x1x6x5xf32>
// CHECK: tensor.collapse_shape %[[O4]] {{\[}}[0, 1, 2], [3]]
func.func @matmul_2d_unscaled(%q: tensor<6x8xf32>, %k: tensor<10x8xf32>, %v: tensor<10x5xf32>) -> tensor<6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ekt = tensor.empty() : tensor<8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<10x8xf32>) outs(%ekt : tensor<8x10xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<6x8xf32>, tensor<8x10xf32>) outs(%zs : tensor<6x10xf32>) -> tensor<6x10xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<6x10xf32>) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %eo = tensor.empty() : tensor<6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x5xf32>) -> tensor<6x5xf32>
  %o = linalg.matmul ins(%p, %v : tensor<6x10xf32>, tensor<10x5xf32>) outs(%zo : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %o : tensor<6x5xf32>
}

// -----

// (2) Decomposed softmax with linalg generics, scale by a splat tensor
// through the named linalg.mul.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @decomposed
// CHECK-NOT: 6x10x
// CHECK: attn.attention
// CHECK-SAME: {scale = 2.500000e-01 : f32} -> tensor<1x4x6x5xf32>
// CHECK-NOT: 6x10x
// CHECK: return
func.func @decomposed(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %quarter = arith.constant dense<0.25> : tensor<4x6x10xf32>
  %ekt = tensor.empty() : tensor<4x8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x8xf32>) outs(%ekt : tensor<4x8x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x8xf32>, tensor<4x8x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.mul ins(%s, %quarter : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (3a) Additive bias after the scale, broadcast over the batch*heads dim
// (map without d0): becomes a [1, 1, Lq, Lk] mask.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bcast = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @additive_bias
// CHECK-SAME: %[[B:[a-z0-9_]+]]: tensor<6x10xf32>
// CHECK: %[[B4:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 6, 10] : tensor<6x10xf32> into tensor<1x1x6x10xf32>
// CHECK: attn.attention ins({{.*}}) mask(%[[B4]] : tensor<1x1x6x10xf32>) {scale = 1.250000e-01 : f32} -> tensor<1x4x6x5xf32>
// CHECK-NOT: 4x6x10x
// CHECK: return
func.func @additive_bias(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %ekt = tensor.empty() : tensor<4x8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x8xf32>) outs(%ekt : tensor<4x8x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x8xf32>, tensor<4x8x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %c, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %bias : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %a = arith.addf %x, %b : f32
    linalg.yield %a : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (3b) Boolean keep mask: select(m, s, -inf), the mask broadcast over
// queries with a size-1 dim read at index 0 (key padding).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pad = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func @bool_mask
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<4x1x10xi1>
// CHECK: %[[M4:.+]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 1, 10] : tensor<4x1x10xi1> into tensor<1x4x1x10xi1>
// CHECK: attn.attention ins({{.*}}) mask(%[[M4]] : tensor<1x4x1x10xi1>) {scale = 1.250000e-01 : f32}
// CHECK-NOT: 6x10x
// CHECK: return
func.func @bool_mask(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x1x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<4x8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x8xf32>) outs(%ekt : tensor<4x8x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x8xf32>, tensor<4x8x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [#pad, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %ss : tensor<4x1x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %r = arith.select %b, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (4) 4-D [B, H, L, D] contraction generics, the output written as
// [B, L, H, Dv] (a transpose after the fused op), f16.
#q4 = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k4 = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s4 = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#p4 = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v4 = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o4 = affine_map<(b, h, i, e, j) -> (b, i, h, e)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func @generic_4d
// CHECK-SAME: (%[[Q:.+]]: tensor<2x3x6x8xf16>, %[[K:.+]]: tensor<2x3x10x8xf16>, %[[V:.+]]: tensor<2x3x10x5xf16>)
// CHECK-NOT: 6x10x
// CHECK: %[[O:.+]] = attn.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<2x3x6x8xf16>, tensor<2x3x10x8xf16>, tensor<2x3x10x5xf16>) {attn.chain_softmax_type = f16, scale = 0.353515625 : f32} -> tensor<2x3x6x5xf16>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[O]] : tensor<2x3x6x5xf16>) outs(%{{.*}} : tensor<2x6x3x5xf16>) permutation = [0, 2, 1, 3]
// CHECK: return %[[T]]
func.func @generic_4d(%q: tensor<2x3x6x8xf16>, %k: tensor<2x3x10x8xf16>, %v: tensor<2x3x10x5xf16>) -> tensor<2x6x3x5xf16> {
  %zero = arith.constant 0.0 : f16
  %c = arith.constant 0.3535 : f16
  %es = tensor.empty() : tensor<2x3x6x10xf16>
  %zs = linalg.fill ins(%zero : f16) outs(%es : tensor<2x3x6x10xf16>) -> tensor<2x3x6x10xf16>
  %s = linalg.generic {indexing_maps = [#q4, #k4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x6x8xf16>, tensor<2x3x10x8xf16>) outs(%zs : tensor<2x3x6x10xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x3x6x10xf16>
  %ss = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x3x6x10xf16>) outs(%es : tensor<2x3x6x10xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.mulf %x, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x3x6x10xf16>
  %p = linalg.softmax dimension(3) ins(%ss : tensor<2x3x6x10xf16>) outs(%es : tensor<2x3x6x10xf16>) -> tensor<2x3x6x10xf16>
  %eo = tensor.empty() : tensor<2x6x3x5xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x6x3x5xf16>) -> tensor<2x6x3x5xf16>
  %o = linalg.generic {indexing_maps = [#p4, #v4, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x3x6x10xf16>, tensor<2x3x10x5xf16>) outs(%zo : tensor<2x6x3x5xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x6x3x5xf16>
  return %o : tensor<2x6x3x5xf16>
}

// -----

// (5) TOSA: matmul with a transposed K, scale by a splat constant, softmax
// as reduce_max / sub / exp / reduce_sum / reciprocal / mul, additive bias
// broadcast over heads.
// CHECK-LABEL: func @tosa_chain
// CHECK-SAME: %[[B:[a-z0-9_]+]]: tensor<1x6x10xf32>
// CHECK-NOT: tosa.transpose
// CHECK: %[[B4:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1], [2], [3]] output_shape [1, 1, 6, 10]
// CHECK: attn.attention ins({{.*}} : tensor<1x4x6x8xf32>, tensor<1x4x10x8xf32>, tensor<1x4x10x5xf32>) mask(%[[B4]] : tensor<1x1x6x10xf32>) {scale = 1.250000e-01 : f32}
// CHECK-NOT: 4x6x10x
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_chain(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<1x6x10xf32>) -> tensor<4x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  %ss = tosa.mul %s, %c, %shift : (tensor<4x6x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %sb = tosa.add %ss, %bias : (tensor<4x6x10xf32>, tensor<1x6x10xf32>) -> tensor<4x6x10xf32>
  %m = tosa.reduce_max %sb {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %sb, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Near-misses: each is left alone; the remark says why.

// CHECK-LABEL: func @wrong_softmax_dim
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax
func.func @wrong_softmax_dim(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x6x5xf32>) -> tensor<4x10x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ekt = tensor.empty() : tensor<4x8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x8xf32>) outs(%ekt : tensor<4x8x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x8xf32>, tensor<4x8x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: softmax is over dimension 1, not the key dimension 2}}
  // expected-note @below {{the first op that blocks it: 'linalg.softmax' (the softmax itself)}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x10x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x5xf32>) -> tensor<4x10x5xf32>
  %o = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%p, %v : tensor<4x6x10xf32>, tensor<4x6x5xf32>) outs(%zo : tensor<4x10x5xf32>) -> tensor<4x10x5xf32>
  return %o : tensor<4x10x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @non_constant_scale
// CHECK-NOT: attn.attention
func.func @non_constant_scale(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %c: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the scores are scaled by a non-constant}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// Two constant scales in a row (`s / 2 * 0.25`): one scale, their product.
// CHECK-LABEL: func @scaled_twice
// CHECK: attn.attention {{.*}} {scale = 1.250000e-01 : f32}
// CHECK-NOT: linalg.generic
func.func @scaled_twice(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 2.0 : f32
  %c2 = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.divf %x, %c1 : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %s2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s1 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c2 : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%s2 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// Two scales whose product is not a finite f32 (1e30 / 1e-30): left alone.
// CHECK-LABEL: func @scaled_twice_overflow
// CHECK-NOT: attn.attention
func.func @scaled_twice_overflow(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0e-30 : f32
  %c2 = arith.constant 1.0e30 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.divf %x, %c1 : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %s2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s1 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c2 : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the scores are scaled twice, and the product of the factors is not a finite, nonzero f32}}
  %p = linalg.softmax dimension(2) ins(%s2 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @another_user
// CHECK-NOT: attn.attention
func.func @another_user(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the probabilities have another user}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %p : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// A transpose between Q·Kᵀ and the softmax: the softmax runs over queries.
// CHECK-LABEL: func @transposed_scores
// CHECK-NOT: attn.attention
func.func @transposed_scores(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %et = tensor.empty() : tensor<4x10x6xf32>
  %st = linalg.transpose ins(%ss : tensor<4x6x10xf32>) outs(%et : tensor<4x10x6xf32>) permutation = [0, 2, 1]
  // expected-remark @below {{not fused: the P·V contraction does not reduce over the key dimension}}
  %p = linalg.softmax dimension(2) ins(%st : tensor<4x10x6xf32>) outs(%et : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.batch_matmul'}}
  %o = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%p, %v : tensor<4x10x6xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @pv_over_queries
// CHECK-NOT: attn.attention
func.func @pv_over_queries(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x6x5xf32>) -> tensor<4x10x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the P·V contraction does not reduce over the key dimension}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x10x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x5xf32>) -> tensor<4x10x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.batch_matmul'}}
  %o = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%p, %v : tensor<4x6x10xf32>, tensor<4x6x5xf32>) outs(%zo : tensor<4x10x5xf32>) -> tensor<4x10x5xf32>
  return %o : tensor<4x10x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// x / 3 is raised as x * fl(1/3) (they may differ in the last bit, below
// the op's own rounding), as PyTorch's `scores / math.sqrt(d)`.
// CHECK-LABEL: func @divide_by_three
// CHECK: attn.attention
// CHECK-SAME: {scale = 0.333333343 : f32}
// OPT-LABEL: func @divide_by_three
// OPT: attn.attention
// OPT-SAME: {scale = 0.333333343 : f32}
func.func @divide_by_three(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %m = arith.divf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// select(m, -inf, s) excludes where m is true: the op gets the keep mask !m.
// CHECK-LABEL: func @inverted_select
// CHECK: %[[KEEP:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x6x10xi1>)
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %{{.*}}, %[[TRUE]] : i1
// CHECK: attn.attention {{.*}} mask(%[[KEEP]] : tensor<1x4x6x10xi1>) {scale = 1.250000e-01 : f32}
func.func @inverted_select(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %ss : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %r = arith.select %b, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @finite_fill
// CHECK-NOT: attn.attention
// OPT-LABEL: func @finite_fill
// OPT: attn.attention {{.*}} mask({{.*}} : tensor<1x4x6x10xi1>) {scale = 1.250000e-01 : f32}
func.func @finite_fill(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %big = arith.constant -1.0e9 : f32
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %ss : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %r = arith.select %b, %x, %big : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the masked scores are set to a finite value, not -inf (see option large-negative-is-masked)}}
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (s + bias) * c is not attn.attention's order (scale, then bias).
// CHECK-LABEL: func @bias_before_scale
// CHECK-NOT: attn.attention
func.func @bias_before_scale(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<4x6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sb = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the scores are not a Q·Kᵀ contraction: an addition of the scores is left that the steps read (Q·Kᵀ, then a positive constant scale, softcap, additive bias and mask, in this order; a boolean mask may also come before the bias and scale) do not cover}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Causal masks built from linalg.index comparisons (i = index 1, the query
// row; j = index 2, the key column) become `causal` / `window`.
// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c1) select(j > i, -inf, s) after the scale: top_left.
// CHECK-LABEL: func @causal_top_left
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.250000e-01 : f32} -> tensor<1x4x6x5xf32>
// CHECK-NOT: 6x10x
// CHECK: return
func.func @causal_top_left(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c2) select(j > i + 4, -inf, s) with Lk - Lq = 10 - 6 = 4, before the
// scale: bottom_right.
// CHECK-LABEL: func @causal_bottom_right
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<bottom_right>, scale = 1.250000e-01 : f32}
// CHECK-NOT: 6x10x
// CHECK: return
func.func @causal_bottom_right(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %c = arith.cmpi sgt, %j, %i4 : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c3) s + select(j <= i, 0, -inf) (the keep form, operands of the
// comparison swapped: i >= j): top_left.
// CHECK-LABEL: func @causal_additive
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.250000e-01 : f32}
// CHECK-NOT: 6x10x
// CHECK: return
func.func @causal_additive(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi uge, %i, %j : index
    %b = arith.select %c, %zero, %ninf : f32
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c4) select(j > i + 3, -inf, s) with Lk - Lq = 4: allowed j <= i + 3 is
// window = [-1, 3].
// CHECK-LABEL: func @causal_window
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {scale = 1.250000e-01 : f32, window = array<i64: -1, 3>}
// CHECK-NOT: 6x10x
// CHECK: return
func.func @causal_window(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %j3 = arith.subi %j, %c3 : index
    %c = arith.cmpi sgt, %j3, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c5) an index-built causal mask and a boolean keep mask tensor.
// CHECK-LABEL: func @causal_and_keep_mask
// CHECK-NOT: 6x10xf32
// CHECK: attn.attention ins({{.*}}) mask({{.*}} : tensor<1x4x6x10xi1>) {causal = #attn.causal<top_left>, scale = 1.250000e-01 : f32}
// CHECK-NOT: 6x10xf32
// CHECK: return
func.func @causal_and_keep_mask(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi sgt, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %sc : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %r = arith.select %b, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c6) a [Lq, Lk] bias tensor select(j > i + 4, -inf, 0) built by an
// input-less generic, added with a broadcast: bottom_right, no mask operand.
// CHECK-LABEL: func @causal_bias_tensor
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}} : tensor<1x4x6x8xf32>, tensor<1x4x10x8xf32>, tensor<1x4x10x5xf32>) {causal = #attn.causal<bottom_right>, scale = 1.250000e-01 : f32}
// CHECK-NOT: 6x10x
// CHECK: return
func.func @causal_bias_tensor(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %eb = tensor.empty() : tensor<6x10xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<6x10xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %c = arith.cmpi ugt, %j, %i4 : index
    %r = arith.select %c, %ninf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d1, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %bias : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c7) the same bias built over [B, Lk] compares the batch index with the
// key index: not causal, it stays an additive mask tensor.
// CHECK-LABEL: func @causal_bias_tensor_other_dim
// CHECK: attn.attention ins({{.*}}) mask({{.*}} : tensor<1x4x1x10xf32>) {scale = 1.250000e-01 : f32}
// CHECK-NOT: causal
// CHECK: return
func.func @causal_bias_tensor_other_dim(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %eb = tensor.empty() : tensor<4x10xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<4x10xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %c = arith.cmpi ugt, %j, %i4 : index
    %r = arith.select %c, %ninf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d0, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %bias : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (c8) 2-D chain [Lq, Lk]: select(i < j, -inf, s) (i = index 0, j = index 1)
// with a decomposed softmax: top_left.
// CHECK-LABEL: func @causal_2d
// CHECK-NOT: 6x10x
// CHECK: %[[O4:.+]] = attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.000000e+00 : f32} -> tensor<1x1x6x5xf32>
// CHECK: tensor.collapse_shape %[[O4]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
func.func @causal_2d(%q: tensor<6x8xf32>, %k: tensor<10x8xf32>, %v: tensor<10x5xf32>) -> tensor<6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<10x8xf32>) outs(%ekt : tensor<8x10xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<6x8xf32>, tensor<8x10xf32>) outs(%zs : tensor<6x10xf32>) -> tensor<6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<6x10xf32>) outs(%es : tensor<6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi slt, %i, %j : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<6x10xf32>
  %er = tensor.empty() : tensor<6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<6xf32>) -> tensor<6xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]} ins(%sc : tensor<6x10xf32>) outs(%mi : tensor<6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  %d = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sc, %m : tensor<6x10xf32>, tensor<6xf32>) outs(%es : tensor<6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x10xf32>
  %e = linalg.exp ins(%d : tensor<6x10xf32>) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<6xf32>) -> tensor<6xf32>
  %l = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<6x10xf32>) outs(%li : tensor<6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<6x10xf32>, tensor<6xf32>) outs(%es : tensor<6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x10xf32>
  %eo = tensor.empty() : tensor<6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x5xf32>) -> tensor<6x5xf32>
  %o = linalg.matmul ins(%p, %v : tensor<6x10xf32>, tensor<10x5xf32>) outs(%zo : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %o : tensor<6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c11) select(j < i, -inf, s) excludes the keys before the query: only a
// lower bound, a window open to the right, [0, -1] (as a constant band
// mask gives).
// CHECK-LABEL: func @causal_wrong_direction
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {scale = 1.250000e-01 : f32, window = array<i64: 0, -1>} -> tensor<1x4x6x5xf32>
func.func @causal_wrong_direction(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ult, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c9) a two-sided band from two index comparisons: keep where
// j <= i + 3 and j >= i - 2 (`andi`): window [2, 3].
// CHECK-LABEL: func @band_two_sided
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {scale = 1.000000e+00 : f32, window = array<i64: 2, 3>} -> tensor<1x4x6x5xf32>
// CHECK-NOT: 6x10x
// CHECK: return
func.func @band_two_sided(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %hi = arith.addi %i, %c3 : index
    %jl = arith.addi %j, %c2 : index
    %below = arith.cmpi sle, %j, %hi : index
    %above = arith.cmpi sge, %jl, %i : index
    %keep = arith.andi %below, %above : i1
    %r = arith.select %keep, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (c10) a band written as exclusions (`ori`: j > i or j < i - 4)
// with the causal rule: top_left with window [4, -1] (the right side is
// the causal rule's).
// CHECK-LABEL: func @band_excluded_either
// CHECK-NOT: 6x10x
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.000000e+00 : f32, window = array<i64: 4, -1>} -> tensor<1x4x6x5xf32>
// CHECK-NOT: 6x10x
// CHECK: return
func.func @band_excluded_either(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %jl = arith.addi %j, %c4 : index
    %after = arith.cmpi sgt, %j, %i : index
    %before = arith.cmpi slt, %jl, %i : index
    %out = arith.ori %after, %before : i1
    %r = arith.select %out, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n9) keep where either of two comparisons holds (`ori` of allowed
// conditions): not a band.
// CHECK-LABEL: func @band_keep_either
// CHECK-NOT: attn.attention
func.func @band_keep_either(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %jl = arith.addi %j, %c4 : index
    %after = arith.cmpi sgt, %j, %i : index
    %before = arith.cmpi slt, %jl, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.ori'}}
    %either = arith.ori %after, %before : i1
    %r = arith.select %either, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask keeps keys where either of two comparisons hold: not a band}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n10) keep only keys at least two after the query (j >= i + 2): a window
// needs left >= 0, so the mask stays.
// CHECK-LABEL: func @band_lower_off_diagonal
// CHECK-NOT: attn.attention
func.func @band_lower_off_diagonal(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %jl = arith.subi %j, %c2 : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %keep = arith.cmpi sge, %jl, %i : index
    %r = arith.select %keep, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask allows j >= i + 2, a band that does not contain the diagonal of its causal rule (a window needs left >= 0)}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n2) a comparison with the batch index.
// CHECK-LABEL: func @causal_other_dim
// CHECK-NOT: attn.attention
func.func @causal_other_dim(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = linalg.index 0 : index
    %j = linalg.index 2 : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %c = arith.cmpi ugt, %j, %n : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask compares loop 0, score dimension 0, not only the query (1) and key (2) dimensions}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n3) a non-constant offset.
// CHECK-LABEL: func @causal_dynamic_offset
// CHECK-NOT: attn.attention
func.func @causal_dynamic_offset(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %off: index) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %io = arith.addi %i, %off : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %c = arith.cmpi ugt, %j, %io : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask compares values that are not linalg.index sums plus constants}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n4) allowed j <= i - 1 (Lk - Lq = 4) is no causal mode nor window.
// CHECK-LABEL: func @causal_negative_offset
// CHECK-NOT: attn.attention
func.func @causal_negative_offset(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %c = arith.cmpi sge, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask allows j <= i - 1, which is neither top_left (0) nor bottom_right (Lk - Lq = 4) nor a window [-1, c >= 0]}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n5) a finite fill, accepted with large-negative-is-masked.
// CHECK-LABEL: func @causal_finite_fill
// CHECK-NOT: attn.attention
// OPT-LABEL: func @causal_finite_fill
// OPT: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.250000e-01 : f32}
func.func @causal_finite_fill(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %big = arith.constant -1.0e9 : f32
    %c = arith.cmpi ugt, %j, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %r = arith.select %c, %big, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask sets excluded scores to a finite value, not -inf (see option large-negative-is-masked)}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// (n6) an equality comparison (a diagonal) is no causal mask.
// CHECK-LABEL: func @causal_eq
// CHECK-NOT: attn.attention
func.func @causal_eq(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %c = arith.cmpi eq, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the index-built mask compares for (in)equality}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// An additive bias select(pad, -inf, 0) of a boolean tensor is that
// boolean mask (inverted: true excludes): the op reads the i1 tensor, one
// byte per score, not an f32 bias.
// CHECK-LABEL: func.func @bias_of_boolean
// CHECK: %[[PAD:.*]] = tensor.expand_shape %arg3
// CHECK: %[[KEEP:.*]] = linalg.generic {{.*}} ins(%[[PAD]] : tensor<1x4x6x10xi1>)
// CHECK: arith.xori
// CHECK: attn.attention {{.*}} mask(%[[KEEP]] : tensor<1x4x6x10xi1>)
#bb_id = affine_map<(b, i, j) -> (b, i, j)>
func.func @bias_of_boolean(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %pad: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %bias = linalg.generic {indexing_maps = [#bb_id, #bb_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pad : tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %o: f32):
    %r = arith.select %b, %ninf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#bb_id, #bb_id, #bb_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row4 = affine_map<(b, h, i, j) -> (b, h, i)>
// PyTorch's safe softmax (its scaled_dot_product_attention decomposition):
// select(all(s == -inf over the keys), 0, softmax(s)). A row with no allowed
// key gives 0 in attn.attention already: the test and the select are part
// of the chain.
// CHECK-LABEL: func @safe_softmax
// CHECK: attn.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: arith.cmpf
func.func @safe_softmax(%q: tensor<2x4x6x8xf32>, %k: tensor<2x4x10x8xf32>, %v: tensor<2x4x10x5xf32>) -> tensor<2x4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %sel0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %true = arith.constant true
  %es = tensor.empty() : tensor<2x4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x6x10xf32>) -> tensor<2x4x6x10xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x6x8xf32>, tensor<2x4x10x8xf32>) outs(%zs : tensor<2x4x6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6x10xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x6x10xf32>) outs(%es : tensor<2x4x6x10xf32>) -> tensor<2x4x6x10xf32>
  %e64 = tensor.empty() : tensor<2x4x6x10xf64>
  %s64 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x6x10xf32>) outs(%e64 : tensor<2x4x6x10xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<2x4x6x10xf64>
  %ei = tensor.empty() : tensor<2x4x6x10xi1>
  %eq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s64 : tensor<2x4x6x10xf64>) outs(%ei : tensor<2x4x6x10xi1>) {
  ^bb0(%a: f64, %o: i1):
    %c = arith.cmpf oeq, %a, %ninf : f64
    linalg.yield %c : i1
  } -> tensor<2x4x6x10xi1>
  %er = tensor.empty() : tensor<2x4x6xi1>
  %ft = linalg.fill ins(%true : i1) outs(%er : tensor<2x4x6xi1>) -> tensor<2x4x6xi1>
  %all = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%eq : tensor<2x4x6x10xi1>) outs(%ft : tensor<2x4x6xi1>) {
  ^bb0(%a: i1, %o: i1):
    %c = arith.andi %a, %o : i1
    linalg.yield %c : i1
  } -> tensor<2x4x6xi1>
  %ps = linalg.generic {indexing_maps = [#row4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %p : tensor<2x4x6xi1>, tensor<2x4x6x10xf32>) outs(%es : tensor<2x4x6x10xf32>) {
  ^bb0(%c: i1, %x: f32, %o: f32):
    %y = arith.select %c, %sel0, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x6x10xf32>
  %eo = tensor.empty() : tensor<2x4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x6x5xf32>) -> tensor<2x4x6x5xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ps, %v : tensor<2x4x6x10xf32>, tensor<2x4x10x5xf32>) outs(%zo : tensor<2x4x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6x5xf32>
  return %o : tensor<2x4x6x5xf32>
}

// -----

#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row4 = affine_map<(b, h, i, j) -> (b, h, i)>
// The same with 0.5 for the all -inf rows: not the op's 0, left alone.
// CHECK-LABEL: func @safe_softmax_other_fill
// CHECK-NOT: attn.attention
func.func @safe_softmax_other_fill(%q: tensor<2x4x6x8xf32>, %k: tensor<2x4x10x8xf32>, %v: tensor<2x4x10x5xf32>) -> tensor<2x4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %sel0 = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %true = arith.constant true
  %es = tensor.empty() : tensor<2x4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x6x10xf32>) -> tensor<2x4x6x10xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x6x8xf32>, tensor<2x4x10x8xf32>) outs(%zs : tensor<2x4x6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6x10xf32>
  // expected-remark @below {{not fused: the scores have users other than the softmax}}
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x6x10xf32>) outs(%es : tensor<2x4x6x10xf32>) -> tensor<2x4x6x10xf32>
  %e64 = tensor.empty() : tensor<2x4x6x10xf64>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s64 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x6x10xf32>) outs(%e64 : tensor<2x4x6x10xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<2x4x6x10xf64>
  %ei = tensor.empty() : tensor<2x4x6x10xi1>
  %eq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s64 : tensor<2x4x6x10xf64>) outs(%ei : tensor<2x4x6x10xi1>) {
  ^bb0(%a: f64, %o: i1):
    %c = arith.cmpf oeq, %a, %ninf : f64
    linalg.yield %c : i1
  } -> tensor<2x4x6x10xi1>
  %er = tensor.empty() : tensor<2x4x6xi1>
  %ft = linalg.fill ins(%true : i1) outs(%er : tensor<2x4x6xi1>) -> tensor<2x4x6xi1>
  %all = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%eq : tensor<2x4x6x10xi1>) outs(%ft : tensor<2x4x6xi1>) {
  ^bb0(%a: i1, %o: i1):
    %c = arith.andi %a, %o : i1
    linalg.yield %c : i1
  } -> tensor<2x4x6xi1>
  %ps = linalg.generic {indexing_maps = [#row4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %p : tensor<2x4x6xi1>, tensor<2x4x6x10xf32>) outs(%es : tensor<2x4x6x10xf32>) {
  ^bb0(%c: i1, %x: f32, %o: f32):
    %y = arith.select %c, %sel0, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x6x10xf32>
  %eo = tensor.empty() : tensor<2x4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x6x5xf32>) -> tensor<2x4x6x5xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ps, %v : tensor<2x4x6x10xf32>, tensor<2x4x10x5xf32>) outs(%zo : tensor<2x4x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6x5xf32>
  return %o : tensor<2x4x6x5xf32>
}
