// deferred_norm_other_sum (DeferredNormOtherSum: exp(s - max) @ v divided by the row sum of another tensor.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=147 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: exp(s - max) is multiplied before the row sum
// CHECK-NOT: = attn.attention
// PROOF: @deferred_norm_other_sum: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @deferred_norm_other_sum(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x4x16x24xf32>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_2 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_2 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %4 = tensor.empty() : tensor<2x4x16x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.truncf %cst_1 : f64 to f32
      %23 = arith.divf %in, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %6 = tensor.empty() : tensor<2x4x16xi64>
    %7 = linalg.fill ins(%c0_i64 : i64) outs(%6 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %8 = tensor.empty() : tensor<2x4x16xf32>
    %9 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %10:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%5 : tensor<2x4x16x24xf32>) outs(%9, %7 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_7: i64):
      %22 = linalg.index 3 : index
      %23 = arith.index_cast %22 : index to i64
      %24 = arith.maximumf %in, %out : f32
      %25 = arith.cmpf ogt, %in, %out : f32
      %26 = arith.select %25, %23, %out_7 : i64
      linalg.yield %24, %26 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_3 = tensor.expand_shape %10#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded_3 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %22 = arith.subf %in, %in_7 : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x24xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.exp %in : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_4 = tensor.collapse_shape %12 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_5 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %13 = tensor.empty() : tensor<8x16x32xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %15 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%14 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_6 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.exp %in : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x24xf32>
    %17 = tensor.empty() : tensor<2x4x16x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x16x24xf32>) outs(%18 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x1xf32>
    %20 = tensor.empty() : tensor<2x4x16x32xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_6, %19 : tensor<2x4x16x32xf32>, tensor<2x4x16x1xf32>) outs(%20 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %22 = arith.divf %in, %in_7 : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x32xf32>
    return %21 : tensor<2x4x16x32xf32>
  }
}
