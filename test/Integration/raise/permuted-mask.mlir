// Masks read in another order than the scores' dims: T5's and Swin's
// relative position bias is a table gathered as [Lq, Lk, H] and permuted to
// [H, Lq, Lk], and elementwise fusion moves that permutation into the map
// that reads it. The op's mask is then that tensor transposed into the
// scores' order (they were not raised: "the mask dimensions are permuted").
// A band read transposed is still causal; a mask that reads one score dim
// twice (a diagonal) is left. attn-raise-check proves the raisings.
// RUN: attention-opt %s --attn-raise-pipeline=explain -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=4 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
#qk = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#kk = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sk = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>

// A bias [Lq, Lk, H]: transposed to [H, Lq, Lk].
// CHECK-LABEL: func.func @bias_lq_lk_h
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg3 : tensor<16x24x4xf32>) outs(%{{.*}} : tensor<4x16x24xf32>) permutation = [2, 0, 1]
// CHECK: %[[E:.*]] = tensor.expand_shape %[[T]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 16, 24]
// CHECK: attn.attention ins({{.*}}) mask(%[[E]] : tensor<1x4x16x24xf32>) {scale = 3.500000e-01 : f32}
// PROOF: @bias_lq_lk_h: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @bias_lq_lk_h(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %m: tensor<16x24x4xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (i, j, h)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %s1 : tensor<16x24x4xf32>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%mm: f32, %x: f32, %o: f32):
    %r = arith.addf %x, %mm : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s2 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}


// A bias [B, Lk, Lq] (the query and key dims swapped).
// CHECK-LABEL: func.func @bias_lk_lq
// CHECK: linalg.transpose ins(%arg3 : tensor<2x24x16xf32>) outs(%{{.*}} : tensor<2x16x24xf32>) permutation = [0, 2, 1]
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<2x1x16x24xf32>) {scale = 3.500000e-01 : f32}
// PROOF: @bias_lk_lq: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @bias_lk_lq(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %m: tensor<2x24x16xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, j, i)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %s1 : tensor<2x24x16xf32>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%mm: f32, %x: f32, %o: f32):
    %r = arith.addf %x, %mm : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s2 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}


// A square boolean keep mask read transposed: the op reads it transposed
// (were it read as written, keys and queries would swap; the proof fails).
// CHECK-LABEL: func.func @keep_square_transposed
// CHECK: linalg.transpose ins(%arg3 : tensor<16x16xi1>) outs(%{{.*}} : tensor<16x16xi1>) permutation = [1, 0]
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<1x1x16x16xi1>) {scale = 3.500000e-01 : f32}
// PROOF: @keep_square_transposed: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @keep_square_transposed(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>, %m: tensor<16x16xi1>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zs : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (j, i)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %s1 : tensor<16x16xi1>, tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%mm: i1, %x: f32, %o: f32):
    %r = arith.select %mm, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%s2 : tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}


// A constant band stored key-major (keep[j][i] = j <= i) read transposed:
// causal.
// CHECK-LABEL: func.func @band_transposed
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 3.500000e-01 : f32}
// PROOF: @band_transposed: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @band_transposed(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %c = arith.constant dense<[[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, true, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, true, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true]]> : tensor<16x16xi1>
  %es = tensor.empty() : tensor<2x4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zs : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (j, i)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s1 : tensor<16x16xi1>, tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%mm: i1, %x: f32, %o: f32):
    %r = arith.select %mm, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%s2 : tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}


// A bias read at (i, i), its diagonal, for every key: not a mask of the
// scores' dims, left.
// CHECK-LABEL: func.func @diagonal_read
// CHECK-NOT: attn.attention
// PROOF: @diagonal_read: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @diagonal_read(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>, %m: tensor<16x16xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zs : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (i, i)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %s1 : tensor<16x16xf32>, tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%mm: f32, %x: f32, %o: f32):
    %r = arith.addf %x, %mm : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the mask reads a score dimension twice}}
  %p = linalg.softmax dimension(3) ins(%s2 : tensor<2x4x16x16xf32>) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}
