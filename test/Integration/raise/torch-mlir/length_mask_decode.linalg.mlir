// length_mask_decode (LengthMaskDecode: Keys at or past each sequence's cache length masked out.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=76 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @length_mask_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map6 = affine_map<(d0, d1, d2) -> ()>
#map7 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map8 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @length_mask_decode(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2xi64>) -> tensor<2x4x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant 5.6568542494923806 : f64
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x4x32xf32> into tensor<8x32xf32>
    %expanded = tensor.expand_shape %collapsed [[0], [1, 2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
    %0 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_3 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %1 = tensor.empty() : tensor<8x1x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x1x24xf32>) -> tensor<8x1x24xf32>
    %3 = linalg.batch_matmul ins(%expanded, %collapsed_3 : tensor<8x1x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x1x24xf32>) -> tensor<8x1x24xf32>
    %expanded_4 = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 1, 24] : tensor<8x1x24xf32> into tensor<2x4x1x24xf32>
    %4 = tensor.empty() : tensor<2x4x24x1xf32>
    %transposed_5 = linalg.transpose ins(%expanded_4 : tensor<2x4x1x24xf32>) outs(%4 : tensor<2x4x24x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_6 = tensor.collapse_shape %transposed_5 [[0], [1], [2, 3]] : tensor<2x4x24x1xf32> into tensor<2x4x24xf32>
    %5 = tensor.empty() : tensor<2x4x24xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_6 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.truncf %cst_2 : f64 to f32
      %28 = arith.divf %in, %27 : f32
      linalg.yield %28 : f32
    } -> tensor<2x4x24xf32>
    %7 = tensor.empty() : tensor<24xi64>
    %8 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%7 : tensor<24xi64>) {
    ^bb0(%out: i64):
      %27 = linalg.index 0 : index
      %28 = arith.index_cast %27 : index to i64
      linalg.yield %28 : i64
    } -> tensor<24xi64>
    %expanded_7 = tensor.expand_shape %8 [[0, 1]] output_shape [1, 24] : tensor<24xi64> into tensor<1x24xi64>
    %expanded_8 = tensor.expand_shape %arg3 [[0, 1]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
    %9 = tensor.empty() : tensor<2x24xi1>
    %10 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded_7, %expanded_8 : tensor<1x24xi64>, tensor<2x1xi64>) outs(%9 : tensor<2x24xi1>) {
    ^bb0(%in: i64, %in_17: i64, %out: i1):
      %27 = arith.cmpi sge, %in, %in_17 : i64
      linalg.yield %27 : i1
    } -> tensor<2x24xi1>
    %expanded_9 = tensor.expand_shape %10 [[0], [1, 2]] output_shape [2, 1, 24] : tensor<2x24xi1> into tensor<2x1x24xi1>
    %11 = linalg.generic {indexing_maps = [#map5, #map6, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_9, %cst_1, %6 : tensor<2x1x24xi1>, tensor<f32>, tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: i1, %in_17: f32, %in_18: f32, %out: f32):
      %27 = arith.select %in, %in_17, %in_18 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x24xf32>
    %12 = tensor.empty() : tensor<2x4xi64>
    %13 = linalg.fill ins(%c0_i64 : i64) outs(%12 : tensor<2x4xi64>) -> tensor<2x4xi64>
    %14 = tensor.empty() : tensor<2x4xf32>
    %15 = linalg.fill ins(%cst_0 : f32) outs(%14 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %16:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "reduction"]} ins(%11 : tensor<2x4x24xf32>) outs(%15, %13 : tensor<2x4xf32>, tensor<2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_17: i64):
      %27 = linalg.index 2 : index
      %28 = arith.index_cast %27 : index to i64
      %29 = arith.maximumf %in, %out : f32
      %30 = arith.cmpf ogt, %in, %out : f32
      %31 = arith.select %30, %28, %out_17 : i64
      linalg.yield %29, %31 : f32, i64
    } -> (tensor<2x4xf32>, tensor<2x4xi64>)
    %expanded_10 = tensor.expand_shape %16#0 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %expanded_10 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %27 = arith.subf %in, %in_17 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x24xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.exp %in : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x24xf32>
    %19 = tensor.empty() : tensor<2x4x1xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%18 : tensor<2x4x24xf32>) outs(%20 : tensor<2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %out : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x1xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %21 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %27 = arith.divf %in, %in_17 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x24xf32>
    %collapsed_11 = tensor.collapse_shape %22 [[0, 1], [2]] : tensor<2x4x24xf32> into tensor<8x24xf32>
    %expanded_12 = tensor.expand_shape %collapsed_11 [[0], [1, 2]] output_shape [8, 1, 24] : tensor<8x24xf32> into tensor<8x1x24xf32>
    %collapsed_13 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %23 = tensor.empty() : tensor<8x1x32xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %25 = linalg.batch_matmul ins(%expanded_12, %collapsed_13 : tensor<8x1x24xf32>, tensor<8x24x32xf32>) outs(%24 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %expanded_14 = tensor.expand_shape %25 [[0, 1], [2], [3]] output_shape [2, 4, 1, 32] : tensor<8x1x32xf32> into tensor<2x4x1x32xf32>
    %26 = tensor.empty() : tensor<2x4x32x1xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<2x4x1x32xf32>) outs(%26 : tensor<2x4x32x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_16 = tensor.collapse_shape %transposed_15 [[0], [1], [2, 3]] : tensor<2x4x32x1xf32> into tensor<2x4x32xf32>
    return %collapsed_16 : tensor<2x4x32xf32>
  }
}
