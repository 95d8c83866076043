// A boolean mask applied before the scale (GPT-J and CodeGen's
// `where(causal, w, min) / scale_attn`, `masked_fill(m, -inf) / sqrt(d)`):
// `select(m, s, -inf) * c` is `select(m, s * c, -inf)` for c > 0, so
// attn-fuse accepts it there as after the scale, whether the mask is an
// argument or a small causal mask attn-normalize-chains evaluated into a
// constant. Not before a non-positive scale or a softcap; and Q, K or V with a size-0
// dim is left alone (no op with zero heads, no read of an empty mask).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: attn-raise-check %s --runs=2 --seed=21 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL

// An 8 x 8 causal mask from linalg.index, then * 0.5.
// CHECK-LABEL: func.func @causal_then_scale
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 5.000000e-01 : f32}
// PROOF: @causal_then_scale: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @causal_then_scale(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>) -> (tensor<1x1x8x4xf32>) {
  %e1 = tensor.empty() : tensor<1x1x8x8xf32>
  %c2 = arith.constant 0.0 : f32
  %f3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>) outs(%f3 : tensor<1x1x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g4 = arith.mulf %a0, %a1 : f32
    %r_g4 = arith.addf %a2, %m_g4 : f32
    linalg.yield %r_g4 : f32
  } -> tensor<1x1x8x8xf32>
  %e5 = tensor.empty() : tensor<1x1x8x8xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4 : tensor<1x1x8x8xf32>) outs(%e5 : tensor<1x1x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %i_g6 = linalg.index 2 : index
    %j_g6 = linalg.index 3 : index
    %k_g6 = arith.cmpi sle, %j_g6, %i_g6 : index
    %ninf_g6 = arith.constant 0xFF800000 : f32
    %r_g6 = arith.select %k_g6, %a0, %ninf_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<1x1x8x8xf32>
  %e7 = tensor.empty() : tensor<1x1x8x8xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6 : tensor<1x1x8x8xf32>) outs(%e7 : tensor<1x1x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c_g8 = arith.constant 0.5 : f32
    %r_g8 = arith.mulf %a0, %c_g8 : f32
    linalg.yield %r_g8 : f32
  } -> tensor<1x1x8x8xf32>
  %e9 = tensor.empty() : tensor<1x1x8x1xf32>
  %c10 = arith.constant 0xFF800000 : f32
  %f11 = linalg.fill ins(%c10 : f32) outs(%e9 : tensor<1x1x8x1xf32>) -> tensor<1x1x8x1xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g8 : tensor<1x1x8x8xf32>) outs(%f11 : tensor<1x1x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g12 = arith.maximumf %a0, %a1 : f32
    linalg.yield %r_g12 : f32
  } -> tensor<1x1x8x1xf32>
  %e13 = tensor.empty() : tensor<1x1x8x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g8, %g12 : tensor<1x1x8x8xf32>, tensor<1x1x8x1xf32>) outs(%e13 : tensor<1x1x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g14 = arith.subf %a0, %a1 : f32
    linalg.yield %r_g14 : f32
  } -> tensor<1x1x8x8xf32>
  %e15 = tensor.empty() : tensor<1x1x8x8xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g14 : tensor<1x1x8x8xf32>) outs(%e15 : tensor<1x1x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g16 = math.exp %a0 : f32
    linalg.yield %r_g16 : f32
  } -> tensor<1x1x8x8xf32>
  %e17 = tensor.empty() : tensor<1x1x8x1xf32>
  %c18 = arith.constant 0.0 : f32
  %f19 = linalg.fill ins(%c18 : f32) outs(%e17 : tensor<1x1x8x1xf32>) -> tensor<1x1x8x1xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g16 : tensor<1x1x8x8xf32>) outs(%f19 : tensor<1x1x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g20 = arith.addf %a0, %a1 : f32
    linalg.yield %r_g20 : f32
  } -> tensor<1x1x8x1xf32>
  %e21 = tensor.empty() : tensor<1x1x8x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g16, %g20 : tensor<1x1x8x8xf32>, tensor<1x1x8x1xf32>) outs(%e21 : tensor<1x1x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g22 = arith.divf %a0, %a1 : f32
    linalg.yield %r_g22 : f32
  } -> tensor<1x1x8x8xf32>
  %e23 = tensor.empty() : tensor<1x1x8x4xf32>
  %c24 = arith.constant 0.0 : f32
  %f25 = linalg.fill ins(%c24 : f32) outs(%e23 : tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%g22, %v : tensor<1x1x8x8xf32>, tensor<1x1x8x4xf32>) outs(%f25 : tensor<1x1x8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g26 = arith.mulf %a0, %a1 : f32
    %r_g26 = arith.addf %a2, %m_g26 : f32
    linalg.yield %r_g26 : f32
  } -> tensor<1x1x8x4xf32>
  return %g26 : tensor<1x1x8x4xf32>
}

// The user's i1 mask, then * 0.25.
// CHECK-LABEL: func.func @mask_then_scale
// CHECK: attn.attention {{.*}} mask(%{{.*}} : tensor<2x2x8x8xi1>) {scale = 2.500000e-01 : f32}
// PROOF: @mask_then_scale: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @mask_then_scale(%q: tensor<2x2x8x4xf32>, %k: tensor<2x2x8x4xf32>, %v: tensor<2x2x8x4xf32>, %m: tensor<2x2x8x8xi1>) -> (tensor<2x2x8x4xf32>) {
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
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4, %m : tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>) outs(%e5 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: i1, %a2: f32):
    %ninf_g6 = arith.constant 0xFF800000 : f32
    %r_g6 = arith.select %a1, %a0, %ninf_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<2x2x8x8xf32>
  %e7 = tensor.empty() : tensor<2x2x8x8xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6 : tensor<2x2x8x8xf32>) outs(%e7 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c_g8 = arith.constant 0.25 : f32
    %r_g8 = arith.mulf %a0, %c_g8 : f32
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

// Before a negative scale the mask's -inf would become +inf: left alone.
// CHECK-LABEL: func.func @mask_then_negative_scale
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: a boolean mask is followed by a non-positive scale
// PROOF: @mask_then_negative_scale: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @mask_then_negative_scale(%q: tensor<2x2x8x4xf32>, %k: tensor<2x2x8x4xf32>, %v: tensor<2x2x8x4xf32>, %m: tensor<2x2x8x8xi1>) -> (tensor<2x2x8x4xf32>) {
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
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4, %m : tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>) outs(%e5 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: i1, %a2: f32):
    %ninf_g6 = arith.constant 0xFF800000 : f32
    %r_g6 = arith.select %a1, %a0, %ninf_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<2x2x8x8xf32>
  %e7 = tensor.empty() : tensor<2x2x8x8xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6 : tensor<2x2x8x8xf32>) outs(%e7 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c_g8 = arith.constant -0.25 : f32
    %r_g8 = arith.mulf %a0, %c_g8 : f32
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

// GPT-J: where(causal, w, -inf) / 4.
// CHECK-LABEL: func.func @gptj_where_then_div
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 2.500000e-01 : f32}
// PROOF: @gptj_where_then_div: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
func.func @gptj_where_then_div(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %min = arith.constant 0xFF800000 : f32
  %sd = arith.constant 4.0 : f32
  %es = tensor.empty() : tensor<2x4x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) outs(%zs : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sle, %j, %i : index
    %r = arith.select %c, %x, %min : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sm : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %sd : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%ss : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %eo = tensor.empty() : tensor<2x4x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) outs(%zo : tensor<2x4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// Before a softcap the mask's -inf would become -30: left alone.
// CHECK-LABEL: func.func @mask_then_softcap
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: a boolean mask is applied before the softcap, which turns its -inf into a finite value
// PROOF: @mask_then_softcap: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @mask_then_softcap(%q: tensor<2x2x8x4xf32>, %k: tensor<2x2x8x4xf32>, %v: tensor<2x2x8x4xf32>, %m: tensor<2x2x8x8xi1>) -> (tensor<2x2x8x4xf32>) {
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
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4, %m : tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>) outs(%e5 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: i1, %a2: f32):
    %ninf_g6 = arith.constant 0xFF800000 : f32
    %r_g6 = arith.select %a1, %a0, %ninf_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<2x2x8x8xf32>
  %e7 = tensor.empty() : tensor<2x2x8x8xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6 : tensor<2x2x8x8xf32>) outs(%e7 : tensor<2x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %c_g8 = arith.constant 30.0 : f32
    %d_g8 = arith.divf %a0, %c_g8 : f32
    %t_g8 = math.tanh %d_g8 : f32
    %r_g8 = arith.mulf %t_g8, %c_g8 : f32
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

// A zero-size batch: nothing to compute, left alone (no crash reading the
// empty mask constant).
// CHECK-LABEL: func.func @zero_batch_causal
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: Q, K or V has a dimension of size 0 (nothing to compute)
func.func @zero_batch_causal(%q: tensor<0x2x8x4xf32>, %k: tensor<0x2x8x4xf32>, %v: tensor<0x2x8x4xf32>) -> (tensor<0x2x8x4xf32>) {
  %e1 = tensor.empty() : tensor<0x2x8x8xf32>
  %c2 = arith.constant 0.0 : f32
  %f3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<0x2x8x8xf32>) -> tensor<0x2x8x8xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<0x2x8x4xf32>, tensor<0x2x8x4xf32>) outs(%f3 : tensor<0x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g4 = arith.mulf %a0, %a1 : f32
    %r_g4 = arith.addf %a2, %m_g4 : f32
    linalg.yield %r_g4 : f32
  } -> tensor<0x2x8x8xf32>
  %e5 = tensor.empty() : tensor<0x2x8x8xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g4 : tensor<0x2x8x8xf32>) outs(%e5 : tensor<0x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %i_g6 = linalg.index 2 : index
    %j_g6 = linalg.index 3 : index
    %k_g6 = arith.cmpi sle, %j_g6, %i_g6 : index
    %ninf_g6 = arith.constant 0xFF800000 : f32
    %r_g6 = arith.select %k_g6, %a0, %ninf_g6 : f32
    linalg.yield %r_g6 : f32
  } -> tensor<0x2x8x8xf32>
  %e7 = tensor.empty() : tensor<0x2x8x1xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %f9 = linalg.fill ins(%c8 : f32) outs(%e7 : tensor<0x2x8x1xf32>) -> tensor<0x2x8x1xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g6 : tensor<0x2x8x8xf32>) outs(%f9 : tensor<0x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g10 = arith.maximumf %a0, %a1 : f32
    linalg.yield %r_g10 : f32
  } -> tensor<0x2x8x1xf32>
  %e11 = tensor.empty() : tensor<0x2x8x8xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g6, %g10 : tensor<0x2x8x8xf32>, tensor<0x2x8x1xf32>) outs(%e11 : tensor<0x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g12 = arith.subf %a0, %a1 : f32
    linalg.yield %r_g12 : f32
  } -> tensor<0x2x8x8xf32>
  %e13 = tensor.empty() : tensor<0x2x8x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g12 : tensor<0x2x8x8xf32>) outs(%e13 : tensor<0x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g14 = math.exp %a0 : f32
    linalg.yield %r_g14 : f32
  } -> tensor<0x2x8x8xf32>
  %e15 = tensor.empty() : tensor<0x2x8x1xf32>
  %c16 = arith.constant 0.0 : f32
  %f17 = linalg.fill ins(%c16 : f32) outs(%e15 : tensor<0x2x8x1xf32>) -> tensor<0x2x8x1xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g14 : tensor<0x2x8x8xf32>) outs(%f17 : tensor<0x2x8x1xf32>) {
  ^bb0(%a0: f32, %a1: f32):
    %r_g18 = arith.addf %a0, %a1 : f32
    linalg.yield %r_g18 : f32
  } -> tensor<0x2x8x1xf32>
  %e19 = tensor.empty() : tensor<0x2x8x8xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g14, %g18 : tensor<0x2x8x8xf32>, tensor<0x2x8x1xf32>) outs(%e19 : tensor<0x2x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %r_g20 = arith.divf %a0, %a1 : f32
    linalg.yield %r_g20 : f32
  } -> tensor<0x2x8x8xf32>
  %e21 = tensor.empty() : tensor<0x2x8x4xf32>
  %c22 = arith.constant 0.0 : f32
  %f23 = linalg.fill ins(%c22 : f32) outs(%e21 : tensor<0x2x8x4xf32>) -> tensor<0x2x8x4xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%g20, %v : tensor<0x2x8x8xf32>, tensor<0x2x8x4xf32>) outs(%f23 : tensor<0x2x8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32):
    %m_g24 = arith.mulf %a0, %a1 : f32
    %r_g24 = arith.addf %a2, %m_g24 : f32
    linalg.yield %r_g24 : f32
  } -> tensor<0x2x8x4xf32>
  return %g24 : tensor<0x2x8x4xf32>
}

// Batch 0 of a 3-D chain would be an op with zero heads: left alone.
// CHECK-LABEL: func.func @zero_batch_3d
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: Q, K or V has a dimension of size 0 (nothing to compute)
func.func @zero_batch_3d(%q: tensor<0x8x4xf32>, %k: tensor<0x8x4xf32>, %v: tensor<0x8x4xf32>) -> tensor<0x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<0x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<0x8x8xf32>) -> tensor<0x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<0x8x4xf32>, tensor<0x8x4xf32>) outs(%zs : tensor<0x8x8xf32>) -> tensor<0x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<0x8x8xf32>) outs(%es : tensor<0x8x8xf32>) -> tensor<0x8x8xf32>
  %eo = tensor.empty() : tensor<0x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<0x8x4xf32>) -> tensor<0x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<0x8x8xf32>, tensor<0x8x4xf32>) outs(%zo : tensor<0x8x4xf32>) -> tensor<0x8x4xf32>
  return %o : tensor<0x8x4xf32>
}
