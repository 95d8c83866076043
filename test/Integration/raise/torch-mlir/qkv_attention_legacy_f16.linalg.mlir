// qkv_attention_legacy_f16 (QkvAttentionLegacy: OpenAI's guided-diffusion / Stable Diffusion QKVAttention: [B*H, D, T] channels first, q and k each scaled by d ** -0.25, P·V written V·Pᵀ (einsum('bts,bcs->bct')), the softmax in f32.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=135 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x8x24x32xf16>) {scale = 0.1767{{[0-9]+}} : f32}
// PROOF: @qkv_attention_legacy_f16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @qkv_attention_legacy_f16(%arg0: tensor<8x32x16xf16>, %arg1: tensor<8x32x24xf16>, %arg2: tensor<8x32x24xf16>) -> tensor<8x32x16xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.42044820762685731 : f64
    %0 = tensor.empty() : tensor<8x32x16xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x32x16xf16>) outs(%0 : tensor<8x32x16xf16>) {
    ^bb0(%in: f16, %out: f16):
      %30 = arith.truncf %cst_1 : f64 to f16
      %31 = arith.mulf %in, %30 : f16
      linalg.yield %31 : f16
    } -> tensor<8x32x16xf16>
    %2 = tensor.empty() : tensor<8x32x24xf16>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<8x32x24xf16>) outs(%2 : tensor<8x32x24xf16>) {
    ^bb0(%in: f16, %out: f16):
      %30 = arith.truncf %cst_1 : f64 to f16
      %31 = arith.mulf %in, %30 : f16
      linalg.yield %31 : f16
    } -> tensor<8x32x24xf16>
    %expanded = tensor.expand_shape %1 [[0], [1], [2, 3]] output_shape [8, 32, 16, 1] : tensor<8x32x16xf16> into tensor<8x32x16x1xf16>
    %4 = tensor.empty() : tensor<8x16x32x1xf16>
    %transposed = linalg.transpose ins(%expanded : tensor<8x32x16x1xf16>) outs(%4 : tensor<8x16x32x1xf16>) permutation = [0, 2, 1, 3] 
    %collapsed = tensor.collapse_shape %transposed [[0], [1], [2, 3]] : tensor<8x16x32x1xf16> into tensor<8x16x32xf16>
    %5 = tensor.empty() : tensor<8x16x24xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %7 = linalg.batch_matmul ins(%collapsed, %3 : tensor<8x16x32xf16>, tensor<8x32x24xf16>) outs(%6 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %8 = tensor.empty() : tensor<8x16x24xf16>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<8x16x24xf32>) outs(%8 : tensor<8x16x24xf16>) {
    ^bb0(%in: f32, %out: f16):
      %30 = arith.truncf %in : f32 to f16
      linalg.yield %30 : f16
    } -> tensor<8x16x24xf16>
    %expanded_2 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [8, 16, 1, 24] : tensor<8x16x24xf16> into tensor<8x16x1x24xf16>
    %10 = tensor.empty() : tensor<8x16x24x1xf16>
    %transposed_3 = linalg.transpose ins(%expanded_2 : tensor<8x16x1x24xf16>) outs(%10 : tensor<8x16x24x1xf16>) permutation = [0, 1, 3, 2] 
    %collapsed_4 = tensor.collapse_shape %transposed_3 [[0], [1], [2, 3]] : tensor<8x16x24x1xf16> into tensor<8x16x24xf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_4 : tensor<8x16x24xf16>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f16, %out: f32):
      %30 = arith.extf %in : f16 to f32
      linalg.yield %30 : f32
    } -> tensor<8x16x24xf32>
    %12 = tensor.empty() : tensor<8x16xi64>
    %13 = linalg.fill ins(%c0_i64 : i64) outs(%12 : tensor<8x16xi64>) -> tensor<8x16xi64>
    %14 = tensor.empty() : tensor<8x16xf32>
    %15 = linalg.fill ins(%cst_0 : f32) outs(%14 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %16:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%11 : tensor<8x16x24xf32>) outs(%15, %13 : tensor<8x16xf32>, tensor<8x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_12: i64):
      %30 = linalg.index 2 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_12 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<8x16xf32>, tensor<8x16xi64>)
    %expanded_5 = tensor.expand_shape %16#0 [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf32> into tensor<8x16x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %expanded_5 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %30 = arith.subf %in, %in_12 : f32
      linalg.yield %30 : f32
    } -> tensor<8x16x24xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<8x16x24xf32>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<8x16x24xf32>
    %19 = tensor.empty() : tensor<8x16x1xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%18 : tensor<8x16x24xf32>) outs(%20 : tensor<8x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<8x16x1xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %21 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%5 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %30 = arith.divf %in, %in_12 : f32
      linalg.yield %30 : f32
    } -> tensor<8x16x24xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<8x16x24xf32>) outs(%8 : tensor<8x16x24xf16>) {
    ^bb0(%in: f32, %out: f16):
      %30 = arith.truncf %in : f32 to f16
      linalg.yield %30 : f16
    } -> tensor<8x16x24xf16>
    %expanded_6 = tensor.expand_shape %23 [[0], [1], [2, 3]] output_shape [8, 16, 24, 1] : tensor<8x16x24xf16> into tensor<8x16x24x1xf16>
    %24 = tensor.empty() : tensor<8x24x16x1xf16>
    %transposed_7 = linalg.transpose ins(%expanded_6 : tensor<8x16x24x1xf16>) outs(%24 : tensor<8x24x16x1xf16>) permutation = [0, 2, 1, 3] 
    %collapsed_8 = tensor.collapse_shape %transposed_7 [[0], [1], [2, 3]] : tensor<8x24x16x1xf16> into tensor<8x24x16xf16>
    %25 = tensor.empty() : tensor<8x32x16xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<8x32x16xf32>) -> tensor<8x32x16xf32>
    %27 = linalg.batch_matmul ins(%arg2, %collapsed_8 : tensor<8x32x24xf16>, tensor<8x24x16xf16>) outs(%26 : tensor<8x32x16xf32>) -> tensor<8x32x16xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%27 : tensor<8x32x16xf32>) outs(%0 : tensor<8x32x16xf16>) {
    ^bb0(%in: f32, %out: f16):
      %30 = arith.truncf %in : f32 to f16
      linalg.yield %30 : f16
    } -> tensor<8x32x16xf16>
    %expanded_9 = tensor.expand_shape %28 [[0], [1], [2, 3]] output_shape [8, 32, 1, 16] : tensor<8x32x16xf16> into tensor<8x32x1x16xf16>
    %29 = tensor.empty() : tensor<8x32x16x1xf16>
    %transposed_10 = linalg.transpose ins(%expanded_9 : tensor<8x32x1x16xf16>) outs(%29 : tensor<8x32x16x1xf16>) permutation = [0, 1, 3, 2] 
    %collapsed_11 = tensor.collapse_shape %transposed_10 [[0], [1], [2, 3]] : tensor<8x32x16x1xf16> into tensor<8x32x16xf16>
    return %collapsed_11 : tensor<8x32x16xf16>
  }
}
