// mqa_decode_einsum (MqaDecodeEinsum: A multi-query decode step: 'bhd,bkd->bhk' (the heads are the rows that share K and V).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=89 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x2x4x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @mqa_decode_einsum: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @mqa_decode_einsum(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x24x32xf32>, %arg2: tensor<2x24x32xf32>) -> tensor<2x4x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %expanded = tensor.expand_shape %arg1 [[0], [1], [2, 3]] output_shape [2, 24, 32, 1] : tensor<2x24x32xf32> into tensor<2x24x32x1xf32>
    %0 = tensor.empty() : tensor<2x32x24x1xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x24x32x1xf32>) outs(%0 : tensor<2x32x24x1xf32>) permutation = [0, 2, 1, 3] 
    %collapsed = tensor.collapse_shape %transposed [[0], [1], [2, 3]] : tensor<2x32x24x1xf32> into tensor<2x32x24xf32>
    %1 = tensor.empty() : tensor<2x4x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %3 = linalg.batch_matmul ins(%arg0, %collapsed : tensor<2x4x32xf32>, tensor<2x32x24xf32>) outs(%2 : tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %expanded_2 = tensor.expand_shape %3 [[0], [1], [2, 3]] output_shape [2, 4, 1, 24] : tensor<2x4x24xf32> into tensor<2x4x1x24xf32>
    %4 = tensor.empty() : tensor<2x4x24x1xf32>
    %transposed_3 = linalg.transpose ins(%expanded_2 : tensor<2x4x1x24xf32>) outs(%4 : tensor<2x4x24x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_4 = tensor.collapse_shape %transposed_3 [[0], [1], [2, 3]] : tensor<2x4x24x1xf32> into tensor<2x4x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_4 : tensor<2x4x24xf32>) outs(%1 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = arith.truncf %cst_1 : f64 to f32
      %22 = arith.divf %in, %21 : f32
      linalg.yield %22 : f32
    } -> tensor<2x4x24xf32>
    %6 = tensor.empty() : tensor<2x4xi64>
    %7 = linalg.fill ins(%c0_i64 : i64) outs(%6 : tensor<2x4xi64>) -> tensor<2x4xi64>
    %8 = tensor.empty() : tensor<2x4xf32>
    %9 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %10:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%5 : tensor<2x4x24xf32>) outs(%9, %7 : tensor<2x4xf32>, tensor<2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %21 = linalg.index 2 : index
      %22 = arith.index_cast %21 : index to i64
      %23 = arith.maximumf %in, %out : f32
      %24 = arith.cmpf ogt, %in, %out : f32
      %25 = arith.select %24, %22, %out_9 : i64
      linalg.yield %23, %25 : f32, i64
    } -> (tensor<2x4xf32>, tensor<2x4xi64>)
    %expanded_5 = tensor.expand_shape %10#0 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %expanded_5 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%1 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %21 = arith.subf %in, %in_9 : f32
      linalg.yield %21 : f32
    } -> tensor<2x4x24xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<2x4x24xf32>) outs(%1 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = math.exp %in : f32
      linalg.yield %21 : f32
    } -> tensor<2x4x24xf32>
    %13 = tensor.empty() : tensor<2x4x1xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%12 : tensor<2x4x24xf32>) outs(%14 : tensor<2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = arith.addf %in, %out : f32
      linalg.yield %21 : f32
    } -> tensor<2x4x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %15 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%1 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %21 = arith.divf %in, %in_9 : f32
      linalg.yield %21 : f32
    } -> tensor<2x4x24xf32>
    %17 = tensor.empty() : tensor<2x4x32xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
    %19 = linalg.batch_matmul ins(%16, %arg2 : tensor<2x4x24xf32>, tensor<2x24x32xf32>) outs(%18 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
    %expanded_6 = tensor.expand_shape %19 [[0], [1], [2, 3]] output_shape [2, 4, 1, 32] : tensor<2x4x32xf32> into tensor<2x4x1x32xf32>
    %20 = tensor.empty() : tensor<2x4x32x1xf32>
    %transposed_7 = linalg.transpose ins(%expanded_6 : tensor<2x4x1x32xf32>) outs(%20 : tensor<2x4x32x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_8 = tensor.collapse_shape %transposed_7 [[0], [1], [2, 3]] : tensor<2x4x32x1xf32> into tensor<2x4x32xf32>
    return %collapsed_8 : tensor<2x4x32xf32>
  }
}
