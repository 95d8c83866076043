// RUN: attention-opt %s -split-input-file --attn-fuse="explain allow-precision-change" -verify-diagnostics | FileCheck %s
// RUN: attention-opt %s -split-input-file --attn-fuse="inexact-reciprocal allow-precision-change" | FileCheck %s --check-prefix=OPT

// attn-fuse raises dropout written as a multiplication by a keep mask and
// 1/(1 - p) between the softmax and P·V into attn.attention's dropout_p and
// dropout_mask (docs/integration.md). Scores are 4x6x10 (Lq = 6, Lk = 10);
// no 6x10 float tensor survives a fused chain. The near-misses at the end are
// left alone and, with `explain`, get a remark at their softmax.

// (D1) One generic: P * uitofp(keep) * 1.25, the keep mask an i1 tensor
// of the score shape: p = 1 - 1/1.25 = 0.2.
// CHECK-LABEL: func @generic_uitofp
// CHECK-SAME: %[[KEEP:[a-z0-9_]+]]: tensor<4x6x10xi1>
// CHECK-NOT: 6x10xf32
// CHECK: %[[K4:.+]] = tensor.expand_shape %[[KEEP]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 6, 10]
// CHECK: attn.attention ins({{.*}}) dropout_mask(%[[K4]] : tensor<1x4x6x10xi1>) {dropout_p = 2.000000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NOT: 6x10xf32
// CHECK: return
func.func @generic_uitofp(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %c = arith.constant 1.25 : f32
    %f = arith.uitofp %a1 : i1 to f32
    %m = arith.mulf %a0, %f : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (D2) select(keep, P, 0) with the keep mask [Lq, Lk] broadcast over the
// heads, then a linalg.mul by a filled 2.0: p = 0.5.
// CHECK-LABEL: func @select_then_mul
// CHECK-SAME: %[[KEEP:[a-z0-9_]+]]: tensor<6x10xi1>
// CHECK-NOT: 6x10xf32
// CHECK: %[[K4:.+]] = tensor.expand_shape %[[KEEP]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 6, 10]
// CHECK: attn.attention ins({{.*}}) dropout_mask(%[[K4]] : tensor<1x1x6x10xi1>) {dropout_p = 5.000000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NOT: 6x10xf32
// CHECK: return
func.func @select_then_mul(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %r = arith.select %a1, %a0, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %two = arith.constant 2.0 : f32
  %ct = linalg.fill ins(%two : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.mul ins(%pk, %ct : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (D3) Scale first (P * 4/3 in a generic), then a linalg.mul by a 0/1
// float tensor made from the i1 mask with uitofp (p = 0.25). That float
// tensor has another user, which is fine: it stays, the chain is fused.
// CHECK-LABEL: func @scale_then_keep
// CHECK-SAME: %[[KEEP:[a-z0-9_]+]]: tensor<4x6x10xi1>
// CHECK: %[[KF:.+]] = linalg.generic
// CHECK: arith.uitofp
// CHECK: attn.attention ins({{.*}}) dropout_mask(%{{.+}} : tensor<1x4x6x10xi1>) {dropout_p = 2.500000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NOT: linalg.mul
// CHECK: return %{{.+}}, %[[KF]]
func.func @scale_then_keep(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %kf = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%keep : tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: i1, %out: f32):
    %f = arith.uitofp %a0 : i1 to f32
    linalg.yield %f : f32
  } -> tensor<4x6x10xf32>
  %ps = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 1.33333337 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %pd = linalg.mul ins(%ps, %kf : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o, %kf : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// (D4) A pre-scaled keep tensor of 0 and 4 (select(keep, 4.0, 0) in a
// generic), multiplied on the left of P: p = 1 - 1/4 = 0.75.
// CHECK-LABEL: func @prescaled_keep
// CHECK-NOT: 6x10xf32
// CHECK: attn.attention ins({{.*}}) dropout_mask(%{{.+}} : tensor<1x4x6x10xi1>) {dropout_p = 7.500000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NOT: 6x10xf32
// CHECK: return
func.func @prescaled_keep(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%keep : tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: i1, %out: f32):
    %c = arith.constant 4.0 : f32
    %r = arith.select %a0, %c, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %pd = linalg.mul ins(%ks, %p : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (D5) Division by 1 - p in the generic: select(keep, P, 0) / 0.75.
// CHECK-LABEL: func @divide_by_one_minus_p
// CHECK: attn.attention ins({{.*}}) dropout_mask(%{{.+}} : tensor<1x4x6x10xi1>) {dropout_p = 2.500000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NOT: 6x10xf32
// CHECK: return
func.func @divide_by_one_minus_p(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %c = arith.constant 0.75 : f32
    %m = arith.select %a1, %a0, %zero : f32
    %r = arith.divf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (D7) 4-D f16 chain from generics, output [B, L, H, Dv]: the keep mask
// [B, 1, Lq, Lk] (broadcast over heads through a size-1 dim read at 0)
// widened with extui then uitofp, times 2.0 in f16: p = 0.5.
#q4 = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k4 = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s4 = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#p4 = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v4 = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o4 = affine_map<(b, h, i, e, j) -> (b, i, h, e)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-LABEL: func @generic_4d_f16
// CHECK-SAME: %[[KEEP:[a-z0-9_]+]]: tensor<2x1x6x10xi1>
// CHECK-NOT: 6x10xf16
// CHECK: %[[O:.+]] = attn.attention ins({{.*}} : tensor<2x3x6x8xf16>, tensor<2x3x10x8xf16>, tensor<2x3x10x5xf16>) dropout_mask(%[[KEEP]] : tensor<2x1x6x10xi1>) {attn.chain_softmax_type = f16, dropout_p = 5.000000e-01 : f32, scale = 1.000000e+00 : f32} -> tensor<2x3x6x5xf16>
// CHECK: linalg.transpose ins(%[[O]] : tensor<2x3x6x5xf16>)
// CHECK-NOT: 6x10xf16
// CHECK: return
func.func @generic_4d_f16(%q: tensor<2x3x6x8xf16>, %k: tensor<2x3x10x8xf16>, %v: tensor<2x3x10x5xf16>, %keep: tensor<2x1x6x10xi1>) -> tensor<2x6x3x5xf16> {
  %zero = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<2x3x6x10xf16>
  %zs = linalg.fill ins(%zero : f16) outs(%es : tensor<2x3x6x10xf16>) -> tensor<2x3x6x10xf16>
  %s = linalg.generic {indexing_maps = [#q4, #k4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x6x8xf16>, tensor<2x3x10x8xf16>) outs(%zs : tensor<2x3x6x10xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x3x6x10xf16>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x3x6x10xf16>) outs(%es : tensor<2x3x6x10xf16>) -> tensor<2x3x6x10xf16>
  %pd = linalg.generic {indexing_maps = [#id4, #keep4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<2x3x6x10xf16>, tensor<2x1x6x10xi1>) outs(%es : tensor<2x3x6x10xf16>) {
  ^bb0(%x: f16, %kk: i1, %o: f16):
    %two = arith.constant 2.0 : f16
    %w = arith.extui %kk : i1 to i8
    %f = arith.uitofp %w : i8 to f16
    %y = arith.mulf %two, %f : f16
    %r = arith.mulf %x, %y : f16
    linalg.yield %r : f16
  } -> tensor<2x3x6x10xf16>
  %eo = tensor.empty() : tensor<2x6x3x5xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x6x3x5xf16>) -> tensor<2x6x3x5xf16>
  %o = linalg.generic {indexing_maps = [#p4, #v4, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pd, %v : tensor<2x3x6x10xf16>, tensor<2x3x10x5xf16>) outs(%zo : tensor<2x6x3x5xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x6x3x5xf16>
  return %o : tensor<2x6x3x5xf16>
}

// -----

// (D8) 2-D chain: a 0/1 keep tensor from select(keep, 1.0, 0.0), P times it
// (linalg.mul), then a named linalg.div by 1 - p = 0.5 (a filled tensor).
// CHECK-LABEL: func @matmul_2d_select_div
// CHECK-SAME: %[[KEEP:[a-z0-9_]+]]: tensor<6x10xi1>
// CHECK: %[[K4:.+]] = tensor.expand_shape %[[KEEP]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 6, 10]
// CHECK: attn.attention ins({{.*}}) dropout_mask(%[[K4]] : tensor<1x1x6x10xi1>) {dropout_p = 5.000000e-01 : f32, scale = 1.000000e+00 : f32} -> tensor<1x1x6x5xf32>
// CHECK-NOT: linalg.div
// CHECK: return
func.func @matmul_2d_select_div(%q: tensor<6x8xf32>, %k: tensor<10x8xf32>, %v: tensor<10x5xf32>, %keep: tensor<6x10xi1>) -> tensor<6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %ekt = tensor.empty() : tensor<8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<10x8xf32>) outs(%ekt : tensor<8x10xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<6x8xf32>, tensor<8x10xf32>) outs(%zs : tensor<6x10xf32>) -> tensor<6x10xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<6x10xf32>) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %kf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<6x10xi1>) outs(%es : tensor<6x10xf32>) {
  ^bb0(%b: i1, %o: f32):
    %r = arith.select %b, %one, %zero : f32
    linalg.yield %r : f32
  } -> tensor<6x10xf32>
  %pk = linalg.mul ins(%p, %kf : tensor<6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %ht = linalg.fill ins(%half : f32) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %pd = linalg.div ins(%pk, %ht : tensor<6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<6x10xf32>) -> tensor<6x10xf32>
  %eo = tensor.empty() : tensor<6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x5xf32>) -> tensor<6x5xf32>
  %o = linalg.matmul ins(%pd, %v : tensor<6x10xf32>, tensor<10x5xf32>) outs(%zo : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %o : tensor<6x5xf32>
}

// -----

// (D6) TOSA: tosa.cast of the i1 keep mask to f32, times 1.25 (a pre-scaled
// keep tensor), times P: p = 0.2.
// CHECK-LABEL: func @tosa_dropout
// CHECK-SAME: %[[KEEP:[a-z0-9_]+]]: tensor<4x6x10xi1>
// CHECK-NOT: tosa.cast
// CHECK: %[[K4:.+]] = tensor.expand_shape %[[KEEP]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 6, 10]
// CHECK: attn.attention ins({{.*}}) dropout_mask(%[[K4]] : tensor<1x4x6x10xi1>) {dropout_p = 2.000000e-01 : f32, scale = 1.250000e-01 : f32}
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_dropout(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %cd = "tosa.const"() <{values = dense<1.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  %ss = tosa.mul %s, %c, %shift : (tensor<4x6x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %ss, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %kf = tosa.cast %keep : (tensor<4x6x10xi1>) -> tensor<4x6x10xf32>
  %ks = tosa.mul %kf, %cd, %shift : (tensor<4x6x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %pd = tosa.mul %p, %ks, %shift : (tensor<4x6x10xf32>, tensor<4x6x10xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %pd, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Near-misses: each is left alone; the remark says why.

// (N1) The kept probabilities are scaled by 0.8 (1 - p instead of
// 1/(1 - p)): no p in (0, 1) gives that factor.
// CHECK-LABEL: func @scale_not_inverse
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax
func.func @scale_not_inverse(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: dropout: the kept probabilities are scaled by 0.800000011, which is not 1/(1 - p) for a p in (0, 1)}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %c = arith.constant 0.8 : f32
    %f = arith.uitofp %a1 : i1 to f32
    %m = arith.mulf %a0, %f : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (N2) A float keep tensor from a function argument: not provably 0/1.
// CHECK-LABEL: func @float_keep_argument
// CHECK-NOT: attn.attention
func.func @float_keep_argument(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keepf: tensor<4x6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: dropout: the probabilities are multiplied by a tensor that is not provably a 0/1 keep mask (a block argument; convert an i1 mask with arith.uitofp, arith.select or tosa.cast)}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keepf : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %c = arith.constant 1.25 : f32
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (N3) The dropped-out probabilities are also returned.
// CHECK-LABEL: func @dropped_probs_returned
// CHECK-NOT: attn.attention
func.func @dropped_probs_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the dropped-out probabilities have another user}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %r = arith.select %a1, %a0, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pk : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 2.0 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %pd : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// (N3b) P * keep (before the scale) is also returned.
// CHECK-LABEL: func @masked_probs_returned
// CHECK-NOT: attn.attention
func.func @masked_probs_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: the dropped-out probabilities have another user}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %r = arith.select %a1, %a0, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pk : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 2.0 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %pk : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// (N5) select(keep, 0, P): drops where the mask is true.
// CHECK-LABEL: func @select_inverted
// CHECK-NOT: attn.attention
func.func @select_inverted(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: dropout: the dropout select keeps where its condition is false; attn.attention's dropout_mask keeps where it is true}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %c = arith.constant 2.0 : f32
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %m = arith.select %a1, %zero, %a0 : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (N6) P scaled by a constant without any keep mask.
// CHECK-LABEL: func @scale_without_keep
// CHECK-NOT: attn.attention
func.func @scale_without_keep(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: dropout: the probabilities are multiplied by a constant but not by a keep mask}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 1.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (N4) Dropout applied to exp(s - max) before the row sum: it changes l.
// CHECK-LABEL: func @dropout_before_sum
// CHECK-NOT: attn.attention
func.func @dropout_before_sum(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{not fused: exp(s - max) is multiplied before the row sum (dropout before the softmax normalization?): that changes the row sum l, while attn.attention's dropout keeps l pre-dropout}}
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ed = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %kk: i1, %o: f32):
    %c = arith.constant 1.25 : f32
    %f = arith.uitofp %kk : i1 to f32
    %y = arith.mulf %x, %f : f32
    %r = arith.mulf %y, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ed : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ed, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
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

// (D9) Dropout applied to exp(s - max) after the row sum, before the
// division: (e * keep * 1.25) / l is attn.attention's dropout of e / l up to
// rounding (l is the pre-dropout sum in both).
// CHECK-LABEL: func @dropout_before_division
// CHECK-NOT: 6x10xf32
// CHECK: attn.attention ins({{.*}}) dropout_mask(%{{.+}} : tensor<1x4x6x10xi1>) {dropout_p = 2.000000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NOT: 6x10xf32
// CHECK: return
func.func @dropout_before_division(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %ed = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %kk: i1, %o: f32):
    %c = arith.constant 1.25 : f32
    %f = arith.uitofp %kk : i1 to f32
    %y = arith.mulf %x, %f : f32
    %r = arith.mulf %y, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ed, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
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

// (N8) Dropout both before the division and after it: two keep masks.
// CHECK-LABEL: func @dropout_before_and_after_division
// CHECK-NOT: attn.attention
func.func @dropout_before_and_after_division(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>, %keep2: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{not fused: dropout is applied both before and after the softmax normalization}}
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %ed = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %kk: i1, %o: f32):
    %c = arith.constant 1.25 : f32
    %f = arith.uitofp %kk : i1 to f32
    %y = arith.mulf %x, %f : f32
    %r = arith.mulf %y, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ed, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep2 : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %kk: i1, %o: f32):
    %c = arith.constant 1.25 : f32
    %f = arith.uitofp %kk : i1 to f32
    %y = arith.mulf %x, %f : f32
    %r = arith.mulf %y, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// (N7) Factor 2.5: p = 0.6 is not exact in f32, and fl(1/(1 - fl(0.6))) is
// 2.50000024, not 2.5. Fused only with inexact-reciprocal (rounding only).
// CHECK-LABEL: func @factor_not_exact
// CHECK-NOT: attn.attention
// OPT-LABEL: func @factor_not_exact
// OPT: attn.attention ins({{.*}}) dropout_mask(%{{.+}} : tensor<1x4x6x10xi1>) {dropout_p = 6.000000e-01 : f32, scale = 1.000000e+00 : f32}
func.func @factor_not_exact(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{not fused: dropout: the factor 2.5 is not fl(1/(1 - p)) for any f32 p (p = 0.600000024 gives 2.50000024; see option inexact-reciprocal)}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %c = arith.constant 2.5 : f32
    %m = arith.select %a1, %a0, %zero : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
