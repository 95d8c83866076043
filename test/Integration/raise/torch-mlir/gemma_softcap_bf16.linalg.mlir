// gemma_softcap_bf16 (GemmaSoftcap), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=13 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.1767{{[0-9]+}} : f32, softcap = 5.000000e+01 : f32}
// CHECK-NOT: linalg.
// PROOF: @gemma_softcap_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gemma_softcap_bf16(%arg0: tensor<2x4x16x32xbf16>, %arg1: tensor<2x4x24x32xbf16>, %arg2: tensor<2x4x24x32xbf16>) -> tensor<2x4x16x32xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.17677669529663689 : f64
    %cst_2 = arith.constant 5.000000e+01 : bf16
    %0 = tensor.empty() : tensor<2x4x32x24xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xbf16>) outs(%0 : tensor<2x4x32x24xbf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xbf16> into tensor<8x16x32xbf16>
    %collapsed_3 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xbf16> into tensor<8x32x24xbf16>
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_3 : tensor<8x16x32xbf16>, tensor<8x32x24xbf16>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %4 = tensor.empty() : tensor<8x16x24xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<8x16x24xf32>) outs(%4 : tensor<8x16x24xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %30 = arith.truncf %in : f32 to bf16
      linalg.yield %30 : bf16
    } -> tensor<8x16x24xbf16>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xbf16> into tensor<2x4x16x24xbf16>
    %6 = tensor.empty() : tensor<2x4x16x24xbf16>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xbf16>) outs(%6 : tensor<2x4x16x24xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %30 = arith.truncf %cst_1 : f64 to bf16
      %31 = arith.mulf %in, %30 : bf16
      linalg.yield %31 : bf16
    } -> tensor<2x4x16x24xbf16>
    %8 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<2x4x16x24xbf16>) outs(%6 : tensor<2x4x16x24xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %30 = arith.divf %in, %cst_2 : bf16
      linalg.yield %30 : bf16
    } -> tensor<2x4x16x24xbf16>
    %9 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<2x4x16x24xbf16>) outs(%6 : tensor<2x4x16x24xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %30 = math.tanh %in : bf16
      linalg.yield %30 : bf16
    } -> tensor<2x4x16x24xbf16>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<2x4x16x24xbf16>) outs(%6 : tensor<2x4x16x24xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %30 = arith.mulf %in, %cst_2 : bf16
      linalg.yield %30 : bf16
    } -> tensor<2x4x16x24xbf16>
    %11 = tensor.empty() : tensor<2x4x16x24xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x4x16x24xbf16>) outs(%11 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %30 = arith.extf %in : bf16 to f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %13 = tensor.empty() : tensor<2x4x16xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %15 = tensor.empty() : tensor<2x4x16xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %17:2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%12 : tensor<2x4x16x24xf32>) outs(%16, %14 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_8: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_8 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_4 = tensor.expand_shape %17#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_4 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%11 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %30 = arith.subf %in, %in_8 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<2x4x16x24xf32>) outs(%11 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %20 = tensor.empty() : tensor<2x4x16x1xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%19 : tensor<2x4x16x24xf32>) outs(%21 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x1xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %22 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%11 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %30 = arith.divf %in, %in_8 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x16x24xf32>) outs(%6 : tensor<2x4x16x24xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %30 = arith.truncf %in : f32 to bf16
      linalg.yield %30 : bf16
    } -> tensor<2x4x16x24xbf16>
    %collapsed_5 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<2x4x16x24xbf16> into tensor<8x16x24xbf16>
    %collapsed_6 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xbf16> into tensor<8x24x32xbf16>
    %25 = tensor.empty() : tensor<8x16x32xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %27 = linalg.batch_matmul ins(%collapsed_5, %collapsed_6 : tensor<8x16x24xbf16>, tensor<8x24x32xbf16>) outs(%26 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %28 = tensor.empty() : tensor<8x16x32xbf16>
    %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%27 : tensor<8x16x32xf32>) outs(%28 : tensor<8x16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %30 = arith.truncf %in : f32 to bf16
      linalg.yield %30 : bf16
    } -> tensor<8x16x32xbf16>
    %expanded_7 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xbf16> into tensor<2x4x16x32xbf16>
    return %expanded_7 : tensor<2x4x16x32xbf16>
  }
}
