// whisper_cross (WhisperCross: Whisper's (and BART's) cross attention: q_proj(x) * scaling on [B, L, H*D] before the heads are split out, bmm on [B*H, L, D], Lq != Lk.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=127 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @whisper_cross: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @whisper_cross(%arg0: tensor<2x16x128xf32>, %arg1: tensor<2x24x128xf32>, %arg2: tensor<2x24x128xf32>) -> tensor<2x16x128xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.17677669529663689 : f64
    %0 = tensor.empty() : tensor<2x16x128xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x16x128xf32>) outs(%0 : tensor<2x16x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.truncf %cst_1 : f64 to f32
      %24 = arith.mulf %in, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<2x16x128xf32>
    %expanded = tensor.expand_shape %1 [[0], [1], [2, 3]] output_shape [2, 16, 4, 32] : tensor<2x16x128xf32> into tensor<2x16x4x32xf32>
    %2 = tensor.empty() : tensor<2x4x16x32xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x16x4x32xf32>) outs(%2 : tensor<2x4x16x32xf32>) permutation = [0, 2, 1, 3] 
    %expanded_2 = tensor.expand_shape %arg1 [[0], [1], [2, 3]] output_shape [2, 24, 4, 32] : tensor<2x24x128xf32> into tensor<2x24x4x32xf32>
    %3 = tensor.empty() : tensor<2x4x24x32xf32>
    %transposed_3 = linalg.transpose ins(%expanded_2 : tensor<2x24x4x32xf32>) outs(%3 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3] 
    %expanded_4 = tensor.expand_shape %arg2 [[0], [1], [2, 3]] output_shape [2, 24, 4, 32] : tensor<2x24x128xf32> into tensor<2x24x4x32xf32>
    %transposed_5 = linalg.transpose ins(%expanded_4 : tensor<2x24x4x32xf32>) outs(%3 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_6 = tensor.collapse_shape %transposed_3 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %collapsed_7 = tensor.collapse_shape %transposed_5 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %4 = tensor.empty() : tensor<8x32x24xf32>
    %transposed_8 = linalg.transpose ins(%collapsed_6 : tensor<8x24x32xf32>) outs(%4 : tensor<8x32x24xf32>) permutation = [0, 2, 1] 
    %5 = tensor.empty() : tensor<8x16x24xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %7 = linalg.batch_matmul ins(%collapsed, %transposed_8 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%6 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %8 = tensor.empty() : tensor<8x16xi64>
    %9 = linalg.fill ins(%c0_i64 : i64) outs(%8 : tensor<8x16xi64>) -> tensor<8x16xi64>
    %10 = tensor.empty() : tensor<8x16xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %12:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<8x16x24xf32>) outs(%11, %9 : tensor<8x16xf32>, tensor<8x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_13: i64):
      %23 = linalg.index 2 : index
      %24 = arith.index_cast %23 : index to i64
      %25 = arith.maximumf %in, %out : f32
      %26 = arith.cmpf ogt, %in, %out : f32
      %27 = arith.select %26, %24, %out_13 : i64
      linalg.yield %25, %27 : f32, i64
    } -> (tensor<8x16xf32>, tensor<8x16xi64>)
    %expanded_9 = tensor.expand_shape %12#0 [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf32> into tensor<8x16x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %expanded_9 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %23 = arith.subf %in, %in_13 : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x24xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<8x16x24xf32>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = math.exp %in : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x24xf32>
    %15 = tensor.empty() : tensor<8x16x1xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%14 : tensor<8x16x24xf32>) outs(%16 : tensor<8x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.addf %in, %out : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %17 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %23 = arith.divf %in, %in_13 : f32
      linalg.yield %23 : f32
    } -> tensor<8x16x24xf32>
    %19 = tensor.empty() : tensor<8x16x32xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %21 = linalg.batch_matmul ins(%18, %collapsed_7 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%20 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_10 = tensor.expand_shape %21 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    %22 = tensor.empty() : tensor<2x16x4x32xf32>
    %transposed_11 = linalg.transpose ins(%expanded_10 : tensor<2x4x16x32xf32>) outs(%22 : tensor<2x16x4x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_12 = tensor.collapse_shape %transposed_11 [[0], [1], [2, 3]] : tensor<2x16x4x32xf32> into tensor<2x16x128xf32>
    return %collapsed_12 : tensor<2x16x128xf32>
  }
}
