// sliding_window (SlidingWindow), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=19 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32, window = array<i64: 3, -1>}
// CHECK-NOT: linalg.
// PROOF: @sliding_window: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sliding_window(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %c4_i64 = arith.constant 4 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %30 = linalg.index 0 : index
      %31 = arith.index_cast %30 : index to i64
      linalg.yield %31 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %expanded_3 = tensor.expand_shape %1 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %2 = tensor.empty() : tensor<16x16xi1>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_3, %expanded : tensor<1x16xi64>, tensor<16x1xi64>) outs(%2 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %in_10: i64, %out: i1):
      %30 = arith.cmpi sle, %in, %in_10 : i64
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %4 = tensor.empty() : tensor<16x1xi64>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<16x1xi64>) outs(%4 : tensor<16x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %30 = arith.subi %in, %c4_i64 : i64
      linalg.yield %30 : i64
    } -> tensor<16x1xi64>
    %6 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_3, %5 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%2 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %in_10: i64, %out: i1):
      %30 = arith.cmpi sgt, %in, %in_10 : i64
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3, %6 : tensor<16x16xi1>, tensor<16x16xi1>) outs(%2 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %in_10: i1, %out: i1):
      %30 = arith.andi %in, %in_10 : i1
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %8 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%8 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %9 = tensor.empty() : tensor<8x16x16xf32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %11 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%10 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_5 = tensor.expand_shape %11 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %12 = tensor.empty() : tensor<2x4x16x16xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_5 : tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.truncf %cst_2 : f64 to f32
      %31 = arith.divf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %14 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<16x16xi1>) outs(%2 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %out: i1):
      %30 = arith.xori %in, %true : i1
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %15 = linalg.generic {indexing_maps = [#map5, #map6, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %cst_1, %13 : tensor<16x16xi1>, tensor<f32>, tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_10: f32, %in_11: f32, %out: f32):
      %30 = arith.select %in, %in_10, %in_11 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %16 = tensor.empty() : tensor<2x4x16xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %18 = tensor.empty() : tensor<2x4x16xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %20:2 = linalg.generic {indexing_maps = [#map4, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x16xf32>) outs(%19, %17 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_10: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_10 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_6 = tensor.expand_shape %20#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %21 = linalg.generic {indexing_maps = [#map4, #map8, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %expanded_6 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %30 = arith.subf %in, %in_10 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %22 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %23 = tensor.empty() : tensor<2x4x16x1xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map4, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%22 : tensor<2x4x16x16xf32>) outs(%24 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x1xf32>
    %26 = linalg.generic {indexing_maps = [#map4, #map8, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %30 = arith.divf %in, %in_10 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_7 = tensor.collapse_shape %26 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_8 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %27 = tensor.empty() : tensor<8x16x32xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %29 = linalg.batch_matmul ins(%collapsed_7, %collapsed_8 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%28 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_9 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_9 : tensor<2x4x16x32xf32>
  }
}
