// cache_layout_decode_bf16 (CacheLayoutDecode: A cache laid out [B, T, H, D] (JAX, vLLM), bf16 products and an f32 softmax.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=74 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x4x1x32xbf16>, tensor<2x4x24x32xbf16>, tensor<2x4x24x32xbf16>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @cache_layout_decode_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @cache_layout_decode_bf16(%arg0: tensor<2x4x32xbf16>, %arg1: tensor<2x24x4x32xbf16>, %arg2: tensor<2x24x4x32xbf16>) -> tensor<2x4x32xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x4x32xbf16> into tensor<8x32xbf16>
    %expanded = tensor.expand_shape %collapsed [[0], [1, 2]] output_shape [8, 1, 32] : tensor<8x32xbf16> into tensor<8x1x32xbf16>
    %0 = tensor.empty() : tensor<2x4x32x24xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x24x4x32xbf16>) outs(%0 : tensor<2x4x32x24xbf16>) permutation = [0, 2, 3, 1] 
    %collapsed_2 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xbf16> into tensor<8x32x24xbf16>
    %1 = tensor.empty() : tensor<8x1x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x1x24xf32>) -> tensor<8x1x24xf32>
    %3 = linalg.batch_matmul ins(%expanded, %collapsed_2 : tensor<8x1x32xbf16>, tensor<8x32x24xbf16>) outs(%2 : tensor<8x1x24xf32>) -> tensor<8x1x24xf32>
    %4 = tensor.empty() : tensor<8x1x24xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<8x1x24xf32>) outs(%4 : tensor<8x1x24xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %30 = arith.truncf %in : f32 to bf16
      linalg.yield %30 : bf16
    } -> tensor<8x1x24xbf16>
    %expanded_3 = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 1, 24] : tensor<8x1x24xbf16> into tensor<2x4x1x24xbf16>
    %6 = tensor.empty() : tensor<2x4x24x1xbf16>
    %transposed_4 = linalg.transpose ins(%expanded_3 : tensor<2x4x1x24xbf16>) outs(%6 : tensor<2x4x24x1xbf16>) permutation = [0, 1, 3, 2] 
    %collapsed_5 = tensor.collapse_shape %transposed_4 [[0], [1], [2, 3]] : tensor<2x4x24x1xbf16> into tensor<2x4x24xbf16>
    %7 = tensor.empty() : tensor<2x4x24xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_5 : tensor<2x4x24xbf16>) outs(%7 : tensor<2x4x24xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %30 = arith.extf %in : bf16 to f32
      linalg.yield %30 : f32
    } -> tensor<2x4x24xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<2x4x24xf32>) outs(%7 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.truncf %cst_1 : f64 to f32
      %31 = arith.divf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x24xf32>
    %10 = tensor.empty() : tensor<2x4xi64>
    %11 = linalg.fill ins(%c0_i64 : i64) outs(%10 : tensor<2x4xi64>) -> tensor<2x4xi64>
    %12 = tensor.empty() : tensor<2x4xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %14:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9 : tensor<2x4x24xf32>) outs(%13, %11 : tensor<2x4xf32>, tensor<2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %30 = linalg.index 2 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_14 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4xf32>, tensor<2x4xi64>)
    %expanded_6 = tensor.expand_shape %14#0 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %expanded_6 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%7 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %30 = arith.subf %in, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x24xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<2x4x24xf32>) outs(%7 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x24xf32>
    %17 = tensor.empty() : tensor<2x4x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x24xf32>) outs(%18 : tensor<2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %19 : tensor<2x4x24xf32>, tensor<2x4x1xf32>) outs(%7 : tensor<2x4x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %30 = arith.divf %in, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x24xf32>
    %21 = tensor.empty() : tensor<2x4x24xbf16>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<2x4x24xf32>) outs(%21 : tensor<2x4x24xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %30 = arith.truncf %in : f32 to bf16
      linalg.yield %30 : bf16
    } -> tensor<2x4x24xbf16>
    %collapsed_7 = tensor.collapse_shape %22 [[0, 1], [2]] : tensor<2x4x24xbf16> into tensor<8x24xbf16>
    %expanded_8 = tensor.expand_shape %collapsed_7 [[0], [1, 2]] output_shape [8, 1, 24] : tensor<8x24xbf16> into tensor<8x1x24xbf16>
    %23 = tensor.empty() : tensor<2x4x24x32xbf16>
    %transposed_9 = linalg.transpose ins(%arg2 : tensor<2x24x4x32xbf16>) outs(%23 : tensor<2x4x24x32xbf16>) permutation = [0, 2, 1, 3] 
    %collapsed_10 = tensor.collapse_shape %transposed_9 [[0, 1], [2], [3]] : tensor<2x4x24x32xbf16> into tensor<8x24x32xbf16>
    %24 = tensor.empty() : tensor<8x1x32xf32>
    %25 = linalg.fill ins(%cst : f32) outs(%24 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %26 = linalg.batch_matmul ins(%expanded_8, %collapsed_10 : tensor<8x1x24xbf16>, tensor<8x24x32xbf16>) outs(%25 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %27 = tensor.empty() : tensor<8x1x32xbf16>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%26 : tensor<8x1x32xf32>) outs(%27 : tensor<8x1x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %30 = arith.truncf %in : f32 to bf16
      linalg.yield %30 : bf16
    } -> tensor<8x1x32xbf16>
    %expanded_11 = tensor.expand_shape %28 [[0, 1], [2], [3]] output_shape [2, 4, 1, 32] : tensor<8x1x32xbf16> into tensor<2x4x1x32xbf16>
    %29 = tensor.empty() : tensor<2x4x32x1xbf16>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<2x4x1x32xbf16>) outs(%29 : tensor<2x4x32x1xbf16>) permutation = [0, 1, 3, 2] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0], [1], [2, 3]] : tensor<2x4x32x1xbf16> into tensor<2x4x32xbf16>
    return %collapsed_13 : tensor<2x4x32xbf16>
  }
}
