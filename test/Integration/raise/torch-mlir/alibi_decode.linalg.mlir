// alibi_decode (AlibiDecode: A decode step with ALiBi: slope_h * (j - (Lk - 1)) added.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=85 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<1x4x1x24xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @alibi_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @alibi_decode(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<4xf32>) -> tensor<2x4x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %cst_2 = arith.constant 2.300000e+01 : f32
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
      %31 = arith.truncf %cst_1 : f64 to f32
      %32 = arith.divf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<2x4x24xf32>
    %7 = tensor.empty() : tensor<24xi64>
    %8 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%7 : tensor<24xi64>) {
    ^bb0(%out: i64):
      %31 = linalg.index 0 : index
      %32 = arith.index_cast %31 : index to i64
      linalg.yield %32 : i64
    } -> tensor<24xi64>
    %9 = tensor.empty() : tensor<24xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%8 : tensor<24xi64>) outs(%9 : tensor<24xf32>) {
    ^bb0(%in: i64, %out: f32):
      %31 = arith.sitofp %in : i64 to f32
      linalg.yield %31 : f32
    } -> tensor<24xf32>
    %expanded_7 = tensor.expand_shape %arg3 [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xf32> into tensor<1x4x1xf32>
    %expanded_8 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [1, 1, 24] : tensor<24xf32> into tensor<1x1x24xf32>
    %11 = tensor.empty() : tensor<1x1x24xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_8 : tensor<1x1x24xf32>) outs(%11 : tensor<1x1x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.subf %in, %cst_2 : f32
      linalg.yield %31 : f32
    } -> tensor<1x1x24xf32>
    %13 = tensor.empty() : tensor<1x4x24xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map3, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_7, %12 : tensor<1x4x1xf32>, tensor<1x1x24xf32>) outs(%13 : tensor<1x4x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %31 = arith.mulf %in, %in_16 : f32
      linalg.yield %31 : f32
    } -> tensor<1x4x24xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %14 : tensor<2x4x24xf32>, tensor<1x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %31 = arith.addf %in, %in_16 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x24xf32>
    %16 = tensor.empty() : tensor<2x4xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<2x4xi64>) -> tensor<2x4xi64>
    %18 = tensor.empty() : tensor<2x4xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %20:2 = linalg.generic {indexing_maps = [#map, #map5, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x24xf32>) outs(%19, %17 : tensor<2x4xf32>, tensor<2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_16: i64):
      %31 = linalg.index 2 : index
      %32 = arith.index_cast %31 : index to i64
      %33 = arith.maximumf %in, %out : f32
      %34 = arith.cmpf ogt, %in, %out : f32
      %35 = arith.select %34, %32, %out_16 : i64
      linalg.yield %33, %35 : f32, i64
    } -> (tensor<2x4xf32>, tensor<2x4xi64>)
    %expanded_9 = tensor.expand_shape %20#0 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15, %expanded_9 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %31 = arith.subf %in, %in_16 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x24xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.exp %in : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x24xf32>
    %23 = tensor.empty() : tensor<2x4x1xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%22 : tensor<2x4x24xf32>) outs(%24 : tensor<2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.addf %in, %out : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x1xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %31 = arith.divf %in, %in_16 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x24xf32>
    %collapsed_10 = tensor.collapse_shape %26 [[0, 1], [2]] : tensor<2x4x24xf32> into tensor<8x24xf32>
    %expanded_11 = tensor.expand_shape %collapsed_10 [[0], [1, 2]] output_shape [8, 1, 24] : tensor<8x24xf32> into tensor<8x1x24xf32>
    %collapsed_12 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %27 = tensor.empty() : tensor<8x1x32xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %29 = linalg.batch_matmul ins(%expanded_11, %collapsed_12 : tensor<8x1x24xf32>, tensor<8x24x32xf32>) outs(%28 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %expanded_13 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 1, 32] : tensor<8x1x32xf32> into tensor<2x4x1x32xf32>
    %30 = tensor.empty() : tensor<2x4x32x1xf32>
    %transposed_14 = linalg.transpose ins(%expanded_13 : tensor<2x4x1x32xf32>) outs(%30 : tensor<2x4x32x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_15 = tensor.collapse_shape %transposed_14 [[0], [1], [2, 3]] : tensor<2x4x32x1xf32> into tensor<2x4x32xf32>
    return %collapsed_15 : tensor<2x4x32xf32>
  }
}
