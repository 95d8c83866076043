// A scale written as the reciprocal square root of a constant, `rsqrt(d)`
// in a linalg body or `tosa.rsqrt` of a constant: folded to the constant
// (FoldFloatCastConstants.cpp), so attn-fuse sees a constant scale.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=29 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL

// CHECK-LABEL: func.func @scale_rsqrt
// CHECK: attn.attention {{.*}}{scale = 5.000000e-01 : f32}
// PROOF: @scale_rsqrt: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @scale_rsqrt(%q: tensor<2x2x8x4xf32>, %k: tensor<2x2x8x4xf32>, %v: tensor<2x2x8x4xf32>) -> (tensor<2x2x8x4xf32>) {
  %e1 = tensor.empty() : tensor<2x2x8x8xf32>
  %c2 = arith.constant 0.0 : f32
  %f3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>) outs(%f3 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %a2, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %e5 = tensor.empty() : tensor<2x2x8x8xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4 : tensor<2x2x8x8xf32>) outs(%e5 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c = arith.constant 4.0 : f32
    %s = math.rsqrt %c : f32
    %r = arith.mulf %a0, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %e7 = tensor.empty() : tensor<2x2x8x1xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %f9 = linalg.fill ins(%c8 : f32) outs(%e7 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g6 : tensor<2x2x8x8xf32>) outs(%f9 : tensor<2x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x1xf32>
  %e11 = tensor.empty() : tensor<2x2x8x8xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6, %g10 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%e11 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %e13 = tensor.empty() : tensor<2x2x8x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g12 : tensor<2x2x8x8xf32>) outs(%e13 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %e15 = tensor.empty() : tensor<2x2x8x1xf32>
  %c16 = arith.constant 0.0 : f32
  %f17 = linalg.fill ins(%c16 : f32) outs(%e15 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g14 : tensor<2x2x8x8xf32>) outs(%f17 : tensor<2x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x1xf32>
  %e19 = tensor.empty() : tensor<2x2x8x8xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g14, %g18 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%e19 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %e21 = tensor.empty() : tensor<2x2x8x4xf32>
  %c22 = arith.constant 0.0 : f32
  %f23 = linalg.fill ins(%c22 : f32) outs(%e21 : tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%g20, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x4xf32>) outs(%f23 : tensor<2x2x8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %a2, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x4xf32>
  return %g24 : tensor<2x2x8x4xf32>
}

// CHECK-LABEL: func.func @t_rsqrt
// CHECK: attn.attention {{.*}}{scale = 0.353553{{[0-9]*}} : f32}
// PROOF: @t_rsqrt: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @t_rsqrt(%q: tensor<8x16x8xf32>, %k: tensor<8x16x8xf32>, %v: tensor<8x16x8xf32>) -> tensor<8x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c8 = "tosa.const"() <{values = dense<8.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x16x8xf32>) -> tensor<8x8x16xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
  %cr = tosa.rsqrt %c8 : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %ss = tosa.mul %s, %cr, %shift : (tensor<8x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %d = tosa.sub %ss, %m : (tensor<8x16x16xf32>, tensor<8x16x1xf32>) -> tensor<8x16x16xf32>
  %e = tosa.exp %d : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x16x16xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<8x16x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  return %o : tensor<8x16x8xf32>
}
