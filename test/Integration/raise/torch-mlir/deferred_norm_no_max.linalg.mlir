// deferred_norm_no_max (DeferredNormNoMax: exp(s) @ v / sum exp(s), without the row max: overflows where the op does not.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=143 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: a softmax without its row max
// CHECK-NOT: = attn.attention
// PROOF: @deferred_norm_no_max: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @deferred_norm_no_max(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_1 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_1 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %4 = tensor.empty() : tensor<2x4x16x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = arith.truncf %cst_0 : f64 to f32
      %16 = arith.divf %in, %15 : f32
      linalg.yield %16 : f32
    } -> tensor<2x4x16x24xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = math.exp %in : f32
      linalg.yield %15 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_2 = tensor.collapse_shape %6 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_3 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %7 = tensor.empty() : tensor<8x16x32xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %9 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%8 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_4 = tensor.expand_shape %9 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    %10 = tensor.empty() : tensor<2x4x16x1xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%6 : tensor<2x4x16x24xf32>) outs(%11 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = arith.addf %in, %out : f32
      linalg.yield %15 : f32
    } -> tensor<2x4x16x1xf32>
    %13 = tensor.empty() : tensor<2x4x16x32xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_4, %12 : tensor<2x4x16x32xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %15 = arith.divf %in, %in_5 : f32
      linalg.yield %15 : f32
    } -> tensor<2x4x16x32xf32>
    return %14 : tensor<2x4x16x32xf32>
  }
}
