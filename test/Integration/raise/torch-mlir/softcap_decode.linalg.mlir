// softcap_decode (SoftcapDecode: A decode step with Gemma-2's softcap, tanh(s / 50) * 50.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=83 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x4x1x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32, softcap = 5.000000e+01 : f32}
// CHECK-NOT: linalg.
// PROOF: @softcap_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @softcap_decode(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %cst_2 = arith.constant 5.000000e+01 : f32
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
      %25 = arith.truncf %cst_1 : f64 to f32
      %26 = arith.divf %in, %25 : f32
      linalg.yield %26 : f32
    } -> tensor<2x4x24xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = arith.divf %in, %cst_2 : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x24xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = math.tanh %in : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x24xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = arith.mulf %in, %cst_2 : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x24xf32>
    %10 = tensor.empty() : tensor<2x4xi64>
    %11 = linalg.fill ins(%c0_i64 : i64) outs(%10 : tensor<2x4xi64>) -> tensor<2x4xi64>
    %12 = tensor.empty() : tensor<2x4xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %14:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9 : tensor<2x4x24xf32>) outs(%13, %11 : tensor<2x4xf32>, tensor<2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %25 = linalg.index 2 : index
      %26 = arith.index_cast %25 : index to i64
      %27 = arith.maximumf %in, %out : f32
      %28 = arith.cmpf ogt, %in, %out : f32
      %29 = arith.select %28, %26, %out_14 : i64
      linalg.yield %27, %29 : f32, i64
    } -> (tensor<2x4xf32>, tensor<2x4xi64>)
    %expanded_7 = tensor.expand_shape %14#0 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %expanded_7 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %25 = arith.subf %in, %in_14 : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x24xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<2x4x24xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = math.exp %in : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x24xf32>
    %17 = tensor.empty() : tensor<2x4x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x24xf32>) outs(%18 : tensor<2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = arith.addf %in, %out : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %19 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%5 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %25 = arith.divf %in, %in_14 : f32
      linalg.yield %25 : f32
    } -> tensor<2x4x24xf32>
    %collapsed_8 = tensor.collapse_shape %20 [[0, 1], [2]] : tensor<2x4x24xf32> into tensor<8x24xf32>
    %expanded_9 = tensor.expand_shape %collapsed_8 [[0], [1, 2]] output_shape [8, 1, 24] : tensor<8x24xf32> into tensor<8x1x24xf32>
    %collapsed_10 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %21 = tensor.empty() : tensor<8x1x32xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %23 = linalg.batch_matmul ins(%expanded_9, %collapsed_10 : tensor<8x1x24xf32>, tensor<8x24x32xf32>) outs(%22 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %expanded_11 = tensor.expand_shape %23 [[0, 1], [2], [3]] output_shape [2, 4, 1, 32] : tensor<8x1x32xf32> into tensor<2x4x1x32xf32>
    %24 = tensor.empty() : tensor<2x4x32x1xf32>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<2x4x1x32xf32>) outs(%24 : tensor<2x4x32x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0], [1], [2, 3]] : tensor<2x4x32x1xf32> into tensor<2x4x32xf32>
    return %collapsed_13 : tensor<2x4x32xf32>
  }
}
