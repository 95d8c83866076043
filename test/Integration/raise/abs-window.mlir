// A symmetric local window written with an absolute value,
// `|i - j| <= w` (local attention in encoders): the band -w <= j - i <= w is
// `window = [w, w]` without a causal rule, at a size whose mask is evaluated
// (8 x 8) and at one whose mask stays index comparisons (160 x 160).
// Keeping the far keys, `|i - j| > w`, is no band: it stays a mask.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=23 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL

// CHECK-LABEL: func.func @abs_window
// CHECK: attn.attention {{.*}}{scale = 5.000000e-01 : f32, window = array<i64: 2, 2>}
// PROOF: @abs_window: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @abs_window(%q: tensor<2x2x8x4xf32>, %k: tensor<2x2x8x4xf32>, %v: tensor<2x2x8x4xf32>) -> (tensor<2x2x8x4xf32>) {
  %e1 = tensor.empty() : tensor<2x2x8x8xf32>
  %c2 = arith.constant 0.0 : f32
  %f3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>) outs(%f3 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g4 = arith.mulf %a0, %a1 : f32
    %r_g4 = arith.addf %a2, %m_g4 : f32
    linalg.yield %r_g4 : f32
  } -> tensor<2x2x8x8xf32>
  %e5 = tensor.empty() : tensor<2x2x8x8xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4 : tensor<2x2x8x8xf32>) outs(%e5 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c_g6 = arith.constant 0.5 : f32
    %r_g6 = arith.mulf %a0, %c_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<2x2x8x8xf32>
  %e7 = tensor.empty() : tensor<2x2x8x8xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6 : tensor<2x2x8x8xf32>) outs(%e7 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %i_g8 = linalg.index 2 : index
    %j_g8 = linalg.index 3 : index
    %d_g8 = arith.subi %i_g8, %j_g8 : index
    %di_g8 = arith.index_cast %d_g8 : index to i64
    %a_g8 = math.absi %di_g8 : i64
    %c2_g8 = arith.constant 2 : i64
    %k_g8 = arith.cmpi sle, %a_g8, %c2_g8 : i64
    %ninf_g8 = arith.constant 0xFF800000 : f32
    %z_g8 = arith.constant 0.0 : f32
    %r_g8 = arith.select %k_g8, %a0, %ninf_g8 : f32
    linalg.yield %r_g8 : f32
  } -> tensor<2x2x8x8xf32>
  %e9 = tensor.empty() : tensor<2x2x8x1xf32>
  %c10 = arith.constant 0xFF800000 : f32
  %f11 = linalg.fill ins(%c10 : f32) outs(%e9 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g8 : tensor<2x2x8x8xf32>) outs(%f11 : tensor<2x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g12 = arith.maximumf %a0, %a1 : f32
    linalg.yield %r_g12 : f32
  } -> tensor<2x2x8x1xf32>
  %e13 = tensor.empty() : tensor<2x2x8x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g8, %g12 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%e13 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g14 = arith.subf %a0, %a1 : f32
    linalg.yield %r_g14 : f32
  } -> tensor<2x2x8x8xf32>
  %e15 = tensor.empty() : tensor<2x2x8x8xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g14 : tensor<2x2x8x8xf32>) outs(%e15 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g16 = math.exp %a0 : f32
    linalg.yield %r_g16 : f32
  } -> tensor<2x2x8x8xf32>
  %e17 = tensor.empty() : tensor<2x2x8x1xf32>
  %c18 = arith.constant 0.0 : f32
  %f19 = linalg.fill ins(%c18 : f32) outs(%e17 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g16 : tensor<2x2x8x8xf32>) outs(%f19 : tensor<2x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g20 = arith.addf %a0, %a1 : f32
    linalg.yield %r_g20 : f32
  } -> tensor<2x2x8x1xf32>
  %e21 = tensor.empty() : tensor<2x2x8x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g16, %g20 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%e21 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g22 = arith.divf %a0, %a1 : f32
    linalg.yield %r_g22 : f32
  } -> tensor<2x2x8x8xf32>
  %e23 = tensor.empty() : tensor<2x2x8x4xf32>
  %c24 = arith.constant 0.0 : f32
  %f25 = linalg.fill ins(%c24 : f32) outs(%e23 : tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%g22, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x4xf32>) outs(%f25 : tensor<2x2x8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g26 = arith.mulf %a0, %a1 : f32
    %r_g26 = arith.addf %a2, %m_g26 : f32
    linalg.yield %r_g26 : f32
  } -> tensor<2x2x8x4xf32>
  return %g26 : tensor<2x2x8x4xf32>
}

// CHECK-LABEL: func.func @abs_window_long
// CHECK: attn.attention {{.*}}window = array<i64: {{[0-9]+}}, {{[0-9]+}}>}
// CHECK-NOT: mask(
// PROOF: @abs_window_long: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @abs_window_long(%q: tensor<1x1x160x2xf32>, %k: tensor<1x1x160x2xf32>, %v: tensor<1x1x160x2xf32>) -> (tensor<1x1x160x2xf32>) {
  %e1 = tensor.empty() : tensor<1x1x160x160xf32>
  %c2 = arith.constant 0.0 : f32
  %f3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<1x1x160x160xf32>) -> tensor<1x1x160x160xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x1x160x2xf32>, tensor<1x1x160x2xf32>) outs(%f3 : tensor<1x1x160x160xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g4 = arith.mulf %a0, %a1 : f32
    %r_g4 = arith.addf %a2, %m_g4 : f32
    linalg.yield %r_g4 : f32
  } -> tensor<1x1x160x160xf32>
  %e5 = tensor.empty() : tensor<1x1x160x160xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4 : tensor<1x1x160x160xf32>) outs(%e5 : tensor<1x1x160x160xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %i_g6 = linalg.index 2 : index
    %j_g6 = linalg.index 3 : index
    %d_g6 = arith.subi %i_g6, %j_g6 : index
    %di_g6 = arith.index_cast %d_g6 : index to i64
    %a_g6 = math.absi %di_g6 : i64
    %c2_g6 = arith.constant 2 : i64
    %k_g6 = arith.cmpi sle, %a_g6, %c2_g6 : i64
    %ninf_g6 = arith.constant 0xFF800000 : f32
    %r_g6 = arith.select %k_g6, %a0, %ninf_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<1x1x160x160xf32>
  %e7 = tensor.empty() : tensor<1x1x160x1xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %f9 = linalg.fill ins(%c8 : f32) outs(%e7 : tensor<1x1x160x1xf32>) -> tensor<1x1x160x1xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g6 : tensor<1x1x160x160xf32>) outs(%f9 : tensor<1x1x160x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g10 = arith.maximumf %a0, %a1 : f32
    linalg.yield %r_g10 : f32
  } -> tensor<1x1x160x1xf32>
  %e11 = tensor.empty() : tensor<1x1x160x160xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6, %g10 : tensor<1x1x160x160xf32>, tensor<1x1x160x1xf32>) outs(%e11 : tensor<1x1x160x160xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g12 = arith.subf %a0, %a1 : f32
    linalg.yield %r_g12 : f32
  } -> tensor<1x1x160x160xf32>
  %e13 = tensor.empty() : tensor<1x1x160x160xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g12 : tensor<1x1x160x160xf32>) outs(%e13 : tensor<1x1x160x160xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g14 = math.exp %a0 : f32
    linalg.yield %r_g14 : f32
  } -> tensor<1x1x160x160xf32>
  %e15 = tensor.empty() : tensor<1x1x160x1xf32>
  %c16 = arith.constant 0.0 : f32
  %f17 = linalg.fill ins(%c16 : f32) outs(%e15 : tensor<1x1x160x1xf32>) -> tensor<1x1x160x1xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g14 : tensor<1x1x160x160xf32>) outs(%f17 : tensor<1x1x160x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g18 = arith.addf %a0, %a1 : f32
    linalg.yield %r_g18 : f32
  } -> tensor<1x1x160x1xf32>
  %e19 = tensor.empty() : tensor<1x1x160x160xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g14, %g18 : tensor<1x1x160x160xf32>, tensor<1x1x160x1xf32>) outs(%e19 : tensor<1x1x160x160xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g20 = arith.divf %a0, %a1 : f32
    linalg.yield %r_g20 : f32
  } -> tensor<1x1x160x160xf32>
  %e21 = tensor.empty() : tensor<1x1x160x2xf32>
  %c22 = arith.constant 0.0 : f32
  %f23 = linalg.fill ins(%c22 : f32) outs(%e21 : tensor<1x1x160x2xf32>) -> tensor<1x1x160x2xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%g20, %v : tensor<1x1x160x160xf32>, tensor<1x1x160x2xf32>) outs(%f23 : tensor<1x1x160x2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g24 = arith.mulf %a0, %a1 : f32
    %r_g24 = arith.addf %a2, %m_g24 : f32
    linalg.yield %r_g24 : f32
  } -> tensor<1x1x160x2xf32>
  return %g24 : tensor<1x1x160x2xf32>
}

// CHECK-LABEL: func.func @abs_keeps_far_keys
// CHECK: attn.attention {{.*}} mask(
// CHECK-NOT: window
// PROOF: @abs_keeps_far_keys: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @abs_keeps_far_keys(%q: tensor<2x2x8x4xf32>, %k: tensor<2x2x8x4xf32>, %v: tensor<2x2x8x4xf32>) -> (tensor<2x2x8x4xf32>) {
  %e1 = tensor.empty() : tensor<2x2x8x8xf32>
  %c2 = arith.constant 0.0 : f32
  %f3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>) outs(%f3 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g4 = arith.mulf %a0, %a1 : f32
    %r_g4 = arith.addf %a2, %m_g4 : f32
    linalg.yield %r_g4 : f32
  } -> tensor<2x2x8x8xf32>
  %e5 = tensor.empty() : tensor<2x2x8x8xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4 : tensor<2x2x8x8xf32>) outs(%e5 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c_g6 = arith.constant 0.5 : f32
    %r_g6 = arith.mulf %a0, %c_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<2x2x8x8xf32>
  %e7 = tensor.empty() : tensor<2x2x8x8xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6 : tensor<2x2x8x8xf32>) outs(%e7 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %i_g8 = linalg.index 2 : index
    %j_g8 = linalg.index 3 : index
    %d_g8 = arith.subi %i_g8, %j_g8 : index
    %di_g8 = arith.index_cast %d_g8 : index to i64
    %a_g8 = math.absi %di_g8 : i64
    %c2_g8 = arith.constant 2 : i64
    %k_g8 = arith.cmpi sgt, %a_g8, %c2_g8 : i64
    %ninf_g8 = arith.constant 0xFF800000 : f32
    %z_g8 = arith.constant 0.0 : f32
    %r_g8 = arith.select %k_g8, %a0, %ninf_g8 : f32
    linalg.yield %r_g8 : f32
  } -> tensor<2x2x8x8xf32>
  %e9 = tensor.empty() : tensor<2x2x8x1xf32>
  %c10 = arith.constant 0xFF800000 : f32
  %f11 = linalg.fill ins(%c10 : f32) outs(%e9 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g8 : tensor<2x2x8x8xf32>) outs(%f11 : tensor<2x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g12 = arith.maximumf %a0, %a1 : f32
    linalg.yield %r_g12 : f32
  } -> tensor<2x2x8x1xf32>
  %e13 = tensor.empty() : tensor<2x2x8x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g8, %g12 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%e13 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g14 = arith.subf %a0, %a1 : f32
    linalg.yield %r_g14 : f32
  } -> tensor<2x2x8x8xf32>
  %e15 = tensor.empty() : tensor<2x2x8x8xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g14 : tensor<2x2x8x8xf32>) outs(%e15 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g16 = math.exp %a0 : f32
    linalg.yield %r_g16 : f32
  } -> tensor<2x2x8x8xf32>
  %e17 = tensor.empty() : tensor<2x2x8x1xf32>
  %c18 = arith.constant 0.0 : f32
  %f19 = linalg.fill ins(%c18 : f32) outs(%e17 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g16 : tensor<2x2x8x8xf32>) outs(%f19 : tensor<2x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g20 = arith.addf %a0, %a1 : f32
    linalg.yield %r_g20 : f32
  } -> tensor<2x2x8x1xf32>
  %e21 = tensor.empty() : tensor<2x2x8x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g16, %g20 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%e21 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g22 = arith.divf %a0, %a1 : f32
    linalg.yield %r_g22 : f32
  } -> tensor<2x2x8x8xf32>
  %e23 = tensor.empty() : tensor<2x2x8x4xf32>
  %c24 = arith.constant 0.0 : f32
  %f25 = linalg.fill ins(%c24 : f32) outs(%e23 : tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%g22, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x4xf32>) outs(%f25 : tensor<2x2x8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g26 = arith.mulf %a0, %a1 : f32
    %r_g26 = arith.addf %a2, %m_g26 : f32
    linalg.yield %r_g26 : f32
  } -> tensor<2x2x8x4xf32>
  return %g26 : tensor<2x2x8x4xf32>
}
