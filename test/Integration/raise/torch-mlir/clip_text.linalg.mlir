// clip_text (ClipText: CLIP's text encoder: a 3-D bmm of the scaled queries, viewed as 4-D to add the causal and the padding masks (both inputs).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=64 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x16x16xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @clip_text: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @clip_text(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x1x16x16xf32>, %arg4: tensor<2x1x16x16xf32>) -> tensor<8x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.17677669529663689 : f64
    %0 = tensor.empty() : tensor<2x4x16x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x16x32xf32>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.truncf %cst_1 : f64 to f32
      %24 = arith.mulf %in, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x32xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_2 = tensor.collapse_shape %arg1 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %2 = tensor.empty() : tensor<8x32x16xf32>
    %transposed = linalg.transpose ins(%collapsed_2 : tensor<8x16x32xf32>) outs(%2 : tensor<8x32x16xf32>) permutation = [0, 2, 1] 
    %3 = tensor.empty() : tensor<8x16x16xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %transposed : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%4 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %6 = tensor.empty() : tensor<2x4x16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %arg3 : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %23 = arith.addf %in, %in_6 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %arg4 : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %23 = arith.addf %in, %in_6 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_3 = tensor.collapse_shape %8 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %9 = tensor.empty() : tensor<8x16xi64>
    %10 = linalg.fill ins(%c0_i64 : i64) outs(%9 : tensor<8x16xi64>) -> tensor<8x16xi64>
    %11 = tensor.empty() : tensor<8x16xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %13:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%collapsed_3 : tensor<8x16x16xf32>) outs(%12, %10 : tensor<8x16xf32>, tensor<8x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_6: i64):
      %23 = linalg.index 2 : index
      %24 = arith.index_cast %23 : index to i64
      %25 = arith.maximumf %in, %out : f32
      %26 = arith.cmpf ogt, %in, %out : f32
      %27 = arith.select %26, %24, %out_6 : i64
      linalg.yield %25, %27 : f32, i64
    } -> (tensor<8x16xf32>, tensor<8x16xi64>)
    %expanded_4 = tensor.expand_shape %13#0 [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf32> into tensor<8x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_3, %expanded_4 : tensor<8x16x16xf32>, tensor<8x16x1xf32>) outs(%3 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %23 = arith.subf %in, %in_6 : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14 : tensor<8x16x16xf32>) outs(%3 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = math.exp %in : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x16xf32>
    %16 = tensor.empty() : tensor<8x16x1xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%15 : tensor<8x16x16xf32>) outs(%17 : tensor<8x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.addf %in, %out : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15, %18 : tensor<8x16x16xf32>, tensor<8x16x1xf32>) outs(%3 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %23 = arith.divf %in, %in_6 : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x16xf32>
    %collapsed_5 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %20 = tensor.empty() : tensor<8x16x32xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %22 = linalg.batch_matmul ins(%19, %collapsed_5 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%21 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    return %22 : tensor<8x16x32xf32>
  }
}
