// mha_3d (Mha3d: [B, L, H*D] inputs split into heads, as nn.MultiheadAttention does.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=17 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @mha_3d: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @mha_3d(%arg0: tensor<2x16x128xf32>, %arg1: tensor<2x24x128xf32>, %arg2: tensor<2x24x128xf32>) -> tensor<2x16x128xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %expanded = tensor.expand_shape %arg0 [[0], [1], [2, 3]] output_shape [2, 16, 4, 32] : tensor<2x16x128xf32> into tensor<2x16x4x32xf32>
    %0 = tensor.empty() : tensor<2x4x16x32xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x16x4x32xf32>) outs(%0 : tensor<2x4x16x32xf32>) permutation = [0, 2, 1, 3] 
    %expanded_2 = tensor.expand_shape %arg1 [[0], [1], [2, 3]] output_shape [2, 24, 4, 32] : tensor<2x24x128xf32> into tensor<2x24x4x32xf32>
    %expanded_3 = tensor.expand_shape %arg2 [[0], [1], [2, 3]] output_shape [2, 24, 4, 32] : tensor<2x24x128xf32> into tensor<2x24x4x32xf32>
    %1 = tensor.empty() : tensor<2x4x24x32xf32>
    %transposed_4 = linalg.transpose ins(%expanded_3 : tensor<2x24x4x32xf32>) outs(%1 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3] 
    %2 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed_5 = linalg.transpose ins(%expanded_2 : tensor<2x24x4x32xf32>) outs(%2 : tensor<2x4x32x24xf32>) permutation = [0, 2, 3, 1] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_6 = tensor.collapse_shape %transposed_5 [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %3 = tensor.empty() : tensor<8x16x24xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%4 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded_7 = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %6 = tensor.empty() : tensor<2x4x16x24xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x4x16x24xf32>) outs(%6 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.truncf %cst_1 : f64 to f32
      %24 = arith.divf %in, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x24xf32>
    %8 = tensor.empty() : tensor<2x4x16xi64>
    %9 = linalg.fill ins(%c0_i64 : i64) outs(%8 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %10 = tensor.empty() : tensor<2x4x16xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %12:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<2x4x16x24xf32>) outs(%11, %9 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %23 = linalg.index 3 : index
      %24 = arith.index_cast %23 : index to i64
      %25 = arith.maximumf %in, %out : f32
      %26 = arith.cmpf ogt, %in, %out : f32
      %27 = arith.select %26, %24, %out_14 : i64
      linalg.yield %25, %27 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_8 = tensor.expand_shape %12#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_8 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%6 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %23 = arith.subf %in, %in_14 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x4x16x24xf32>) outs(%6 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = math.exp %in : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %15 = tensor.empty() : tensor<2x4x16x1xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<2x4x16x24xf32>) outs(%16 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.addf %in, %out : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %17 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%6 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %23 = arith.divf %in, %in_14 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_9 = tensor.collapse_shape %18 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_10 = tensor.collapse_shape %transposed_4 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %19 = tensor.empty() : tensor<8x16x32xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %21 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%20 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_11 = tensor.expand_shape %21 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    %22 = tensor.empty() : tensor<2x16x4x32xf32>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<2x4x16x32xf32>) outs(%22 : tensor<2x16x4x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0], [1], [2, 3]] : tensor<2x16x4x32xf32> into tensor<2x16x128xf32>
    return %collapsed_13 : tensor<2x16x128xf32>
  }
}
