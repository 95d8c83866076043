// mqa_einsum (MqaEinsum: Multi-query attention as einsum: one K and V per sequence, 'bhqd,bkd->bhqk'.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=87 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x8x16x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @mqa_einsum: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @mqa_einsum(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x24x32xf32>, %arg2: tensor<2x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %expanded = tensor.expand_shape %arg1 [[0], [1], [2, 3, 4]] output_shape [2, 24, 32, 1, 1] : tensor<2x24x32xf32> into tensor<2x24x32x1x1xf32>
    %collapsed = tensor.collapse_shape %arg0 [[0], [1, 2], [3]] : tensor<2x4x16x32xf32> into tensor<2x64x32xf32>
    %0 = tensor.empty() : tensor<2x32x24x1x1xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x24x32x1x1xf32>) outs(%0 : tensor<2x32x24x1x1xf32>) permutation = [0, 2, 1, 3, 4] 
    %collapsed_2 = tensor.collapse_shape %transposed [[0], [1], [2, 3, 4]] : tensor<2x32x24x1x1xf32> into tensor<2x32x24xf32>
    %1 = tensor.empty() : tensor<2x64x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x64x24xf32>) -> tensor<2x64x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_2 : tensor<2x64x32xf32>, tensor<2x32x24xf32>) outs(%2 : tensor<2x64x24xf32>) -> tensor<2x64x24xf32>
    %expanded_3 = tensor.expand_shape %3 [[0], [1, 2], [3, 4]] output_shape [2, 4, 16, 1, 24] : tensor<2x64x24xf32> into tensor<2x4x16x1x24xf32>
    %4 = tensor.empty() : tensor<2x4x16x24x1xf32>
    %transposed_4 = linalg.transpose ins(%expanded_3 : tensor<2x4x16x1x24xf32>) outs(%4 : tensor<2x4x16x24x1xf32>) permutation = [0, 1, 2, 4, 3] 
    %collapsed_5 = tensor.collapse_shape %transposed_4 [[0], [1], [2], [3, 4]] : tensor<2x4x16x24x1xf32> into tensor<2x4x16x24xf32>
    %5 = tensor.empty() : tensor<2x4x16x24xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed_5 : tensor<2x4x16x24xf32>) outs(%5 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.truncf %cst_1 : f64 to f32
      %23 = arith.divf %in, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %7 = tensor.empty() : tensor<2x4x16xi64>
    %8 = linalg.fill ins(%c0_i64 : i64) outs(%7 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %9 = tensor.empty() : tensor<2x4x16xf32>
    %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %11:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%6 : tensor<2x4x16x24xf32>) outs(%10, %8 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_11: i64):
      %22 = linalg.index 3 : index
      %23 = arith.index_cast %22 : index to i64
      %24 = arith.maximumf %in, %out : f32
      %25 = arith.cmpf ogt, %in, %out : f32
      %26 = arith.select %25, %23, %out_11 : i64
      linalg.yield %24, %26 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_6 = tensor.expand_shape %11#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %expanded_6 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%5 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.subf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x24xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<2x4x16x24xf32>) outs(%5 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.exp %in : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x24xf32>
    %14 = tensor.empty() : tensor<2x4x16x1xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%13 : tensor<2x4x16x24xf32>) outs(%15 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %16 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%5 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.divf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_7 = tensor.collapse_shape %17 [[0], [1, 2], [3]] : tensor<2x4x16x24xf32> into tensor<2x64x24xf32>
    %18 = tensor.empty() : tensor<2x64x32xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
    %20 = linalg.batch_matmul ins(%collapsed_7, %arg2 : tensor<2x64x24xf32>, tensor<2x24x32xf32>) outs(%19 : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
    %expanded_8 = tensor.expand_shape %20 [[0], [1, 2], [3, 4]] output_shape [2, 4, 16, 1, 32] : tensor<2x64x32xf32> into tensor<2x4x16x1x32xf32>
    %21 = tensor.empty() : tensor<2x4x16x32x1xf32>
    %transposed_9 = linalg.transpose ins(%expanded_8 : tensor<2x4x16x1x32xf32>) outs(%21 : tensor<2x4x16x32x1xf32>) permutation = [0, 1, 2, 4, 3] 
    %collapsed_10 = tensor.collapse_shape %transposed_9 [[0], [1], [2], [3, 4]] : tensor<2x4x16x32x1xf32> into tensor<2x4x16x32xf32>
    return %collapsed_10 : tensor<2x4x16x32xf32>
  }
}
